#include "planner/planner.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/defaults.h"
#include "planner/engine.h"
#include "planner/engine_common.h"
#include "planner/model_presets.h"
#include "planner/remedies.h"
#include "planner/util.h"

namespace accelplan::planner {

using internal::Candidate;
using internal::Family;
using internal::Job;
using internal::ToPlatform;

namespace {

Framework FrameworkFromKey(const std::string& key) {
  if (key == catalog::kFrameworkJax) return Framework::kJax;
  if (key == catalog::kFrameworkTensorflow) return Framework::kTensorflow;
  if (key == catalog::kFrameworkPytorch || key == catalog::kFrameworkPytorchXla) {
    return Framework::kPytorch;
  }
  if (key == catalog::kFrameworkXgboost) return Framework::kXgboost;
  if (key == catalog::kFrameworkScikitLearn) return Framework::kScikitLearn;
  if (key == catalog::kFrameworkLightgbm) return Framework::kLightgbm;
  return Framework::kOther;
}

const char* StatusName(catalog::SupportStatus s) {
  switch (s) {
    case catalog::SupportStatus::kSupported: return "SUPPORTED";
    case catalog::SupportStatus::kUnsupported: return "UNSUPPORTED";
    default: return "UNVERIFIED";
  }
}

RunPlatform ToRunPlatform(catalog::RunPlatform rp) {
  switch (rp) {
    case catalog::RunPlatform::kVertexTraining: return RunPlatform::kVertexTraining;
    case catalog::RunPlatform::kGke: return RunPlatform::kGke;
    default: return RunPlatform::kComputeEngine;
  }
}

Provisioning ToProvisioning(catalog::Provisioning p) {
  switch (p) {
    case catalog::Provisioning::kOnDemand: return Provisioning::kOnDemand;
    case catalog::Provisioning::kSpot: return Provisioning::kSpot;
    case catalog::Provisioning::kFlexStart: return Provisioning::kFlexStart;
    case catalog::Provisioning::kReservation: return Provisioning::kReservation;
    default: return Provisioning::kUnspecified;
  }
}

const char* MaturityName(catalog::Maturity m) {
  switch (m) {
    case catalog::Maturity::kPreview: return "PREVIEW";
    case catalog::Maturity::kLegacy: return "LEGACY";
    default: return "GA";
  }
}

void AddId(std::vector<std::string>& ids, const std::string& id) {
  if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) {
    ids.push_back(id);
  }
}

double Tflops(const std::optional<catalog::Fact>& f, std::vector<std::string>& ids) {
  if (!f.has_value()) return 0;
  AddId(ids, f->source_id);
  return f->value / 1e12;
}

// A CPU machine type: peak FLOPs from the series' per-vCPU figures, and the
// frameworks the catalog lists for CPUs.
void AddCpuFacts(const catalog::Catalog& cat, const catalog::MachineType& mt,
                 const catalog::Series* series, AcceleratorInfo& info,
                 std::vector<std::string>& ids) {
  info.platform = Platform::kCpu;
  if (series && series->fp32_flops_per_vcpu && mt.vcpus) {
    info.peak_fp32_tflops = series->fp32_flops_per_vcpu->value * *mt.vcpus / 1e12;
    AddId(ids, series->fp32_flops_per_vcpu->source_id);
  }
  if (series && series->fp64_flops_per_vcpu && mt.vcpus) {
    info.peak_fp64_tflops = series->fp64_flops_per_vcpu->value * *mt.vcpus / 1e12;
    AddId(ids, series->fp64_flops_per_vcpu->source_id);
  }
  for (const auto& [key, fs] : cat.cpu_frameworks) {
    info.frameworks.push_back(
        {FrameworkFromKey(key), StatusName(fs.status), fs.min_version, fs.source_id});
    AddId(ids, fs.source_id);
  }
}

// A machine type with accelerators: the accelerator's own facts, and the
// TPU topologies this machine type runs.
void AddAcceleratorFacts(const catalog::MachineType& mt,
                         const catalog::Accelerator& acc, AcceleratorInfo& info,
                         std::vector<std::string>& ids) {
  info.platform = ToPlatform(acc.platform);
  info.accelerator = acc.id;
  info.accelerator_name = acc.name;
  info.accelerators_per_host = mt.accelerator_count;
  info.legacy = acc.legacy;
  if (acc.legacy) info.maturity = "LEGACY";
  AddId(ids, acc.source_id);
  if (acc.memory_bytes) {
    info.memory_per_accelerator_gib = acc.memory_bytes->value / kGiB;
    AddId(ids, acc.memory_bytes->source_id);
  }
  info.peak_bf16_tflops = Tflops(acc.peak_bf16, ids);
  info.peak_fp8_tflops = Tflops(acc.peak_fp8, ids);
  info.peak_fp64_tflops = Tflops(acc.peak_fp64, ids);
  info.peak_fp32_tflops = Tflops(acc.peak_fp32, ids);
  if (acc.sparse_cores) {
    info.sparse_cores = static_cast<int>(acc.sparse_cores->value);
    AddId(ids, acc.sparse_cores->source_id);
  }
  for (const auto& [key, fs] : acc.frameworks) {
    info.frameworks.push_back(
        {FrameworkFromKey(key), StatusName(fs.status), fs.min_version, fs.source_id});
    AddId(ids, fs.source_id);
  }
  if (acc.end_of_support) {
    info.end_of_support = *acc.end_of_support;
    AddId(ids, acc.end_of_support_source_id);
  }
  for (const catalog::TpuTopology& t : acc.topologies) {
    if (t.machine_type_id == mt.id) {
      info.tpu_topologies.push_back(t.topology);
      AddId(ids, t.source_id);
    }
  }
}

// Price and offerings: TPUs are priced and offered per chip on the
// accelerator (the price scaled to the machine type's chips), everything
// else on the machine type.
void AddPriceAndOfferings(const catalog::MachineType& mt,
                          const catalog::Accelerator* acc,
                          AcceleratorInfo& info, std::vector<std::string>& ids) {
  const bool tpu = acc && acc->platform == catalog::Platform::kTpu;
  const std::optional<catalog::Price>& price = tpu ? acc->chip_price : mt.price;
  if (price.has_value()) {
    const double mult = tpu ? std::max(1, mt.accelerator_count) : 1;
    info.price_known = price->on_demand_usd.has_value();
    info.on_demand_usd_per_hour = price->on_demand_usd.value_or(0) * mult;
    info.spot_usd_per_hour = price->spot_usd.value_or(0) * mult;
    info.price_date = price->date;
    info.price_region = price->region;
    AddId(ids, price->source_id);
  }
  const std::vector<catalog::Offering>& offerings = tpu ? acc->offerings : mt.offerings;
  for (const catalog::Offering& o : offerings) {
    info.offerings.push_back({ToRunPlatform(o.run_platform),
                              ToProvisioning(o.provisioning), o.available,
                              o.preview ? "PREVIEW" : "GA", o.source_id});
    AddId(ids, o.source_id);
  }
}

// The entry's source ids, in order, with their URLs ("" for an id the
// catalog does not resolve).
void SetSources(const catalog::Catalog& cat, const std::vector<std::string>& ids,
                AcceleratorInfo& info) {
  info.source_ids = ids;
  for (const std::string& id : ids) {
    const catalog::Source* s = cat.FindSource(id);
    info.source_urls.push_back(s ? s->url : "");
  }
}

// One listing entry for a machine type (TPU VM types carry their
// topologies); `listed_accelerators` collects the accelerators it names.
AcceleratorInfo MachineTypeEntry(const catalog::Catalog& cat,
                                 const catalog::MachineType& mt,
                                 std::set<std::string>& listed_accelerators) {
  AcceleratorInfo info;
  std::vector<std::string> ids;
  info.machine_type = mt.id;
  info.series = mt.series_id;
  const catalog::Series* series = cat.FindSeries(mt.series_id);
  const catalog::Accelerator* acc =
      mt.accelerator_id.empty() ? nullptr : cat.FindAccelerator(mt.accelerator_id);
  AddId(ids, mt.source_id);
  if (series) {
    AddId(ids, series->source_id);
    info.maturity = MaturityName(series->maturity);
  }
  info.vcpus = mt.vcpus.value_or(0);
  info.host_memory_gib = mt.memory_bytes.value_or(0) / kGiB;
  info.network_gbps = mt.network_bits_per_s.value_or(0) / 1e9;
  if (acc == nullptr) {
    AddCpuFacts(cat, mt, series, info, ids);
  } else {
    listed_accelerators.insert(acc->id);
    AddAcceleratorFacts(mt, *acc, info, ids);
  }
  AddPriceAndOfferings(mt, acc, info, ids);
  SetSources(cat, ids, info);
  return info;
}

// An accelerator that no machine type names (the legacy ones): listed on
// its own, with its memory and end of support.
AcceleratorInfo AcceleratorOnlyEntry(const catalog::Catalog& cat,
                                     const catalog::Accelerator& acc) {
  AcceleratorInfo info;
  info.accelerator = acc.id;
  info.accelerator_name = acc.name;
  info.platform = ToPlatform(acc.platform);
  info.series = acc.series_id;
  info.legacy = acc.legacy;
  info.maturity = acc.legacy ? "LEGACY" : "GA";
  std::vector<std::string> ids;
  AddId(ids, acc.source_id);
  if (acc.memory_bytes) {
    info.memory_per_accelerator_gib = acc.memory_bytes->value / kGiB;
    AddId(ids, acc.memory_bytes->source_id);
  }
  if (acc.end_of_support) {
    info.end_of_support = *acc.end_of_support;
    AddId(ids, acc.end_of_support_source_id);
  }
  SetSources(cat, ids, info);
  return info;
}

// One listing entry per machine type (TPU VM types carry their topologies),
// plus legacy accelerators that no machine type names.
std::vector<AcceleratorInfo> BuildListing(const catalog::Catalog& cat) {
  std::vector<AcceleratorInfo> out;
  std::set<std::string> listed_accelerators;
  for (const catalog::MachineType& mt : cat.machine_types) {
    out.push_back(MachineTypeEntry(cat, mt, listed_accelerators));
  }
  for (const catalog::Accelerator& acc : cat.accelerators) {
    if (listed_accelerators.count(acc.id)) continue;
    out.push_back(AcceleratorOnlyEntry(cat, acc));
  }
  return out;
}

}  // namespace

