// Mixture of experts (issue 14 item 4, planner/experts.h): the parameters
// in the experts, the expert-parallel degree a domain allows, the traffic
// it trades, and the layout a reviewed MoE job gets — expert parallelism
// where FSDP's gathers of every expert would be exposed, none where they
// hide behind compute, and never for a dense model.
#include "planner/experts.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/job.h"
#include "planner/planner.h"
#include "planner/time_model.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using internal::ExpertAllToAllBytes;
using internal::ExpertParallelDegree;
using internal::GatheredParams;
using internal::Job;
using internal::ResolveExperts;
using ::testing::Contains;
using ::testing::HasSubstr;

// Mixtral 8x7B: 46.7B total, 12.9B active, 8 experts, top-2
// (https://huggingface.co/mistralai/Mixtral-8x7B-v0.1; catalog preset
// HF-MIXTRAL-8X7B). Its experts are 32 layers x 8 x 3 x 4096 x 14336.
Job MixtralJob(int per_token) {
  Job job;
  job.params = 46.7e9;
  job.workload.active_parameter_count = 12.9e9;
  job.workload.num_experts = 8;
  job.workload.experts_per_token = per_token;
  job.workload.transformer_shape.layers = 32;
  job.workload.transformer_shape.hidden_size = 4096;
  return job;
}

TEST(ExpertsTest, ExpertParametersFollowTotalActiveAndTopK) {
  Job job = MixtralJob(2);
  ResolveExperts(job);
  const double from_shape = 32.0 * 8 * 3 * 4096 * 14336;
  EXPECT_NEAR(job.expert_params / from_shape, 1.0, 0.01);
  EXPECT_EQ(job.experts_per_token, 2);
}

TEST(ExpertsTest, AnUnstatedTopKIsAssumedAndSaid) {
  Job job = MixtralJob(0);
  ResolveExperts(job);
  EXPECT_EQ(job.experts_per_token, 2);
  EXPECT_THAT(job.assumptions,
              Contains(HasSubstr("2 experts per token assumed")));
  Job stated = MixtralJob(2);
  ResolveExperts(stated);
  EXPECT_THAT(stated.assumptions,
              Not(Contains(HasSubstr("experts per token assumed"))));
}

TEST(ExpertsTest, DenseOrUnsplittableModelsHaveNoExpertParameters) {
  Job dense = MixtralJob(2);
  dense.workload.num_experts = 0;
  ResolveExperts(dense);
  EXPECT_EQ(dense.expert_params, 0);
  EXPECT_TRUE(dense.assumptions.empty());
  Job no_active = MixtralJob(2);
  no_active.workload.active_parameter_count = 0;  // the split is unknown
  ResolveExperts(no_active);
  EXPECT_EQ(no_active.expert_params, 0);
  EXPECT_EQ(ExpertParallelDegree(no_active, 8, 1), 1);
}

// Without the active count, every parameter is charged per token: the
// job warns that its time and cost are an upper bound. Not when it is
// stated, nor for a dense model.
TEST(ExpertsTest, AnUnstatedActiveCountIsWarnedAsAnUpperBound) {
  const auto warns = [](const Job& j) {
    for (const Reason& r : j.warnings) {
      if (r.message.find("an upper bound on time and cost") !=
          std::string::npos) {
        return true;
      }
    }
    return false;
  };
  Job unknown = MixtralJob(2);
  unknown.workload.active_parameter_count = 0;
  ResolveExperts(unknown);
  EXPECT_TRUE(warns(unknown));
  Job stated = MixtralJob(2);
  ResolveExperts(stated);
  EXPECT_FALSE(warns(stated));
  Job dense = MixtralJob(2);
  dense.workload.active_parameter_count = 0;
  dense.workload.num_experts = 0;
  ResolveExperts(dense);
  EXPECT_FALSE(warns(dense));
}

