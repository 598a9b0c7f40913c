// Ready-to-submit job specs for a chosen plan: Vertex AI (Agent Platform)
// CustomJob worker pools plus the JSON `gcloud ai custom-jobs create
// --config` accepts, and the GKE JobSet equivalent (catalog-facts §4.1,
// §4.2, §9.1–9.3; SPEC §2 "The plan").
#ifndef ACCELPLAN_PLANNER_JOB_SPEC_H_
#define ACCELPLAN_PLANNER_JOB_SPEC_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "catalog/catalog.h"
#include "planner/types.h"
#include "planner/util.h"  // AppendJsonString

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
  // Picks the peer-discovery env and the launcher in the GKE manifest
  // (JAX coordinator, torchrun rendezvous).
  Framework framework = Framework::kUnspecified;
  std::string image_uri_placeholder =
      "us-docker.pkg.dev/YOUR_PROJECT/YOUR_REPO/trainer:latest";
};

// Which specs a plan gets follows hardware.run_platform, so the plan and its
// specs always agree: VERTEX_TRAINING gets the Vertex CustomJobSpec plus the
// GKE JobSet equivalent; GKE gets only the JobSet; COMPUTE_ENGINE gets
// neither (a note says how to create the VMs). UNSPECIFIED (callers that did
// not decide) is treated as VERTEX_TRAINING where Vertex can run the shape.
//
// Vertex GPU/CPU jobs: pool 0 chief (1 replica), pool 1 workers (hosts − 1,
// absent on one host), pool 2 Reduction Server when planned (skipped pools
// before it are written as {} in the JSON and as empty specs with role
// "skipped" in the typed list). Vertex TPU jobs: one pool, one replica,
// machineType + tpuTopology; Multislice (slices > 1) and Spot on multi-host
// TPU slices have no Vertex form, so only the GKE spec is set, with a note.
// Spot on Vertex: scheduling.strategy SPOT with restartJobOnWorkerRestart.
// GKE: one JobSet, one replicatedJob with replicas = slices and
// parallelism = completions = VMs per slice (Indexed), a container command
// placeholder, peer-discovery env from the JobSet headless service,
// resource requests, failurePolicy.maxRestarts > 0 (more on Spot), and
// GPUDirect networking on multi-node A3 Mega / A3 Ultra / A4. Edge hardware
// gets no spec.
JobSpec BuildJobSpec(const JobSpecInput& input);

// Where a plan runs, decided from the catalog's offerings (85_offerings.sql):
// Vertex AI serverless training only where it lists the machine type (or TPU
// version) with the plan's provisioning and can run the shape.
struct RunPlatformInput {
  RunPlatform requested = RunPlatform::kUnspecified;  // the request's pin
  Platform platform = Platform::kUnspecified;
  // For the reason text; a view of a string that outlives the call (the
  // catalog's or the plan's).
  absl::string_view machine_type;
  // The machine type's offerings, or the TPU accelerator's.
  const std::vector<catalog::Offering>* offerings = nullptr;
  Provisioning provisioning = Provisioning::kOnDemand;
  int slices = 1;
  int vms_per_slice = 1;
};

struct RunPlatformChoice {
  RunPlatform run_platform = RunPlatform::kUnspecified;
  // Why the plan does not run on Vertex AI serverless training (or not where
  // the request asked); empty when it runs where asked or on Vertex.
  std::string reason;
};

// True when a catalog row says `run_platform` offers the subject with
// `provisioning`: a row for that provisioning decides; otherwise an ANY row.
// No row means unknown, which is not an offer. UNSPECIFIED provisioning:
// any available row for the run platform.
bool Offers(const std::vector<catalog::Offering>& offerings,
            catalog::RunPlatform run_platform, Provisioning provisioning);

// Why Vertex AI serverless training cannot run this shape with this
// provisioning; empty when it can.
std::string VertexUnavailableReason(const RunPlatformInput& input);
// Whether it can (VertexUnavailableReason is empty), without its text.
bool VertexRuns(const RunPlatformInput& input);

// Why Vertex AI serverless training runs no TPU job on `slices` slices.
std::string VertexHasNoMultislice(int slices);

// Why a `fw` job cannot run across TPU slices; empty when it can. GKE's
// Multislice runs JAX and PyTorch jobs [GKE-MS] (shared/reference/
// catalog-facts.md §9.3): TensorFlow is ruled out; an unstated or other
// framework is not.
std::string MultisliceFrameworkReason(Framework fw);

// The requested run platform when it can run the plan; otherwise (and when
// none is requested) Vertex AI serverless training if it can, else GKE if
// the catalog offers the hardware there, else Compute Engine.
RunPlatformChoice ChooseRunPlatform(const RunPlatformInput& input);
// ChooseRunPlatform's run platform without its reason text (the search
// asks where each point runs; only the plan needs the why).
RunPlatform RunPlatformOf(const RunPlatformInput& input);

// "SPOT", "FLEX_START" or "STANDARD" (on-demand and reservations).
const char* VertexSchedulingStrategy(Provisioning provisioning);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_JOB_SPEC_H_
