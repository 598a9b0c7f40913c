// Stage 7: a selected point of the candidate space turned into the API's
// Plan, and the lines that explain it.
#ifndef ACCELPLAN_PLANNER_PLAN_ASSEMBLY_H_
#define ACCELPLAN_PLANNER_PLAN_ASSEMBLY_H_

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/candidate.h"
#include "planner/engine_common.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// One line on how a candidate's configuration spends its step
// communicating (link, volume against compute, the Scaling Book threshold).
std::string CommunicationDetail(const Job& job, const Candidate& c);

// IMPLAUSIBLE_ESTIMATE when the expected time is over 10x the deadline, or
// over a year with no deadline given (planner/defaults.h).
std::optional<Reason> ImplausibleEstimate(const Job& job, const Config& c);

// How the point's memory per device was counted (the training method's
// states and the activations); empty where the planner did not size the
// model itself (a stated footprint, classical ML, no model size).
std::string DescribeMemoryModel(const Job& job, const Config& c);

// Hardware / Distribution / Estimates / JobSpec for a viable candidate.
Plan MakePlan(const catalog::Catalog& catalog, const Job& job,
              const Candidate& c, bool with_job_spec);
Hardware MakeHardware(const Candidate& c);

// Source ids -> FactRef with URLs (deduplicated, in order).
std::vector<FactRef> MakeFactRefs(const catalog::Catalog& catalog,
                                  const std::vector<std::string>& ids);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_PLAN_ASSEMBLY_H_
