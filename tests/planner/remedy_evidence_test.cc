// What a verdict or a plan may claim from what the request shows: a remedy
// the model cannot time needs a reported problem to be RECOMMENDED, and
// leaves a missed deadline missed; a layout that does not fit is rejected
// however it is proposed; advice and reasons say only what holds. Each rule
// is checked both ways on the built catalog.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"
#include "tests/planner/testing/verdicts.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using testutil::Dist;
using testutil::Has;
using testutil::Remedy;

class RemedyEvidenceTest : public CatalogPlannerTest {
 public:
  static ProposalVerdict Sole(ReviewRequest r, const Proposal& p) {
    r.proposals = {p};
    EXPECT_TRUE(ValidateReviewRequest(r).empty());
    const ReviewResponse out = planner_->Review(r);
    EXPECT_EQ(out.verdicts.size(), 1u);
    return out.verdicts.empty() ? ProposalVerdict{} : out.verdicts[0];
  }
  static PlanResponse Plan(const PlanRequest& r) {
    EXPECT_TRUE(ValidatePlanRequest(r).empty());
    return planner_->Plan(r);
  }
};

// A 1.3B PyTorch model on one a2-highgpu-8g, data parallel: about 2.4 days
// of training for its 3e10 tokens.
ReviewRequest OneA2Node(std::vector<Symptom> symptoms) {
  ReviewRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = 1.3e9;
  r.workload.dataset_tokens = 3e10;
  r.workload.checkpoints = true;
  r.current_setup.hardware = "a2-highgpu-8g";
  r.current_setup.accelerator_count = 8;
  r.current_setup.node_count = 1;
  r.current_setup.strategy = Strategy::kDataParallel;
  r.current_setup.symptoms = std::move(symptoms);
  r.as_of = "2026-09-26";
  return r;
}

// A faster input pipeline and an evaluator pool change nothing the model
// times: with no problem reported neither is RECOMMENDED, even alone, and
// each says why; a reported INPUT_BOUND makes the input pipeline the
// recommendation.
TEST_F(RemedyEvidenceTest, AnUntimedRemedyNeedsAReportedProblem) {
  for (RemedyKind k :
       {RemedyKind::kFasterInputPipeline, RemedyKind::kAddEvaluatorPool}) {
    const ProposalVerdict v = Sole(OneA2Node({}), Remedy("remedy", k));
    EXPECT_NE(v.verdict, Verdict::kRecommended) << v.reason;
    EXPECT_THAT(v.reason, HasSubstr("does not report")) << v.reason;
  }
  const ProposalVerdict input_bound =
      Sole(OneA2Node({Symptom::kInputBound}),
           Remedy("remedy", RemedyKind::kFasterInputPipeline));
  EXPECT_EQ(input_bound.verdict, Verdict::kRecommended) << input_bound.reason;
  // A remedy the space times is not "unreported" even where today's setup
  // is not known (no point to time it against).
  ReviewRequest unknown = OneA2Node({});
  unknown.current_setup = CurrentSetup{};
  const ProposalVerdict spot =
      Sole(unknown, Remedy("remedy", RemedyKind::kUseSpot));
  EXPECT_THAT(spot.reason, Not(HasSubstr("does not report"))) << spot.reason;
}

