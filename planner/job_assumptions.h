// Stage 2, what a job states about what the request left out: the
// enumerated defaults it relied on, what a stated optimizer or offload
// means for the figures, and what cannot be checked without a data set
// (planner/job_model.cc calls them while it builds the job).
#ifndef ACCELPLAN_PLANNER_JOB_ASSUMPTIONS_H_
#define ACCELPLAN_PLANNER_JOB_ASSUMPTIONS_H_

#include <string>

#include "planner/job.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// The enumerated defaults the request relied on (precision, optimizer,
// recompute, training method, objective, ...), as job.assumptions.
void StateEnumDefaults(const Workload& w, const Goal& g, Job& job);

// What a stated bf16 optimizer state or activation offload means for the
// memory and time figures.
void StateOptimizerAndOffload(const Workload& w, Job& job);

// Without a dataset size: no deadline check, only cost per unit of work,
// and no total cost to hold to a budget (a NO_DATASET_SIZE warning).
void WarnIfNoDataset(Job& job);

// A parameter_count more than twice, or under half, what the stated
// transformer shape implies (a preset's shape with another model's size):
// an ASSUMPTION warning saying which figure sizes what.
void WarnIfShapeDisagreesWithParams(const Workload& w, Job& job);
// What that warning says of a stated budget (", and the $X budget is not
// checked (a total cost needs the work)"; empty without one).
std::string UncheckedBudgetClause(const Job& job);
// How candidates are ranked without a work to time, under the objective:
// "candidates ranked by cost per unit of work" and its MIN_TIME and
// BALANCED forms.
std::string NoWorkRanking(const Job& job);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_JOB_ASSUMPTIONS_H_
