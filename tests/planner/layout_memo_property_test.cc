// The layouts a rejection's provisioning what-ifs share (planner/
// layout_memo.h) on seeded random jobs: every point built under one
// provisioning from a layout chosen under another is the point built from
// scratch, field by field; a point whose layout choice read the provisioning
// (the Reduction Server's decision) is never reused; and both kinds occur,
// so neither half passes vacuously.
//
// ACCELPLAN_PROPERTY_JOBS=N changes the number of jobs (fewer by default in
// a sanitizer build).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "planner/candidate.h"
#include "planner/index.h"
#include "planner/job.h"
#include "planner/layout_memo.h"
#include "planner/sizing.h"
#include "tests/planner/catalog_planner_test.h"
#include "tests/planner/testing/random_requests.h"

namespace accelplan::planner {
namespace {

using internal::Config;
using internal::Family;
using internal::LayoutMemo;
using internal::SizeOption;

constexpr unsigned kSeed = 20261203;
constexpr int kJobs = 60;

using LayoutMemoPropertyTest = CatalogIndexTest;

// Everything a plan or a rejection reads from a point, exactly (both
// builds run the same arithmetic, so no tolerance).
std::string Fingerprint(const Config& c) {
  const ShardingLayout& l = c.layout;
  return absl::StrFormat(
      "%p x%d layout d%d z%d f%d t%d p%d e%d v%d mb%dx%d strat%d rc%d acc%d "
      "fits%d bs%d oab%d nl%d ranks%d req%.17g use%.17g host%.17g/%.17g "
      "step%.17g/%.17g/%.17g comm%.17g hours%.17g/%.17g/%.17g "
      "cost%.17g/%.17g/%.17g hourly%.17g od%.17g spot%.17g known%d "
      "prov%d wait%.17g restart%.17g blocked%d rs%d tps%.17g "
      "mfu%.17g/%.17g",
      c.shape, c.units, l.data, l.zero_stage, l.fsdp, l.tensor, l.pipeline,
      l.expert, l.virtual_stages, l.micro_batch, l.microbatches,
      static_cast<int>(c.strategy), static_cast<int>(c.recompute),
      c.accumulation_steps, c.fits, c.batch_too_small, c.over_assumed_batch,
      c.no_layout, c.min_ranks, c.required_bytes, c.usable_bytes,
      c.host_required_bytes, c.host_usable_bytes, c.step.step_seconds_fast,
      c.step.step_seconds_expected, c.step.step_seconds_slow,
      c.step.communication_fraction, c.hours.low, c.hours.expected,
      c.hours.high, c.cost.low, c.cost.expected, c.cost.high, c.hourly,
      c.hourly_on_demand, c.hourly_spot, c.price_known,
      static_cast<int>(c.provisioning), c.start_wait_hours, c.restart_overhead,
      static_cast<int>(c.blocked),
      c.reducers ? c.reducers->replicas : 0, c.tokens_per_second, c.mfu.low,
      c.mfu.high);
}

// A few sizes of each shape: one unit, a handful across hosts or slices.
std::vector<SizeOption> SizesOf(const Family& f) {
  std::vector<SizeOption> out;
  for (const internal::Shape& s : f.shapes) {
    for (int units : {1, 2, 3, 8, 32}) out.push_back({&s, units});
  }
  return out;
}

TEST_F(LayoutMemoPropertyTest, AReusedLayoutBuildsThePointAFreshOneDoes) {
  const catalog::Catalog& cat = planner_->catalog();
  testutil::RandomRequestOptions options;
  options.without_data = false;  // what-ifs time and price their points
  const std::vector<PlanRequest> requests = testutil::RandomRequests(
      testutil::PropertyJobCount(kJobs), kSeed, options);
  int reused = 0;
  int read_provisioning = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const PlanRequest& r = requests[i];
    internal::Job job = internal::MakeJob(
        cat, r.workload, r.goal, r.constraints, r.current_setup, r.as_of);
    job.what_if = true;
    const std::string what =
        absl::StrCat("job #", i, " ", testutil::DescribeRequest(r));
    for (const Family& f : index_->families) {
      if (f.platform == Platform::kEdge) continue;
      LayoutMemo memo(f, internal::LayoutPin{});
      internal::Job shared = job;
      shared.layout_memo = &memo;
      for (SizeOption o : SizesOf(f)) {
        o.provisioning = Provisioning::kSpot;  // the first what-if keeps it
        const Config first = internal::BuildPoint(shared, f, o, {});
        read_provisioning += first.read_provisioning ? 1 : 0;
        for (Provisioning p :
             {Provisioning::kFlexStart, Provisioning::kReservation}) {
          o.provisioning = p;
          const bool found = memo.Find(f, {}, o.shape, o.units,
                                       job.assumed_batch_rank_cap) != nullptr;
          EXPECT_EQ(found, !first.read_provisioning)
              << what << " " << f.name << " x" << o.units;
          reused += found ? 1 : 0;
          EXPECT_EQ(Fingerprint(internal::BuildPoint(shared, f, o, {})),
                    Fingerprint(internal::BuildPoint(job, f, o, {})))
              << what << " " << f.name << " x" << o.units << " under "
              << static_cast<int>(p);
        }
      }
    }
  }
  EXPECT_GT(reused, 0);
  EXPECT_GT(read_provisioning, 0);
  std::cout << "[ layout memo ] " << reused << " points reused, "
            << read_provisioning << " read the provisioning (never reused)\n";
}

// Another family, another reviewed layout or another assumed-batch cap is
// never served from the memo.
TEST_F(LayoutMemoPropertyTest, ServesOnlyItsFamilyLayoutAndCap) {
  const Family& f = index_->families.front();
  const Family& other = index_->families.back();
  ASSERT_NE(&f, &other);
  LayoutMemo memo(f, internal::LayoutPin{});
  Config c;
  c.shape = &f.shapes.front();
  c.units = 2;
  memo.Keep(f, {}, 0, c);
  EXPECT_NE(memo.Find(f, {}, c.shape, 2, 0), nullptr);
  EXPECT_EQ(memo.Find(f, {}, c.shape, 3, 0), nullptr);
  EXPECT_EQ(memo.Find(f, {}, c.shape, 2, 64), nullptr);
  EXPECT_EQ(memo.Find(other, {}, c.shape, 2, 0), nullptr);
  EXPECT_EQ(memo.Find(f, Strategy::kFsdp, c.shape, 2, 0), nullptr);
  Config read = c;
  read.units = 4;
  read.read_provisioning = true;
  memo.Keep(f, {}, 0, read);
  EXPECT_EQ(memo.Find(f, {}, c.shape, 4, 0), nullptr);
  memo.StopKeeping();
  c.units = 5;
  memo.Keep(f, {}, 0, c);
  EXPECT_EQ(memo.Find(f, {}, c.shape, 5, 0), nullptr);
}

}  // namespace
}  // namespace accelplan::planner
