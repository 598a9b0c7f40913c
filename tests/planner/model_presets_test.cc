// Model presets: a name fills the sizes the request left unset, explicit
// fields win, an unknown name is a violation with close matches, and the
// presets are listed with their sources.
#include "planner/model_presets.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/memory_model.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

class ModelPresetsTest : public CatalogPlannerTest {
 protected:
  // The workload preset `name` leaves for a request stating `kind` and a
  // forward pass per example (0: none); `said`, when given, receives the
  // assumption it states.
  static Workload Preset(const std::string& name,
                         ModelKind kind = ModelKind::kUnspecified,
                         double forward_flops = 0,
                         std::string* said = nullptr) {
    Workload w;
    w.model_name = name;
    w.model_kind = kind;
    w.forward_flops_per_example = forward_flops;
    const std::string assumption = ApplyModelPreset(planner_->catalog(), &w);
    if (said != nullptr) *said = assumption;
    return w;
  }
  static bool ShapeLess(const Workload& w) {
    return w.transformer_shape.layers == 0 &&
           w.transformer_shape.sequence_length == 0;
  }
};

TEST_F(ModelPresetsTest, ANameFillsTheUnsetSizes) {
  Workload w;
  w.model_name = "Llama-3.1-8B";  // case does not matter
  const std::string assumption = ApplyModelPreset(planner_->catalog(), &w);
  EXPECT_THAT(assumption, HasSubstr("llama-3.1-8b"));
  // Published config (catalog source): 8.03e9 parameters, 32 layers of
  // hidden 4096 with 8 KV heads and a SwiGLU FFN of 14336.
  EXPECT_NEAR(w.parameter_count, 8.03e9, 0.01e9);
  EXPECT_EQ(w.transformer_shape.layers, 32);
  EXPECT_EQ(w.transformer_shape.hidden_size, 4096);
  EXPECT_EQ(w.transformer_shape.num_kv_heads, 8);
  EXPECT_TRUE(w.transformer_shape.gated_ffn);
  EXPECT_EQ(w.model_kind, ModelKind::kDenseTransformer);
}

TEST_F(ModelPresetsTest, ExplicitFieldsWin) {
  Workload w;
  w.model_name = "llama-3.1-8b";
  w.parameter_count = 9e9;
  w.transformer_shape.layers = 40;
  ApplyModelPreset(planner_->catalog(), &w);
  EXPECT_EQ(w.parameter_count, 9e9);
  EXPECT_EQ(w.transformer_shape.layers, 40);
  EXPECT_EQ(w.transformer_shape.hidden_size, 4096);  // still filled
}

TEST_F(ModelPresetsTest, MixtureOfExpertsGetsItsActiveParameters) {
  Workload w;
  w.model_name = "mixtral-8x7b";
  ApplyModelPreset(planner_->catalog(), &w);
  EXPECT_GT(w.parameter_count, 4e10);
  EXPECT_GT(w.active_parameter_count, 1e10);
  EXPECT_LT(w.active_parameter_count, w.parameter_count);
  EXPECT_EQ(w.num_experts, 8);
  EXPECT_EQ(w.experts_per_token, 2);  // top-2 routing
}

// A preset with sliding-window attention carries its window and the layers
// that stay global (Gemma 3: 1,024, every sixth; source GEMMA-PT-CONFIG);
// a stated window keeps the preset's global layers; a preset without a
// window leaves none.
TEST_F(ModelPresetsTest, APresetCarriesItsSlidingWindow) {
  Workload gemma;
  gemma.model_name = "gemma-3-12b";
  EXPECT_THAT(ApplyModelPreset(planner_->catalog(), &gemma),
              HasSubstr("Sliding window 1024 (source GEMMA-PT-CONFIG)"));
  EXPECT_EQ(gemma.transformer_shape.sliding_window, 1024);
  EXPECT_EQ(gemma.transformer_shape.global_attention_every, 6);
  Workload stated;
  stated.model_name = "gemma-3-12b";
  stated.transformer_shape.sliding_window = 4096;
  ApplyModelPreset(planner_->catalog(), &stated);
  EXPECT_EQ(stated.transformer_shape.sliding_window, 4096);
  EXPECT_EQ(stated.transformer_shape.global_attention_every, 6);
  Workload llama;
  llama.model_name = "llama-3.1-8b";
  ApplyModelPreset(planner_->catalog(), &llama);
  EXPECT_EQ(llama.transformer_shape.sliding_window, 0);
}

