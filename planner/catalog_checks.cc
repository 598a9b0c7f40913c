// Request checks that need the catalog: the core runs them after the
// catalog-free validation (planner/validate.cc) and answers INVALID_ARGUMENT
// with these field violations, so the planner never silently drops a
// constraint it cannot honour.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "planner/engine.h"
#include "planner/limits.h"
#include "planner/model_presets.h"
#include "planner/planner.h"
#include "planner/util.h"

namespace accelplan::planner {
namespace {

// At most limits::kMaxEchoedChars characters of `v`, cut on a character
// boundary, with "..." when cut (as validate.cc quotes bad values).
std::string Echo(const std::string& v) {
  size_t chars = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if ((static_cast<unsigned char>(v[i]) & 0xC0) == 0x80) continue;
    if (chars == static_cast<size_t>(limits::kMaxEchoedChars)) {
      return absl::StrCat(v.substr(0, i), "...");
    }
    ++chars;
  }
  return v;
}

// Accelerators per VM of the machine type named `hardware` when they are
// part of it (A2, A3, A4, G2, G4: the name fixes the count); nullopt for a
// name whose GPUs are attached to a general-purpose VM (N1: the catalog's
// "+NxGPU" rows are a few of the attachments Google allows), for a TPU VM
// (its slice shape sizes it) or a name of no such machine type.
std::optional<int> BuiltInAcceleratorsPerVm(const catalog::Catalog& catalog,
                                            const std::string& hardware) {
  const std::string want = NormalizeName(hardware);
  for (const catalog::MachineType& mt : catalog.machine_types) {
    if (NormalizeName(mt.gce_machine_type) != want &&
        NormalizeName(mt.id) != want) {
      continue;
    }
    const catalog::Accelerator* acc =
        catalog.FindAccelerator(mt.accelerator_id);
    if (mt.accelerator_count <= 0 || (acc && !acc->topologies.empty()) ||
        NormalizeName(mt.id) != NormalizeName(mt.gce_machine_type)) {
      return std::nullopt;  // CPU, TPU (its slice shape sizes it) or N1
    }
    return mt.accelerator_count;
  }
  return std::nullopt;
}

// A per-node count the named machine type cannot have ("a3-highgpu-8g"
// with 12): the job as stated does not exist, so it cannot be measured.
// Not for TPUs: their slice shape, not a per-node count, sizes them.
void CheckAcceleratorsPerNode(const catalog::Catalog& catalog,
                              const CurrentSetup& cur,
                              std::vector<FieldViolation>& out) {
  if (cur.accelerator_count <= 0 || !cur.tpu_topology.empty() ||
      !cur.slice_topologies.empty()) {
    return;
  }
  const std::optional<int> per_vm =
      BuiltInAcceleratorsPerVm(catalog, cur.hardware);
  if (!per_vm || *per_vm == cur.accelerator_count) return;
  out.push_back(
      {"current_setup.accelerator_count",
       absl::StrCat("is ", cur.accelerator_count, ", but ", Echo(cur.hardware),
                    " has ", *per_vm, " per VM")});
}

// A slice shape the current TPU does not have ("3x3" on v5e), with the
// shape meant when only the order of its dimensions differs.
std::optional<std::string> NotASliceShape(const catalog::Accelerator& acc,
                                          const std::string& stated) {
  // Validation reads a shape with spaces around it as the shape.
  const std::string topology(absl::StripAsciiWhitespace(stated));
  if (topology.empty() || acc.topologies.empty()) return std::nullopt;
  const auto dims = [](absl::string_view t) {
    std::vector<std::string> d = absl::StrSplit(absl::AsciiStrToLower(t), 'x');
    std::sort(d.begin(), d.end());
    return d;
  };
  for (const catalog::TpuTopology& t : acc.topologies) {
    if (SameTopology(t.topology, topology)) return std::nullopt;
  }
  for (const catalog::TpuTopology& t : acc.topologies) {
    if (dims(t.topology) == dims(topology)) {
      return absl::StrCat("\"", Echo(topology), "\" is written \"", t.topology,
                          "\" for ", acc.name);
    }
  }
  // Violation details are short (api/errors.h): name where the list is.
  return absl::StrCat("\"", Echo(topology), "\" is not a ", acc.name,
                      " slice shape (ListAccelerators lists them)");
}

void CheckSliceShapes(const catalog::Catalog& catalog, const CurrentSetup& cur,
                      std::vector<FieldViolation>& out) {
  const internal::CurrentHardware hw =
      internal::ResolveCurrentHardware(catalog, cur.hardware);
  if (hw.accelerator == nullptr) return;
  if (auto bad = NotASliceShape(*hw.accelerator, cur.tpu_topology)) {
    out.push_back({"current_setup.tpu_topology", *std::move(bad)});
  }
  for (size_t i = 0; i < cur.slice_topologies.size(); ++i) {
    if (auto bad = NotASliceShape(*hw.accelerator, cur.slice_topologies[i])) {
      out.push_back({absl::StrCat("current_setup.slice_topologies[", i, "]"),
                     *std::move(bad)});
      return;  // one is enough to say what is wrong
    }
  }
}

}  // namespace

std::vector<FieldViolation> Planner::CheckAgainstCatalog(
    const Workload& workload, const Constraints& constraints,
    const CurrentSetup& current_setup) const {
  std::vector<FieldViolation> out;
  // A model preset the catalog does not have, with the closest names.
  if (auto v = CheckModelName(*catalog_, workload.model_name)) {
    out.push_back(*std::move(v));
  }
  // Keeping the current hardware pins every candidate to it: without a
  // current hardware the catalog knows there is nothing to pin to.
  if (constraints.keep_current_hardware) {
    if (current_setup.hardware.empty()) {
      out.push_back(
          {"constraints.keep_current_hardware",
           "is set but current_setup.hardware is empty: name the machine "
           "type, accelerator or series to keep"});
    } else if (!internal::ResolveCurrentHardware(*catalog_,
                                                 current_setup.hardware)
                    .known()) {
      out.push_back({"constraints.keep_current_hardware",
                     absl::StrCat("is set but current_setup.hardware \"",
                                  Echo(current_setup.hardware),
                                  "\" is not in the catalog (no machine type, "
                                  "accelerator or series of that name)")});
    }
  }
  // A CNN (stated, or its preset's kind) counts its work in examples: a
  // token count would time it as a sequence model of assumed-length
  // sequences.
  if (workload.dataset_tokens > 0) {
    Workload resolved = workload;  // copied only for this case
    ApplyModelPreset(*catalog_, &resolved);
    if (resolved.model_kind == ModelKind::kCnn) {
      out.push_back({"workload.dataset_tokens",
                     "a CNN's work is counted in examples (images): give "
                     "dataset_examples instead of tokens"});
    }
  }
  // A top-k past the preset's experts (validate.cc checks a stated count).
  if (workload.experts_per_token > 0 && workload.num_experts == 0 &&
      !workload.model_name.empty()) {
    const catalog::ModelPreset* m = catalog_->FindModel(workload.model_name);
    if (m != nullptr && m->experts &&
        workload.experts_per_token > *m->experts) {
      out.push_back({"workload.experts_per_token",
                     absl::StrCat("must not exceed the ", *m->experts,
                                  " experts of model preset \"", m->id, "\"")});
    }
  }
  // A current setup the catalog says cannot exist.
  CheckAcceleratorsPerNode(*catalog_, current_setup, out);
  CheckSliceShapes(*catalog_, current_setup, out);
  return out;
}

}  // namespace accelplan::planner
