// ReviewPlan: a remedy as a query on the candidate space. The current setup
// with the remedy applied is built by the same stages and judged by the
// same scorer as every other point, so the verdict carries its estimates
// and ranks against the other proposals by the objective (issue 12 item 3).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/current_evidence.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/provisioning.h"
#include "planner/reduction_server.h"
#include "planner/remedies.h"
#include "planner/review_internal.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

bool SpaceModels(RemedyKind kind) {
  switch (kind) {
    case RemedyKind::kAddReductionServer:
    case RemedyKind::kUseSpot:
    case RemedyKind::kShardOptimizerState:
    case RemedyKind::kActivationRecompute:
    case RemedyKind::kAddAccelerators:
      return true;
    default:
      return false;
  }
}

// "16 x a2-highgpu-8g" / "tpu-v5p 4x4x4 x 2" / the family at its devices.
std::string PointLabel(const Candidate& c) {
  const Config& p = *c.config;
  if (p.shape != nullptr && p.shape->topology != nullptr) {
    return p.slices > 1
               ? absl::StrFormat("%s %s x %d", c.family->name,
                                 p.shape->topology->topology, p.slices)
               : absl::StrCat(c.family->name, " ", p.shape->topology->topology);
  }
  if (p.shape != nullptr && p.shape->machine != nullptr) {
    return absl::StrFormat("%d x %s", p.units, p.shape->machine->id);
  }
  return absl::StrFormat("%s at %d devices", c.family->name, p.devices);
}

