// Reading ReviewPlan verdicts, for rule tests.
#ifndef ACCELPLAN_TESTS_PLANNER_TESTING_VERDICTS_H_
#define ACCELPLAN_TESTS_PLANNER_TESTING_VERDICTS_H_

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "planner/types.h"

namespace accelplan::planner::testutil {

// Whether the verdict carries the reason code.
inline bool Has(const ProposalVerdict& v, ReasonCode c) {
  return std::find(v.codes.begin(), v.codes.end(), c) != v.codes.end();
}

// A distribution proposal of strategy `s`, no degrees stated.
inline Proposal Dist(const std::string& label, Strategy s) {
  Proposal p;
  p.label = label;
  p.distribution = DistributionProposal{};
  p.distribution->strategy = s;
  return p;
}

// A remedy proposal of kind `k`, no target.
inline Proposal Remedy(const std::string& label, RemedyKind k) {
  Proposal p;
  p.label = label;
  p.remedy = RemedyProposal{};
  p.remedy->kind = k;
  return p;
}

// Reviews each proposal alone on `r` through `review` (the fixture's
// Review) and expects `verdict` for every one, carrying `code` unless it
// is kUnspecified. The failure names the proposal's label.
template <typename ReviewFn>
void ExpectEachAlone(ReviewFn review, ReviewRequest r,
                     const std::vector<Proposal>& proposals, Verdict verdict,
                     ReasonCode code = ReasonCode::kUnspecified) {
  for (const Proposal& p : proposals) {
    r.proposals = {p};
    const ReviewResponse out = review(r);
    ASSERT_EQ(out.verdicts.size(), 1u) << p.label;
    EXPECT_EQ(out.verdicts[0].verdict, verdict)
        << p.label << ": " << out.verdicts[0].reason;
    if (code != ReasonCode::kUnspecified) {
      EXPECT_TRUE(Has(out.verdicts[0], code)) << p.label;
    }
  }
}

}  // namespace accelplan::planner::testutil

#endif  // ACCELPLAN_TESTS_PLANNER_TESTING_VERDICTS_H_
