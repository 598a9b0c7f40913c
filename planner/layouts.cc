// Stage 4: layouts and the memory they need.
#include "planner/layouts.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "planner/domains.h"
#include "planner/efficiency.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/experts.h"
#include "planner/optimizer_offload.h"
#include "planner/pipeline_schedule.h"
#include "planner/slice_layouts.h"
#include "planner/slice_replica.h"
#include "planner/util.h"
#include "planner/zero_stage_pin.h"

namespace accelplan::planner::internal {

MemoryEstimate Memory(const Job& job, const ShardingLayout& layout,
                      Recompute recompute, int64_t global_batch_override) {
  // A CNN's activations are per example: an assumed batch is held in
  // memory too (micro-batched by SchedulesFor), not one image.
  const int64_t global =
      global_batch_override > 0            ? global_batch_override
      : job.workload.global_batch_size > 0 ? job.workload.global_batch_size
      : job.cnn_forward_flops > 0
          ? static_cast<int64_t>(std::max(1.0, job.batch_sequences))
          : 0;
  return EstimateMemoryPerDevice(
      job.memory_model,
      recompute == Recompute::kUnspecified ? Recompute::kSelective : recompute,
      global, layout);
}

MemoryEstimate Memory(const Job& job, const ShardingLayout& layout) {
  return Memory(job, layout, job.workload.recompute);
}

namespace {

// The layout with the experts split over the domain, when the job has
// experts and the domain can take more than one EP rank.
void PushWithExperts(const Job& job, const Family& f, const Config& c,
                     int domain, ShardingLayout l, Strategy s,
                     LayoutList& out) {
  l.expert = DomainExpertParallel(job, f, c, domain, l.tensor);
  if (l.expert > 1) out.push_back({l, s});
}

// Optimizer offload (planner/optimizer_offload.h), where the job and the
// VM allow it: one device with ZeRO-Offload's stage 2, or ZeRO-3 over the
// VMs' devices. Listed last (it loses every tie): it only adds a host
// step, so it wins where the other layouts do not fit, or fit only more
// slowly (LowerBound prunes it otherwise).
void PushOptimizerOffload(const Job& job, const Family& f, const Config& c,
                          LayoutList& out) {
  if (c.host_usable_bytes <= 0 || c.slices > 1 ||
      !OptimizerOffloadOffered(job, f)) {
    return;
  }
  ShardingLayout l;
  l.data = c.devices;
  l.zero_stage = c.devices == 1 ? 2 : 3;
  l.fsdp = c.devices;
  l.optimizer_offload = true;
  out.push_back(
      {l, c.devices == 1 ? Strategy::kSingleDevice : Strategy::kFsdp});
}

struct ModelParallelScope {
  int tp = 1;
  int per_slice = 1;
  int domain = 1;  // DomainDevices
  bool shard_across = false;
};

// The layouts with tensor parallelism `s.tp` over the FSDP layout: TP ×
// FSDP (with experts, and over slices when one cannot hold a replica),
// then TP × PP × ZeRO-1 across GPU VMs.
void PushModelParallel(const Job& job, const Family& f, const Config& c,
                       const ModelParallelScope& s, const ShardingLayout& fsdp,
                       LayoutList& out) {
  const int n = c.devices, tp = s.tp;
  ShardingLayout hybrid = fsdp;
  hybrid.tensor = tp;
  hybrid.fsdp = s.per_slice / tp;
  hybrid.data = n / tp;
  out.push_back({hybrid, Strategy::kHybrid});
  PushWithExperts(job, f, c, s.domain, hybrid, Strategy::kHybrid, out);
  if (s.shard_across) {
    out.push_back({ShardedOverSlices(n, tp), Strategy::kHybrid});
  }
  const int layers = job.workload.transformer_shape.layers;
  if (f.platform != Platform::kGpu || c.hosts <= 1 ||
      !FrameworkHasPipelines(job)) {
    return;
  }
  for (int pp : {2, 4, 8, 16, 32}) {
    if (c.hosts % pp != 0 || pp > layers || n % (tp * pp) != 0) continue;
    ShardingLayout three_d;
    three_d.tensor = tp;
    three_d.pipeline = pp;
    three_d.data = n / (tp * pp);
    three_d.zero_stage = three_d.data > 1 ? 1 : 0;
    three_d.fsdp = three_d.data;
    out.push_back({three_d, Strategy::kHybrid});
  }
}

// Every layout but optimizer offload, in SPEC §4's order of preference.
LayoutList OnDeviceLayoutsFor(const Job& job, const Family& f,
                              const Config& c) {
  LayoutList out;
  const int n = c.devices;
  ShardingLayout dp;
  dp.data = n;
  out.push_back({dp, n == 1 ? Strategy::kSingleDevice : Strategy::kDataParallel});
  if (n == 1) return out;
  const int per_slice = c.slices > 1 ? n / c.slices : n;
  if (f.platform != Platform::kCpu) {
    // ZeRO-1 (Megatron-LM's distributed optimizer, DeepSpeed stage 1): data
    // parallelism's traffic, once per step, with the optimizer state
    // sharded over each slice's ranks. Stage 2 is not searched: under
    // gradient accumulation DeepSpeed reduce-scatters the gradients every
    // micro-step, which the time model does not charge (a pinned
    // workload.zero_stage still gets it, planner/zero_stage_pin.h).
    ShardingLayout zero1 = dp;
    zero1.zero_stage = 1;
    zero1.fsdp = per_slice;
    out.push_back({zero1, Strategy::kDataParallel});
  }
  ShardingLayout fsdp;
  fsdp.data = n;
  fsdp.zero_stage = 3;
  fsdp.fsdp = per_slice;
  out.push_back({fsdp, Strategy::kFsdp});
  const int domain = DomainDevices(f, c, per_slice);
  if (f.platform != Platform::kCpu) {
    PushWithExperts(job, f, c, domain, fsdp, Strategy::kFsdp, out);
  }
  // Over slices, the layouts above keep a replica in each slice; when one
  // slice cannot hold it, FSDP spans the slices too (FSDP over DCN).
  const bool shard_across =
      c.slices > 1 && ReplicaExceedsSlice(job, SliceOfPoint(f, c)).has_value();
  if (shard_across) out.push_back({ShardedOverSlices(n, 1), Strategy::kFsdp});
  if (ModelParallelLayers(job) <= 0 || f.platform == Platform::kCpu) {
    return out;
  }
  // Where the NVLink domain spans VMs, TP inside one VM first (it needs
  // no shared domain), then across the domain's VMs.
  const int tp = TensorDegreeTheHeadsAllow(
      job, DomainTensorParallel(f, c, per_slice), f.platform);
  const int vm_tp =
      f.platform == Platform::kGpu && domain > DevicesPerVm(c)
          ? std::min(tp, LargestPowerOfTwoDividing(DevicesPerVm(c)))
          : tp;
  if (vm_tp < tp && vm_tp > 1) {
    PushModelParallel(job, f, c, {vm_tp, per_slice, domain, shard_across}, fsdp,
                      out);
  }
  if (tp > 1 && per_slice % tp == 0) {
    PushModelParallel(job, f, c, {tp, per_slice, domain, shard_across}, fsdp,
                      out);
  }
  return out;
}

// Over slices where a slice holds a replica only with tensor parallelism
// (so the search keeps data parallelism over DCN, with TP: SPEC §4): a
// pinned FSDP-only layout (today's, or a proposal's) spans the slices
// instead, or it would have no point where fewer, smaller slices have one.
bool FsdpAloneSpansSlices(const Job& job, const Family& f, const Config& c) {
  if (c.slices <= 1 || c.usable_bytes <= 0 ||
      job.workload.per_device_memory_gib > 0 ||
      ReplicaExceedsSlice(job, SliceOfPoint(f, c)).has_value()) {
    return false;  // one slice, or FSDP over DCN is searched already
  }
  return ReplicaPerSliceBytes(job, c.devices / c.slices, c.slices,
                              /*tensor_parallel=*/1) > c.usable_bytes;
}

LayoutList AllLayoutsFor(const Job& job, const Family& f, const Config& c) {
  LayoutList out = OnDeviceLayoutsFor(job, f, c);
  PushOptimizerOffload(job, f, c, out);
  return out;
}

}  // namespace

bool OfStrategy(const ShardingLayout& l, Strategy s, Strategy only) {
  switch (only) {
    case Strategy::kUnspecified: return true;
    case Strategy::kSingleDevice:
      // One device: ZeRO-Offload's stage shards nothing.
      return l.tensor <= 1 && l.pipeline <= 1 &&
             (l.zero_stage == 0 || (l.optimizer_offload && l.data <= 1));
    case Strategy::kDataParallel:
      // ZeRO-1/2 shard optimizer state and gradients of data parallelism
      // (a pinned workload.zero_stage, planner/zero_stage_pin.h).
      return l.tensor <= 1 && l.pipeline <= 1 &&
             (l.zero_stage == 0 || (l.zero_stage < 3 && !l.optimizer_offload));
    case Strategy::kHorovod:
      return l.tensor <= 1 && l.pipeline <= 1 && l.zero_stage == 0;
    case Strategy::kFsdp:
      return s == Strategy::kFsdp ||
             (l.data <= 1 && l.tensor <= 1 && l.pipeline <= 1);
    case Strategy::kTensorParallel: return l.tensor > 1 && l.pipeline <= 1;
    case Strategy::kPipelineParallel: return l.pipeline > 1;
    case Strategy::kHybrid:  // model parallel, or replicated FSDP (HSDP)
      return l.tensor > 1 || l.pipeline > 1 ||
             (l.zero_stage >= 3 && l.fsdp > 1 && l.data > l.fsdp);
    default: return true;
  }
}

bool HasDegrees(const ShardingLayout& l, int n, const LayoutPin& pin) {
  const LayoutDegrees g = DegreesOf(l, n);
  return (pin.tensor <= 0 || g.tensor == pin.tensor) &&
         (pin.pipeline <= 0 || g.pipeline == pin.pipeline) &&
         (pin.fsdp <= 0 || g.fsdp == pin.fsdp) &&
         (pin.data <= 0 || g.data == pin.data);
}

namespace {

// The ZeRO-1 data parallelism OnDeviceLayoutsFor searches.
bool IsSearchedZero1(const ShardingLayout& l) {
  return l.zero_stage == 1 && l.tensor <= 1 && l.pipeline <= 1 &&
         !l.optimizer_offload;
}

}  // namespace

LayoutList LayoutsFor(const Job& job, const Family& f, const Config& c,
                      const LayoutPin& only) {
  if (!only.any()) return AllLayoutsFor(job, f, c);
  LayoutList of_strategy;
  for (const auto& item : AllLayoutsFor(job, f, c)) {
    // Today's stated data parallelism is plain DDP: the searched ZeRO-1 is
    // not what a team states it runs (a pinned workload.zero_stage turns
    // DDP into its stage, planner/zero_stage_pin.h); a proposal's may be
    // either (LayoutPin::proposed).
    if (IsSearchedZero1(item.first) && !only.proposed) continue;
    if (OfStrategy(item.first, item.second, only.strategy)) {
      of_strategy.push_back(item);
    }
  }
  if (only.strategy == Strategy::kFsdp && FsdpAloneSpansSlices(job, f, c)) {
    of_strategy.push_back({ShardedOverSlices(c.devices, 1), Strategy::kFsdp});
  }
  if (!only.degrees()) return of_strategy;
  LayoutList out;
  for (const auto& item : of_strategy) {
    if (HasDegrees(item.first, c.devices, only)) out.push_back(item);
  }
  if (out.size > 0) return out;
  // Across slices the generated Multislice layouts are the only ones (and
  // FSDP over every chip of every slice or over the slices' TP groups, or
  // pipeline stages across slices, which a reviewed proposal may name):
  // when none has the stated degrees, the strategy alone selects.
  if (c.slices > 1) {
    if (auto pinned = PinnedAcrossSlices(job, c, only)) {
      out.push_back(*pinned);
      return out;
    }
    return of_strategy;
  }
  if (f.platform == Platform::kCpu) return out;
  if (auto spelled =
          SpelledLayout(job, only, c.devices, TensorDomain(f, c), f.platform)) {
    out.push_back(*spelled);
  }
  return out;
}

namespace {

// A job whose per-device footprint does not depend on the layout: the
// team's own sharding plan, classical ML (the data set is the working set,
// split across VMs when the library distributes), or no model size.
void ChooseFixedFootprint(const Job& job, const Family& f, Config& c) {
  const Workload& w = job.workload;
  const int n = c.devices;
  if (w.per_device_memory_gib > 0) {
    c.required_bytes = w.per_device_memory_gib * kGiB;
  } else if (job.classical) {
    c.required_bytes = job.classical_data_bytes * kClassicalMemoryFactor / n;
  } else {
    c.required_bytes = 0;
  }
  c.memory = MemoryEstimate{};
  c.memory.total_bytes = c.required_bytes;
  c.fits = c.required_bytes <= c.usable_bytes;
  c.layout.data = n;
  c.strategy = n == 1                      ? Strategy::kSingleDevice
               : w.per_device_memory_gib > 0 ? Strategy::kFsdp
                                           : Strategy::kDataParallel;
  if (c.slices > 1) c.strategy = Strategy::kMultislice;
  EstimateTime(job, f, c);
}

// Chooses among a point's layouts. Each layout is taken at the first
// recompute level that fits (the requested one, then full recompute: full
// recompute costs a forward pass), with its first schedule that fits
// (without, then with, gradient accumulation: accumulation costs no
// compute), or with its fastest one under tensor or pipeline parallelism,
// whose collectives and hand-overs are paid per micro-batch. Among layouts the
// fastest step wins (ties: SPEC §4's order of preference): at one size the
// hardware and its price are fixed, so the fastest step is the cheapest and
// quickest under every objective. Communication only lengthens the step; it
// never removes a layout.
class LayoutChooser {
 public:
  LayoutChooser(const Job& job, const Family& f, const Config& c)
      : job_(job), f_(f), w_(job.workload), n_(c.devices), scratch_(c) {
    levels_[0] = w_.recompute;
    levels_[1] = Recompute::kFull;
    // The requested level, then (when unspecified) full recompute to trade
    // compute for memory.
    level_count_ =
        w_.recompute == Recompute::kUnspecified && w_.transformer_shape.layers > 0
            ? 2
            : 1;
    mfu_ = CalibratedMfu(job, f);  // one per point: every layout's
    // Layouts are ranked with their overheads modelled (EstimateTime).
    pure_compute_ = ComputeSeconds(job.flops_per_unit * job.tokens_per_step, n_,
                                   c.peak_flops, mfu_.expected());
  }

