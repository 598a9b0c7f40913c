// The calibrated efficiency of one point: the MFU band of its accelerator
// generation × precision × software stack (× dense or mixture of experts),
// taken as the min–max of the published measured runs in the catalog's
// measured_efficiency table, each end moved out by kPolicy.mfu_run_spread.
// A class with no run borrows, in order: the same generation (GPU
// architecture: H100 for H200), then any stack of that generation, then
// any accelerator of the platform, each widened by
// kPolicy.mfu_fallback_widening and stated as an ASSUMPTION. Work the
// table has no runs for (fp32, non-transformer models, CPUs, pre-Ampere
// GPUs) keeps time_model.h's assumed DefaultMfu bands.
#ifndef ACCELPLAN_PLANNER_EFFICIENCY_H_
#define ACCELPLAN_PLANNER_EFFICIENCY_H_

#include <string>

#include "planner/index.h"
#include "planner/job.h"
#include "planner/time_model.h"

namespace accelplan::planner::internal {

// fp8 speeds a step up only through a faster fp8 peak: where the catalog's
// fp8 peak is no higher than the bf16 one (TPU v5p and v6e list the same
// figure for both), fp8 training runs at the bf16 rate and efficiency.
bool Fp8RunsAtBf16Rate(const catalog::Accelerator* acc);

// The precision whose efficiency band times the job on `f`: the job's,
// except fp8 where Fp8RunsAtBf16Rate (then bf16's band).
Precision BandPrecision(const Job& job, const Family& f);

// Reduces f.efficiency_runs to f.mfu_bands, one band per work class; the
// index calls it once per family and catalog snapshot.
void PrecomputeMfuBands(Family& f);

// A table lookup (PrecomputeMfuBands): called for every point.
MfuRange CalibratedMfu(const Job& job, const Family& f);

// The band's class, its runs (by run id) and any fallback, as one sentence
// for the plan's assumptions.
std::string DescribeMfu(const Job& job, const Family& f);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_EFFICIENCY_H_
