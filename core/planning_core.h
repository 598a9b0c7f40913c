// The transport-neutral core of accelplan, as TF Serving's predictor sits
// under its gRPC impl: one function per RPC converts the request, validates
// it, plans and writes the response. The server's handlers and the CLI's
// in-process mode call these and nothing else, so both give the same answer
// and the same violations for the same request.
#ifndef ACCELPLAN_CORE_PLANNING_CORE_H_
#define ACCELPLAN_CORE_PLANNING_CORE_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "accelplan/v1/accelplan.pb.h"
#include "planner/planner.h"
#include "planner/types.h"

namespace accelplan::core {

struct CallOptions {
  // What the planner may not fetch itself: today's UTC date and the
  // caller's cancellation (see planner::CallContext).
  planner::CallContext context;
  // Called with the planner's answer before it is converted, e.g. to count
  // rejections in metrics. Optional.
  std::function<void(const planner::PlanResponse&)> on_plan;
};

// Each returns OK with `response` filled; INVALID_ARGUMENT with every bad
// field named (api/errors.h: message plus a google.rpc.BadRequest payload);
// or CANCELLED when the context's hook fired while planning.
absl::Status PlanTraining(const planner::Planner& planner,
                          const v1::PlanTrainingRequest& request,
                          const CallOptions& options,
                          v1::PlanTrainingResponse* response);
absl::Status ReviewPlan(const planner::Planner& planner,
                        const v1::ReviewPlanRequest& request,
                        const CallOptions& options,
                        v1::ReviewPlanResponse* response);
absl::Status ListAccelerators(const planner::Planner& planner,
                              const v1::ListAcceleratorsRequest& request,
                              const CallOptions& options,
                              v1::ListAcceleratorsResponse* response);

// Today's date in UTC as YYYY-MM-DD, for callers that serve real users.
std::string TodayUtc();

}  // namespace accelplan::core

#endif  // ACCELPLAN_CORE_PLANNING_CORE_H_
