// A gtest fixture with one Planner over the built catalog (loaded through
// the real loader) shared by every test of a suite.
#ifndef ACCELPLAN_TESTS_PLANNER_CATALOG_PLANNER_TEST_H_
#define ACCELPLAN_TESTS_PLANNER_CATALOG_PLANNER_TEST_H_

#include "catalog/loader.h"
#include "gtest/gtest.h"
#include "planner/index.h"
#include "planner/planner.h"

namespace accelplan::planner {

class CatalogPlannerTest : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    auto cat = catalog::LoadCatalog(ACCELPLAN_CATALOG_DB_PATH);
    ASSERT_TRUE(cat.ok()) << cat.status();
    planner_ = new Planner(*cat);
  }
  static void TearDownTestSuite() {
    delete planner_;
    planner_ = nullptr;
  }
  static inline Planner* planner_ = nullptr;
};

// The same, with the engine's family index of that catalog (stage 1), for
// tests that drive the engine's stages directly.
class CatalogIndexTest : public CatalogPlannerTest {
 public:
  static void SetUpTestSuite() {
    CatalogPlannerTest::SetUpTestSuite();
    index_ = new internal::Index(internal::BuildIndex(planner_->catalog()));
  }
  static void TearDownTestSuite() {
    delete index_;
    index_ = nullptr;
    CatalogPlannerTest::TearDownTestSuite();
  }
  static inline internal::Index* index_ = nullptr;
};

}  // namespace accelplan::planner

#endif  // ACCELPLAN_TESTS_PLANNER_CATALOG_PLANNER_TEST_H_