  // Every data-parallel rank needs at least one sequence of a *stated*
  // global batch: more ranks than sequences cannot be used (an assumed
  // batch never rejects; the scorer warns instead).
  int Ranks(const ShardingLayout& l) const {
    return std::max(1, n_ / (std::max(1, l.tensor) * std::max(1, l.pipeline)));
  }

  // A lower bound on a layout's step: its compute at the requested
  // recompute level, stretched by its pipeline bubble, plus its tensor-
  // parallel traffic (never hidden). A layout whose bound is not below the
  // best step so far cannot win (exact pruning: full recompute and
  // communication only add time).
  double LowerBound(const ShardingLayout& l) const {
    double compute = pure_compute_;
    if (l.pipeline > 1) {
      // The smallest bubble any schedule of this layout has.
      const ScheduleOptions options = SchedulesFor(job_, l, Ranks(l));
      double bubble = 1;
      for (int i = 0; i < options.count; ++i) {
        const Schedule& s = options.items[i];
        bubble = std::min(bubble, PipelineBubbleFraction(
                                      l.pipeline, s.microbatches,
                                      s.virtual_stages));
      }
      compute /= 1.0 - bubble;
    }
    const TpTraffic tp = TensorParallelTraffic(job_, f_, n_, l);
    return compute +
           RingAllReduceSeconds(tp.bytes, std::max(1, l.tensor),
                                tp.link_bytes_per_s) +
           OffloadedStepLowerBound(l);
  }

