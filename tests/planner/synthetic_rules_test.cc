// SPEC §4 hard rules on made-up hardware: each rule fires when its condition
// holds and stays silent when it does not, for families the production
// catalog does not have, so the rule is seen to follow from catalog facts
// (memory, peaks, formats, framework rows, offerings, prices, end of support)
// and not from anything the planner knows about real products.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/testing/codes.h"
#include "tests/planner/testing/workloads.h"
#include "tests/planner/testing/synthetic_catalog.h"
#include "tests/planner/testing/synthetic_fixture.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using testutil::Codes;
using testutil::SyntheticCatalog;

// Six families, each with the one fact a rule below turns on.
catalog::CatalogPtr RulesCatalog() {
  return SyntheticCatalog()
      // 24 GiB GPUs, one to eight per VM, on-demand and Spot, no fp8.
      .AddGpuSeries("Z9", {.accelerator = "zpu-1",
                           .memory_gib = 24,
                           .peak_bf16_tflops = 400,
                           .devices_per_vm = {1, 2, 4, 8},
                           .on_demand_hourly_per_device = 2.0,
                           .spot_hourly_per_device = 0.8,
                           .nvlink_gbps = 900,
                           .inter_vm_gbps = 100})
      // 96 GiB fp8 GPUs, eight per VM, documented not available on-demand.
      .AddGpuSeries("Z10", {.accelerator = "zpu-2",
                            .memory_gib = 96,
                            .peak_bf16_tflops = 1000,
                            .peak_fp8_tflops = 2000,
                            .devices_per_vm = {8},
                            .on_demand_hourly_per_device = 6.0,
                            .spot_hourly_per_device = 2.5,
                            .nvlink_gbps = 1800,
                            .inter_vm_gbps = 400,
                            .on_demand = false})
      // An older GPU whose support ends on 2026-06-30.
      .AddGpuSeries("Z7", {.accelerator = "zpu-0",
                           .memory_gib = 16,
                           .peak_bf16_tflops = 100,
                           .devices_per_vm = {1, 4},
                           .on_demand_hourly_per_device = 0.6,
                           .inter_vm_gbps = 25,
                           .end_of_support = "2026-06-30"})
      // A TPU without TensorFlow and without fp8.
      .AddTpu({.accelerator = "ztpu-1",
               .name = "TPU Z1",
               .memory_gib = 32,
               .peak_bf16_tflops = 500,
               .ici_gbps = 800,
               .dcn_gbps = 100,
               .topologies = {"1x1", "2x2", "4x4", "8x8"},
               .on_demand_hourly_per_chip = 1.5,
               .spot_hourly_per_chip = 0.6,
               .frameworks = {{catalog::kFrameworkTensorflow,
                               catalog::SupportStatus::kUnsupported}}})
      // A TPU with TensorFlow and fp8, documented absent on Vertex training.
      .AddTpu({.accelerator = "ztpu-2",
               .name = "TPU Z2",
               .memory_gib = 64,
               .peak_bf16_tflops = 900,
               .peak_fp8_tflops = 1800,
               .ici_gbps = 1200,
               .dcn_gbps = 200,
               .topologies = {"2x2", "4x4"},
               .on_demand_hourly_per_chip = 3.0,
               .run_platforms = {.vertex_training = false}})
      .AddCpuSeries("ZC1", {.fp32_gflops_per_vcpu = 64, .vcpus = {8, 32, 96}})
      .Build();
}

class SyntheticRulesTest : public testutil::SyntheticPlannerTest<RulesCatalog> {};

// ------------------------------------------------------------ workloads

using testutil::Llm;
using testutil::Medium;
using testutil::Shape;
using testutil::Small;

// 70B: ~1.1 TB of weights, gradients and Adam state, more than one VM of
// any synthetic family holds.
Workload Large() { return Llm(7e10, 2e11, Shape(80, 8192, 64, 2048)); }

