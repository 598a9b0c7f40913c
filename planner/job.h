// Stage 2: the request normalised once into a Job (defaults resolved and
// stated, quantities derived), and the memory questions asked of a job.
#ifndef ACCELPLAN_PLANNER_JOB_H_
#define ACCELPLAN_PLANNER_JOB_H_

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "catalog/catalog.h"
#include "planner/memory_model.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

class LayoutMemo;  // planner/layout_memo.h

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
  // TensorFlow / PyTorch on GPUs, or a job stated to use NCCL.
  bool nccl_framework = false;
  // The catalog's Reduction Server reducer machine type and image
  // (service facts; the view points into the catalog, which outlives every
  // job planned on it); null/empty when the catalog has none.
  const catalog::MachineType* reducer_machine = nullptr;
  std::string_view reducer_image;
  double params = 0;
  bool model_size_known = false;
  // Mixture of experts (planner/experts.h): experts per MoE layer, experts
  // per token (resolved), and the parameters the experts hold across all
  // layers; 0 for a dense model or when the split is unknown.
  int experts = 0;
  int experts_per_token = 0;
  double expert_params = 0;
  // Layers and width the expert all-to-all moves tokens through: the stated
  // shape's, or without one a dense model of the active parameters at
  // GPT-3's aspect ratio (planner/experts.cc ResolveExperts); 0 when
  // expert_params is.
  int expert_layers = 0;
  int expert_hidden = 0;
  // The unit of work: tokens for a sequence model (a dense transformer, a
  // transformer shape, a sequence length or a dataset in tokens), examples
  // for any other model, bytes of training data for classical ML. Examples
  // are never counted as tokens.
  bool sequence_model = false;
  // The transformer shape was assumed from the parameter count (the
  // request gave none): it sizes activations and attention FLOPs, but
  // tensor and pipeline degrees, which must divide a real model's heads
  // and layers, are planned only for a stated shape (ModelParallelLayers).
  bool shape_inferred = false;
  int sequence_length = 0;      // resolved (given or defaulted); 0: none
  const char* unit = "tokens";  // "tokens" / "examples" / "bytes"
  double tokens = 0;  // total units of work processed (D)
  bool has_dataset = false;
  // Classical ML: the data set's bytes (stated, or examples x 1 KB), which
  // its working set follows; 0 when unknown.
  double classical_data_bytes = 0;
  double flops_per_unit = 0;  // training FLOPs per unit (6·P, LoRA 4·P, ...)
  // A CNN's forward FLOPs per example (stated or estimated), for its
  // activation memory; 0 otherwise.
  double cnn_forward_flops = 0;
  double training_flops = 0;
  double tokens_per_step = 0;  // global batch in units of work
  bool batch_given = false;    // the request stated global_batch_size
  // Sequences (or examples) per step: the most data-parallel ranks the
  // batch can feed.
  double batch_sequences = 0;
  // An assumed batch caps the search (issue 13 item 2: "its count capped to
  // what the assumed batch allows, with the cap stated"): layouts with more
  // data-parallel ranks than it has sequences are not used while a size
  // within it holds the job. 0: no cap (a stated batch is a hard limit
  // instead; classical ML; no model size; or the fallback when no size
  // within the cap holds the job, planner/family_space.cc).
  double assumed_batch_rank_cap = 0;
  // A recommender given by its embedding tables and no parameter count
  // (planner/job_model.cc ResolveModelSize).
  bool tables_only = false;
  double deadline_hours = 0;   // resolved (MIN_COST default: 30 days)
  bool deadline_given = false;
  int as_of_days = 0;
  std::string as_of;
  // Current hardware resolved against the catalog (may be legacy).
  const catalog::Accelerator* current_accelerator = nullptr;
  const catalog::Series* current_series = nullptr;
  const catalog::MachineType* current_machine = nullptr;
  // Devices of the current setup as one setup to pin, price and grow: 0
  // for slices of different topologies (they cannot train one model).
  int current_devices = 0;
  // Every device the team runs today, different slices summed: what a
  // rule about today's count (is there anything to shard across?) reads.
  int current_chips = 0;
  // Slices of the current setup: slice_count, else one per
  // slice_topologies entry; whether those topologies differ.
  int current_slices = 0;
  bool mixed_current_slices = false;
  // Today's setup as evidence (planner/current_evidence.h), when its point
  // can be evaluated: its modelled throughput in units of work per second
  // (0: not evaluable), its runtime in hours (observed, else modelled on the
  // stated work; 0: unknown) and its hourly price (0: unknown).
  double current_units_per_s = 0;
  double current_hours = 0;
  double current_hourly = 0;
  int current_hosts = 0;
  double current_comm_fraction = 0;  // of today's modelled step
  // OUT_OF_MEMORY where today's stated layout fits in the model as the team
  // runs it: what runs out is memory the model does not count, so a fix
  // must leave more memory free per device than today's point does.
  bool oom_unmodelled = false;
  double current_free_bytes = 0;  // per device at today's point
  std::string current_label;  // "16 x a2-highgpu-8g"
  // The work is today's throughput x current_setup.observed_hours.
  bool work_from_current = false;
  // No work known and no deadline given: today's throughput is the floor.
  // A point slower than it misses the assumed pace, the per-unit form of
  // the deadline MIN_COST assumes (kept, ranked after those that keep it).
  double pace_floor_units_per_s = 0;
  // How the deadline assumed when none is given is named in notes ("the
  // 30-day deadline assumed because none was given").
  std::string assumed_deadline_label;
  // The deadline is today's runtime, assumed (AssumeTodaysRuntime): a
  // point within kPolicy.equal_time_fraction of it keeps today's pace.
  bool deadline_is_todays_runtime = false;
  std::vector<std::string> assumptions;
  std::vector<Reason> warnings;
  // The memory model's per-job part, prepared once (MakeJob).
  PreparedMemoryModel memory_model;
  // constraints.allowed_series normalised once per request (MakeJob), so
  // matching costs O(families + entries), not entries per family.
  std::unordered_set<std::string> allowed_series;
  // A provisioning what-if (planner/provisioning.h): no nested what-ifs.
  bool what_if = false;
  // Today's stated layout, which the team runs without running out of
  // memory: it fits whatever the model's assumed optimizer or precision
  // would need (planner/current_evidence.h ObservedToFit).
  bool memory_observed = false;
  // Today's stated layout as the team runs it: an optimizer offload it did
  // not state is not one of its layouts (OptimizerOffloadOffered).
  bool optimizer_offload_excluded = false;
  // The layouts a rejection's what-ifs share (planner/layout_memo.h); null
  // outside them. Owned by the caller that sets it.
  LayoutMemo* layout_memo = nullptr;
  // False for a BASIC PlanTraining: rejections are neither built nor
  // returned, so the what-if evaluations that explain them are skipped.
  bool explain_rejections = true;
};

