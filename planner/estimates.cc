// Stage 5: the numbers of one point.
#include "planner/estimates.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/collective_latency.h"
#include "planner/domains.h"
#include "planner/efficiency.h"
#include "planner/engine_common.h"
#include "planner/experts.h"
#include "planner/optimizer_offload.h"
#include "planner/policy.h"
#include "planner/reduction_server.h"
#include "planner/slice_replica.h"
#include "planner/tree_boosting.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

using catalog::Accelerator;
using catalog::Catalog;
using catalog::MachineType;

bool Fp32RunsAsTf32(const Workload& w) {
  // A CNN's convolutions run as TF32 under every framework's default
  // (cuDNN's: torch.backends.cudnn.allow_tf32 is on; TensorFlow and XLA
  // take TF32 for all matrix work); PyTorch's matmuls do not (since 1.12).
  if (w.model_kind == ModelKind::kCnn) return true;
  switch (w.framework) {
    case Framework::kTensorflow:
    case Framework::kJax:
      return true;
    default:
      return false;
  }
}

double PeakFlops(const Family& f, const Shape& s, Precision p, bool tf32,
                 std::vector<std::string>* sources, std::string* note) {
  if (f.platform == Platform::kCpu) {
    const catalog::Series& series = *f.series;
    const int vcpus = s.machine->vcpus.value_or(0);
    if (vcpus <= 0) return 0;
    if (p == Precision::kFp64Required && IsFine(series.fp64_flops_per_vcpu)) {
      if (sources) AddSource(*sources, series.fp64_flops_per_vcpu->source_id);
      return series.fp64_flops_per_vcpu->value * vcpus;
    }
    if (!IsFine(series.fp32_flops_per_vcpu)) return 0;
    if (sources) AddSource(*sources, series.fp32_flops_per_vcpu->source_id);
    double v = series.fp32_flops_per_vcpu->value * vcpus;
    if (p == Precision::kFp64Required) {
      v /= 2;  // half the fp32 rate: SIMD lanes hold half as many doubles
      if (note) *note = "CPU fp64 peak taken as half the fp32 peak.";
    }
    return v;
  }
  const Accelerator* a = f.accelerator;
  if (a == nullptr) return 0;
  const std::optional<catalog::Fact>* fact = nullptr;
  switch (p) {
    case Precision::kFp16Mixed:
      fact = IsFine(a->peak_fp16) ? &a->peak_fp16 : &a->peak_bf16;
      break;
    case Precision::kFp32:
      fact = (tf32 && IsFine(a->peak_tf32)) || !IsFine(a->peak_fp32)
                 ? &a->peak_tf32
                 : &a->peak_fp32;
      break;
    case Precision::kFp8: fact = &a->peak_fp8; break;
    case Precision::kFp64Required: fact = &a->peak_fp64; break;
    default:
      fact = IsFine(a->peak_bf16) ? &a->peak_bf16 : &a->peak_fp16;
      break;
  }
  if (fact != nullptr && IsFine(*fact)) {
    if (sources) AddSource(*sources, (*fact)->source_id);
    return (*fact)->value;
  }
  if (p == Precision::kFp32 && IsFine(a->peak_bf16) &&
      a->platform == catalog::Platform::kTpu) {
    // TPUs multiply fp32 matrices in bfloat16 with fp32 accumulation by
    // default (Cloud TPU's bfloat16 guide; JAX's default matmul precision,
    // docs.jax.dev/en/latest/201/precision.html): the MXU's bf16 rate.
    // Several passes (bf16_3x, HIGHEST) are opt-in, as TF32 off is on GPUs.
    if (note) {
      *note =
          "TPU fp32: matrix products at the bf16 peak, as TPUs run them by "
          "default (bfloat16 multiplies, float32 accumulation: "
          "https://cloud.google.com/tpu/docs/bfloat16); a job that sets a "
          "higher matmul precision runs several bf16 passes per product.";
    }
    if (sources) AddSource(*sources, a->peak_bf16->source_id);
    return a->peak_bf16->value;
  }
  return 0;
}

