// ReviewPlan: remedies, judged against the stated symptoms first (a remedy
// that acts on none is rejected DOES_NOT_ADDRESS_BOTTLENECK), then against
// what each leaves per device and the hard rules of its target.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/count_refinement.h"
#include "planner/edge_rules.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/job_spec.h"
#include "planner/provisioning.h"
#include "planner/review_internal.h"
#include "planner/rules.h"
#include "planner/space.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
const char* SymptomLabel(Symptom s, const Job& job) {
  // A CPU setup has no accelerators to under-use.
  const bool on_cpu = job.current_accelerator == nullptr &&
                      job.current_series != nullptr &&
                      job.current_series->platform == catalog::Platform::kCpu;
  switch (s) {
    case Symptom::kGradientSyncBound: return "waiting on gradient synchronization";
    case Symptom::kInputBound: return "input-bound";
    case Symptom::kHeavyPadding: return "losing throughput to padding";
    case Symptom::kOutOfMemory: return "running out of memory";
    case Symptom::kLowUtilization:
      return on_cpu ? "under-utilising its CPUs"
                    : "under-utilising its accelerators";
    case Symptom::kEdgeOpsOnCpu:
      return "running part of its model on the host CPU (EDGE_OPS_ON_CPU)";
    default: return "unspecified";
  }
}

namespace {

// Device memory left after the default headroom (planner/policy.h).
constexpr double kUsableFraction = 1 - kPolicy.headroom_fraction.value;

}  // namespace

std::string SymptomsText(const Job& job) {
  std::vector<std::string> parts;
  bool edge_listed = false;
  for (Symptom s : job.current.symptoms) {
    if (s == Symptom::kUnspecified) continue;
    if (s == Symptom::kEdgeOpsOnCpu) {
      if (edge_listed) continue;
      edge_listed = true;
    }
    parts.push_back(SymptomLabel(s, job));
  }
  // Following from the workload (not fully int8, unmapped ops), unstated.
  if (!edge_listed && EdgeOpsOnCpu(job)) {
    parts.push_back(SymptomLabel(Symptom::kEdgeOpsOnCpu, job));
  }
  return absl::StrJoin(parts, " and ");
}

const char* RemedyLabel(RemedyKind k) {
  switch (k) {
    case RemedyKind::kAddReductionServer: return "A Reduction Server pool";
    case RemedyKind::kFasterInputPipeline: return "Faster storage / input pipeline";
    case RemedyKind::kUseSpot: return "Running on Spot VMs";
    case RemedyKind::kAddEvaluatorPool: return "An evaluator pool";
    case RemedyKind::kAddAccelerators: return "Adding accelerators of the same machine type";
    case RemedyKind::kFixTensorShapes:
      return "Reshaping tensors to sizes the hardware tiles";
    case RemedyKind::kMoveToHardware: return "Moving to other hardware";
    case RemedyKind::kShardOptimizerState: return "Sharding optimizer state (FSDP/ZeRO)";
    case RemedyKind::kActivationRecompute: return "Activation recompute";
    case RemedyKind::kMoreMemoryPerDevice: return "More memory per device";
    case RemedyKind::kUseHorovod: return "Horovod";
    case RemedyKind::kQuantizeFullInt8: return "Full int8 quantization";
    case RemedyKind::kReplaceUnsupportedOp:
      return "Replacing the ops the Edge TPU compiler does not map";
    default: return "The remedy";
  }
}

// Symptoms a remedy acts on, most direct first (the order ranks remedies
// that address the same symptom).
std::vector<Symptom> Addresses(RemedyKind k) {
  switch (k) {
    case RemedyKind::kAddReductionServer:
      return {Symptom::kGradientSyncBound, Symptom::kLowUtilization};
    case RemedyKind::kFasterInputPipeline:
      return {Symptom::kInputBound, Symptom::kLowUtilization};
    case RemedyKind::kFixTensorShapes:
      return {Symptom::kHeavyPadding, Symptom::kLowUtilization};
    case RemedyKind::kShardOptimizerState:
    case RemedyKind::kActivationRecompute:
    case RemedyKind::kMoreMemoryPerDevice:
    case RemedyKind::kAddAccelerators:
      return {Symptom::kOutOfMemory};
    case RemedyKind::kQuantizeFullInt8:
    case RemedyKind::kReplaceUnsupportedOp:
      return {Symptom::kEdgeOpsOnCpu};
    default:
      return {};
  }
}

