// Seeded random training requests for the planner's property tests, and how
// many of them a run checks.
#ifndef ACCELPLAN_TESTS_PLANNER_TESTING_RANDOM_REQUESTS_H_
#define ACCELPLAN_TESTS_PLANNER_TESTING_RANDOM_REQUESTS_H_

#include <string>
#include <vector>

#include "planner/types.h"

namespace accelplan::planner::testutil {

// How many random jobs a property test checks: `normal`, else a tenth of it
// (at least 10) in a sanitizer build, which runs several times slower; the
// environment variable ACCELPLAN_PROPERTY_JOBS overrides both.
int PropertyJobCount(int normal);

// What the generator mixes in.
struct RandomRequestOptions {
  bool classical = true;      // XGBoost / LightGBM jobs sized by data (CPU)
  bool without_data = true;   // jobs with no data set (nothing to time)
  bool constraints = true;    // Spot, accelerator caps, one host, platforms
};

// `n` requests, deterministic in `seed`: language models of 1e8 to 1e12
// parameters with a transformer shape ("dense") or only a parameter count
// ("model-size-only"), with and without a global batch, a data set, a
// deadline and a budget, every objective; and classical jobs.
std::vector<PlanRequest> RandomRequests(int n, unsigned seed,
                                        const RandomRequestOptions& options = {});

// "#7 MIN_COST 1.3e10 params shape, 2.6e11 tokens, deadline 40 h, ..." so a
// failure names the request.
std::string DescribeRequest(const PlanRequest& r);

}  // namespace accelplan::planner::testutil

#endif  // ACCELPLAN_TESTS_PLANNER_TESTING_RANDOM_REQUESTS_H_
