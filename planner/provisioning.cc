// How each point is obtained, judged on its hours (planner/provisioning.h).
#include "planner/provisioning.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/count_refinement.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/layout_memo.h"
#include "planner/policy.h"
#include "planner/rules.h"
#include "planner/scorer.h"

namespace accelplan::planner::internal {
namespace {

const char* Label(Provisioning p) {
  switch (p) {
    case Provisioning::kSpot: return "Spot";
    case Provisioning::kFlexStart: return "DWS flex-start";
    case Provisioning::kReservation: return "a reservation";
    default: return "on-demand";
  }
}

double CheckpointIntervalHours(const Job& job) {
  const double minutes = job.workload.checkpoint_interval_minutes > 0
                             ? job.workload.checkpoint_interval_minutes
                             : kDefaults.checkpoint_interval_minutes.value;
  return minutes / 60;
}

// Stretches the training hours by `factor`; the job's start-up, paid once
// before training, is not stretched.
void ScaleTrainingHours(Config& c, double factor) {
  const double startup = kPolicy.job_startup_hours.value;
  for (double* h : {&c.hours.low, &c.hours.expected, &c.hours.high}) {
    *h = startup + TrainingHours(*h) * factor;
  }
}

// A point that no allowed provisioning runs, priced at the one it needs so
// that its rejection can say what it would cost.
void Block(const Job& job, Config& c, Provisioning needed, ReasonCode code) {
  c.provisioning = needed;
  c.blocked = code;
  Price(job, c, needed);
}

// "12.3 h for $456 (16 devices)", or what is known of it.
std::string PointNumbers(const Job& job, const Config& c) {
  if (!job.has_dataset) {
    if (c.price_known && c.tokens_per_second > 0) {
      return absl::StrFormat("$%.3g per million %s (%d devices)",
                             c.hourly / (c.tokens_per_second * 3600) * 1e6,
                             job.unit, c.devices);
    }
    return absl::StrFormat("%d devices, no data set to time", c.devices);
  }
  if (!c.price_known) {
    return absl::StrFormat("%s (%d devices; no price in the catalog)",
                           FormatHours(c.hours.expected), c.devices);
  }
  return absl::StrFormat("%s for %s (%d devices)", FormatHours(c.hours.expected),
                         FormatUsd(c.cost.expected), c.devices);
}

// What the catalog's list price stands for when a provisioning has none.
std::string PriceCaveat(Provisioning p) {
  if (p == Provisioning::kFlexStart) {
    return "priced at the on-demand list price, as the catalog has no "
           "flex-start price (Google discounts flex-start on several "
           "series, so this may overstate the cost)";
  }
  if (p == Provisioning::kReservation) {
    return "priced at the on-demand list price; a reservation is billed at "
           "its own (committed) rate";
  }
  return "";
}

// One provisioning's what-if, as a clause of the rejection line; `layouts`
// (may be null) carries the layouts chosen by the what-ifs before it.
std::string DescribeWhatIf(const catalog::Catalog& catalog, const Job& job,
                           const Family& f, const Pins& pins, Provisioning p,
                           LayoutMemo* layouts) {
  Job relaxed = job;
  relaxed.what_if = true;
  relaxed.layout_memo = layouts;
  Constraints& k = relaxed.constraints;
  if (p == Provisioning::kSpot) k.spot_allowed = true;
  if (p == Provisioning::kFlexStart) k.flex_start_allowed = true;
  if (p == Provisioning::kReservation) k.reservation_available = true;
  std::vector<Candidate> one;
  one.push_back(EvaluateFamily(catalog, relaxed, f, pins));
  Candidate& w = one.front();
  // The same counts the plan with that provisioning allowed searches
  // (RankCandidates): the grid alone can name another count than that plan.
  RefineCounts(relaxed, NormOver(relaxed, one), w);
  SelectPoint(relaxed, NormOver(relaxed, one), w);
  const std::string with = absl::StrCat("with ", Label(p), ": ");
  if (w.viable() && w.config) {
    std::string out = absl::StrCat(with, PointNumbers(relaxed, *w.config));
    if (w.config->provisioning != p) {
      absl::StrAppend(&out, " on ", Label(w.config->provisioning));
    }
    if (w.config->provisioning == Provisioning::kFlexStart) {
      absl::StrAppend(&out, absl::StrFormat(
                                " after up to %s waiting for capacity",
                                FormatHours(kPolicy.flex_start_wait_hours.value)));
    }
    const std::string caveat = PriceCaveat(w.config->provisioning);
    if (!caveat.empty()) absl::StrAppend(&out, ", ", caveat);
    return out;
  }
  std::vector<std::string> codes;
  for (ReasonCode code : w.codes) codes.push_back(ReasonCodeName(code));
  return absl::StrCat(with, "still ", absl::StrJoin(codes, ", "), " (",
                      absl::StrJoin(w.why, " "), ")");
}

}  // namespace

bool SpotLosesWork(const Job& job, double hours) {
  // What a preemption loses is the training after the start-up.
  return !JobCheckpoints(job) &&
         TrainingHours(hours) > kPolicy.spot_uncheckpointed_max_hours.value;
}

std::string SpotLosesWorkClause() {
  return absl::StrFormat(
      "and does not checkpoint: a Spot preemption in that time loses all "
      "work (Spot is PREEMPTION_RISK for a job training over %s without "
      "checkpoints).",
      FormatHours(kPolicy.spot_uncheckpointed_max_hours.value));
}

double SpotRestartOverhead(const Job& job) {
  if (!JobCheckpoints(job)) return 0;
  const double lost_per_preemption =
      CheckpointIntervalHours(job) / 2 + kPolicy.spot_restart_hours.value;
  return kPolicy.spot_preemptions_per_hour.value * lost_per_preemption;
}

void JudgePointProvisioning(const Job& job, const Family& f, Config& c) {
  if (!job.has_dataset || f.platform == Platform::kEdge) return;
  const Constraints& k = job.constraints;
  const Shape& s = *c.shape;
  const double hours = c.hours.expected;
  Provisioning p = c.provisioning;
  if (p == Provisioning::kSpot && SpotLosesWork(job, hours)) {
    // A preemption would lose all work: Spot is not an option here.
    c.spot_refused = true;
    const auto other = ProvisioningWithoutSpot(job, f, s);
    if (!other) return Block(job, c, Provisioning::kSpot, ReasonCode::kPreemptionRisk);
    p = *other;
  }
  if (p == Provisioning::kFlexStart &&
      hours > kPolicy.flex_start_max_run_hours.value) {
    if (!k.reservation_available ||
        !ProvisioningOffered(job, f, s, catalog::Provisioning::kReservation)) {
      return Block(job, c, Provisioning::kFlexStart,
                   ReasonCode::kNotAvailableOnDemand);
    }
    p = Provisioning::kReservation;
  }
  c.provisioning = p;
  c.start_wait_hours =
      p == Provisioning::kFlexStart ? kPolicy.flex_start_wait_hours.value : 0;
  c.restart_overhead = p == Provisioning::kSpot ? SpotRestartOverhead(job) : 0;
  if (c.restart_overhead > 0) ScaleTrainingHours(c, 1 + c.restart_overhead);
  Price(job, c, p);
}

void KeepObtainable(const Job& job, const Family& f, const Pins& pins,
                    std::vector<Config>& points, Candidate& cand) {
  const auto blocked = [](const Config& c) {
    return c.blocked != ReasonCode::kUnspecified;
  };
  if (std::none_of(points.begin(), points.end(), blocked)) return;
  if (!std::all_of(points.begin(), points.end(), blocked)) {
    points.erase(std::remove_if(points.begin(), points.end(), blocked),
                 points.end());
    return;
  }
  const Config& b = *std::min_element(
      points.begin(), points.end(), [](const Config& x, const Config& y) {
        return x.hours.expected < y.hours.expected;
      });
  const std::string numbers = PointNumbers(job, b);
  if (b.blocked == ReasonCode::kPreemptionRisk || b.spot_refused) {
    cand.Reject(ReasonCode::kPreemptionRisk,
                absl::StrCat(f.name, " would run on Spot, ", numbers,
                             " at best, and the job does not checkpoint: a "
                             "preemption in that time loses all work."));
  }
  cand.Reject(
      ReasonCode::kNotAvailableOnDemand,
      b.blocked == ReasonCode::kPreemptionRisk
          ? absl::StrCat(f.name, " is not offered on-demand, and no other "
                                 "provisioning the request allows offers it.")
          : absl::StrFormat(
                "%s is not offered on-demand, and on flex-start it needs %s "
                "at best, past the %s flex-start VMs run at most; the "
                "request allows no reservation.",
                f.name, numbers,
                FormatHours(kPolicy.flex_start_max_run_hours.value)));
  cand.config = b;
  points.clear();
  MarkProvisioningWhatIf(job, pins, cand);
}

void MarkProvisioningWhatIf(const Job& job, const Pins& pins, Candidate& cand) {
  if (job.what_if) return;  // one level of what-if, never nested
  if (!job.explain_rejections) return;  // BASIC view: no rejections
  if (HasCode(cand.codes, ReasonCode::kNotAvailableOnDemand)) {
    cand.what_if_pins = pins;
  }
}

void DescribeNeededProvisioning(const catalog::Catalog& catalog, const Job& job,
                                Candidate& cand) {
  if (!cand.what_if_pins) return;
  const Pins pins = std::move(*cand.what_if_pins);
  cand.what_if_pins.reset();
  const Family& f = *cand.family;
  auto it = std::find(cand.codes.begin(), cand.codes.end(),
                      ReasonCode::kNotAvailableOnDemand);
  if (it == cand.codes.end()) return;
  for (ReasonCode code : cand.codes) {
    if (code != ReasonCode::kNotAvailableOnDemand &&
        code != ReasonCode::kPreemptionRisk) {
      return;  // another rule rejects it whatever the provisioning
    }
  }
  const Constraints& k = job.constraints;
  const std::pair<Provisioning, catalog::Provisioning> kinds[] = {
      {Provisioning::kSpot, catalog::Provisioning::kSpot},
      {Provisioning::kFlexStart, catalog::Provisioning::kFlexStart},
      {Provisioning::kReservation, catalog::Provisioning::kReservation}};
  std::vector<Provisioning> needed;
  for (const auto& [p, cp] : kinds) {
    if ((p == Provisioning::kSpot && k.spot_allowed) ||
        (p == Provisioning::kFlexStart && k.flex_start_allowed) ||
        (p == Provisioning::kReservation && k.reservation_available)) {
      continue;  // allowed already: the rejection says why it fails
    }
    const catalog::Provisioning offer = cp;  // a structured binding: copied
    const bool offered = std::any_of(
        f.shapes.begin(), f.shapes.end(),
        [&](const Shape& s) { return ProvisioningOffered(job, f, s, offer); });
    if (offered) needed.push_back(p);
  }
  if (needed.empty()) return;
  // The what-ifs search the same sizes: each reuses the layouts chosen by
  // the ones before it where no provisioning entered the choice.
  std::optional<LayoutMemo> layouts;
  if (needed.size() > 1) layouts.emplace(f, pins.layout);
  std::vector<std::string> parts;
  for (size_t i = 0; i < needed.size(); ++i) {
    if (layouts && i + 1 == needed.size()) layouts->StopKeeping();
    parts.push_back(DescribeWhatIf(catalog, job, f, pins, needed[i],
                                   layouts ? &*layouts : nullptr));
  }
  std::string& line = cand.why[it - cand.codes.begin()];
  absl::StrAppend(&line, " What it would give if allowed: ",
                  absl::StrJoin(parts, "; "), ".");
}

void AddProvisioningNotes(const Job& job, Candidate& cand) {
  const Config& c = *cand.config;
  const std::string& name = cand.family->name;
  if (c.provisioning == Provisioning::kSpot && c.restart_overhead > 0) {
    const bool stated = job.workload.checkpoint_interval_minutes > 0;
    cand.notes.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat(
             "Spot on %s: restarts after preemptions add an expected %.1f%% "
             "to its training hours and cost (included): %.2g preemptions per "
             "24 h "
             "of running assumed (%s), each losing half the %.0f-minute "
             "checkpoint interval%s plus %.0f minutes to restart.",
             name, 100 * c.restart_overhead,
             24 * kPolicy.spot_preemptions_per_hour.value,
             kPolicy.spot_preemptions_per_hour.source,
             CheckpointIntervalHours(job) * 60,
             stated ? "" : " (not given: assumed, planner/defaults.h)",
             kPolicy.spot_restart_hours.value * 60)});
  }
  if (c.provisioning == Provisioning::kSpot && !job.has_dataset &&
      !JobCheckpoints(job)) {
    cand.notes.push_back(
        {ReasonCode::kPreemptionRisk,
         absl::StrCat("Spot on ", name, ": the job's length is unknown and "
                      "it does not checkpoint; if it runs over an hour a "
                      "preemption loses all work. Checkpoint it, or run "
                      "on-demand.")});
  }
  if (c.provisioning == Provisioning::kFlexStart) {
    cand.notes.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat("DWS flex-start on %s: waits up to %s for capacity "
                         "(counted against the deadline) and runs at most "
                         "%s; %s.",
                         name, FormatHours(kPolicy.flex_start_wait_hours.value),
                         FormatHours(kPolicy.flex_start_max_run_hours.value),
                         PriceCaveat(c.provisioning))});
    // The expected run fits the limit (JudgePointProvisioning); the slow
    // end of the range may not.
    if (job.has_dataset &&
        c.hours.high > kPolicy.flex_start_max_run_hours.value) {
      const bool saves = JobCheckpoints(job);
      cand.notes.push_back(
          {saves ? ReasonCode::kAssumption : ReasonCode::kPreemptionRisk,
           absl::StrFormat(
               "DWS flex-start on %s: the slow end of the estimate (%s) runs "
               "past its limit of %s%s.",
               name, FormatHours(c.hours.high),
               FormatHours(kPolicy.flex_start_max_run_hours.value),
               saves ? "; the job's checkpoints let a second run resume"
                     : " and the job does not checkpoint: a run cut there "
                       "loses its work. Checkpoint it, or plan on a "
                       "reservation")});
    }
  }
  if (c.provisioning == Provisioning::kReservation) {
    cand.notes.push_back(
        {ReasonCode::kAssumption,
         absl::StrCat("Reservation on ", name, ": ",
                      PriceCaveat(c.provisioning), ".")});
  }
}

}  // namespace accelplan::planner::internal
