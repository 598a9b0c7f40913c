// A stated global batch runs in whole micro-batches on every data-parallel
// rank (planner/estimates.h RunBatchOverStated): a rank count that does not
// divide it pays for the padding in its step time, and the plan says so;
// a replica's batch is split into the fewest micro-steps that fit, each of
// which repeats FSDP's gathers. Runs the real Planner over catalog.db.
#include <algorithm>
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"
#include "tests/planner/testing/plans.h"
#include "tests/planner/testing/workloads.h"

namespace accelplan::planner {
namespace {

using BatchPaddingTest = CatalogPlannerTest;

// The data-parallel ranks and micro-batch of a plan, as its distribution
// reports them.
int Ranks(const Plan& p) {
  return std::max(1, p.distribution.data_parallelism) *
         std::max(1, p.distribution.fsdp_parallelism);
}

// TPU v5p at `topology` (4x4x8: 128 chips, 4x4x12: 192), FSDP over every
// chip, so the batch is split over that many ranks.
Proposal V5pFsdp(const std::string& topology) {
  Proposal p;
  p.label = topology;
  HardwareProposal h;
  h.platform = Platform::kTpu;
  h.machine_type = "ct5p-hightpu-4t";
  h.tpu_topology = topology;
  DistributionProposal d;
  d.strategy = Strategy::kFsdp;
  h.layout = d;
  p.hardware = h;
  return p;
}

// The step times of 128 and 192 chips for the 7B job at `batch` sequences
// (0: none stated).
std::pair<double, double> Steps(const Planner& planner, int64_t batch,
                                Workload w = testutil::Medium()) {
  ReviewRequest r;
  r.workload = w;
  r.workload.global_batch_size = batch;
  r.as_of = "2026-09-26";
  r.proposals = {V5pFsdp("4x4x8"), V5pFsdp("4x4x12")};
  const ReviewResponse out = planner.Review(r);
  EXPECT_EQ(out.verdicts.size(), 2u);
  if (out.verdicts.size() != 2 || !out.verdicts[0].plan ||
      !out.verdicts[1].plan) {
    ADD_FAILURE() << "a proposal has no plan";
    return {0, 0};
  }
  return {out.verdicts[0].plan->estimates.step_time_seconds,
          out.verdicts[1].plan->estimates.step_time_seconds};
}

// 256 sequences: 2 per rank on 128 chips, and 2 per rank on 192 (1.33
// rounded up, 384 run): the larger slice is no faster. 384 sequences: 3
// and 2 per rank, no padding: the larger slice is 2/3 the step.
TEST_F(BatchPaddingTest, ARankCountThatDoesNotDivideTheBatchPaysItsPadding) {
  const auto [small_256, large_256] = Steps(*planner_, 256);
  ASSERT_GT(small_256, 0);
  EXPECT_NEAR(large_256 / small_256, 1.0, 0.02);
  const auto [small_384, large_384] = Steps(*planner_, 384);
  ASSERT_GT(small_384, 0);
  EXPECT_NEAR(large_384 / small_384, 2.0 / 3.0, 0.03);
  // The 128-chip step follows its own 2 and 3 sequences per rank.
  EXPECT_NEAR(small_384 / small_256, 1.5, 0.05);
}

// An assumed batch is the planner's, not the team's: it pads nothing (the
// team would pick a batch the ranks divide). Its 512 sequences would run
// as 3 per rank on 192 chips (0.75 of the 128-chip step) if it did.
TEST_F(BatchPaddingTest, AnAssumedBatchPadsNothing) {
  const auto [small, large] = Steps(*planner_, 0);
  ASSERT_GT(small, 0);
  EXPECT_NEAR(large / small, 128.0 / 192.0, 0.03);
}

// A team's own per-device footprint is its own layout (which may split
// the batch over fewer ranks than chips): not padded either.
TEST_F(BatchPaddingTest, ATeamsOwnFootprintPadsNothing) {
  Workload w = testutil::Medium();
  w.per_device_memory_gib = 40;
  const auto [small, large] = Steps(*planner_, 256, w);
  ASSERT_GT(small, 0);
  EXPECT_NEAR(large / small, 128.0 / 192.0, 0.03);
}

// FSDP over 100 Gbps A2 VMs: a 70B replica's 140 GB of weights are
// gathered twice and reduce-scattered in every micro-step, so one
// sequence per micro-step (8 of them) is far slower than two (4), and the
// step is communication-bound: about 32 s of traffic per micro-step.
TEST_F(BatchPaddingTest, FsdpGathersEveryMicroStep) {
  const auto step = [&](int micro) {
    ReviewRequest r;
    r.workload.model_name = "llama-3.1-70b";
    r.workload.framework = Framework::kPytorch;
    r.workload.dataset_tokens = 1e10;
    r.workload.global_batch_size = 256;
    r.workload.transformer_shape.sequence_length = 4096;
    r.workload.micro_batch_size = micro;
    r.as_of = "2026-09-26";
    Proposal p;
    p.label = "fsdp";
    HardwareProposal h;
    h.machine_type = "a2-ultragpu-8g";
    h.count = 32;
    DistributionProposal d;
    d.strategy = Strategy::kFsdp;
    h.layout = d;
    p.hardware = h;
    r.proposals = {p};
    const ReviewResponse out = planner_->Review(r);
    EXPECT_EQ(out.verdicts.size(), 1u);
    return out.verdicts.empty() || !out.verdicts[0].plan
               ? Estimates{}
               : out.verdicts[0].plan->estimates;
  };
  const Estimates one = step(1), two = step(2);
  ASSERT_GT(one.step_time_seconds, 0);
  ASSERT_GT(two.step_time_seconds, 0);
  EXPECT_GT(one.step_time_seconds, 1.7 * two.step_time_seconds);
  EXPECT_GT(one.communication_fraction, 0.5);
}

// Without a stated micro-batch, the fewest micro-steps that fit: a
// replica's 32 sequences split in halves while they fit, not one at a time.
TEST_F(BatchPaddingTest, TheFewestMicroStepsThatFit) {
  PlanRequest r = testutil::RequestFor(testutil::Medium(), Objective::kMinTime);
  r.constraints.allowed_series = {"TPU v5p"};
  r.constraints.max_accelerators = 32;
  r.workload.global_batch_size = 1024;
  r.workload.recompute = Recompute::kSelective;
  const PlanResponse out = planner_->Plan(r);
  ASSERT_TRUE(out.recommendation.has_value()) << out.no_plan_reason;
  const Distribution& d = out.recommendation->distribution;
  ASSERT_EQ(Ranks(*out.recommendation), 32);
  EXPECT_GT(d.micro_batch_size, 1);  // 32 sequences per rank, in halves
  EXPECT_EQ(d.micro_batch_size * std::max(1, d.micro_batches), 32);
}

bool SaysPadding(const PlanResponse& r) {
  for (const Reason& w : r.warnings) {
    if (w.message.find("(padding)") != std::string::npos) return true;
  }
  return false;
}

// The plan names the padding its recommendation runs, exactly when its
// ranks and micro-batches do not divide the stated batch.
TEST_F(BatchPaddingTest, ThePlanSaysWhenItsRecommendationRunsPadding) {
  PlanRequest r = testutil::RequestFor(testutil::Medium(), Objective::kMinTime);
  r.constraints.allowed_series = {"TPU v5p"};
  for (int64_t batch : {1000, 1024}) {  // 1000 = 2^3 x 5^3: 16+ ranks pad
    r.workload.global_batch_size = batch;
    const PlanResponse out = planner_->Plan(r);
    ASSERT_TRUE(out.recommendation.has_value()) << batch;
    const Plan& p = *out.recommendation;
    const int even = Ranks(p) * std::max(1, p.distribution.micro_batch_size);
    EXPECT_EQ(SaysPadding(out), batch % even != 0)
        << batch << " on " << Ranks(p) << " ranks";
    if (batch == 1000) {
      EXPECT_TRUE(SaysPadding(out));
    }
  }
}

// With a stated micro-batch each rank runs whole micro-batches of it: the
// multiple that wastes nothing is ranks x micro-batch, which the note
// names (1,536 on 32 ranks in micro-batches of 5 runs 50 per rank).
TEST_F(BatchPaddingTest, AStatedMicroBatchPadsToItsMultiple) {
  PlanRequest r = testutil::RequestFor(testutil::Medium(), Objective::kMinTime);
  r.constraints.allowed_series = {"TPU v5p"};
  r.constraints.max_accelerators = 32;
  r.workload.global_batch_size = 1536;
  r.workload.micro_batch_size = 5;
  const PlanResponse out = planner_->Plan(r);
  ASSERT_TRUE(out.recommendation.has_value()) << out.no_plan_reason;
  ASSERT_EQ(Ranks(*out.recommendation), 32);
  ASSERT_TRUE(SaysPadding(out));
  bool named = false;
  for (const Reason& w : out.warnings) {
    named |= w.message.find("a multiple of 160 wastes none") !=
             std::string::npos;
  }
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace accelplan::planner
