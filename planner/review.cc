// ReviewPlan: every proposal is judged as a query on the job's candidate
// space (the same space, rules and scorer PlanTraining uses), so the same
// job on the same hardware gives the same numbers in both RPCs. At most one
// proposal is RECOMMENDED: the best non-rejected one by an order over the
// proposals' own numbers, independent of the order they are listed in.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/domains.h"
#include "planner/estimates.h"
#include "planner/model_presets.h"
#include "planner/plan_assembly.h"
#include "planner/planner.h"
#include "planner/remedies.h"
#include "planner/review_internal.h"

namespace accelplan::planner {

using internal::Candidate;
using internal::Job;
using internal::Judged;

namespace internal {

void Judged::Add(ReasonCode code, std::string line) {
  if (std::find(codes.begin(), codes.end(), code) == codes.end()) {
    codes.push_back(code);
  }
  if (!line.empty()) why.push_back(std::move(line));
}

void Judged::Reject(ReasonCode code, std::string line) {
  rejected = true;
  Add(code, std::move(line));
}

void Judged::RejectWith(const Candidate& c) {
  for (size_t i = 0; i < c.codes.size(); ++i) Reject(c.codes[i], c.why[i]);
}

bool JudgedBefore(const Job& job, const Judged& a, const Judged& b) {
  if (a.tier != b.tier) return a.tier < b.tier;
  const bool pa = a.candidate && a.candidate->config;
  const bool pb = b.candidate && b.candidate->config;
  // A proposal that selects a point of the space ranks before one that
  // does not (its numbers are known): a total order, so the best does not
  // depend on the order proposals are listed in.
  if (pa != pb) return pa;
  if (pa && pb) {
    if (RanksBefore(job, *a.candidate, *b.candidate)) return true;
    if (RanksBefore(job, *b.candidate, *a.candidate)) return false;
    // Tied on the numbers: the setup with less traffic over the network,
    // one slice over ICI before slices over DCN, then fewer hosts.
    const Config& x = *a.candidate->config;
    const Config& y = *b.candidate->config;
    if (x.slices != y.slices) return x.slices < y.slices;
    if (x.hosts != y.hosts) return x.hosts < y.hosts;
  }
  if (a.secondary != b.secondary) return a.secondary < b.secondary;
  return a.label < b.label;
}

namespace {

// Across slices XLA reduces the gradient hierarchically: over ICI inside
// each slice, then each chip all-reduces its 1/chips share over DCN
// (estimates.cc times both). The two stages run one after the other, so
// as one link for the whole gradient per device they combine as
// resistances do: 1 / (1/ICI + 1/(chips · DCN per chip)), never wider than
// ICI alone (one slice).
double DcnGradientLink(const Family& f, int chips_per_slice) {
  const double dcn = f.dcn_bytes_per_s_per_chip * std::max(1, chips_per_slice);
  if (f.ici_bytes_per_s <= 0 || dcn <= 0) return dcn;
  return 1 / (1 / f.ici_bytes_per_s + 1 / dcn);
}

}  // namespace

double TodaysGradientLink(const ReviewContext& ctx) {
  // Today's point, where the model has one, is judged as any point is.
  if (const std::optional<Candidate>& t = TodayOf(ctx); t && t->config) {
    return PointGradientLink(*t);
  }
  const Job& job = ctx.job;
  const Family* today = CurrentFamily(ctx.index, job);
  if (today == nullptr) return 0;
  if (today->platform == Platform::kTpu) {
    const int slices = std::max(1, job.current.slice_count);
    return slices > 1 ? DcnGradientLink(*today, job.current_devices / slices)
                      : today->ici_bytes_per_s;
  }
  if (job.current.node_count <= 1) return today->intra_vm_bytes_per_s;
  const double share = NicSharePerDevice(job.current_machine);
  return share > 0 ? share : today->inter_vm_bytes_per_s;
}

double PointGradientLink(const Candidate& point) {
  const Family& f = *point.family;
  const Config& c = *point.config;
  if (f.platform == Platform::kTpu) {
    return c.slices > 1 ? DcnGradientLink(f, c.devices / c.slices)
                        : f.ici_bytes_per_s;
  }
  // One VM, or every device inside one NVLink domain spanning VMs (an
  // NVL72 block): the gradient never leaves NVLink (or PCIe), as the
  // estimates time it (estimates.cc, InsideNvlinkDomain).
  if (c.hosts <= 1 || c.devices <= NvlinkDomainDevices(f, c)) {
    return f.intra_vm_bytes_per_s;
  }
  const double share =
      NicSharePerDevice(c.shape != nullptr ? c.shape->machine : nullptr);
  return share > 0 ? share : f.inter_vm_bytes_per_s;
}

bool OnTodaysHardware(const ReviewContext& ctx, const Candidate& point) {
  const std::optional<Candidate>& today = TodayOf(ctx);
  return today && today->config && point.config &&
         today->family == point.family &&
         today->config->shape == point.config->shape &&
         today->config->devices == point.config->devices;
}

bool IsTodaysSetup(const ReviewContext& ctx, const Candidate& point) {
  if (!OnTodaysHardware(ctx, point)) return false;
  const Config& today = *TodayOf(ctx)->config;
  return SameLayout(today.layout, point.config->layout) &&
         today.recompute == point.config->recompute;
}

bool WidensGradientLink(const ReviewContext& ctx, const Candidate& point) {
  if (!point.config || !point.viable()) return false;
  const double today = TodaysGradientLink(ctx);
  return today > 0 && PointGradientLink(point) > today;
}

namespace {

// Memory per device left free at a point, in the model.
double FreeBytes(const Config& c) { return c.usable_bytes - c.required_bytes; }

}  // namespace

bool ActsOnTheStatedProblem(const ReviewContext& ctx, const Candidate& point) {
  if (!point.config || !point.viable()) return false;
  if (HasSymptom(ctx.job, Symptom::kOutOfMemory) &&
      !IsTodaysSetup(ctx, point)) {
    // Where the model fits today's setup, what runs out is memory it does
    // not count, more than today's free memory: a point acts only by
    // leaving more free per device than today (an 80 GB A100 that runs out
    // is not fixed by 24 GB L4s the model fills to 95%).
    return !ctx.job.oom_unmodelled ||
           FreeBytes(*point.config) > ctx.job.current_free_bytes;
  }
  // On parameter servers the fix is leaving them (Horovod, all-reduce), not
  // a wider link under them.
  if (!HasSymptom(ctx.job, Symptom::kGradientSyncBound) ||
      OnGpuParameterServers(ctx.job)) {
    return false;
  }
  return WidensGradientLink(ctx, point);
}

bool TiedOnTheNumbers(const Job& job, const Judged& a, const Judged& b) {
  const bool pa = a.candidate && a.candidate->config;
  const bool pb = b.candidate && b.candidate->config;
  return pa && pb && a.tier == b.tier &&
         !RanksBefore(job, *a.candidate, *b.candidate) &&
         !RanksBefore(job, *b.candidate, *a.candidate);
}

}  // namespace internal

namespace {

// The reasons a VIABLE proposal loses to the RECOMMENDED one.
// `best_name` names the winner: its family, or its proposal when both are
// on one family (two remedies on the current hardware).
void LosesTo(const Job& job, const Candidate& hw, const Candidate& best,
             const std::string& best_proposal, Judged& j) {
  const internal::Config& a = *hw.config;
  const internal::Config& b = *best.config;
  const std::string best_name = hw.family == best.family
                                    ? absl::StrCat("proposal ", best_proposal)
                                    : best.family->name;
  if (a.price_known && b.price_known && a.hourly > 0 &&
      internal::CostMetric(job, a) > internal::CostMetric(job, b)) {
    j.Add(ReasonCode::kHigherCost,
          absl::StrFormat("Costs more than %s.", best_name));
  }
  if (job.has_dataset &&
      internal::TimeMetric(job, a) > internal::TimeMetric(job, b) * 1.0001) {
    j.Add(ReasonCode::kSlower, internal::TakesText(a, b));
  }
  // Communication is a cost: named when this hardware loses on the score
  // and, without its exposed communication, would beat the recommended one
  // (not when it beats it already and ranks behind by tier, nor when the
  // two tie: the same point proposed twice carries the same traffic).
  const double tol = kPolicy.tie_tolerance.value;
  if (hw.price_unknown == best.price_unknown &&
      best.score < hw.score * (1 - tol) &&
      hw.misses_assumed_deadline == best.misses_assumed_deadline &&
      a.step.communication_fraction > 0 &&
      std::isfinite(hw.score_without_comm) && std::isfinite(best.score) &&
      hw.score_without_comm < best.score * (1 - tol)) {
    j.Add(ReasonCode::kCommunicationBound,
          absl::StrCat(internal::CommunicationDetail(job, hw),
                       "; without that exposed communication it would beat ",
                       best_name, "."));
  }
  if (job.sparsecore_ranking && hw.family->sparse_cores <= 0) {
    j.Add(ReasonCode::kSlower,
          absl::StrCat(hw.family->name, " has no SparseCores for the "
                       "embedding lookups that dominate the step."));
  }
}

// Two proposals that select no point and that the review's order cannot
// tell apart before their labels (the same tier and directness).
bool TiedWithoutNumbers(const Judged& a, const Judged& b) {
  const bool pa = a.candidate && a.candidate->config;
  const bool pb = b.candidate && b.candidate->config;
  return !pa && !pb && a.tier == b.tier && a.secondary == b.secondary;
}

// "A", or "#2" for an unlabelled proposal.
std::string Name(const std::vector<Proposal>& proposals, int i) {
  return proposals[i].label.empty() ? absl::StrCat("#", i) : proposals[i].label;
}

// Said of the RECOMMENDED proposal, not left to "meets every hard rule":
// the user asked about a problem, and the pick leaves it (a move to the
// same hardware is rejected DOES_NOT_ADDRESS_BOTTLENECK beside it).
void SayIfItLeavesTheSymptom(const Job& job, Judged& j) {
  if (!j.candidate || j.acts_on_problem || !internal::AnySymptom(job)) return;
  j.why.push_back(
      absl::StrCat(j.todays_hardware ? "It keeps today's hardware, which leaves"
                                     : "It does not act on",
                   " the stated problem", j.todays_hardware ? " as it is" : "",
                   " (the job is ", internal::SymptomsText(job),
                   "); no other proposal ranks before it."));
}

ProposalVerdict MakeVerdict(const catalog::Catalog& cat, const Job& job,
                            const std::vector<Proposal>& proposals, size_t i,
                            int best, std::vector<Judged>& judged) {
  Judged& j = judged[i];
  ProposalVerdict v;
  v.label = proposals[i].label;
  v.index = static_cast<int32_t>(i);
  const Candidate* hw = j.candidate ? &*j.candidate : nullptr;
  if (hw != nullptr && !j.rejected && !hw->list_sizing.empty()) {
    j.why.insert(j.why.begin(), hw->list_sizing);
  }
  if (j.rejected) {
    v.verdict = Verdict::kRejected;
  } else if (static_cast<int>(i) == best) {
    v.verdict = Verdict::kRecommended;
    SayIfItLeavesTheSymptom(job, j);
  } else {
    v.verdict = Verdict::kViable;
    const Candidate* best_hw =
        best >= 0 && judged[best].candidate ? &*judged[best].candidate : nullptr;
    bool said = false;
    if (hw != nullptr && best_hw != nullptr && hw->config && best_hw->config) {
      const bool acts_first =
          judged[best].tier == internal::kActsOnTheProblemTier &&
          j.tier != judged[best].tier && !j.acts_on_problem &&
          internal::AnySymptom(job);
      if (acts_first) {
        // Ranked by the stated problem first, not by the numbers.
        j.why.push_back(absl::StrCat(
            "Proposal ", Name(proposals, best),
            " ranks first: it acts on the stated problem, and what does "
            "(remedies, moves, and hardware or layouts that hold the job "
            "or widen the gradient's link) ranks before what does not."));
        said = true;
      }
      // What it loses and what it still wins against the first, with the
      // numbers, whichever way the ranking was decided.
      LosesTo(job, *hw, *best_hw, Name(proposals, best), j);
      std::vector<Reason> wins;
      internal::WhatItWins(job, *hw->config, *best_hw->config, wins);
      for (Reason& w : wins) j.Add(w.code, std::move(w.message));
    }
    if (j.codes.empty() && best >= 0 && !said &&
        internal::TiedOnTheNumbers(job, j, judged[best])) {
      j.why.push_back(absl::StrCat(
          "Ties with proposal ", Name(proposals, best),
          " on time and cost; ", Name(proposals, best),
          " ranks first by the review's order for ties: fewer slices over "
          "DCN, then fewer hosts, then the simpler layout, then the "
          "label."));
    } else if (j.codes.empty() && best >= 0 && !said &&
               TiedWithoutNumbers(j, judged[best])) {
      j.why.push_back(absl::StrCat(
          "Ranks level with proposal ", Name(proposals, best),
          " on the stated problem (neither is modelled with estimates); ",
          Name(proposals, best), " is listed first by label only."));
    } else if (j.codes.empty() && best >= 0 && !said) {
      j.why.push_back(absl::StrCat("Works, but proposal ",
                                   Name(proposals, best),
                                   " is better for this job."));
    }
  }
  // An estimate no one would schedule (PlanTraining warns the same way)
  // is said in the verdict's codes, not only inside its plan.
  if (hw != nullptr && hw->config && !j.rejected) {
    if (auto implausible = internal::ImplausibleEstimate(job, *hw->config)) {
      j.Add(implausible->code, std::move(implausible->message));
    }
  }
  v.codes = j.codes;
  v.reason = absl::StrJoin(j.why, " ");
  if (hw != nullptr && hw->config && !j.rejected) {
    v.plan = internal::MakePlan(cat, job, *hw, /*with_job_spec=*/false);
    if (v.reason.empty()) {
      v.reason = absl::StrCat(hw->family->name, " meets every hard rule.");
    }
  }
  return v;
}

}  // namespace

ReviewResponse Planner::Review(const ReviewRequest& request,
                               const CallContext& context) const {
  const catalog::Catalog& cat = *catalog_;
  ReviewRequest resolved;
  std::string preset_assumption;
  const ReviewRequest& r =
      WithModelPreset(cat, request, &resolved, &preset_assumption);
  Job job = internal::MakeJob(cat, r.workload, r.goal, r.constraints,
                              r.current_setup, context.AsOf(r.as_of),
                              index_.get());
  ReviewResponse out;
  out.catalog_version = cat.version;
  out.warnings = job.warnings;
  if (!preset_assumption.empty()) {
    out.warnings.push_back({ReasonCode::kAssumption, preset_assumption});
  }
  // The same defaults as PlanTraining (MakeJob), stated the same way.
  for (const std::string& a : job.assumptions) {
    out.warnings.push_back({ReasonCode::kAssumption, a});
  }
  std::optional<internal::Space> space =
      internal::BuildSpace(cat, *index_, job, context);
  if (!space) return out;
  std::vector<std::string> fact_ids;
  const internal::ReviewContext ctx{cat, *index_, job, *space, fact_ids, {}};
  std::vector<Judged> judged(r.proposals.size());
  for (size_t i = 0; i < r.proposals.size(); ++i) {
    if (context.Cancelled()) return out;
    const Proposal& p = r.proposals[i];
    judged[i].label = p.label;
    if (p.hardware) {
      internal::JudgeHardware(ctx, *p.hardware, judged[i]);
    } else if (p.distribution) {
      internal::JudgeDistribution(ctx, *p.distribution, judged[i]);
    } else if (p.remedy) {
      internal::JudgeRemedy(ctx, *p.remedy, judged[i]);
    }
  }
  // A proposal's point can be faster than every point of the space (a size
  // PlanTraining does not search): MIN_TIME's equal-time band then starts
  // at the fastest proposal not rejected (1,024 v5p chips at 2.4 h beat
  // 2,048 at 1.3 h on cost, both being "as fast as" the space's 4.6 h).
  // The other objectives have no band to move.
  if (job.objective == Objective::kMinTime) {
    internal::Norm norm = space->norm;
    for (const Judged& j : judged) {
      if (j.candidate && !j.rejected) {
        internal::WidenNorm(job, *j.candidate, norm);
      }
    }
    for (Judged& j : judged) {
      if (j.candidate && j.candidate->viable() && j.candidate->config) {
        internal::ScoreCandidate(job, norm, *j.candidate);
      }
    }
  }
  for (Judged& j : judged) {
    internal::HoldUnpricedUnderBudget(job, j);
    // Ranked after by another rule (FSDP across slices after data
    // parallelism across them), not for failing to act.
    j.acts_on_problem =
        j.acts_on_problem || j.tier == internal::kActsOnTheProblemTier ||
        (j.candidate && internal::ActsOnTheStatedProblem(ctx, *j.candidate));
    j.todays_hardware =
        j.candidate && internal::OnTodaysHardware(ctx, *j.candidate);
  }
  internal::NeverRecommendWhatTodayBeats(ctx, judged);
  internal::HoldUnpricedBehindPriced(judged);
  int best = -1;
  for (size_t i = 0; i < judged.size(); ++i) {
    const Judged& j = judged[i];
    if (j.rejected || !j.recommendable) continue;
    if (best < 0 || internal::JudgedBefore(job, j, judged[best])) {
      best = static_cast<int>(i);
    }
  }
  for (size_t i = 0; i < judged.size(); ++i) {
    out.verdicts.push_back(MakeVerdict(cat, job, r.proposals, i, best, judged));
  }
  out.facts_used = internal::MakeFactRefs(cat, fact_ids);
  return out;
}

}  // namespace accelplan::planner
