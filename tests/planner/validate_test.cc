// Semantic validation: every bad field is named by its proto path, and all
// violations come back in one call.
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/engine.h"
#include "planner/limits.h"
#include "planner/planner.h"
#include "planner/remedies.h"
#include "planner/types.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::set<std::string> Fields(const std::vector<FieldViolation>& v) {
  std::set<std::string> out;
  for (const FieldViolation& f : v) out.insert(f.field);
  return out;
}

// A plausible fine-tuning request with every number in range.
PlanRequest GoodRequest() {
  PlanRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.parameter_count = 3e9;
  r.workload.dataset_tokens = 4e9;
  r.workload.global_batch_size = 256;
  r.workload.transformer_shape = {26, 3072, 24, 2048, 32000, 0};
  r.goal.deadline_hours = 72;
  r.goal.budget_usd = 5000;
  r.current_setup.tpu_topology = "4x4";
  r.as_of = "2026-05-01";
  return r;
}

TEST(ValidatePlanRequest, AcceptsPlausibleRequest) {
  EXPECT_THAT(ValidatePlanRequest(GoodRequest()), IsEmpty());
}

// SPEC §5: a request with nothing to plan is refused, naming `workload`;
// an objective, a budget, a framework or a count limit alone give nothing
// to plan.
TEST(ValidatePlanRequest, RefusesRequestsWithNothingToPlan) {
  std::vector<PlanRequest> nothing(6);
  nothing[1].goal.objective = Objective::kMinTime;
  nothing[2].goal.budget_usd = 5000;
  nothing[2].goal.deadline_hours = 24;
  nothing[3].workload.framework = Framework::kPytorch;
  nothing[3].workload.model_kind = ModelKind::kDenseTransformer;
  nothing[4].constraints.max_accelerators = 8;
  nothing[4].constraints.single_host_only = true;
  nothing[5].workload.precision = Precision::kBf16Mixed;
  nothing[5].workload.global_batch_size = 256;
  for (size_t i = 0; i < nothing.size(); ++i) {
    const auto v = ValidatePlanRequest(nothing[i]);
    ASSERT_EQ(v.size(), 1u) << i;
    EXPECT_EQ(v[0].field, "workload") << i;
    EXPECT_THAT(v[0].description, HasSubstr("parameter_count")) << i;
    EXPECT_THAT(v[0].description, HasSubstr("current_setup.hardware")) << i;
  }
}

// Each fact alone gives something to plan: a workload size, the current
// setup, or a fact a hard rule picks hardware with.
TEST(ValidatePlanRequest, AcceptsAnyOneFactToPlanWith) {
  std::vector<std::pair<std::string, PlanRequest>> one;
  auto add = [&](std::string name) -> PlanRequest& {
    one.push_back({std::move(name), PlanRequest{}});
    return one.back().second;
  };
  add("parameter_count").workload.parameter_count = 7e9;
  add("active_parameter_count").workload.active_parameter_count = 7e9;
  add("shape").workload.transformer_shape.layers = 32;
  add("model_name").workload.model_name = "llama-3-8b";
  add("embedding").workload.embedding_table_gib = 40;
  add("per_device").workload.per_device_memory_gib = 30;
  add("tokens").workload.dataset_tokens = 1e9;
  add("examples").workload.dataset_examples = 1e6;
  add("dataset_gib").workload.dataset_gib = 4;
  add("hardware").current_setup.hardware = "a2-highgpu-8g";
  add("symptom").current_setup.symptoms = {Symptom::kInputBound};
  add("fp64").workload.precision = Precision::kFp64Required;
  add("fp8").workload.precision = Precision::kFp8;
  add("cuda").workload.custom_cuda_kernels = true;
  add("cpu_ops").workload.cpu_only_custom_ops = true;
  add("tpu_ops").workload.tpu_unsuited_ops = {TpuUnsuitedOp::kFrequentBranching};
  add("on_device").workload.deployment_target =
      DeploymentTarget::kOnDeviceInference;
  add("horovod").constraints.framework_agnostic_distribution = true;
  add("platforms").constraints.allowed_platforms = {Platform::kTpu};
  add("series").constraints.allowed_series = {"TPU v5e"};
  add("run_platform").constraints.run_platform = RunPlatform::kVertexTraining;
  for (const auto& [name, r] : one) {
    EXPECT_THAT(ValidatePlanRequest(r), IsEmpty()) << name;
  }
}

