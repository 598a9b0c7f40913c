#include "planner/memory_model.h"

#include <cstring>

#include "gtest/gtest.h"

namespace accelplan::planner {
namespace {

constexpr double kGB = 1e9;

MemoryModelInput Full(double params, Optimizer optimizer,
                      Precision precision = Precision::kBf16Mixed) {
  MemoryModelInput in;
  in.params = params;
  in.method = TrainingMethod::kPreTraining;
  in.precision = precision;
  in.optimizer = optimizer;
  in.recompute = Recompute::kNone;
  return in;
}

double ModelStates(const MemoryEstimate& e) {
  return e.weights_bytes + e.gradients_bytes + e.optimizer_bytes;
}

// Transformer Math 101 (EleutherAI) and SPEC §4: mixed precision + Adam =
// 2 + 2 + 12 = 16 B/param, so 7B parameters need 112 GB of model states.
TEST(MemoryModelTest, MixedPrecisionAdamIs16BytesPerParamSo7BNeeds112GB) {
  const MemoryEstimate e =
      EstimateMemoryPerDevice(Full(7e9, Optimizer::kAdam), ShardingLayout{});
  EXPECT_DOUBLE_EQ(e.weights_bytes, 14 * kGB);
  EXPECT_DOUBLE_EQ(e.gradients_bytes, 14 * kGB);
  EXPECT_DOUBLE_EQ(e.optimizer_bytes, 84 * kGB);
  EXPECT_DOUBLE_EQ(ModelStates(e), 112 * kGB);
}

TEST(MemoryModelTest, BytesPerParamPerOptimizerAndPrecision) {
  // Transformer Math 101: fp32 master gradients add 2 (18 total); 8-bit
  // AdamW keeps 6 B of optimizer state incl. master; SGD+momentum 8.
  EXPECT_DOUBLE_EQ(
      BytesPerParam(Precision::kBf16Mixed, Optimizer::kAdamFp32Grads).total(),
      18);
  EXPECT_DOUBLE_EQ(
      BytesPerParam(Precision::kBf16Mixed, Optimizer::kAdam8bit).total(), 10);
  EXPECT_DOUBLE_EQ(
      BytesPerParam(Precision::kBf16Mixed, Optimizer::kSgdMomentum).total(),
      12);
  const double adafactor =
      BytesPerParam(Precision::kBf16Mixed, Optimizer::kAdafactor).total();
  EXPECT_GT(adafactor, 8);
  EXPECT_LT(adafactor, 9);
  // fp32 training has no master copy: 4 + 4 + 8 (m, v).
  const ModelStateBytes fp32 =
      BytesPerParam(Precision::kFp32, Optimizer::kAdam);
  EXPECT_DOUBLE_EQ(fp32.weights, 4);
  EXPECT_DOUBLE_EQ(fp32.total(), 16);
  // fp64: 8-byte words for weights, gradients, m and v.
  EXPECT_DOUBLE_EQ(
      BytesPerParam(Precision::kFp64Required, Optimizer::kAdam).total(), 32);
  // Unspecified precision and optimizer default to bf16 mixed + Adam.
  EXPECT_DOUBLE_EQ(
      BytesPerParam(Precision::kUnspecified, Optimizer::kUnspecified).total(),
      16);
}

// bf16 weights with optax Adam (moments in the parameters' dtype): 2 B
// each of weights, gradients, m and v, no fp32 master: half of mixed
// precision's 16 B/param. 70.6B over 32 chips: 17.65 GB, not 35.3 GB.
TEST(MemoryModelTest, Bf16AdamIsEightBytesPerParamWithNoMasterCopy) {
  const ModelStateBytes bf16 =
      BytesPerParam(Precision::kBf16Mixed, Optimizer::kAdamBf16);
  EXPECT_DOUBLE_EQ(bf16.weights, 2);
  EXPECT_DOUBLE_EQ(bf16.gradients, 2);
  EXPECT_DOUBLE_EQ(bf16.optimizer, 4);
  EXPECT_DOUBLE_EQ(bf16.total(), 8);
  EXPECT_DOUBLE_EQ(
      BytesPerParam(Precision::kUnspecified, Optimizer::kAdamBf16).total(), 8);
  ShardingLayout fsdp;
  fsdp.data = fsdp.fsdp = 32;
  fsdp.zero_stage = 3;
  MemoryModelInput in = Full(70.6e9, Optimizer::kAdamBf16);
  EXPECT_DOUBLE_EQ(ModelStates(EstimateMemoryPerDevice(in, fsdp)),
                   70.6e9 * 8 / 32);
  in.optimizer = Optimizer::kAdam;
  EXPECT_DOUBLE_EQ(ModelStates(EstimateMemoryPerDevice(in, fsdp)),
                   70.6e9 * 16 / 32);
}

// DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py
// estimate_zero2_model_states_mem_needs (after PR #5099):
//   gpu_mem = 2 * total_params + int(18 * total_params / total_gpus)
//   "18 = 2_grads_16bit + 4_grads_32bit + 4_params_32bit +
//    8_optimizer_states_32bit"  (planner-anchors.md §4)
TEST(MemoryModelTest, ReproducesDeepSpeedZero2Estimator) {
  const double p = 13e9;
  for (const int n : {1, 8, 64}) {
    ShardingLayout layout;
    layout.data = n;
    layout.fsdp = n;
    layout.zero_stage = 2;
    layout.keep_16bit_grad_copy = true;
    const MemoryEstimate e =
        EstimateMemoryPerDevice(Full(p, Optimizer::kAdamFp32Grads), layout);
    EXPECT_NEAR(ModelStates(e), 2 * p + 18 * p / n, 1) << "N=" << n;
  }
}

// DeepSpeed deepspeed/runtime/zero/stage3.py
// estimate_zero3_model_states_mem_needs, no offload:
//   gpu_mem = largest_layer_memory + int(18 * total_params / total_gpus),
//   largest_layer_memory = 4 * largest_layer_params (planner-anchors.md §4)
TEST(MemoryModelTest, ReproducesDeepSpeedZero3Estimator) {
  const double p = 13e9;
  const double largest = 128e3 * 5120;  // a 128K x 5120 embedding
  for (const int n : {2, 8, 64}) {
    ShardingLayout layout;
    layout.data = n;
    layout.fsdp = n;
    layout.zero_stage = 3;
    MemoryModelInput in = Full(p, Optimizer::kAdamFp32Grads);
    in.largest_layer_params = largest;
    const MemoryEstimate e = EstimateMemoryPerDevice(in, layout);
    EXPECT_NEAR(ModelStates(e), 4 * largest + 18 * p / n, 1) << "N=" << n;
  }
}

// DeepSpeed estimate_zero3_model_states_mem_needs with offload_optimizer=
// cpu and params on the GPU: gpu_mem = largest_layer_memory + 2 * P /
// total_gpus, cpu_mem = P * 16 * additional_buffer_factor (1.5) per node
// (https://deepspeed.readthedocs.io/en/latest/memory.html). The device keeps
// no optimizer state; the 16-bit gradients go down and the weights come
// back up once per step. Without the flag nothing moves to the host.
TEST(MemoryModelTest, OptimizerOffloadReproducesDeepSpeedZero3Estimator) {
  const double p = 70e9;
  const double largest = 128e3 * 8192;
  for (const int n : {1, 8}) {
    ShardingLayout layout;
    layout.data = n;
    layout.fsdp = n;
    layout.zero_stage = n == 1 ? 2 : 3;
    MemoryModelInput in = Full(p, Optimizer::kAdam);
    in.largest_layer_params = largest;
    const MemoryEstimate kept = EstimateMemoryPerDevice(in, layout);
    EXPECT_EQ(kept.host_optimizer_bytes, 0);
    EXPECT_EQ(kept.host_offload_bytes, 0);
    EXPECT_NEAR(kept.optimizer_bytes, 12 * p / n, 1);
    layout.optimizer_offload = true;
    const MemoryEstimate e = EstimateMemoryPerDevice(in, layout);
    const double gathered = n > 1 ? 4 * largest : 0;
    EXPECT_NEAR(ModelStates(e), gathered + 2 * p / n, 1) << "N=" << n;
    EXPECT_EQ(e.optimizer_bytes, 0);
    EXPECT_NEAR(e.host_optimizer_bytes * n, p * 16 * 1.5, 1) << "N=" << n;
    EXPECT_DOUBLE_EQ(e.host_offload_bytes, e.host_optimizer_bytes);
    EXPECT_NEAR(e.host_optimizer_params, p / n, 1);
    EXPECT_NEAR(e.host_transfer_bytes_per_step, 2 * p / n, 1);
    EXPECT_NEAR(e.host_upload_bytes_per_step, 2 * p / n, 1);
    EXPECT_LT(e.total_bytes, kept.total_bytes);
  }
}

// Megatron-LM megatron/training/theoretical_memory_usage.py: 18 B/param
// without the distributed optimizer, 6 + 12/DP with it (planner-anchors §7).
TEST(MemoryModelTest, ReproducesMegatronDistributedOptimizer) {
  const double p = 1e9;
  ShardingLayout plain;
  plain.data = 8;
  EXPECT_NEAR(ModelStates(EstimateMemoryPerDevice(
                  Full(p, Optimizer::kAdamFp32Grads), plain)) /
                  p,
              18, 1e-12);
  for (const int dp : {2, 8, 128}) {
    ShardingLayout layout;
    layout.data = dp;
    layout.fsdp = dp;
    layout.zero_stage = 1;
    const MemoryEstimate e =
        EstimateMemoryPerDevice(Full(p, Optimizer::kAdamFp32Grads), layout);
    EXPECT_NEAR(ModelStates(e) / p, 6.0 + 12.0 / dp, 1e-12) << "DP=" << dp;
  }
}

// Transformer Math 101 ZeRO stages: 1 shards optimizer, 2 adds gradients,
// 3 adds weights; TP and PP divide all model states.
TEST(MemoryModelTest, ZeroStagesShardProgressivelyAndModelParallelDivides) {
  const double p = 8e9;
  ShardingLayout layout;
  layout.data = 4;
  layout.fsdp = 4;
  const MemoryModelInput in = Full(p, Optimizer::kAdam);
  layout.zero_stage = 0;
  const MemoryEstimate z0 = EstimateMemoryPerDevice(in, layout);
  layout.zero_stage = 1;
  const MemoryEstimate z1 = EstimateMemoryPerDevice(in, layout);
  layout.zero_stage = 2;
  const MemoryEstimate z2 = EstimateMemoryPerDevice(in, layout);
  layout.zero_stage = 3;
  const MemoryEstimate z3 = EstimateMemoryPerDevice(in, layout);
  EXPECT_DOUBLE_EQ(z0.optimizer_bytes, 12 * p);
  EXPECT_DOUBLE_EQ(z1.optimizer_bytes, 3 * p);
  EXPECT_DOUBLE_EQ(z1.gradients_bytes, 2 * p);
  EXPECT_DOUBLE_EQ(z2.gradients_bytes, 0.5 * p);
  EXPECT_DOUBLE_EQ(z2.weights_bytes, 2 * p);
  EXPECT_DOUBLE_EQ(z3.weights_bytes, 0.5 * p);  // no shape: no gather term
  EXPECT_DOUBLE_EQ(ModelStates(z3), 4 * p);

  ShardingLayout mp;
  mp.tensor = 4;
  mp.pipeline = 2;
  EXPECT_DOUBLE_EQ(ModelStates(EstimateMemoryPerDevice(in, mp)), 2 * p);
}

// FSDP under a pipeline schedule keeps each stage gathered between
// micro-batches and its gradients unsharded until the last one (torchtitan
// parallelize_llama.py, reshard_after_forward off with PP): the stage's
// weights and gradients count whole, the optimizer state stays sharded.
// Without pipelining ZeRO-3 shards all three.
TEST(MemoryModelTest, FsdpUnderAPipelineKeepsTheStageWhole) {
  const double p = 8e9;
  const MemoryModelInput in = Full(p, Optimizer::kAdam);
  ShardingLayout l;
  l.data = 8;
  l.fsdp = 8;
  l.zero_stage = 3;
  l.pipeline = 4;
  const MemoryEstimate piped = EstimateMemoryPerDevice(in, l);
  EXPECT_DOUBLE_EQ(piped.weights_bytes, 2 * p / 4);
  EXPECT_DOUBLE_EQ(piped.gradients_bytes, 2 * p / 4);
  EXPECT_DOUBLE_EQ(piped.optimizer_bytes, 12 * p / 4 / 8);
  l.zero_stage = 1;
  EXPECT_DOUBLE_EQ(ModelStates(EstimateMemoryPerDevice(in, l)),
                   ModelStates(piped));
  l.zero_stage = 3;
  l.pipeline = 1;
  const MemoryEstimate flat = EstimateMemoryPerDevice(in, l);
  EXPECT_DOUBLE_EQ(flat.weights_bytes, 2 * p / 8);
  EXPECT_DOUBLE_EQ(flat.gradients_bytes, 2 * p / 8);
}

TransformerShape Shape7B() {
  TransformerShape s;  // LLaMA-2-7B-like
  s.layers = 32;
  s.hidden_size = 4096;
  s.attention_heads = 32;
  s.sequence_length = 4096;
  s.vocab_size = 32000;
  return s;
}

// Llama 3 8B's published shape
// (https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json:
// 32 layers, hidden 4096, 32 heads, 8 KV heads, intermediate 14336, SwiGLU,
// vocab 128256).
TransformerShape Llama3_8BShape() {
  TransformerShape s;
  s.layers = 32;
  s.hidden_size = 4096;
  s.attention_heads = 32;
  s.num_kv_heads = 8;
  s.ffn_hidden_size = 14336;
  s.gated_ffn = true;
  s.vocab_size = 128256;
  return s;
}

// Shape7B trained on 8 replicas with a global batch of 16: micro-batch 2,
// no accumulation. `in` points at `shape`, so the setup is not copied.
struct MicroBatchOfTwo {
  static constexpr double s = 4096, b = 2, h = 4096, a = 32, layers = 32,
                          v = 32000;
  static constexpr double sbh = s * b * h;
  static constexpr double logits = 4 * s * b * v;
  TransformerShape shape = Shape7B();
  MemoryModelInput in = Full(7e9, Optimizer::kAdam);
  ShardingLayout layout;
  MicroBatchOfTwo() {
    in.shape = &shape;
    in.global_batch_size = 16;
    layout.data = 8;
  }
  MicroBatchOfTwo(const MicroBatchOfTwo&) = delete;
  MicroBatchOfTwo& operator=(const MicroBatchOfTwo&) = delete;
};

// Korthikanti et al. (arXiv:2205.05198 §4.1) count the tensors a layer
// keeps; for a GPT-3 block without dropout (multi-head attention, F = 4h,
// plain FFN) and flash-style attention that is 32·sbh (his 34·sbh less the
// two dropout masks; STANDARD adds the 5as/h score tensor). Selective
// recompute keeps the matmul outputs only, 22·sbh: the layer input and the
// two output projections (6), q, k, v and the attention output (8), the
// FFN's up output (2·4). Full keeps 2·sbh plus the recomputed layer's
// working set; every level adds the 4·sbv logits/loss buffer (issue 14).
TEST(MemoryModelTest, ActivationsFollowKorthikantiPerRecomputeLevel) {
  using M = MicroBatchOfTwo;
  const double s = M::s, h = M::h, a = M::a, layers = M::layers;
  const double sbh = M::sbh, logits = M::logits;
  M setup;
  MemoryModelInput& in = setup.in;
  const ShardingLayout& layout = setup.layout;

  in.recompute = Recompute::kNone;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).activations_bytes,
                   layers * sbh * 32 + logits);
  in.attention = Attention::kStandard;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).activations_bytes,
                   layers * sbh * (32 + 5 * a * s / h) + logits);
  in.attention = Attention::kUnspecified;
  in.recompute = Recompute::kSelective;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).activations_bytes,
                   layers * sbh * 22 + logits);
  in.recompute = Recompute::kFull;
  const MemoryEstimate full = EstimateMemoryPerDevice(in, layout);
  EXPECT_DOUBLE_EQ(full.activations_bytes,
                   layers * 2 * sbh + 32 * sbh + logits);
  EXPECT_NE(std::strstr(full.activation_assumption, "full recompute"), nullptr);
}

