#include "planner/engine_common.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

Platform ToPlatform(catalog::Platform p) {
  switch (p) {
    case catalog::Platform::kCpu: return Platform::kCpu;
    case catalog::Platform::kGpu: return Platform::kGpu;
    case catalog::Platform::kTpu: return Platform::kTpu;
    case catalog::Platform::kEdge: return Platform::kEdge;
  }
  return Platform::kUnspecified;
}

const char* PlatformName(Platform p) {
  switch (p) {
    case Platform::kCpu: return "CPU";
    case Platform::kGpu: return "GPU";
    case Platform::kTpu: return "TPU";
    case Platform::kEdge: return "EDGE";
    default: return "UNSPECIFIED";
  }
}

const char* FrameworkKey(Framework f, bool tpu, bool pytorch_xla_ok) {
  switch (f) {
    case Framework::kJax: return catalog::kFrameworkJax;
    case Framework::kTensorflow: return catalog::kFrameworkTensorflow;
    case Framework::kPytorch:
      return tpu && pytorch_xla_ok ? catalog::kFrameworkPytorchXla
                                   : catalog::kFrameworkPytorch;
    case Framework::kXgboost: return catalog::kFrameworkXgboost;
    case Framework::kScikitLearn: return catalog::kFrameworkScikitLearn;
    case Framework::kLightgbm: return catalog::kFrameworkLightgbm;
    default: return nullptr;
  }
}

const char* FrameworkLabel(Framework f) {
  switch (f) {
    case Framework::kJax: return "JAX";
    case Framework::kTensorflow: return "TensorFlow";
    case Framework::kPytorch: return "PyTorch";
    case Framework::kXgboost: return "XGBoost";
    case Framework::kScikitLearn: return "scikit-learn";
    case Framework::kLightgbm: return "LightGBM";
    case Framework::kOther: return "other framework";
    default: return "unspecified framework";
  }
}

const char* PrecisionLabel(Precision p) {
  switch (p) {
    case Precision::kFp16Mixed: return "fp16";
    case Precision::kFp32: return "fp32";
    case Precision::kFp8: return "fp8";
    case Precision::kFp64Required: return "fp64";
    default: return "bf16";
  }
}


bool IsFine(const std::optional<catalog::Fact>& f) {
  return f.has_value() && f->value > 0;
}

void AddSource(std::vector<std::string>& out, const std::string& id) {
  if (!id.empty() && std::find(out.begin(), out.end(), id) == out.end()) {
    out.push_back(id);
  }
}

// An offering row that documents absence on a run platform.
bool DocumentedAbsent(const std::vector<catalog::Offering>& offerings,
                      catalog::RunPlatform rp, catalog::Provisioning prov) {
  for (const auto& o : offerings) {
    if (o.run_platform == rp && !o.available &&
        (o.provisioning == prov || o.provisioning == catalog::Provisioning::kAny)) {
      return true;
    }
  }
  return false;
}

bool AnyPreview(const std::vector<catalog::Offering>& offerings) {
  for (const auto& o : offerings) {
    if (o.preview) return true;
  }
  return false;
}

std::optional<catalog::RunPlatform> ToCatalogRunPlatform(RunPlatform rp) {
  switch (rp) {
    case RunPlatform::kVertexTraining: return catalog::RunPlatform::kVertexTraining;
    case RunPlatform::kGke: return catalog::RunPlatform::kGke;
    case RunPlatform::kComputeEngine: return catalog::RunPlatform::kComputeEngine;
    default: return std::nullopt;
  }
}

const char* RunPlatformLabel(RunPlatform rp) {
  switch (rp) {
    case RunPlatform::kVertexTraining: return "Vertex AI serverless training";
    case RunPlatform::kGke: return "GKE";
    case RunPlatform::kComputeEngine: return "Compute Engine";
    default: return "any platform";
  }
}

std::string FormatUsd(double usd) {
  if (!std::isfinite(usd)) return "unknown";
  if (usd >= 100) return absl::StrFormat("$%.0f", usd);
  return absl::StrFormat("$%.2f", usd);
}

std::string FormatHours(double hours) {
  if (!std::isfinite(hours)) return "unknown";
  if (hours >= 48) return absl::StrFormat("%.1f days", hours / 24);
  return absl::StrFormat("%.1f h", hours);
}

std::string DevicesText(int devices) {
  return absl::StrFormat("%d device%s", devices, devices == 1 ? "" : "s");
}

}  // namespace accelplan::planner::internal
