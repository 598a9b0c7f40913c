// ReviewPlan: a remedied point's numbers beside today's point in the same
// space (throughput, cost per unit of work, hours), and today's observed
// runtime beside the model's.
#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/engine_common.h"
#include "planner/policy.h"
#include "planner/review_internal.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

bool Same(double a, double b) {
  return std::abs(a - b) <= kPolicy.tie_tolerance.value * std::max(a, b);
}

// Today's observed runtime beside the model's, when the team states it:
// outside the model's range for today, the job differs from the model and
// so may every estimate of it (docs/planner.md §5.1).
void TodayObserved(const Job& job, const Config& today, std::string& line) {
  const double observed = job.current.observed_hours;
  if (!(observed > 0)) return;
  absl::StrAppend(&line, " in the model (", FormatHours(observed), " observed");
  if (observed > today.hours.high || observed < today.hours.low) {
    absl::StrAppend(
        &line,
        absl::StrFormat(", %.1fx the model's %s–%s for today: the job runs "
                        "unlike the model, so compare with care",
                        observed / today.hours.expected,
                        FormatHours(today.hours.low),
                        FormatHours(today.hours.high)));
  }
  absl::StrAppend(&line, ")");
}

}  // namespace

std::string AgainstToday(const Job& job, const Candidate& c,
                         const Candidate* today) {
  const Config& p = *c.config;
  const Config* t =
      today != nullptr && today->has_point() ? &*today->config : nullptr;
  std::string line = absl::StrCat("Modelled after it: ", PointLabel(c));
  if (p.reducers) {
    absl::StrAppend(&line, absl::StrFormat(" with %d Reduction Server replicas",
                                           p.reducers->replicas));
  }
  if (p.tokens_per_second > 0) {
    absl::StrAppend(
        &line, absl::StrFormat(" at %.4g %s/s", p.tokens_per_second, job.unit));
    if (t != nullptr && t->tokens_per_second > 0) {
      absl::StrAppend(
          &line, absl::StrFormat(" (%.2fx today's %.4g)",
                                 p.tokens_per_second / t->tokens_per_second,
                                 t->tokens_per_second));
    }
  }
  const auto per_million = [](const Config& x) {
    return x.hourly / (x.tokens_per_second * 3600) * 1e6;
  };
  const auto priced = [](const Config& x) {
    return x.price_known && x.hourly > 0 && x.tokens_per_second > 0;
  };
  if (priced(p)) {
    absl::StrAppend(&line, absl::StrFormat(", $%.3g per million %s",
                                           per_million(p), job.unit));
    if (t != nullptr && priced(*t)) {
      absl::StrAppend(
          &line, absl::StrFormat(" vs $%.3g today (%+.0f%%)", per_million(*t),
                                 100 * (per_million(p) / per_million(*t) - 1)));
    }
  }
  if (job.has_dataset && p.hours.expected > 0) {
    absl::StrAppend(&line, ", ", FormatHours(p.hours.expected));
    if (p.price_known)
      absl::StrAppend(&line, " for ", FormatUsd(p.cost.expected));
    if (t != nullptr && t->hours.expected > 0) {
      absl::StrAppend(&line, " vs ", FormatHours(t->hours.expected), " today");
      TodayObserved(job, *t, line);
    }
  }
  if (today != nullptr && t == nullptr) {
    absl::StrAppend(&line,
                    "; today's setup as stated has no point in the model "
                    "(it does not hold the job there)");
  } else if (t != nullptr && p.tokens_per_second > 0 &&
             Same(p.tokens_per_second, t->tokens_per_second) &&
             Same(p.hourly, t->hourly)) {
    absl::StrAppend(&line, "; the model sees no change from today");
  }
  return absl::StrCat(line, ".");
}

}  // namespace accelplan::planner::internal