// The same count for a Llama-3-style block: grouped-query attention
// shrinks the k and v heads (r = kv/heads), a gated FFN keeps the gate and
// up outputs (and, without recompute, the activation and the product), and
// a mixture of experts keeps every routed expert's FFN intermediates.
TEST(MemoryModelTest, ActivationsFollowGroupedQueryGatedAndRoutedShapes) {
  TransformerShape shape = Shape7B();
  shape.num_kv_heads = 8;  // r = 1/4
  shape.ffn_hidden_size = 14336;
  shape.gated_ffn = true;
  const double sbh = 4096.0 * 4096, f = 14336.0 / 4096, r = 0.25;
  auto per_layer = [&](Recompute level, double streams) {
    return ActivationBytesPerLayer(shape, 1, level, 1, true, false, streams);
  };
  EXPECT_DOUBLE_EQ(per_layer(Recompute::kNone, 1),
                   sbh * (8 + 4 + 4 * r + 8 * f));
  EXPECT_DOUBLE_EQ(per_layer(Recompute::kSelective, 1),
                   sbh * (6 + 4 + 4 * r + 4 * f));
  EXPECT_DOUBLE_EQ(per_layer(Recompute::kFull, 1), 2 * sbh);
  // Top-2 routing keeps twice the FFN intermediates, nothing else changes.
  EXPECT_DOUBLE_EQ(
      per_layer(Recompute::kSelective, 2) - per_layer(Recompute::kSelective, 1),
      sbh * 4 * f);
  EXPECT_DOUBLE_EQ(per_layer(Recompute::kFull, 2), 2 * sbh);
  // Both ways: full multi-head attention and a plain FFN keep more k/v and
  // fewer FFN tensors respectively.
  TransformerShape mha = shape;
  mha.num_kv_heads = 0;
  EXPECT_DOUBLE_EQ(
      ActivationBytesPerLayer(mha, 1, Recompute::kSelective, 1, true) -
          per_layer(Recompute::kSelective, 1),
      sbh * 4 * (1 - r));
  TransformerShape plain = shape;
  plain.gated_ffn = false;
  EXPECT_DOUBLE_EQ(
      per_layer(Recompute::kNone, 1) -
          ActivationBytesPerLayer(plain, 1, Recompute::kNone, 1, true),
      sbh * 4 * f);
  // Heads set apart from h / heads (head_dim): q and the attention output
  // are sb·heads·head_dim wide, k and v sb·kv_heads·head_dim.
  TransformerShape wide = shape;
  wide.head_dim = 256;  // 32 x 256 = 8192 = 2h
  EXPECT_DOUBLE_EQ(
      ActivationBytesPerLayer(wide, 1, Recompute::kSelective, 1, true) -
          per_layer(Recompute::kSelective, 1),
      sbh * (4 + 4 * r));
  // The job's routed experts reach the estimate through ffn_streams.
  MemoryModelInput in = Full(7e9, Optimizer::kAdam);
  in.shape = &shape;
  in.recompute = Recompute::kSelective;
  in.global_batch_size = 1;
  const double dense =
      EstimateMemoryPerDevice(in, ShardingLayout{}).activations_bytes;
  in.ffn_streams = 2;
  EXPECT_DOUBLE_EQ(
      EstimateMemoryPerDevice(in, ShardingLayout{}).activations_bytes - dense,
      32 * sbh * 4 * f);
}

