// What a framework's distribution can run, in PlanTraining and ReviewPlan
// alike: Horovod is plain data parallelism on GPUs and CPUs, GKE's TPU
// Multislice runs JAX and PyTorch jobs, scikit-learn trains on one
// machine. Each rule is checked both ways on the built catalog.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"
#include "tests/planner/testing/codes.h"
#include "tests/planner/testing/verdicts.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testutil::Dist;
using testutil::Has;
using testutil::Remedy;

class FrameworkRulesTest : public CatalogPlannerTest {
 public:
  static PlanResponse Plan(const PlanRequest& r) {
    EXPECT_TRUE(ValidatePlanRequest(r).empty());
    return planner_->Plan(r);
  }
  static ReviewResponse Review(const ReviewRequest& r) {
    EXPECT_TRUE(ValidateReviewRequest(r).empty());
    ReviewResponse out = planner_->Review(r);
    EXPECT_EQ(out.verdicts.size(), r.proposals.size());
    return out;
  }
};

// A PyTorch full fine-tune of a `params` model by its size alone.
PlanRequest FullFineTune(double params) {
  PlanRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = params;
  r.workload.training_method = TrainingMethod::kFullFineTune;
  r.workload.dataset_tokens = 2e9;
  r.workload.global_batch_size = 256;
  r.goal.objective = Objective::kMinCost;
  r.goal.deadline_hours = 72;
  r.as_of = "2026-09-26";
  return r;
}

// Horovod all-reduces whole gradients: its plan never shards the model
// states, so a 13B full fine-tune (195 GiB of weights, gradients and Adam
// states) that PyTorch FSDP spreads over GPUs has no Horovod plan, and a
// 1.3B one keeps a whole replica on each GPU.
TEST_F(FrameworkRulesTest, HorovodPlansAWholeReplicaPerDevice) {
  PlanRequest large = FullFineTune(13e9);
  ASSERT_TRUE(Plan(large).recommendation.has_value());
  large.constraints.framework_agnostic_distribution = true;
  const PlanResponse horovod_large = Plan(large);
  EXPECT_FALSE(horovod_large.recommendation.has_value())
      << testutil::DescribeFamilies(horovod_large);
  EXPECT_THAT(testutil::Codes(horovod_large, "nvidia-h100-80gb", "A3 High"),
              Contains(ReasonCode::kHbmTooSmall));
  EXPECT_THAT(horovod_large.assumptions,
              Contains(HasSubstr("every device holds a whole replica")));
  // ReviewPlan agrees: Horovod proposed for it has no hardware to run on.
  ReviewRequest review;
  review.workload = large.workload;
  review.goal = large.goal;
  review.constraints = large.constraints;
  review.as_of = large.as_of;
  Proposal horovod;
  horovod.label = "horovod";
  horovod.distribution = DistributionProposal{};
  horovod.distribution->strategy = Strategy::kHorovod;
  review.proposals = {horovod};
  const ProposalVerdict v = Review(review).verdicts.at(0);
  EXPECT_EQ(v.verdict, Verdict::kRejected) << v.reason;
  EXPECT_TRUE(Has(v, ReasonCode::kHbmTooSmall)) << v.reason;

  PlanRequest small = FullFineTune(1.3e9);
  small.constraints.framework_agnostic_distribution = true;
  const PlanResponse p = Plan(small);
  ASSERT_TRUE(p.recommendation.has_value()) << p.no_plan_reason;
  const Distribution& d = p.recommendation->distribution;
  EXPECT_EQ(d.strategy, Strategy::kHorovod);
  EXPECT_EQ(d.zero_stage, 0);
  EXPECT_LE(d.fsdp_parallelism, 1);
  EXPECT_LE(d.tensor_parallelism, 1);
  EXPECT_LE(d.pipeline_parallelism, 1);
}

// A JAX Llama-2-7B-sized pre-training run, by its size alone, on TPUs only.
PlanRequest TpuPretrain(Framework f) {
  PlanRequest r;
  r.workload.framework = f;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = 7e9;
  r.workload.dataset_tokens = 2e12;
  r.workload.global_batch_size = 4096;
  r.goal.objective = Objective::kMinTime;
  r.goal.deadline_hours = 240;
  r.constraints.allowed_platforms = {Platform::kTpu};
  r.as_of = "2026-09-26";
  return r;
}

