#include "planner/job_spec.h"

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"

namespace accelplan::planner {
namespace {

// A strict RFC 8259 syntax check, enough to prove config_json parses.
class JsonChecker {
 public:
  explicit JsonChecker(std::string_view text) : s_(text) {}
  bool Valid() {
    SkipWs();
    if (!Value()) return false;
    SkipWs();
    return i_ == s_.size();
  }

 private:
  void SkipWs() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
      ++i_;
  }
  bool Eat(char c) {
    SkipWs();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool Value() {
    SkipWs();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') return Object();
    if (c == '[') return Array();
    if (c == '"') return String();
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c)))
      return Number();
    for (const std::string_view lit : {"true", "false", "null"}) {
      if (s_.substr(i_, lit.size()) == lit) {
        i_ += lit.size();
        return true;
      }
    }
    return false;
  }
  bool Object() {
    ++i_;
    if (Eat('}')) return true;
    do {
      SkipWs();
      if (!String() || !Eat(':') || !Value()) return false;
    } while (Eat(','));
    return Eat('}');
  }
  bool Array() {
    ++i_;
    if (Eat(']')) return true;
    do {
      if (!Value()) return false;
    } while (Eat(','));
    return Eat(']');
  }
  bool String() {
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    ++i_;
    while (i_ < s_.size()) {
      const unsigned char c = s_[i_++];
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c == '\\') {
        if (i_ >= s_.size()) return false;
        const char e = s_[i_++];
        if (e == 'u') {
          for (int k = 0; k < 4; ++k) {
            if (i_ >= s_.size() ||
                !std::isxdigit(static_cast<unsigned char>(s_[i_++])))
              return false;
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) ==
                   std::string_view::npos) {
          return false;
        }
      }
    }
    return false;
  }
  bool Number() {
    const size_t start = i_;
    if (s_[i_] == '-') ++i_;
    while (i_ < s_.size() &&
           (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' ||
            s_[i_] == 'e' || s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
      ++i_;
    return i_ > start;
  }

  std::string_view s_;
  size_t i_ = 0;
};

bool ValidJson(std::string_view text) { return JsonChecker(text).Valid(); }

int Count(std::string_view haystack, std::string_view needle) {
  int n = 0;
  for (size_t pos = haystack.find(needle); pos != std::string_view::npos;
       pos = haystack.find(needle, pos + needle.size()))
    ++n;
  return n;
}

TEST(JsonCheckerTest, RejectsBrokenJson) {
  EXPECT_TRUE(ValidJson(R"({"a":[{},{"b":"x\"y"}],"c":1})"));
  EXPECT_FALSE(ValidJson(R"({"a":[{},]})"));
  EXPECT_FALSE(ValidJson(R"({"a":"unterminated})"));
  EXPECT_FALSE(ValidJson("{\"a\":\"raw\nnewline\"}"));
}

TEST(JobSpecTest, EscapesJsonStrings) {
  std::string out;
  AppendJsonString("a\"b\\c\nd\x01", &out);
  EXPECT_EQ(out, R"("a\"b\\c\nd\u0001")");
  EXPECT_TRUE(ValidJson(out));
}

JobSpecInput GpuInput(int hosts) {
  JobSpecInput in;
  in.hardware.platform = Platform::kGpu;
  in.hardware.machine_type = "a3-highgpu-8g";
  in.hardware.accelerators_per_host = 8;
  in.hardware.hosts = hosts;
  in.hardware.total_accelerators = 8 * hosts;
  in.hardware.provisioning = Provisioning::kSpot;
  in.vertex_accelerator_type = "NVIDIA_H100_80GB";
  in.gke_accelerator_label = "nvidia-h100-80gb";
  return in;
}