// Stated per-device memory: the layout cannot shrink it, so HBM_TOO_SMALL
// turns on the device memory alone.
Workload PerDevice(double gib) {
  Workload w = Medium();
  w.per_device_memory_gib = gib;
  return w;
}

PlanRequest Req(const Workload& w) {
  PlanRequest r;
  r.workload = w;
  r.as_of = "2026-09-26";
  return r;
}

const struct Plan* Viable(const PlanResponse& r, const std::string& accel) {
  if (r.recommendation && r.recommendation->hardware.accelerator == accel) {
    return &*r.recommendation;
  }
  for (const struct Plan& p : r.alternatives) {
    if (p.hardware.accelerator == accel) return &p;
  }
  return nullptr;
}

std::string Reason(const PlanResponse& r, const std::string& accel) {
  for (const Rejection& rej : r.rejected) {
    if (rej.hardware.accelerator == accel) return rej.reason;
  }
  return "";
}

std::vector<ReasonCode> WarningCodes(const PlanResponse& r) {
  std::vector<ReasonCode> out;
  for (const struct Reason& w : r.warnings) out.push_back(w.code);
  return out;
}

// ------------------------------------------------------------ the helper

// Every synthetic family is a real candidate: each is named in the response.
TEST_F(SyntheticRulesTest, EverySyntheticFamilyIsACandidate) {
  const PlanResponse r = Plan(Req(Small()));
  for (const char* name :
       {"zpu-1", "zpu-2", "zpu-0", "ztpu-1", "ztpu-2", "ZC1"}) {
    Codes(r, name);  // fails the test if the family is missing
  }
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  for (const FactRef& f : r.facts_used) {
    EXPECT_THAT(f.url, HasSubstr("example.invalid/synthetic/")) << f.source_id;
  }
}

TEST_F(SyntheticRulesTest, CodesFailsForAFamilyTheResponseDoesNotName) {
  const PlanResponse r = Plan(Req(Small()));
  std::vector<ReasonCode> codes;
  EXPECT_NONFATAL_FAILURE(
      codes = Codes(r, "nvidia-h100-80gb"),
      "is neither recommended, an alternative nor rejected");
  EXPECT_THAT(codes, ElementsAre(testutil::kFamilyNotFound));
}

// ------------------------------------------------------------ memory

TEST_F(SyntheticRulesTest, HbmTooSmallFollowsTheDeviceMemoryFact) {
  // 30 GiB per device: over Z9's 24 GiB less 10% headroom at every count,
  // under Z10's 96 GiB.
  const PlanResponse r = Plan(Req(PerDevice(30)));
  EXPECT_THAT(Codes(r, "zpu-1"), Contains(ReasonCode::kHbmTooSmall));
  EXPECT_THAT(Reason(r, "zpu-1"),
              HasSubstr("21.6 GiB usable per device (24.0 GiB less 10%"));
  EXPECT_THAT(Codes(r, "zpu-2"), Not(Contains(ReasonCode::kHbmTooSmall)));

  // 16 GiB fits Z9's 21.6 GiB usable.
  const PlanResponse fits = Plan(Req(PerDevice(16)));
  EXPECT_THAT(Codes(fits, "zpu-1"), Not(Contains(ReasonCode::kHbmTooSmall)));
  EXPECT_THAT(Codes(fits, "zpu-0"), Contains(ReasonCode::kHbmTooSmall));
}

TEST_F(SyntheticRulesTest, ExceedsSingleHostOnlyWhenOneHostIsRequired) {
  PlanRequest q = Req(Large());
  q.constraints.single_host_only = true;
  q.constraints.spot_allowed = true;
  const PlanResponse r = Plan(q);
  // 8 x 24 GiB, 8 x 96 GiB and 4 TPU chips x 32 GiB hold no 70B job.
  for (const char* a : {"zpu-1", "zpu-2", "ztpu-1"}) {
    EXPECT_THAT(Codes(r, a), Contains(ReasonCode::kExceedsSingleHost)) << a;
  }

  q.constraints.single_host_only = false;
  const PlanResponse multi = Plan(q);
  for (const char* a : {"zpu-1", "zpu-2", "ztpu-1"}) {
    EXPECT_THAT(Codes(multi, a), Not(Contains(ReasonCode::kExceedsSingleHost)))
        << a;
  }
  ASSERT_TRUE(multi.recommendation.has_value()) << multi.no_plan_reason;
  EXPECT_GT(multi.recommendation->hardware.hosts, 1);
}