TEST(ValidatePlanRequest, NamesNegativeParameterCount) {
  PlanRequest r = GoodRequest();
  r.workload.parameter_count = -7e9;
  const auto v = ValidatePlanRequest(r);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "workload.parameter_count");
  EXPECT_FALSE(v[0].description.empty());
}

// Which layers skip the window needs a window; a negative one is named.
TEST(ValidatePlanRequest, NamesAGlobalLayerPatternWithoutAWindow) {
  PlanRequest r = GoodRequest();
  r.workload.transformer_shape.global_attention_every = 6;
  EXPECT_THAT(Fields(ValidatePlanRequest(r)),
              Contains("workload.transformer_shape.global_attention_every"));
  r.workload.transformer_shape.sliding_window = 1024;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.transformer_shape.sliding_window = -1;
  EXPECT_THAT(Fields(ValidatePlanRequest(r)),
              Contains("workload.transformer_shape.sliding_window"));
}

TEST(ValidatePlanRequest, NamesNanDatasetTokens) {
  PlanRequest r = GoodRequest();
  r.workload.dataset_tokens = std::nan("");
  EXPECT_THAT(Fields(ValidatePlanRequest(r)),
              Contains("workload.dataset_tokens"));
}

TEST(ValidatePlanRequest, NamesInfiniteBudget) {
  PlanRequest r = GoodRequest();
  r.goal.budget_usd = std::numeric_limits<double>::infinity();
  EXPECT_THAT(Fields(ValidatePlanRequest(r)), Contains("goal.budget_usd"));
}

TEST(ValidatePlanRequest, NamesAbsurdSizes) {
  PlanRequest r = GoodRequest();
  r.workload.parameter_count = 1e20;  // a unit slip, not a model
  r.workload.embedding_table_gib = 1e15;
  r.goal.deadline_hours = 1e9;
  const auto f = Fields(ValidatePlanRequest(r));
  EXPECT_THAT(f, Contains("workload.parameter_count"));
  EXPECT_THAT(f, Contains("workload.embedding_table_gib"));
  EXPECT_THAT(f, Contains("goal.deadline_hours"));
}

TEST(ValidatePlanRequest, AcceptsLargeButRealModel) {
  PlanRequest r = GoodRequest();
  r.workload.parameter_count = 1.8e12;  // a trillion-parameter MoE is real
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
}

TEST(ValidatePlanRequest, NamesMalformedAsOfDates) {
  for (const char* bad :
       {"2026-13-01", "2026-04-32", "yesterday", "01/05/2026", "2026-1-05"}) {
    PlanRequest r = GoodRequest();
    r.as_of = bad;
    EXPECT_THAT(Fields(ValidatePlanRequest(r)), Contains("as_of")) << bad;
  }
}

TEST(ValidatePlanRequest, NamesDaysPastTheEndOfTheMonth) {
  for (const char* bad : {"2026-02-30", "2026-04-31", "2027-02-29"}) {
    PlanRequest r = GoodRequest();
    r.as_of = bad;
    EXPECT_THAT(Fields(ValidatePlanRequest(r)), Contains("as_of")) << bad;
  }
}

TEST(ValidatePlanRequest, AcceptsLeapDay) {
  PlanRequest r = GoodRequest();
  r.as_of = "2028-02-29";
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
}

TEST(ValidatePlanRequest, NamesMalformedTopologies) {
  for (const char* bad : {"2x", "abc", "4x0", "x4x4"}) {
    PlanRequest r = GoodRequest();
    r.current_setup.tpu_topology = bad;
    EXPECT_THAT(Fields(ValidatePlanRequest(r)),
                Contains("current_setup.tpu_topology"))
        << bad;
  }
}

TEST(ValidatePlanRequest, AcceptsTwoAndThreeDimensionalTopologies) {
  for (const char* good : {"2x2", "16x16", "2x2x1", "4x4x8"}) {
    PlanRequest r = GoodRequest();
    r.current_setup.tpu_topology = good;
    EXPECT_THAT(ValidatePlanRequest(r), IsEmpty()) << good;
  }
}

