// Issue 15 item 7, third property: over seeded random jobs, for MIN_COST and
// MIN_TIME, removing a family that is not the recommendation and triggers no
// rule that compares candidates never changes the recommendation.
//
// A family is removed from a copy of the built catalog (its machine types,
// or a TPU's slice topologies), so the planner sees a world without it; a
// new Planner indexes that catalog. Excluded from removal, and why:
//  - the recommendation's own family (removing it must change the plan);
//  - a family another family's rejection names under OVERSIZED_FOR_WORKLOAD
//    or NOT_RECOMMENDED_FOR_WORKLOAD: the oversize rule and Google's
//    workload lists judge a family against the others
//    (planner/relative_rules.cc, planner/oversize.cc), so the family they
//    name is what rejects the other one; every CPU family when the CPU
//    profile rejected an accelerator (it names a CPU machine type);
//  - the family holding the Reduction Server's reducer machine type (pool
//    2 of a GPU plan is priced from it: not another candidate but part of
//    the plan);
//  - under MIN_TIME, a family whose shown point is within the equal-time
//    band of the fastest shown one: it may hold the space's fastest point,
//    which anchors the band (stop 34: a TP degree the heads allow moved
//    A3 High's fastest point, and a G4 plan with it).
// BALANCED is left out on purpose: it normalises by the cheapest and the
// fastest point of the whole space, so any family can move it.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "catalog/loader.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/policy.h"
#include "tests/planner/testing/random_requests.h"

namespace accelplan::planner {
namespace {

struct FamilyKey {
  Platform platform = Platform::kUnspecified;
  std::string series;       // catalog series id ("A3 High", "N2")
  std::string accelerator;  // accelerator id; empty for CPU
  std::string accelerator_name;
  std::string Id() const {
    return absl::StrCat(static_cast<int>(platform), "|", series, "|",
                        accelerator);
  }
};

FamilyKey KeyOf(const Hardware& h) {
  return {h.platform, h.series, h.accelerator, h.accelerator_name};
}

// The built catalog without one family.
catalog::CatalogPtr Without(const catalog::Catalog& full, const FamilyKey& k) {
  auto out = std::make_shared<catalog::Catalog>(full);
  if (k.platform == Platform::kTpu) {
    for (catalog::Accelerator& a : out->accelerators) {
      if (a.id == k.accelerator) a.topologies.clear();
    }
    return out;
  }
  std::vector<catalog::MachineType> kept;
  for (const catalog::MachineType& m : out->machine_types) {
    const bool in_family = m.series_id == k.series &&
                           m.accelerator_id == k.accelerator;
    if (!in_family) kept.push_back(m);
  }
  out->machine_types = std::move(kept);
  out->machine_type_index.clear();
  for (size_t i = 0; i < out->machine_types.size(); ++i) {
    out->machine_type_index[out->machine_types[i].id] = i;
  }
  return out;
}

// Whether a relative rule in `p` names this family (see the file comment).
bool TriggersRelativeRule(const PlanResponse& p, const FamilyKey& k) {
  for (const Rejection& r : p.rejected) {
    for (ReasonCode code : r.codes) {
      if (code != ReasonCode::kOversizedForWorkload &&
          code != ReasonCode::kNotRecommendedForWorkload) {
        continue;
      }
      if (absl::StrContains(r.reason, k.series) ||
          (!k.accelerator_name.empty() &&
           absl::StrContains(r.reason, k.accelerator_name))) {
        return true;
      }
      if (k.platform == Platform::kCpu && absl::StrContains(r.reason, " VM ")) {
        return true;  // the CPU profile names a CPU machine type
      }
    }
  }
  return false;
}

// A plan's time as MIN_TIME compares it: its hours, else (no data set) the
// time per token.
double TimeOf(const Plan& p) {
  if (p.estimates.total_hours.expected > 0) {
    return p.estimates.total_hours.expected;
  }
  return p.estimates.tokens_per_second > 0 ? 1 / p.estimates.tokens_per_second
                                           : std::numeric_limits<double>::max();
}

// MIN_TIME's equal-time band is anchored on the space's fastest point
// (planner/scorer.cc EqualTimeBand), a relative rule by design: a family
// whose shown point is within the band of the fastest shown one may hold
// that anchor, and removing it may move the band.
bool MayAnchorTheEqualTimeBand(const PlanResponse& p, const Goal& goal,
                               const FamilyKey& k) {
  if (goal.objective != Objective::kMinTime || !p.recommendation) return false;
  double fastest = TimeOf(*p.recommendation);
  for (const Plan& a : p.alternatives) fastest = std::min(fastest, TimeOf(a));
  const double band = fastest * (1 + kPolicy.equal_time_fraction.value);
  for (const Plan& a : p.alternatives) {
    if (KeyOf(a.hardware).Id() == k.Id() && TimeOf(a) <= band) return true;
  }
  return false;
}

std::string Brief(const Plan& p) {
  const Estimates& e = p.estimates;
  return absl::StrFormat("%s %s x%d (%d hosts, %d slices) hours=%.6g cost=%.6g",
                         p.hardware.series, p.hardware.machine_type,
                         p.hardware.total_accelerators, p.hardware.hosts,
                         p.hardware.slices, e.total_hours.expected,
                         e.on_demand_cost_usd.expected);
}

bool Same(const Plan& a, const Plan& b) {
  auto close = [](double x, double y) {
    return std::abs(x - y) <= 1e-9 * std::max(std::abs(x), std::abs(y));
  };
  return a.hardware.series == b.hardware.series &&
         a.hardware.accelerator == b.hardware.accelerator &&
         a.hardware.machine_type == b.hardware.machine_type &&
         a.hardware.tpu_topology == b.hardware.tpu_topology &&
         a.hardware.total_accelerators == b.hardware.total_accelerators &&
         a.hardware.slices == b.hardware.slices &&
         close(a.estimates.total_hours.expected, b.estimates.total_hours.expected) &&
         close(a.estimates.on_demand_cost_usd.expected,
               b.estimates.on_demand_cost_usd.expected);
}

class FamilyRemovalTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto cat = catalog::LoadCatalog(ACCELPLAN_CATALOG_DB_PATH);
    ASSERT_TRUE(cat.ok()) << cat.status();
    catalog_ = new catalog::CatalogPtr(*cat);
    planner_ = new Planner(*catalog_);
  }
  static void TearDownTestSuite() {
    delete planner_;
    delete catalog_;
  }
  // One planner per removed family, built once.
  const Planner& PlannerWithout(const FamilyKey& k) {
    std::unique_ptr<Planner>& p = without_[k.Id()];
    if (!p) p = std::make_unique<Planner>(Without(**catalog_, k));
    return *p;
  }
  static inline catalog::CatalogPtr* catalog_ = nullptr;
  static inline Planner* planner_ = nullptr;
  std::map<std::string, std::unique_ptr<Planner>> without_;
};