// ------------------------------------------------------------ precision

// fp32 on GPUs: TensorFlow and JAX run matrix products as TF32 on tensor
// cores by default, PyTorch only its (cuDNN) convolutions; the rest runs
// at the CUDA-core fp32 peak (planner/estimates.h Fp32RunsAsTf32). A CNN
// with no framework stated convolves in TF32 too (an A100 was timed at
// 19.5 TFLOP/s, slower than a V100).
TEST_F(SyntheticRulesTest, Fp32RunsAtTheFrameworksDefaultPeak) {
  const struct {
    Framework framework;
    ModelKind kind;
    double share_of_bf16;
  } cases[] = {
      {Framework::kPytorch, ModelKind::kDenseTransformer, 1.0 / 8},
      {Framework::kJax, ModelKind::kDenseTransformer, 1.0 / 2},
      {Framework::kTensorflow, ModelKind::kDenseTransformer, 1.0 / 2},
      {Framework::kPytorch, ModelKind::kCnn, 1.0 / 2},
      {Framework::kUnspecified, ModelKind::kCnn, 1.0 / 2},
      {Framework::kUnspecified, ModelKind::kDenseTransformer, 1.0 / 8}};
  for (const auto& c : cases) {
    Workload w = Small();
    w.precision = Precision::kFp32;
    w.framework = c.framework;
    w.model_kind = c.kind;
    PlanRequest q = Req(w);
    q.constraints.allowed_series = {"Z9"};  // zpu-1: 400 TFLOP/s bf16
    const PlanResponse r = Plan(q);
    const std::string what = absl::StrCat(static_cast<int>(c.framework), "/",
                                          static_cast<int>(c.kind));
    ASSERT_TRUE(r.recommendation.has_value()) << what << r.no_plan_reason;
    EXPECT_EQ(r.recommendation->hardware.accelerator, "zpu-1") << what;
    EXPECT_DOUBLE_EQ(r.recommendation->estimates.peak_tflops_per_device,
                     400 * c.share_of_bf16)
        << what;
  }
}

TEST_F(SyntheticRulesTest, Fp8NeedsAnFp8Peak) {
  Workload w = Small();
  w.precision = Precision::kFp8;
  PlanRequest q = Req(w);
  q.constraints.spot_allowed = true;  // Z10 is Spot-only
  const PlanResponse r = Plan(q);
  for (const char* a : {"zpu-1", "ztpu-1", "ZC1"}) {
    EXPECT_THAT(Codes(r, a), Contains(ReasonCode::kPrecisionUnsupported)) << a;
  }
  for (const char* a : {"zpu-2", "ztpu-2"}) {
    EXPECT_THAT(Codes(r, a), Not(Contains(ReasonCode::kPrecisionUnsupported)))
        << a;
  }
  // Alone (so no smaller family makes it OVERSIZED_FOR_WORKLOAD), Z10
  // plans the job at the fp8 peak the catalog lists.
  PlanRequest z10_only = q;
  z10_only.constraints.allowed_series = {"Z10"};
  const PlanResponse z10 = Plan(z10_only);
  ASSERT_TRUE(z10.recommendation.has_value()) << z10.no_plan_reason;
  EXPECT_EQ(z10.recommendation->hardware.accelerator, "zpu-2");
  EXPECT_DOUBLE_EQ(z10.recommendation->estimates.peak_tflops_per_device, 2000);

  // The same job in bf16: nothing is rejected for its precision.
  q.workload.precision = Precision::kBf16Mixed;
  const PlanResponse bf16 = Plan(q);
  for (const char* a : {"zpu-1", "ztpu-1", "ZC1"}) {
    EXPECT_THAT(Codes(bf16, a),
                Not(Contains(ReasonCode::kPrecisionUnsupported)))
        << a;
  }
}

