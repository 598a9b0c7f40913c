// Internals shared by Plan, Review and List: the candidate index built once
// per catalog snapshot, the per-request job description, and the evaluation
// of one hardware family at a chosen size.
#ifndef ACCELPLAN_PLANNER_ENGINE_H_
#define ACCELPLAN_PLANNER_ENGINE_H_

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "catalog/catalog.h"
#include "planner/memory_model.h"
#include "planner/planner.h"
#include "planner/time_model.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// One rentable unit: a VM shape (GPU, CPU, edge) or a TPU slice topology.
struct Shape {
  const catalog::MachineType* machine = nullptr;  // per-VM type
  const catalog::TpuTopology* topology = nullptr;  // TPU only
  int devices = 1;  // accelerators (CPU: the VM is one device)
  int vms = 1;
  std::optional<double> on_demand_hourly;  // the whole shape
  std::optional<double> spot_hourly;
  std::string price_date;
  std::string price_region;
  std::string price_source_id;
};

// A candidate family: one GPU series + accelerator, one TPU version, one CPU
// series, or one edge device. Everything here depends only on the catalog.
struct Family {
  std::string name;  // "A3 High", "N1 + T4", "TPU v5p", "N2"
  const catalog::Series* series = nullptr;
  const catalog::Accelerator* accelerator = nullptr;  // null for CPU
  Platform platform = Platform::kUnspecified;
  std::vector<Shape> shapes;  // ascending by devices, then price
  double device_memory_bytes = 0;  // per accelerator (CPU: per VM, see shape)
  int max_devices_per_vm = 1;
  double intra_vm_bytes_per_s = 0;  // per device, one way
  double inter_vm_bytes_per_s = 0;  // per device, one way (0: single VM only)
  double ici_bytes_per_s = 0;       // TPU per chip, one way
  double dcn_bytes_per_s_per_chip = 0;
  int sparse_cores = 0;
  bool preview = false;
  bool modern = true;  // Ampere+ GPU or TPU (MFU band)
  // Largest multi-host TPU topology: the unit of Multislice.
  const Shape* largest_multi_host_slice = nullptr;
  std::vector<std::string> fact_sources;  // source ids of the facts used
  // The names constraints.allowed_series matches, normalised once per
  // catalog snapshot (NormalizeName): the series id, the family name and,
  // for an accelerator family, the accelerator's id and name.
  std::vector<std::string> allowed_series_keys;
};

struct Index {
  std::vector<Family> families;
  std::vector<AcceleratorInfo> listing;  // one per machine type
  std::vector<SourceInfo> sources;
};

Index BuildIndex(const catalog::Catalog& catalog);

}  // namespace accelplan::planner::internal

namespace accelplan::planner {
// The Planner's private snapshot index, defined once for planner.cc and
// review.cc.
struct Planner::Index : internal::Index {};
}  // namespace accelplan::planner