// Offload (full recompute, checkpoints in host memory): the 2·sbh layer
// inputs leave device memory, which keeps the recomputed layer's working
// set and the logits; host memory holds the inputs, and each micro-batch's
// inputs cross the host link twice a step (out forward, back backward).
TEST(MemoryModelTest, OffloadMovesTheLayerInputsToHostMemory) {
  using M = MicroBatchOfTwo;
  const double layers = M::layers, sbh = M::sbh, logits = M::logits;
  M setup;
  MemoryModelInput& in = setup.in;
  ShardingLayout& layout = setup.layout;
  in.recompute = Recompute::kFull;
  const MemoryEstimate full = EstimateMemoryPerDevice(in, layout);
  in.recompute = Recompute::kOffload;
  const MemoryEstimate off = EstimateMemoryPerDevice(in, layout);
  EXPECT_DOUBLE_EQ(off.activations_bytes, 32 * sbh + logits);
  EXPECT_DOUBLE_EQ(full.activations_bytes - off.activations_bytes,
                   layers * 2 * sbh);
  EXPECT_DOUBLE_EQ(off.host_offload_bytes, layers * 2 * sbh);
  EXPECT_DOUBLE_EQ(off.host_transfer_bytes_per_step, 2 * layers * 2 * sbh);
  EXPECT_DOUBLE_EQ(off.total_bytes + off.host_offload_bytes, full.total_bytes);
  EXPECT_NE(std::strstr(off.activation_assumption, "host memory"), nullptr);
  // Every other level keeps its activations on the device.
  EXPECT_EQ(full.host_offload_bytes, 0);
  EXPECT_EQ(full.host_transfer_bytes_per_step, 0);
  // Gradient accumulation: one micro-batch's inputs on the host at a time,
  // every micro-batch's through the link.
  layout.micro_batch = 1;
  layout.microbatches = 2;
  const MemoryEstimate accumulated = EstimateMemoryPerDevice(in, layout);
  EXPECT_DOUBLE_EQ(accumulated.host_offload_bytes, layers * sbh);
  EXPECT_DOUBLE_EQ(accumulated.host_transfer_bytes_per_step,
                   2 * 2 * layers * sbh);
  // Tensor parallelism splits the inputs (sequence parallel) like the
  // device-resident activations.
  layout.tensor = 4;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).host_offload_bytes,
                   layers * sbh / 4);
}

