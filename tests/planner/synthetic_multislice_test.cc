// Issue 16's slice, shape and price rules on made-up hardware: each fires
// when its condition holds and stays silent when it does not, for a TPU
// the production catalog does not have (16 GiB chips, four per VM, slices
// of 2x2 / 2x4 / 4x4), so the rules are seen to follow from catalog facts
// (chips per topology, VMs per slice, device memory, DCN, prices) alone.
#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/index.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/testing/synthetic_catalog.h"
#include "tests/planner/testing/synthetic_fixture.h"
#include "tests/planner/testing/verdicts.h"
#include "tests/planner/testing/workloads.h"

namespace accelplan::planner {
namespace {

using testutil::ExpectEachAlone;
using testutil::Has;
using ::testing::HasSubstr;
using testutil::SyntheticCatalog;

catalog::CatalogPtr SlicesCatalog() {
  return SyntheticCatalog()
      // 16 chips per 4x4 slice over four VMs; 2x2 is one VM.
      .AddTpu({.accelerator = "ztpu-3",
               .name = "TPU Z3",
               .memory_gib = 16,
               .peak_bf16_tflops = 400,
               .ici_gbps = 800,
               .dcn_gbps = 100,
               .chips_per_vm = 4,
               .topologies = {"2x2", "2x4", "4x4"},
               .on_demand_hourly_per_chip = 1.2})
      // A priced GPU and one without any price row.
      .AddGpuSeries("Z9", {.accelerator = "zpu-1",
                           .memory_gib = 24,
                           .peak_bf16_tflops = 400,
                           .devices_per_vm = {1, 8},
                           .on_demand_hourly_per_device = 2.0,
                           .nvlink_gbps = 900,
                           .inter_vm_gbps = 100})
      .AddGpuSeries("Z11", {.accelerator = "zpu-5",
                            .memory_gib = 48,
                            .peak_bf16_tflops = 700,
                            .devices_per_vm = {1, 8},
                            .nvlink_gbps = 900,
                            .inter_vm_gbps = 100})
      .AddCpuSeries("ZC1", {.fp32_gflops_per_vcpu = 64, .vcpus = {8, 32}})
      .Build();
}

class SyntheticMultisliceTest : public testutil::SyntheticPlannerTest<SlicesCatalog> {};

// ------------------------------------------------------------ builders

using testutil::Llm;
using testutil::Medium;
using testutil::Shape;

// 30B: ~480 GB of model state, 30 GB per chip over one 16-chip slice (more
// than its 14.4 GiB usable), 7.5 GB over four slices.
Workload Large() {
  Workload w = Llm(3e10, 6e10, Shape(60, 6656, 52, 2048));
  w.global_batch_size = 64;
  return w;
}

// JAX on `slices` x TPU Z3 4x4 on GKE (Multislice runs there).
template <typename Request>
Request OnSlices(const Workload& w, int slices) {
  Request r;
  r.workload = w;
  r.current_setup.hardware = "ztpu-3";
  r.current_setup.tpu_topology = "4x4";
  r.current_setup.slice_count = slices;
  r.constraints.run_platform = RunPlatform::kGke;
  r.as_of = "2026-09-26";
  return r;
}

Proposal DistP(const std::string& label, DcnParallelism across, int slices) {
  Proposal p;
  p.label = label;
  p.distribution = DistributionProposal{};
  p.distribution->strategy = Strategy::kMultislice;
  p.distribution->across_slices = across;
  p.distribution->slices = slices;
  return p;
}

Proposal HwP(const std::string& label, const std::string& topology,
             int slices) {
  Proposal p;
  p.label = label;
  p.hardware = HardwareProposal{};
  p.hardware->platform = Platform::kTpu;
  p.hardware->accelerator = "ztpu-3";
  p.hardware->tpu_topology = topology;
  p.hardware->slices = slices;
  return p;
}


// ------------------------------------------------------------ replica

// A layout that replicates the model per slice must fit one slice: a 7B
// model does (recommended), a 30B one does not (HBM_TOO_SMALL naming FSDP
// over DCN, which is then judged on its own terms).
TEST_F(SyntheticMultisliceTest, ReplicaPerSliceDistributionMustFitOneSlice) {
  ReviewRequest r = OnSlices<ReviewRequest>(Medium(), 4);
  r.proposals = {DistP("data over DCN", DcnParallelism::kData, 4)};
  ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRecommended)
      << out.verdicts[0].reason;

