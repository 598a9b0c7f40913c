// Stage 7: a selected point -> the API's Plan (hardware, distribution,
// estimates, job specs) and the facts it used.
#include "planner/plan_assembly.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/defaults.h"
#include "planner/domains.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/job_spec.h"
#include "planner/job_work.h"
#include "planner/optimizer_offload.h"
#include "planner/pipeline_schedule.h"
#include "planner/reduction_server.h"
#include "planner/slice_replica.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

using catalog::Accelerator;
using catalog::Catalog;
using catalog::MachineType;

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
      // tf.distribute's strategies keep a whole copy of every variable on
      // each replica; sharded variables and optimizer slots (FSDP, tensor
      // parallel) are DTensor's Mesh and Layouts
      // (https://www.tensorflow.org/guide/dtensor_overview).
      if (c.layout.zero_stage > 0 || c.layout.tensor > 1) {
        return f.platform == Platform::kTpu
                   ? "tf.experimental.dtensor: variables sharded by Layouts "
                     "over a TPU Mesh (DTensor)"
                   : "tf.experimental.dtensor: variables sharded by Layouts "
                     "over a Mesh (DTensor)";
      }
      if (f.platform == Platform::kTpu) return "tf.distribute.TPUStrategy";
      if (c.hosts > 1) return "tf.distribute.MultiWorkerMirroredStrategy";
      return multi ? "tf.distribute.MirroredStrategy" : "tf.keras (single device)";
    case Framework::kPytorch:
      if (f.platform == Platform::kTpu) return "PyTorch/XLA SPMD (torch_xla)";
      if (c.layout.pipeline > 1) {
        return c.layout.zero_stage == 1
                   ? "Megatron-style tensor + pipeline parallel with ZeRO-1 "
                     "(distributed optimizer)"
                   : "Megatron-style tensor + pipeline parallel";
      }
      if (c.layout.tensor > 1) {
        // Stage 0 is a pinned workload.zero_stage (planner/zero_stage_pin.h).
        if (c.layout.zero_stage == 0) {
          return "torch.distributed.tensor parallel (DTensor)";
        }
        return c.layout.zero_stage == 3
                   ? "torch.distributed.tensor parallel (DTensor) + FSDP"
                   : absl::StrFormat(
                         "Megatron-DeepSpeed: tensor parallel with ZeRO-%d",
                         c.layout.zero_stage);
      }
      if (c.layout.optimizer_offload) {
        return absl::StrFormat(
            "DeepSpeed ZeRO-%d, offload_optimizer device cpu, "
            "DeepSpeedCPUAdam (ZeRO-Offload)",
            c.layout.zero_stage);
      }
      if (c.layout.zero_stage == 3) return "torch.distributed.fsdp (FSDP)";
      if (c.layout.zero_stage > 0) {
        return absl::StrFormat(
            "DeepSpeed, %s sharded over the data-parallel ranks (ZeRO-%d)",
            c.layout.zero_stage == 1 ? "optimizer states"
                                     : "optimizer states and gradients",
            c.layout.zero_stage);
      }
      return multi ? "torch.nn.parallel.DistributedDataParallel (DDP)"
                   : "PyTorch (single device)";
    case Framework::kXgboost:
      // One XGBoost process trains on one GPU: several GPUs, on one VM or
      // more, are one Dask worker each (dask_cuda.LocalCUDACluster on one
      // VM; XGBoost's "Example of training with Dask on GPU").
      if (f.platform == Platform::kGpu && c.devices > 1) {
        return c.hosts > 1
                   ? "xgboost.dask, tree_method=hist, device=cuda (Dask, a "
                     "worker per GPU)"
                   : "xgboost.dask on dask_cuda.LocalCUDACluster, "
                     "tree_method=hist, device=cuda (Dask, a worker per GPU)";
      }
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

