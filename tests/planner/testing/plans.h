// Plan requests and responses in tests: a request for a workload, every
// plan a response lists, and whether a list of lines (assumptions,
// warnings) mentions a phrase.
#ifndef ACCELPLAN_TESTS_PLANNER_TESTING_PLANS_H_
#define ACCELPLAN_TESTS_PLANNER_TESTING_PLANS_H_

#include <string>
#include <vector>

#include "planner/types.h"

namespace accelplan::planner::testutil {

// A plan request for `w` under `objective`, on the catalog's date.
inline PlanRequest RequestFor(const Workload& w, Objective objective) {
  PlanRequest r;
  r.workload = w;
  r.goal.objective = objective;
  r.as_of = "2026-09-26";
  return r;
}

// The plan request of a review's job: its workload, goal, constraints,
// today's setup and date, without the proposals.
inline PlanRequest PlanOf(const ReviewRequest& r) {
  PlanRequest q;
  q.workload = r.workload;
  q.goal = r.goal;
  q.constraints = r.constraints;
  q.current_setup = r.current_setup;
  q.as_of = r.as_of;
  return q;
}

// The recommendation (when there is one), then the alternatives.
inline std::vector<const Plan*> AllPlans(const PlanResponse& r) {
  std::vector<const Plan*> out;
  if (r.recommendation) out.push_back(&*r.recommendation);
  for (const Plan& p : r.alternatives) out.push_back(&p);
  return out;
}

inline bool Mentions(const std::vector<std::string>& lines,
                     const std::string& phrase) {
  for (const std::string& l : lines) {
    if (l.find(phrase) != std::string::npos) return true;
  }
  return false;
}

}  // namespace accelplan::planner::testutil

#endif  // ACCELPLAN_TESTS_PLANNER_TESTING_PLANS_H_
