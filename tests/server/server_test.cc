// server/server.h in-process: start-up fails cleanly without a catalog, and
// Reload swaps the planner snapshot atomically or keeps the old one.
#include "server/server.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "accelplan/v1/accelplan.grpc.pb.h"
#include "catalog/loader.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"

namespace accelplan::server {
namespace {

using ::testing::HasSubstr;

ServerOptions LoopbackOptions() {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.metrics_listen = "";  // no HTTP endpoint needed here
  options.catalog_path = ACCELPLAN_TEST_CATALOG_DB;
  options.drain_delay = absl::ZeroDuration();
  return options;
}

std::string PlannedCatalogVersion(int port) {
  auto stub = v1::TrainingPlanner::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  v1::PlanTrainingRequest request;
  request.mutable_workload()->set_framework(v1::JAX);
  request.mutable_workload()->set_parameter_count(1e8);
  request.set_view(v1::BASIC);
  v1::PlanTrainingResponse response;
  const grpc::Status status = stub->PlanTraining(&context, request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return response.catalog_version();
}

TEST(ServerTest, StartFailsWithTheLoaderErrorWhenTheCatalogCannotLoad) {
  ServerOptions options = LoopbackOptions();
  options.catalog_path = "/nonexistent/accelplan-test.sqlite";
  absl::StatusOr<std::unique_ptr<Server>> server = Server::Start(options);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(server.status().message(), HasSubstr(options.catalog_path));
}

TEST(ServerTest, ReloadSwapsTheSnapshotAndKeepsTheOldOneOnFailure) {
  absl::StatusOr<catalog::CatalogPtr> real =
      catalog::LoadCatalog(ACCELPLAN_TEST_CATALOG_DB);
  ASSERT_TRUE(real.ok()) << real.status();
  // Each load hands out the real catalog under the next version name, or
  // fails when `fail` is set.
  int loads = 0;
  bool fail = false;
  CatalogLoader loader =
      [&](const std::string&) -> absl::StatusOr<catalog::CatalogPtr> {
    if (fail) return absl::FailedPreconditionError("corrupt catalog");
    auto copy = std::make_shared<catalog::Catalog>(**real);
    copy->version = absl::StrCat("test-v", ++loads);
    return catalog::CatalogPtr(std::move(copy));
  };
  absl::StatusOr<std::unique_ptr<Server>> server =
      Server::Start(LoopbackOptions(), loader);
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();
  EXPECT_EQ(PlannedCatalogVersion(port), "test-v1");

  ASSERT_TRUE((*server)->Reload().ok());
  EXPECT_EQ((*server)->catalog_version(), "test-v2");
  EXPECT_EQ(PlannedCatalogVersion(port), "test-v2");

  fail = true;
  const absl::Status failed = (*server)->Reload();
  EXPECT_EQ(failed.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*server)->catalog_version(), "test-v2");
  EXPECT_EQ(PlannedCatalogVersion(port), "test-v2");

  (*server)->Drain();
  (*server)->Wait();
}

}  // namespace
}  // namespace accelplan::server