// A top-k other than the preset's changes the active parameters: Mixtral's
// published 46.7B total and 12.9B active at top-2 of 8 put 45.1B in the
// experts (5.64B each) and 1.6B shared, so top-1 is ~7.3B, top-4 ~24.2B
// and top-8 all 46.7B; the preset's own top-k keeps its published count.
TEST_F(ModelPresetsTest, AnotherTopKChangesTheActiveParameters) {
  const auto active_at = [&](int k) {
    Workload w;
    w.model_name = "mixtral-8x7b";
    w.experts_per_token = k;
    const std::string said = ApplyModelPreset(planner_->catalog(), &w);
    EXPECT_EQ(said.find("experts per token instead") != std::string::npos,
              k != 2)
        << said;
    return w.active_parameter_count;
  };
  const double published = active_at(2);
  EXPECT_NEAR(active_at(1), 7.27e9, 0.05e9);
  EXPECT_NEAR(active_at(4), 24.2e9, 0.1e9);
  EXPECT_NEAR(active_at(8), 46.7e9, 0.1e9);
  EXPECT_GT(active_at(4), published);
  EXPECT_LT(active_at(1), published);
}

// Gemma 2 9B's heads are 256 wide, not hidden/heads = 224 (catalog source
// HF-GEMMA-2-9B): the preset carries head_dim, the shape then counts its
// published 9.24e9 parameters (one tied 256,000 x 3584 embedding), and the
// attention FLOPs per token use heads·head_dim = 4096, not the hidden 3584.
TEST_F(ModelPresetsTest, AWideHeadPresetCarriesItsHeadDim) {
  Workload w;
  w.model_name = "gemma-2-9b";
  ApplyModelPreset(planner_->catalog(), &w);
  EXPECT_EQ(w.transformer_shape.head_dim, 256);
  EXPECT_NEAR(TransformerParamsFromShape(w.transformer_shape), 9.24e9, 0.02e9);
  EXPECT_EQ(AttentionWidth(w.transformer_shape), 16 * 256);
  TransformerShape narrow = w.transformer_shape;
  narrow.head_dim = 0;  // both ways: without it a head is 224 wide
  EXPECT_EQ(AttentionWidth(narrow), 3584);
  // q, o lose 2·h·(4096 − 3584), k, v 2·h·(2048 − 1792), in each of 42.
  EXPECT_DOUBLE_EQ(TransformerParamsFromShape(w.transformer_shape) -
                       TransformerParamsFromShape(narrow),
                   42 * (2 * 3584 * 512.0 + 2 * 3584 * 256.0));
  const ListResponse list = planner_->List(ListRequest{});
  int found = 0;
  for (const ModelInfo& m : list.models) {
    if (m.id == "gemma-2-9b") {
      EXPECT_EQ(m.head_dim, 256);
      ++found;
    } else if (m.id == "llama-3.1-8b") {
      EXPECT_EQ(m.head_dim, 128);  // not in its config: hidden / heads
      ++found;
    }
  }
  EXPECT_EQ(found, 2);
  // A request's own heads keep their own width: the preset's 256 belongs
  // to its 16 heads.
  Workload own;
  own.model_name = "gemma-2-9b";
  own.transformer_shape.attention_heads = 28;
  ApplyModelPreset(planner_->catalog(), &own);
  EXPECT_EQ(own.transformer_shape.head_dim, 0);
}