TEST_F(FamilyRemovalTest, RemovingAFamilyThatIsNotTheRecommendationChangesNothing) {
  const std::vector<PlanRequest> jobs = testutil::RandomRequests(
      testutil::PropertyJobCount(40), 20261215,
      {.classical = true, .without_data = true, .constraints = true});
  const auto reducer = (*catalog_)->service_facts.find(
      "reduction_server_machine_type");
  const catalog::MachineType* reducer_mt =
      reducer == (*catalog_)->service_facts.end()
          ? nullptr
          : (*catalog_)->FindMachineType(reducer->second.first);
  std::mt19937 rng(7);
  int removals = 0, excluded = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    for (Objective o : {Objective::kMinCost, Objective::kMinTime}) {
      PlanRequest r = jobs[i];
      r.goal.objective = o;
      const PlanResponse full = planner_->Plan(r);
      if (!full.recommendation) continue;
      const FamilyKey best = KeyOf(full.recommendation->hardware);
      std::vector<FamilyKey> others;
      auto consider = [&](const Hardware& h) {
        const FamilyKey k = KeyOf(h);
        if (k.Id() == best.Id() || k.platform == Platform::kEdge) return;
        if (reducer_mt != nullptr && reducer_mt->series_id == k.series &&
            reducer_mt->accelerator_id == k.accelerator) {
          return;
        }
        if (TriggersRelativeRule(full, k) ||
            MayAnchorTheEqualTimeBand(full, r.goal, k)) {
          ++excluded;
          return;
        }
        others.push_back(k);
      };
      for (const Plan& a : full.alternatives) consider(a.hardware);
      for (const Rejection& j : full.rejected) consider(j.hardware);
      // The filtered catalog does remove a family: without the
      // recommendation's own the plan changes.
      const PlanResponse no_best = PlannerWithout(best).Plan(r);
      EXPECT_TRUE(!no_best.recommendation ||
                  !Same(*full.recommendation, *no_best.recommendation))
          << "job #" << i << " " << testutil::DescribeRequest(r)
          << "\n  removing the recommended " << best.series << " "
          << best.accelerator << " left " << Brief(*full.recommendation);
      std::shuffle(others.begin(), others.end(), rng);
      if (others.size() > 3) others.resize(3);
      for (const FamilyKey& k : others) {
        const PlanResponse without = PlannerWithout(k).Plan(r);
        ++removals;
        ASSERT_TRUE(without.recommendation.has_value())
            << "job #" << i << " " << testutil::DescribeRequest(r)
            << "\n  removing " << k.series << " " << k.accelerator
            << " leaves no plan: " << without.no_plan_reason;
        EXPECT_TRUE(Same(*full.recommendation, *without.recommendation))
            << "job #" << i << " " << testutil::DescribeRequest(r)
            << "\n  removing " << k.series << " " << k.accelerator
            << "\n  before: " << Brief(*full.recommendation)
            << "\n  after:  " << Brief(*without.recommendation);
      }
    }
  }
  std::cout << "[ removal ] families removed: " << removals
            << ", excluded as relative-rule triggers: " << excluded << "\n";
  EXPECT_GE(removals, testutil::PropertyJobCount(40));
}

}  // namespace
}  // namespace accelplan::planner