// Today's setup misses the stated 48-hour deadline: an evaluator pool
// leaves the training time as it is, so it is MISSES_DEADLINE; with a
// deadline today's setup meets it is not.
TEST_F(RemedyEvidenceTest, AnUntimedRemedyLeavesAMissedDeadlineMissed) {
  ReviewRequest r = OneA2Node({});
  r.goal.deadline_hours = 48;
  r.goal.hard_deadline = true;
  const ProposalVerdict missed =
      Sole(r, Remedy("remedy", RemedyKind::kAddEvaluatorPool));
  EXPECT_EQ(missed.verdict, Verdict::kRejected) << missed.reason;
  EXPECT_TRUE(Has(missed, ReasonCode::kMissesDeadline)) << missed.reason;
  // A remedy for a stated symptom may be what meets it: today's observed
  // time is past the deadline, the pace the model gives today's A100s is
  // not.
  r.current_setup.observed_hours = 100;
  r.goal.deadline_hours = 60;
  ASSERT_TRUE(Has(Sole(r, Remedy("remedy", RemedyKind::kAddEvaluatorPool)),
                  ReasonCode::kMissesDeadline));
  r.current_setup.symptoms = {Symptom::kInputBound};
  const ProposalVerdict input =
      Sole(r, Remedy("remedy", RemedyKind::kFasterInputPipeline));
  EXPECT_FALSE(Has(input, ReasonCode::kMissesDeadline)) << input.reason;
  // Not when even that pace, at the fast end of its range, misses it: the
  // remedy keeps today's hardware (K80s against a 24-hour deadline kept
  // a faster input pipeline RECOMMENDED over a move that met it).
  r.goal.deadline_hours = 24;
  const ProposalVerdict short_deadline =
      Sole(r, Remedy("remedy", RemedyKind::kFasterInputPipeline));
  EXPECT_EQ(short_deadline.verdict, Verdict::kRejected);
  EXPECT_TRUE(Has(short_deadline, ReasonCode::kMissesDeadline))
      << short_deadline.reason;
  EXPECT_THAT(short_deadline.reason, HasSubstr("at the fast end of its range"));
  r.current_setup.symptoms.clear();
  r.current_setup.observed_hours = 0;
  r.goal.deadline_hours = 200;
  const ProposalVerdict met =
      Sole(r, Remedy("remedy", RemedyKind::kAddEvaluatorPool));
  EXPECT_FALSE(Has(met, ReasonCode::kMissesDeadline)) << met.reason;
}

// TensorFlow data parallel over eight n1-standard-8 VMs with 8 V100s each,
// waiting on its gradient sync; the catalog states no network for that VM.
ReviewRequest SyncBoundV100s() {
  ReviewRequest r;
  r.workload.framework = Framework::kTensorflow;
  r.workload.framework_version = "2.13";
  r.workload.model_kind = ModelKind::kOther;
  r.workload.parameter_count = 3e8;
  r.workload.precision = Precision::kFp16Mixed;
  r.workload.dataset_examples = 5e7;
  r.workload.global_batch_size = 2048;
  r.constraints.run_platform = RunPlatform::kVertexTraining;
  r.current_setup.hardware = "n1-standard-8+8xnvidia-tesla-v100";
  r.current_setup.accelerator_count = 8;
  r.current_setup.node_count = 8;
  r.current_setup.strategy = Strategy::kDataParallel;
  r.current_setup.uses_nccl = true;
  r.current_setup.symptoms = {Symptom::kGradientSyncBound};
  r.as_of = "2026-09-26";
  return r;
}

// The pool is sized on the link the all-reduce is timed with: where the
// VM states no network, the family's per-accelerator share (it was sized on
// nothing, and "did not pay").
TEST_F(RemedyEvidenceTest, ReductionServerIsSizedOnTheLinkItRelieves) {
  const ProposalVerdict v =
      Sole(SyncBoundV100s(), Remedy("remedy", RemedyKind::kAddReductionServer));
  EXPECT_EQ(v.verdict, Verdict::kRecommended) << v.reason;
  EXPECT_THAT(v.reason, Not(HasSubstr("does not pay")));
  ASSERT_TRUE(v.plan.has_value()) << v.reason;
  ASSERT_TRUE(v.plan->distribution.reduction_server.has_value());
  EXPECT_GT(v.plan->distribution.reduction_server->replica_count, 0);
}

