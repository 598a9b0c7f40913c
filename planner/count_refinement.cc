// Stage 4b: counts between the grid neighbours of a family's best point.
#include "planner/count_refinement.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "planner/current_evidence.h"
#include "planner/policy.h"
#include "planner/rules.h"
#include "planner/scorer.h"
#include "planner/sizing.h"

namespace accelplan::planner::internal {
namespace {

int Dense() { return static_cast<int>(kPolicy.dense_units.value); }

bool OnGrid(int units) { return units <= Dense() || units % Dense() == 0; }

// How the refinement ranks a family's points: by the objective's score,
// or by time alone when the family only misses the assumed deadline or
// pace (the scorer then takes its fastest).
double RankKey(const Job& job, const Norm& norm, const Candidate& cand,
               const Config& c) {
  return cand.misses_assumed_deadline ? TimeMetric(job, c)
                                      : Score(job, norm, c);
}

// A count the search has built, its rank key (RankKey) and whether it is
// within the budget (every count is, with no budget stated).
struct Seen {
  double key = 0;
  int units = 0;
  bool within = true;
};

// The best `n` counts of `seen`, of those within the budget only if
// `within_only`.
std::vector<int> BestUnits(std::vector<Seen> seen, size_t n, bool within_only) {
  std::stable_sort(seen.begin(), seen.end(),
                   [](const Seen& a, const Seen& b) { return a.key < b.key; });
  std::vector<int> out;
  for (const Seen& s : seen) {
    if (out.size() >= n) break;
    if (!within_only || s.within) out.push_back(s.units);
  }
  return out;
}

// Whether the best of the grid and refined counts is within the budget
// (true when there are none).
bool BestIsWithin(const std::vector<Seen>& grid,
                  const std::vector<Seen>& refined) {
  const Seen* best = nullptr;
  for (const auto* list : {&grid, &refined}) {
    for (const Seen& s : *list) {
      if (best == nullptr || s.key < best->key) best = &s;
    }
  }
  return best == nullptr || best->within;
}

// A cost cap besides the budget (RefineCountsUnder); none by default.
using Cap = absl::FunctionRef<bool(const Config&)>;
bool NoCap(const Config&) { return true; }

// The candidate's grid points of one sequence past the dense range, those
// over the budget (Candidate::over_budget) or the cap included.
std::vector<Seen> GridPoints(const Job& job, const Norm& norm,
                             const Candidate& cand, const Shape* shape,
                             Cap cap) {
  std::vector<Seen> out;
  for (const auto* list : {&cand.points, &cand.over_budget}) {
    for (const Config& p : *list) {
      if (p.shape != shape || p.units < Dense()) continue;
      out.push_back({RankKey(job, norm, cand, p), p.units,
                     list == &cand.points && cap(p)});
    }
  }
  return out;
}

// A refined point is kept on the same terms as the grid's (KeepFeasible).
bool Feasible(const Job& job, const Candidate& cand, const Config& c,
              bool ignore_budget = false) {
  if (!c.fits || c.blocked != ReasonCode::kUnspecified ||
      c.devices < cand.min_devices) {
    return false;
  }
  if (!job.has_dataset) {
    return cand.misses_assumed_deadline || !BelowPaceFloor(job, c);
  }
  if (!cand.misses_assumed_deadline &&
      !(c.hours.expected + c.start_wait_hours <= job.deadline_hours)) {
    return false;
  }
  return ignore_budget || !OverBudget(job, c);
}

// Whether the candidate's only rejection is the budget (KeepFeasible found
// no grid point within it): refinement may still find one.
bool RejectedOnlyOverBudget(const Candidate& cand) {
  return cand.codes.size() == 1 && cand.codes[0] == ReasonCode::kOverBudget;
}

// Builds the points of the off-grid counts in [lo, hi] that `stride`
// divides (every count when stride is 1), skipping those already built.
// A point over the cap is seen but not kept, as one over the budget.
class WindowSearch {
 public:
  // `expected`: the points the search is likely to keep (one allocation
  // for the usual search; each point is a large struct).
  WindowSearch(const Job& job, const Norm& norm, Candidate& cand, SizeOption o,
               size_t expected, Cap cap)
      : job_(job), norm_(norm), cand_(cand), o_(o), cap_(cap) {
    added_.reserve(expected);
    // Counts an earlier pass refined are points already (RefineCountsUnder
    // runs after RefineCounts): not built twice.
    for (const Config& p : cand.points) {
      if (p.shape == o.shape && !OnGrid(p.units)) done_.push_back(p.units);
    }
  }

