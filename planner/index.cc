// Stage 1: catalog -> families, once per snapshot.
#include "planner/index.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "planner/efficiency.h"
#include "planner/engine_common.h"
#include "planner/job_spec.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

using catalog::Accelerator;
using catalog::Catalog;
using catalog::MachineType;

namespace {

void ReduceOffers(const Family& f, Shape& s) {
  const std::vector<catalog::Offering>& offerings =
      f.platform == Platform::kTpu ? f.accelerator->offerings
                                   : s.machine->offerings;
  for (catalog::RunPlatform rp :
       {catalog::RunPlatform::kVertexTraining, catalog::RunPlatform::kGke,
        catalog::RunPlatform::kComputeEngine}) {
    Shape::RunPlatformOffer& o = s.offer[static_cast<size_t>(rp)];
    o.absent = DocumentedAbsent(offerings, rp, catalog::Provisioning::kAny);
    for (catalog::Provisioning p :
         {catalog::Provisioning::kOnDemand, catalog::Provisioning::kSpot,
          catalog::Provisioning::kFlexStart, catalog::Provisioning::kReservation}) {
      o.provisioning_absent[static_cast<size_t>(p)] =
          DocumentedAbsent(offerings, rp, p);
    }
    o.listed = Offers(offerings, rp, Provisioning::kUnspecified);
  }
}

}  // namespace

// Copies a catalog price onto a shape; `multiplier` turns a per-chip TPU
// price into the price of the whole slice.
void PriceShape(Shape& s, const std::optional<catalog::Price>& p,
                double multiplier) {
  if (!p.has_value()) return;
  if (p->on_demand_usd) s.on_demand_hourly = *p->on_demand_usd * multiplier;
  if (p->spot_usd) s.spot_hourly = *p->spot_usd * multiplier;
  s.price_date = p->date;
  s.price_region = p->region;
  s.price_source_id = p->source_id;
}

