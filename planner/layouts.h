// Stage 4: the sharding layouts a point can use and the memory each needs;
// the layout chosen at one size is its fastest that fits.
#ifndef ACCELPLAN_PLANNER_LAYOUTS_H_
#define ACCELPLAN_PLANNER_LAYOUTS_H_

#include <array>
#include <cstdint>
#include <utility>

#include "planner/candidate.h"

namespace accelplan::planner::internal {

// Per-device memory requirement of the job under a layout and recompute
// level (unspecified recompute means selective, as the API documents);
// `global_batch_override` > 0 replaces the stated global batch (gradient
// accumulation: one sequence per replica in flight).
MemoryEstimate Memory(const Job& job, const ShardingLayout& layout,
                      Recompute recompute, int64_t global_batch_override = 0);
MemoryEstimate Memory(const Job& job, const ShardingLayout& layout);

// Layouts to try for a point, in SPEC §4's order of preference: data
// parallel; FSDP/ZeRO-3; tensor parallel inside the NVLink/ICI domain with
// FSDP; tensor parallel inside the VM + pipeline across VMs + ZeRO-1 data
// parallel. Multislice keeps FSDP/TP inside each slice, and when one slice
// cannot hold a replica adds FSDP over every chip and TP inside each slice
// with FSDP over the slices' TP groups. At most data parallel, FSDP,
// TP+FSDP, those two across slices and five pipeline depths: a fixed array
// keeps this inner loop free of allocation. A mixture of experts adds FSDP
// and TP+FSDP with expert parallelism inside the NVLink/ICI domain; a job
// that may offload its optimizer adds ZeRO with optimizer offload.
struct LayoutList {
  std::array<std::pair<ShardingLayout, Strategy>, 13> items;
  size_t size = 0;
  void push_back(std::pair<ShardingLayout, Strategy> v) {
    if (size < items.size()) items[size++] = v;
  }
  const std::pair<ShardingLayout, Strategy>* begin() const { return items.data(); }
  const std::pair<ShardingLayout, Strategy>* end() const {
    return items.data() + size;
  }
};
// Whether a layout of strategy `s` is one a reviewed distribution proposal
// of strategy `only` names (kUnspecified: every layout).
bool OfStrategy(const ShardingLayout& l, Strategy s, Strategy only);

// Whether a layout on n devices has every degree the pin states, as the
// plan's Distribution reports them (DegreesOf).
bool HasDegrees(const ShardingLayout& layout, int n, const LayoutPin& pin);

// `only` (none: every layout) keeps the layouts a reviewed distribution
// proposal names: of its strategy, with its stated degrees (DegreesOf, as
// the plan reports them). When no generated layout has those degrees, the
// one they spell on this point is built from them, if it can be (one slice,
// degrees that multiply to its devices, TP inside the VM or slice); across
// slices only FSDP over every chip or over the slices' TP groups, and
// pipeline stages over groups of slices with FSDP inside each, are built.
LayoutList LayoutsFor(const Job& job, const Family& f, const Config& c,
                      const LayoutPin& only = {});

// Chooses the point's layout and recompute level: its fastest variant that
// fits; failing that, the variant that needs the least memory (c.fits
// false), or c.batch_too_small when every layout needs more data-parallel
// ranks than the stated batch has sequences.
void ChooseLayout(const Job& job, const Family& f, Config& c,
                  const LayoutPin& only = {});

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_LAYOUTS_H_
