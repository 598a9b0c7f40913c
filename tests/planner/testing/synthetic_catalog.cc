#include "tests/planner/testing/synthetic_catalog.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace accelplan::planner::testutil {
namespace {

using catalog::Fact;
using catalog::FrameworkSupport;
using catalog::Offering;
using catalog::Price;
using catalog::Provisioning;
using catalog::RunPlatform;
using catalog::SupportStatus;

constexpr double kGiB = 1024.0 * 1024 * 1024;

// "TPU Z1" -> "tpu-z1": ids of the rows derived from a series name.
std::string Slug(const std::string& name) {
  return absl::AsciiStrToLower(absl::StrReplaceAll(name, {{" ", "-"}}));
}

std::optional<Fact> FactIf(double value, const std::string& source) {
  if (value <= 0) return std::nullopt;
  return Fact{value, source};
}

// One row per run platform, available or documented absent; a family that
// is not on-demand also gets an absent ON_DEMAND row on each, as A4 has.
std::vector<Offering> Offerings(const RunPlatforms& where, bool on_demand,
                                const std::string& source) {
  std::vector<Offering> out;
  for (auto [rp, available] :
       {std::pair{RunPlatform::kVertexTraining, where.vertex_training},
        std::pair{RunPlatform::kGke, where.gke},
        std::pair{RunPlatform::kComputeEngine, where.compute_engine}}) {
    Offering any;
    any.run_platform = rp;
    any.provisioning = Provisioning::kAny;
    any.available = available;
    any.source_id = source;
    out.push_back(any);
    if (!on_demand) {
      Offering absent = any;
      absent.provisioning = Provisioning::kOnDemand;
      absent.available = false;
      absent.note = "not available on-demand: reserve capacity or use Spot";
      out.push_back(absent);
    }
  }
  return out;
}

// No price row at all when neither price is given, as for hardware whose
// price Google does not publish.
std::optional<Price> PriceIf(double on_demand, double spot, bool per_chip,
                             const std::string& date,
                             const std::string& source) {
  if (on_demand <= 0 && spot <= 0) return std::nullopt;
  Price p;
  if (on_demand > 0) p.on_demand_usd = on_demand;
  if (spot > 0) p.spot_usd = spot;
  p.per_chip = per_chip;
  p.region = "us-central1";
  p.date = date;
  p.source_id = source;
  return p;
}

std::map<std::string, FrameworkSupport> Frameworks(
    std::map<std::string, SupportStatus> statuses,
    const FrameworkStatuses& overrides, const std::string& source) {
  for (const auto& [name, status] : overrides) statuses[name] = status;
  std::map<std::string, FrameworkSupport> out;
  for (const auto& [name, status] : statuses) {
    out[name] = {status, /*min_version=*/"", source, /*note=*/""};
  }
  return out;
}

// The formats the planner's precision rules read. fp8 is listed either way
// so that "no fp8 peak" is a stated fact, not a gap.
std::map<std::string, catalog::FormatSupport> Formats(
    bool fp8, const std::string& source) {
  return {{"bf16", {true, source}},
          {"fp16", {true, source}},
          {"fp32", {true, source}},
          {"fp8", {fp8, source}},
          {"fp64", {false, source}}};
}

void SetEndOfSupport(const std::string& date, const std::string& source,
                     catalog::Accelerator& a) {
  if (date.empty()) return;
  a.end_of_support = date;
  a.end_of_support_source_id = source;
}

// "4x4" -> 16; "2x2x1" -> 4.
int Chips(const std::string& topology) {
  int chips = 1;
  for (absl::string_view dim : absl::StrSplit(topology, 'x')) {
    int n = 0;
    if (!absl::SimpleAtoi(dim, &n) || n <= 0) return 0;
    chips *= n;
  }
  return chips;
}

}  // namespace

SyntheticCatalog::SyntheticCatalog(std::string data_date) {
  catalog_.version = absl::StrCat("synthetic@", data_date);
  catalog_.data_date = std::move(data_date);
}

