// What the caller passes per call (planner::CallContext) and the view: an
// empty as_of means the caller's today; a cancelled call stops; BASIC keeps
// only what a pipeline needs, decided by the planner alone.
#include <atomic>
#include <string>

#include "absl/time/civil_time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using ::testing::IsEmpty;
using ::testing::Not;

class CallContextTest : public CatalogPlannerTest {};

PlanRequest FineTune7b() {
  PlanRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.parameter_count = 7e9;
  r.workload.training_method = TrainingMethod::kLora;
  r.workload.dataset_tokens = 2e8;
  r.goal.objective = Objective::kMinCost;
  r.goal.deadline_hours = 48;
  return r;
}

bool HasStaleCatalogWarning(const PlanResponse& r) {
  for (const Reason& w : r.warnings) {
    if (w.code == ReasonCode::kCatalogStale) return true;
  }
  return false;
}

TEST_F(CallContextTest, AnEmptyAsOfMeansTheCallersToday) {
  const std::string data_date = planner_->catalog().data_date;
  ASSERT_FALSE(data_date.empty());
  CallContext same_day;
  same_day.today = data_date;
  EXPECT_FALSE(HasStaleCatalogWarning(planner_->Plan(FineTune7b(), same_day)));
  CallContext years_later;
  years_later.today = "2035-01-01";
  EXPECT_TRUE(
      HasStaleCatalogWarning(planner_->Plan(FineTune7b(), years_later)));
  // An explicit as_of wins over the caller's today.
  PlanRequest r = FineTune7b();
  r.as_of = data_date;
  EXPECT_FALSE(HasStaleCatalogWarning(planner_->Plan(r, years_later)));
}

bool HasWarning(const PlanResponse& r, ReasonCode code) {
  for (const Reason& w : r.warnings) {
    if (w.code == code) return true;
  }
  return false;
}

// YYYY-MM-DD `days` after `date`.
std::string DaysAfter(const std::string& date, int days) {
  absl::CivilDay day;
  EXPECT_TRUE(absl::ParseCivilTime(date, &day)) << date;
  return absl::FormatCivilTime(day + days);
}

TEST_F(CallContextTest, PricesOlderThanAQuarterAtAsOfWarn) {
  PlanRequest r = FineTune7b();
  r.as_of = planner_->catalog().data_date;
  const PlanResponse now = planner_->Plan(r);
  ASSERT_TRUE(now.recommendation.has_value());
  const std::string priced = now.recommendation->estimates.price_date;
  ASSERT_FALSE(priced.empty());
  r.as_of = DaysAfter(priced, 90);
  EXPECT_FALSE(HasWarning(planner_->Plan(r), ReasonCode::kPricesStale));
  r.as_of = DaysAfter(priced, 91);
  const PlanResponse later = planner_->Plan(r);
  ASSERT_TRUE(later.recommendation.has_value());
  ASSERT_EQ(later.recommendation->estimates.price_date, priced);
  EXPECT_TRUE(HasWarning(later, ReasonCode::kPricesStale));
}

TEST_F(CallContextTest, ACancelledCallStopsBeforeEvaluatingEveryFamily) {
  std::atomic<int> polls{0};
  CallContext context;
  context.cancelled = [&] {
    ++polls;
    return true;
  };
  const PlanResponse cancelled = planner_->Plan(FineTune7b(), context);
  EXPECT_GE(polls.load(), 1);
  EXPECT_FALSE(cancelled.recommendation.has_value());
  EXPECT_TRUE(planner_->Plan(FineTune7b()).recommendation.has_value());

  ReviewRequest review;
  review.workload = FineTune7b().workload;
  review.proposals.push_back(Proposal{});
  review.proposals[0].hardware = HardwareProposal{};
  review.proposals[0].hardware->machine_type = "g2-standard-8";
  EXPECT_THAT(planner_->Review(review, context).verdicts, IsEmpty());
  EXPECT_THAT(planner_->Review(review).verdicts, Not(IsEmpty()));
}

TEST_F(CallContextTest, BasicViewKeepsWhatAPipelineNeeds) {
  PlanRequest r = FineTune7b();
  r.view = View::kFull;
  const PlanResponse full = planner_->Plan(r);
  r.view = View::kBasic;
  const PlanResponse basic = planner_->Plan(r);
  ASSERT_TRUE(full.recommendation.has_value());
  ASSERT_THAT(full.alternatives, Not(IsEmpty()));
  ASSERT_THAT(full.rejected, Not(IsEmpty()));
  ASSERT_THAT(full.assumptions, Not(IsEmpty()));
  ASSERT_THAT(full.facts_used, Not(IsEmpty()));

  EXPECT_THAT(basic.alternatives, IsEmpty());
  EXPECT_THAT(basic.rejected, IsEmpty());
  EXPECT_THAT(basic.facts_used, IsEmpty());
  EXPECT_THAT(basic.assumptions, IsEmpty());
  EXPECT_FALSE(basic.savings.has_value());
  ASSERT_TRUE(basic.recommendation.has_value());
  EXPECT_EQ(basic.recommendation->hardware.machine_type,
            full.recommendation->hardware.machine_type);
  EXPECT_EQ(basic.recommendation->estimates.step_time_seconds,
            full.recommendation->estimates.step_time_seconds);
  EXPECT_TRUE(basic.recommendation->job_spec.vertex.has_value() ||
              basic.recommendation->job_spec.gke.has_value());
  EXPECT_EQ(basic.warnings.size(), full.warnings.size());
  EXPECT_EQ(basic.remedies.size(), full.remedies.size());
  EXPECT_EQ(basic.catalog_version, full.catalog_version);
}

}  // namespace
}  // namespace accelplan::planner