// Without a stated shape the all-to-all runs through a dense model of the
// active parameters at GPT-3's aspect ratio (12·L·(128·L)² ≈ 12.9B: L =
// 40), said as an assumption; a stated shape is used as stated, and a
// model whose expert split is unknown gets neither.
TEST(ExpertsTest, WithoutAShapeTheAllToAllUsesTheActiveModelsShape) {
  Job job = MixtralJob(2);
  job.workload.transformer_shape = {};
  ResolveExperts(job);
  EXPECT_EQ(job.expert_layers, 40);
  EXPECT_EQ(job.expert_hidden, 40 * 128);
  EXPECT_EQ(ExpertParallelDegree(job, 8, 1), 8);
  EXPECT_THAT(job.assumptions,
              Contains(HasSubstr("without a transformer shape")));

  Job stated = MixtralJob(2);
  ResolveExperts(stated);
  EXPECT_EQ(stated.expert_layers, 32);
  EXPECT_EQ(stated.expert_hidden, 4096);
  EXPECT_THAT(stated.assumptions,
              Not(Contains(HasSubstr("without a transformer shape"))));

  Job unsplit = MixtralJob(2);
  unsplit.workload.transformer_shape = {};
  unsplit.workload.active_parameter_count = 0;
  ResolveExperts(unsplit);
  EXPECT_EQ(unsplit.expert_layers, 0);
  EXPECT_EQ(ExpertParallelDegree(unsplit, 8, 1), 1);
}

TEST(ExpertsTest, TheDegreeDividesTheExpertsAndTheDomain) {
  Job job = MixtralJob(2);
  ResolveExperts(job);
  EXPECT_EQ(ExpertParallelDegree(job, 8, 1), 8);  // one 8-GPU VM
  EXPECT_EQ(ExpertParallelDegree(job, 4, 1), 4);
  EXPECT_EQ(ExpertParallelDegree(job, 8, 8), 1);    // TP took the VM
  EXPECT_EQ(ExpertParallelDegree(job, 256, 8), 8);  // a slice: E bounds it
  job.experts = 6;
  EXPECT_EQ(ExpertParallelDegree(job, 8, 1), 2);
}

TEST(ExpertsTest, ExpertParallelismTradesGathersForAllToAll) {
  Job job = MixtralJob(2);
  ResolveExperts(job);
  job.tokens_per_step = 1 << 20;
  ShardingLayout fsdp;
  fsdp.zero_stage = 3;
  fsdp.fsdp = fsdp.data = 64;
  EXPECT_EQ(GatheredParams(job, fsdp), job.params);
  EXPECT_EQ(ExpertAllToAllBytes(job, fsdp, 64), 0);
  ShardingLayout ep = fsdp;
  ep.expert = 8;
  EXPECT_DOUBLE_EQ(GatheredParams(job, ep),
                   job.params - job.expert_params * 7 / 8);
  // 4 all-to-alls x 32 layers x 16,384 tokens x 2 experts x 4,096 x 2 B,
  // 7/8 of it leaving the device.
  EXPECT_DOUBLE_EQ(ExpertAllToAllBytes(job, ep, 64),
                   4.0 * 32 * 16384 * 2 * 4096 * 2 * 7 / 8);
}

TEST(ExpertsTest, TheAllToAllIsOnTheCriticalPathUnlessMeasuredInTheBand) {
  StepTimeInput in;
  in.flops_per_step_total = 1e15;
  in.peak_flops_per_device = 1e15;
  in.mfu_low = in.mfu_high = 0.5;
  in.a2a_bytes_per_step = 1e9;
  in.a2a_link_bytes_per_s = 1e9;  // 1 s, under the 2 s of compute
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_expected, 3.0);
  // A band measured end to end paid the all-to-all only over the links its
  // runs used (NVLink, ICI): over PCIe it stays on the critical path.
  in.overheads_in_mfu = true;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_expected, 3.0);
  in.a2a_in_mfu = true;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_expected, 2.0);
}

class ExpertLayoutTest : public CatalogPlannerTest {
 protected:
  // DeepSeek-V3's published shape and split (671B total, 37B active, 256
  // routed experts, top-8: https://huggingface.co/deepseek-ai/DeepSeek-V3),
  // reviewed on `count` H100s.
  static ReviewRequest Request(const std::string& machine, int count) {
    ReviewRequest q;
    Workload& w = q.workload;
    w.framework = Framework::kPytorch;
    w.model_kind = ModelKind::kDenseTransformer;
    w.parameter_count = 6.71e11;
    w.active_parameter_count = 3.7e10;
    w.num_experts = 256;
    w.experts_per_token = 8;
    TransformerShape& s = w.transformer_shape;
    s.layers = 61;
    s.hidden_size = 7168;
    s.attention_heads = 128;
    s.vocab_size = 129280;
    s.sequence_length = 4096;
    w.precision = Precision::kBf16Mixed;
    w.global_batch_size = 512;
    w.steps = 100;
    q.as_of = "2026-09-26";
    q.constraints.reservation_available = true;
    Proposal p;
    p.label = "moe";
    p.hardware = HardwareProposal{};
    p.hardware->platform = Platform::kGpu;
    p.hardware->machine_type = machine;
    p.hardware->count = count;
    q.proposals.push_back(p);
    return q;
  }