namespace {

// A deep model over several VMs whose network the catalog does not know
// (CPU machine types carry no figure): its traffic between VMs is not
// timed, so the step's communication is a lower bound, and says so.
std::optional<Reason> UntimedNetwork(const Job& job, const Family& f,
                                     const Config& c) {
  const bool communicates = !job.classical && job.model_size_known &&
                            job.workload.per_device_memory_gib <= 0;
  if (!communicates || c.hosts <= 1 || f.platform == Platform::kTpu ||
      NicSharePerDevice(c.shape ? c.shape->machine : nullptr) > 0 ||
      f.inter_vm_bytes_per_s > 0) {
    return std::nullopt;
  }
  return Reason{ReasonCode::kAssumption,
                absl::StrFormat(
                    "The catalog has no network bandwidth for %s: the "
                    "gradient traffic between its %d VMs is not timed, so "
                    "the step's communication (%.0f%%) is a lower bound.",
                    c.shape && c.shape->machine ? c.shape->machine->id : f.name,
                    c.hosts, 100 * c.step.communication_fraction)};
}

// Where the plan runs follows the catalog's offerings (job_spec.h), so the
// plan's run_platform and its job specs always agree.
void ChooseWhereToRun(const Job& job, const Candidate& cand, Plan& p) {
  const Family& f = *cand.family;
  RunPlatformInput where;
  where.requested = job.constraints.run_platform;
  where.platform = f.platform;
  where.machine_type = p.hardware.machine_type;
  where.offerings =
      RunOfferingsOf(f, cand.config ? cand.config->shape : nullptr);
  where.provisioning = p.hardware.provisioning;
  where.slices = std::max(1, p.hardware.slices);
  where.vms_per_slice = std::max(1, p.hardware.hosts / where.slices);
  const RunPlatformChoice choice = ChooseRunPlatform(where);
  p.hardware.run_platform = choice.run_platform;
  if (!choice.reason.empty()) {
    p.reasons.push_back({ReasonCode::kNotOfferedOnPlatform, choice.reason});
  }
}

// Degrees multiply to the device count: data x fsdp x tensor x pipeline;
// expert parallelism splits the experts inside the FSDP group.
void SetDegrees(const Job& job, const Config& c, Distribution& d) {
  const LayoutDegrees g = DegreesOf(c.layout, c.devices);
  d.data_parallelism = g.data;
  d.fsdp_parallelism = c.layout.zero_stage >= 3 ? g.fsdp : 0;
  d.zero_stage = c.layout.zero_stage;
  d.tensor_parallelism = g.tensor;
  d.pipeline_parallelism = g.pipeline;
  if (job.expert_params > 0) {
    d.expert_parallelism = std::max(1, c.layout.expert);
  }
  if (c.layout.micro_batch > 0) {
    d.micro_batch_size = c.layout.micro_batch;
    d.micro_batches = std::max(1, c.layout.microbatches);
  }
  if (c.layout.pipeline > 1) {
    d.virtual_pipeline_stages = std::max(1, c.layout.virtual_stages);
  }
}

// The MaxText-style mesh of a configuration over slices: sharded or
// replicated inside each slice over ICI; across them over DCN, data
// parallel, or FSDP when one slice cannot hold a replica
// (planner/slice_replica.h).
void SetMultisliceMesh(const Job& job, const Family& f, const Config& c,
                       Distribution& d) {
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
  const bool fsdp_over_dcn = ShardsAcrossSlices(c.layout, per_slice);
  // Pipeline stages span slices (a reviewed proposal's layout only).
  const int stages = std::max(1, c.layout.pipeline);
  mesh.dcn_data_parallelism = fsdp_over_dcn ? 1 : c.slices / stages;
  mesh.dcn_fsdp_parallelism = fsdp_over_dcn ? c.slices : 1;
  mesh.dcn_tensor_parallelism = 1;
  mesh.dcn_pipeline_parallelism = stages;
  d.multislice = mesh;
  const bool sharded = mesh.ici_fsdp_parallelism > 1;
  const bool tensor = mesh.ici_tensor_parallelism > 1;
  const std::string topology =
      c.shape->topology ? c.shape->topology->topology : "";
  const char* inside = sharded ? (tensor ? "FSDP + tensor parallel" : "FSDP")
                               : (tensor ? "data + tensor parallel"
                                         : "data parallel");
  if (stages > 1) {
    d.notes = absl::StrFormat(
        "%d identical %s slices: %s inside each slice over ICI, %d pipeline "
        "stages across slices over DCN (dcn_pipeline_parallelism = %d, "
        "dcn_data_parallelism = %d).",
        c.slices, topology, inside, stages, stages, c.slices / stages);
    return;
  }
  if (!fsdp_over_dcn) {
    d.notes = absl::StrFormat(
        "%d identical %s slices: %s inside each slice over ICI, data "
        "parallel across slices over DCN (dcn_data_parallelism = %d).",
        c.slices, topology, inside, c.slices);
    return;
  }
  d.notes = absl::StrFormat(
      "%d identical %s slices: %s inside each slice over ICI and FSDP "
      "across slices over DCN (dcn_fsdp_parallelism = %d).",
      c.slices, topology, inside, c.slices);
  if (auto why = ReplicaExceedsSlice(job, SliceOfPoint(f, c))) {
    absl::StrAppend(&d.notes, " ", *why);
  }
}

// One more sentence in the distribution's notes.
void AppendNote(Distribution& d, const std::string& sentence) {
  absl::StrAppend(&d.notes, d.notes.empty() ? "" : " ", sentence);
}

// Where one replica's pipeline stages sit: a slice's chips on a TPU; on
// GPUs one VM's NVLink when tensor x pipeline ranks fit in it, else VMs.
const char* WhereStagesRun(const Family& f, const Config& c) {
  if (f.platform == Platform::kTpu) return "the slice's chips";
  // Megatron's rank order puts the stages outermost, so on several VMs
  // they hand over between VMs (as the estimate times them).
  return c.hosts <= 1 ? "the VM's GPUs" : "VMs";
}

// Reduction Server: the pool the point took when its step was estimated
// (planner/reduction_server.h), priced into its hourly cost; it runs as
// Vertex pool 2, so only where the plan runs on Vertex.
std::optional<ReductionServerPool> ReductionServerFor(
    const Config& c, RunPlatform run_platform) {
  if (!c.reducers || run_platform != RunPlatform::kVertexTraining) {
    return std::nullopt;
  }
  return ToPlanPool(*c.reducers);
}

// Notes for what the configuration changed to fit or to keep the batch.
void AppendLayoutNotes(const Job& job, const Family& f, const Config& c,
                       Distribution& d) {
  if (c.recompute == Recompute::kFull &&
      job.workload.recompute != Recompute::kFull) {
    AppendNote(
        d, absl::StrCat("Full activation recompute to fit memory: a second "
                        "forward pass (about ",
                        FullRecomputeFlops(job),
                        " of hardware against model FLOPs counted; its time is "
                        "in the efficiency band, not added)."));
  }
  if (c.layout.optimizer_offload) AppendNote(d, DescribeOptimizerOffload(c));
  if (c.host_required_bytes > c.memory.host_optimizer_bytes) {
    AppendNote(d,
               absl::StrFormat(
                   "Activation offload: %.1f GiB of layer inputs per "
                   "device in host memory; %.3g s of PCIe transfer per "
                   "step, overlapped with its %.3g s.",
                   Gib(c.host_required_bytes - c.memory.host_optimizer_bytes),
                   c.step.host_transfer_seconds, c.step.step_seconds_expected));
  }
  if (c.accumulation_steps > 1) {
    AppendNote(d,
               absl::StrFormat("Gradient accumulation over %d micro-steps (%d "
                               "%s%s per device each) keeps the global batch "
                               "of %.0f.",
                               c.accumulation_steps, c.layout.micro_batch,
                               job.sequence_model ? "sequence" : "example",
                               c.layout.micro_batch == 1 ? "" : "s",
                               job.batch_sequences));
  }
  if (c.layout.expert > 1) {
    AppendNote(
        d, absl::StrFormat(
               "Expert parallel %d inside each %s: %d of the %d experts per "
               "device, tokens routed to them by all-to-all; FSDP gathers only "
               "the local experts.",
               c.layout.expert,
               DomainOf(f, c, c.layout.expert * std::max(1, c.layout.tensor)),
               job.experts / c.layout.expert, job.experts));
  }
  if (c.layout.pipeline > 1) {
    // Across slices the Multislice note above places the stages.
    if (c.slices <= 1) {
      AppendNote(d, absl::StrFormat(
                        "Tensor parallel %d inside each %s, %d pipeline "
                        "stages across %s, %s data parallel over the rest.",
                        std::max(1, c.layout.tensor),
                        DomainOf(f, c, std::max(1, c.layout.tensor)),
                        c.layout.pipeline, WhereStagesRun(f, c),
                        c.layout.zero_stage == 3 ? "FSDP (ZeRO-3)" : "ZeRO-1"));
    }
    const std::string schedule = DescribeSchedule(job, c.layout);
    if (!schedule.empty()) absl::StrAppend(&d.notes, " ", schedule);
  }
  if (const std::string sub_block = SubBlockNote(f, c); !sub_block.empty()) {
    AppendNote(d, sub_block);
  }
  if (job.workload.micro_batch_size > 0 &&
      c.layout.micro_batch != job.workload.micro_batch_size &&
      c.layout.micro_batch > 0) {
    absl::StrAppend(&d.notes, " The requested micro_batch_size of ",
                    job.workload.micro_batch_size,
                    " is more than a data-parallel rank's ",
                    c.layout.micro_batch, " sequences of the global batch; ",
                    c.layout.micro_batch, " used.");
  }
}

// Reads p.hardware.run_platform, so runs after ChooseWhereToRun.
void FillDistribution(const Job& job, const Family& f, const Config& c,
                      Plan& p) {
  Distribution& d = p.distribution;
  d.strategy = c.strategy;
  SetDegrees(job, c, d);
  d.optimizer_offload = c.layout.optimizer_offload;
  if (c.slices > 1) SetMultisliceMesh(job, f, c, d);
  const bool horovod = job.constraints.framework_agnostic_distribution &&
                       f.platform != Platform::kTpu;
  if (horovod) {
    d.horovod = true;
    d.strategy = Strategy::kHorovod;
  }
  if (auto rs = ReductionServerFor(c, p.hardware.run_platform)) {
    d.reduction_server = *rs;
    AppendNote(
        d,
        absl::StrFormat(
            "Reduction Server (pool 2): %d x %s, %.0f Gbps for the %.0f Gbps "
            "the workers send (their network egress, or their GPUs' own "
            "link where slower; Vertex AI sizing), %s/h included "
            "in the hourly cost; it takes the gradient all-reduce to %.2f s "
            "per step.",
            rs->replica_count, rs->machine_type, rs->reducer_bandwidth_gbps,
            rs->worker_bandwidth_gbps,
            FormatUsd(c.provisioning == Provisioning::kSpot &&
                              c.reducers->spot_known
                          ? c.reducers->hourly_spot
                          : c.reducers->hourly_on_demand),
            c.step.overlappable_comm_seconds + c.step.critical_comm_seconds));
  }
  d.framework_api = FrameworkApi(job, f, c, horovod);
  AppendLayoutNotes(job, f, c, d);
}

bool FinitePositive(double v) { return v > 0 && std::isfinite(v); }

}  // namespace

