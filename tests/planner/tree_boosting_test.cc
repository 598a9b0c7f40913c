// Classical ML is timed as histogram tree boosting from published runs
// (planner/tree_boosting.h), not by FLOPs at a share of the SIMD peak.
// Held-out runs check the model's structure; planner-level tests check
// that plans and reviews use it. Runs the real Planner over catalog.db.
#include "planner/tree_boosting.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/defaults.h"
#include "planner/planner.h"
#include "planner/policy.h"
#include "planner/types.h"
#include "planner/util.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using internal::BoostingCost;
using internal::BoostingCostOf;
using internal::ParallelShare;
using ::testing::HasSubstr;

// GBM-perf's airline benchmark (10M rows x 8 columns, 100 trees of depth
// 10) on a Xeon Platinum 8488C pinned to 2, 4, 8, 32 and 48 physical
// cores, the median of three runs each:
// https://github.com/szilard/GBM-perf/blob/27fce3ce87eecdda4ffaae7f5ad915cfb7f9d293/analysis/multicore-c7metal/results/res.csv
// The model's fit uses only the 1- and 16-core runs of that file, so these
// five check how a round's time falls with cores (Amdahl's law with the
// library's serial fraction), not the fit itself.
struct HeldOutRun {
  Framework framework;
  double cores;
  double seconds;
};
constexpr HeldOutRun kC7iHeldOut[] = {
    {Framework::kXgboost, 2, 79.525},  {Framework::kXgboost, 4, 51.946},
    {Framework::kXgboost, 8, 36.099},  {Framework::kXgboost, 32, 20.829},
    {Framework::kXgboost, 48, 18.945}, {Framework::kLightgbm, 2, 50.47},
    {Framework::kLightgbm, 4, 27.107}, {Framework::kLightgbm, 8, 16.699},
    {Framework::kLightgbm, 32, 8.395}, {Framework::kLightgbm, 48, 9.051},
};

TEST(TreeBoostingModelTest, HeldOutCoreCountsFallInsideTheRange) {
  constexpr double kCellRounds = 10e6 * 8 * 100;
  for (const HeldOutRun& run : kC7iHeldOut) {
    const BoostingCost cost = BoostingCostOf(run.framework, /*gpu=*/false);
    const double per_ns =
        kCellRounds * ParallelShare(cost.serial_fraction, run.cores) * 1e-9;
    SCOPED_TRACE(testing::Message()
                 << cost.library << " on " << run.cores << " cores");
    EXPECT_LE(per_ns * cost.ns_low, run.seconds);
    EXPECT_GE(per_ns * cost.ns_high, run.seconds);
    const double expected = per_ns * cost.ns_expected;
    EXPECT_LT(std::max(expected / run.seconds, run.seconds / expected), 1.6);
  }
}

// Two vCPUs are one core, and cores past one socket's 48 add nothing: on
// the same file's 96 cores over two sockets LightGBM was slower than on 48
// and XGBoost barely faster.
TEST(TreeBoostingModelTest, CoresAreHalfTheVcpusUpToOneSocket) {
  catalog::MachineType m;
  internal::Shape s;
  s.machine = &m;
  m.vcpus = 16;
  EXPECT_EQ(internal::CoresOf(s), 8);
  m.vcpus = 96;
  EXPECT_EQ(internal::CoresOf(s), 48);
  m.vcpus = 192;
  EXPECT_EQ(internal::CoresOf(s), 48);
}

TEST(TreeBoostingModelTest, LibrariesHaveTheirOwnRunsAndOthersPoolThem) {
  const BoostingCost xgb = BoostingCostOf(Framework::kXgboost, false);
  const BoostingCost lgbm = BoostingCostOf(Framework::kLightgbm, false);
  const BoostingCost any = BoostingCostOf(Framework::kScikitLearn, false);
  EXPECT_GT(xgb.serial_fraction, lgbm.serial_fraction);
  EXPECT_EQ(any.runs, xgb.runs + lgbm.runs);
  EXPECT_DOUBLE_EQ(any.ns_low, std::min(xgb.ns_low, lgbm.ns_low));
  EXPECT_DOUBLE_EQ(any.ns_high, std::max(xgb.ns_high, lgbm.ns_high));
  EXPECT_DOUBLE_EQ(any.serial_fraction, xgb.serial_fraction);
  // One GPU is far faster per cell than one core, and not split by cores.
  EXPECT_LT(BoostingCostOf(Framework::kXgboost, true).ns_high, xgb.ns_low);
}

using TreeBoostingPlanTest = CatalogPlannerTest;

Workload Higgs(Framework f) {
  Workload w;
  w.framework = f;
  w.model_kind = ModelKind::kTabular;
  w.dataset_gib = 1.1;
  return w;
}

// One CPU machine type proposed for the job: its plan.
std::optional<Plan> OnVm(const Workload& w, const std::string& machine_type) {
  ReviewRequest r;
  r.workload = w;
  r.as_of = "2026-09-26";
  Proposal p;
  p.label = machine_type;
  HardwareProposal h;
  h.platform = Platform::kCpu;
  h.machine_type = machine_type;
  p.hardware = h;
  r.proposals = {p};
  const ReviewResponse out = TreeBoostingPlanTest::planner_->Review(r);
  if (out.verdicts.size() != 1 || !out.verdicts[0].plan) return std::nullopt;
  return *out.verdicts[0].plan;
}

