#include "planner/tree_boosting.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "absl/strings/str_format.h"
#include "planner/policy.h"

namespace accelplan::planner::internal {
namespace {

enum class Library { kXgboost, kLightgbm };

// One published, measured training run of histogram boosting: the rows and
// features of its (dense) training data, its rounds, the physical cores
// (CPU) or GPUs it ran on, and its training time.
struct BoostingRun {
  Library library;
  bool gpu;
  double rows;
  double features;
  double rounds;
  double cores;  // GPUs for a GPU run
  double seconds;
  const char* url;
};

// GBM-perf's airline benchmark (100 trees of depth 10, learning rate 0.1;
// 10M rows of 8 columns, which XGBoost sees one-hot as ~8 non-zeros per
// row) on an Intel Xeon Platinum 8488C pinned to 1 and 16 physical cores
// (the median of three runs each): the serial fraction's pair.
constexpr char kGbmPerfC7i[] =
    "https://github.com/szilard/GBM-perf/blob/"
    "27fce3ce87eecdda4ffaae7f5ad915cfb7f9d293/analysis/multicore-c7metal/"
    "results/res.csv";
// The same benchmark on m7i.8xlarge (16 cores) and on single GPUs (XGBoost
// `device="cuda"`; LightGBM's `device="gpu"` OpenCL build), June 2024.
constexpr char kGbmPerf2024[] =
    "https://github.com/szilard/GBM-perf/blob/"
    "438f7b8d48a96fa6f3218b08b3c3e3fd38f63f4c/analysis/2024_updates/"
    "results.txt";
// LightGBM's authors, 2020: Higgs (10.5M x 28) and MS LTR (2,270,296 x
// 137), 500 rounds of 255 leaves (XGBoost hist: lossguide, max_leaves
// 255), 16 threads on an E5-2690 v4 VM; loading excluded.
constexpr char kGuolinke2020[] =
    "https://github.com/guolinke/boosting_tree_benchmarks/blob/"
    "9c031639e3ed098ad5d25d5a69e1dfb9178ffc09/result.md";
// LightGBM's Experiments page: the same two data sets and settings on 2 x
// E5-2670 v3 with 16 threads, 2017 software.
constexpr char kLightgbmExperiments[] =
    "https://github.com/microsoft/LightGBM/blob/"
    "01a8c0a983b96bb5ec7223bff99730df0f147404/docs/Experiments.rst";

// The 1- and 16-core times of the serial-fraction pair (kGbmPerfC7i).
constexpr double kC7iXgboost1 = 117.83;
constexpr double kC7iXgboost16 = 26.84;
constexpr double kC7iLightgbm1 = 95.035;
constexpr double kC7iLightgbm16 = 9.991;

constexpr double kHiggsRows = 10.5e6;
constexpr double kMsLtrRows = 2270296;
constexpr double kMsLtrFeatures = 137;

constexpr BoostingRun kRuns[] = {
    {Library::kXgboost, false, 10e6, 8, 100, 1, kC7iXgboost1, kGbmPerfC7i},
    {Library::kXgboost, false, 10e6, 8, 100, 16, 22.324, kGbmPerf2024},
    {Library::kXgboost, false, kHiggsRows, 28, 500, 16, 165.575, kGuolinke2020},
    {Library::kXgboost, false, kMsLtrRows, kMsLtrFeatures, 500, 16, 98.3863,
     kGuolinke2020},
    {Library::kXgboost, false, kHiggsRows, 28, 500, 16, 551.898,
     kLightgbmExperiments},
    {Library::kXgboost, false, kMsLtrRows, kMsLtrFeatures, 500, 16, 385.201,
     kLightgbmExperiments},
    {Library::kLightgbm, false, 10e6, 8, 100, 1, kC7iLightgbm1, kGbmPerfC7i},
    {Library::kLightgbm, false, 10e6, 8, 100, 16, 9.676, kGbmPerf2024},
    {Library::kLightgbm, false, kHiggsRows, 28, 500, 16, 130.094667,
     kGuolinke2020},
    {Library::kLightgbm, false, kMsLtrRows, kMsLtrFeatures, 500, 16, 70.417205,
     kGuolinke2020},
    {Library::kLightgbm, false, kHiggsRows, 28, 500, 16, 238.505513,
     kLightgbmExperiments},
    {Library::kLightgbm, false, kMsLtrRows, kMsLtrFeatures, 500, 16, 215.320316,
     kLightgbmExperiments},
    // Single GPUs: H100 PCIe, A100 40GB, A10, L4, A10G.
    {Library::kXgboost, true, 10e6, 8, 100, 1, 3.635, kGbmPerf2024},
    {Library::kXgboost, true, 10e6, 8, 100, 1, 3.755, kGbmPerf2024},
    {Library::kXgboost, true, 10e6, 8, 100, 1, 5.69, kGbmPerf2024},
    {Library::kXgboost, true, 10e6, 8, 100, 1, 6.118, kGbmPerf2024},
    {Library::kXgboost, true, 10e6, 8, 100, 1, 5.463, kGbmPerf2024},
    {Library::kLightgbm, true, 10e6, 8, 100, 1, 16.408, kGbmPerf2024},
    {Library::kLightgbm, true, 10e6, 8, 100, 1, 27.5, kGbmPerf2024},
    {Library::kLightgbm, true, 10e6, 8, 100, 1, 12.644, kGbmPerf2024},
    {Library::kLightgbm, true, 10e6, 8, 100, 1, 22.196, kGbmPerf2024},
    {Library::kLightgbm, true, 10e6, 8, 100, 1, 27.739, kGbmPerf2024},
};

// The most cores a round gains from, a conservative reading of the same
// file: past one socket's 48 cores, LightGBM slowed down (96 cores over two
// sockets: 16.3 s against 9.1 s on 48) and XGBoost barely sped up (18.3 s
// against 18.9 s), so a VM's cores past 48 count as 48.
constexpr double kMaxUsefulCores = 48;

// Amdahl's law through one core's time and n cores' time.
double SerialFraction(double one_core_s, double n_cores_s, double n) {
  return (n_cores_s / one_core_s - 1 / n) / (1 - 1 / n);
}

double SerialFractionOf(Library lib) {
  return lib == Library::kXgboost
             ? SerialFraction(kC7iXgboost1, kC7iXgboost16, 16)
             : SerialFraction(kC7iLightgbm1, kC7iLightgbm16, 16);
}

// The median of a non-empty list.
double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : 0.5 * (v[mid - 1] + v[mid]);
}

// The band over the runs of `libs` on one platform, each end moved out by
// the run spread every published band in the planner takes.
BoostingCost CostOver(std::initializer_list<Library> libs, bool gpu) {
  std::vector<double> ns;
  for (const BoostingRun& r : kRuns) {
    if (r.gpu != gpu ||
        std::find(libs.begin(), libs.end(), r.library) == libs.end()) {
      continue;
    }
    const double share =
        gpu ? 1 / r.cores : ParallelShare(SerialFractionOf(r.library), r.cores);
    ns.push_back(r.seconds * 1e9 / (r.rows * r.features * r.rounds * share));
  }
  const double spread = kPolicy.mfu_run_spread.value;
  BoostingCost cost;
  cost.ns_low = *std::min_element(ns.begin(), ns.end()) * (1 - spread);
  cost.ns_high = *std::max_element(ns.begin(), ns.end()) * (1 + spread);
  cost.ns_expected = Median(ns);
  cost.runs = static_cast<int>(ns.size());
  if (!gpu && libs.size() == 1) {
    cost.serial_fraction = SerialFractionOf(*libs.begin());
  } else if (!gpu) {  // both libraries: the larger serial fraction
    cost.serial_fraction = std::max(SerialFractionOf(Library::kXgboost),
                                    SerialFractionOf(Library::kLightgbm));
  }
  return cost;
}

}  // namespace

