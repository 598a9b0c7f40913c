// The GKE JobSet manifest of a job spec (job_spec.h): one replicatedJob of
// Indexed Jobs, peer-discovery env from the JobSet headless service,
// resource requests, restarts, and GPUDirect networking where GKE documents
// it for multi-node GPU jobs.
#include "planner/jobset_yaml.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

constexpr char kJobSetName[] = "accelplan-training";
constexpr int kJaxCoordinatorPort = 1234;
constexpr int kTorchRendezvousPort = 29500;
constexpr char kCompletionIndexField[] =
    "metadata.annotations['batch.kubernetes.io/job-completion-index']";
constexpr char kJobIndexField[] =
    "metadata.annotations['jobset.sigs.k8s.io/job-index']";

// GPUDirect stacks GKE documents for multi-node GPU jobs.
enum class GpuDirect { kNone, kTcpxo, kRdma };

// A3 Mega: GPUDirect-TCPXO; A3 Ultra and A4: GPUDirect RDMA.
GpuDirect GpuDirectFor(const JobSpecInput& in, int pods) {
  if (in.is_tpu || pods < 2) return GpuDirect::kNone;
  const std::string& m = in.hardware.machine_type;
  if (m == "a3-megagpu-8g") return GpuDirect::kTcpxo;
  if (m == "a3-ultragpu-8g" || m == "a4-highgpu-8g") return GpuDirect::kRdma;
  return GpuDirect::kNone;
}

struct EnvVar {
  std::string name;
  std::string value;       // literal value, or
  std::string field_path;  // a downward-API fieldRef
};

bool IsSpotLike(Provisioning p) { return p == Provisioning::kSpot; }

// Block style for the structure, flow style ({...}, [...]) for the leaves,
// so the manifest stays small in BASIC responses. Strings are written as
// JSON strings, which are valid YAML double-quoted scalars.
class Yaml {
 public:
  void Line(int indent, std::string_view text) {
    out_.append(static_cast<size_t>(indent), ' ');
    out_.append(text.data(), text.size());
    out_.push_back('\n');
  }
  // key: "value"
  void Str(int indent, std::string_view key, std::string_view value) {
    out_.append(static_cast<size_t>(indent), ' ');
    out_.append(key.data(), key.size());
    out_.append(": ");
    AppendJsonString(value, &out_);
    out_.push_back('\n');
  }
  void Int(int indent, std::string_view key, long long value) {
    Line(indent, absl::StrCat(std::string(key), ": ", value));
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// ["a", "b"]
std::string FlowList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out.append(", ");
    AppendJsonString(items[i], &out);
  }
  out.append("]");
  return out;
}

std::string Quoted(std::string_view value) {
  std::string out;
  AppendJsonString(value, &out);
  return out;
}

std::string CoordinatorHost(const std::string& replicated_job) {
  // JobSet pod hostnames: <jobset>-<replicatedJob>-<job index>-<pod index>,
  // resolvable as <hostname>.<subdomain> through the headless service.
  return absl::StrCat(kJobSetName, "-", replicated_job, "-0-0.", kJobSetName);
}