  r.workload = Large();
  r.proposals.push_back(DistP("fsdp over DCN", DcnParallelism::kFsdp, 4));
  out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 2u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_TRUE(Has(out.verdicts[0], ReasonCode::kHbmTooSmall));
  EXPECT_THAT(out.verdicts[0].reason, HasSubstr("FSDP over DCN"));
  EXPECT_THAT(out.verdicts[0].reason, HasSubstr("14.4 GiB usable"));
  EXPECT_NE(out.verdicts[1].verdict, Verdict::kRejected)
      << out.verdicts[1].reason;
  // FSDP over DCN is then what holds the job: not called SLOWER than a
  // data-parallel point that does not exist (the one it got was its own).
  EXPECT_FALSE(Has(out.verdicts[1], ReasonCode::kSlower))
      << out.verdicts[1].reason;
  EXPECT_THAT(out.verdicts[1].reason, HasSubstr("what holds the job"));
}

// The same rule for the layout a hardware proposal states.
TEST_F(SyntheticMultisliceTest, ReplicaPerSliceHardwareLayoutMustFitOneSlice) {
  auto with_layout = [](DcnParallelism across) {
    Proposal p = HwP("4 x 4x4", "4x4", 4);
    p.hardware->layout = DistributionProposal{};
    p.hardware->layout->strategy = Strategy::kMultislice;
    p.hardware->layout->across_slices = across;
    return p;
  };
  ReviewRequest r = OnSlices<ReviewRequest>(Medium(), 4);
  r.proposals = {with_layout(DcnParallelism::kData)};
  ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_NE(out.verdicts[0].verdict, Verdict::kRejected)
      << out.verdicts[0].reason;
  EXPECT_FALSE(Has(out.verdicts[0], ReasonCode::kHbmTooSmall));

  r.workload = Large();
  r.proposals = {with_layout(DcnParallelism::kData),
                 with_layout(DcnParallelism::kFsdp)};
  out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 2u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_TRUE(Has(out.verdicts[0], ReasonCode::kHbmTooSmall));
  EXPECT_THAT(out.verdicts[0].reason, HasSubstr("FSDP over DCN"));
  EXPECT_FALSE(Has(out.verdicts[1], ReasonCode::kHbmTooSmall))
      << out.verdicts[1].reason;
}

// PlanTraining on the kept slices: a replica that fits one slice is data
// parallel across them; one that does not is sharded across them too.
TEST_F(SyntheticMultisliceTest, PlanShardsAcrossSlicesOnlyWhenAReplicaDoesNotFit) {
  PlanRequest q = OnSlices<PlanRequest>(Medium(), 4);
  q.constraints.keep_current_hardware = true;
  PlanResponse r = Plan(q);
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  ASSERT_TRUE(r.recommendation->distribution.multislice.has_value());
  EXPECT_EQ(r.recommendation->distribution.multislice->dcn_data_parallelism, 4);
  EXPECT_EQ(r.recommendation->distribution.multislice->dcn_fsdp_parallelism, 1);

  q.workload = Large();
  r = Plan(q);
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  const Distribution& d = r.recommendation->distribution;
  ASSERT_TRUE(d.multislice.has_value());
  EXPECT_EQ(d.multislice->dcn_fsdp_parallelism, 4);
  EXPECT_EQ(d.multislice->dcn_data_parallelism, 1);
  EXPECT_EQ(d.multislice->ici_fsdp_parallelism *
                d.multislice->ici_tensor_parallelism,
            16);
  EXPECT_EQ(d.fsdp_parallelism, 64);
  EXPECT_THAT(d.notes, HasSubstr("FSDP across slices over DCN"));
  EXPECT_THAT(d.notes, HasSubstr("14.4 GiB usable"));
}

// With fewer sequences than chips FSDP over every chip has too many
// data-parallel ranks; tensor parallelism inside each slice (TP 8, the
// policy's cap) with FSDP over the slices' TP groups needs an eighth of
// them, and holds the job.
TEST_F(SyntheticMultisliceTest, SmallBatchShardsTensorGroupsAcrossSlices) {
  Workload w = Large();
  w.global_batch_size = 32;  // 64 chips over four 4x4 slices
  PlanRequest q = OnSlices<PlanRequest>(w, 4);
  q.constraints.keep_current_hardware = true;
  const PlanResponse r = Plan(q);
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  const Distribution& d = r.recommendation->distribution;
  ASSERT_TRUE(d.multislice.has_value());
  EXPECT_EQ(d.tensor_parallelism, 8);
  EXPECT_EQ(d.fsdp_parallelism, 8);  // 64 chips / TP 8, over four slices
  EXPECT_EQ(d.multislice->dcn_fsdp_parallelism, 4);
  EXPECT_EQ(d.multislice->ici_fsdp_parallelism, 2);
  EXPECT_THAT(d.notes, HasSubstr("FSDP + tensor parallel inside each slice"));
}

// Free to choose, the 30B job still gets a plan on TPU Z3: sharded across
// slices (no slice holds a replica).
TEST_F(SyntheticMultisliceTest, FreePlanOverSlicesShardsAReplicaNoSliceHolds) {
  PlanRequest q;
  q.workload = Large();
  q.constraints.allowed_series = {"TPU Z3"};
  q.constraints.run_platform = RunPlatform::kGke;
  q.as_of = "2026-09-26";
  const PlanResponse r = Plan(q);
  ASSERT_TRUE(r.recommendation.has_value()) << r.no_plan_reason;
  const struct Plan& p = *r.recommendation;
  ASSERT_GT(p.hardware.slices, 1);
  ASSERT_TRUE(p.distribution.multislice.has_value());
  EXPECT_EQ(p.distribution.multislice->dcn_fsdp_parallelism, p.hardware.slices);
  EXPECT_EQ(std::max(1, p.distribution.multislice->dcn_data_parallelism) *
                p.distribution.multislice->dcn_fsdp_parallelism,
            p.hardware.slices);
}

// ------------------------------------------------------------ meshes

// The DCN degrees must multiply to the slice count.
TEST_F(SyntheticMultisliceTest, DcnProductMustEqualTheSliceCount) {
  ReviewRequest r = OnSlices<ReviewRequest>(Medium(), 4);
  Proposal two = DistP("dcn 2 of 4", DcnParallelism::kData, 4);
  two.distribution->mesh = MultisliceMesh{};
  two.distribution->mesh->dcn_data_parallelism = 2;
  Proposal four = two;
  four.label = "dcn 4 of 4";
  four.distribution->mesh->dcn_data_parallelism = 4;
  r.proposals = {two, four};
  const ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 2u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_TRUE(Has(out.verdicts[0], ReasonCode::kNotApplicable));
  EXPECT_THAT(out.verdicts[0].reason, HasSubstr("= 2)"));
  EXPECT_THAT(out.verdicts[0].reason, HasSubstr("slices (4)"));
  EXPECT_FALSE(Has(out.verdicts[1], ReasonCode::kNotApplicable))
      << out.verdicts[1].reason;
  EXPECT_NE(out.verdicts[1].verdict, Verdict::kRejected)
      << out.verdicts[1].reason;
}

TEST_F(SyntheticMultisliceTest, CurrentSlicesOfDifferentTopologiesAreNotOneMesh) {
  ReviewRequest r = OnSlices<ReviewRequest>(Medium(), 2);
  r.current_setup.tpu_topology.clear();
  r.current_setup.slice_topologies = {"4x4", "2x4"};
  r.proposals = {DistP("data over DCN", DcnParallelism::kData, 2)};
  ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_TRUE(Has(out.verdicts[0], ReasonCode::kNeedsIdenticalSlices));
  EXPECT_THAT(out.verdicts[0].reason, HasSubstr("4x4, 2x4"));

  r.current_setup.slice_topologies = {"4x4", "4x4"};
  out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_FALSE(Has(out.verdicts[0], ReasonCode::kNeedsIdenticalSlices));
  EXPECT_NE(out.verdicts[0].verdict, Verdict::kRejected)
      << out.verdicts[0].reason;
}

// Two single-host 2x2 slices are refused with the one multi-host slice of
// the same eight chips (2x4); two multi-host 2x4 slices are not.
TEST_F(SyntheticMultisliceTest, MultisliceNeedsMultiHostSlices) {
  ReviewRequest r = OnSlices<ReviewRequest>(Medium(), 1);
  r.current_setup = CurrentSetup{};
  r.proposals = {HwP("2 x 2x2", "2x2", 2), HwP("2 x 2x4", "2x4", 2)};
  const ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 2u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_TRUE(Has(out.verdicts[0], ReasonCode::kNeedsMultiHostSlices))
      << out.verdicts[0].reason;
  EXPECT_THAT(out.verdicts[0].reason, HasSubstr("One 2x4 slice (8 chips)"));
  EXPECT_FALSE(Has(out.verdicts[1], ReasonCode::kNeedsMultiHostSlices))
      << out.verdicts[1].reason;
}

// ------------------------------------------------------------ shapes

// Padding: either documented tiling is accepted, neither is refused.
TEST_F(SyntheticMultisliceTest, ShapesMeetingEitherTilingAreAccepted) {
  ReviewRequest r = OnSlices<ReviewRequest>(Medium(), 1);
  r.current_setup.symptoms = {Symptom::kHeavyPadding};
  r.current_setup.current_global_batch_size = 990;
  r.current_setup.layer_widths = {360};
  auto shapes = [](const std::string& label, int64_t batch, int64_t width) {
    Proposal p;
    p.label = label;
    p.remedy = RemedyProposal{};
    p.remedy->kind = RemedyKind::kFixTensorShapes;
    p.remedy->global_batch_size = batch;
    p.remedy->layer_widths = {width};
    return p;
  };
  auto review = [](const ReviewRequest& q) { return Review(q); };
  ExpectEachAlone(
      review, r, {shapes("1024/360", 1024, 360), shapes("1088/384", 1088, 384)},
      Verdict::kRecommended);
  ExpectEachAlone(
      review, r, {shapes("1088/360", 1088, 360), shapes("1000/384", 1000, 384)},
      Verdict::kRejected, ReasonCode::kDoesNotAddressBottleneck);
}

// ------------------------------------------------------------ prices

// Z11 has no price row: planned without a budget, never recommended under
// one (PlanTraining and ReviewPlan alike); the priced Z9 is unaffected.
TEST_F(SyntheticMultisliceTest, UnpricedHardwareIsNeverRecommendedUnderABudget) {
  PlanRequest q;
  q.workload = Medium();
  q.constraints.allowed_series = {"Z11"};
  q.as_of = "2026-09-26";
  const PlanResponse free = Plan(q);
  ASSERT_TRUE(free.recommendation.has_value()) << free.no_plan_reason;
  EXPECT_EQ(free.recommendation->hardware.accelerator, "zpu-5");
  EXPECT_FALSE(free.recommendation->estimates.price_known);
  q.goal.budget_usd = 1e7;
  const PlanResponse budgeted = Plan(q);
  EXPECT_FALSE(budgeted.recommendation.has_value());
  EXPECT_THAT(budgeted.no_plan_reason, HasSubstr("unknown price"));

  q.constraints.allowed_series = {"Z9"};
  const PlanResponse priced = Plan(q);
  ASSERT_TRUE(priced.recommendation.has_value()) << priced.no_plan_reason;
  EXPECT_TRUE(priced.recommendation->estimates.price_known);

  ReviewRequest review;
  review.workload = Medium();
  review.goal.budget_usd = 1e7;
  review.as_of = "2026-09-26";
  Proposal unpriced;
  unpriced.label = "Z11";
  unpriced.hardware = HardwareProposal{};
  unpriced.hardware->accelerator = "zpu-5";
  review.proposals = {unpriced};
  ReviewResponse out = Review(review);
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_NE(out.verdicts[0].verdict, Verdict::kRecommended);
  EXPECT_TRUE(Has(out.verdicts[0], ReasonCode::kPriceUnknown));
  review.proposals[0].hardware->accelerator = "zpu-1";
  out = Review(review);
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRecommended)
      << out.verdicts[0].reason;
  EXPECT_FALSE(Has(out.verdicts[0], ReasonCode::kPriceUnknown));
}