double ParallelShare(double serial_fraction, double cores) {
  const double n = std::max(1.0, cores);
  return serial_fraction + (1 - serial_fraction) / n;
}

double CoresOf(const Shape& s) {
  return std::clamp(s.machine->vcpus.value_or(0) / 2.0, 1.0, kMaxUsefulCores);
}

BoostingCost BoostingCostOf(Framework framework, bool gpu) {
  static const BoostingCost kCosts[2][3] = {
      {CostOver({Library::kXgboost}, false),
       CostOver({Library::kLightgbm}, false),
       CostOver({Library::kXgboost, Library::kLightgbm}, false)},
      {CostOver({Library::kXgboost}, true),
       CostOver({Library::kLightgbm}, true),
       CostOver({Library::kXgboost, Library::kLightgbm}, true)}};
  const int lib = framework == Framework::kXgboost    ? 0
                  : framework == Framework::kLightgbm ? 1
                                                      : 2;
  BoostingCost cost = kCosts[gpu ? 1 : 0][lib];
  static constexpr const char* kNames[] = {"XGBoost", "LightGBM",
                                           "XGBoost and LightGBM"};
  cost.library = kNames[lib];
  return cost;
}

void TimeTreeBoosting(const Job& job, const Family& f, Config& c) {
  const bool gpu = f.platform != Platform::kCpu;
  const BoostingCost cost = BoostingCostOf(job.framework, gpu);
  // A float32 value per row·feature cell; VMs and GPUs split the rows.
  const double cells =
      job.tokens_per_step / kBytesPerCell / std::max(1, c.devices);
  const double share =
      gpu ? 1 : ParallelShare(cost.serial_fraction, CoresOf(*c.shape));
  const double per_ns = cells * share * 1e-9;
  c.mfu = MfuRange{};
  c.reducers.reset();
  c.comm_bound = false;
  c.step = StepTimeEstimate{};
  c.step.compute_seconds_fast = per_ns * cost.ns_low;
  c.step.compute_seconds_slow = per_ns * cost.ns_high;
  c.step.step_seconds_fast = c.step.compute_seconds_fast;
  c.step.step_seconds_expected = per_ns * cost.ns_expected;
  c.step.step_seconds_slow = c.step.compute_seconds_slow;
  c.tokens_per_second = c.step.step_seconds_expected > 0
                            ? job.tokens_per_step / c.step.step_seconds_expected
                            : 0;
}

