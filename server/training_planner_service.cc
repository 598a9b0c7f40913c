#include "server/training_planner_service.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <exception>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/planning_core.h"
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

// Runs one unary call: bookkeeping around `body`, which does the work on the
// snapshot read at the start of the call.
template <typename Body>
grpc::ServerUnaryReactor* Serve(
    Method method, const Metrics* metrics,
    const std::shared_ptr<const ServingSnapshot>& snapshot,
    grpc::CallbackServerContext* context, Body&& body) {
  const Clock::time_point start = Clock::now();
  if (metrics) metrics->Started(method);
  grpc::Status status;
  if (context->deadline() <= std::chrono::system_clock::now()) {
    // The caller has already given up: planning would be wasted work.
    status = grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                          "deadline expired before the call was handled");
  } else if (context->IsCancelled()) {
    status = grpc::Status(grpc::StatusCode::CANCELLED, "call cancelled");
  } else if (snapshot == nullptr || snapshot->planner == nullptr) {
    status = grpc::Status(grpc::StatusCode::UNAVAILABLE,
                          "catalog not loaded yet; retry");
  } else {
    try {
      status = body(*snapshot);
      if (status.error_code() == grpc::StatusCode::CANCELLED &&
          context->deadline() <= std::chrono::system_clock::now()) {
        status = grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                              "deadline passed while planning");
      }
    } catch (const std::exception& e) {
      // A planner bug must not take the process down with it.
      Log(LogLevel::kError, "call failed with an exception",
          {{"method", MethodName(method)}, {"error", e.what()}});
      status = grpc::Status(grpc::StatusCode::INTERNAL,
                            absl::StrCat("internal error: ", e.what()));
    }
  }
  const double seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  if (metrics) metrics->Handled(method, status.error_code(), seconds);
  if (LogEnabled(LogLevel::kDebug)) {
    // The caller's x-request-id when it sends one (load balancers and
    // pipelines do), else a process-local sequence number.
    static std::atomic<uint64_t> next_id{1};
    std::string request_id;
    const auto& metadata = context->client_metadata();
    auto it = metadata.find("x-request-id");
    if (it != metadata.end()) {
      request_id.assign(it->second.data(), std::min<size_t>(it->second.size(), 128));
    } else {
      request_id = absl::StrCat(next_id.fetch_add(1, std::memory_order_relaxed));
    }
    Log(LogLevel::kDebug, "call",
        {{"request_id", request_id},
         {"method", MethodName(method)},
         {"code", std::string(GoCodeName(status.error_code()))},
         {"latency_seconds", seconds}});
  }
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(status);
  return reactor;
}

}  // namespace

TrainingPlannerService::TrainingPlannerService(
    const Metrics* metrics, PlanTrainingHandler plan_handler)
    : metrics_(metrics), plan_handler_(std::move(plan_handler)) {}

void TrainingPlannerService::SetSnapshot(
    std::shared_ptr<const ServingSnapshot> snapshot) {
  std::atomic_store(&snapshot_, std::move(snapshot));
}

std::shared_ptr<const ServingSnapshot> TrainingPlannerService::snapshot()
    const {
  return std::atomic_load(&snapshot_);
}

grpc::ServerUnaryReactor* TrainingPlannerService::PlanTraining(
    grpc::CallbackServerContext* context,
    const v1::PlanTrainingRequest* request,
    v1::PlanTrainingResponse* response) {
  if (plan_handler_) {
    return Serve(Method::kPlanTraining, metrics_, snapshot(), context,
                 [&](const ServingSnapshot&) {
                   return plan_handler_(*request, response);
                 });
  }
  return Serve(Method::kPlanTraining, metrics_, snapshot(), context,
               [&](const ServingSnapshot& snap) {
                 core::CallOptions options = CallOptionsFor(context);
                 options.on_plan = [&](const planner::PlanResponse& plan) {
                   if (metrics_) metrics_->Rejections(plan);
                   if (snap.plan_counters) snap.plan_counters->Count(plan);
                 };
                 return ToGrpcStatus(core::PlanTraining(
                     *snap.planner, *request, options, response));
               });
}

grpc::ServerUnaryReactor* TrainingPlannerService::ReviewPlan(
    grpc::CallbackServerContext* context, const v1::ReviewPlanRequest* request,
    v1::ReviewPlanResponse* response) {
  return Serve(Method::kReviewPlan, metrics_, snapshot(), context,
               [&](const ServingSnapshot& snap) {
                 return ToGrpcStatus(core::ReviewPlan(
                     *snap.planner, *request, CallOptionsFor(context),
                     response));
               });
}

grpc::ServerUnaryReactor* TrainingPlannerService::ListAccelerators(
    grpc::CallbackServerContext* context,
    const v1::ListAcceleratorsRequest* request,
    v1::ListAcceleratorsResponse* response) {
  return Serve(Method::kListAccelerators, metrics_, snapshot(), context,
               [&](const ServingSnapshot& snap) {
                 return ToGrpcStatus(core::ListAccelerators(
                     *snap.planner, *request, CallOptionsFor(context),
                     response));
               });
}

}  // namespace accelplan::server