// A stated tensor degree larger than a slice puts its groups over DCN:
// SPEC §4 rejects that COMMUNICATION_BOUND whether the proposal says
// dcn=tensor or only the degree, on today's slices, as hardware with a
// layout, and with no setup today (TP 1024 over four 256-chip slices was
// judged at TP 8 and RECOMMENDED). A degree a slice holds is judged.
TEST_F(SyntheticMultisliceTest, TensorDegreeBeyondASliceCrossesDcn) {
  const auto tensor = [](Proposal p, int degree) {
    DistributionProposal& d =
        p.distribution ? *p.distribution : *p.hardware->layout;
    d.strategy = Strategy::kHybrid;
    d.tensor_parallelism = degree;
    return p;
  };
  Proposal hardware = HwP("hw", "4x4", 4);
  hardware.hardware->layout = DistributionProposal{};
  for (bool today : {true, false}) {
    ReviewRequest r = OnSlices<ReviewRequest>(Medium(), 4);
    if (!today) r.current_setup = CurrentSetup{};
    r.proposals = {tensor(DistP("tp 32", DcnParallelism::kUnspecified, 4), 32),
                   tensor(hardware, 32),
                   tensor(DistP("tp 4", DcnParallelism::kUnspecified, 4), 4)};
    const ReviewResponse out = Review(r);
    ASSERT_EQ(out.verdicts.size(), 3u);
    for (int i : {0, 1}) {
      EXPECT_EQ(out.verdicts[i].verdict, Verdict::kRejected) << today << i;
      EXPECT_TRUE(Has(out.verdicts[i], ReasonCode::kCommunicationBound))
          << today << i << out.verdicts[i].reason;
      EXPECT_THAT(out.verdicts[i].reason, HasSubstr("spans slices of"));
    }
    EXPECT_FALSE(Has(out.verdicts[2], ReasonCode::kCommunicationBound))
        << today << out.verdicts[2].reason;
  }
}

