// A dense transformer given by its parameter count alone: its shape is
// assumed at GPT-3's aspect ratio (kDefaults.hidden_per_layer) for
// activation memory and attention FLOPs, and never split by tensor or
// pipeline parallelism; tensor parallelism runs only inside an NVLink or
// ICI domain. Each rule both ways. Runs the real Planner over catalog.db.
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "planner/defaults.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"
#include "tests/planner/testing/plans.h"

namespace accelplan::planner {
namespace {

using testutil::AllPlans;
using testutil::Mentions;

using AssumedShapeTest = CatalogPlannerTest;

Workload Dense(double params) {
  Workload w;
  w.framework = Framework::kPytorch;
  w.model_kind = ModelKind::kDenseTransformer;
  w.parameter_count = params;
  w.dataset_tokens = 1e11;
  w.precision = Precision::kBf16Mixed;
  return w;
}

// A tensor-parallel distribution proposal of `degree`.
Proposal TensorParallel(int degree) {
  Proposal tp;
  tp.label = "tp";
  tp.distribution = DistributionProposal{};
  tp.distribution->strategy = Strategy::kTensorParallel;
  tp.distribution->tensor_parallelism = degree;
  return tp;
}

// GPT-3 Table 2.1's shapes come back from their parameter counts:
// 6.7B -> 32 x 4096, 175B -> 96 x 12288 (12·L·d² of each, within 3%).
TEST_F(AssumedShapeTest, ShapeFollowsGpt3AspectRatio) {
  for (const auto& [params, layers, width] :
       {std::tuple{6.7e9, 32, 4096}, std::tuple{175e9, 96, 12288}}) {
    const PlanResponse r = planner_->Plan(
        testutil::RequestFor(Dense(params), Objective::kMinCost));
    ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
    EXPECT_TRUE(Mentions(
        r.assumptions, "No transformer shape given: " + std::to_string(layers) +
                           " layers of width " + std::to_string(width)))
        << params;
  }
}

// The assumed shape's attention is counted: more FLOPs than 6·P·D, as a
// stated shape's are; a stated shape is used as given and none assumed.
TEST_F(AssumedShapeTest, AttentionOfTheAssumedShapeIsCounted) {
  const Workload w = Dense(6.7e9);
  const PlanResponse assumed =
      planner_->Plan(testutil::RequestFor(w, Objective::kMinCost));
  ASSERT_TRUE(assumed.recommendation.has_value());
  const double six_pd = 6 * w.parameter_count * w.dataset_tokens;
  const double seq = kDefaults.sequence_length.value;
  EXPECT_DOUBLE_EQ(assumed.recommendation->estimates.training_flops,
                   six_pd + 12.0 * 32 * 4096 * seq * w.dataset_tokens);
  Workload shaped = w;
  shaped.transformer_shape = {24, 4096, 32, 2048, 50304, 16384};
  const PlanResponse stated =
      planner_->Plan(testutil::RequestFor(shaped, Objective::kMinCost));
  ASSERT_TRUE(stated.recommendation.has_value());
  EXPECT_DOUBLE_EQ(stated.recommendation->estimates.training_flops,
                   six_pd + 12.0 * 24 * 4096 * 2048 * w.dataset_tokens);
  EXPECT_FALSE(Mentions(stated.assumptions, "No transformer shape given"));
}

// Tensor and pipeline degrees must divide a real model's heads and layers:
// an assumed shape gets neither, in any plan; the same model with its
// stated shape can get them.
TEST_F(AssumedShapeTest, AssumedShapeIsNeverSplit) {
  Workload w = Dense(70e9);
  const PlanResponse assumed =
      planner_->Plan(testutil::RequestFor(w, Objective::kMinTime));
  ASSERT_TRUE(assumed.recommendation.has_value());
  for (const struct Plan* p : AllPlans(assumed)) {
    EXPECT_LE(p->distribution.tensor_parallelism, 1)
        << p->hardware.machine_type;
    EXPECT_LE(p->distribution.pipeline_parallelism, 1)
        << p->hardware.machine_type;
  }
  w.transformer_shape = {80, 8192, 64, 2048, 128256, 28672};
  const PlanResponse stated =
      planner_->Plan(testutil::RequestFor(w, Objective::kMinTime));
  ASSERT_TRUE(stated.recommendation.has_value());
  int split = 0;
  for (const struct Plan* p : AllPlans(stated)) {
    split += p->distribution.tensor_parallelism > 1 ||
             p->distribution.pipeline_parallelism > 1;
  }
  EXPECT_GT(split, 0);
}

// No shape is assumed for a mixture of experts, a CNN or classical ML.
TEST_F(AssumedShapeTest, OnlyDenseTransformersGetAnAssumedShape) {
  Workload moe = Dense(47e9);
  moe.active_parameter_count = 13e9;
  moe.num_experts = 8;
  Workload cnn;
  cnn.framework = Framework::kPytorch;
  cnn.model_kind = ModelKind::kCnn;
  cnn.parameter_count = 25e6;
  cnn.dataset_examples = 1.28e6;
  Workload trees;
  trees.framework = Framework::kXgboost;
  trees.model_kind = ModelKind::kTabular;
  trees.parameter_count = 1e6;
  trees.dataset_gib = 10;
  // A shape stated in part (heads and FFN, no layers or width) is kept as
  // given, not replaced.
  Workload partial = Dense(7e9);
  partial.transformer_shape.attention_heads = 32;
  partial.transformer_shape.ffn_hidden_size = 11008;
  for (const Workload& w : {moe, cnn, trees, partial}) {
    const PlanResponse r =
        planner_->Plan(testutil::RequestFor(w, Objective::kMinCost));
    ASSERT_TRUE(r.recommendation.has_value())
        << static_cast<int>(w.model_kind) << " " << r.no_plan_reason;
    EXPECT_FALSE(Mentions(r.assumptions, "No transformer shape given"))
        << static_cast<int>(w.model_kind);
  }
  EXPECT_TRUE(Mentions(
      planner_->Plan(testutil::RequestFor(Dense(47e9), Objective::kMinCost))
          .assumptions,
      "No transformer shape given"));
}

// Tensor parallelism inside the NVLink domain (Megatron-LM §3.3): a
// tensor-parallel proposal for a shaped 13B job gets a TP 4 point on H100s
// (NVLink) and none on L4s (PCIe only), where ReviewPlan says why.
TEST_F(AssumedShapeTest, TensorParallelOnlyOverNvlink) {
  Workload w = Dense(13e9);
  w.transformer_shape = {40, 5120, 40, 2048, 32000, 13824};
  const auto review_tp_on = [&](const std::string& series) {
    ReviewRequest r;
    r.workload = w;
    r.as_of = "2026-09-26";
    r.constraints.allowed_series = {series};
    r.proposals = {TensorParallel(4)};
    const ReviewResponse out = planner_->Review(r);
    EXPECT_EQ(out.verdicts.size(), 1u);
    return out.verdicts.empty() ? ProposalVerdict{} : out.verdicts[0];
  };
  const ProposalVerdict nvlink = review_tp_on("A3 High");
  ASSERT_TRUE(nvlink.plan.has_value()) << nvlink.reason;
  EXPECT_EQ(nvlink.plan->distribution.tensor_parallelism, 4);
  const ProposalVerdict pcie = review_tp_on("G2");
  EXPECT_FALSE(pcie.plan.has_value() &&
               pcie.plan->distribution.tensor_parallelism > 1)
      << pcie.reason;
  EXPECT_EQ(pcie.verdict, Verdict::kRejected) << pcie.reason;
}

// With today's hardware stated, the same shape-less tensor-parallel
// proposal is judged on it and says the shape is what it lacks.
TEST_F(AssumedShapeTest, TensorParallelOnTodaysHardwareWithoutShapeSaysWhy) {
  ReviewRequest r;
  r.workload = Dense(70e9);
  r.as_of = "2026-09-26";
  r.current_setup.hardware = "a3-highgpu-8g";
  r.current_setup.accelerator_count = 8;
  r.current_setup.node_count = 8;
  r.proposals = {TensorParallel(8)};
  const ReviewResponse out = planner_->Review(r);
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_NE(out.verdicts[0].reason.find("stated transformer_shape"),
            std::string::npos)
      << out.verdicts[0].reason;
}

// ReviewPlan: a tensor-parallel proposal for a job without a stated shape
// has no point to estimate: REJECTED, saying why; with the shape it
// carries one.
TEST_F(AssumedShapeTest, TensorParallelProposalWithoutShapeSaysWhy) {
  Workload w = Dense(70e9);
  ReviewRequest r;
  r.workload = w;
  r.as_of = "2026-09-26";
  r.proposals = {TensorParallel(8)};
  const ReviewResponse assumed = planner_->Review(r);
  ASSERT_EQ(assumed.verdicts.size(), 1u);
  EXPECT_FALSE(assumed.verdicts[0].plan.has_value());
  EXPECT_EQ(assumed.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_NE(assumed.verdicts[0].reason.find("stated transformer_shape"),
            std::string::npos)
      << assumed.verdicts[0].reason;
  r.workload.transformer_shape = {80, 8192, 64, 2048, 128256, 28672};
  const ReviewResponse stated = planner_->Review(r);
  ASSERT_EQ(stated.verdicts.size(), 1u);
  ASSERT_TRUE(stated.verdicts[0].plan.has_value()) << stated.verdicts[0].reason;
  EXPECT_EQ(stated.verdicts[0].plan->distribution.tensor_parallelism, 8);
  EXPECT_EQ(stated.verdicts[0].verdict, Verdict::kRecommended);
}

}  // namespace
}  // namespace accelplan::planner