// A vision transformer trains on its patches: ViT-L/16 at 224x224 is 24
// layers of width 1024 over 196 patches plus a class token (arXiv:2010.11929
// Table 1, §3.1), so an image costs (6·P + 12·L·h·s) FLOPs per patch, about
// 0.38 TFLOP (the paper's 61.6 G multiply-adds forward, times 2 for FLOPs
// and 3 for training), not 6·P per image (1.8 GFLOP) as a model without a
// shape would be counted.
TEST_F(ModelPresetsTest, AVisionTransformerCountsItsPatches) {
  std::string said;
  const Workload w = Preset("vit-l-16", ModelKind::kUnspecified, 0, &said);
  EXPECT_THAT(said, HasSubstr("Sequence length 197"));
  EXPECT_EQ(w.transformer_shape.layers, 24);
  EXPECT_EQ(w.transformer_shape.hidden_size, 1024);
  EXPECT_EQ(w.transformer_shape.sequence_length, 197);
  PlanRequest r;
  r.workload.model_name = "vit-l-16";
  r.workload.framework = Framework::kJax;
  r.workload.dataset_examples = 1'281'167;  // ImageNet-1k train
  r.workload.epochs = 1;
  r.as_of = planner_->catalog().data_date;
  const PlanResponse plan = planner_->Plan(r);
  ASSERT_TRUE(plan.recommendation.has_value());
  const Estimates& e = plan.recommendation->estimates;
  ASSERT_TRUE(e.flops_known);
  const double per_image = e.training_flops / 1'281'167;
  EXPECT_GT(per_image, 0.33e12);
  EXPECT_LT(per_image, 0.43e12);
  // Both ways: the same parameter count without the preset's shape is
  // counted per image.
  PlanRequest bare = r;
  bare.workload.model_name.clear();
  bare.workload.parameter_count = 304e6;
  bare.workload.model_kind = ModelKind::kOther;
  const PlanResponse flat = planner_->Plan(bare);
  ASSERT_TRUE(flat.recommendation.has_value());
  EXPECT_LT(flat.recommendation->estimates.training_flops / 1'281'167, 2e9);
}

// An encoder-decoder passes each token through one of its two stacks (T5,
// arXiv:1910.10683 §3.2.2: an L + L encoder-decoder costs about an L-layer
// language model), so T5-base (12 + 12 layers) is charged half of what the
// same 24 layers as one stack are. T5's pre-training: 2^35 tokens at batch
// 128 x 512 (§3.1.2).
TEST_F(ModelPresetsTest, AnEncoderDecoderChargesATokenOneStack) {
  PlanRequest r;
  r.workload.model_name = "t5-base";
  r.workload.framework = Framework::kJax;
  r.workload.dataset_tokens = 34.36e9;
  r.workload.global_batch_size = 128;
  r.as_of = planner_->catalog().data_date;
  const PlanResponse plan = planner_->Plan(r);
  ASSERT_TRUE(plan.recommendation.has_value());
  EXPECT_THAT(plan.assumptions,
              Contains(HasSubstr("Encoder-decoder (12 + 12 layers)")));
  // Both ways: the preset's shape stated as one stack of 24 layers.
  PlanRequest one_stack = r;
  one_stack.workload.model_name.clear();
  const Workload t5 = Preset("t5-base");
  one_stack.workload.parameter_count = t5.parameter_count;
  one_stack.workload.model_kind = ModelKind::kDenseTransformer;
  one_stack.workload.transformer_shape = t5.transformer_shape;
  one_stack.workload.transformer_shape.decoder_layers = 0;
  const PlanResponse whole = planner_->Plan(one_stack);
  ASSERT_TRUE(whole.recommendation.has_value());
  EXPECT_THAT(whole.assumptions, Not(Contains(HasSubstr("Encoder-decoder"))));
  EXPECT_NEAR(plan.recommendation->estimates.training_flops /
                  whole.recommendation->estimates.training_flops,
              0.5, 1e-9);
  // 6·(P/2)·D is 2.27e19; attention adds its share of one stack.
  EXPECT_GT(plan.recommendation->estimates.training_flops, 2.2e19);
  EXPECT_LT(plan.recommendation->estimates.training_flops, 2.8e19);
  // The preset's layers with another field stated (its own hidden size)
  // keep the two stacks apart; LoRA halves the same way as one stack does.
  PlanRequest hidden = r;
  hidden.workload.transformer_shape.hidden_size = 768;
  const PlanResponse h = planner_->Plan(hidden);
  ASSERT_TRUE(h.recommendation.has_value());
  EXPECT_DOUBLE_EQ(h.recommendation->estimates.training_flops,
                   plan.recommendation->estimates.training_flops);
  PlanRequest lora = r, lora_whole = one_stack;
  lora.workload.training_method = TrainingMethod::kLora;
  lora_whole.workload.training_method = TrainingMethod::kLora;
  const PlanResponse l = planner_->Plan(lora), lw = planner_->Plan(lora_whole);
  ASSERT_TRUE(l.recommendation.has_value());
  ASSERT_TRUE(lw.recommendation.has_value());
  EXPECT_NEAR(l.recommendation->estimates.training_flops /
                  lw.recommendation->estimates.training_flops,
              0.5, 1e-9);
}

