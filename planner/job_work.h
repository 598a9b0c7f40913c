// Stage 2, the work of a job: its unit (tokens, examples or bytes), the
// global batch in that unit, the data set size D and the FLOPs per unit,
// with every default used stated (planner/job_model.cc calls it).
#ifndef ACCELPLAN_PLANNER_JOB_WORK_H_
#define ACCELPLAN_PLANNER_JOB_WORK_H_

#include <string>

#include "planner/job.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// Sets job.unit, tokens, tokens_per_step, batch_sequences, flops_per_unit,
// training_flops, has_dataset and the assumptions behind them. Reads the
// choices MakeJob resolved before it (classical, method, precision, size).
void ResolveWork(const Workload& w, Job& job);

// The assumption every job with hours states: its start-up
// (kPolicy.job_startup_hours), once, billed on every device.
std::string JobStartupAssumption();

// The assumption every deep-learning job of known size states: the fixed
// latency of its collectives (planner/collective_latency.h).
std::string CollectiveLatencyAssumption();

// What full recompute adds, in P·D: a second forward pass, 2·P·D, over the
// 6·P·D of training (4·P·D under LoRA/QLoRA, whose frozen base has no
// weight gradients, so the re-run adds half again): "8·P·D against
// 6·P·D" or "6·P·D against 4·P·D".
std::string FullRecomputeFlops(const Job& job);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_JOB_WORK_H_