TEST(MemoryModelTest, ActivationsSplitByTensorAndPipeline) {
  const TransformerShape shape = Shape7B();
  const double sbh = 4096.0 * 1 * 4096;
  const double logits = 4 * 4096.0 * 1 * 32000;
  MemoryModelInput in = Full(7e9, Optimizer::kAdam);
  in.shape = &shape;
  in.recompute = Recompute::kSelective;
  in.global_batch_size = 4;
  ShardingLayout layout;
  layout.data = 4;
  layout.tensor = 4;
  layout.pipeline = 2;
  // Megatron with sequence parallelism: 22·sbh/t per layer (selective),
  // 16 layers/stage, and the vocab-parallel logits split over t.
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).activations_bytes,
                   16 * 22 * sbh / 4 + logits / 4);
  // Without SP (Transformer Math 101's sbh(10 + 24/t) pattern): the layer
  // input and output projections stay whole, the head and FFN tensors
  // split.
  layout.sequence_parallel = false;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).activations_bytes,
                   16 * sbh * (6 + 16.0 / 4) + logits / 4);
}

TEST(MemoryModelTest, MicroBatchIsAtLeastOneAndFp32DoublesActivations) {
  const TransformerShape shape = Shape7B();
  MemoryModelInput in = Full(7e9, Optimizer::kAdam);
  in.shape = &shape;
  in.recompute = Recompute::kFull;
  in.global_batch_size = 4;
  ShardingLayout layout;
  layout.data = 64;  // fewer sequences than replicas: still one per device
  const double sbh = 4096.0 * 4096;
  const double one_seq = 32 * 2 * sbh + 32 * sbh + 4 * 4096.0 * 32000;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).activations_bytes,
                   one_seq);
  in.precision = Precision::kFp32;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).activations_bytes,
                   2 * one_seq);
}

