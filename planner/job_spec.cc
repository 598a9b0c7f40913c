#include "planner/job_spec.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

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

void AppendYamlMap(const std::map<std::string, std::string>& map,
                   std::string_view indent, std::string* yaml) {
  for (const auto& [key, value] : map) {
    yaml->append(indent.data(), indent.size());
    absl::StrAppend(yaml, key, ": ");
    AppendJsonString(value, yaml);  // a JSON string is a YAML scalar
    yaml->append("\n");
  }
}

std::string JobSetYaml(const JobSpecInput& in, const GkeJobSpec& gke) {
  std::string yaml;
  absl::StrAppend(&yaml,
                  "apiVersion: jobset.x-k8s.io/v1alpha2\n"
                  "kind: JobSet\n"
                  "metadata:\n"
                  "  name: accelplan-training\n");
  if (in.is_tpu) {
    // One child Job per node pool, i.e. per slice.
    absl::StrAppend(&yaml,
                    "  annotations:\n"
                    "    alpha.jobset.sigs.k8s.io/exclusive-topology: "
                    "cloud.google.com/gke-nodepool\n");
  }
  absl::StrAppend(&yaml,
                  "spec:\n"
                  "  failurePolicy:\n"
                  "    maxRestarts: 0\n"
                  "  replicatedJobs:\n"
                  "    - name: ",
                  in.is_tpu ? "slice-job" : "workers", "\n",
                  "      replicas: ", gke.jobset_replicas, "\n",
                  "      template:\n"
                  "        spec:\n"
                  "          parallelism: ",
                  gke.pods_per_job, "\n",
                  "          completions: ", gke.pods_per_job, "\n",
                  "          backoffLimit: 0\n"
                  "          template:\n"
                  "            spec:\n"
                  "              restartPolicy: Never\n");
  if (!gke.node_selectors.empty()) {
    yaml.append("              nodeSelector:\n");
    AppendYamlMap(gke.node_selectors, "                ", &yaml);
  }
  if (in.is_tpu) {
    yaml.append(
        "              tolerations:\n"
        "                - key: google.com/tpu\n"
        "                  operator: Exists\n"
        "                  effect: NoSchedule\n");
  }
  yaml.append(
      "              containers:\n"
      "                - name: trainer\n"
      "                  image: ");
  AppendJsonString(in.image_uri_placeholder, &yaml);
  yaml.append("\n");
  if (!gke.resource_name.empty() && gke.resource_per_pod > 0) {
    absl::StrAppend(&yaml,
                    "                  resources:\n"
                    "                    limits:\n"
                    "                      ",
                    gke.resource_name, ": ", gke.resource_per_pod, "\n");
  }
  return yaml;
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
  gke.manifest_yaml = JobSetYaml(in, gke);
  return gke;
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

void AppendJsonString(std::string_view value, std::string* out) {
  out->push_back('"');
  for (const char c : value) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x",
                        static_cast<unsigned>(static_cast<unsigned char>(c)));
          out->append(buf);
        } else {
          out->push_back(c);  // UTF-8 bytes pass through unchanged
        }
    }
  }
  out->push_back('"');
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
  if (input.is_tpu) {
    if (shape.slices > 1) {
      AppendNote(absl::StrCat("Vertex AI custom training has no Multislice "
                              "(a TPU job is one pool with one replica, i.e. "
                              "one slice): run the ",
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
