#include "client/cli/backend.h"

#include <unistd.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "catalog/loader.h"
#include "planner/planner.h"
#include "server/conversion.h"

namespace accelplan::cli {
namespace {

class RemoteBackend final : public Backend {
 public:
  RemoteBackend(const std::string& target, const client::ClientOptions& options)
      : client_(target, options) {}

  absl::StatusOr<v1::PlanTrainingResponse> Plan(
      const v1::PlanTrainingRequest& request) const override {
    return client_.Plan(request);
  }
  absl::StatusOr<v1::ReviewPlanResponse> Review(
      const v1::ReviewPlanRequest& request) const override {
    return client_.Review(request);
  }
  absl::StatusOr<v1::ListAcceleratorsResponse> List(
      const v1::ListAcceleratorsRequest& request) const override {
    return client_.ListAccelerators(request);
  }

 private:
  client::Client client_;
};

// The same message shape the server uses for INVALID_ARGUMENT.
absl::Status ViolationsError(const server::Violations& violations) {
  std::vector<std::string> parts;
  for (const planner::FieldViolation& v : violations) {
    parts.push_back(absl::StrCat(v.field, ": ", v.description));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("invalid request: ", absl::StrJoin(parts, "; ")));
}

void Append(server::Violations* to, std::vector<planner::FieldViolation> from) {
  to->insert(to->end(), std::make_move_iterator(from.begin()),
             std::make_move_iterator(from.end()));
}

class LocalBackend final : public Backend {
 public:
  explicit LocalBackend(catalog::CatalogPtr catalog)
      : planner_(std::move(catalog)) {}

  absl::StatusOr<v1::PlanTrainingResponse> Plan(
      const v1::PlanTrainingRequest& request) const override {
    server::Violations violations;
    planner::PlanRequest in = server::FromProto(request, &violations);
    if (violations.empty())
      Append(&violations, planner::ValidatePlanRequest(in));
    if (!violations.empty()) return ViolationsError(violations);
    planner::PlanResponse out = planner_.Plan(in);
    if (server::IsBasicView(in)) server::ApplyBasicView(&out);
    v1::PlanTrainingResponse response;
    server::ToProto(out, &response);
    return response;
  }

  absl::StatusOr<v1::ReviewPlanResponse> Review(
      const v1::ReviewPlanRequest& request) const override {
    server::Violations violations;
    planner::ReviewRequest in = server::FromProto(request, &violations);
    if (violations.empty()) {
      Append(&violations, planner::ValidateReviewRequest(in));
    }
    if (!violations.empty()) return ViolationsError(violations);
    v1::ReviewPlanResponse response;
    server::ToProto(planner_.Review(in), &response);
    return response;
  }

  absl::StatusOr<v1::ListAcceleratorsResponse> List(
      const v1::ListAcceleratorsRequest& request) const override {
    server::Violations violations;
    planner::ListRequest in = server::FromProto(request, &violations);
    if (violations.empty())
      Append(&violations, planner::ValidateListRequest(in));
    if (!violations.empty()) return ViolationsError(violations);
    v1::ListAcceleratorsResponse response;
    server::ToProto(planner_.List(in), &response);
    return response;
  }

 private:
  planner::Planner planner_;
};

}  // namespace

std::unique_ptr<Backend> MakeRemoteBackend(
    const std::string& target, const client::ClientOptions& options) {
  return std::make_unique<RemoteBackend>(target, options);
}

absl::StatusOr<std::unique_ptr<Backend>> MakeLocalBackend(
    const std::string& catalog_path) {
  absl::StatusOr<catalog::CatalogPtr> catalog =
      catalog::LoadCatalog(catalog_path);
  if (!catalog.ok()) {
    return absl::Status(catalog.status().code(),
                        absl::StrCat("cannot load catalog ", catalog_path, ": ",
                                     catalog.status().message()));
  }
  return std::unique_ptr<Backend>(new LocalBackend(*std::move(catalog)));
}

absl::StatusOr<std::string> DefaultCatalogPath() {
  std::error_code error;
  std::filesystem::path exe =
      std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    return absl::NotFoundError(absl::StrCat(
        "cannot locate the accelplan executable (", error.message(),
        "); pass --catalog PATH or --server HOST:PORT"));
  }
  const std::filesystem::path dir = exe.parent_path();
  const std::filesystem::path candidates[] = {
      dir / "catalog.db", dir / ".." / "share" / "accelplan" / "catalog.db"};
  for (const auto& candidate : candidates) {
    if (std::filesystem::is_regular_file(candidate, error)) {
      return candidate.lexically_normal().string();
    }
  }
  return absl::NotFoundError(
      absl::StrCat("no catalog.db in ", candidates[0].string(), " or ",
                   candidates[1].lexically_normal().string(),
                   "; pass --catalog PATH or --server HOST:PORT"));
}

}  // namespace accelplan::cli