TEST(MemoryModelTest, WithoutShapeActivationsAreAStatedShareOfModelStates) {
  const MemoryEstimate e =
      EstimateMemoryPerDevice(Full(1e9, Optimizer::kAdam), ShardingLayout{});
  EXPECT_DOUBLE_EQ(e.activations_bytes, 0.2 * 16e9);
  EXPECT_NE(std::strstr(e.activation_assumption, "20%"), nullptr);
  EXPECT_DOUBLE_EQ(e.total_bytes, 1.2 * 16e9);
}

TEST(MemoryModelTest, LoraKeepsFrozenWeightsPlusSmallAdapterState) {
  const TransformerShape shape = Shape7B();
  MemoryModelInput in = Full(7e9, Optimizer::kAdam);
  in.method = TrainingMethod::kLora;
  in.shape = &shape;
  in.lora_rank = 8;
  const double adapters = 2 * 8 * 4096.0 * 32 * 4;  // 4 attention projections
  const MemoryEstimate e = EstimateMemoryPerDevice(in, ShardingLayout{});
  EXPECT_DOUBLE_EQ(e.weights_bytes, 2 * 7e9 + 2 * adapters);
  EXPECT_DOUBLE_EQ(e.gradients_bytes, 2 * adapters);
  EXPECT_DOUBLE_EQ(e.optimizer_bytes, 12 * adapters);
  EXPECT_NE(std::strstr(e.method_assumption, "LoRA"), nullptr);
  // Far below full fine-tuning's 16 B/param.
  EXPECT_LT(ModelStates(e), 2.2 * 7e9);

  // No shape: adapters are 0.5% of the parameters.
  in.shape = nullptr;
  const MemoryEstimate ns = EstimateMemoryPerDevice(in, ShardingLayout{});
  EXPECT_DOUBLE_EQ(ns.optimizer_bytes, 12 * 0.005 * 7e9);
}