  // An offloaded optimizer's host step (planner/optimizer_offload.h),
  // which follows the backward pass whatever else the step does.
  double OffloadedStepLowerBound(const ShardingLayout& l) const {
    if (!l.optimizer_offload) return 0;
    const double partition = static_cast<double>(std::max(1, l.tensor)) *
                             std::max(1, l.pipeline) * std::max(1, l.fsdp);
    return HostStepSeconds(job_.memory_model.trained_params / partition,
                           job_.memory_model.gathered_weight_bytes_per_param,
                           DevicesPerVm(scratch_));
  }

  // Evaluates one layout under its schedules (planner/pipeline_schedule.h);
  // keeps it when it is the fastest so far.
  void Try(const ShardingLayout& layout, Strategy strategy) {
    const int ranks = Ranks(layout);
    min_ranks_ = std::min(min_ranks_, ranks);
    // A stated batch limits the ranks; an assumed one caps them
    // (Job::assumed_batch_rank_cap).
    const double rank_limit = w_.global_batch_size > 0
                                  ? static_cast<double>(w_.global_batch_size)
                                  : job_.assumed_batch_rank_cap;
    if (rank_limit > 0 && ranks > rank_limit) return;
    any_batch_ok_ = true;
    if (best_ && LowerBound(layout) >= best_->step.step_seconds_expected *
                                           (1 - kPolicy.tie_tolerance.value)) {
      return;
    }
    const ScheduleOptions options = SchedulesFor(job_, layout, ranks);
    const Recompute frugal_level = levels_[level_count_ - 1];
    // The most frugal variant first (the last schedule holds the fewest
    // activations): when it does not fit, none does. Its estimate is kept
    // for when the search below reaches it.
    const ShardingLayout frugal_layout =
        WithSchedule(layout, options.items[options.count - 1]);
    const MemoryEstimate frugal = Memory(job_, frugal_layout, frugal_level);
    if (!Fits(frugal)) {
      // An offloaded optimizer that overflows the device as well says
      // nothing the layouts above do not: it is reported only where host
      // memory is all it lacks.
      const bool says_more = !layout.optimizer_offload ||
                             DeviceBytes(frugal) <= scratch_.usable_bytes;
      if (says_more &&
          (!smallest_ || DeviceBytes(frugal) < smallest_->required_bytes)) {
        Apply(frugal_layout, strategy, frugal_level, frugal);
        smallest_ = scratch_;
      }
      return;
    }
    // Without a pipeline the first schedule that fits is the fastest: it
    // has the fewest micro-steps, and each micro-step only adds FSDP's
    // gathers and TP's per-micro-batch latency (the compute and the TP
    // bytes are the same). Pipelined schedules differ in bubble, traffic
    // and hand-overs (their latency grows with m·v): each that fits is
    // estimated.
    const bool every_schedule = layout.pipeline > 1;
    for (int l = 0; l < level_count_; ++l) {
      bool taken = false;
      for (int i = 0; i < options.count && (every_schedule || !taken); ++i) {
        const ShardingLayout scheduled = WithSchedule(layout, options.items[i]);
        const bool last = l == level_count_ - 1 && i == options.count - 1;
        const MemoryEstimate m =
            last ? frugal : Memory(job_, scheduled, levels_[l]);
        if (!Fits(m)) continue;
        taken = true;
        Apply(scheduled, strategy, levels_[l], m);
        scratch_.mfu = mfu_;
        const TimingInputs in = StepInputs(job_, f_, scratch_, false);
        TimeFromInputs(job_, f_, in, scratch_);
        if (!best_ || scratch_.step.step_seconds_expected <
                          best_->step.step_seconds_expected *
                              (1 - kPolicy.tie_tolerance.value)) {
          best_ = scratch_;
          best_inputs_ = in;
        }
      }
      if (taken) return;
    }
  }