// Hours spent training: the plan's less the start-up.
double Training(const Plan& p) {
  return p.estimates.total_hours.expected - kPolicy.job_startup_hours.value;
}

// The plan's hours are the model's: rounds x cells x the Amdahl share of
// the VM's cores (vCPUs / 2) x the median cost per cell, so a VM with 8x
// the cores is faster by the share's ratio, not 8x.
TEST_F(TreeBoostingPlanTest, AVmsHoursFollowItsCoresByAmdahl) {
  Workload w = Higgs(Framework::kLightgbm);
  w.epochs = 500;
  const std::optional<Plan> small = OnVm(w, "n2-highmem-8");
  const std::optional<Plan> large = OnVm(w, "n2-highmem-64");
  ASSERT_TRUE(small && large);
  const BoostingCost cost = BoostingCostOf(Framework::kLightgbm, false);
  const double cells = 1.1 * kGiB / internal::kBytesPerCell;
  EXPECT_NEAR(Training(*small) * 3600,
              500 * cells * ParallelShare(cost.serial_fraction, 4) *
                  cost.ns_expected * 1e-9,
              1);
  const double ratio = Training(*small) / Training(*large);
  EXPECT_NEAR(ratio,
              ParallelShare(cost.serial_fraction, 4) /
                  ParallelShare(cost.serial_fraction, 32),
              1e-6);
  EXPECT_LT(ratio, 4);
  EXPECT_GT(ratio, 2);
}

