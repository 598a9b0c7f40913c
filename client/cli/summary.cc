#include "client/cli/summary.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "client/cli/units.h"

namespace accelplan::cli {
namespace {

constexpr size_t kWidth = kSummaryMaxColumns;
constexpr int kMaxAlternatives = 4;
constexpr int kMaxRejectionLines = 5;
constexpr int kMaxNotes = 5;

// `text` padded (or clipped) to `width` display columns.
std::string Pad(const std::string& text, size_t width) {
  std::string out = Clip(text, width);
  out.append(width - std::min(width, DisplayWidth(out)), ' ');
  return out;
}

std::string PadLeft(const std::string& text, size_t width) {
  std::string out = Clip(text, width);
  return std::string(width - std::min(width, DisplayWidth(out)), ' ') + out;
}

class Screen {
 public:
  void Line(const std::string& text) { lines_.push_back(Clip(text, kWidth)); }
  // The launch command: exact, never clipped.
  void Exact(const std::string& text) { lines_.push_back(text); }
  // Word-wrapped so that nothing is cut; continuation lines indented.
  void Wrapped(const std::string& text) {
    std::string line;
    for (absl::string_view word :
         absl::StrSplit(text, ' ', absl::SkipEmpty())) {
      std::string next =
          line.empty() ? std::string(word) : absl::StrCat(line, " ", word);
      if (!line.empty() && DisplayWidth(next) > kWidth) {
        lines_.push_back(line);
        line = absl::StrCat("  ", word);
      } else {
        line = next;
      }
    }
    Line(line);
  }
  void Blank() {
    if (!lines_.empty() && !lines_.back().empty()) lines_.push_back("");
  }
  std::string Text() const {
    std::vector<std::string> lines = lines_;
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return absl::StrJoin(lines, "\n") + "\n";
  }

