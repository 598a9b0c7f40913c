// Pipeline schedules and micro-batching (issue 14 item 2,
// planner/pipeline_schedule.h): the formulas, and the schedule a reviewed
// pipeline layout reports — interleaved 1F1B when the layer count allows
// it and not when it does not, a requested micro-batch or accumulation
// honoured, and a requested micro-batch that does not fit rejected with
// a reason that names it.
#include "planner/pipeline_schedule.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/memory_model.h"
#include "planner/planner.h"
#include "planner/time_model.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using internal::MaxVirtualStages;
using ::testing::HasSubstr;

TEST(PipelineFormulasTest, BubbleIsPMinusOneOverVTimesM) {
  // Step = ideal × (1 + (p−1)/(v·m)) (arXiv:2104.04473 §2.2).
  auto stretch = [](int p, int m, int v) {
    return 1.0 / (1.0 - PipelineBubbleFraction(p, m, v));
  };
  EXPECT_DOUBLE_EQ(stretch(8, 32, 1), 1.0 + 7.0 / 32);
  EXPECT_DOUBLE_EQ(stretch(8, 32, 4), 1.0 + 7.0 / 128);
  EXPECT_DOUBLE_EQ(stretch(1, 32, 4), 1.0);
  EXPECT_DOUBLE_EQ(PipelineBubbleFraction(4, 12), 3.0 / 15);
}

TEST(PipelineFormulasTest, FirstStageHoldsTheMicroBatchesInFlight) {
  EXPECT_DOUBLE_EQ(MicrobatchesInFlight(1, 1, 64), 1);  // accumulation
  EXPECT_DOUBLE_EQ(MicrobatchesInFlight(8, 1, 64), 8);  // 1F1B: p
  EXPECT_DOUBLE_EQ(MicrobatchesInFlight(8, 1, 3), 3);   // m < p: m
  EXPECT_DOUBLE_EQ(MicrobatchesInFlight(8, 4, 64), 8 + 7.0 / 4);  // Megatron
}

TEST(PipelineFormulasTest, InterleavingNeedsWholeChunksAndMMultipleOfP) {
  EXPECT_EQ(MaxVirtualStages(80, 8, 32), 10);  // 1 layer per chunk
  EXPECT_EQ(MaxVirtualStages(96, 8, 32), 12);
  // 126 decoder layers + embedding + loss = 128 = 8 × 16 chunks.
  EXPECT_EQ(MaxVirtualStages(126, 8, 32), 16);
  EXPECT_EQ(MaxVirtualStages(79, 8, 32), 1);  // prime: no whole chunks
  EXPECT_EQ(MaxVirtualStages(80, 8, 12), 1);  // m not a multiple of p
  EXPECT_EQ(MaxVirtualStages(80, 2, 32), 1);  // Megatron: not with 2 stages
}

TEST(PipelineFormulasTest, ScheduledActivationsCountTheMicroBatchesInFlight) {
  TransformerShape shape;
  shape.layers = 80;
  shape.hidden_size = 8192;
  shape.attention_heads = 64;
  shape.sequence_length = 4096;
  MemoryModelInput in;
  in.params = 7e10;
  in.shape = &shape;
  in.recompute = Recompute::kSelective;
  in.global_batch_size = 256;
  const PreparedMemoryModel m = PrepareMemoryModel(in);
  ShardingLayout l;
  l.data = 8;
  l.tensor = 4;
  l.pipeline = 8;
  l.micro_batch = 1;
  l.microbatches = 32;
  const double one_f_one_b =
      EstimateMemoryPerDevice(m, Recompute::kSelective, 256, l)
          .activations_bytes;
  l.virtual_stages = 5;
  const double interleaved =
      EstimateMemoryPerDevice(m, Recompute::kSelective, 256, l)
          .activations_bytes;
  const double extra =
      ActivationExtraBytes(shape, 1, Recompute::kSelective, 4, true, false);
  const double layer =
      ActivationBytesPerLayer(shape, 1, Recompute::kSelective, 4, true);
  EXPECT_DOUBLE_EQ(one_f_one_b, 10 * 8 * layer + extra);
  EXPECT_DOUBLE_EQ(interleaved, 10 * (8 + 7.0 / 5) * layer + extra);
}

