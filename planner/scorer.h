// Stage 6: the one scorer. MIN_COST, MIN_TIME and BALANCED are one function
// over the candidate space (every policy constant in planner/policy.h); it
// selects each family's point and ranks the families, and ReviewPlan's
// verdicts use the same function, so no other ranking code exists.
#ifndef ACCELPLAN_PLANNER_SCORER_H_
#define ACCELPLAN_PLANNER_SCORER_H_

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "planner/candidate.h"

namespace accelplan::planner::internal {

// What the objective measures of a point: with a data set, the expected
// total cost and hours; without one, cost and time per unit of work.
// Infinity when unknown (no price, no throughput).
double CostMetric(const Job& job, const Config& c);
double TimeMetric(const Job& job, const Config& c);
// The point's data-parallel ranks: the replicas its batch is split over.
int DataParallelRanks(const Config& c);
// Past the deadline (the stated one, or the one MIN_COST assumes); a
// flex-start point waits for capacity before it runs.
bool LateForDeadline(const Job& job, const Config& c);
// " At 960 devices it would take 23.0 h, with a global batch of at least
// 960 sequences (...)": what the size an assumed batch held back would give
// (Candidate::held_back_in_time), for a MISSES_DEADLINE line; "" without.
std::string HeldBackInTime(const Job& job, const Candidate& cand);
// The same two measures as a verdict or note states them: "7.8 h, $31"
// with a data set, else throughput and cost per million units of work.
std::string MetricsText(const Job& job, const Config& c);
// The objective's API name: "MIN_COST" (also for an unset one), "MIN_TIME",
// "BALANCED".
const char* ObjectiveLabel(Objective o);
// "Takes A vs B.": each point's hours, a flex-start wait for capacity
// added and named (TimeMetric counts it), with enough digits that two
// different times never read the same.
std::string TakesText(const Config& a, const Config& b);

// BALANCED normalises by the cheapest and the fastest point of the whole
// space, so a point's score never depends on which family it belongs to.
struct Norm {
  double min_cost;
  double min_time;
  // MIN_TIME's band (equal_time_fraction) is taken from the fastest priced
  // point: an unpriced one ranks after every priced one (SPEC §4), so it
  // must not decide which priced points are as fast as the fastest.
  double min_priced_time;
};
Norm NormOver(const Job& job, const std::vector<Candidate>& space);
// Folds a viable candidate's points into `n` (a reviewed proposal's, which
// the space need not hold).
void WidenNorm(const Job& job, const Candidate& c, Norm& n);
// The time up to which MIN_TIME counts a point as fast as the fastest
// priced point (else the fastest) of the space; NaN when there is none.
double EqualTimeBand(const Norm& norm);

// The objective's value of a point (lower is better); `keep` scales its
// time and cost (1 - its exposed communication fraction: what it would
// score without that communication).
double Score(const Job& job, const Norm& norm, const Config& c,
             double keep = 1);

// A family's score (the objective's value) and its score without exposed
// communication, set on its selected point. (Families that miss the
// assumed deadline rank among themselves by time: RanksBefore.)
void ScoreCandidate(const Job& job, const Norm& norm, Candidate& c);

// Selects the candidate's point: the best score among its feasible points
// (ties, within the policy's tolerance, to the fewest devices); one that
// misses only the assumed deadline takes its fastest point. Sets config,
// provisioning, score and the notes that depend on the point.
void SelectPoint(const Job& job, const Norm& norm, Candidate& cand);

// Selects the candidate's point again among the feasible points `eligible`
// admits (a relative rule that rules out some of a family's sizes, not the
// family): the notes of the earlier selection are replaced. False, and
// nothing changed, when no point is eligible.
bool ReselectPoint(const Job& job, const Norm& norm, Candidate& cand,
                   absl::FunctionRef<bool(const Config&)> eligible);

// The ranking order of two viable candidates: tiers (no price, missed
// assumed deadline, workload fit), then the score, then ties (end of
// support soon, Google's workload list, preview, name).
bool RanksBefore(const Job& job, const Candidate& a, const Candidate& b);

// What point `a` wins against `b`, which ranks before it: CHEAPER and
// FASTER with the numbers (an option that loses on the objective can still
// win on the other measure; PlanTraining's alternatives, ReviewPlan's
// verdicts).
void WhatItWins(const Job& job, const Config& a, const Config& b,
                std::vector<Reason>& out);

// The rules that compare candidates (CPU profile, embedding-dominated
// work, oversized shapes, Google's per-workload GPU lists), applied to the
// candidates pointed to, judged against `field` (the whole space).
void ApplyRelativeRules(const Job& job, const Norm& norm,
                        const std::vector<Candidate>& field,
                        const std::vector<Candidate*>& judged);

// The whole space ranked: points selected, relative rules applied, viable
// candidates first in RanksBefore order, rejected ones by name. Returns the
// normalisation used, for judging more candidates in the same space.
Norm RankCandidates(const Job& job, std::vector<Candidate>& candidates);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_SCORER_H_