// PlanTraining's remedy line sizes the same pool on the same link: its
// size is stated, and is the one ReviewPlan prices.
TEST_F(RemedyEvidenceTest, PlanSizesTheReductionServerAsReviewDoes) {
  const ReviewRequest review = SyncBoundV100s();
  PlanRequest r;
  r.workload = review.workload;
  r.constraints = review.constraints;
  r.current_setup = review.current_setup;
  r.as_of = review.as_of;
  r.view = View::kFull;
  const PlanResponse plan = Plan(r);
  const auto it = std::find_if(
      plan.remedies.begin(), plan.remedies.end(), [](const auto& remedy) {
        return remedy.kind == RemedyKind::kAddReductionServer;
      });
  ASSERT_NE(it, plan.remedies.end());
  const ProposalVerdict v =
      Sole(review, Remedy("remedy", RemedyKind::kAddReductionServer));
  ASSERT_TRUE(v.plan.has_value() &&
              v.plan->distribution.reduction_server.has_value())
      << v.reason;
  const auto& pool = *v.plan->distribution.reduction_server;
  EXPECT_THAT(it->summary,
              HasSubstr(absl::StrFormat("Size: %d x %s", pool.replica_count,
                                        pool.machine_type)));
}

// FSDP moves more bytes than data parallelism: for a job waiting on its
// gradient sync it is estimated but not RECOMMENDED, even alone; without
// that symptom it can be.
TEST_F(RemedyEvidenceTest, FsdpIsNotTheCureForAGradientSyncBoundJob) {
  ReviewRequest r = OneA2Node({Symptom::kGradientSyncBound});
  const Proposal fsdp = Dist("fsdp", Strategy::kFsdp);
  const ProposalVerdict bound = Sole(r, fsdp);
  EXPECT_NE(bound.verdict, Verdict::kRecommended) << bound.reason;
  EXPECT_TRUE(bound.plan.has_value()) << bound.reason;
  EXPECT_THAT(bound.reason, HasSubstr("adds to that bottleneck"));
  r.current_setup.symptoms.clear();
  const ProposalVerdict free = Sole(r, fsdp);
  EXPECT_THAT(free.reason, Not(HasSubstr("adds to that bottleneck")));
  EXPECT_EQ(free.verdict, Verdict::kRecommended) << free.reason;
  // Where no replica fits a device (13B full training on A100 40GBs) FSDP
  // is what holds the job: not held back for the sync.
  r = OneA2Node({Symptom::kGradientSyncBound});
  r.workload.parameter_count = 13e9;
  r.current_setup.strategy = Strategy::kFsdp;
  const ProposalVerdict needed = Sole(r, fsdp);
  EXPECT_THAT(needed.reason, Not(HasSubstr("adds to that bottleneck")))
      << needed.reason;
}

// A JAX model by its size alone on today's four v5e 16x16 slices, FSDP.
ReviewRequest FourV5eSlices(double params) {
  ReviewRequest r;
  r.workload.framework = Framework::kJax;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = params;
  r.workload.global_batch_size = 2048;
  r.workload.dataset_tokens = 1e11;
  r.current_setup.hardware = "tpu-v5e";
  r.current_setup.tpu_topology = "16x16";
  r.current_setup.slice_count = 4;
  r.current_setup.strategy = Strategy::kFsdp;
  r.as_of = "2026-09-26";
  return r;
}

// FSDP across the slices is judged on its own point: 400B does not fit
// 1,024 v5e chips (HBM_TOO_SMALL, as the same hardware proposed is), where
// 100B does and is estimated.
TEST_F(RemedyEvidenceTest, FsdpAcrossSlicesThatDoesNotFitIsRejected) {
  Proposal across;
  across.label = "fsdp across slices";
  across.distribution = DistributionProposal{};
  across.distribution->strategy = Strategy::kFsdp;
  across.distribution->across_slices = DcnParallelism::kFsdp;
  across.distribution->slices = 4;
  const ProposalVerdict large = Sole(FourV5eSlices(400e9), across);
  EXPECT_EQ(large.verdict, Verdict::kRejected) << large.reason;
  EXPECT_TRUE(Has(large, ReasonCode::kHbmTooSmall)) << large.reason;
  const ProposalVerdict fits = Sole(FourV5eSlices(100e9), across);
  EXPECT_NE(fits.verdict, Verdict::kRejected) << fits.reason;
  EXPECT_TRUE(fits.plan.has_value()) << fits.reason;
}