// ------------------------------------------------------------ software

TEST_F(SyntheticRulesTest, FrameworkUnsupportedFollowsTheFrameworkRow) {
  Workload w = Small();
  w.framework = Framework::kTensorflow;
  const PlanResponse r = Plan(Req(w));
  EXPECT_THAT(Codes(r, "ztpu-1"), Contains(ReasonCode::kFrameworkUnsupported));
  EXPECT_THAT(Reason(r, "ztpu-1"),
              HasSubstr("TensorFlow is not supported on TPU Z1"));
  EXPECT_THAT(Codes(r, "ztpu-2"),
              Not(Contains(ReasonCode::kFrameworkUnsupported)));
  EXPECT_THAT(Codes(r, "zpu-1"),
              Not(Contains(ReasonCode::kFrameworkUnsupported)));

  // In JAX, which TPU Z1's rows support, it is not rejected.
  const PlanResponse jax = Plan(Req(Small()));
  EXPECT_THAT(Codes(jax, "ztpu-1"),
              Not(Contains(ReasonCode::kFrameworkUnsupported)));
}

TEST_F(SyntheticRulesTest, CustomCudaKernelsNeedAGpu) {
  Workload w = Small();
  w.framework = Framework::kPytorch;
  w.pytorch_xla_ok = true;
  w.custom_cuda_kernels = true;
  const PlanResponse r = Plan(Req(w));
  for (const char* a : {"ztpu-1", "ztpu-2", "ZC1"}) {
    EXPECT_THAT(Codes(r, a), Contains(ReasonCode::kCustomKernelsNeedGpu)) << a;
  }
  EXPECT_THAT(Codes(r, "zpu-1"),
              Not(Contains(ReasonCode::kCustomKernelsNeedGpu)));
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  EXPECT_EQ(r.recommendation->hardware.platform, Platform::kGpu);

  w.custom_cuda_kernels = false;
  const PlanResponse plain = Plan(Req(w));
  for (const char* a : {"ztpu-1", "ZC1"}) {
    EXPECT_THAT(Codes(plain, a),
                Not(Contains(ReasonCode::kCustomKernelsNeedGpu)))
        << a;
  }
}

TEST_F(SyntheticRulesTest, CpuOnlyOpsLeaveOnlyCpus) {
  Workload w;
  w.framework = Framework::kPytorch;
  w.pytorch_xla_ok = true;
  w.model_kind = ModelKind::kCnn;
  w.parameter_count = 2.5e7;
  w.dataset_examples = 1.2e6;
  w.epochs = 10;
  w.global_batch_size = 256;
  w.cpu_only_custom_ops = true;
  const PlanResponse r = Plan(Req(w));
  for (const char* a : {"zpu-1", "zpu-2", "ztpu-1", "ztpu-2"}) {
    EXPECT_THAT(Codes(r, a), Contains(ReasonCode::kCpuOnlyOps)) << a;
  }
  EXPECT_THAT(Codes(r, "ZC1"), Not(Contains(ReasonCode::kCpuOnlyOps)));
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  EXPECT_EQ(r.recommendation->hardware.series, "ZC1");

  w.cpu_only_custom_ops = false;
  const PlanResponse plain = Plan(Req(w));
  for (const char* a : {"zpu-1", "ztpu-1"}) {
    EXPECT_THAT(Codes(plain, a), Not(Contains(ReasonCode::kCpuOnlyOps))) << a;
  }
}

// ------------------------------------------------------------ dates

PlanRequest Z7Job(const std::string& as_of) {
  PlanRequest q = Req(Small());
  q.constraints.allowed_series = {"Z7"};
  q.as_of = as_of;
  return q;
}

