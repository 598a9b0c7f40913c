// Issue 15 items 4-6 on made-up hardware: Spot judged by checkpoints, the
// provisioning a NOT_AVAILABLE_ON_DEMAND family needs shown with its numbers,
// and a legacy row the team keeps evaluated from its facts. Each rule fires
// when its condition holds and stays silent otherwise.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/testing/codes.h"
#include "tests/planner/testing/synthetic_catalog.h"
#include "tests/planner/testing/synthetic_fixture.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using testutil::Codes;
using testutil::SyntheticCatalog;

catalog::CatalogPtr ProvisioningCatalog() {
  return SyntheticCatalog()
      // On-demand and Spot.
      .AddGpuSeries("Z9", {.accelerator = "zpu-1",
                           .memory_gib = 24,
                           .peak_bf16_tflops = 400,
                           .devices_per_vm = {1, 2, 4, 8},
                           .on_demand_hourly_per_device = 2.0,
                           .spot_hourly_per_device = 0.8,
                           .nvlink_gbps = 900,
                           .inter_vm_gbps = 100})
      // Documented not available on-demand (Spot, flex-start, reservation).
      .AddGpuSeries("Z10", {.accelerator = "zpu-2",
                            .memory_gib = 96,
                            .peak_bf16_tflops = 1000,
                            .devices_per_vm = {8},
                            .on_demand_hourly_per_device = 6.0,
                            .spot_hourly_per_device = 2.5,
                            .nvlink_gbps = 1800,
                            .inter_vm_gbps = 400,
                            .on_demand = false})
      // A legacy row with facts, whose support ended in 2025.
      .AddGpuSeries("Z5", {.accelerator = "zpu-old",
                           .memory_gib = 32,
                           .peak_bf16_tflops = 50,
                           .devices_per_vm = {1, 4},
                           .on_demand_hourly_per_device = 1.0,
                           .inter_vm_gbps = 25,
                           .end_of_support = "2025-06-30",
                           .legacy = true})
      .Build();
}

class SyntheticProvisioningTest : public testutil::SyntheticPlannerTest<ProvisioningCatalog> {};

// A 1.3B decoder over 26B tokens: many hours on one synthetic VM.
PlanRequest Req(double tokens = 2.6e10) {
  PlanRequest r;
  Workload& w = r.workload;
  w.framework = Framework::kJax;
  w.model_kind = ModelKind::kDenseTransformer;
  w.parameter_count = 1.3e9;
  w.transformer_shape = {.layers = 24, .hidden_size = 2048,
                         .attention_heads = 16, .sequence_length = 2048,
                         .vocab_size = 50304};
  w.dataset_tokens = tokens;
  w.global_batch_size = 512;
  w.recompute = Recompute::kFull;
  r.as_of = "2026-09-26";
  return r;
}

const Rejection* RejectionOf(const PlanResponse& r, const std::string& accel) {
  for (const Rejection& rej : r.rejected) {
    if (rej.hardware.accelerator == accel) return &rej;
  }
  return nullptr;
}

bool Names(const PlanResponse& r, const std::string& accel) {
  if (r.recommendation && r.recommendation->hardware.accelerator == accel) return true;
  for (const auto& p : r.alternatives) {
    if (p.hardware.accelerator == accel) return true;
  }
  return RejectionOf(r, accel) != nullptr;
}

std::vector<ReasonCode> WarningCodes(const PlanResponse& r) {
  std::vector<ReasonCode> out;
  for (const Reason& w : r.warnings) out.push_back(w.code);
  return out;
}

const Remedy* RemedyOf(const PlanResponse& r, RemedyKind kind) {
  for (const Remedy& m : r.remedies) {
    if (m.kind == kind) return &m;
  }
  return nullptr;
}