 private:
  std::vector<std::string> lines_;
};

// Against the recommendation; with none, what keeps the option from it.
std::string Versus(const OptionView& o, bool viable) {
  if (o.recommended) return "recommended";
  if (!viable) return absl::StrJoin(o.loses, ", ");
  std::vector<std::string> parts;
  if (!o.wins.empty()) parts.push_back("wins " + absl::StrJoin(o.wins, ", "));
  if (!o.loses.empty())
    parts.push_back("loses " + absl::StrJoin(o.loses, ", "));
  return parts.empty() ? "about the same" : absl::StrJoin(parts, "; ");
}

void Options(const PlanView& v, Screen* s) {
  const bool totals = v.totals_known;
  s->Line(absl::StrCat("  ", Pad("OPTION", 42), PadLeft("N", 5), "  ",
                       PadLeft(totals ? "TIME" : "SPEED", 11), "  ",
                       PadLeft(totals ? "COST" : "$/HOUR", 8),
                       v.viable ? "  VS RECOMMENDED" : "  NOT RECOMMENDED"));
  const int shown =
      std::min<int>(static_cast<int>(v.options.size()), 1 + kMaxAlternatives);
  for (int i = 0; i < shown; ++i) {
    const OptionView& o = v.options[i];
    std::string time = totals
                           ? HumanHours(o.hours)
                           : (o.tokens_per_second > 0
                                  ? HumanCount(o.tokens_per_second) + " tok/s"
                                  : "");
    std::string cost = totals
                           ? (o.cost > 0 ? HumanUsd(o.cost) : "")
                           : (o.hourly_usd > 0 ? HumanUsd(o.hourly_usd) : "");
    s->Line(absl::StrCat(o.recommended ? "* " : "  ", Pad(o.label, 42),
                         PadLeft(o.count > 0 ? absl::StrCat(o.count) : "", 5),
                         "  ", PadLeft(time, 11), "  ", PadLeft(cost, 8), "  ",
                         Versus(o, v.viable)));
  }
  if (static_cast<int>(v.options.size()) > shown) {
    // With no viable plan the rows are the options the reason names, not
    // viable ones.
    s->Line(absl::StrCat("  … ", v.options.size() - shown,
                         v.viable ? " more viable options (--verbose)"
                                  : " more options (--verbose)"));
  }
}

void Rejections(const PlanView& v, Screen* s) {
  if (v.rejections.empty()) return;
  s->Blank();
  s->Line(absl::StrCat("Rejected (", v.rejected_total, "), by reason:"));
  const int shown =
      std::min<int>(static_cast<int>(v.rejections.size()), kMaxRejectionLines);
  for (int i = 0; i < shown; ++i) {
    const RejectionGroup& g = v.rejections[i];
    if (g.code == v1::NOT_IN_ALLOWED_SET) {  // the user's own filter
      s->Line(absl::StrCat("  ", v1::ReasonCode_Name(g.code), " (", g.count,
                           "): outside the hardware or series asked for"));
      continue;
    }
    s->Line(absl::StrCat("  ", v1::ReasonCode_Name(g.code), " (", g.count,
                         "): ", absl::StrJoin(g.families, ", "), " — ",
                         g.example));
  }
  if (static_cast<int>(v.rejections.size()) > shown) {
    int rest = 0;
    for (size_t i = shown; i < v.rejections.size(); ++i) {
      rest += v.rejections[i].count;
    }
    const size_t more = v.rejections.size() - shown;
    s->Line(absl::StrCat("  … ", more,
                         more == 1 ? " more reason (" : " more reasons (", rest,
                         rest == 1 ? " option" : " options", "): --verbose"));
  }
}

void Notes(const PlanView& v, Screen* s) {
  std::vector<std::string> notes;
  for (const std::string& r : v.remedies) notes.push_back("Remedy: " + r);
  if (!v.savings.empty()) notes.push_back("Savings: " + v.savings);
  for (const std::string& w : v.warnings) notes.push_back("Warning: " + w);
  for (const std::string& a : v.assumptions) notes.push_back("Assumed: " + a);
  if (notes.empty()) return;
  s->Blank();
  const int shown = std::min<int>(static_cast<int>(notes.size()), kMaxNotes);
  for (int i = 0; i < shown; ++i) {
    if (i == shown - 1 && static_cast<int>(notes.size()) > shown) {
      s->Line(absl::StrCat("… ", notes.size() - shown + 1,
                           " more notes (--verbose)"));
      break;
    }
    s->Line(notes[i]);
  }
}

void LaunchLines(const PlanView& v, Screen* s) {
  s->Blank();
  if (!v.job_spec_note.empty()) s->Line("Job spec: " + v.job_spec_note);
  s->Line(absl::StrCat("Catalog ", v.catalog_version,
                       " · --verbose: every figure · --output=html: chart"));
  const LaunchView& l = v.launch;
  if (l.kind.empty()) {
    s->Line("Launch: no job spec for this plan.");
    return;
  }
  if (l.file.empty()) {
    s->Line(absl::StrCat("Launch on ", l.where,
                         " (in your gcloud compute/zone):"));
  } else if (l.emitted) {
    s->Line(absl::StrCat("Launch on ", l.where, " (wrote ", l.file, "):"));
  } else {
    s->Line(absl::StrCat("Launch on ", l.where, " (write ", l.file,
                         " first: --emit ", l.kind, " ", l.file, "):"));
  }
  s->Exact("  " + l.command);
}

}  // namespace

std::string PlanSummary(const PlanView& v) {
  Screen s;
  s.Wrapped(v.verdict);
  if (!v.details.empty()) s.Line("  " + v.details);
  if (!v.options.empty()) {
    s.Blank();
    Options(v, &s);
  }
  Rejections(v, &s);
  Notes(v, &s);
  if (v.viable) {
    LaunchLines(v, &s);
  } else {
    s.Blank();
    s.Line(absl::StrCat("Catalog ", v.catalog_version,
                        " · --verbose: every figure"));
  }
  return s.Text();
}

}  // namespace accelplan::cli
