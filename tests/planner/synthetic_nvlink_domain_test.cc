// An NVLink domain that spans VMs (catalog nvlink_domain_gpus; A4X's NVL72
// rack, 72 GPUs over 18 VMs) on made-up hardware: two GPU series alike in
// every fact but that one, four GPUs per VM. Inside the domain, expert
// parallelism may span VMs and a data-parallel or FSDP group that fits it
// runs over NVLink; a group larger than the domain, or a series without
// the fact, is where it was: one VM, the NICs between VMs.
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/testing/synthetic_catalog.h"
#include "tests/planner/testing/synthetic_fixture.h"
#include "tests/planner/testing/workloads.h"

namespace accelplan::planner {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testutil::SyntheticCatalog;

// `nic_gbps` per GPU between VMs: 400 (A4X's CX-7 NICs) lets FSDP's
// collectives overlap a step of a few sequences; 50 leaves them exposed.
testutil::GpuSeriesSpec Rack(const std::string& accelerator, int domain_gpus,
                             double nic_gbps) {
  return {.accelerator = accelerator,
          .memory_gib = 80,
          .peak_bf16_tflops = 1000,
          .devices_per_vm = {4},
          .on_demand_hourly_per_device = 4.0,
          .nvlink_gbps = 1800,
          .nvlink_domain_gpus = domain_gpus,
          .inter_vm_gbps = nic_gbps};
}

testutil::GpuSeriesSpec MixedVms() {
  testutil::GpuSeriesSpec spec = Rack("zpu-m", 0, 50);
  spec.devices_per_vm = {4, 8};
  return spec;
}

catalog::CatalogPtr DomainCatalog() {
  return SyntheticCatalog()
      .AddGpuSeries("ZR", Rack("zpu-r", 16, 400))  // 4 VMs per NVLink domain
      .AddGpuSeries("ZB", Rack("zpu-b", 0, 400))   // the domain is one VM
      .AddGpuSeries("ZRS", Rack("zpu-rs", 16, 50))
      .AddGpuSeries("ZBS", Rack("zpu-bs", 0, 50))
      // 4- and 8-GPU VMs, no domain fact: two 4-GPU VMs are two domains.
      .AddGpuSeries("ZM", MixedVms())
      .Build();
}

class SyntheticNvlinkDomainTest
    : public testutil::SyntheticPlannerTest<DomainCatalog> {};

Proposal On(const std::string& machine_type, int gpus) {
  Proposal p;
  p.label = absl::StrCat(machine_type, " x", gpus);
  p.hardware = HardwareProposal{};
  p.hardware->platform = Platform::kGpu;
  p.hardware->machine_type = machine_type;
  p.hardware->count = gpus;
  return p;
}

// The plan of the one proposal reviewed alone, in `layout` when given.
struct Plan PlanOn(const Workload& w, const std::string& machine_type, int gpus,
                   std::optional<DistributionProposal> layout = std::nullopt) {
  ReviewRequest r;
  r.workload = w;
  r.as_of = "2026-09-26";
  r.proposals = {On(machine_type, gpus)};
  r.proposals[0].hardware->layout = layout;
  const ReviewResponse out = SyntheticNvlinkDomainTest::Review(r);
  EXPECT_EQ(out.verdicts.size(), 1u);
  if (out.verdicts.empty() || !out.verdicts[0].plan) {
    ADD_FAILURE() << machine_type << " x" << gpus << ": no plan";
    return {};
  }
  return *out.verdicts[0].plan;
}

// 64 experts, 2 per token: the expert weights dominate, so splitting them
// over more devices is what lets a layer fit.
Workload Moe(int global_batch = 32) {
  Workload w = testutil::Llm(4.7e10, 1e11, testutil::Shape(32, 4096, 32, 4096));
  w.active_parameter_count = 1.3e10;
  w.num_experts = 64;
  w.experts_per_token = 2;
  w.global_batch_size = global_batch;
  return w;
}

TEST_F(SyntheticNvlinkDomainTest, ExpertParallelismSpansTheDomainsVms) {
  // 8 VMs: groups of 4 VMs (16 GPUs) tile them inside 16-GPU domains.
  const struct Plan rack = PlanOn(Moe(), "zr-gpu-4g", 32);
  EXPECT_EQ(rack.distribution.expert_parallelism, 16)
      << rack.distribution.notes;
  EXPECT_THAT(rack.distribution.notes, HasSubstr("in one NVLink domain"));
  // The same VMs without the domain fact: the experts stay in one VM.
  const struct Plan box = PlanOn(Moe(), "zb-gpu-4g", 32);
  EXPECT_LE(box.distribution.expert_parallelism, 4) << box.distribution.notes;
  EXPECT_THAT(box.distribution.notes, Not(HasSubstr("NVLink domain")));
}

TEST_F(SyntheticNvlinkDomainTest, ExpertGroupsTileTheJobsVms) {
  // 6 VMs: a group of 4 VMs (EP 16) would not tile them; groups of 2 VMs
  // (EP 8) do, and hold more of the 64 experts' divisors than 3 VMs (12
  // GPUs: EP 4).
  const struct Plan rack = PlanOn(Moe(24), "zr-gpu-4g", 24);
  EXPECT_EQ(rack.distribution.expert_parallelism, 8) << rack.distribution.notes;
}

// A dense 7B model sharded over every GPU: the FSDP group's collectives
// ride NVLink when the group fits one domain, the NICs when it does not.
TEST_F(SyntheticNvlinkDomainTest, FsdpInsideTheDomainRunsOverNvlink) {
  Workload w = testutil::Medium();
  w.global_batch_size = 16;
  const struct Plan rack16 = PlanOn(w, "zrs-gpu-4g", 16);
  const struct Plan box16 = PlanOn(w, "zbs-gpu-4g", 16);
  ASSERT_TRUE(rack16.estimates.step_known && box16.estimates.step_known);
  EXPECT_LT(rack16.estimates.step_time_seconds,
            box16.estimates.step_time_seconds);
  // 32 GPUs are two domains: a group over all of them crosses the NICs
  // as on the series without the fact, unless a layout keeps it inside.
  const struct Plan rack32 = PlanOn(w, "zrs-gpu-4g", 32);
  const struct Plan box32 = PlanOn(w, "zbs-gpu-4g", 32);
  ASSERT_TRUE(rack32.estimates.step_known && box32.estimates.step_known);
  EXPECT_LE(rack32.estimates.step_time_seconds,
            box32.estimates.step_time_seconds);
}

DistributionProposal Degrees(int tensor, int fsdp, int data) {
  DistributionProposal d;
  d.tensor_parallelism = tensor;
  d.fsdp_parallelism = fsdp;
  d.data_parallelism = data;
  return d;
}

// Tensor parallelism spans VMs only inside a domain the catalog states:
// TP 8 over two 4-GPU VMs is kept on the rack series and not on a series
// whose larger VMs have 8 GPUs (two 4-GPU VMs of it are two domains).
TEST_F(SyntheticNvlinkDomainTest,
       TensorParallelismSpansVmsOnlyInAStatedDomain) {
  Workload w = testutil::Medium();
  w.global_batch_size = 16;
  const struct Plan rack = PlanOn(w, "zr-gpu-4g", 8, Degrees(8, 0, 0));
  EXPECT_EQ(rack.distribution.tensor_parallelism, 8) << rack.distribution.notes;
  EXPECT_THAT(rack.distribution.notes, HasSubstr("sub-block"));
  ReviewRequest r;
  r.workload = w;
  r.as_of = "2026-09-26";
  r.proposals = {On("zm-gpu-4g", 8)};
  r.proposals[0].hardware->layout = Degrees(8, 0, 0);
  const ReviewResponse split = Review(r);
  ASSERT_EQ(split.verdicts.size(), 1u);
  const ProposalVerdict& v = split.verdicts[0];
  EXPECT_TRUE(v.verdict == Verdict::kRejected ||
              (v.plan && v.plan->distribution.tensor_parallelism < 8))
      << v.reason;
}

// HSDP (FSDP groups of 4 inside each VM, 2 replicas): the replicas
// all-reduce their gradient shards over the NICs between VMs, or over
// NVLink when both VMs share a domain.
TEST_F(SyntheticNvlinkDomainTest, HsdpReplicasAllReduceAcrossVms) {
  Workload w = testutil::Medium();
  w.global_batch_size = 16;
  const struct Plan nics = PlanOn(w, "zbs-gpu-4g", 8, Degrees(1, 4, 2));
  const struct Plan rack = PlanOn(w, "zrs-gpu-4g", 8, Degrees(1, 4, 2));
  ASSERT_EQ(nics.distribution.fsdp_parallelism, 4) << nics.distribution.notes;
  ASSERT_EQ(rack.distribution.fsdp_parallelism, 4) << rack.distribution.notes;
  EXPECT_GT(nics.estimates.step_time_seconds,
            rack.estimates.step_time_seconds * 1.01);
}

}  // namespace
}  // namespace accelplan::planner
