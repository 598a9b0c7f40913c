// Properties every plan must have, checked over seeded random language-model
// jobs (100M to 1T parameters, with and without a transformer shape and a
// global batch, every objective, deadlines and budgets from tight to loose,
// platform, run-platform, Spot and accelerator limits). The scenario tests
// pin exact answers; this one covers the space between them.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using RandomJobsTest = CatalogPlannerTest;

std::vector<PlanRequest> RandomJobs(int n, unsigned seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto log_uniform = [&](double lo, double hi) {
    return std::exp(uniform(std::log(lo), std::log(hi)));
  };
  auto pick = [&](int k) { return std::uniform_int_distribution<int>(0, k - 1)(rng); };
  const Framework frameworks[] = {Framework::kJax, Framework::kPytorch,
                                  Framework::kTensorflow};
  const Objective objectives[] = {Objective::kMinCost, Objective::kMinTime,
                                  Objective::kBalanced};
  std::vector<PlanRequest> out;
  for (int i = 0; i < n; ++i) {
    PlanRequest r;
    const double params = log_uniform(1e8, 1e12);
    r.workload.framework = frameworks[pick(3)];
    r.workload.model_kind = ModelKind::kDenseTransformer;
    r.workload.parameter_count = params;
    r.workload.dataset_tokens = params * log_uniform(2, 40);
    r.as_of = "2026-09-26";
    r.goal.objective = objectives[pick(3)];
    if (pick(3) > 0) {
      // A Llama-like shape of about the requested size.
      const int layers = std::clamp(static_cast<int>(std::cbrt(params / 1e5)), 4, 128);
      const int hidden = std::max(
          256, static_cast<int>(std::sqrt(params / (12.0 * layers)) / 128) * 128);
      r.workload.transformer_shape = {layers, hidden, std::max(4, hidden / 128),
                                      pick(2) ? 4096 : 2048, 32000, 4 * hidden};
      if (pick(2)) r.workload.global_batch_size = 64 << pick(6);
    }
    if (pick(2)) r.goal.deadline_hours = log_uniform(12, 5000);
    if (pick(3) == 0) r.goal.budget_usd = log_uniform(1e3, 1e7);
    if (pick(4) == 0) r.constraints.spot_allowed = true;
    if (pick(5) == 0) r.constraints.max_accelerators = 8 << pick(8);
    if (pick(6) == 0) r.constraints.single_host_only = true;
    if (pick(6) == 0) r.constraints.run_platform = RunPlatform::kGke;
    if (pick(4) == 0) {
      r.constraints.allowed_platforms = {pick(2) ? Platform::kTpu : Platform::kGpu};
    }
    out.push_back(r);
  }
  return out;
}

// What a caller relies on in any plan it is handed.
void ExpectSound(const PlanRequest& r, const Plan& p, const std::string& what) {
  const Hardware& h = p.hardware;
  const Estimates& e = p.estimates;
  EXPECT_GT(h.hosts, 0) << what;
  if (r.constraints.max_accelerators > 0) {
    EXPECT_LE(h.total_accelerators, r.constraints.max_accelerators) << what;
  }
  if (r.constraints.single_host_only) {
    EXPECT_EQ(h.hosts, 1) << what;
  }
  if (!r.constraints.allowed_platforms.empty()) {
    EXPECT_EQ(h.platform, r.constraints.allowed_platforms.front()) << what;
  }
  const Range& t = e.total_hours;
  EXPECT_TRUE(std::isfinite(t.low) && std::isfinite(t.high)) << what;
  EXPECT_GT(t.low, 0) << what;
  EXPECT_LE(t.low, t.expected) << what;
  EXPECT_LE(t.expected, t.high) << what;
  EXPECT_GT(e.step_time_seconds, 0) << what;
  const MemoryBreakdown& m = e.memory_per_device;
  EXPECT_GT(m.total_gib, 0) << what;
  EXPECT_LE(m.total_gib, m.usable_gib * (1 + 1e-9)) << what << " must fit";
  if (e.price_known) {
    EXPECT_GT(e.hourly_usd, 0) << what;
    EXPECT_NEAR(e.hourly_usd * t.expected,
                h.provisioning == Provisioning::kSpot ? e.spot_cost_usd.expected
                                                      : e.on_demand_cost_usd.expected,
                1e-6 * e.hourly_usd * t.expected + 1e-6)
        << what;
  }
  const Distribution& d = p.distribution;
  if (h.platform == Platform::kCpu) return;  // no accelerators to lay out
  EXPECT_GT(h.total_accelerators, 0) << what;
  const int layout_devices = std::max(1, d.data_parallelism) *
                             std::max(1, d.fsdp_parallelism) *
                             std::max(1, d.tensor_parallelism) *
                             std::max(1, d.pipeline_parallelism);
  EXPECT_EQ(layout_devices, h.total_accelerators)
      << what << " data x fsdp x tensor x pipeline must use every accelerator";
}

TEST_F(RandomJobsTest, EveryPlanIsSoundAndEveryRefusalExplained) {
  const std::vector<PlanRequest> jobs = RandomJobs(300, 20261130);
  int planned = 0, multi_host = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const PlanRequest& r = jobs[i];
    const std::string what =
        absl::StrCat("job #", i, " (", r.workload.parameter_count, " params)");
    const PlanResponse resp = planner_->Plan(r);
    for (const Rejection& j : resp.rejected) {
      EXPECT_FALSE(j.codes.empty()) << what << " " << j.hardware.series;
      EXPECT_FALSE(j.reason.empty()) << what << " " << j.hardware.series;
    }
    if (!resp.recommendation) {
      EXPECT_FALSE(resp.no_plan_reason.empty()) << what;
      EXPECT_FALSE(resp.rejected.empty()) << what;
      continue;
    }
    ++planned;
    const Plan& rec = *resp.recommendation;
    if (rec.hardware.hosts > 1) ++multi_host;
    ExpectSound(r, rec, what);
    // The recommendation honours the goal's hard limits.
    if (r.goal.deadline_hours > 0) {
      EXPECT_LE(rec.estimates.total_hours.expected, r.goal.deadline_hours) << what;
    }
    if (r.goal.budget_usd > 0 && rec.estimates.price_known) {
      EXPECT_LE(rec.estimates.hourly_usd * rec.estimates.total_hours.expected,
                r.goal.budget_usd * (1 + 1e-9))
          << what;
    }
    for (size_t j = 0; j < resp.alternatives.size(); ++j) {
      ExpectSound(r, resp.alternatives[j], absl::StrCat(what, " alternative ", j));
    }
    // Planning is a pure function of the request and the catalog.
    const PlanResponse again = planner_->Plan(r);
    ASSERT_TRUE(again.recommendation.has_value()) << what;
    EXPECT_EQ(again.recommendation->hardware.machine_type, rec.hardware.machine_type);
    EXPECT_EQ(again.recommendation->hardware.total_accelerators,
              rec.hardware.total_accelerators);
    EXPECT_EQ(again.recommendation->estimates.total_hours.expected,
              rec.estimates.total_hours.expected);
  }
  // Guards against a sample the planner mostly refuses or keeps on one VM.
  EXPECT_GE(planned, 150);
  EXPECT_GE(multi_host, 30);
}

}  // namespace
}  // namespace accelplan::planner