std::vector<EnvVar> PeerEnv(const JobSpecInput& in, const GkeJobSpec& gke,
                            const std::string& replicated_job) {
  std::vector<EnvVar> env;
  const int pods = gke.jobset_replicas * gke.pods_per_job;
  const bool single_job = gke.jobset_replicas == 1;
  const std::string host = CoordinatorHost(replicated_job);
  // Every launcher: who coordinates, how many processes, which one this is
  // (the Indexed Job's completion index; per slice in Multislice).
  env.push_back({"COORDINATOR_HOST", host, ""});
  env.push_back({"NUM_PROCESSES", absl::StrCat(pods), ""});
  if (single_job) env.push_back({"PROCESS_ID", "", kCompletionIndexField});
  if (in.framework == Framework::kJax || in.is_tpu) {
    // jax.distributed.initialize() reads JAX_COORDINATOR_ADDRESS; the count
    // and id are passed from these (TPU VMs detect all three themselves).
    env.push_back({"JAX_COORDINATOR_ADDRESS",
                   absl::StrCat(host, ":", kJaxCoordinatorPort), ""});
    env.push_back({"JAX_NUM_PROCESSES", absl::StrCat(pods), ""});
    if (single_job) env.push_back({"JAX_PROCESS_ID", "", kCompletionIndexField});
  }
  if (in.is_tpu && gke.jobset_replicas > 1) {
    // Multislice: one child Job per slice; the slice id is the job index.
    env.push_back({"MEGASCALE_COORDINATOR_ADDRESS", host, ""});
    env.push_back({"MEGASCALE_NUM_SLICES", absl::StrCat(gke.jobset_replicas), ""});
    env.push_back({"MEGASCALE_SLICE_ID", "", kJobIndexField});
  }
  if (in.framework == Framework::kPytorch) {
    // torchrun reads each option from PET_<OPTION>. The static rendezvous
    // takes the node rank as given, with pod 0 hosting the store at the
    // endpoint.
    env.push_back({"PET_NNODES", absl::StrCat(pods), ""});
    if (single_job) env.push_back({"PET_NODE_RANK", "", kCompletionIndexField});
    env.push_back({"PET_NPROC_PER_NODE",
                   absl::StrCat(std::max(1, gke.resource_per_pod)), ""});
    env.push_back({"PET_RDZV_BACKEND", "static", ""});
    env.push_back({"PET_RDZV_ENDPOINT",
                   absl::StrCat(host, ":", kTorchRendezvousPort), ""});
  }
  return env;
}

// The container command: a placeholder the team replaces with its trainer,
// after the setup GPUDirect needs.
std::string TrainerCommand(const JobSpecInput& in, GpuDirect gpudirect) {
  std::string cmd;
  if (gpudirect == GpuDirect::kRdma) {
    cmd.append("source /usr/local/gib/scripts/set_nccl_env.sh\n");
  } else if (gpudirect == GpuDirect::kTcpxo) {
    cmd.append(
        "NCCL_LIB_DIR=/usr/local/nvidia/lib64 source "
        "/usr/local/nvidia/lib64/nccl-env-profile.sh\n");
  }
  switch (in.framework) {
    case Framework::kPytorch:
      cmd.append("torchrun train.py  # REPLACE; torchrun reads PET_*\n");
      break;
    case Framework::kJax:
      cmd.append(in.is_tpu
                     ? "python3 train.py  # REPLACE; jax.distributed."
                       "initialize() needs no arguments on TPU VMs\n"
                     : "python3 train.py  # REPLACE; jax.distributed."
                       "initialize(num_processes=JAX_NUM_PROCESSES, "
                       "process_id=JAX_PROCESS_ID)\n");
      break;
    default:
      cmd.append("python3 train.py  # REPLACE\n");
  }
  return cmd;
}

int MaxRestarts(Provisioning p) {
  // A restart re-creates every pod, so the job must resume from its last
  // checkpoint. Spot VMs are preempted routinely: allow many restarts.
  return IsSpotLike(p) ? 10 : 3;
}

std::string InterfacesJson(GpuDirect gpudirect) {
  std::string json = "[{\"interfaceName\":\"eth0\",\"network\":\"default\"}";
  if (gpudirect == GpuDirect::kTcpxo) {
    for (int i = 1; i <= 8; ++i) {
      absl::StrAppend(&json, ",{\"interfaceName\":\"eth", i,
                      "\",\"network\":\"vpc", i, "\"}");
    }
  } else {
    json.append(",{\"interfaceName\":\"eth1\",\"network\":\"gvnic-1\"}");
    for (int i = 0; i < 8; ++i) {
      absl::StrAppend(&json, ",{\"interfaceName\":\"eth", i + 2,
                      "\",\"network\":\"rdma-", i, "\"}");
    }
  }
  json.append("]");
  return json;
}

struct Volume {
  std::string name, mount, host_path;  // host_path empty: emptyDir in memory
};

void AppendVolumes(Yaml& y, const std::vector<Volume>& trainer,
                   const std::vector<Volume>& sidecar_only) {
  if (trainer.empty() && sidecar_only.empty()) return;
  y.Line(14, "volumes:");
  for (const auto* list : {&trainer, &sidecar_only}) {
    for (const Volume& v : *list) {
      y.Line(16, v.host_path.empty()
                     ? absl::StrCat("- {name: ", v.name,
                                    ", emptyDir: {medium: Memory}}")
                     : absl::StrCat("- {name: ", v.name, ", hostPath: {path: ",
                                    Quoted(v.host_path), "}}"));
    }
  }
}