TEST_F(SyntheticProvisioningTest, SpotOnlyFamilyNeedsCheckpointsForLongJobs) {
  PlanRequest q = Req();
  q.constraints.allowed_series = {"Z10"};
  q.constraints.max_accelerators = 8;  // one VM: many hours
  q.constraints.spot_allowed = true;
  const PlanResponse r = Plan(q);
  EXPECT_THAT(Codes(r, "zpu-2"), Contains(ReasonCode::kPreemptionRisk));

  q.workload.checkpoints = true;
  const PlanResponse ok = Plan(q);
  ASSERT_TRUE(ok.recommendation.has_value()) << ok.no_plan_reason;
  EXPECT_EQ(ok.recommendation->hardware.provisioning, Provisioning::kSpot);
  EXPECT_THAT(Codes(ok, "zpu-2"), Not(Contains(ReasonCode::kPreemptionRisk)));
}

TEST_F(SyntheticProvisioningTest, SpotAndOnDemandFamilyFallsBackToOnDemand) {
  PlanRequest q = Req();
  q.constraints.allowed_series = {"Z9"};
  q.constraints.max_accelerators = 8;  // one VM: many hours
  q.constraints.spot_allowed = true;
  const PlanResponse r = Plan(q);
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  EXPECT_EQ(r.recommendation->hardware.provisioning, Provisioning::kOnDemand);

  q.workload.checkpoint_interval_minutes = 30;  // an interval: it checkpoints
  const PlanResponse spot = Plan(q);
  ASSERT_TRUE(spot.recommendation.has_value()) << spot.no_plan_reason;
  EXPECT_EQ(spot.recommendation->hardware.provisioning, Provisioning::kSpot);
}

TEST_F(SyntheticProvisioningTest, NotOnDemandRejectionShowsWhatProvisioningGives) {
  PlanRequest q = Req();
  q.constraints.allowed_series = {"Z10"};
  const PlanResponse r = Plan(q);
  const Rejection* z10 = RejectionOf(r, "zpu-2");
  ASSERT_NE(z10, nullptr) << testutil::DescribeFamilies(r);
  EXPECT_THAT(z10->codes, Contains(ReasonCode::kNotAvailableOnDemand));
  EXPECT_THAT(z10->reason, HasSubstr("with Spot: "));
  EXPECT_THAT(z10->reason, HasSubstr("with DWS flex-start: "));
  EXPECT_THAT(z10->reason, ContainsRegex("[0-9]+\\.[0-9] (h|days)"));
  EXPECT_THAT(z10->reason, ContainsRegex("\\$[0-9]"));

  // An on-demand family that is rejected says nothing of provisioning.
  PlanRequest small = Req();
  small.constraints.allowed_series = {"Z9"};
  small.goal.deadline_hours = 0.01;
  const PlanResponse s = Plan(small);
  const Rejection* z9 = RejectionOf(s, "zpu-1");
  ASSERT_NE(z9, nullptr) << testutil::DescribeFamilies(s);
  EXPECT_THAT(z9->reason, Not(HasSubstr("What it would give if allowed")));
}

TEST_F(SyntheticProvisioningTest, KeptLegacyRowIsEvaluatedFromItsFacts) {
  PlanRequest q = Req(2e9);
  q.current_setup.hardware = "zpu-old";
  q.current_setup.accelerator_count = 4;
  q.constraints.keep_current_hardware = true;
  const PlanResponse r = Plan(q);
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  EXPECT_EQ(r.recommendation->hardware.accelerator, "zpu-old");
  EXPECT_TRUE(r.recommendation->estimates.hours_known);
  EXPECT_TRUE(r.recommendation->estimates.on_demand_cost_known);
  EXPECT_THAT(WarningCodes(r), Contains(ReasonCode::kLegacyHardware));
  EXPECT_THAT(WarningCodes(r), Contains(ReasonCode::kEndOfSupport));
  const Remedy* move = RemedyOf(r, RemedyKind::kMoveToHardware);
  ASSERT_NE(move, nullptr);
  EXPECT_THAT(move->summary, HasSubstr("saves"));

  // Not kept: the legacy row is no candidate at all.
  q.constraints.keep_current_hardware = false;
  const PlanResponse f = Plan(q);
  ASSERT_TRUE(f.recommendation.has_value()) << f.no_plan_reason;
  EXPECT_FALSE(Names(f, "zpu-old")) << testutil::DescribeFamilies(f);
  EXPECT_EQ(RemedyOf(f, RemedyKind::kMoveToHardware), nullptr);
}

}  // namespace
}  // namespace accelplan::planner
