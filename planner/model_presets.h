// Model presets: `workload.model_name` names a well-known open model of the
// catalog (table `models`), and its published shape fills every workload
// field the request left unset; explicit fields win. The core resolves the
// name before planning, so the planner proper only ever sees sizes.
#ifndef ACCELPLAN_PLANNER_MODEL_PRESETS_H_
#define ACCELPLAN_PLANNER_MODEL_PRESETS_H_

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/types.h"

namespace accelplan::planner {

// A violation on `workload.model_name` when the catalog has no preset of
// that name (case-insensitive), listing up to three close matches.
std::optional<FieldViolation> CheckModelName(const catalog::Catalog& catalog,
                                             const std::string& name);

// Fills the fields of `workload` that are unset (0 / empty / false) from
// the preset `workload->model_name` names; no-op without a name or preset.
// Returns the assumption the plan should state, empty when nothing was
// filled.
std::string ApplyModelPreset(const catalog::Catalog& catalog,
                             Workload* workload);

// `request` itself when it names no model; else a copy in `*resolved` with
// the preset applied, and its assumption in `*assumption`.
template <typename Request>
const Request& WithModelPreset(const catalog::Catalog& catalog,
                               const Request& request, Request* resolved,
                               std::string* assumption) {
  if (request.workload.model_name.empty()) return request;
  *resolved = request;
  *assumption = ApplyModelPreset(catalog, &resolved->workload);
  return *resolved;
}

// Every preset, for ListAccelerators' models section.
std::vector<ModelInfo> ListModelPresets(const catalog::Catalog& catalog);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_MODEL_PRESETS_H_
