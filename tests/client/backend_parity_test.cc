// The same requests in-process (the CLI's local backend over the core) and
// through a real accelplan-server on loopback (the CLI's remote backend over
// the C++ client): identical responses, codes, messages and violations.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "api/errors.h"
#include "client/cli/backend.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/testing/test_server.h"

namespace accelplan::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::IsEmpty;
using ::testing::Not;

class BackendParityTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto server = accelplan::testing::TestServer::Start(
        accelplan::testing::DefaultTestServerOptions());
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = server->release();
    remote_ = MakeRemoteBackend(server_->target(), {}).release();
    auto local = MakeLocalBackend(ACCELPLAN_TEST_CATALOG_DB);
    ASSERT_TRUE(local.ok()) << local.status();
    local_ = local->release();
  }
  static void TearDownTestSuite() {
    delete remote_;
    delete local_;
    delete server_;
  }

  // Both backends answer `request` (via `rpc`) the same way.
  template <typename Request, typename Call>
  static void ExpectSameBothWays(const Request& request, Call rpc) {
    auto in_process = rpc(*local_, request);
    auto over_wire = rpc(*remote_, request);
    ASSERT_EQ(in_process.ok(), over_wire.ok())
        << "in-process: " << in_process.status()
        << "\nserver: " << over_wire.status();
    if (!in_process.ok()) {
      EXPECT_EQ(in_process.status().code(), over_wire.status().code());
      EXPECT_EQ(in_process.status().message(), over_wire.status().message());
      const api::Violations a = api::FieldViolations(in_process.status());
      const api::Violations b = api::FieldViolations(over_wire.status());
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].field, b[i].field);
        EXPECT_EQ(a[i].description, b[i].description);
      }
      return;
    }
    std::string diff;
    google::protobuf::util::MessageDifferencer differencer;
    differencer.ReportDifferencesToString(&diff);
    EXPECT_TRUE(differencer.Compare(*in_process, *over_wire)) << diff;
  }

  static inline accelplan::testing::TestServer* server_ = nullptr;
  static inline Backend* remote_ = nullptr;
  static inline Backend* local_ = nullptr;
};

auto PlanRpc = [](const Backend& b, const v1::PlanTrainingRequest& r) {
  return b.Plan(r);
};
auto ReviewRpc = [](const Backend& b, const v1::ReviewPlanRequest& r) {
  return b.Review(r);
};
auto ListRpc = [](const Backend& b, const v1::ListAcceleratorsRequest& r) {
  return b.List(r);
};

template <typename M>
M FromJson(const std::string& json) {
  M message;
  auto status = google::protobuf::util::JsonStringToMessage(json, &message);
  EXPECT_TRUE(status.ok()) << status.message() << "\n" << json;
  return message;
}

TEST_F(BackendParityTest, EveryExampleGivesTheSameAnswerBothWays) {
  int plans = 0, reviews = 0, lists = 0;
  for (const auto& entry : fs::directory_iterator(ACCELPLAN_EXAMPLES_DIR)) {
    const std::string name = entry.path().filename().string();
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    SCOPED_TRACE(name);
    if (absl::EndsWith(name, "_plan.json")) {
      ExpectSameBothWays(FromJson<v1::PlanTrainingRequest>(text.str()),
                         PlanRpc);
      ++plans;
    } else if (absl::EndsWith(name, "_review.json")) {
      ExpectSameBothWays(FromJson<v1::ReviewPlanRequest>(text.str()),
                         ReviewRpc);
      ++reviews;
    } else if (absl::StartsWith(name, "catalog_")) {
      ExpectSameBothWays(FromJson<v1::ListAcceleratorsRequest>(text.str()),
                         ListRpc);
      ++lists;
    }
  }
  EXPECT_GT(plans, 10);
  EXPECT_GT(reviews, 3);
  EXPECT_GT(lists, 0);
}

TEST_F(BackendParityTest, BadRequestsGiveTheSameViolationsBothWays) {
  // An unknown enum number (caught in conversion) and semantic errors
  // (caught in validation) in one request: both are reported both ways.
  v1::PlanTrainingRequest plan;
  plan.mutable_workload()->set_framework(static_cast<v1::Framework>(99));
  plan.mutable_workload()->set_parameter_count(-1);
  plan.set_as_of("2026-13-45");
  auto local = local_->Plan(plan);
  ASSERT_FALSE(local.ok());
  EXPECT_EQ(local.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(api::FieldViolations(local.status()).size(), 3u) << local.status();
  ExpectSameBothWays(plan, PlanRpc);

  v1::ReviewPlanRequest review;
  review.add_proposals()->mutable_hardware()->set_count(-4);
  review.mutable_workload()->set_attention(static_cast<v1::Attention>(7));
  ExpectSameBothWays(review, ReviewRpc);

  v1::ListAcceleratorsRequest list;
  list.set_min_memory_gib(-2);
  ExpectSameBothWays(list, ListRpc);
}

TEST_F(BackendParityTest, AViolationIsNamedOnceInTheMessage) {
  v1::PlanTrainingRequest plan;
  plan.mutable_workload()->set_parameter_count(-1);
  auto remote = remote_->Plan(plan);
  ASSERT_FALSE(remote.ok());
  const std::string message(remote.status().message());
  const std::string field = "workload.parameter_count";
  const size_t first = message.find(field);
  ASSERT_NE(first, std::string::npos) << message;
  EXPECT_EQ(message.find(field, first + 1), std::string::npos) << message;
  EXPECT_THAT(api::FieldViolations(remote.status()), Not(IsEmpty()));
}

}  // namespace
}  // namespace accelplan::cli