// Low utilisation names what is under-used: a CPU setup's CPUs, a GPU
// setup's accelerators.
TEST_F(RemedyEvidenceTest, LowUtilisationNamesTheHardwareTheJobRunsOn) {
  ReviewRequest cpu = OneA2Node({Symptom::kLowUtilization});
  cpu.workload.parameter_count = 3.5e8;
  cpu.workload.dataset_tokens = 2e9;
  cpu.current_setup.hardware = "c3-standard-22";
  cpu.current_setup.accelerator_count = 0;
  cpu.current_setup.node_count = 4;
  const Proposal input = Remedy("remedy", RemedyKind::kFasterInputPipeline);
  EXPECT_THAT(Sole(cpu, input).reason, HasSubstr("under-utilising its CPUs"));
  EXPECT_THAT(Sole(OneA2Node({Symptom::kLowUtilization}), input).reason,
              HasSubstr("under-utilising its accelerators"));
}

// A CNN on a v5e 4x4 at batch 4096, which tiles the MXU.
ReviewRequest CnnOnV5e(std::vector<Symptom> symptoms) {
  ReviewRequest r;
  r.workload.framework = Framework::kJax;
  r.workload.model_kind = ModelKind::kCnn;
  r.workload.parameter_count = 25e6;
  r.workload.dataset_examples = 12.8e6;
  r.workload.global_batch_size = 4096;
  r.current_setup.hardware = "tpu-v5e";
  r.current_setup.tpu_topology = "4x4";
  r.current_setup.strategy = Strategy::kDataParallel;
  r.current_setup.symptoms = std::move(symptoms);
  r.as_of = "2026-09-26";
  return r;
}

// Tensor-shape advice says what holds: on a TPU it never calls today's
// hardware "not one" (it does on a GPU), and a batch that already tiles is
// not advised to round to itself.
TEST_F(RemedyEvidenceTest, TensorShapeAdviceSaysOnlyWhatHolds) {
  const Proposal fix = Remedy("remedy", RemedyKind::kFixTensorShapes);
  const ProposalVerdict tpu =
      Sole(CnnOnV5e({Symptom::kInputBound, Symptom::kLowUtilization}), fix);
  EXPECT_TRUE(Has(tpu, ReasonCode::kDoesNotAddressBottleneck)) << tpu.reason;
  EXPECT_THAT(tpu.reason, Not(HasSubstr("on GPUs")));
  // On GPUs the shapes are tiled for the tensor cores (stop 35), but low
  // utilisation there is not the tiling's to fix.
  const ProposalVerdict gpu = Sole(OneA2Node({Symptom::kLowUtilization}), fix);
  EXPECT_THAT(gpu.reason,
              HasSubstr("on GPUs low utilisation is not the tiling's to fix"));
  const ProposalVerdict low = Sole(CnnOnV5e({Symptom::kLowUtilization}), fix);
  EXPECT_THAT(low.reason, Not(HasSubstr("4096 -> 4096"))) << low.reason;
  EXPECT_THAT(low.reason, HasSubstr("multiples of")) << low.reason;
}

// A 7B full fine-tune on at most one accelerator: no option meets the
// 30-day deadline MIN_COST assumes, and the plan says so instead of
// calling its pick the cheapest that meets the deadline; given a deadline
// it meets, it says that.
TEST_F(RemedyEvidenceTest, APlanPastTheAssumedDeadlineSaysSo) {
  PlanRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_name = "mistral-7b";
  r.workload.training_method = TrainingMethod::kFullFineTune;
  r.workload.dataset_tokens = 2e8;
  r.workload.global_batch_size = 64;
  r.constraints.max_accelerators = 1;
  r.as_of = "2026-09-26";
  const auto reasons = [](const PlanResponse& p) {
    std::vector<std::string> out;
    if (p.recommendation) {
      for (const Reason& why : p.recommendation->reasons) {
        out.push_back(why.message);
      }
    }
    return out;
  };
  const PlanResponse late = Plan(r);
  ASSERT_TRUE(late.recommendation.has_value()) << late.no_plan_reason;
  ASSERT_GT(late.recommendation->estimates.total_hours.expected, 30 * 24);
  EXPECT_THAT(reasons(late), Contains(HasSubstr("comes closest")));
  EXPECT_THAT(reasons(late),
              Not(Contains(HasSubstr("cheapest that meets the deadline"))));
  r.goal.deadline_hours =
      4 * late.recommendation->estimates.total_hours.expected;
  EXPECT_THAT(reasons(Plan(r)),
              Contains(HasSubstr("cheapest that meets the deadline")));
}

