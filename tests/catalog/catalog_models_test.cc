// Model presets: each transformer preset's parameter count, recomputed
// from its published shape, must be within 2% of its published total. A
// typo in layers, hidden size, heads or FFN size moves the count far more
// than that, so the shape and the total check each other.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "catalog/catalog.h"
#include "catalog/loader.h"
#include "gtest/gtest.h"

namespace accelplan::catalog {
namespace {

constexpr const char* kBuiltCatalog = ACCELPLAN_CATALOG_DB_PATH;
constexpr double kTolerance = 0.02;

// Weight count of a transformer from its shape. Norms and biases are
// negligible and left out. Per layer: attention with grouped-query heads
// (q and o are h x heads*head_dim, k and v h x kv_heads*head_dim; with
// head_dim = h / heads this is h*h for q and o) and an FFN of 2 or, gated,
// 3 matrices of h x ffn, one per expert for mixture-of-experts plus the
// router. Decoder layers of an encoder-decoder add cross-attention. Token
// embeddings count once when the output head is tied, twice when not;
// learned position tables and a ViT's RGB patch projection are added.
double ParamsFromShape(const ModelPreset& m, bool active_only) {
  const double h = *m.hidden_size;
  const double q_width = double(*m.attention_heads) * m.HeadDim();
  const double kv_width =
      double(m.kv_heads.value_or(*m.attention_heads)) * m.HeadDim();
  const double attention = 2 * h * q_width + 2 * h * kv_width;
  const double experts = active_only && m.experts_per_token
                             ? *m.experts_per_token
                             : m.experts.value_or(1);
  const double ffn = (m.gated_ffn ? 3 : 2) * h * *m.ffn_size * experts +
                     (m.experts ? h * *m.experts : 0);
  double total = *m.layers * (attention + ffn) +
                 m.decoder_layers.value_or(0) * (2 * attention + ffn);
  if (m.vocab_size) total += *m.vocab_size * h * (m.tied_embeddings ? 1 : 2);
  if (m.learned_positions && m.max_sequence) total += *m.max_sequence * h;
  if (m.patch_size) total += double(*m.patch_size) * *m.patch_size * 3 * h;
  return total;
}

class CatalogModelsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<CatalogPtr> loaded = LoadCatalog(kBuiltCatalog);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    catalog_ = new CatalogPtr(*std::move(loaded));
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static const Catalog& cat() { return **catalog_; }
  static CatalogPtr* catalog_;
};

CatalogPtr* CatalogModelsTest::catalog_ = nullptr;

TEST_F(CatalogModelsTest, ShapeGivesThePublishedTotalWithinTwoPercent) {
  int checked = 0;
  for (const ModelPreset& m : cat().models) {
    if (m.architecture == "cnn") continue;  // no transformer shape
    ASSERT_TRUE(m.layers && m.hidden_size && m.attention_heads && m.ffn_size)
        << m.id << " lacks a shape field";
    const double computed = ParamsFromShape(m, /*active_only=*/false);
    EXPECT_NEAR(computed / m.total_params, 1.0, kTolerance)
        << m.id << ": shape gives " << computed << ", published "
        << m.total_params;
    if (m.active_params) {
      const double active = ParamsFromShape(m, /*active_only=*/true);
      EXPECT_NEAR(active / *m.active_params, 1.0, kTolerance)
          << m.id << " active: shape gives " << active;
    }
    ++checked;
  }
  EXPECT_GE(checked, 16);
}

TEST_F(CatalogModelsTest, CoversTheRequestedFamilies) {
  for (const char* id :
       {"llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "llama-3.1-70b",
        "llama-3.1-405b", "gemma-2-9b", "gemma-3-1b", "mistral-7b",
        "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b", "bert-large", "t5-base",
        "resnet-50", "vit-l-16"}) {
    const ModelPreset* m = cat().FindModel(id);
    ASSERT_NE(m, nullptr) << id;
    EXPECT_NE(cat().FindSource(m->source_id), nullptr) << id;
  }
}

TEST_F(CatalogModelsTest, LookupIgnoresCase) {
  const ModelPreset* m = cat().FindModel("Llama-3.1-8B");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->id, "llama-3.1-8b");
  EXPECT_EQ(cat().FindModel("llama-9"), nullptr);
}

