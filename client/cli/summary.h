// The one-screen answer of `accelplan plan --output=table`: at most
// kSummaryMaxLines lines of at most kSummaryMaxColumns columns (the launch
// command is never cut). `--verbose` prints PlanTable (table.h) instead.
#ifndef ACCELPLAN_CLIENT_CLI_SUMMARY_H_
#define ACCELPLAN_CLIENT_CLI_SUMMARY_H_

#include <string>

#include "client/cli/plan_view.h"

namespace accelplan::cli {

inline constexpr int kSummaryMaxLines = 30;
inline constexpr int kSummaryMaxColumns = 120;

// Line 1 the verdict; the viable options with what each wins and loses;
// rejections grouped by reason, one line per reason naming the families;
// remedies, warnings and assumptions that change the answer; the job-spec
// note; the catalog; the launch command last.
std::string PlanSummary(const PlanView& view);

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_SUMMARY_H_
