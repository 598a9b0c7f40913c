// ReviewPlan: a hardware proposal selects its family in the candidate
// space — at the count, topology, slices, machine type and layout it gives
// (judged by the same scorer with the space's normalisation), else the
// family's own best point in the space.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/current_evidence.h"
#include "planner/engine_common.h"
#include "planner/job_spec.h"
#include "planner/layouts.h"
#include "planner/review_internal.h"
#include "planner/slice_replica.h"
#include "planner/space.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

std::vector<const Family*> ProposedFamilies(const Index& index, const Job& job,
                                            const HardwareProposal& h) {
  std::vector<const Family*> fams = MatchFamilies(
      index, h.platform, h.series, h.accelerator, h.machine_type);
  if (h.platform != Platform::kUnspecified) return fams;
  // A machine type named exactly as a CPU VM, with no accelerator
  // ("n1-standard-8"), is that VM, not the GPU shapes built on it, where
  // the request allows CPUs (with GPUs only, N1's GPUs ride that VM).
  if (!h.machine_type.empty() && h.accelerator.empty() && CpuAllowed(job)) {
    const std::string named = NormalizeName(h.machine_type);
    std::vector<const Family*> vm;
    for (const Family* f : fams) {
      if (f->platform != Platform::kCpu) continue;
      for (const Shape& s : f->shapes) {
        if (NormalizeName(s.machine->id) == named) {
          vm.push_back(f);
          break;
        }
      }
    }
    if (!vm.empty()) return vm;
  }
  // "N1" in a hardware question means its GPUs, not its CPU-only shapes.
  const bool any_accel =
      std::any_of(fams.begin(), fams.end(),
                  [](const Family* f) { return f->platform != Platform::kCpu; });
  if (any_accel) {
    fams.erase(std::remove_if(fams.begin(), fams.end(),
                              [](const Family* f) {
                                return f->platform == Platform::kCpu;
                              }),
               fams.end());
  }
  return fams;
}

// A CPU machine type the catalog lists without its memory (a benchmark
// row): it cannot be sized, so no plan; the series' sized types can be.
void RejectUnsizedCpuType(const catalog::Catalog& cat,
                          const catalog::MachineType& m, Judged& j) {
  std::vector<std::string> sized;
  for (const catalog::MachineType& o : cat.machine_types) {
    if (o.series_id == m.series_id && o.accelerator_id.empty() &&
        o.memory_bytes.has_value()) {
      sized.push_back(o.id);
    }
  }
  j.Reject(
      ReasonCode::kNotApplicable,
      absl::StrCat(m.id,
                   " is in the catalog without its memory, so the "
                   "planner cannot size a job on it",
                   sized.empty()
                       ? "."
                       : absl::StrCat("; ", m.series_id, " types it can size: ",
                                      absl::StrJoin(sized, ", "), ".")));
}

// No planned family matches: legacy hardware (never planned) or nothing.
void RejectUnknownHardware(const catalog::Catalog& cat,
                           const HardwareProposal& h, Judged& j) {
  const std::string& want =
      !h.accelerator.empty() ? h.accelerator
                             : (!h.series.empty() ? h.series : h.machine_type);
  const AskedName asked(want);
  for (const catalog::Accelerator& a : cat.accelerators) {
    if (a.legacy && asked.Names(a)) {
      j.Reject(ReasonCode::kNotACandidate,
               absl::StrCat(a.name, " is legacy hardware: it can be named as a "
                                    "current setup but is never planned."));
      if (a.end_of_support) {
        j.Add(ReasonCode::kEndOfSupport,
              absl::StrCat("End of support: ", *a.end_of_support, "."));
      }
      return;
    }
  }
  if (const catalog::MachineType* m = cat.FindMachineType(h.machine_type);
      m != nullptr && !m->accelerator_id.empty() && m->accelerator_count <= 0) {
    // A fractional GPU (G4's g4-standard-6/12/24): in the catalog, but the
    // planner sizes whole accelerators only.
    const catalog::MachineType* whole = nullptr;
    for (const catalog::MachineType& o : cat.machine_types) {
      if (o.accelerator_id == m->accelerator_id && o.accelerator_count > 0 &&
          (whole == nullptr || o.accelerator_count < whole->accelerator_count)) {
        whole = &o;
      }
    }
    j.Reject(ReasonCode::kNotApplicable,
             absl::StrCat(m->id, " has a fraction of one GPU (",
                          m->accelerator_id,
                          "); the planner sizes whole accelerators only",
                          whole ? absl::StrCat(": the smallest whole-GPU one is ",
                                               whole->id, ".")
                                : "."));
    return;
  }
  if (const catalog::MachineType* m = cat.FindMachineType(h.machine_type);
      m != nullptr && m->accelerator_id.empty() && !m->memory_bytes) {
    RejectUnsizedCpuType(cat, *m, j);
    return;
  }
  j.Reject(ReasonCode::kNotApplicable,
           "The proposal names no hardware in the catalog.");
}