TEST(ValidatePlanRequest, NamesHeadsThatDoNotDivideHidden) {
  PlanRequest r = GoodRequest();
  r.workload.transformer_shape.attention_heads = 7;  // 3072 % 7 != 0
  EXPECT_THAT(Fields(ValidatePlanRequest(r)),
              Contains("workload.transformer_shape.attention_heads"));
}

TEST(ValidatePlanRequest, ReportsEveryViolationAtOnce) {
  PlanRequest r = GoodRequest();
  r.workload.parameter_count = -1;
  r.workload.dataset_tokens = std::nan("");
  r.workload.global_batch_size = -32;
  r.goal.budget_usd = -100;
  r.constraints.max_accelerators = -8;
  r.current_setup.layer_widths = {512, -3};
  r.current_setup.tpu_topology = "big";
  r.as_of = "2026-99-99";
  const auto v = ValidatePlanRequest(r);
  const std::set<std::string> want = {
      "workload.parameter_count",     "workload.dataset_tokens",
      "workload.global_batch_size",   "goal.budget_usd",
      "constraints.max_accelerators", "current_setup.layer_widths[1]",
      "current_setup.tpu_topology",   "as_of"};
  EXPECT_EQ(Fields(v), want);
  EXPECT_EQ(v.size(), want.size());
  for (const FieldViolation& f : v)
    EXPECT_FALSE(f.description.empty()) << f.field;
}

ReviewRequest GoodReview() {
  ReviewRequest r;
  r.workload.framework = Framework::kJax;
  r.workload.parameter_count = 8e9;
  Proposal hw;
  hw.label = "v5e";
  hw.hardware = HardwareProposal{};
  hw.hardware->platform = Platform::kTpu;
  hw.hardware->accelerator = "tpu-v5e";
  hw.hardware->tpu_topology = "8x8";
  r.proposals.push_back(hw);
  return r;
}

TEST(ValidateReviewRequest, AcceptsPlausibleReview) {
  EXPECT_THAT(ValidateReviewRequest(GoodReview()), IsEmpty());
}

TEST(ValidateReviewRequest, RequiresAtLeastOneProposal) {
  ReviewRequest r = GoodReview();
  r.proposals.clear();
  EXPECT_THAT(Fields(ValidateReviewRequest(r)), Contains("proposals"));
}

TEST(ValidateReviewRequest, NamesEachBadProposalField) {
  ReviewRequest r = GoodReview();
  Proposal both;  // hardware and remedy at once: ambiguous
  both.hardware = HardwareProposal{};
  both.remedy = RemedyProposal{};
  both.remedy->kind = RemedyKind::kUseSpot;
  r.proposals.push_back(both);
  Proposal no_kind;
  no_kind.remedy = RemedyProposal{};
  no_kind.remedy->layer_widths = {128, -256};
  r.proposals.push_back(no_kind);
  r.proposals[0].hardware->tpu_topology = "8by8";
  r.proposals[0].hardware->count = -4;
  const auto f = Fields(ValidateReviewRequest(r));
  EXPECT_THAT(f, Contains("proposals[0].hardware.tpu_topology"));
  EXPECT_THAT(f, Contains("proposals[0].hardware.count"));
  EXPECT_THAT(f, Contains("proposals[1]"));
  EXPECT_THAT(f, Contains("proposals[2].remedy.kind"));
  EXPECT_THAT(f, Contains("proposals[2].remedy.layer_widths[1]"));
}

TEST(ValidateReviewRequest, NamesNegativeMeshAxes) {
  ReviewRequest r = GoodReview();
  Proposal mesh;
  mesh.label = "mesh";
  mesh.distribution = DistributionProposal{};
  mesh.distribution->strategy = Strategy::kMultislice;
  mesh.distribution->slices = 2;
  mesh.distribution->mesh = MultisliceMesh{};
  mesh.distribution->mesh->ici_fsdp_parallelism = 64;
  mesh.distribution->mesh->dcn_data_parallelism = -2;
  r.proposals.push_back(mesh);
  const auto f = Fields(ValidateReviewRequest(r));
  EXPECT_THAT(f,
              Contains("proposals[1].distribution.mesh.dcn_data_parallelism"));
}