// catalog-facts §4.1/§4.2/§9.2: pool 0 chief (1 replica), pool 1 workers,
// pool 2 Reduction Server with Google's reductionserver image, no GPUs.
TEST(JobSpecTest, GpuMultiHostWithReductionServerHasThreePools) {
  JobSpecInput in = GpuInput(4);
  in.distribution.strategy = Strategy::kDataParallel;
  ReductionServerPool rs;
  rs.machine_type = "n1-highcpu-16";
  rs.replica_count = 13;
  in.distribution.reduction_server = rs;

  const JobSpec spec = BuildJobSpec(in);
  ASSERT_TRUE(spec.vertex.has_value());
  const VertexJobSpec& v = *spec.vertex;
  ASSERT_EQ(v.worker_pool_specs.size(), 3u);
  EXPECT_EQ(v.worker_pool_specs[0].role, "chief");
  EXPECT_EQ(v.worker_pool_specs[0].replica_count, 1);
  EXPECT_EQ(v.worker_pool_specs[0].machine_spec.accelerator_type,
            "NVIDIA_H100_80GB");
  EXPECT_EQ(v.worker_pool_specs[0].machine_spec.accelerator_count, 8);
  EXPECT_EQ(v.worker_pool_specs[1].role, "workers");
  EXPECT_EQ(v.worker_pool_specs[1].replica_count, 3);
  EXPECT_EQ(v.worker_pool_specs[2].role, "reduction_server");
  EXPECT_EQ(v.worker_pool_specs[2].replica_count, 13);
  EXPECT_EQ(v.worker_pool_specs[2].image_uri, kReductionServerImage);
  EXPECT_TRUE(v.worker_pool_specs[2].machine_spec.accelerator_type.empty());
  EXPECT_EQ(v.scheduling_strategy, "SPOT");

  EXPECT_TRUE(ValidJson(v.config_json)) << v.config_json;
  EXPECT_EQ(v.config_json.find("{}"), std::string::npos) << v.config_json;
  EXPECT_EQ(Count(v.config_json, "\"machineSpec\""), 3);
  EXPECT_NE(v.config_json.find("\"replicaCount\":3"), std::string::npos);
  EXPECT_NE(
      v.config_json.find(
          R"("machineSpec":{"machineType":"n1-highcpu-16"},"replicaCount":13)"),
      std::string::npos)
      << v.config_json;
  EXPECT_NE(v.config_json.find(R"("scheduling":{"strategy":"SPOT",)"),
            std::string::npos);
  for (const char* snake : {"worker_pool", "machine_spec", "replica_count",
                            "image_uri", "accelerator_"}) {
    EXPECT_EQ(v.config_json.find(snake), std::string::npos) << snake;
  }

  ASSERT_TRUE(spec.gke.has_value());
  const GkeJobSpec& g = *spec.gke;
  EXPECT_EQ(g.node_selectors.at("cloud.google.com/gke-accelerator"),
            "nvidia-h100-80gb");
  EXPECT_EQ(g.node_selectors.at("cloud.google.com/gke-spot"), "true");
  EXPECT_EQ(g.resource_name, "nvidia.com/gpu");
  EXPECT_EQ(g.resource_per_pod, 8);
  EXPECT_EQ(g.pods_per_job, 4);
  EXPECT_EQ(g.jobset_replicas, 1);
  EXPECT_NE(g.manifest_yaml.find("nvidia.com/gpu: 8"), std::string::npos);
  EXPECT_NE(g.manifest_yaml.find("parallelism: 4"), std::string::npos);
}

TEST(JobSpecTest, SingleHostGpuHasOnlyTheChiefPool) {
  JobSpecInput in = GpuInput(1);
  in.hardware.provisioning = Provisioning::kOnDemand;
  const JobSpec spec = BuildJobSpec(in);
  ASSERT_TRUE(spec.vertex.has_value());
  EXPECT_EQ(spec.vertex->worker_pool_specs.size(), 1u);
  EXPECT_EQ(spec.vertex->scheduling_strategy, "STANDARD");
  EXPECT_TRUE(ValidJson(spec.vertex->config_json));
  EXPECT_EQ(Count(spec.vertex->config_json, "\"machineSpec\""), 1);
  EXPECT_EQ(spec.gke->node_selectors.count("cloud.google.com/gke-spot"), 0u);
}

