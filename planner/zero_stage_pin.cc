// workload.zero_stage pins the ZeRO stage of every layout searched.
#include "planner/zero_stage_pin.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace accelplan::planner::internal {
namespace {

// The layout at `stage`, or nothing when the layout cannot run at it.
std::optional<std::pair<ShardingLayout, Strategy>> AtStage(ShardingLayout l,
                                                           Strategy s,
                                                           int stage) {
  if (l.optimizer_offload) {
    // ZeRO-Offload runs at stage 2 or 3; one device shards nothing, so
    // stage 2 there serves a pin of 2 or 3.
    const bool kept = l.data <= 1 ? stage >= 2 : l.zero_stage == stage;
    return kept ? std::make_optional(std::make_pair(l, s)) : std::nullopt;
  }
  if (l.pipeline > 1 && stage >= 2) return std::nullopt;
  if (l.data <= 1) {
    // A single device is kept as it is; one replica of a model-parallel
    // layout shards nothing by ZeRO, and reports the stage it runs.
    if (l.tensor > 1 || l.pipeline > 1) l.zero_stage = stage;
    return std::make_pair(l, s);
  }
  const int group = l.zero_stage > 0 ? l.fsdp : l.data;
  l.zero_stage = stage;
  l.fsdp = stage > 0 ? group : 1;
  if (s == Strategy::kDataParallel && stage == 3) s = Strategy::kFsdp;
  if (s == Strategy::kFsdp && stage < 3) s = Strategy::kDataParallel;
  return std::make_pair(l, s);
}

}  // namespace

void PinZeroStage(const Job& job, Strategy only, LayoutList& layouts) {
  if (!job.workload.zero_stage.has_value()) return;
  LayoutList out;
  for (const auto& [layout, strategy] : layouts) {
    const auto pinned = AtStage(layout, strategy, *job.workload.zero_stage);
    // A stated strategy the pinned stage turns into another is not run.
    if (!pinned || !OfStrategy(pinned->first, pinned->second, only)) continue;
    const bool listed =
        std::any_of(out.begin(), out.end(), [&](const auto& item) {
          return SameLayout(item.first, pinned->first);
        });
    if (!listed) out.push_back(*pinned);
  }
  layouts = std::move(out);
}

}  // namespace accelplan::planner::internal
