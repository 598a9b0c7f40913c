#include "tests/planner/testing/codes.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"

namespace accelplan::planner::testutil {
namespace {

// CPU families carry no accelerator: their series is their name.
bool Matches(const Hardware& h, const std::string& name,
             const std::string& series) {
  const bool named =
      h.accelerator == name || (h.accelerator.empty() && h.series == name);
  return named && (series.empty() || h.series == series);
}

std::string Label(const Hardware& h) {
  return h.accelerator.empty()
             ? h.series
             : absl::StrCat(h.accelerator, " (", h.series, ")");
}

}  // namespace

std::vector<ReasonCode> Codes(const PlanResponse& r, const std::string& name,
                              const std::string& series, const char* file,
                              int line) {
  bool found =
      r.recommendation && Matches(r.recommendation->hardware, name, series);
  for (const Plan& p : r.alternatives) {
    found = found || Matches(p.hardware, name, series);
  }
  std::vector<ReasonCode> out;
  for (const Rejection& rej : r.rejected) {
    if (!Matches(rej.hardware, name, series)) continue;
    found = true;
    out.insert(out.end(), rej.codes.begin(), rej.codes.end());
  }
  if (!found) {
    ADD_FAILURE_AT(file, line)
        << "family \"" << name << "\"" << (series.empty() ? "" : " in series ")
        << series
        << " is neither recommended, an alternative nor rejected; the "
           "response names: "
        << DescribeFamilies(r);
    return {kFamilyNotFound};
  }
  return out;
}

std::string DescribeFamilies(const PlanResponse& r) {
  std::vector<std::string> parts;
  if (r.recommendation) {
    parts.push_back(
        absl::StrCat(Label(r.recommendation->hardware), ": recommended"));
  }
  for (const Plan& p : r.alternatives) {
    parts.push_back(absl::StrCat(Label(p.hardware), ": alternative"));
  }
  for (const Rejection& rej : r.rejected) {
    std::vector<std::string> codes;
    for (ReasonCode c : rej.codes) codes.push_back(ReasonCodeName(c));
    parts.push_back(absl::StrCat(Label(rej.hardware), ": rejected ",
                                 absl::StrJoin(codes, "+")));
  }
  if (parts.empty()) return "(nothing)";
  return absl::StrJoin(parts, "; ");
}

}  // namespace accelplan::planner::testutil