void AppendMounts(Yaml& y, int indent, const std::vector<Volume>& volumes) {
  if (volumes.empty()) return;
  y.Line(indent, "volumeMounts:");
  for (const Volume& v : volumes) {
    y.Line(indent + 2, absl::StrCat("- {name: ", v.name, ", mountPath: ",
                                    Quoted(v.mount), "}"));
  }
}

// The manifest down to the pod template: the JobSet's metadata, restarts,
// headless service, coordinator, and the Indexed Job of `pods_per_job` pods
// replicated `jobset_replicas` times.
void AppendJobSetHead(Yaml& y, const JobSpecInput& in, const GkeJobSpec& gke,
                      const std::string& rjob, int pods, GpuDirect gpudirect) {
  if (gpudirect == GpuDirect::kTcpxo) {
    y.Line(0,
           "# GPUDirect-TCPXO (A3 Mega): https://cloud.google.com/"
           "kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-tcpx "
           "(networks vpc1..vpc8, nccl-tcpxo-installer)");
  } else if (gpudirect == GpuDirect::kRdma) {
    y.Line(0,
           "# GPUDirect RDMA (A3 Ultra, A4): https://cloud.google.com/"
           "ai-hypercomputer/docs/create/gke-ai-hypercompute-custom "
           "(networks gvnic-1, rdma-0..rdma-7, nccl-rdma-installer)");
  }
  y.Line(0, "apiVersion: jobset.x-k8s.io/v1alpha2");
  y.Line(0, "kind: JobSet");
  y.Line(0, "metadata:");
  y.Str(2, "name", kJobSetName);
  if (in.is_tpu) {
    // One child Job per node pool, i.e. per slice.
    y.Line(2, "annotations:");
    y.Str(4, "alpha.jobset.sigs.k8s.io/exclusive-topology",
          "cloud.google.com/gke-nodepool");
  }
  y.Line(0, "spec:");
  y.Line(2, absl::StrCat("failurePolicy: {maxRestarts: ",
                         MaxRestarts(in.hardware.provisioning), "}"));
  y.Line(2, absl::StrCat("network: {enableDNSHostnames: true, subdomain: ",
                         Quoted(kJobSetName), "}"));
  if (pods > 1) {
    // Pod 0 of job 0 coordinates; JobSet also publishes its address as the
    // annotation jobset.sigs.k8s.io/coordinator (the env below spells it out).
    y.Line(2, absl::StrCat("coordinator: {replicatedJob: ", Quoted(rjob),
                           ", jobIndex: 0, podIndex: 0}"));
  }
  y.Line(2, "replicatedJobs:");
  y.Str(4, "- name", rjob);
  y.Int(6, "replicas", gke.jobset_replicas);
  y.Line(6, "template:");
  y.Line(8, "spec:");
  y.Int(10, "parallelism", gke.pods_per_job);
  y.Int(10, "completions", gke.pods_per_job);
  y.Line(10, "completionMode: Indexed");
  y.Line(10, "backoffLimit: 0");
  y.Line(10, "template:");
}

// GPUDirect pods: the annotations that attach the extra NICs (and, for
// TCPXO, the devices the receive-datapath sidecar needs).
void AppendGpuDirectPodMetadata(Yaml& y, GpuDirect gpudirect) {
  if (gpudirect == GpuDirect::kNone) return;
  y.Line(12, "metadata:");
  y.Line(14, "annotations:");
  if (gpudirect == GpuDirect::kTcpxo) {
    std::string devices;
    for (int i = 0; i < 8; ++i) absl::StrAppend(&devices, "- path: /dev/nvidia", i, "\n");
    devices.append(
        "- path: /dev/nvidiactl\n- path: /dev/nvidia-uvm\n"
        "- path: /dev/dmabuf_import_helper\n");
    y.Str(16, "devices.gke.io/container.tcpxo-daemon", devices);
  }
  y.Str(16, "networking.gke.io/default-interface", "eth0");
  y.Str(16, "networking.gke.io/interfaces", InterfacesJson(gpudirect));
}

// Whether the pods request NVIDIA GPUs (and so tolerate the GPU taint and
// get a memory-backed /dev/shm).
bool RequestsGpus(const JobSpecInput& in, const GkeJobSpec& gke) {
  return !in.is_tpu && gke.resource_name == "nvidia.com/gpu";
}

