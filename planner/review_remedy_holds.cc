// ReviewPlan: remedies that are never RECOMMENDED on their own
// (planner/review_internal.h): those the space times but whose change is
// not what the model's estimate shows, and those it does not time that
// nothing in the request calls for; and PlanTraining's remedy list, kept
// to what ReviewPlan accepts.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/edge_rules.h"
#include "planner/estimates.h"
#include "planner/job_work.h"
#include "planner/policy.h"
#include "planner/provisioning.h"
#include "planner/reduction_server.h"
#include "planner/remedies.h"
#include "planner/review_internal.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

// ADD_REDUCTION_SERVER for a job on parameter servers: the pool serves the
// NCCL all-reduce of data parallelism, so it needs the move off parameter
// servers first; its point assumes that move, and it is never recommended
// on its own.
void MarkIfParameterServers(const Job& job, const RemedyProposal& m,
                            Judged& j) {
  if (m.kind != RemedyKind::kAddReductionServer ||
      !OnGpuParameterServers(job)) {
    return;
  }
  j.recommendable = false;
  j.why.push_back(
      "Today's job runs parameter servers, and a Reduction Server serves "
      "multi-host data-parallel training with NCCL all-reduce (Vertex AI's "
      "distributed-training guide), so it needs the move to all-reduce "
      "first (USE_HOROVOD, or tf.distribute.MultiWorkerMirroredStrategy); "
      "the estimate assumes that move.");
}

// ACTIVATION_RECOMPUTE where today's setup already fits without full
// recompute and no out-of-memory is stated: it only re-runs each layer's
// forward pass in the backward pass. The time model takes model FLOPs at a
// measured efficiency band (StepInputs), which cannot show that cost, so
// the rule says it and never recommends the change.
void MarkIfRecomputeIsNotNeeded(const Job& job, const RemedyProposal& m,
                                const std::optional<Candidate>& today,
                                Judged& j) {
  if (m.kind != RemedyKind::kActivationRecompute ||
      HasSymptom(job, Symptom::kOutOfMemory) || !today || !today->has_point()) {
    return;
  }
  const Config& t = *today->config;
  if (t.recompute == Recompute::kFull || t.recompute == Recompute::kOffload ||
      t.required_bytes > t.usable_bytes) {
    return;
  }
  j.recommendable = false;
  j.Add(ReasonCode::kSlower,
        absl::StrFormat(
            "Today's setup already fits without it (%.1f of %.1f GiB per "
            "device): full recompute only re-runs every layer's forward pass "
            "during the backward pass, more compute (%s per step; "
            "Korthikanti et al. 2022, arXiv:2205.05198, measure 30-40%% "
            "overhead in pre-training), which the model's efficiency band "
            "does not show. Turn it on to fit a larger model or micro-batch, "
            "not for speed.",
            t.required_bytes / kGiB, t.usable_bytes / kGiB,
            FullRecomputeFlops(job)));
}

namespace {

// What in a request without a stated symptom can call for a remedy the
// space does not model.
bool EvidencedWithoutSymptoms(const Job& job, RemedyKind k) {
  switch (k) {
    case RemedyKind::kFixTensorShapes:
      return ShapesPad(job);
    case RemedyKind::kUseHorovod:
      return job.constraints.framework_agnostic_distribution;
    case RemedyKind::kQuantizeFullInt8:
      return EdgeCpuFallbackOf(job).not_full_int8;
    case RemedyKind::kReplaceUnsupportedOp:
      return EdgeCpuFallbackOf(job).unmapped_ops;
    default:
      return false;
  }
}

// What the request shows the remedy acts on: a stated symptom it
// addresses (USE_HOROVOD: the sync of GPU parameter servers), or other
// evidence for it.
bool ActsOnTheJob(const Job& job, const RemedyProposal& m) {
  for (Symptom s : Addresses(m.kind)) {
    if (HasSymptom(job, s)) return true;
  }
  return LeavesParameterServers(job, m) ||
         EvidencedWithoutSymptoms(job, m.kind);
}

// The space times the remedy (or the hardware it moves to): its verdict
// has numbers, or says why there are none.
bool Timed(const RemedyProposal& m) {
  return SpaceModels(m.kind) || MovesToTarget(m) ||
         m.kind == RemedyKind::kMoreMemoryPerDevice;
}

}  // namespace

