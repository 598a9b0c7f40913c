#include "planner/memory_model.h"

#include <algorithm>
#include <cmath>

#include "planner/defaults.h"
#include "planner/optimizer_offload.h"

namespace accelplan::planner {
namespace {

// Rank used when a LoRA/QLoRA request gives none (a common PEFT setting).
constexpr double kDefaultLoraRank = 16;
// Adapted matrices per layer: the four attention projections q, k, v, o.
constexpr double kLoraAdaptedMatricesPerLayer = 4;
// Adapter size as a fraction of the base model when there is no shape.
constexpr double kLoraAdapterFractionWithoutShape = 0.005;
// NF4 base weights: 4 bits, plus one fp32 absmax per 64-weight block
// (32/64 bits = 0.0625 B/param; double quantization would cut it to ~0.016).
constexpr double kQloraWeightBytes = 0.5;
constexpr double kQloraQuantConstantBytes = 0.0625;
// Activations as a share of the model states when the shape is unknown.
constexpr double kActivationShareWithoutShape = 0.20;
// ResNet-50's measured activations per example (CnnActivationBytesPerExample)
// and its forward pass at 224x224 (two FLOPs per multiply-add).
constexpr double kResnet50MixedActivationBytes = 50.96 * 1048576;
constexpr double kResnet50Fp32ActivationBytes = 82.75 * 1048576;
constexpr double kResnet50ForwardFlops = 2 * kResNet50ForwardMultiplyAdds;
// Adafactor's factored second moments (one row + one column vector per
// matrix) are tiny next to the weights; a flat allowance, not a derivation.
constexpr double kAdafactorFactoredBytes = 0.05;

// String pieces the activation assumptions below share (literal
// concatenation keeps each assumption one static string).
#define ACT_SCHEDULE                                                        \
  "micro-batch as scheduled (the whole per-replica batch without "          \
  "accumulation), split by tensor parallelism, layers / pipeline stages x " \
  "the micro-batches in flight on the first stage (1F1B min(m, p), "        \
  "interleaved p + (p-1)/v)"
#define ACT_NONE_TERMS                                                      \
  "(8 + 4 + 4r)·sbh + 4g·sbF bytes per layer (r = kv/heads, g = 2 for a " \
  "gated FFN, F x routed experts for a mixture; Korthikanti et al. "        \
  "arXiv:2205.05198 per-tensor count for a pre-norm, no-dropout block; "    \
  "+5as²b attention scores only with attention STANDARD, flash-style "     \
  "kernels keep none) + 4·sbv logits/loss, 16-bit (x2 fp32, x4 fp64), "

constexpr const char* kActNone =
    "activations: no recompute, " ACT_NONE_TERMS ACT_SCHEDULE;
constexpr const char* kActUnstated =
    "activations: recompute not stated, none assumed: " ACT_NONE_TERMS
        ACT_SCHEDULE;
constexpr const char* kActSelective =
    "activations: selective recompute keeps the matmul outputs and "
    "recomputes the element-wise ops (JAX checkpoint_dots_with_no_batch_dims, "
    "MaxText remat minimal; torchtitan's op-level SAC recomputes every "
    "second matmul, its measured peaks do not show it): "
    "(6 + 4 + 4r)·sbh + 2g·sbF bytes per layer (r = "
    "kv/heads, g = 2 for a gated FFN, F x routed experts for a mixture) + "
    "4·sbv logits/loss, 16-bit (x2 fp32, x4 fp64), " ACT_SCHEDULE;
constexpr const char* kActFull =
    "activations: full recompute, each layer's input kept (2·sbh bytes "
    "per layer) + the recomputed layer's working set (its no-recompute "
    "tensors) + 4·sbv logits/loss (Korthikanti et al. arXiv:2205.05198), "
    "16-bit (x2 fp32, x4 fp64), " ACT_SCHEDULE;
constexpr const char* kActOffload =
    "activations: full recompute with each layer's input (2·sbh bytes per "
    "layer) offloaded to host memory and brought back for the backward "
    "pass (JAX save_and_offload_only_these_names to pinned_host; MaxText "
    "decoder_layer_input: offload); device memory keeps the recomputed "
    "layer's working set (its no-recompute tensors) + 4·sbv logits/loss "
    "(Korthikanti et al. arXiv:2205.05198), 16-bit (x2 fp32, x4 fp64), "
    "micro-batch as scheduled (the whole per-replica batch without "
    "accumulation), split by tensor parallelism; host memory holds the "
    "offloaded inputs of layers / pipeline stages x the micro-batches in "
    "flight on the first stage (1F1B min(m, p), interleaved p + (p-1)/v)";
#undef ACT_SCHEDULE
#undef ACT_NONE_TERMS

constexpr const char* kActCnn =
    "activations: a convolutional network's at ResNet-50's measured bytes "
    "per forward FLOP (51.0 MiB per 224x224 image under AMP, milabench; "
    "82.8 MiB in fp32, MONeT; fp64 twice that) x the micro-batch as "
    "scheduled; depthwise networks (MobileNet, EfficientNet) keep several "
    "times more per FLOP and wide dense ones (VGG, ConvNeXt) less; "
    "recompute is not modelled for them";
constexpr const char* kActNoShape =
    "activations: no transformer shape given, assumed 20% of the per-device "
    "weights + gradients + optimizer state";

constexpr const char* kMethodFull =
    "full training: weights, gradients and optimizer state for every "
    "parameter";
constexpr const char* kMethodLoraShape =
    "LoRA: frozen base weights at 2 B/param (4 fp32, 8 fp64), adapters of "
    "rank r (16 if not given) on the 4 attention projections of every layer "
    "(8·r·h·L params) with full gradients and optimizer state";
constexpr const char* kMethodLoraNoShape =
    "LoRA: frozen base weights at 2 B/param (4 fp32, 8 fp64), adapters "
    "assumed 0.5% of the base parameters (no shape given) with full "
    "gradients and optimizer state";
constexpr const char* kMethodQloraShape =
    "QLoRA: 4-bit NF4 base weights at 0.5 B/param + 0.0625 B/param "
    "quantization constants (block 64, fp32 absmax, no double quantization) "
    "for the layers' linear weights; the embedding and output head (the "
    "parameters beyond the layers, at most 2 x vocab x hidden) stay in the "
    "model's dtype (2 B/param; 4 fp32) "
    "(transformers' bitsandbytes integration replaces only nn.Linear and "
    "keeps lm_head: src/transformers/integrations/bitsandbytes.py at "
    "f6cf875); adapters of rank r (16 if not given) on the 4 attention "
    "projections of every layer (8·r·h·L params) with full gradients and "
    "optimizer state";
constexpr const char* kMethodQloraNoShape =
    "QLoRA: 4-bit NF4 base weights at 0.5 B/param + 0.0625 B/param "
    "quantization constants (block 64, fp32 absmax, no double quantization), "
    "adapters assumed 0.5% of the base parameters (no shape given) with full "
    "gradients and optimizer state";

bool HasShape(const TransformerShape* shape) {
  return shape != nullptr && shape->layers > 0 && shape->hidden_size > 0;
}

double FfnSize(const TransformerShape& shape) {
  return shape.ffn_hidden_size > 0 ? shape.ffn_hidden_size
                                   : 4.0 * shape.hidden_size;
}

double ActivationWordScale(Precision precision) {
  switch (precision) {
    case Precision::kFp32:
      return 2.0;
    case Precision::kFp64Required:
      return 4.0;
    default:
      return 1.0;  // Korthikanti et al. count 16-bit activations
  }
}

double FrozenWeightBytes(Precision precision) {
  switch (precision) {
    case Precision::kFp32:
      return 4.0;
    case Precision::kFp64Required:
      return 8.0;
    default:
      return 2.0;
  }
}

int AtLeastOne(int v) { return v < 1 ? 1 : v; }

}  // namespace

ModelStateBytes BytesPerParam(Precision precision, Optimizer optimizer) {
  // bf16 weights, gradients, m and v whatever the compute precision
  // (validation refuses it with fp32 or fp64 training).
  if (optimizer == Optimizer::kAdamBf16) return {2, 2, 2 + 2};
  if (precision == Precision::kFp64Required) {
    switch (optimizer) {
      case Optimizer::kSgdMomentum:
        return {8, 8, 8};
      case Optimizer::kAdam8bit:
        return {8, 8, 2};
      case Optimizer::kAdafactor:
        return {8, 8, 2 * kAdafactorFactoredBytes};
      default:
        return {8, 8, 16};  // m and v in fp64
    }
  }
  if (precision == Precision::kFp32) {
    // No master copy: the weights already are fp32.
    switch (optimizer) {
      case Optimizer::kSgdMomentum:
        return {4, 4, 4};
      case Optimizer::kAdam8bit:
        return {4, 4, 2};
      case Optimizer::kAdafactor:
        return {4, 4, kAdafactorFactoredBytes};
      default:
        return {4, 4, 8};
    }
  }
  // 16-bit mixed precision (bf16, fp16, fp8 compute keeps bf16 weights).
  switch (optimizer) {
    case Optimizer::kAdamFp32Grads:
      return {2, 4, 12};
    case Optimizer::kAdam8bit:
      return {2, 2, 4 + 2};
    case Optimizer::kSgdMomentum:
      return {2, 2, 4 + 4};
    case Optimizer::kAdafactor:
      return {2, 2, 4 + kAdafactorFactoredBytes};
    default:
      return {2, 2, 12};  // fp32 master + m + v
  }
}

double GradientWireBytesPerParam(Precision precision) {
  switch (precision) {
    case Precision::kFp32:
      return 4;
    case Precision::kFp64Required:
      return 8;
    default:
      return 2;
  }
}

double AttentionWidth(const TransformerShape& shape) {
  return shape.head_dim > 0 && shape.attention_heads > 0
             ? static_cast<double>(shape.head_dim) * shape.attention_heads
             : shape.hidden_size;
}

double KeyValueWidth(const TransformerShape& shape) {
  if (shape.attention_heads <= 0 || shape.num_kv_heads <= 0) {
    return AttentionWidth(shape);
  }
  return AttentionWidth(shape) * shape.num_kv_heads / shape.attention_heads;
}

double TransformerParamsFromShape(const TransformerShape& shape) {
  if (shape.layers <= 0 || shape.hidden_size <= 0) return 0;
  const double h = shape.hidden_size;
  // Query and output projections are h x (heads·head_dim); with
  // grouped-query attention the key and value projections shrink to
  // h x (kv_heads·head_dim).
  const double attention =
      2.0 * h * AttentionWidth(shape) + 2.0 * h * KeyValueWidth(shape);
  // A gated FFN (SwiGLU) has gate, up and down matrices; a plain one two.
  const double ffn = (shape.gated_ffn ? 3.0 : 2.0) * h * FfnSize(shape);
  // One vocab x h embedding (tied with the output head); norms and biases
  // are negligible.
  return shape.layers * (attention + ffn) +
         static_cast<double>(shape.vocab_size) * h;
}

double QloraUnquantizedParams(const TransformerShape& shape, double params) {
  if (shape.layers <= 0 || shape.hidden_size <= 0) return 0;
  // The layers' linear weights: the shape's count less its one embedding.
  const double table =
      static_cast<double>(shape.vocab_size) * shape.hidden_size;
  const double blocks = TransformerParamsFromShape(shape) - table;
  return std::clamp(params - blocks, 0.0, 2.0 * table);
}

double CnnActivationBytesPerExample(double forward_flops, Precision precision) {
  if (!(forward_flops > 0)) return 0;
  const double per_image =
      precision == Precision::kFp32           ? kResnet50Fp32ActivationBytes
      : precision == Precision::kFp64Required ? 2 * kResnet50Fp32ActivationBytes
                                              : kResnet50MixedActivationBytes;
  return per_image * forward_flops / kResnet50ForwardFlops;
}

double LargestLayerParamsFromShape(const TransformerShape& shape) {
  if (shape.layers <= 0 || shape.hidden_size <= 0) return 0;
  const double h = shape.hidden_size;
  return std::max(static_cast<double>(shape.vocab_size) * h,
                  h * FfnSize(shape));
}

namespace {

// The 16-bit tensors one pre-norm decoder layer keeps for its backward
// pass, for one micro-batch, in bytes: `replicated` is what tensor
// parallelism without sequence parallelism leaves whole on every rank,
// `split` what it divides by t (Korthikanti et al. §4.1's per-tensor
// count, applied to the block as written today: RMSNorm, flash-style
// attention, grouped-query k/v, a gated or plain FFN, no dropout).
struct LayerTensors {
  double replicated = 0;
  double split = 0;
};

LayerTensors KeptTensors(const TransformerShape& shape, double micro_batch,
                         Recompute recompute, bool score_tensor,
                         double ffn_streams) {
  const double s = shape.sequence_length > 0 ? shape.sequence_length : 1;
  const double h = shape.hidden_size;
  const double a = shape.attention_heads > 0 ? shape.attention_heads : 1;
  const double sbh = s * micro_batch * h;
  const double sb = s * micro_batch;
  // FFN intermediates per token: every routed expert's for a mixture.
  const double sbf = sb * FfnSize(shape) * std::max(1.0, ffn_streams);
  // q, the k and v heads, and the attention output (flash keeps only that
  // and the per-row log-sum-exp): 2·sb·(2·w_q + 2·w_kv) bytes, which is
  // sbh·(4 + 4r) when a head is h / heads wide.
  const double attention =
      2 * sb * (2 * AttentionWidth(shape) + 2 * KeyValueWidth(shape));
  switch (recompute) {
    case Recompute::kOffload:
      return {};  // the layer inputs live in host memory
    case Recompute::kFull:
      return {2 * sbh, 0};  // the layer's input, nothing else
    case Recompute::kSelective:
      // Matmul outputs kept, element-wise ops (norms, activation, gating)
      // recomputed (JAX checkpoint_dots_with_no_batch_dims, MaxText remat
      // "minimal"): the layer input, the attention and FFN output
      // projections, q/k/v/attention, and the FFN's up (and gate) output.
      return {6 * sbh, attention + (shape.gated_ffn ? 4 : 2) * sbf};
    default: {
      // Both norms' inputs and outputs; the FFN's up (and gate) outputs,
      // the activation, and (gated) the product feeding the down matmul.
      const double scores = score_tensor ? 5.0 * a * s * s * micro_batch : 0;
      return {8 * sbh, attention + (shape.gated_ffn ? 8 : 4) * sbf + scores};
    }
  }
}

}  // namespace

double ActivationBytesPerLayer(const TransformerShape& shape,
                               double micro_batch, Recompute recompute,
                               int tensor, bool sequence_parallel,
                               bool score_tensor, double ffn_streams) {
  const double t = AtLeastOne(tensor);
  const LayerTensors kept =
      KeptTensors(shape, micro_batch, recompute, score_tensor, ffn_streams);
  return sequence_parallel ? (kept.replicated + kept.split) / t
                           : kept.replicated + kept.split / t;
}

LayoutDegrees DegreesOf(const ShardingLayout& layout, int devices) {
  LayoutDegrees g;
  g.tensor = AtLeastOne(layout.tensor);
  g.pipeline = AtLeastOne(layout.pipeline);
  g.fsdp = layout.zero_stage >= 3 ? AtLeastOne(layout.fsdp) : 1;
  g.data = AtLeastOne(devices / (g.fsdp * g.tensor * g.pipeline));
  return g;
}

double OffloadedBytesPerLayer(const TransformerShape& shape, double micro_batch,
                              int tensor, bool sequence_parallel) {
  return ActivationBytesPerLayer(shape, micro_batch, Recompute::kFull, tensor,
                                 sequence_parallel);
}

double MicrobatchesInFlight(int stages, int virtual_stages,
                            double microbatches) {
  if (stages <= 1) return 1;
  const double p = stages;
  if (virtual_stages > 1) return p + (p - 1) / virtual_stages;
  return std::clamp(microbatches, 1.0, p);
}

double ActivationExtraBytes(const TransformerShape& shape, double micro_batch,
                            Recompute recompute, int tensor,
                            bool sequence_parallel, bool score_tensor,
                            double ffn_streams) {
  const double s = shape.sequence_length > 0 ? shape.sequence_length : 1;
  const double logits =
      shape.vocab_size > 0
          ? 4.0 * s * micro_batch * shape.vocab_size / AtLeastOne(tensor)
          : 0.0;
  if (recompute != Recompute::kFull && recompute != Recompute::kOffload) {
    return logits;
  }
  return logits + ActivationBytesPerLayer(shape, micro_batch, Recompute::kNone,
                                          tensor, sequence_parallel,
                                          score_tensor, ffn_streams);
}

PreparedMemoryModel PrepareMemoryModel(const MemoryModelInput& input) {
  PreparedMemoryModel m;
  m.has_shape = HasShape(input.shape);
  if (m.has_shape) m.shape = *input.shape;
  const ModelStateBytes bpp = BytesPerParam(input.precision, input.optimizer);
  const double params = std::max(0.0, input.params);
  m.gathered_weight_bytes_per_param = bpp.weights;
  m.gathered_grad_bytes_per_param = GradientWireBytesPerParam(input.precision);

  const bool lora = input.method == TrainingMethod::kLora;
  const bool qlora = input.method == TrainingMethod::kQlora;
  if (lora || qlora) {
    const double rank =
        input.lora_rank > 0 ? input.lora_rank : kDefaultLoraRank;
    const double adapters =
        m.has_shape ? 2.0 * rank * input.shape->hidden_size *
                          input.shape->layers * kLoraAdaptedMatricesPerLayer
                    : kLoraAdapterFractionWithoutShape * params;
    const double base_bytes = qlora
                                  ? kQloraWeightBytes + kQloraQuantConstantBytes
                                  : FrozenWeightBytes(input.precision);
    // QLoRA quantizes the blocks' linear layers only: the embedding and
    // output head stay in the model's dtype (QloraUnquantizedParams).
    const double unquantized =
        qlora && m.has_shape ? QloraUnquantizedParams(*input.shape, params) : 0;
    m.weight_bytes = base_bytes * (params - unquantized) +
                     FrozenWeightBytes(input.precision) * unquantized +
                     bpp.weights * adapters;
    m.gradient_bytes = bpp.gradients * adapters;
    m.optimizer_bytes = bpp.optimizer * adapters;
    m.trained_params = adapters;
    m.gathered_weight_bytes_per_param = base_bytes;
    m.gathered_grad_bytes_per_param = 0;  // the base is frozen
    m.method_assumption =
        qlora ? (m.has_shape ? kMethodQloraShape : kMethodQloraNoShape)
              : (m.has_shape ? kMethodLoraShape : kMethodLoraNoShape);
  } else {
    m.weight_bytes = bpp.weights * params;
    m.gradient_bytes = bpp.gradients * params;
    m.optimizer_bytes = bpp.optimizer * params;
    m.trained_params = params;
    if (bpp.gradients > 2) m.grad_16bit_copy_bytes = 2.0 * params;
    m.method_assumption = kMethodFull;
  }
  m.largest_layer_params = input.largest_layer_params;
  if (m.largest_layer_params <= 0 && m.has_shape) {
    m.largest_layer_params = LargestLayerParamsFromShape(*input.shape);
  }
  m.embedding_bytes =
      std::max(0.0, input.embedding_bytes) *
      (1 + TableOptimizerBytesPerTableByte(input.method, input.optimizer));
  m.activation_word_scale = ActivationWordScale(input.precision);
  m.score_tensor = input.attention == Attention::kStandard;
  m.ffn_streams = std::max(1.0, input.ffn_streams);
  m.cnn_activation_bytes_per_example =
      CnnActivationBytesPerExample(input.cnn_forward_flops, input.precision);
  return m;
}

namespace {

const char* ActivationAssumption(Recompute recompute) {
  switch (recompute) {
    case Recompute::kFull:
      return kActFull;
    case Recompute::kOffload:
      return kActOffload;
    case Recompute::kSelective:
      return kActSelective;
    case Recompute::kNone:
      return kActNone;
    default:
      return kActUnstated;
  }
}

// The global batch an estimate holds: one sequence when none is passed.
double StatedOrOne(int64_t global_batch_size) {
  return global_batch_size > 0 ? static_cast<double>(global_batch_size) : 1.0;
}

// Activations of a transformer under the layout's schedule: per-layer
// bytes for the layers of the first stage times the micro-batches in
// flight there, plus one micro-batch's extra buffers; under offload the
// per-layer inputs go to host memory instead, and each micro-batch's move
// out in the forward pass and back in the backward pass.
void AddShapedActivations(const PreparedMemoryModel& m, Recompute recompute,
                          int64_t global_batch_size,
                          const ShardingLayout& layout, MemoryEstimate& out) {
  const TransformerShape& shape = m.shape;
  const int tensor = AtLeastOne(layout.tensor);
  const int pipeline = AtLeastOne(layout.pipeline);
  const ReplicaBatch batch =
      ReplicaBatchOf(StatedOrOne(global_batch_size), layout);
  const double micro_batch = batch.micro_batch;
  const double microbatches = batch.microbatches;
  const double layers_per_stage =
      std::ceil(static_cast<double>(shape.layers) / pipeline);
  const double in_flight =
      MicrobatchesInFlight(pipeline, layout.virtual_stages, microbatches);
  out.activations_bytes =
      (layers_per_stage * in_flight *
           ActivationBytesPerLayer(shape, micro_batch, recompute, tensor,
                                   layout.sequence_parallel, m.score_tensor,
                                   m.ffn_streams) +
       ActivationExtraBytes(shape, micro_batch, recompute, tensor,
                            layout.sequence_parallel, m.score_tensor,
                            m.ffn_streams)) *
      m.activation_word_scale;
  if (recompute == Recompute::kOffload) {
    const double per_layer = OffloadedBytesPerLayer(shape, micro_batch, tensor,
                                                    layout.sequence_parallel) *
                             m.activation_word_scale;
    out.host_offload_bytes += layers_per_stage * in_flight * per_layer;
    out.host_transfer_bytes_per_step +=
        2.0 * layers_per_stage * microbatches * per_layer;
  }
  out.activation_assumption = ActivationAssumption(recompute);
}

// Optimizer offload (DeepSpeed estimate_zero3_model_states_mem_needs with
// offload_optimizer=cpu: 16 bytes per parameter on the host, times its
// additional_buffer_factor, over the devices the partition is split
// across; on the device the 16-bit weights and the largest module ZeRO-3
// gathers, no optimizer state and no gradient partition).
void OffloadOptimizer(const PreparedMemoryModel& m,
                      const ShardingLayout& layout, double model_split,
                      MemoryEstimate& out) {
  const double partition =
      model_split * (layout.zero_stage >= 1 ? AtLeastOne(layout.fsdp) : 1);
  const double params = m.trained_params / partition;
  out.host_optimizer_params = params;
  out.host_optimizer_bytes =
      (m.optimizer_bytes / partition +
       kOffload.host_gradient_bytes_per_param.value * params) *
      kOffload.host_buffer_factor.value;
  const bool gathers = layout.zero_stage >= 3 && AtLeastOne(layout.fsdp) > 1;
  out.gradients_bytes = gathers ? m.gathered_grad_bytes_per_param *
                                      m.largest_layer_params /
                                      AtLeastOne(layout.tensor)
                                : 0;
  out.optimizer_bytes = 0;
  // The 16-bit gradients go down during the backward pass; the updated
  // 16-bit weights come back up after the host's step.
  out.host_transfer_bytes_per_step += m.gathered_grad_bytes_per_param * params;
  out.host_upload_bytes_per_step = m.gathered_weight_bytes_per_param * params;
}

}  // namespace

ReplicaBatch ReplicaBatchOf(double global_batch, const ShardingLayout& layout) {
  ReplicaBatch out;
  out.ranks = std::max(AtLeastOne(layout.data), AtLeastOne(layout.fsdp));
  const double per_replica = std::max(1.0, std::ceil(global_batch / out.ranks));
  out.micro_batch = layout.micro_batch > 0 ? layout.micro_batch : per_replica;
  out.microbatches = layout.microbatches > 0
                         ? layout.microbatches
                         : std::ceil(per_replica / out.micro_batch);
  return out;
}

MemoryEstimate EstimateMemoryPerDevice(const PreparedMemoryModel& m,
                                       Recompute recompute,
                                       int64_t global_batch_size,
                                       const ShardingLayout& layout) {
  MemoryEstimate out;
  const int tensor = AtLeastOne(layout.tensor);
  const int pipeline = AtLeastOne(layout.pipeline);
  const int fsdp = AtLeastOne(layout.fsdp);
  const double model_split = static_cast<double>(tensor) * pipeline;
  // Under a pipeline schedule FSDP keeps a stage gathered between its
  // micro-batches (each would gather it again, exposed) and accumulates its
  // gradients unsharded until the last one: the stage's weights and
  // gradients stay whole, as under ZeRO-1 (torchtitan parallelize_llama.py:
  // "For PP, do not reshard after forward to avoid per-microbatch
  // all-gathers"; torch.distributed.pipelining reduces on the last backward).
  const bool stage_whole = layout.zero_stage >= 3 && pipeline > 1;
  const double w_shard = layout.zero_stage >= 3 && !stage_whole ? fsdp : 1;
  const double g_shard = layout.zero_stage >= 2 && !stage_whole ? fsdp : 1;
  const double o_shard = layout.zero_stage >= 1 ? fsdp : 1;

  out.weights_bytes = m.weight_bytes / model_split / w_shard;
  out.gradients_bytes = m.gradient_bytes / model_split / g_shard;
  out.optimizer_bytes = m.optimizer_bytes / model_split / o_shard;
  if (layout.keep_16bit_grad_copy && m.grad_16bit_copy_bytes > 0 &&
      (layout.zero_stage == 1 || layout.zero_stage == 2)) {
    out.gradients_bytes += m.grad_16bit_copy_bytes / model_split / g_shard;
  }
  out.method_assumption = m.method_assumption;

  // ZeRO-3 materialises the largest module whole (16-bit weights and grads)
  // before computing with it.
  if (layout.zero_stage >= 3 && fsdp > 1 && !stage_whole) {
    out.weights_bytes +=
        m.gathered_weight_bytes_per_param * m.largest_layer_params / tensor;
    out.gradients_bytes +=
        m.gathered_grad_bytes_per_param * m.largest_layer_params / tensor;
  }

  out.embeddings_bytes = m.embedding_bytes / tensor / w_shard;

  // Without a shape activations scale with the model's states as they
  // would be on the device: offloading the optimizer does not shrink them.
  const double states_in_place =
      out.weights_bytes + out.gradients_bytes + out.optimizer_bytes;
  if (layout.optimizer_offload) OffloadOptimizer(m, layout, model_split, out);
  if (m.has_shape) {
    AddShapedActivations(m, recompute, global_batch_size, layout, out);
  } else if (m.cnn_activation_bytes_per_example > 0) {
    const ReplicaBatch batch =
        ReplicaBatchOf(StatedOrOne(global_batch_size), layout);
    out.activations_bytes =
        batch.micro_batch * m.cnn_activation_bytes_per_example;
    out.activation_assumption = kActCnn;
  } else {
    out.activations_bytes = kActivationShareWithoutShape * states_in_place;
    out.activation_assumption = kActNoShape;
  }
  out.host_offload_bytes += out.host_optimizer_bytes;

  out.total_bytes = out.weights_bytes + out.gradients_bytes +
                    out.optimizer_bytes + out.activations_bytes +
                    out.embeddings_bytes;
  return out;
}

MemoryEstimate EstimateMemoryPerDevice(const MemoryModelInput& input,
                                       const ShardingLayout& layout) {
  return EstimateMemoryPerDevice(PrepareMemoryModel(input), input.recompute,
                                 input.global_batch_size, layout);
}

}  // namespace accelplan::planner