namespace {

// The size an ADD_ACCELERATORS target states: its count, or its topology
// and slices, an unstated one of these two being today's; all zero when it
// states none (any larger size).
struct StatedSize {
  int count = 0;
  std::string topology;
  int slices = 0;
  int Chips() const {
    return topology.empty() ? count
                            : TopologyChips(topology) * std::max(1, slices);
  }
};

StatedSize StatedSizeOf(const Job& job, const RemedyProposal& m) {
  StatedSize size;
  if (!m.target) return size;
  const HardwareProposal& t = *m.target;
  size.count = std::max<int>(0, t.count);
  if (!t.tpu_topology.empty() || t.slices > 0) {
    size.topology = !t.tpu_topology.empty() ? t.tpu_topology
                                            : job.current.tpu_topology;
    size.slices = t.slices > 0 ? t.slices : job.current.slice_count;
  }
  return size;
}

// What a remedy changes about the current setup; false for one the space
// does not model.
bool ApplyToCurrent(const RemedyProposal& m, const Job& request, Job& job,
                    Pins& pins) {
  if (!SpaceModels(m.kind)) return false;
  switch (m.kind) {
    case RemedyKind::kAddReductionServer:
      // The planner adds the pool to a point where it pays
      // (planner/reduction_server.h); the remedy is that point.
      job.reducer_machine = request.reducer_machine;
      return true;
    case RemedyKind::kUseSpot:
      job.constraints.spot_allowed = true;
      return true;
    case RemedyKind::kShardOptimizerState:
      pins.layout = Strategy::kFsdp;
      return true;
    case RemedyKind::kActivationRecompute:
      job.workload.recompute = Recompute::kFull;
      // Today's stated layout, recomputing: not an optimizer offload the
      // team did not state (the fit would come from the offload).
      job.optimizer_offload_excluded =
          job.current.strategy != Strategy::kUnspecified;
      return true;
    case RemedyKind::kAddAccelerators: {
      // The same machine type at the size the remedy states (its count,
      // topology, slices: an unstated one of the last two is today's),
      // else at any larger one; today's layout kept.
      const StatedSize size = StatedSizeOf(job, m);
      pins.devices = size.count;
      pins.topology = size.topology;
      pins.slices = size.slices;
      pins.min_devices = job.current_devices + 1;
      // Today's degrees do not hold at another size: today's mesh grown
      // over the added slices where it spans them, else today's strategy.
      std::optional<LayoutPin> grown = MeshOverSlices(job, size.slices);
      pins.layout = grown ? *grown : LayoutPin(job.current.strategy);
      return true;
    }
    default:
      return false;
  }
}

// The job as the current setup runs it: on capacity the team has —
// on-demand, or a reservation where on-demand is not offered, as today's
// point in planner/current_evidence.cc (the request states no provisioning
// for today) — and without a Reduction Server pool, which the USE_SPOT and
// ADD_REDUCTION_SERVER remedies add.
Job AsToday(const Job& job) {
  Job today = job;
  today.constraints.spot_allowed = false;
  today.constraints.flex_start_allowed = false;
  today.constraints.reservation_available = true;
  today.reducer_machine = nullptr;
  return today;
}

// Hardware today's capacity cannot obtain (Spot- or flex-start-only
// shapes): on the provisioning the request allows instead.
Job WithRequestedProvisioning(const Job& request, Job job) {
  job.constraints.spot_allowed |= request.constraints.spot_allowed;
  job.constraints.flex_start_allowed |= request.constraints.flex_start_allowed;
  return job;
}

// Today's point is what runs now: no deadline, budget or pace to meet.
Job TodayUnconstrained(const Job& job) {
  // A stated FSDP is FSDP (a remedy or a move may offload; today does not).
  Job today = AsStatedToday(AsToday(job));
  today.deadline_hours = std::numeric_limits<double>::infinity();
  today.deadline_given = false;
  today.goal.budget_usd = 0;
  today.goal.hard_deadline = false;
  today.pace_floor_units_per_s = 0;
  return today;
}

// The current setup's family and pins, when the space holds it.
struct Current {
  const Family* family = nullptr;
  Pins pins;
};

std::optional<Current> CurrentInSpace(const ReviewContext& ctx) {
  const Job& job = ctx.job;
  if (job.on_device || job.current_devices <= 0) return std::nullopt;
  const Family* family = CurrentFamily(ctx.index, job);
  if (family == nullptr) return std::nullopt;
  return Current{family, CurrentSetupPins(job)};
}

// A setup the team already runs: the rules that compare families
// (oversize, list cost) do not judge it. On today's capacity first.
Candidate Evaluate(const ReviewContext& ctx, const Job& job,
                   const Current& at) {
  auto once = [&](const Job& j) {
    return EvaluateInSpace(ctx.catalog, j, ctx.space, *at.family, at.pins,
                           /*compare_families=*/false);
  };
  Candidate c = once(job);
  if (c.has_point() || !HasCode(c.codes, ReasonCode::kNotAvailableOnDemand)) {
    return c;
  }
  return once(WithRequestedProvisioning(ctx.job, job));
}

// The current setup with the remedy applied; nullopt for a remedy the space
// does not model.
std::optional<Candidate> Remedied(const ReviewContext& ctx,
                                  const RemedyProposal& m, Current at) {
  Job remedied = AsToday(ctx.job);
  if (!ApplyToCurrent(m, ctx.job, remedied, at.pins)) return std::nullopt;
  Candidate c = Evaluate(ctx, remedied, at);
  const bool keeps_layout = m.kind == RemedyKind::kShardOptimizerState ||
                            m.kind == RemedyKind::kAddAccelerators ||
                            m.kind == RemedyKind::kActivationRecompute;
  if (!c.has_point() && at.pins.layout.any()) {
    // Today's stated layout holds no point: it runs, so its memory is
    // taken as observed (no remedy here needs more memory per device than
    // today's layout; planner/current_evidence.h).
    if (std::optional<Job> observed = ObservedToFit(remedied, c)) {
      c = Evaluate(ctx, *observed, at);
    }
  }
  if (!c.has_point() && at.pins.layout.any() && !keeps_layout) {
    // Else the fastest that fits, as for today's own point. Sharding is
    // the layout; more accelerators and recompute keep today's, or the fit
    // would come from another layout (sharding), not from the remedy.
    at.pins.layout = {};
    c = Evaluate(ctx, remedied, at);
  }
  return c;
}

// No point of the remedied setup is feasible: the remedy is rejected with
// the codes its setup fails, as a hardware proposal would be (a stated
// deadline or budget it misses, memory it lacks, a size the request
// excludes).
void StillFails(const Candidate& c, Judged& j) {
  for (size_t k = 0; k < c.codes.size(); ++k) {
    j.Reject(c.codes[k], k == 0 ? absl::StrCat("After it the current setup "
                                               "still fails: ",
                                               c.why[k])
                                : c.why[k]);
  }
}

// ADD_REDUCTION_SERVER where the remedied point takes no pool because its
// traffic is not the one a pool serves (planner/reduction_server.h).
bool RejectIfNoPoolApplies(const Job& job, const RemedyProposal& m,
                           const Candidate& after, Judged& j) {
  const Config& p = *after.config;
  if (m.kind != RemedyKind::kAddReductionServer || p.reducers ||
      ReductionServerApplies(job, *after.family, p)) {
    return false;
  }
  j.Reject(ReasonCode::kNotApplicable,
           absl::StrCat(
               "A Reduction Server serves the gradient all-reduce of data "
               "parallelism (plain or ZeRO-1/2) across GPU hosts with NCCL "
               "on Vertex AI serverless training (not flex-start); no pool "
               "can take the current setup's traffic (",
               PointLabel(after), "): ",
               absl::StrJoin(WhyNoReductionServer(job, *after.family, p), "; "),
               "."));
  return true;
}

// A target on CPUs: the platform named, or a machine type with no
// accelerator.
bool TargetsCpus(const catalog::Catalog& catalog,
                 const HardwareProposal& target) {
  if (target.platform == Platform::kCpu) return true;
  if (target.machine_type.empty() || !target.accelerator.empty()) return false;
  const catalog::MachineType* m = catalog.FindMachineType(target.machine_type);
  return m != nullptr && m->accelerator_count == 0;
}

// A move is the hardware proposal it names, in the same space, on today's
// provisioning (the one change is the hardware), else on what the request
// allows when today's capacity cannot obtain it: its point, or its codes.
std::optional<Candidate> MoveTarget(const ReviewContext& ctx,
                                    const HardwareProposal& target, Judged& j) {
  // A remedy applies to today's setup: a target that states no size takes
  // today's number of accelerators, not the best of every size it has.
  // From accelerators to CPUs the count does not carry over (8 GPUs are
  // not 8 CPU VMs): the target's own best size.
  HardwareProposal sized = target;
  if (sized.count <= 0 && sized.tpu_topology.empty() && sized.slices <= 0 &&
      !(TargetsCpus(ctx.catalog, target) &&
        ctx.job.current_accelerator != nullptr)) {
    sized.count = std::max(0, ctx.job.current_devices);
  }
  const auto judge = [&](const Job& job) {
    // Another job: its own today, if one is asked for.
    const ReviewContext as{ctx.catalog, ctx.index,    job,
                           ctx.space,   ctx.fact_ids, {}};
    Judged out;
    JudgeHardware(as, sized, out, /*evaluate=*/true);
    return out;
  };
  // Today's capacity is on-demand, or the reservation today's machines run
  // on: a reservation for another machine is one the request must allow
  // (a reservation-only a3-highgpu-4g was RECOMMENDED as a move, priced
  // on-demand, beside the same machine rejected NOT_AVAILABLE_ON_DEMAND).
  Job today = AsToday(ctx.job);
  today.constraints.reservation_available =
      ctx.job.constraints.reservation_available ||
      (!target.machine_type.empty() &&
       target.machine_type == ctx.job.current.hardware);
  Judged t = judge(today);
  if (t.rejected && HasCode(t.codes, ReasonCode::kNotAvailableOnDemand)) {
    t = judge(WithRequestedProvisioning(ctx.job, today));
  }
  if (t.rejected) {
    for (ReasonCode code : t.codes) j.Reject(code, "");
    for (std::string& line : t.why) j.why.push_back(std::move(line));
    return std::nullopt;
  }
  // The target's own lines (an unmatched layout's degrees, a price it
  // lacks) travel with the move.
  for (std::string& line : t.why) j.why.push_back(std::move(line));
  if (!t.recommendable) {  // unpriced under a budget: never recommended
    j.recommendable = false;
    for (ReasonCode code : t.codes) j.Add(code, "");
  }
  return std::move(t.candidate);
}

// MORE_MEMORY_PER_DEVICE without a target: the move to the best-ranked
// viable family in the job's space whose device holds more than today's.
// A CPU job's device is its VM: the best-ranked CPU point the request
// allows on a VM with more memory than today's.
std::optional<HardwareProposal> LargerCpuVmTarget(const ReviewContext& ctx,
                                                  Judged& j) {
  const catalog::MachineType* today = ctx.job.current_machine;
  if (today == nullptr || today->accelerator_count > 0 ||
      !today->memory_bytes) {
    return std::nullopt;
  }
  for (const Candidate& c : ctx.space.candidates) {
    const catalog::MachineType* vm =
        c.has_point() && c.config->shape ? c.config->shape->machine : nullptr;
    if (c.family->platform != Platform::kCpu || vm == nullptr ||
        !vm->memory_bytes || !(*vm->memory_bytes > *today->memory_bytes)) {
      continue;
    }
    j.why.push_back(absl::StrFormat(
        "No target given: the best-ranked CPU VM the request allows with "
        "more memory than today's %s (%.0f GiB) is %s (%.0f GiB).",
        today->id, *today->memory_bytes / kGiB, vm->id,
        *vm->memory_bytes / kGiB));
    HardwareProposal target;
    target.machine_type = vm->id;
    return target;
  }
  j.Reject(ReasonCode::kHbmTooSmall,
           absl::StrFormat("No CPU VM the request allows holds the job with "
                           "more memory than today's %s.",
                           today->id));
  return std::nullopt;
}

// MORE_MEMORY_PER_DEVICE without a target: the move to the best-ranked
// family of the space whose device holds more than today's and that the
// move can take at today's size (a family refused there, as G4 under the
// pre-training list beside A2 Standard, gives way to the next); the first
// refusal when none can.
std::optional<Candidate> LargerDeviceMove(const ReviewContext& ctx, Judged& j) {
  const catalog::Accelerator* today = ctx.job.current_accelerator;
  if (today == nullptr) {
    const std::optional<HardwareProposal> vm = LargerCpuVmTarget(ctx, j);
    return vm ? MoveTarget(ctx, *vm, j) : std::nullopt;
  }
  if (!today->memory_bytes) return std::nullopt;
  std::optional<std::pair<Judged, std::optional<Candidate>>> first;
  std::vector<std::string> refused;
  for (const Candidate& c : ctx.space.candidates) {
    if (!c.viable() || !c.has_point() || c.family->platform == Platform::kCpu ||
        c.family->platform == Platform::kEdge ||
        !(c.family->device_memory_bytes > today->memory_bytes->value)) {
      continue;
    }
    HardwareProposal target;
    target.series = c.family->series->id;
    if (c.family->accelerator != nullptr) {
      target.accelerator = c.family->accelerator->id;
    }
    Judged tried = j;
    tried.why.push_back(absl::StrFormat(
        "No target given: the best-ranked hardware the request allows with "
        "more memory per device than today's %s (%.1f GiB)%s is %s (%.1f "
        "GiB)%s.",
        today->name, today->memory_bytes->value / kGiB,
        refused.empty() ? "" : " that a move can take at today's size",
        c.family->name, c.family->device_memory_bytes / kGiB,
        refused.empty()
            ? ""
            : absl::StrCat("; ", absl::StrJoin(refused, ", "),
                           " ranks before it and is refused there")));
    std::optional<Candidate> after = MoveTarget(ctx, target, tried);
    if (!tried.rejected && after && after->has_point()) {
      j = std::move(tried);
      return after;
    }
    refused.push_back(c.family->name);
    if (!first) first.emplace(std::move(tried), std::move(after));
  }
  if (first) {
    j = std::move(first->first);
    return std::move(first->second);
  }
  j.Reject(ReasonCode::kHbmTooSmall,
           absl::StrFormat("No hardware the request allows holds the job "
                           "with more memory per device than today's %s.",
                           today->name));
  return std::nullopt;
}

// ADD_ACCELERATORS naming other hardware than today's (that is a move),
// or a size not larger than today's.
bool RejectIfNotMore(const Job& job, const RemedyProposal& m, Judged& j) {
  if (m.kind != RemedyKind::kAddAccelerators || !m.target) return false;
  const HardwareProposal& t = *m.target;
  const bool other_machine =
      !t.machine_type.empty() &&
      (job.current_machine == nullptr ||
       NormalizeName(t.machine_type) != NormalizeName(job.current_machine->id));
  const bool other_accelerator =
      !t.accelerator.empty() && (job.current_accelerator == nullptr ||
                                 !AskedName(t.accelerator).Names(*job.current_accelerator));
  if (other_machine || other_accelerator) {
    j.Reject(ReasonCode::kNotApplicable,
             "Adding accelerators keeps today's machine type; other "
             "hardware is a MOVE_TO_HARDWARE remedy.");
    return true;
  }
  const int chips = StatedSizeOf(job, m).Chips();
  if (chips <= 0 || chips > job.current_devices) return false;
  j.Reject(ReasonCode::kNotApplicable,
           absl::StrFormat("The stated size (%d accelerators) is not more "
                           "than today's %d.",
                           chips, job.current_devices));
  return true;
}

// Today's setup as a candidate of the space: the current family at today's
// size and stated layout, on today's capacity, with no deadline, budget or
// pace to meet (it is what runs now). nullopt when the space does not hold
// the current setup; a candidate without a point when it does not fit.
std::optional<Candidate> TodayInSpace(const ReviewContext& ctx) {
  const std::optional<Current> at = CurrentInSpace(ctx);
  if (!at) return std::nullopt;
  const Job unconstrained = TodayUnconstrained(ctx.job);
  Candidate today = Evaluate(ctx, unconstrained, *at);
  if (!today.has_point() && at->pins.layout.any()) {
    if (const std::optional<Job> observed =
            ObservedToFit(unconstrained, today)) {
      today = Evaluate(ctx, *observed, *at);
    }
  }
  return today;
}

}  // namespace

