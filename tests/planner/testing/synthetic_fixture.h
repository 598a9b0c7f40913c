// A gtest fixture with one Planner over a synthetic catalog for the whole
// suite (tests/planner/testing/synthetic_catalog.h): requests are checked
// valid before they are planned, and a review answers every proposal.
//
//   catalog::CatalogPtr MyCatalog() { return SyntheticCatalog()...Build(); }
//   class MyTest : public SyntheticPlannerTest<MyCatalog> {};
#ifndef ACCELPLAN_TESTS_PLANNER_TESTING_SYNTHETIC_FIXTURE_H_
#define ACCELPLAN_TESTS_PLANNER_TESTING_SYNTHETIC_FIXTURE_H_

#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "planner/planner.h"

namespace accelplan::planner::testutil {

template <catalog::CatalogPtr (*MakeCatalog)()>
class SyntheticPlannerTest : public ::testing::Test {
 public:
  static void SetUpTestSuite() { planner_ = new Planner(MakeCatalog()); }
  static void TearDownTestSuite() {
    delete planner_;
    planner_ = nullptr;
  }
  static PlanResponse Plan(const PlanRequest& r) {
    EXPECT_TRUE(ValidatePlanRequest(r).empty());
    return planner_->Plan(r);
  }
  static ReviewResponse Review(const ReviewRequest& r) {
    EXPECT_TRUE(ValidateReviewRequest(r).empty());
    ReviewResponse out = planner_->Review(r);
    EXPECT_EQ(out.verdicts.size(), r.proposals.size());
    return out;
  }
  static inline Planner* planner_ = nullptr;
};

}  // namespace accelplan::planner::testutil

#endif  // ACCELPLAN_TESTS_PLANNER_TESTING_SYNTHETIC_FIXTURE_H_
