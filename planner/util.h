// Small pure helpers shared by the planner's parts.
#ifndef ACCELPLAN_PLANNER_UTIL_H_
#define ACCELPLAN_PLANNER_UTIL_H_

#include <optional>
#include <string>
#include <string_view>
#include "absl/strings/string_view.h"

namespace accelplan::planner {

inline constexpr double kGiB = 1073741824.0;  // 2^30

// Days since 1970-01-01 for a YYYY-MM-DD date; nullopt when malformed.
std::optional<int> ParseDate(absl::string_view date);

// Chips in a TPU topology "AxB" or "AxBxC"; 0 when malformed.
int TopologyChips(absl::string_view topology);

// Layers of a dense transformer of `params` parameters at the assumed
// aspect ratio (width kDefaults.hidden_per_layer x layers, 12·L·h²
// parameters): the shape assumed for a model given by its size alone.
int LayersAtAssumedAspectRatio(double params);

// Whether two TPU topologies are the same slice ("8x16" and "8X16" are).
bool SameTopology(absl::string_view a, absl::string_view b);

// Compares dotted versions numerically ("2.15" vs "2.9"): <0, 0, >0.
// Non-numeric suffixes ("0.8.1.dev2025") compare by their numeric prefix.
int CompareVersions(absl::string_view a, absl::string_view b);

// Lower-case with spaces, dashes, underscores and dots removed, and the
// vendor words "nvidia" and "tesla" dropped: "TPU v5e" -> "tpuv5e",
// "nvidia-tesla-t4" -> "t4".
std::string NormalizeName(absl::string_view name);

// Appends `value` to `out` as a JSON string literal (quotes included),
// escaping quotes, backslashes and control characters.
void AppendJsonString(std::string_view value, std::string* out);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_UTIL_H_