std::string SyntheticCatalog::AddSource(const std::string& subject) {
  catalog::Source s;
  s.id = absl::StrCat("synthetic-", Slug(subject));
  s.url = absl::StrCat("https://example.invalid/synthetic/", Slug(subject));
  s.title = absl::StrCat("Synthetic test hardware: ", subject);
  catalog_.sources.push_back(s);
  return s.id;
}

SyntheticCatalog& SyntheticCatalog::AddGpuSeries(const std::string& series,
                                                 const GpuSeriesSpec& spec) {
  const std::string src = AddSource(series);

  catalog::Series s;
  s.id = series;
  s.platform = catalog::Platform::kGpu;
  s.family = "accelerator-optimized";
  s.positioning = "synthetic test hardware";
  s.source_id = src;
  // Stored bidirectional, in bytes/s, as the production series facts are.
  s.nvlink_bandwidth = FactIf(spec.nvlink_gbps * 1e9, src);
  s.nvlink_domain_gpus = FactIf(spec.nvlink_domain_gpus, src);
  s.network_hop_latency = FactIf(spec.network_hop_latency_us * 1e-6, src);
  for (catalog::WorkloadList list : spec.workload_lists) {
    s.workload_lists[list] = src;
  }
  catalog_.series.push_back(std::move(s));

  catalog::Accelerator a;
  a.id = spec.accelerator;
  a.platform = catalog::Platform::kGpu;
  a.name = absl::StrCat(series, " GPU");
  a.series_id = series;
  a.legacy = spec.legacy;  // legacy rows are never candidates unless kept
  a.source_id = src;
  a.architecture = "Synthetic";
  a.memory_bytes = FactIf(spec.memory_gib * kGiB, src);
  a.peak_bf16 = FactIf(spec.peak_bf16_tflops * 1e12, src);
  a.peak_fp16 = a.peak_bf16;
  // Only fp32 jobs read them: CUDA-core fp32 about an eighth of bf16, TF32
  // tensor cores half of it, roughly what Ampere and Hopper publish.
  a.peak_fp32 = FactIf(spec.peak_bf16_tflops * 1e12 / 8, src);
  a.peak_tf32 = FactIf(spec.peak_bf16_tflops * 1e12 / 2, src);
  a.peak_fp8 = FactIf(spec.peak_fp8_tflops * 1e12, src);
  a.formats = Formats(spec.peak_fp8_tflops > 0, src);
  a.frameworks =
      Frameworks({{catalog::kFrameworkJax, SupportStatus::kSupported},
                  {catalog::kFrameworkTensorflow, SupportStatus::kSupported},
                  {catalog::kFrameworkPytorch, SupportStatus::kSupported}},
                 spec.frameworks, src);
  SetEndOfSupport(spec.end_of_support, src, a);
  a.labels = {
      {"VERTEX_ACCELERATOR_TYPE", absl::AsciiStrToUpper(absl::StrReplaceAll(
                                      spec.accelerator, {{"-", "_"}}))},
      {"GKE_ACCELERATOR", spec.accelerator}};
  catalog_.accelerators.push_back(std::move(a));

  for (int n : spec.devices_per_vm) {
    catalog::MachineType m;
    m.id = absl::StrCat(Slug(series), "-gpu-", n, "g");
    m.gce_machine_type = m.id;
    m.series_id = series;
    m.accelerator_id = spec.accelerator;
    m.accelerator_count = n;
    m.vcpus = 12 * n;
    m.memory_bytes = spec.host_memory_gib_per_device * kGiB * n;
    // Without a host network the family stays on one VM.
    if (spec.inter_vm_gbps > 0)
      m.network_bits_per_s = spec.inter_vm_gbps * 1e9 * n;
    m.source_id = src;
    m.price = PriceIf(spec.on_demand_hourly_per_device * n,
                      spec.spot_hourly_per_device * n, /*per_chip=*/false,
                      catalog_.data_date, src);
    m.offerings = Offerings(spec.run_platforms, spec.on_demand, src);
    catalog_.machine_types.push_back(std::move(m));
  }
  return *this;
}

