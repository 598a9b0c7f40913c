#include "client/cli/html.h"

namespace accelplan::cli {

std::string HtmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string PlanHtml(const PlanView& view, const v1::PlanTrainingResponse&) {
  return "<!DOCTYPE html><html><body>" + HtmlEscape(view.verdict) +
         "</body></html>\n";
}

}  // namespace accelplan::cli
