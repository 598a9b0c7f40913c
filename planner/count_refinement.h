// Stage 4b: past the dense range, counts are searched on a grid (multiples
// of kPolicy.dense_units); the best grid points are then refined between
// their grid neighbours (every kPolicy.refine_stride-th count, then every
// count beside the best of those), so a plan is not held to a multiple of
// 32 VMs when 50 would be cheaper or faster (the brute-force property test
// measured gaps of 15-28% without it).
#ifndef ACCELPLAN_PLANNER_COUNT_REFINEMENT_H_
#define ACCELPLAN_PLANNER_COUNT_REFINEMENT_H_

#include "absl/functional/function_ref.h"
#include "planner/candidate.h"
#include "planner/scorer.h"

namespace accelplan::planner::internal {

// Adds feasible points between the grid neighbours of the family's two
// best grid points (strided, then beside the best samples) (under the objective
// with the space's normalisation; the fastest when only the assumed deadline is
// missed: cost and time are not unimodal in the count once pipeline depths must
// divide it). Without a data set, the smallest size that holds the job is
// searched below its grid point. Under a budget the search first ignores it (so
// a budget the unbudgeted best meets keeps that best), then, if the best found
// is over it, searches beside the best points within it too; a family rejected
// OVER_BUDGET on the grid is viable again if a count within it is found.
void RefineCounts(const Job& job, const Norm& norm, Candidate& cand);

// The same windows around the family's best grid points that `cap` admits
// (within the budget too), keeping only points `cap` admits: a family
// re-selected under a cost besides the budget (the CPU profile's CPU plan)
// is then refined toward that cap as under a budget, so the size it gets
// does not depend on where an unrelated budget moved its own pick.
void RefineCountsUnder(const Job& job, const Norm& norm, Candidate& cand,
                       absl::FunctionRef<bool(const Config&)> cap);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_COUNT_REFINEMENT_H_