namespace {

// Accelerators per GPU series, to name N1 families "N1 + T4".
std::map<std::string, std::set<std::string>> SeriesAccelerators(
    const Catalog& catalog) {
  std::map<std::string, std::set<std::string>> out;
  for (const MachineType& mt : catalog.machine_types) {
    if (!mt.accelerator_id.empty()) {
      out[mt.series_id].insert(mt.accelerator_id);
    }
  }
  return out;
}

// Names a VM family so that a series with several GPU types tells them apart.
std::string FamilyName(
    const catalog::Series& series, const Accelerator* acc,
    std::map<std::string, std::set<std::string>>& series_accelerators) {
  if (acc == nullptr) return series.id;
  if (acc->platform == catalog::Platform::kEdge) return acc->name;
  if (series_accelerators[series.id].size() > 1) {
    std::string short_name = acc->name;
    if (short_name.rfind("NVIDIA ", 0) == 0) short_name = short_name.substr(7);
    return absl::StrCat(series.id, " + ", short_name);
  }
  return series.id;
}

// GPU, CPU and edge families, one shape per machine type. Families keyed by
// (accelerator or "cpu", series).
void AddMachineTypeFamilies(const Catalog& catalog,
                            std::map<std::string, Family>& by_key) {
  std::map<std::string, std::set<std::string>> series_accelerators =
      SeriesAccelerators(catalog);
  for (const MachineType& mt : catalog.machine_types) {
    const catalog::Series* series = catalog.FindSeries(mt.series_id);
    if (series == nullptr) continue;
    const Accelerator* acc = mt.accelerator_id.empty()
                                 ? nullptr
                                 : catalog.FindAccelerator(mt.accelerator_id);
    if (acc != nullptr && (acc->legacy || acc->platform == catalog::Platform::kTpu)) {
      continue;  // legacy rows are never candidates; TPUs come from topologies
    }
    if (acc == nullptr && series->platform != catalog::Platform::kCpu &&
        series->platform != catalog::Platform::kGpu) {
      continue;
    }
    if (series->maturity == catalog::Maturity::kLegacy) continue;
    const std::string key =
        absl::StrCat(acc ? acc->id : "cpu", "|", series->id);
    Family& f = by_key[key];
    if (f.series == nullptr) {
      f.series = series;
      f.accelerator = acc;
      f.platform = acc ? ToPlatform(acc->platform) : Platform::kCpu;
      f.name = FamilyName(*series, acc, series_accelerators);
    }
    if (acc != nullptr && mt.accelerator_count <= 0) {
      continue;  // fractional-GPU shapes (e.g. 1/8 of a GPU) are not training shapes
    }
    if (acc == nullptr && !mt.memory_bytes.has_value()) {
      continue;  // a CPU VM with unknown memory cannot be sized
    }
    Shape s;
    s.machine = &mt;
    s.devices = acc ? mt.accelerator_count : 1;
    s.vms = 1;
    PriceShape(s, mt.price, 1.0);
    f.shapes.push_back(s);
  }
}

// TPU families, one shape per slice topology (not per machine type).
void AddTpuFamilies(const Catalog& catalog,
                    std::map<std::string, Family>& by_key) {
  for (const Accelerator& acc : catalog.accelerators) {
    if (acc.platform != catalog::Platform::kTpu || acc.legacy) continue;
    if (acc.topologies.empty()) continue;
    Family& f = by_key[absl::StrCat(acc.id, "|tpu")];
    f.series = catalog.FindSeries(acc.series_id);
    f.accelerator = &acc;
    f.platform = Platform::kTpu;
    f.name = acc.name;
    for (const catalog::TpuTopology& t : acc.topologies) {
      const MachineType* mt = catalog.FindMachineType(t.machine_type_id);
      if (mt == nullptr) continue;
      Shape s;
      s.machine = mt;
      s.topology = &t;
      s.devices = t.chips;
      s.vms = t.vms;
      PriceShape(s, acc.chip_price, t.chips);
      f.shapes.push_back(s);
    }
  }
}

// Memory, SparseCores, generation and preview status from the accelerator,
// series and shapes.
void FillDeviceFacts(Family& f) {
  const Accelerator* acc = f.accelerator;
  AddSource(f.fact_sources, f.series->source_id);
  if (acc != nullptr) {
    AddSource(f.fact_sources, acc->source_id);
    if (IsFine(acc->memory_bytes)) {
      f.device_memory_bytes = acc->memory_bytes->value;
      AddSource(f.fact_sources, acc->memory_bytes->source_id);
    }
    if (IsFine(acc->sparse_cores)) {
      f.sparse_cores = static_cast<int>(acc->sparse_cores->value);
    }
    auto bf16 = acc->formats.find("bf16");
    f.modern = acc->platform != catalog::Platform::kGpu ||
               (bf16 != acc->formats.end() && bf16->second.supported);
    f.preview = AnyPreview(acc->offerings);
  }
  for (const Shape& s : f.shapes) {
    f.max_devices_per_vm =
        std::max(f.max_devices_per_vm,
                 s.topology ? std::max(1, s.machine->accelerator_count)
                            : s.devices);
    f.preview = f.preview || AnyPreview(s.machine->offerings);
  }
  f.preview = f.preview || f.series->maturity == catalog::Maturity::kPreview;
}

// NVLink (or PCIe) inside a VM, the NIC between VMs; needs shapes sorted.
void FillGpuLinks(Family& f) {
  const Shape& largest = f.shapes.back();
  if (IsFine(f.series->nvlink_bandwidth)) {
    // Stored bidirectional per GPU; a ring uses one direction per link.
    f.intra_vm_bytes_per_s = f.series->nvlink_bandwidth->value / 2;
    f.nvlink = true;
    AddSource(f.fact_sources, f.series->nvlink_bandwidth->source_id);
    if (IsFine(f.series->nvlink_domain_gpus)) {
      f.nvlink_domain_devices =
          static_cast<int>(f.series->nvlink_domain_gpus->value);
      AddSource(f.fact_sources, f.series->nvlink_domain_gpus->source_id);
    }
  } else {
    f.intra_vm_bytes_per_s = kPcieBytesPerS;
  }
  if (largest.machine->network_bits_per_s.has_value()) {
    f.inter_vm_bytes_per_s = *largest.machine->network_bits_per_s / 8 /
                             std::max(1, largest.devices);
  }
  if (IsFine(f.series->network_hop_latency)) {
    f.network_hop_extra_us = f.series->network_hop_latency->value * 1e6;
    AddSource(f.fact_sources, f.series->network_hop_latency->source_id);
  }
}

// ICI inside a slice, DCN between slices.
void FillTpuLinks(Family& f) {
  const Accelerator* acc = f.accelerator;
  if (IsFine(acc->ici_bandwidth)) {
    f.ici_bytes_per_s = acc->ici_bandwidth->value / 2;
    AddSource(f.fact_sources, acc->ici_bandwidth->source_id);
  }
  f.intra_vm_bytes_per_s = f.ici_bytes_per_s;
  f.inter_vm_bytes_per_s = f.ici_bytes_per_s;  // ICI spans the slice
  if (IsFine(acc->dcn_bandwidth)) {
    f.dcn_bytes_per_s_per_chip = acc->dcn_bandwidth->value / 8;
    AddSource(f.fact_sources, acc->dcn_bandwidth->source_id);
  } else {
    // Fall back on the host NIC of the multi-host VM type.
    for (const Shape& s : f.shapes) {
      if (s.machine->network_bits_per_s && s.machine->accelerator_count > 0) {
        f.dcn_bytes_per_s_per_chip = *s.machine->network_bits_per_s / 8 /
                                     s.machine->accelerator_count;
      }
    }
  }
}

}  // namespace

