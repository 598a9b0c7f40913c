// Reading one family's fate out of a PlanResponse, for rule tests.
#ifndef ACCELPLAN_TESTS_PLANNER_TESTING_CODES_H_
#define ACCELPLAN_TESTS_PLANNER_TESTING_CODES_H_

#include <string>
#include <vector>

#include "planner/types.h"

namespace accelplan::planner::testutil {

// Returned, besides a test failure, when the family is not in the response:
// no real rejection carries REASON_CODE_UNSPECIFIED, so the value also reads
// as "not found" in the failure message of the assertion that follows.
inline constexpr ReasonCode kFamilyNotFound = ReasonCode::kUnspecified;

// The rejection codes of the family with this accelerator id (GPU, TPU,
// edge) or, for CPU families, this series id; `series` narrows a GPU sold in
// several series (H100 in A3 High and A3 Edge). Empty when the family is
// recommended or an alternative.
//
// A family the response names nowhere (not recommended, not an alternative,
// not rejected) fails the calling test at the caller's line, listing the
// families the response does name: otherwise
// `EXPECT_THAT(Codes(r, "x"), Not(Contains(...)))` would pass for a family
// that was never evaluated, a misspelt id, or a viable family past the
// alternatives cap. It then returns {kFamilyNotFound}.
std::vector<ReasonCode> Codes(const PlanResponse& r, const std::string& name,
                              const std::string& series = "",
                              const char* file = __builtin_FILE(),
                              int line = __builtin_LINE());

// Every family the response names, as "accelerator (series): fate", for
// failure messages.
std::string DescribeFamilies(const PlanResponse& r);

}  // namespace accelplan::planner::testutil

#endif  // ACCELPLAN_TESTS_PLANNER_TESTING_CODES_H_
