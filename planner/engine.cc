#include "planner/engine.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/defaults.h"
#include "planner/job_spec.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

using catalog::Accelerator;
using catalog::Catalog;
using catalog::MachineType;

// Request defaults live in planner/defaults.h (one place, each sourced).
constexpr double kHeadroom = kDefaults.headroom_fraction.value;
constexpr double kClassicalMemoryFactor = kDefaults.classical_memory_factor.value;
// Scaling Book (planner-anchors §8): ~1.5e10 B/s PCIe per chip, used for
// GPUs in one VM without NVLink (peer traffic crosses PCIe).
constexpr double kPcieBytesPerS = 1.5e10;
constexpr double kSmallJobHours = 1.0;  // Google's "train quickly" CPU profile
constexpr double kOversizeFactor = 4.0;
constexpr double kListCostSlack = 1.25;
constexpr int kEosWarningDays = 365;

Platform ToPlatform(catalog::Platform p) {
  switch (p) {
    case catalog::Platform::kCpu: return Platform::kCpu;
    case catalog::Platform::kGpu: return Platform::kGpu;
    case catalog::Platform::kTpu: return Platform::kTpu;
    case catalog::Platform::kEdge: return Platform::kEdge;
  }
  return Platform::kUnspecified;
}

const char* PlatformName(Platform p) {
  switch (p) {
    case Platform::kCpu: return "CPU";
    case Platform::kGpu: return "GPU";
    case Platform::kTpu: return "TPU";
    case Platform::kEdge: return "EDGE";
    default: return "UNSPECIFIED";
  }
}

const char* FrameworkKey(Framework f, bool tpu, bool pytorch_xla_ok) {
  switch (f) {
    case Framework::kJax: return catalog::kFrameworkJax;
    case Framework::kTensorflow: return catalog::kFrameworkTensorflow;
    case Framework::kPytorch:
      return tpu && pytorch_xla_ok ? catalog::kFrameworkPytorchXla
                                   : catalog::kFrameworkPytorch;
    case Framework::kXgboost: return catalog::kFrameworkXgboost;
    case Framework::kScikitLearn: return catalog::kFrameworkScikitLearn;
    case Framework::kLightgbm: return catalog::kFrameworkLightgbm;
    default: return nullptr;
  }
}

const char* FrameworkLabel(Framework f) {
  switch (f) {
    case Framework::kJax: return "JAX";
    case Framework::kTensorflow: return "TensorFlow";
    case Framework::kPytorch: return "PyTorch";
    case Framework::kXgboost: return "XGBoost";
    case Framework::kScikitLearn: return "scikit-learn";
    case Framework::kLightgbm: return "LightGBM";
    case Framework::kOther: return "other framework";
    default: return "unspecified framework";
  }
}

const char* PrecisionLabel(Precision p) {
  switch (p) {
    case Precision::kFp16Mixed: return "fp16";
    case Precision::kFp32: return "fp32";
    case Precision::kFp8: return "fp8";
    case Precision::kFp64Required: return "fp64";
    default: return "bf16";
  }
}

double Gib(double bytes) { return bytes / kGiB; }

bool IsFine(const std::optional<catalog::Fact>& f) {
  return f.has_value() && f->value > 0;
}

void AddSource(std::vector<std::string>& out, const std::string& id) {
  if (!id.empty() && std::find(out.begin(), out.end(), id) == out.end()) {
    out.push_back(id);
  }
}

// An offering row that documents absence on a run platform.
bool DocumentedAbsent(const std::vector<catalog::Offering>& offerings,
                      catalog::RunPlatform rp, catalog::Provisioning prov) {
  for (const auto& o : offerings) {
    if (o.run_platform == rp && !o.available &&
        (o.provisioning == prov || o.provisioning == catalog::Provisioning::kAny)) {
      return true;
    }
  }
  return false;
}

bool AnyPreview(const std::vector<catalog::Offering>& offerings) {
  for (const auto& o : offerings) {
    if (o.preview) return true;
  }
  return false;
}

std::optional<catalog::RunPlatform> ToCatalogRunPlatform(RunPlatform rp) {
  switch (rp) {
    case RunPlatform::kVertexTraining: return catalog::RunPlatform::kVertexTraining;
    case RunPlatform::kGke: return catalog::RunPlatform::kGke;
    case RunPlatform::kComputeEngine: return catalog::RunPlatform::kComputeEngine;
    default: return std::nullopt;
  }
}

const char* RunPlatformLabel(RunPlatform rp) {
  switch (rp) {
    case RunPlatform::kVertexTraining: return "Vertex AI serverless training";
    case RunPlatform::kGke: return "GKE";
    case RunPlatform::kComputeEngine: return "Compute Engine";
    default: return "any platform";
  }
}

}  // namespace

std::string FormatUsd(double usd) {
  if (!std::isfinite(usd)) return "unknown";
  if (usd >= 100) return absl::StrFormat("$%.0f", usd);
  return absl::StrFormat("$%.2f", usd);
}

std::string FormatHours(double hours) {
  if (!std::isfinite(hours)) return "unknown";
  if (hours >= 48) return absl::StrFormat("%.1f days", hours / 24);
  return absl::StrFormat("%.1f h", hours);
}

void Candidate::Reject(ReasonCode code, std::string why_line) {
  if (std::find(codes.begin(), codes.end(), code) == codes.end()) {
    codes.push_back(code);
    why.push_back(std::move(why_line));
  }
}

// The human line for a configuration that spends its step communicating;
// formatted only when a reason needs it.
std::string CommunicationDetail(const Job& job, const Candidate& cand) {
  const Family& f = *cand.family;
  const Config& c = *cand.config;
  const double tokens_per_device = job.tokens_per_step / c.devices;
  const double w = c.comm_link_bytes_per_s > 0 ? c.comm_link_bytes_per_s
                   : c.slices > 1              ? f.dcn_bytes_per_s_per_chip
                   : f.platform == Platform::kTpu ? f.ici_bytes_per_s
                   : c.hosts > 1 ? f.inter_vm_bytes_per_s
                                 : f.intra_vm_bytes_per_s;
  const BoundCheck b = DataParallelBound(tokens_per_device, c.peak_flops, w,
                                         c.hosts > 1 ? c.hosts : 0);
  return absl::StrFormat(
      "%s traffic over %s at %.1f GB/s per device takes %.1fx the compute "
      "time per step, %.0f%% of the step exposed (compute-bound needs >= "
      "%.0f %s per device per step, has %.0f)",
      c.layout.zero_stage == 3 ? "FSDP"
      : c.layout.tensor > 1    ? "tensor/data-parallel"
                               : "data-parallel",
      c.slices > 1 ? "DCN"
      : (c.hosts > 1 && f.platform == Platform::kGpu) ? "the host network"
                                                      : "the interconnect",
      w / 1e9, c.step.comm_to_compute_ratio,
      100 * c.step.communication_fraction, b.required, job.unit,
      tokens_per_device);
}

// ---------------------------------------------------------------- index

Index BuildIndex(const Catalog& catalog) {
  Index index;
  // Families keyed by (platform, series, accelerator).
  std::map<std::string, Family> by_key;
  // Accelerators per GPU series, to name N1 families "N1 + T4".
  std::map<std::string, std::set<std::string>> series_accelerators;
  for (const MachineType& mt : catalog.machine_types) {
    if (!mt.accelerator_id.empty()) {
      series_accelerators[mt.series_id].insert(mt.accelerator_id);
    }
  }

  auto price_shape = [](Shape& s, const std::optional<catalog::Price>& p,
                        double multiplier) {
    if (!p.has_value()) return;
    if (p->on_demand_usd) s.on_demand_hourly = *p->on_demand_usd * multiplier;
    if (p->spot_usd) s.spot_hourly = *p->spot_usd * multiplier;
    s.price_date = p->date;
    s.price_region = p->region;
    s.price_source_id = p->source_id;
  };

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
      if (acc == nullptr) {
        f.name = series->id;
      } else if (acc->platform == catalog::Platform::kEdge) {
        f.name = acc->name;
      } else if (series_accelerators[series->id].size() > 1) {
        std::string short_name = acc->name;
        if (short_name.rfind("NVIDIA ", 0) == 0) short_name = short_name.substr(7);
        f.name = absl::StrCat(series->id, " + ", short_name);
      } else {
        f.name = series->id;
      }
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
    price_shape(s, mt.price, 1.0);
    f.shapes.push_back(s);
  }

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
      price_shape(s, acc.chip_price, t.chips);
      f.shapes.push_back(s);
    }
  }

  for (auto& [key, f] : by_key) {
    if (f.shapes.empty() || f.series == nullptr) continue;
    std::stable_sort(f.shapes.begin(), f.shapes.end(),
                     [](const Shape& a, const Shape& b) {
                       if (a.devices != b.devices) return a.devices < b.devices;
                       const double pa = a.on_demand_hourly.value_or(1e18);
                       const double pb = b.on_demand_hourly.value_or(1e18);
                       return pa < pb;
                     });
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
    if (f.platform == Platform::kGpu) {
      const Shape& largest = f.shapes.back();
      if (IsFine(f.series->nvlink_bandwidth)) {
        // Stored bidirectional per GPU; a ring uses one direction per link.
        f.intra_vm_bytes_per_s = f.series->nvlink_bandwidth->value / 2;
        AddSource(f.fact_sources, f.series->nvlink_bandwidth->source_id);
      } else {
        f.intra_vm_bytes_per_s = kPcieBytesPerS;
      }
      if (largest.machine->network_bits_per_s.has_value()) {
        f.inter_vm_bytes_per_s = *largest.machine->network_bits_per_s / 8 /
                                 std::max(1, largest.devices);
      }
    } else if (f.platform == Platform::kTpu) {
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
    index.families.push_back(std::move(f));
  }
  std::sort(index.families.begin(), index.families.end(),
            [](const Family& a, const Family& b) { return a.name < b.name; });
  // Pointers into `shapes` are taken once the families are in place.
  for (Family& f : index.families) {
    f.allowed_series_keys = {NormalizeName(f.series->id), NormalizeName(f.name)};
    if (f.accelerator != nullptr) {
      f.allowed_series_keys.push_back(NormalizeName(f.accelerator->id));
      f.allowed_series_keys.push_back(NormalizeName(f.accelerator->name));
    }
    for (const Shape& s : f.shapes) {
      if (f.platform == Platform::kTpu && s.vms > 1) f.largest_multi_host_slice = &s;
    }
  }

  for (const catalog::Source& s : catalog.sources) {
    index.sources.push_back({s.id, s.url, s.title});
  }
  return index;
}

// ---------------------------------------------------------------- job