// Offers per run platform, shapes smallest first (then cheapest), then the
// family-wide facts.
void FinishFamily(Family& f) {
  for (Shape& s : f.shapes) ReduceOffers(f, s);
  std::stable_sort(f.shapes.begin(), f.shapes.end(),
                   [](const Shape& a, const Shape& b) {
                     if (a.devices != b.devices) return a.devices < b.devices;
                     const double pa = a.on_demand_hourly.value_or(1e18);
                     const double pb = b.on_demand_hourly.value_or(1e18);
                     return pa < pb;
                   });
  FillDeviceFacts(f);
  if (f.platform == Platform::kGpu) {
    FillGpuLinks(f);
  } else if (f.platform == Platform::kTpu) {
    FillTpuLinks(f);
  }
}

// The names a request's allowed_series can match, and the largest
// multi-host slice; pointers into `shapes`, so taken once the family is in
// place.
namespace {

// Lower case without separators, vendor words kept: labels are exact names.
std::string LabelKey(absl::string_view name) {
  std::string out;
  for (char ch : absl::AsciiStrToLower(name)) {
    if (ch != ' ' && ch != '-' && ch != '_' && ch != '.') out.push_back(ch);
  }
  return out;
}

// The label keys an accelerator is named by. The resource name
// (nvidia.com/gpu, google.com/tpu) names every GPU or TPU, not one.
std::vector<std::string> LabelKeys(const Accelerator& a) {
  std::vector<std::string> keys;
  for (const auto& [system, value] : a.labels) {
    if (system != "GKE_RESOURCE") keys.push_back(LabelKey(value));
  }
  return keys;
}

// Lowercase alphanumeric words: "TPU v6e (Trillium)" -> tpu, v6e, trillium.
std::vector<std::string> Words(absl::string_view text) {
  std::vector<std::string> out;
  std::string word;
  for (char ch : text) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(ch))) {
      word += absl::ascii_tolower(static_cast<unsigned char>(ch));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

// The words of an accelerator's name that name its chip: model numbers
// (h100, b200, gb200, v6e; not a memory size such as 80gb) and the
// aliases in parentheses ("TPU v6e (Trillium)": trillium).
std::vector<std::string> ChipWords(const std::string& accelerator_name) {
  std::vector<std::string> out;
  const size_t open = accelerator_name.find('(');
  const size_t close = accelerator_name.find(')', open);
  if (open != std::string::npos && close != std::string::npos) {
    out = Words(accelerator_name.substr(open + 1, close - open - 1));
  }
  for (std::string& w : Words(accelerator_name)) {
    const bool digit = std::any_of(w.begin(), w.end(), [](char ch) {
      return absl::ascii_isdigit(static_cast<unsigned char>(ch));
    });
    const bool memory =
        absl::EndsWith(w, "gb") &&
        std::all_of(w.begin(), w.end() - 2, [](char ch) {
          return absl::ascii_isdigit(static_cast<unsigned char>(ch));
        });
    if (digit && !memory) out.push_back(std::move(w));
  }
  return out;
}

// The longest side of a TPU topology "AxB" or "AxBxC" (0 when malformed):
// of two slices with the same chips, the one with the shorter longest side
// is the more cube-like, with the shorter ICI paths.
int LongestSide(absl::string_view topology) {
  int longest = 0;
  for (absl::string_view d : absl::StrSplit(topology, 'x')) {
    int v = 0;
    if (!absl::SimpleAtoi(d, &v) || v <= 0) return 0;
    longest = std::max(longest, v);
  }
  return longest;
}

bool IsPowerOfTwo(int n) { return n > 0 && (n & (n - 1)) == 0; }

// The Multislice units: the largest multi-host slice, and the largest one
// of a power-of-two chip count (the most cube-like of that count). A
// power-of-two batch splits evenly over power-of-two slices, where the
// largest slice's count may leave ranks idle: 2 x v5p 16x16x24 (12,288
// chips) give a batch of 2,048 no more ranks than 2 x 16x16x16 (8,192),
// at 1.5x the cost.
void FindMultisliceUnits(Family& f) {
  f.largest_multi_host_slice = nullptr;
  f.power_of_two_multi_host_slice = nullptr;
  if (f.platform != Platform::kTpu) return;
  for (const Shape& s : f.shapes) {
    if (s.vms <= 1) continue;
    f.largest_multi_host_slice = &s;  // shapes ascend in devices
    const Shape* p = f.power_of_two_multi_host_slice;
    if (!IsPowerOfTwo(s.devices) || s.topology == nullptr) continue;
    if (p == nullptr || s.devices > p->devices ||
        (s.devices == p->devices && LongestSide(s.topology->topology) <
                                        LongestSide(p->topology->topology))) {
      f.power_of_two_multi_host_slice = &s;
    }
  }
}

}  // namespace

