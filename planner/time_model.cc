#include "planner/time_model.h"

#include <algorithm>

#include "planner/defaults.h"
#include "planner/policy.h"

namespace accelplan::planner {
namespace {

constexpr const char* kMfuAccelTransformer =
    "assumed MFU 35-55% for dense transformers on TPUs and Ampere-or-newer "
    "GPUs (Scaling Book worked examples at 45-50%, llm-analysis 'up to 0.5', "
    "NeMo 140 TFLOPS/A100 ~45%)";
constexpr const char* kMfuOlderGpu =
    "assumed MFU 25-45% on pre-Ampere GPUs (no bf16, smaller tensor cores)";
constexpr const char* kMfuAccelOther =
    "assumed MFU 25-45% for non-transformer models on accelerators (smaller "
    "matmuls, more memory-bound ops than dense transformers)";
constexpr const char* kMfuCnnModernGpu =
    "the min-max of NVIDIA's two published ResNet-50 v1.5 runs on A100 "
    "(DeepLearningExamples, PyTorch AMP, 1 and 8 GPUs: 19.4% and 16.3% of "
    "the 16-bit peak) widened by the run spread; used for convolutional "
    "networks on every Ampere-or-newer GPU, an ASSUMPTION past the A100";
constexpr const char* kMfuCnnTpu =
    "the min-max of Google's two published MLPerf Training ResNet-50 runs "
    "on TPU v4 (TensorFlow, bf16: 8 chips at batch 2,048 and 64 chips at "
    "8,192, 31.0% and 30.8% of the bf16 peak) widened by the run spread; "
    "used for convolutional networks on every TPU, an ASSUMPTION past v4";
constexpr const char* kMfuCnnOlderGpu16 =
    "the min-max of NVIDIA's two published ResNet-50 v1.5 runs on V100 16GB "
    "(DeepLearningExamples, PyTorch AMP, 1 and 8 GPUs: 23.6% and 20.4% of "
    "the 16-bit tensor-core peak) widened by the run spread; used for "
    "convolutional networks at 16 bits on every pre-Ampere GPU, an "
    "ASSUMPTION past the V100";
constexpr const char* kMfuCnnOlderGpu32 =
    "the min-max of NVIDIA's two published ResNet-50 v1.5 runs on V100 16GB "
    "(DeepLearningExamples, PyTorch FP32, 1 and 8 GPUs: 57.7% and 56.1% of "
    "the fp32 peak) widened by the run spread; used for convolutional "
    "networks at fp32 on every pre-Ampere GPU, an ASSUMPTION past the V100";
constexpr const char* kMfuCpu =
    "assumed 5-15% of peak fp32 for deep learning on CPUs (framework kernels "
    "on CPUs rarely use full SIMD width)";

bool Usable(double bytes, int n, double bytes_per_s) {
  return bytes > 0 && n > 1 && bytes_per_s > 0;
}

BoundCheck MinCheck(double actual, double required) {
  BoundCheck check;
  check.required = required;
  check.actual = actual;
  check.ratio = required > 0 ? actual / required : 0;
  check.communication_bound = actual < required;
  return check;
}

// Point-to-point bytes over one link (0 when either is unknown).
double LinkSeconds(double bytes, double link_bytes_per_s) {
  return bytes > 0 && link_bytes_per_s > 0 ? bytes / link_bytes_per_s : 0;
}

}  // namespace

double TrainingFlops(double params, double tokens, Recompute recompute) {
  // Offload recomputes as full recompute does: only the inputs are kept.
  const double factor =
      recompute == Recompute::kFull || recompute == Recompute::kOffload ? 8.0
                                                                        : 6.0;
  return factor * params * tokens;
}

double AttendedPositions(const TransformerShape& shape, int sequence_length) {
  if (shape.layers <= 0 || sequence_length <= 0) return 0;
  const double s = sequence_length;
  const double window = shape.sliding_window;
  if (window <= 0 || window >= s) return shape.layers * s;
  const int global = GlobalAttentionLayers(shape);
  const int local = shape.layers - global;
  return global * s + local * (2 * window - window * window / s);
}

int GlobalAttentionLayers(const TransformerShape& shape) {
  return shape.global_attention_every > 0
             ? shape.layers / shape.global_attention_every
             : 0;
}

double ModelFlopsPerToken(double active_params, double attention_width,
                          double attended_positions) {
  const double attention = attention_width > 0 && attended_positions > 0
                               ? 12.0 * attention_width * attended_positions
                               : 0.0;
  return 6.0 * std::max(0.0, active_params) + attention;
}

namespace {

// Each ResNet-50 image is 3 x 2 x its forward multiply-adds in training
// FLOPs (torchvision's 4.09 G, planner/defaults.h).
constexpr double kResNet50FlopsPerImage = 3 * 2 * kResNet50ForwardMultiplyAdds;

// The band of two published runs (fractions of peak), widened by the run
// spread as a calibrated band is (planner/efficiency.cc).
MfuRange PublishedBand(double a, double b, const char* source) {
  const double spread = kPolicy.mfu_run_spread.value;
  MfuRange band{std::min(a, b) * (1 - spread), std::max(a, b) * (1 + spread),
                source};
  band.published = true;
  return band;
}

// NVIDIA DeepLearningExamples, PyTorch/Classification/ConvNets/resnet50v1.5
// README, DGX-1 16GB (8x V100 16GB, the V100 Google Cloud attaches), one
// and eight GPUs: mixed precision 1,200 and 8,322 img/s of the V100's 125
// TFLOP/s tensor-core peak; FP32 367 and 2,855 img/s of its 15.6 TFLOP/s
// (the catalog's V100 peaks, which the band is applied to).
MfuRange OlderGpuCnnBand(Precision precision) {
  constexpr double kPerImage = kResNet50FlopsPerImage;
  if (precision == Precision::kFp32) {
    constexpr double kPeak = 15.6e12;
    return PublishedBand(367 * kPerImage / kPeak,
                         2855.0 / 8 * kPerImage / kPeak, kMfuCnnOlderGpu32);
  }
  constexpr double kPeak = 125e12;
  return PublishedBand(1200 * kPerImage / kPeak, 8322.0 / 8 * kPerImage / kPeak,
                       kMfuCnnOlderGpu16);
}

}  // namespace

MfuRange DefaultMfu(DeviceClass device, ModelKind kind, Precision precision) {
  const bool transformer =
      kind == ModelKind::kDenseTransformer || kind == ModelKind::kUnspecified;
  if (kind == ModelKind::kCnn && device == DeviceClass::kOlderGpu &&
      precision != Precision::kFp64Required) {
    return OlderGpuCnnBand(precision);
  }
  switch (device) {
    case DeviceClass::kCpu:
      return {0.05, 0.15, kMfuCpu};
    case DeviceClass::kOlderGpu:
      return {0.25, 0.45, kMfuOlderGpu};
    case DeviceClass::kTpu:
    case DeviceClass::kModernGpu:
      break;
  }
  if (transformer) return {0.35, 0.55, kMfuAccelTransformer};
  constexpr double kPerImage = kResNet50FlopsPerImage;
  if (kind == ModelKind::kCnn && device == DeviceClass::kTpu) {
    // MLPerf Training v0.7 (tpu-v4-16, 8 chips) and v1.0 (tpu-v4-128, 64
    // chips), Google's result_0.txt: steady blocks of 4 epochs of
    // 1,281,167 images (each with one 50,000-image eval) take 184.19 s and
    // 23.22 s, of the v4 chip's 275 TFLOP/s bf16.
    constexpr double kV4Peak = 275e12;
    constexpr double kBlockImages = 4 * 1281167.0;
    return PublishedBand(kBlockImages / 184.19 / 8 * kPerImage / kV4Peak,
                         kBlockImages / 23.22 / 64 * kPerImage / kV4Peak,
                         kMfuCnnTpu);
  }
  if (kind == ModelKind::kCnn && device == DeviceClass::kModernGpu) {
    // NVIDIA DeepLearningExamples, PyTorch/Classification/ConvNets/
    // resnet50v1.5 README, DGX A100 80GB, mixed precision: 2,470 img/s on
    // one GPU and 16,621 on eight, of the A100's 312 TFLOP/s: 19.4% and
    // 16.3%.
    constexpr double kA100Peak = 312e12;
    return PublishedBand(2470 * kPerImage / kA100Peak,
                         16621.0 / 8 * kPerImage / kA100Peak, kMfuCnnModernGpu);
  }
  return {0.25, 0.45, kMfuAccelOther};
}

double RingAllReduceSeconds(double bytes, int n, double bytes_per_s) {
  if (!Usable(bytes, n, bytes_per_s)) return 0;
  return 2.0 * (n - 1) / n * bytes / bytes_per_s;
}

double AllGatherSeconds(double bytes, int n, double bytes_per_s) {
  if (!Usable(bytes, n, bytes_per_s)) return 0;
  return static_cast<double>(n - 1) / n * bytes / bytes_per_s;
}

double ReduceScatterSeconds(double bytes, int n, double bytes_per_s) {
  return AllGatherSeconds(bytes, n, bytes_per_s);
}

double ReductionServerAllReduceSeconds(double bytes, int workers,
                                       double worker_bytes_per_s,
                                       double reducers_total_bytes_per_s) {
  if (!Usable(bytes, workers, worker_bytes_per_s)) return 0;
  double seconds = bytes / worker_bytes_per_s;
  if (reducers_total_bytes_per_s > 0) {
    seconds = std::max(seconds, workers * bytes / reducers_total_bytes_per_s);
  }
  return seconds;
}

double ComputeSeconds(double flops, int devices, double peak_flops_per_device,
                      double mfu) {
  const double rate = std::max(1, devices) * peak_flops_per_device * mfu;
  if (flops <= 0 || rate <= 0) return 0;
  return flops / rate;
}

double PipelineBubbleFraction(int stages, int microbatches,
                              int virtual_stages) {
  if (stages <= 1) return 0;
  const double vm = static_cast<double>(std::max(1, virtual_stages)) *
                    std::max(1, microbatches);
  return (stages - 1) / (vm + stages - 1);
}

namespace {

// The step's communication: what overlaps the compute (DP, FSDP, DCN,
// pipeline sends) and what the critical path waits for (TP, expert
// all-to-alls, a stated gradient-sync symptom, pipeline hand-over latency).
// A pipeline's bubble idles a stage's tensor-parallel and all-to-all waits
// as it idles its compute: both sit inside every micro-batch's slot, and a
// step is (m + p - 1) slots (Narayanan et al., arXiv:2104.04473 §2.2), so
// `bubble_stretch` lengthens them alike.
void AddCommunicationTerms(const StepTimeInput& in, double bubble_stretch,
                           StepTimeEstimate& out) {
  double dp = 0;
  if (in.reduction_server_bytes_per_s > 0) {
    dp = ReductionServerAllReduceSeconds(in.bytes_allreduce_per_step,
                                         in.ring_size, in.link_bytes_per_s,
                                         in.reduction_server_bytes_per_s);
  } else {
    dp = RingAllReduceSeconds(in.bytes_allreduce_per_step, in.ring_size,
                              in.link_bytes_per_s);
  }
  dp += in.dp_latency_seconds;
  const double passes = std::max(1, in.fsdp_passes);
  const double fsdp_gather =
      passes * (2.0 * AllGatherSeconds(in.fsdp_bytes, in.fsdp_size,
                                       in.fsdp_link_bytes_per_s) +
                in.fsdp_latency_seconds * 2 / 3);
  const double fsdp_grads =
      passes * (ReduceScatterSeconds(in.fsdp_bytes, in.fsdp_size,
                                     in.fsdp_link_bytes_per_s) +
                in.fsdp_latency_seconds / 3);
  const double dcn = RingAllReduceSeconds(in.dcn_bytes_allreduce_per_step,
                                          in.dcn_size, in.dcn_bytes_per_s) +
                     in.dcn_latency_seconds;
  // A stated GRADIENT_SYNC_BOUND says the data-parallel group's traffic over
  // the network does not hide behind compute; FSDP's gathers cross the same
  // network between the same VMs, so they wait as its reduce-scatter does
  // (sharding sends 1.5x plain data parallelism's bytes: it cannot cure a
  // network-bound sync, as the remedy rule says of shard_optimizer_state).
  const double sync =
      in.gradient_sync_exposed
          ? dp + (in.fsdp_over_network ? fsdp_grads + fsdp_gather : 0)
          : 0;
  const double tp = bubble_stretch *
                    (RingAllReduceSeconds(in.tp_bytes_allreduce_per_step,
                                          in.tp_size, in.tp_link_bytes_per_s) +
                     in.tp_latency_seconds);
  const double a2a = bubble_stretch * LinkSeconds(in.a2a_bytes_per_step,
                                                  in.a2a_link_bytes_per_s);
  const double pp = LinkSeconds(in.pp_bytes_per_step, in.pp_link_bytes_per_s);
  out.overlappable_comm_seconds =
      dp + fsdp_gather + fsdp_grads - sync + dcn + pp;
  out.critical_comm_seconds = sync + tp + a2a + in.pp_latency_seconds;
  if (in.overheads_in_mfu) {
    // Measured end-to-end MFU already includes expert all-to-all traffic
    // over the links its runs used, and tensor-parallel traffic up to the
    // degree its runs used; a stated gradient-sync symptom stays on the
    // critical path.
    const double tp_paid = in.tp_in_mfu ? tp : 0;
    const double a2a_paid = in.a2a_in_mfu ? a2a : 0;
    out.overlappable_comm_seconds += tp_paid + a2a_paid;
    out.critical_comm_seconds =
        sync + (tp - tp_paid) + (a2a - a2a_paid) + in.pp_latency_seconds;
  }
}

}  // namespace

StepTimeEstimate EstimateStepTime(const StepTimeInput& in) {
  StepTimeEstimate out;
  const double mfu_high = std::max(in.mfu_high, in.mfu_low);
  const double mfu_low = std::min(in.mfu_high, in.mfu_low);
  const double mfu_mid = 0.5 * (mfu_low + mfu_high);
  out.compute_seconds_fast = ComputeSeconds(in.flops_per_step_total, in.devices,
                                            in.peak_flops_per_device, mfu_high);
  out.compute_seconds_slow = ComputeSeconds(in.flops_per_step_total, in.devices,
                                            in.peak_flops_per_device, mfu_low);
  const int stages = in.overheads_in_mfu ? 1 : std::max(1, in.pipeline_stages);
  const double stretch =
      1.0 /
      (1.0 - PipelineBubbleFraction(
                 stages, in.microbatches > 0 ? in.microbatches : 4 * stages,
                 in.virtual_stages));
  out.compute_seconds_fast *= stretch;
  out.compute_seconds_slow *= stretch;
  const double compute_mid =
      stretch * ComputeSeconds(in.flops_per_step_total, in.devices,
                               in.peak_flops_per_device, mfu_mid);

  AddCommunicationTerms(in, stretch, out);

  out.host_transfer_seconds =
      LinkSeconds(in.host_transfer_bytes_per_step, in.host_link_bytes_per_s);

  auto exposed = [&](double compute) {
    return std::max(0.0, out.overlappable_comm_seconds - compute) +
           out.critical_comm_seconds;
  };
  out.exposed_comm_seconds_fast = exposed(out.compute_seconds_fast);
  out.exposed_comm_seconds_slow = exposed(out.compute_seconds_slow);
  // step = max(compute, overlappable) + critical: the same as compute +
  // exposed, written so that a communication-dominated step is exactly
  // equal (never an ulp out of order) at the fast, expected and slow ends.
  // Host offload transfers run on their own link beside both: they bound
  // the overlapped part.
  // An offloaded optimizer's host step follows the backward pass.
  out.host_optimizer_seconds = std::max(0.0, in.host_optimizer_seconds);
  auto step = [&](double compute) {
    return std::max({compute, out.overlappable_comm_seconds,
                     out.host_transfer_seconds}) +
           out.critical_comm_seconds + out.host_optimizer_seconds;
  };
  out.step_seconds_fast = step(out.compute_seconds_fast);
  out.step_seconds_slow = step(out.compute_seconds_slow);
  const double exposed_mid = exposed(compute_mid);
  out.step_seconds_expected = step(compute_mid);
  out.communication_fraction = out.step_seconds_expected > 0
                                   ? exposed_mid / out.step_seconds_expected
                                   : 0;
  const double all_comm =
      out.overlappable_comm_seconds + out.critical_comm_seconds;
  out.comm_to_compute_ratio = compute_mid > 0 ? all_comm / compute_mid : 0;
  return out;
}

BoundCheck DataParallelBound(double tokens_per_device,
                             double peak_flops_per_device,
                             double collective_bytes_per_s, int participants) {
  if (collective_bytes_per_s <= 0) return MinCheck(tokens_per_device, 0);
  double required = peak_flops_per_device / collective_bytes_per_s;
  if (participants > 1) {
    required *= static_cast<double>(participants - 1) / participants;
  }
  return MinCheck(tokens_per_device, required);
}

BoundCheck TensorParallelBound(int tp_degree, double ffn_hidden_size,
                               double peak_flops_per_device,
                               double collective_bytes_per_s) {
  BoundCheck check;
  check.actual = tp_degree;
  check.required =
      peak_flops_per_device > 0
          ? ffn_hidden_size * collective_bytes_per_s / peak_flops_per_device
          : 0;
  check.ratio = check.required > 0 ? check.actual / check.required : 0;
  check.communication_bound = tp_degree > 1 && check.actual > check.required;
  return check;
}

BoundCheck FsdpTensorParallelBound(double tokens_per_device,
                                   double ffn_hidden_size,
                                   double peak_flops_per_device,
                                   double collective_bytes_per_s) {
  if (collective_bytes_per_s <= 0 || ffn_hidden_size <= 0) {
    return MinCheck(tokens_per_device, 0);
  }
  const double alpha = peak_flops_per_device / collective_bytes_per_s;
  return MinCheck(tokens_per_device, 2.0 * alpha * alpha / ffn_hidden_size);
}

BoundCheck DcnDataParallelBound(double tokens_per_slice, int chips_per_slice,
                                double peak_flops_per_chip, int hosts_per_slice,
                                double dcn_bytes_per_s_per_host) {
  const double dcn = std::max(1, hosts_per_slice) * dcn_bytes_per_s_per_host;
  if (dcn <= 0) return MinCheck(tokens_per_slice, 0);
  return MinCheck(tokens_per_slice,
                  std::max(1, chips_per_slice) * peak_flops_per_chip / dcn);
}

}  // namespace accelplan::planner
