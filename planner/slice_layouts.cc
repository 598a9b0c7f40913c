#include "planner/slice_layouts.h"

#include <algorithm>

#include "planner/domains.h"
#include "planner/job.h"
#include "planner/layouts.h"
#include "planner/policy.h"

namespace accelplan::planner::internal {
namespace {

// Pipeline stages across slices (MaxText's dcn_pipeline_parallelism): the
// pin's pipeline degree over groups of whole slices, FSDP (with the pin's
// tensor parallelism) over ICI inside each slice, data parallel over DCN
// across the remaining slice groups. Empty when the degree does not divide
// the slices or outnumbers the layers, or the tensor degree passes the
// policy's cap or does not divide the chips of a slice.
std::optional<std::pair<ShardingLayout, Strategy>> PipelineAcrossSlices(
    const Job& job, const Config& c, const LayoutPin& pin) {
  const int pp = pin.pipeline, tp = std::max(1, pin.tensor);
  const int layers = FrameworkHasPipelines(job) ? ModelParallelLayers(job) : 0;
  if (c.slices <= 1 || pp <= 1 || c.slices % pp != 0 || pp > layers ||
      tp > static_cast<int>(kPolicy.max_tensor_parallel.value) ||
      !HeadsSplitOver(job, tp, Platform::kTpu)) {
    return std::nullopt;
  }
  const int per_slice = c.devices / c.slices;
  if (per_slice % tp != 0) return std::nullopt;
  ShardingLayout l;
  l.tensor = tp;
  l.pipeline = pp;
  l.data = c.devices / (tp * pp);
  if (per_slice / tp > 1) {
    l.zero_stage = 3;
    l.fsdp = per_slice / tp;
  }
  if (!HasDegrees(l, c.devices, pin)) return std::nullopt;
  return std::make_pair(l, Strategy::kPipelineParallel);
}

// The pin's tensor and FSDP degrees inside each slice (a Multislice mesh's
// ICI axes), data parallel over every remaining rank, across the slices
// too. Empty when the groups do not divide a slice or model parallelism
// has no shape to split.
std::optional<std::pair<ShardingLayout, Strategy>> PerSlice(
    const Job& job, const Config& c, const LayoutPin& pin) {
  const int per_slice = c.devices / c.slices;
  const int tp = std::max(1, pin.tensor), fsdp = std::max(1, pin.fsdp);
  if (pin.pipeline > 1 || tp > per_slice || fsdp > per_slice ||
      tp > static_cast<int>(kPolicy.max_tensor_parallel.value) ||
      !HeadsSplitOver(job, tp, Platform::kTpu) ||
      per_slice % (tp * fsdp) != 0 ||
      (tp > 1 && ModelParallelLayers(job) <= 0)) {
    return std::nullopt;
  }
  ShardingLayout l;
  l.tensor = tp;
  l.data = c.devices / tp;
  if (fsdp > 1) {
    l.zero_stage = 3;
    l.fsdp = fsdp;
  }
  const Strategy s = tp > 1     ? Strategy::kHybrid
                     : fsdp > 1 ? Strategy::kFsdp
                                : Strategy::kDataParallel;
  if (!HasDegrees(l, c.devices, pin) || !OfStrategy(l, s, pin.strategy)) {
    return std::nullopt;
  }
  return std::make_pair(l, s);
}

}  // namespace

ShardingLayout ShardedOverSlices(int n, int tp) {
  ShardingLayout l;
  l.tensor = tp;
  l.data = n / tp;
  l.zero_stage = 3;
  l.fsdp = n / tp;
  return l;
}

std::optional<std::pair<ShardingLayout, Strategy>> PinnedAcrossSlices(
    const Job& job, const Config& c, const LayoutPin& pin) {
  if (c.slices <= 1) return std::nullopt;
  const int tp = std::max(1, pin.tensor);
  const ShardingLayout across = ShardedOverSlices(c.devices, tp);
  const Strategy s = tp > 1 ? Strategy::kHybrid : Strategy::kFsdp;
  if ((tp <= 1 || ModelParallelLayers(job) > 0) &&
      (c.devices / c.slices) % tp == 0 && pin.fsdp == across.fsdp &&
      HasDegrees(across, c.devices, pin) && OfStrategy(across, s, pin.strategy)) {
    return std::make_pair(across, s);
  }
  if (auto staged = PipelineAcrossSlices(job, c, pin)) return staged;
  return PerSlice(job, c, pin);
}

std::optional<std::pair<ShardingLayout, Strategy>> SpelledLayout(
    const Job& job, const LayoutPin& pin, int n, int domain,
    Platform platform) {
  const int tp = std::max(1, pin.tensor), pp = std::max(1, pin.pipeline);
  // Degrees are validated up to the accelerator cap: compare before any
  // product can overflow.
  if (tp > n || pp > n || pin.data > n || pin.fsdp > n) return std::nullopt;
  if (n % (tp * pp) != 0 || domain % tp != 0 ||
      !HeadsSplitOver(job, tp, platform)) {
    return std::nullopt;
  }
  if (((tp > 1 || pp > 1) && ModelParallelLayers(job) <= 0) ||
      (pp > 1 && !FrameworkHasPipelines(job))) {
    return std::nullopt;
  }
  const int rest = n / (tp * pp);
  int fsdp = pin.fsdp > 0 ? pin.fsdp : 0;
  if (fsdp == 0 && pin.strategy == Strategy::kFsdp) {
    fsdp = pin.data > 0 && rest % pin.data == 0 ? rest / pin.data : rest;
  }
  if (fsdp > 0 && rest % fsdp != 0) return std::nullopt;
  if (pin.data > 0 && pin.data * std::max(1, fsdp) != rest) return std::nullopt;
  if (pp > ModelParallelLayers(job) && pp > 1) return std::nullopt;
  ShardingLayout l;
  l.tensor = tp;
  l.pipeline = pp;
  l.data = rest;
  if (fsdp > 1) {
    l.zero_stage = 3;
    l.fsdp = fsdp;
  } else if (pp > 1 && rest > 1) {
    l.zero_stage = 1;
    l.fsdp = rest;
  }
  const Strategy s = pin.strategy != Strategy::kUnspecified ? pin.strategy
                     : pp > 1   ? Strategy::kPipelineParallel
                     : tp > 1   ? Strategy::kHybrid
                     : fsdp > 1 ? Strategy::kFsdp
                                : Strategy::kDataParallel;
  if (!OfStrategy(l, s, pin.strategy)) return std::nullopt;
  return std::make_pair(l, s);
}

}  // namespace accelplan::planner::internal