  // Builds the counts; keeps the feasible ones (added()) and records
  // those that miss only the budget as well (seen()).
  void Scan(int lo, int hi, int stride, bool first_only) {
    for (int u = std::max(2, lo); u <= hi; ++u) {
      if (u % stride != 0 || OnGrid(u) ||
          std::find(done_.begin(), done_.end(), u) != done_.end()) {
        continue;
      }
      done_.push_back(u);
      o_.units = u;
      Config c = BuildPoint(job_, *cand_.family, o_, cand_.pinned_layout);
      if (!Feasible(job_, cand_, c)) {
        if (OverBudget(job_, c) && Feasible(job_, cand_, c, true)) {
          seen_.push_back({RankKey(job_, norm_, cand_, c), u, false});
          // What "costs ... at best" names, should nothing be within it.
          if (cand_.points.empty()) over_.push_back(std::move(c));
        }
        continue;
      }
      if (!cap_(c)) {
        seen_.push_back({RankKey(job_, norm_, cand_, c), u, false});
        continue;
      }
      seen_.push_back({RankKey(job_, norm_, cand_, c), u, true});
      added_.push_back(std::move(c));
      if (first_only) return;
    }
  }
  // The counts seen in [lo, hi] that `stride` divides.
  std::vector<Seen> SeenIn(int lo, int hi, int stride) const {
    std::vector<Seen> out;
    for (const Seen& s : seen_) {
      if (s.units >= lo && s.units <= hi && s.units % stride == 0) {
        out.push_back(s);
      }
    }
    return out;
  }
  const std::vector<Seen>& seen() const { return seen_; }
  std::vector<Config>& added() { return added_; }
  std::vector<Config>& over_budget() { return over_; }

