// A brute-force reference for the planner's size search, for tests only.
//
// For one job and one family it tries every size the policy's search caps
// allow (planner/policy.h): each obtainable shape once, then EVERY unit
// count of the family's multi-unit sequence (GPU VMs of the largest shape,
// TPU Multislice slices of the largest multi-host slice, CPU VMs for
// XGBoost/LightGBM), where the engine tries every count up to dense_units
// and only its multiples beyond. Each size is built with
// internal::BuildPoint; the feasible ones (fit, deadline, budget) are kept
// and the best is picked with internal::Score and SelectPoint's tie rule.
//
// The sizes are re-derived here from the policy and the family's facts, not
// taken from internal::EnumerateSizes, so a wrong size list in the engine
// shows up as a disagreement. Only requests without pins are covered (no
// keep_current_hardware, no reviewed proposal).
#ifndef ACCELPLAN_TESTS_PLANNER_TESTING_BRUTE_FORCE_H_
#define ACCELPLAN_TESTS_PLANNER_TESTING_BRUTE_FORCE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/candidate.h"
#include "planner/index.h"
#include "planner/job.h"
#include "planner/scorer.h"

namespace accelplan::planner::testutil {

// A unit count the engine evaluates in a multi-unit sequence: every count
// up to kPolicy.dense_units, then its multiples.
bool OnEngineGrid(int units);

// The best feasible point over one set of sizes.
struct BruteSelection {
  // The selected point; nullopt when no size is feasible.
  std::optional<internal::Config> best;
  // No fitting size meets the deadline MIN_COST assumes (none was given):
  // the fastest fitting point is selected, as the engine does.
  bool misses_assumed_deadline = false;
  int fitting = 0;   // sizes that hold the job
  int feasible = 0;  // of those, the ones that meet deadline and budget
};

struct BruteForceResult {
  // False: a hard rule (or an unknown peak) rejects the family before it is
  // sized; nothing below is filled.
  bool sized = false;
  int sizes_built = 0;
  BruteSelection every_count;  // every count up to the caps
  BruteSelection engine_grid;  // only the counts OnEngineGrid keeps
};

// Which unit counts to build: every one, or only the engine's grid (then
// every_count is left empty; cheaper, for the exactness check).
enum class Counts { kEvery, kEngineGrid };

// Every size of `family` for `job`; `norm` is the space's normalisation
// (BALANCED), so scores compare with the engine's.
// `eligible`, when set, admits only some feasible points to the selection
// (a relative rule that rules out sizes of a family: Google's workload
// lists, planner/relative_rules.cc).
BruteForceResult BruteForce(
    const catalog::Catalog& catalog, const internal::Job& job,
    const internal::Family& family, const internal::Norm& norm,
    Counts counts = Counts::kEvery,
    const std::function<bool(const internal::Config&)>& eligible = nullptr);

// a scores better than b beyond the policy's tie tolerance (the scorer's
// own rule, re-stated).
bool StrictlyBetter(double a, double b);

// "A3 Mega: 16 x a3-megagpu-8g (128 devices) dp=.. fsdp=.. tp=.. pp=..
// zero=.. cost=.. hours=.." for failure messages.
std::string Describe(const internal::Config& c);

}  // namespace accelplan::planner::testutil

#endif  // ACCELPLAN_TESTS_PLANNER_TESTING_BRUTE_FORCE_H_
