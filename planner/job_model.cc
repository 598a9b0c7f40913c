// Stage 2: request -> Job.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/current_evidence.h"
#include "planner/domains.h"
#include "planner/engine_common.h"
#include "planner/experts.h"
#include "planner/index.h"
#include "planner/job.h"
#include "planner/job_assumptions.h"
#include "planner/job_work.h"
#include "planner/layouts.h"
#include "planner/reduction_server.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

using catalog::Accelerator;
using catalog::Catalog;
using catalog::MachineType;

// ---------------------------------------------------------------- job

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
  const AskedName asked(hardware);
  for (const Accelerator& a : catalog.accelerators) {
    if (asked.Names(a)) {
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

namespace {

// The request as given, and the defaults for what it left out.
void ResolveChoices(const Workload& w, const Goal& g, const Constraints& k,
                    const CurrentSetup& cur, Job& job) {
  job.workload = w;
  job.goal = g;
  job.constraints = k;
  for (const std::string& s : k.allowed_series) {
    job.allowed_series.insert(NormalizeName(s));
  }
  job.current = cur;
  // Today's setup runs this job: without a batch of its own, today's
  // global batch is the workload's.
  if (job.current.current_global_batch_size <= 0) {
    job.current.current_global_batch_size = w.global_batch_size;
  }
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
  // TensorFlow and PyTorch are the frameworks Google documents Reduction
  // Server for; "you might also be able to use other ML frameworks that use
  // NCCL" [AP-dist], so a job stated to all-reduce over NCCL (JAX on GPUs)
  // counts too.
  job.nccl_framework = w.framework == Framework::kPytorch ||
                       w.framework == Framework::kTensorflow || cur.uses_nccl;
}

// Parameter count (given or from the transformer shape) and whether the
// embedding tables dominate the model.
void ResolveModelSize(const Workload& w, Job& job) {
  job.params = w.parameter_count;
  if (job.params <= 0)
    job.params = TransformerParamsFromShape(w.transformer_shape);
  const double embedding_bytes = w.embedding_table_gib * kGiB;
  // A recommender stated by its embedding tables alone: the tables are its
  // memory (its dense layers, unstated, count as none), so it is sized;
  // with no FLOPs to count it is timed only from a stated forward pass
  // (ResolveWork).
  job.tables_only = job.params <= 0 &&
                    w.model_kind == ModelKind::kRecommender &&
                    embedding_bytes > 0;
  job.model_size_known = job.params > 0 || job.tables_only;
  job.embedding_dominated =
      w.embedding_lookups_dominate ||
      (w.model_kind == ModelKind::kRecommender && embedding_bytes > 0 &&
       embedding_bytes >= 16.0 * job.params);
  // SPEC §4: SparseCores lead the ranking for JAX and TensorFlow, whose
  // TPU embedding APIs use them.
  job.sparsecore_ranking =
      job.embedding_dominated && (w.framework == Framework::kJax ||
                                  w.framework == Framework::kTensorflow);
}

// "8B", "124M": a parameter count as people write it (no exponent).
std::string ParamsLabel(double params) {
  const bool billions = params >= 1e9;
  const double v = params / (billions ? 1e9 : 1e6);
  const char* unit = billions ? "B" : "M";
  return v >= 100 ? absl::StrFormat("%.0f%s", v, unit)
                  : absl::StrFormat("%.3g%s", v, unit);
}

// A dense transformer given by its parameter count alone gets the shape of
// that size at GPT-3's aspect ratio (kDefaults.hidden_per_layer) for its
// activation memory and attention FLOPs (both exist whether or not the
// request states them); layouts do not split it (ModelParallelLayers). Not
// for a mixture of experts, classical ML, another model kind, or a shape
// the request states in part (its heads, FFN or head width are kept as
// given: a shape is assumed only when nothing but the sequence length and
// vocabulary is stated).
void InferShapeFromParams(const Workload& w, Job& job) {
  TransformerShape& shape = job.workload.transformer_shape;
  const bool sequence = w.model_kind == ModelKind::kDenseTransformer ||
                        (w.model_kind == ModelKind::kUnspecified &&
                         (w.dataset_tokens > 0 || shape.sequence_length > 0));
  const bool shape_stated =
      shape.layers > 0 || shape.hidden_size > 0 || shape.attention_heads > 0 ||
      shape.ffn_hidden_size > 0 || shape.head_dim > 0 || shape.num_kv_heads > 0;
  if (!sequence || job.classical || job.on_device || w.parameter_count <= 0 ||
      shape_stated || w.num_experts > 0 ||
      (w.active_parameter_count > 0 &&
       w.active_parameter_count < w.parameter_count)) {
    return;
  }
  const double ratio = kDefaults.hidden_per_layer.value;
  const double head = kDefaults.attention_head_width.value;
  const int layers = LayersAtAssumedAspectRatio(w.parameter_count);
  shape.layers = layers;
  shape.hidden_size = static_cast<int>(ratio) * layers;
  shape.attention_heads =
      std::max(1, static_cast<int>(std::lround(shape.hidden_size / head)));
  shape.ffn_hidden_size = 4 * shape.hidden_size;
  job.shape_inferred = true;
  job.assumptions.push_back(absl::StrFormat(
      "No transformer shape given: %d layers of width %d (%d heads of %.0f, "
      "FFN 4x) assumed for %s parameters (%s), for activation memory and "
      "attention FLOPs only; tensor and pipeline parallelism, whose "
      "degrees must divide the model's heads and layers, are planned for "
      "a stated transformer_shape.",
      layers, shape.hidden_size, shape.attention_heads, head,
      ParamsLabel(w.parameter_count), kDefaults.hidden_per_layer.source));
}

// Whether the catalog has a series or accelerator of this name, planned or
// not (legacy hardware is kept only as today's: planner/legacy.h).
bool CatalogNames(const Catalog& catalog, const std::string& name) {
  const std::string norm = NormalizeName(name);
  const AskedName asked(name);
  return std::any_of(catalog.series.begin(), catalog.series.end(),
                     [&](const catalog::Series& s) {
                       return NormalizeName(s.id) == norm;
                     }) ||
         std::any_of(catalog.accelerators.begin(), catalog.accelerators.end(),
                     [&](const catalog::Accelerator& a) { return asked.Names(a); });
}

// constraints.allowed_series as the series keys its names select
// (MatchSeriesName); a name no planned family takes is kept as given (a
// legacy series the team keeps matches it), and one the catalog does not
// have at all is said, with the series there are.
void ResolveAllowedSeries(const Catalog& catalog, const Index& index,
                          Job& job) {
  job.allowed_series.clear();
  std::vector<std::string> unknown, machines;
  for (const std::string& name : job.constraints.allowed_series) {
    SeriesNamed named = MatchSeriesName(index, name);
    std::vector<std::string>& keys = named.keys;
    // "g2-standard-48", not "G2": it still allows the whole series.
    if (named.by == SeriesNamed::By::kMachineType) {
      machines.push_back(absl::StrCat("\"", name, "\""));
    }
    if (keys.empty()) {
      keys = {NormalizeName(name)};
      if (!CatalogNames(catalog, name)) {
        unknown.push_back(absl::StrCat("\"", name, "\""));
      }
    }
    job.allowed_series.insert(keys.begin(), keys.end());
  }
  if (!machines.empty()) {
    job.assumptions.push_back(absl::StrCat(
        "constraints.allowed_series: ", absl::StrJoin(machines, ", "),
        " names a machine type; it allows the machine type's whole series, "
        "and every shape of it is searched (to hold a job to one machine "
        "type, state it as current_setup.hardware with "
        "constraints.keep_current_hardware)."));
  }
  if (unknown.empty()) return;
  std::vector<std::string> series;
  for (const Family& f : index.families) {
    if (std::find(series.begin(), series.end(), f.series->id) == series.end()) {
      series.push_back(f.series->id);
    }
  }
  job.warnings.push_back(
      {ReasonCode::kNotInAllowedSet,
       absl::StrCat("constraints.allowed_series: ", absl::StrJoin(unknown, ", "),
                    " names no machine series, accelerator or machine type in "
                    "the catalog. Its series: ",
                    absl::StrJoin(series, ", "), ".")});
}

// The deadline given, none for MIN_TIME, else MIN_COST's assumed one.
// Without one, MIN_COST and BALANCED assume today's runtime when the
// current setup gives it (planner/current_evidence.h), else 30 days; with
// no work known, today's throughput is the floor whatever the deadline.
void ResolveDeadline(const Goal& g, Job& job) {
  job.deadline_given = g.deadline_hours > 0;
  job.assumed_deadline_label =
      "the 30-day deadline assumed because none was given";
  if (job.deadline_given) {
    job.deadline_hours = g.deadline_hours;
  } else if (job.objective == Objective::kMinTime) {
    job.deadline_hours = std::numeric_limits<double>::infinity();
  } else if (!AssumeTodaysRuntime(job)) {
    job.deadline_hours = kDefaults.min_cost_deadline_hours.value;
    if (job.has_dataset) {
      // BALANCED takes MIN_COST's assumed deadline: said as such.
      job.assumptions.push_back(absl::StrCat(
          "No deadline given: 30 days assumed for ",
          job.objective == Objective::kBalanced ? "BALANCED, as for MIN_COST ("
                                                : "MIN_COST (",
          kDefaults.min_cost_deadline_hours.source,
          "); a configuration that misses only this assumed deadline is "
          "kept, ranked after those that meet it."));
    }
  }
  ApplyPaceFloor(job);  // no work known: today's throughput is the floor
}

// The date the plan is for, and a warning when the catalog is older.
void ResolveAsOf(const Catalog& catalog, const std::string& as_of, Job& job) {
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
}

// Current hardware: machine type, accelerator or series, legacy included.
void ResolveCurrentMachine(const Catalog& catalog, const CurrentSetup& cur,
                           Job& job) {
  if (cur.hardware.empty()) return;
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
void ResolveCurrentSlices(const CurrentSetup& cur, Job& job) {
  job.current_slices = cur.slice_count > 0
                           ? cur.slice_count
                           : static_cast<int>(cur.slice_topologies.size());
  for (const std::string& t : cur.slice_topologies) {
    if (!SameTopology(t, cur.slice_topologies.front())) {
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
  // Identical slices given only as slice_topologies are that topology
  // times their count, as if stated so: every stage reads tpu_topology and
  // slice_count.
  if (!cur.slice_topologies.empty() && !job.mixed_current_slices) {
    if (job.current.tpu_topology.empty()) {
      job.current.tpu_topology = cur.slice_topologies.front();
    }
    if (job.current.slice_count <= 0 && cur.slice_topologies.size() > 1) {
      job.current.slice_count = job.current_slices;
    }
  }
  if (cur.mesh) {
    if (auto why = DcnProductMismatch(*cur.mesh, job.current_slices)) {
      job.warnings.push_back(
          {ReasonCode::kNotApplicable, absl::StrCat("Current mesh: ", *why)});
    }
  }
}

// The current device count: a TPU topology's chips times its slices, else
// accelerators per node times nodes. Reads the slices ResolveCurrentSlices
// normalised into job.current.
void ResolveCurrentDevices(Job& job) {
  const CurrentSetup& cur = job.current;
  int per_node = cur.accelerator_count;
  if (per_node <= 0 && job.current_machine) {
    per_node = std::max(1, job.current_machine->accelerator_count);
  }
  // Mixed slices cannot train one model together (the warning above), so
  // they are no one setup to pin, price or grow: no device count, only
  // their chips.
  if (job.mixed_current_slices) {
    job.current_devices = 0;
    for (const std::string& t : cur.slice_topologies) {
      job.current_chips += TopologyChips(t);
    }
    return;
  }
  if (!cur.tpu_topology.empty()) {
    job.current_devices = TopologyChips(cur.tpu_topology) *
                          std::max(1, cur.slice_count);
  } else if (per_node > 0) {
    job.current_devices = per_node * std::max(1, cur.node_count);
  }
  job.current_chips = job.current_devices;
}

// Reads job.workload, which ResolveWork may have given a sequence length.
void PrepareJobMemoryModel(Job& job) {
  MemoryModelInput mem;
  mem.params = job.params;
  mem.method = job.method;
  mem.precision = job.precision;
  mem.optimizer = job.workload.optimizer;
  mem.shape = job.workload.transformer_shape.layers > 0
                  ? &job.workload.transformer_shape
                  : nullptr;
  mem.embedding_bytes = job.workload.embedding_table_gib * kGiB;
  // Only where the layouts read the model (not a stated footprint).
  if (mem.embedding_bytes > 0 && !job.on_device && !job.classical &&
      job.model_size_known && job.workload.per_device_memory_gib <= 0) {
    job.assumptions.push_back(
        TableOptimizerAssumption(mem.method, mem.optimizer));
  }
  mem.lora_rank = job.workload.lora_rank;
  mem.attention = job.workload.attention;
  if (job.experts > 0) mem.ffn_streams = std::max(1, job.experts_per_token);
  mem.cnn_forward_flops = job.cnn_forward_flops;
  job.memory_model = PrepareMemoryModel(mem);
}

}  // namespace

Job MakeJob(const Catalog& catalog, const Workload& w, const Goal& g,
            const Constraints& k, const CurrentSetup& cur,
            const std::string& as_of, const Index* index) {
  Job job;
  ResolveChoices(w, g, k, cur, job);
  ResolveModelSize(w, job);
  ResolveExperts(job);  // planner/experts.h
  InferShapeFromParams(w, job);
  ResolveWork(job.workload, job);
  if (!job.batch_given && !job.classical && job.model_size_known &&
      w.per_device_memory_gib <= 0) {
    job.assumed_batch_rank_cap = job.batch_sequences;
  }
  StateEnumDefaults(w, g, job);
  StateOptimizerAndOffload(w, job);
  WarnIfShapeDisagreesWithParams(w, job);
  WarnIfNoDataset(job);
  ResolveAsOf(catalog, as_of, job);
  ResolveCurrentMachine(catalog, cur, job);
  ResolveCurrentSlices(cur, job);
  ResolveCurrentDevices(job);
  PrepareJobMemoryModel(job);
  ResolveReducer(catalog, job);  // planner/reduction_server.h
  // Today's point, then the deadline it may set (current_evidence.h).
  if (index != nullptr) {
    ResolveAllowedSeries(catalog, *index, job);
    ApplyCurrentEvidence(catalog, *index, job);
  }
  ResolveDeadline(g, job);
  return job;
}

double JobBytesPerReplica(const Job& job, int replicas) {
  if (!job.model_size_known || job.classical ||
      job.workload.per_device_memory_gib > 0) {
    return JobBytesOnOneDevice(job);
  }
  ShardingLayout dp;
  dp.data = std::max(1, replicas);
  // With gradient accumulation each replica holds one sequence (example)
  // at a time, whether the batch is stated or assumed.
  return Memory(job, dp, job.workload.recompute, dp.data).total_bytes;
}

double JobBytesWith(const Job& job, int devices, int zero_stage,
                    Recompute recompute) {
  if (!job.model_size_known || job.classical) return JobBytesOnOneDevice(job);
  ShardingLayout l;
  l.data = std::max(1, devices);
  l.zero_stage = zero_stage;
  l.fsdp = zero_stage > 0 ? l.data : 1;
  return Memory(job, l,
                recompute == Recompute::kUnspecified ? job.workload.recompute
                                                     : recompute,
                l.data)
      .total_bytes;
}

double ReplicaPerSliceBytes(const Job& job, int chips_per_slice, int slices,
                            int tensor_parallel) {
  if (!job.model_size_known || job.classical) return 0;
  const int chips = std::max(1, chips_per_slice);
  double least = std::numeric_limits<double>::infinity();
  // Tensor parallelism inside the slice shards the activations too: the
  // planner's own TP+FSDP slice layouts use its one degree (layouts.cc:
  // the policy's maximum the heads allow, for a stated shape only).
  const int max_tp = tensor_parallel > 0
                         ? tensor_parallel
                         : TensorParallelCap(job, Platform::kTpu);
  for (int tp : {1, max_tp}) {
    if (chips % tp != 0 || (tp > 1 && ModelParallelLayers(job) <= 0)) continue;
    ShardingLayout l;
    l.tensor = tp;
    l.fsdp = chips / tp;
    l.data = l.fsdp * std::max(1, slices);
    l.zero_stage = 3;
    least =
        std::min(least, Memory(job, l, Recompute::kFull,
                               job.workload.global_batch_size > 0 ? l.data : 0)
                            .total_bytes);
  }
  return least;
}

double JobBytesOnOneDevice(const Job& job) {
  if (job.workload.per_device_memory_gib > 0) {
    return job.workload.per_device_memory_gib * kGiB;
  }
  if (job.classical) {
    return job.classical_data_bytes * kClassicalMemoryFactor;
  }
  if (job.model_size_known) return Memory(job, ShardingLayout{}).total_bytes;
  return 0;
}

}  // namespace accelplan::planner::internal