// A flags-only question: a 7B job, no current setup, that does not
// checkpoint and trains for days on the plan's best point.
ReviewRequest FlagsOnly(bool checkpoints) {
  ReviewRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.parameter_count = 7e9;
  r.workload.dataset_tokens = 1e10;
  r.workload.checkpoints = checkpoints;
  r.as_of = "2026-09-26";
  return r;
}

// Spot with no current setup is judged on the plan's best point: a job
// that does not checkpoint and trains past the policy's hour there is
// PREEMPTION_RISK (it was RECOMMENDED with an empty reason); one that
// checkpoints is not rejected.
TEST_F(RemedyEvidenceTest, SpotWithoutASetupIsJudgedOnThePlansPoint) {
  const ProposalVerdict lost =
      Sole(FlagsOnly(false), Remedy("spot", RemedyKind::kUseSpot));
  EXPECT_EQ(lost.verdict, Verdict::kRejected) << lost.reason;
  EXPECT_TRUE(Has(lost, ReasonCode::kPreemptionRisk)) << lost.reason;
  const ProposalVerdict kept =
      Sole(FlagsOnly(true), Remedy("spot", RemedyKind::kUseSpot));
  EXPECT_EQ(kept.verdict, Verdict::kViable) << kept.reason;
  EXPECT_FALSE(Has(kept, ReasonCode::kPreemptionRisk)) << kept.reason;
  EXPECT_THAT(kept.reason, HasSubstr("states none"));
}

// A remedy to today's setup with none stated and no problem reported has
// nothing to change: never RECOMMENDED, and it says why. With a stated
// problem it acts on, it is the answer.
TEST_F(RemedyEvidenceTest, ARemedyWithoutASetupOrAProblemIsNotRecommended) {
  ReviewRequest r = FlagsOnly(true);
  const ProposalVerdict bare =
      Sole(r, Remedy("zero", RemedyKind::kShardOptimizerState));
  EXPECT_NE(bare.verdict, Verdict::kRecommended) << bare.reason;
  EXPECT_THAT(bare.reason, HasSubstr("states none"));
  r.current_setup.symptoms = {Symptom::kInputBound};
  const ProposalVerdict input =
      Sole(r, Remedy("input", RemedyKind::kFasterInputPipeline));
  EXPECT_EQ(input.verdict, Verdict::kRecommended) << input.reason;
  EXPECT_THAT(input.reason, Not(HasSubstr("states none")));
}

// Llama-3.1-70B FSDP on 64 H100s today (3e11 tokens, batch 1,024).
ReviewRequest SeventyBOnSixtyFourH100s(double deadline_hours) {
  ReviewRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.model_name = "llama-3.1-70b";
  r.workload.precision = Precision::kBf16Mixed;
  r.workload.dataset_tokens = 3e11;
  r.workload.global_batch_size = 1024;
  r.workload.checkpoints = true;
  r.goal.deadline_hours = deadline_hours;
  r.current_setup.hardware = "a3-highgpu-8g";
  r.current_setup.accelerator_count = 8;
  r.current_setup.node_count = 8;
  r.current_setup.strategy = Strategy::kFsdp;
  r.as_of = "2026-09-26";
  return r;
}