const std::optional<Candidate>& TodayOf(const ReviewContext& ctx) {
  if (!ctx.today) ctx.today = TodayInSpace(ctx);
  return *ctx.today;
}

// Whichever tier a proposal ranks in. Not under OUT_OF_MEMORY: today's
// setup does not run.
void NeverRecommendWhatTodayBeats(const ReviewContext& ctx,
                                  std::vector<Judged>& judged) {
  const Job& job = ctx.job;
  const std::optional<Candidate>& today = TodayOf(ctx);
  if (!today || !today->has_point() || HasSymptom(job, Symptom::kOutOfMemory)) {
    return;
  }
  const Config& t = *today->config;
  const double tol = kPolicy.tie_tolerance.value;
  const double cost = CostMetric(job, t);
  const double time = TimeMetric(job, t);
  if (!std::isfinite(cost) || !std::isfinite(time)) return;
  // Also for a proposal already held back by another rule: that today's
  // setup beats it is said all the same.
  for (Judged& j : judged) {
    if (j.rejected || !j.candidate || !j.candidate->config) continue;
    const Config& c = *j.candidate->config;
    // An unknown price is not a higher one (PRICE_UNKNOWN says it).
    if (!c.price_known) continue;
    if (!(CostMetric(job, c) > cost * (1 + tol) &&
          TimeMetric(job, c) > time * (1 + tol))) {
      continue;
    }
    j.recommendable = false;
    const std::string line = absl::StrCat(
        "Keeping today's setup (", job.current_label, ": ", MetricsText(job, t),
        ") is cheaper and faster than this (", MetricsText(job, c),
        "), so it is not recommended over what runs now.");
    j.Add(ReasonCode::kHigherCost, line);
    j.Add(ReasonCode::kSlower, "");
  }
}

