// The immutable in-memory catalog snapshot. Built once by the loader from the
// SQLite file; read concurrently by the planner without locks.
#ifndef ACCELPLAN_CATALOG_CATALOG_H_
#define ACCELPLAN_CATALOG_CATALOG_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace accelplan::catalog {

enum class Platform { kCpu, kGpu, kTpu, kEdge };
enum class Maturity { kGa, kPreview, kLegacy };
enum class SupportStatus { kSupported, kUnsupported, kUnverified };
enum class RunPlatform { kVertexTraining, kGke, kComputeEngine };
// kAny: the row speaks of the run platform whatever the provisioning.
enum class Provisioning { kOnDemand, kSpot, kFlexStart, kReservation, kAny };
enum class WorkloadList { kPreTraining, kFineTuning, kInference };

// Framework names exactly as stored in framework_support.framework.
inline constexpr const char* kFrameworkJax = "JAX";
inline constexpr const char* kFrameworkTensorflow = "TENSORFLOW";
inline constexpr const char* kFrameworkPytorch = "PYTORCH";
inline constexpr const char* kFrameworkPytorchXla = "PYTORCH_XLA";
inline constexpr const char* kFrameworkXgboost = "XGBOOST";
inline constexpr const char* kFrameworkScikitLearn = "SCIKIT_LEARN";
inline constexpr const char* kFrameworkLightgbm = "LIGHTGBM";
// framework_support.subject for all CPU machine types.
inline constexpr const char* kCpuSubject = "CPU";

struct Source {
  std::string id;
  std::string url;  // or "repo/path@commit" when the source is a repository
  std::string title;
};

// A numeric fact with the source it came from. Values in SI base units:
// bytes, FLOP/s, bytes/s; network in bits/s; counts as plain numbers.
struct Fact {
  double value = 0;
  std::string source_id;
};

struct FormatSupport {
  bool supported = false;
  std::string source_id;
};

struct FrameworkSupport {
  SupportStatus status = SupportStatus::kUnverified;
  std::string min_version;  // empty when none is documented
  std::string source_id;
  std::string note;
};

struct Offering {
  RunPlatform run_platform = RunPlatform::kComputeEngine;
  Provisioning provisioning = Provisioning::kAny;
  bool available = true;
  bool preview = false;
  std::string source_id;
  std::string note;
  // YYYY-MM-DD after which the offering ends (e.g. end of support); empty
  // when no end is documented.
  std::string available_until;
};

struct Price {
  std::optional<double> on_demand_usd;  // per VM-hour or per chip-hour
  std::optional<double> spot_usd;
  bool per_chip = false;  // TPUs: per chip-hour
  std::string region;
  std::string date;  // YYYY-MM-DD
  std::string source_id;
  std::string note;
};

struct TpuTopology {
  std::string topology;  // "2x2x1", "16x16"
  int chips = 0;
  int vms = 0;
  std::string machine_type_id;
  std::string source_id;
};

struct Series {
  std::string id;  // "A3 Ultra", "TPU v5p", "N2"
  Platform platform = Platform::kCpu;
  std::string family;
  Maturity maturity = Maturity::kGa;
  std::string positioning;
  std::string source_id;
  // Facts (fact_kinds.applies_to = 'series').
  std::optional<Fact> nvlink_bandwidth;     // bytes/s per GPU inside a VM
  // GPUs of one NVLink domain spanning VMs (A4X's NVL72: 72 over 18 VMs);
  // absent: the domain is one VM's GPUs.
  std::optional<Fact> nvlink_domain_gpus;
  // bits/s of the VM's host (gVNIC / Titanium) NICs on machines whose other
  // NICs carry GPUDirect GPU-to-GPU traffic only; absent: every NIC is one.
  std::optional<Fact> host_nic_bandwidth;
  // Seconds one hop between two VMs adds to a GPU collective beyond NCCL's
  // own network figure (the GPU network transport's); absent: NCCL's own.
  std::optional<Fact> network_hop_latency;
  std::optional<Fact> fp32_flops_per_vcpu;  // CPU series
  std::optional<Fact> fp64_flops_per_vcpu;  // CPU series
  // Google's per-workload lists this series is on, with source ids.
  std::map<WorkloadList, std::string> workload_lists;
};