TEST(MemoryModelTest, QloraBaseWeightsAreFourBitPlusQuantConstants) {
  MemoryModelInput in = Full(70e9, Optimizer::kAdam);
  in.method = TrainingMethod::kQlora;
  const MemoryEstimate e = EstimateMemoryPerDevice(in, ShardingLayout{});
  const double adapters = 0.005 * 70e9;
  EXPECT_DOUBLE_EQ(e.weights_bytes, 0.5625 * 70e9 + 2 * adapters);
  EXPECT_NE(std::strstr(e.method_assumption, "QLoRA"), nullptr);
  // A 70B QLoRA base fits an 80 GB GPU where LoRA's bf16 base does not.
  EXPECT_LT(e.weights_bytes, 45 * kGB);
  in.method = TrainingMethod::kLora;
  EXPECT_GT(EstimateMemoryPerDevice(in, ShardingLayout{}).weights_bytes,
            140 * kGB);
}

// QLoRA quantizes the layers' linear weights only: transformers'
// bitsandbytes integration replaces nn.Linear modules and keeps lm_head
// (src/transformers/integrations/bitsandbytes.py at f6cf875), and the
// embedding is no Linear. Llama 3 8B's untied 128k-vocabulary embedding
// and head (2 x 128256 x 4096 = 1.05e9 of its 8.03e9 parameters,
// https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json)
// stay 16-bit: 1.5 GB more than at 4 bits. A tied embedding counts once,
// and a mixture's other experts are not taken for embeddings.
TEST(MemoryModelTest, QloraKeepsTheEmbeddingAndHeadSixteenBit) {
  TransformerShape shape = Llama3_8BShape();
  shape.sequence_length = 2048;
  const double embeddings = 2 * 128256.0 * 4096;
  MemoryModelInput in = Full(8.03e9, Optimizer::kAdam);
  in.method = TrainingMethod::kQlora;
  in.shape = &shape;
  const double adapters = 2.0 * 16 * 4096 * 32 * 4;  // rank 16, 4 matrices
  const MemoryEstimate e = EstimateMemoryPerDevice(in, ShardingLayout{});
  EXPECT_NEAR(e.weights_bytes,
              0.5625 * (8.03e9 - embeddings) + 2 * embeddings + 2 * adapters,
              0.01 * kGB);
  EXPECT_NE(std::strstr(e.method_assumption, "lm_head"), nullptr);

  const double blocks = TransformerParamsFromShape(shape) - 128256.0 * 4096;
  EXPECT_NEAR(QloraUnquantizedParams(shape, blocks + 128256.0 * 4096),
              128256.0 * 4096, 1e6);  // tied: one table
  EXPECT_NEAR(QloraUnquantizedParams(shape, 4 * blocks), embeddings, 1e6);
  EXPECT_DOUBLE_EQ(QloraUnquantizedParams(shape, 0.5 * blocks), 0);

  // LoRA's frozen base is 16-bit throughout: nothing changes there.
  in.method = TrainingMethod::kLora;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, ShardingLayout{}).weights_bytes,
                   2 * 8.03e9 + 2 * adapters);
}