TEST(ValidateReviewRequest, AcceptsValidMesh) {
  ReviewRequest r = GoodReview();
  Proposal mesh;
  mesh.distribution = DistributionProposal{};
  mesh.distribution->strategy = Strategy::kMultislice;
  mesh.distribution->slices = 2;
  mesh.distribution->mesh = MultisliceMesh{};
  mesh.distribution->mesh->ici_fsdp_parallelism = 64;
  mesh.distribution->mesh->dcn_data_parallelism = 2;
  r.proposals.push_back(mesh);
  EXPECT_THAT(ValidateReviewRequest(r), IsEmpty());
}

TEST(ValidateReviewRequest, ChecksWorkloadLikePlan) {
  ReviewRequest r = GoodReview();
  r.workload.per_device_memory_gib = -16;
  r.as_of = "not a date";
  const auto f = Fields(ValidateReviewRequest(r));
  EXPECT_THAT(f, Contains("workload.per_device_memory_gib"));
  EXPECT_THAT(f, Contains("as_of"));
}

TEST(ValidateListRequest, NamesNegativeMinimumMemory) {
  ListRequest r;
  r.min_memory_gib = -1;
  EXPECT_THAT(Fields(ValidateListRequest(r)), Contains("min_memory_gib"));
  r.min_memory_gib = 40;
  EXPECT_THAT(ValidateListRequest(r), IsEmpty());
}

// ------------------------------------------------------------------ limits
// Every size limit of planner/limits.h, both ways: at the limit accepted,
// one over rejected with a violation that names the field and the limit.

namespace L = limits;

// The single violation of `v` for `field`; fails the test when there is not
// exactly one violation.
FieldViolation Only(const std::vector<FieldViolation>& v) {
  EXPECT_EQ(v.size(), 1u);
  return v.empty() ? FieldViolation{} : v.front();
}

void ExpectNamesLimit(const std::vector<FieldViolation>& v,
                      const std::string& field, int64_t limit) {
  const FieldViolation f = Only(v);
  EXPECT_EQ(f.field, field);
  EXPECT_THAT(f.description, HasSubstr(std::to_string(limit))) << f.field;
}

TEST(ValidateLimits, AllowedSeriesCount) {
  PlanRequest r = GoodRequest();
  r.constraints.allowed_series.assign(L::kMaxAllowedSeries, "TPU v5e");
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.constraints.allowed_series.push_back("TPU v5e");
  ExpectNamesLimit(ValidatePlanRequest(r), "constraints.allowed_series",
                   L::kMaxAllowedSeries);
}

TEST(ValidateLimits, HugeAllowedSeriesGivesOneViolation) {
  PlanRequest r = GoodRequest();
  // The issue-20 probe: half a million empty entries in one valid body.
  r.constraints.allowed_series.assign(524288, "");
  ExpectNamesLimit(ValidatePlanRequest(r), "constraints.allowed_series",
                   L::kMaxAllowedSeries);
}

TEST(ValidateLimits, AllowedSeriesEntryLength) {
  PlanRequest r = GoodRequest();
  r.constraints.allowed_series = {"A3 High",
                                  std::string(L::kMaxSeriesNameChars, 'x')};
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.constraints.allowed_series[1].push_back('x');
  ExpectNamesLimit(ValidatePlanRequest(r), "constraints.allowed_series[1]",
                   L::kMaxSeriesNameChars);
}

TEST(ValidateLimits, StringLimitCountsCharactersNotBytes) {
  PlanRequest r = GoodRequest();
  std::string region;
  for (int i = 0; i < L::kMaxStringChars; ++i) region += "\xc3\xa9";  // é
  r.constraints.region = region;  // 512 bytes, 256 characters
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.constraints.region += "e";
  ExpectNamesLimit(ValidatePlanRequest(r), "constraints.region",
                   L::kMaxStringChars);
}