// Pools skipped before a Reduction Server pool are written as {} (§4.1).
TEST(JobSpecTest, SkippedWorkerPoolIsEmptyObjectBeforeReductionServer) {
  JobSpecInput in = GpuInput(1);
  in.hardware.provisioning = Provisioning::kFlexStart;
  ReductionServerPool rs;
  rs.machine_type = "n2-highcpu-16";
  rs.replica_count = 2;
  in.distribution.reduction_server = rs;
  const JobSpec spec = BuildJobSpec(in);
  ASSERT_TRUE(spec.vertex.has_value());
  ASSERT_EQ(spec.vertex->worker_pool_specs.size(), 3u);
  EXPECT_EQ(spec.vertex->worker_pool_specs[1].role, "skipped");
  EXPECT_TRUE(ValidJson(spec.vertex->config_json));
  EXPECT_NE(spec.vertex->config_json.find("},{},{"), std::string::npos)
      << spec.vertex->config_json;
  EXPECT_EQ(spec.vertex->scheduling_strategy, "FLEX_START");
  EXPECT_NE(spec.note.find("flex-start"), std::string::npos);
}

JobSpecInput TpuInput(int slices) {
  JobSpecInput in;
  in.is_tpu = true;
  in.hardware.platform = Platform::kTpu;
  in.hardware.machine_type = "ct6e-standard-4t";
  in.hardware.accelerators_per_host = 4;
  in.hardware.tpu_topology = "4x4";
  in.hardware.slices = slices;
  in.hardware.hosts = 4 * slices;
  in.hardware.total_accelerators = 16 * slices;
  in.hardware.provisioning = Provisioning::kOnDemand;
  in.gke_accelerator_label = "tpu-v6e-slice";
  return in;
}

// catalog-facts §9.2: a Vertex TPU job is a single pool with one replica,
// machineType + tpuTopology; §9.3 GKE selectors and google.com/tpu per VM.
TEST(JobSpecTest, TpuSingleSliceIsOnePoolOneReplicaWithTopology) {
  const JobSpec spec = BuildJobSpec(TpuInput(1));
  ASSERT_TRUE(spec.vertex.has_value());
  ASSERT_EQ(spec.vertex->worker_pool_specs.size(), 1u);
  const WorkerPoolSpec& pool = spec.vertex->worker_pool_specs[0];
  EXPECT_EQ(pool.replica_count, 1);
  EXPECT_EQ(pool.machine_spec.machine_type, "ct6e-standard-4t");
  EXPECT_EQ(pool.machine_spec.tpu_topology, "4x4");
  EXPECT_TRUE(pool.machine_spec.accelerator_type.empty());
  EXPECT_TRUE(ValidJson(spec.vertex->config_json));
  EXPECT_NE(spec.vertex->config_json.find(
                R"({"machineType":"ct6e-standard-4t","tpuTopology":"4x4"})"),
            std::string::npos)
      << spec.vertex->config_json;
  EXPECT_NE(spec.vertex->config_json.find("\"replicaCount\":1"),
            std::string::npos);

  ASSERT_TRUE(spec.gke.has_value());
  EXPECT_EQ(spec.gke->node_selectors.at("cloud.google.com/gke-tpu-accelerator"),
            "tpu-v6e-slice");
  EXPECT_EQ(spec.gke->node_selectors.at("cloud.google.com/gke-tpu-topology"),
            "4x4");
  EXPECT_EQ(spec.gke->resource_name, "google.com/tpu");
  EXPECT_EQ(spec.gke->resource_per_pod, 4);
  EXPECT_EQ(spec.gke->pods_per_job, 4);
  EXPECT_EQ(spec.gke->jobset_replicas, 1);
  EXPECT_TRUE(spec.note.empty()) << spec.note;
}