// A CNN's activations grow with its micro-batch, at ResNet-50's measured
// bytes per forward FLOP: 51.0 MiB per 224x224 image under AMP (milabench
// config/scaling.yaml at 1a5886a: 14,854.75 MiB at batch 256, 27,900.75 at
// 512), 82.8 MiB in fp32 (MONeT README at 98a5c7d: 15.06 GB at batch 184).
// NVIDIA's ResNet-50 recipe runs 256 images per 16 GB V100 under AMP and
// 112 in fp32 (https://github.com/NVIDIA/DeepLearningExamples/blob/
// 0fadac23d764429ed0da54dc8c5a31677dc923d5/PyTorch/Classification/ConvNets/
// configs.yml): 256 fit in 14.4 GiB
// usable under AMP and not in fp32, 112 in fp32. Before, activations were
// 20% of the model's states whatever the batch (0.08 GB for ResNet-50).
TEST(MemoryModelTest, CnnActivationsFollowTheMicroBatch) {
  MemoryModelInput in =
      Full(25.56e6, Optimizer::kSgdMomentum, Precision::kFp16Mixed);
  in.cnn_forward_flops = 8.18e9;
  const double mib = 1048576;
  const auto at = [&](int64_t batch, int ranks) {
    in.global_batch_size = batch;
    ShardingLayout layout;
    layout.data = ranks;
    return EstimateMemoryPerDevice(in, layout);
  };
  EXPECT_NEAR(at(256, 1).activations_bytes, 256 * 50.96 * mib, 1e6);
  EXPECT_NEAR(at(2048, 8).activations_bytes, 256 * 50.96 * mib, 1e6);
  EXPECT_NE(std::strstr(at(256, 1).activation_assumption, "ResNet-50"),
            nullptr);
  const double usable_16gb = 0.9 * 16 * 1024 * mib;
  EXPECT_LT(at(256, 1).total_bytes, usable_16gb);
  in.precision = Precision::kFp32;
  EXPECT_NEAR(at(184, 1).activations_bytes, 184 * 82.75 * mib, 1e6);
  EXPECT_GT(at(256, 1).total_bytes, usable_16gb);
  EXPECT_LT(at(112, 1).total_bytes, usable_16gb);
  // Twice the forward pass, twice the activations; none without one.
  in.cnn_forward_flops = 2 * 8.18e9;
  EXPECT_NEAR(at(112, 1).activations_bytes, 2 * 112 * 82.75 * mib, 1e6);
  in.cnn_forward_flops = 0;
  EXPECT_DOUBLE_EQ(
      at(112, 1).activations_bytes,
      0.2 * (at(112, 1).weights_bytes + at(112, 1).gradients_bytes +
             at(112, 1).optimizer_bytes));
}

