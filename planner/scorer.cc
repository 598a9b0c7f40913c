// Stage 6: the one scorer over the candidate space.
#include "planner/scorer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/count_refinement.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/provisioning.h"

namespace accelplan::planner::internal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// a is better than b by more than the tie tolerance.
bool StrictlyBelow(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return std::isfinite(a) && !std::isfinite(b);
  return a < b - kPolicy.tie_tolerance.value * std::max(std::abs(a), std::abs(b));
}

// Lexicographic tiers above the score: no price, a missed assumed
// deadline, then how the hardware suits the workload (SPEC §4).
int Tier(const Job& job, const Candidate& c) {
  int t = 0;
  if (c.price_unknown) t += 16;
  if (c.misses_assumed_deadline) t += 8;
  if (job.embedding_dominated && c.family->platform == Platform::kCpu) t += 4;
  if (job.sparsecore_ranking && c.family->platform != Platform::kCpu &&
      c.family->sparse_cores <= 0) {
    t += 2;
  }
  return t;
}

// A CNN spread so thin that each accelerator trains only a few examples per
// step: its time comes from a band measured at full per-GPU batches.
void AddSmallCnnBatchNote(const Job& job, Candidate& cand) {
  const Config& c = *cand.config;
  const Platform p = cand.family->platform;
  if (job.workload.model_kind != ModelKind::kCnn || job.sequence_model ||
      job.classical || !job.has_dataset ||
      (p != Platform::kGpu && p != Platform::kTpu)) {
    return;
  }
  // Each data-parallel rank's share (a CNN layout is data parallel today).
  const double per_device = job.batch_sequences / DataParallelRanks(c);
  if (per_device >= kPolicy.cnn_small_batch_per_device.value) return;
  cand.notes.push_back(
      {ReasonCode::kAssumption,
       absl::StrFormat(
           "%s at %d devices trains %.1f examples per device per step (a "
           "%.0f-example global batch), and its time is optimistic there: "
           "NVIDIA's published ResNet-50 scans reach 35-70%% of their best "
           "throughput at %.0f images per GPU. Fewer devices or a larger "
           "batch keep each device busy.",
           cand.family->name, c.devices, per_device, job.batch_sequences,
           kPolicy.cnn_small_batch_per_device.value)});
}

// A stated batch that does not split into whole micro-batches over the
// point's data-parallel ranks: its time counts the padding
// (RunBatchOverStated), and the plan says what would waste none.
void AddPaddedBatchNote(const Job& job, Candidate& cand) {
  const Config& c = *cand.config;
  const double run = RunBatchOverStated(job, c);
  if (run <= 1 + kPolicy.tie_tolerance.value) return;
  const ReplicaBatch b = ReplicaBatchOf(job.batch_sequences, c.layout);
  const int ranks = static_cast<int>(b.ranks);
  // Whole micro-batches of b on every rank: a multiple of ranks x b pads
  // nothing.
  const int even = ranks * std::max(1, c.layout.micro_batch);
  const char* what = job.sequence_model ? "sequences" : "examples";
  cand.notes.push_back(
      {ReasonCode::kAssumption,
       absl::StrFormat(
           "%s at %d devices splits the stated global batch of %.0f %s "
           "over %d data-parallel ranks in whole micro-batches, %.0f per "
           "rank: each step runs %.0f%% more than the batch (padding), "
           "and its time includes it. A batch that is a multiple of %d "
           "wastes none.",
           cand.family->name, c.devices, job.batch_sequences, what, ranks,
           b.run_per_rank(), 100 * (run - 1), even)});
}

