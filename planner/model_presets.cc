#include "planner/model_presets.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/defaults.h"

namespace accelplan::planner {
namespace {

// Levenshtein distance, for "did you mean" suggestions.
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

ModelKind KindOf(const catalog::ModelPreset& m) {
  if (m.architecture == "cnn") return ModelKind::kCnn;
  if (m.architecture == "vision-transformer") return ModelKind::kOther;
  return ModelKind::kDenseTransformer;  // decoder, encoder, encoder-decoder
}

template <typename T>
void FillIfUnset(T* field, const std::optional<int>& value) {
  if (*field == 0 && value.has_value()) *field = static_cast<T>(*value);
}

}  // namespace

std::optional<FieldViolation> CheckModelName(const catalog::Catalog& catalog,
                                             const std::string& name) {
  if (name.empty() || catalog.FindModel(name) != nullptr) return std::nullopt;
  // Ranked on lookup keys, so an organisation prefix or punctuation does not
  // push the intended preset out of the suggestions.
  const size_t slash = name.rfind('/');
  const std::string want = catalog::ModelKey(
      slash == std::string::npos ? name : name.substr(slash + 1));
  std::vector<std::pair<size_t, std::string>> ranked;
  for (const catalog::ModelPreset& m : catalog.models) {
    ranked.emplace_back(EditDistance(want, catalog::ModelKey(m.id)), m.id);
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> close;
  for (size_t i = 0; i < ranked.size() && close.size() < 3; ++i) {
    close.push_back(ranked[i].second);
  }
  std::string description =
      catalog.models.empty()
          ? "is not a model preset of this catalog (it has none)"
          : absl::StrCat("unknown model preset; closest: ",
                         absl::StrJoin(close, ", "));
  return FieldViolation{"workload.model_name", std::move(description)};
}

namespace {

// The preset's active parameters, or, where the request routes each token
// to another number of its experts, the count at that top-k: the preset's
// published total P and active A at its k0 of E experts put E·(P − A)/(E −
// k0) parameters in the experts, the rest shared, so k experts give the
// shared part plus k/E of the experts' (all of them from k = E on).
double ActiveAtStatedTopK(const catalog::ModelPreset& m, const Workload& w,
                          std::string* note) {
  const double active = *m.active_params;
  const int e = m.experts.value_or(0);
  const int k0 = m.experts_per_token.value_or(0);
  const int k = w.experts_per_token;
  const bool same_experts = w.num_experts == 0 || w.num_experts == e;
  if (k <= 0 || k == k0 || !same_experts || e <= k0 || k0 <= 0 ||
      w.parameter_count != m.total_params) {
    return active;
  }
  const double experts = e * (m.total_params - active) / (e - k0);
  const double at_k = m.total_params - experts +
                      experts * std::min(k, e) / static_cast<double>(e);
  *note = absl::StrFormat(
      " %d experts per token instead of the preset's %d: %.3g active "
      "parameters (the shared %.3g plus %d/%d of the experts' %.3g).",
      k, k0, at_k, m.total_params - experts, std::min(k, e), e, experts);
  return at_k;
}

}  // namespace

std::string ApplyModelPreset(const catalog::Catalog& catalog,
                             Workload* workload) {
  if (workload->model_name.empty()) return "";
  const catalog::ModelPreset* m = catalog.FindModel(workload->model_name);
  if (m == nullptr) return "";
  Workload& w = *workload;
  if (w.parameter_count == 0) w.parameter_count = m->total_params;
  std::string routing;
  std::string window;
  if (w.active_parameter_count == 0 && m->active_params) {
    w.active_parameter_count = ActiveAtStatedTopK(*m, w, &routing);
  }
  FillIfUnset(&w.num_experts, m->experts);
  FillIfUnset(&w.experts_per_token, m->experts_per_token);
  if (w.model_kind == ModelKind::kUnspecified) w.model_kind = KindOf(*m);
  TransformerShape& s = w.transformer_shape;
  const bool shape_given = s.layers > 0 || s.hidden_size > 0;
  // A vision transformer is a transformer over its patches (Dosovitskiy et
  // al. 2020, arXiv:2010.11929 §3.1): its shape and positions count its
  // work, 6·P per patch plus attention, not 6·P per image. Not when the
  // request counts its work otherwise: a stated forward pass per example,
  // or a model kind other than the preset's (a ViT stated as a CNN).
  const bool vision = m->architecture == "vision-transformer" &&
                      w.model_kind == KindOf(*m) &&
                      w.forward_flops_per_example <= 0;
  const bool fills_shape =
      m->layers && m->hidden_size &&
      (w.model_kind == ModelKind::kDenseTransformer || vision);
  if (fills_shape) {
    // The stacks are told apart only when the preset's layers are used.
    if (s.layers == 0) FillIfUnset(&s.decoder_layers, m->decoder_layers);
    FillIfUnset(&s.layers,
                m->decoder_layers
                    ? std::optional<int>(*m->layers + *m->decoder_layers)
                    : m->layers);
    FillIfUnset(&s.hidden_size, m->hidden_size);
    // A head width belongs to the preset's own head count.
    if (s.attention_heads == 0) FillIfUnset(&s.head_dim, m->head_dim);
    FillIfUnset(&s.attention_heads, m->attention_heads);
    FillIfUnset(&s.num_kv_heads, m->kv_heads);
    FillIfUnset(&s.ffn_hidden_size, m->ffn_size);
    FillIfUnset(&s.vocab_size, m->vocab_size);
    if (!shape_given) s.gated_ffn = m->gated_ffn;
    // The window and the layers that skip it come as one pattern: a stated
    // window keeps the preset's global layers unless they are stated too.
    if (m->sliding_window) {
      if (s.sliding_window == 0) {
        s.sliding_window = *m->sliding_window;
        window = absl::StrCat(" Sliding window ", s.sliding_window, " (source ",
                              m->window_source_id, ").");
      }
      FillIfUnset(&s.global_attention_every, m->global_attention_every);
    }
  }
  // A preset's input length below the default is the sequence length it
  // trains at (BERT's 512 positions, T5's 512-token inputs, a ViT's patches
  // plus class token at its input size), where its shape applies.
  std::string positions;
  if (fills_shape && s.sequence_length == 0 && m->max_sequence &&
      (vision || *m->max_sequence < kDefaults.sequence_length.value)) {
    s.sequence_length = *m->max_sequence;
    positions = absl::StrCat(" Sequence length ", s.sequence_length,
                             ": the model's ",
                             vision ? "patches plus class token"
                                    : "published input length",
                             ".");
  } else if (fills_shape && m->max_sequence &&
             s.sequence_length > *m->max_sequence) {
    // Past the positions the model was trained with: the plan times the
    // stated length, which the model itself does not handle as published.
    positions = absl::StrCat(
        " Sequence length ", s.sequence_length, " is past the model's ",
        *m->max_sequence,
        "-token context: training at it extends the context (position "
        "interpolation or RoPE scaling, or continued pre-training), timed "
        "here as stated.");
  }
  return absl::StrCat("Model preset \"", m->id, "\" (", m->name, ", ",
                      absl::StrFormat("%.3g", m->total_params),
                      " parameters; source ", m->source_id,
                      ") filled the fields the request left unset.", positions,
                      window, routing);
}

std::vector<ModelInfo> ListModelPresets(const catalog::Catalog& catalog) {
  std::vector<ModelInfo> out;
  out.reserve(catalog.models.size());
  for (const catalog::ModelPreset& m : catalog.models) {
    ModelInfo info;
    info.id = m.id;
    info.name = m.name;
    info.family = m.family;
    info.architecture = m.architecture;
    info.layers = m.layers.value_or(0) + m.decoder_layers.value_or(0);
    info.hidden_size = m.hidden_size.value_or(0);
    info.attention_heads = m.attention_heads.value_or(0);
    info.num_kv_heads = m.kv_heads.value_or(0);
    info.ffn_hidden_size = m.ffn_size.value_or(0);
    info.gated_ffn = m.gated_ffn;
    info.head_dim = m.HeadDim();
    info.sliding_window = m.sliding_window.value_or(0);
    info.global_attention_every = m.global_attention_every.value_or(0);
    info.vocab_size = m.vocab_size.value_or(0);
    info.max_sequence_length = m.max_sequence.value_or(0);
    info.parameter_count = m.total_params;
    info.active_parameter_count = m.active_params.value_or(0);
    info.num_experts = m.experts.value_or(0);
    info.source_id = m.source_id;
    if (const catalog::Source* src = catalog.FindSource(m.source_id)) {
      info.source_url = src->url;
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace accelplan::planner