Planner::Planner(catalog::CatalogPtr catalog) : catalog_(std::move(catalog)) {
  auto index = std::make_unique<Index>();
  static_cast<internal::Index&>(*index) = internal::BuildIndex(*catalog_);
  index->listing = BuildListing(*catalog_);
  index_ = std::move(index);
}

Planner::~Planner() = default;

ListResponse Planner::List(const ListRequest& r) const {
  ListResponse out;
  out.catalog_version = catalog_->version;
  out.data_date = catalog_->data_date;
  for (const AcceleratorInfo& a : index_->listing) {
    if (a.legacy && !r.include_legacy) continue;
    if (!r.platforms.empty() &&
        std::find(r.platforms.begin(), r.platforms.end(), a.platform) ==
            r.platforms.end()) {
      continue;
    }
    if (r.min_memory_gib > 0) {
      const double mem = a.platform == Platform::kCpu ? a.host_memory_gib
                                                      : a.memory_per_accelerator_gib;
      if (mem < r.min_memory_gib) continue;
    }
    if (r.framework != Framework::kUnspecified) {
      bool runs = false;
      for (const FrameworkSupportInfo& f : a.frameworks) {
        if (f.framework == r.framework && f.status != "UNSUPPORTED") runs = true;
      }
      if (!runs) continue;
    }
    out.accelerators.push_back(a);
  }
  out.sources = index_->sources;
  out.models = ListModelPresets(*catalog_);
  return out;
}

}  // namespace accelplan::planner
