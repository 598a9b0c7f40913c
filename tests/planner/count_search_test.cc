// The planner searches VM and slice counts on a refined grid (bisection
// wherever the configuration's state changes). It must choose exactly what
// an exhaustive search over every count of every catalog shape chooses: this
// test plans a sample of varied requests both ways and compares the
// recommendation, every alternative and every rejection.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "catalog/loader.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"

namespace accelplan::planner {
namespace {

class CountSearchTest : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    auto cat = catalog::LoadCatalog(ACCELPLAN_CATALOG_DB_PATH);
    ASSERT_TRUE(cat.ok()) << cat.status();
    refined_ = new Planner(*cat);
    exhaustive_ = new Planner(*cat, PlannerOptions{/*exhaustive_counts=*/true});
  }
  static void TearDownTestSuite() {
    delete refined_;
    delete exhaustive_;
  }
  static Planner* refined_;
  static Planner* exhaustive_;
};
Planner* CountSearchTest::refined_ = nullptr;
Planner* CountSearchTest::exhaustive_ = nullptr;

std::string Describe(const Hardware& h) {
  return absl::StrCat(h.series, " ", h.machine_type, " x", h.hosts, " (",
                      h.total_accelerators, " acc, ", h.tpu_topology, " x",
                      h.slices, ")");
}

void ExpectSamePlan(const Plan& a, const Plan& b, const std::string& what) {
  EXPECT_EQ(Describe(a.hardware), Describe(b.hardware)) << what;
  EXPECT_EQ(a.distribution.strategy, b.distribution.strategy) << what;
  auto same = [&](double x, double y, const char* field) {
    EXPECT_NEAR(x, y, 1e-9 * std::max(1.0, std::abs(y))) << what << " " << field;
  };
  same(a.estimates.total_hours.expected, b.estimates.total_hours.expected,
       "hours");
  same(a.estimates.on_demand_cost_usd.expected,
       b.estimates.on_demand_cost_usd.expected, "on-demand cost");
  same(a.estimates.spot_cost_usd.expected, b.estimates.spot_cost_usd.expected,
       "spot cost");
}

PlanRequest Llm(Framework f, double params, double tokens) {
  PlanRequest r;
  r.workload.framework = f;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = params;
  r.workload.dataset_tokens = tokens;
  r.as_of = "2026-09-26";
  return r;
}

std::vector<PlanRequest> Sample() {
  std::vector<PlanRequest> out;
  PlanRequest r = Llm(Framework::kJax, 7e9, 1e11);
  r.goal.deadline_hours = 72;
  out.push_back(r);
  out.push_back(Llm(Framework::kPytorch, 13e9, 3e11));
  r = Llm(Framework::kPytorch, 70e9, 1e12);
  r.workload.transformer_shape = {80, 8192, 64, 4096, 128256, 28672};
  r.workload.global_batch_size = 1024;
  r.goal.deadline_hours = 1440;
  r.constraints.spot_allowed = true;
  out.push_back(r);
  r = Llm(Framework::kPytorch, 1e9, 2e10);
  r.goal.objective = Objective::kMinTime;
  r.goal.budget_usd = 5000;
  out.push_back(r);
  r = Llm(Framework::kTensorflow, 30e9, 3e11);
  r.goal.deadline_hours = 240;
  out.push_back(r);
  r = Llm(Framework::kPytorch, 8e9, 1e11);
  r.workload.precision = Precision::kFp8;
  r.goal.objective = Objective::kMinTime;
  r.goal.budget_usd = 50000;
  out.push_back(r);
  r = Llm(Framework::kJax, 2e9, 5e10);
  r.goal.objective = Objective::kMinTime;
  out.push_back(r);
  r = PlanRequest{};
  r.workload.framework = Framework::kXgboost;
  r.workload.dataset_gib = 500;
  r.workload.epochs = 200;
  r.constraints.allowed_platforms = {Platform::kCpu, Platform::kGpu};
  out.push_back(r);
  r = Llm(Framework::kJax, 7e9, 1e11);
  r.goal.objective = Objective::kBalanced;
  out.push_back(r);
  r = Llm(Framework::kJax, 175e9, 3e11);
  r.workload.transformer_shape = {96, 12288, 96, 2048, 50257, 49152};
  r.workload.global_batch_size = 1536;
  r.constraints.allowed_platforms = {Platform::kTpu};
  r.constraints.run_platform = RunPlatform::kGke;
  r.goal.deadline_hours = 720;
  out.push_back(r);
  r = Llm(Framework::kPytorch, 3e9, 6e10);
  r.constraints.max_accelerators = 16;
  r.goal.deadline_hours = 100;
  out.push_back(r);
  r = Llm(Framework::kPytorch, 70e9, 1e9);
  r.workload.training_method = TrainingMethod::kLora;
  r.goal.deadline_hours = 24;
  out.push_back(r);
  r = Llm(Framework::kJax, 30e9, 2e12);  // forces Multislice on a deadline
  r.constraints.allowed_platforms = {Platform::kTpu};
  r.constraints.run_platform = RunPlatform::kGke;
  r.goal.deadline_hours = 500;
  out.push_back(r);
  r = Llm(Framework::kPytorch, 70e9, 5e11);
  r.workload.transformer_shape = {80, 8192, 64, 4096, 128256, 28672};
  r.workload.global_batch_size = 2048;
  r.goal.objective = Objective::kBalanced;
  out.push_back(r);
  r = Llm(Framework::kJax, 13e9, 4e11);
  r.goal.objective = Objective::kMinTime;
  r.goal.budget_usd = 200000;
  out.push_back(r);
  r = Llm(Framework::kPytorch, 20e9, 4e11);
  r.workload.pytorch_xla_ok = true;
  r.goal.deadline_hours = 168;
  out.push_back(r);
  return out;
}

TEST_F(CountSearchTest, RefinedSearchChoosesWhatExhaustiveSearchChooses) {
  const std::vector<PlanRequest> sample = Sample();
  for (size_t i = 0; i < sample.size(); ++i) {
    const std::string what = absl::StrCat("request #", i);
    const PlanResponse a = refined_->Plan(sample[i]);
    const PlanResponse b = exhaustive_->Plan(sample[i]);
    ASSERT_EQ(a.recommendation.has_value(), b.recommendation.has_value()) << what;
    if (a.recommendation) ExpectSamePlan(*a.recommendation, *b.recommendation, what);
    ASSERT_EQ(a.alternatives.size(), b.alternatives.size()) << what;
    for (size_t j = 0; j < a.alternatives.size(); ++j) {
      ExpectSamePlan(a.alternatives[j], b.alternatives[j],
                     absl::StrCat(what, " alternative ", j));
    }
    ASSERT_EQ(a.rejected.size(), b.rejected.size()) << what;
    for (size_t j = 0; j < a.rejected.size(); ++j) {
      EXPECT_EQ(a.rejected[j].hardware.series, b.rejected[j].hardware.series) << what;
      EXPECT_EQ(a.rejected[j].codes, b.rejected[j].codes)
          << what << " " << a.rejected[j].hardware.series << ": "
          << a.rejected[j].reason << " | " << b.rejected[j].reason;
    }
  }
}

TEST_F(CountSearchTest, SampleExercisesMultiHostCounts) {
  // Guards the test above against a sample that never leaves one VM.
  int multi = 0;
  for (const PlanRequest& r : Sample()) {
    const PlanResponse p = refined_->Plan(r);
    if (p.recommendation && (p.recommendation->hardware.hosts > 1)) ++multi;
  }
  EXPECT_GE(multi, 4);
}

}  // namespace
}  // namespace accelplan::planner
