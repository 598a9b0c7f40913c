// Stage 5 for classical ML: the time of histogram tree boosting (XGBoost
// `hist`, LightGBM) from published measured runs. Boosting is bound by
// histogram building (memory access and scatter-adds), not by the SIMD
// peak a FLOP model would read: a FLOP count at a fraction of peak timed
// LightGBM's Higgs run about 25x too slow, and ranked CPU series by
// vector width, which this work hardly uses.
//
// Cost of one boosting round: `ns_per_cell` per row·feature cell of the
// data set (its float32 size / 4 bytes), for one CPU core or one GPU. On a
// CPU VM the cores share the round by Amdahl's law with the library's
// serial fraction; VMs split the rows, as LightGBM's parallel experiment
// measured on CPU servers (627.8 s per tree on one machine, 42 s on 16:
// docs/Experiments.rst), and GPUs (Dask, one worker each) are assumed to
// split them alike.
#ifndef ACCELPLAN_PLANNER_TREE_BOOSTING_H_
#define ACCELPLAN_PLANNER_TREE_BOOSTING_H_

#include <string>

#include "planner/candidate.h"
#include "planner/job.h"

namespace accelplan::planner::internal {

// Bytes of one row·feature cell: a float32 feature value, as XGBoost's
// DMatrix and LightGBM's Dataset take dense input.
inline constexpr double kBytesPerCell = 4;

// One library's cost on one platform: the min, median and max over its
// published runs of the single-core (CPU) or single-GPU time per cell per
// round, and the serial fraction of a round on a CPU VM.
struct BoostingCost {
  double ns_low = 0;
  double ns_expected = 0;
  double ns_high = 0;
  double serial_fraction = 0;  // CPU only
  int runs = 0;
  const char* library = "";  // "XGBoost", "LightGBM" or "XGBoost and LightGBM"
};

// The cost for the job's library (XGBoost, LightGBM; any other classical
// framework: both libraries' runs) on a CPU core (`gpu` false) or a GPU.
BoostingCost BoostingCostOf(Framework framework, bool gpu);

// The share of one core's time a round takes on `cores` cores (Amdahl).
double ParallelShare(double serial_fraction, double cores);

// Physical cores of a CPU shape: two vCPUs are the two hyperthreads of one
// core on every CPU series the catalog holds (catalog source CPU-PLAT).
double CoresOf(const Shape& s);

// Fills c.step (the nominal step of job.tokens_per_step bytes) and
// c.tokens_per_second for a classical job; c.mfu is left empty (no FLOP
// model). EstimateTime turns the step into hours.
void TimeTreeBoosting(const Job& job, const Family& f, Config& c);

// The model and its runs, one sentence for the plan's assumptions.
std::string DescribeTreeBoosting(const Job& job, const Family& f);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_TREE_BOOSTING_H_
