#include "client/cli/backend.h"

#include <unistd.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "catalog/loader.h"
#include "core/planning_core.h"
#include "planner/planner.h"

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

// In-process: the same core the server's handlers call, so a request gets
// the same answer, code, message and violations either way.
class LocalBackend final : public Backend {
 public:
  explicit LocalBackend(catalog::CatalogPtr catalog)
      : planner_(std::move(catalog)) {}

  absl::StatusOr<v1::PlanTrainingResponse> Plan(
      const v1::PlanTrainingRequest& request) const override {
    return Call(core::PlanTraining, request);
  }
  absl::StatusOr<v1::ReviewPlanResponse> Review(
      const v1::ReviewPlanRequest& request) const override {
    return Call(core::ReviewPlan, request);
  }
  absl::StatusOr<v1::ListAcceleratorsResponse> List(
      const v1::ListAcceleratorsRequest& request) const override {
    return Call(core::ListAccelerators, request);
  }

 private:
  template <typename Request, typename Response>
  absl::StatusOr<Response> Call(absl::Status (*rpc)(const planner::Planner&,
                                                    const Request&,
                                                    const core::CallOptions&,
                                                    Response*),
                                const Request& request) const {
    core::CallOptions options;
    options.context.today = core::TodayUtc();
    Response response;
    absl::Status status = rpc(planner_, request, options, &response);
    if (!status.ok()) return status;
    return response;
  }

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
