// Legacy hardware the team keeps (planner/legacy.h).
#include "planner/legacy.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

using catalog::Accelerator;

bool EndOfSupportPast(const Job& job, const Accelerator& acc) {
  if (!acc.end_of_support.has_value()) return false;
  const auto eos = ParseDate(*acc.end_of_support);
  return eos.has_value() && job.as_of_days >= *eos;
}

// Accelerators per node of the current setup (at least one).
int CurrentPerNode(const Job& job) {
  if (job.current.accelerator_count > 0) return job.current.accelerator_count;
  return std::max(1, job.current_devices / std::max(1, job.current.node_count));
}

// The catalog's shapes of a legacy accelerator: its machine types (GPU) or
// slice topologies (TPU), priced as the index prices them.
void AddCatalogShapes(const catalog::Catalog& catalog, Family& f) {
  const Accelerator& acc = *f.accelerator;
  if (f.platform == Platform::kTpu) {
    for (const catalog::TpuTopology& t : acc.topologies) {
      const catalog::MachineType* mt = catalog.FindMachineType(t.machine_type_id);
      if (mt == nullptr) continue;
      Shape s;
      s.machine = mt;
      s.topology = &t;
      s.devices = t.chips;
      s.vms = t.vms;
      PriceShape(s, acc.chip_price, t.chips);
      f.shapes.push_back(s);
    }
    return;
  }
  for (const catalog::MachineType& mt : catalog.machine_types) {
    if (mt.accelerator_id != acc.id || mt.accelerator_count <= 0) continue;
    Shape s;
    s.machine = &mt;
    s.devices = mt.accelerator_count;
    PriceShape(s, mt.price, 1.0);
    f.shapes.push_back(s);
  }
}

// "8 x NVIDIA K80 (n1-standard-8)"
std::string SetupLine(const Candidate& c) {
  const Config& k = *c.config;
  const std::string mt =
      k.shape && k.shape->machine ? k.shape->machine->gce_machine_type : "";
  return absl::StrCat(k.devices, " x ", c.family->name,
                      mt.empty() ? "" : absl::StrCat(" (", mt, ")"));
}

std::string Numbers(const Job& job, const Config& k) {
  if (!job.has_dataset) return "no data set, so no total time or cost";
  if (!k.price_known) return absl::StrCat(FormatHours(k.hours.expected), ", no price");
  return absl::StrCat(FormatHours(k.hours.expected), " for ",
                      FormatUsd(k.cost.expected));
}

}  // namespace

bool KeepsLegacyHardware(const Job& job) {
  const Accelerator* acc = job.current_accelerator;
  return job.constraints.keep_current_hardware && acc != nullptr &&
         (acc->legacy || EndOfSupportPast(job, *acc));
}

std::unique_ptr<OwnedFamily> BuildKeptLegacyFamily(
    const catalog::Catalog& catalog, const Job& job) {
  if (!KeepsLegacyHardware(job) || !job.current_accelerator->legacy) {
    return nullptr;  // not legacy-flagged: the index holds its family
  }
  const Accelerator& acc = *job.current_accelerator;
  const catalog::Series* series = catalog.FindSeries(acc.series_id);
  if (series == nullptr) return nullptr;
  auto owned = std::make_unique<OwnedFamily>();
  Family& f = owned->family;
  f.series = series;
  f.accelerator = &acc;
  f.platform = ToPlatform(acc.platform);
  f.name = acc.name;
  AddCatalogShapes(catalog, f);
  if (f.shapes.empty()) {
    // A row kept only to name current setups: one shape of today's size.
    catalog::MachineType& m = owned->machine;
    m.id = job.current.hardware;
    m.gce_machine_type =
        job.current_machine != nullptr ? job.current_machine->gce_machine_type : "";
    m.series_id = series->id;
    m.accelerator_id = acc.id;
    m.accelerator_count = CurrentPerNode(job);
    m.source_id = acc.source_id;
    Shape s;
    s.machine = &m;
    s.devices = f.platform == Platform::kTpu ? std::max(1, job.current_devices)
                                             : m.accelerator_count;
    s.vms = f.platform == Platform::kTpu ? std::max(1, job.current.node_count) : 1;
    f.shapes.push_back(s);
  }
  FinishFamily(f);
  FinishFamilyKeys(f);
  return owned;
}