// Where the pods may run: the node selectors, and tolerations for the TPU,
// GPU and Spot taints GKE puts on those node pools.
void AppendPodPlacement(Yaml& y, const JobSpecInput& in,
                        const GkeJobSpec& gke) {
  y.Line(14, "restartPolicy: Never");
  if (!gke.node_selectors.empty()) {
    y.Line(14, "nodeSelector:");
    for (const auto& [key, value] : gke.node_selectors) y.Str(16, key, value);
  }
  const bool spot = IsSpotLike(in.hardware.provisioning);
  const bool gpu = RequestsGpus(in, gke);
  if (in.is_tpu || gpu || spot) {
    y.Line(14, "tolerations:");
    if (in.is_tpu || gpu) {
      y.Line(16, absl::StrCat("- {key: ", in.is_tpu ? "google.com/tpu" : "nvidia.com/gpu",
                              ", operator: Exists, effect: NoSchedule}"));
    }
    if (spot) {
      y.Line(16,
             "- {key: cloud.google.com/gke-spot, operator: Equal, "
             "value: \"true\", effect: NoSchedule}");
    }
  }
}

struct PodVolumes {
  std::vector<Volume> trainer;         // mounted by the trainer
  std::vector<Volume> sidecar_only;    // mounted by the TCPXO sidecar only
  std::vector<Volume> sidecar_mounts;  // everything the sidecar mounts
};

// Volumes: GPUDirect's host libraries and devices, and a memory-backed
// /dev/shm for NCCL and data loaders on GPU pods (the default is 64 MiB).
PodVolumes PodVolumesFor(bool gpu, GpuDirect gpudirect) {
  PodVolumes v;
  if (gpu) v.trainer.push_back({"dshm", "/dev/shm", ""});
  if (gpudirect == GpuDirect::kRdma) {
    v.trainer.push_back(
        {"library-dir-host", "/usr/local/nvidia", "/home/kubernetes/bin/nvidia"});
    v.trainer.push_back({"gib", "/usr/local/gib", "/home/kubernetes/bin/gib"});
  } else if (gpudirect == GpuDirect::kTcpxo) {
    v.trainer.push_back(
        {"nvidia", "/usr/local/nvidia/lib64", "/home/kubernetes/bin/nvidia/lib64"});
    v.trainer.push_back(
        {"aperture-devices", "/dev/aperture_devices", "/dev/aperture_devices"});
    v.sidecar_only.push_back({"sys", "/hostsysfs", "/sys"});
    v.sidecar_only.push_back({"proc-sys", "/hostprocsysfs", "/proc/sys"});
  }
  v.sidecar_mounts = v.sidecar_only;
  for (const Volume& t : v.trainer) {
    if (t.name == "nvidia") v.sidecar_mounts.insert(v.sidecar_mounts.begin(), t);
  }
  return v;
}

// The receive-datapath manager runs beside the trainer as a native sidecar
// (an init container that keeps running), so the pod completes when the
// trainer exits, as Google's GPUDirect-TCPXO best practices advise
// (GoogleCloudPlatform/container-engine-accelerators,
// gpudirect-tcpxo/best-practice.md).
void AppendTcpxoSidecar(Yaml& y, const std::vector<Volume>& sidecar_mounts) {
  y.Line(14, "initContainers:");
  y.Str(16, "- name", "tcpxo-daemon");
  y.Str(18, "image",
        "us-docker.pkg.dev/gce-ai-infra/gpudirect-tcpxo/"
        "tcpgpudmarxd-dev:v1.0.9");
  y.Line(18, "restartPolicy: Always");
  y.Line(18, absl::StrCat("command: ", FlowList({"/bin/sh", "-c"})));
  y.Line(18, absl::StrCat("args: ",
                          FlowList({"/fts/entrypoint_rxdm_container.sh "
                                    "--num_hops=2 --num_nics=8 --uid= "
                                    "--alsologtostderr"})));
  y.Line(18, "securityContext: {capabilities: {add: [NET_ADMIN, NET_BIND_SERVICE]}}");
  y.Line(18, "env: [{name: LD_LIBRARY_PATH, value: \"/usr/local/nvidia/lib64\"}]");
  AppendMounts(y, 18, sidecar_mounts);
}