// The notes a selected point carries: a batch it needs beyond the assumed
// one, a CNN batch spread thin, an unknown price, a policy cap it sits at.
void AddPointNotes(const Job& job, Candidate& cand) {
  const Config& c = *cand.config;
  const std::string& name = cand.family->name;
  if (!job.batch_given && !job.classical && job.model_size_known) {
    // An assumed batch never rejects: a configuration with more data-
    // parallel ranks than the assumed batch has sequences is kept, and the
    // plan says which batch it needs.
    const int ranks = DataParallelRanks(c);
    if (ranks > job.batch_sequences) {
      const char* what = job.sequence_model ? "sequences" : "examples";
      cand.notes.push_back(
          {ReasonCode::kAssumption,
           absl::StrFormat("%s at %d devices has %d data-parallel ranks, more "
                           "than the %.0f %s per step of the assumed global "
                           "batch: it needs a global batch of at least %d %s "
                           "(state global_batch_size to have the planner "
                           "hold to it).",
                           name, c.devices, ranks, job.batch_sequences, what,
                           ranks, what)});
    }
  }
  AddSmallCnnBatchNote(job, cand);
  AddPaddedBatchNote(job, cand);
  AddProvisioningNotes(job, cand);
  cand.price_unknown = !c.price_known;
  if (cand.price_unknown) {
    cand.notes.push_back(
        {ReasonCode::kPriceUnknown,
         absl::StrCat("No ",
                      cand.provisioning == Provisioning::kSpot ? "Spot" : "on-demand",
                      " price for ", name, " in the catalog; it ranks below "
                      "every priced option.")});
  }
  // The assumed batch's cap (issue 13 item 2), stated when it bound the
  // selected point: no feasible point has more devices.
  const bool largest =
      std::none_of(cand.points.begin(), cand.points.end(),
                   [&](const Config& p) { return p.devices > c.devices; });
  if (cand.assumed_batch_cap_devices > 0 && largest) {
    const char* what = job.sequence_model ? "sequences" : "examples";
    cand.notes.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat("%s is searched below %d devices: from there every "
                         "layout has more data-parallel ranks than the %.0f "
                         "%s per step of the assumed global batch (state "
                         "global_batch_size to plan on a larger one).",
                         name, cand.assumed_batch_cap_devices,
                         job.batch_sequences, what)});
  }
  if (cand.search_cap_devices > 0 && c.devices >= cand.search_cap_devices &&
      SearchesSizes(job)) {
    cand.notes.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat("%s is searched up to %d devices (the planner's "
                         "search cap, planner/policy.h); the plan sits at "
                         "that cap, so more devices might be faster.",
                         name, cand.search_cap_devices)});
  }
}

}  // namespace

// Past the deadline (the stated one, or the one MIN_COST assumes); a
// flex-start point waits for capacity before it runs.
bool LateForDeadline(const Job& job, const Config& c) {
  return !(c.hours.expected + c.start_wait_hours <= job.deadline_hours);
}

// What a size the assumed batch held back would give (FitSizes): an
// assumption never rejects without saying what would lift it.
std::string HeldBackInTime(const Job& job, const Candidate& cand) {
  if (!cand.held_back_in_time) return "";
  const Candidate::HeldBack& c = *cand.held_back_in_time;
  const char* what = job.sequence_model ? "sequences" : "examples";
  return absl::StrFormat(
      " At %d devices it would take %s, with a global batch of at least %d "
      "%s (the assumed batch has %.0f %s; state global_batch_size to plan "
      "on it).",
      c.devices, FormatHours(c.hours), c.ranks, what, job.batch_sequences,
      what);
}

// The point's data-parallel ranks: the replicas its batch is split over.
int DataParallelRanks(const Config& c) {
  return std::max(1, c.devices / (std::max(1, c.layout.tensor) *
                                  std::max(1, c.layout.pipeline)));
}

double CostMetric(const Job& job, const Config& k) {
  if (!k.price_known) return kInf;
  if (job.has_dataset) return k.cost.expected;
  return k.tokens_per_second > 0 ? k.hourly / k.tokens_per_second : kInf;
}

double TimeMetric(const Job& job, const Config& k) {
  // Time to results from submission: a flex-start point's wait for
  // capacity counts, as it does against the deadline.
  if (job.has_dataset) return k.hours.expected + k.start_wait_hours;
  return k.tokens_per_second > 0 ? 1.0 / k.tokens_per_second : kInf;
}

namespace {

std::string HoursText(const Config& c, int digits) {
  // digits 0: one decimal place; else that many significant digits.
  const auto number = [&](double v) {
    return digits == 0 ? absl::StrFormat("%.1f", v)
                       : absl::StrFormat("%.*g", digits, v);
  };
  const double hours = c.hours.expected;
  const std::string run = hours >= 48 ? number(hours / 24) + " days"
                                      : number(hours) + " h";
  if (!(c.start_wait_hours > 0)) return run;
  return absl::StrCat(run, " + up to ", FormatHours(c.start_wait_hours),
                      " waiting for capacity (",
                      FormatHours(hours + c.start_wait_hours), " to results)");
}

}  // namespace

std::string TakesText(const Config& a, const Config& b) {
  std::string x = HoursText(a, 0), y = HoursText(b, 0);
  for (int digits : {3, 4, 6}) {
    if (x != y) break;
    x = HoursText(a, digits);
    y = HoursText(b, digits);
  }
  return absl::StrCat("Takes ", x, " vs ", y, ".");
}