namespace {

// 1048576 -> "1,048,576" (whole numbers, for assumption lines).
std::string Grouped(double v) {
  std::string digits = absl::StrFormat("%.0f", v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    const size_t left = digits.size() - i;  // digits from here to the end
    if (i > 0 && left % 3 == 0 && digits[i - 1] != '-') out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// The unit of work, the global batch in that unit, the data set size D and
// the FLOPs per unit, with every default that was used stated. Examples are
// never counted as tokens: a sequence model counts tokens (sequences of the
// given or default length), any other model examples, classical ML bytes.
void ResolveWork(const Workload& w, Job& job) {
  const bool epochs_given = w.epochs > 0;
  const double epochs = epochs_given ? w.epochs : kDefaults.epochs.value;
  const TransformerShape& shape = w.transformer_shape;
  job.batch_given = w.global_batch_size > 0;
  const double batch = static_cast<double>(w.global_batch_size);
  bool dataset_in_passes = false;  // D counts epochs of a data set
  if (job.classical) {
    job.unit = "bytes";
    double bytes = w.dataset_gib * kGiB;
    if (bytes <= 0 && w.dataset_examples > 0) {
      bytes = w.dataset_examples * kDefaults.classical_bytes_per_example.value;
      job.assumptions.push_back(absl::StrCat(
          "Dataset size in bytes not given: 1 KB per example assumed (",
          kDefaults.classical_bytes_per_example.source, ")."));
    }
    job.flops_per_unit = kDefaults.classical_flops_per_byte.value;
    if (bytes > 0) {
      job.has_dataset = true;
      job.tokens = bytes * epochs;
      dataset_in_passes = true;
      job.training_flops = job.tokens * job.flops_per_unit;
      job.assumptions.push_back(absl::StrFormat(
          "Classical ML work modelled as %.0f FLOP per byte of training data "
          "per pass (%s passes), at 5-15%% of peak fp32 (%s).",
          job.flops_per_unit, absl::StrFormat("%g", epochs),
          kDefaults.classical_flops_per_byte.source));
    }
    // Classical training has no step: a nominal one of a default batch of
    // examples keeps the internal throughput (bytes/s) in one unit; none of
    // it reaches the response (no step time or tokens/s for classical ML).
    job.tokens_per_step = kDefaults.batch_examples.value *
                          kDefaults.classical_bytes_per_example.value;
    job.batch_sequences = job.batch_given ? batch : kDefaults.batch_examples.value;
  } else {
    job.sequence_model = shape.sequence_length > 0 || shape.layers > 0 ||
                         shape.hidden_size > 0 ||
                         w.model_kind == ModelKind::kDenseTransformer ||
                         w.dataset_tokens > 0;
    if (job.sequence_model) {
      job.unit = "tokens";
      int seq = shape.sequence_length;
      if (seq <= 0) {
        seq = static_cast<int>(kDefaults.sequence_length.value);
        job.assumptions.push_back(absl::StrCat(
            "No sequence length given for a sequence model: ", Grouped(seq),
            " tokens per sequence assumed (", kDefaults.sequence_length.source,
            ")."));
        // The activation model reads the shape's sequence length.
        if (shape.layers > 0) job.workload.transformer_shape.sequence_length = seq;
      }
      job.sequence_length = seq;
      if (job.batch_given) {
        job.tokens_per_step = batch * seq;
        job.batch_sequences = batch;
      } else {
        job.tokens_per_step = kDefaults.batch_tokens.value;
        job.batch_sequences = std::max(1.0, std::floor(job.tokens_per_step / seq));
        job.assumptions.push_back(absl::StrCat(
            "No global batch given: ", Grouped(job.tokens_per_step),
            " tokens per step assumed (", Grouped(job.batch_sequences),
            " sequences of ", Grouped(seq), " tokens; ",
            kDefaults.batch_tokens.source,
            "). A configuration with more data-parallel ranks than that is "
            "kept, with a warning that it needs a larger batch."));
      }
      if (w.dataset_tokens > 0) {
        job.tokens = w.dataset_tokens * epochs;
        dataset_in_passes = true;
      } else if (w.steps > 0 && job.batch_given) {
        job.tokens = static_cast<double>(w.steps) * job.tokens_per_step;
      } else if (w.dataset_examples > 0) {
        job.tokens = w.dataset_examples * epochs * seq;
        dataset_in_passes = true;
      }
    } else {
      job.unit = "examples";
      if (job.batch_given) {
        job.tokens_per_step = batch;
      } else {
        job.tokens_per_step = kDefaults.batch_examples.value;
        job.assumptions.push_back(absl::StrCat(
            "No global batch given: ", Grouped(job.tokens_per_step),
            " examples per step assumed (", kDefaults.batch_examples.source,
            ")."));
      }
      job.batch_sequences = job.tokens_per_step;
      if (w.dataset_examples > 0) {
        job.tokens = w.dataset_examples * epochs;
        dataset_in_passes = true;
      } else if (w.steps > 0 && job.batch_given) {
        job.tokens = static_cast<double>(w.steps) * job.tokens_per_step;
      }
    }
    // 6·P per unit (8·P with full recompute asked): kDefaults'
    // training_flops_per_param, applied by TrainingFlops.
    job.flops_per_unit = TrainingFlops(job.params, 1.0, w.recompute);
    if (job.method == TrainingMethod::kLora ||
        job.method == TrainingMethod::kQlora) {
      // Frozen base: no weight gradients, so ~4·P·D instead of 6·P·D.
      job.flops_per_unit *= 4.0 / 6.0;
      job.assumptions.push_back(
          "LoRA/QLoRA compute: 4·P·D (no weight gradients for the frozen "
          "base).");
    }
    if (!job.sequence_model && job.model_size_known) {
      job.assumptions.push_back(absl::StrCat(
          "Not a sequence model (no transformer shape, sequence length or "
          "dataset in tokens): work counted in examples at 6·P training "
          "FLOPs per example (", kDefaults.training_flops_per_param.source,
          ")."));
    }
    job.has_dataset = job.tokens > 0 && job.model_size_known;
    if (job.has_dataset) job.training_flops = job.flops_per_unit * job.tokens;
  }
  if (job.has_dataset && dataset_in_passes && !epochs_given) {
    job.assumptions.push_back(absl::StrCat("Epochs not given: 1 assumed (",
                                           kDefaults.epochs.source, ")."));
  }
}

// States the enumerated defaults the request relied on.
void StateEnumDefaults(const Workload& w, const Goal& g, Job& job) {
  if (job.on_device) return;
  if (w.precision == Precision::kUnspecified) {
    job.assumptions.push_back(
        job.classical
            ? "Precision not given: fp32 assumed (classical ML trains in "
              "fp32 on CPUs and CUDA; product choice)."
            : "Precision not given: bf16 mixed assumed (the API's default).");
  }
  if (!job.classical && job.model_size_known) {
    if (w.optimizer == Optimizer::kUnspecified) {
      job.assumptions.push_back(
          "Optimizer not given: Adam assumed (the API's default; 16 B/param "
          "with mixed precision).");
    }
    if (w.recompute == Recompute::kUnspecified && w.transformer_shape.layers > 0) {
      job.assumptions.push_back(
          "Recompute not given: selective assumed for activation memory (the "
          "API's default); full recompute is tried where it is needed to "
          "fit.");
    }
    if (w.training_method == TrainingMethod::kUnspecified) {
      job.assumptions.push_back(
          "Training method not given: pre-training assumed (SPEC §4: the "
          "pre-training list applies).");
    }
  }
  if (g.objective == Objective::kUnspecified) {
    job.assumptions.push_back(
        "Objective not given: MIN_COST assumed (the API's default).");
  }
}

}  // namespace

std::optional<std::string> DcnProductMismatch(const MultisliceMesh& m,
                                              int slices) {
  const int64_t dcn = int64_t{std::max(1, m.dcn_data_parallelism)} *
                      std::max(1, m.dcn_fsdp_parallelism) *
                      std::max(1, m.dcn_tensor_parallelism) *
                      std::max(1, m.dcn_pipeline_parallelism);
  if (slices <= 0 || dcn == slices) return std::nullopt;
  return absl::StrFormat(
      "The product of the mesh's DCN degrees (data %d x fsdp %d x tensor %d "
      "x pipeline %d = %d) must equal the number of slices (%d).",
      std::max(1, m.dcn_data_parallelism), std::max(1, m.dcn_fsdp_parallelism),
      std::max(1, m.dcn_tensor_parallelism),
      std::max(1, m.dcn_pipeline_parallelism), dcn, slices);
}

CurrentHardware ResolveCurrentHardware(const Catalog& catalog,
                                       const std::string& hardware) {
  CurrentHardware hw;
  if (hardware.empty()) return hw;
  const std::string want = NormalizeName(hardware);
  for (const MachineType& mt : catalog.machine_types) {
    if (NormalizeName(mt.id) == want || NormalizeName(mt.gce_machine_type) == want) {
      hw.machine = &mt;
      hw.series = catalog.FindSeries(mt.series_id);
      if (!mt.accelerator_id.empty()) {
        hw.accelerator = catalog.FindAccelerator(mt.accelerator_id);
      }
      return hw;
    }
  }
  for (const Accelerator& a : catalog.accelerators) {
    if (NormalizeName(a.id) == want || NormalizeName(a.name) == want ||
        NormalizeName(absl::StrCat("tpu", a.id)) == want) {
      hw.accelerator = &a;
      hw.series = catalog.FindSeries(a.series_id);
      return hw;
    }
  }
  for (const catalog::Series& s : catalog.series) {
    if (NormalizeName(s.id) == want) hw.series = &s;
  }
  return hw;
}

Job MakeJob(const Catalog& catalog, const Workload& w, const Goal& g,
            const Constraints& k, const CurrentSetup& cur,
            const std::string& as_of) {
  Job job;
  job.workload = w;
  job.goal = g;
  job.constraints = k;
  for (const std::string& s : k.allowed_series) {
    job.allowed_series.insert(NormalizeName(s));
  }
  job.current = cur;
  job.framework = w.framework;
  job.classical = w.framework == Framework::kXgboost ||
                  w.framework == Framework::kScikitLearn ||
                  w.framework == Framework::kLightgbm ||
                  (w.model_kind == ModelKind::kTabular &&
                   w.framework == Framework::kUnspecified);
  // Classical ML computes in fp32/fp64 on CPUs and CUDA; bf16 is a deep
  // learning default.
  job.precision = w.precision != Precision::kUnspecified ? w.precision
                  : job.classical                        ? Precision::kFp32
                                                         : Precision::kBf16Mixed;
  job.method = w.training_method == TrainingMethod::kUnspecified
                   ? TrainingMethod::kPreTraining
                   : w.training_method;
  job.objective =
      g.objective == Objective::kUnspecified ? Objective::kMinCost : g.objective;
  job.on_device = w.deployment_target == DeploymentTarget::kOnDeviceInference;
  job.nccl_framework = w.framework == Framework::kPytorch ||
                       w.framework == Framework::kTensorflow;

  job.params = w.parameter_count;
  if (job.params <= 0) job.params = TransformerParamsFromShape(w.transformer_shape);
  job.model_size_known = job.params > 0;
  const double embedding_bytes = w.embedding_table_gib * kGiB;
  job.embedding_dominated =
      w.embedding_lookups_dominate ||
      (w.model_kind == ModelKind::kRecommender && embedding_bytes > 0 &&
       embedding_bytes >= 16.0 * job.params);
  // SPEC §4: SparseCores lead the ranking for JAX and TensorFlow, whose
  // TPU embedding APIs use them.
  job.sparsecore_ranking =
      job.embedding_dominated && (w.framework == Framework::kJax ||
                                  w.framework == Framework::kTensorflow);

  ResolveWork(w, job);
  StateEnumDefaults(w, g, job);
  if (!job.has_dataset && !job.on_device) {
    job.warnings.push_back(
        {ReasonCode::kNoDatasetSize,
         job.model_size_known || job.classical
             ? "No dataset size given: candidates ranked by cost per unit of "
               "work; no deadline check."
             : "No model or dataset size given: candidates ranked by cost "
               "per unit of work at the smallest shape that holds the "
               "stated memory; no deadline check."});
  }

  job.deadline_given = g.deadline_hours > 0;
  if (job.deadline_given) {
    job.deadline_hours = g.deadline_hours;
  } else if (job.objective == Objective::kMinTime) {
    job.deadline_hours = std::numeric_limits<double>::infinity();
  } else {
    job.deadline_hours = kDefaults.min_cost_deadline_hours.value;
    if (job.has_dataset) {
      job.assumptions.push_back(absl::StrCat(
          "No deadline given: 30 days assumed for MIN_COST (",
          kDefaults.min_cost_deadline_hours.source,
          "); a configuration that misses only this assumed deadline is "
          "kept, ranked after those that meet it."));
    }
  }

  job.as_of = as_of.empty() ? catalog.data_date : as_of;
  job.as_of_days = ParseDate(job.as_of).value_or(0);
  const auto data_days = ParseDate(catalog.data_date);
  if (data_days &&
      job.as_of_days - *data_days > kFreshness.catalog_stale_days.value) {
    job.warnings.push_back(
        {ReasonCode::kCatalogStale,
         absl::StrCat("Catalog data date ", catalog.data_date, " is ",
                      job.as_of_days - *data_days, " days before ", job.as_of,
                      "; prices and availability may have changed.")});
  }

  // Current hardware: machine type, accelerator or series, legacy included.
  if (!cur.hardware.empty()) {
    const CurrentHardware hw = ResolveCurrentHardware(catalog, cur.hardware);
    job.current_machine = hw.machine;
    job.current_accelerator = hw.accelerator;
    job.current_series = hw.series;
    if (!hw.known()) {
      job.warnings.push_back(
          {ReasonCode::kAssumption,
           absl::StrCat("Current hardware \"", cur.hardware,
                        "\" is not in the catalog; savings are not computed.")});
    }
  }
  // Multislice facts of the current setup (SPEC §4: identical multi-host
  // slices, DCN degrees multiplying to the slice count).
  job.current_slices = cur.slice_count > 0
                           ? cur.slice_count
                           : static_cast<int>(cur.slice_topologies.size());
  for (const std::string& t : cur.slice_topologies) {
    if (absl::AsciiStrToLower(t) !=
        absl::AsciiStrToLower(cur.slice_topologies.front())) {
      job.mixed_current_slices = true;
    }
  }
  if (job.mixed_current_slices) {
    job.warnings.push_back(
        {ReasonCode::kNeedsIdenticalSlices,
         absl::StrCat("The current slices have different topologies (",
                      absl::StrJoin(cur.slice_topologies, ", "),
                      "); Multislice needs identical slices, so they cannot "
                      "train one model together.")});
  }
  if (cur.mesh) {
    if (auto why = DcnProductMismatch(*cur.mesh, job.current_slices)) {
      job.warnings.push_back(
          {ReasonCode::kNotApplicable, absl::StrCat("Current mesh: ", *why)});
    }
  }
  int per_node = cur.accelerator_count;
  if (per_node <= 0 && job.current_machine) {
    per_node = std::max(1, job.current_machine->accelerator_count);
  }
  if (!cur.tpu_topology.empty()) {
    job.current_devices = TopologyChips(cur.tpu_topology) *
                          std::max(1, cur.slice_count);
  } else if (per_node > 0) {
    job.current_devices = per_node * std::max(1, cur.node_count);
  }
  MemoryModelInput mem;
  mem.params = job.params;
  mem.method = job.method;
  mem.precision = job.precision;
  mem.optimizer = job.workload.optimizer;
  mem.shape = job.workload.transformer_shape.layers > 0
                  ? &job.workload.transformer_shape
                  : nullptr;
  mem.embedding_bytes = job.workload.embedding_table_gib * kGiB;
  mem.lora_rank = job.workload.lora_rank;
  job.memory_model = PrepareMemoryModel(mem);
  return job;
}

// ---------------------------------------------------------------- evaluate

namespace {

struct Option {
  const Shape* shape;
  int units;
};

double PeakFlops(const Family& f, const Shape& s, Precision p,
                 std::vector<std::string>* sources, std::string* note) {
  if (f.platform == Platform::kCpu) {
    const catalog::Series& series = *f.series;
    const int vcpus = s.machine->vcpus.value_or(0);
    if (vcpus <= 0) return 0;
    if (p == Precision::kFp64Required && IsFine(series.fp64_flops_per_vcpu)) {
      if (sources) AddSource(*sources, series.fp64_flops_per_vcpu->source_id);
      return series.fp64_flops_per_vcpu->value * vcpus;
    }
    if (!IsFine(series.fp32_flops_per_vcpu)) return 0;
    if (sources) AddSource(*sources, series.fp32_flops_per_vcpu->source_id);
    double v = series.fp32_flops_per_vcpu->value * vcpus;
    if (p == Precision::kFp64Required) {
      v /= 2;  // half the fp32 rate: SIMD lanes hold half as many doubles
      if (note) *note = "CPU fp64 peak taken as half the fp32 peak.";
    }
    return v;
  }
  const Accelerator* a = f.accelerator;
  if (a == nullptr) return 0;
  const std::optional<catalog::Fact>* fact = nullptr;
  switch (p) {
    case Precision::kFp16Mixed:
      fact = IsFine(a->peak_fp16) ? &a->peak_fp16 : &a->peak_bf16;
      break;
    case Precision::kFp32:
      fact = IsFine(a->peak_fp32) ? &a->peak_fp32 : &a->peak_tf32;
      break;
    case Precision::kFp8: fact = &a->peak_fp8; break;
    case Precision::kFp64Required: fact = &a->peak_fp64; break;
    default:
      fact = IsFine(a->peak_bf16) ? &a->peak_bf16 : &a->peak_fp16;
      break;
  }
  if (fact != nullptr && IsFine(*fact)) {
    if (sources) AddSource(*sources, (*fact)->source_id);
    return (*fact)->value;
  }
  if (p == Precision::kFp32 && IsFine(a->peak_bf16) &&
      a->platform == catalog::Platform::kTpu) {
    // XLA runs fp32 matmuls as several bf16 passes; a third of the bf16 peak
    // is a stated assumption.
    if (note) *note = "TPU fp32 peak assumed a third of the bf16 peak.";
    if (sources) AddSource(*sources, a->peak_bf16->source_id);
    return a->peak_bf16->value / 3;
  }
  return 0;
}

DeviceClass ClassOf(const Family& f) {
  switch (f.platform) {
    case Platform::kTpu: return DeviceClass::kTpu;
    case Platform::kCpu: return DeviceClass::kCpu;
    default: return f.modern ? DeviceClass::kModernGpu : DeviceClass::kOlderGpu;
  }
}

// Per-device memory requirement of the job under a layout and recompute
// level (unspecified recompute means selective, as the API documents).
MemoryEstimate Memory(const Job& job, const ShardingLayout& layout,
                      Recompute recompute, int64_t global_batch_override = 0) {
  return EstimateMemoryPerDevice(
      job.memory_model,
      recompute == Recompute::kUnspecified ? Recompute::kSelective : recompute,
      global_batch_override > 0 ? global_batch_override
                                : job.workload.global_batch_size,
      layout);
}

MemoryEstimate Memory(const Job& job, const ShardingLayout& layout) {
  return Memory(job, layout, job.workload.recompute);
}

// Layouts to try for `devices`, in SPEC §4's order of preference: data
// parallel; FSDP/ZeRO-3; tensor parallel inside the NVLink/ICI domain with
// FSDP; tensor parallel inside the VM + pipeline across VMs + ZeRO-1 data
// parallel. Multislice keeps FSDP/TP inside each slice.
// At most data parallel, FSDP, TP+FSDP and five pipeline depths: a fixed
// array keeps this inner loop free of allocation.
struct LayoutList {
  std::array<std::pair<ShardingLayout, Strategy>, 8> items;
  size_t size = 0;
  void push_back(std::pair<ShardingLayout, Strategy> v) {
    if (size < items.size()) items[size++] = v;
  }
  const std::pair<ShardingLayout, Strategy>* begin() const { return items.data(); }
  const std::pair<ShardingLayout, Strategy>* end() const { return items.data() + size; }
};

LayoutList LayoutsFor(const Job& job, const Family& f, const Config& c) {
  LayoutList out;
  const int n = c.devices;
  ShardingLayout dp;
  dp.data = n;
  out.push_back({dp, n == 1 ? Strategy::kSingleDevice : Strategy::kDataParallel});
  if (n == 1) return out;
  const int per_slice = c.slices > 1 ? n / c.slices : n;
  ShardingLayout fsdp;
  fsdp.data = n;
  fsdp.zero_stage = 3;
  fsdp.fsdp = per_slice;
  out.push_back({fsdp, Strategy::kFsdp});
  if (job.workload.transformer_shape.layers <= 0 || f.platform == Platform::kCpu) {
    return out;
  }
  const int tp = std::min(f.platform == Platform::kTpu ? 8 : f.max_devices_per_vm, 8);
  if (tp > 1 && per_slice % tp == 0) {
    ShardingLayout hybrid = fsdp;
    hybrid.tensor = tp;
    hybrid.fsdp = per_slice / tp;
    hybrid.data = n / tp;
    out.push_back({hybrid, Strategy::kHybrid});
    const int layers = job.workload.transformer_shape.layers;
    if (f.platform == Platform::kGpu && c.hosts > 1) {
      for (int pp : {2, 4, 8, 16, 32}) {
        if (c.hosts % pp != 0 || pp > layers) continue;
        ShardingLayout three_d;
        three_d.tensor = tp;
        three_d.pipeline = pp;
        three_d.data = n / (tp * pp);
        three_d.zero_stage = three_d.data > 1 ? 1 : 0;
        three_d.fsdp = three_d.data;
        out.push_back({three_d, Strategy::kHybrid});
      }
    }
  }
  return out;
}

// Megatron TP: 4 activation all-reduces per layer (2 forward, 2 backward)
// of tokens × hidden 16-bit values per TP group, inside the VM/slice; on
// the critical path. The same whatever the pipeline depth: layers per stage
// (L/p) times tokens per replica (T·t·p/n).
struct TpTraffic {
  double bytes = 0;
  double link_bytes_per_s = 0;
};
TpTraffic TensorParallelTraffic(const Job& job, const Family& f, int n,
                                const ShardingLayout& layout) {
  TpTraffic out;
  const TransformerShape& shape = job.workload.transformer_shape;
  const int tp = std::max(1, layout.tensor);
  const int pp = std::max(1, layout.pipeline);
  if (tp <= 1 || shape.hidden_size <= 0) return out;
  const int replicas = std::max(1, n / (tp * pp));
  const double tokens_per_replica = job.tokens_per_step / replicas;
  out.bytes = 4.0 * shape.layers / pp * tokens_per_replica * shape.hidden_size * 2.0;
  out.link_bytes_per_s =
      f.platform == Platform::kTpu ? f.ici_bytes_per_s : f.intra_vm_bytes_per_s;
  return out;
}

void EstimateTime(const Job& job, const Family& f, Config& c) {
  const int n = c.devices;
  if (job.classical) {
    c.mfu = DefaultMfu(ClassOf(f), ModelKind::kTabular);
  } else {
    c.mfu = DefaultMfu(ClassOf(f), job.workload.model_kind);
  }
  StepTimeInput in;
  in.devices = n;
  in.peak_flops_per_device = c.peak_flops;
  in.mfu_low = c.mfu.low;
  in.mfu_high = c.mfu.high;
  double flops_per_token = job.flops_per_unit;
  if (c.recompute == Recompute::kFull &&
      job.workload.recompute != Recompute::kFull) {
    flops_per_token *= 8.0 / 6.0;  // full recompute: one extra forward pass
  }
  in.flops_per_step_total = flops_per_token * job.tokens_per_step;
  const double wire = GradientWireBytesPerParam(job.precision);
  const double grad_bytes = job.params * wire;
  const bool multi_host = c.hosts > 1;
  const double link = f.platform == Platform::kTpu
                          ? f.ici_bytes_per_s
                          : (multi_host ? f.inter_vm_bytes_per_s
                                        : f.intra_vm_bytes_per_s);
  const int per_slice = c.slices > 0 ? n / c.slices : n;
  const int tp = std::max(1, c.layout.tensor);
  const int pp = std::max(1, c.layout.pipeline);
  const int replicas = std::max(1, n / (tp * pp));
  if (!job.classical && job.model_size_known && n > 1 &&
      job.workload.per_device_memory_gib <= 0) {
    if (c.layout.zero_stage == 3) {
      in.fsdp_bytes = job.params * 2.0 / tp;
      in.fsdp_size = c.layout.fsdp;
      in.fsdp_link_bytes_per_s = link;
    } else if (c.slices <= 1) {
      // Plain or ZeRO-1 data parallel: each replica all-reduces (or
      // reduce-scatters + all-gathers, the same volume) its gradient shard.
      in.bytes_allreduce_per_step = grad_bytes / (tp * pp);
      in.ring_size = replicas;
      in.link_bytes_per_s =
          f.platform == Platform::kGpu && c.hosts > pp ? f.inter_vm_bytes_per_s
                                                       : link;
    } else {
      in.bytes_allreduce_per_step = grad_bytes;
      in.ring_size = per_slice;
      in.link_bytes_per_s = link;
    }
    if (c.slices > 1) {
      in.dcn_bytes_allreduce_per_step = grad_bytes / per_slice;
      in.dcn_size = c.slices;
      in.dcn_bytes_per_s = f.dcn_bytes_per_s_per_chip;
    }
    const TpTraffic traffic = TensorParallelTraffic(job, f, n, c.layout);
    if (traffic.bytes > 0) {
      in.tp_bytes_allreduce_per_step = traffic.bytes;
      in.tp_size = tp;
      in.tp_link_bytes_per_s = traffic.link_bytes_per_s;
    }
    if (pp > 1) {
      const int seq = std::max(1, job.sequence_length);
      in.pipeline_stages = pp;
      // Clamped before the cast: absurd-but-valid batches must not overflow.
      in.microbatches = static_cast<int>(
          std::clamp(job.tokens_per_step / seq / replicas, 1.0, 1e9));
    }
  }
  c.step = EstimateStepTime(in);
  // A flag for the reasons only: communication lengthens the step, it
  // never removes a configuration.
  c.comm_bound = c.step.comm_to_compute_ratio > 1.0;
  c.comm_link_bytes_per_s = c.slices > 1 ? f.dcn_bytes_per_s_per_chip : link;
  if (c.step.step_seconds_expected > 0) {
    c.tokens_per_second = job.tokens_per_step / c.step.step_seconds_expected;
  }
  if (job.has_dataset) {
    const double steps = job.tokens / job.tokens_per_step;
    if (job.classical) {
      const double eff_fast = n * c.peak_flops * c.mfu.high;
      const double eff_slow = n * c.peak_flops * c.mfu.low;
      c.hours.low = job.training_flops / eff_fast / 3600;
      c.hours.high = job.training_flops / eff_slow / 3600;
      c.hours.expected = job.training_flops /
                         (n * c.peak_flops * c.mfu.expected()) / 3600;
    } else {
      c.hours.low = steps * c.step.step_seconds_fast / 3600;
      c.hours.expected = steps * c.step.step_seconds_expected / 3600;
      c.hours.high = steps * c.step.step_seconds_slow / 3600;
    }
  }
}

// Picks the first layout (and recompute level) that fits and is not
// communication-bound; failing that, the first that fits (it will be
// reported COMMUNICATION_BOUND); failing that, the smallest requirement.
void ChooseLayout(const Job& job, const Family& f, Config& c) {
  const double usable_per_device =
      (f.platform == Platform::kCpu
           ? c.shape->machine->memory_bytes.value_or(0)
           : f.device_memory_bytes) *
      (1 - kHeadroom);
  c.usable_bytes = usable_per_device;
  const Workload& w = job.workload;
  const int n = c.devices;

  if (w.per_device_memory_gib > 0 || job.classical || !job.model_size_known) {
    // The team's own sharding plan fixes what each device must hold; for
    // classical ML the data set is the working set (split across VMs when
    // the library distributes).
    if (w.per_device_memory_gib > 0) {
      c.required_bytes = w.per_device_memory_gib * kGiB;
    } else if (job.classical) {
      c.required_bytes =
          job.workload.dataset_gib * kGiB * kClassicalMemoryFactor / n;
    } else {
      c.required_bytes = 0;
    }
    c.memory = MemoryEstimate{};
    c.memory.total_bytes = c.required_bytes;
    c.fits = c.required_bytes <= usable_per_device;
    c.layout.data = n;
    c.strategy = n == 1 ? Strategy::kSingleDevice
                 : w.per_device_memory_gib > 0 ? Strategy::kFsdp
                                               : Strategy::kDataParallel;
    if (c.slices > 1) c.strategy = Strategy::kMultislice;
    EstimateTime(job, f, c);
    return;
  }

  // The requested level, then (when unspecified) full recompute to trade
  // compute for memory.
  const Recompute levels[2] = {w.recompute, Recompute::kFull};
  const int level_count = w.recompute == Recompute::kUnspecified &&
                                  w.transformer_shape.layers > 0
                              ? 2
                              : 1;
  // Gradient accumulation (one sequence per device per micro-step) keeps the
  // global batch while cutting activation memory, at no extra compute.
  const bool can_accumulate = w.global_batch_size > 0;
  const LayoutList layouts = LayoutsFor(job, f, c);
  // Every data-parallel rank needs at least one sequence of a *stated*
  // global batch: more ranks than sequences cannot be used (an assumed
  // batch never rejects; Evaluate warns instead).
  auto ranks_of = [&](const ShardingLayout& layout) {
    return std::max(1, n / (std::max(1, layout.tensor) * std::max(1, layout.pipeline)));
  };
  auto memory_of = [&](const ShardingLayout& layout, Recompute level,
                       bool accumulate) {
    return Memory(job, layout, level, accumulate ? std::max(1, layout.data) : 0);
  };
  // The configuration for a variant whose memory is already known.
  auto trial = [&](const ShardingLayout& layout, Strategy strategy,
                   Recompute level, bool accumulate, const MemoryEstimate& m) {
    const int64_t replicas = std::max(1, layout.data);
    Config t = c;
    t.layout = layout;
    t.strategy = c.slices > 1 ? Strategy::kMultislice : strategy;
    t.recompute = level;
    t.accumulation_steps =
        accumulate ? static_cast<int>((w.global_batch_size + replicas - 1) / replicas) : 1;
    t.memory = m;
    t.required_bytes = m.total_bytes;
    t.fits = t.required_bytes <= usable_per_device;
    return t;
  };
  // Each layout is taken with its first variant that fits, in order: the
  // requested recompute level without, then with, gradient accumulation,
  // then full recompute. Accumulation costs no compute and full recompute
  // costs a forward pass, so that variant is the layout's fastest. Among
  // layouts the fastest step wins (ties: SPEC §4's order of preference):
  // at one size the hardware and its price are fixed, so the fastest step
  // is the cheapest and quickest under every objective. Communication only
  // lengthens the step; it never removes a layout (SPEC §4).
  std::optional<Config> best;
  std::optional<Config> smallest;  // the least memory among non-fitting
  // A lower bound on any layout's step: its compute at the requested
  // recompute level, stretched by its pipeline bubble, plus its tensor-
  // parallel traffic (never hidden). A layout whose bound
  // is not below the best step so far cannot win and is not evaluated
  // (exact pruning: full recompute and communication only add time).
  const MfuRange mfu = DefaultMfu(
      ClassOf(f), job.classical ? ModelKind::kTabular : w.model_kind);
  const double pure_compute = ComputeSeconds(
      job.flops_per_unit * job.tokens_per_step, n, c.peak_flops, mfu.expected());
  auto lower_bound = [&](const ShardingLayout& layout) {
    const int pp = std::max(1, layout.pipeline);
    double compute = pure_compute;
    if (pp > 1) {
      const double m = std::clamp(
          job.tokens_per_step / std::max(1, job.sequence_length) / ranks_of(layout),
          1.0, 1e9);
      compute /= 1.0 - PipelineBubbleFraction(pp, static_cast<int>(m));
    }
    // Tensor-parallel traffic is never hidden: it adds to any step.
    const TpTraffic tp = TensorParallelTraffic(job, f, n, layout);
    return compute + RingAllReduceSeconds(tp.bytes, std::max(1, layout.tensor),
                                          tp.link_bytes_per_s);
  };
  int min_ranks = std::numeric_limits<int>::max();
  bool any_batch_ok = false;
  for (size_t i = 0; i < layouts.size; ++i) {
    const auto& [layout, strategy] = layouts.items[i];
    const int ranks = ranks_of(layout);
    min_ranks = std::min(min_ranks, ranks);
    if (w.global_batch_size > 0 && ranks > w.global_batch_size) continue;
    any_batch_ok = true;
    if (best && lower_bound(layout) >=
                    best->step.step_seconds_expected * (1 - 1e-9)) {
      continue;
    }
    const bool acc_useful =
        can_accumulate && w.global_batch_size > std::max(1, layout.data);
    // The most frugal variant first: when it does not fit, none does.
    {
      const MemoryEstimate frugal =
          memory_of(layout, levels[level_count - 1], acc_useful);
      if (frugal.total_bytes > usable_per_device) {
        if (!smallest || frugal.total_bytes < smallest->required_bytes) {
          smallest = trial(layout, strategy, levels[level_count - 1],
                           acc_useful, frugal);
        }
        continue;
      }
    }
    std::optional<Config> chosen;
    for (int l = 0; l < level_count && !chosen; ++l) {
      for (int accumulate = 0; accumulate <= (acc_useful ? 1 : 0); ++accumulate) {
        const MemoryEstimate m = memory_of(layout, levels[l], accumulate != 0);
        if (m.total_bytes > usable_per_device) continue;
        chosen = trial(layout, strategy, levels[l], accumulate != 0, m);
        break;
      }
    }
    if (!chosen) continue;  // not reached: the frugal variant fits
    EstimateTime(job, f, *chosen);
    if (!best || chosen->step.step_seconds_expected <
                     best->step.step_seconds_expected * (1 - 1e-9)) {
      best = std::move(chosen);
    }
  }
  if (best) {
    c = std::move(*best);
    return;
  }
  if (smallest) {
    c = std::move(*smallest);
    c.min_ranks = min_ranks;
  } else {
    // Every layout needs more data-parallel ranks than the stated batch
    // has sequences.
    c.required_bytes = 0;
    c.batch_too_small = !any_batch_ok;
    c.min_ranks = min_ranks;
  }
  c.fits = false;
}

void Price(const Job& job, Config& c, Provisioning prov) {
  const Shape& s = *c.shape;
  c.on_demand_known = s.on_demand_hourly.has_value();
  c.spot_known = s.spot_hourly.has_value();
  c.hourly_on_demand = s.on_demand_hourly.value_or(0) * c.units;
  c.hourly_spot = s.spot_hourly.value_or(0) * c.units;
  c.price_known = prov == Provisioning::kSpot ? c.spot_known : c.on_demand_known;
  c.hourly = prov == Provisioning::kSpot ? c.hourly_spot : c.hourly_on_demand;
  if (job.has_dataset && c.price_known) {
    c.cost = {c.hours.low * c.hourly, c.hours.expected * c.hourly,
              c.hours.high * c.hourly};
  }
}

// What the objective minimises inside one family.
double FamilyScore(const Job& job, const Config& c) {
  if (!job.has_dataset) {
    if (job.objective == Objective::kMinTime) {
      return c.tokens_per_second > 0 ? 1.0 / c.tokens_per_second : 1e30;
    }
    return c.price_known && c.tokens_per_second > 0
               ? c.hourly / c.tokens_per_second
               : 1e30;
  }
  switch (job.objective) {
    case Objective::kMinTime: return c.hours.expected;
    default: return c.price_known ? c.cost.expected : 1e30;
  }
}

}  // namespace

Candidate Evaluate(const Catalog& catalog, const Job& job, const Family& f,
                   int pinned_devices, const std::string& pinned_topology,
                   int pinned_slices) {
  Candidate cand;
  cand.family = &f;
  const Workload& w = job.workload;
  const Constraints& k = job.constraints;
  const Accelerator* acc = f.accelerator;
  const std::string& name = f.name;

  // -- Deployment target: edge is for on-device inference only.
  if (job.on_device) {
    if (f.platform != Platform::kEdge) {
      cand.Reject(ReasonCode::kNotForOnDevice,
                  absl::StrCat(name, " is cloud hardware; on-device offline "
                                     "inference needs an edge device."));
    } else {
      const auto fmt = w.edge.model_format;
      const auto q = w.edge.quantization;
      if (q != Quantization::kUnspecified && q != Quantization::kFullInt8) {
        // The deployed model is stated to stay in floating point (or only
        // partly quantized): the Edge TPU executes full-int8 models only.
        cand.Reject(ReasonCode::kPrecisionUnsupported,
                    absl::StrCat(name, " runs only fully int8-quantized "
                                       "TensorFlow Lite models; the model is "
                                       "not fully int8."));
      } else if (fmt != ModelFormat::kTflite || q != Quantization::kFullInt8) {
        // The Edge TPU runs only fully int8-quantized TFLite models compiled
        // with edgetpu_compiler; other models must be converted first.
        cand.notes.push_back(
            {ReasonCode::kAssumption,
             absl::StrCat(name, " runs only fully int8-quantized TensorFlow "
                                "Lite models compiled with edgetpu_compiler: "
                                "convert and quantize the model (post-"
                                "training int8 with a representative data "
                                "set) and re-check its accuracy.")});
      }
    }
  } else if (f.platform == Platform::kEdge) {
    cand.Reject(ReasonCode::kNotForTraining,
                absl::StrCat(name, " is an inference accelerator for small "
                                   "devices (4 TOPS int8); it does not train "
                                   "models."));
  }

  // -- Allowed platforms / series, pinned hardware.
  if (!k.allowed_platforms.empty() &&
      std::find(k.allowed_platforms.begin(), k.allowed_platforms.end(),
                f.platform) == k.allowed_platforms.end()) {
    cand.Reject(ReasonCode::kNotInAllowedSet,
                absl::StrCat(PlatformName(f.platform),
                             " is outside the allowed platforms."));
  }
  if (!k.allowed_series.empty()) {
    bool ok = false;
    for (const std::string& key : f.allowed_series_keys) {
      if (job.allowed_series.count(key) != 0) ok = true;
    }
    if (!ok) {
      cand.Reject(ReasonCode::kNotInAllowedSet,
                  absl::StrCat(name, " is outside the allowed series."));
    }
  }
  if (k.keep_current_hardware &&
      (job.current_accelerator != nullptr || job.current_series != nullptr)) {
    const bool same =
        job.current_accelerator != nullptr
            ? acc == job.current_accelerator
            : (f.series == job.current_series && acc == nullptr) ||
                  f.series == job.current_series;
    if (!same) {
      cand.Reject(ReasonCode::kChangesPinnedHardware,
                  absl::StrCat("The team keeps its current hardware (",
                               job.current.hardware, "); ", name,
                               " would change it."));
    }
  }

  const bool training = !job.on_device;
  if (training && f.platform != Platform::kEdge) {
    // -- Framework support.
    const char* key = FrameworkKey(job.framework, f.platform == Platform::kTpu,
                                   w.pytorch_xla_ok);
    if (key != nullptr) {
      const std::map<std::string, catalog::FrameworkSupport>& table =
          f.platform == Platform::kCpu ? catalog.cpu_frameworks
                                       : acc->frameworks;
      auto it = table.find(key);
      if (it == table.end()) {
        cand.notes.push_back(
            {ReasonCode::kFrameworkSupportUnverified,
             absl::StrCat(FrameworkLabel(job.framework), " support on ", name,
                          " is not documented in the catalog.")});
      } else if (it->second.status == catalog::SupportStatus::kUnsupported) {
        std::string why = absl::StrCat(FrameworkLabel(job.framework),
                                       " is not supported on ", name);
        if (job.framework == Framework::kPytorch &&
            f.platform == Platform::kTpu && !w.pytorch_xla_ok) {
          why = absl::StrCat("PyTorch reaches ", name,
                             " only through PyTorch/XLA, which the request "
                             "does not accept");
        }
        if (!it->second.note.empty()) absl::StrAppend(&why, " (", it->second.note, ")");
        cand.Reject(ReasonCode::kFrameworkUnsupported, absl::StrCat(why, "."));
      } else {
        if (it->second.status == catalog::SupportStatus::kUnverified) {
          cand.notes.push_back(
              {ReasonCode::kFrameworkSupportUnverified,
               absl::StrCat(FrameworkLabel(job.framework), " on ", name,
                            " is not confirmed by a source.")});
        }
        const std::string& min = it->second.min_version;
        if (!min.empty()) {
          if (w.framework_version.empty()) {
            cand.notes.push_back(
                {ReasonCode::kFrameworkVersionAssumed,
                 absl::StrCat(FrameworkLabel(job.framework), " version not given: "
                              "assumed >= ", min, ", the minimum on ", name, ".")});
          } else if (CompareVersions(w.framework_version, min) < 0) {
            cand.Reject(ReasonCode::kFrameworkVersionTooOld,
                        absl::StrCat(name, " needs ", FrameworkLabel(job.framework),
                                     " ", min, "+; the job uses ",
                                     w.framework_version, "."));
          }
        }
      }
    }

    // -- Numeric formats.
    // fp8 only where the catalog lists an fp8 peak (and does not list fp8
    // as unsupported): CPU series have no fp8 peak, nor do TPU v4/v5e, V100
    // or A100, so none of them trains in fp8.
    if (job.precision == Precision::kFp8) {
      const bool fp8 =
          acc != nullptr && f.platform != Platform::kCpu && IsFine(acc->peak_fp8) &&
          !(acc->formats.count("fp8") && !acc->formats.at("fp8").supported);
      if (!fp8) {
        cand.Reject(ReasonCode::kPrecisionUnsupported,
                    absl::StrCat(name, " has no fp8 peak in the catalog: it "
                                       "cannot train in fp8."));
      }
    }
    if (f.platform != Platform::kCpu && acc != nullptr) {
      auto fmt = [&](const char* n) -> std::optional<bool> {
        auto it = acc->formats.find(n);
        if (it == acc->formats.end()) return std::nullopt;
        return it->second.supported;
      };
      switch (job.precision) {
        case Precision::kFp64Required: {
          const double fp64 = IsFine(acc->peak_fp64) ? acc->peak_fp64->value : 0;
          if (fmt("fp64") == std::optional<bool>(false) || fp64 < 5e12) {
            cand.Reject(ReasonCode::kPrecisionUnsupported,
                        fp64 > 0
                            ? absl::StrFormat("%s peaks at %.2f TFLOPS fp64, "
                                              "below the 5 TFLOPS fp64 work "
                                              "needs.", name, fp64 / 1e12)
                            : absl::StrCat(name, " has no usable fp64 "
                                                 "arithmetic."));
          }
          break;
        }
        case Precision::kFp16Mixed:
          if (fmt("fp16") == std::optional<bool>(false)) {
            cand.Reject(ReasonCode::kPrecisionUnsupported,
                        absl::StrCat(name, " has no native fp16."));
          }
          break;
        case Precision::kBf16Mixed: {
          const auto b = fmt("bf16");
          if (b == std::optional<bool>(false) ||
              (!b.has_value() && !IsFine(acc->peak_bf16))) {
            cand.Reject(ReasonCode::kPrecisionUnsupported,
                        absl::StrCat(name, " has no bf16 (it needs an Ampere "
                                           "or newer GPU, or a TPU)."));
          }
          break;
        }
        default:
          break;
      }
    }

    // -- Kernels and ops.
    if (w.custom_cuda_kernels && f.platform != Platform::kGpu) {
      cand.Reject(ReasonCode::kCustomKernelsNeedGpu,
                  absl::StrCat("Custom CUDA kernels run only on NVIDIA GPUs, "
                               "not on ", name, "."));
    }
    if (w.cpu_only_custom_ops &&
        (f.platform == Platform::kGpu || f.platform == Platform::kTpu)) {
      cand.Reject(ReasonCode::kCpuOnlyOps,
                  absl::StrCat("The model's custom ops have CPU kernels only; ",
                               name, " cannot run them, so only CPUs can "
                               "train it."));
    }
    if (!w.tpu_unsuited_ops.empty() && f.platform == Platform::kTpu) {
      cand.Reject(ReasonCode::kOpsUnsuitedToTpu,
                  absl::StrCat("Frequent branching, element-wise-dominated "
                               "work or custom ops inside the step leave ",
                               name, "'s matrix units idle."));
    }
    if (k.framework_agnostic_distribution && f.platform == Platform::kTpu) {
      cand.Reject(ReasonCode::kNotApplicable,
                  absl::StrCat("Framework-agnostic distribution (Horovod) "
                               "runs over MPI/NCCL/Gloo on GPUs and CPUs, not "
                               "on ", name, "."));
    }
  }

  // -- End of support at as_of.
  if (acc != nullptr && acc->end_of_support.has_value()) {
    const auto eos = ParseDate(*acc->end_of_support);
    if (eos && job.as_of_days >= *eos) {
      cand.Reject(ReasonCode::kEndOfSupport,
                  absl::StrCat(name, " reached end of support on ",
                               *acc->end_of_support, "."));
    } else if (eos && *eos - job.as_of_days <= kEosWarningDays) {
      cand.eos_soon = true;
      cand.notes.push_back({ReasonCode::kEndOfSupportSoon,
                            absl::StrCat(name, " reaches end of support on ",
                                         *acc->end_of_support, ".")});
    }
  }

  // -- Offer on the run platform.
  std::vector<const Shape*> shapes;
  shapes.reserve(f.shapes.size());
  const auto rp = ToCatalogRunPlatform(k.run_platform);
  for (const Shape& s : f.shapes) {
    if (rp.has_value()) {
      const auto& offerings = f.platform == Platform::kTpu
                                  ? acc->offerings
                                  : s.machine->offerings;
      if (DocumentedAbsent(offerings, *rp, catalog::Provisioning::kAny)) continue;
      // Serverless training runs only what its machine-type list names.
      if (*rp == catalog::RunPlatform::kVertexTraining &&
          !Offers(offerings, *rp, Provisioning::kUnspecified)) {
        continue;
      }
    }
    shapes.push_back(&s);
  }
  if (shapes.empty() && f.platform != Platform::kEdge) {
    cand.Reject(ReasonCode::kNotOfferedOnPlatform,
                absl::StrCat(name, " is not offered on ",
                             RunPlatformLabel(k.run_platform), "."));
  }
  if (rp == catalog::RunPlatform::kVertexTraining && f.platform == Platform::kTpu) {
    // Serverless training documents no Multislice: one slice only.
    pinned_slices = pinned_slices > 1 ? pinned_slices : 0;
  }

  // -- Provisioning: on-demand, else what the request allows.
  const bool hard_no_ckpt = job.goal.hard_deadline && !w.checkpoints;
  auto on_demand_absent = [&](const Shape& s) {
    const auto& offerings =
        f.platform == Platform::kTpu ? acc->offerings : s.machine->offerings;
    return DocumentedAbsent(offerings, rp.value_or(catalog::RunPlatform::kComputeEngine),
                            catalog::Provisioning::kOnDemand) ||
           DocumentedAbsent(offerings, catalog::RunPlatform::kComputeEngine,
                            catalog::Provisioning::kOnDemand);
  };
  auto provisioning_for = [&](const Shape& s) -> std::optional<Provisioning> {
    if (k.spot_allowed && s.spot_hourly.has_value() && !hard_no_ckpt) {
      return Provisioning::kSpot;
    }
    if (!on_demand_absent(s)) return Provisioning::kOnDemand;
    if (k.flex_start_allowed) return Provisioning::kFlexStart;
    if (k.reservation_available) return Provisioning::kReservation;
    if (k.spot_allowed && !hard_no_ckpt) return Provisioning::kSpot;
    return std::nullopt;
  };
  std::vector<const Shape*> obtainable;
  obtainable.reserve(shapes.size());
  for (const Shape* s : shapes) {
    if (provisioning_for(*s).has_value()) obtainable.push_back(s);
  }
  if (!shapes.empty() && obtainable.empty() && f.platform != Platform::kEdge) {
    bool spot_blocked = false;
    for (const Shape* s : shapes) {
      if (k.spot_allowed && hard_no_ckpt && s->spot_hourly) spot_blocked = true;
    }
    if (spot_blocked) {
      cand.Reject(ReasonCode::kPreemptionRisk,
                  absl::StrCat(name, " is available only as Spot here, and "
                                     "Spot VMs can be preempted before a hard "
                                     "deadline for a job that does not "
                                     "checkpoint."));
    }
    cand.Reject(ReasonCode::kNotAvailableOnDemand,
                absl::StrCat(name, " is not offered on-demand; it needs Spot, "
                                   "DWS flex-start or a reservation, none of "
                                   "which the request allows."));
  }

  if (!obtainable.empty()) {
    cand.smallest_obtainable_devices = obtainable.front()->devices;
  }
  // A family already rejected by a hard rule is still sized, so that every
  // code that applies (HBM_TOO_SMALL, EXCEEDS_*) is reported; the checks
  // that only rank viable options (deadline, budget, communication) are not.
  const bool rejected_already = !cand.codes.empty();
  if (rejected_already && (job.on_device || f.platform == Platform::kEdge)) {
    return cand;
  }
  if (rejected_already && obtainable.empty()) {
    for (const Shape* s : shapes) obtainable.push_back(s);
    if (obtainable.empty()) {
      for (const Shape& s : f.shapes) obtainable.push_back(&s);
    }
  }
  if (f.platform == Platform::kEdge) {
    Config c;
    c.shape = &f.shapes.front();
    c.fits = true;
    cand.config = c;
    cand.provisioning = Provisioning::kUnspecified;
    return cand;
  }

  // -- Sizes to consider, smallest first.
  std::vector<Option> options;
  options.reserve(f.shapes.size() + 20);
  const int max_acc = k.max_accelerators;
  std::vector<Option> excluded_host, excluded_max;
  auto consider = [&](const Shape* s, int units) {
    const int devices = s->devices * units;
    const int hosts = s->vms * units;
    if (pinned_devices > 0 && devices != pinned_devices) return;
    if (!pinned_topology.empty() &&
        (s->topology == nullptr || s->topology->topology != pinned_topology)) {
      return;
    }
    if (pinned_slices > 0 && f.platform == Platform::kTpu && units != pinned_slices) {
      return;
    }
    if (k.single_host_only && hosts > 1) {
      excluded_host.push_back({s, units});
      return;
    }
    if (max_acc > 0 && f.platform != Platform::kCpu && devices > max_acc) {
      excluded_max.push_back({s, units});
      return;
    }
    options.push_back({s, units});
  };
  // Multi-unit sequences (VMs of one shape, or identical TPU slices) whose
  // unit count is searched below, over [2, max units].
  struct Sequence {
    const Shape* shape;
    int max_units;
  };
  std::vector<Sequence> sequences;
  // Adds a sequence, clipped to the request's constraints; the first count
  // the constraints exclude is kept to explain a rejection.
  auto add_sequence = [&](const Shape* s, int max_units) {
    if (pinned_devices > 0 || !pinned_topology.empty() || pinned_slices > 0) {
      for (int u = 2; u <= max_units; ++u) consider(s, u);
      return;
    }
    int allowed = max_units;
    if (k.single_host_only) {  // two or more units always span hosts
      excluded_host.push_back({s, max_units});
      return;
    }
    if (max_acc > 0 && f.platform != Platform::kCpu) {
      allowed = std::min(allowed, max_acc / std::max(1, s->devices));
      if (allowed < max_units) excluded_max.push_back({s, max_units});
    }
    if (allowed >= 2) sequences.push_back({s, allowed});
  };
  for (const Shape* s : obtainable) consider(s, 1);
  if (f.platform == Platform::kGpu && f.inter_vm_bytes_per_s > 0 &&
      !obtainable.empty()) {
    const Shape* big = obtainable.back();
    add_sequence(big, std::min(512, 8192 / std::max(1, big->devices)));
  }
  // XGBoost and LightGBM train across VMs (Dask / Spark, multi-node
  // CUDA); scikit-learn does not.
  const bool distributable_classical =
      job.classical && (job.framework == Framework::kXgboost ||
                        job.framework == Framework::kLightgbm);
  if (f.platform == Platform::kCpu && distributable_classical && !obtainable.empty()) {
    const Shape* big = obtainable.front();
    for (const Shape* s : obtainable) {
      if (s->machine->memory_bytes.value_or(0) > big->machine->memory_bytes.value_or(0)) {
        big = s;
      }
    }
    add_sequence(big, 64);
  }
  if (f.platform == Platform::kTpu && pinned_slices > 1) {
    // A pinned Multislice setup: that many identical multi-host slices.
    for (const Shape* s : obtainable) {
      if (s->vms > 1) consider(s, pinned_slices);
    }
    // Multislice over single-host slices is not offered (SPEC §4): name
    // the one multi-host slice with the same chips instead.
    const Shape* pinned_shape = nullptr;
    for (const Shape& s : f.shapes) {
      if (s.topology != nullptr && s.topology->topology == pinned_topology) {
        pinned_shape = &s;
      }
    }
    if (pinned_shape != nullptr && pinned_shape->vms == 1) {
      const int chips = pinned_shape->devices * pinned_slices;
      const Shape* same = nullptr;
      for (const Shape& s : f.shapes) {
        if (s.topology != nullptr && s.vms > 1 && s.devices >= chips &&
            (same == nullptr || s.devices < same->devices)) {
          same = &s;
        }
      }
      cand.Reject(
          ReasonCode::kNeedsMultiHostSlices,
          same != nullptr
              ? absl::StrFormat(
                    "Multislice needs multi-host slices; %d x %s %s (%d chips) "
                    "are single-host. One %s slice (%d chips) gives the same "
                    "chips over ICI instead of DCN.",
                    pinned_slices, name, pinned_topology, chips,
                    same->topology->topology, same->devices)
              : absl::StrFormat(
                    "Multislice needs multi-host slices; %d x %s %s are "
                    "single-host.",
                    pinned_slices, name, pinned_topology));
      return cand;
    }
  } else if (f.platform == Platform::kTpu && f.dcn_bytes_per_s_per_chip > 0 &&
      f.largest_multi_host_slice != nullptr &&
      rp != catalog::RunPlatform::kVertexTraining) {
    const Shape* slice = f.largest_multi_host_slice;
    if (std::find(obtainable.begin(), obtainable.end(), slice) != obtainable.end()) {
      add_sequence(slice, 32);
    }
  }
  // Pinned current hardware that the catalog shapes do not reproduce
  // exactly: fall back on the nearest shape count.
  if (options.empty() && pinned_devices > 0 && pinned_topology.empty()) {
    for (const Shape* s : obtainable) {
      if (s->devices >= pinned_devices || s == obtainable.back()) {
        const int units = std::max(1, (pinned_devices + s->devices - 1) / s->devices);
        if (!k.single_host_only || units * s->vms == 1) options.push_back({s, units});
        break;
      }
    }
  }

  const double peak_probe =
      obtainable.empty() ? 0 : PeakFlops(f, *obtainable.front(), job.precision, nullptr, nullptr);
  if (peak_probe <= 0 && !rejected_already &&
      (job.has_dataset || job.model_size_known)) {
    cand.Reject(ReasonCode::kNotApplicable,
                absl::StrCat("The catalog has no ", PrecisionLabel(job.precision),
                             " throughput for ", name, "."));
    return cand;
  }

  auto build = [&](const Option& o) {
    Config c;
    c.shape = o.shape;
    c.units = o.units;
    c.devices = o.shape->devices * o.units;
    c.hosts = o.shape->vms * o.units;
    c.slices = f.platform == Platform::kTpu ? o.units : 1;
    std::string note;
    c.peak_flops = PeakFlops(f, *o.shape, job.precision, nullptr, &note);
    ChooseLayout(job, f, c);
    Price(job, c, provisioning_for(*o.shape).value_or(Provisioning::kOnDemand));
    return c;
  };

  // Unit counts of each sequence: every count up to 32 and the multiples of
  // 32 beyond, so that every pipeline depth up to 32 divides the VM count
  // evenly past 32. All of them are evaluated: a grid refined by bisection
  // was tried and, on random jobs, missed optima (cost and time are not
  // monotone in the count once pipeline bubbles and layout switches enter).
  constexpr int kDenseUnits = 32;
  for (const Sequence& seq : sequences) {
    for (int u = 2; u <= std::min(kDenseUnits, seq.max_units); ++u) {
      options.push_back({seq.shape, u});
    }
    for (int m = 2; m <= seq.max_units / kDenseUnits; ++m) {
      options.push_back({seq.shape, m * kDenseUnits});
    }
  }

  std::vector<Config> fitting;
  fitting.reserve(options.size());
  double best_required = -1, best_usable = 0;
  // The smallest configuration whose every layout needs more data-parallel
  // ranks than the stated batch has sequences.
  std::optional<Config> batch_limited;
  for (const Option& o : options) {
    Config c = build(o);
    if (!c.fits) {
      if (c.batch_too_small) {
        if (!batch_limited) batch_limited = c;
      } else {
        best_required = c.required_bytes;
        best_usable = c.usable_bytes;
      }
      continue;
    }
    // Without a data set the smallest shape that holds the job wins
    // (options ascend in devices), so the scan can stop there; rejected
    // families only need to know that something fits.
    const bool done = rejected_already || !job.has_dataset;
    fitting.push_back(std::move(c));
    if (done) break;
  }
  if (fitting.empty()) {
    // Would a shape that the constraints excluded have held it?
    auto fits_any = [&](const std::vector<Option>& ex) {
      for (const Option& o : ex) {
        if (build(o).fits) return true;
      }
      return false;
    };
    if (!excluded_host.empty() && fits_any(excluded_host)) {
      cand.Reject(ReasonCode::kExceedsSingleHost,
                  absl::StrCat(name, " needs more than one host to hold the "
                                     "job; the request allows one."));
    } else if (!excluded_max.empty() && fits_any(excluded_max)) {
      cand.Reject(ReasonCode::kExceedsMaxAccelerators,
                  absl::StrFormat("%s needs more than the %d accelerators the "
                                  "request allows.", name, max_acc));
    } else if (options.empty()) {
      if (rejected_already) return cand;
      cand.Reject(pinned_devices > 0 || !pinned_topology.empty()
                      ? ReasonCode::kNotApplicable
                      : ReasonCode::kExceedsSingleHost,
                  absl::StrCat("No ", name, " shape matches the requested size."));
    } else {
      if (best_required >= 0) {
        cand.Reject(ReasonCode::kHbmTooSmall,
                    absl::StrFormat("%s has %.1f GiB usable per device (%.1f GiB "
                                    "less %.0f%% headroom); the job needs %.1f "
                                    "GiB per device.",
                                    name, Gib(best_usable),
                                    Gib(best_usable / (1 - kHeadroom)),
                                    kHeadroom * 100, Gib(best_required)));
      }
      if (batch_limited) {
        cand.Reject(
            ReasonCode::kBatchTooSmall,
            absl::StrFormat(
                "%s at %d devices needs at least %d data-parallel ranks "
                "(each takes at least one %s per step), more than the stated "
                "global batch of %d %s%s.",
                name, batch_limited->devices, batch_limited->min_ranks,
                job.sequence_model ? "sequence" : "example",
                static_cast<int>(std::min<int64_t>(w.global_batch_size,
                                                   std::numeric_limits<int>::max())),
                job.sequence_model ? "sequences" : "examples",
                best_required >= 0 ? "; fewer devices do not hold the job" : ""));
      }
    }
    return cand;
  }

  if (rejected_already) return cand;

  std::vector<const Config*> usable;
  for (const Config& c : fitting) usable.push_back(&c);

  const Config* chosen = nullptr;
  if (!job.has_dataset) {
    chosen = usable.front();  // smallest shape that holds the job
  } else {
    std::vector<const Config*> in_time;
    for (const Config* c : usable) {
      if (c->hours.expected <= job.deadline_hours) in_time.push_back(c);
    }
    if (in_time.empty() && !job.deadline_given) {
      // Only the deadline MIN_COST assumes is missed: an assumption never
      // rejects. The family stays at its fastest size in budget, ranked
      // after those that meet it.
      const Config* fastest = *std::min_element(
          usable.begin(), usable.end(), [](const Config* a, const Config* b) {
            return a->hours.expected < b->hours.expected;
          });
      cand.misses_assumed_deadline = true;
      cand.notes.push_back(
          {ReasonCode::kAssumption,
           absl::StrFormat("%s takes %s at best (%d devices), past the 30-day "
                           "deadline assumed because none was given; kept, "
                           "ranked after options that meet it.",
                           name, FormatHours(fastest->hours.expected),
                           fastest->devices)});
      in_time = usable;
    }
    if (in_time.empty()) {
      const Config* fastest = *std::min_element(
          usable.begin(), usable.end(), [](const Config* a, const Config* b) {
            return a->hours.expected < b->hours.expected;
          });
      cand.Reject(ReasonCode::kMissesDeadline,
                  absl::StrFormat("%s takes %s at best (%d devices), past the "
                                  "%s deadline.", name,
                                  FormatHours(fastest->hours.expected),
                                  fastest->devices,
                                  FormatHours(job.deadline_hours)));
      cand.config = *fastest;
      return cand;
    }
    std::vector<const Config*> in_budget;
    for (const Config* c : in_time) {
      if (job.goal.budget_usd <= 0 || !c->price_known ||
          c->cost.expected <= job.goal.budget_usd) {
        in_budget.push_back(c);
      }
    }
    if (in_budget.empty()) {
      const Config* cheapest = *std::min_element(
          in_time.begin(), in_time.end(), [](const Config* a, const Config* b) {
            return a->cost.expected < b->cost.expected;
          });
      cand.Reject(ReasonCode::kOverBudget,
                  absl::StrFormat("%s costs %s at best, over the %s budget.",
                                  name, FormatUsd(cheapest->cost.expected),
                                  FormatUsd(job.goal.budget_usd)));
      cand.config = *cheapest;
      return cand;
    }
    if (cand.misses_assumed_deadline) {
      // Nothing meets the assumed deadline: the size closest to it (the
      // fastest in budget) is the one the assumption still points to.
      chosen = *std::min_element(
          in_budget.begin(), in_budget.end(), [](const Config* a, const Config* b) {
            return a->hours.expected < b->hours.expected;
          });
    } else if (job.objective == Objective::kBalanced) {
      double min_cost = 1e300, min_hours = 1e300;
      for (const Config* c : in_budget) {
        if (c->price_known) min_cost = std::min(min_cost, c->cost.expected);
        min_hours = std::min(min_hours, c->hours.expected);
      }
      // The first option stands unless another scores strictly better
      // (scores can be inf/NaN for degenerate inputs).
      chosen = in_budget.front();
      double best = std::numeric_limits<double>::infinity();
      for (const Config* c : in_budget) {
        const double s = (c->price_known ? c->cost.expected / min_cost : 2.0) +
                         c->hours.expected / min_hours;
        if (s < best - 1e-12) {
          best = s;
          chosen = c;
        }
      }
    } else {
      chosen = in_budget.front();
      double best = std::numeric_limits<double>::infinity();
      for (const Config* c : in_budget) {
        const double s = FamilyScore(job, *c);
        if (s < best * (1 - 1e-9)) {
          best = s;
          chosen = c;
        }
      }
    }
  }
  cand.config = *chosen;
  cand.provisioning =
      provisioning_for(*chosen->shape).value_or(Provisioning::kOnDemand);
  if (!job.batch_given && !job.classical && job.model_size_known) {
    // An assumed batch never rejects: a configuration with more data-
    // parallel ranks than the assumed batch has sequences is kept, and the
    // plan says which batch it needs.
    const int ranks = std::max(
        1, chosen->devices / (std::max(1, chosen->layout.tensor) *
                              std::max(1, chosen->layout.pipeline)));
    if (ranks > job.batch_sequences) {
      const char* what = job.sequence_model ? "sequences" : "examples";
      cand.notes.push_back(
          {ReasonCode::kAssumption,
           absl::StrFormat("%s at %d devices has %d data-parallel ranks, more "
                           "than the %.0f %s per step of the assumed global "
                           "batch: it needs a global batch of at least %d %s "
                           "(state global_batch_size to have the planner "
                           "hold to it).",
                           name, chosen->devices, ranks, job.batch_sequences,
                           what, ranks, what)});
    }
  }
  cand.price_unknown = !chosen->price_known;
  if (cand.price_unknown) {
    cand.notes.push_back(
        {ReasonCode::kPriceUnknown,
         absl::StrCat("No ", cand.provisioning == Provisioning::kSpot ? "Spot" : "on-demand",
                      " price for ", name, " in the catalog; it ranks below "
                      "every priced option.")});
  }
  if (f.preview) {
    cand.notes.push_back({ReasonCode::kPreviewHardware,
                          absl::StrCat(name, " is in preview.")});
  }
  return cand;
}

double JobBytesPerReplica(const Job& job, int replicas) {
  if (!job.model_size_known || job.classical ||
      job.workload.per_device_memory_gib > 0) {
    return JobBytesOnOneDevice(job);
  }
  ShardingLayout dp;
  dp.data = std::max(1, replicas);
  // With gradient accumulation each replica holds one sequence at a time.
  return Memory(job, dp, job.workload.recompute,
                job.workload.global_batch_size > 0 ? dp.data : 0)
      .total_bytes;
}

double JobBytesWith(const Job& job, int devices, int zero_stage,
                    Recompute recompute) {
  if (!job.model_size_known || job.classical) return JobBytesOnOneDevice(job);
  ShardingLayout l;
  l.data = std::max(1, devices);
  l.zero_stage = zero_stage;
  l.fsdp = zero_stage > 0 ? l.data : 1;
  return Memory(job,
                l, recompute == Recompute::kUnspecified ? job.workload.recompute
                                                        : recompute,
                job.workload.global_batch_size > 0 ? l.data : 0)
      .total_bytes;
}

double ReplicaPerSliceBytes(const Job& job, int chips_per_slice, int slices) {
  if (!job.model_size_known || job.classical) return 0;
  ShardingLayout l;
  l.fsdp = std::max(1, chips_per_slice);
  l.data = l.fsdp * std::max(1, slices);
  l.zero_stage = 3;
  return Memory(job, l, Recompute::kFull,
                job.workload.global_batch_size > 0 ? l.data : 0)
      .total_bytes;
}

double JobBytesOnOneDevice(const Job& job) {
  if (job.workload.per_device_memory_gib > 0) {
    return job.workload.per_device_memory_gib * kGiB;
  }
  if (job.classical) {
    return job.workload.dataset_gib * kGiB * kClassicalMemoryFactor;
  }
  if (job.model_size_known) return Memory(job, ShardingLayout{}).total_bytes;
  return 0;
}

// ---------------------------------------------------------------- ranking

namespace {

catalog::WorkloadList ListFor(const Job& job) {
  switch (job.method) {
    case TrainingMethod::kFullFineTune:
    case TrainingMethod::kLora:
    case TrainingMethod::kQlora:
      return catalog::WorkloadList::kFineTuning;
    default:
      return catalog::WorkloadList::kPreTraining;
  }
}

double CostMetric(const Job& job, const Candidate& c) {
  const Config& k = *c.config;
  if (!k.price_known) return std::numeric_limits<double>::infinity();
  if (job.has_dataset) return k.cost.expected;
  return k.tokens_per_second > 0 ? k.hourly / k.tokens_per_second
                                 : std::numeric_limits<double>::infinity();
}

double TimeMetric(const Job& job, const Candidate& c) {
  const Config& k = *c.config;
  if (job.has_dataset) return k.hours.expected;
  return k.tokens_per_second > 0 ? 1.0 / k.tokens_per_second
                                 : std::numeric_limits<double>::infinity();
}

bool GpuAskedFor(const Job& job) {
  const auto& a = job.constraints.allowed_platforms;
  return std::find(a.begin(), a.end(), Platform::kGpu) != a.end();
}

}  // namespace

void RankCandidates(const Job& job, std::vector<Candidate>& cands) {
  const catalog::WorkloadList list = ListFor(job);
  for (Candidate& c : cands) {
    if (c.family->series != nullptr) {
      c.on_workload_list = c.family->series->workload_lists.count(list) > 0;
    }
  }

  // The job's memory on a single device (unsharded), for the oversize rule.
  const double need_bytes = JobBytesOnOneDevice(job);
  const bool per_device_need = job.workload.per_device_memory_gib > 0;

  auto viable = [&](const Candidate& c) { return c.viable() && c.config; };

  // CPU profile: classical ML or a job a CPU VM finishes quickly.
  const Candidate* best_cpu = nullptr;
  for (const Candidate& c : cands) {
    if (!viable(c) || c.family->platform != Platform::kCpu) continue;
    if (best_cpu == nullptr || CostMetric(job, c) < CostMetric(job, *best_cpu)) {
      best_cpu = &c;
    }
  }
  if (best_cpu != nullptr && !job.on_device && !job.embedding_dominated) {
    const bool quick = job.has_dataset &&
                       best_cpu->config->hours.expected <= kSmallJobHours;
    const bool small = job.classical ? !GpuAskedFor(job) : quick;
    if (small) {
      const std::string detail =
          job.has_dataset
              ? absl::StrFormat("a %s VM finishes in %s for %s",
                                best_cpu->config->shape->machine->gce_machine_type,
                                FormatHours(best_cpu->config->hours.expected),
                                FormatUsd(best_cpu->config->cost.expected))
              : absl::StrFormat("a %s VM handles it",
                                best_cpu->config->shape->machine->gce_machine_type);
      for (Candidate& c : cands) {
        if (!viable(c) || c.family->platform == Platform::kCpu) continue;
        c.Reject(ReasonCode::kOversizedForWorkload,
                 absl::StrCat(c.family->name, " is more than this ",
                              job.classical ? "classical ML" : "small",
                              " job needs: ", detail, "."));
      }
    }
  }

  // Embedding-dominated work: CPUs suit small models and I/O-bound work,
  // not a step dominated by embedding lookups (Cloud TPU guidance).
  if (job.embedding_dominated && !job.on_device) {
    for (Candidate& c : cands) {
      if (!viable(c) || c.family->platform != Platform::kCpu) continue;
      c.Reject(ReasonCode::kNotRecommendedForWorkload,
               absl::StrCat(c.family->name, ": embedding lookups dominate the "
                            "step; CPUs suit small models or I/O-bound work, "
                            "not large embedding models."));
    }
  }

  // Oversized: the smallest offered shape holds >= 4x what the job needs
  // while a smaller viable shape exists.
  if (need_bytes > 0) {
    std::vector<std::pair<Candidate*, double>> sizes;  // smallest offered
    double smallest_viable_config = std::numeric_limits<double>::infinity();
    // Every accelerator family is judged (a rejected one still gets every
    // code that applies); only viable ones prove a smaller shape exists.
    for (Candidate& c : cands) {
      if (c.family->platform == Platform::kCpu ||
          c.family->platform == Platform::kEdge || job.on_device) {
        continue;
      }
      const Family& f = *c.family;
      const int smallest_devices = c.smallest_obtainable_devices > 0
                                       ? c.smallest_obtainable_devices
                                       : f.shapes.front().devices;
      const double smallest =
          per_device_need ? f.device_memory_bytes
                          : f.device_memory_bytes * smallest_devices;
      sizes.push_back({&c, smallest});
      if (!viable(c)) continue;
      const double chosen = per_device_need
                                ? f.device_memory_bytes
                                : f.device_memory_bytes * c.config->devices;
      smallest_viable_config = std::min(smallest_viable_config, chosen);
    }
    for (auto& [c, smallest] : sizes) {
      // A family is oversized only when it must be rented bigger than the
      // job needs: a viable one whose chosen size is more than its smallest
      // obtainable shape needed those devices (for the deadline or the
      // objective); a rejected one is judged for MIN_COST/BALANCED only.
      if (viable(*c)) {
        const int smallest_devices = c->smallest_obtainable_devices > 0
                                         ? c->smallest_obtainable_devices
                                         : c->family->shapes.front().devices;
        if (c->config->devices > smallest_devices) continue;
      } else if (job.objective == Objective::kMinTime) {
        continue;
      }
      if (smallest >= kOversizeFactor * need_bytes &&
          smallest_viable_config < smallest) {
        c->Reject(ReasonCode::kOversizedForWorkload,
                  absl::StrFormat("%s's smallest shape has %.0f GiB of "
                                  "accelerator memory%s, %.0fx the %.1f GiB "
                                  "the job needs, and a smaller shape fits.",
                                  c->family->name, Gib(smallest),
                                  per_device_need ? " per device" : "",
                                  smallest / need_bytes, Gib(need_bytes)));
      }
    }
  }

  // Google's per-workload GPU lists rank GPU series against GPU series.
  double best_listed = std::numeric_limits<double>::infinity();
  const Candidate* best_listed_c = nullptr;
  for (const Candidate& c : cands) {
    if (viable(c) && c.family->platform == Platform::kGpu && c.on_workload_list) {
      const double m = CostMetric(job, c);
      if (m < best_listed) {
        best_listed = m;
        best_listed_c = &c;
      }
    }
  }
  if (best_listed_c != nullptr && !job.on_device) {
    for (Candidate& c : cands) {
      if (!viable(c) || c.family->platform != Platform::kGpu || c.on_workload_list) {
        continue;
      }
      const double m = CostMetric(job, c);
      if (best_listed <= kListCostSlack * m) {
        c.Reject(ReasonCode::kNotRecommendedForWorkload,
                 absl::StrCat(c.family->name, " is not on Google's ",
                              list == catalog::WorkloadList::kFineTuning
                                  ? "fine-tuning"
                                  : "pre-training",
                              " list, and ", best_listed_c->family->name,
                              ", which is, costs no more than 25% more."));
      }
    }
  }

  // Scores.
  double min_cost = std::numeric_limits<double>::infinity();
  double min_time = std::numeric_limits<double>::infinity();
  for (const Candidate& c : cands) {
    if (!viable(c)) continue;
    min_cost = std::min(min_cost, CostMetric(job, c));
    min_time = std::min(min_time, TimeMetric(job, c));
  }
  for (Candidate& c : cands) {
    if (!viable(c)) continue;
    if (job.on_device) {
      c.score = 0;
      continue;
    }
    const double cost = CostMetric(job, c);
    const double time = TimeMetric(job, c);
    auto score = [&](double cost_v, double time_v) {
      switch (job.objective) {
        case Objective::kMinTime: return time_v;
        case Objective::kBalanced:
          return (std::isfinite(cost_v) ? cost_v / min_cost : 1e6) +
                 time_v / min_time;
        default: return cost_v;
      }
    };
    c.score = score(cost, time);
    // Exposed communication scales time and cost (or, without a data set,
    // the cost and time per unit of work) by 1 / (1 - fraction).
    const double keep = 1 - c.config->step.communication_fraction;
    c.score_without_comm = score(cost * keep, time * keep);
  }

  const bool gpu_asked = GpuAskedFor(job);
  auto tier = [&](const Candidate& c) {
    int t = 0;
    if (c.price_unknown) t += 16;
    if (c.misses_assumed_deadline) t += 8;
    if (job.embedding_dominated && c.family->platform == Platform::kCpu) t += 4;
    if (job.sparsecore_ranking && c.family->platform != Platform::kCpu &&
        c.family->sparse_cores <= 0) {
      t += 2;
    }
    if (job.classical && !gpu_asked && c.family->platform != Platform::kCpu) t += 1;
    return t;
  };
  std::stable_sort(cands.begin(), cands.end(),
                   [&](const Candidate& a, const Candidate& b) {
                     const bool va = viable(a), vb = viable(b);
                     if (va != vb) return va;
                     if (!va) return a.family->name < b.family->name;
                     const int ta = tier(a), tb = tier(b);
                     if (ta != tb) return ta < tb;
                     const double sa = a.score, sb = b.score;
                     if (std::isfinite(sa) && std::isfinite(sb) &&
                         std::abs(sa - sb) > 1e-9 * std::max(sa, sb)) {
                       return sa < sb;
                     }
                     if (std::isfinite(sa) != std::isfinite(sb)) return std::isfinite(sa);
                     if (a.eos_soon != b.eos_soon) return !a.eos_soon;
                     if (a.on_workload_list != b.on_workload_list) return a.on_workload_list;
                     if (a.family->preview != b.family->preview) return !a.family->preview;
                     return a.family->name < b.family->name;
                   });
}

// ---------------------------------------------------------------- matching

std::vector<const Family*> MatchFamilies(const Index& index, Platform platform,
                                         const std::string& series,
                                         const std::string& accelerator,
                                         const std::string& machine_type) {
  std::vector<const Family*> out;
  const std::string s = NormalizeName(series);
  const std::string a = NormalizeName(accelerator);
  const std::string m = NormalizeName(machine_type);
  for (const Family& f : index.families) {
    if (platform != Platform::kUnspecified && f.platform != platform) continue;
    bool ok = true;
    if (!s.empty()) {
      ok = s == NormalizeName(f.series->id) || s == NormalizeName(f.name) ||
           (f.accelerator && (s == NormalizeName(f.accelerator->name) ||
                              s == NormalizeName(f.accelerator->id)));
    }
    if (ok && !a.empty()) {
      ok = f.accelerator != nullptr &&
           (a == NormalizeName(f.accelerator->id) ||
            a == NormalizeName(f.accelerator->name) ||
            NormalizeName(absl::StrCat("tpu", a)) == NormalizeName(f.accelerator->id));
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

// ---------------------------------------------------------------- plans

Hardware MakeHardware(const Candidate& c) {
  const Family& f = *c.family;
  Hardware h;
  h.platform = f.platform;
  h.series = f.series ? f.series->id : "";
  if (f.accelerator) {
    h.accelerator = f.accelerator->id;
    h.accelerator_name = f.accelerator->name;
    h.memory_per_accelerator_gib = Gib(f.device_memory_bytes);
  }
  const Shape* shape = c.config ? c.config->shape : (f.shapes.empty() ? nullptr : &f.shapes.front());
  if (shape != nullptr) {
    h.machine_type = shape->machine->gce_machine_type;
    h.vcpus_per_host = shape->machine->vcpus.value_or(0);
    if (f.platform == Platform::kTpu) {
      h.accelerators_per_host = shape->machine->accelerator_count;
      h.tpu_topology = shape->topology ? shape->topology->topology : "";
    } else if (f.platform == Platform::kCpu) {
      h.memory_per_accelerator_gib = 0;
    } else {
      h.accelerators_per_host = shape->devices;
    }
  }
  if (c.config) {
    h.hosts = c.config->hosts;
    h.total_accelerators = f.platform == Platform::kCpu ? 0 : c.config->devices;
    h.slices = f.platform == Platform::kTpu ? c.config->slices : 0;
  }
  h.provisioning = c.viable() ? c.provisioning : Provisioning::kUnspecified;
  return h;
}

std::vector<FactRef> MakeFactRefs(const Catalog& catalog,
                                  const std::vector<std::string>& ids) {
  std::vector<FactRef> out;
  std::set<std::string> seen;
  for (const std::string& id : ids) {
    if (id.empty() || !seen.insert(id).second) continue;
    const catalog::Source* s = catalog.FindSource(id);
    out.push_back({id, s ? s->url : "", s ? s->title : ""});
  }
  return out;
}

namespace {

std::string FrameworkApi(const Job& job, const Family& f, const Config& c,
                         bool horovod) {
  const bool multi = c.devices > 1;
  if (f.platform == Platform::kEdge) {
    return "TensorFlow Lite (full int8) compiled with edgetpu_compiler";
  }
  if (horovod) {
    return job.framework == Framework::kTensorflow ? "horovod.tensorflow (NCCL)"
                                                   : "horovod.torch (NCCL)";
  }
  switch (job.framework) {
    case Framework::kJax:
      return c.slices > 1 ? "jax.sharding Mesh over ici_*/dcn_* axes (MaxText-style)"
                          : "jax.sharding (Mesh + NamedSharding)";
    case Framework::kTensorflow:
      if (f.platform == Platform::kTpu) return "tf.distribute.TPUStrategy";
      if (c.hosts > 1) return "tf.distribute.MultiWorkerMirroredStrategy";
      return multi ? "tf.distribute.MirroredStrategy" : "tf.keras (single device)";
    case Framework::kPytorch:
      if (f.platform == Platform::kTpu) return "PyTorch/XLA SPMD (torch_xla)";
      if (c.layout.pipeline > 1) {
        return "Megatron-style tensor + pipeline parallel with ZeRO-1 "
               "(distributed optimizer)";
      }
      if (c.layout.tensor > 1) {
        return "torch.distributed.tensor parallel (DTensor) + FSDP";
      }
      if (c.layout.zero_stage == 3) return "torch.distributed.fsdp (FSDP)";
      return multi ? "torch.nn.parallel.DistributedDataParallel (DDP)"
                   : "PyTorch (single device)";
    case Framework::kXgboost:
      if (c.hosts > 1) return "xgboost.dask (distributed hist)";
      return f.platform == Platform::kGpu ? "xgboost (tree_method=hist, device=cuda)"
                                          : "xgboost (tree_method=hist, device=cpu)";
    case Framework::kScikitLearn: return "scikit-learn (n_jobs=-1)";
    case Framework::kLightgbm:
      return f.platform == Platform::kGpu ? "lightgbm (device_type=cuda)"
                                          : "lightgbm (device_type=cpu)";
    default:
      return "";
  }
}

}  // namespace

std::optional<Reason> ImplausibleEstimate(const Job& job, const Config& c) {
  if (!job.has_dataset || !(c.hours.expected > 0)) return std::nullopt;
  const double limit =
      job.deadline_given
          ? kDefaults.implausible_deadline_factor.value * job.goal.deadline_hours
          : kDefaults.implausible_hours_without_deadline.value;
  if (!(c.hours.expected > limit)) return std::nullopt;
  return Reason{
      ReasonCode::kImplausibleEstimate,
      absl::StrFormat(
          "Expected %s, %s: no training run is planned that long, so read it "
          "as this hardware being far too small or slow for %s of work "
          "(%d devices, %.0f%% of each step communicating), not as a "
          "schedule.%s",
          FormatHours(c.hours.expected),
          job.deadline_given
              ? absl::StrFormat("over %.0fx the %s deadline",
                                kDefaults.implausible_deadline_factor.value,
                                FormatHours(job.goal.deadline_hours))
              : std::string("over a year, with no deadline given"),
          absl::StrFormat("%.3g %s", job.tokens, job.unit), c.devices,
          100 * c.step.communication_fraction,
          c.step.communication_fraction > 0.5
              ? (job.batch_given
                     ? " Most of the step is communication: a larger global "
                       "batch would amortise it."
                     : " Most of the step is communication at the assumed "
                       "global batch: stating a larger one would amortise it.")
              : "")};
}

Plan MakePlan(const Catalog& catalog, const Job& job, const Candidate& cand,
              bool with_job_spec) {
  Plan p;
  const Family& f = *cand.family;
  p.hardware = MakeHardware(cand);
  {
    // Where the plan runs follows the catalog's offerings (job_spec.h), so
    // the plan's run_platform and its job specs always agree.
    RunPlatformInput where;
    where.requested = job.constraints.run_platform;
    where.platform = f.platform;
    where.machine_type = p.hardware.machine_type;
    if (f.platform == Platform::kTpu && f.accelerator) {
      where.offerings = &f.accelerator->offerings;
    } else if (cand.config && cand.config->shape && cand.config->shape->machine) {
      where.offerings = &cand.config->shape->machine->offerings;
    }
    where.provisioning = p.hardware.provisioning;
    where.slices = std::max(1, p.hardware.slices);
    where.vms_per_slice = std::max(1, p.hardware.hosts / where.slices);
    const RunPlatformChoice choice = ChooseRunPlatform(where);
    p.hardware.run_platform = choice.run_platform;
    if (!choice.reason.empty()) {
      p.reasons.push_back({ReasonCode::kNotOfferedOnPlatform, choice.reason});
    }
  }
  if (!cand.config) return p;
  const Config& c = *cand.config;

  // Distribution.
  Distribution& d = p.distribution;
  d.strategy = c.strategy;
  {
    // Degrees multiply to the device count: data x fsdp x tensor x pipeline.
    const int tp = std::max(1, c.layout.tensor);
    const int pp = std::max(1, c.layout.pipeline);
    const int fsdp = c.layout.zero_stage == 3 ? std::max(1, c.layout.fsdp) : 1;
    d.data_parallelism = std::max(1, c.devices / (fsdp * tp * pp));
    d.fsdp_parallelism = c.layout.zero_stage == 3 ? fsdp : 0;
  }
  d.zero_stage = c.layout.zero_stage;
  d.tensor_parallelism = std::max(1, c.layout.tensor);
  d.pipeline_parallelism = std::max(1, c.layout.pipeline);
  if (c.slices > 1) {
    MultisliceMesh mesh;
    const int per_slice = c.devices / c.slices;
    if (c.layout.zero_stage == 3 || job.workload.per_device_memory_gib > 0) {
      mesh.ici_fsdp_parallelism = per_slice / std::max(1, c.layout.tensor);
      mesh.ici_data_parallelism = 1;
    } else {
      mesh.ici_data_parallelism = per_slice / std::max(1, c.layout.tensor);
      mesh.ici_fsdp_parallelism = 1;
    }
    mesh.ici_tensor_parallelism = std::max(1, c.layout.tensor);
    mesh.dcn_data_parallelism = c.slices;
    mesh.dcn_fsdp_parallelism = 1;
    mesh.dcn_tensor_parallelism = 1;
    mesh.dcn_pipeline_parallelism = 1;
    d.multislice = mesh;
    const bool sharded = mesh.ici_fsdp_parallelism > 1;
    const bool tensor = mesh.ici_tensor_parallelism > 1;
    d.notes = absl::StrFormat(
        "%d identical %s slices: %s inside each slice over ICI, data "
        "parallel across slices over DCN (dcn_data_parallelism = %d).",
        c.slices, c.shape->topology ? c.shape->topology->topology : "",
        sharded ? (tensor ? "FSDP + tensor parallel" : "FSDP")
                : (tensor ? "data + tensor parallel" : "data parallel"),
        c.slices);
  }
  const bool horovod = job.constraints.framework_agnostic_distribution &&
                       f.platform != Platform::kTpu;
  if (horovod) {
    d.horovod = true;
    d.strategy = Strategy::kHorovod;
  }
  // Reduction Server: multi-host GPU data parallel with NCCL on Vertex.
  const bool vertex = p.hardware.run_platform == RunPlatform::kVertexTraining;
  const bool sync_bound =
      std::find(job.current.symptoms.begin(), job.current.symptoms.end(),
                Symptom::kGradientSyncBound) != job.current.symptoms.end();
  if (f.platform == Platform::kGpu && c.hosts > 1 && c.layout.zero_stage == 0 &&
      job.nccl_framework && vertex &&
      (sync_bound || c.step.communication_fraction >= 0.1)) {
    auto img = catalog.service_facts.find("reduction_server_image");
    auto mt = catalog.service_facts.find("reduction_server_machine_type");
    if (img != catalog.service_facts.end() && mt != catalog.service_facts.end()) {
      const MachineType* reducer = catalog.FindMachineType(mt->second.first);
      const double reducer_gbps =
          reducer && reducer->network_bits_per_s ? *reducer->network_bits_per_s / 1e9 : 32;
      const double worker_gbps =
          c.shape->machine->network_bits_per_s.value_or(0) / 1e9 * c.hosts;
      ReductionServerPool rs;
      rs.machine_type = mt->second.first;
      rs.image_uri = img->second.first;
      rs.worker_bandwidth_gbps = worker_gbps;
      rs.replica_count = std::max(1, static_cast<int>(std::ceil(worker_gbps / reducer_gbps)));
      rs.reducer_bandwidth_gbps = rs.replica_count * reducer_gbps;
      d.reduction_server = rs;
    }
  }
  d.framework_api = FrameworkApi(job, f, c, horovod);
  if (c.recompute == Recompute::kFull && job.workload.recompute != Recompute::kFull) {
    absl::StrAppend(&d.notes, d.notes.empty() ? "" : " ",
                    "Full activation recompute (8·P·D compute) to fit memory.");
  }
  if (c.accumulation_steps > 1) {
    absl::StrAppend(&d.notes, d.notes.empty() ? "" : " ",
                    absl::StrFormat("Gradient accumulation over %d micro-steps "
                                    "(one sequence per device each) keeps the "
                                    "global batch of %d.",
                                    c.accumulation_steps,
                                    job.workload.global_batch_size));
  }
  if (c.layout.pipeline > 1) {
    absl::StrAppend(&d.notes, d.notes.empty() ? "" : " ",
                    absl::StrFormat("Tensor parallel %d inside each VM over "
                                    "NVLink, %d pipeline stages across VMs, "
                                    "ZeRO-1 data parallel over the rest.",
                                    c.layout.tensor, c.layout.pipeline));
  }

  // Estimates.
  Estimates& e = p.estimates;
  MemoryBreakdown& m = e.memory_per_device;
  e.memory_known = c.required_bytes > 0 && std::isfinite(c.required_bytes);
  // The parts are modelled only when the planner sized the model itself
  // (not a stated per-device figure, not a classical working set).
  e.memory_breakdown_known = e.memory_known && job.model_size_known &&
                             !job.classical &&
                             job.workload.per_device_memory_gib <= 0;
  m.weights_gib = Gib(c.memory.weights_bytes);
  m.gradients_gib = Gib(c.memory.gradients_bytes);
  m.optimizer_gib = Gib(c.memory.optimizer_bytes);
  m.activations_gib = Gib(c.memory.activations_bytes);
  m.embeddings_gib = Gib(c.memory.embeddings_bytes);
  m.total_gib = Gib(c.required_bytes);
  m.usable_gib = Gib(c.usable_bytes);
  m.device_memory_gib = Gib(c.usable_bytes / (1 - kHeadroom));
  m.headroom_fraction = kHeadroom;
  auto finite_positive = [](double v) { return v > 0 && std::isfinite(v); };
  e.flops_known = job.has_dataset && finite_positive(job.training_flops);
  e.training_flops = job.training_flops;
  // Classical ML has no training step (its time comes from its FLOPs).
  e.step_known = !job.classical && finite_positive(c.step.step_seconds_expected);
  e.step_time_seconds = c.step.step_seconds_expected;
  e.hours_known = job.has_dataset && finite_positive(c.hours.expected) &&
                  std::isfinite(c.hours.high);
  e.total_hours = c.hours;
  e.hourly_usd = c.hourly;
  e.on_demand_hourly_usd = c.hourly_on_demand;
  e.spot_hourly_usd = c.hourly_spot;
  if (e.hours_known) {
    if (c.on_demand_known) {
      e.on_demand_cost_known = true;
      e.on_demand_cost_usd = {c.hours.low * c.hourly_on_demand,
                              c.hours.expected * c.hourly_on_demand,
                              c.hours.high * c.hourly_on_demand};
    }
    if (c.spot_known) {
      e.spot_cost_known = true;
      e.spot_cost_usd = {c.hours.low * c.hourly_spot, c.hours.expected * c.hourly_spot,
                         c.hours.high * c.hourly_spot};
    }
  }
  e.price_date = c.shape->price_date;
  e.price_region = c.shape->price_region;
  e.price_known = c.price_known;
  e.mfu_known = finite_positive(c.peak_flops) && c.mfu.high > 0;
  e.mfu_low = c.mfu.low;
  e.mfu_high = c.mfu.high;
  e.communication_fraction = c.step.communication_fraction;
  e.peak_tflops_per_device = c.peak_flops / 1e12;
  // tokens_per_second counts tokens: only a sequence model has them.
  e.throughput_known = e.step_known && job.sequence_model &&
                       finite_positive(c.tokens_per_second);
  e.tokens_per_second = c.tokens_per_second;
  if (e.throughput_known && c.price_known) {
    e.cost_per_million_tokens_usd = c.hourly / (c.tokens_per_second * 3600) * 1e6;
  }
  if (auto why = ImplausibleEstimate(job, c)) p.reasons.push_back(*why);

  if (with_job_spec && f.platform != Platform::kEdge) {
    JobSpecInput in;
    in.hardware = p.hardware;
    in.distribution = d;
    in.is_tpu = f.platform == Platform::kTpu;
    in.framework = job.framework;
    if (f.accelerator) {
      auto v = f.accelerator->labels.find("VERTEX_ACCELERATOR_TYPE");
      if (v != f.accelerator->labels.end()) in.vertex_accelerator_type = v->second;
      auto g = f.accelerator->labels.find(in.is_tpu ? "GKE_TPU_ACCELERATOR"
                                                    : "GKE_ACCELERATOR");
      if (g != f.accelerator->labels.end()) in.gke_accelerator_label = g->second;
    }
    p.job_spec = BuildJobSpec(in);
  }
  return p;
}

}  // namespace accelplan::planner::internal
