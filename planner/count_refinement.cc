// Stage 4b: counts between the grid neighbours of a family's best point.
#include "planner/count_refinement.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "planner/current_evidence.h"
#include "planner/policy.h"
#include "planner/rules.h"
#include "planner/sizing.h"
#include "planner/scorer.h"

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

// The candidate's grid points of one sequence past the dense range, best
// first (the fastest first when only the assumed deadline is missed).
std::vector<const Config*> RankedGridPoints(const Job& job, const Norm& norm,
                                            const Candidate& cand,
                                            const Shape* shape) {
  std::vector<const Config*> out;
  for (const Config& p : cand.points) {
    if (p.shape == shape && p.units >= Dense()) out.push_back(&p);
  }
  auto key = [&](const Config* p) { return RankKey(job, norm, cand, *p); };
  std::stable_sort(out.begin(), out.end(), [&](const Config* a, const Config* b) {
    return key(a) < key(b);
  });
  return out;
}

// A refined point is kept on the same terms as the grid's (KeepFeasible).
bool Feasible(const Job& job, const Candidate& cand, const Config& c) {
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
  return job.goal.budget_usd <= 0 || !c.price_known ||
         c.cost.expected <= job.goal.budget_usd;
}

// Builds the points of the off-grid counts in [lo, hi] that `stride`
// divides (every count when stride is 1), skipping those already built.
class WindowSearch {
 public:
  // `expected`: the points the search is likely to keep (one allocation
  // for the usual search; each point is a large struct).
  WindowSearch(const Job& job, const Norm& norm, Candidate& cand, SizeOption o,
               size_t expected)
      : job_(job), norm_(norm), cand_(cand), o_(o) {
    added_.reserve(expected);
  }

  // The feasible points built, as (score, index into added()).
  void Scan(int lo, int hi, int stride, std::vector<std::pair<double, int>>* kept,
            bool first_only) {
    for (int u = std::max(2, lo); u <= hi; ++u) {
      if (u % stride != 0 || OnGrid(u) ||
          std::find(done_.begin(), done_.end(), u) != done_.end()) {
        continue;
      }
      done_.push_back(u);
      o_.units = u;
      Config c = BuildPoint(job_, *cand_.family, o_, cand_.pinned_layout);
      if (!Feasible(job_, cand_, c)) continue;
      const double key = RankKey(job_, norm_, cand_, c);
      if (kept != nullptr) kept->push_back({key, static_cast<int>(added_.size())});
      added_.push_back(std::move(c));
      if (first_only) return;
    }
  }
  std::vector<Config>& added() { return added_; }

 private:
  const Job& job_;
  const Norm& norm_;
  Candidate& cand_;
  SizeOption o_;
  std::vector<int> done_;
  std::vector<Config> added_;
};

// Around one grid point: every kPolicy.refine_stride-th count of the window
// first, then every count next to the best two of those (and of the grid
// point itself): cost and time move smoothly between the counts that
// change the layout's divisors, which the strided counts sample.
void RefineWindow(const Config& grid_point, int lo, int hi,
                  WindowSearch& search) {
  const int stride = static_cast<int>(kPolicy.refine_stride.value);
  std::vector<std::pair<double, int>> coarse;
  search.Scan(lo, hi, stride, &coarse, false);
  std::stable_sort(coarse.begin(), coarse.end());
  std::vector<int> centres = {grid_point.units};
  for (size_t i = 0; i < std::min<size_t>(2, coarse.size()); ++i) {
    centres.push_back(search.added()[coarse[i].second].units);
  }
  for (int c : centres) {
    search.Scan(std::max(lo, c - stride + 1), std::min(hi, c + stride - 1), 1,
                nullptr, false);
  }
}

// Without a data set: the smallest count of the window that holds the job,
// found on the strided counts first (holding the job is monotone in the
// count for the layouts that shard the state), then below the first that
// does.
void SmallestInWindow(int lo, int hi, WindowSearch& search) {
  const int stride = static_cast<int>(kPolicy.refine_stride.value);
  const size_t before = search.added().size();
  search.Scan(lo, hi, stride, nullptr, true);
  const int first = search.added().size() > before
                        ? search.added().back().units
                        : hi + 1;
  const size_t coarse_found = search.added().size();
  search.Scan(std::max(lo, first - stride + 1), std::min(hi, first - 1), 1,
              nullptr, true);
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

}  // namespace

void RefineCounts(const Job& job, const Norm& norm, Candidate& cand) {
  if (!cand.viable() || cand.points.empty()) return;
  const Family& f = *cand.family;
  std::vector<Config> added;
  for (const auto& [shape, max_units] : cand.sequences) {
    const std::vector<const Config*> ranked =
        RankedGridPoints(job, norm, cand, shape);
    SizeOption o{shape, 0};
    o.provisioning =
        ProvisioningFor(job, f, *shape).value_or(Provisioning::kOnDemand);
    // Around the best two grid points (one when only the smallest size
    // that holds the job was taken: searched below it, keeping at most
    // two). A window holds 2·dense counts at the stride, then 2·stride - 1
    // around each of three centres.
    const bool all_sizes = SearchesSizes(job);
    const size_t windows = all_sizes ? 2 : 1;
    const int stride = static_cast<int>(kPolicy.refine_stride.value);
    WindowSearch search(
        job, norm, cand, o,
        all_sizes ? windows * (2 * Dense() / stride + 3 * (2 * stride - 1))
                  : 2);
    for (size_t w = 0; w < std::min(windows, ranked.size()); ++w) {
      const int units = ranked[w]->units;
      const int lo = std::max(2, units == Dense() ? units + 1 : units - Dense() + 1);
      if (all_sizes) {
        RefineWindow(*ranked[w], lo, std::min(max_units, units + Dense() - 1),
                     search);
      } else {
        SmallestInWindow(lo, units - 1, search);
      }
    }
    if (added.empty()) {
      added = std::move(search.added());
    } else {
      for (Config& c : search.added()) added.push_back(std::move(c));
    }
  }
  if (added.empty()) return;
  if (!SearchesSizes(job)) {
    cand.points = std::move(added);
    return;
  }
  MergeByDevices(cand.points, added);
}

}  // namespace accelplan::planner::internal