// The trainer's env: peer discovery when there is more than one pod, then
// what the GPUDirect NCCL plugins read.
std::vector<EnvVar> TrainerEnv(const JobSpecInput& in, const GkeJobSpec& gke,
                               const std::string& rjob, int pods,
                               GpuDirect gpudirect) {
  std::vector<EnvVar> env;
  if (pods > 1) env = PeerEnv(in, gke, rjob);
  if (gpudirect != GpuDirect::kNone) {
    env.push_back({"LD_LIBRARY_PATH", "/usr/local/nvidia/lib64", ""});
  }
  if (gpudirect == GpuDirect::kTcpxo) {
    env.push_back({"NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY", "/dev/aperture_devices", ""});
  }
  return env;
}

void AppendEnv(Yaml& y, const std::vector<EnvVar>& env) {
  if (env.empty()) return;
  y.Line(18, "env:");
  for (const EnvVar& e : env) {
    y.Line(20, e.field_path.empty()
                   ? absl::StrCat("- {name: ", e.name, ", value: ",
                                  Quoted(e.value), "}")
                   : absl::StrCat("- {name: ", e.name,
                                  ", valueFrom: {fieldRef: {fieldPath: ",
                                  Quoted(e.field_path), "}}}"));
  }
}

// Accelerators as extended resources (requests must equal limits); CPU VMs
// claim the VM, less one vCPU for the node's system pods.
void AppendTrainerResources(Yaml& y, const JobSpecInput& in,
                            const GkeJobSpec& gke) {
  if (!gke.resource_name.empty() && gke.resource_per_pod > 0) {
    const std::string r =
        absl::StrCat("{", gke.resource_name, ": ", gke.resource_per_pod, "}");
    y.Line(18, "resources:");
    y.Line(20, absl::StrCat("requests: ", r));
    y.Line(20, absl::StrCat("limits: ", r));
  } else if (in.hardware.vcpus_per_host > 1) {
    y.Line(18, absl::StrCat("resources: {requests: {cpu: \"",
                            in.hardware.vcpus_per_host - 1, "\"}}"));
  }
}

// The trainer container: the placeholder command, the coordinator's port,
// env, resources and mounts.
void AppendTrainer(Yaml& y, const JobSpecInput& in, const GkeJobSpec& gke,
                   const std::string& rjob, int pods, GpuDirect gpudirect,
                   const std::vector<Volume>& trainer_volumes) {
  y.Line(14, "containers:");
  y.Str(16, "- name", "trainer");
  y.Str(18, "image", in.image_uri_placeholder);
  y.Line(18, absl::StrCat("command: ", FlowList({"bash", "-c"})));
  y.Line(18, absl::StrCat("args: ", FlowList({TrainerCommand(in, gpudirect)})));
  if (pods > 1) {
    const bool torch = in.framework == Framework::kPytorch;
    y.Line(18, absl::StrCat("ports: [{containerPort: ",
                            torch ? kTorchRendezvousPort : kJaxCoordinatorPort,
                            "}]"));
  }
  AppendEnv(y, TrainerEnv(in, gke, rjob, pods, gpudirect));
  AppendTrainerResources(y, in, gke);
  AppendMounts(y, 18, trainer_volumes);
}

}  // namespace

std::string JobSetYaml(const JobSpecInput& in, const GkeJobSpec& gke) {
  const std::string rjob = in.is_tpu ? "slice-job" : "workers";
  const int pods = gke.jobset_replicas * gke.pods_per_job;
  const GpuDirect gpudirect = GpuDirectFor(in, pods);
  Yaml y;
  AppendJobSetHead(y, in, gke, rjob, pods, gpudirect);
  AppendGpuDirectPodMetadata(y, gpudirect);
  y.Line(12, "spec:");
  AppendPodPlacement(y, in, gke);
  const PodVolumes volumes = PodVolumesFor(RequestsGpus(in, gke), gpudirect);
  if (gpudirect == GpuDirect::kTcpxo) {
    AppendTcpxoSidecar(y, volumes.sidecar_mounts);
  }
  AppendTrainer(y, in, gke, rjob, pods, gpudirect, volumes.trainer);
  AppendVolumes(y, volumes.trainer, volumes.sidecar_only);
  return y.Take();
}

}  // namespace accelplan::planner::internal
