// The oversize rule (SPEC §4 "Oversized"): it compares accelerator counts,
// not memory. What the job needs of an accelerator is the smallest count of
// it that holds the job at its best layout; a family whose smallest
// obtainable shape has at least kPolicy.oversize_factor times that many is
// OVERSIZED_FOR_WORKLOAD when a smaller viable shape of the same platform
// does at least as well under the request's objective (a multi-GPU VM that
// is cheaper, or faster under MIN_TIME, is priced and ranked instead).
#ifndef ACCELPLAN_PLANNER_OVERSIZE_H_
#define ACCELPLAN_PLANNER_OVERSIZE_H_

#include <vector>

#include "planner/candidate.h"
#include "planner/scorer.h"

namespace accelplan::planner::internal {

// The fewest accelerators of `f` that hold the job (data parallel, or
// ZeRO-3/FSDP sharded over them, with the job's recompute or full
// recompute: the layouts planner/layouts.cc tries first); 0 when the job's
// memory is unknown, -1 when no searched count holds it.
int NeededDevices(const Job& job, const Family& f);

void OversizeRule(const Job& job, const Norm& norm,
                  const std::vector<const Candidate*>& refs,
                  const std::vector<Candidate*>& judged);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_OVERSIZE_H_
