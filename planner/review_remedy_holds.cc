// ReviewPlan: remedies the space times but that are never RECOMMENDED on
// their own (planner/review_internal.h), because what they change is not
// what the model's estimate shows.
#include <optional>

#include "absl/strings/str_format.h"
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
            "during the backward pass, about a third more compute (8·P·D "
            "against 6·P·D per step; Korthikanti et al. 2022, "
            "arXiv:2205.05198, measure 30-40%% overhead), which the model's "
            "efficiency band does not show. Turn it on to fit a larger model "
            "or micro-batch, not for speed.",
            t.required_bytes / kGiB, t.usable_bytes / kGiB));
}

}  // namespace accelplan::planner::internal