TEST(ValidateLimits, EveryPlanStringField) {
  struct Case {
    const char* field;
    std::string PlanRequest::*top;  // as_of
    std::string Workload::*workload;
    std::string Constraints::*constraints;
    std::string CurrentSetup::*current;
  };
  const std::vector<Case> cases = {
      {"as_of", &PlanRequest::as_of, nullptr, nullptr, nullptr},
      {"workload.framework_version", nullptr, &Workload::framework_version,
       nullptr, nullptr},
      {"constraints.region", nullptr, nullptr, &Constraints::region, nullptr},
      {"current_setup.hardware", nullptr, nullptr, nullptr,
       &CurrentSetup::hardware},
      {"current_setup.tpu_topology", nullptr, nullptr, nullptr,
       &CurrentSetup::tpu_topology},
  };
  for (const Case& c : cases) {
    PlanRequest r = GoodRequest();
    std::string* target = c.top           ? &(r.*c.top)
                          : c.workload    ? &(r.workload.*c.workload)
                          : c.constraints ? &(r.constraints.*c.constraints)
                                          : &(r.current_setup.*c.current);
    *target = std::string(L::kMaxStringChars + 1, '9');
    const auto v = ValidatePlanRequest(r);
    ExpectNamesLimit(v, c.field, L::kMaxStringChars);
  }
}

TEST(ValidateLimits, LongBadValuesAreNotEchoedWhole) {
  PlanRequest r = GoodRequest();
  r.as_of = std::string(3000, '7');
  const FieldViolation f = Only(ValidatePlanRequest(r));
  EXPECT_EQ(f.field, "as_of");
  EXPECT_LT(f.description.size(), 200u);
  // Just under the length limit: still not a date, quoted truncated.
  r.as_of = std::string(L::kMaxStringChars, '7');
  const FieldViolation g = Only(ValidatePlanRequest(r));
  EXPECT_EQ(g.field, "as_of");
  EXPECT_THAT(g.description, HasSubstr("YYYY-MM-DD"));
  EXPECT_THAT(g.description, HasSubstr("..."));
  EXPECT_LT(g.description.size(), 100u);
}

TEST(ValidateLimits, EchoNeverCutsAMultibyteCharacter) {
  PlanRequest r = GoodRequest();
  std::string topology;
  for (int i = 0; i < 100; ++i) topology += "\xe2\x82\xac";  // €, 3 bytes
  r.current_setup.tpu_topology = topology;
  const FieldViolation f = Only(ValidatePlanRequest(r));
  EXPECT_EQ(f.field, "current_setup.tpu_topology");
  // Whole characters only: every € kept has all three bytes.
  size_t euros = 0;
  for (size_t i = 0;
       (i = f.description.find("\xe2\x82\xac", i)) != std::string::npos;
       i += 3) {
    ++euros;
  }
  EXPECT_EQ(euros, static_cast<size_t>(L::kMaxEchoedChars));
  size_t lead = 0;
  for (unsigned char ch : f.description) lead += ch == 0xe2;
  EXPECT_EQ(lead, euros);
}

TEST(ValidateLimits, Symptoms) {
  PlanRequest r = GoodRequest();
  // Repeats are allowed up to the limit (the planner ignores them) ...
  r.current_setup.symptoms.assign(L::kMaxSymptoms, Symptom::kInputBound);
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  // ... and rejected beyond it.
  r.current_setup.symptoms.push_back(Symptom::kInputBound);
  ExpectNamesLimit(ValidatePlanRequest(r), "current_setup.symptoms",
                   L::kMaxSymptoms);
}

TEST(ValidateLimits, EnumLists) {
  PlanRequest r = GoodRequest();
  r.constraints.allowed_platforms.assign(L::kMaxAllowedPlatforms,
                                         Platform::kTpu);
  r.workload.tpu_unsuited_ops.assign(L::kMaxTpuUnsuitedOps,
                                     TpuUnsuitedOp::kFrequentBranching);
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.constraints.allowed_platforms.push_back(Platform::kTpu);
  ExpectNamesLimit(ValidatePlanRequest(r), "constraints.allowed_platforms",
                   L::kMaxAllowedPlatforms);
  r.constraints.allowed_platforms.pop_back();
  r.workload.tpu_unsuited_ops.push_back(TpuUnsuitedOp::kFrequentBranching);
  ExpectNamesLimit(ValidatePlanRequest(r), "workload.tpu_unsuited_ops",
                   L::kMaxTpuUnsuitedOps);

  ListRequest list;
  list.platforms.assign(L::kMaxListPlatforms, Platform::kGpu);
  EXPECT_THAT(ValidateListRequest(list), IsEmpty());
  list.platforms.push_back(Platform::kGpu);
  ExpectNamesLimit(ValidateListRequest(list), "platforms",
                   L::kMaxListPlatforms);
}

