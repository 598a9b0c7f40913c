// SPEC §4: a replica per slice must fit one slice (planner/slice_replica.h).
#include "planner/slice_replica.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

std::optional<std::string> ReplicaExceedsSlice(const Job& job,
                                               const SliceReplica& s) {
  if (s.chips_per_slice <= 0 || s.usable_bytes_per_chip <= 0 ||
      job.workload.per_device_memory_gib > 0) {
    return std::nullopt;
  }
  const int slices = std::max(1, s.slices);
  const double need = ReplicaPerSliceBytes(job, s.chips_per_slice, slices);
  if (need <= 0 || need <= s.usable_bytes_per_chip) return std::nullopt;
  return absl::StrFormat(
      "Data parallelism across slices keeps a whole replica in each %s "
      "slice: %.1f GiB per chip even with FSDP and tensor parallelism over "
      "its %d chips and full recompute, over the %.1f GiB usable. Shard across "
      "slices too: FSDP "
      "over DCN (FSDP across the %d slices, dcn_fsdp_parallelism = %d).",
      s.slice, need / kGiB, s.chips_per_slice, s.usable_bytes_per_chip / kGiB,
      slices, slices);
}

SliceReplica SliceOfPoint(const Family& f, const Config& c) {
  SliceReplica s;
  s.slices = std::max(1, c.slices);
  s.chips_per_slice = c.devices / s.slices;
  s.slice = c.shape != nullptr && c.shape->topology != nullptr
                ? absl::StrCat(f.name, " ", c.shape->topology->topology)
                : f.name;
  s.usable_bytes_per_chip = c.usable_bytes;
  return s;
}

bool ShardsAcrossSlices(const ShardingLayout& layout, int chips_per_slice) {
  // An FSDP group of tensor-parallel groups spans fsdp x tp chips.
  return layout.zero_stage == 3 && chips_per_slice > 0 &&
         static_cast<int64_t>(layout.fsdp) * std::max(1, layout.tensor) >
             chips_per_slice;
}

}  // namespace accelplan::planner::internal
