// The serving stack's limits, in-process on loopback: an undecodable body is
// INVALID_ARGUMENT naming the request type and counted; when every planning
// thread is busy and the queue is full a call is shed with
// RESOURCE_EXHAUSTED and a RetryInfo, while health checks still answer; a
// call its client abandoned is counted as abandoned, not OK, and a call
// abandoned before its message arrived is not counted INVALID_ARGUMENT.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "accelplan/v1/accelplan.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/server.h"
#include "tests/testing/metrics_scrape.h"

namespace accelplan::server {
namespace {

using ::accelplan::testing::HttpGetMetrics;
using ::accelplan::testing::Sample;
using ::accelplan::testing::WaitForSample;
using ::accelplan::testing::WaitForSum;
using ::testing::HasSubstr;

// A gate the bench-only PlanTraining handler waits at, so a test decides
// when planning threads are busy.
class Gate {
 public:
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  void Pass() {
    std::unique_lock<std::mutex> lock(mutex_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return open_; });
  }
  void AwaitWaiters(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return waiting_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
  int waiting_ = 0;
};

ServerOptions Options(int threads, int queue) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.metrics_listen = "127.0.0.1:0";
  options.catalog_path = ACCELPLAN_TEST_CATALOG_DB;
  options.drain_delay = absl::ZeroDuration();
  options.planning.threads = threads;
  options.planning.queue_capacity = queue;
  return options;
}

// One planning thread and a queue of 4, PlanTraining waiting at `gate`.
ServerOptions GatedOptions(Gate& gate) {
  ServerOptions options = Options(1, 4);
  options.plan_training_handler = [&gate](const v1::PlanTrainingRequest&,
                                          v1::PlanTrainingResponse*) {
    gate.Pass();
    return grpc::Status::OK;
  };
  return options;
}

std::shared_ptr<grpc::Channel> Channel(const Server& server) {
  return grpc::CreateChannel(absl::StrCat("127.0.0.1:", server.port()),
                             grpc::InsecureChannelCredentials());
}

std::chrono::system_clock::time_point In(std::chrono::milliseconds ms) {
  return std::chrono::system_clock::now() + ms;
}

grpc::Status RawCall(grpc::Channel* channel, const std::string& method,
                     const std::string& body) {
  grpc::GenericStub stub(channel->shared_from_this());
  grpc::ClientContext context;
  context.set_deadline(In(std::chrono::milliseconds(10000)));
  grpc::Slice slice(body);
  grpc::ByteBuffer request(&slice, 1), response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&context, method, grpc::StubOptions(), &request, &response,
                 [&](grpc::Status s) { done.set_value(std::move(s)); });
  return done.get_future().get();
}

// A call that half-closes without sending a request message: how a call
// whose client cancelled before the message left it reaches the server.
class MessagelessCall {
 public:
  MessagelessCall(grpc::Channel* channel, const std::string& method,
                  std::chrono::milliseconds deadline)
      : stub_(channel->shared_from_this()) {
    context_.set_deadline(In(deadline));
    call_ = stub_.PrepareCall(&context_, method, &queue_);
    call_->StartCall(Tag(1));
    Await(1);
    call_->WritesDone(Tag(2));
    Await(2);
  }
  ~MessagelessCall() {
    queue_.Shutdown();
    void* tag;
    bool ok;
    while (queue_.Next(&tag, &ok)) {
    }
  }
  grpc::Status Finish() {
    grpc::Status status;
    call_->Finish(&status, Tag(3));
    Await(3);
    return status;
  }

 private:
  static void* Tag(intptr_t n) { return reinterpret_cast<void*>(n); }
  void Await(intptr_t n) {
    void* tag = nullptr;
    bool ok = false;
    ASSERT_TRUE(queue_.Next(&tag, &ok));
    ASSERT_EQ(tag, Tag(n));
  }

  grpc::GenericStub stub_;
  grpc::ClientContext context_;
  grpc::CompletionQueue queue_;
  std::unique_ptr<grpc::GenericClientAsyncReaderWriter> call_;
};

