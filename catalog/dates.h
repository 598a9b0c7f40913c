// Calendar-date checks shared by the loader and the build-time invariants.
#ifndef ACCELPLAN_CATALOG_DATES_H_
#define ACCELPLAN_CATALOG_DATES_H_

#include "absl/strings/string_view.h"

namespace accelplan::catalog {

// True when `s` is YYYY-MM-DD and names a day that exists (leap years
// included). The shape alone would accept 2026-13-45, which every date
// comparison downstream would then misread.
bool IsCalendarDate(absl::string_view s);

}  // namespace accelplan::catalog

#endif  // ACCELPLAN_CATALOG_DATES_H_