std::string DescribeMemoryModel(const Job& job, const Config& c) {
  if (!job.model_size_known || job.classical ||
      job.workload.per_device_memory_gib > 0 ||
      c.memory.activation_assumption[0] == '\0') {
    return "";
  }
  return absl::StrCat("Memory per device: ", c.memory.method_assumption, "; ",
                      c.memory.activation_assumption, ".");
}

namespace {

void FillMemoryEstimate(const Job& job, const Config& c, Estimates& e) {
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
  m.host_offload_gib = Gib(c.host_required_bytes);
  m.host_usable_gib = Gib(c.host_usable_bytes);
}

// Each figure comes with a *_known flag: a zero or infinite number means
// "not computed", never a real zero.
void FillTimeAndCostEstimates(const Job& job, const Config& c, Estimates& e) {
  e.flops_known = job.has_dataset && FinitePositive(job.training_flops);
  e.training_flops = job.training_flops;
  // Classical ML has no training step (its time is boosting rounds,
  // planner/tree_boosting.h); its nominal step is not reported.
  e.step_known = !job.classical && FinitePositive(c.step.step_seconds_expected);
  e.step_time_seconds = c.step.step_seconds_expected;
  e.hours_known = job.has_dataset && FinitePositive(c.hours.expected) &&
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
  e.mfu_known = FinitePositive(c.peak_flops) && c.mfu.high > 0;
  e.mfu_low = c.mfu.low;
  e.mfu_high = c.mfu.high;
  e.communication_fraction = c.step.communication_fraction;
  e.peak_tflops_per_device = c.peak_flops / 1e12;
  // tokens_per_second counts tokens: only a sequence model has them.
  e.throughput_known = e.step_known && job.sequence_model &&
                       FinitePositive(c.tokens_per_second);
  e.tokens_per_second = c.tokens_per_second;
  if (e.throughput_known && c.price_known) {
    e.cost_per_million_tokens_usd = c.hourly / (c.tokens_per_second * 3600) * 1e6;
  }
}

// The Vertex AI and GKE specs, with the accelerator labels the catalog
// gives for each.
JobSpec MakeJobSpec(const Job& job, const Family& f, const Plan& p) {
  JobSpecInput in;
  in.hardware = p.hardware;
  in.distribution = p.distribution;
  in.is_tpu = f.platform == Platform::kTpu;
  in.framework = job.framework;
  if (f.accelerator) {
    auto v = f.accelerator->labels.find("VERTEX_ACCELERATOR_TYPE");
    if (v != f.accelerator->labels.end()) in.vertex_accelerator_type = v->second;
    auto g = f.accelerator->labels.find(in.is_tpu ? "GKE_TPU_ACCELERATOR"
                                                  : "GKE_ACCELERATOR");
    if (g != f.accelerator->labels.end()) in.gke_accelerator_label = g->second;
  }
  return BuildJobSpec(in);
}

}  // namespace

Plan MakePlan(const Catalog& /*catalog*/, const Job& job, const Candidate& cand,
              bool with_job_spec) {
  Plan p;
  const Family& f = *cand.family;
  p.hardware = MakeHardware(cand);
  ChooseWhereToRun(job, cand, p);
  if (!cand.config) return p;
  const Config& c = *cand.config;

  FillDistribution(job, f, c, p);
  FillMemoryEstimate(job, c, p.estimates);
  FillTimeAndCostEstimates(job, c, p.estimates);
  if (auto why = ImplausibleEstimate(job, c)) p.reasons.push_back(*why);
  if (auto why = UntimedNetwork(job, f, c)) p.reasons.push_back(*why);

  if (with_job_spec && f.platform != Platform::kEdge) {
    p.job_spec = MakeJobSpec(job, f, p);
  }
  return p;
}

}  // namespace accelplan::planner::internal