// GKE's Multislice runs JAX and PyTorch jobs: a TensorFlow job is planned on
// one slice where the same JAX job spreads over several, and a TensorFlow
// hardware proposal of two slices is FRAMEWORK_UNSUPPORTED.
TEST_F(FrameworkRulesTest, TensorflowTrainsOnOneSlice) {
  const PlanResponse jax = Plan(TpuPretrain(Framework::kJax));
  ASSERT_TRUE(jax.recommendation.has_value()) << jax.no_plan_reason;
  EXPECT_GT(jax.recommendation->hardware.slices, 1);
  const PlanResponse tf = Plan(TpuPretrain(Framework::kTensorflow));
  ASSERT_TRUE(tf.recommendation.has_value()) << tf.no_plan_reason;
  EXPECT_LE(tf.recommendation->hardware.slices, 1);
  for (const ::accelplan::planner::Plan& a : tf.alternatives) {
    EXPECT_LE(a.hardware.slices, 1) << a.hardware.machine_type;
  }

  ReviewRequest r;
  r.workload = TpuPretrain(Framework::kTensorflow).workload;
  r.constraints.run_platform = RunPlatform::kGke;
  r.as_of = "2026-09-26";
  Proposal two;
  two.label = "two v5p slices";
  two.hardware = HardwareProposal{};
  two.hardware->accelerator = "tpu-v5p";
  two.hardware->tpu_topology = "4x4x4";
  two.hardware->slices = 2;
  r.proposals = {two};
  const ProposalVerdict tf_two = Review(r).verdicts.at(0);
  EXPECT_EQ(tf_two.verdict, Verdict::kRejected) << tf_two.reason;
  EXPECT_TRUE(Has(tf_two, ReasonCode::kFrameworkUnsupported)) << tf_two.reason;
  r.workload.framework = Framework::kJax;
  const ProposalVerdict jax_two = Review(r).verdicts.at(0);
  EXPECT_FALSE(Has(jax_two, ReasonCode::kFrameworkUnsupported))
      << jax_two.reason;
  // Today's own two TensorFlow slices run: a remedy on them is judged, not
  // rejected for the slices.
  r.workload.framework = Framework::kTensorflow;
  r.workload.checkpoints = true;
  r.current_setup.hardware = "tpu-v5p";
  r.current_setup.tpu_topology = "4x4x4";
  r.current_setup.slice_count = 2;
  r.proposals = {Remedy("spot", RemedyKind::kUseSpot)};
  const ProposalVerdict today = Review(r).verdicts.at(0);
  EXPECT_FALSE(Has(today, ReasonCode::kFrameworkUnsupported)) << today.reason;
}

// Two v5e 8x8 slices today (JAX, data parallel across them).
ReviewRequest TwoTpuSlices() {
  ReviewRequest r;
  r.workload.framework = Framework::kJax;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = 1.3e9;
  r.workload.dataset_tokens = 2e10;
  r.workload.global_batch_size = 512;
  r.current_setup.hardware = "tpu-v5e";
  r.current_setup.tpu_topology = "8x8";
  r.current_setup.slice_count = 2;
  r.constraints.run_platform = RunPlatform::kGke;
  r.as_of = "2026-09-26";
  return r;
}

