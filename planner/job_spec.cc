#include "planner/job_spec.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "planner/jobset_yaml.h"

namespace accelplan::planner {
namespace {

constexpr char kGpuAcceleratorLabel[] = "cloud.google.com/gke-accelerator";
constexpr char kTpuAcceleratorLabel[] = "cloud.google.com/gke-tpu-accelerator";
constexpr char kTpuTopologyLabel[] = "cloud.google.com/gke-tpu-topology";
constexpr char kInstanceTypeLabel[] = "node.kubernetes.io/instance-type";
constexpr char kSpotLabel[] = "cloud.google.com/gke-spot";

struct Shape {
  int slices = 1;
  int vms_per_slice = 1;
  int accelerators_per_host = 0;
};

// hardware.hosts counts every VM across slices; total_accelerators wins when
// it is consistent because it cannot be misread per slice.
Shape ShapeOf(const Hardware& hw) {
  Shape shape;
  shape.slices = std::max(1, hw.slices);
  shape.accelerators_per_host = std::max(0, hw.accelerators_per_host);
  const int per_slice_chips = hw.total_accelerators / shape.slices;
  if (shape.accelerators_per_host > 0 && per_slice_chips > 0 &&
      per_slice_chips % shape.accelerators_per_host == 0) {
    shape.vms_per_slice = per_slice_chips / shape.accelerators_per_host;
  } else if (hw.hosts > 0) {
    shape.vms_per_slice = std::max(1, hw.hosts / shape.slices);
  }
  return shape;
}

void AppendNote(std::string_view note, std::string* out) {
  if (!out->empty()) out->append(" ");
  out->append(note);
}

void AppendPoolJson(const WorkerPoolSpec& pool, std::string* json) {
  if (pool.replica_count <= 0) {
    json->append("{}");
    return;
  }
  const MachineSpec& m = pool.machine_spec;
  json->append("{\"machineSpec\":{\"machineType\":");
  AppendJsonString(m.machine_type, json);
  if (!m.accelerator_type.empty()) {
    json->append(",\"acceleratorType\":");
    AppendJsonString(m.accelerator_type, json);
    absl::StrAppend(json, ",\"acceleratorCount\":", m.accelerator_count);
  }
  if (!m.tpu_topology.empty()) {
    json->append(",\"tpuTopology\":");
    AppendJsonString(m.tpu_topology, json);
  }
  absl::StrAppend(json, "},\"replicaCount\":", pool.replica_count,
                  ",\"containerSpec\":{\"imageUri\":");
  AppendJsonString(pool.image_uri, json);
  json->append("}}");
}

std::string VertexConfigJson(const VertexJobSpec& spec) {
  std::string json = "{\"workerPoolSpecs\":[";
  for (size_t i = 0; i < spec.worker_pool_specs.size(); ++i) {
    if (i > 0) json.append(",");
    AppendPoolJson(spec.worker_pool_specs[i], &json);
  }
  json.append("],\"scheduling\":{\"strategy\":");
  AppendJsonString(spec.scheduling_strategy, &json);
  if (spec.scheduling_strategy == "SPOT") {
    // A preempted Spot worker restarts the whole job (from its checkpoint)
    // instead of failing it; retries stay enabled.
    json.append(",\"restartJobOnWorkerRestart\":true,\"disableRetries\":false");
  }
  json.append("}}");
  return json;
}

WorkerPoolSpec AcceleratorPool(const JobSpecInput& in, int replicas,
                               const char* role) {
  WorkerPoolSpec pool;
  pool.machine_spec.machine_type = in.hardware.machine_type;
  if (!in.vertex_accelerator_type.empty() &&
      in.hardware.accelerators_per_host > 0) {
    pool.machine_spec.accelerator_type = in.vertex_accelerator_type;
    pool.machine_spec.accelerator_count = in.hardware.accelerators_per_host;
  }
  pool.replica_count = replicas;
  pool.image_uri = in.image_uri_placeholder;
  pool.role = role;
  return pool;
}

VertexJobSpec BuildVertexGpuOrCpu(const JobSpecInput& in, const Shape& shape,
                                  std::string* note) {
  VertexJobSpec spec;
  const int hosts = shape.slices * shape.vms_per_slice;
  spec.worker_pool_specs.push_back(AcceleratorPool(in, 1, "chief"));
  if (hosts > 1) {
    spec.worker_pool_specs.push_back(AcceleratorPool(in, hosts - 1, "workers"));
  }
  const auto& rs = in.distribution.reduction_server;
  if (rs.has_value() && rs->replica_count > 0) {
    WorkerPoolSpec skipped;
    skipped.role = "skipped";
    while (spec.worker_pool_specs.size() < 2) {
      spec.worker_pool_specs.push_back(skipped);
    }
    WorkerPoolSpec reducers;
    reducers.machine_spec.machine_type = rs->machine_type;
    reducers.replica_count = rs->replica_count;
    reducers.image_uri = rs->image_uri.empty()
                             ? std::string(kReductionServerImage)
                             : rs->image_uri;
    reducers.role = "reduction_server";
    spec.worker_pool_specs.push_back(std::move(reducers));
    if (in.hardware.provisioning == Provisioning::kFlexStart) {
      AppendNote(
          "DWS flex-start on Vertex AI requires the same machine "
          "configuration in every worker pool; the CPU Reduction Server pool "
          "likely breaks that rule (inferred, not stated by Google).",
          note);
    }
  }
  spec.scheduling_strategy = VertexSchedulingStrategy(in.hardware.provisioning);
  spec.config_json = VertexConfigJson(spec);
  return spec;
}

VertexJobSpec BuildVertexTpu(const JobSpecInput& in, const Shape& shape) {
  VertexJobSpec spec;
  WorkerPoolSpec pool;
  pool.machine_spec.machine_type = in.hardware.machine_type;
  pool.machine_spec.tpu_topology = in.hardware.tpu_topology;
  if (!in.vertex_accelerator_type.empty()) {
    pool.machine_spec.accelerator_type = in.vertex_accelerator_type;
    pool.machine_spec.accelerator_count =
        shape.accelerators_per_host * shape.vms_per_slice;
  }
  pool.replica_count = 1;
  pool.image_uri = in.image_uri_placeholder;
  pool.role = "chief";
  spec.worker_pool_specs.push_back(std::move(pool));
  spec.scheduling_strategy = VertexSchedulingStrategy(in.hardware.provisioning);
  spec.config_json = VertexConfigJson(spec);
  return spec;
}

GkeJobSpec BuildGke(const JobSpecInput& in, const Shape& shape) {
  GkeJobSpec gke;
  const bool has_accelerator =
      !in.gke_accelerator_label.empty() && shape.accelerators_per_host > 0;
  if (in.is_tpu) {
    gke.node_selectors[kTpuAcceleratorLabel] = in.gke_accelerator_label;
    if (!in.hardware.tpu_topology.empty()) {
      gke.node_selectors[kTpuTopologyLabel] = in.hardware.tpu_topology;
    }
    gke.resource_name = "google.com/tpu";
    gke.resource_per_pod = shape.accelerators_per_host;
    gke.pods_per_job = shape.vms_per_slice;
    gke.jobset_replicas = shape.slices;
  } else {
    if (has_accelerator) {
      gke.node_selectors[kGpuAcceleratorLabel] = in.gke_accelerator_label;
      gke.resource_name = "nvidia.com/gpu";
      gke.resource_per_pod = shape.accelerators_per_host;
    } else if (!in.hardware.machine_type.empty()) {
      gke.node_selectors[kInstanceTypeLabel] = in.hardware.machine_type;
    }
    gke.pods_per_job = shape.slices * shape.vms_per_slice;
    gke.jobset_replicas = 1;
  }
  if (in.hardware.provisioning == Provisioning::kSpot) {
    gke.node_selectors[kSpotLabel] = "true";
  }
  gke.manifest_yaml = internal::JobSetYaml(in, gke);
  return gke;
}

// How to create the hardware on Compute Engine. A TPU slice is one TPU
// resource whatever its VMs, and Multislice must be requested as queued
// resources, one node per slice (Cloud TPU "Manage TPU resources": "If you
// use Multislice, you must use queued resources").
std::string ComputeEngineNote(const JobSpecInput& input, const Shape& shape) {
  const int vms = shape.slices * shape.vms_per_slice;
  std::string how;
  if (!input.is_tpu) {
    how = absl::StrCat("Create ", vms, " VM(s) of type ",
                       input.hardware.machine_type,
                       " (gcloud compute instances create)");
  } else if (shape.slices > 1) {
    how = absl::StrCat(
        "Request the ", shape.slices, " slices as one queued resource "
        "(gcloud compute tpus queued-resources create --node-count=",
        shape.slices, ", accelerator type and topology above; Multislice "
        "must use queued resources), ", vms, " TPU VMs in all,");
  } else {
    how = absl::StrCat(
        "Create the slice as one TPU resource (gcloud compute tpus "
        "queued-resources create, or tpu-vm create; accelerator type and "
        "topology above), its ", vms, " TPU VM(s) with it,");
  }
  return absl::StrCat("Compute Engine: no Vertex AI or GKE job spec. ", how,
                      " and start the trainer on each VM.");
}

}  // namespace

const char* VertexSchedulingStrategy(Provisioning provisioning) {
  switch (provisioning) {
    case Provisioning::kSpot:
      return "SPOT";
    case Provisioning::kFlexStart:
      return "FLEX_START";
    default:
      return "STANDARD";
  }
}

JobSpec BuildJobSpec(const JobSpecInput& input) {
  JobSpec spec;
  const Platform platform = input.hardware.platform;
  if (platform == Platform::kEdge) {
    spec.note =
        "On-device deployment: no cloud training job. Convert the model "
        "(fully int8-quantized TFLite) and deploy it to the device.";
    return spec;
  }
  const Shape shape = ShapeOf(input.hardware);
  const RunPlatform rp = input.hardware.run_platform;
  if (rp == RunPlatform::kComputeEngine) {
    AppendNote(ComputeEngineNote(input, shape), &spec.note);
    return spec;
  }
  if (rp == RunPlatform::kVertexTraining || rp == RunPlatform::kUnspecified) {
    if (input.is_tpu) {
      if (shape.slices > 1) {
        AppendNote(absl::StrCat("Vertex AI custom training has no Multislice "
                                "(a TPU job is one pool with one replica, "
                                "i.e. one slice): run the ",
                                shape.slices,
                                " slices on GKE with the JobSet manifest."),
                   &spec.note);
      } else if (input.hardware.provisioning == Provisioning::kSpot &&
                 shape.vms_per_slice > 1) {
        AppendNote(
            "Vertex AI does not support Spot VMs with multi-host TPU slices "
            "(TPU Pods): run it on GKE with Spot node pools, or on-demand on "
            "Vertex AI.",
            &spec.note);
      } else {
        spec.vertex = BuildVertexTpu(input, shape);
      }
    } else {
      spec.vertex = BuildVertexGpuOrCpu(input, shape, &spec.note);
    }
  }
  const std::string& machine = input.hardware.machine_type;
  if (spec.vertex.has_value() && shape.slices * shape.vms_per_slice > 1 &&
      (machine == "a3-ultragpu-8g" || machine == "a4-highgpu-8g" ||
       machine == "a4x-highgpu-4g")) {
    AppendNote(
        "GPUDirect RDMA on Vertex AI: start the training command with "
        "`source /usr/local/gib/scripts/set_nccl_env.sh` [AP-compute].",
        &spec.note);
  }
  if (spec.vertex.has_value() &&
      input.hardware.provisioning == Provisioning::kSpot) {
    AppendNote(
        "Spot: Vertex AI restarts the job after a preemption "
        "(restartJobOnWorkerRestart) and GKE restarts the JobSet "
        "(failurePolicy.maxRestarts); the trainer must resume from its last "
        "checkpoint.",
        &spec.note);
  }
  if (input.hardware.provisioning == Provisioning::kReservation) {
    AppendNote(
        "Reservation: add machineSpec.reservationAffinity on Vertex AI, or "
        "target the reserved node pool on GKE.",
        &spec.note);
  }
  spec.gke = BuildGke(input, shape);
  return spec;
}

}  // namespace accelplan::planner