void FinishFamilyKeys(Family& f) {
  f.allowed_series_keys = {NormalizeName(f.series->id), NormalizeName(f.name)};
  f.series_lower = absl::AsciiStrToLower(f.series->id);
  f.machine_keys.clear();
  for (const Shape& s : f.shapes) {
    f.machine_keys.push_back(NormalizeName(s.machine->id));
  }
  if (f.accelerator != nullptr) {
    f.allowed_series_keys.push_back(NormalizeName(f.accelerator->id));
    f.allowed_series_keys.push_back(NormalizeName(f.accelerator->name));
    // id first (AskedName::Names reads it for the "tpu" prefix).
    f.accelerator_keys = {NormalizeName(f.accelerator->id),
                          NormalizeName(f.accelerator->name)};
    f.accelerator_label_keys = LabelKeys(*f.accelerator);
    f.chip_words = ChipWords(f.accelerator->name);
  }
  FindMultisliceUnits(f);
}

namespace {

// One chip under two catalog ids (GCP names A3 Mega's H100 separately):
// the same architecture, peak rates and memory. Its runs are the chip's own.
bool SameChip(const Accelerator& a, const Accelerator& b) {
  const auto same = [](const auto& x, const auto& y) {
    return x.has_value() == y.has_value() &&
           (!x.has_value() || x->value == y->value);
  };
  return a.platform == b.platform && !a.architecture.empty() &&
         a.architecture == b.architecture && same(a.peak_bf16, b.peak_bf16) &&
         same(a.peak_fp8, b.peak_fp8) && same(a.memory_bytes, b.memory_bytes) &&
         same(a.memory_bandwidth, b.memory_bandwidth);
}

// The published runs a family's MFU band can come from: every run on the
// same platform (the fallback chain narrows them per request).
void AttachEfficiencyRuns(const Catalog& catalog, Family& f) {
  if (f.accelerator == nullptr) return;
  f.generation = f.accelerator->architecture.empty()
                     ? f.accelerator->id
                     : f.accelerator->architecture;
  for (const catalog::MeasuredEfficiency& e : catalog.measured_efficiencies) {
    const Accelerator* a = catalog.FindAccelerator(e.accelerator);
    if (a == nullptr || a->platform != f.accelerator->platform) continue;
    const std::string gen = a->architecture.empty() ? a->id : a->architecture;
    f.efficiency_runs.push_back(
        {&e, a->id == f.accelerator->id || SameChip(*a, *f.accelerator),
         gen == f.generation});
  }
}

}  // namespace

Index BuildIndex(const Catalog& catalog) {
  Index index;
  // Families keyed by (platform, series, accelerator).
  std::map<std::string, Family> by_key;
  AddMachineTypeFamilies(catalog, by_key);
  AddTpuFamilies(catalog, by_key);
  for (auto& [key, f] : by_key) {
    if (f.shapes.empty() || f.series == nullptr) continue;
    FinishFamily(f);
    index.families.push_back(std::move(f));
  }
  std::sort(index.families.begin(), index.families.end(),
            [](const Family& a, const Family& b) { return a.name < b.name; });
  for (Family& f : index.families) {
    FinishFamilyKeys(f);
    AttachEfficiencyRuns(catalog, f);
    PrecomputeMfuBands(f);
  }

  for (const catalog::Source& s : catalog.sources) {
    index.sources.push_back({s.id, s.url, s.title});
  }
  return index;
}


AskedName::AskedName(const std::string& name)
    : norm_(NormalizeName(name)),
      tpu_norm_(NormalizeName(absl::StrCat("tpu", name))),
      label_(LabelKey(name)) {}

bool AskedName::Names(const Accelerator& a) const {
  if (norm_.empty()) return false;
  const std::string id = NormalizeName(a.id);
  if (norm_ == id || tpu_norm_ == id || norm_ == NormalizeName(a.name)) {
    return true;
  }
  const std::vector<std::string> labels = LabelKeys(a);
  return std::find(labels.begin(), labels.end(), label_) != labels.end();
}