namespace {

int Directness(RemedyKind k) {
  switch (k) {
    case RemedyKind::kAddReductionServer:
    case RemedyKind::kFasterInputPipeline:
    case RemedyKind::kFixTensorShapes:
    case RemedyKind::kShardOptimizerState:
    case RemedyKind::kQuantizeFullInt8:
    case RemedyKind::kReplaceUnsupportedOp:
      return 0;
    case RemedyKind::kActivationRecompute: return 1;
    case RemedyKind::kMoreMemoryPerDevice: return 2;
    case RemedyKind::kAddAccelerators: return 3;
    default: return 4;
  }
}

// A symptom such as LOW_UTILIZATION has several causes, and the request
// may evidence one and not another: a faster input pipeline is evidenced
// by INPUT_BOUND, a Reduction Server by GRADIENT_SYNC_BOUND (an exposed
// all-reduce idles the accelerators too), a tensor-shape fix by
// HEAVY_PADDING or by shapes the request states that pad (ShapesPad). A
// remedy without evidence ranks after one with it (0.5: between two
// directness steps).
double UnevidencedCause(const Job& job, RemedyKind k) {
  bool evidenced = true;
  if (k == RemedyKind::kFasterInputPipeline) {
    evidenced = HasSymptom(job, Symptom::kInputBound);
  } else if (k == RemedyKind::kAddReductionServer) {
    evidenced = HasSymptom(job, Symptom::kGradientSyncBound);
  } else if (k == RemedyKind::kFixTensorShapes) {
    evidenced = HasSymptom(job, Symptom::kHeavyPadding) || ShapesPad(job);
  }
  return evidenced ? 0 : 0.5;
}

// LOW_UTILIZATION follows from a bottleneck the request may also state
// (waiting on the gradient sync or the input, padding): a stated cause
// explains it, and a remedy acts on it only when the request evidences the
// remedy's own cause (UnevidencedCause).
bool CauseOfLowUtilizationStated(const Job& job) {
  return HasSymptom(job, Symptom::kGradientSyncBound) ||
         HasSymptom(job, Symptom::kInputBound) ||
         HasSymptom(job, Symptom::kHeavyPadding);
}

// Edge remedies: the one that removes a stated cause (a model not fully
// int8, ops the compiler does not map) ranks ahead of the other. With both
// stated, quantizing comes first: the Edge TPU runs only models fully
// quantized to 8 bits (https://coral.ai/docs/edgetpu/models-intro/), so
// replacing ops in a model that is not leaves it on the CPU.
double EdgeDirectness(const Job& job, RemedyKind k) {
  const EdgeCpuFallback e = EdgeCpuFallbackOf(job);
  if (k == RemedyKind::kQuantizeFullInt8) return e.not_full_int8 ? 0 : 1;
  if (!e.unmapped_ops) return 1;
  return e.not_full_int8 ? 0.5 : 0;
}

// USE_SPOT: the planner's rule (SpotLosesWork, planner/provisioning.h) on
// the job's length today (observed, else modelled on the stated work), and
// as before a hard deadline for a job that does not checkpoint.
void RejectIfSpotLosesWork(const Job& job, Judged& j) {
  if (SpotLosesWork(job, job.current_hours)) {
    j.Reject(ReasonCode::kPreemptionRisk,
             absl::StrFormat(
                 "The job runs %s today (%s; %s of training after its "
                 "start-up) %s",
                 FormatHours(job.current_hours),
                 job.current.observed_hours > 0 ? "observed"
                                                : "modelled on the stated work",
                 FormatHours(TrainingHours(job.current_hours)),
                 SpotLosesWorkClause()));
  } else if (job.goal.hard_deadline && !JobCheckpoints(job)) {
    j.Reject(ReasonCode::kPreemptionRisk,
             "Spot VMs can be preempted before the hard deadline and the "
             "job does not checkpoint.");
  }
}

// A remedy that is already in place today.
std::optional<std::string> AlreadyInPlace(const Job& job, RemedyKind kind) {
  if (kind == RemedyKind::kShardOptimizerState &&
      job.current.strategy == Strategy::kFsdp) {
    return "The job already shards its model states (FSDP).";
  }
  if (kind == RemedyKind::kActivationRecompute &&
      job.workload.recompute == Recompute::kFull) {
    return "The job already recomputes every layer's activations.";
  }
  if (kind == RemedyKind::kUseHorovod &&
      job.current.strategy == Strategy::kHorovod) {
    return "The job already runs Horovod.";
  }
  if (kind == RemedyKind::kFixTensorShapes) return ShapesAlreadyTile(job);
  return std::nullopt;
}

// Applicability: a remedy that cannot act in this job's setting at all
// (wrong hardware, pinned hardware, already done, unsafe) is rejected before
// any number is compared.
void RejectIfNotApplicable(const Job& job, const RemedyProposal& m,
                           Judged& j) {
  if (m.kind == RemedyKind::kAddReductionServer &&
      !CurrentIsMultiHostNcclGpu(job)) {
    j.Reject(ReasonCode::kNotApplicable,
             CurrentIsTpu(job)
                 ? "Reduction Server speeds up NCCL all-reduce between GPU "
                   "workers; TPUs synchronise over ICI/DCN."
                 : (job.current.node_count <= 1
                        ? "Reduction Server needs multi-host data-parallel "
                          "training; a single node all-reduces inside its "
                          "VM (over NVLink or PCIe), not over the network."
                        : "Reduction Server needs TensorFlow or PyTorch "
                          "with NCCL all-reduce."));
  }
  // Both change the hardware the team keeps.
  if ((m.kind == RemedyKind::kMoveToHardware ||
       m.kind == RemedyKind::kMoreMemoryPerDevice) &&
      job.constraints.keep_current_hardware) {
    j.Reject(ReasonCode::kChangesPinnedHardware,
             absl::StrCat("The team keeps its current hardware (",
                          job.current.hardware, ")."));
  }
  if (m.kind == RemedyKind::kFixTensorShapes &&
      (m.global_batch_size > 0 || !m.layer_widths.empty())) {
    RejectIfShapesStillPad(job, m, j);
  }
  // Slices a remedy adds or moves to hold the same rule as slices a
  // hardware proposal states (review_hardware.cc).
  if (const std::string why = MultisliceFrameworkReason(job.framework);
      m.target && m.target->slices > 1 && !why.empty()) {
    j.Reject(ReasonCode::kFrameworkUnsupported, absl::StrCat(why, "."));
  }
  if (m.kind == RemedyKind::kQuantizeFullInt8 && job.on_device &&
      job.workload.edge.quantization == Quantization::kFullInt8) {
    j.Reject(ReasonCode::kNotApplicable,
             "The model is already fully int8-quantized; the ops that fall "
             "back to the CPU are ones the Edge TPU compiler does not map.");
  }
  if ((m.kind == RemedyKind::kQuantizeFullInt8 ||
       m.kind == RemedyKind::kReplaceUnsupportedOp) &&
      job.on_device && HasAttention(job.workload)) {
    j.Reject(ReasonCode::kOpsUnsuitedToTpu,
             absl::StrCat(AttentionUnmappedLine("the Edge TPU"),
                          " Quantizing or replacing other ops does not "
                          "change that."));
  }
  if (m.kind == RemedyKind::kUseSpot) RejectIfSpotLosesWork(job, j);
  if (m.kind == RemedyKind::kUseHorovod && CurrentIsTpu(job)) {
    j.Reject(ReasonCode::kNotApplicable, kHorovodIsNotForTpus);
  }
  if (auto why = NotABoostingRemedy(job, m.kind)) {
    j.Reject(ReasonCode::kNotApplicable, *why);
  }
  if (auto why = AlreadyInPlace(job, m.kind)) {
    j.Reject(ReasonCode::kNotApplicable, *why);
  }
}

// The device a memory remedy leaves the job on: the current accelerator, or
// for a move the target's (by machine type, else by accelerator name).
const catalog::Accelerator* DeviceAfter(const ReviewContext& ctx,
                                        const RemedyProposal& m) {
  const catalog::Accelerator* device = ctx.job.current_accelerator;
  if (MovesToTarget(m)) {
    const catalog::MachineType* mt =
        m.target->machine_type.empty()
            ? nullptr
            : ctx.catalog.FindMachineType(m.target->machine_type);
    device = mt && !mt->accelerator_id.empty()
                 ? ctx.catalog.FindAccelerator(mt->accelerator_id)
                 : (!m.target->accelerator.empty()
                        ? ctx.catalog.FindAccelerator(m.target->accelerator)
                        : nullptr);
  }
  return device;
}

// Out of memory: judge each memory remedy by what it leaves per device on
// the current hardware (a move to a target is its point's), when known and the
// space builds no point for it (else its point decides, with the memory
// the distribution proposals and the plan see: JudgeRemedyInSpace).
void RejectIfStillOutOfMemory(const ReviewContext& ctx,
                              const RemedyProposal& m, Judged& j) {
  const Job& job = ctx.job;
  const int n = std::max(1, job.current_chips);
  if (m.kind == RemedyKind::kShardOptimizerState && n <= 1) {
    j.Reject(ReasonCode::kNotApplicable,
             "The job runs on one device: there is nothing to shard the "
             "optimizer state across.");
    return;
  }
  if (RemedyHasPointInSpace(ctx, m)) return;
  // A move to a target is judged by the target's point in the space, with
  // today's point or without (JudgeRemedyInSpace: MoveTarget), as a series
  // target is: the per-device bound below ignores the layouts it can take.
  if (MovesToTarget(m)) return;
  // Without a target it is a move to a larger device the space selects
  // (JudgeRemedyInSpace), not today's device.
  if (m.kind == RemedyKind::kMoreMemoryPerDevice && !m.target &&
      ctx.job.current_accelerator != nullptr &&
      ctx.job.current_accelerator->memory_bytes) {
    return;
  }
  const catalog::Accelerator* device = DeviceAfter(ctx, m);
  const double usable = device && device->memory_bytes
                            ? device->memory_bytes->value * kUsableFraction
                            : 0;
  double need = 0;
  switch (m.kind) {
    case RemedyKind::kShardOptimizerState:
      need = JobBytesWith(job, n, 3, Recompute::kUnspecified);
      break;
    case RemedyKind::kActivationRecompute:
      need = JobBytesWith(job, n, 0, Recompute::kFull);
      break;
    case RemedyKind::kMoveToHardware:
    case RemedyKind::kMoreMemoryPerDevice:
      need = std::min(JobBytesWith(job, n, 0, Recompute::kUnspecified),
                      n > 1 ? JobBytesWith(job, n, 3, Recompute::kUnspecified)
                            : std::numeric_limits<double>::infinity());
      break;
    default:
      break;
  }
  if (need > 0 && usable > 0 && need > usable) {
    j.Reject(ReasonCode::kHbmTooSmall,
             absl::StrFormat("%s still needs %.1f GiB per device; %.1f "
                             "GiB is usable on %s.",
                             RemedyLabel(m.kind), need / kGiB,
                             usable / kGiB, device->name));
  }
}

// FIX_TENSOR_SHAPES' advice: the tiling, and the sizes the proposal
// states where it states them (the rules before it rejected any that still
// pad), so the line says what it accepts; else the rule's rounding.
std::string ShapeAdvice(const Job& job, const RemedyProposal& m) {
  ShapeRule rule = ShapeRuleFor(job);
  if (m.global_batch_size > 0) rule.batch = m.global_batch_size;
  if (!m.layer_widths.empty() &&
      m.layer_widths.size() == job.current.layer_widths.size()) {
    rule.widths = m.layer_widths;
  }
  const std::string rounding = ShapeRounding(job.current, rule);
  return absl::StrFormat(
      " Batch a multiple of %d, feature dimensions multiples of %d%s.",
      rule.batch_multiple, rule.width_multiple,
      rounding.empty() ? "" : absl::StrCat(" (", rounding, ")"));
}

// Why a remedy does not act on the stated symptoms; `explained`: low
// utilisation left to a stated cause.
std::string NotActingLine(const Job& job, RemedyKind k, bool explained) {
  const bool gpu_tiling = k == RemedyKind::kFixTensorShapes &&
                          HasSymptom(job, Symptom::kLowUtilization) &&
                          !CurrentlyOnTpu(job);
  return absl::StrCat(
      RemedyLabel(k), " does not act on the problem: the job is ",
      SymptomsText(job),
      gpu_tiling  ? ", and on GPUs low utilisation is not the tiling's to fix "
                    "(padded shapes are: HEAVY_PADDING)"
      : explained ? "; the stated cause explains the low utilisation, and "
                    "nothing in the request points to this one"
                  : "",
      ".");
}

// With stated symptoms: a remedy that acts on none is rejected; one that
// does ranks in tier 0, most direct first, with the line saying why. A
// move under GRADIENT_SYNC_BOUND is judged by the point it selects
// (JudgeMoveByItsPoint): returns true when it is left to that.
bool RankAgainstSymptoms(const Job& job, const RemedyProposal& m, Judged& j) {
  bool addresses = false;
  bool explained = false;          // low utilisation left to its cause
  std::vector<std::string> acted;  // the stated symptoms it acts on
  for (Symptom s : Addresses(m.kind)) {
    // Low utilisation is the MXU tiling's only on a TPU (as PlanTraining's
    // remedies, planner/remedies.h).
    if (m.kind == RemedyKind::kFixTensorShapes &&
        s == Symptom::kLowUtilization && !CurrentlyOnTpu(job)) {
      continue;
    }
    if (s == Symptom::kLowUtilization && CauseOfLowUtilizationStated(job) &&
        UnevidencedCause(job, m.kind) > 0) {
      explained = HasSymptom(job, s);
      continue;
    }
    if (HasSymptom(job, s)) {
      addresses = true;
      acted.push_back(SymptomLabel(s, job));
    }
  }
  if (m.kind == RemedyKind::kMoveToHardware && m.target &&
      HasSymptom(job, Symptom::kOutOfMemory)) {
    addresses = true;  // more memory per device can fix OOM
  }
  const bool leaves_parameter_servers = LeavesParameterServers(job, m);
  if (leaves_parameter_servers) {
    addresses = true;
    acted.push_back(SymptomLabel(Symptom::kGradientSyncBound, job));
  }
  if (!addresses && MoveJudgedByItsPoint(job, m)) {
    j.tier = kActsOnTheProblemTier;
    return true;
  }
  if (!addresses) {
    j.Reject(ReasonCode::kDoesNotAddressBottleneck,
             NotActingLine(job, m.kind, explained));
  } else if (!j.rejected) {
    // A remedy or a move that acts on the problem ranks with everything
    // else that does (kActsOnTheProblemTier), by the scorer where it
    // selects a point; on parameter servers leaving them is the direct fix,
    // and a move's wider link ranks after it.
    const bool moves = m.kind == RemedyKind::kMoveToHardware ||
                       m.kind == RemedyKind::kMoreMemoryPerDevice;
    j.tier = moves && OnGpuParameterServers(job) &&
                     HasSymptom(job, Symptom::kGradientSyncBound)
                 ? 1
                 : kActsOnTheProblemTier;
    j.acts_on_problem = true;
    j.secondary = Addresses(m.kind) == std::vector{Symptom::kEdgeOpsOnCpu}
                      ? EdgeDirectness(job, m.kind)
                      : Directness(m.kind) + UnevidencedCause(job, m.kind);
    // Leaving the parameter servers comes first: a Reduction Server serves
    // the NCCL all-reduce Horovod brings, not parameter servers.
    if (leaves_parameter_servers) {
      j.secondary = Directness(RemedyKind::kAddReductionServer) - 0.5;
    }
    std::string line = absl::StrCat(
        RemedyLabel(m.kind), " acts directly on the problem: the job is ",
        acted.empty() ? SymptomsText(job) : absl::StrJoin(acted, " and "), ".");
    if (m.kind == RemedyKind::kFixTensorShapes) {
      absl::StrAppend(&line, ShapeAdvice(job, m));
    }
    if (leaves_parameter_servers) {
      absl::StrAppend(
          &line,
          " It replaces today's parameter servers with ring all-reduce over "
          "NCCL, in which each worker sends about twice its gradient "
          "whatever the number of workers, instead of every gradient "
          "crossing the servers' links (Sergeev & Del Balso 2018, "
          "arXiv:1802.05799: about twice the throughput of parameter "
          "servers at 128 GPUs). A Reduction Server serves that all-reduce, "
          "not parameter servers.");
    }
    j.why.push_back(std::move(line));
  }
  return false;
}

// Without symptoms: general improvements rank in tier 2 (Spot first when
// minimising cost); Horovod ranks ahead when the team asked for
// framework-agnostic distribution.
void RankWithoutSymptoms(const Job& job, const RemedyProposal& m, Judged& j) {
  j.tier = 2;
  j.secondary = m.kind == RemedyKind::kUseSpot &&
                        job.objective == Objective::kMinCost
                    ? 0
                    : 1 + Directness(m.kind);
  if (m.kind == RemedyKind::kUseHorovod &&
      job.constraints.framework_agnostic_distribution) {
    j.tier = 1;
    j.secondary = -1;
  }
}

// The target of a move must itself pass the hard rules (pinning aside,
// which is judged above): report the codes of its least-rejected family.
void RejectIfTargetFails(const ReviewContext& ctx, const RemedyProposal& m,
                         Judged& j) {
  Job relaxed = ctx.job;
  relaxed.constraints.keep_current_hardware = false;
  const HardwareProposal& t = *m.target;
  Candidate* fewest = nullptr;
  std::vector<Candidate> evaluated;
  for (const Family* f : MatchFamilies(
           ctx.index, t.platform, t.series, t.accelerator, t.machine_type)) {
    evaluated.push_back(EvaluateFamily(ctx.catalog, relaxed, *f));
    // The counts the space searches (a budget met only off the grid).
    RefineCounts(relaxed, ctx.space.norm, evaluated.back());
  }
  for (Candidate& c : evaluated) {
    if (fewest == nullptr || c.codes.size() < fewest->codes.size()) fewest = &c;
  }
  if (fewest != nullptr) {
    DescribeNeededProvisioning(ctx.catalog, relaxed, *fewest);
    for (size_t k = 0; k < fewest->codes.size(); ++k) {
      j.Reject(fewest->codes[k], fewest->why[k]);
    }
  }
}

}  // namespace

