#include "planner/job_spec.h"

#include <cctype>
#include <string>
#include <string_view>

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
  EXPECT_NE(v.config_json.find(R"("scheduling":{"strategy":"SPOT"})"),
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
  EXPECT_NE(y.find("exclusive-topology: cloud.google.com/gke-nodepool"),
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

}  // namespace
}  // namespace accelplan::planner