TEST(ValidateLimits, LayerWidths) {
  PlanRequest r = GoodRequest();
  r.current_setup.layer_widths.assign(L::kMaxLayerWidths, 1024);
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.current_setup.layer_widths.push_back(1024);
  ExpectNamesLimit(ValidatePlanRequest(r), "current_setup.layer_widths",
                   L::kMaxLayerWidths);
  // An over-long list of bad widths is one violation, not one per entry.
  r.current_setup.layer_widths.assign(10000, -1);
  ExpectNamesLimit(ValidatePlanRequest(r), "current_setup.layer_widths",
                   L::kMaxLayerWidths);
  r.current_setup.layer_widths = {L::kMaxLayerWidth};
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.current_setup.layer_widths = {L::kMaxLayerWidth + 1};
  ExpectNamesLimit(ValidatePlanRequest(r), "current_setup.layer_widths[0]",
                   L::kMaxLayerWidth);
}

TEST(ValidateLimits, ParameterCount) {
  PlanRequest r = GoodRequest();
  r.workload.parameter_count = L::kMaxParameterCount;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.workload.parameter_count = 1.01e14;
  const FieldViolation f = Only(ValidatePlanRequest(r));
  EXPECT_EQ(f.field, "workload.parameter_count");
  EXPECT_THAT(f.description, HasSubstr("1e+14"));
  r.workload.parameter_count = 1e308;
  EXPECT_EQ(Only(ValidatePlanRequest(r)).field, "workload.parameter_count");
}

TEST(ValidateLimits, CurrentSetupCounts) {
  PlanRequest r = GoodRequest();
  r.current_setup.slice_count = L::kMaxSlices;
  r.current_setup.node_count = L::kMaxNodes;
  r.current_setup.accelerator_count = L::kMaxAccelerators;
  r.constraints.max_accelerators = L::kMaxAccelerators;
  EXPECT_THAT(ValidatePlanRequest(r), IsEmpty());
  r.current_setup.slice_count = L::kMaxSlices + 1;
  ExpectNamesLimit(ValidatePlanRequest(r), "current_setup.slice_count",
                   L::kMaxSlices);
  r.current_setup.slice_count = 1000000;  // the probe's 1e6 slices
  ExpectNamesLimit(ValidatePlanRequest(r), "current_setup.slice_count",
                   L::kMaxSlices);
  r.current_setup.slice_count = 1;
  r.current_setup.node_count = L::kMaxNodes + 1;
  ExpectNamesLimit(ValidatePlanRequest(r), "current_setup.node_count",
                   L::kMaxNodes);
  r.current_setup.node_count = 1;
  r.current_setup.accelerator_count = L::kMaxAccelerators + 1;
  ExpectNamesLimit(ValidatePlanRequest(r), "current_setup.accelerator_count",
                   L::kMaxAccelerators);
  r.current_setup.accelerator_count = 1;
  r.constraints.max_accelerators = L::kMaxAccelerators + 1;
  ExpectNamesLimit(ValidatePlanRequest(r), "constraints.max_accelerators",
                   L::kMaxAccelerators);
}

Proposal HardwareAt(int slices, int count) {
  Proposal p;
  p.label = "hw";
  p.hardware = HardwareProposal{};
  p.hardware->platform = Platform::kTpu;
  p.hardware->accelerator = "tpu-v5e";
  p.hardware->tpu_topology = "16x16";
  p.hardware->slices = slices;
  p.hardware->count = count;
  return p;
}

TEST(ValidateLimits, Proposals) {
  ReviewRequest r = GoodReview();
  r.proposals.assign(L::kMaxProposals, r.proposals.front());
  EXPECT_THAT(ValidateReviewRequest(r), IsEmpty());
  r.proposals.push_back(r.proposals.front());
  ExpectNamesLimit(ValidateReviewRequest(r), "proposals", L::kMaxProposals);
  // Over the limit, bad proposals are not listed one by one.
  Proposal bad = r.proposals.front();
  bad.hardware->count = -1;
  r.proposals.assign(10000, bad);
  ExpectNamesLimit(ValidateReviewRequest(r), "proposals", L::kMaxProposals);
}

