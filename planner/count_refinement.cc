// Stage 4b: counts between the grid neighbours of a family's best point.
#include "planner/count_refinement.h"

#include <algorithm>
#include <limits>
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

// The candidate's grid points of one sequence past the dense range, best
// first (the fastest first when only the assumed deadline is missed).
std::vector<const Config*> RankedGridPoints(const Job& job, const Norm& norm,
                                            const Candidate& cand,
                                            const Shape* shape) {
  std::vector<const Config*> out;
  for (const Config& p : cand.points) {
    if (p.shape == shape && p.units >= Dense()) out.push_back(&p);
  }
  auto key = [&](const Config* p) {
    return cand.misses_assumed_deadline ? TimeMetric(job, *p) : Score(job, norm, *p);
  };
  std::stable_sort(out.begin(), out.end(), [&](const Config* a, const Config* b) {
    return key(a) < key(b);
  });
  return out;
}

// A refined point is kept on the same terms as the grid's (KeepFeasible).
bool Feasible(const Job& job, const Candidate& cand, const Config& c) {
  if (!c.fits || c.blocked != ReasonCode::kUnspecified) return false;
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
    // that holds the job was taken: searched below it).
    const bool all_sizes = SearchesSizes(job);
    const size_t windows = all_sizes ? 2 : 1;
    std::vector<int> done;
    for (size_t w = 0; w < std::min(windows, ranked.size()); ++w) {
      const int units = ranked[w]->units;
      const int lo = units == Dense() ? units + 1 : units - Dense() + 1;
      const int hi = all_sizes ? std::min(max_units, units + Dense() - 1)
                               : units - 1;
      for (int u = std::max(2, lo); u <= hi; ++u) {
        if (OnGrid(u) || std::find(done.begin(), done.end(), u) != done.end()) {
          continue;
        }
        done.push_back(u);
        o.units = u;
        Config c = BuildPoint(job, f, o, cand.pinned_strategy);
        if (!Feasible(job, cand, c)) continue;
        added.push_back(std::move(c));
        if (!all_sizes) break;  // the smallest that holds it
      }
    }
  }
  if (added.empty()) return;
  if (!SearchesSizes(job)) {
    cand.points = std::move(added);
    return;
  }
  for (Config& c : added) cand.points.push_back(std::move(c));
  std::stable_sort(cand.points.begin(), cand.points.end(),
                   [](const Config& a, const Config& b) { return a.devices < b.devices; });
}

}  // namespace accelplan::planner::internal
