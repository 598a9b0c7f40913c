// Stage 4: the layouts a reviewed proposal names by its degrees, on one
// slice or cluster and across TPU slices, built when no generated layout
// has them (planner/layouts.h LayoutsFor).
#ifndef ACCELPLAN_PLANNER_SLICE_LAYOUTS_H_
#define ACCELPLAN_PLANNER_SLICE_LAYOUTS_H_

#include <optional>
#include <utility>

#include "planner/candidate.h"

namespace accelplan::planner::internal {

// FSDP across slices: over every chip of every slice (tp 1), or tensor
// parallel inside each slice with FSDP over the slices' TP groups (n / tp
// data-parallel ranks where FSDP over every chip needs n).
ShardingLayout ShardedOverSlices(int n, int tp);

// The layout the pin's degrees spell across c.slices slices, the first of:
// FSDP over every chip or over the slices' TP groups; pipeline stages over
// groups of whole slices with FSDP inside each; the degrees inside each
// slice (a Multislice mesh's ICI axes: tensor and FSDP groups that divide a
// slice) with data parallel across the rest. Empty when none has them.
std::optional<std::pair<ShardingLayout, Strategy>> PinnedAcrossSlices(
    const Job& job, const Config& c, const LayoutPin& pin);

// The layout a pin's degrees spell on n devices of one slice: TP × PP ×
// the rest, the rest split into FSDP groups × replicas as stated (FSDP
// over all of it when the strategy is FSDP or only FSDP is given; ZeRO-1
// over the replicas of a pipeline, as the generated 3D layouts). Empty
// when the degrees do not divide n, when TP would leave the NVLink/ICI
// domain (`domain` devices: TP over the network is never offered) or does
// not split the heads, when model parallelism has no shape to split, or
// when the result is not of the pinned strategy. `platform`: the
// family's (HeadsSplitOver).
std::optional<std::pair<ShardingLayout, Strategy>> SpelledLayout(
    const Job& job, const LayoutPin& pin, int n, int domain, Platform platform);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_SLICE_LAYOUTS_H_
