// Human units for the CLI's table and HTML output: minutes, hours, days;
// $1,234 and $12.3k; 13.6k and 2B. Unknown figures (0, negative, NaN, inf)
// are never printed: callers test Known() first.
#ifndef ACCELPLAN_CLIENT_CLI_UNITS_H_
#define ACCELPLAN_CLIENT_CLI_UNITS_H_

#include <string>

#include "absl/strings/string_view.h"

namespace accelplan::cli {

// A figure the planner actually estimated: finite and above zero.
bool Known(double value);

// 0.75 → "45 min", 4.08 → "4.1 h", 80.7 → "3.4 days", 9000 → "1.0 years".
std::string HumanHours(double hours);
// 0.163 → "$0.16", 32.7 → "$33", 4321 → "$4,321", 12345 → "$12.3k",
// 2.5e6 → "$2.5M".
std::string HumanUsd(double usd);
// 950 → "950", 13612 → "13.6k", 2e8 → "200M", 2e10 → "20B", 1.5e12 → "1.5T".
std::string HumanCount(double value);
// "×5.2" style ratios: 5.23 → "5.2×", 12.4 → "12×".
std::string HumanRatio(double ratio);

// `text` cut to `width` characters (UTF-8 aware), ending in "…" when cut.
std::string Clip(absl::string_view text, size_t width);
// Display width of UTF-8 text (code points).
size_t DisplayWidth(absl::string_view text);

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_UNITS_H_