// catalog-facts §9.2–9.3: no Multislice on Vertex; GKE runs one JobSet with
// replicas = slices and parallelism = completions = VMs per slice.
TEST(JobSpecTest, TpuMultisliceIsGkeOnlyWithOneJobPerSlice) {
  const JobSpec spec = BuildJobSpec(TpuInput(2));
  EXPECT_FALSE(spec.vertex.has_value());
  EXPECT_NE(spec.note.find("Multislice"), std::string::npos);
  ASSERT_TRUE(spec.gke.has_value());
  const GkeJobSpec& g = *spec.gke;
  EXPECT_EQ(g.jobset_replicas, 2);
  EXPECT_EQ(g.pods_per_job, 4);
  EXPECT_EQ(g.resource_per_pod, 4);
  const std::string& y = g.manifest_yaml;
  EXPECT_NE(y.find("kind: JobSet"), std::string::npos);
  EXPECT_EQ(Count(y, "replicatedJobs:"), 1);
  EXPECT_NE(y.find("      replicas: 2\n"), std::string::npos) << y;
  EXPECT_NE(y.find("          parallelism: 4\n"), std::string::npos) << y;
  EXPECT_NE(y.find("          completions: 4\n"), std::string::npos) << y;
  EXPECT_NE(y.find("cloud.google.com/gke-tpu-topology: \"4x4\""),
            std::string::npos);
  EXPECT_NE(y.find("exclusive-topology: \"cloud.google.com/gke-nodepool\""),
            std::string::npos);
  EXPECT_NE(y.find("google.com/tpu: 4"), std::string::npos);
  EXPECT_EQ(y.find('\t'), std::string::npos);  // YAML forbids tab indents
}

TEST(JobSpecTest, SpotOnMultiHostTpuHasNoVertexForm) {
  JobSpecInput in = TpuInput(1);
  in.hardware.provisioning = Provisioning::kSpot;
  const JobSpec spec = BuildJobSpec(in);
  EXPECT_FALSE(spec.vertex.has_value());
  EXPECT_NE(spec.note.find("Spot"), std::string::npos);
  EXPECT_EQ(spec.gke->node_selectors.at("cloud.google.com/gke-spot"), "true");
}

TEST(JobSpecTest, CpuJobHasNoAcceleratorAndEdgeHasNoJob) {
  JobSpecInput cpu;
  cpu.hardware.platform = Platform::kCpu;
  cpu.hardware.machine_type = "n2-standard-16";
  cpu.hardware.hosts = 1;
  const JobSpec spec = BuildJobSpec(cpu);
  ASSERT_TRUE(spec.vertex.has_value());
  EXPECT_EQ(spec.vertex->config_json.find("accelerator"), std::string::npos);
  EXPECT_TRUE(ValidJson(spec.vertex->config_json));
  EXPECT_EQ(spec.gke->node_selectors.at("node.kubernetes.io/instance-type"),
            "n2-standard-16");
  EXPECT_TRUE(spec.gke->resource_name.empty());

  JobSpecInput edge;
  edge.hardware.platform = Platform::kEdge;
  const JobSpec none = BuildJobSpec(edge);
  EXPECT_FALSE(none.vertex.has_value());
  EXPECT_FALSE(none.gke.has_value());
  EXPECT_FALSE(none.note.empty());
}

TEST(JobSpecTest, ImageUriIsEscapedInJsonAndYaml) {
  JobSpecInput in = GpuInput(2);
  in.image_uri_placeholder = "repo/img:\"tag\"";
  const JobSpec spec = BuildJobSpec(in);
  EXPECT_TRUE(ValidJson(spec.vertex->config_json));
  EXPECT_NE(spec.gke->manifest_yaml.find(R"(image: "repo/img:\"tag\"")"),
            std::string::npos);
}

// ------------------------------------------------------------ issue 19