class PipelineScheduleTest : public CatalogPlannerTest {
 protected:
  // A dense decoder on 64 H100s (8 VMs) reviewed with a pipeline layout.
  static ReviewRequest Request(int layers) {
    ReviewRequest q;
    Workload& w = q.workload;
    w.framework = Framework::kPytorch;
    w.model_kind = ModelKind::kDenseTransformer;
    TransformerShape& s = w.transformer_shape;
    s.layers = layers;
    s.hidden_size = 8192;
    s.attention_heads = 64;
    s.num_kv_heads = 8;
    s.ffn_hidden_size = 28672;
    s.gated_ffn = true;
    s.vocab_size = 128256;
    s.sequence_length = 4096;
    w.precision = Precision::kBf16Mixed;
    w.recompute = Recompute::kSelective;
    w.global_batch_size = 256;
    w.steps = 100;
    q.as_of = "2026-09-26";
    Proposal p;
    p.label = "pp";
    p.hardware = HardwareProposal{};
    p.hardware->platform = Platform::kGpu;
    p.hardware->machine_type = "a3-highgpu-8g";
    p.hardware->count = 64;
    p.hardware->layout = DistributionProposal{};
    p.hardware->layout->strategy = Strategy::kPipelineParallel;
    q.proposals.push_back(p);
    return q;
  }

  static const Plan& PlanOf(const ReviewResponse& r) {
    static const Plan kNone;
    if (r.verdicts.empty() || !r.verdicts[0].plan) {
      ADD_FAILURE() << (r.verdicts.empty() ? "no verdict"
                                           : r.verdicts[0].reason);
      return kNone;
    }
    return *r.verdicts[0].plan;
  }
};

TEST_F(PipelineScheduleTest, InterleavesWhenTheLayerCountAllows) {
  const ReviewResponse r = planner_->Review(Request(80));
  const Distribution& d = PlanOf(r).distribution;
  ASSERT_GT(d.pipeline_parallelism, 2);
  EXPECT_GT(d.virtual_pipeline_stages, 1);
  EXPECT_EQ(80 % (d.pipeline_parallelism * d.virtual_pipeline_stages), 0);
  EXPECT_EQ(d.micro_batch_size, 1);
  EXPECT_EQ(d.micro_batches % d.pipeline_parallelism, 0);
  EXPECT_EQ(static_cast<int64_t>(d.micro_batches) * d.micro_batch_size *
                d.data_parallelism,
            256);
  EXPECT_THAT(d.notes, HasSubstr("interleaved 1F1B"));
}

TEST_F(PipelineScheduleTest, KeepsOneFOneBWhenTheLayerCountDoesNot) {
  // 79 layers (+ embedding + loss = 81): no whole chunks at any depth.
  const ReviewResponse r = planner_->Review(Request(79));
  const Distribution& d = PlanOf(r).distribution;
  ASSERT_GT(d.pipeline_parallelism, 1);
  EXPECT_EQ(d.virtual_pipeline_stages, 1);
  EXPECT_THAT(d.notes, HasSubstr("Pipeline schedule: 1F1B"));
  for (int p : {4, 8, 16}) EXPECT_EQ(MaxVirtualStages(79, p, 64), 1) << p;
}

// The note places a replica's stages where its tensor x pipeline ranks
// are: one VM's GPUs when they fit in it, VMs when they do not.
TEST_F(PipelineScheduleTest, TheNoteSaysWhetherTheStagesLeaveTheVm) {
  // 16 layers (about 14B parameters) fit one VM under ZeRO-1.
  const auto notes = [](int count, int tensor, int pipeline) {
    ReviewRequest q = Request(16);
    q.workload.global_batch_size = 32;
    q.proposals[0].hardware->count = count;
    DistributionProposal& l = *q.proposals[0].hardware->layout;
    l.strategy = Strategy::kHybrid;
    l.tensor_parallelism = tensor;
    l.pipeline_parallelism = pipeline;
    const ReviewResponse r = planner_->Review(q);
    const Distribution& d = PlanOf(r).distribution;
    EXPECT_EQ(d.pipeline_parallelism, pipeline) << count;
    return d.notes;
  };
  EXPECT_THAT(notes(8, 2, 4), HasSubstr("4 pipeline stages across the VM's"));
  EXPECT_THAT(notes(8, 2, 4), Not(HasSubstr("across VMs")));
  EXPECT_THAT(notes(64, 8, 4), HasSubstr("4 pipeline stages across VMs"));
}

TEST_F(PipelineScheduleTest, HonoursTheRequestedMicroBatch) {
  ReviewRequest q = Request(80);
  q.workload.micro_batch_size = 2;
  const ReviewResponse r = planner_->Review(q);  // outlives `d`
  const Distribution& d = PlanOf(r).distribution;
  EXPECT_EQ(d.micro_batch_size, 2);
  EXPECT_EQ(static_cast<int64_t>(d.micro_batches) * 2 * d.data_parallelism,
            256);
  EXPECT_THAT(d.notes, HasSubstr("of 2 sequences per replica"));
}

