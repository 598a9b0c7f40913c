#include "catalog/catalog.h"

#include "absl/strings/ascii.h"

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

const ModelPreset* Catalog::FindModel(const std::string& name) const {
  return Find(model_index, models, absl::AsciiStrToLower(name));
}

}  // namespace accelplan::catalog