// Horovod on TPUs is NOT_APPLICABLE however it is proposed: as a layout on
// today's slices (which data parallelism across them is not), as the
// USE_HOROVOD remedy there, with no hardware today and TPUs only, and as
// the layout of a TPU hardware proposal (which the same proposal on GPUs is
// not; a single 1.3B job is oversized for eight H100s, a separate rule).
TEST_F(FrameworkRulesTest, HorovodIsNotForTpusInAnyProposal) {
  ReviewRequest r = TwoTpuSlices();
  r.proposals = {Dist("horovod", Strategy::kHorovod),
                 Dist("data", Strategy::kDataParallel)};
  const ReviewResponse on_slices = Review(r);
  EXPECT_TRUE(Has(on_slices.verdicts.at(0), ReasonCode::kNotApplicable))
      << on_slices.verdicts.at(0).reason;
  EXPECT_THAT(on_slices.verdicts.at(0).reason, HasSubstr("not TPUs"));
  EXPECT_NE(on_slices.verdicts.at(1).verdict, Verdict::kRejected)
      << on_slices.verdicts.at(1).reason;

  r.proposals = {Remedy("use horovod", RemedyKind::kUseHorovod)};
  const ProposalVerdict remedy = Review(r).verdicts.at(0);
  EXPECT_TRUE(Has(remedy, ReasonCode::kNotApplicable)) << remedy.reason;

  // No hardware today, TPUs only: Horovod finds no TPU to run on.
  r = TwoTpuSlices();
  r.current_setup = CurrentSetup{};
  r.constraints.allowed_platforms = {Platform::kTpu};
  r.proposals = {Dist("horovod", Strategy::kHorovod)};
  const ProposalVerdict tpu_only = Review(r).verdicts.at(0);
  EXPECT_EQ(tpu_only.verdict, Verdict::kRejected) << tpu_only.reason;
  EXPECT_FALSE(tpu_only.plan.has_value());

  r = TwoTpuSlices();
  r.current_setup = CurrentSetup{};
  Proposal tpu;
  tpu.label = "v5p";
  tpu.hardware = HardwareProposal{};
  tpu.hardware->accelerator = "tpu-v5p";
  tpu.hardware->tpu_topology = "2x2x2";
  tpu.hardware->layout = DistributionProposal{};
  tpu.hardware->layout->strategy = Strategy::kHorovod;
  Proposal gpu = tpu;
  gpu.label = "a3";
  gpu.hardware->accelerator = "";
  gpu.hardware->tpu_topology = "";
  gpu.hardware->machine_type = "a3-highgpu-8g";
  r.proposals = {tpu, gpu};
  const ReviewResponse hardware = Review(r);
  EXPECT_TRUE(Has(hardware.verdicts.at(0), ReasonCode::kNotApplicable))
      << hardware.verdicts.at(0).reason;
  EXPECT_FALSE(Has(hardware.verdicts.at(1), ReasonCode::kNotApplicable))
      << hardware.verdicts.at(1).reason;
}

// scikit-learn has no distributed training: data parallelism over workers
// is NOT_APPLICABLE for it, where XGBoost (Dask, Spark) is estimated.
TEST_F(FrameworkRulesTest, ScikitLearnHasNoDataParallelWorkers) {
  ReviewRequest r;
  r.workload.framework = Framework::kScikitLearn;
  r.workload.model_kind = ModelKind::kTabular;
  r.workload.dataset_gib = 4;
  r.current_setup.hardware = "n2-standard-8";
  r.current_setup.node_count = 1;
  r.as_of = "2026-09-26";
  Proposal workers = Dist("workers", Strategy::kDataParallel);
  workers.distribution->data_parallelism = 4;
  r.proposals = {workers};
  const ProposalVerdict sklearn = Review(r).verdicts.at(0);
  EXPECT_EQ(sklearn.verdict, Verdict::kRejected) << sklearn.reason;
  EXPECT_TRUE(Has(sklearn, ReasonCode::kNotApplicable)) << sklearn.reason;
  EXPECT_THAT(sklearn.reason, HasSubstr("one machine"));
  // Four VMs proposed as hardware: the same rule.
  Proposal four;
  four.label = "four VMs";
  four.hardware = HardwareProposal{};
  four.hardware->machine_type = "n2-standard-16";
  four.hardware->count = 4;
  r.proposals = {workers, four};
  const ReviewResponse sk = Review(r);
  EXPECT_TRUE(Has(sk.verdicts.at(1), ReasonCode::kNotApplicable))
      << sk.verdicts.at(1).reason;
  r.workload.framework = Framework::kXgboost;
  const ReviewResponse xgb = Review(r);
  for (const ProposalVerdict& v : xgb.verdicts) {
    EXPECT_NE(v.verdict, Verdict::kRejected) << v.label << ": " << v.reason;
  }
}

}  // namespace
}  // namespace accelplan::planner