struct Accelerator {
  std::string id;  // "nvidia-h100-80gb", "tpu-v5p", "coral-edge-tpu"
  Platform platform = Platform::kGpu;
  std::string name;
  std::string series_id;
  bool legacy = false;
  std::string source_id;
  // NVIDIA architecture ("Hopper", "Ada Lovelace", ...); empty for TPUs.
  std::string architecture;
  // Facts (fact_kinds.applies_to = 'accelerator').
  std::optional<Fact> memory_bytes;  // per device, usable where stated
  std::optional<Fact> memory_bandwidth;
  std::optional<Fact> peak_bf16;  // dense FLOP/s
  std::optional<Fact> peak_fp16;
  std::optional<Fact> peak_fp32;
  std::optional<Fact> peak_tf32;
  std::optional<Fact> peak_fp8;
  std::optional<Fact> peak_int8;  // op/s
  std::optional<Fact> peak_fp64;
  std::optional<Fact> sparse_cores;
  std::optional<Fact> tensorcores;
  std::optional<Fact> ici_bandwidth;  // bytes/s per chip, bidirectional
  std::optional<Fact> dcn_bandwidth;  // bits/s per chip
  std::optional<Fact> pod_chips;
  // Edge: on-chip parameter cache (beyond it parameters stream from host
  // memory) and the largest model file the toolchain accepts.
  std::optional<Fact> param_cache_bytes;
  std::optional<Fact> max_model_bytes;
  // format name ("bf16", "fp8", "fp64", ...) -> support.
  std::map<std::string, FormatSupport> formats;
  // framework name (kFramework*) -> support.
  std::map<std::string, FrameworkSupport> frameworks;
  std::optional<std::string> end_of_support;  // YYYY-MM-DD
  std::string end_of_support_source_id;
  // system ("VERTEX_ACCELERATOR_TYPE", "GKE_ACCELERATOR",
  // "GKE_TPU_ACCELERATOR", "GKE_RESOURCE") -> value.
  std::map<std::string, std::string> labels;
  // TPUs: slice shapes, ascending by chips; per-chip price; offerings.
  std::vector<TpuTopology> topologies;
  std::optional<Price> chip_price;
  std::vector<Offering> offerings;
};

struct MachineType {
  std::string id;  // "a3-highgpu-8g", "n1-standard-8+1xnvidia-tesla-t4"
  std::string gce_machine_type;
  std::string series_id;
  std::string accelerator_id;  // empty for CPU machine types
  int accelerator_count = 0;
  std::optional<int> vcpus;
  std::optional<double> memory_bytes;
  std::optional<double> network_bits_per_s;
  std::string source_id;
  std::optional<Price> price;  // per VM-hour
  std::vector<Offering> offerings;
};

// A well-known open model's published shape (table `models`), so a request
// can name a model instead of spelling out its size. Plain data: how a
// planner turns it into a workload is the planner's business. Optional
// fields are empty where the source gives nothing or the field does not
// apply (a CNN has no layers/heads; only MoE models have experts).
struct ModelPreset {
  std::string id;                     // lowercase key, e.g. "llama-3.1-8b"
  std::string name;                   // "Llama 3.1 8B"
  std::string family;                 // "Llama 3.1"
  std::string architecture;           // decoder | encoder | encoder-decoder |
                                      // vision-transformer | cnn
  std::optional<int> layers;          // encoder layers for encoder-decoder
  std::optional<int> decoder_layers;  // encoder-decoder only
  std::optional<int> hidden_size;
  std::optional<int> attention_heads;
  std::optional<int> kv_heads;
  std::optional<int> head_dim;  // empty: hidden_size / attention_heads
  std::optional<int> ffn_size;  // per expert for MoE
  bool gated_ffn = false;       // three FFN matrices (SwiGLU/GeGLU)
  std::optional<int> vocab_size;
  std::optional<int> max_sequence;  // tokens
  bool tied_embeddings = false;     // output head shares the embedding
  bool learned_positions = false;   // a max_sequence x hidden table
  std::optional<int> patch_size;    // vision transformers (RGB input)
  std::optional<int> experts;       // mixture of experts
  std::optional<int> experts_per_token;
  double total_params = 0;              // as published
  std::optional<double> active_params;  // MoE, as published
  std::string source_id;
  std::string note;
  // Sliding-window attention: a local layer attends to the previous
  // sliding_window positions; every global_attention_every-th layer attends
  // over the whole sequence (empty: no layer does). Empty window: every
  // layer is global.
  std::optional<int> sliding_window;
  std::optional<int> global_attention_every;
  std::string window_source_id;