TEST_F(SyntheticRulesTest, EndOfSupportFollowsTheDateAndAsOf) {
  const PlanResponse after = Plan(Z7Job("2026-09-26"));
  EXPECT_THAT(Codes(after, "zpu-0"), Contains(ReasonCode::kEndOfSupport));
  EXPECT_THAT(Reason(after, "zpu-0"), HasSubstr("2026-06-30"));
  EXPECT_FALSE(after.recommendation.has_value());

  // Over a year before the date: neither rejected nor warned.
  const PlanResponse before = Plan(Z7Job("2025-01-15"));
  EXPECT_THAT(Codes(before, "zpu-0"), Not(Contains(ReasonCode::kEndOfSupport)));
  ASSERT_TRUE(before.recommendation.has_value()) << before.no_plan_reason;
  EXPECT_EQ(before.recommendation->hardware.accelerator, "zpu-0");
  EXPECT_THAT(WarningCodes(before),
              Not(Contains(ReasonCode::kEndOfSupportSoon)));

  // Within a year of it: planned, with a warning.
  const PlanResponse soon = Plan(Z7Job("2026-03-01"));
  ASSERT_TRUE(soon.recommendation.has_value()) << soon.no_plan_reason;
  EXPECT_THAT(WarningCodes(soon), Contains(ReasonCode::kEndOfSupportSoon));
}

// ------------------------------------------------------------ offerings

TEST_F(SyntheticRulesTest, NotAvailableOnDemandUnlessSpotOrReservation) {
  const PlanResponse r = Plan(Req(Small()));
  EXPECT_THAT(Codes(r, "zpu-2"), Contains(ReasonCode::kNotAvailableOnDemand));
  EXPECT_THAT(Codes(r, "zpu-1"),
              Not(Contains(ReasonCode::kNotAvailableOnDemand)));

  // Z10 alone, so that no smaller family makes it OVERSIZED_FOR_WORKLOAD.
  PlanRequest spot = Req(Small());
  spot.constraints.allowed_series = {"Z10"};
  spot.constraints.spot_allowed = true;
  spot.workload.checkpoints = true;  // Spot needs them for a long job
  const PlanResponse s = Plan(spot);
  EXPECT_THAT(Codes(s, "zpu-2"),
              Not(Contains(ReasonCode::kNotAvailableOnDemand)));
  const struct Plan* z10 = Viable(s, "zpu-2");
  ASSERT_NE(z10, nullptr) << testutil::DescribeFamilies(s);
  EXPECT_EQ(z10->hardware.provisioning, Provisioning::kSpot);
  EXPECT_DOUBLE_EQ(z10->estimates.spot_hourly_usd, 8 * 2.5);

  PlanRequest reserved = Req(Small());
  reserved.constraints.allowed_series = {"Z10"};
  reserved.constraints.reservation_available = true;
  const PlanResponse v = Plan(reserved);
  EXPECT_THAT(Codes(v, "zpu-2"),
              Not(Contains(ReasonCode::kNotAvailableOnDemand)));
  const struct Plan* z10r = Viable(v, "zpu-2");
  ASSERT_NE(z10r, nullptr) << testutil::DescribeFamilies(v);
  EXPECT_EQ(z10r->hardware.provisioning, Provisioning::kReservation);
}

TEST_F(SyntheticRulesTest, NotOfferedOnPlatformFollowsTheOfferingRows) {
  PlanRequest q = Req(Small());
  q.constraints.run_platform = RunPlatform::kVertexTraining;
  const PlanResponse vertex = Plan(q);
  EXPECT_THAT(Codes(vertex, "ztpu-2"),
              Contains(ReasonCode::kNotOfferedOnPlatform));
  EXPECT_THAT(Codes(vertex, "ztpu-1"),
              Not(Contains(ReasonCode::kNotOfferedOnPlatform)));

  q.constraints.run_platform = RunPlatform::kGke;
  const PlanResponse gke = Plan(q);
  EXPECT_THAT(Codes(gke, "ztpu-2"),
              Not(Contains(ReasonCode::kNotOfferedOnPlatform)));
}

