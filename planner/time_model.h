// Training compute, collective communication and step time, plus the JAX
// Scaling Book rooflines that say when data, FSDP, tensor or cross-slice
// (DCN) parallelism turns communication-bound
// (shared/reference/planner-anchors.md §6, §8, §17). Pure arithmetic: no
// allocation, safe to call in the planner's inner loops.
#ifndef ACCELPLAN_PLANNER_TIME_MODEL_H_
#define ACCELPLAN_PLANNER_TIME_MODEL_H_

#include "planner/types.h"

namespace accelplan::planner {

// --- FLOPs

// 6·P·D (2 forward + 4 backward per parameter per token); 8·P·D with full
// recompute or offload (one extra forward): the hardware FLOPs. The planner's time
// model applies its measured MFU to the model FLOPs (ModelFlopsPerToken),
// whose published runs already include their recompute in the time.
double TrainingFlops(double params, double tokens, Recompute recompute);

// Positions a token's query attends to, summed over the layers, on the
// calibrated basis: PaLM's non-causal s per global layer (twice the causal
// work). A local layer of window W < s does min(i+1, W) causally, W − W²/2s
// on average, so 2W − W²/s on the same basis (s when s ≤ W). Layers whose
// (index + 1) is a multiple of global_attention_every are global.
double AttendedPositions(const TransformerShape& shape, int sequence_length);
// Of a shape with a sliding window, the layers that attend globally: every
// global_attention_every-th (0 without such a pattern).
int GlobalAttentionLayers(const TransformerShape& shape);

// Model FLOPs per token on the basis of the calibrated MFU bands (PaLM,
// arXiv:2204.02311 appendix B): 6·P for the (active) parameters plus the
// attention score and value matmuls, 12·w·Σ_layers positions forward and
// backward at attention width w = heads·head_dim (AttentionWidth: the
// hidden size unless the shape sets head_dim): 12·L·w·s without a sliding
// window. Recompute FLOPs excluded.
double ModelFlopsPerToken(double active_params, double attention_width,
                          double attended_positions);

// --- MFU

enum class DeviceClass {
  kTpu,        // v4 and later
  kModernGpu,  // Ampere and later (A100, L4, H100, H200, B200, ...)
  kOlderGpu,   // Volta / Turing / Pascal (V100, T4, P100, P4)
  kCpu,
};

struct MfuRange {
  double low = 0;
  double high = 0;
  double expected() const { return 0.5 * (low + high); }
  const char* source = "";  // static text: where the band comes from
  // Published runs behind the band (0: one of the assumed defaults below)
  // and how far it was borrowed (0: the class's own runs; see
  // planner/efficiency.h).
  int runs = 0;
  int fallback = 0;
  // The largest tensor-parallel degree among those runs (1: none used it):
  // the band holds TP traffic only up to the degree its runs paid for.
  int tensor_parallel = 0;
  // A default derived from published runs outside the catalog (the CNN
  // band on modern GPUs), not an assumed figure.
  bool published = false;
};

// Default model-FLOPs-utilisation bands (assumptions, stated in `source`):
// TPU / modern GPU dense transformers 0.35–0.55 (Scaling Book worked
// examples at 45–50%, llm-analysis' "up to 0.5", NeMo's 140 TFLOPS/A100 ≈
// 45%); older GPUs 0.25–0.45; other model kinds on accelerators 0.25–0.45,
// but a CNN on a modern GPU 0.13–0.23 (NVIDIA's published ResNet-50 runs
// on A100, widened by the run spread; `published`) and on a TPU 0.25–0.37
// (Google's MLPerf ResNet-50 runs on TPU v4, likewise), on a pre-Ampere GPU
// 0.16–0.28 of the 16-bit peak and 0.45–0.69 of the fp32 peak at fp32
// (NVIDIA's ResNet-50 runs on V100, likewise); deep learning on a CPU
// 0.05–0.15 of peak fp32 (classical ML is timed by tree_boosting.h).
// `precision` only chooses between a pre-Ampere GPU's CNN bands: tensor cores
// at 16 bits, CUDA cores at fp32.
MfuRange DefaultMfu(DeviceClass device, ModelKind kind,
                    Precision precision = Precision::kUnspecified);

// --- collectives
// `bytes` is the full logical array (the gradient of one replica, the whole
// gathered parameter set); `bytes_per_s` the per-participant bandwidth of the
// slowest link the collective crosses. n <= 1 or bytes <= 0 → 0 seconds.

// Ring all-reduce: 2·(n−1)/n · bytes / bw.
double RingAllReduceSeconds(double bytes, int n, double bytes_per_s);
// All-gather or reduce-scatter: (n−1)/n · bytes / bw.
double AllGatherSeconds(double bytes, int n, double bytes_per_s);
double ReduceScatterSeconds(double bytes, int n, double bytes_per_s);
// Vertex AI Reduction Server: each worker sends its gradient once and
// receives the reduced result once (full duplex), so it is bounded by
// bytes / worker_bw — twice the ring's algorithm bandwidth — unless the
// reducers' aggregate bandwidth (n workers' traffic) is the bottleneck.
double ReductionServerAllReduceSeconds(double bytes, int workers,
                                       double worker_bytes_per_s,
                                       double reducers_total_bytes_per_s);

// --- step time

// Compute seconds for `flops` spread over `devices` at `mfu` of `peak`.
double ComputeSeconds(double flops, int devices, double peak_flops_per_device,
                      double mfu);

// Share of a pipelined step spent idle: (p − 1) / (v·m + p − 1) for p
// stages, m micro-batches and v model chunks per device, i.e. the step is
// the ideal one stretched by 1 + (p − 1)/(v·m): 1F1B's bubble (p − 1)/m
// (GPipe, Megatron) and interleaved 1F1B's (p − 1)/(v·m) (Narayanan et
// al., arXiv:2104.04473 §2.2.2; https://github.com/NVIDIA/Megatron-LM
// README, "--num-layers-per-virtual-pipeline-stage"). 0 for p <= 1.
double PipelineBubbleFraction(int stages, int microbatches,
                              int virtual_stages = 1);

struct StepTimeInput {
  double flops_per_step_total = 0;
  int devices = 1;
  double peak_flops_per_device = 0;
  double mfu_low = 0.35;
  double mfu_high = 0.55;
  // Data parallel: gradient all-reduce of one replica's gradient bytes.
  double bytes_allreduce_per_step = 0;
  double link_bytes_per_s = 0;  // the slowest link the collective crosses
  int ring_size = 1;
  // > 0: the data-parallel all-reduce goes through a Reduction Server whose
  // reducers together have this bandwidth (link_bytes_per_s is then the
  // worker's egress).
  double reduction_server_bytes_per_s = 0;
  // The gradient sync (the data-parallel all-reduce; FSDP's gradient
  // reduce-scatter and its parameter gathers over the same network) does
  // not overlap compute (a stated GRADIENT_SYNC_BOUND symptom): it is on the
  // critical path.
  bool gradient_sync_exposed = false;
  // FSDP's collectives cross the network between VMs (false: its group is
  // inside one NVLink domain, which a network-bound sync does not slow).
  bool fsdp_over_network = true;
  // FSDP / ZeRO-3: parameter bytes (16-bit, whole model share of this
  // replica group) all-gathered for forward and for backward, and the
  // gradient reduce-scattered once: 3 × (n−1)/n × bytes / bw.
  double fsdp_bytes = 0;
  int fsdp_size = 1;
  double fsdp_link_bytes_per_s = 0;
  // Gradient-accumulation micro-steps, each with its own gathers and
  // reduce-scatter (and their latency): FSDP gathers a unit's weights
  // before every forward and backward, and by default reduce-scatters every
  // micro-step's gradient (PyTorch FSDP2's gradient accumulation,
  // https://github.com/pytorch/pytorch/pull/126166; DeepSpeed ZeRO-3
  // likewise); a pipeline's micro-batches are not these (1).
  int fsdp_passes = 1;
  // Tensor parallel activation all-reduces per step (total bytes all-reduced
  // by one TP group per step). On the critical path: never overlapped.
  double tp_bytes_allreduce_per_step = 0;
  int tp_size = 1;
  double tp_link_bytes_per_s = 0;
  // Expert parallelism: bytes one device sends per step in the MoE
  // all-to-alls (planner/experts.h), over the NVLink/ICI domain. On the
  // critical path, like TP traffic: the experts wait for their tokens.
  double a2a_bytes_per_step = 0;
  double a2a_link_bytes_per_s = 0;
  // Multislice: gradient all-reduce across slices over DCN.
  double dcn_bytes_allreduce_per_step = 0;
  int dcn_size = 1;
  double dcn_bytes_per_s = 0;
  // Pipeline parallelism: compute stretches by the 1F1B bubble. 0 micro-
  // batches → 4 per stage (GPipe: the bubble is negligible at m >= 4p).
  int pipeline_stages = 1;
  int microbatches = 0;
  int virtual_stages = 1;  // interleaved 1F1B: model chunks per device
  // Pipeline point-to-point traffic per device per step (activations
  // forward, their gradients backward, v times per micro-batch under
  // interleaving: arXiv:2104.04473 §2.2.2) over `pp_link_bytes_per_s`.
  // Overlapped with compute, as Megatron-core's overlap_p2p_comm does.
  double pp_bytes_per_step = 0;
  double pp_link_bytes_per_s = 0;
  // RECOMPUTE_OFFLOAD: bytes moved between device and host per device per
  // step (out in the forward pass, back in the backward pass) over the
  // host link, each way. Overlapped with compute and with the collectives
  // (its own link): it bounds the step, never adds to it.
  double host_transfer_bytes_per_step = 0;
  double host_link_bytes_per_s = 0;
  // Optimizer offload (planner/optimizer_offload.h): the host's optimizer
  // step and the weights' trip back, between the backward pass and the
  // next forward: added to the step, not communication.
  double host_optimizer_seconds = 0;
  // Each collective's fixed latency beyond its bandwidth time, per step
  // (planner/collective_latency.h), joining its collective's term above:
  // the gradient all-reduce, the FSDP gathers and reduce-scatter (two
  // thirds and one third), the DCN all-reduce, the TP all-reduces. The
  // pipeline's sends are on the critical path: each of the schedule's
  // m·v + p − 1 slots waits for one forward and one backward hand-over.
  double dp_latency_seconds = 0;
  double fsdp_latency_seconds = 0;
  double dcn_latency_seconds = 0;
  double tp_latency_seconds = 0;
  double pp_latency_seconds = 0;
  // The MFU band was measured end to end (published runs, planner/
  // efficiency.h): their pipeline bubbles and tensor-parallel traffic are
  // inside it. Then no bubble stretch is applied and the TP traffic joins
  // the overlappable traffic (up to the degree the runs used, tp_in_mfu):
  // step = max(compute, all communication).
  bool overheads_in_mfu = false;
  // Whether the band's runs used this layout's tensor-parallel degree or a
  // larger one (MfuRange::tensor_parallel). If not, the band never paid for
  // the TP traffic: it stays on the critical path even with
  // overheads_in_mfu (FSDP-only runs say nothing of TP all-reduces).
  bool tp_in_mfu = false;
  // Whether the band's runs paid this layout's expert all-to-all: every
  // MoE run behind the bands moved it over NVLink or ICI (tests/planner/
  // calibration/runs.csv: H100/H800 SXM, TPU). Over PCIe (no NVLink) the
  // band never paid for it: it stays on the critical path.
  bool a2a_in_mfu = false;
};

struct StepTimeEstimate {
  // Compute includes the pipeline bubble when pipeline_stages > 1.
  double compute_seconds_fast = 0;       // at mfu_high
  double compute_seconds_slow = 0;       // at mfu_low
  double overlappable_comm_seconds = 0;  // DP + FSDP + DCN
  double critical_comm_seconds = 0;      // TP
  // Offloaded activations over the host link (StepTimeInput); the step
  // is at least this long, and communication_fraction leaves it out.
  double host_transfer_seconds = 0;
  double host_optimizer_seconds = 0;  // StepTimeInput's, added to the step
  // Overlap model: DP/FSDP/DCN traffic hides behind compute up to the
  // compute time; exposed = max(0, comm − compute) + TP traffic.
  double exposed_comm_seconds_fast = 0;
  double exposed_comm_seconds_slow = 0;
  double step_seconds_fast = 0;
  double step_seconds_expected = 0;  // at the mean MFU
  double step_seconds_slow = 0;
  // Exposed communication / step time at the expected MFU.
  double communication_fraction = 0;
  // All communication / compute at the expected MFU (> 1: comms-bound).
  double comm_to_compute_ratio = 0;
};

StepTimeEstimate EstimateStepTime(const StepTimeInput& input);

// --- rooflines

// A threshold check in the Scaling Book's form: `actual` must reach
// `required` (or, for `max_` checks, stay at or below it).
struct BoundCheck {
  bool communication_bound = false;
  double required = 0;  // e.g. tokens per device needed, or max TP degree
  double actual = 0;
  double ratio = 0;  // actual / required
};

// Data parallel / FSDP (Scaling Book training.md, gpus.md): compute-bound iff
// tokens per device B/X > C / W, W = the collective bandwidth per device
// (TPU: bidirectional ICI per axis × axes used → 2,550 on v5p for one axis,
// 850 for three; GPU: 450e9 NVLink egress inside a node → 2,200 on H100, the
// node's 400e9 scale-out egress across nodes → 2,475). `participants` > 1
// applies the book's (X−1)/X small-X correction for X nodes; pass 0 to skip.
BoundCheck DataParallelBound(double tokens_per_device,
                             double peak_flops_per_device,
                             double collective_bytes_per_s,
                             int participants = 0);

// Tensor parallel: comms-bound when Y > F·W/C (TPU: Y > n_axes·F/2550 with
// W = n_axes × bidirectional ICI; H100: Y > F/2475 across nodes).
// `required` is the largest TP degree that stays compute-bound.
BoundCheck TensorParallelBound(int tp_degree, double ffn_hidden_size,
                               double peak_flops_per_device,
                               double collective_bytes_per_s);

// FSDP combined with TP: needs B/N > 2·(C/W)²/F tokens per device (≈ 400 on
// v5p for F ≈ 32k).
BoundCheck FsdpTensorParallelBound(double tokens_per_device,
                                   double ffn_hidden_size,
                                   double peak_flops_per_device,
                                   double collective_bytes_per_s);

// Multislice data parallelism over DCN: per-slice token batch must exceed
// C_slice / W_dcn = chips·peak / (hosts·DCN per host) (≈ 76k tokens for a
// v5p pod in the book; 4 chips per host at 2.5e10 B/s gives 73k).
BoundCheck DcnDataParallelBound(double tokens_per_slice, int chips_per_slice,
                                double peak_flops_per_chip, int hosts_per_slice,
                                double dcn_bytes_per_s_per_host);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_TIME_MODEL_H_
