// Stage 4: the sizes a family is searched at (VM counts, TPU slices and
// Multislice counts, within the request's constraints and the policy's
// caps) and one point built at a size: layout, estimates and price.
#ifndef ACCELPLAN_PLANNER_SIZING_H_
#define ACCELPLAN_PLANNER_SIZING_H_

#include <string>
#include <vector>

#include "planner/candidate.h"

namespace accelplan::planner::internal {

struct SizeOption {
  const Shape* shape = nullptr;
  int units = 1;  // VMs of the shape (GPU/CPU) or slices (TPU)
  // How the shape is obtained under the request (rules.h ProvisioningFor).
  Provisioning provisioning = Provisioning::kOnDemand;
};

struct SizeSearch {
  std::vector<SizeOption> options;  // to evaluate, smallest shapes first
  // Sizes the request's constraints excluded, to explain a rejection.
  std::vector<SizeOption> excluded_host;
  std::vector<SizeOption> excluded_max;
  // A size over several VMs for a library that trains on one (scikit-learn)
  // was asked for.
  bool excluded_one_machine = false;
  // The policy's multi-unit sequences (shape, most units): their counts
  // past the dense range are searched on a grid, refined around the best
  // grid point (planner/count_refinement.h).
  std::vector<SizeOption> sequences;
  // The most devices the policy's caps let this family be searched at (0:
  // no multi-unit search); a selected point there says so.
  int policy_cap_devices = 0;
};

// Every size to evaluate for the family (`obtainable`: shapes of f.shapes).
// Returns false when a rule about the pinned sizes rejects the family outright
// (NEEDS_MULTI_HOST_SLICES).
// Across GPU VMs a step needs the network between them: without a figure
// for the shape's machine or the family (Family::inter_vm_bytes_per_s) it
// cannot be timed, and the policy's sequences skip such families.
bool UntimedAcrossVms(const Family& f, const Shape& s);
// " Sizes across VMs are not timed: ..." when the family's fastest point
// is one VM because more cannot be timed: "at best" is then one VM's.
std::string UntimedBeyond(const Candidate& cand, const Config& fastest);

bool EnumerateSizes(const Job& job, const Family& f,
                    const std::vector<const Shape*>& obtainable,
                    const Pins& pins, Candidate& cand, SizeSearch& out);

// One point: the size's layout (its fastest that fits, among those
// `only_layout` allows), estimates and price under the provisioning the
// request allows for that shape.
Config BuildPoint(const Job& job, const Family& f, const SizeOption& o,
                  const LayoutPin& only_layout);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_SIZING_H_