SyntheticCatalog& SyntheticCatalog::AddTpu(const TpuSpec& spec) {
  const std::string src = AddSource(spec.name);

  catalog::Series s;
  s.id = spec.name;
  s.platform = catalog::Platform::kTpu;
  s.family = "TPU";
  s.positioning = "synthetic test hardware";
  s.source_id = src;
  catalog_.series.push_back(std::move(s));

  catalog::Accelerator a;
  a.id = spec.accelerator;
  a.platform = catalog::Platform::kTpu;
  a.name = spec.name;
  a.series_id = spec.name;
  a.legacy = false;
  a.source_id = src;
  a.memory_bytes = FactIf(spec.memory_gib * kGiB, src);
  a.peak_bf16 = FactIf(spec.peak_bf16_tflops * 1e12, src);
  a.peak_fp8 = FactIf(spec.peak_fp8_tflops * 1e12, src);
  a.ici_bandwidth = FactIf(spec.ici_gbps * 1e9, src);
  a.dcn_bandwidth = FactIf(spec.dcn_gbps * 1e9, src);
  a.formats = Formats(spec.peak_fp8_tflops > 0, src);
  a.frameworks =
      Frameworks({{catalog::kFrameworkJax, SupportStatus::kSupported},
                  {catalog::kFrameworkTensorflow, SupportStatus::kSupported},
                  {catalog::kFrameworkPytorchXla, SupportStatus::kSupported},
                  // Plain PyTorch reaches a TPU only through PyTorch/XLA.
                  {catalog::kFrameworkPytorch, SupportStatus::kUnsupported}},
                 spec.frameworks, src);
  SetEndOfSupport(spec.end_of_support, src, a);
  a.labels = {{"GKE_TPU_ACCELERATOR", spec.accelerator}};
  a.chip_price =
      PriceIf(spec.on_demand_hourly_per_chip, spec.spot_hourly_per_chip,
              /*per_chip=*/true, catalog_.data_date, src);
  // TPU offerings hang on the accelerator, not on its VM types.
  a.offerings = Offerings(spec.run_platforms, /*on_demand=*/true, src);

  // One VM type per chips-per-VM count the slices use.
  std::set<int> vm_sizes;
  for (const std::string& topology : spec.topologies) {
    const int chips = Chips(topology);
    const int per_vm = std::max(1, std::min(chips, spec.chips_per_vm));
    const std::string machine = absl::StrCat(Slug(spec.name), "-", per_vm, "t");
    a.topologies.push_back(
        {topology, chips, std::max(1, chips / per_vm), machine, src});
    vm_sizes.insert(per_vm);
  }
  for (int per_vm : vm_sizes) {
    catalog::MachineType m;
    m.id = absl::StrCat(Slug(spec.name), "-", per_vm, "t");
    m.gce_machine_type = m.id;
    m.series_id = spec.name;
    m.accelerator_id = spec.accelerator;
    m.accelerator_count = per_vm;
    // The same host share per chip on every VM size (an invariant of the
    // production catalog).
    m.vcpus = 24 * per_vm;
    m.memory_bytes = spec.host_memory_gib_per_chip * kGiB * per_vm;
    // The planner falls back on the host NIC for DCN: with no DCN fact the
    // VMs get none, so the family has no Multislice.
    if (spec.dcn_gbps > 0) m.network_bits_per_s = spec.dcn_gbps * 1e9 * per_vm;
    m.source_id = src;
    catalog_.machine_types.push_back(std::move(m));
  }
  catalog_.accelerators.push_back(std::move(a));
  return *this;
}