void MarkIfNothingToRemedy(const Job& job, const RemedyProposal& m, Judged& j) {
  if (AnySymptom(job) || j.rejected || Timed(m) ||
      EvidencedWithoutSymptoms(job, m.kind)) {
    return;
  }
  j.recommendable = false;
  j.why.push_back(absl::StrCat(
      RemedyLabel(m.kind),
      " answers a problem the request does not report, and the model shows "
      "no change to today's time or cost: nothing here calls for it (state "
      "the symptom it should fix)."));
}

void RejectIfDeadlineStillMissed(const ReviewContext& ctx,
                                 const RemedyProposal& m, Judged& j) {
  const Job& job = ctx.job;
  if (j.rejected || Timed(m) || !job.deadline_given ||
      job.deadline_is_todays_runtime) {
    return;
  }
  if (ActsOnTheJob(job, m)) {
    // Horovod replaces today's layout (parameter servers): it may beat
    // today's modelled pace, so that pace does not bound it.
    if (m.kind == RemedyKind::kUseHorovod) return;
    const std::optional<Candidate>& today = TodayOf(ctx);
    if (!today || !today->config || !job.has_dataset ||
        !(today->config->hours.low > job.deadline_hours)) {
      return;
    }
    j.Reject(ReasonCode::kMissesDeadline,
             absl::StrFormat(
                 "After it the current setup still misses the %s deadline: "
                 "%s acts on today's hardware, which at the pace the model "
                 "gives it (no time lost to the problem) takes %s at the "
                 "fast end of its range.",
                 FormatHours(job.deadline_hours), RemedyLabel(m.kind),
                 FormatHours(today->config->hours.low)));
    return;
  }
  if (job.current_hours <= 0 || job.current_hours <= job.deadline_hours) {
    return;
  }
  j.Reject(ReasonCode::kMissesDeadline,
           absl::StrFormat(
               "After it the current setup still fails: %s leaves the "
               "training time as it is, and today's setup takes %s, past the "
               "%s deadline.",
               RemedyLabel(m.kind), FormatHours(job.current_hours),
               FormatHours(job.deadline_hours)));
}

// ADD_REDUCTION_SERVER where a pool could take the traffic but the point
// declined it (ApplyReductionServer keeps a pool only when it lowers the
// cost per unit of work, under MIN_TIME the step time): the remedy leaves
// today's all-reduce as it is, so it is never RECOMMENDED.
void MarkIfPoolDoesNotPay(const Job& job, const RemedyProposal& m,
                          const Candidate& after, Judged& j) {
  const Config& p = *after.config;
  if (m.kind != RemedyKind::kAddReductionServer || p.reducers) return;
  j.recommendable = false;
  const catalog::MachineType* vm = p.shape ? p.shape->machine : nullptr;
  std::string links;
  if (vm != nullptr && vm->network_bits_per_s) {
    links = absl::StrFormat(
        ": its workers would reach the reducers at %.0f Gbps per VM, while "
        "NCCL's all-reduce already crosses %.0f Gbps per VM",
        WorkerEgressBitsPerS(*vm, after.family->series, after.family,
                             DevicesPerVm(p)) /
            1e9,
        *vm->network_bits_per_s / 1e9);
  }
  const bool min_time = job.objective == Objective::kMinTime;
  j.Add(min_time ? ReasonCode::kSlower : ReasonCode::kHigherCost,
        absl::StrCat("A Reduction Server pool does not pay on ",
                     PointLabel(after), links, "; no pool lowers ",
                     min_time ? "the step time" : "the cost per unit of work",
                     ", so the model keeps today's all-reduce."));
}