// People paste the display name or a Hugging Face repository name; each
// names the preset's architecture.
TEST_F(CatalogModelsTest, LookupTakesTheWaysPeopleSpellAModel) {
  const std::vector<std::pair<std::string, std::string>> spellings = {
      {"Llama3.1-8B", "llama-3.1-8b"},
      {"llama_3.1_8b", "llama-3.1-8b"},
      {"meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b"},
      {"meta-llama/Meta-Llama-3.1-70B", "llama-3.1-70b"},
      {"meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b"},
      {"meta-llama/Llama-2-7b-hf", "llama-2-7b"},
      {"meta-llama/Llama-2-70b-chat-hf", "llama-2-70b"},
      {"google/gemma-2-9b-it", "gemma-2-9b"},
      {"google/gemma-3-1b-pt", "gemma-3-1b"},
      {"Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b"},
      {"bert-large-uncased", "bert-large"},
      {"bert-large-cased", "bert-large"},
      {"ViT-L/16", "vit-l-16"},
  };
  for (const auto& [spelling, id] : spellings) {
    const ModelPreset* m = cat().FindModel(spelling);
    ASSERT_NE(m, nullptr) << spelling;
    EXPECT_EQ(m->id, id) << spelling;
  }
  for (const ModelPreset& m : cat().models) {
    const ModelPreset* by_name = cat().FindModel(m.name);
    ASSERT_NE(by_name, nullptr) << m.name;
    EXPECT_EQ(by_name->id, m.id) << m.name;
  }
}

// Only punctuation and a variant's suffix are forgiven: a different size,
// generation or an unrelated model is still not found.
TEST_F(CatalogModelsTest, LookupDoesNotGuessAnotherModel) {
  for (const char* name :
       {"llama-3.1-7b", "llama-2-8b", "llama-3.18b", "llama-31-8b", "llama-3.1",
        "meta", "hf", "gemma-2-9", "gemma-29b", "qwen2-7b", "meta-llama/",
        "mistralai/Mixtral-8x22B-v0.1", "llama-3.1-8b-extra", "bert"}) {
    EXPECT_EQ(cat().FindModel(name), nullptr) << name;
  }
}

TEST_F(CatalogModelsTest, MixtureOfExpertsAndCnnRows) {
  const ModelPreset* mixtral = cat().FindModel("mixtral-8x7b");
  ASSERT_NE(mixtral, nullptr);
  EXPECT_EQ(mixtral->experts, 8);
  EXPECT_EQ(mixtral->experts_per_token, 2);
  ASSERT_TRUE(mixtral->active_params.has_value());
  EXPECT_LT(*mixtral->active_params, mixtral->total_params);
  const ModelPreset* resnet = cat().FindModel("resnet-50");
  ASSERT_NE(resnet, nullptr);
  EXPECT_FALSE(resnet->layers.has_value());
  EXPECT_DOUBLE_EQ(resnet->total_params, 25557032);
}

// The check above has teeth: one wrong shape field is far outside 2%.
TEST_F(CatalogModelsTest, AWrongShapeFieldBreaksTheTolerance) {
  ModelPreset m = *cat().FindModel("llama-3.1-8b");
  m.ffn_size = 11008;  // Llama 2 7B's FFN
  EXPECT_GT(std::abs(ParamsFromShape(m, false) / m.total_params - 1),
            kTolerance);
  m = *cat().FindModel("llama-3.1-8b");
  m.tied_embeddings = true;  // drops the 0.5B output head
  EXPECT_GT(std::abs(ParamsFromShape(m, false) / m.total_params - 1),
            kTolerance);
}

}  // namespace
}  // namespace accelplan::catalog
