// Stage 4: the layouts a reviewed proposal names across TPU slices, built
// from its stated degrees when no generated Multislice layout has them
// (planner/layouts.h LayoutsFor).
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

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_SLICE_LAYOUTS_H_