std::string DescribeTreeBoosting(const Job& job, const Family& f) {
  const bool gpu = f.platform != Platform::kCpu;
  const BoostingCost cost = BoostingCostOf(job.framework, gpu);
  // XGBoost and LightGBM split the rows over workers (Dask, Spark); on
  // GPUs LightGBM trains on one, and scikit-learn on one VM.
  const bool splits = job.framework == Framework::kXgboost ||
                      (!gpu && job.framework == Framework::kLightgbm);
  const std::string scaling =
      gpu ? absl::StrCat(
                splits ? "GPUs split the rows (one Dask worker each; linear, "
                         "an ASSUMPTION). "
                       : "",
                "Every GPU is taken at the same speed (the runs: H100 only "
                "1.7x an L4)",
                job.framework != Framework::kXgboost
                    ? "; LightGBM's runs are of its OpenCL build, the only "
                      "published absolute GPU times (ASSUMPTION for CUDA)"
                    : "")
          : absl::StrFormat(
                "a VM's cores (2 vCPUs each, at most %.0f) share a round by "
                "Amdahl's law with a serial fraction of %.3f (GBM-perf's 1- "
                "and 16-core runs)%s. Every CPU series is taken at the same "
                "speed per core (the runs span Xeons from 2014 to 2023)",
                kMaxUsefulCores, cost.serial_fraction,
                splits ? ", and VMs split the rows" : "");
  return absl::StrFormat(
      "Tree boosting time: %.2f-%.2f ns (median %.2f) per row x feature "
      "cell per boosting round on one %s, the min-max of %d published %s "
      "runs widened by %.0f%% (%s); %s. The data set is read as float32 "
      "features (4 bytes a cell); histogram boosting is assumed (other "
      "scikit-learn estimators differ).",
      cost.ns_low, cost.ns_high, cost.ns_expected, gpu ? "GPU" : "core",
      cost.runs, cost.library, 100 * kPolicy.mfu_run_spread.value,
      gpu ? "GBM-perf" : "GBM-perf, the LightGBM authors' benchmarks", scaling);
}

}  // namespace accelplan::planner::internal