TEST(ValidateLimits, ProposalFields) {
  ReviewRequest r = GoodReview();
  r.proposals = {HardwareAt(L::kMaxSlices, L::kMaxAccelerators)};
  r.proposals[0].label = std::string(L::kMaxStringChars, 'a');
  EXPECT_THAT(ValidateReviewRequest(r), IsEmpty());
  r.proposals = {HardwareAt(L::kMaxSlices + 1, 1)};
  ExpectNamesLimit(ValidateReviewRequest(r), "proposals[0].hardware.slices",
                   L::kMaxSlices);
  r.proposals = {HardwareAt(1, L::kMaxAccelerators + 1)};
  ExpectNamesLimit(ValidateReviewRequest(r), "proposals[0].hardware.count",
                   L::kMaxAccelerators);
  r.proposals = {HardwareAt(1, 1)};
  r.proposals[0].label = std::string(L::kMaxStringChars + 1, 'a');
  ExpectNamesLimit(ValidateReviewRequest(r), "proposals[0].label",
                   L::kMaxStringChars);
  r.proposals = {HardwareAt(1, 1)};
  r.proposals[0].hardware->machine_type =
      std::string(L::kMaxStringChars + 1, 'a');
  ExpectNamesLimit(ValidateReviewRequest(r),
                   "proposals[0].hardware.machine_type", L::kMaxStringChars);

  Proposal remedy;
  remedy.remedy = RemedyProposal{};
  remedy.remedy->kind = RemedyKind::kFixTensorShapes;
  remedy.remedy->layer_widths.assign(L::kMaxLayerWidths, 128);
  r.proposals = {remedy};
  EXPECT_THAT(ValidateReviewRequest(r), IsEmpty());
  r.proposals[0].remedy->layer_widths.push_back(128);
  ExpectNamesLimit(ValidateReviewRequest(r), "proposals[0].remedy.layer_widths",
                   L::kMaxLayerWidths);

  Proposal mesh;
  mesh.distribution = DistributionProposal{};
  mesh.distribution->strategy = Strategy::kMultislice;
  mesh.distribution->slices = L::kMaxSlices;
  mesh.distribution->mesh = MultisliceMesh{};
  mesh.distribution->mesh->dcn_data_parallelism = L::kMaxSlices;
  r.proposals = {mesh};
  EXPECT_THAT(ValidateReviewRequest(r), IsEmpty());
  r.proposals[0].distribution->mesh->dcn_data_parallelism = L::kMaxSlices + 1;
  ExpectNamesLimit(ValidateReviewRequest(r),
                   "proposals[0].distribution.mesh.dcn_data_parallelism",
                   L::kMaxSlices);
  r.proposals[0].distribution->mesh->dcn_data_parallelism = 1;
  r.proposals[0].distribution->slices = L::kMaxSlices + 1;
  ExpectNamesLimit(ValidateReviewRequest(r), "proposals[0].distribution.slices",
                   L::kMaxSlices);
}

// What validation lets through, the planner bounds: a symptom repeated up to
// the limit adds its remedies once.
TEST(RemediesForSymptoms, RepeatedSymptomAddsItsRemediesOnce) {
  const catalog::Catalog empty;
  internal::Job once;
  once.current.symptoms = {Symptom::kOutOfMemory, Symptom::kInputBound};
  internal::Job repeated;
  for (int i = 0; i < L::kMaxSymptoms / 2; ++i) {
    repeated.current.symptoms.push_back(Symptom::kOutOfMemory);
    repeated.current.symptoms.push_back(Symptom::kInputBound);
  }
  const std::vector<Remedy> a =
      internal::RemediesForSymptoms(empty, once, nullptr);
  const std::vector<Remedy> b =
      internal::RemediesForSymptoms(empty, repeated, nullptr);
  ASSERT_FALSE(a.empty());
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(b[i].kind, a[i].kind);
    EXPECT_EQ(b[i].summary, a[i].summary);
  }
}

}  // namespace
}  // namespace accelplan::planner