TEST(ServingLimitsTest, AnUndecodableBodyIsInvalidArgumentNamingTheType) {
  auto server = Server::Start(Options(2, 8));
  ASSERT_TRUE(server.ok()) << server.status();
  auto channel = Channel(**server);
  // Field 5 (as_of, a string) holding bytes that are not UTF-8.
  const std::string bad_utf8 = std::string("\x2a\x02\xff\xfe", 4);
  const std::string garbage = "\xff\xff\xff\xff\x0f not protobuf";
  for (const std::string& body : {bad_utf8, garbage}) {
    const grpc::Status status = RawCall(
        channel.get(), "/accelplan.v1.TrainingPlanner/PlanTraining", body);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(),
                HasSubstr("not a valid accelplan.v1.PlanTrainingRequest"));
  }
  const grpc::Status review = RawCall(
      channel.get(), "/accelplan.v1.TrainingPlanner/ReviewPlan", garbage);
  EXPECT_EQ(review.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(review.error_message(),
              HasSubstr("accelplan.v1.ReviewPlanRequest"));
  // A good body still plans.
  v1::PlanTrainingRequest good;
  good.mutable_workload()->set_parameter_count(1e8);
  EXPECT_TRUE(RawCall(channel.get(),
                      "/accelplan.v1.TrainingPlanner/PlanTraining",
                      good.SerializeAsString())
                  .ok());
  EXPECT_EQ(
      WaitForSample(
          (*server)->metrics_port(), "grpc_server_handled_total",
          {"grpc_method=\"PlanTraining\"", "grpc_code=\"InvalidArgument\""}, 2),
      2);
}

TEST(ServingLimitsTest, AFullQueueShedsWithRetryInfoAndHealthStillAnswers) {
  Gate gate;
  ServerOptions options = Options(/*threads=*/1, /*queue=*/1);
  options.plan_training_handler = [&](const v1::PlanTrainingRequest&,
                                      v1::PlanTrainingResponse* out) {
    gate.Pass();
    out->set_catalog_version("gated");
    return grpc::Status::OK;
  };
  auto server = Server::Start(options);
  ASSERT_TRUE(server.ok()) << server.status();
  auto channel = Channel(**server);
  auto stub = v1::TrainingPlanner::NewStub(channel);

  auto plan = [&](int deadline_ms) {
    grpc::ClientContext context;
    context.set_deadline(In(std::chrono::milliseconds(deadline_ms)));
    v1::PlanTrainingResponse response;
    return stub->PlanTraining(&context, {}, &response);
  };
  // One call holds the only planning thread; one more waits in the queue.
  auto running = std::async(std::launch::async, plan, 60000);
  gate.AwaitWaiters(1);
  auto queued = std::async(std::launch::async, plan, 60000);
  const int metrics = (*server)->metrics_port();
  ASSERT_EQ(WaitForSample(metrics, "grpc_server_started_total",
                          {"grpc_method=\"PlanTraining\""}, 2),
            2);
  // Then one more is shed (short deadlines: should one still find room in
  // the queue, it gives up quickly instead of holding the test).
  grpc::Status shed;
  for (int i = 0; i < 50; ++i) {
    shed = plan(300);
    if (shed.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) break;
  }
  ASSERT_EQ(shed.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << shed.error_message();
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(shed.error_details()));
  google::rpc::RetryInfo retry;
  ASSERT_EQ(details.details_size(), 1);
  ASSERT_TRUE(details.details(0).UnpackTo(&retry));
  EXPECT_GT(retry.retry_delay().seconds() * 1000000000LL +
                retry.retry_delay().nanos(),
            0);

  // Health does not wait behind planning.
  auto health = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(In(std::chrono::milliseconds(2000)));
  grpc::health::v1::HealthCheckRequest request;
  request.set_service("accelplan.v1.TrainingPlanner");
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status checked = health->Check(&context, request, &response);
  EXPECT_TRUE(checked.ok()) << checked.error_message();
  EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING);

  gate.Open();
  EXPECT_TRUE(running.get().ok());
  EXPECT_TRUE(queued.get().ok());
  EXPECT_GE(WaitForSample(metrics, "grpc_server_handled_total",
                          {"grpc_method=\"PlanTraining\"",
                           "grpc_code=\"ResourceExhausted\""},
                          1),
            1);
}

