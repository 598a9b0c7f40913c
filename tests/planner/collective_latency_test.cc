// The fixed latency of collectives (planner/collective_latency.h) against
// published measurements, and its effect on plans: a GPU collective's
// latency follows NCCL's own model and a series' catalog network hop, a
// TPU's the Scaling Book's ICI hops, and a step pays it for every
// collective it runs.
#include "planner/collective_latency.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/ascii.h"
#include "catalog/loader.h"
#include "planner/planner.h"
#include "tests/planner/testing/synthetic_catalog.h"
#include "tests/planner/testing/synthetic_fixture.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

constexpr double kUs = 1e-6;

// nccl-tests all_reduce_perf, 8 B, on one DGX H100 (8 GPUs over NVLink):
// 13.67 us out of place, 13.03 us in place
// (https://github.com/NVIDIA/dgxc-benchmarking/blob/main/nccl/README.md).
TEST(NcclLatencyTest, OneNvlinkHostMatchesDgxH100) {
  const double measured = 0.5 * (13.67 + 13.03) * kUs;
  const double model =
      NcclLatencySeconds(CollectiveOp::kAllReduce, 8, 1, true, 0);
  EXPECT_NEAR(model, measured, 0.2 * measured);
}

// 2 hosts x 8 A100s over InfiniBand, 8 B: 27.70 / 29.82 us (dstack
// examples/clusters/crusoe README at commit 33be4e79,
// https://github.com/dstackai/dstack/blob/33be4e79924a1c7338646c7928578c112dd9fcfa/examples/clusters/crusoe/README.md):
// NCCL's own network figure, with no extra hop latency.
TEST(NcclLatencyTest, TwoInfinibandHostsMatchA100Cluster) {
  const double measured = 0.5 * (27.70 + 29.82) * kUs;
  const double model =
      NcclLatencySeconds(CollectiveOp::kAllReduce, 16, 2, true, 0);
  EXPECT_NEAR(model, measured, 0.2 * measured);
}

// The catalog's A3 Mega hop reproduces the run it was derived from (a
// guard on the derivation and the formula staying in step, not an
// independent check: that is the two tests above): 8 B in 123.5 us in
// place on 2 x a3-megagpu-8g
// (https://github.com/lessizzmore/create-a3mega-ztan-fork,
// ztan-NCCL-test-result).
TEST(NcclLatencyTest, CatalogA3MegaHopReproducesItsRun) {
  auto cat = catalog::LoadCatalog(ACCELPLAN_CATALOG_DB_PATH);
  ASSERT_TRUE(cat.ok()) << cat.status();
  const catalog::Series* mega = (*cat)->FindSeries("A3 Mega");
  ASSERT_NE(mega, nullptr);
  ASSERT_TRUE(mega->network_hop_latency.has_value());
  const double model =
      NcclLatencySeconds(CollectiveOp::kAllReduce, 16, 2, true,
                         mega->network_hop_latency->value / kUs);
  EXPECT_NEAR(model, 123.5 * kUs, 0.02 * 123.5 * kUs);
  // Without the hop it would be NCCL's InfiniBand-class figure.
  EXPECT_LT(NcclLatencySeconds(CollectiveOp::kAllReduce, 16, 2, true, 0),
            0.3 * model);
}

// An all-reduce takes NCCL's tree across many hosts (a binary tree: one
// level more per doubling), an all-gather has only the ring (one network
// step more per host).
TEST(NcclLatencyTest, AllReduceGrowsWithTreeDepthAllGatherWithHosts) {
  auto all_reduce = [](int hosts) {
    return NcclLatencySeconds(CollectiveOp::kAllReduce, 8 * hosts, hosts, true,
                              0);
  };
  auto all_gather = [](int hosts) {
    return NcclLatencySeconds(CollectiveOp::kAllGather, 8 * hosts, hosts, true,
                              0);
  };
  // Tree: 32 -> 64 hosts adds one level (2 x 5 us), far less than doubling.
  EXPECT_NEAR(all_reduce(64) - all_reduce(32), 2 * 5.0 * kUs, 0.1 * kUs);
  EXPECT_LT(all_reduce(64), 1.5 * all_reduce(32));
  // Ring: 256 more ranks on 32 more hosts, 32 more network steps of 2.7 us
  // and 224 more inside hosts, each at least a network post (1 us).
  EXPECT_NEAR(all_gather(64) - all_gather(32), (32 * 2.7 + 224) * kUs, 1 * kUs);
  EXPECT_GT(all_gather(64), 1.8 * all_gather(32));
}