  int HeadDim() const {
    return head_dim.value_or(
        hidden_size && attention_heads ? *hidden_size / *attention_heads : 0);
  }
};

// One published, measured training run (table `measured_efficiency`): the
// model-FLOPs utilisation it reached on accelplan's basis (6·P_active +
// 12·L·h·s FLOPs per token, recompute excluded) against the dense peak of
// its precision. The planner's efficiency bands are the min-max of these.
struct MeasuredEfficiency {
  std::string run_id;       // "T01"
  std::string accelerator;  // accelerators.id
  std::string precision;    // "BF16" | "FP8"
  std::string stack;        // "JAX_XLA" | "PYTORCH_FSDP" | "PYTORCH_MEGATRON"
                            // | "TENSORFLOW"
  bool moe = false;
  std::string recompute;    // "NONE" | "SELECTIVE" | "FULL" | "" (unpublished)
  // The run's tensor-parallel degree: 1 without tensor parallelism, 0 where
  // it was used at a degree the source does not give.
  int tensor_parallel = 1;
  int devices = 0;
  std::string model;
  double mfu = 0;
  double mfu_6pd = 0;
  std::string source_id;
  std::string note;
};

// Indices are stable for the life of the snapshot; the lookup maps hold
// indices into the vectors.
struct Catalog {
  std::string version;    // content hash + data date
  std::string data_date;  // YYYY-MM-DD
  std::vector<Source> sources;
  std::vector<Series> series;
  std::vector<Accelerator> accelerators;
  std::vector<MachineType> machine_types;  // sorted by id
  std::map<std::string, FrameworkSupport> cpu_frameworks;
  // service_facts: name -> (value, source id).
  std::map<std::string, std::pair<std::string, std::string>> service_facts;
  std::vector<ModelPreset> models;  // sorted by id
  std::vector<MeasuredEfficiency> measured_efficiencies;  // by run_id

  absl::flat_hash_map<std::string, size_t> source_index;
  absl::flat_hash_map<std::string, size_t> series_index;
  absl::flat_hash_map<std::string, size_t> accelerator_index;
  absl::flat_hash_map<std::string, size_t> machine_type_index;
  // By ModelKey(id): a request may spell a preset the ways people copy
  // it (see FindModel).
  absl::flat_hash_map<std::string, size_t> model_index;

  const Source* FindSource(const std::string& id) const;
  const Series* FindSeries(const std::string& id) const;
  const Accelerator* FindAccelerator(const std::string& id) const;
  const MachineType* FindMachineType(const std::string& id) const;
  // A preset by its id or display name, case-insensitive and whatever
  // separates the letters from the numbers ("Llama3.1-8B", "ViT-L/16");
  // else by a Hugging Face repository name
  // ("meta-llama/Meta-Llama-3.1-8B-Instruct"): the organisation, a leading
  // "Meta" and the suffixes of variants that keep the base model's
  // architecture ("-hf", "-instruct", "-chat", "-it", "-pt", "-uncased",
  // "-cased") are dropped.
  const ModelPreset* FindModel(const std::string& name) const;
};

using CatalogPtr = std::shared_ptr<const Catalog>;

// The lookup key of a model name: its runs of letters and of digits,
// lowercase, joined by '-'. The loader refuses two presets with one key.
std::string ModelKey(std::string_view name);

}  // namespace accelplan::catalog

#endif  // ACCELPLAN_CATALOG_CATALOG_H_