  static Distribution DistributionOf(const ReviewRequest& q) {
    const ReviewResponse r = planner_->Review(q);
    if (r.verdicts.empty() || !r.verdicts[0].plan) {
      ADD_FAILURE() << (r.verdicts.empty() ? "no verdict"
                                           : r.verdicts[0].reason);
      return {};
    }
    return r.verdicts[0].plan->distribution;
  }
};

TEST_F(ExpertLayoutTest, ExposedExpertGathersGetExpertParallelismInTheVm) {
  // FSDP over 32 VMs would gather all 256 experts of every layer over the
  // host network: splitting them over each VM's 8 GPUs is faster.
  const Distribution d = DistributionOf(Request("a3-megagpu-8g", 256));
  EXPECT_EQ(d.expert_parallelism, 8);
  EXPECT_THAT(d.notes, HasSubstr("Expert parallel 8 inside each VM"));
}

TEST_F(ExpertLayoutTest, ADenseModelOfTheSameSizeHasNone) {
  ReviewRequest q = Request("a3-megagpu-8g", 256);
  q.workload.num_experts = 0;
  q.workload.experts_per_token = 0;
  q.workload.active_parameter_count = 0;
  const Distribution d = DistributionOf(q);
  EXPECT_EQ(d.expert_parallelism, 0);
  EXPECT_THAT(d.notes, Not(HasSubstr("Expert parallel")));
}

TEST_F(ExpertLayoutTest, WithoutAShapeTheExpertsAreStillSplit) {
  // The same model given by its counts alone: its experts are split as
  // with its published shape, not gathered whole by FSDP.
  ReviewRequest q = Request("a3-megagpu-8g", 256);
  const int stated = DistributionOf(q).expert_parallelism;
  q.workload.transformer_shape = {};
  q.workload.transformer_shape.sequence_length = 4096;
  EXPECT_EQ(DistributionOf(q).expert_parallelism, stated);
  EXPECT_EQ(stated, 8);
}

TEST_F(ExpertLayoutTest, HiddenGathersKeepPlainFsdp) {
  // Mixtral 8x7B on 32 H100s with a 4M-token batch: FSDP's gathers hide
  // behind ~25 s of compute, while the all-to-all would not.
  ReviewRequest q = Request("a3-highgpu-8g", 32);
  Workload& w = q.workload;
  w.parameter_count = 46.7e9;
  w.active_parameter_count = 12.9e9;
  w.num_experts = 8;
  w.experts_per_token = 2;
  w.transformer_shape.layers = 32;
  w.transformer_shape.hidden_size = 4096;
  w.transformer_shape.attention_heads = 32;
  w.transformer_shape.vocab_size = 32000;
  w.global_batch_size = 1024;
  const Distribution d = DistributionOf(q);
  EXPECT_EQ(d.expert_parallelism, 1);
  EXPECT_GT(d.fsdp_parallelism, 1);
}