SyntheticCatalog& SyntheticCatalog::AddCpuSeries(const std::string& series,
                                                 const CpuSeriesSpec& spec) {
  const std::string src = AddSource(series);

  catalog::Series s;
  s.id = series;
  s.platform = catalog::Platform::kCpu;
  s.family = "general-purpose";
  s.positioning = "synthetic test hardware";
  s.source_id = src;
  s.fp32_flops_per_vcpu = FactIf(spec.fp32_gflops_per_vcpu * 1e9, src);
  catalog_.series.push_back(std::move(s));

  for (int vcpus : spec.vcpus) {
    catalog::MachineType m;
    m.id = absl::StrCat(Slug(series), "-standard-", vcpus);
    m.gce_machine_type = m.id;
    m.series_id = series;
    m.vcpus = vcpus;
    m.memory_bytes = spec.memory_gib_per_vcpu * kGiB * vcpus;
    m.network_bits_per_s = spec.network_gbps * 1e9;
    m.source_id = src;
    m.price = PriceIf(spec.on_demand_hourly_per_vcpu * vcpus,
                      spec.spot_hourly_per_vcpu * vcpus, /*per_chip=*/false,
                      catalog_.data_date, src);
    m.offerings = Offerings(RunPlatforms{}, /*on_demand=*/true, src);
    catalog_.machine_types.push_back(std::move(m));
  }
  // framework_support rows with subject 'CPU' cover every CPU series; the
  // first CPU series added documents them.
  for (const char* f :
       {catalog::kFrameworkJax, catalog::kFrameworkTensorflow,
        catalog::kFrameworkPytorch, catalog::kFrameworkXgboost,
        catalog::kFrameworkScikitLearn, catalog::kFrameworkLightgbm}) {
    catalog_.cpu_frameworks.emplace(
        f, FrameworkSupport{SupportStatus::kSupported, "", src, ""});
  }
  return *this;
}

SyntheticCatalog& SyntheticCatalog::AddEdgeDevice(const EdgeSpec& spec) {
  const std::string src = AddSource(spec.name);

  catalog::Series s;
  s.id = spec.name;
  s.platform = catalog::Platform::kEdge;
  s.family = "edge";
  s.positioning = "synthetic test hardware";
  s.source_id = src;
  catalog_.series.push_back(std::move(s));

  catalog::Accelerator a;
  a.id = spec.accelerator;
  a.platform = catalog::Platform::kEdge;
  a.name = spec.name;
  a.series_id = spec.name;
  a.source_id = src;
  a.peak_int8 = FactIf(spec.peak_int8_tops * 1e12, src);
  a.param_cache_bytes = FactIf(spec.param_cache_mib * 1024 * 1024, src);
  a.max_model_bytes = FactIf(spec.max_model_gib * kGiB, src);
  a.formats = {{"int8", {true, src}},
               {"bf16", {false, src}},
               {"fp16", {false, src}},
               {"fp64", {false, src}}};
  catalog_.accelerators.push_back(std::move(a));

  // A device, not a VM: no vCPUs, memory, network, price or offerings.
  catalog::MachineType m;
  m.id = absl::StrCat(Slug(spec.name), "-device");
  m.gce_machine_type = m.id;
  m.series_id = spec.name;
  m.accelerator_id = spec.accelerator;
  m.accelerator_count = 1;
  m.source_id = src;
  catalog_.machine_types.push_back(std::move(m));
  return *this;
}

catalog::CatalogPtr SyntheticCatalog::Build() const {
  auto c = std::make_shared<catalog::Catalog>(catalog_);
  std::sort(c->machine_types.begin(), c->machine_types.end(),
            [](const catalog::MachineType& a, const catalog::MachineType& b) {
              return a.id < b.id;
            });
  for (catalog::Accelerator& a : c->accelerators) {
    std::stable_sort(
        a.topologies.begin(), a.topologies.end(),
        [](const catalog::TpuTopology& x, const catalog::TpuTopology& y) {
          return x.chips < y.chips;
        });
  }
  for (size_t i = 0; i < c->sources.size(); ++i) {
    c->source_index[c->sources[i].id] = i;
  }
  for (size_t i = 0; i < c->series.size(); ++i) {
    c->series_index[c->series[i].id] = i;
  }
  for (size_t i = 0; i < c->accelerators.size(); ++i) {
    c->accelerator_index[c->accelerators[i].id] = i;
  }
  for (size_t i = 0; i < c->machine_types.size(); ++i) {
    c->machine_type_index[c->machine_types[i].id] = i;
  }
  return c;
}

}  // namespace accelplan::planner::testutil
