// workload.zero_stage pins the ZeRO stage of every layout searched
// (planner/zero_stage_pin.h); absent, the planner chooses.
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// Llama 3 8B (its published config: 32 layers, 4096 wide, 8 KV heads,
// SwiGLU 14336), fully fine-tuned on one a3-highgpu-8g.
PlanRequest FineTune8B() {
  PlanRequest r;
  Workload& w = r.workload;
  w.framework = Framework::kPytorch;
  w.model_kind = ModelKind::kDenseTransformer;
  w.parameter_count = 8.03e9;
  w.transformer_shape = {32, 4096, 32, 8192, 128256, 14336};
  w.transformer_shape.num_kv_heads = 8;
  w.transformer_shape.gated_ffn = true;
  w.training_method = TrainingMethod::kFullFineTune;
  w.precision = Precision::kBf16Mixed;
  w.dataset_tokens = 2e9;
  w.global_batch_size = 64;
  r.constraints.allowed_series = {"A3 High"};
  r.constraints.single_host_only = true;
  r.as_of = "2026-09-26";
  return r;
}

class ZeroStagePinTest : public CatalogPlannerTest {
 public:
  static Plan Planned(const PlanRequest& r, const std::string& what) {
    const PlanResponse out = planner_->Plan(r);
    EXPECT_TRUE(out.recommendation.has_value())
        << what << ": " << out.no_plan_reason;
    return out.recommendation.value_or(Plan{});
  }
  static std::vector<std::string> Assumptions(const PlanRequest& r) {
    return planner_->Plan(r).assumptions;
  }
};

// Each pinned stage is the plan's stage, and the memory per device falls as
// the stage shards more of the model states (ZeRO, arXiv:1910.02054 §5:
// stage 1 the optimizer states, 2 the gradients too, 3 the weights too).
TEST_F(ZeroStagePinTest, APinnedStageIsThePlansStage) {
  double before = 0;
  for (int stage : {1, 2, 3}) {
    PlanRequest r = FineTune8B();
    r.workload.zero_stage = stage;
    const Plan p = Planned(r, absl::StrCat("stage ", stage));
    EXPECT_EQ(p.distribution.zero_stage, stage) << p.distribution.framework_api;
    EXPECT_EQ(p.distribution.tensor_parallelism, 1);
    const double gib = p.estimates.memory_per_device.total_gib;
    if (before > 0) {
      EXPECT_LT(gib, before) << "stage " << stage;
    }
    before = gib;
    EXPECT_THAT(Assumptions(r),
                Contains(HasSubstr(absl::StrCat("pins ZeRO stage ", stage))));
  }
  EXPECT_THAT(Assumptions(FineTune8B()), Not(Contains(HasSubstr("pins ZeRO"))));
}

// One device shards nothing: a pinned stage leaves its plan as it is.
TEST_F(ZeroStagePinTest, OneDeviceIsKeptAsItIs) {
  PlanRequest r = FineTune8B();
  r.workload.parameter_count = 1.1e9;  // TinyLlama's size, on one GPU
  r.workload.transformer_shape = {22, 2048, 32, 2048, 32000, 5632};
  r.workload.transformer_shape.num_kv_heads = 4;
  r.constraints.max_accelerators = 1;
  r.constraints.allowed_series = {"A2 Ultra"};  // a2-ultragpu-1g: one A100
  r.workload.zero_stage = 1;
  const Plan p = Planned(r, "1.1B on one GPU, stage 1");
  EXPECT_EQ(p.hardware.total_accelerators, 1);
  EXPECT_EQ(p.distribution.zero_stage, 0) << p.distribution.framework_api;
  EXPECT_THAT(p.distribution.framework_api, Not(HasSubstr("ZeRO")));
}

// Stage 0 keeps every weight, gradient and optimizer state whole on each
// data-parallel rank: 8B at 16 B/param does not fit an 80 GB H100, so the
// model is split by tensor parallelism instead of sharded by ZeRO.
TEST_F(ZeroStagePinTest, StageZeroShardsNothingAcrossReplicas) {
  PlanRequest r = FineTune8B();
  r.workload.zero_stage = 0;
  const Plan p = Planned(r, "stage 0");
  EXPECT_EQ(p.distribution.zero_stage, 0);
  EXPECT_EQ(p.distribution.fsdp_parallelism, 0);
  EXPECT_GT(p.distribution.tensor_parallelism, 1)
      << p.distribution.framework_api;
  EXPECT_THAT(p.distribution.framework_api, Not(HasSubstr("FSDP")));
}

// DeepSpeed's pipeline engine runs ZeRO-0 or ZeRO-1 only. PaLM 540B's
// shape (arXiv:2204.02311 Table 1) on A3 Mega: tensor parallelism over a
// VM's 8 GPUs still leaves 2 x 540B / 8 bytes of bf16 weights per GPU,
// over an H100's 80 GB, so without ZeRO-3's sharded weights only a
// pipeline holds it. Pinned at stage 1 the plan pipelines; at stage 2 no
// layout holds it (no pipeline, and ZeRO-2 keeps every weight of a stage
// whole); at stage 3 FSDP holds it without a pipeline.
TEST_F(ZeroStagePinTest, PipelinesOnlyAtStageZeroOrOne) {
  PlanRequest r = FineTune8B();
  r.workload.parameter_count = 540e9;
  r.workload.transformer_shape = {118, 18432, 48, 2048, 256000, 73728};
  r.workload.training_method = TrainingMethod::kPreTraining;
  r.workload.dataset_tokens = 1e11;
  r.workload.global_batch_size = 1024;
  r.constraints.single_host_only = false;
  r.constraints.allowed_series = {"A3 Mega"};
  r.workload.zero_stage = 1;
  const Plan one = Planned(r, "540B, stage 1");
  EXPECT_GT(one.distribution.pipeline_parallelism, 1)
      << one.distribution.framework_api;

  r.workload.zero_stage = 2;
  const PlanResponse two = planner_->Plan(r);
  EXPECT_FALSE(two.recommendation.has_value())
      << "stage 2: " << two.recommendation->distribution.framework_api
      << " pipeline " << two.recommendation->distribution.pipeline_parallelism;

  r.workload.zero_stage = 3;
  const Plan three = Planned(r, "540B, stage 3");
  EXPECT_LE(three.distribution.pipeline_parallelism, 1);
  EXPECT_EQ(three.distribution.zero_stage, 3);
}

}  // namespace
}  // namespace accelplan::planner
