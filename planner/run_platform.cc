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

std::string VertexUnavailableReason(const RunPlatformInput& in) {
  const absl::string_view name =
      in.machine_type.empty() ? absl::string_view("this hardware")
                              : in.machine_type;
  if (in.platform == Platform::kEdge) {
    return "edge devices run no cloud training job";
  }
  if (in.platform == Platform::kTpu && in.slices > 1) {
    return VertexHasNoMultislice(in.slices);
  }
  static const std::vector<catalog::Offering> kNone;
  const auto& offerings = in.offerings != nullptr ? *in.offerings : kNone;
  const auto vertex = catalog::RunPlatform::kVertexTraining;
  if (!Offers(offerings, vertex, in.provisioning)) {
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
  if (in.platform == Platform::kTpu && in.provisioning == Provisioning::kSpot &&
      in.vms_per_slice > 1) {
    return "Vertex AI does not support Spot VMs with multi-host TPU slices "
           "(TPU Pods) [AP-spot]";
  }
  return "";
}

RunPlatformChoice ChooseRunPlatform(const RunPlatformInput& in) {
  RunPlatformChoice out;
  if (in.platform == Platform::kEdge) {
    out.run_platform = in.requested;
    return out;
  }
  if (in.requested == RunPlatform::kGke ||
      in.requested == RunPlatform::kComputeEngine) {
    out.run_platform = in.requested;
    return out;
  }
  const std::string vertex_no = VertexUnavailableReason(in);
  if (vertex_no.empty()) {
    out.run_platform = RunPlatform::kVertexTraining;
    return out;
  }
  static const std::vector<catalog::Offering> kNone;
  const auto& offerings = in.offerings != nullptr ? *in.offerings : kNone;
  const bool gke =
      Offers(offerings, catalog::RunPlatform::kGke, in.provisioning);
  out.run_platform = gke ? RunPlatform::kGke : RunPlatform::kComputeEngine;
  const char* where =
      gke ? "runs on GKE (the JobSet manifest)"
          : "runs on Compute Engine (the catalog lists no GKE offer for it "
            "either)";
  out.reason =
      absl::StrCat(in.requested == RunPlatform::kVertexTraining
                       ? "Vertex AI serverless training was requested, but "
                       : "Not Vertex AI serverless training: ",
                   vertex_no, "; the plan ", where, ".");
  return out;
}

}  // namespace accelplan::planner