// Today's setup restated (as hardware with its layout, or as its strategy)
// is today's point, with the numbers the plan's savings give today, under
// any deadline. A deadline its fitting layouts miss used to let the model
// take the memory of a layout with no gradient accumulation "as observed"
// (526 GiB of 71.7 per H100) and RECOMMEND it as the fastest.
TEST_F(RemedyEvidenceTest, TodayRestatedIsTodaysPointUnderAnyDeadline) {
  PlanRequest plan;
  const ReviewRequest lax = SeventyBOnSixtyFourH100s(5000);
  plan.workload = lax.workload;
  plan.current_setup = lax.current_setup;
  plan.as_of = lax.as_of;
  const PlanResponse p = Plan(plan);
  ASSERT_TRUE(p.savings.has_value());
  const double today_hours = p.savings->current_hours;
  Proposal restated;
  restated.label = "today";
  restated.hardware = HardwareProposal{};
  restated.hardware->machine_type = "a3-highgpu-8g";
  restated.hardware->count = 64;
  restated.hardware->layout = DistributionProposal{};
  restated.hardware->layout->strategy = Strategy::kFsdp;
  for (const Proposal& proposal : {restated, Dist("fsdp", Strategy::kFsdp)}) {
    const ProposalVerdict met = Sole(lax, proposal);
    ASSERT_TRUE(met.plan.has_value()) << met.reason;
    EXPECT_NEAR(met.plan->estimates.total_hours.expected, today_hours,
                1e-6 * today_hours)
        << proposal.label;
    // Between a layout that needs no accumulation and today's: missed.
    const ProposalVerdict tight =
        Sole(SeventyBOnSixtyFourH100s(today_hours * 0.6), proposal);
    EXPECT_EQ(tight.verdict, Verdict::kRejected) << tight.reason;
    EXPECT_TRUE(Has(tight, ReasonCode::kMissesDeadline)) << tight.reason;
    EXPECT_THAT(tight.reason, Not(HasSubstr("taken as observed")));
  }
}

// A data-parallel degree fixes the device count: 280 replicas run on 280
// GPUs (35 a3-highgpu-8g VMs), a count between the grid's multiples of 32
// VMs that the search never built, so the layout was rejected
// HBM_TOO_SMALL for a 0.5 GiB model. 272 and 288 were found.
TEST_F(RemedyEvidenceTest, ADataParallelDegreeIsSizedAtItsCount) {
  ReviewRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_kind = ModelKind::kCnn;
  r.workload.parameter_count = 2.56e7;
  r.workload.dataset_examples = 1.28e6;
  r.workload.epochs = 90;
  r.workload.global_batch_size = 4096;
  r.goal.objective = Objective::kMinTime;
  r.goal.deadline_hours = 10;
  r.as_of = "2026-09-26";
  for (int degree : {280, 272, 288}) {
    Proposal dp = Dist("dp", Strategy::kDataParallel);
    dp.distribution->data_parallelism = degree;
    const ProposalVerdict v = Sole(r, dp);
    EXPECT_NE(v.verdict, Verdict::kRejected) << degree << ": " << v.reason;
    ASSERT_TRUE(v.plan.has_value()) << degree << ": " << v.reason;
    EXPECT_EQ(v.plan->hardware.total_accelerators, degree);
    EXPECT_EQ(v.plan->distribution.data_parallelism, degree);
  }
}

// scikit-learn idling on an 8-GPU VM: the move to CPUs is the fix. The
// move took today's 8 accelerators as 8 CPU VMs, which scikit-learn cannot
// use (NOT_APPLICABLE); a CPU target is sized on its own.
TEST_F(RemedyEvidenceTest, AMoveFromGpusToCpusIsNotSizedInGpus) {
  ReviewRequest r;
  r.workload.framework = Framework::kScikitLearn;
  r.workload.model_kind = ModelKind::kTabular;
  r.workload.dataset_gib = 2;
  r.current_setup.hardware = "a2-highgpu-8g";
  r.current_setup.accelerator_count = 8;
  r.current_setup.node_count = 1;
  r.as_of = "2026-09-26";
  Proposal move = Remedy("cpu", RemedyKind::kMoveToHardware);
  move.remedy->target = HardwareProposal{};
  move.remedy->target->platform = Platform::kCpu;
  const ProposalVerdict v = Sole(r, move);
  EXPECT_NE(v.verdict, Verdict::kRejected) << v.reason;
  ASSERT_TRUE(v.plan.has_value()) << v.reason;
  EXPECT_EQ(v.plan->hardware.platform, Platform::kCpu);
  EXPECT_EQ(v.plan->hardware.hosts, 1);
}

}  // namespace
}  // namespace accelplan::planner
