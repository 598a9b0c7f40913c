// Ready-to-submit job specs for a chosen plan: Vertex AI (Agent Platform)
// CustomJob worker pools plus the JSON `gcloud ai custom-jobs create
// --config` accepts, and the GKE JobSet equivalent (catalog-facts §4.1,
// §4.2, §9.1–9.3; SPEC §2 "The plan").
#ifndef ACCELPLAN_PLANNER_JOB_SPEC_H_
#define ACCELPLAN_PLANNER_JOB_SPEC_H_

#include <string>
#include <string_view>

#include "planner/types.h"

namespace accelplan::planner {

inline constexpr char kReductionServerImage[] =
    "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:latest";

struct JobSpecInput {
  // Reads platform, machine_type, accelerators_per_host, hosts (total VMs
  // across slices), total_accelerators, tpu_topology, slices, provisioning.
  Hardware hardware;
  // Reads reduction_server (Vertex pool 2 when set).
  Distribution distribution;
  // machineSpec.acceleratorType, e.g. "NVIDIA_H100_80GB"; empty for CPU and
  // for TPUs without an enum value (v5e, v6e: Google's examples omit it).
  std::string vertex_accelerator_type;
  // gke-accelerator (GPU) or gke-tpu-accelerator (TPU) label value, e.g.
  // "nvidia-h100-80gb" or "tpu-v6e-slice".
  std::string gke_accelerator_label;
  bool is_tpu = false;
  std::string image_uri_placeholder =
      "us-docker.pkg.dev/YOUR_PROJECT/YOUR_REPO/trainer:latest";
};

// Vertex GPU/CPU jobs: pool 0 chief (1 replica), pool 1 workers (hosts − 1,
// absent on one host), pool 2 Reduction Server when planned (skipped pools
// before it are written as {} in the JSON and as empty specs with role
// "skipped" in the typed list). Vertex TPU jobs: one pool, one replica,
// machineType + tpuTopology; Multislice (slices > 1) and Spot on multi-host
// TPU slices have no Vertex form, so only the GKE spec is set, with a note.
// GKE: one JobSet, one replicatedJob with replicas = slices and
// parallelism = completions = VMs per slice. Edge hardware gets no spec.
JobSpec BuildJobSpec(const JobSpecInput& input);

// "SPOT", "FLEX_START" or "STANDARD" (on-demand and reservations).
const char* VertexSchedulingStrategy(Provisioning provisioning);

// Appends `value` to `out` as a JSON string literal (quotes included),
// escaping quotes, backslashes and control characters.
void AppendJsonString(std::string_view value, std::string* out);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_JOB_SPEC_H_