namespace accelplan::planner::internal {

// The request, normalised once: defaults resolved, quantities derived.
struct Job {
  Workload workload;
  Goal goal;
  Constraints constraints;
  CurrentSetup current;
  Framework framework = Framework::kUnspecified;
  Precision precision = Precision::kBf16Mixed;
  TrainingMethod method = TrainingMethod::kPreTraining;
  Objective objective = Objective::kMinCost;
  bool on_device = false;
  bool classical = false;   // XGBoost, scikit-learn, LightGBM, tabular
  bool embedding_dominated = false;
  bool sparsecore_ranking = false;  // embedding-dominated JAX / TensorFlow
  bool nccl_framework = false;  // TensorFlow / PyTorch on GPUs
  double params = 0;
  bool model_size_known = false;
  // The unit of work: tokens for a sequence model (a dense transformer, a
  // transformer shape, a sequence length or a dataset in tokens), examples
  // for any other model, bytes of training data for classical ML. Examples
  // are never counted as tokens.
  bool sequence_model = false;
  int sequence_length = 0;      // resolved (given or defaulted); 0: none
  const char* unit = "tokens";  // "tokens" / "examples" / "bytes"
  double tokens = 0;  // total units of work processed (D)
  bool has_dataset = false;
  double flops_per_unit = 0;  // training FLOPs per unit (6·P, LoRA 4·P, ...)
  double training_flops = 0;
  double tokens_per_step = 0;  // global batch in units of work
  bool batch_given = false;    // the request stated global_batch_size
  // Sequences (or examples) per step: the most data-parallel ranks the
  // batch can feed.
  double batch_sequences = 0;
  double deadline_hours = 0;   // resolved (MIN_COST default: 30 days)
  bool deadline_given = false;
  int as_of_days = 0;
  std::string as_of;
  // Current hardware resolved against the catalog (may be legacy).
  const catalog::Accelerator* current_accelerator = nullptr;
  const catalog::Series* current_series = nullptr;
  const catalog::MachineType* current_machine = nullptr;
  int current_devices = 0;
  // Slices of the current setup: slice_count, else one per
  // slice_topologies entry; whether those topologies differ.
  int current_slices = 0;
  bool mixed_current_slices = false;
  std::vector<std::string> assumptions;
  std::vector<Reason> warnings;
  // The memory model's per-job part, prepared once (MakeJob).
  PreparedMemoryModel memory_model;
  // constraints.allowed_series normalised once per request (MakeJob), so
  // matching costs O(families + entries), not entries per family.
  std::unordered_set<std::string> allowed_series;
};

Job MakeJob(const catalog::Catalog& catalog, const Workload& w, const Goal& g,
            const Constraints& k, const CurrentSetup& cur,
            const std::string& as_of);

// SPEC §4: the DCN degrees of a Multislice mesh multiply to the slice
// count. The reason line naming both numbers when they do not (slices <= 0:
// unknown, nothing to check); nullopt when they do.
std::optional<std::string> DcnProductMismatch(const MultisliceMesh& mesh,
                                              int slices);

// A current hardware name ("a3-highgpu-8g", "tpu-v5e", "H100", "N2")
// resolved against the catalog: a machine type, else an accelerator, else a
// series (legacy rows included). All null: the catalog does not know it.
struct CurrentHardware {
  const catalog::MachineType* machine = nullptr;
  const catalog::Accelerator* accelerator = nullptr;
  const catalog::Series* series = nullptr;
  bool known() const { return accelerator != nullptr || series != nullptr; }
};
CurrentHardware ResolveCurrentHardware(const catalog::Catalog& catalog,
                                       const std::string& hardware);

// Bytes the job needs on one device with no sharding (0 when unknown).
double JobBytesOnOneDevice(const Job& job);
// Bytes per device for plain data parallelism over `replicas` devices, with
// gradient accumulation when a global batch is given.
double JobBytesPerReplica(const Job& job, int replicas);
// Bytes per chip of a Multislice layout that replicates the model in each
// slice: FSDP (ZeRO-3) over one slice's chips, data parallel across the
// slices, full recompute (the least memory a slice can get by with); 0 when
// the model size is unknown.
double ReplicaPerSliceBytes(const Job& job, int chips_per_slice, int slices);

// Bytes per device with `devices` devices sharing the job under ZeRO
// `zero_stage` (0: plain data parallel) and a recompute level (unspecified:
// the job's own); 0 when the model size is unknown.
double JobBytesWith(const Job& job, int devices, int zero_stage,
                    Recompute recompute);

// A family at a chosen size, with its numbers.
struct Config {
  const Shape* shape = nullptr;
  int units = 1;  // VMs of `shape` (GPU/CPU) or slices (TPU)
  int devices = 1;
  int hosts = 1;
  int slices = 1;
  ShardingLayout layout;
  Strategy strategy = Strategy::kSingleDevice;
  Recompute recompute = Recompute::kUnspecified;  // the level chosen
  int accumulation_steps = 1;  // gradient accumulation micro-steps
  MemoryEstimate memory;
  double required_bytes = 0;  // per device
  double usable_bytes = 0;    // per device after headroom
  bool fits = false;
  // Every layout needs more data-parallel ranks than the stated global
  // batch has sequences (`min_ranks` is the fewest any layout needs).
  bool batch_too_small = false;
  int min_ranks = 0;
  StepTimeEstimate step;
  double peak_flops = 0;  // per device at the job's precision
  MfuRange mfu;
  Range hours;
  double hourly_on_demand = 0;
  double hourly_spot = 0;
  bool on_demand_known = false;
  bool spot_known = false;
  double hourly = 0;  // at the chosen provisioning
  Range cost;          // at the chosen provisioning
  bool price_known = false;
  bool comm_bound = false;
  double comm_link_bytes_per_s = 0;  // the link that bounds it
  double tokens_per_second = 0;
};

struct Candidate {
  const Family* family = nullptr;
  std::vector<ReasonCode> codes;  // hard rejections; empty = viable
  std::vector<std::string> why;   // one human line per code
  std::vector<Reason> notes;      // warnings that travel with the plan
  std::optional<Config> config;
  Provisioning provisioning = Provisioning::kOnDemand;
  // Accelerators in the smallest shape the request can obtain (offered on
  // its platform, with its provisioning); the family's smallest otherwise.
  int smallest_obtainable_devices = 0;
  bool eos_soon = false;
  bool on_workload_list = false;
  bool price_unknown = false;
  // Misses the deadline MIN_COST assumes when none is given: kept (an
  // assumption never rejects), ranked after every candidate that meets it.
  bool misses_assumed_deadline = false;
  double score = 0;  // objective value; lower is better
  // The same score with the exposed communication taken out of its time
  // and cost: when it beats the winner, communication is why it loses.
  double score_without_comm = 0;
  bool viable() const { return codes.empty(); }
  void Reject(ReasonCode code, std::string why_line);
};

// Evaluates one family for the job: hard rules, then size and numbers.
// `pinned_devices` > 0 fixes the accelerator count (current hardware or a
// reviewed proposal); `pinned_topology` fixes a TPU slice shape.
Candidate Evaluate(const catalog::Catalog& catalog, const Job& job,
                   const Family& family, int pinned_devices = 0,
                   const std::string& pinned_topology = "",
                   int pinned_slices = 0);

// One line on how a candidate's configuration spends its step
// communicating (link, volume against compute, the Scaling Book threshold).
std::string CommunicationDetail(const Job& job, const Candidate& c);

// Applies the rules that compare candidates (oversized, Google's
// per-workload lists, CPU profile, SparseCores), scores and sorts viable
// ones best first. Returns the candidates in ranked order (viable first).
void RankCandidates(const Job& job, std::vector<Candidate>& candidates);

// Families that a hardware description names: series ("A3 Ultra", "N1"),
// accelerator ("tpu-v5e", "T4"), machine type ("g4-standard-48"), or only a
// platform. Empty when nothing matches.
std::vector<const Family*> MatchFamilies(const Index& index, Platform platform,
                                         const std::string& series,
                                         const std::string& accelerator,
                                         const std::string& machine_type);

// IMPLAUSIBLE_ESTIMATE when the expected time is over 10x the deadline, or
// over a year with no deadline given (planner/defaults.h).
std::optional<Reason> ImplausibleEstimate(const Job& job, const Config& c);

// Hardware / Distribution / Estimates / JobSpec for a viable candidate.
Plan MakePlan(const catalog::Catalog& catalog, const Job& job,
              const Candidate& c, bool with_job_spec);
Hardware MakeHardware(const Candidate& c);

// Source ids -> FactRef with URLs (deduplicated, in order).
std::vector<FactRef> MakeFactRefs(const catalog::Catalog& catalog,
                                  const std::vector<std::string>& ids);

std::string FormatUsd(double usd);
std::string FormatHours(double hours);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_ENGINE_H_
