// PlanTraining as a query on the candidate space: the best point is the
// recommendation; the best point of every other viable family is an
// alternative with what it wins and loses; families with no feasible point
// are rejected with every reason code.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/current_evidence.h"
#include "planner/defaults.h"
#include "planner/efficiency.h"
#include "planner/engine.h"
#include "planner/legacy.h"
#include "planner/model_presets.h"
#include "planner/optimizer_offload.h"
#include "planner/pipeline_schedule.h"
#include "planner/planner.h"
#include "planner/remedies.h"
#include "planner/review_internal.h"
#include "planner/space.h"
#include "planner/tree_boosting.h"
#include "planner/util.h"

namespace accelplan::planner {

using internal::Candidate;
using internal::Config;
using internal::FormatHours;
using internal::FormatUsd;
using internal::HasCode;
using internal::IsTheJobsOwnCode;
using internal::Job;

namespace {

// PRICES_STALE when the recommendation's prices are older than the policy
// allows at as_of.
std::optional<Reason> PricesStaleWarning(const Estimates& e, const Job& job) {
  const std::optional<int> priced = ParseDate(e.price_date);
  if (!priced || job.as_of_days <= 0) return std::nullopt;
  const int age = job.as_of_days - *priced;
  if (age <= kFreshness.prices_stale_days.value) return std::nullopt;
  return Reason{ReasonCode::kPricesStale,
                absl::StrCat("The prices used date from ", e.price_date, ", ",
                             age, " days before ", job.as_of,
                             "; list prices may have changed (refresh with "
                             "catalog/import_prices.py).")};
}

// The score as the wire carries it: absent unless it is a finite number
// that means something (on-device inference ranks by rules, not a score).
std::optional<double> KnownScore(const Job& job, const Candidate& c) {
  if (job.on_device || !std::isfinite(c.score)) return std::nullopt;
  return c.score;
}

// Cost per million units of work (no data set: the work is unknown).
double PerMillion(const Config& k) {
  return k.hourly / (k.tokens_per_second * 3600) * 1e6;
}

// The team keeps its hardware and the point is its size today: the count
// was not chosen for cost or time (space.cc keeps it while it is viable).
bool KeptAtTodaysSize(const Job& job, const Config& c) {
  return job.constraints.keep_current_hardware && job.current_devices > 0 &&
         c.devices == job.current_devices;
}

// Why the recommendation is what it is.
void RecommendationReasons(const Job& job, const Candidate& best,
                           std::vector<Reason>& why) {
  const Config& c = *best.config;
  if (!job.on_device && c.required_bytes > 0) {
    why.push_back({ReasonCode::kUnspecified,
                   absl::StrFormat("Fits: %.1f GiB needed per device of %.1f "
                                   "GiB usable.",
                                   c.required_bytes / kGiB, c.usable_bytes / kGiB)});
  }
  if (job.has_dataset && c.price_known) {
    // Nothing meets the deadline MIN_COST assumes: the scorer took the
    // option closest to it (scorer.cc RankKey), whatever the objective.
    const std::string chosen =
        KeptAtTodaysSize(job, c)
            ? "today's size, as the team keeps its hardware: "
              "constraints.keep_current_hardware"
        : best.misses_assumed_deadline
            ? absl::StrCat("no option meets ", job.assumed_deadline_label,
                           "; this one comes closest")
        : job.objective == Objective::kMinTime
            ? absl::StrFormat(
                  "the cheapest within %.0f%% of the fastest within budget",
                  100 * kPolicy.equal_time_fraction.value)
        : job.objective == Objective::kBalanced
            ? "best cost+time balance"
            : "cheapest that meets the deadline";
    // A tier above the score (scorer.cc Tier) may rank a cheaper option
    // after it: said, so "cheapest" is not read as the whole field.
    const char* tier =
        job.sparsecore_ranking && best.family->sparse_cores > 0
            ? ", among options with SparseCores, which rank first as the "
              "embedding lookups dominate the step"
        : job.embedding_dominated && best.family->platform != Platform::kCpu
            ? ", among accelerators, which rank before CPUs as the "
              "embedding lookups dominate the step"
            : "";
    why.push_back(
        {ReasonCode::kUnspecified,
         absl::StrFormat("%s for %s on %d device(s) (%s%s).",
                         FormatHours(c.hours.expected),
                         FormatUsd(c.cost.expected), c.devices, chosen, tier)});
  }
  internal::TodayReasons(job, best, why);  // planner/current_evidence.h
  if (job.sparsecore_ranking && best.family->sparse_cores > 0) {
    why.push_back({ReasonCode::kUnspecified,
                   absl::StrFormat("%d SparseCores per chip accelerate the "
                                   "embedding lookups that dominate the step.",
                                   best.family->sparse_cores)});
  }
  if (job.on_device) {
    why.push_back({ReasonCode::kUnspecified,
                   "On-device offline inference: convert to a fully int8-"
                   "quantized TensorFlow Lite model and compile it with "
                   "edgetpu_compiler."});
  }
}

// What an alternative loses against the recommendation.
void WhatItLoses(const Job& job, const Candidate& c, const Candidate& best,
                 std::vector<Reason>& out) {
  const Config& a = *c.config;
  const Config& b = *best.config;
  if (job.has_dataset && a.price_known && b.price_known &&
      a.cost.expected > b.cost.expected) {
    out.push_back({ReasonCode::kHigherCost,
                   absl::StrFormat("Costs %s vs %s (+%.0f%%).",
                                   FormatUsd(a.cost.expected),
                                   FormatUsd(b.cost.expected),
                                   100 * (a.cost.expected / b.cost.expected - 1))});
  } else if (!job.has_dataset && a.price_known && b.price_known &&
             a.tokens_per_second > 0 && b.tokens_per_second > 0 &&
             PerMillion(a) > PerMillion(b)) {
    out.push_back({ReasonCode::kHigherCost,
                   absl::StrFormat("Costs $%.3g per million %s of work vs $%.3g.",
                                   PerMillion(a), job.unit, PerMillion(b))});
  }
  // Communication is a cost, not a veto: it is named as the reason a
  // configuration loses when, without its exposed communication, it would
  // have beaten the recommendation.
  if (c.price_unknown == best.price_unknown &&
      c.misses_assumed_deadline == best.misses_assumed_deadline &&
      best.score < c.score * (1 - kPolicy.tie_tolerance.value) &&
      a.step.communication_fraction > 0 && std::isfinite(c.score_without_comm) &&
      std::isfinite(best.score) &&
      c.score_without_comm < best.score * (1 - kPolicy.tie_tolerance.value)) {
    out.push_back({ReasonCode::kCommunicationBound,
                   absl::StrCat(internal::CommunicationDetail(job, c),
                                "; without that exposed communication it would "
                                "beat the recommendation.")});
  }
  if (job.has_dataset && TimeMetric(job, a) > TimeMetric(job, b) * 1.0001) {
    out.push_back({ReasonCode::kSlower, TakesText(a, b)});
  }
  // An unknown price is the family's own note (scorer.cc AddPointNotes),
  // which the alternative carries: not said twice.
  if (job.sparsecore_ranking && c.family->sparse_cores <= 0) {
    out.push_back({ReasonCode::kSlower,
                   "No SparseCores: embedding lookups run on the general cores."});
  }
}

// The option that came closest to a missed budget or deadline: a family
// rejected OVER_BUDGET or MISSES_DEADLINE alone, carrying its cheapest
// (fastest) point (planner/family_space.cc KeepFeasible), which must meet
// the other limit too (a deadline's near miss within the budget, a
// budget's within the deadline), else it meets no "other rule". Null when
// none does; `*any`: some family was rejected for `code` alone.
const Candidate* ClosestMiss(const Job& job,
                             const std::vector<Candidate>& cands,
                             ReasonCode code, bool* any) {
  const Candidate* out = nullptr;
  for (const Candidate& c : cands) {
    if (c.codes != std::vector<ReasonCode>{code} || !c.config) continue;
    *any = true;
    const Config& p = *c.config;
    const bool other_met =
        code == ReasonCode::kOverBudget
            ? !job.deadline_given || p.hours.expected <= job.deadline_hours
            : job.goal.budget_usd <= 0 ||
                  (p.price_known && p.cost.expected <= job.goal.budget_usd);
    if (!other_met) continue;
    const auto key = [&](const Candidate& k) {
      return code == ReasonCode::kOverBudget ? k.config->cost.expected
                                             : k.config->hours.expected;
    };
    if (out == nullptr || key(c) < key(*out)) out = &c;
  }
  return out;
}

// The point sits at its family's search cap (kPolicy.max_gpus and the
// like): more devices were not tried.
bool AtTheSearchCap(const Candidate& c) {
  return c.search_cap_devices > 0 && c.config &&
         c.config->devices >= c.search_cap_devices;
}

// What would give a plan: the budget the cheapest option needs, the
// deadline the fastest one meets, when those alone stood in the way.
std::string WhatWouldGiveAPlan(const Job& job,
                               const std::vector<Candidate>& cands) {
  std::string out;
  bool over_budget = false, late = false;
  if (const Candidate* c =
          ClosestMiss(job, cands, ReasonCode::kOverBudget, &over_budget)) {
    absl::StrAppend(&out, " The cheapest option that meets every other "
                          "rule, ", c->family->name, " at ",
                    c->config->devices, " device(s), costs ",
                    FormatUsd(c->config->cost.expected), ", over the ",
                    FormatUsd(job.goal.budget_usd), " budget.");
  }
  const Candidate* c =
      ClosestMiss(job, cands, ReasonCode::kMissesDeadline, &late);
  const bool cheapest_late = over_budget && out.empty() && job.deadline_given;
  if ((c == nullptr && late && job.goal.budget_usd > 0) || cheapest_late) {
    absl::StrAppend(&out, " No option meets both the ",
                    FormatHours(job.deadline_hours), " deadline and the ",
                    FormatUsd(job.goal.budget_usd),
                    " budget: those that come closest to one miss the "
                    "other.");
  }
  if (c != nullptr) {
    absl::StrAppend(
        &out, " The fastest option that meets every other rule, ",
        c->family->name, " at ", c->config->devices, " device(s), takes ",
        FormatHours(c->config->hours.expected), ", past the ",
        FormatHours(job.deadline_hours), " deadline",
        AtTheSearchCap(*c)
            ? absl::StrFormat("; %d devices is the planner's search cap "
                              "(planner/policy.h), and more might meet it.",
                              c->search_cap_devices)
            : ".");
    // The assumed batch held the search back: a batch the team states is
    // what can change that (more ranks; fewer steps, each syncing once).
    if (!job.batch_given && c->assumed_batch_cap_devices > 0) {
      absl::StrAppend(
          &out, absl::StrFormat(
                    " That is at the assumed global batch of %.0f %s per step; "
                    "a larger stated global_batch_size takes fewer steps, each "
                    "synchronising the gradient once, and may meet it.",
                    job.batch_sequences,
                    job.sequence_model ? "sequences" : "examples"));
    }
  }
  return out;
}

// The families the request asks for (not rejected NOT_IN_ALLOWED_SET);
// all of them when it narrows nothing.
std::vector<const Candidate*> AskedFor(const std::vector<Candidate>& cands) {
  std::vector<const Candidate*> asked;
  for (const Candidate& c : cands) {
    if (std::find(c.codes.begin(), c.codes.end(),
                  ReasonCode::kNotInAllowedSet) == c.codes.end()) {
      asked.push_back(&c);
    }
  }
  return asked;
}

// A reason every family that trains at all was rejected for, when it is
// the job's own (its framework lacks a format, its ops or precision): one
// family's line says it for all. Lines that carry a family's own numbers
// (time, cost, memory, offerings) never stand for the rest. With a space
// after; else "".
std::string SharedReasonLine(const std::vector<Candidate>& cands) {
  std::vector<const Candidate*> training;
  for (const Candidate& c : cands) {
    if (!HasCode(c.codes, ReasonCode::kNotForTraining)) training.push_back(&c);
  }
  if (training.empty()) return "";
  const Candidate& first = *training.front();
  for (size_t k = 0; k < first.codes.size() && k < first.why.size(); ++k) {
    const ReasonCode code = first.codes[k];
    if (!IsTheJobsOwnCode(code)) continue;
    if (std::all_of(training.begin(), training.end(), [&](const Candidate* c) {
          return HasCode(c->codes, code);
        })) {
      return absl::StrCat(first.why[k], " ");
    }
  }
  return "";
}

std::string NoPlanReason(const Job& job, const std::vector<Candidate>& cands,
                         double budget, bool unpriced_under_budget) {
  std::vector<std::string> parts;
  for (const Candidate& c : cands) {
    for (ReasonCode code : c.codes) parts.push_back(ReasonCodeName(code));
  }
  std::sort(parts.begin(), parts.end());
  parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
  const std::string closest = WhatWouldGiveAPlan(job, cands);
  if (!unpriced_under_budget) {
    // When the request narrows the hardware, the reasons that decide are
    // those of what it asks for, the first of them spelled out.
    const std::vector<const Candidate*> asked = AskedFor(cands);
    if (!asked.empty() && asked.size() < cands.size()) {
      std::vector<std::string> codes;
      for (const Candidate* c : asked) {
        for (ReasonCode code : c->codes) codes.push_back(ReasonCodeName(code));
      }
      std::sort(codes.begin(), codes.end());
      codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
      const Candidate& first = *asked.front();
      return absl::StrCat(
          "No hardware the request asks for satisfies every hard rule for "
          "this job (", absl::StrJoin(codes, ", "), "); ",
          first.why.empty() ? std::string("see rejected.")
                            : absl::StrCat(first.why.front(), " See rejected."),
          closest);
    }
    const std::string shared = SharedReasonLine(cands);
    return absl::StrCat(
        "No hardware in the catalog satisfies every hard rule for this job "
        "(reasons seen: ",
        absl::StrJoin(parts, ", "), "); ",
        shared.empty() ? "see rejected."
                       : absl::StrCat(shared, "See rejected."),
        closest);
  }
  return absl::StrCat(
      closest.empty() ? "" : absl::StrCat(closest.substr(1), " "),
      "Only hardware without a price in the catalog satisfies every hard "
      "rule, and the ", FormatUsd(budget),
      " budget cannot be checked against an unknown price: ",
      cands.front().family->name,
      " and any other unpriced option are listed as alternatives "
      "(PRICE_UNKNOWN)",
      parts.empty() ? ""
                    : absl::StrCat("; others were rejected (",
                                   absl::StrJoin(parts, ", "), ")"),
      ".");
}

// A stated budget or deadline the point meets in expectation but not at
// the slow end of its range (the MFU band's low end): a risk the plan
// warns of, not a rejection (the rules judge the expected point). Said of
// the recommendation only: an alternative's range is in its estimates, and
// the code would read as a reason it loses.
void AddRangeRiskWarnings(const Job& job, const Candidate& best,
                          std::vector<Reason>& out) {
  const Config& c = *best.config;
  if (!job.has_dataset) return;
  const std::string& name = best.family->name;
  const double budget = job.goal.budget_usd;
  // An unbounded slow end has no amount to name (and never reaches the wire).
  if (budget > 0 && c.price_known && c.cost.expected <= budget &&
      std::isfinite(c.cost.high) && c.cost.high > budget) {
    out.push_back(
        {ReasonCode::kOverBudget,
         absl::StrFormat("%s: the expected %s is within the %s budget, but "
                         "the slow end of the estimate (%s) is over it.",
                         name, FormatUsd(c.cost.expected), FormatUsd(budget),
                         FormatUsd(c.cost.high))});
  }
  const double wait = c.start_wait_hours;
  if (job.deadline_given && c.hours.expected + wait <= job.deadline_hours &&
      std::isfinite(c.hours.high) && c.hours.high + wait > job.deadline_hours) {
    out.push_back(
        {ReasonCode::kMissesDeadline,
         absl::StrFormat("%s: the expected %s meets the %s deadline, but the "
                         "slow end of the estimate (%s) misses it.",
                         name, FormatHours(c.hours.expected + wait),
                         FormatHours(job.deadline_hours),
                         FormatHours(c.hours.high + wait))});
  }
}

// The recommendation with its reasons, warnings and the facts it used.
void Recommend(const catalog::Catalog& cat, const Job& job,
               const Candidate& best, PlanResponse& out,
               std::vector<std::string>& fact_ids) {
  planner::Plan plan = internal::MakePlan(cat, job, best, /*with_job_spec=*/true);
  plan.rank = 1;
  plan.score = KnownScore(job, best);
  for (const Reason& r : plan.reasons) {
    if (r.code == ReasonCode::kImplausibleEstimate) out.warnings.push_back(r);
  }
  RecommendationReasons(job, best, plan.reasons);
  for (const Reason& n : best.notes) out.warnings.push_back(n);
  AddRangeRiskWarnings(job, best, out.warnings);
  for (const std::string& id : best.family->fact_sources) fact_ids.push_back(id);
  const Config& c = *best.config;
  if (c.shape && !c.shape->price_source_id.empty()) {
    fact_ids.push_back(c.shape->price_source_id);
  }
  if (c.shape && c.shape->machine) fact_ids.push_back(c.shape->machine->source_id);
  if (auto stale = PricesStaleWarning(plan.estimates, job)) {
    out.warnings.push_back(*std::move(stale));
  }
  out.recommendation = std::move(plan);
}

// Alternatives (the best point of each other viable family) and rejections.
void AlternativesAndRejections(const catalog::Catalog& cat, const Job& job,
                               const std::vector<Candidate>& cands,
                               const Candidate* best, PlanResponse& out) {
  int rank = 2;
  for (const Candidate& c : cands) {
    if (&c == best) continue;
    if (c.viable() && c.config) {
      if (out.alternatives.size() >= kPolicy.max_alternatives.value) continue;
      planner::Plan alt = internal::MakePlan(cat, job, c, /*with_job_spec=*/false);
      alt.rank = rank++;
      alt.score = KnownScore(job, c);
      if (best != nullptr) {
        internal::WhatItWins(job, *c.config, *best->config, alt.reasons);
        WhatItLoses(job, c, *best, alt.reasons);
      }
      for (const Reason& n : c.notes) alt.reasons.push_back(n);
      out.alternatives.push_back(std::move(alt));
    } else if (!c.viable()) {
      Rejection rej;
      rej.hardware = internal::MakeHardware(c);
      rej.codes = c.codes;
      rej.reason = absl::StrJoin(c.why, " ");
      out.rejected.push_back(std::move(rej));
    }
  }
}

// A MIN_COST plan dearer than today's setup: the savings are negative, so
// say why no cheaper option was taken.
void WarnIfDearerThanToday(const internal::Job& job, PlanResponse& out) {
  if (!out.savings || job.objective != Objective::kMinCost ||
      !(out.savings->cost_saved_usd < 0)) {
    return;
  }
  const Savings& s = *out.savings;
  out.warnings.push_back(
      {ReasonCode::kHigherCost,
       absl::StrFormat(
           "The recommendation costs %s more than today's setup (%s today): "
           "it is the cheapest option that meets every rule of the request, "
           "within %s; the rejections say why cheaper hardware, today's "
           "included, is not one.",
           internal::FormatUsd(-s.cost_saved_usd),
           internal::FormatUsd(s.current_cost_usd),
           internal::FormatHours(job.deadline_hours))});
}

// MIN_TIME's band (Score): said when it, not the time alone, chose the
// recommendation.
std::optional<std::string> MinTimeBandAssumption(
    const internal::Job& job, const internal::Norm& norm,
    const std::vector<Candidate>& cands, const Candidate& best) {
  if (job.objective != Objective::kMinTime || !best.config) {
    return std::nullopt;
  }
  const double time = internal::TimeMetric(job, *best.config);
  // Outside the band (or with none) the time alone chose it.
  if (!(time <= internal::EqualTimeBand(norm))) {
    return std::nullopt;
  }
  // The fastest priced option the plan kept (the band is taken among
  // priced points; a family the relative rules rejected is no option).
  double fastest = time;
  for (const Candidate& c : cands) {
    if (!c.has_point()) continue;
    for (const internal::Config& p : c.points) {
      if (!std::isfinite(internal::CostMetric(job, p))) continue;
      fastest = std::min(fastest, internal::TimeMetric(job, p));
    }
  }
  if (!(fastest < time * (1 - kPolicy.tie_tolerance.value))) {
    return std::nullopt;
  }
  // Hours to three digits: a band of minutes is lost at FormatHours' 0.1 h.
  const std::string compared =
      job.has_dataset
          ? absl::StrFormat("takes %.3g h, this one %.3g h", fastest, time)
          : absl::StrFormat("trains %.4g %s/s, this one %.4g", 1 / fastest,
                            job.unit, 1 / time);
  return absl::StrFormat(
      "MIN_TIME counts every option within %.0f%% of the fastest as equally "
      "fast and recommends the cheapest of them (%s): the fastest option "
      "found %s, a lead the time model cannot tell apart from its own "
      "spread.",
      100 * kPolicy.equal_time_fraction.value,
      kPolicy.equal_time_fraction.source, compared);
}

// The lines on how the recommendation's numbers were counted: its
// efficiency band (or tree-boosting model), MIN_TIME's band, its memory,
// optimizer offload and pipeline schedule.
void StateHowTheRecommendationWasCounted(const Job& job,
                                         const internal::Space& space,
                                         const Candidate& best,
                                         std::vector<std::string>& out) {
  // An edge device runs inference and is not timed: no MFU to state.
  if (job.classical) {
    out.push_back(internal::DescribeTreeBoosting(job, *best.family));
  } else if (best.family->platform != Platform::kEdge) {
    out.push_back(internal::DescribeMfu(job, *best.family));
  }
  if (auto band =
          MinTimeBandAssumption(job, space.norm, space.candidates, best)) {
    out.push_back(*std::move(band));
  }
  if (!best.config) return;
  const std::string memory = internal::DescribeMemoryModel(job, *best.config);
  if (!memory.empty()) out.push_back(memory);
  if (best.config->layout.optimizer_offload) {
    out.push_back(internal::OptimizerOffloadAssumption());
  }
  if (best.config->layout.pipeline > 1) {
    const std::string schedule =
        internal::DescribeSchedule(job, best.config->layout);
    if (!schedule.empty()) out.push_back(schedule);
  }
}

}  // namespace

PlanResponse Planner::Plan(const PlanRequest& request,
                           const CallContext& context) const {
  const catalog::Catalog& cat = *catalog_;
  PlanRequest resolved;
  std::string preset_assumption;
  const PlanRequest& r =
      WithModelPreset(cat, request, &resolved, &preset_assumption);
  Job job = internal::MakeJob(cat, r.workload, r.goal, r.constraints,
                              r.current_setup, context.AsOf(r.as_of),
                              index_.get());
  const bool full = r.view != View::kBasic;
  job.explain_rejections = full;
  PlanResponse out;
  out.catalog_version = cat.version;
  std::optional<internal::Space> space =
      internal::BuildSpace(cat, *index_, job, context);
  if (!space) return out;
  const std::vector<Candidate>& cands = space->candidates;

  out.warnings = job.warnings;
  out.assumptions = job.assumptions;
  if (!preset_assumption.empty()) out.assumptions.push_back(preset_assumption);
  out.assumptions.push_back(absl::StrFormat(
      "Memory per device keeps %.0f%% of device memory as headroom (%s).",
      100 * kPolicy.headroom_fraction.value, kPolicy.headroom_fraction.source));
  const Candidate* best = space->best();
  // A budget cannot be checked against an unknown price: an unpriced
  // candidate (ranked after every priced one) is never the recommendation
  // under a budget; it stays an alternative carrying PRICE_UNKNOWN.
  const bool unpriced_under_budget =
      best != nullptr && best->price_unknown && r.goal.budget_usd > 0;
  if (unpriced_under_budget) best = nullptr;
  std::vector<std::string> fact_ids;
  if (best != nullptr) {
    Recommend(cat, job, *best, out, fact_ids);
    StateHowTheRecommendationWasCounted(job, *space, *best, out.assumptions);
  } else {
    out.no_plan_reason =
        NoPlanReason(job, cands, r.goal.budget_usd, unpriced_under_budget);
  }
  if (full) AlternativesAndRejections(cat, job, cands, best, out);
  out.remedies = internal::RemediesForSymptoms(
      cat, job, internal::CurrentFamily(*index_, job));
  for (Reason& why : internal::KeepRemediesReviewAccepts(
           cat, *index_, job, *space, out.remedies)) {
    out.warnings.push_back(std::move(why));
  }
  if (auto move = internal::MoveOffLegacyRemedy(cat, *index_, job, context, *space)) {
    out.remedies.push_back(*std::move(move));
  }
  if (best != nullptr && job.has_dataset && job.current_devices > 0) {
    out.savings = internal::SavingsAgainstCurrent(job, *best);
  }
  if (full) {
    out.facts_used = internal::MakeFactRefs(cat, fact_ids);
    WarnIfDearerThanToday(job, out);
  } else {
    out.assumptions.clear();
    out.savings.reset();
  }
  return out;
}

}  // namespace accelplan::planner