TEST(ServingLimitsTest, AnAbandonedCallIsNotCountedOk) {
  Gate gate;
  auto server = Server::Start(GatedOptions(gate));
  ASSERT_TRUE(server.ok()) << server.status();
  auto stub = v1::TrainingPlanner::NewStub(Channel(**server));
  grpc::ClientContext context;
  context.set_deadline(In(std::chrono::milliseconds(100)));
  v1::PlanTrainingResponse response;
  auto call = std::async(std::launch::async, [&] {
    return stub->PlanTraining(&context, {}, &response);
  });
  gate.AwaitWaiters(1);
  EXPECT_EQ(call.get().error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  // The server computes its own deadline from the grpc-timeout header, a
  // little after the client's: let it pass too before the plan finishes.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  gate.Open();  // the server's side finishes after its client gave up
  const int metrics = (*server)->metrics_port();
  EXPECT_EQ(WaitForSample(metrics, "grpc_server_handled_total",
                          {"grpc_method=\"PlanTraining\"",
                           "grpc_code=\"DeadlineExceeded\""},
                          1),
            1);
  EXPECT_LT(Sample(HttpGetMetrics(metrics), "grpc_server_handled_total",
                   {"grpc_method=\"PlanTraining\"", "grpc_code=\"OK\""}),
            1);
}

// A call with no message is the client's mistake only while the client is
// still there: one whose deadline passed while it waited for a planning
// thread is counted DEADLINE_EXCEEDED, not INVALID_ARGUMENT (a client that
// gives up before its message leaves sends none). A cancelled one takes
// the same path, but when the server learns of a cancel is asynchronous,
// so the test uses the deadline, which the server reads off its own clock.
TEST(ServingLimitsTest, AMessagelessCallIsInvalidUnlessItsDeadlinePassed) {
  Gate gate;
  auto server = Server::Start(GatedOptions(gate));
  ASSERT_TRUE(server.ok()) << server.status();
  auto channel = Channel(**server);
  const std::string review = "/accelplan.v1.TrainingPlanner/ReviewPlan";
  const grpc::Status live =
      MessagelessCall(channel.get(), review, std::chrono::milliseconds(60000))
          .Finish();
  EXPECT_EQ(live.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(live.error_message(), HasSubstr("without a request message"));

  // The only planning thread is held; the next messageless call queues.
  auto stub = v1::TrainingPlanner::NewStub(channel);
  grpc::ClientContext held_context;
  held_context.set_deadline(In(std::chrono::milliseconds(60000)));
  v1::PlanTrainingResponse held_response;
  auto held = std::async(std::launch::async, [&] {
    return stub->PlanTraining(&held_context, {}, &held_response);
  });
  gate.AwaitWaiters(1);
  const std::chrono::milliseconds deadline(300);
  MessagelessCall abandoned(channel.get(), review, deadline);
  const int metrics = (*server)->metrics_port();
  ASSERT_EQ(WaitForSample(metrics, "grpc_server_started_total",
                          {"grpc_method=\"ReviewPlan\""}, 2),
            2);
  // The server took its deadline from the call before it counted it
  // started: past this, that deadline has passed on the server's clock.
  std::this_thread::sleep_for(deadline + std::chrono::milliseconds(200));
  EXPECT_EQ(abandoned.Finish().error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  gate.Open();
  EXPECT_TRUE(held.get().ok());
  ASSERT_EQ(WaitForSum(metrics, "grpc_server_handled_total",
                       {"grpc_method=\"ReviewPlan\""}, 2),
            2);
  const std::string text = HttpGetMetrics(metrics);
  auto handled = [&](const std::string& code) {
    return Sample(text, "grpc_server_handled_total",
                  {"grpc_method=\"ReviewPlan\"",
                   absl::StrCat("grpc_code=\"", code, "\"")});
  };
  EXPECT_EQ(handled("DeadlineExceeded"), 1);
  EXPECT_EQ(handled("InvalidArgument"), 1);
}

}  // namespace
}  // namespace accelplan::server