// The slice count a proposal's layout is judged at: the proposal's, else
// its layout's, else the current one.
int ProposalSlices(const Job& job, const HardwareProposal& h) {
  return h.slices > 0                        ? h.slices
         : h.layout && h.layout->slices > 0 ? h.layout->slices
                                             : job.current_slices;
}

// A layout that keeps a replica in each slice (data across DCN, stated or
// the Multislice default) on the proposed slices: one slice must hold it
// (planner/slice_replica.h). True when no proposed TPU family's slice does.
bool RejectReplicaOverSlice(const Job& job, const HardwareProposal& h,
                            const std::vector<const Family*>& fams,
                            Judged& j) {
  if (!h.layout || h.tpu_topology.empty()) return false;
  const int slices = ProposalSlices(job, h);
  const DcnParallelism across = AcrossSlices(*h.layout);
  const Strategy s = h.layout->strategy;
  const bool replicates =
      across == DcnParallelism::kData ||
      (across == DcnParallelism::kUnspecified &&
       (s == Strategy::kDataParallel || s == Strategy::kMultislice));
  if (slices <= 1 || !replicates) return false;
  std::optional<std::string> first;
  for (const Family* f : fams) {
    if (f->platform != Platform::kTpu) continue;
    SliceReplica replica;
    replica.slice = absl::StrCat(f->name, " ", h.tpu_topology);
    replica.chips_per_slice = TopologyChips(h.tpu_topology);
    replica.slices = slices;
    replica.usable_bytes_per_chip = f->device_memory_bytes * (1 - kHeadroom);
    std::optional<std::string> why = ReplicaExceedsSlice(job, replica);
    if (!why) return false;
    if (!first) first = std::move(why);
  }
  if (!first) return false;
  j.Reject(ReasonCode::kHbmTooSmall, *first);
  return true;
}

// A proposal of today's family at today's size with today's stated
// strategy (no other degrees) is today's setup: the team runs it, so its
// memory is taken as observed, as for today's point
// (planner/current_evidence.h).
bool RestatesToday(const ReviewContext& ctx, const Family& f,
                   const Pins& pins) {
  const Job& job = ctx.job;
  if (!StatesTodaysStrategy(job, pins.layout) ||
      &f != CurrentFamily(ctx.index, job)) {
    return false;
  }
  const Pins today = CurrentPins(job);
  const bool same_size =
      today.topology.empty()
          ? pins.topology.empty() && pins.devices == today.devices
          : pins.topology == today.topology &&
                (pins.devices == 0 || pins.devices == job.current_devices);
  const bool same_machine =
      pins.machine_type.empty() ||
      (job.current_machine != nullptr &&
       pins.machine_type == job.current_machine->id);
  // One slice or cluster: across slices a distribution proposal of today's
  // strategy is judged by the replica-per-slice rule, which takes no
  // memory as observed, and a restatement must agree with it.
  return same_size && same_machine && std::max(1, today.slices) == 1 &&
         std::max(1, pins.slices) == 1;
}

// The family at the proposal's pins; today's setup restated is judged as
// today's point is: its stated layout without an unstated optimizer
// offload, its memory taken as observed.
Candidate EvaluateProposed(const ReviewContext& ctx, const Family& f,
                           const Pins& pins) {
  if (!RestatesToday(ctx, f, pins)) {
    return EvaluateInSpace(ctx.catalog, ctx.job, ctx.space, f, pins);
  }
  const Job today = AsStatedToday(ctx.job);
  Pins as_stated = pins;
  as_stated.layout.proposed = false;  // today's layout, as it runs
  Candidate c = EvaluateInSpace(ctx.catalog, today, ctx.space, f, as_stated);
  if (c.has_point()) return c;
  if (const std::optional<Job> observed = ObservedToFit(today, c)) {
    return EvaluateInSpace(ctx.catalog, *observed, ctx.space, f, as_stated);
  }
  return c;
}

// A layout whose stages cross the slices (DCN_PIPELINE, or a mesh's
// dcn_pipeline_parallelism) is pinned as that many stages, as a
// distribution proposal's is (planner/review_multislice.cc), so that its
// point is the staged one SPEC §4 never recommends.
Pins ProposalPins(const HardwareProposal& h, int slices) {
  Pins pins;
  pins.devices = h.count;
  pins.topology = h.tpu_topology;
  pins.slices = h.slices;
  pins.machine_type = h.machine_type;
  if (!h.layout) return pins;
  pins.layout = PinOf(*h.layout);
  if (slices > 1 && AcrossSlices(*h.layout) == DcnParallelism::kPipeline &&
      pins.layout.pipeline <= 0) {
    const MultisliceMesh* m = h.layout->mesh ? &*h.layout->mesh : nullptr;
    pins.layout.strategy = Strategy::kPipelineParallel;
    pins.layout.pipeline = m != nullptr && m->dcn_pipeline_parallelism > 1
                               ? m->dcn_pipeline_parallelism
                               : slices;
  }
  return pins;
}