DeviceClass ClassOf(const Family& f) {
  switch (f.platform) {
    case Platform::kTpu: return DeviceClass::kTpu;
    case Platform::kCpu: return DeviceClass::kCpu;
    default: return f.modern ? DeviceClass::kModernGpu : DeviceClass::kOlderGpu;
  }
}

TpTraffic TensorParallelTraffic(const Job& job, const Family& f, int n,
                                const ShardingLayout& layout) {
  TpTraffic out;
  const TransformerShape& shape = job.workload.transformer_shape;
  const int tp = std::max(1, layout.tensor);
  const int pp = std::max(1, layout.pipeline);
  if (tp <= 1 || shape.hidden_size <= 0) return out;
  const int replicas = std::max(1, n / (tp * pp));
  const double tokens_per_replica = job.tokens_per_step / replicas;
  out.bytes = 4.0 * shape.layers / pp * tokens_per_replica * shape.hidden_size * 2.0;
  out.link_bytes_per_s = DomainLinkBytesPerS(f);
  return out;
}

double NicSharePerDevice(const catalog::MachineType* m) {
  return m != nullptr && m->accelerator_count > 0 && m->network_bits_per_s &&
                 *m->network_bits_per_s > 0
             ? *m->network_bits_per_s / 8 / m->accelerator_count
             : 0;
}

double DomainLinkBytesPerS(const Family& f) {
  return f.platform == Platform::kTpu ? f.ici_bytes_per_s
                                      : f.intra_vm_bytes_per_s;
}

double PipelineLinkBytesPerS(const Family& f, const Config& c) {
  if (f.platform == Platform::kTpu) {
    return c.slices > 1 ? f.dcn_bytes_per_s_per_chip : f.ici_bytes_per_s;
  }
  return c.hosts > 1 ? f.inter_vm_bytes_per_s : f.intra_vm_bytes_per_s;
}

int DevicesPerVm(const Config& c) {
  const catalog::MachineType* m =
      c.shape != nullptr ? c.shape->machine : nullptr;
  return m != nullptr && m->accelerator_count > 0 ? m->accelerator_count : 1;
}