bool RemedyHasPointInSpace(const ReviewContext& ctx, const RemedyProposal& m) {
  return SpaceModels(m.kind) && CurrentInSpace(ctx).has_value();
}

void JudgeRemedyInSpace(const ReviewContext& ctx, const RemedyProposal& m,
                        Judged& j) {
  if (j.rejected) return;
  const std::optional<Current> at = CurrentInSpace(ctx);
  std::optional<Candidate> after;
  if (MovesToTarget(m)) {
    after = MoveTarget(ctx, *m.target, j);
  } else if (m.kind == RemedyKind::kMoreMemoryPerDevice) {
    after = LargerDeviceMove(ctx, j);
  } else if (at) {
    if (RejectIfNotMore(ctx.job, m, j)) return;
    after = Remedied(ctx, m, *at);
  } else if (!ctx.job.on_device && ctx.job.current.hardware.empty()) {
    JudgeWithoutASetup(ctx, m, j);
    return;
  }
  if (!after || j.rejected) return;
  if (!after->has_point()) {
    StillFails(*after, j);
    return;
  }
  if (RejectIfNoPoolApplies(ctx.job, m, *after, j)) return;
  if (m.kind == RemedyKind::kUseSpot &&
      after->config->provisioning != Provisioning::kSpot) {
    j.Reject(ReasonCode::kNotApplicable,
             absl::StrCat("Today's setup gets no Spot capacity where the "
                          "request runs it (",
                          RunPlatformLabel(ctx.job.constraints.run_platform),
                          ": the catalog's offerings), so the remedy "
                          "changes nothing."));
    return;
  }
  MarkIfPoolDoesNotPay(ctx.job, m, *after, j);
  const std::optional<Candidate>& today = TodayOf(ctx);
  MarkIfRecomputeIsNotNeeded(ctx.job, m, today, j);
  MarkIfParameterServers(ctx.job, m, j);
  if (const Config* c = after->config ? &*after->config : nullptr;
      c != nullptr && c->required_bytes > c->usable_bytes) {
    j.why.push_back(ObservedMemoryLine(*c));
  }
  j.why.push_back(AgainstToday(ctx.job, *after, today ? &*today : nullptr));
  j.candidate = std::move(after);
  // Without a stated problem a remedy with a point is one more option for
  // the job: it ranks with the hardware and layouts, by the scorer.
  if (!AnySymptom(ctx.job)) j.tier = std::min(j.tier, 1);
}

}  // namespace accelplan::planner::internal