// The best viable candidate; with a stated count, among those with exactly
// that many accelerators. When only a rounded size (the nearest the
// shapes allow, sizing.cc) is viable, the count is no size of the
// hardware: rejected NOT_APPLICABLE with the nearest size above (nullptr).
const Candidate* BestAtStatedCount(const Job& job, int count,
                                   const std::vector<Candidate>& selected,
                                   Judged& j) {
  const Candidate* best = nullptr;
  const Candidate* rounded = nullptr;
  for (const Candidate& c : selected) {
    if (!c.viable() || !c.config) continue;
    const bool exact = count <= 0 || c.config->devices == count;
    const Candidate*& slot = exact ? best : rounded;
    if (slot == nullptr || RanksBefore(job, c, *slot)) slot = &c;
  }
  if (best != nullptr || rounded == nullptr) return best;
  j.Reject(ReasonCode::kNotApplicable,
           absl::StrFormat(
               "No size of %s that the request can obtain has exactly %d "
               "accelerators (a job runs on identical VMs or slices); the "
               "nearest above is %d.",
               rounded->family->name, count, rounded->config->devices));
  return nullptr;
}

}  // namespace

void NoteUnmatchedDegrees(const LayoutPin& pin, const Candidate& c, Judged& j) {
  const Config& p = *c.config;
  if (HasDegrees(p.layout, p.devices, pin)) return;
  const LayoutDegrees g = DegreesOf(p.layout, p.devices);
  j.why.push_back(absl::StrFormat(
      "No layout of %s across %d slices has the stated degrees (data %d, "
      "FSDP %d, tensor %d, pipeline %d; 0: not stated); judged at the one "
      "its strategy selects there (data %d, FSDP %d, tensor %d, "
      "pipeline %d).",
      c.family->name, p.slices, pin.data, pin.fsdp, pin.tensor, pin.pipeline,
      g.data, g.fsdp, g.tensor, g.pipeline));
}

bool RejectIfDegreesCannotTile(const LayoutPin& pin, const Candidate& c,
                               Judged& j) {
  const Config& p = *c.config;
  int64_t product = 1;
  bool every = true;
  bool divides = p.devices > 0;
  for (int d : {pin.data, pin.fsdp, pin.tensor, pin.pipeline}) {
    every = every && d > 0;
    if (d <= 0) continue;
    product *= d;
    divides = divides && product <= p.devices && p.devices % product == 0;
  }
  if (divides && (!every || product == p.devices)) return false;
  const LayoutDegrees g = DegreesOf(p.layout, p.devices);
  // A device mesh covers every device exactly (JAX's mesh_utils raises
  // when the product of its shape is not the device count; MaxText builds
  // its mesh there; PyTorch's DeviceMesh spans the whole world size).
  j.Reject(ReasonCode::kNotApplicable,
           absl::StrFormat(
               "The stated degrees (data %d, FSDP %d, tensor %d, pipeline %d; "
               "0: not stated) cannot tile the %d devices of %s%s: a device "
               "mesh covers every device exactly, so as stated the job does "
               "not start. The strategy's own layout there is data %d, FSDP "
               "%d, tensor %d, pipeline %d.",
               pin.data, pin.fsdp, pin.tensor, pin.pipeline, p.devices,
               c.family->name,
               p.slices > 1 ? absl::StrCat(" across ", p.slices, " slices")
                            : std::string(),
               g.data, g.fsdp, g.tensor, g.pipeline));
  return true;
}

// The hard rules on what the proposal states with its hardware: a layout
// across slices (SPEC §4's DCN rules), a replica a slice cannot hold,
// slices for a framework Multislice does not run, and a strategy TPUs do
// not run. True when rejected.
bool RejectStatedLayout(const ReviewContext& ctx, const HardwareProposal& h,
                        const std::vector<const Family*>& fams, Judged& j) {
  const Job& job = ctx.job;
  if (h.layout && RejectLayoutAcrossSlices(ctx, *h.layout,
                                           ProposalSlices(job, h), fams, j)) {
    return true;
  }
  if (RejectReplicaOverSlice(job, h, fams, j)) return true;
  // Slices stated for a framework Multislice does not run (today's own
  // slices, which run, are not stated here).
  const int stated_slices =
      h.slices > 0 ? h.slices : (h.layout ? h.layout->slices : 0);
  if (const std::string why = MultisliceFrameworkReason(job.framework);
      stated_slices > 1 && !why.empty()) {
    j.Reject(ReasonCode::kFrameworkUnsupported, absl::StrCat(why, "."));
    return true;
  }
  const char* not_for_tpus =
      h.layout ? NotForTpus(h.layout->strategy) : nullptr;
  if (not_for_tpus != nullptr &&
      std::all_of(fams.begin(), fams.end(), [](const Family* f) {
        return f->platform == Platform::kTpu;
      })) {
    j.Reject(ReasonCode::kNotApplicable, not_for_tpus);
    return true;
  }
  return false;
}