// A mixture of experts runs at a lower MFU than a dense model where both
// were measured (the catalog's MoE runs on H100 and B200 against their
// dense runs). Hardware without a published band of its own (a T4) used to
// time MoE at the dense default band, 2x an H100's MoE efficiency; it now
// pays the measured MoE/dense ratio on top of the default band, and a
// dense job there keeps the default.
TEST_F(ExpertLayoutTest, AMixtureOfExpertsPaysItsRoutingOnADefaultBand) {
  const auto band = [](ReviewRequest q) -> std::pair<double, double> {
    const ReviewResponse r = planner_->Review(q);
    if (r.verdicts.empty() || !r.verdicts[0].plan) {
      ADD_FAILURE() << (r.verdicts.empty() ? "no verdict" : r.verdicts[0].reason);
      return {0, 0};
    }
    const Estimates& e = r.verdicts[0].plan->estimates;
    return {e.mfu_low, e.mfu_high};
  };
  ReviewRequest moe = Request("n1-standard-8+4xnvidia-tesla-t4", 4);
  Workload& w = moe.workload;
  w.parameter_count = 2e9;  // fits four T4s
  w.active_parameter_count = 0.5e9;
  w.num_experts = 16;
  w.experts_per_token = 2;
  w.transformer_shape = {};
  w.precision = Precision::kFp16Mixed;
  moe.constraints.allowed_series = {"N1"};
  ReviewRequest dense = moe;
  dense.workload.active_parameter_count = 0;
  dense.workload.num_experts = 0;
  dense.workload.experts_per_token = 0;
  const auto [moe_low, moe_high] = band(moe);
  const auto [dense_low, dense_high] = band(dense);
  EXPECT_DOUBLE_EQ(dense_low, 0.25);  // the pre-Ampere default, unchanged
  EXPECT_DOUBLE_EQ(dense_high, 0.45);
  EXPECT_GT(moe_low, 0);
  EXPECT_LT(moe_high, dense_low);
  EXPECT_NEAR(moe_low / dense_low, moe_high / dense_high, 1e-12);

  // Where MoE runs were measured, the MoE band is theirs, below dense.
  ReviewRequest h100 = Request("a3-highgpu-8g", 8);
  h100.workload.parameter_count = 46.7e9;
  h100.workload.active_parameter_count = 12.9e9;
  h100.workload.num_experts = 8;
  h100.workload.experts_per_token = 2;
  h100.workload.transformer_shape = {};
  ReviewRequest h100_dense = h100;
  h100_dense.workload.parameter_count = 12.9e9;
  h100_dense.workload.active_parameter_count = 0;
  h100_dense.workload.num_experts = 0;
  h100_dense.workload.experts_per_token = 0;
  EXPECT_LT(band(h100).second, band(h100_dense).second);
}

// A MoE with experts across a PCIe VM's GPUs (G2's L4s) pays its
// all-to-all on top of the band, which its NVLink runs never charged: the
// same plan's communication read 0% and its recommendation missed its own
// deadline. On NVLink (A2's A100s) the band holds it.
TEST_F(ExpertLayoutTest, AnAllToAllOverPcieIsNotInTheBand) {
  ReviewRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = 16.4e9;
  r.workload.active_parameter_count = 2.8e9;
  r.workload.num_experts = 64;
  r.workload.experts_per_token = 6;
  r.workload.transformer_shape.layers = 28;
  r.workload.transformer_shape.hidden_size = 2048;
  r.workload.transformer_shape.attention_heads = 16;
  r.workload.transformer_shape.sequence_length = 4096;
  r.workload.transformer_shape.vocab_size = 102400;
  r.workload.transformer_shape.ffn_hidden_size = 1408;
  r.workload.precision = Precision::kBf16Mixed;
  r.workload.dataset_tokens = 1e11;
  r.as_of = "2026-09-26";
  Proposal pcie, nvlink;
  pcie.label = "pcie";
  pcie.hardware = HardwareProposal{};
  pcie.hardware->machine_type = "g2-standard-96";
  pcie.hardware->count = 160;
  nvlink.label = "nvlink";
  nvlink.hardware = HardwareProposal{};
  nvlink.hardware->machine_type = "a2-highgpu-8g";
  nvlink.hardware->count = 64;
  r.proposals = {pcie, nvlink};
  const ReviewResponse out = planner_->Review(r);
  ASSERT_EQ(out.verdicts.size(), 2u);
  for (const ProposalVerdict& v : out.verdicts) {
    ASSERT_TRUE(v.plan.has_value()) << v.label << ": " << v.reason;
    ASSERT_EQ(v.plan->distribution.expert_parallelism, 8) << v.label;
  }
  EXPECT_GT(out.verdicts[0].plan->estimates.communication_fraction, 0.1);
  EXPECT_EQ(out.verdicts[1].plan->estimates.communication_fraction, 0);
}

}  // namespace
}  // namespace accelplan::planner
