// `accelplan plan --output=html`: one self-contained HTML file (no script,
// no external asset) with the verdict, an inline SVG cost–time chart of
// every viable option (the recommendation marked), the deadline and budget
// as lines, the alternatives, the rejections grouped by reason, the
// assumptions and the sources.
#ifndef ACCELPLAN_CLIENT_CLI_HTML_H_
#define ACCELPLAN_CLIENT_CLI_HTML_H_

#include <string>

#include "accelplan/v1/accelplan.pb.h"
#include "client/cli/plan_view.h"

namespace accelplan::cli {

// `&`, `<`, `>`, `"` and `'` as entities.
std::string HtmlEscape(const std::string& text);

std::string PlanHtml(const PlanView& view,
                     const v1::PlanTrainingResponse& response);

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_HTML_H_
