#include "tests/planner/testing/brute_force.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/estimates.h"
#include "planner/job_spec.h"
#include "planner/policy.h"
#include "planner/rules.h"
#include "planner/sizing.h"
#include "planner/time_model.h"

namespace accelplan::planner::testutil {
namespace {

using internal::Config;
using internal::Family;
using internal::Job;
using internal::Shape;

int Cap(const SourcedDefault& d) { return static_cast<int>(d.value); }

// One size to build: a shape at a unit count.
struct Size {
  const Shape* shape;
  int units;
};

// The sizes the policy lets the family be searched at, in the engine's
// order (every obtainable shape once, smallest first, then its multi-unit
// sequence by ascending count), with the request's constraints applied.
std::vector<Size> EverySize(const Job& job, const Family& f,
                            const std::vector<const Shape*>& obtainable) {
  const Constraints& k = job.constraints;
  // LightGBM trains on one GPU (planner/sizing.cc KeepOneGpuForLightgbm).
  const bool one_gpu =
      job.framework == Framework::kLightgbm && f.platform == Platform::kGpu;
  auto allowed = [&](const Shape* s, int units) {
    if (k.single_host_only && s->vms * units > 1) return false;
    if (one_gpu && s->devices * units > 1) return false;
    return k.max_accelerators <= 0 || f.platform == Platform::kCpu ||
           s->devices * units <= k.max_accelerators;
  };
  std::vector<Size> out;
  for (const Shape* s : obtainable) {
    if (allowed(s, 1)) out.push_back({s, 1});
  }
  // The multi-unit sequences (planner/sizing.cc reads the same rules; they
  // are restated from the policy here): one per platform, two on a TPU
  // whose largest multi-host slice is not its largest power-of-two one.
  std::vector<std::pair<const Shape*, int>> sequences;
  if (f.platform == Platform::kGpu && f.inter_vm_bytes_per_s > 0) {
    const Shape* unit = obtainable.back();  // the largest VM
    sequences.push_back(
        {unit, std::min(Cap(kPolicy.max_gpu_vms),
                        Cap(kPolicy.max_gpus) / std::max(1, unit->devices))});
  } else if (f.platform == Platform::kCpu && job.classical &&
             (job.framework == Framework::kXgboost ||
              job.framework == Framework::kLightgbm)) {
    const Shape* unit = obtainable.front();  // the VM with the most memory
    for (const Shape* s : obtainable) {
      if (s->machine->memory_bytes.value_or(0) >
          unit->machine->memory_bytes.value_or(0)) {
        unit = s;
      }
    }
    sequences.push_back({unit, Cap(kPolicy.max_cpu_vms)});
  } else if (f.platform == Platform::kTpu && f.dcn_bytes_per_s_per_chip > 0 &&
             job.constraints.run_platform != RunPlatform::kVertexTraining &&
             MultisliceFrameworkReason(job.framework).empty()) {
    for (const Shape* unit :
         {f.largest_multi_host_slice, f.power_of_two_multi_host_slice}) {
      const bool seen = !sequences.empty() && sequences[0].first == unit;
      if (unit != nullptr && !seen &&
          std::find(obtainable.begin(), obtainable.end(), unit) !=
              obtainable.end()) {
        sequences.push_back({unit, Cap(kPolicy.max_slices)});
      }
    }
  }
  for (const auto& [unit, max_units] : sequences) {
    for (int u = 2; u <= max_units; ++u) {
      if (allowed(unit, u)) out.push_back({unit, u});
    }
  }
  // Ascending in devices, as the engine's options are.
  std::stable_sort(out.begin(), out.end(), [](const Size& a, const Size& b) {
    return a.shape->devices * a.units < b.shape->devices * b.units;
  });
  return out;
}

// SelectPoint and KeepFeasible (planner/family_space.cc, scorer.cc)
// restated over a list of fitting points in enumeration order.
BruteSelection Select(const Job& job, const internal::Norm& norm,
                      const std::vector<const Config*>& fitting,
                      const std::function<bool(const Config&)>& eligible) {
  BruteSelection s;
  s.fitting = static_cast<int>(fitting.size());
  if (fitting.empty()) return s;
  if (!job.has_dataset) {
    // No work to time: the family's smallest size that holds the job with
    // its optimizer on the devices, and the smaller ones that hold it by
    // offloading the optimizer; the scorer weighs those (fewer devices on
    // a tie). Under MIN_TIME every size is weighed (SearchesSizes), with
    // no deadline or budget to check.
    const bool all_sizes = internal::SearchesSizes(job);
    const Config* chosen = nullptr;
    double best = 0;
    for (const Config* p : fitting) {
      ++s.feasible;
      const double score = internal::Score(job, norm, *p);
      if ((!eligible || eligible(*p)) &&
          (chosen == nullptr || StrictlyBetter(score, best) ||
           (!StrictlyBetter(best, score) && p->devices < chosen->devices))) {
        best = score;
        chosen = p;
      }
      if (!all_sizes && !p->layout.optimizer_offload) break;
    }
    if (chosen != nullptr) s.best = *chosen;
    return s;
  }
  std::vector<const Config*> in_time;
  for (const Config* c : fitting) {
    if (c->hours.expected <= job.deadline_hours) in_time.push_back(c);
  }
  if (in_time.empty() && !job.deadline_given) {
    s.misses_assumed_deadline = true;
    in_time = fitting;
  }
  std::vector<const Config*> ok;
  for (const Config* c : in_time) {
    if (eligible && !eligible(*c)) continue;
    if (job.goal.budget_usd <= 0 || !c->price_known ||
        c->cost.expected <= job.goal.budget_usd) {
      ok.push_back(c);
    }
  }
  s.feasible = static_cast<int>(ok.size());
  if (ok.empty()) return s;
  const Config* chosen = ok.front();
  if (s.misses_assumed_deadline) {
    for (const Config* p : ok) {
      if (p->hours.expected < chosen->hours.expected) chosen = p;
    }
  } else {
    double best = internal::Score(job, norm, *chosen);
    for (const Config* p : ok) {
      const double score = internal::Score(job, norm, *p);
      if (StrictlyBetter(score, best) ||
          (!StrictlyBetter(best, score) && p->devices < chosen->devices)) {
        best = score;
        chosen = p;
      }
    }
  }
  s.best = *chosen;
  return s;
}

}  // namespace

bool OnEngineGrid(int units) {
  const int dense = Cap(kPolicy.dense_units);
  return units <= dense || units % dense == 0;
}

bool StrictlyBetter(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) {
    return std::isfinite(a) && !std::isfinite(b);
  }
  return a < b - kPolicy.tie_tolerance.value * std::max(std::abs(a), std::abs(b));
}