bool AskedName::Names(const Family& f) const {
  if (norm_.empty() || f.accelerator == nullptr) return false;
  const std::vector<std::string>& k = f.accelerator_keys;
  const std::vector<std::string>& l = f.accelerator_label_keys;
  return (!k.empty() && (norm_ == k[0] || tpu_norm_ == k[0])) ||
         std::find(k.begin(), k.end(), norm_) != k.end() ||
         std::find(l.begin(), l.end(), label_) != l.end();
}

namespace {

// Every word of `asked` names the family's chip ("H100", "Trillium",
// "H100 Mega"): a chip's common name selects each series carrying it.
bool NamesTheChip(const Family& f, const std::vector<std::string>& asked) {
  if (asked.empty() || f.chip_words.empty()) return false;
  const std::vector<std::string>& chip = f.chip_words;
  return std::all_of(asked.begin(), asked.end(), [&](const std::string& w) {
    return std::find(chip.begin(), chip.end(), w) != chip.end();
  });
}

}  // namespace

SeriesNamed MatchSeriesName(const Index& index, const std::string& name) {
  const std::string norm = NormalizeName(name);
  if (norm.empty()) return {};
  for (const std::string& key : {norm, NormalizeName(absl::StrCat("tpu", name))}) {
    for (const Family& f : index.families) {
      const std::vector<std::string>& k = f.allowed_series_keys;
      if (std::find(k.begin(), k.end(), key) != k.end()) {
        return {{key}, SeriesNamed::By::kSeries};
      }
    }
  }
  SeriesNamed out;
  const auto add = [&out](const Family& f, SeriesNamed::By by) {
    const std::string& series = f.allowed_series_keys[0];
    if (std::find(out.keys.begin(), out.keys.end(), series) == out.keys.end()) {
      out.keys.push_back(series);
    }
    // A series word anywhere makes it a series name, not a machine type's.
    if (out.by != SeriesNamed::By::kSeries) out.by = by;
  };
  const std::string word =
      absl::StrCat(absl::AsciiStrToLower(absl::StripAsciiWhitespace(name)), " ");
  for (const Family& f : index.families) {
    const std::vector<std::string>& m = f.machine_keys;
    if (absl::StartsWith(f.series_lower, word)) {
      add(f, SeriesNamed::By::kSeries);
    } else if (std::find(m.begin(), m.end(), norm) != m.end()) {
      add(f, SeriesNamed::By::kMachineType);
    }
  }
  if (!out.keys.empty()) return out;
  const std::vector<std::string> asked = Words(name);
  for (const Family& f : index.families) {
    if (NamesTheChip(f, asked)) add(f, SeriesNamed::By::kChip);
  }
  return out;
}

std::vector<std::string> SeriesKeysNamed(const Index& index,
                                         const std::string& name) {
  return MatchSeriesName(index, name).keys;
}

std::vector<const Family*> MatchFamilies(const Index& index, Platform platform,
                                         const std::string& series,
                                         const std::string& accelerator,
                                         const std::string& machine_type) {
  std::vector<const Family*> out;
  const std::string s = NormalizeName(series);
  const std::string a = NormalizeName(accelerator);
  const std::string m = NormalizeName(machine_type);
  const AskedName series_name(series), accelerator_name(accelerator);
  const std::vector<std::string> series_keys =
      s.empty() ? std::vector<std::string>{} : SeriesKeysNamed(index, series);
  for (const Family& f : index.families) {
    if (platform != Platform::kUnspecified && f.platform != platform) continue;
    bool ok = true;
    if (!s.empty()) {
      const std::vector<std::string>& k = f.allowed_series_keys;
      ok = series_name.Names(f) ||
           std::any_of(series_keys.begin(), series_keys.end(),
                       [&](const std::string& key) {
                         return std::find(k.begin(), k.end(), key) != k.end();
                       });
    }
    if (ok && !a.empty()) {
      ok = accelerator_name.Names(f);
    }
    if (ok && !m.empty()) {
      ok = false;
      for (const Shape& sh : f.shapes) {
        if (m == NormalizeName(sh.machine->id) ||
            m == NormalizeName(sh.machine->gce_machine_type)) {
          ok = true;
        }
      }
    }
    if (ok && (s.empty() && a.empty() && m.empty()) &&
        platform == Platform::kUnspecified) {
      ok = false;
    }
    if (ok) out.push_back(&f);
  }
  return out;
}

}  // namespace accelplan::planner::internal
