// Stage 4: layouts and the memory they need.
#include "planner/layouts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

using catalog::Accelerator;
using catalog::Catalog;
using catalog::MachineType;

MemoryEstimate Memory(const Job& job, const ShardingLayout& layout,
                      Recompute recompute, int64_t global_batch_override) {
  return EstimateMemoryPerDevice(
      job.memory_model,
      recompute == Recompute::kUnspecified ? Recompute::kSelective : recompute,
      global_batch_override > 0 ? global_batch_override
                                : job.workload.global_batch_size,
      layout);
}

MemoryEstimate Memory(const Job& job, const ShardingLayout& layout) {
  return Memory(job, layout, job.workload.recompute);
}

namespace {

LayoutList AllLayoutsFor(const Job& job, const Family& f, const Config& c) {
  LayoutList out;
  const int n = c.devices;
  ShardingLayout dp;
  dp.data = n;
  out.push_back({dp, n == 1 ? Strategy::kSingleDevice : Strategy::kDataParallel});
  if (n == 1) return out;
  const int per_slice = c.slices > 1 ? n / c.slices : n;
  ShardingLayout fsdp;
  fsdp.data = n;
  fsdp.zero_stage = 3;
  fsdp.fsdp = per_slice;
  out.push_back({fsdp, Strategy::kFsdp});
  if (job.workload.transformer_shape.layers <= 0 || f.platform == Platform::kCpu) {
    return out;
  }
  const int max_tp = static_cast<int>(kPolicy.max_tensor_parallel.value);
  const int tp = std::min(f.platform == Platform::kTpu ? max_tp : f.max_devices_per_vm,
                          max_tp);
  if (tp > 1 && per_slice % tp == 0) {
    ShardingLayout hybrid = fsdp;
    hybrid.tensor = tp;
    hybrid.fsdp = per_slice / tp;
    hybrid.data = n / tp;
    out.push_back({hybrid, Strategy::kHybrid});
    const int layers = job.workload.transformer_shape.layers;
    if (f.platform == Platform::kGpu && c.hosts > 1) {
      for (int pp : {2, 4, 8, 16, 32}) {
        if (c.hosts % pp != 0 || pp > layers) continue;
        ShardingLayout three_d;
        three_d.tensor = tp;
        three_d.pipeline = pp;
        three_d.data = n / (tp * pp);
        three_d.zero_stage = three_d.data > 1 ? 1 : 0;
        three_d.fsdp = three_d.data;
        out.push_back({three_d, Strategy::kHybrid});
      }
    }
  }
  return out;
}

// Whether a layout is one a reviewed distribution proposal names.
bool OfStrategy(const ShardingLayout& l, Strategy s, Strategy only) {
  switch (only) {
    case Strategy::kUnspecified: return true;
    case Strategy::kSingleDevice:
    case Strategy::kDataParallel:
    case Strategy::kHorovod:
      return l.tensor <= 1 && l.pipeline <= 1 && l.zero_stage == 0;
    case Strategy::kFsdp:
      return s == Strategy::kFsdp ||
             (l.data <= 1 && l.tensor <= 1 && l.pipeline <= 1);
    case Strategy::kTensorParallel: return l.tensor > 1 && l.pipeline <= 1;
    case Strategy::kPipelineParallel: return l.pipeline > 1;
    case Strategy::kHybrid: return l.tensor > 1 || l.pipeline > 1;
    default: return true;
  }
}

}  // namespace

LayoutList LayoutsFor(const Job& job, const Family& f, const Config& c,
                      Strategy only) {
  const LayoutList all = AllLayoutsFor(job, f, c);
  if (only == Strategy::kUnspecified) return all;
  LayoutList out;
  for (const auto& item : all) {
    if (OfStrategy(item.first, item.second, only)) out.push_back(item);
  }
  return out;
}

