#include "client/cli/html.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/cli/units.h"

namespace accelplan::cli {
namespace {

// Chart geometry (SVG user units): the plot area inside the margins.
constexpr double kWidth = 760, kHeight = 440;
constexpr double kLeft = 80, kRight = 30, kTop = 30, kBottom = 60;
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

constexpr char kStyle[] = R"(
body{font:15px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1000px;
color:#1b1f24;padding:0 16px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:17px;margin:24px 0 8px}
.details{color:#57606a;margin:0 0 12px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #d0d7de}
td.num,th.num{text-align:right;white-space:nowrap}
tr.recommended{background:#dafbe1;font-weight:600}
pre{background:#f6f8fa;padding:8px;overflow-x:auto}
.axis{stroke:#57606a;stroke-width:1}
.grid{stroke:#eaeef2;stroke-width:1}
.tick{font-size:12px;fill:#57606a}
.point{fill:#0969da;fill-opacity:.75;stroke:#fff;stroke-width:1.5}
.point.recommended{fill:#1a7f37;fill-opacity:1}
#recommended-marker circle{fill:none;stroke:#1a7f37;stroke-width:3}
#recommended-marker text{font-size:13px;font-weight:600;fill:#1a7f37}
.label{font-size:11px;fill:#24292f}
.deadline{stroke:#cf222e;stroke-width:2;stroke-dasharray:6 4}
.budget{stroke:#9a6700;stroke-width:2;stroke-dasharray:6 4}
.limit-label{font-size:12px;font-weight:600}
)";

std::string Num(double v) { return absl::StrFormat("%.2f", v); }
// Data attributes: enough digits to compare with the JSON response.
std::string Exact(double v) { return absl::StrFormat("%.12g", v); }

struct Point {
  const OptionView* option;
  double x_value, y_value;  // hours and dollars (or per 1B tokens)
};

// What the chart's axes measure: totals when known, else time and cost per
// billion tokens, else per training step (a model not counted in tokens).
// The last two scale with any dataset size, so the picture is the same.
enum class Basis { kTotals, kPerBillionTokens, kPerStep };

std::vector<Point> ChartPoints(const PlanView& v, Basis basis) {
  std::vector<Point> points;
  for (const OptionView& o : v.options) {
    if (basis == Basis::kTotals && o.hours > 0 && o.cost > 0) {
      points.push_back({&o, o.hours, o.cost});
    } else if (basis == Basis::kPerBillionTokens && o.tokens_per_second > 0 &&
               o.cost_per_million_tokens > 0) {
      points.push_back({&o, 1e9 / o.tokens_per_second / 3600,
                        o.cost_per_million_tokens * 1000});
    } else if (basis == Basis::kPerStep && o.step_seconds > 0 &&
               o.hourly_usd > 0) {
      points.push_back(
          {&o, o.step_seconds / 3600, o.hourly_usd * o.step_seconds / 3600});
    }
  }
  return points;
}

// 1, 2 or 5 times a power of ten: about `ticks` steps up to `max`.
double NiceStep(double max, int ticks) {
  const double raw = max / ticks;
  const double power = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

class Chart {
 public:
  // Axes from 0 to a whole number of nice steps above the largest value.
  Chart(double x_max, double y_max)
      : x_step_(NiceStep(x_max, 5)), y_step_(NiceStep(y_max, 5)) {
    x_max_ = std::ceil(x_max * 1.05 / x_step_) * x_step_;
    y_max_ = std::ceil(y_max * 1.05 / y_step_) * y_step_;
  }
  double X(double v) const { return kLeft + v / x_max_ * kPlotW; }
  double Y(double v) const { return kTop + kPlotH - v / y_max_ * kPlotH; }

  std::string Axes(const std::string& x_title,
                   const std::string& y_title) const {
    std::string out;
    for (int i = 0; i * x_step_ <= x_max_ * 1.0001; ++i) {
      const double xv = i * x_step_;
      absl::StrAppend(&out, "<line class=\"grid\" x1=\"", Num(X(xv)),
                      "\" y1=\"", Num(kTop), "\" x2=\"", Num(X(xv)), "\" y2=\"",
                      Num(kTop + kPlotH), "\"/><text class=\"tick\" x=\"",
                      Num(X(xv)), "\" y=\"", Num(kTop + kPlotH + 18),
                      "\" text-anchor=\"middle\">", absl::StrFormat("%g", xv),
                      "</text>");
    }
    for (int i = 0; i * y_step_ <= y_max_ * 1.0001; ++i) {
      const double yv = i * y_step_;
      absl::StrAppend(&out, "<line class=\"grid\" x1=\"", Num(kLeft),
                      "\" y1=\"", Num(Y(yv)), "\" x2=\"", Num(kLeft + kPlotW),
                      "\" y2=\"", Num(Y(yv)), "\"/><text class=\"tick\" x=\"",
                      Num(kLeft - 8), "\" y=\"", Num(Y(yv) + 4),
                      "\" text-anchor=\"end\">",
                      i == 0 ? "$0" : HtmlEscape(HumanUsd(yv)), "</text>");
    }
    absl::StrAppend(&out, "<line class=\"axis\" x1=\"", Num(kLeft), "\" y1=\"",
                    Num(kTop + kPlotH), "\" x2=\"", Num(kLeft + kPlotW),
                    "\" y2=\"", Num(kTop + kPlotH),
                    "\"/><line class=\"axis\" x1=\"", Num(kLeft), "\" y1=\"",
                    Num(kTop), "\" x2=\"", Num(kLeft), "\" y2=\"",
                    Num(kTop + kPlotH), "\"/>");
    absl::StrAppend(&out, "<text class=\"tick\" x=\"", Num(kLeft + kPlotW / 2),
                    "\" y=\"", Num(kHeight - 12), "\" text-anchor=\"middle\">",
                    HtmlEscape(x_title), "</text>");
    absl::StrAppend(&out, "<text class=\"tick\" transform=\"translate(18 ",
                    Num(kTop + kPlotH / 2),
                    ") rotate(-90)\" "
                    "text-anchor=\"middle\">",
                    HtmlEscape(y_title), "</text>");
    return out;
  }

 private:
  double x_step_, y_step_;
  double x_max_ = 1, y_max_ = 1;
};

// The deadline (vertical) and budget (horizontal) lines.
std::string Limits(const PlanView& v, const Chart& chart, bool deadline,
                   bool budget) {
  std::string out;
  if (deadline) {
    const double x = chart.X(v.deadline_hours);
    absl::StrAppend(
        &out, "<line class=\"deadline\" id=\"deadline\" data-hours=\"",
        v.deadline_hours, "\" x1=\"", Num(x), "\" y1=\"", Num(kTop), "\" x2=\"",
        Num(x), "\" y2=\"", Num(kTop + kPlotH),
        "\"/><text class=\"limit-label\" fill=\"#cf222e\" x=\"", Num(x - 4),
        "\" y=\"", Num(kTop + 12), "\" text-anchor=\"end\">deadline ",
        absl::StrFormat("%g", v.deadline_hours), " h</text>");
  }
  if (budget) {
    const double y = chart.Y(v.budget_usd);
    absl::StrAppend(&out, "<line class=\"budget\" id=\"budget\" data-cost=\"",
                    v.budget_usd, "\" x1=\"", Num(kLeft), "\" y1=\"", Num(y),
                    "\" x2=\"", Num(kLeft + kPlotW), "\" y2=\"", Num(y),
                    "\"/><text class=\"limit-label\" fill=\"#9a6700\" x=\"",
                    Num(kLeft + kPlotW - 4), "\" y=\"", Num(y - 6),
                    "\" text-anchor=\"end\">budget ",
                    HtmlEscape(HumanUsd(v.budget_usd)), "</text>");
  }
  return out;
}

std::string Svg(const PlanView& v) {
  Basis basis = v.totals_known ? Basis::kTotals : Basis::kPerBillionTokens;
  std::vector<Point> points = ChartPoints(v, basis);
  if (points.empty() && basis == Basis::kPerBillionTokens) {
    basis = Basis::kPerStep;
    points = ChartPoints(v, basis);
  }
  if (points.empty()) return "";
  const bool per_token = basis != Basis::kTotals;
  double x_max = 0, y_max = 0;
  for (const Point& p : points) {
    x_max = std::max(x_max, p.x_value);
    y_max = std::max(y_max, p.y_value);
  }
  const bool deadline = !per_token && v.deadline_hours > 0;
  const bool budget = !per_token && v.budget_usd > 0;
  if (deadline) x_max = std::max(x_max, v.deadline_hours);
  if (budget) y_max = std::max(y_max, v.budget_usd);
  Chart chart(x_max, y_max);
  std::string out = absl::StrFormat(
      "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
      "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
      "aria-label=\"cost against time of every viable option\">",
      kWidth, kHeight, kWidth, kHeight);
  const char* x_axis = basis == Basis::kTotals ? "expected time (hours, linear)"
                       : basis == Basis::kPerBillionTokens
                           ? "hours per billion tokens"
                           : "hours per training step";
  const char* y_axis = basis == Basis::kTotals ? "expected cost (US$, linear)"
                       : basis == Basis::kPerBillionTokens
                           ? "dollars per billion tokens"
                           : "dollars per training step";
  absl::StrAppend(&out, chart.Axes(x_axis, y_axis));
  absl::StrAppend(&out, Limits(v, chart, deadline, budget));
  // The recommendation last, so it is drawn on top.
  std::stable_sort(points.begin(), points.end(),
                   [](const Point& a, const Point& b) {
                     return !a.option->recommended && b.option->recommended;
                   });
  for (const Point& p : points) {
    const double x = chart.X(p.x_value), y = chart.Y(p.y_value);
    const bool right = x > kLeft + kPlotW * 0.7;  // label left of the point
    const std::string name = HtmlEscape(p.option->label);
    absl::StrAppend(
        &out, "<circle class=\"point",
        p.option->recommended ? " recommended" : "", "\" data-label=\"", name,
        "\" data-hours=\"", Exact(p.x_value), "\" data-cost=\"",
        Exact(p.y_value), "\" cx=\"", Num(x), "\" cy=\"", Num(y),
        "\" r=\"7\"><title>", name, ": ", HtmlEscape(HumanHours(p.x_value)),
        ", ", HtmlEscape(HumanUsd(p.y_value)), "</title></circle>",
        "<text class=\"label\" x=\"",
        Num(right ? x - 10 : x + (p.option->recommended ? 18 : 10)),
        right ? "\" text-anchor=\"end" : "", "\" y=\"", Num(y - 8), "\">", name,
        "</text>");
    if (p.option->recommended) {
      absl::StrAppend(&out, "<g id=\"recommended-marker\" data-cx=\"", Num(x),
                      "\" data-cy=\"", Num(y), "\"><circle cx=\"", Num(x),
                      "\" cy=\"", Num(y), "\" r=\"14\"/><text x=\"",
                      Num(x + 18), "\" y=\"", Num(y + 20),
                      "\">recommended</text></g>");
    }
  }
  absl::StrAppend(&out, "</svg>");
  if (per_token) {
    absl::StrAppend(&out,
                    "<p class=\"details\">No dataset size was given, so the "
                    "chart shows time and cost per ",
                    basis == Basis::kPerStep ? "training step (of the same "
                                               "global batch everywhere)"
                                             : "billion tokens",
                    "; totals scale with the dataset.</p>");
  }
  return out;
}

std::string OptionsTable(const PlanView& v) {
  std::string out =
      "<table id=\"options\"><tr><th>option</th><th class=\"num\">count</th>"
      "<th class=\"num\">time</th><th class=\"num\">cost</th>"
      "<th class=\"num\">$/hour</th><th>wins</th><th>loses</th></tr>";
  for (const OptionView& o : v.options) {
    absl::StrAppend(
        &out, "<tr", o.recommended ? " class=\"recommended\"" : "", "><td>",
        HtmlEscape(o.label), o.recommended ? " (recommended)" : "",
        "</td><td class=\"num\">", o.count, "</td><td class=\"num\">",
        HtmlEscape(HumanHours(o.hours)), "</td><td class=\"num\">",
        o.cost > 0 ? HtmlEscape(HumanUsd(o.cost)) : "",
        "</td><td class=\"num\">",
        o.hourly_usd > 0 ? HtmlEscape(HumanUsd(o.hourly_usd)) : "", "</td><td>",
        HtmlEscape(absl::StrJoin(o.wins, ", ")), "</td><td>",
        HtmlEscape(absl::StrJoin(o.loses, ", ")), "</td></tr>");
  }
  return out + "</table>";
}

std::string List(const std::string& title,
                 const std::vector<std::string>& items) {
  if (items.empty()) return "";
  std::string out = absl::StrCat("<h2>", HtmlEscape(title), "</h2><ul>");
  for (const std::string& item : items) {
    absl::StrAppend(&out, "<li>", HtmlEscape(item), "</li>");
  }
  return out + "</ul>";
}

std::string Rejections(const PlanView& v) {
  if (v.rejections.empty()) return "";
  std::string out =
      absl::StrCat("<h2>Rejected (", v.rejected_total, "), by reason</h2>");
  for (const RejectionGroup& g : v.rejections) {
    absl::StrAppend(&out, "<h3>", v1::ReasonCode_Name(g.code), " (", g.count,
                    "): ", HtmlEscape(absl::StrJoin(g.families, ", ")),
                    "</h3><ul>");
    for (const std::string& r : g.reasons) {
      absl::StrAppend(&out, "<li>", HtmlEscape(r), "</li>");
    }
    absl::StrAppend(&out, "</ul>");
  }
  return out;
}

std::string Sources(const v1::PlanTrainingResponse& response) {
  if (response.facts_used().empty()) return "";
  std::string out = "<h2>Sources</h2><ul>";
  for (const v1::FactRef& f : response.facts_used()) {
    absl::StrAppend(&out, "<li>",
                    HtmlEscape(f.fact().empty() ? f.source_id() : f.fact()));
    if (!f.url().empty()) {
      absl::StrAppend(&out, " — <a href=\"", HtmlEscape(f.url()), "\">",
                      HtmlEscape(f.source_id()), "</a>");
    }
    absl::StrAppend(&out, "</li>");
  }
  return out + "</ul>";
}

}  // namespace

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

std::string PlanHtml(const PlanView& v,
                     const v1::PlanTrainingResponse& response) {
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width\">"
      "<title>accelplan: ",
      HtmlEscape(v.verdict), "</title><style>", kStyle,
      "</style></head><body>\n<h1 id=\"verdict\">", HtmlEscape(v.verdict),
      "</h1>");
  if (!v.details.empty()) {
    absl::StrAppend(&out, "<p class=\"details\">", HtmlEscape(v.details),
                    "</p>");
  }
  if (v.viable) {
    absl::StrAppend(&out, "\n", Svg(v), "\n<h2>Options</h2>", OptionsTable(v));
  } else if (!v.options.empty()) {  // unpriced alternatives, no chart
    absl::StrAppend(&out, "\n<h2>Options not recommended</h2>",
                    OptionsTable(v));
  }
  absl::StrAppend(&out, "\n", Rejections(v), List("Remedies", v.remedies),
                  List("Warnings", v.warnings));
  std::vector<std::string> assumptions(response.assumptions().begin(),
                                       response.assumptions().end());
  absl::StrAppend(&out, List("Assumptions", assumptions));
  if (v.viable && !v.launch.kind.empty()) {
    absl::StrAppend(&out, "<h2>Launch on ", HtmlEscape(v.launch.where),
                    "</h2>");
    if (!v.job_spec_note.empty()) {
      absl::StrAppend(&out, "<p>", HtmlEscape(v.job_spec_note), "</p>");
    }
    absl::StrAppend(&out, "<pre id=\"launch\">", HtmlEscape(v.launch.command),
                    "</pre><p>", HtmlEscape(v.launch.file), ":</p><pre>",
                    HtmlEscape(v.launch.spec), "</pre>");
  }
  absl::StrAppend(&out, "\n", Sources(response),
                  "<p class=\"details\">Catalog ",
                  HtmlEscape(v.catalog_version), "</p>\n</body></html>\n");
  return out;
}

}  // namespace accelplan::cli