TEST_F(PipelineScheduleTest, HonoursTheRequestedAccumulation) {
  ReviewRequest q = Request(80);
  q.proposals[0].hardware->layout.reset();         // any layout
  q.workload.recompute = Recompute::kUnspecified;  // full may be taken
  q.workload.gradient_accumulation_steps = 4;
  const ReviewResponse r = planner_->Review(q);  // outlives `d`
  const Distribution& d = PlanOf(r).distribution;
  EXPECT_EQ(d.micro_batches, 4);
  const int64_t ranks = static_cast<int64_t>(d.data_parallelism) *
                        std::max(1, d.fsdp_parallelism);
  EXPECT_EQ(d.micro_batches * d.micro_batch_size * ranks, 256);
}

TEST_F(PipelineScheduleTest, AMicroBatchThatDoesNotFitIsRejectedByName) {
  ReviewRequest q = Request(80);
  q.workload.recompute = Recompute::kNone;
  q.workload.transformer_shape.sequence_length = 8192;
  q.workload.micro_batch_size = 32;
  const ReviewResponse big = planner_->Review(q);
  ASSERT_FALSE(big.verdicts.empty());
  EXPECT_FALSE(big.verdicts[0].plan.has_value());
  EXPECT_THAT(big.verdicts[0].reason,
              HasSubstr("requested micro_batch_size of 32"));
  // The same job with the micro-batch left to the planner fits.
  q.workload.micro_batch_size = 0;
  const ReviewResponse r = planner_->Review(q);  // outlives `d`
  const Distribution& d = PlanOf(r).distribution;
  EXPECT_EQ(d.micro_batch_size, 1);
}

// A distribution proposal's stated degrees are the layout reviewed, not
// only its strategy: a depth the planner would also try (tp 8 × pp 2), a
// split it never generates (tp 4 × pp 4; FSDP 4 under tp 8 × pp 2), and
// degrees that cannot divide the proposal's 64 GPUs or put TP across VMs,
// which get no plan.
TEST_F(PipelineScheduleTest, StatedDegreesAreTheLayoutReviewed) {
  auto reviewed = [](int tp, int pp, int fsdp) {
    ReviewRequest q = Request(80);
    q.proposals[0].hardware->layout->tensor_parallelism = tp;
    q.proposals[0].hardware->layout->pipeline_parallelism = pp;
    q.proposals[0].hardware->layout->fsdp_parallelism = fsdp;
    return planner_->Review(q);
  };
  const ReviewResponse free = reviewed(0, 0, 0);
  const Distribution& chosen = PlanOf(free).distribution;
  ASSERT_GT(chosen.pipeline_parallelism, 1);
  const int other_pp = chosen.pipeline_parallelism == 2 ? 4 : 2;
  const ReviewResponse a = reviewed(8, other_pp, 0);
  EXPECT_EQ(PlanOf(a).distribution.tensor_parallelism, 8);
  EXPECT_EQ(PlanOf(a).distribution.pipeline_parallelism, other_pp);

  const ReviewResponse b = reviewed(4, 4, 0);
  const Distribution& db = PlanOf(b).distribution;
  EXPECT_EQ(db.tensor_parallelism, 4);
  EXPECT_EQ(db.pipeline_parallelism, 4);
  EXPECT_EQ(db.data_parallelism * std::max(1, db.fsdp_parallelism), 4);

  const ReviewResponse c = reviewed(8, 2, 4);
  const Distribution& dc = PlanOf(c).distribution;
  EXPECT_EQ(dc.tensor_parallelism, 8);
  EXPECT_EQ(dc.pipeline_parallelism, 2);
  EXPECT_EQ(dc.fsdp_parallelism, 4);

  const ReviewResponse none = reviewed(8, 3, 0);
  ASSERT_FALSE(none.verdicts.empty());
  EXPECT_FALSE(none.verdicts[0].plan.has_value());
  EXPECT_NE(none.verdicts[0].verdict, Verdict::kRecommended);
  EXPECT_THAT(none.verdicts[0].reason, HasSubstr("spell no layout"));
  // A data-parallel proposal that states a TP degree names no layout.
  ReviewRequest dp = Request(80);
  dp.proposals[0].hardware->layout->strategy = Strategy::kDataParallel;
  dp.proposals[0].hardware->layout->tensor_parallelism = 4;
  const ReviewResponse mixed = planner_->Review(dp);
  ASSERT_FALSE(mixed.verdicts.empty());
  EXPECT_FALSE(mixed.verdicts[0].plan.has_value());
  // TP 16 divides 64 but leaves the 8-GPU VM: never over the network.
  const ReviewResponse wide = reviewed(16, 2, 0);
  ASSERT_FALSE(wide.verdicts.empty());
  EXPECT_FALSE(wide.verdicts[0].plan.has_value());
  EXPECT_THAT(wide.verdicts[0].reason, HasSubstr("inside one NVLink domain"));
}

}  // namespace
}  // namespace accelplan::planner