// A remedy to today's setup where the request states none (a flags-only
// question): there is nothing for it to change, so it is not estimated,
// and without a stated problem it acts on it is never RECOMMENDED. Spot is
// judged on the plan's best point: a job that does not checkpoint and
// trains past the policy's hour on it is PREEMPTION_RISK whatever it runs
// on today.
void JudgeWithoutASetup(const ReviewContext& ctx, const RemedyProposal& m,
                        Judged& j) {
  const Candidate* best = ctx.space.best();
  if (m.kind == RemedyKind::kUseSpot && best != nullptr &&
      SpotLosesWork(ctx.job, best->config->hours.expected)) {
    j.Reject(ReasonCode::kPreemptionRisk,
             absl::StrFormat(
                 "The job trains %s on %s %s",
                 FormatHours(TrainingHours(best->config->hours.expected)),
                 PointLabel(*best), SpotLosesWorkClause()));
    return;
  }
  // A stated problem the remedy acts on is the evidence (the tiers rank
  // it); a remedy the space does not time is MarkIfNothingToRemedy's.
  if (AnySymptom(ctx.job) || !SpaceModels(m.kind)) return;
  j.recommendable = false;
  j.why.push_back(absl::StrCat(
      RemedyLabel(m.kind),
      " changes today's setup, and the request states none "
      "(current_setup.hardware): there is nothing for it to change, so it "
      "is not estimated. Propose hardware or a layout to have it "
      "estimated."));
}

void RejectIfMemoryPerDeviceUnchanged(const ReviewContext& ctx,
                                      const RemedyProposal& m, Judged& j) {
  if (m.kind != RemedyKind::kAddAccelerators || j.rejected ||
      !HasSymptom(ctx.job, Symptom::kOutOfMemory) || !j.candidate ||
      !j.candidate->config) {
    return;
  }
  const std::optional<Candidate>& today = TodayOf(ctx);
  if (!today || !today->config) return;
  // The model states a device holds, and the activations of one
  // micro-batch: more devices relieve memory only where the layout shards
  // the states over them or splits the batch into smaller micro-batches
  // (a point with room may run larger ones, which is no worse).
  const auto states = [](const Config& c) {
    const MemoryEstimate& m = c.memory;
    return m.weights_bytes + m.gradients_bytes + m.optimizer_bytes +
           m.embeddings_bytes;
  };
  const Config& now = *today->config;
  const Config& after = *j.candidate->config;
  const double shrink = 1 - kPolicy.tie_tolerance.value;  // float noise only
  if (!(states(now) > 0) || states(after) < states(now) * shrink ||
      std::max(1, after.layout.micro_batch) <
          std::max(1, now.layout.micro_batch)) {
    return;
  }
  j.Reject(ReasonCode::kDoesNotAddressBottleneck,
           absl::StrFormat(
               "More accelerators with today's layout leave each device "
               "holding today's model states (%.1f GiB, as modelled) and "
               "micro-batch: they do not relieve the out-of-memory. Shard the "
               "model states, recompute activations, or move to more memory "
               "per device.",
               states(after) / kGiB));
}

void RejectIfHorovodReplicaDoesNotFit(const ReviewContext& ctx,
                                      const RemedyProposal& m, Judged& j) {
  if (m.kind != RemedyKind::kUseHorovod || j.rejected ||
      !ctx.job.model_size_known) {
    return;
  }
  DistributionProposal horovod;
  horovod.strategy = Strategy::kHorovod;
  Judged as_layout;
  JudgeDistribution(ctx, horovod, as_layout);
  if (!as_layout.rejected ||
      !HasCode(as_layout.codes, ReasonCode::kHbmTooSmall)) {
    return;
  }
  j.Reject(ReasonCode::kHbmTooSmall,
           "Horovod all-reduces between full replicas, each worker holding "
           "the weights, gradients and optimizer state that parameter "
           "servers or sharding keep off it:");
  for (std::string& line : as_layout.why) j.why.push_back(std::move(line));
}