namespace {

// The per-rank bandwidth of a ring collective across GPU VMs. NCCL lays a
// ring out host by host and runs one channel per NIC, so each host's NICs
// carry one inter-host hop per ring: a group with k ranks on each host moves
// its bytes at k times the per-GPU share of the host's egress, never more
// than the NVLink/PCIe link inside the VM (NCCL's ring algorithm,
// https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md: bus
// bandwidth is the slowest link's, and across nodes that is the NICs').
// The share is the point's own VM's, not the family's largest.
double CrossHostRankLink(const Family& f, const Config& c, int ranks_per_host) {
  // The VM's whole bandwidth: GPUDirect NICs (A3) carry NCCL's traffic.
  const double vm_share =
      NicSharePerDevice(c.shape != nullptr ? c.shape->machine : nullptr);
  const double share = vm_share > 0 ? vm_share : f.inter_vm_bytes_per_s;
  return std::min(f.intra_vm_bytes_per_s, share * std::max(1, ranks_per_host));
}

// Ranks of one collective group on each GPU VM: Megatron-style rank order
// puts tensor parallelism innermost (inside the VM), then the data-parallel
// (or FSDP) group, pipeline stages outermost.
int GroupRanksPerHost(const Config& c, int group_size) {
  return std::clamp(DevicesPerVm(c) / std::max(1, c.layout.tensor), 1,
                    std::max(1, group_size));
}

// A data-parallel or FSDP group of `group` ranks, under Megatron's rank
// order (tensor parallelism innermost), lies inside one NVLink domain of
// the point (NvlinkDomainDevices: one VM, or an NVL72 sub-block's VMs).
bool InsideNvlinkDomain(const Family& f, const Config& c, int group) {
  return std::max(1, group) * std::max(1, c.layout.tensor) <=
         NvlinkDomainDevices(f, c);
}

// The per-rank link of a GPU collective group: NVLink (or PCIe) when the
// group fits inside one NVLink domain of the point — one VM, or an NVL72
// rack's VMs, where NCCL runs the collective over NVLink — else the
// ring's share of the VMs' NICs.
double GpuGroupLink(const Family& f, const Config& c, int group) {
  if (InsideNvlinkDomain(f, c, group) && NvlinkDomainDevices(f, c) > 1) {
    return f.intra_vm_bytes_per_s;
  }
  return CrossHostRankLink(f, c, GroupRanksPerHost(c, group));
}

// The link the gradient collectives ride inside a slice or cluster: ICI on
// a TPU, the host network across GPU VMs (as one group of all the VM's
// ranks), NVLink/PCIe inside one.
double CollectiveLink(const Family& f, const Config& c) {
  const bool multi_host = c.hosts > 1;
  if (f.platform == Platform::kTpu) return f.ici_bytes_per_s;
  if (!multi_host) return f.intra_vm_bytes_per_s;
  const int group = c.layout.zero_stage == 3 ? c.layout.fsdp : c.layout.data;
  return GpuGroupLink(f, c, group);
}

// The pipeline's schedule (planner/pipeline_schedule.h) and its
// point-to-point traffic: each micro-batch's activations (s·b·h 16-bit
// values, split over the TP ranks by Megatron's scatter-gather) cross
// every chunk boundary forward and their gradients backward, v times per
// device under interleaving (arXiv:2104.04473 §2.2.2, §4.1), over the
// network between VMs.
void AddPipeline(const Job& job, const Family& f, const Config& c,
                 int replicas, StepTimeInput& in) {
  const ShardingLayout& l = c.layout;
  const int seq = std::max(1, job.sequence_length);
  in.pipeline_stages = l.pipeline;
  in.virtual_stages = std::max(1, l.virtual_stages);
  // Clamped before the cast: absurd-but-valid batches must not overflow.
  in.microbatches =
      l.microbatches > 0
          ? l.microbatches
          : static_cast<int>(
                std::clamp(job.tokens_per_step / seq / replicas, 1.0, 1e9));
  const int hidden = job.workload.transformer_shape.hidden_size;
  if (hidden <= 0) return;
  const double micro_batch =
      l.micro_batch > 0 ? l.micro_batch
                        : job.tokens_per_step / seq / replicas / in.microbatches;
  in.pp_bytes_per_step = 2.0 * in.virtual_stages * in.microbatches *
                         micro_batch * seq * hidden * 2.0 /
                         std::max(1, l.tensor);
  // Stages on different slices hand over at each chip's DCN share.
  in.pp_link_bytes_per_s = PipelineLinkBytesPerS(f, c);
}

// Devices of one slice (every device off a Multislice point).
int DevicesPerSlice(const Config& c) {
  return c.slices > 0 ? c.devices / c.slices : c.devices;
}

// FSDP whose shards span slices: its gathers and reduce-scatters cross DCN,
// and there is no separate gradient all-reduce over DCN.
bool FsdpOverDcn(const Config& c) {
  return c.slices > 1 && ShardsAcrossSlices(c.layout, DevicesPerSlice(c));
}

// One data-parallel replica's gradient on the wire: a pipeline stage's
// tensor-parallel shard of the whole gradient.
double ReplicaGradientBytes(const Job& job, const Config& c) {
  return job.params * GradientWireBytesPerParam(job.precision) /
         (std::max(1, c.layout.tensor) * std::max(1, c.layout.pipeline));
}

// HSDP (FSDP groups smaller than the data-parallel degree, one slice):
// each shard group's gradient shard is all-reduced between the groups'
// replicas, which sit fsdp·tp ranks apart — over the NICs unless every
// replica is inside one NVLink domain (PyTorch HYBRID_SHARD, DeepSpeed
// ZeRO++ hpZ).
void AddShardReplicaAllReduce(const Family& f, const Config& c,
                              double replica_gradient, double link,
                              StepTimeInput& in) {
  const int fsdp = std::max(1, c.layout.fsdp);
  const int tp = std::max(1, c.layout.tensor);
  const int shard_replicas = c.layout.data / fsdp;
  if (c.slices > 1 || shard_replicas <= 1) return;
  in.bytes_allreduce_per_step = replica_gradient / fsdp;
  in.ring_size = shard_replicas;
  in.link_bytes_per_s = link;
  if (f.platform == Platform::kGpu && c.hosts > 1 &&
      !InsideNvlinkDomain(f, c, c.layout.data)) {
    in.link_bytes_per_s = CrossHostRankLink(
        f, c, std::clamp(DevicesPerVm(c) / (tp * fsdp), 1, shard_replicas));
  }
}

// The per-step traffic of the layout: FSDP gathers or gradient all-reduce,
// DCN across slices, tensor-parallel activations and pipeline microbatches.
// A single device, classical ML or a stated per-device memory has none.
void AddCommunication(const Job& job, const Family& f, const Config& c,
                      double link, StepTimeInput& in) {
  const int n = c.devices;
  const bool communicates = !job.classical && job.model_size_known && n > 1 &&
                           job.workload.per_device_memory_gib <= 0;
  if (!communicates) return;
  const double grad_bytes =
      job.params * GradientWireBytesPerParam(job.precision);
  const double replica_gradient = ReplicaGradientBytes(job, c);
  const int per_slice = DevicesPerSlice(c);
  const int tp = std::max(1, c.layout.tensor);
  const int pp = std::max(1, c.layout.pipeline);
  const int replicas = std::max(1, n / (tp * pp));
  const bool fsdp_over_dcn = FsdpOverDcn(c);
  if (c.layout.zero_stage == 3) {
    // A pipeline stage gathers only its own layers.
    in.fsdp_bytes = GatheredParams(job, c.layout) * 2.0 / (tp * pp);
    in.fsdp_size = c.layout.fsdp;
    in.fsdp_link_bytes_per_s = link;
    in.fsdp_over_network =
        f.platform != Platform::kGpu ||
        (c.hosts > 1 && !InsideNvlinkDomain(f, c, c.layout.fsdp));
    in.fsdp_passes = pp > 1 ? 1 : std::max(1, c.accumulation_steps);
    if (fsdp_over_dcn && f.dcn_bytes_per_s_per_chip > 0) {
      // Hierarchical, as XLA lowers a collective over a Multislice mesh:
      // the gathers and the reduce-scatter run over ICI inside each slice,
      // and across slices each chip carries its 1/per_slice share of what
      // its slice lacks over DCN (the data-parallel gradient below is
      // split the same way). Two gathers and one reduce-scatter are 1.5
      // all-reduces. With tensor parallelism inside the slice a shard
      // group is per_slice / tp chips, each already holding 1/tp.
      const int shard_group = std::max(1, per_slice / tp);
      in.fsdp_size = shard_group;
      in.dcn_bytes_allreduce_per_step =
          1.5 * in.fsdp_bytes / shard_group * in.fsdp_passes;
      in.dcn_size = c.slices;
      in.dcn_bytes_per_s = f.dcn_bytes_per_s_per_chip;
    }
    AddShardReplicaAllReduce(f, c, replica_gradient, link, in);
  } else if (c.slices <= 1) {
    // Plain or ZeRO-1 data parallel: each replica all-reduces (or
    // reduce-scatters + all-gathers, the same volume) its gradient shard.
    in.bytes_allreduce_per_step = replica_gradient;
    in.ring_size = replicas;
    in.link_bytes_per_s = f.platform == Platform::kGpu && c.hosts > pp
                              ? GpuGroupLink(f, c, replicas)
                              : link;
  } else {
    // Inside each slice the replicas of a stage's TP shard all-reduce it.
    in.bytes_allreduce_per_step = replica_gradient;
    in.ring_size = std::max(1, per_slice / tp);
    in.link_bytes_per_s = link;
  }
  // Across slices the gradient is all-reduced between the replicas of each
  // pipeline stage: one per group of `pp` slices when the stages span
  // slices (each chip's share of its stage), every slice otherwise.
  const int dcn_replicas = c.slices / (c.slices > 1 && pp > 1 ? pp : 1);
  if (c.slices > 1 && !fsdp_over_dcn && dcn_replicas > 1) {
    in.dcn_bytes_allreduce_per_step = grad_bytes / pp / per_slice;
    in.dcn_size = dcn_replicas;
    in.dcn_bytes_per_s = f.dcn_bytes_per_s_per_chip;
  }
  const TpTraffic traffic = TensorParallelTraffic(job, f, n, c.layout);
  if (traffic.bytes > 0) {
    in.tp_bytes_allreduce_per_step = traffic.bytes;
    in.tp_size = tp;
    in.tp_link_bytes_per_s = traffic.link_bytes_per_s;
  }
  if (pp > 1) AddPipeline(job, f, c, replicas, in);
  in.a2a_bytes_per_step = ExpertAllToAllBytes(job, c.layout, n);
  if (in.a2a_bytes_per_step > 0) {
    in.a2a_link_bytes_per_s = DomainLinkBytesPerS(f);
  }
}

// Axes of a TPU slice's torus ("16x16" 2, "4x4x4" 3).
int TorusDims(const Config& c) {
  if (c.shape == nullptr || c.shape->topology == nullptr) return 2;
  const std::string& t = c.shape->topology->topology;
  return 1 + static_cast<int>(std::count(t.begin(), t.end(), 'x'));
}

// A collective group's latency per step: `count` collectives (of `bytes`
// in all) over `ranks` ranks. A GPU group is NCCL's (its hosts: the
// group's ranks on each host, GroupRanksPerHost), a TPU group XLA's over
// ICI.
struct LatencyGroup {
  CollectiveOp op = CollectiveOp::kAllReduce;
  double bytes = 0;
  double count = 0;  // a double: layers x micro-batches can pass int
  int ranks = 1;
  bool inside_vm = false;  // TP: the group shares one VM's NVLink
};

double GroupLatency(const Family& f, const Config& c, const LatencyGroup& g) {
  if (g.count <= 0 || g.ranks <= 1 || !(g.bytes > 0)) return 0;
  if (f.platform == Platform::kTpu) {
    return g.count * IciCollectiveLatencySeconds(g.op, g.ranks, TorusDims(c));
  }
  if (f.platform != Platform::kGpu) return 0;
  int nodes = 1;
  // A group inside one NVLink domain spanning VMs is one NVLink clique.
  const bool in_domain = InsideNvlinkDomain(f, c, g.ranks);
  if (!g.inside_vm && !in_domain && c.hosts > 1) {
    const int per_host = GroupRanksPerHost(c, g.ranks);
    nodes = std::min(c.hosts, (g.ranks + per_host - 1) / per_host);
  }
  return g.count * NcclLatencySeconds(g.op, g.ranks, nodes, f.nvlink,
                                      f.network_hop_extra_us);
}

// One pipeline hand-over between neighbouring stages: a two-rank transfer
// inside the VM or slice, or between VMs or slices when the stages span
// them (as AddPipeline's link).
double PipelineSendLatency(const Family& f, const Config& c) {
  if (f.platform == Platform::kTpu) {
    return c.slices > 1 ? kLatency.dcn_hop_us.value * 1e-6
                        : IciCollectiveLatencySeconds(CollectiveOp::kAllGather,
                                                      2, TorusDims(c));
  }
  if (f.platform != Platform::kGpu) return 0;
  return NcclLatencySeconds(CollectiveOp::kAllGather, 2, c.hosts > 1 ? 2 : 1,
                            f.nvlink, f.network_hop_extra_us);
}

// The fixed latency of the step's collectives (planner/collective_latency.h):
// the gradient all-reduce in buckets, FSDP's two gathers and one
// reduce-scatter per layer (one FSDP unit per transformer block), Megatron's
// four TP all-reduces per layer per micro-batch, the DCN all-reduce and the
// pipeline's hand-overs. Expert all-to-alls are not charged (docs/planner.md
// §13).
void AddCollectiveLatency(const Job& job, const Family& f, const Config& c,
                          StepTimeInput& in) {
  const int pp = std::max(1, c.layout.pipeline);
  // The layers of the deepest stage.
  const int layers = (job.workload.transformer_shape.layers + pp - 1) / pp;
  in.dp_latency_seconds = GroupLatency(
      f, c,
      {CollectiveOp::kAllReduce, in.bytes_allreduce_per_step,
       GradientBuckets(in.bytes_allreduce_per_step), in.ring_size});
  const double units = std::max(1, layers);  // FSDP units, TP layers
  in.fsdp_latency_seconds = GroupLatency(
      f, c,
      {CollectiveOp::kAllGather, 3 * in.fsdp_bytes, 3 * units, in.fsdp_size});
  const double microbatches =
      std::max(1, pp > 1 ? in.microbatches : c.layout.microbatches);
  in.tp_latency_seconds =
      GroupLatency(f, c,
                   {CollectiveOp::kAllReduce, in.tp_bytes_allreduce_per_step,
                    4 * units * microbatches, in.tp_size, true});
  if (in.dcn_bytes_allreduce_per_step > 0 && in.dcn_size > 1) {
    // FSDP over DCN gathers and reduce-scatters per layer; a data-parallel
    // gradient crosses the slices bucket by bucket, the replica's buckets
    // (each chip carrying its share of every bucket).
    const bool fsdp_over_dcn = c.layout.zero_stage == 3 && FsdpOverDcn(c);
    const double collectives =
        fsdp_over_dcn ? 3 * units * in.fsdp_passes
                      : GradientBuckets(ReplicaGradientBytes(job, c));
    in.dcn_latency_seconds =
        collectives * DcnAllReduceLatencySeconds(in.dcn_size);
  }
  if (pp > 1) {
    const double slots = static_cast<double>(std::max(1, in.microbatches)) *
                             std::max(1, in.virtual_stages) +
                         pp - 1;
    in.pp_latency_seconds = 2 * slots * PipelineSendLatency(f, c);
  }
}

// The steps at the step time (classical ML: its nominal steps at the
// boosting time of planner/tree_boosting.h), plus the job's start-up
// (kPolicy.job_startup_hours).
void EstimateHours(const Job& job, Config& c) {
  const double steps = job.tokens / job.tokens_per_step;
  const double startup = kPolicy.job_startup_hours.value;
  c.hours = {steps * c.step.step_seconds_fast / 3600 + startup,
             steps * c.step.step_seconds_expected / 3600 + startup,
             steps * c.step.step_seconds_slow / 3600 + startup};
}

}  // namespace

