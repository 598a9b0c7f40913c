// workload.zero_stage: a ZeRO stage the request pins (the API: "absent:
// chosen by the planner").
#ifndef ACCELPLAN_PLANNER_ZERO_STAGE_PIN_H_
#define ACCELPLAN_PLANNER_ZERO_STAGE_PIN_H_

#include "planner/layouts.h"

namespace accelplan::planner::internal {

// Holds the layouts to the pinned stage; unchanged when none is pinned. A
// layout with more than one data-parallel rank shards its model states at that
// stage over the group it already shards over (its FSDP group, else every
// data-parallel rank); a pipeline keeps stage 0 or 1 only (DeepSpeed's
// pipeline engine asserts "ZeRO-2 and ZeRO-3 are incompatible with
// pipeline parallelism", deepspeed/runtime/pipe/engine.py,
// https://github.com/microsoft/DeepSpeed); optimizer offload keeps its own
// stage (2 on one device, 3 over several); a single device is kept as it
// is, and one replica of a model-parallel layout (nothing for ZeRO to
// shard) reports the pinned stage. A layout the pin turns into another
// strategy than `only` (a stated DDP pinned at stage 3) is dropped, and
// layouts the pin makes identical are listed once. Rewrites the list it is
// given (no copy when nothing is pinned: this runs for every point).
void PinZeroStage(const Job& job, Strategy only, LayoutList& layouts);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_ZERO_STAGE_PIN_H_
