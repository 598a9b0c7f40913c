#include "server/training_planner_service.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/planning_core.h"
#include "google/protobuf/duration.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "server/log.h"
#include "server/status.h"

namespace accelplan::server {
namespace {

using Clock = std::chrono::steady_clock;

// Today's UTC date and a cancellation hook wired to the call: the client
// cancelled, or the call's deadline passed.
core::CallOptions CallOptionsFor(grpc::CallbackServerContext* context) {
  core::CallOptions options;
  options.context.today = core::TodayUtc();
  options.context.cancelled = [context] {
    return context->IsCancelled() ||
           context->deadline() <= std::chrono::system_clock::now();
  };
  return options;
}

// RESOURCE_EXHAUSTED with a google.rpc.RetryInfo saying when to come back.
grpc::Status Overloaded(absl::Duration retry_delay) {
  const std::string message =
      "server busy: every planning thread is busy and the queue is full; "
      "retry after the RetryInfo delay";
  google::rpc::RetryInfo retry;
  const int64_t nanos = absl::ToInt64Nanoseconds(retry_delay);
  retry.mutable_retry_delay()->set_seconds(nanos / 1000000000);
  retry.mutable_retry_delay()->set_nanos(
      static_cast<int32_t>(nanos % 1000000000));
  google::rpc::Status details;
  details.set_code(static_cast<int>(grpc::StatusCode::RESOURCE_EXHAUSTED));
  details.set_message(message);
  details.add_details()->PackFrom(retry);
  return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, message,
                      details.SerializeAsString());
}

// The raw request bytes as `Request`; false when they are not one (invalid
// UTF-8 in a string, garbage, truncation).
template <typename Request>
bool Decode(const grpc::ByteBuffer& bytes, Request* request) {
  std::vector<grpc::Slice> slices;
  if (!bytes.Dump(&slices).ok()) return false;
  std::string data;
  data.reserve(bytes.Length());
  for (const grpc::Slice& s : slices) {
    data.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return request->ParseFromString(data);
}

void Encode(const google::protobuf::Message& message, grpc::ByteBuffer* out) {
  const std::string data = message.SerializeAsString();
  grpc::Slice slice(data);
  *out = grpc::ByteBuffer(&slice, 1);
}

void LogCall(Method method, grpc::CallbackServerContext* context,
             const grpc::Status& status, double seconds) {
  if (!LogEnabled(LogLevel::kDebug)) return;
  // The caller's x-request-id when it sends one (load balancers and
  // pipelines do), else a process-local sequence number.
  static std::atomic<uint64_t> next_id{1};
  std::string request_id;
  const auto& metadata = context->client_metadata();
  auto it = metadata.find("x-request-id");
  if (it != metadata.end()) {
    request_id.assign(it->second.data(),
                      std::min<size_t>(it->second.size(), 128));
  } else {
    request_id = absl::StrCat(next_id.fetch_add(1, std::memory_order_relaxed));
  }
  Log(LogLevel::kDebug, "call",
      {{"request_id", request_id},
       {"method", MethodName(method)},
       {"code", std::string(GoCodeName(status.error_code()))},
       {"latency_seconds", seconds}});
}

// The work of one call on the snapshot it read: decode, then `body`.
template <typename Request, typename Response, typename Body>
grpc::Status Handle(Method method, const grpc::ByteBuffer& raw,
                    grpc::CallbackServerContext* context,
                    const std::shared_ptr<const ServingSnapshot>& snapshot,
                    grpc::ByteBuffer* raw_response, const Body& body) {
  // A caller that already gave up is counted as abandoned whatever its body
  // held: a call cancelled before its message arrived reaches us with no
  // message at all, which is not the client's mistake.
  if (context->deadline() <= std::chrono::system_clock::now()) {
    return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                        "deadline expired before the call was handled");
  }
  if (context->IsCancelled()) {
    return grpc::Status(grpc::StatusCode::CANCELLED, "call cancelled");
  }
  if (!raw.Valid()) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat("the call ended without a request message; send one ",
                     Request::descriptor()->full_name()));
  }
  Request request;
  if (!Decode(raw, &request)) {
    Log(LogLevel::kWarning, "undecodable request body",
        {{"method", MethodName(method)},
         {"bytes", static_cast<int64_t>(raw.Length())}});
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat("request body is not a valid ",
                     Request::descriptor()->full_name(),
                     " (invalid UTF-8 in a string field, truncated or not "
                     "protobuf)"));
  }
  if (snapshot == nullptr || snapshot->planner == nullptr) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                        "catalog not loaded yet; retry");
  }
  Response response;
  grpc::Status status = body(*snapshot, request, &response);
  // A call its client abandoned meanwhile is counted as abandoned, not OK.
  if (context->deadline() <= std::chrono::system_clock::now()) {
    status = grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                          "deadline passed while planning");
  } else if (context->IsCancelled()) {
    status = grpc::Status(grpc::StatusCode::CANCELLED, "call cancelled");
  }
  if (status.ok()) Encode(response, raw_response);
  return status;
}

