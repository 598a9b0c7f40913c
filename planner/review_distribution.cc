// ReviewPlan: distribution proposals as queries on the candidate space. A
// distribution proposal selects that layout on the current hardware, else
// on the best hardware for it; one over TPU slices is judged by
// planner/review_multislice.cc.
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/current_evidence.h"
#include "planner/review_internal.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

// Device memory left after the default headroom (planner/policy.h).
constexpr double kUsableFraction = 1 - kPolicy.headroom_fraction.value;

bool ModelParallel(Strategy s) {
  return s == Strategy::kTensorParallel || s == Strategy::kPipelineParallel ||
         s == Strategy::kHybrid;
}

// The device count a layout's stated degrees fix (0: they leave it free):
// data parallelism's replicas; FSDP's group times its replicas; a
// model-parallel layout's data x tensor x pipeline when all three are
// stated (and no FSDP). Sized at exactly that count, as a hardware
// proposal's is: a count between the grid's multiples (280 GPUs on 35
// VMs) is otherwise never built, and the layout looked unrunnable.
int DevicesTheLayoutFixes(const LayoutPin& l) {
  switch (l.strategy) {
    case Strategy::kDataParallel:
      return l.data;
    case Strategy::kFsdp:
      return l.fsdp > 0 && l.data > 0 ? l.fsdp * l.data : 0;
    case Strategy::kTensorParallel:
    case Strategy::kPipelineParallel:
    case Strategy::kHybrid:
      return l.fsdp <= 0 && l.data > 0 && l.tensor > 0 && l.pipeline > 0
                 ? l.data * l.tensor * l.pipeline
                 : 0;
    default:
      return 0;
  }
}

// The best point with one layout: on the current hardware at its size when
// the request names it, else on whichever viable family ranks best with it.
std::optional<Candidate> BestWithLayout(const ReviewContext& ctx,
                                        const LayoutPin& layout) {
  Pins pins;
  pins.layout = layout;
  if (const Family* current = CurrentFamily(ctx.index, ctx.job)) {
    pins.devices = ctx.job.current.tpu_topology.empty() ? ctx.job.current_devices : 0;
    pins.topology = ctx.job.current.tpu_topology;
    if (ctx.job.current_machine != nullptr) {
      pins.machine_type = ctx.job.current_machine->id;
    }
    // Today's own layout runs as today's point does: no optimizer offload
    // the team did not state, its memory taken as observed
    // (planner/current_evidence.h).
    const bool todays = StatesTodaysStrategy(ctx.job, layout);
    const Job job = todays ? AsStatedToday(ctx.job) : ctx.job;
    pins.layout.proposed = layout.proposed && !todays;
    Candidate c = EvaluateInSpace(ctx.catalog, job, ctx.space, *current, pins,
                                  /*compare_families=*/false);
    if (!c.has_point() && todays) {
      if (const std::optional<Job> observed = ObservedToFit(job, c)) {
        c = EvaluateInSpace(ctx.catalog, *observed, ctx.space, *current, pins,
                            /*compare_families=*/false);
      }
    }
    return c;
  }
  pins.devices = DevicesTheLayoutFixes(layout);
  return BestFamilyWith(ctx, pins);
}

// No family has a point with a model-parallel layout: rejected with why,
// as it is on today's hardware (family_space.cc RejectWithoutLayout).
void RejectWithoutModelParallelPoint(const Job& job,
                                     const DistributionProposal& d,
                                     Judged& j) {
  const bool pipeline = d.strategy == Strategy::kPipelineParallel ||
                        d.pipeline_parallelism > 1;
  j.Reject(ReasonCode::kNotApplicable,
           pipeline && !FrameworkHasPipelines(job)
               ? absl::StrCat(kNoTensorflowPipeline, ".")
           : ModelParallelLayers(job) <= 0
               ? "Tensor and pipeline parallelism are modelled for a stated "
                 "transformer_shape, whose heads and layers their degrees "
                 "divide; the request gives none."
               : "No hardware the request allows runs this layout's "
                 "degrees (tensor parallelism stays inside one NVLink "
                 "domain — a VM, or an NVL72 sub-block — or one slice).");
}