TEST(NcclLatencyTest, PcieHostIsSlowerThanNvlinkAndOneRankIsFree) {
  EXPECT_GT(NcclLatencySeconds(CollectiveOp::kAllReduce, 8, 1, false, 0),
            NcclLatencySeconds(CollectiveOp::kAllReduce, 8, 1, true, 0));
  EXPECT_EQ(NcclLatencySeconds(CollectiveOp::kAllReduce, 1, 1, true, 50), 0);
  EXPECT_EQ(IciCollectiveLatencySeconds(CollectiveOp::kAllReduce, 1, 3), 0);
  EXPECT_EQ(DcnAllReduceLatencySeconds(1), 0);
}

// The Scaling Book's worked AllGather over an axis of 4 v5e chips: 3 hops,
// measured "closer to 8us" (https://jax-ml.github.io/scaling-book/sharding/).
// The fixed cost was derived from that run, so the first line guards the
// derivation; the rest checks the hop rule.
TEST(IciLatencyTest, FourChipAxisMatchesScalingBookProfile) {
  EXPECT_NEAR(IciCollectiveLatencySeconds(CollectiveOp::kAllGather, 4, 1),
              8.0 * kUs, 0.5 * kUs);
  // An all-reduce is a reduce-scatter and an all-gather: twice the hops.
  EXPECT_NEAR(IciCollectiveLatencySeconds(CollectiveOp::kAllReduce, 4, 1),
              (5.0 + 6.0) * kUs, 0.5 * kUs);
  // 64 chips on a 3-D torus: 4 per axis, 3 hops on each of 3 axes; on a
  // 2-D torus 8 per axis, 7 hops on each of 2; two chips: one hop.
  EXPECT_NEAR(IciCollectiveLatencySeconds(CollectiveOp::kAllGather, 2, 3),
              (5.0 + 1.0) * kUs, 0.5 * kUs);
  EXPECT_NEAR(IciCollectiveLatencySeconds(CollectiveOp::kAllGather, 64, 3),
              (5.0 + 9.0) * kUs, 0.5 * kUs);
  EXPECT_NEAR(IciCollectiveLatencySeconds(CollectiveOp::kAllGather, 64, 2),
              (5.0 + 14.0) * kUs, 0.5 * kUs);
}

TEST(DcnLatencyTest, TreeOverSlices) {
  EXPECT_NEAR(DcnAllReduceLatencySeconds(2), 2 * 28.0 * kUs, 0.1 * kUs);
  EXPECT_NEAR(DcnAllReduceLatencySeconds(3), 4 * 28.0 * kUs, 0.1 * kUs);
  EXPECT_NEAR(DcnAllReduceLatencySeconds(4), 4 * 28.0 * kUs, 0.1 * kUs);
  EXPECT_NEAR(DcnAllReduceLatencySeconds(5), 6 * 28.0 * kUs, 0.1 * kUs);
}

TEST(GradientBucketsTest, OneCollectivePer25MiB) {
  constexpr double kMiB = 1024.0 * 1024;
  EXPECT_EQ(GradientBuckets(0), 0);
  EXPECT_EQ(GradientBuckets(1), 1);
  EXPECT_EQ(GradientBuckets(25 * kMiB), 1);
  EXPECT_EQ(GradientBuckets(25 * kMiB + 1), 2);
  EXPECT_EQ(GradientBuckets(1e9 * 2), 77);  // a 1B model's bf16 gradient
}

