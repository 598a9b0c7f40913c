// Where the CLI's requests go: a remote accelplan-server through the client
// library, or the planner in-process over a catalog file (no server). Both
// speak accelplan.v1 protos so output is identical either way.
#ifndef ACCELPLAN_CLIENT_CLI_BACKEND_H_
#define ACCELPLAN_CLIENT_CLI_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "accelplan/v1/accelplan.pb.h"
#include "client/accelplan_client.h"

namespace accelplan::cli {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual absl::StatusOr<v1::PlanTrainingResponse> Plan(
      const v1::PlanTrainingRequest& request) const = 0;
  virtual absl::StatusOr<v1::ReviewPlanResponse> Review(
      const v1::ReviewPlanRequest& request) const = 0;
  virtual absl::StatusOr<v1::ListAcceleratorsResponse> List(
      const v1::ListAcceleratorsRequest& request) const = 0;
};

std::unique_ptr<Backend> MakeRemoteBackend(
    const std::string& target, const client::ClientOptions& options);

// Loads and validates the catalog at `catalog_path` (errors name the file).
// Requests are validated exactly as the server does: unknown enum values
// and semantic violations give INVALID_ARGUMENT listing every bad field.
absl::StatusOr<std::unique_ptr<Backend>> MakeLocalBackend(
    const std::string& catalog_path);

// The catalog an in-process run uses when --catalog is not given:
// catalog.db beside the executable (the build tree root), else
// <exe_dir>/../share/accelplan/catalog.db (an installed tree).
absl::StatusOr<std::string> DefaultCatalogPath();

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_BACKEND_H_