// Why a layout that is not plain data parallelism loses when a replica
// fits, and what data parallelism is said to do. `kind` is FSDP for HSDP.
// FSDP's gathers cost time (SLOWER) only where its point leaves
// communication exposed: hidden under compute they cost none, and the
// numbers tie with data parallelism's.
void SayWhatTheLayoutCosts(Strategy kind, bool data_parallel, bool replica_fits,
                           bool todays, const Config* point, Judged& j) {
  if (data_parallel && kind != Strategy::kHorovod) {
    j.why.push_back(
        replica_fits ? "The model fits one device: data parallelism scales "
                       "near-linearly."
        : todays     ? "Today's data parallelism runs (its memory taken as "
                       "observed): it scales near-linearly."
                     : "Data parallelism scales near-linearly.");
  } else if (kind == Strategy::kFsdp && replica_fits) {
    if (point != nullptr && !(point->step.exposed_comm_seconds_fast > 0)) {
      j.why.push_back(
          "The model fits one device; sharding adds all-gather traffic that "
          "plain data parallelism avoids, hidden under compute here.");
    } else {
      j.Add(ReasonCode::kSlower,
            "The model fits one device; sharding adds all-gather traffic "
            "that plain data parallelism avoids.");
    }
  } else if (ModelParallel(kind) && replica_fits) {
    j.Add(ReasonCode::kSlower,
          "The model fits one device; model parallelism only adds "
          "communication and bubbles.");
  }
}

// A data-parallel layout with no point on any hardware the request allows
// (with no hardware today, the memory check had no device to read).
void RejectWithoutDataParallelPoint(Strategy s, double need, Judged& j) {
  j.Reject(
      need > 0 ? ReasonCode::kHbmTooSmall : ReasonCode::kNotApplicable,
      absl::StrCat("No hardware the request allows runs this layout: ",
                   s == Strategy::kHorovod ? "Horovod" : "data parallelism",
                   " keeps a whole replica on each device",
                   need > 0 ? absl::StrFormat(" (%.1f GiB of model states and "
                                              "activations)",
                                              need / kGiB)
                            : "",
                   "."));
}

// ZeRO-3/FSDP moves 1.5x plain data parallelism's bytes (Rajbhandari et
// al. 2019, arXiv:1910.02054 §7.2.2): where a replica fits and FSDP is not
// today's own layout (`optional`), for a job that waits on its gradient
// sync it is estimated, never recommended (as the remedy
// SHARD_OPTIMIZER_STATE does not address that symptom).
void MarkIfFsdpAddsToTheSync(const Job& job, Strategy kind, bool optional,
                             Judged& j) {
  if (kind != Strategy::kFsdp || !optional ||
      !HasSymptom(job, Symptom::kGradientSyncBound)) {
    return;
  }
  j.recommendable = false;
  j.why.push_back(
      "The job waits on its gradient sync, and FSDP sends about 1.5x plain "
      "data parallelism's bytes per step (two all-gathers and a "
      "reduce-scatter against one all-reduce; ZeRO, arXiv:1910.02054): it "
      "adds to that bottleneck.");
}