// A preset's input length below the default is its sequence length
// (BERT-large has 512 positions, arXiv:1810.04805 §3.1); a decoder's longer
// context does not set it, and a stated length wins.
TEST_F(ModelPresetsTest, APresetsInputLengthIsItsDefaultSequenceLength) {
  std::string said;
  const Workload bert = Preset("bert-large", ModelKind::kUnspecified, 0, &said);
  EXPECT_THAT(said, HasSubstr("Sequence length 512"));
  EXPECT_EQ(bert.transformer_shape.sequence_length, 512);
  const Workload llama =
      Preset("llama-3.1-8b", ModelKind::kUnspecified, 0, &said);
  EXPECT_THAT(said, Not(HasSubstr("Sequence length")));
  EXPECT_EQ(llama.transformer_shape.sequence_length, 0);  // 2,048 assumed later
  Workload stated;
  stated.model_name = "bert-large";
  stated.transformer_shape.sequence_length = 128;
  ApplyModelPreset(planner_->catalog(), &stated);
  EXPECT_EQ(stated.transformer_shape.sequence_length, 128);
  // Only where the preset's shape applies: a request that calls BERT
  // another kind of model counts examples, with no length set.
  EXPECT_TRUE(ShapeLess(Preset("bert-large", ModelKind::kOther)));
}

// A ViT whose request counts its work another way keeps that count: a
// stated forward pass per example (a 384-pixel run), or the kind CNN.
TEST_F(ModelPresetsTest, AVisionTransformerKeepsAStatedWorkCount) {
  EXPECT_TRUE(ShapeLess(Preset("vit-l-16", ModelKind::kUnspecified, 1.9e11)));
  EXPECT_TRUE(ShapeLess(Preset("vit-l-16", ModelKind::kCnn)));
  EXPECT_FALSE(ShapeLess(Preset("vit-l-16")));
}

TEST_F(ModelPresetsTest, NoNameChangesNothing) {
  Workload w;
  w.parameter_count = 1e9;
  EXPECT_EQ(ApplyModelPreset(planner_->catalog(), &w), "");
  EXPECT_EQ(w.parameter_count, 1e9);
  EXPECT_EQ(w.transformer_shape.layers, 0);
}

TEST_F(ModelPresetsTest, AnUnknownNameIsAViolationWithCloseMatches) {
  EXPECT_FALSE(CheckModelName(planner_->catalog(), "").has_value());
  EXPECT_FALSE(CheckModelName(planner_->catalog(), "QWEN2.5-7B").has_value());
  const auto v = CheckModelName(planner_->catalog(), "lama-3.1-8b");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->field, "workload.model_name");
  EXPECT_THAT(v->description, HasSubstr("closest: llama-3.1-8b"));
}