TEST(JobSpecTest, SpotVertexJobRestartsAndJobSetRestartsMore) {
  const JobSpec spot = BuildJobSpec(GpuInput(2));
  ASSERT_TRUE(spot.vertex.has_value());
  EXPECT_NE(spot.vertex->config_json.find(
                R"("scheduling":{"strategy":"SPOT","restartJobOnWorkerRestart":true,"disableRetries":false})"),
            std::string::npos)
      << spot.vertex->config_json;
  EXPECT_TRUE(ValidJson(spot.vertex->config_json));
  EXPECT_NE(spot.gke->manifest_yaml.find("failurePolicy: {maxRestarts: 10}"),
            std::string::npos);
  EXPECT_NE(spot.gke->manifest_yaml.find("key: cloud.google.com/gke-spot"),
            std::string::npos);
  EXPECT_NE(spot.note.find("checkpoint"), std::string::npos);

  JobSpecInput on_demand = GpuInput(2);
  on_demand.hardware.provisioning = Provisioning::kOnDemand;
  const JobSpec od = BuildJobSpec(on_demand);
  EXPECT_EQ(od.vertex->config_json.find("restartJobOnWorkerRestart"),
            std::string::npos);
  EXPECT_NE(od.gke->manifest_yaml.find("failurePolicy: {maxRestarts: 3}"),
            std::string::npos);
}

TEST(JobSpecTest, RunPlatformDecidesWhichSpecsExist) {
  JobSpecInput in = GpuInput(1);
  in.hardware.run_platform = RunPlatform::kGke;
  const JobSpec gke = BuildJobSpec(in);
  EXPECT_FALSE(gke.vertex.has_value());
  EXPECT_TRUE(gke.gke.has_value());

  in.hardware.run_platform = RunPlatform::kVertexTraining;
  const JobSpec vertex = BuildJobSpec(in);
  EXPECT_TRUE(vertex.vertex.has_value());
  EXPECT_TRUE(vertex.gke.has_value());  // the GKE equivalent

  in.hardware.run_platform = RunPlatform::kComputeEngine;
  const JobSpec ce = BuildJobSpec(in);
  EXPECT_FALSE(ce.vertex.has_value());
  EXPECT_FALSE(ce.gke.has_value());
  EXPECT_NE(ce.note.find("Compute Engine"), std::string::npos);
  EXPECT_NE(ce.note.find("a3-highgpu-8g"), std::string::npos);
}

// On Compute Engine a TPU slice is one TPU resource, and Multislice must be
// requested as queued resources with one node per slice (Cloud TPU "Manage
// TPU resources": "If you use Multislice, you must use queued resources").
TEST(JobSpecTest, ComputeEngineTpusAreSlicesAndMultisliceIsQueued) {
  JobSpecInput one = TpuInput(1);
  one.hardware.run_platform = RunPlatform::kComputeEngine;
  const std::string single = BuildJobSpec(one).note;
  EXPECT_NE(single.find("one TPU resource"), std::string::npos) << single;
  EXPECT_EQ(single.find("--node-count"), std::string::npos) << single;
  JobSpecInput two = TpuInput(2);
  two.hardware.run_platform = RunPlatform::kComputeEngine;
  const std::string multi = BuildJobSpec(two).note;
  EXPECT_NE(multi.find("queued-resources create --node-count=2"), std::string::npos)
      << multi;
}

