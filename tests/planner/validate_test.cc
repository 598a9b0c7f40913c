// Semantic validation: every bad field is named by its proto path, and all
// violations come back in one call.
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
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

TEST(ValidatePlanRequest, AcceptsEmptyRequest) {
  EXPECT_THAT(ValidatePlanRequest(PlanRequest{}), IsEmpty());
}

TEST(ValidatePlanRequest, NamesNegativeParameterCount) {
  PlanRequest r = GoodRequest();
  r.workload.parameter_count = -7e9;
  const auto v = ValidatePlanRequest(r);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "workload.parameter_count");
  EXPECT_FALSE(v[0].description.empty());
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

}  // namespace
}  // namespace accelplan::planner