// A Hugging Face repository name is what people paste from a model card.
TEST_F(ModelPresetsTest, ARepositoryNameFillsItsBaseModel) {
  const auto& cat = planner_->catalog();
  EXPECT_FALSE(
      CheckModelName(cat, "meta-llama/Llama-3.1-8B-Instruct").has_value());
  Workload w;
  w.model_name = "meta-llama/Llama-3.1-8B-Instruct";
  EXPECT_THAT(ApplyModelPreset(cat, &w), HasSubstr("\"llama-3.1-8b\""));
  EXPECT_EQ(w.transformer_shape.layers, 32);
  // An unknown checkpoint of a known model is refused, and the suggestion
  // ignores the organisation and punctuation.
  const auto v = CheckModelName(cat, "mistralai/Mistral-7B-v0.3");
  ASSERT_TRUE(v.has_value());
  EXPECT_THAT(v->description, HasSubstr("closest: mistral-7b"));
}

TEST_F(ModelPresetsTest, APresetPlansLikeItsSpelledOutSize) {
  PlanRequest named;
  named.workload.model_name = "gemma-2-9b";
  named.workload.training_method = TrainingMethod::kLora;
  named.workload.dataset_tokens = 1e8;
  named.as_of = planner_->catalog().data_date;
  PlanRequest spelled = named;
  ApplyModelPreset(planner_->catalog(), &spelled.workload);
  spelled.workload.model_name.clear();
  const PlanResponse a = planner_->Plan(named);
  const PlanResponse b = planner_->Plan(spelled);
  ASSERT_TRUE(a.recommendation.has_value());
  ASSERT_TRUE(b.recommendation.has_value());
  EXPECT_EQ(a.recommendation->hardware.machine_type,
            b.recommendation->hardware.machine_type);
  EXPECT_EQ(a.recommendation->estimates.step_time_seconds,
            b.recommendation->estimates.step_time_seconds);
  EXPECT_THAT(a.assumptions, testing::Contains(HasSubstr("gemma-2-9b")));
  EXPECT_THAT(b.assumptions, Not(testing::Contains(HasSubstr("gemma-2-9b"))));
}

// A preset's shape with another model's size (--model llama-2-7b --params
// 70e9) is planned as stated, with a warning saying which figure sizes
// what; no preset's own size draws it.
TEST_F(ModelPresetsTest, AParameterCountTheShapeDoesNotHoldIsWarnedOf) {
  const auto warned = [&](const std::string& name, double params) {
    PlanRequest r;
    r.workload.model_name = name;
    r.workload.parameter_count = params;
    r.workload.dataset_tokens = 1e9;
    r.as_of = planner_->catalog().data_date;
    for (const Reason& w : planner_->Plan(r).warnings) {
      if (w.message.find("disagrees with the stated shape") !=
          std::string::npos) {
        return true;
      }
    }
    return false;
  };
  EXPECT_TRUE(warned("llama-2-7b", 70e9));
  EXPECT_TRUE(warned("llama-3.1-70b", 7e9));
  for (const ModelInfo& m : ListModelPresets(planner_->catalog())) {
    EXPECT_FALSE(warned(m.id, 0)) << m.id;
  }
}

// A sequence length past the preset's published context (Llama 2: 4,096
// tokens) is timed as stated, and the assumption says it extends the
// context; at the published length it says nothing of it.
TEST_F(ModelPresetsTest, ASequencePastThePresetsContextIsSaid) {
  const auto said = [&](int seq) {
    Workload w;
    w.model_name = "llama-2-7b";
    w.transformer_shape.sequence_length = seq;
    return ApplyModelPreset(planner_->catalog(), &w);
  };
  EXPECT_THAT(said(32768), HasSubstr("past the model's 4096-token context"));
  EXPECT_THAT(said(4096), Not(HasSubstr("past the model's")));
}

TEST_F(ModelPresetsTest, ListAcceleratorsCarriesEveryPresetWithItsSource) {
  const ListResponse list = planner_->List(ListRequest{});
  ASSERT_EQ(list.models.size(), planner_->catalog().models.size());
  ASSERT_GE(list.models.size(), 15u);
  for (const ModelInfo& m : list.models) {
    EXPECT_FALSE(m.source_url.empty()) << m.id;
    EXPECT_GT(m.parameter_count, 0) << m.id;
  }
}

}  // namespace
}  // namespace accelplan::planner