  // The chosen layout into `c`; else the variant needing the least memory
  // (c.fits false), or c.batch_too_small.
  void Finish(Config& c) {
    // Every layout tried, not only the one kept, decided the choice.
    const bool read_provisioning = scratch_.read_provisioning;
    FinishChoice(c);
    c.read_provisioning = c.read_provisioning || read_provisioning;
  }

 private:
  void FinishChoice(Config& c) {
    if (best_) {
      c = std::move(*best_);
      // The chosen layout end to end: a measured band holds the bubble and
      // the TP traffic up to its runs' degree (EstimateTime), from the
      // inputs it was ranked with.
      // Without one the estimate is the one the layout was ranked with.
      if (c.mfu.runs > 0 && c.layout.pipeline <= 1) {
        best_inputs_.step.overheads_in_mfu = true;
        TimeFromInputs(job_, f_, best_inputs_, c);
      }
      return;
    }
    if (smallest_) {
      c = std::move(*smallest_);
    } else if (min_ranks_ == std::numeric_limits<int>::max()) {
      c.required_bytes = 0;
      c.no_layout = true;  // no layout was tried: a pin allows none here
    } else {
      c.required_bytes = 0;
      const bool over = !any_batch_ok_;
      c.batch_too_small = over && w_.global_batch_size > 0;
      c.over_assumed_batch = over && !c.batch_too_small;
    }
    c.min_ranks = min_ranks_;
    c.fits = false;
  }