TEST(JobSpecTest, TorchrunJobSetHasCommandPeerEnvAndRequests) {
  JobSpecInput in = GpuInput(4);
  in.framework = Framework::kPytorch;
  in.hardware.provisioning = Provisioning::kOnDemand;
  const std::string y = BuildJobSpec(in).gke->manifest_yaml;
  EXPECT_NE(y.find("completionMode: Indexed"), std::string::npos);
  EXPECT_NE(y.find("enableDNSHostnames: true"), std::string::npos);
  EXPECT_NE(y.find("torchrun train.py"), std::string::npos) << y;
  EXPECT_NE(y.find("REPLACE"), std::string::npos);
  const std::string host = "accelplan-training-workers-0-0.accelplan-training";
  EXPECT_NE(y.find("- {name: PET_RDZV_ENDPOINT, value: \"" + host + ":29500\"}"),
            std::string::npos)
      << y;
  EXPECT_NE(y.find("- {name: PET_NNODES, value: \"4\"}"),
            std::string::npos);
  EXPECT_NE(y.find("- {name: PET_NPROC_PER_NODE, value: \"8\"}"),
            std::string::npos);
  EXPECT_NE(y.find("- {name: PET_NODE_RANK, valueFrom: {fieldRef:"),
            std::string::npos);
  EXPECT_NE(y.find("batch.kubernetes.io/job-completion-index"),
            std::string::npos);
  EXPECT_NE(y.find("requests: {nvidia.com/gpu: 8}"),
            std::string::npos)
      << y;
  EXPECT_EQ(y.find("JAX_COORDINATOR_ADDRESS"), std::string::npos);
  // a3-highgpu is not one of the GPUDirect stacks documented here.
  EXPECT_EQ(y.find("networking.gke.io/interfaces"), std::string::npos);
}

TEST(JobSpecTest, JaxJobSetHasCoordinatorAndProcessCount) {
  JobSpecInput in = TpuInput(1);
  in.framework = Framework::kJax;
  const std::string y = BuildJobSpec(in).gke->manifest_yaml;
  EXPECT_NE(y.find("- {name: JAX_COORDINATOR_ADDRESS, value: "
                   "\"accelplan-training-slice-job-0-0.accelplan-training:1234\"}"),
            std::string::npos)
      << y;
  EXPECT_NE(y.find("- {name: JAX_NUM_PROCESSES, value: \"4\"}"),
            std::string::npos);
  EXPECT_NE(y.find("- {name: JAX_PROCESS_ID, valueFrom:"), std::string::npos);
  EXPECT_NE(y.find("jax.distributed.initialize()"), std::string::npos);
  EXPECT_NE(y.find("requests: {google.com/tpu: 4}"),
            std::string::npos);

  // Multislice: slice id from the JobSet job index.
  JobSpecInput ms = TpuInput(2);
  ms.framework = Framework::kJax;
  const std::string m = BuildJobSpec(ms).gke->manifest_yaml;
  EXPECT_NE(m.find("- {name: JAX_NUM_PROCESSES, value: \"8\"}"),
            std::string::npos);
  EXPECT_NE(m.find("MEGASCALE_NUM_SLICES"), std::string::npos);
  EXPECT_NE(m.find("jobset.sigs.k8s.io/job-index"), std::string::npos);
  EXPECT_EQ(m.find("JAX_PROCESS_ID"), std::string::npos) << m;
}

JobSpecInput GpuMachine(const char* machine, const char* label, int hosts) {
  JobSpecInput in = GpuInput(hosts);
  in.hardware.machine_type = machine;
  in.gke_accelerator_label = label;
  in.hardware.provisioning = Provisioning::kReservation;
  in.framework = Framework::kPytorch;
  return in;
}

TEST(JobSpecTest, GpuDirectRdmaOnMultiNodeA3UltraAndA4) {
  for (const char* m : {"a3-ultragpu-8g", "a4-highgpu-8g"}) {
    const std::string y =
        BuildJobSpec(GpuMachine(m, "nvidia-b200", 2)).gke->manifest_yaml;
    EXPECT_NE(y.find("networking.gke.io/default-interface: \"eth0\""),
              std::string::npos)
        << m;
    EXPECT_NE(y.find(R"({\"interfaceName\":\"eth1\",\"network\":\"gvnic-1\"})"),
              std::string::npos)
        << y;
    EXPECT_NE(y.find(R"({\"interfaceName\":\"eth9\",\"network\":\"rdma-7\"})"),
              std::string::npos);
    EXPECT_NE(y.find("source /usr/local/gib/scripts/set_nccl_env.sh"),
              std::string::npos);
    EXPECT_NE(y.find("hostPath: {path: \"/home/kubernetes/bin/gib\"}"), std::string::npos);
    EXPECT_NE(y.find("mountPath: \"/usr/local/gib\"}"), std::string::npos);
    EXPECT_NE(y.find("# GPUDirect RDMA"), std::string::npos);
    EXPECT_NE(y.find("https://cloud.google.com/"), std::string::npos);
    JobSpecInput on_vertex = GpuMachine(m, "nvidia-b200", 2);
    on_vertex.hardware.run_platform = RunPlatform::kVertexTraining;
    EXPECT_NE(BuildJobSpec(on_vertex).note.find("set_nccl_env.sh"),
              std::string::npos)
        << m;
    // One node: no inter-node traffic, no GPUDirect networking.
    const std::string one =
        BuildJobSpec(GpuMachine(m, "nvidia-b200", 1)).gke->manifest_yaml;
    EXPECT_EQ(one.find("networking.gke.io"), std::string::npos) << m;
  }
}

