// The C++ client library against a scripted in-process TrainingPlanner on a
// loopback port: retries of UNAVAILABLE from the service config, deadlines,
// BadRequest details, dns:/// targets.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "accelplan/v1/accelplan.grpc.pb.h"
#include "client/accelplan_client.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "gtest/gtest.h"

namespace accelplan::client {
namespace {

using ::testing::HasSubstr;

// Fails the first `failures` calls with `failure`, then answers.
class ScriptedPlanner final : public v1::TrainingPlanner::Service {
 public:
  grpc::Status PlanTraining(grpc::ServerContext*,
                            const v1::PlanTrainingRequest* request,
                            v1::PlanTrainingResponse* response) override {
    int call = calls_.fetch_add(1);
    if (delay_ms_ > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_));
    }
    if (call < failures_) return failure_;
    response->set_catalog_version(absl::StrCat(
        "seen-", static_cast<int64_t>(request->workload().parameter_count())));
    return grpc::Status::OK;
  }

  grpc::Status ReviewPlan(grpc::ServerContext*, const v1::ReviewPlanRequest*,
                          v1::ReviewPlanResponse* response) override {
    calls_.fetch_add(1);
    response->set_catalog_version("review");
    return grpc::Status::OK;
  }

  grpc::Status ListAccelerators(
      grpc::ServerContext*, const v1::ListAcceleratorsRequest*,
      v1::ListAcceleratorsResponse* response) override {
    calls_.fetch_add(1);
    response->add_accelerators()->set_machine_type("ct5p-hightpu-4t");
    return grpc::Status::OK;
  }

  void Fail(int failures, grpc::Status failure) {
    failures_ = failures;
    failure_ = std::move(failure);
  }
  void set_delay_ms(int ms) { delay_ms_ = ms; }
  int calls() const { return calls_.load(); }

 private:
  std::atomic<int> calls_{0};
  int failures_ = 0;
  grpc::Status failure_;
  int delay_ms_ = 0;
};

class ClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port_);
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    ASSERT_GT(port_, 0);
  }
  void TearDown() override {
    server_->Shutdown(std::chrono::system_clock::now() +
                      std::chrono::seconds(1));
  }
  std::string Target() const { return absl::StrCat("127.0.0.1:", port_); }

  ScriptedPlanner service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

TEST(ServiceConfigTest, DeclaresRetryOfUnavailableAndRoundRobin) {
  const std::string config = ServiceConfigJson(ClientOptions{});
  EXPECT_THAT(config, HasSubstr(R"("retryableStatusCodes":["UNAVAILABLE"])"));
  EXPECT_THAT(config, HasSubstr(R"("maxAttempts":4)"));
  EXPECT_THAT(config, HasSubstr(R"("round_robin":{})"));
  EXPECT_THAT(config, HasSubstr(R"("timeout":"30.000s")"));
  EXPECT_THAT(config, HasSubstr(R"("service":"accelplan.v1.TrainingPlanner")"));
}

TEST(ServiceConfigTest, OmitsRetryPolicyForSingleAttempt) {
  ClientOptions options;
  options.max_attempts = 1;
  EXPECT_THAT(ServiceConfigJson(options),
              ::testing::Not(HasSubstr("retryPolicy")));
}

TEST_F(ClientTest, RetriesUnavailableUntilTheServerAnswers) {
  service_.Fail(2, grpc::Status(grpc::StatusCode::UNAVAILABLE, "warming up"));
  Client client(Target());
  v1::PlanTrainingRequest request;
  request.mutable_workload()->set_parameter_count(7e9);
  absl::StatusOr<v1::PlanTrainingResponse> response = client.Plan(request);
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->catalog_version(), "seen-7000000000");
  EXPECT_EQ(service_.calls(), 3);
}

TEST_F(ClientTest, GivesUpAfterMaxAttempts) {
  service_.Fail(100, grpc::Status(grpc::StatusCode::UNAVAILABLE, "draining"));
  ClientOptions options;
  options.max_attempts = 3;
  Client client(Target(), options);
  absl::StatusOr<v1::PlanTrainingResponse> response = client.Plan({});
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(service_.calls(), 3);
}

TEST_F(ClientTest, DoesNotRetryWithoutRetryPolicy) {
  service_.Fail(1, grpc::Status(grpc::StatusCode::UNAVAILABLE, "draining"));
  ClientOptions options;
  options.max_attempts = 1;
  Client client(Target(), options);
  EXPECT_EQ(client.Plan({}).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(service_.calls(), 1);
}

TEST_F(ClientTest, DoesNotRetryInvalidArgumentAndReportsFieldViolations) {
  google::rpc::BadRequest bad_request;
  auto* violation = bad_request.add_field_violations();
  violation->set_field("workload.parameter_count");
  violation->set_description("must be positive, got -1");
  google::rpc::Status details;
  details.set_code(static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  details.set_message("invalid request");
  details.add_details()->PackFrom(bad_request);
  service_.Fail(
      1, grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "invalid request",
                      details.SerializeAsString()));
  Client client(Target());
  absl::Status status = client.Plan({}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(),
              HasSubstr("workload.parameter_count: must be positive, got -1"));
  EXPECT_EQ(service_.calls(), 1);
}

TEST_F(ClientTest, HonoursTheDeadline) {
  service_.set_delay_ms(1000);
  ClientOptions options;
  options.deadline = absl::Milliseconds(100);
  Client client(Target(), options);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(client.Plan({}).status().code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST_F(ClientTest, ReviewAndListReachTheirRpcs) {
  Client client(Target());
  absl::StatusOr<v1::ReviewPlanResponse> review = client.Review({});
  ASSERT_TRUE(review.ok()) << review.status();
  EXPECT_EQ(review->catalog_version(), "review");
  absl::StatusOr<v1::ListAcceleratorsResponse> list = client.ListAccelerators();
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->accelerators_size(), 1);
  EXPECT_EQ(list->accelerators(0).machine_type(), "ct5p-hightpu-4t");
}

TEST_F(ClientTest, AcceptsDnsTargets) {
  Client client(absl::StrCat("dns:///localhost:", port_));
  absl::StatusOr<v1::ListAcceleratorsResponse> list = client.ListAccelerators();
  // localhost may resolve to ::1 first; round_robin tries every address.
  ASSERT_TRUE(list.ok()) << list.status();
}

TEST(ClientUnreachableTest, ReportsUnavailable) {
  ClientOptions options;
  options.deadline = absl::Seconds(10);
  Client client("127.0.0.1:1", options);
  EXPECT_EQ(client.ListAccelerators().status().code(),
            absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace accelplan::client