// Whether each family's sizes are all searched and judged on time: a work
// to time (a data set, or one inferred from today's setup), today's pace as
// the floor, or MIN_TIME or BALANCED over a model whose throughput is timed
// (their metric weighs the time per unit of work, which more devices
// shorten until the batch runs out of ranks). Otherwise each family is
// taken at its smallest size that holds the job.
inline bool SearchesSizes(const Job& job) {
  return job.has_dataset || job.pace_floor_units_per_s > 0 ||
         (job.objective != Objective::kMinCost && job.model_size_known &&
          job.flops_per_unit > 0 && !job.on_device);
}

// The request lists GPUs among its allowed platforms (SPEC §4: classical ML
// goes to CPU unless a GPU path is asked for).
inline bool GpuAskedFor(const Job& job) {
  const auto& a = job.constraints.allowed_platforms;
  for (Platform p : a) {
    if (p == Platform::kGpu) return true;
  }
  return false;
}

// The request allows CPUs: it lists no platforms, or CPU among them.
inline bool CpuAllowed(const Job& job) {
  const auto& a = job.constraints.allowed_platforms;
  return a.empty() || std::find(a.begin(), a.end(), Platform::kCpu) != a.end();
}

struct Index;

// `index` null: the current setup is not used as evidence (tests of the
// job model alone); the RPCs always pass it.
Job MakeJob(const catalog::Catalog& catalog, const Workload& w, const Goal& g,
            const Constraints& k, const CurrentSetup& cur,
            const std::string& as_of, const Index* index = nullptr);

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
// slices, with or without tensor parallelism inside the slice at the
// layouts' degree (a stated shape only), full recompute (the least memory a
// slice can get by with); 0 when the model size is unknown.
// `tensor_parallel`: the largest TP degree the slice's layouts may take
// (0: the policy's cap the heads allow, as the planner's own layouts).
double ReplicaPerSliceBytes(const Job& job, int chips_per_slice, int slices,
                            int tensor_parallel = 0);

// Bytes per device with `devices` devices sharing the job under ZeRO
// `zero_stage` (0: plain data parallel) and a recompute level (unspecified:
// the job's own); 0 when the model size is unknown.
double JobBytesWith(const Job& job, int devices, int zero_stage,
                    Recompute recompute);

// The layers tensor and pipeline parallelism split: the stated shape's, 0
// when the request gave none (an assumed shape is not split).
inline int ModelParallelLayers(const Job& job) {
  return job.shape_inferred ? 0 : job.workload.transformer_shape.layers;
}

// TensorFlow's tf.distribute strategies and DTensor have no pipeline
// schedule (https://www.tensorflow.org/guide/distributed_training): its
// jobs get no pipeline-parallel layout.
inline bool FrameworkHasPipelines(const Job& job) {
  return job.framework != Framework::kTensorflow;
}

inline constexpr const char* kNoTensorflowPipeline =
    "TensorFlow has no pipeline-parallel API (tf.distribute and DTensor "
    "shard variables but schedule no pipeline stages)";

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_JOB_H_