// The remedies PlanTraining lists for the stated symptoms (and the edge
// remedies the workload implies) are the ones ReviewPlan would neither
// reject nor hold back from RECOMMENDED if they were proposed for the same
// job: one judgement (JudgeRemedy, then the rule that keeps today's setup
// over what it beats) in the same space, so the two RPCs
// never contradict each other (a Reduction Server offered for a job that
// runs on GKE, then NOT_APPLICABLE in review, or one no pool pays for).
// The move off legacy hardware (MoveOffLegacyRemedy) is added after this
// filter: it advises lifting keep_current_hardware itself, which
// ReviewPlan, judging proposals under that pin, rejects by design.
// Returns, for each stated symptom the remedies acted on and none is kept
// for, why: the first rejection ReviewPlan gave one of its remedies (so a
// stated problem is never dropped without a word).
std::vector<Reason> KeepRemediesReviewAccepts(const catalog::Catalog& cat,
                                              const Index& index,
                                              const Job& job,
                                              const Space& space,
                                              std::vector<Remedy>& remedies) {
  std::vector<std::string> fact_ids;
  const ReviewContext ctx{cat, index, job, space, fact_ids, {}};
  std::vector<Judged> judged(remedies.size());
  for (size_t i = 0; i < remedies.size(); ++i) {
    RemedyProposal m;
    m.kind = remedies[i].kind;
    m.global_batch_size = remedies[i].global_batch_size;
    m.layer_widths = remedies[i].layer_widths;
    JudgeRemedy(ctx, m, judged[i]);
    HoldUnpricedUnderBudget(job, judged[i]);
  }
  NeverRecommendWhatTodayBeats(ctx, judged);
  std::vector<Remedy> kept;
  std::vector<std::pair<Symptom, std::string>> dropped;
  for (size_t i = 0; i < remedies.size(); ++i) {
    if (!judged[i].rejected && judged[i].recommendable) {
      kept.push_back(std::move(remedies[i]));
    } else {
      // Its lines but the one saying which symptom it acts on.
      std::vector<std::string> why;
      for (const std::string& line : judged[i].why) {
        if (line.find(" acts directly on the problem") == std::string::npos) {
          why.push_back(line);
        }
      }
      if (!why.empty()) {
        dropped.emplace_back(remedies[i].addresses, absl::StrJoin(why, " "));
      }
    }
  }
  remedies = std::move(kept);
  std::vector<Reason> unremedied;
  for (const std::pair<Symptom, std::string>& d : dropped) {
    const Symptom symptom = d.first;  // a lambda may not capture a binding
    const std::string& why = d.second;
    const bool remedied =
        std::any_of(remedies.begin(), remedies.end(),
                    [&](const Remedy& r) { return r.addresses == symptom; });
    const bool said =
        std::any_of(unremedied.begin(), unremedied.end(), [&](const Reason& r) {
          return r.message.find(SymptomLabel(symptom, job)) !=
                 std::string::npos;
        });
    if (remedied || said) continue;
    unremedied.push_back(
        {ReasonCode::kDoesNotAddressBottleneck,
         absl::StrCat("The job is stated to be ", SymptomLabel(symptom, job),
                      ", and no remedy to today's setup that the plan "
                      "checks is kept: ",
                      why)});
  }
  return unremedied;
}

bool MoveJudgedByItsPoint(const Job& job, const RemedyProposal& m) {
  return m.kind == RemedyKind::kMoveToHardware && m.target &&
         HasSymptom(job, Symptom::kGradientSyncBound);
}

void JudgeMoveByItsPoint(const ReviewContext& ctx, Judged& j) {
  if (j.rejected) return;
  const double today = TodaysGradientLink(ctx);
  const std::string sync = SymptomLabel(Symptom::kGradientSyncBound, ctx.job);
  if (j.candidate && WidensGradientLink(ctx, *j.candidate)) {
    // On parameter servers leaving them (Horovod) ranks first.
    j.acts_on_problem = true;
    j.tier = OnGpuParameterServers(ctx.job) ? 1 : kActsOnTheProblemTier;
    j.why.insert(j.why.begin(),
                 absl::StrFormat(
                     "Moving to other hardware acts directly on the "
                     "problem: the job is %s, and the gradient's link "
                     "there (%.1f GB/s per device) is wider than "
                     "today's (%.1f GB/s).",
                     sync, PointGradientLink(*j.candidate) / 1e9, today / 1e9));
    return;
  }
  j.Reject(ReasonCode::kDoesNotAddressBottleneck,
           j.candidate && j.candidate->config && today > 0
               ? absl::StrFormat(
                     "Moving to other hardware does not act on the problem: "
                     "the job is %s, and the gradient's link there (%.1f "
                     "GB/s per device) is no wider than today's (%.1f GB/s).",
                     sync, PointGradientLink(*j.candidate) / 1e9, today / 1e9)
               : absl::StrCat("Moving to other hardware does not act on the "
                              "problem: the job is ",
                              sync, "."));
  // The reason first, before what the move was modelled to give.
  std::rotate(j.why.begin(), j.why.end() - 1, j.why.end());
}