const char* ObjectiveLabel(Objective o) {
  switch (o) {
    case Objective::kMinTime:
      return "MIN_TIME";
    case Objective::kBalanced:
      return "BALANCED";
    default:
      return "MIN_COST";
  }
}

std::string MetricsText(const Job& job, const Config& c) {
  if (job.has_dataset) {
    return absl::StrCat(
        FormatHours(c.hours.expected), ", ",
        c.price_known ? FormatUsd(c.cost.expected) : "no price");
  }
  if (!(c.tokens_per_second > 0)) return "no throughput";
  const std::string rate =
      absl::StrFormat("%.4g %s/s", c.tokens_per_second, job.unit);
  if (!c.price_known) return absl::StrCat(rate, ", no price");
  return absl::StrCat(
      rate,
      absl::StrFormat(", $%.3g per million %s",
                      c.hourly / (c.tokens_per_second * 3600) * 1e6, job.unit));
}

void WidenNorm(const Job& job, const Candidate& c, Norm& n) {
  if (!c.viable()) return;
  for (const Config& p : c.points) {
    const double cost = CostMetric(job, p), time = TimeMetric(job, p);
    n.min_cost = std::min(n.min_cost, cost);
    n.min_time = std::min(n.min_time, time);
    if (std::isfinite(cost)) {
      n.min_priced_time = std::min(n.min_priced_time, time);
    }
  }
}

Norm NormOver(const Job& job, const std::vector<Candidate>& space) {
  Norm n{kInf, kInf, kInf};
  for (const Candidate& c : space) WidenNorm(job, c, n);
  return n;
}

namespace {

// MIN_TIME: the time, except that every point within
// kPolicy.equal_time_fraction of the fastest priced point of the space is as
// fast as it: those score in [band * (1 - fraction), band), lower the
// cheaper they are (an unknown price at band), so the cheapest of them
// wins and each still ranks before every slower point, which scores its
// time (> band).
double MinTimeScore(const Norm& norm, double cost, double time) {
  const double band = EqualTimeBand(norm);
  if (!(time <= band)) return time;  // NaN: no band
  const double fraction = kPolicy.equal_time_fraction.value;
  const double cheapness =
      std::isfinite(cost) && cost > 0 && std::isfinite(norm.min_cost)
          ? std::min(1.0, norm.min_cost / cost)
          : 0;
  return band * (1 - fraction * cheapness);
}

}  // namespace