// ------------------------------------------------------------ constraints

TEST_F(SyntheticRulesTest, NotInAllowedSetFollowsSeriesAndPlatforms) {
  PlanRequest q = Req(Small());
  q.constraints.allowed_series = {"Z9"};
  const PlanResponse series = Plan(q);
  for (const char* a : {"zpu-2", "zpu-0", "ztpu-1", "ZC1"}) {
    EXPECT_THAT(Codes(series, a), Contains(ReasonCode::kNotInAllowedSet)) << a;
  }
  EXPECT_THAT(Codes(series, "zpu-1"),
              Not(Contains(ReasonCode::kNotInAllowedSet)));

  // An accelerator id names its family as well as the series does.
  q.constraints.allowed_series = {"ztpu-2"};
  const PlanResponse by_id = Plan(q);
  EXPECT_THAT(Codes(by_id, "ztpu-2"),
              Not(Contains(ReasonCode::kNotInAllowedSet)));
  EXPECT_THAT(Codes(by_id, "ztpu-1"), Contains(ReasonCode::kNotInAllowedSet));

  q.constraints.allowed_series.clear();
  q.constraints.allowed_platforms = {Platform::kTpu};
  const PlanResponse tpu = Plan(q);
  EXPECT_THAT(Codes(tpu, "zpu-1"), Contains(ReasonCode::kNotInAllowedSet));
  EXPECT_THAT(Codes(tpu, "ZC1"), Contains(ReasonCode::kNotInAllowedSet));
  EXPECT_THAT(Codes(tpu, "ztpu-1"),
              Not(Contains(ReasonCode::kNotInAllowedSet)));
}

// Eight Z9 GPUs at most, so the fastest plan is one 8-GPU VM.
PlanRequest EightZ9(const Workload& w) {
  PlanRequest q = Req(w);
  q.constraints.allowed_series = {"Z9"};
  q.constraints.max_accelerators = 8;
  return q;
}

TEST_F(SyntheticRulesTest, MissesDeadlineOnlyWhenTheFastestSizeIsTooSlow) {
  PlanRequest q = EightZ9(Medium());
  q.goal.deadline_hours = 20000;
  const PlanResponse r = Plan(q);
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  EXPECT_THAT(Codes(r, "zpu-1"), Not(Contains(ReasonCode::kMissesDeadline)));
  const double hours = r.recommendation->estimates.total_hours.expected;

  q.goal.deadline_hours = hours / 4;
  const PlanResponse tight = Plan(q);
  EXPECT_THAT(Codes(tight, "zpu-1"), Contains(ReasonCode::kMissesDeadline));
  EXPECT_FALSE(tight.recommendation.has_value());
}

TEST_F(SyntheticRulesTest, OverBudgetFollowsThePriceRows) {
  PlanRequest q = EightZ9(Medium());
  q.goal.deadline_hours = 20000;
  const PlanResponse r = Plan(q);
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  const Estimates& e = r.recommendation->estimates;
  // The price is the catalog's: $2.00 per GPU-hour.
  EXPECT_DOUBLE_EQ(e.on_demand_hourly_usd,
                   2.0 * r.recommendation->hardware.total_accelerators);
  const double cost = e.on_demand_cost_usd.expected;

  q.goal.budget_usd = 2 * cost;
  const PlanResponse generous = Plan(q);
  EXPECT_THAT(Codes(generous, "zpu-1"), Not(Contains(ReasonCode::kOverBudget)));
  EXPECT_TRUE(generous.recommendation.has_value());

  q.goal.budget_usd = cost / 2;
  const PlanResponse tight = Plan(q);
  EXPECT_THAT(Codes(tight, "zpu-1"), Contains(ReasonCode::kOverBudget));
  EXPECT_FALSE(tight.recommendation.has_value());
}

}  // namespace
}  // namespace accelplan::planner