  // What the device holds: on a CPU the "host" memory activations are
  // offloaded to is the device's own.
  double DeviceBytes(const MemoryEstimate& m) const {
    return f_.platform == Platform::kCpu ? m.total_bytes + m.host_offload_bytes
                                         : m.total_bytes;
  }
  // Device memory, and host memory for offloaded activations when the
  // VM's is known.
  bool Fits(const MemoryEstimate& m) const {
    if (job_.memory_observed) return true;  // evidence over the model
    const bool host_ok = f_.platform == Platform::kCpu ||
                         scratch_.host_usable_bytes <= 0 ||
                         m.host_offload_bytes <= scratch_.host_usable_bytes;
    return host_ok && DeviceBytes(m) <= scratch_.usable_bytes;
  }

  void Apply(const ShardingLayout& layout, Strategy strategy, Recompute level,
             const MemoryEstimate& m) {
    scratch_.layout = layout;
    scratch_.strategy = scratch_.slices > 1 ? Strategy::kMultislice : strategy;
    scratch_.recompute = level;
    // Without pipelining the micro-batches are gradient accumulation
    // micro-steps; a pipeline's are its schedule (Distribution fields).
    scratch_.accumulation_steps =
        layout.pipeline <= 1 && layout.micro_batch > 0 ? layout.microbatches
                                                       : 1;
    scratch_.memory = m;
    scratch_.required_bytes = DeviceBytes(m);
    scratch_.host_required_bytes =
        f_.platform == Platform::kCpu ? 0 : m.host_offload_bytes;
    scratch_.fits = Fits(m);
  }

