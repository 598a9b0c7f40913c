// Mechanical conversion between the accelplan.v1 protos and the planner's
// plain structs (planner/types.h mirrors the proto field for field). Used by
// the core (core/planning_core.h), the server, the clients and the benches;
// it depends only on the generated protos and the planner types.
#ifndef ACCELPLAN_API_CONVERT_H_
#define ACCELPLAN_API_CONVERT_H_

#include <vector>

#include "accelplan/v1/accelplan.pb.h"
#include "planner/types.h"

namespace accelplan::api {

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

}  // namespace accelplan::api

#endif  // ACCELPLAN_API_CONVERT_H_