// Two made-up GPU series, the same in every fact but the catalog's network
// hop latency.
catalog::CatalogPtr LatencyCatalog() {
  testutil::GpuSeriesSpec spec{.accelerator = "zpu-slow-net",
                               .memory_gib = 80,
                               .peak_bf16_tflops = 1000,
                               .devices_per_vm = {8},
                               .on_demand_hourly_per_device = 3.0,
                               .nvlink_gbps = 900,
                               .inter_vm_gbps = 400,
                               .network_hop_latency_us = 100};
  testutil::GpuSeriesSpec fast = spec;
  fast.accelerator = "zpu-fast-net";
  fast.network_hop_latency_us = 0;
  return testutil::SyntheticCatalog()
      .AddGpuSeries("ZS", spec)
      .AddGpuSeries("ZF", fast)
      .Build();
}

// A 1B dense PyTorch transformer at bf16, shape not stated.
Workload OneBillion() {
  Workload w;
  w.framework = Framework::kPytorch;
  w.model_kind = ModelKind::kDenseTransformer;
  w.parameter_count = 1e9;
  w.precision = Precision::kBf16Mixed;
  return w;
}

class CollectiveLatencyPlanTest
    : public testutil::SyntheticPlannerTest<LatencyCatalog> {
 protected:
  // A 1B dense transformer's step (64 sequences: a short step whose
  // gradient all-reduce cannot hide behind it) on `gpus` GPUs of `series`,
  // as ReviewPlan estimates the proposal.
  static double StepOn(const std::string& series, int gpus) {
    ReviewRequest r;
    r.as_of = "2026-09-01";
    r.workload = OneBillion();
    r.workload.global_batch_size = 64;
    r.goal.objective = Objective::kMinTime;
    HardwareProposal hw;
    hw.platform = Platform::kGpu;
    hw.series = series;
    hw.machine_type = absl::AsciiStrToLower(series) + "-gpu-8g";
    hw.count = gpus;
    Proposal proposal;
    proposal.label = series;
    proposal.hardware = hw;
    r.proposals = {proposal};
    const ReviewResponse out = Review(r);
    EXPECT_EQ(out.verdicts.size(), 1u);
    if (out.verdicts.empty() || !out.verdicts[0].plan) {
      ADD_FAILURE() << series << ": no estimates";
      return 0;
    }
    const Estimates& e = out.verdicts[0].plan->estimates;
    EXPECT_TRUE(e.step_known) << series;
    return e.step_time_seconds;
  }
};

// The catalog's hop latency lengthens only steps whose collectives cross
// VMs: one VM is the same on both series, eight VMs slower on the one
// whose network adds 100 us a hop: its step is at least the gradient
// all-reduce's latency (77 buckets, each a tree over 8 hosts: 3 levels up
// and down), where the other's is compute-bound.
TEST_F(CollectiveLatencyPlanTest, NetworkHopLatencyChargesOnlyCrossVmSteps) {
  EXPECT_DOUBLE_EQ(StepOn("ZS", 8), StepOn("ZF", 8));
  const double slow = StepOn("ZS", 64);
  const double fast = StepOn("ZF", 64);
  EXPECT_GT(slow, 1.2 * fast) << slow << " vs " << fast;
  EXPECT_GT(slow, 77 * 2 * 3 * 100 * kUs);
  EXPECT_LT(fast, 77 * 2 * 3 * 100 * kUs);
}

// A plan states the latency assumption it relies on.
TEST_F(CollectiveLatencyPlanTest, PlanStatesTheLatencyAssumption) {
  PlanRequest q;
  q.as_of = "2026-09-01";
  q.workload = OneBillion();
  q.workload.dataset_tokens = 1e10;
  const PlanResponse p = Plan(q);
  ASSERT_TRUE(p.recommendation.has_value()) << p.no_plan_reason;
  EXPECT_THAT(p.assumptions,
              Contains(HasSubstr("fixed latency besides its bytes")));
}

}  // namespace
}  // namespace accelplan::planner