  const Job& job_;
  const Family& f_;
  const Workload& w_;
  const int n_;
  Config scratch_;
  Recompute levels_[2];
  int level_count_ = 1;
  MfuRange mfu_;
  double pure_compute_ = 0;
  std::optional<Config> best_;
  TimingInputs best_inputs_;  // the step inputs best_ was timed with
  std::optional<Config> smallest_;  // the least memory among non-fitting
  int min_ranks_ = std::numeric_limits<int>::max();
  bool any_batch_ok_ = false;
};

// The VM's memory per accelerator after headroom, where RECOMPUTE_OFFLOAD
// puts activations; 0 when unknown or on a CPU (its device memory).
double HostUsableBytesPerDevice(const Family& f, const Config& c) {
  const catalog::MachineType* m = c.shape ? c.shape->machine : nullptr;
  if (f.platform == Platform::kCpu || m == nullptr ||
      m->accelerator_count <= 0 || !m->memory_bytes) {
    return 0;
  }
  return *m->memory_bytes / m->accelerator_count * (1 - kHostHeadroom);
}

}  // namespace

void ChooseLayout(const Job& job, const Family& f, Config& c,
                  const LayoutPin& only) {
  c.usable_bytes = (f.platform == Platform::kCpu
                        ? c.shape->machine->memory_bytes.value_or(0)
                        : f.device_memory_bytes) *
                   (1 - kHeadroom);
  c.host_usable_bytes = HostUsableBytesPerDevice(f, c);
  const Workload& w = job.workload;
  if (w.per_device_memory_gib > 0 || job.classical || !job.model_size_known) {
    ChooseFixedFootprint(job, f, c);
    return;
  }
  // Horovod (constraints.framework_agnostic_distribution) is plain data
  // parallelism: no ZeRO, tensor or pipeline partitions.
  LayoutPin pin = only;
  if (job.constraints.framework_agnostic_distribution &&
      pin.strategy == Strategy::kUnspecified) {
    pin.strategy = Strategy::kHorovod;
  }
  LayoutChooser chooser(job, f, c);
  LayoutList layouts = LayoutsFor(job, f, c, pin);
  // Horovod runs over MPI/NCCL/Gloo: no TPU layout is one.
  if (pin.strategy == Strategy::kHorovod && f.platform == Platform::kTpu) {
    layouts.size = 0;
  }
  PinZeroStage(job, pin.strategy, layouts);
  for (const auto& [layout, strategy] : layouts) chooser.Try(layout, strategy);
  chooser.Finish(c);
}

}  // namespace accelplan::planner::internal
