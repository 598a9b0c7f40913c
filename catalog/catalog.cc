#include "catalog/catalog.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_join.h"

namespace accelplan::catalog {
namespace {

template <typename T>
const T* Find(const absl::flat_hash_map<std::string, size_t>& index,
              const std::vector<T>& items, const std::string& id) {
  auto it = index.find(id);
  return it == index.end() ? nullptr : &items[it->second];
}

}  // namespace

const Source* Catalog::FindSource(const std::string& id) const {
  return Find(source_index, sources, id);
}
const Series* Catalog::FindSeries(const std::string& id) const {
  return Find(series_index, series, id);
}
const Accelerator* Catalog::FindAccelerator(const std::string& id) const {
  return Find(accelerator_index, accelerators, id);
}
const MachineType* Catalog::FindMachineType(const std::string& id) const {
  return Find(machine_type_index, machine_types, id);
}

namespace {

// A name's tokens: runs of letters and runs of digits (with their decimal
// points); every other character separates. "Llama3.1-8B" and "llama 3.1 8b"
// both give {llama, 3.1, 8, b}, while "llama-3.18b" stays a different model.
std::vector<std::string> ModelTokens(std::string_view name) {
  enum class Kind { kSeparator, kLetter, kNumber };
  auto kind_of = [](char c) {
    if (absl::ascii_isalpha(static_cast<unsigned char>(c)))
      return Kind::kLetter;
    if (absl::ascii_isdigit(static_cast<unsigned char>(c)) || c == '.') {
      return Kind::kNumber;
    }
    return Kind::kSeparator;
  };
  std::vector<std::string> tokens;
  Kind previous = Kind::kSeparator;
  for (char c : name) {
    const Kind kind = kind_of(c);
    if (kind == Kind::kSeparator) {
      previous = kind;
      continue;
    }
    if (kind != previous) tokens.emplace_back();
    tokens.back().push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
    previous = kind;
  }
  return tokens;
}

}  // namespace

std::string ModelKey(std::string_view name) {
  return absl::StrJoin(ModelTokens(name), "-");
}

const ModelPreset* Catalog::FindModel(const std::string& name) const {
  // The id or the display name ("ViT-L/16"), however punctuated.
  if (const ModelPreset* m = Find(model_index, models, ModelKey(name))) {
    return m;
  }
  // A Hugging Face repository ("meta-llama/Llama-2-7b-hf"): the
  // organisation names no architecture.
  std::string_view repo = name;
  if (const size_t slash = repo.rfind('/'); slash != repo.npos) {
    repo.remove_prefix(slash + 1);
  }
  std::vector<std::string> tokens = ModelTokens(repo);
  // Suffixes of converted, instruction-tuned or pretrained-only checkpoints,
  // which keep the base model's architecture (each model card's config.json
  // says so), and the vendor's prefix in "Meta-Llama-3.1-8B".
  static constexpr std::array<absl::string_view, 7> kVariantSuffixes = {
      "hf", "instruct", "chat", "it", "pt", "uncased", "cased"};
  while (tokens.size() > 1 &&
         std::find(kVariantSuffixes.begin(), kVariantSuffixes.end(),
                   tokens.back()) != kVariantSuffixes.end()) {
    tokens.pop_back();
  }
  if (tokens.size() > 1 && tokens.front() == "meta") {
    tokens.erase(tokens.begin());
  }
  return Find(model_index, models, absl::StrJoin(tokens, "-"));
}

}  // namespace accelplan::catalog
