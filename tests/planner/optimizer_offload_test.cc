// Optimizer offload (planner/optimizer_offload.h): a job whose optimizer
// does not fit on a VM's GPUs trains there with its optimizer states in the
// VM's memory and its optimizer step on the VM's CPUs, where the framework
// and the VM's memory allow it, and only where nothing faster fits.
#include "planner/optimizer_offload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/planner/testing/codes.h"
#include "tests/planner/testing/synthetic_catalog.h"
#include "tests/planner/testing/synthetic_fixture.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// The rejection line of the family on this accelerator; fails when the
// family is not rejected.
std::string Why(const PlanResponse& r, const std::string& accelerator) {
  for (const Rejection& rej : r.rejected) {
    if (rej.hardware.accelerator == accelerator) return rej.reason;
  }
  ADD_FAILURE() << accelerator
                << " not rejected: " << testutil::DescribeFamilies(r);
  return "";
}

// Two made-up 8-GPU series, the same but for their VMs' memory (300 GiB
// per GPU on ZB, 32 GiB on ZL) and ZL's lack of a host network (it runs
// on one VM whatever the request allows).
catalog::CatalogPtr OffloadCatalog() {
  testutil::GpuSeriesSpec big{.accelerator = "zpu-big-host",
                              .memory_gib = 80,
                              .peak_bf16_tflops = 1000,
                              .devices_per_vm = {8},
                              .on_demand_hourly_per_device = 3.0,
                              .nvlink_gbps = 900,
                              .inter_vm_gbps = 400,
                              .host_memory_gib_per_device = 300};
  testutil::GpuSeriesSpec little = big;
  little.accelerator = "zpu-little-host";
  little.host_memory_gib_per_device = 32;
  little.inter_vm_gbps = 0;
  return testutil::SyntheticCatalog()
      .AddGpuSeries("ZB", big)
      .AddGpuSeries("ZL", little)
      .Build();
}

// A 70B dense PyTorch full fine-tune at bf16 with Adam: 1,120 GB of model
// states, more than one VM's 8 x 72 GiB usable (and 700 GB with 8-bit
// Adam); its 16-bit weights, 140 GB, are 17.5 GB per GPU.
PlanRequest SeventyBillion() {
  PlanRequest r;
  r.as_of = "2026-09-01";
  r.workload.framework = Framework::kPytorch;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = 70e9;
  r.workload.training_method = TrainingMethod::kFullFineTune;
  r.workload.precision = Precision::kBf16Mixed;
  r.workload.optimizer = Optimizer::kAdam;
  r.workload.dataset_tokens = 2e8;
  r.goal.objective = Objective::kMinCost;
  r.constraints.single_host_only = true;
  return r;
}

class OptimizerOffloadTest
    : public testutil::SyntheticPlannerTest<OffloadCatalog> {};

// On one VM only offloading the optimizer holds the job, and only a VM
// with the memory for it (DeepSpeed: 16 bytes per parameter x 1.5, 210 GB
// per GPU here) can: ZB is the plan, ZL is rejected for its host memory.
// The step waits for the host's step: at least the VM's 70B parameters at
// CPU-Adam's rate.
TEST_F(OptimizerOffloadTest, OneVmHoldsTheJobOnlyByOffloadingItsOptimizer) {
  const PlanResponse p = Plan(SeventyBillion());
  ASSERT_TRUE(p.recommendation.has_value()) << p.no_plan_reason;
  const auto& plan = *p.recommendation;
  EXPECT_EQ(plan.hardware.machine_type, "zb-gpu-8g");
  EXPECT_TRUE(plan.distribution.optimizer_offload);
  EXPECT_EQ(plan.distribution.zero_stage, 3);
  EXPECT_THAT(plan.distribution.framework_api, HasSubstr("offload_optimizer"));
  const MemoryBreakdown& m = plan.estimates.memory_per_device;
  EXPECT_EQ(m.optimizer_gib, 0);
  EXPECT_NEAR(m.host_offload_gib, 70e9 / 8 * 16 * 1.5 / (1 << 30), 0.1);
  EXPECT_LE(m.host_offload_gib, m.host_usable_gib);
  EXPECT_GT(plan.estimates.step_time_seconds,
            70e9 / kOffload.cpu_adam_params_per_s_per_vm.value);
  EXPECT_THAT(p.assumptions, Contains(HasSubstr("Optimizer offload")));
  const std::string why = Why(p, "zpu-little-host");
  EXPECT_THAT(testutil::Codes(p, "zpu-little-host"),
              Contains(ReasonCode::kHbmTooSmall))
      << why;
  EXPECT_THAT(why, HasSubstr("optimizer's states")) << why;
}