BruteForceResult BruteForce(
    const catalog::Catalog& catalog, const Job& job, const Family& f,
    const internal::Norm& norm, Counts counts,
    const std::function<bool(const Config&)>& eligible) {
  BruteForceResult out;
  if (f.platform == Platform::kEdge || job.on_device) return out;
  internal::Candidate cand;
  cand.family = &f;
  internal::ApplyHardRules(catalog, job, f, cand);
  const internal::Offer offer = internal::OfferedShapes(job, f, cand);
  if (!cand.codes.empty() || offer.obtainable.empty()) return out;
  if (internal::PeakFlops(f, *offer.obtainable.front(), job.precision,
                          internal::Fp32RunsAsTf32(job.workload), nullptr,
                          nullptr) <= 0 &&
      (job.has_dataset || job.model_size_known)) {
    return out;
  }
  out.sized = true;
  std::vector<Config> built;
  const std::vector<Size> sizes = EverySize(job, f, offer.obtainable);
  built.reserve(sizes.size());
  std::vector<bool> on_grid;
  bool over_assumed_batch = false, any_fits = false;
  auto build_all = [&](const Job& j) {
    for (const Size& s : sizes) {
      const bool grid = s.units == 1 || OnEngineGrid(s.units);
      if (!grid && counts == Counts::kEngineGrid) continue;
      internal::SizeOption o{s.shape, s.units};
      o.provisioning = internal::ProvisioningFor(j, f, *s.shape)
                           .value_or(Provisioning::kOnDemand);
      Config c = internal::BuildPoint(j, f, o, Strategy::kUnspecified);
      ++out.sizes_built;
      over_assumed_batch |= c.over_assumed_batch;
      any_fits |= c.fits;
      // No allowed provisioning can run it (Spot over an hour without
      // checkpoints, flex-start past its maximum run): not a point.
      if (!c.fits || c.blocked != ReasonCode::kUnspecified) continue;
      built.push_back(std::move(c));
      on_grid.push_back(grid);
      // When sizes are not searched (no data set, not MIN_TIME) only the
      // smallest fitting size matters (and the smaller ones that offload
      // the optimizer), on and off the grid: stop at the first one on it
      // that keeps the optimizer.
      if (!internal::SearchesSizes(j) && grid &&
          !built.back().layout.optimizer_offload) {
        break;
      }
    }
  };
  build_all(job);
  if (!any_fits && over_assumed_batch) {
    // No size within the assumed batch holds the job: the engine drops the
    // cap (an assumption never rejects), and so does the brute force.
    Job uncapped = job;
    uncapped.assumed_batch_rank_cap = 0;
    build_all(uncapped);
  }
  std::vector<const Config*> every, grid_points;
  for (size_t i = 0; i < built.size(); ++i) {
    every.push_back(&built[i]);
    if (on_grid[i]) grid_points.push_back(&built[i]);
  }
  if (counts == Counts::kEvery)
    out.every_count = Select(job, norm, every, eligible);
  out.engine_grid = Select(job, norm, grid_points, eligible);
  return out;
}

std::string Describe(const Config& c) {
  const ShardingLayout& l = c.layout;
  std::string unit = c.shape != nullptr && c.shape->machine != nullptr
                         ? c.shape->machine->id
                         : "?";
  if (c.shape != nullptr && c.shape->topology != nullptr) {
    unit = absl::StrCat(unit, " ", c.shape->topology->topology);
  }
  return absl::StrFormat(
      "%d x %s (%d devices) dp=%d fsdp=%d zero=%d tp=%d pp=%d acc=%d "
      "cost=%.6g hours=%.6g tok/s=%.6g",
      c.units, unit, c.devices, l.data, l.fsdp, l.zero_stage, l.tensor, l.pipeline,
      c.accumulation_steps, c.cost.expected, c.hours.expected,
      c.tokens_per_second);
}

}  // namespace accelplan::planner::testutil