// Single-slice / single-cluster layouts.
void JudgeLayout(const ReviewContext& ctx, const DistributionProposal& d,
                 Judged& j) {
  const Job& job = ctx.job;
  // The strategy the layout has (PinOf: a tensor axis under FSDP or data
  // parallelism is a hybrid layout).
  const Strategy s = PinOf(d).strategy;
  // HYBRID stating FSDP groups and no model parallelism is HSDP: sharding
  // replicated across groups, said as FSDP (planner/layouts.cc OfStrategy).
  const bool hsdp = s == Strategy::kHybrid && d.fsdp_parallelism > 1 &&
                    d.tensor_parallelism <= 1 && d.pipeline_parallelism <= 1;
  const Strategy kind = hsdp ? Strategy::kFsdp : s;
  const bool data_parallel = s == Strategy::kDataParallel ||
                             s == Strategy::kSingleDevice ||
                             s == Strategy::kHorovod;
  if (!data_parallel && s != Strategy::kFsdp && !ModelParallel(s)) {
    j.tier = 2;
    return;
  }
  const int replicas = d.data_parallelism > 0 ? d.data_parallelism : job.current_devices;
  const double need = JobBytesPerReplica(job, replicas);
  double usable = 0;
  if (job.current_accelerator && job.current_accelerator->memory_bytes) {
    usable = job.current_accelerator->memory_bytes->value * kUsableFraction;
  } else if (const Candidate* best = ctx.space.best()) {
    usable = best->config->usable_bytes;
  }
  // Today's own data-parallel layout runs: it is judged on its point, its
  // memory taken as observed (BestWithLayout).
  const bool todays = s == job.current.strategy && StatedLayoutTakenToFit(job);
  // Whether the model says a whole replica fits one device (unknown: no).
  const bool replica_fits = need > 0 && usable > 0 && need <= usable;
  const bool fits = need <= 0 || usable <= 0 || replica_fits || todays;
  // A proposal's DATA_PARALLEL other than today's restated may shard the
  // optimizer state (ZeRO-1, LayoutPin::proposed): its point decides.
  const bool may_shard_optimizer =
      s == Strategy::kDataParallel && !StatesTodaysStrategy(job, PinOf(d));
  if (data_parallel && !fits && !may_shard_optimizer) {
    j.Reject(ReasonCode::kHbmTooSmall,
             s == Strategy::kHorovod
                 ? std::string("Horovod is data parallel; a replica does not "
                               "fit one device.")
                 : absl::StrFormat("A full replica needs %.1f GiB per device, "
                                   "more than the %.1f GiB usable: shard the "
                                   "model instead.",
                                   need / kGiB, usable / kGiB));
    return;
  }
  std::optional<Candidate> c = BestWithLayout(ctx, PinOf(d));
  if (c && !c->viable()) {
    j.RejectWith(*c);
    return;
  }
  if (!(c && c->config) && ModelParallel(kind)) {
    RejectWithoutModelParallelPoint(job, d, j);
    return;
  }
  if (!(c && c->config) && data_parallel) {
    RejectWithoutDataParallelPoint(s, need, j);
    return;
  }
  j.tier = c && ActsOnTheStatedProblem(ctx, *c) ? kActsOnTheProblemTier : 1;
  if (c && c->config) j.candidate = std::move(c);
  // Ties (the same point) go to the simpler layout; Horovod first when the
  // request asks for framework-agnostic distribution.
  j.secondary = s == Strategy::kHorovod
                    ? (job.constraints.framework_agnostic_distribution ? -1 : 2)
                : data_parallel ? 0
                : kind == Strategy::kFsdp ? 1
                                          : 2;
  SayWhatTheLayoutCosts(
      kind, data_parallel, replica_fits, todays,
      j.candidate && j.candidate->config ? &*j.candidate->config : nullptr, j);
  MarkIfFsdpAddsToTheSync(job, kind, replica_fits && !todays, j);
}

}  // namespace

std::optional<Candidate> BestFamilyWith(const ReviewContext& ctx,
                                        const Pins& pins) {
  std::optional<Candidate> best;
  for (const Candidate& field : ctx.space.candidates) {
    if (!field.viable()) continue;
    Candidate c =
        EvaluateInSpace(ctx.catalog, ctx.job, ctx.space, *field.family, pins);
    if (!c.viable() || !c.config) continue;
    if (!best || RanksBefore(ctx.job, c, *best)) best = std::move(c);
  }
  return best;
}

void NeverRecommendPipelineOverDcn(Judged& j) {
  j.tier = 3;
  j.recommendable = false;  // SPEC §4, even when proposed alone
}

void JudgeDistribution(const ReviewContext& ctx, const DistributionProposal& d,
                       Judged& j) {
  if (JudgeClassicalLayout(ctx, d, j)) return;
  if (const char* why = NotForTpus(d.strategy);
      why != nullptr && CurrentIsTpu(ctx.job)) {
    j.Reject(ReasonCode::kNotApplicable, why);
    return;
  }
  if (JudgeMultislice(ctx, d, j)) return;
  JudgeLayout(ctx, d, j);
}

}  // namespace accelplan::planner::internal
