// Edge rules of issue #16 item 3, each tested both ways, on the production
// catalog (Coral Edge TPU) and on a synthetic edge device:
// - a model not fully int8, or with ops the Edge TPU compiler does not map,
//   still runs on the edge device, from the first unmapped op onward on the
//   host CPU (https://coral.ai/docs/edgetpu/models-intro/#compiling): the
//   plan warns EDGE_OPS_ON_CPU and offers QUANTIZE_FULL_INT8 /
//   REPLACE_UNSUPPORTED_OP addressing it;
// - a model larger than the device's hard model-size limit (catalog fact
//   max_model_bytes; the 2 GiB .tflite FlatBuffer for Coral) is rejected
//   HBM_TOO_SMALL with the numbers; one larger only than the on-chip
//   parameter cache (param_cache_bytes; "the Edge TPU cache (~8 MB)",
//   https://coral.ai/docs/edgetpu/pipeline/) is warned;
// - ReviewPlan judges the edge remedies, and every other remedy, against
//   EDGE_OPS_ON_CPU like any other symptom.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "catalog/loader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/testing/verdicts.h"
#include "tests/planner/testing/codes.h"
#include "tests/planner/testing/synthetic_catalog.h"

namespace accelplan::planner {
namespace {

using testutil::Has;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using testutil::Codes;

// One catalog under test: its edge device and that device's limits.
struct EdgeCatalog {
  std::string label;
  std::string accelerator;  // the edge family's accelerator id
  double param_cache_bytes = 0;
  double max_model_bytes = 0;
  std::shared_ptr<Planner> planner;
};

std::vector<EdgeCatalog>& Catalogs() {
  static auto* all = new std::vector<EdgeCatalog>();
  return *all;
}

void LoadCatalogs() {
  if (!Catalogs().empty()) return;
  auto prod = catalog::LoadCatalog(ACCELPLAN_CATALOG_DB_PATH);
  ASSERT_TRUE(prod.ok()) << prod.status();
  // catalog/data/41_tpu_facts.sql: 8e6 B [CORAL-PIPELINE], 2^31 B
  // [FLATBUFFERS-MAX].
  Catalogs().push_back({"production", "coral-edge-tpu", 8e6, 2147483648.0,
                        std::make_shared<Planner>(*prod)});
  // Limits no real device has, so the rules are seen to follow the facts.
  Catalogs().push_back(
      {"synthetic", "zedge-1", 4.0 * 1024 * 1024, 1024.0 * 1024 * 1024,
       std::make_shared<Planner>(
           testutil::SyntheticCatalog()
               .AddGpuSeries("Z9", {.accelerator = "zpu-1",
                                    .memory_gib = 24,
                                    .peak_bf16_tflops = 400,
                                    .on_demand_hourly_per_device = 2.0})
               .AddCpuSeries("ZC1", {.fp32_gflops_per_vcpu = 64})
               .AddEdgeDevice({.accelerator = "zedge-1",
                               .name = "Z Edge",
                               .peak_int8_tops = 2,
                               .param_cache_mib = 4,
                               .max_model_gib = 1})
               .Build())});
}

class EdgeRulesTest : public ::testing::TestWithParam<int> {
 public:
  static void SetUpTestSuite() { LoadCatalogs(); }
  const EdgeCatalog& C() const { return Catalogs()[GetParam()]; }
  PlanResponse Plan(const PlanRequest& r) const {
    EXPECT_TRUE(ValidatePlanRequest(r).empty());
    return C().planner->Plan(r);
  }
  ReviewResponse Review(const ReviewRequest& r) const {
    EXPECT_TRUE(ValidateReviewRequest(r).empty());
    return C().planner->Review(r);
  }
  // A parameter count below the on-chip cache, between the cache and the
  // hard limit, and beyond the hard limit (int8: one byte per parameter).
  double Fits() const { return C().param_cache_bytes / 4; }
  double Streams() const { return C().param_cache_bytes * 4; }
  double TooLarge() const { return C().max_model_bytes * 4; }
};

// An on-device classifier; fully int8 TFLite unless a test says otherwise.
Workload OnDevice(double params) {
  Workload w;
  w.framework = Framework::kTensorflow;
  w.model_kind = ModelKind::kCnn;
  w.parameter_count = params;
  w.deployment_target = DeploymentTarget::kOnDeviceInference;
  w.edge.model_format = ModelFormat::kTflite;
  w.edge.quantization = Quantization::kFullInt8;
  return w;
}

PlanRequest Req(const Workload& w) {
  PlanRequest r;
  r.workload = w;
  r.as_of = "2026-09-26";
  return r;
}

bool HasWarning(const PlanResponse& r, const std::string& part) {
  return std::any_of(r.warnings.begin(), r.warnings.end(),
                     [&](const Reason& x) {
                       return x.message.find(part) != std::string::npos;
                     });
}

std::vector<RemedyKind> RemedyKinds(const PlanResponse& r) {
  std::vector<RemedyKind> out;
  for (const Remedy& m : r.remedies) {
    EXPECT_EQ(m.addresses, Symptom::kEdgeOpsOnCpu) << m.summary;
    out.push_back(m.kind);
  }
  return out;
}

std::string Recommended(const PlanResponse& r) {
  return r.recommendation ? r.recommendation->hardware.accelerator : "";
}

// An edge device is bought, not provisioned: proposed by the machine type
// PlanTraining names, it is the recommendation, not "not offered
// on-demand".
TEST_P(EdgeRulesTest, TheDeviceNamedByItsMachineTypeIsTheRecommendation) {
  const PlanResponse plan = Plan(Req(OnDevice(Fits())));
  ASSERT_TRUE(plan.recommendation.has_value()) << plan.no_plan_reason;
  const std::string machine = plan.recommendation->hardware.machine_type;
  ASSERT_FALSE(machine.empty());
  ReviewRequest r;
  r.workload = OnDevice(Fits());
  r.as_of = "2026-09-26";
  Proposal p;
  p.label = machine;
  p.hardware = HardwareProposal{};
  p.hardware->machine_type = machine;
  p.hardware->count = 1;
  r.proposals = {p};
  const ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRecommended)
      << out.verdicts[0].reason;
}

// ------------------------------------------------------------ CPU fallback

TEST_P(EdgeRulesTest, FullyInt8MappedModelRunsOnTheEdgeTpuWithoutWarning) {
  const PlanResponse r = Plan(Req(OnDevice(Fits())));
  EXPECT_EQ(Recommended(r), C().accelerator) << r.no_plan_reason;
  EXPECT_FALSE(HasWarning(r, "EDGE_OPS_ON_CPU"));
  EXPECT_TRUE(r.remedies.empty());
}

TEST_P(EdgeRulesTest, ModelNotFullyInt8RunsPartlyOnCpuAndGetsQuantizeRemedy) {
  for (Quantization q : {Quantization::kFloat16, Quantization::kDynamicRange,
                         Quantization::kNone}) {
    Workload w = OnDevice(Fits());
    w.edge.quantization = q;
    const PlanResponse r = Plan(Req(w));
    // Still the edge device: on-device inference needs one.
    EXPECT_EQ(Recommended(r), C().accelerator) << r.no_plan_reason;
    EXPECT_TRUE(HasWarning(r, "EDGE_OPS_ON_CPU"));
    EXPECT_TRUE(HasWarning(r, "not fully int8"));
    EXPECT_THAT(RemedyKinds(r), ::testing::ElementsAre(
                                    RemedyKind::kQuantizeFullInt8));
  }
}

TEST_P(EdgeRulesTest, UnmappedOpsRunOnCpuAndGetReplaceRemedyNamingThem) {
  Workload w = OnDevice(Fits());
  w.edge.has_unmapped_ops = true;
  w.edge.unmapped_op_count = 3;
  const PlanResponse r = Plan(Req(w));
  EXPECT_EQ(Recommended(r), C().accelerator) << r.no_plan_reason;
  EXPECT_TRUE(HasWarning(r, "EDGE_OPS_ON_CPU"));
  EXPECT_TRUE(HasWarning(r, "3 ops the Edge TPU compiler does not map"));
  EXPECT_TRUE(HasWarning(r, "coral.ai/docs/edgetpu/models-intro"));
  EXPECT_THAT(RemedyKinds(r), ::testing::ElementsAre(
                                  RemedyKind::kReplaceUnsupportedOp));
}

TEST_P(EdgeRulesTest, BothCausesGetBothRemedies) {
  Workload w = OnDevice(Fits());
  w.edge.quantization = Quantization::kFloat16;
  w.edge.has_unmapped_ops = true;
  const PlanResponse r = Plan(Req(w));
  EXPECT_EQ(Recommended(r), C().accelerator);
  EXPECT_THAT(RemedyKinds(r),
              ::testing::UnorderedElementsAre(
                  RemedyKind::kQuantizeFullInt8,
                  RemedyKind::kReplaceUnsupportedOp));
}

TEST_P(EdgeRulesTest, UnmappedOpsOfACloudTrainingJobAreNoEdgeSymptom) {
  Workload w = OnDevice(Fits());
  w.deployment_target = DeploymentTarget::kCloudTraining;
  w.edge.has_unmapped_ops = true;
  w.dataset_examples = 1e6;
  const PlanResponse r = Plan(Req(w));
  EXPECT_FALSE(HasWarning(r, "EDGE_OPS_ON_CPU"));
  EXPECT_TRUE(r.remedies.empty());
  EXPECT_THAT(Codes(r, C().accelerator), Contains(ReasonCode::kNotForTraining));
}

// ------------------------------------------------------------ size limits

TEST_P(EdgeRulesTest, ModelBeyondTheHardLimitIsRejectedWithTheNumbers) {
  const PlanResponse r = Plan(Req(OnDevice(TooLarge())));
  EXPECT_NE(Recommended(r), C().accelerator);
  EXPECT_THAT(Codes(r, C().accelerator), Contains(ReasonCode::kHbmTooSmall));
  bool numbers = false;
  for (const Rejection& rej : r.rejected) {
    if (rej.hardware.accelerator != C().accelerator) continue;
    numbers = rej.reason.find("parameters are") != std::string::npos &&
              rej.reason.find("at most") != std::string::npos;
  }
  EXPECT_TRUE(numbers);
}

TEST_P(EdgeRulesTest, ModelWithinTheHardLimitIsNotRejectedForSize) {
  const PlanResponse r = Plan(Req(OnDevice(C().max_model_bytes / 2)));
  EXPECT_EQ(Recommended(r), C().accelerator) << r.no_plan_reason;
}

TEST_P(EdgeRulesTest, ModelBeyondTheOnChipCacheIsWarnedNotRejected) {
  const PlanResponse r = Plan(Req(OnDevice(Streams())));
  EXPECT_EQ(Recommended(r), C().accelerator) << r.no_plan_reason;
  EXPECT_TRUE(HasWarning(r, "streams from host memory"));
}

TEST_P(EdgeRulesTest, ModelWithinTheOnChipCacheGetsNoStreamingWarning) {
  const PlanResponse r = Plan(Req(OnDevice(Fits())));
  EXPECT_FALSE(HasWarning(r, "streams from host memory"));
}

TEST_P(EdgeRulesTest, ModelOfUnknownSizeIsNotJudgedOnSize) {
  const PlanResponse r = Plan(Req(OnDevice(0)));
  EXPECT_EQ(Recommended(r), C().accelerator) << r.no_plan_reason;
  EXPECT_FALSE(HasWarning(r, "streams from host memory"));
}

// ------------------------------------------------------------ ReviewPlan

Proposal RemedyP(RemedyKind k) {
  Proposal p;
  p.label = "remedy";
  p.remedy = RemedyProposal{};
  p.remedy->kind = k;
  return p;
}

ReviewRequest EdgeReview(const Workload& w, std::vector<RemedyKind> kinds) {
  ReviewRequest r;
  r.workload = w;
  r.as_of = "2026-09-26";
  for (RemedyKind k : kinds) r.proposals.push_back(RemedyP(k));
  return r;
}

// Attention multiplies two activations (BATCH_MATMUL), which the Edge TPU
// does not map (https://coral.ai/docs/edgetpu/models-intro/
// #supported-operations): a transformer, named by its kind or by a shape
// with heads, is rejected OPS_UNSUITED_TO_TPU; a CNN of the same size is
// not.
TEST_P(EdgeRulesTest, ATransformerIsRejectedForItsAttention) {
  Workload by_kind = OnDevice(Fits());
  by_kind.model_kind = ModelKind::kDenseTransformer;
  Workload by_shape = OnDevice(Fits());
  by_shape.model_kind = ModelKind::kOther;
  by_shape.transformer_shape.attention_heads = 4;
  for (const Workload& w : {by_kind, by_shape}) {
    const PlanResponse r = Plan(Req(w));
    EXPECT_NE(Recommended(r), C().accelerator);
    EXPECT_THAT(Codes(r, C().accelerator),
                Contains(ReasonCode::kOpsUnsuitedToTpu));
  }
  const PlanResponse cnn = Plan(Req(OnDevice(Fits())));
  EXPECT_EQ(Recommended(cnn), C().accelerator) << cnn.no_plan_reason;
  EXPECT_THAT(Codes(cnn, C().accelerator),
              Not(Contains(ReasonCode::kOpsUnsuitedToTpu)));
  // Every code that applies: one past the hard size limit gets that too.
  Workload big = by_kind;
  big.parameter_count = TooLarge();
  EXPECT_THAT(Codes(Plan(Req(big)), C().accelerator),
              ::testing::IsSupersetOf(
                  {ReasonCode::kOpsUnsuitedToTpu, ReasonCode::kHbmTooSmall}));
  // Quantizing leaves the attention unmapped: no edge remedy in the plan,
  // and proposed, the remedy is rejected for the same reason; a CNN's is
  // not.
  Workload float16 = by_kind;
  float16.edge.quantization = Quantization::kFloat16;
  EXPECT_TRUE(Plan(Req(float16)).remedies.empty());
  const ReviewResponse v =
      Review(EdgeReview(float16, {RemedyKind::kQuantizeFullInt8}));
  ASSERT_EQ(v.verdicts.size(), 1u);
  EXPECT_EQ(v.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_TRUE(Has(v.verdicts[0], ReasonCode::kOpsUnsuitedToTpu))
      << v.verdicts[0].reason;
  Workload cnn16 = OnDevice(Fits());
  cnn16.edge.quantization = Quantization::kFloat16;
  const ReviewResponse c16 =
      Review(EdgeReview(cnn16, {RemedyKind::kQuantizeFullInt8}));
  ASSERT_EQ(c16.verdicts.size(), 1u);
  EXPECT_NE(c16.verdicts[0].verdict, Verdict::kRejected)
      << c16.verdicts[0].reason;
}

TEST_P(EdgeRulesTest, ReviewRecommendsQuantizingAFloatModel) {
  Workload w = OnDevice(Fits());
  w.edge.quantization = Quantization::kFloat16;
  const ReviewResponse out = Review(EdgeReview(
      w, {RemedyKind::kQuantizeFullInt8, RemedyKind::kReplaceUnsupportedOp,
          RemedyKind::kAddAccelerators, RemedyKind::kFasterInputPipeline}));
  ASSERT_EQ(out.verdicts.size(), 4u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRecommended)
      << out.verdicts[0].reason;
  // Replacing ops also acts on the symptom, but the stated cause is the
  // quantization.
  EXPECT_EQ(out.verdicts[1].verdict, Verdict::kViable);
  for (int i : {2, 3}) {
    EXPECT_EQ(out.verdicts[i].verdict, Verdict::kRejected);
    EXPECT_TRUE(Has(out.verdicts[i], ReasonCode::kDoesNotAddressBottleneck))
        << out.verdicts[i].reason;
    EXPECT_THAT(out.verdicts[i].reason, HasSubstr("EDGE_OPS_ON_CPU"));
  }
}

// Both causes stated: quantizing comes first, whatever the labels say (the
// Edge TPU runs only fully 8-bit models, so replacing ops in a model that
// is not leaves it on the CPU); with only unmapped ops, replacing them.
TEST_P(EdgeRulesTest, ReviewPutsQuantizingFirstWhenBothCausesAreStated) {
  Workload w = OnDevice(Fits());
  w.edge.quantization = Quantization::kDynamicRange;
  w.edge.has_unmapped_ops = true;
  for (bool quantize_first : {true, false}) {
    ReviewRequest r = EdgeReview(
        w, {RemedyKind::kReplaceUnsupportedOp, RemedyKind::kQuantizeFullInt8});
    r.proposals[0].label = quantize_first ? "b" : "a";
    r.proposals[1].label = quantize_first ? "a" : "b";
    const ReviewResponse out = Review(r);
    ASSERT_EQ(out.verdicts.size(), 2u);
    EXPECT_EQ(out.verdicts[1].verdict, Verdict::kRecommended)
        << out.verdicts[1].reason;
    EXPECT_EQ(out.verdicts[0].verdict, Verdict::kViable)
        << out.verdicts[0].reason;
  }
}

TEST_P(EdgeRulesTest, ReviewRecommendsReplacingUnmappedOpsOfAnInt8Model) {
  Workload w = OnDevice(Fits());
  w.edge.has_unmapped_ops = true;
  const ReviewResponse out = Review(EdgeReview(
      w, {RemedyKind::kQuantizeFullInt8, RemedyKind::kReplaceUnsupportedOp}));
  ASSERT_EQ(out.verdicts.size(), 2u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_TRUE(Has(out.verdicts[0], ReasonCode::kNotApplicable));
  EXPECT_EQ(out.verdicts[1].verdict, Verdict::kRecommended)
      << out.verdicts[1].reason;
}

TEST_P(EdgeRulesTest, StatedSymptomAloneMakesEdgeRemediesAddressIt) {
  Workload w = OnDevice(Fits());
  w.edge.quantization = Quantization::kUnspecified;
  ReviewRequest r = EdgeReview(w, {RemedyKind::kReplaceUnsupportedOp,
                                   RemedyKind::kUseSpot});
  r.current_setup.symptoms = {Symptom::kEdgeOpsOnCpu};
  const ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 2u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRecommended);
  EXPECT_TRUE(Has(out.verdicts[1], ReasonCode::kDoesNotAddressBottleneck));
  // Plan offers both: neither cause is ruled out.
  PlanRequest p = Req(w);
  p.current_setup.symptoms = {Symptom::kEdgeOpsOnCpu};
  EXPECT_THAT(RemedyKinds(Plan(p)),
              ::testing::UnorderedElementsAre(
                  RemedyKind::kQuantizeFullInt8,
                  RemedyKind::kReplaceUnsupportedOp));
}

TEST_P(EdgeRulesTest, ReviewRejectsEdgeRemediesForAnotherSymptom) {
  Workload w = OnDevice(Fits());  // fully int8, every op mapped
  ReviewRequest r = EdgeReview(w, {RemedyKind::kQuantizeFullInt8,
                                   RemedyKind::kReplaceUnsupportedOp});
  r.current_setup.symptoms = {Symptom::kInputBound};
  const ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 2u);
  for (const ProposalVerdict& v : out.verdicts) {
    EXPECT_EQ(v.verdict, Verdict::kRejected);
    EXPECT_TRUE(Has(v, ReasonCode::kDoesNotAddressBottleneck)) << v.reason;
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogs, EdgeRulesTest, ::testing::Values(0, 1),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return i.param == 0 ? std::string("Production")
                                               : std::string("Synthetic");
                         });

// ------------------------------------------------------------ nonsense

// Issue #16: "a 1e15-parameter model for on-device inference gets a Coral
// USB". Validation caps parameter_count (planner/limits.h), so the planner
// is also called directly, as a caller that skips validation would.
TEST(EdgeNonsenseTest, PetaParameterModelGetsNoCoralUsb) {
  LoadCatalogs();
  const Planner& planner = *Catalogs()[0].planner;
  for (double params : {1e15, 1e12, 5e9}) {
    const PlanResponse r = planner.Plan(Req(OnDevice(params)));
    ASSERT_FALSE(r.recommendation.has_value() &&
                 r.recommendation->hardware.platform == Platform::kEdge)
        << params << " parameters got " << Recommended(r);
    EXPECT_THAT(Codes(r, "coral-edge-tpu"), Contains(ReasonCode::kHbmTooSmall))
        << params;
  }
  // A MobileNet-class model (3.4e6 parameters) still gets one, silently.
  const PlanResponse ok = planner.Plan(Req(OnDevice(3.4e6)));
  EXPECT_EQ(Recommended(ok), "coral-edge-tpu");
  EXPECT_THAT(Codes(ok, "coral-edge-tpu"), Not(Contains(ReasonCode::kHbmTooSmall)));
}

}  // namespace
}  // namespace accelplan::planner
