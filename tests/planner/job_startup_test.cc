// The job's start-up (kPolicy.job_startup_hours): every job with a data set
// pays it once, in its hours and its cost, whatever its device count; so a
// short job is not spread over hundreds of devices to train for seconds,
// while a long one still scales. Runs the real Planner over catalog.db.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "planner/defaults.h"
#include "planner/job.h"
#include "planner/planner.h"
#include "planner/policy.h"
#include "planner/provisioning.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"
#include "tests/planner/testing/plans.h"
#include "tests/planner/testing/workloads.h"

namespace accelplan::planner {
namespace {

using testutil::Llm;
using testutil::Medium;
using testutil::Shape;

using testutil::AllPlans;

using JobStartupTest = CatalogPlannerTest;

constexpr double kStartup = kPolicy.job_startup_hours.value;

// A 7B LoRA fine-tune on 100M tokens: minutes of training on one node.
Workload ShortLora() {
  Workload w = Llm(7e9, 1e8, Shape(32, 4096, 32, 2048));
  w.training_method = TrainingMethod::kLora;
  return w;
}

bool StatesTheStartup(const PlanResponse& r) {
  return testutil::Mentions(r.assumptions, "job start-up");
}

// The hours are the steps at the planned step time plus one start-up, and
// the start-up is billed: every end of the cost range is its hours at the
// same hourly price.
TEST_F(JobStartupTest, HoursAndCostHoldOneStartup) {
  const Workload w = Medium();
  const PlanResponse out =
      planner_->Plan(testutil::RequestFor(w, Objective::kMinCost));
  ASSERT_TRUE(out.recommendation.has_value());
  int checked = 0;
  for (const struct Plan* p : AllPlans(out)) {
    const Estimates& e = p->estimates;
    if (!e.hours_known || !e.throughput_known || !e.price_known) continue;
    if (p->hardware.provisioning == Provisioning::kSpot) continue;  // restarts
    const std::string what = p->hardware.machine_type;
    const double training = w.dataset_tokens / e.tokens_per_second / 3600;
    EXPECT_NEAR(e.total_hours.expected - kStartup, training, 1e-6 * training)
        << what;
    EXPECT_GT(e.total_hours.low, kStartup) << what;
    for (const auto& [hours, cost] :
         {std::pair{e.total_hours.low, e.on_demand_cost_usd.low},
          std::pair{e.total_hours.expected, e.on_demand_cost_usd.expected},
          std::pair{e.total_hours.high, e.on_demand_cost_usd.high}}) {
      EXPECT_NEAR(cost, hours * e.on_demand_hourly_usd, 1e-9 * cost) << what;
    }
    ++checked;
  }
  EXPECT_GE(checked, 2);
  EXPECT_TRUE(StatesTheStartup(out));
}

// Without a data set there are no hours, and no start-up is stated.
TEST_F(JobStartupTest, NoStartupWithoutHours) {
  Workload w = Medium();
  w.dataset_tokens = 0;
  const PlanResponse out =
      planner_->Plan(testutil::RequestFor(w, Objective::kMinCost));
  ASSERT_TRUE(out.recommendation.has_value());
  EXPECT_FALSE(out.recommendation->estimates.hours_known);
  EXPECT_FALSE(StatesTheStartup(out));
}

// BALANCED weighs cost against time: a job that trains for minutes gains
// little time from hundreds of devices and pays each one's start-up, so it
// stays on a few nodes (without the start-up it went to 448 H100s for 11
// seconds) ...
TEST_F(JobStartupTest, BalancedKeepsAShortJobOnFewDevices) {
  const PlanResponse out =
      planner_->Plan(testutil::RequestFor(ShortLora(), Objective::kBalanced));
  ASSERT_TRUE(out.recommendation.has_value());
  const struct Plan& rec = *out.recommendation;
  EXPECT_LE(rec.hardware.total_accelerators, 32) << rec.hardware.machine_type;
  // Its training is not dwarfed by the start-up.
  EXPECT_GT(rec.estimates.total_hours.expected - kStartup, kStartup / 2)
      << rec.hardware.machine_type;
}

// ... while a job that trains for days still scales out under BALANCED,
// and the start-up is a small share of its hours.
TEST_F(JobStartupTest, BalancedStillScalesALongJob) {
  Workload w = Medium();
  w.dataset_tokens = 1e12;
  const PlanResponse out =
      planner_->Plan(testutil::RequestFor(w, Objective::kBalanced));
  ASSERT_TRUE(out.recommendation.has_value());
  const struct Plan& rec = *out.recommendation;
  EXPECT_GE(rec.hardware.total_accelerators, 64) << rec.hardware.machine_type;
  EXPECT_LT(kStartup, 0.05 * rec.estimates.total_hours.expected);
}

// A Spot job that does not checkpoint loses its training to a preemption,
// not its start-up: it is PREEMPTION_RISK past an hour of training, i.e.
// past an hour plus the start-up of wall clock; one that checkpoints never.
TEST_F(JobStartupTest, SpotRiskCountsTheTrainingNotTheStartup) {
  internal::Job job;
  const double limit = kPolicy.spot_uncheckpointed_max_hours.value + kStartup;
  EXPECT_FALSE(internal::SpotLosesWork(job, limit - 1e-6));
  EXPECT_TRUE(internal::SpotLosesWork(job, limit + 1e-6));
  job.workload.checkpoints = true;
  EXPECT_FALSE(internal::SpotLosesWork(job, 10 * limit));
}

// Spot restarts stretch the training, not the start-up: a checkpointing
// Spot plan's hours are the start-up plus its on-demand training hours
// times (1 + the restart overhead).
TEST_F(JobStartupTest, SpotRestartsStretchOnlyTheTraining) {
  Workload w = Medium();
  w.checkpoints = true;
  PlanRequest spot = testutil::RequestFor(w, Objective::kMinCost);
  spot.constraints.spot_allowed = true;
  spot.constraints.allowed_series = {"A3 High"};
  PlanRequest on_demand = spot;
  on_demand.constraints.spot_allowed = false;
  const PlanResponse a = planner_->Plan(spot);
  const PlanResponse b = planner_->Plan(on_demand);
  ASSERT_TRUE(a.recommendation && b.recommendation);
  ASSERT_EQ(a.recommendation->hardware.provisioning, Provisioning::kSpot);
  ASSERT_EQ(a.recommendation->hardware.total_accelerators,
            b.recommendation->hardware.total_accelerators);
  const double overhead =
      kPolicy.spot_preemptions_per_hour.value *
      (kDefaults.checkpoint_interval_minutes.value / 60 / 2 +
       kPolicy.spot_restart_hours.value);
  EXPECT_NEAR(
      a.recommendation->estimates.total_hours.expected,
      kStartup + (b.recommendation->estimates.total_hours.expected - kStartup) *
                     (1 + overhead),
      1e-9 * b.recommendation->estimates.total_hours.expected);
}

}  // namespace
}  // namespace accelplan::planner
