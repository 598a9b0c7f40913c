// Legacy hardware the team keeps (keep_current_hardware on an accelerator
// the catalog marks legacy, or whose end of support is past at as_of): it
// is evaluated from its catalog facts with a LEGACY_HARDWARE warning, and a
// MOVE_TO_HARDWARE remedy states what the best other plan saves against it
// (issue 15 item 6). Never "no viable plan" merely because it is legacy.
#ifndef ACCELPLAN_PLANNER_LEGACY_H_
#define ACCELPLAN_PLANNER_LEGACY_H_

#include <memory>
#include <optional>

#include "catalog/catalog.h"
#include "planner/candidate.h"
#include "planner/planner.h"
#include "planner/space.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// The team keeps its current accelerator and the catalog marks it legacy,
// or its end of support is past at as_of.
bool KeepsLegacyHardware(const Job& job);

// The family of a kept accelerator the index leaves out (legacy rows are
// never candidates otherwise): its machine types or TPU topologies when the
// catalog has them, else one shape of the current setup's size. nullptr
// when the job keeps no such accelerator.
std::unique_ptr<OwnedFamily> BuildKeptLegacyFamily(
    const catalog::Catalog& catalog, const Job& job);

// The kept legacy family evaluated at the current size (else its own
// sizing) from its facts. When the catalog lacks the facts to size or time
// it (device memory, a peak at the job's precision), the candidate is the
// current setup as it runs today, with unknown time and cost, saying so.
// Carries the LEGACY_HARDWARE note.
Candidate EvaluateKeptLegacy(const catalog::Catalog& catalog, const Job& job,
                             const Family& family);

// The LEGACY_HARDWARE note of a kept legacy candidate.
void AddLegacyNote(const Job& job, Candidate& cand);

// MOVE_TO_HARDWARE: the best plan without the pin against the kept legacy
// setup in `space`, with the savings when both are priced. nullopt when the
// job keeps no legacy hardware or nothing else is viable.
std::optional<Remedy> MoveOffLegacyRemedy(const catalog::Catalog& catalog,
                                          const Index& index, const Job& job,
                                          const CallContext& context,
                                          const Space& space);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_LEGACY_H_
