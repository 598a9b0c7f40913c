// Validation of the request fields that describe the model in detail
// (grouped-query attention, mixture-of-experts, batching, ZeRO), the current
// slices and mesh, and a proposal's layout: each is accepted in range and
// named when out of range.
#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"

namespace accelplan::planner {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::IsEmpty;

PlanRequest Llama70bShaped() {
  PlanRequest r;
  r.workload.framework = Framework::kJax;
  r.workload.parameter_count = 70e9;
  r.workload.transformer_shape.layers = 80;
  r.workload.transformer_shape.hidden_size = 8192;
  r.workload.transformer_shape.attention_heads = 64;
  r.workload.transformer_shape.num_kv_heads = 8;
  r.workload.transformer_shape.gated_ffn = true;
  r.workload.global_batch_size = 512;
  r.workload.micro_batch_size = 4;
  r.workload.gradient_accumulation_steps = 8;
  r.workload.zero_stage = 3;
  r.workload.attention = Attention::kStandard;
  r.as_of = "2026-11-01";
  return r;
}

auto Named(const std::string& field) {
  return ElementsAre(Field(&FieldViolation::field, field));
}

TEST(ValidateModelDetails, AcceptsAConsistentDetailedRequest) {
  EXPECT_THAT(ValidatePlanRequest(Llama70bShaped()), IsEmpty());
}

// head_dim sets a head's width apart from hidden / heads (Gemma, Qwen3):
// then heads need not divide hidden, but there must be heads to widen.
TEST(ValidateModelDetails, HeadDimNeedsHeadsAndFreesTheDivisibility) {
  PlanRequest r = Llama70bShaped();
  r.workload.transformer_shape.attention_heads = 48;  // 8192 % 48 != 0
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("workload.transformer_shape.attention_heads"));
  r.workload.transformer_shape.num_kv_heads = 8;
  r.workload.transformer_shape.head_dim = 128;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.transformer_shape.attention_heads = 0;
  r.workload.transformer_shape.num_kv_heads = 0;
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("workload.transformer_shape.head_dim"));
  r.workload.transformer_shape.attention_heads = 64;
  r.workload.transformer_shape.head_dim = -1;
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("workload.transformer_shape.head_dim"));
}

TEST(ValidateModelDetails, KvHeadsMustDivideTheAttentionHeads) {
  PlanRequest r = Llama70bShaped();
  r.workload.transformer_shape.num_kv_heads = 64;  // MHA: fine
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.transformer_shape.num_kv_heads = 12;
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("workload.transformer_shape.num_kv_heads"));
  r.workload.transformer_shape.num_kv_heads = 128;
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("workload.transformer_shape.num_kv_heads"));
  r.workload.transformer_shape.num_kv_heads = -1;
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("workload.transformer_shape.num_kv_heads"));
}

TEST(ValidateModelDetails, ZeroStageIsZeroToThree) {
  PlanRequest r = Llama70bShaped();
  r.workload.zero_stage = 0;  // pinned "no ZeRO" is valid
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.zero_stage = 4;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.zero_stage"));
  r.workload.zero_stage = -1;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.zero_stage"));
}

TEST(ValidateModelDetails, MicroBatchFitsInTheGlobalBatch) {
  PlanRequest r = Llama70bShaped();
  r.workload.micro_batch_size = 512;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.micro_batch_size = 513;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.micro_batch_size"));
  r.workload.micro_batch_size = -2;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.micro_batch_size"));
  r = Llama70bShaped();
  r.workload.gradient_accumulation_steps = -1;
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("workload.gradient_accumulation_steps"));
}

TEST(ValidateModelDetails, ActiveParametersAreAtMostTheTotal) {
  PlanRequest r;
  r.workload.parameter_count = 46.7e9;  // Mixtral 8x7B
  r.workload.active_parameter_count = 12.9e9;
  r.workload.num_experts = 8;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.active_parameter_count = 50e9;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.active_parameter_count"));
  r.workload.active_parameter_count = 12.9e9;
  r.workload.num_experts = -8;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.num_experts"));
}

TEST(ValidateModelDetails, ExpertsPerTokenAreAtMostTheExperts) {
  PlanRequest r;
  r.workload.parameter_count = 46.7e9;  // Mixtral 8x7B, top-2 of 8
  r.workload.active_parameter_count = 12.9e9;
  r.workload.num_experts = 8;
  r.workload.experts_per_token = 2;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.experts_per_token = 9;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.experts_per_token"));
  r.workload.experts_per_token = -1;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.experts_per_token"));
}

TEST(ValidateModelDetails, EdgeUnmappedOpCountIsNotNegative) {
  PlanRequest r;
  r.workload.deployment_target = DeploymentTarget::kOnDeviceInference;
  r.workload.edge.has_unmapped_ops = true;
  r.workload.edge.unmapped_op_count = 3;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.edge.unmapped_op_count = -3;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.edge.unmapped_op_count"));
}