Candidate EvaluateKeptLegacy(const catalog::Catalog& catalog, const Job& job,
                             const Family& f) {
  const Shape& first = f.shapes.front();
  const bool memory_known = f.device_memory_bytes > 0;
  const bool peak_known =
      PeakFlops(f, first, job.precision, Fp32RunsAsTf32(job.workload), nullptr,
                nullptr) > 0;
  if (memory_known && peak_known) {
    Pins pins = CurrentPins(job);
    if (first.topology == nullptr) pins.topology.clear();
    Candidate c = EvaluateFamily(catalog, job, f, pins);
    if (!c.viable() && job.current_devices > 0) {
      Candidate free = EvaluateFamily(catalog, job, f);
      if (free.viable()) c = std::move(free);
    }
    AddLegacyNote(job, c);
    return c;
  }
  // Nothing to size or time it with: the setup as it runs today.
  Candidate c;
  c.family = &f;
  Config k;
  k.shape = &first;
  k.units = std::max(1, (job.current_devices + first.devices - 1) /
                            std::max(1, first.devices));
  k.devices = std::max(first.devices * k.units, job.current_devices);
  k.hosts = first.vms * k.units;
  k.fits = true;
  Price(job, k, Provisioning::kOnDemand);
  c.points.push_back(k);
  c.smallest_obtainable_devices = first.devices;
  c.notes.push_back(
      {ReasonCode::kAssumption,
       absl::StrCat("The catalog keeps ", f.name, " as a row without ",
                    memory_known ? "" : "device memory",
                    !memory_known && !peak_known ? " or " : "",
                    peak_known ? "" : absl::StrCat(PrecisionLabel(job.precision),
                                                   " throughput"),
                    " facts: the plan keeps the team's setup as it runs "
                    "today, and its fit, time and cost cannot be estimated.")});
  AddLegacyNote(job, c);
  return c;
}

void AddLegacyNote(const Job& job, Candidate& cand) {
  const Accelerator* acc = cand.family->accelerator;
  if (acc == nullptr || !KeepsLegacyHardware(job)) return;
  const std::string what =
      acc->legacy ? "is legacy hardware in the catalog"
                  : absl::StrCat("reached end of support on ", *acc->end_of_support);
  cand.notes.push_back(
      {ReasonCode::kLegacyHardware,
       absl::StrCat(cand.family->name, " ", what,
                    ": planned because the team keeps its current hardware; "
                    "the MOVE_TO_HARDWARE remedy says what moving would "
                    "save.")});
}

std::optional<Remedy> MoveOffLegacyRemedy(const catalog::Catalog& catalog,
                                          const Index& index, const Job& job,
                                          const CallContext& context,
                                          const Space& space) {
  if (!KeepsLegacyHardware(job)) return std::nullopt;
  Job free = job;
  free.constraints.keep_current_hardware = false;
  const std::optional<Space> other = BuildSpace(catalog, index, free, context);
  const Candidate* best = other ? other->best() : nullptr;
  if (best == nullptr) return std::nullopt;
  const Candidate* kept = nullptr;
  for (const Candidate& c : space.candidates) {
    if (c.viable() && c.config && c.family->accelerator == job.current_accelerator) {
      kept = &c;
      break;
    }
  }
  const Config& b = *best->config;
  Remedy r;
  r.kind = RemedyKind::kMoveToHardware;
  r.summary = absl::StrCat("Move off ", job.current_accelerator->name, " to ",
                           SetupLine(*best), ": ", Numbers(job, b));
  if (kept != nullptr && job.has_dataset && kept->config->price_known &&
      b.price_known) {
    const Config& k = *kept->config;
    absl::StrAppend(
        &r.summary,
        absl::StrFormat(", against %s for the kept %s: saves %s and %s.",
                        Numbers(job, k), SetupLine(*kept),
                        FormatUsd(k.cost.expected - b.cost.expected),
                        FormatHours(k.hours.expected - b.hours.expected)));
  } else {
    absl::StrAppend(&r.summary,
                    "; the kept setup's cost is unknown (the catalog lacks "
                    "its facts or price), so the saving cannot be stated.");
  }
  return r;
}

}  // namespace accelplan::planner::internal