TEST(MemoryModelTest, EmbeddingTablesShardLikeWeights) {
  MemoryModelInput in = Full(1e8, Optimizer::kAdam);
  in.embedding_bytes = 64 * kGB;
  const double with_moments = 3 * 64 * kGB;  // Adam's two moments per element
  ShardingLayout layout;
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).embeddings_bytes,
                   with_moments);
  layout.data = 8;
  layout.fsdp = 8;
  layout.zero_stage = 2;  // weights are not sharded below stage 3
  EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, layout).embeddings_bytes,
                   with_moments);
  layout.zero_stage = 3;
  layout.tensor = 2;
  const MemoryEstimate e = EstimateMemoryPerDevice(in, layout);
  EXPECT_DOUBLE_EQ(e.embeddings_bytes, with_moments / 16);
  EXPECT_DOUBLE_EQ(e.total_bytes,
                   ModelStates(e) + e.activations_bytes + e.embeddings_bytes);
}

// A table's optimizer state, as TorchRec's planner sizes it: Adam keeps two
// moments per element, SGD with momentum one, 8-bit Adam two bytes per fp32
// element; row-wise Adagrad (the unstated optimizer) and Adafactor's
// factored moments nothing that counts; LoRA trains no table.
TEST(MemoryModelTest, EmbeddingTablesCarryTheirOptimizerState) {
  const struct {
    Optimizer optimizer;
    double tables;
  } cases[] = {{Optimizer::kAdam, 3},       {Optimizer::kAdamFp32Grads, 3},
               {Optimizer::kAdamBf16, 3},   {Optimizer::kSgdMomentum, 2},
               {Optimizer::kAdam8bit, 1.5}, {Optimizer::kAdafactor, 1},
               {Optimizer::kUnspecified, 1}};
  for (const auto& c : cases) {
    MemoryModelInput in = Full(1e8, c.optimizer);
    in.embedding_bytes = 10 * kGB;
    EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, {}).embeddings_bytes,
                     c.tables * 10 * kGB)
        << static_cast<int>(c.optimizer);
    in.method = TrainingMethod::kLora;
    EXPECT_DOUBLE_EQ(EstimateMemoryPerDevice(in, {}).embeddings_bytes, 10 * kGB)
        << static_cast<int>(c.optimizer);
  }
}

TEST(MemoryModelTest, ParamsFromShapeMatchTheSevenBillionClass) {
  const TransformerShape shape = Shape7B();
  // 32·(4h² + 8h²) + 32000·h = 6.57e9 (LLaMA-2-7B's SwiGLU MLP gives 6.7e9).
  EXPECT_NEAR(TransformerParamsFromShape(shape), 6.57e9, 0.01e9);
  EXPECT_DOUBLE_EQ(LargestLayerParamsFromShape(shape),
                   32000.0 * 4096);  // embedding
  EXPECT_DOUBLE_EQ(TransformerParamsFromShape(TransformerShape{}), 0);
}

// Grouped-query attention and a gated FFN, on Llama 3 8B's published shape
// (https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json:
// 32 layers, hidden 4096, 32 heads, 8 KV heads, intermediate 14336, SwiGLU,
// vocab 128256). Counted with one (tied) embedding, 8.03e9 - 0.525e9 output
// head = 7.50e9; without GQA and gating the count would be 10.5e9.
TEST(TransformerParamsFromShape, CountsGroupedQueryAttentionAndGatedFfn) {
  TransformerShape shape = Llama3_8BShape();
  EXPECT_NEAR(TransformerParamsFromShape(shape), 7.50e9, 0.02e9);
  shape.num_kv_heads = 0;  // MHA: K and V are h x h again
  EXPECT_NEAR(TransformerParamsFromShape(shape),
              7.50e9 + 32 * 2 * 4096.0 * 3072, 0.02e9);
  shape.num_kv_heads = 8;
  shape.gated_ffn = false;  // two FFN matrices
  EXPECT_NEAR(TransformerParamsFromShape(shape), 7.50e9 - 32 * 4096.0 * 14336,
              0.02e9);
}

}  // namespace
}  // namespace accelplan::planner
