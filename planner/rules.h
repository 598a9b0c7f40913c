// Stage 3: the hard rules one family must pass for a job, each with its
// reason code (SPEC §4), and where and how its shapes can be obtained.
#ifndef ACCELPLAN_PLANNER_RULES_H_
#define ACCELPLAN_PLANNER_RULES_H_

#include <optional>
#include <vector>

#include "catalog/catalog.h"
#include "planner/candidate.h"

namespace accelplan::planner::internal {

// Deployment target, constraints, framework support, numeric formats,
// kernels and ops, end of support: rejections go to cand.codes/why,
// warnings to cand.notes.
void ApplyHardRules(const catalog::Catalog& catalog, const Job& job,
                    const Family& f, Candidate& cand);

// The shapes of a family the request can use: offered on its run platform,
// and of those the ones it can obtain with the provisioning it allows.
struct Offer {
  std::vector<const Shape*> offered;
  std::vector<const Shape*> obtainable;
};
// Rejects NOT_OFFERED_ON_PLATFORM, NOT_AVAILABLE_ON_DEMAND and
// PREEMPTION_RISK when nothing can be obtained.
Offer OfferedShapes(const Job& job, const Family& f, Candidate& cand);

// The provisionings some of `shapes` are offered with that the request
// does not allow ("Spot, DWS flex-start or a reservation"); "" for none.
std::string ProvisioningsNotAllowed(const Job& job,
                                    const std::vector<const Shape*>& shapes);

// Shapes `offered` that no provisioning the request allows can obtain:
// NOT_AVAILABLE_ON_DEMAND (and PREEMPTION_RISK when only an unsafe Spot
// is offered), naming `name` (the family, or a machine type a proposal
// keeps).
void RejectUnobtainable(const Job& job, const std::string& name,
                        const std::vector<const Shape*>& offered,
                        Candidate& cand);

// How a shape is obtained: Spot when allowed and priced (and safe), else
// on-demand when offered, else flex-start / reservation / Spot as allowed;
// nullopt when the request allows nothing that offers it.
std::optional<Provisioning> ProvisioningFor(const Job& job, const Family& f,
                                            const Shape& s);

// Whether the job checkpoints (it says so, or states an interval).
bool JobCheckpoints(const Job& job);

// Whether a shape can be obtained with a provisioning model: not documented
// absent on the request's run platform nor on Compute Engine.
bool ProvisioningOffered(const Job& job, const Family& f, const Shape& s,
                         catalog::Provisioning p);

// ProvisioningFor with Spot left out: on-demand when offered, else
// flex-start or a reservation as the request allows and the shape offers.
std::optional<Provisioning> ProvisioningWithoutSpot(const Job& job,
                                                    const Family& f,
                                                    const Shape& s);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_RULES_H_
