// Mechanical conversion between the accelplan.v1 protos and the planner's
// plain structs (planner/types.h mirrors the proto field for field). Shared by
// the server and by the CLI's in-process mode, so it depends only on the
// generated protos and the planner types.
#ifndef ACCELPLAN_SERVER_CONVERSION_H_
#define ACCELPLAN_SERVER_CONVERSION_H_

#include <vector>

#include "accelplan/v1/accelplan.pb.h"
#include "planner/types.h"

namespace accelplan::server {

using Violations = std::vector<planner::FieldViolation>;

// Requests, proto -> planner. proto3 enums are open: a number that the proto
// enum does not define is appended to `violations` with its field path
// (e.g. "workload.framework", "constraints.allowed_platforms[1]") and is
// carried over unchanged; callers must not plan when violations is non-empty.
planner::PlanRequest FromProto(const v1::PlanTrainingRequest& in,
                               Violations* violations);
planner::ReviewRequest FromProto(const v1::ReviewPlanRequest& in,
                                 Violations* violations);
planner::ListRequest FromProto(const v1::ListAcceleratorsRequest& in,
                               Violations* violations);

// Responses, planner -> proto. `out` is cleared first.
void ToProto(const planner::PlanResponse& in, v1::PlanTrainingResponse* out);
void ToProto(const planner::ReviewResponse& in, v1::ReviewPlanResponse* out);
void ToProto(const planner::ListResponse& in,
             v1::ListAcceleratorsResponse* out);

// The reverse directions, for clients that build requests from planner
// structs, for replaying responses, and for round-trip tests that prove no
// field is dropped.
void ToProto(const planner::PlanRequest& in, v1::PlanTrainingRequest* out);
void ToProto(const planner::ReviewRequest& in, v1::ReviewPlanRequest* out);
void ToProto(const planner::ListRequest& in, v1::ListAcceleratorsRequest* out);
planner::PlanResponse FromProto(const v1::PlanTrainingResponse& in);
planner::ReviewResponse FromProto(const v1::ReviewPlanResponse& in);
planner::ListResponse FromProto(const v1::ListAcceleratorsResponse& in);

// view=BASIC: keeps only what a pipeline needs to launch the job (the
// recommendation with its hardware, distribution, estimates, reasons and job
// spec; remedies; warnings; catalog_version; no_plan_reason) and drops the
// rest (alternatives, rejections, facts used, assumptions, savings). Applied
// before conversion so the dropped parts are never copied.
void ApplyBasicView(planner::PlanResponse* response);
// True when the request asked for BASIC (UNSPECIFIED means FULL).
inline bool IsBasicView(const planner::PlanRequest& request) {
  return request.view == planner::View::kBasic;
}

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_CONVERSION_H_
