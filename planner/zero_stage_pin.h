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
// stage (2 on one device, 3 over several); one replica shards nothing and
// is kept as it is. Layouts the pin makes identical are listed once. In
// place: this runs for every point searched.
void PinZeroStage(const Job& job, LayoutList& layouts);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_ZERO_STAGE_PIN_H_