double RunBatchOverStated(const Job& job, const Config& c) {
  if (!job.batch_given || job.classical || job.batch_sequences <= 0) return 1;
  // A team's own per-device footprint is its own layout, which may split
  // the batch over fewer ranks than devices (ChooseFixedFootprint).
  if (job.workload.per_device_memory_gib > 0 || !job.model_size_known) {
    return 1;
  }
  // Each rank's whole micro-batches, as the memory model holds them.
  const ReplicaBatch b = ReplicaBatchOf(job.batch_sequences, c.layout);
  return std::max(1.0, b.run_per_rank() * b.ranks / job.batch_sequences);
}

TimingInputs StepInputs(const Job& job, const Family& f, const Config& c,
                        bool end_to_end) {
  TimingInputs out;
  StepTimeInput& in = out.step;
  in.devices = c.devices;
  in.peak_flops_per_device = c.peak_flops;
  in.mfu_low = c.mfu.low;
  in.mfu_high = c.mfu.high;
  // Model FLOPs (6·P + attention), never the recompute's: published MFU
  // excludes the recomputed forward from its FLOPs but not from its time,
  // so a measured band already charges the recompute its runs used.
  // A stated batch that does not split evenly runs its padding too.
  in.flops_per_step_total = job.flops_per_unit * job.tokens_per_step *
                            RunBatchOverStated(job, c);
  in.overheads_in_mfu = end_to_end && c.mfu.runs > 0 && c.layout.pipeline <= 1;
  in.tp_in_mfu = std::max(1, c.layout.tensor) <= c.mfu.tensor_parallel;
  in.a2a_in_mfu = f.platform == Platform::kTpu || f.nvlink;
  out.collective_link_bytes_per_s = CollectiveLink(f, c);
  AddCommunication(job, f, c, out.collective_link_bytes_per_s, in);
  AddCollectiveLatency(job, f, c, in);
  // Offloaded activations cross PCIe, overlapped (planner/time_model.h).
  if (f.platform != Platform::kCpu) {
    in.host_transfer_bytes_per_step = c.memory.host_transfer_bytes_per_step;
    in.host_link_bytes_per_s = kPcieBytesPerS;
    in.host_optimizer_seconds = HostOptimizerSeconds(c);
  }
  in.gradient_sync_exposed = GradientSyncExposed(job, f, c);
  return out;
}

