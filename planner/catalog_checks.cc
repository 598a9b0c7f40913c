// Request checks that need the catalog: the core runs them after the
// catalog-free validation (planner/validate.cc) and answers INVALID_ARGUMENT
// with these field violations, so the planner never silently drops a
// constraint it cannot honour.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "planner/engine.h"
#include "planner/limits.h"
#include "planner/model_presets.h"
#include "planner/planner.h"

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
  return out;
}

}  // namespace accelplan::planner
