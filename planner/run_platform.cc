// Where a plan runs (issue 19): Vertex AI serverless training only where the
// catalog's offerings list the hardware with the plan's provisioning and the
// shape is one Vertex can run; else GKE where offered, else Compute Engine,
// with the reason.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "planner/job_spec.h"

namespace accelplan::planner {
namespace {

catalog::Provisioning ToCatalog(Provisioning p) {
  switch (p) {
    case Provisioning::kSpot:
      return catalog::Provisioning::kSpot;
    case Provisioning::kFlexStart:
      return catalog::Provisioning::kFlexStart;
    case Provisioning::kReservation:
      return catalog::Provisioning::kReservation;
    default:
      return catalog::Provisioning::kOnDemand;
  }
}

const char* ProvisioningLabel(Provisioning p) {
  switch (p) {
    case Provisioning::kSpot:
      return "Spot";
    case Provisioning::kFlexStart:
      return "DWS flex-start";
    case Provisioning::kReservation:
      return "a reservation";
    default:
      return "on-demand";
  }
}

const catalog::Offering* FindOffering(
    const std::vector<catalog::Offering>& offerings, catalog::RunPlatform rp,
    catalog::Provisioning prov) {
  for (const catalog::Offering& o : offerings) {
    if (o.run_platform == rp && o.provisioning == prov) return &o;
  }
  return nullptr;
}

}  // namespace

bool Offers(const std::vector<catalog::Offering>& offerings,
            catalog::RunPlatform run_platform, Provisioning provisioning) {
  if (provisioning == Provisioning::kUnspecified) {
    for (const catalog::Offering& o : offerings) {
      if (o.run_platform == run_platform && o.available) return true;
    }
    return false;
  }
  if (const catalog::Offering* o =
          FindOffering(offerings, run_platform, ToCatalog(provisioning))) {
    return o->available;
  }
  const catalog::Offering* any =
      FindOffering(offerings, run_platform, catalog::Provisioning::kAny);
  return any != nullptr && any->available;
}

std::string VertexHasNoMultislice(int slices) {
  return absl::StrCat(
      "Vertex AI serverless training documents no Multislice (a TPU job is "
      "one pool with one replica, i.e. one slice), and this plan uses ",
      slices, " slices");
}

std::string MultisliceFrameworkReason(Framework fw) {
  if (fw != Framework::kTensorflow) return "";
  return "Multislice runs JAX and PyTorch jobs (GKE's TPU Multislice guide, "
         "https://cloud.google.com/kubernetes-engine/docs/how-to/"
         "tpu-multislice); a TensorFlow job trains on one slice";
}

namespace {

// What keeps Vertex AI serverless training from running the input; the
// text is built only when a caller asks for it (VertexUnavailableReason):
// the search asks only where each point runs.
enum class VertexGap { kNone, kEdge, kMultislice, kNotOffered, kSpotTpuPod };

VertexGap VertexGapOf(const RunPlatformInput& in) {
  if (in.platform == Platform::kEdge) return VertexGap::kEdge;
  if (in.platform == Platform::kTpu && in.slices > 1) {
    return VertexGap::kMultislice;
  }
  static const std::vector<catalog::Offering> kNone;
  const auto& offerings = in.offerings != nullptr ? *in.offerings : kNone;
  if (!Offers(offerings, catalog::RunPlatform::kVertexTraining,
              in.provisioning)) {
    return VertexGap::kNotOffered;
  }
  if (in.platform == Platform::kTpu && in.provisioning == Provisioning::kSpot &&
      in.vms_per_slice > 1) {
    return VertexGap::kSpotTpuPod;
  }
  return VertexGap::kNone;
}

std::string NotOfferedOnVertex(const RunPlatformInput& in) {
  const absl::string_view name = in.machine_type.empty()
                                     ? absl::string_view("this hardware")
                                     : in.machine_type;
  static const std::vector<catalog::Offering> kNone;
  const auto& offerings = in.offerings != nullptr ? *in.offerings : kNone;
  const auto vertex = catalog::RunPlatform::kVertexTraining;
  const catalog::Offering* any =
      FindOffering(offerings, vertex, catalog::Provisioning::kAny);
  const catalog::Offering* specific =
      FindOffering(offerings, vertex, ToCatalog(in.provisioning));
  if (specific != nullptr && !specific->available &&
      (any == nullptr || any->available)) {
    return absl::StrCat("Vertex AI serverless training does not offer ", name,
                        " with ", ProvisioningLabel(in.provisioning), " [",
                        specific->source_id, "]");
  }
  if (any != nullptr && !any->available) {
    return absl::StrCat("Vertex AI serverless training does not offer ", name,
                        " [", any->source_id, "]");
  }
  return absl::StrCat("the catalog does not list ", name,
                      " for Vertex AI serverless training");
}

// The request pins where it runs (GKE, Compute Engine), or an edge device
// runs it: the run platform is the request's, with no reason to give.
bool PinnedOrEdge(const RunPlatformInput& in) {
  return in.platform == Platform::kEdge || in.requested == RunPlatform::kGke ||
         in.requested == RunPlatform::kComputeEngine;
}

}  // namespace

std::string VertexUnavailableReason(const RunPlatformInput& in) {
  switch (VertexGapOf(in)) {
    case VertexGap::kNone:
      return "";
    case VertexGap::kEdge:
      return "edge devices run no cloud training job";
    case VertexGap::kMultislice:
      return VertexHasNoMultislice(in.slices);
    case VertexGap::kNotOffered:
      return NotOfferedOnVertex(in);
    case VertexGap::kSpotTpuPod:
      return "Vertex AI does not support Spot VMs with multi-host TPU slices "
             "(TPU Pods) [AP-spot]";
  }
  return "";
}

bool VertexRuns(const RunPlatformInput& in) {
  return VertexGapOf(in) == VertexGap::kNone;
}

RunPlatform RunPlatformOf(const RunPlatformInput& in) {
  if (PinnedOrEdge(in)) return in.requested;
  if (VertexRuns(in)) return RunPlatform::kVertexTraining;
  static const std::vector<catalog::Offering> kNone;
  const auto& offerings = in.offerings != nullptr ? *in.offerings : kNone;
  return Offers(offerings, catalog::RunPlatform::kGke, in.provisioning)
             ? RunPlatform::kGke
             : RunPlatform::kComputeEngine;
}

RunPlatformChoice ChooseRunPlatform(const RunPlatformInput& in) {
  RunPlatformChoice out;
  out.run_platform = RunPlatformOf(in);
  if (PinnedOrEdge(in) || out.run_platform == RunPlatform::kVertexTraining) {
    return out;
  }
  const char* where =
      out.run_platform == RunPlatform::kGke
          ? "runs on GKE (the JobSet manifest)"
          : "runs on Compute Engine (the catalog lists no GKE offer for it "
            "either)";
  out.reason =
      absl::StrCat(in.requested == RunPlatform::kVertexTraining
                       ? "Vertex AI serverless training was requested, but "
                       : "Not Vertex AI serverless training: ",
                   VertexUnavailableReason(in), "; the plan ", where, ".");
  return out;
}

}  // namespace accelplan::planner
