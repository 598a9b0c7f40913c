// Per-device training memory: weights, gradients, optimizer state,
// activations and embedding tables under a ZeRO/FSDP, tensor and pipeline
// layout. Closed-form (Transformer Math 101, Korthikanti et al., DeepSpeed and
// Megatron estimators; see shared/reference/planner-anchors.md §4, §6, §7,
// §17). Called thousands of times per request: no heap allocation, every
// assumption string is a static literal.
#ifndef ACCELPLAN_PLANNER_MEMORY_MODEL_H_
#define ACCELPLAN_PLANNER_MEMORY_MODEL_H_

#include <cstdint>

#include "planner/types.h"

namespace accelplan::planner {

// Bytes per parameter of the three model states for one precision and
// optimizer, before any sharding.
struct ModelStateBytes {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;  // includes the fp32 master copy when there is one
  double total() const { return weights + gradients + optimizer; }
};

// Mixed precision + Adam = 2 + 2 + 12 = 16; ADAM_FP32_GRADS 2 + 4 + 12 = 18;
// ADAM_8BIT 2 + 2 + (4 master + 2 states); SGD_MOMENTUM 2 + 2 + (4 + 4);
// ADAFACTOR 2 + 2 + (4 master + 0.05 factored moments); ADAM_BF16 2 + 2 +
// (2 m + 2 v), no master copy, whatever the precision; FP32 training keeps
// no master copy (4 + 4 + 8 for Adam); FP64 uses 8-byte words throughout.
// Unspecified precision is bf16 mixed, unspecified optimizer is Adam.
ModelStateBytes BytesPerParam(Precision precision, Optimizer optimizer);

// Bytes of one gradient element on the wire (the DP all-reduce payload):
// 2 for 16-bit mixed precision, 4 for fp32, 8 for fp64.
double GradientWireBytesPerParam(Precision precision);

// Dense decoder parameter count from the shape: L·(2·h·w_q + 2·h·w_kv +
// m·h·F) + V·h (attention q, o and k, v at AttentionWidth / KeyValueWidth,
// m = 3 for a gated FFN, else 2; the embedding counted once, as if tied;
// norms and biases ignored). F defaults to 4h. 0 when the shape is empty.
double TransformerParamsFromShape(const TransformerShape& shape);

// QLoRA's parameters left unquantized (in the model's dtype): those beyond
// the layers' linear weights (the embedding, an untied output head,
// norms), at most 2·vocab·h so that a mixture's other experts are not
// counted as such (a mixture's tied embedding is then counted twice).
double QloraUnquantizedParams(const TransformerShape& shape, double params);

// Width of the attention's q (and output) projection, heads · head_dim:
// hidden_size unless the shape sets head_dim (Gemma, Qwen3).
double AttentionWidth(const TransformerShape& shape);

// Width of the k (and v) projection: kv_heads · head_dim (the q width
// with multi-head attention).
double KeyValueWidth(const TransformerShape& shape);

// The largest single module DeepSpeed ZeRO-3 gathers whole: the bigger of
// the embedding (V·h) and one MLP matrix (h·F). 0 when the shape is empty.
double LargestLayerParamsFromShape(const TransformerShape& shape);

// Optimizer state an embedding table keeps per byte of table, as TorchRec's
// planner sizes a table's storage (`_get_optimizer_multipler`,
// https://github.com/meta-pytorch/torchrec/blob/main/torchrec/distributed/planner/shard_estimators.py):
// Adam's two moments in the table's dtype 2 (every Adam variant); SGD with
// momentum one buffer, 1; 8-bit Adam two 1-byte moments per fp32 (4-byte)
// element, 0.5; Adafactor's factored moments (rows + columns) and the
// unstated optimizer's row-wise Adagrad (one value per row, the recommender
// default in TorchRec's DLRM example), 0. LoRA trains no table: 0.
double TableOptimizerBytesPerTableByte(TrainingMethod method,
                                       Optimizer optimizer);
// The assumption a plan states for it.
const char* TableOptimizerAssumption(TrainingMethod method,
                                     Optimizer optimizer);

struct MemoryModelInput {
  double params = 0;
  TrainingMethod method = TrainingMethod::kUnspecified;
  Precision precision = Precision::kUnspecified;
  Optimizer optimizer = Optimizer::kUnspecified;
  Recompute recompute = Recompute::kUnspecified;
  const TransformerShape* shape = nullptr;  // nullable; ignored when empty
  int64_t global_batch_size = 0;            // sequences (0 → 1)
  // Tables held besides `params`; their optimizer state is added
  // (TableOptimizerBytesPerTableByte).
  double embedding_bytes = 0;
  double lora_rank = 0;                     // 0 → 16 (stated)
  // ZeRO-3/FSDP gathers one module whole before using it (DeepSpeed counts
  // 16-bit weights + 16-bit grads of the largest layer). 0 → derived from the
  // shape (LargestLayerParamsFromShape), or none without a shape.
  double largest_layer_params = 0;
  // Flash-style attention (the default) never stores the s x s score
  // tensor; STANDARD keeps Korthikanti's 5as/h term.
  Attention attention = Attention::kUnspecified;
  // FFN intermediates per token, in units of one ffn_hidden_size: the
  // routed experts per token of a mixture of experts (ffn_hidden_size is
  // per expert), 1 for a dense model.
  double ffn_streams = 1;
  // A convolutional network's forward FLOPs per example (stated, or
  // estimated from its parameters): its activations per example follow
  // (CnnActivationBytesPerExample). 0: not a CNN counted in examples.
  double cnn_forward_flops = 0;
};

// A CNN's activation bytes per training example, from its forward FLOPs at
// ResNet-50's measured ratio: 51.0 MiB per 224x224 image under AMP fp16
// (milabench config/scaling.yaml at 1a5886a: 14,854.75 MiB at batch 256,
// 27,900.75 MiB at 512, https://github.com/mila-iqia/milabench/blob/
// 1a5886ae583d46245dc51aeafab40d88deb6cf47/config/scaling.yaml), 82.8 MiB
// in fp32 (MONeT README at 98a5c7d: "15.06 GB" at batch 184 with 8 B/param
// of state, https://github.com/utsaslab/MONeT/blob/
// 98a5c7d149ca19c8c64069dbd8f27ce7f97bf3af/README.md), over its 8.18
// GFLOPs forward pass (torchvision: 4.09 G multiply-adds); fp64 twice fp32.
double CnnActivationBytesPerExample(double forward_flops, Precision precision);

struct ShardingLayout {
  // Total data-parallel degree: every replica or FSDP rank that takes its
  // own slice of the batch. If smaller than `fsdp`, `fsdp` is used.
  int data = 1;
  int zero_stage = 0;  // 0 none, 1 optimizer, 2 + gradients, 3 (FSDP) + weights
  int fsdp = 1;        // devices the ZeRO/FSDP state is sharded over
  int tensor = 1;
  int pipeline = 1;
  // Mixture of experts: devices each MoE layer's experts are split over
  // (planner/experts.h), inside the FSDP group. Model-state bytes per device
  // are those of FSDP over the group either way (experts sharded over EP
  // and FSDP'd over the rest); what changes is the traffic.
  int expert = 1;
  // The pipeline schedule (planner/pipeline_schedule.h). `virtual_stages`
  // model chunks per device: 1 is 1F1B, more is interleaved 1F1B
  // (Narayanan et al., arXiv:2104.04473 §2.2.2). `micro_batch` sequences
  // per micro-batch and `microbatches` per replica per step (gradient
  // accumulation when pipeline is 1); 0: the whole per-replica batch is
  // one micro-batch (no accumulation).
  int virtual_stages = 1;
  int micro_batch = 0;
  int microbatches = 0;
  // Megatron sequence parallelism alongside TP: every activation term is
  // divided by the TP degree. Off: only the tensors TP shards (heads, FFN
  // columns, scores) are (Korthikanti: sbh·(10 + 24/t + 5as/(ht))).
  bool sequence_parallel = true;
  // DeepSpeed ZeRO-1/2 keep the 16-bit gradient besides the fp32 gradient
  // partition ("18 = 2_grads_16bit + 4_grads_32bit + 4_params_32bit +
  // 8_optimizer_states_32bit", stage_1_and_2.py). Adds one sharded 16-bit
  // gradient copy when zero_stage is 1 or 2 and gradients are 4 bytes.
  bool keep_16bit_grad_copy = false;
  // Optimizer offload (DeepSpeed ZeRO-Offload, `offload_optimizer: cpu`,
  // Ren et al. arXiv:2101.06840): the optimizer states and the fp32
  // gradients of each device's ZeRO partition live in host memory and the
  // optimizer step runs on the host's CPUs (planner/optimizer_offload.h).
  // The device keeps its 16-bit weights (sharded under ZeRO-3) and
  // activations; gradients leave it bucket by bucket.
  bool optimizer_offload = false;
};

// The same degrees, stage, experts and offload (the schedule and
// micro-batching a point derives from them aside).
inline bool SameLayout(const ShardingLayout& a, const ShardingLayout& b) {
  return a.data == b.data && a.zero_stage == b.zero_stage && a.fsdp == b.fsdp &&
         a.tensor == b.tensor && a.pipeline == b.pipeline &&
         a.expert == b.expert && a.optimizer_offload == b.optimizer_offload;
}

// The degrees a layout has on `devices` devices, as Distribution reports
// them: `data` replicas (of the FSDP group under ZeRO-3), `fsdp` devices
// the model states are sharded over (1 below ZeRO-3), tensor and pipeline;
// each at least 1.
struct LayoutDegrees {
  int data = 1;
  int fsdp = 1;
  int tensor = 1;
  int pipeline = 1;
};
LayoutDegrees DegreesOf(const ShardingLayout& layout, int devices);

// How a global batch of `global_batch` sequences runs under a layout: over
// `ranks` data-parallel replicas (the larger of data and FSDP, at least 1),
// each running `microbatches` whole micro-batches of `micro_batch`
// sequences (its whole share, ceil(batch / ranks), when the layout sets no
// micro-batch). The activation memory holds these; the step time counts
// the sequences they run (planner/estimates.h RunBatchOverStated).
struct ReplicaBatch {
  double ranks = 1;
  double micro_batch = 1;
  double microbatches = 1;
  double run_per_rank() const { return micro_batch * microbatches; }
};
ReplicaBatch ReplicaBatchOf(double global_batch, const ShardingLayout& layout);

struct MemoryEstimate {
  double weights_bytes = 0;
  double gradients_bytes = 0;
  double optimizer_bytes = 0;
  double activations_bytes = 0;
  double embeddings_bytes = 0;
  double total_bytes = 0;  // device memory: host_offload_bytes not included
  // What a device keeps in host memory (RECOMPUTE_OFFLOAD's activations,
  // an offloaded optimizer partition), and the bytes moved between device
  // and host per device per step beside the compute (activations out in
  // the forward pass and back in the backward pass, gradients down as the
  // backward pass makes them). 0 without offload.
  double host_offload_bytes = 0;
  double host_transfer_bytes_per_step = 0;
  // Optimizer offload (ShardingLayout::optimizer_offload): the host memory
  // per device its optimizer partition takes (also in host_offload_bytes;
  // the 16-bit gradients' trip down is in host_transfer_bytes_per_step),
  // the parameters whose step that device's host CPUs run, and the updated
  // 16-bit weights sent back up per device per step. 0 without it.
  double host_optimizer_bytes = 0;
  double host_optimizer_params = 0;
  double host_upload_bytes_per_step = 0;
  // Static strings (never freed, never allocated) stating how activations
  // and the method-specific weights were modelled.
  const char* activation_assumption = "";
  const char* method_assumption = "";
};

// Bytes per transformer layer for a micro-batch of `micro_batch`
// sequences (16-bit activations) kept in device memory, counted tensor by
// tensor as Korthikanti et al. (arXiv:2205.05198 §4.1) do, for a pre-norm
// decoder layer with flash-style attention, r = kv_heads / heads, F the FFN
// width (× `ffn_streams` routed experts), g = 2 for a gated FFN, else 1:
//   none       8·sbh + (4 + 4r)·sbh + 4g·sbF  (+ 5as²b with `score_tensor`:
//              standard attention keeps the softmax scores)
//   selective  6·sbh + (4 + 4r)·sbh + 2g·sbF  (matmul outputs kept,
//              element-wise ops recomputed)
//   full       2·sbh (the layer's input); offload 0 (it is in host memory)
// With sequence parallelism every term is divided by the TP degree t;
// without it only the second and third (none 8 + 24/t, selective
// 6 + 16/t for a GPT-3 block: Korthikanti's sbh·(10 + 24/t) pattern).
// For a GPT-3 block (r = 1, F = 4h, plain FFN) none is 32·sbh: Korthikanti's
// 34·sbh without his two dropout masks.
double ActivationBytesPerLayer(const TransformerShape& shape,
                               double micro_batch, Recompute recompute,
                               int tensor, bool sequence_parallel,
                               bool score_tensor = false,
                               double ffn_streams = 1);

// Bytes per layer and micro-batch that RECOMPUTE_OFFLOAD moves to host
// memory: full recompute's checkpoint, the layer's 2·sbh input (split by
// TP as ActivationBytesPerLayer), 16-bit.
double OffloadedBytesPerLayer(const TransformerShape& shape, double micro_batch,
                              int tensor, bool sequence_parallel);

// Micro-batches whose activations the most loaded (first) pipeline stage
// holds at once, in units of one micro-batch through its layers. 1F1B
// runs p warm-up forwards before its first backward: min(m, p).
// Interleaved 1F1B with v chunks per device holds p·(1 + (p−1)/(p·v)) =
// p + (p−1)/v (Megatron-LM megatron/training/theoretical_memory_usage.py,
// `interleaved_schedule_memory_penalty`; Korthikanti et al.,
// arXiv:2205.05198 §4.2.3). 1 without pipelining: accumulated
// micro-batches run one after another.
double MicrobatchesInFlight(int stages, int virtual_stages,
                            double microbatches);

// The buffers a device holds besides the per-layer activations:
// under full recompute and offload one layer's whole working set while it
// is recomputed (its no-recompute activations), and at every level the output
// layer's logits and cross-entropy, 4·s·b·V bytes (Korthikanti et al. §4.3:
// 32-bit logits), split over the TP ranks (vocab-parallel output layer).
double ActivationExtraBytes(const TransformerShape& shape, double micro_batch,
                            Recompute recompute, int tensor,
                            bool sequence_parallel, bool score_tensor,
                            double ffn_streams = 1);

MemoryEstimate EstimateMemoryPerDevice(const MemoryModelInput& input,
                                       const ShardingLayout& layout);

// What EstimateMemoryPerDevice derives from the input alone, computed once
// per job: the planner evaluates hundreds of layouts per request, with only
// the layout, the recompute level and the batch varying.
struct PreparedMemoryModel {
  TransformerShape shape;  // a copy: the model outlives the input
  bool has_shape = false;
  double weight_bytes = 0;  // unsharded totals
  double gradient_bytes = 0;
  double optimizer_bytes = 0;
  double trained_params = 0;  // those with optimizer state (LoRA: adapters)
  double grad_16bit_copy_bytes = 0;  // DeepSpeed's extra copy (ZeRO-1/2)
  double gathered_weight_bytes_per_param = 0;
  double gathered_grad_bytes_per_param = 0;
  double largest_layer_params = 0;
  double embedding_bytes = 0;  // the tables with their optimizer state
  double activation_word_scale = 1;
  bool score_tensor = false;  // attention STANDARD
  double ffn_streams = 1;     // MemoryModelInput::ffn_streams
  double cnn_activation_bytes_per_example = 0;  // 0: not a CNN
  const char* method_assumption = "";
};
PreparedMemoryModel PrepareMemoryModel(const MemoryModelInput& input);

// As above with `recompute` and `global_batch_size` in place of the
// input's (identical results).
MemoryEstimate EstimateMemoryPerDevice(const PreparedMemoryModel& model,
                                       Recompute recompute,
                                       int64_t global_batch_size,
                                       const ShardingLayout& layout);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_MEMORY_MODEL_H_
