#include "planner/remedies.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/current_evidence.h"
#include "planner/engine_common.h"
#include "planner/edge_rules.h"
#include "planner/reduction_server.h"

namespace accelplan::planner::internal {
namespace {

int64_t RoundUp(int64_t v, int64_t m) {
  if (v <= 0) return m;
  return (v + m - 1) / m * m;
}

}  // namespace

bool MeetsTpuTiling(int64_t batch, const std::vector<int64_t>& widths) {
  auto all_widths = [&](int64_t m) {
    for (int64_t w : widths) {
      if (w <= 0 || w % m != 0) return false;
    }
    return true;
  };
  if (batch <= 0) {
    // Batch unknown: the widths alone can only be judged against the looser
    // of the two tilings (some batch, a multiple of 1024, pairs with them).
    return all_widths(kLargeWidthMultiple);
  }
  return (batch % kSmallBatchMultiple == 0 && all_widths(kSmallWidthMultiple)) ||
         (batch % kLargeBatchMultiple == 0 && all_widths(kLargeWidthMultiple));
}

namespace {

// Today's shapes as the request gives them: the layer widths, else the
// transformer shape it states (not one inferred from a parameter count),
// today's batch (0: not given), and whether they meet today's hardware's
// tiling (MeetsTiling; a batch not given is taken as a multiple of 64 on a
// TPU, of 8 on GPUs).
struct KnownShapes {
  std::vector<int64_t> widths;
  int64_t batch = 0;
  bool tile = false;
};

KnownShapes KnownShapesOf(const Job& job) {
  KnownShapes k;
  k.widths = job.current.layer_widths;
  const TransformerShape& t = job.workload.transformer_shape;
  if (k.widths.empty() && !job.shape_inferred && t.hidden_size > 0) {
    for (int64_t w : {t.hidden_size, t.ffn_hidden_size, t.vocab_size}) {
      if (w > 0) k.widths.push_back(w);
    }
  }
  k.batch = job.current.current_global_batch_size;
  k.tile = MeetsTiling(job,
                       k.batch > 0        ? k.batch
                       : TilesForGpu(job) ? kGpuTileMultiple
                                          : kSmallBatchMultiple,
                       k.widths);
  return k;
}

}  // namespace

bool ShapesPad(const Job& job) {
  const KnownShapes k = KnownShapesOf(job);
  return !k.widths.empty() && !k.tile;
}

std::optional<std::string> ShapesAlreadyTile(const Job& job) {
  const KnownShapes k = KnownShapesOf(job);
  if (k.widths.empty() || !k.tile) return std::nullopt;
  return absl::StrFormat(
      "The model's feature dimensions (%s) already tile %s%s.",
      absl::StrJoin(k.widths, ", "), TilingTarget(job),
      k.batch > 0 ? absl::StrFormat(" with batch %d", k.batch)
                  : absl::StrFormat("; today's global batch is not given: a "
                                    "multiple of %d pads nothing",
                                    TilesForGpu(job) ? kGpuTileMultiple
                                                     : kSmallBatchMultiple));
}

bool TilesForGpu(const Job& job) {
  return !CurrentlyOnTpu(job) && CurrentlyOnGpu(job);
}

bool MeetsTiling(const Job& job, int64_t batch,
                 const std::vector<int64_t>& widths) {
  if (!TilesForGpu(job)) return MeetsTpuTiling(batch, widths);
  if (batch > 0 && batch % kGpuTileMultiple != 0) return false;
  for (int64_t w : widths) {
    if (w <= 0 || w % kGpuTileMultiple != 0) return false;
  }
  return true;
}

ShapeRule ShapeRuleFor(const Job& job) {
  const CurrentSetup& current = job.current;
  if (!TilesForGpu(job)) return TpuShapeRule(current);
  ShapeRule rule;
  rule.batch_multiple = rule.width_multiple = kGpuTileMultiple;
  rule.batch = RoundUp(current.current_global_batch_size, kGpuTileMultiple);
  const int64_t most = current.max_tolerated_global_batch_size;
  const int64_t down =
      current.current_global_batch_size / kGpuTileMultiple * kGpuTileMultiple;
  if (most > 0 && rule.batch > most && down > 0) rule.batch = down;
  for (int64_t w : current.layer_widths) {
    rule.widths.push_back(RoundUp(w, kGpuTileMultiple));
  }
  return rule;
}

const char* TilingTarget(const Job& job) {
  return TilesForGpu(job) ? "the tensor cores" : "the MXU";
}

bool CurrentlyOnTpu(const Job& job) {
  return (job.current_accelerator != nullptr &&
          job.current_accelerator->platform == catalog::Platform::kTpu) ||
         !job.current.tpu_topology.empty();
}

std::string ShapeRounding(const CurrentSetup& current, const ShapeRule& rule) {
  std::vector<std::string> rounding;
  // A batch that already tiles is not advice.
  if (current.current_global_batch_size > 0 &&
      current.current_global_batch_size != rule.batch) {
    rounding.push_back(absl::StrFormat(
        "batch %d -> %d", current.current_global_batch_size, rule.batch));
  }
  std::string widths;
  for (size_t i = 0; i < rule.widths.size() && i < current.layer_widths.size();
       ++i) {
    if (rule.widths[i] == current.layer_widths[i]) continue;  // tiles already
    absl::StrAppend(&widths, widths.empty() ? "" : ", ",
                    current.layer_widths[i], " -> ", rule.widths[i]);
  }
  if (!widths.empty()) rounding.push_back(absl::StrCat("widths ", widths));
  return absl::StrJoin(rounding, ", ");
}

ShapeRule TpuShapeRule(const CurrentSetup& current) {
  ShapeRule rule;
  const bool large = current.current_global_batch_size >= kLargeBatchMultiple ||
                     current.max_tolerated_global_batch_size >= kLargeBatchMultiple;
  rule.batch_multiple = large ? kLargeBatchMultiple : kSmallBatchMultiple;
  rule.width_multiple = large ? kLargeWidthMultiple : kSmallWidthMultiple;
  rule.batch = RoundUp(current.current_global_batch_size, rule.batch_multiple);
  // Not past the largest batch the team tolerates: round down to the
  // multiple below instead where there is one (below one multiple no batch
  // tiles, and the rounded-up one stays the advice).
  const int64_t most = current.max_tolerated_global_batch_size;
  const int64_t down = current.current_global_batch_size / rule.batch_multiple *
                       rule.batch_multiple;
  if (most > 0 && rule.batch > most && down > 0) rule.batch = down;
  // Change as little as possible: a batch that rounds to a multiple of 1024
  // (990 -> 1024 on the multiple-of-64 rule) meets the other tiling, which
  // needs feature dimensions that are only multiples of 8.
  if (rule.batch % kLargeBatchMultiple == 0) {
    rule.batch_multiple = kLargeBatchMultiple;
    rule.width_multiple = kLargeWidthMultiple;
  }
  for (int64_t w : current.layer_widths) {
    rule.widths.push_back(RoundUp(w, rule.width_multiple));
  }
  return rule;
}

bool HasSymptom(const Job& job, Symptom s) {
  // EDGE_OPS_ON_CPU also follows from the workload itself (a model not
  // fully int8, or with unmapped ops), stated or not.
  if (s == Symptom::kEdgeOpsOnCpu) return EdgeOpsOnCpu(job);
  const auto& v = job.current.symptoms;
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool AnySymptom(const Job& job) {
  for (Symptom s : job.current.symptoms) {
    if (s != Symptom::kUnspecified) return true;
  }
  return EdgeOpsOnCpu(job);
}

bool CurrentlyOnGpu(const Job& job) {
  return (job.current_accelerator != nullptr &&
          job.current_accelerator->platform == catalog::Platform::kGpu) ||
         (job.current_accelerator == nullptr && job.current_series != nullptr &&
          job.current_series->platform == catalog::Platform::kGpu) ||
         (job.current_accelerator == nullptr && job.current_series == nullptr &&
          job.current.hardware.empty() && job.current.tpu_topology.empty() &&
          job.current.uses_nccl);
}

bool OnGpuParameterServers(const Job& job) {
  return job.current.strategy == Strategy::kParameterServer &&
         CurrentlyOnGpu(job);
}

bool CurrentIsMultiHostNcclGpu(const Job& job) {
  return CurrentlyOnGpu(job) && job.current.node_count > 1 &&
         job.nccl_framework;
}

namespace {

// GRADIENT_SYNC_BOUND: a Reduction Server for multi-host NCCL GPUs (sized
// and priced as the plan's pool), the ICI/DCN split on TPUs.
void GradientSyncRemedies(const catalog::Catalog& catalog, const Job& job,
                          const Family* current_family, bool on_tpu, Symptom s,
                          std::vector<Remedy>& out) {
  if (OnGpuParameterServers(job)) {
    // Ring all-reduce is the published fix for parameter servers'
    // bottleneck (Sergeev & Del Balso 2018, arXiv:1802.05799).
    out.push_back(MakeRemedy(
        RemedyKind::kUseHorovod, s,
        "Replace the parameter servers with ring all-reduce (Horovod, or "
        "tf.distribute.MultiWorkerMirroredStrategy over NCCL): each worker "
        "then sends about twice its gradient whatever the number of "
        "workers, instead of every gradient crossing the servers' links."));
  }
  if (CurrentIsMultiHostNcclGpu(job)) {
    const int nodes = std::max(1, job.current.node_count);
    const std::optional<ReducerPool> rs =
        job.current_machine == nullptr
            ? std::nullopt
            : SizeReducerPool(catalog, *job.current_machine, job.current_series,
                              current_family, nodes);
    Remedy r = MakeRemedy(
        RemedyKind::kAddReductionServer, s,
        absl::StrCat("Add a Reduction Server worker pool (pool 2) for the ",
                     nodes,
                     "-node NCCL all-reduce: it halves the data each worker "
                     "sends per all-reduce; no training-code change."));
    if (rs) {
      const ReductionServerPool pool = ToPlanPool(*rs);
      absl::StrAppend(
          &r.summary,
          absl::StrFormat(" Size: %d x %s (%.0f Gbps total, matching "
                          "the %.0f Gbps the workers send: their network "
                          "egress, or their GPUs' own link where slower; "
                          "Vertex AI guidance)",
                          pool.replica_count, pool.machine_type,
                          pool.reducer_bandwidth_gbps,
                          pool.worker_bandwidth_gbps),
          rs->on_demand_known ? absl::StrFormat(", %s/h on-demand.",
                                                FormatUsd(rs->hourly_on_demand))
                              : "; the catalog has no price for the reducers.");
    }
    out.push_back(std::move(r));
  } else if (on_tpu) {
    out.push_back(MakeRemedy(
        RemedyKind::kShardOptimizerState, s,
        "On TPUs keep gradient traffic on ICI: FSDP inside each slice, "
        "data parallel across slices over DCN, and a per-slice batch "
        "large enough to hide the DCN all-reduce."));
  }
}

void InputRemedies(Symptom s, std::vector<Remedy>& out) {
  out.push_back(MakeRemedy(
      RemedyKind::kFasterInputPipeline, s,
      "Speed up the input pipeline: parallel reads and prefetch "
      "(tf.data / Grain / DataLoader workers), larger files, and data "
      "staged on faster storage close to the accelerators."));
}

// HEAVY_PADDING (and LOW_UTILIZATION on TPUs): the MXU tiling advice.
void PaddingRemedies(const Job& job, Symptom s, std::vector<Remedy>& out) {
  if (ShapesAlreadyTile(job)) return;
  const ShapeRule rule = ShapeRuleFor(job);
  Remedy r;
  r.kind = RemedyKind::kFixTensorShapes;
  r.addresses = s;
  r.global_batch_size =
      job.current.current_global_batch_size > 0 ? rule.batch : 0;
  r.layer_widths = rule.widths;
  const std::string rounding = ShapeRounding(job.current, rule);
  r.summary = absl::StrFormat(
      "Tile %s: global batch a multiple of %d and feature "
      "dimensions multiples of %d%s.",
      TilingTarget(job), rule.batch_multiple, rule.width_multiple,
      rounding.empty() ? "" : absl::StrCat(" — round ", rounding));
  out.push_back(std::move(r));
}

void OutOfMemoryRemedies(Symptom s, std::vector<Remedy>& out) {
  out.push_back(MakeRemedy(
      RemedyKind::kShardOptimizerState, s,
      "Shard optimizer state, gradients and weights (FSDP / ZeRO-3) "
      "across the devices."));
  out.push_back(MakeRemedy(
      RemedyKind::kActivationRecompute, s,
      "Recompute activations (selective, then full) to trade compute "
      "for memory."));
  out.push_back(MakeRemedy(
      RemedyKind::kMoreMemoryPerDevice, s,
      "Move to accelerators with more memory per device."));
}

}  // namespace

std::vector<Remedy> RemediesForSymptoms(const catalog::Catalog& catalog,
                                        const Job& job,
                                        const Family* current_family) {
  std::vector<Remedy> out;
  const bool on_tpu = CurrentlyOnTpu(job);
  // A symptom listed twice gets its remedies once.
  std::vector<Symptom> seen;
  for (Symptom s : job.current.symptoms) {
    if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
    seen.push_back(s);
    switch (s) {
      case Symptom::kGradientSyncBound:
        GradientSyncRemedies(catalog, job, current_family, on_tpu, s, out);
        break;
      case Symptom::kInputBound:
        InputRemedies(s, out);
        break;
      case Symptom::kHeavyPadding:
      case Symptom::kLowUtilization:
        if (s == Symptom::kLowUtilization && !on_tpu) break;
        PaddingRemedies(job, s, out);
        break;
      case Symptom::kOutOfMemory:
        OutOfMemoryRemedies(s, out);
        break;
      default:
        break;
    }
  }
  // Edge: stated or following from the workload (planner/edge_rules.h).
  for (Remedy& r : EdgeRemedies(job)) out.push_back(std::move(r));
  return out;
}

std::optional<Savings> SavingsAgainstCurrent(const Job& job,
                                             const Candidate& best) {
  if (!best.config || !best.config->price_known) return std::nullopt;
  // Today's point as MakeJob modelled it (planner/current_evidence.h): its
  // hourly price and its runtime, observed when given, else modelled on the
  // work. The same point every RPC uses, not a second evaluation.
  if (!(job.current_hourly > 0) || !(job.current_hours > 0)) {
    return std::nullopt;
  }
  Savings s;
  s.current_hardware = job.current.hardware;
  s.current_hours = job.current_hours;
  s.current_cost_usd = job.current_hourly * job.current_hours;
  s.cost_saved_usd = s.current_cost_usd - best.config->cost.expected;
  s.hours_saved = s.current_hours - best.config->hours.expected;
  return s;
}

}  // namespace accelplan::planner::internal