// Where the optimizer fits on the GPUs, it stays there: over two VMs FSDP
// alone holds the job, and is faster than offloading on one.
TEST_F(OptimizerOffloadTest, NotOffloadedWhereTheDevicesHoldTheOptimizer) {
  PlanRequest r = SeventyBillion();
  r.constraints.single_host_only = false;
  r.goal.objective = Objective::kMinTime;
  const PlanResponse p = Plan(r);
  ASSERT_TRUE(p.recommendation.has_value()) << p.no_plan_reason;
  EXPECT_FALSE(p.recommendation->distribution.optimizer_offload);
  EXPECT_GT(p.recommendation->hardware.total_accelerators, 8);
  // A 7B job fits one VM as it is.
  r = SeventyBillion();
  r.workload.parameter_count = 7e9;
  const PlanResponse small = Plan(r);
  ASSERT_TRUE(small.recommendation.has_value()) << small.no_plan_reason;
  EXPECT_FALSE(small.recommendation->distribution.optimizer_offload);
  EXPECT_THAT(small.assumptions, Not(Contains(HasSubstr("Optimizer offload"))));
}

// Offload is DeepSpeed's CPU-Adam: not for JAX, not for an optimizer it
// does not step (8-bit Adam keeps its states on the GPU), not under
// Horovod. Then nothing holds the job on one VM: ZB would need more, ZL
// lacks device memory. Horovod is plain data parallelism besides: a whole
// replica per device, which no device holds.
TEST_F(OptimizerOffloadTest, OnlyWhereDeepSpeedCanStepTheOptimizer) {
  PlanRequest jax = SeventyBillion();
  jax.workload.framework = Framework::kJax;
  PlanRequest adam8 = SeventyBillion();
  adam8.workload.optimizer = Optimizer::kAdam8bit;
  PlanRequest horovod = SeventyBillion();
  horovod.constraints.framework_agnostic_distribution = true;
  for (const PlanRequest& r : {jax, adam8, horovod}) {
    const PlanResponse p = Plan(r);
    EXPECT_FALSE(p.recommendation.has_value()) << testutil::DescribeFamilies(p);
    EXPECT_THAT(testutil::Codes(p, "zpu-big-host"),
                Contains(r.constraints.framework_agnostic_distribution
                             ? ReasonCode::kHbmTooSmall
                             : ReasonCode::kExceedsSingleHost))
        << Why(p, "zpu-big-host");
    const std::string why = Why(p, "zpu-little-host");
    EXPECT_THAT(testutil::Codes(p, "zpu-little-host"),
                Contains(ReasonCode::kHbmTooSmall))
        << why;
    EXPECT_THAT(why, Not(HasSubstr("host memory"))) << why;
  }
}

// ReviewPlan estimates the same point: the proposed VM gets the same
// layout and step as the plan.
TEST_F(OptimizerOffloadTest, ReviewGivesThePlansEstimates) {
  const PlanRequest r = SeventyBillion();
  const PlanResponse p = Plan(r);
  ASSERT_TRUE(p.recommendation.has_value()) << p.no_plan_reason;
  ReviewRequest q;
  q.as_of = r.as_of;
  q.workload = r.workload;
  q.goal = r.goal;
  q.constraints = r.constraints;
  Proposal proposal;
  proposal.label = "zb";
  proposal.hardware = HardwareProposal{};
  proposal.hardware->machine_type = "zb-gpu-8g";
  q.proposals = {proposal};
  const ReviewResponse out = Review(q);
  ASSERT_EQ(out.verdicts.size(), 1u);
  ASSERT_TRUE(out.verdicts[0].plan.has_value()) << out.verdicts[0].reason;
  const auto& reviewed = *out.verdicts[0].plan;
  EXPECT_TRUE(reviewed.distribution.optimizer_offload);
  EXPECT_EQ(reviewed.estimates.step_time_seconds,
            p.recommendation->estimates.step_time_seconds);
}

}  // namespace
}  // namespace accelplan::planner
