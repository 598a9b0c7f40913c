// The candidate space of one job: every family evaluated, its point
// selected and ranked by the one scorer. PlanTraining, ReviewPlan and the
// savings against the current setup are queries on it.
#ifndef ACCELPLAN_PLANNER_SPACE_H_
#define ACCELPLAN_PLANNER_SPACE_H_

#include <memory>
#include <optional>
#include <vector>

#include "catalog/catalog.h"
#include "planner/candidate.h"
#include "planner/index.h"
#include "planner/planner.h"
#include "planner/scorer.h"

namespace accelplan::planner::internal {

// A family built for one job outside the index (legacy hardware the team
// keeps, planner/legacy.h), with the machine type it may need.
struct OwnedFamily {
  catalog::MachineType machine;
  Family family;
};

struct Space {
  std::vector<Candidate> candidates;  // viable first, in rank order
  Norm norm;                          // the scorer's normalisation
  // Families the candidates point to that the index does not hold.
  std::vector<std::unique_ptr<OwnedFamily>> owned;
  // The best point, when any family is viable.
  const Candidate* best() const {
    return !candidates.empty() && candidates.front().has_point()
               ? &candidates.front()
               : nullptr;
  }
};

// Every family of the index for the job; the current hardware at its
// current size when the team keeps it. nullopt when the call is cancelled.
std::optional<Space> BuildSpace(const catalog::Catalog& catalog,
                                const Index& index, const Job& job,
                                const CallContext& context);

// One family with pins (a reviewed proposal, the current setup) judged in
// the space: its point selected with the space's normalisation, the rules
// that compare candidates applied against the space, and scored. The same
// job on the same hardware gives the same numbers as in the space.
// `compare_families` false skips the rules that compare families (a layout
// judged on the hardware the team already runs).
Candidate EvaluateInSpace(const catalog::Catalog& catalog, const Job& job,
                          const Space& space, const Family& family,
                          const Pins& pins, bool compare_families = true);

// The family a current hardware description names: the one holding its
// machine type, else its accelerator's, else its series' CPU family.
const Family* CurrentFamily(const Index& index, const Job& job);

// Pins that reproduce the current setup's size.
Pins CurrentPins(const Job& job);

// The current setup as it runs: its size, its machine type and its stated
// layout (today's point, planner/current_evidence.h; ReviewPlan's remedies).
Pins CurrentSetupPins(const Job& job);

// Today's Multislice mesh over `slices` slices (ADD_ACCELERATORS): the DCN
// axis that spans today's slices spans the new ones (with both a data and
// an FSDP axis over DCN, data parallelism grows by a whole factor), so more
// slices keep today's layout rather than fall back to a replica per slice.
// Empty: no mesh, no DCN axis, or no whole factor.
std::optional<LayoutPin> MeshOverSlices(const Job& job, int slices);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_SPACE_H_