TEST(JobSpecTest, GpuDirectTcpxoOnMultiNodeA3Mega) {
  const std::string y =
      BuildJobSpec(GpuMachine("a3-megagpu-8g", "nvidia-h100-mega-80gb", 2))
          .gke->manifest_yaml;
  EXPECT_NE(y.find("devices.gke.io/container.tcpxo-daemon"), std::string::npos);
  EXPECT_NE(y.find(R"({\"interfaceName\":\"eth8\",\"network\":\"vpc8\"})"),
            std::string::npos)
      << y;
  EXPECT_NE(y.find("- name: \"tcpxo-daemon\""), std::string::npos);
  EXPECT_NE(y.find("restartPolicy: Always"), std::string::npos);
  EXPECT_NE(y.find("NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY"), std::string::npos);
  EXPECT_NE(y.find("nccl-env-profile.sh"), std::string::npos);
  EXPECT_NE(y.find("gpu-bandwidth-gpudirect-tcpx"), std::string::npos);
}

catalog::Offering Row(catalog::RunPlatform rp, catalog::Provisioning p,
                      bool available) {
  catalog::Offering o;
  o.run_platform = rp;
  o.provisioning = p;
  o.available = available;
  o.source_id = "SRC";
  return o;
}

using CRP = catalog::RunPlatform;
using CProv = catalog::Provisioning;

RunPlatformInput Where(const std::vector<catalog::Offering>* offerings) {
  RunPlatformInput in;
  in.platform = Platform::kGpu;
  in.machine_type = "m-1";
  in.offerings = offerings;
  in.provisioning = Provisioning::kOnDemand;
  return in;
}

TEST(RunPlatformTest, VertexOnlyWhereTheCatalogListsIt) {
  const std::vector<catalog::Offering> listed = {
      Row(CRP::kVertexTraining, CProv::kAny, true),
      Row(CRP::kGke, CProv::kAny, true)};
  EXPECT_EQ(ChooseRunPlatform(Where(&listed)).run_platform,
            RunPlatform::kVertexTraining);
  EXPECT_TRUE(ChooseRunPlatform(Where(&listed)).reason.empty());

  // No Vertex row: unknown is not an offer.
  const std::vector<catalog::Offering> gke_only = {
      Row(CRP::kGke, CProv::kAny, true)};
  RunPlatformChoice c = ChooseRunPlatform(Where(&gke_only));
  EXPECT_EQ(c.run_platform, RunPlatform::kGke);
  EXPECT_NE(c.reason.find("does not list m-1"), std::string::npos) << c.reason;

  // Documented absence on Vertex.
  const std::vector<catalog::Offering> absent = {
      Row(CRP::kVertexTraining, CProv::kAny, false),
      Row(CRP::kGke, CProv::kAny, true)};
  c = ChooseRunPlatform(Where(&absent));
  EXPECT_EQ(c.run_platform, RunPlatform::kGke);
  EXPECT_NE(c.reason.find("does not offer m-1 [SRC]"), std::string::npos)
      << c.reason;

  // Neither Vertex nor GKE: Compute Engine.
  const std::vector<catalog::Offering> ce_only = {
      Row(CRP::kComputeEngine, CProv::kOnDemand, true)};
  c = ChooseRunPlatform(Where(&ce_only));
  EXPECT_EQ(c.run_platform, RunPlatform::kComputeEngine);
  EXPECT_NE(c.reason.find("Compute Engine"), std::string::npos);
}