void TimeFromInputs(const Job& job, const Family& f, const TimingInputs& in,
                    Config& c) {
  c.step = EstimateStepTime(in.step);
  c.reducers.reset();
  ApplyReductionServer(job, f, c, in.step);  // planner/reduction_server.h
  // A flag for the reasons only: communication lengthens the step, it
  // never removes a configuration.
  c.comm_bound = c.step.comm_to_compute_ratio > 1.0;
  c.comm_link_bytes_per_s = c.slices > 1 ? f.dcn_bytes_per_s_per_chip
                                         : in.collective_link_bytes_per_s;
  if (c.step.step_seconds_expected > 0) {
    c.tokens_per_second = job.tokens_per_step / c.step.step_seconds_expected;
  }
  if (job.has_dataset) EstimateHours(job, c);
}

void EstimateTime(const Job& job, const Family& f, Config& c, bool end_to_end,
                  const MfuRange* mfu) {
  if (job.classical) {
    TimeTreeBoosting(job, f, c);
    if (job.has_dataset) EstimateHours(job, c);
    return;
  }
  c.mfu = mfu != nullptr ? *mfu : CalibratedMfu(job, f);
  TimeFromInputs(job, f, StepInputs(job, f, c, end_to_end), c);
}

double TrainingHours(double hours) {
  return hours - kPolicy.job_startup_hours.value;
}

void Price(const Job& job, Config& c, Provisioning prov) {
  const Shape& s = *c.shape;
  c.on_demand_known = s.on_demand_hourly.has_value();
  c.spot_known = s.spot_hourly.has_value();
  c.hourly_on_demand = s.on_demand_hourly.value_or(0) * c.units;
  c.hourly_spot = s.spot_hourly.value_or(0) * c.units;
  if (c.reducers) {  // pool 2 bills alongside the workers
    c.hourly_on_demand += c.reducers->hourly_on_demand;
    c.hourly_spot += c.reducers->spot_known ? c.reducers->hourly_spot
                                            : c.reducers->hourly_on_demand;
  }
  c.price_known = prov == Provisioning::kSpot ? c.spot_known : c.on_demand_known;
  c.hourly = prov == Provisioning::kSpot ? c.hourly_spot : c.hourly_on_demand;
  if (job.has_dataset && c.price_known) {
    c.cost = {c.hours.low * c.hourly, c.hours.expected * c.hourly,
              c.hours.high * c.hourly};
  }
}

}  // namespace accelplan::planner::internal