void ChooseLayout(const Job& job, const Family& f, Config& c, Strategy only) {
  const double usable_per_device =
      (f.platform == Platform::kCpu
           ? c.shape->machine->memory_bytes.value_or(0)
           : f.device_memory_bytes) *
      (1 - kHeadroom);
  c.usable_bytes = usable_per_device;
  const Workload& w = job.workload;
  const int n = c.devices;

  if (w.per_device_memory_gib > 0 || job.classical || !job.model_size_known) {
    // The team's own sharding plan fixes what each device must hold; for
    // classical ML the data set is the working set (split across VMs when
    // the library distributes).
    if (w.per_device_memory_gib > 0) {
      c.required_bytes = w.per_device_memory_gib * kGiB;
    } else if (job.classical) {
      c.required_bytes =
          job.workload.dataset_gib * kGiB * kClassicalMemoryFactor / n;
    } else {
      c.required_bytes = 0;
    }
    c.memory = MemoryEstimate{};
    c.memory.total_bytes = c.required_bytes;
    c.fits = c.required_bytes <= usable_per_device;
    c.layout.data = n;
    c.strategy = n == 1 ? Strategy::kSingleDevice
                 : w.per_device_memory_gib > 0 ? Strategy::kFsdp
                                               : Strategy::kDataParallel;
    if (c.slices > 1) c.strategy = Strategy::kMultislice;
    EstimateTime(job, f, c);
    return;
  }

  // The requested level, then (when unspecified) full recompute to trade
  // compute for memory.
  const Recompute levels[2] = {w.recompute, Recompute::kFull};
  const int level_count = w.recompute == Recompute::kUnspecified &&
                                  w.transformer_shape.layers > 0
                              ? 2
                              : 1;
  // Gradient accumulation (one sequence per device per micro-step) keeps the
  // global batch while cutting activation memory, at no extra compute.
  const bool can_accumulate = w.global_batch_size > 0;
  const LayoutList layouts = LayoutsFor(job, f, c, only);
  // Every data-parallel rank needs at least one sequence of a *stated*
  // global batch: more ranks than sequences cannot be used (an assumed
  // batch never rejects; Evaluate warns instead).
  auto ranks_of = [&](const ShardingLayout& layout) {
    return std::max(1, n / (std::max(1, layout.tensor) * std::max(1, layout.pipeline)));
  };
  auto memory_of = [&](const ShardingLayout& layout, Recompute level,
                       bool accumulate) {
    return Memory(job, layout, level, accumulate ? std::max(1, layout.data) : 0);
  };
  // The configuration for a variant whose memory is already known.
  auto trial = [&](const ShardingLayout& layout, Strategy strategy,
                   Recompute level, bool accumulate, const MemoryEstimate& m) {
    const int64_t replicas = std::max(1, layout.data);
    Config t = c;
    t.layout = layout;
    t.strategy = c.slices > 1 ? Strategy::kMultislice : strategy;
    t.recompute = level;
    t.accumulation_steps =
        accumulate ? static_cast<int>((w.global_batch_size + replicas - 1) / replicas) : 1;
    t.memory = m;
    t.required_bytes = m.total_bytes;
    t.fits = t.required_bytes <= usable_per_device;
    return t;
  };
  // Each layout is taken with its first variant that fits, in order: the
  // requested recompute level without, then with, gradient accumulation,
  // then full recompute. Accumulation costs no compute and full recompute
  // costs a forward pass, so that variant is the layout's fastest. Among
  // layouts the fastest step wins (ties: SPEC §4's order of preference):
  // at one size the hardware and its price are fixed, so the fastest step
  // is the cheapest and quickest under every objective. Communication only
  // lengthens the step; it never removes a layout (SPEC §4).
  std::optional<Config> best;
  std::optional<Config> smallest;  // the least memory among non-fitting
  // A lower bound on any layout's step: its compute at the requested
  // recompute level, stretched by its pipeline bubble, plus its tensor-
  // parallel traffic (never hidden). A layout whose bound
  // is not below the best step so far cannot win and is not evaluated
  // (exact pruning: full recompute and communication only add time).
  const MfuRange mfu = DefaultMfu(
      ClassOf(f), job.classical ? ModelKind::kTabular : w.model_kind);
  const double pure_compute = ComputeSeconds(
      job.flops_per_unit * job.tokens_per_step, n, c.peak_flops, mfu.expected());
  auto lower_bound = [&](const ShardingLayout& layout) {
    const int pp = std::max(1, layout.pipeline);
    double compute = pure_compute;
    if (pp > 1) {
      const double m = std::clamp(
          job.tokens_per_step / std::max(1, job.sequence_length) / ranks_of(layout),
          1.0, 1e9);
      compute /= 1.0 - PipelineBubbleFraction(pp, static_cast<int>(m));
    }
    // Tensor-parallel traffic is never hidden: it adds to any step.
    const TpTraffic tp = TensorParallelTraffic(job, f, n, layout);
    return compute + RingAllReduceSeconds(tp.bytes, std::max(1, layout.tensor),
                                          tp.link_bytes_per_s);
  };
  int min_ranks = std::numeric_limits<int>::max();
  bool any_batch_ok = false;
  for (size_t i = 0; i < layouts.size; ++i) {
    const auto& [layout, strategy] = layouts.items[i];
    const int ranks = ranks_of(layout);
    min_ranks = std::min(min_ranks, ranks);
    if (w.global_batch_size > 0 && ranks > w.global_batch_size) continue;
    any_batch_ok = true;
    if (best && lower_bound(layout) >=
                    best->step.step_seconds_expected * (1 - 1e-9)) {
      continue;
    }
    const bool acc_useful =
        can_accumulate && w.global_batch_size > std::max(1, layout.data);
    // The most frugal variant first: when it does not fit, none does.
    {
      const MemoryEstimate frugal =
          memory_of(layout, levels[level_count - 1], acc_useful);
      if (frugal.total_bytes > usable_per_device) {
        if (!smallest || frugal.total_bytes < smallest->required_bytes) {
          smallest = trial(layout, strategy, levels[level_count - 1],
                           acc_useful, frugal);
        }
        continue;
      }
    }
    std::optional<Config> chosen;
    for (int l = 0; l < level_count && !chosen; ++l) {
      for (int accumulate = 0; accumulate <= (acc_useful ? 1 : 0); ++accumulate) {
        const MemoryEstimate m = memory_of(layout, levels[l], accumulate != 0);
        if (m.total_bytes > usable_per_device) continue;
        chosen = trial(layout, strategy, levels[l], accumulate != 0, m);
        break;
      }
    }
    if (!chosen) continue;  // not reached: the frugal variant fits
    EstimateTime(job, f, *chosen);
    if (!best || chosen->step.step_seconds_expected <
                     best->step.step_seconds_expected * (1 - 1e-9)) {
      best = std::move(chosen);
    }
  }
  if (best) {
    c = std::move(*best);
    return;
  }
  if (smallest) {
    c = std::move(*smallest);
    c.min_ranks = min_ranks;
  } else {
    // Every layout needs more data-parallel ranks than the stated batch
    // has sequences.
    c.required_bytes = 0;
    c.batch_too_small = !any_batch_ok;
    c.min_ranks = min_ranks;
  }
  c.fits = false;
}

}  // namespace accelplan::planner::internal