// Steps, else epochs, are boosting rounds; without either the libraries'
// default of 100 is assumed and said. No MFU, peak or FLOP count is reported.
TEST_F(TreeBoostingPlanTest, RoundsAreStepsOrEpochsElseTheLibrariesDefault) {
  Workload w = Higgs(Framework::kXgboost);
  const std::optional<Plan> unstated = OnVm(w, "n2-standard-16");
  w.epochs = 300;
  const std::optional<Plan> stated = OnVm(w, "n2-standard-16");
  ASSERT_TRUE(unstated && stated);
  EXPECT_NEAR(Training(*stated) / Training(*unstated),
              300 / kDefaults.boosting_rounds.value, 1e-6);
  // Steps are rounds too (one tree each), and win over epochs.
  w.steps = 600;
  const std::optional<Plan> steps = OnVm(w, "n2-standard-16");
  ASSERT_TRUE(steps);
  EXPECT_NEAR(Training(*steps) / Training(*stated), 2, 1e-6);
  EXPECT_FALSE(stated->estimates.mfu_known);
  EXPECT_FALSE(stated->estimates.flops_known);
  EXPECT_TRUE(stated->estimates.hours_known);

  PlanRequest q;
  q.workload = Higgs(Framework::kXgboost);
  q.as_of = "2026-09-26";
  const PlanResponse plan = planner_->Plan(q);
  ASSERT_TRUE(plan.recommendation.has_value()) << plan.no_plan_reason;
  const auto said = [&](const std::string& text) {
    for (const std::string& a : plan.assumptions) {
      if (a.find(text) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(said("Boosting rounds not given (steps or epochs): 100 assumed"));
  EXPECT_TRUE(said("Tree boosting time:"));
  EXPECT_FALSE(said("Epochs not given"));
  EXPECT_FALSE(said("Efficiency: MFU"));
}

// LightGBM's Higgs benchmark (500 rounds, 238.5 s on 16 threads of 2 x
// E5-2670 v3;
// https://github.com/microsoft/LightGBM/blob/01a8c0a983b96bb5ec7223bff99730df0f147404/docs/Experiments.rst)
// is minutes of work on a 22-vCPU (11-core) VM, not hours as a FLOP model
// put it. (The run is in the band's fit: a check of the order of
// magnitude, not a held-out one.)
TEST_F(TreeBoostingPlanTest, HiggsOnElevenCoresTakesMinutes) {
  Workload w = Higgs(Framework::kLightgbm);
  w.epochs = 500;
  const std::optional<Plan> p = OnVm(w, "c3-standard-22");
  ASSERT_TRUE(p);
  const Range& h = p->estimates.total_hours;
  const double startup = kPolicy.job_startup_hours.value;
  EXPECT_LE((h.low - startup) * 3600, 238.5);
  EXPECT_GE((h.high - startup) * 3600, 238.5);
  EXPECT_LT(h.expected - startup, 0.25);
}

// A data set given as an example count (1 KB each) is sized as the same
// bytes given directly: 5e9 examples need the VMs 4,657 GiB need, not one
// VM with its memory unchecked.
TEST_F(TreeBoostingPlanTest, AnExampleCountSizesTheWorkingSetToo) {
  PlanRequest by_examples;
  by_examples.workload.framework = Framework::kXgboost;
  by_examples.workload.dataset_examples = 5e9;
  by_examples.as_of = "2026-09-26";
  PlanRequest by_bytes = by_examples;
  by_bytes.workload.dataset_examples = 0;
  by_bytes.workload.dataset_gib =
      5e9 * kDefaults.classical_bytes_per_example.value / kGiB;
  const PlanResponse a = planner_->Plan(by_examples);
  const PlanResponse b = planner_->Plan(by_bytes);
  ASSERT_TRUE(a.recommendation && b.recommendation);
  EXPECT_GT(a.recommendation->hardware.hosts, 1);
  EXPECT_EQ(a.recommendation->hardware.hosts, b.recommendation->hardware.hosts);
  EXPECT_EQ(a.recommendation->hardware.machine_type,
            b.recommendation->hardware.machine_type);
  EXPECT_TRUE(a.recommendation->estimates.memory_known);
}

// Observed hours give a classical job no data size (its memory follows
// one), and the plan says that, not that they "end within the job's
// start-up" (3 hours do not).
TEST_F(TreeBoostingPlanTest, ObservedHoursGiveAClassicalJobNoDataSize) {
  PlanRequest q;
  q.workload.framework = Framework::kXgboost;
  q.current_setup.hardware = "c2-standard-8";
  q.current_setup.node_count = 1;
  q.current_setup.observed_hours = 3;
  q.as_of = "2026-09-26";
  const PlanResponse r = planner_->Plan(q);
  bool data_size = false, start_up = false;
  for (const std::string& a : r.assumptions) {
    data_size |=
        a.find("do not give a classical job's data size") != std::string::npos;
    start_up |= a.find("end within the job's start-up") != std::string::npos;
  }
  EXPECT_TRUE(data_size);
  EXPECT_FALSE(start_up);
}

// 500 GiB of XGBoost over 2,000 rounds (probed at stop 38): GPUs beat the
// CPU plans on cost and time at some sizes, CPUs at none.
PlanRequest LargeBoostingJob(Objective objective, double budget_usd) {
  PlanRequest q;
  q.workload.framework = Framework::kXgboost;
  q.workload.model_kind = ModelKind::kTabular;
  q.workload.dataset_gib = 500;
  q.workload.steps = 2000;
  q.goal.objective = objective;
  q.goal.budget_usd = budget_usd;
  q.as_of = "2026-09-26";
  return q;
}

// The CPU profile's exemption compares accelerators with the CPU plan the
// objective would recommend: under MIN_TIME the fastest CPU plan, not the
// cheapest, so MIN_TIME is never slower than the other objectives.
TEST_F(TreeBoostingPlanTest, MinTimeIsNoSlowerThanTheOtherObjectives) {
  const PlanResponse fast =
      planner_->Plan(LargeBoostingJob(Objective::kMinTime, 0));
  ASSERT_TRUE(fast.recommendation.has_value());
  const double hours = fast.recommendation->estimates.total_hours.expected;
  for (Objective o : {Objective::kMinCost, Objective::kBalanced}) {
    const PlanResponse other = planner_->Plan(LargeBoostingJob(o, 0));
    ASSERT_TRUE(other.recommendation.has_value());
    EXPECT_LE(hours, other.recommendation->estimates.total_hours.expected);
  }
}

// A larger budget keeps the accelerator plan that beat the CPU plans: a
// family's sizes that cost less than the CPU plan are not oversized, only
// the dearer ones ($200 gave 5.3 h on CPUs after 0.36 h on L4s at $100).
TEST_F(TreeBoostingPlanTest, ALargerBudgetKeepsTheCheaperFasterPlan) {
  const PlanResponse small =
      planner_->Plan(LargeBoostingJob(Objective::kMinTime, 100));
  const PlanResponse large =
      planner_->Plan(LargeBoostingJob(Objective::kMinTime, 200));
  ASSERT_TRUE(small.recommendation.has_value());
  ASSERT_TRUE(large.recommendation.has_value());
  const Estimates& s = small.recommendation->estimates;
  const Estimates& l = large.recommendation->estimates;
  EXPECT_LE(l.total_hours.expected,
            s.total_hours.expected * (1 + kPolicy.equal_time_fraction.value));
  EXPECT_EQ(large.recommendation->hardware.platform, Platform::kGpu);
}

// A family re-selected under the CPU plan's cost is refined toward that
// cost as under a budget, so raising the budget never gives a slower size:
// its own pick moved with the budget, and $180-$250 gave 0.37 h where $170
// gave 0.29 h (stop 38).
TEST_F(TreeBoostingPlanTest, RaisingTheBudgetNeverSlowsTheReselectedFamily) {
  double previous_hours = 0;
  for (double budget : {150.0, 170.0, 180.0, 200.0, 250.0, 400.0}) {
    const PlanResponse r =
        planner_->Plan(LargeBoostingJob(Objective::kMinTime, budget));
    ASSERT_TRUE(r.recommendation.has_value()) << budget;
    const double hours = r.recommendation->estimates.total_hours.expected;
    if (previous_hours > 0) {
      EXPECT_LE(hours, previous_hours) << "budget $" << budget;
    }
    previous_hours = hours;
  }
}

}  // namespace
}  // namespace accelplan::planner
