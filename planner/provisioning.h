// How each point of the candidate space is obtained, judged on its hours
// (SPEC §4 "Offer and availability"):
//  - Spot for a job that does not checkpoint and runs over an hour is
//    PREEMPTION_RISK whatever the deadline (a preemption loses all work):
//    the point falls back on on-demand, flex-start or a reservation when
//    the request and the shape allow one, else it is not obtainable;
//  - Spot for a job that checkpoints adds the expected restart overhead
//    (preemption rate x (half a checkpoint interval + the restart)) to the
//    point's hours and so to its cost;
//  - flex-start runs at most its documented maximum and waits for capacity
//    first; the wait counts against the deadline;
//  - hardware rejected NOT_AVAILABLE_ON_DEMAND says what it would take and
//    cost with each provisioning it needs (evaluated as if allowed).
// Every constant is in planner/policy.h ("provisioning").
#ifndef ACCELPLAN_PLANNER_PROVISIONING_H_
#define ACCELPLAN_PLANNER_PROVISIONING_H_

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/candidate.h"

namespace accelplan::planner::internal {

// SPEC §4: Spot for a job that does not checkpoint and runs longer than
// kPolicy.spot_uncheckpointed_max_hours is PREEMPTION_RISK whatever the
// deadline (a preemption loses all work). `hours` is the job's wall clock;
// its start-up (kPolicy.job_startup_hours) is not work a preemption loses.
// `hours` <= 0: unknown, false.
// The one rule for the planner's points and ReviewPlan's USE_SPOT remedy.
bool SpotLosesWork(const Job& job, double hours);
// What a verdict says when SpotLosesWork holds, after the job's length:
// "and does not checkpoint: a Spot preemption in that time loses all work
// (...)".
std::string SpotLosesWorkClause();

// Expected fraction of its hours a Spot job that checkpoints loses to
// restarts (0 when it does not checkpoint).
double SpotRestartOverhead(const Job& job);

// Re-decides a built point's provisioning from its hours and re-prices it
// (a hook at the end of BuildPoint). Without a data set the hours are
// unknown and the point keeps ProvisioningFor's choice.
void JudgePointProvisioning(const Job& job, const Family& f, Config& c);

// Drops the points no allowed provisioning can run (Config::blocked). When
// none remains the family is rejected with the codes the points carry
// (PREEMPTION_RISK, NOT_AVAILABLE_ON_DEMAND) and the numbers of the fastest
// one on the provisioning it needs.
void KeepObtainable(const Job& job, const Family& f, const Pins& pins,
                    std::vector<Config>& points, Candidate& cand);

// A family rejected NOT_AVAILABLE_ON_DEMAND: marks its candidate for
// DescribeNeededProvisioning with the pins it was evaluated under (FULL
// view only; never inside a what-if).
void MarkProvisioningWhatIf(const Job& job, const Pins& pins, Candidate& cand);

// A marked family whose rejections, once every rule (the relative ones
// included) has run, are NOT_AVAILABLE_ON_DEMAND and at most
// PREEMPTION_RISK: its rejection line gains the time and cost it would give
// with each provisioning it is offered with and the request did not allow,
// evaluated as if that provisioning were allowed. Flex-start and
// reservations are priced at the on-demand list price (the catalog has no
// price for them), which the line states. Any other rejection rejects it
// whatever the provisioning, so it is not searched again. Clears the mark.
void DescribeNeededProvisioning(const catalog::Catalog& catalog, const Job& job,
                                Candidate& cand);

// The notes the selected point's provisioning carries: the Spot restart
// overhead with its assumptions, the flex-start wait and maximum run, the
// list price used for flex-start and reservations.
void AddProvisioningNotes(const Job& job, Candidate& cand);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_PROVISIONING_H_