bool LeavesParameterServers(const Job& job, const RemedyProposal& m) {
  return m.kind == RemedyKind::kUseHorovod && OnGpuParameterServers(job) &&
         HasSymptom(job, Symptom::kGradientSyncBound);
}

bool CurrentIsTpu(const Job& job) {
  return CurrentlyOnTpu(job) || job.current.slice_count > 0;
}


// MORE_MEMORY_PER_DEVICE to a target whose device holds no more than
// today's is not that remedy (sharding over more of the same devices is
// SHARD_OPTIMIZER_STATE or ADD_ACCELERATORS).
void RejectIfNoMoreMemory(const ReviewContext& ctx, const RemedyProposal& m,
                          Judged& j) {
  if (m.kind != RemedyKind::kMoreMemoryPerDevice || !m.target) return;
  const catalog::Accelerator* today = ctx.job.current_accelerator;
  const catalog::Accelerator* after = DeviceAfter(ctx, m);
  if (today == nullptr || after == nullptr || !today->memory_bytes ||
      !after->memory_bytes ||
      after->memory_bytes->value > today->memory_bytes->value) {
    return;
  }
  j.Reject(ReasonCode::kNotApplicable,
           absl::StrFormat("%s has %.0f GB per device, no more than today's "
                           "%s (%.0f GB).",
                           after->name, after->memory_bytes->value / 1e9,
                           today->name, today->memory_bytes->value / 1e9));
}

void JudgeRemedy(const ReviewContext& ctx, const RemedyProposal& m, Judged& j) {
  const Job& job = ctx.job;
  // Applicability first.
  RejectIfNotApplicable(job, m, j);
  RejectIfNoMoreMemory(ctx, m, j);
  if (HasSymptom(job, Symptom::kOutOfMemory) &&
      job.model_size_known && !j.rejected) {
    RejectIfStillOutOfMemory(ctx, m, j);
  }
  bool by_point = false;
  if (AnySymptom(job)) {
    by_point = RankAgainstSymptoms(job, m, j);
  } else if (!j.rejected) {
    RankWithoutSymptoms(job, m, j);
  }
  if (MovesToTarget(m)) RejectIfTargetFails(ctx, m, j);
  RejectIfHorovodReplicaDoesNotFit(ctx, m, j);
  JudgeRemedyInSpace(ctx, m, j);
  if (by_point) JudgeMoveByItsPoint(ctx, j);
  HoldMoveThatFreesNoMemory(ctx, m, j);
  RejectIfMemoryPerDeviceUnchanged(ctx, m, j);
  RejectIfDeadlineStillMissed(ctx, m, j);
  MarkIfNothingToRemedy(job, m, j);
}

}  // namespace accelplan::planner::internal