// Runs one unary call on the planning pool: bookkeeping around Handle. The
// snapshot is read when the call arrives; `body` is copied into the pool's
// task, so it must capture by value.
template <typename Request, typename Response, typename Body>
grpc::ServerUnaryReactor* Serve(Method method, const Metrics* metrics,
                                PlanningPool& pool,
                                const PlanningLimits& limits,
                                std::shared_ptr<const ServingSnapshot> snapshot,
                                grpc::CallbackServerContext* context,
                                const grpc::ByteBuffer* raw,
                                grpc::ByteBuffer* raw_response, Body body) {
  const Clock::time_point start = Clock::now();
  if (metrics) metrics->Started(method);
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto finish = [=](const grpc::Status& status) {
    const double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    if (metrics) metrics->Handled(method, status.error_code(), seconds);
    LogCall(method, context, status, seconds);
    reactor->Finish(status);
  };
  const bool queued = pool.TrySubmit([=] {
    grpc::Status status;
    try {
      status = Handle<Request, Response>(method, *raw, context, snapshot,
                                         raw_response, body);
    } catch (const std::exception& e) {
      // A planner bug must not take the process down with it.
      Log(LogLevel::kError, "call failed with an exception",
          {{"method", MethodName(method)}, {"error", e.what()}});
      status = grpc::Status(grpc::StatusCode::INTERNAL,
                            absl::StrCat("internal error: ", e.what()));
    }
    finish(status);
  });
  if (!queued) finish(Overloaded(limits.retry_delay));
  return reactor;
}

}  // namespace

TrainingPlannerService::TrainingPlannerService(const Metrics* metrics,
                                               PlanningLimits limits,
                                               PlanTrainingHandler plan_handler)
    : metrics_(metrics),
      limits_(limits),
      plan_handler_(std::move(plan_handler)),
      pool_(limits.threads, limits.queue_capacity) {}

void TrainingPlannerService::SetSnapshot(
    std::shared_ptr<const ServingSnapshot> snapshot) {
  std::atomic_store(&snapshot_, std::move(snapshot));
}

std::shared_ptr<const ServingSnapshot> TrainingPlannerService::snapshot()
    const {
  return std::atomic_load(&snapshot_);
}

grpc::ServerUnaryReactor* TrainingPlannerService::PlanTraining(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
    grpc::ByteBuffer* response) {
  const Metrics* metrics = metrics_;
  const PlanTrainingHandler* handler = plan_handler_ ? &plan_handler_ : nullptr;
  return Serve<v1::PlanTrainingRequest, v1::PlanTrainingResponse>(
      Method::kPlanTraining, metrics_, pool_, limits_, snapshot(), context,
      request, response,
      [context, metrics, handler](const ServingSnapshot& snap,
                                  const v1::PlanTrainingRequest& in,
                                  v1::PlanTrainingResponse* out) {
        if (handler != nullptr) return (*handler)(in, out);
        core::CallOptions options = CallOptionsFor(context);
        options.on_plan = [&](const planner::PlanResponse& plan) {
          if (metrics) metrics->Rejections(plan);
          if (snap.plan_counters) snap.plan_counters->Count(plan);
        };
        return ToGrpcStatus(
            core::PlanTraining(*snap.planner, in, options, out));
      });
}

grpc::ServerUnaryReactor* TrainingPlannerService::ReviewPlan(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
    grpc::ByteBuffer* response) {
  return Serve<v1::ReviewPlanRequest, v1::ReviewPlanResponse>(
      Method::kReviewPlan, metrics_, pool_, limits_, snapshot(), context,
      request, response,
      [context](const ServingSnapshot& snap, const v1::ReviewPlanRequest& in,
                v1::ReviewPlanResponse* out) {
        return ToGrpcStatus(
            core::ReviewPlan(*snap.planner, in, CallOptionsFor(context), out));
      });
}

grpc::ServerUnaryReactor* TrainingPlannerService::ListAccelerators(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
    grpc::ByteBuffer* response) {
  return Serve<v1::ListAcceleratorsRequest, v1::ListAcceleratorsResponse>(
      Method::kListAccelerators, metrics_, pool_, limits_, snapshot(), context,
      request, response,
      [context](const ServingSnapshot& snap,
                const v1::ListAcceleratorsRequest& in,
                v1::ListAcceleratorsResponse* out) {
        return ToGrpcStatus(core::ListAccelerators(
            *snap.planner, in, CallOptionsFor(context), out));
      });
}

}  // namespace accelplan::server