TEST(ValidateModelDetails, ForwardFlopsPerExampleIsAFiniteBoundedNumber) {
  PlanRequest r;
  r.workload.model_kind = ModelKind::kCnn;
  r.workload.parameter_count = 25.6e6;
  r.workload.forward_flops_per_example = 7.6e9;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  for (double bad : {-1.0, 1e19, std::nan(""), HUGE_VAL}) {
    r.workload.forward_flops_per_example = bad;
    EXPECT_THAT(ValidatePlanRequest(r),
                Named("workload.forward_flops_per_example"))
        << bad;
  }
}

TEST(ValidateModelDetails, OneTopologyPerCurrentSlice) {
  PlanRequest r;
  r.current_setup.hardware = "tpu-v5p";
  r.current_setup.slice_count = 2;
  r.current_setup.slice_topologies = {"2x2x4", "2x2x2"};
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.current_setup.slice_topologies = {"2x2x4", "2x2x2", "2x2x2"};
  EXPECT_THAT(ValidatePlanRequest(r), Named("current_setup.slice_topologies"));
  r.current_setup.slice_topologies = {"2x2x4", "banana"};
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("current_setup.slice_topologies[1]"));
  // tpu_topology is every slice's: listed slices beside it must match it.
  r.current_setup.tpu_topology = "2x2x4";
  r.current_setup.slice_topologies = {"2x2x4", "2x2x4"};
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.current_setup.slice_topologies = {"2x2x4", "2x2x2"};
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("current_setup.slice_topologies[1]"));
}

TEST(ValidateModelDetails, CurrentMeshDegreesAreNotNegative) {
  PlanRequest r;
  r.current_setup.hardware = "tpu-v5p";
  r.current_setup.mesh = MultisliceMesh{};
  r.current_setup.mesh->dcn_data_parallelism = 2;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.current_setup.mesh->ici_fsdp_parallelism = -4;
  EXPECT_THAT(ValidatePlanRequest(r),
              Named("current_setup.mesh.ici_fsdp_parallelism"));
}

TEST(ValidateModelDetails, AHardwareProposalsLayoutIsChecked) {
  ReviewRequest r;
  Proposal p;
  p.hardware = HardwareProposal{};
  p.hardware->machine_type = "a3-megagpu-8g";
  p.hardware->count = 64;
  p.hardware->layout = DistributionProposal{};
  p.hardware->layout->strategy = Strategy::kHybrid;
  p.hardware->layout->tensor_parallelism = 8;
  p.hardware->layout->data_parallelism = 8;
  r.proposals.push_back(p);
  EXPECT_THAT(ValidateReviewRequest(r), IsEmpty());
  r.proposals[0].hardware->layout->pipeline_parallelism = -2;
  EXPECT_THAT(ValidateReviewRequest(r),
              Named("proposals[0].hardware.layout.pipeline_parallelism"));
}

// A data set gives something to plan (SPEC §5), but not the base model's
// size adapters need.
TEST(ValidateModelDetails, AdaptersNeedTheBaseModelsSize) {
  PlanRequest r;
  r.workload.dataset_tokens = 2e8;
  r.workload.training_method = TrainingMethod::kLora;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.training_method"));
  r.workload.training_method = TrainingMethod::kQlora;
  EXPECT_THAT(ValidatePlanRequest(r), Named("workload.training_method"));
  for (int given = 0; given < 3; ++given) {
    PlanRequest ok;
    ok.workload.training_method = TrainingMethod::kLora;
    if (given == 0) ok.workload.parameter_count = 8e9;
    if (given == 1) ok.workload.model_name = "llama-3.1-8b";
    if (given == 2) {
      ok.workload.transformer_shape.layers = 32;
      ok.workload.transformer_shape.hidden_size = 4096;
    }
    EXPECT_THAT(ValidatePlanRequest(ok), IsEmpty()) << given;
  }
  PlanRequest full;  // full training with no size is a different question
  full.workload.dataset_tokens = 2e8;
  full.workload.training_method = TrainingMethod::kFullFineTune;
  EXPECT_THAT(ValidatePlanRequest(full), IsEmpty());
}

// ADAM_BF16 is bf16 weights, gradients and moments: accepted with any
// 16-bit precision (unset is BF16_MIXED), named with FP32 or FP64.
TEST(ValidateModelDetails, Bf16AdamNeedsA16BitPrecision) {
  PlanRequest r;
  r.workload.parameter_count = 70e9;
  r.workload.optimizer = Optimizer::kAdamBf16;
  for (Precision p : {Precision::kUnspecified, Precision::kBf16Mixed,
                      Precision::kFp16Mixed, Precision::kFp8}) {
    r.workload.precision = p;
    EXPECT_THAT(ValidatePlanRequest(r), IsEmpty()) << static_cast<int>(p);
  }
  for (Precision p : {Precision::kFp32, Precision::kFp64Required}) {
    r.workload.precision = p;
    EXPECT_THAT(ValidatePlanRequest(r), Named("workload.optimizer"))
        << static_cast<int>(p);
  }
  r.workload.optimizer = Optimizer::kAdam;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
}

}  // namespace
}  // namespace accelplan::planner