void JudgeHardware(const ReviewContext& ctx, const HardwareProposal& h,
                   Judged& j, bool evaluate) {
  const Job& job = ctx.job;
  // A layout stated with the hardware: its mesh's DCN degrees must multiply
  // to the proposal's slice count (else the current one).
  if (h.layout && h.layout->mesh) {
    if (auto why = DcnProductMismatch(*h.layout->mesh, ProposalSlices(job, h))) {
      j.Reject(ReasonCode::kNotApplicable, *why);
      return;
    }
  }
  const std::vector<const Family*> fams = ProposedFamilies(ctx.index, job, h);
  if (fams.empty()) {
    RejectUnknownHardware(ctx.catalog, h, j);
    return;
  }
  if (RejectStatedLayout(ctx, h, fams, j)) return;
  const Pins pins = ProposalPins(h, ProposalSlices(job, h));
  const bool pinned = evaluate || pins.sizes() ||
                      !pins.machine_type.empty() || pins.layout.any();
  std::vector<Candidate> selected;
  for (const Family* f : fams) {
    if (pinned) {
      selected.push_back(EvaluateProposed(ctx, *f, pins));
      continue;
    }
    for (const Candidate& c : ctx.space.candidates) {
      if (c.family == f) selected.push_back(c);
    }
  }
  const Candidate* best = BestAtStatedCount(job, h.count, selected, j);
  if (best == nullptr) {
    if (!j.rejected) {
      for (const Candidate& c : selected) j.RejectWith(c);
    }
    return;
  }
  if (pins.layout.degrees() &&
      (RejectIfTensorSpansSlices(ctx, pins.layout, *best, j) ||
       RejectIfDegreesCannotTile(pins.layout, *best, j))) {
    return;
  }
  // Hardware does not fix a stated symptom by itself unless its point acts
  // on it as a move would (ActsOnTheStatedProblem); else it ranks after what
  // does, with the layouts that do not act either, by the scorer.
  j.tier = AnySymptom(job) && ActsOnTheStatedProblem(ctx, *best)
               ? kActsOnTheProblemTier
               : 1;
  for (const std::string& id : best->family->fact_sources) {
    ctx.fact_ids.push_back(id);
  }
  j.candidate = *best;
  HoldUnpricedUnderBudget(job, j);
  if (pins.layout.degrees()) NoteUnmatchedDegrees(pins.layout, *best, j);
  const Config& point = *best->config;
  if (point.required_bytes > point.usable_bytes) {
    j.why.push_back(ObservedMemoryLine(point));
  }
  if (point.slices > 1 && point.layout.pipeline > 1) {
    NeverRecommendPipelineOverDcn(j);
    j.why.push_back(
        "Pipeline stages over DCN are never recommended: data parallelism "
        "across slices is the usual choice.");
  }
}

void HoldUnpricedUnderBudget(const Job& job, Judged& j) {
  if (j.rejected || !j.candidate || !j.candidate->price_unknown ||
      job.goal.budget_usd <= 0 || HasCode(j.codes, ReasonCode::kPriceUnknown)) {
    return;
  }
  j.recommendable = false;
  j.Add(ReasonCode::kPriceUnknown,
        absl::StrCat(j.candidate->family->name,
                     " has no price in the catalog, so it cannot be checked "
                     "against the ",
                     FormatUsd(job.goal.budget_usd),
                     " budget; it is never recommended under one."));
}

void HoldUnpricedBehindPriced(std::vector<Judged>& judged) {
  // A priced proposal that could be recommended (one held back by another
  // rule does not hold the unpriced one back).
  const auto priced = [](const Judged& j) {
    return !j.rejected && j.recommendable && j.candidate &&
           j.candidate->config && !j.candidate->price_unknown;
  };
  if (std::none_of(judged.begin(), judged.end(), priced)) return;
  for (Judged& j : judged) {
    if (j.rejected || !j.candidate || !j.candidate->price_unknown ||
        !j.recommendable) {
      continue;
    }
    j.recommendable = false;
    j.Add(ReasonCode::kPriceUnknown,
          absl::StrCat(j.candidate->family->name,
                       " has no price in the catalog: its cost cannot be "
                       "stated, so a priced proposal that meets every rule "
                       "is recommended before it."));
  }
}

}  // namespace accelplan::planner::internal