double EqualTimeBand(const Norm& norm) {
  const double fastest = std::isfinite(norm.min_priced_time)
                             ? norm.min_priced_time
                             : norm.min_time;
  if (!std::isfinite(fastest) || !(fastest > 0)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return fastest * (1 + kPolicy.equal_time_fraction.value);
}

double Score(const Job& job, const Norm& norm, const Config& c, double keep) {
  if (job.on_device) return 0;
  const double cost = CostMetric(job, c) * keep;
  const double time = TimeMetric(job, c) * keep;
  switch (job.objective) {
    case Objective::kMinTime:
      return MinTimeScore(norm, cost, time);
    case Objective::kBalanced: {
      const bool priced = std::isfinite(cost) && std::isfinite(norm.min_cost) &&
                          norm.min_cost > 0;
      const double cost_part =
          priced ? cost / norm.min_cost : kPolicy.balanced_unpriced_cost_ratio.value;
      const double time_part =
          std::isfinite(norm.min_time) && norm.min_time > 0 ? time / norm.min_time
                                                             : time;
      return cost_part + time_part;
    }
    default: return cost;
  }
}

void ScoreCandidate(const Job& job, const Norm& norm, Candidate& c) {
  const Config& p = *c.config;
  // Exposed communication scales time and cost (or, without a data set,
  // the cost and time per unit of work) by 1 / (1 - fraction).
  c.score = Score(job, norm, p);
  c.score_without_comm =
      Score(job, norm, p, 1 - p.step.communication_fraction);
}

namespace {

// What ranks a family inside its tier: its score, except among families
// that miss the assumed deadline, which selected their fastest points
// (SelectPoint) and rank by time: ranked by cost, the cheapest of their
// fastest points won, which a budget could beat on both cost and time.
double RankKey(const Job& job, const Candidate& c) {
  if (c.misses_assumed_deadline && c.config && !job.on_device) {
    return TimeMetric(job, *c.config);
  }
  return c.score;
}

// The candidate's best eligible point: the best score (ties, within the
// policy's tolerance, to the fewest devices); one that misses only the
// assumed deadline takes its fastest. Null when none is eligible.
template <typename Eligible>
const Config* BestPoint(const Job& job, const Norm& norm, const Candidate& cand,
                        const Eligible& eligible) {
  const Config* chosen = nullptr;
  double best = kInf;
  for (const Config& p : cand.points) {
    if (!eligible(p)) continue;
    if (cand.misses_assumed_deadline) {
      // Nothing meets the assumed deadline (or today's pace): the point
      // closest to it (the fastest in budget) is the one the assumption
      // still points to.
      if (chosen == nullptr || TimeMetric(job, p) < TimeMetric(job, *chosen)) {
        chosen = &p;
      }
      continue;
    }
    const double s = Score(job, norm, p);
    if (chosen == nullptr || StrictlyBelow(s, best) ||
        (!StrictlyBelow(best, s) && p.devices < chosen->devices)) {
      best = s;
      chosen = &p;
    }
  }
  return chosen;
}

void Select(const Job& job, Candidate& cand, const Config& chosen) {
  cand.config = chosen;
  cand.provisioning = chosen.provisioning;
  cand.point_notes_from = cand.notes.size();
  AddPointNotes(job, cand);
}

}  // namespace

void SelectPoint(const Job& job, const Norm& norm, Candidate& cand) {
  if (!cand.viable() || cand.points.empty()) return;
  if (cand.family->platform == Platform::kEdge) {
    cand.config = cand.points.front();  // ranked by rules, not a score
    cand.provisioning = Provisioning::kUnspecified;
    return;
  }
  Select(job, cand,
         *BestPoint(job, norm, cand, [](const Config&) { return true; }));
}

bool ReselectPoint(const Job& job, const Norm& norm, Candidate& cand,
                   absl::FunctionRef<bool(const Config&)> eligible) {
  if (!cand.has_point() || cand.family->platform == Platform::kEdge) {
    return false;
  }
  const Config* chosen = BestPoint(job, norm, cand, eligible);
  if (chosen == nullptr) return false;
  cand.notes.resize(cand.point_notes_from);
  Select(job, cand, *chosen);
  return true;
}

bool RanksBefore(const Job& job, const Candidate& a, const Candidate& b) {
  const int ta = Tier(job, a), tb = Tier(job, b);
  if (ta != tb) return ta < tb;
  const double ka = RankKey(job, a), kb = RankKey(job, b);
  if (StrictlyBelow(ka, kb)) return true;
  if (StrictlyBelow(kb, ka)) return false;
  if (a.eos_soon != b.eos_soon) return !a.eos_soon;
  if (a.on_workload_list != b.on_workload_list) return a.on_workload_list;
  if (a.family->preview != b.family->preview) return !a.family->preview;
  return a.family->name < b.family->name;
}

Norm RankCandidates(const Job& job, std::vector<Candidate>& cands) {
  // Counts between grid points are refined where the space's scorer points,
  // then the normalisation is taken over every point found.
  const Norm grid_norm = NormOver(job, cands);
  for (Candidate& c : cands) RefineCounts(job, grid_norm, c);
  const Norm norm = NormOver(job, cands);
  std::vector<Candidate*> all;
  all.reserve(cands.size());
  for (Candidate& c : cands) {
    SelectPoint(job, norm, c);
    all.push_back(&c);
  }
  ApplyRelativeRules(job, norm, cands, all);
  for (Candidate& c : cands) {
    if (!c.has_point()) continue;
    ScoreCandidate(job, norm, c);
  }
  std::stable_sort(cands.begin(), cands.end(),
                   [&](const Candidate& a, const Candidate& b) {
                     const bool va = a.has_point(), vb = b.has_point();
                     if (va != vb) return va;
                     if (!va) return a.family->name < b.family->name;
                     return RanksBefore(job, a, b);
                   });
  return norm;
}

void WhatItWins(const Job& job, const Config& a, const Config& b,
                std::vector<Reason>& out) {
  if (job.has_dataset && a.price_known && b.price_known &&
      a.cost.expected < b.cost.expected * (1 - kPolicy.tie_tolerance.value)) {
    out.push_back(
        {ReasonCode::kCheaper,
         absl::StrFormat("Costs %s vs %s (-%.0f%%).",
                         FormatUsd(a.cost.expected), FormatUsd(b.cost.expected),
                         100 * (1 - a.cost.expected / b.cost.expected))});
  }
  if (job.has_dataset &&
      TimeMetric(job, a) <
          TimeMetric(job, b) * (1 - kPolicy.tie_tolerance.value)) {
    out.push_back({ReasonCode::kFaster, TakesText(a, b)});
  }
}

}  // namespace accelplan::planner::internal