void HoldMoveThatFreesNoMemory(const ReviewContext& ctx,
                               const RemedyProposal& m, Judged& j) {
  const Job& job = ctx.job;
  if (j.rejected || !job.oom_unmodelled ||
      (m.kind != RemedyKind::kMoveToHardware &&
       m.kind != RemedyKind::kMoreMemoryPerDevice) ||
      !j.candidate || !j.candidate->config ||
      ActsOnTheStatedProblem(ctx, *j.candidate)) {
    return;
  }
  // Ranked as the same hardware proposed bare: it does not act.
  j.acts_on_problem = false;
  j.tier = 1;
  j.why.erase(std::remove_if(j.why.begin(), j.why.end(),
                             [](const std::string& line) {
                               return line.find(
                                          "acts directly on the "
                                          "problem") != std::string::npos;
                             }),
              j.why.end());
  const Config& c = *j.candidate->config;
  j.why.insert(
      j.why.begin(),
      absl::StrFormat(
          "It leaves %.1f GiB free per device against today's %.1f GiB: "
          "the job runs out of memory the model does not count, so less "
          "room than today does not act on the problem.",
          (c.usable_bytes - c.required_bytes) / kGiB,
          job.current_free_bytes / kGiB));
}

// Tensor shapes a proposal gives that still pad on the TPU: rejected with
// the tiling rules and the sizes that would meet them.
void RejectIfShapesStillPad(const Job& job, const RemedyProposal& m,
                            Judged& j) {
  // A batch past the largest the model trains well at changes its
  // convergence, whatever it pads (the advice rounds down for the same
  // reason: ShapeRuleFor; where no batch within it tiles, the advice's
  // smallest tiling batch is the limit, so the advice is never refused).
  const int64_t most =
      job.current.max_tolerated_global_batch_size > 0
          ? std::max(job.current.max_tolerated_global_batch_size,
                     ShapeRuleFor(job).batch)
          : 0;
  if (most > 0 && m.global_batch_size > most) {
    j.Reject(ReasonCode::kNotApplicable,
             absl::StrFormat("Batch %d is over the largest global batch the "
                             "model tolerates (%d): it changes how the model "
                             "converges, not only how it pads.",
                             m.global_batch_size,
                             job.current.max_tolerated_global_batch_size));
    return;
  }
  // What the proposal leaves out stays as it is now.
  const int64_t batch = m.global_batch_size > 0
                            ? m.global_batch_size
                            : job.current.current_global_batch_size;
  const std::vector<int64_t>& widths =
      !m.layer_widths.empty() ? m.layer_widths : job.current.layer_widths;
  if (!MeetsTiling(job, batch, widths)) {
    const ShapeRule rule = ShapeRuleFor(job);
    const std::string tilings =
        !TilesForGpu(job)
            ? absl::StrFormat(
                  "neither TPU tiling (batch a multiple of %d with feature "
                  "dimensions multiples of %d, or batch a multiple of %d "
                  "with feature dimensions multiples of %d)",
                  kSmallBatchMultiple, kSmallWidthMultiple, kLargeBatchMultiple,
                  kLargeWidthMultiple)
            : absl::StrFormat(
                  "not the tensor cores' tiling (batch and feature "
                  "dimensions multiples of %d)",
                  kGpuTileMultiple);
    j.Reject(ReasonCode::kDoesNotAddressBottleneck,
             absl::StrFormat(
                 "Those sizes still pad: batch %s with widths %s meets %s; "
                 "batch %d with widths %s would.",
                 batch > 0 ? absl::StrCat(batch) : "(not given)",
                 widths.empty() ? "(not given)" : absl::StrJoin(widths, ", "),
                 tilings, rule.batch,
                 rule.widths.empty() ? "(not given)"
                                     : absl::StrJoin(rule.widths, ", ")));
  }
}

}  // namespace accelplan::planner::internal