TEST(RunPlatformTest, ProvisioningRowDecidesOverAny) {
  const std::vector<catalog::Offering> rows = {
      Row(CRP::kVertexTraining, CProv::kAny, true),
      Row(CRP::kVertexTraining, CProv::kOnDemand, false),
      Row(CRP::kVertexTraining, CProv::kSpot, true),
      Row(CRP::kGke, CProv::kAny, true)};
  RunPlatformInput in = Where(&rows);
  RunPlatformChoice c = ChooseRunPlatform(in);
  EXPECT_EQ(c.run_platform, RunPlatform::kGke);
  EXPECT_NE(c.reason.find("with on-demand"), std::string::npos) << c.reason;
  in.provisioning = Provisioning::kSpot;
  EXPECT_EQ(ChooseRunPlatform(in).run_platform, RunPlatform::kVertexTraining);
  in.provisioning = Provisioning::kReservation;  // falls back to ANY
  EXPECT_EQ(ChooseRunPlatform(in).run_platform, RunPlatform::kVertexTraining);
  EXPECT_TRUE(Offers(rows, CRP::kVertexTraining, Provisioning::kUnspecified));
  EXPECT_FALSE(Offers(rows, CRP::kComputeEngine, Provisioning::kUnspecified));
}

TEST(RunPlatformTest, TpuShapesVertexCannotRun) {
  const std::vector<catalog::Offering> rows = {
      Row(CRP::kVertexTraining, CProv::kAny, true),
      Row(CRP::kGke, CProv::kAny, true)};
  RunPlatformInput in = Where(&rows);
  in.platform = Platform::kTpu;
  in.slices = 2;
  in.vms_per_slice = 4;
  RunPlatformChoice c = ChooseRunPlatform(in);
  EXPECT_EQ(c.run_platform, RunPlatform::kGke);
  EXPECT_NE(c.reason.find("Multislice"), std::string::npos);

  in.slices = 1;
  in.provisioning = Provisioning::kSpot;
  c = ChooseRunPlatform(in);
  EXPECT_EQ(c.run_platform, RunPlatform::kGke);
  EXPECT_NE(c.reason.find("Spot"), std::string::npos);

  in.vms_per_slice = 1;  // single-host Spot slices are fine
  EXPECT_EQ(ChooseRunPlatform(in).run_platform, RunPlatform::kVertexTraining);
}

TEST(RunPlatformTest, RequestedPlatformWinsUnlessVertexCannotRunIt) {
  const std::vector<catalog::Offering> rows = {
      Row(CRP::kVertexTraining, CProv::kAny, true),
      Row(CRP::kGke, CProv::kAny, true)};
  RunPlatformInput in = Where(&rows);
  in.requested = RunPlatform::kGke;
  EXPECT_EQ(ChooseRunPlatform(in).run_platform, RunPlatform::kGke);
  EXPECT_TRUE(ChooseRunPlatform(in).reason.empty());
  in.requested = RunPlatform::kComputeEngine;
  EXPECT_EQ(ChooseRunPlatform(in).run_platform, RunPlatform::kComputeEngine);

  in.requested = RunPlatform::kVertexTraining;
  in.platform = Platform::kTpu;
  in.slices = 3;
  const RunPlatformChoice c = ChooseRunPlatform(in);
  EXPECT_EQ(c.run_platform, RunPlatform::kGke);
  EXPECT_NE(c.reason.find("was requested"), std::string::npos) << c.reason;
}

}  // namespace
}  // namespace accelplan::planner