 private:
  const Job& job_;
  const Norm& norm_;
  Candidate& cand_;
  SizeOption o_;
  Cap cap_;
  std::vector<int> done_;
  std::vector<Config> added_;
  std::vector<Config> over_;  // fit and in time, over the budget
  std::vector<Seen> seen_;
};

// Around one grid point: every kPolicy.refine_stride-th count of the window
// first, then every count next to the best two of those (and of the grid
// point itself; of those within the budget if `within_only`): cost and
// time move smoothly between the counts that change the layout's divisors,
// which the strided counts sample.
void RefineWindow(int grid_point_units, int lo, int hi, bool within_only,
                  WindowSearch& search) {
  const int stride = static_cast<int>(kPolicy.refine_stride.value);
  search.Scan(lo, hi, stride, false);
  std::vector<int> centres = {grid_point_units};
  for (int u : BestUnits(search.SeenIn(lo, hi, stride), 2, within_only)) {
    centres.push_back(u);
  }
  for (int c : centres) {
    search.Scan(std::max(lo, c - stride + 1), std::min(hi, c + stride - 1), 1,
                false);
  }
}

// Without a data set: the smallest count of the window that holds the job,
// found on the strided counts first (holding the job is monotone in the
// count for the layouts that shard the state), then below the first that
// does.
void SmallestInWindow(int lo, int hi, WindowSearch& search) {
  const int stride = static_cast<int>(kPolicy.refine_stride.value);
  const size_t before = search.added().size();
  search.Scan(lo, hi, stride, true);
  const int first = search.added().size() > before
                        ? search.added().back().units
                        : hi + 1;
  const size_t coarse_found = search.added().size();
  search.Scan(std::max(lo, first - stride + 1), std::min(hi, first - 1), 1,
              true);
  if (search.added().size() > coarse_found) {
    // A smaller count holds it: that one, not the strided one.
    if (coarse_found > before) {
      search.added().erase(search.added().begin() + (coarse_found - 1));
    }
  }
}

// `points` and `added` as one list ascending in devices, `points` first
// among equals: what a stable sort of the two, concatenated, gives, with
// one move per point when `points` is already in order (it is as built).
// `added` is ordered through an index (a point is a large struct).
void MergeByDevices(std::vector<Config>& points, std::vector<Config>& added) {
  const auto by_devices = [](const Config& a, const Config& b) {
    return a.devices < b.devices;
  };
  if (!std::is_sorted(points.begin(), points.end(), by_devices)) {
    for (Config& c : added) points.push_back(std::move(c));
    std::stable_sort(points.begin(), points.end(), by_devices);
    return;
  }
  std::vector<int> order(added.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return added[a].devices < added[b].devices;
  });
  std::vector<Config> merged;
  merged.reserve(points.size() + added.size());
  size_t i = 0;
  for (int j : order) {
    while (i < points.size() && points[i].devices <= added[j].devices) {
      merged.push_back(std::move(points[i++]));
    }
    merged.push_back(std::move(added[j]));
  }
  for (; i < points.size(); ++i) merged.push_back(std::move(points[i]));
  points = std::move(merged);
}

// The refined points of one sequence (shape, max_units) into `added`, and
// those that miss only the budget into `over`. Around the best two grid
// points (one when only the smallest size that holds the job was taken:
// searched below it, keeping at most two). A window holds 2·dense counts
// at the stride, then 2·stride - 1 around each of three centres. The
// budget is ignored first, so that a budget the unbudgeted best meets
// finds that best; only if the best found is over it are the windows of
// the best within it searched too (cost is not monotone in the count where
// the batch divides unevenly, so a count beside an over-budget point can
// be the cheapest within). `capped_only`: only the windows of the best
// grid points within the budget and the cap.
void RefineSequence(const Job& job, const Norm& norm, Candidate& cand,
                    const std::pair<const Shape*, int>& sequence, Cap cap,
                    bool capped_only, std::vector<Config>& added,
                    std::vector<Config>& over) {
  const Shape* const shape = sequence.first;
  const int max_units = sequence.second;
  SizeOption o{shape, 0};
  o.provisioning = ProvisioningFor(job, *cand.family, *shape)
                       .value_or(Provisioning::kOnDemand);
  const bool all_sizes = SearchesSizes(job);
  const size_t windows = all_sizes ? 2 : 1;
  const int stride = static_cast<int>(kPolicy.refine_stride.value);
  WindowSearch search(
      job, norm, cand, o,
      all_sizes ? windows * (2 * Dense() / stride + 3 * (2 * stride - 1)) : 2,
      cap);
  const std::vector<Seen> grid = GridPoints(job, norm, cand, shape, cap);
  const auto refine = [&](bool within_only) {
    for (const int units : BestUnits(grid, windows, within_only)) {
      const int lo =
          std::max(2, units == Dense() ? units + 1 : units - Dense() + 1);
      if (all_sizes) {
        RefineWindow(units, lo, std::min(max_units, units + Dense() - 1),
                     within_only, search);
      } else {
        SmallestInWindow(lo, units - 1, search);
      }
    }
  };
  if (capped_only) {
    refine(true);
  } else {
    refine(false);
    if (!BestIsWithin(grid, search.seen())) refine(true);
  }
  if (added.empty()) {
    added = std::move(search.added());
  } else {
    for (Config& c : search.added()) added.push_back(std::move(c));
  }
  for (Config& c : search.over_budget()) over.push_back(std::move(c));
}

}  // namespace

void RefineCounts(const Job& job, const Norm& norm, Candidate& cand) {
  const bool over_budget = RejectedOnlyOverBudget(cand);
  if (!(cand.viable() || over_budget) ||
      (cand.points.empty() && cand.over_budget.empty())) {
    return;
  }
  std::vector<Config> added, over;
  for (const auto& sequence : cand.sequences) {
    RefineSequence(job, norm, cand, sequence, NoCap, false, added, over);
  }
  if (over_budget) {
    // Rejected on the grid: a count within the budget lifts the rejection;
    // none names the cheapest point seen.
    cand.codes.clear();
    cand.why.clear();
    cand.config.reset();
    if (added.empty()) {
      for (Config& c : over) cand.over_budget.push_back(std::move(c));
      RejectOverBudget(job, cand);
    } else {
      NotePreview(cand);  // as EvaluateFamily notes a viable family
    }
  }
  if (added.empty()) return;
  if (!SearchesSizes(job)) {
    cand.points = std::move(added);
    return;
  }
  MergeByDevices(cand.points, added);
}

void RefineCountsUnder(const Job& job, const Norm& norm, Candidate& cand,
                       absl::FunctionRef<bool(const Config&)> cap) {
  if (!cand.viable() || !SearchesSizes(job)) return;
  std::vector<Config> added, over;
  for (const auto& sequence : cand.sequences) {
    RefineSequence(job, norm, cand, sequence, cap, true, added, over);
  }
  if (!added.empty()) MergeByDevices(cand.points, added);
}

}  // namespace accelplan::planner::internal
