#include "core/planning_core.h"

#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "api/convert.h"
#include "api/errors.h"

namespace accelplan::core {
namespace {

void Append(api::Violations more, api::Violations* out) {
  out->insert(out->end(), std::make_move_iterator(more.begin()),
              std::make_move_iterator(more.end()));
}

absl::Status Cancelled() {
  return absl::CancelledError("call cancelled, or its deadline passed");
}

}  // namespace

absl::Status PlanTraining(const planner::Planner& planner,
                          const v1::PlanTrainingRequest& request,
                          const CallOptions& options,
                          v1::PlanTrainingResponse* response) {
  api::Violations violations;
  planner::PlanRequest in = api::FromProto(request, &violations);
  Append(planner::ValidatePlanRequest(in), &violations);
  Append(planner.CheckAgainstCatalog(in.workload, in.constraints,
                                     in.current_setup),
         &violations);
  if (!violations.empty()) return api::InvalidRequest(violations);
  planner::PlanResponse out = planner.Plan(in, options.context);
  if (options.context.Cancelled()) return Cancelled();
  if (options.on_plan) options.on_plan(out);
  api::ToProto(out, response);
  return absl::OkStatus();
}

absl::Status ReviewPlan(const planner::Planner& planner,
                        const v1::ReviewPlanRequest& request,
                        const CallOptions& options,
                        v1::ReviewPlanResponse* response) {
  api::Violations violations;
  planner::ReviewRequest in = api::FromProto(request, &violations);
  Append(planner::ValidateReviewRequest(in), &violations);
  Append(planner.CheckAgainstCatalog(in.workload, in.constraints,
                                     in.current_setup),
         &violations);
  if (!violations.empty()) return api::InvalidRequest(violations);
  planner::ReviewResponse out = planner.Review(in, options.context);
  if (options.context.Cancelled()) return Cancelled();
  api::ToProto(out, response);
  return absl::OkStatus();
}

absl::Status ListAccelerators(const planner::Planner& planner,
                              const v1::ListAcceleratorsRequest& request,
                              const CallOptions& /*options*/,
                              v1::ListAcceleratorsResponse* response) {
  api::Violations violations;
  planner::ListRequest in = api::FromProto(request, &violations);
  Append(planner::ValidateListRequest(in), &violations);
  if (!violations.empty()) return api::InvalidRequest(violations);
  api::ToProto(planner.List(in), response);
  return absl::OkStatus();
}

std::string TodayUtc() {
  return absl::FormatTime("%Y-%m-%d", absl::Now(), absl::UTCTimeZone());
}

}  // namespace accelplan::core
