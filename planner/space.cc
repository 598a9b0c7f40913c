// The candidate space of one job, and families judged inside it.
#include "planner/space.h"

#include <algorithm>
#include <utility>

#include "planner/count_refinement.h"
#include "planner/legacy.h"
#include "planner/provisioning.h"

namespace accelplan::planner::internal {
namespace {

bool KeepsFamily(const Job& job, const Family& f) {
  if (!job.constraints.keep_current_hardware) return false;
  if (job.current_accelerator != nullptr) return f.accelerator == job.current_accelerator;
  return job.current_series != nullptr && f.series == job.current_series;
}

// A mesh of today's strategy as a proposal's degrees are read (PinOf), but
// taken as the team runs it: not a proposal (plain data parallelism, no
// ZeRO-1).
LayoutPin TodaysMeshPin(const Job& job, const MultisliceMesh& mesh) {
  DistributionProposal stated;
  stated.strategy = job.current.strategy;
  stated.mesh = mesh;
  LayoutPin pin = PinOf(stated);
  pin.proposed = false;
  return pin;
}

}  // namespace

Pins CurrentPins(const Job& job) {
  Pins pins;
  pins.devices = job.current.tpu_topology.empty() ? job.current_devices : 0;
  pins.topology = job.current.tpu_topology;
  pins.slices = job.current.slice_count;
  return pins;
}

Pins CurrentSetupPins(const Job& job) {
  Pins pins = CurrentPins(job);
  if (job.current_machine != nullptr) {
    pins.machine_type = job.current_machine->id;
  }
  pins.layout = job.current.strategy;
  // Today's Multislice mesh states its degrees (FSDP over DCN shards over
  // every chip, not a replica per slice).
  if (job.current.mesh) pins.layout = TodaysMeshPin(job, *job.current.mesh);
  return pins;
}

std::optional<LayoutPin> MeshOverSlices(const Job& job, int slices) {
  const int today = job.current.slice_count;
  if (!job.current.mesh || slices <= 0 || today <= 0) return std::nullopt;
  MultisliceMesh mesh = *job.current.mesh;
  int32_t& data = mesh.dcn_data_parallelism;
  int32_t& fsdp = mesh.dcn_fsdp_parallelism;
  if (data > 1 && fsdp > 1) {
    // Both span the slices: data parallelism grows, by a whole factor.
    if (slices % today != 0) return std::nullopt;
    data *= slices / today;
  } else if (data > 1 || fsdp > 1) {
    (data > 1 ? data : fsdp) = slices;  // the one axis over the slices
  } else {
    return std::nullopt;
  }
  return TodaysMeshPin(job, mesh);
}

const Family* CurrentFamily(const Index& index, const Job& job) {
  if (job.current_machine != nullptr) {
    for (const Family& f : index.families) {
      for (const Shape& s : f.shapes) {
        if (s.machine == job.current_machine) return &f;
      }
    }
  }
  for (const Family& f : index.families) {
    if ((job.current_accelerator != nullptr &&
         f.accelerator == job.current_accelerator) ||
        (job.current_accelerator == nullptr && job.current_series != nullptr &&
         f.series == job.current_series && f.accelerator == nullptr)) {
      return &f;
    }
  }
  return nullptr;
}

std::optional<Space> BuildSpace(const catalog::Catalog& catalog,
                                const Index& index, const Job& job,
                                const CallContext& context) {
  Space space;
  space.candidates.reserve(index.families.size());
  for (const Family& f : index.families) {
    if (context.Cancelled()) return std::nullopt;
    if (!KeepsFamily(job, f)) {
      space.candidates.push_back(EvaluateFamily(catalog, job, f));
      continue;
    }
    // The hardware kept is today's machine type where today names one (a
    // family can hold several VM shapes of its accelerator).
    Pins kept = CurrentPins(job);
    Pins any_size;
    if (job.current_machine != nullptr &&
        std::any_of(f.shapes.begin(), f.shapes.end(), [&](const Shape& s) {
          return s.machine == job.current_machine;
        })) {
      kept.machine_type = any_size.machine_type = job.current_machine->id;
    }
    Candidate c = EvaluateFamily(catalog, job, f, kept);
    if (!c.viable() && job.current_devices > 0) {
      // The pinned size is what it is; fall back on the family's own sizing
      // of that hardware so the plan still says what it can do.
      Candidate free = EvaluateFamily(catalog, job, f, any_size);
      if (free.viable()) c = std::move(free);
    }
    AddLegacyNote(job, c);  // past its end of support: kept, with a warning
    space.candidates.push_back(std::move(c));
  }
  // Legacy hardware the index leaves out, when the team keeps it.
  if (std::unique_ptr<OwnedFamily> legacy = BuildKeptLegacyFamily(catalog, job)) {
    space.candidates.push_back(EvaluateKeptLegacy(catalog, job, legacy->family));
    space.owned.push_back(std::move(legacy));
  }
  space.norm = RankCandidates(job, space.candidates);
  // After every rule has run: a family another rule rejects is not searched
  // again under each provisioning.
  for (Candidate& c : space.candidates) {
    if (context.Cancelled()) return std::nullopt;
    DescribeNeededProvisioning(catalog, job, c);
  }
  return space;
}

Candidate EvaluateInSpace(const catalog::Catalog& catalog, const Job& job,
                          const Space& space, const Family& family,
                          const Pins& pins, bool compare_families) {
  Candidate c = EvaluateFamily(catalog, job, family, pins);
  RefineCounts(job, space.norm, c);
  SelectPoint(job, space.norm, c);
  if (compare_families)
    ApplyRelativeRules(job, space.norm, space.candidates, {&c});
  if (c.viable() && c.config) {
    ScoreCandidate(job, space.norm, c);
  }
  DescribeNeededProvisioning(catalog, job, c);
  return c;
}

}  // namespace accelplan::planner::internal