// ------------------------------------------------ Multislice units

// A TPU whose largest multi-host slice (4x6, 24 chips) is not a power of
// two; 2x8 and 4x4 both have 16 chips.
catalog::CatalogPtr UnevenSlicesCatalog() {
  return SyntheticCatalog()
      .AddTpu({.accelerator = "ztpu-4",
               .name = "TPU Z4",
               .memory_gib = 16,
               .peak_bf16_tflops = 400,
               .ici_gbps = 800,
               .dcn_gbps = 100,
               .chips_per_vm = 4,
               .topologies = {"2x2", "2x4", "2x8", "4x4", "4x6"},
               .on_demand_hourly_per_chip = 1.2})
      .Build();
}

// Multislice is searched over the largest multi-host slice and over the
// largest power-of-two one, the most cube-like of its chip count: a batch
// of 2^k sequences splits evenly over slices of 2^k chips, where the
// largest slice's multiples leave ranks idle (2 x v5p 16x16x24 gave a
// batch of 2,048 no more ranks than 2 x 16x16x16, at 1.5x the cost).
TEST(MultisliceUnitsTest, TheLargestAndTheLargestPowerOfTwoSlice) {
  const catalog::CatalogPtr uneven = UnevenSlicesCatalog();
  const internal::Index index = internal::BuildIndex(*uneven);
  ASSERT_EQ(index.families.size(), 1u);
  const internal::Family& f = index.families[0];
  ASSERT_NE(f.largest_multi_host_slice, nullptr);
  ASSERT_NE(f.power_of_two_multi_host_slice, nullptr);
  EXPECT_EQ(f.largest_multi_host_slice->topology->topology, "4x6");
  EXPECT_EQ(f.power_of_two_multi_host_slice->topology->topology, "4x4");
  // Both ways: where the largest slice is a power of two it is both.
  const catalog::CatalogPtr even = SlicesCatalog();
  for (const internal::Family& g : internal::BuildIndex(*even).families) {
    if (g.platform != Platform::kTpu) continue;
    EXPECT_EQ(g.largest_multi_host_slice->topology->topology, "4x4");
    EXPECT_EQ(g.power_of_two_multi_host_slice, g.largest_multi_host_slice);
  }
}

}  // namespace
}  // namespace accelplan::planner
