// SPEC §4's Multislice memory rule, the one place it lives: a layout that
// keeps a whole replica of the model in each slice (data parallel across
// slices over DCN) needs one slice to hold that replica; otherwise the
// model must be sharded across slices too (FSDP over DCN, MaxText's
// dcn_fsdp_parallelism). ReviewPlan's distribution and hardware proposals
// and PlanTraining's own Multislice layouts all ask it.
#ifndef ACCELPLAN_PLANNER_SLICE_REPLICA_H_
#define ACCELPLAN_PLANNER_SLICE_REPLICA_H_

#include <optional>
#include <string>

#include "planner/candidate.h"
#include "planner/job.h"
#include "planner/memory_model.h"

namespace accelplan::planner::internal {

// One Multislice setup as the rule sees it.
struct SliceReplica {
  std::string slice;  // one slice, for the reason ("TPU v5e 16x16")
  int chips_per_slice = 0;
  int slices = 1;
  double usable_bytes_per_chip = 0;  // device memory after headroom
};

// The HBM_TOO_SMALL reason, naming the alternative (FSDP across DCN), when
// a replica per slice does not fit one slice even with FSDP over its chips
// and full recompute (the least memory a slice can get by with). nullopt
// when it fits, or when a number is unknown: no model size, classical ML,
// the team's own per-device footprint, an unknown slice or memory.
std::optional<std::string> ReplicaExceedsSlice(const Job& job,
                                               const SliceReplica& s);

// A point of the candidate space over slices, as the rule sees it.
SliceReplica SliceOfPoint(const Family& f, const Config& c);

// Whether a layout shards the model across slices: its FSDP group spans
// more chips than one slice has.
bool ShardsAcrossSlices(const ShardingLayout& layout, int chips_per_slice);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_SLICE_REPLICA_H_
