// Stage 3: hard rules per family (SPEC §4) and where its shapes can be
// obtained.
#include "planner/rules.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/edge_rules.h"
#include "planner/efficiency.h"
#include "planner/engine_common.h"
#include "planner/job_spec.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

using catalog::Accelerator;
using catalog::Catalog;

namespace {

// Edge devices serve on-device inference only; cloud hardware is no
// on-device answer. A model that is not fully int8, or has ops the Edge TPU
// compiler does not map, still runs there, partly on the host CPU
// (https://coral.ai/docs/edgetpu/models-intro/#compiling): EdgeModelRules
// warns, and judges the model's size against the device's limits.
void DeploymentRules(const Job& job, const Family& f, Candidate& cand) {
  const Workload& w = job.workload;
  const std::string& name = f.name;
  if (job.on_device) {
    if (f.platform != Platform::kEdge) {
      cand.Reject(ReasonCode::kNotForOnDevice,
                  absl::StrCat(name, " is cloud hardware; on-device offline "
                                     "inference needs an edge device."));
      return;
    }
    EdgeModelRules(job, f, cand);
    const auto fmt = w.edge.model_format;
    const auto q = w.edge.quantization;
    if (fmt != ModelFormat::kTflite || q == Quantization::kUnspecified) {
      // The Edge TPU runs only fully int8-quantized TFLite models compiled
      // with edgetpu_compiler; other models must be converted first.
      cand.notes.push_back(
          {ReasonCode::kAssumption,
           absl::StrCat(name, " runs only fully int8-quantized TensorFlow "
                              "Lite models compiled with edgetpu_compiler: "
                              "convert and quantize the model (post-"
                              "training int8 with a representative data "
                              "set) and re-check its accuracy.")});
    }
  } else if (f.platform == Platform::kEdge) {
    cand.Reject(ReasonCode::kNotForTraining,
                absl::StrCat(name, " is an inference accelerator for small "
                                   "devices (4 TOPS int8); it does not train "
                                   "models."));
  }
}

// The request's allowed platforms and series, and hardware it keeps.
void ConstraintRules(const Job& job, const Family& f, Candidate& cand) {
  const Constraints& k = job.constraints;
  const Accelerator* acc = f.accelerator;
  const std::string& name = f.name;
  if (!k.allowed_platforms.empty() &&
      std::find(k.allowed_platforms.begin(), k.allowed_platforms.end(),
                f.platform) == k.allowed_platforms.end()) {
    cand.Reject(ReasonCode::kNotInAllowedSet,
                absl::StrCat(PlatformName(f.platform),
                             " is outside the allowed platforms."));
  }
  if (!k.allowed_series.empty()) {
    bool ok = false;
    for (const std::string& key : f.allowed_series_keys) {
      if (job.allowed_series.count(key) != 0) ok = true;
    }
    if (!ok) {
      cand.Reject(ReasonCode::kNotInAllowedSet,
                  absl::StrCat(name, " is outside the allowed series."));
    }
  }
  if (k.keep_current_hardware &&
      (job.current_accelerator != nullptr || job.current_series != nullptr)) {
    const bool same =
        job.current_accelerator != nullptr
            ? acc == job.current_accelerator
            : (f.series == job.current_series && acc == nullptr) ||
                  f.series == job.current_series;
    if (!same) {
      cand.Reject(ReasonCode::kChangesPinnedHardware,
                  absl::StrCat("The team keeps its current hardware (",
                               job.current.hardware, "); ", name,
                               " would change it."));
    }
  }
}

// The catalog marks every classical library unsupported on the family's
// platform (XGBoost, LightGBM and scikit-learn have no TPU backend).
bool NoTreeLibraryRuns(const Family& f) {
  if (f.platform == Platform::kCpu || f.accelerator == nullptr) return false;
  for (Framework fw :
       {Framework::kXgboost, Framework::kLightgbm, Framework::kScikitLearn}) {
    const char* key = FrameworkKey(fw, f.platform == Platform::kTpu,
                                   /*pytorch_xla_ok=*/false);
    auto it = key ? f.accelerator->frameworks.find(key)
                  : f.accelerator->frameworks.end();
    if (it == f.accelerator->frameworks.end() ||
        it->second.status != catalog::SupportStatus::kUnsupported) {
      return false;
    }
  }
  return true;
}

// The catalog's framework support rows: unsupported rejects, unverified
// warns, a version below the minimum rejects (SPEC §4).
void FrameworkRules(const Catalog& catalog, const Job& job, const Family& f,
                    Candidate& cand) {
  const Workload& w = job.workload;
  const Accelerator* acc = f.accelerator;
  const std::string& name = f.name;
  const char* key = FrameworkKey(job.framework, f.platform == Platform::kTpu,
                                 w.pytorch_xla_ok);
  if (key == nullptr && job.classical && NoTreeLibraryRuns(f)) {
    cand.Reject(ReasonCode::kFrameworkUnsupported,
                absl::StrCat("A tabular job with no framework is timed as tree "
                             "boosting, and none of XGBoost, LightGBM or "
                             "scikit-learn runs on ",
                             name, "."));
    return;
  }
  if (key == nullptr && !job.classical && f.platform == Platform::kTpu) {
    // No framework (or one the catalog does not list): a TPU runs only
    // what compiles through XLA, which the request does not say.
    cand.notes.push_back(
        {ReasonCode::kFrameworkSupportUnverified,
         absl::StrCat(job.framework == Framework::kOther
                          ? "The job's framework is not one the catalog lists"
                          : "No framework given",
                      ": ", name,
                      " trains only through XLA (JAX, TensorFlow or "
                      "PyTorch/XLA), assumed here; on another framework "
                      "only the GPU and CPU options apply.")});
  }
  if (key != nullptr) {
    const std::map<std::string, catalog::FrameworkSupport>& table =
        f.platform == Platform::kCpu ? catalog.cpu_frameworks
                                     : acc->frameworks;
    auto it = table.find(key);
    if (it == table.end()) {
      cand.notes.push_back(
          {ReasonCode::kFrameworkSupportUnverified,
           absl::StrCat(FrameworkLabel(job.framework), " support on ", name,
                        " is not documented in the catalog.")});
    } else if (it->second.status == catalog::SupportStatus::kUnsupported) {
      std::string why = absl::StrCat(FrameworkLabel(job.framework),
                                     " is not supported on ", name);
      if (job.framework == Framework::kPytorch &&
          f.platform == Platform::kTpu && !w.pytorch_xla_ok) {
        why = absl::StrCat("PyTorch reaches ", name,
                           " only through PyTorch/XLA, which the request "
                           "does not accept");
      }
      if (!it->second.note.empty()) absl::StrAppend(&why, " (", it->second.note, ")");
      cand.Reject(ReasonCode::kFrameworkUnsupported, absl::StrCat(why, "."));
    } else {
      if (it->second.status == catalog::SupportStatus::kUnverified) {
        cand.notes.push_back(
            {ReasonCode::kFrameworkSupportUnverified,
             absl::StrCat(FrameworkLabel(job.framework), " on ", name,
                          " is not confirmed by a source.")});
      }
      const std::string& min = it->second.min_version;
      if (!min.empty()) {
        if (w.framework_version.empty()) {
          cand.notes.push_back(
              {ReasonCode::kFrameworkVersionAssumed,
               absl::StrCat(FrameworkLabel(job.framework), " version not given: "
                            "assumed >= ", min, ", the minimum on ", name, ".")});
        } else if (CompareVersions(w.framework_version, min) < 0) {
          cand.Reject(ReasonCode::kFrameworkVersionTooOld,
                      absl::StrCat(name, " needs ", FrameworkLabel(job.framework),
                                   " ", min, "+; the job uses ",
                                   w.framework_version, "."));
        }
      }
    }
  }
}

// Numeric formats the accelerator has (SPEC §4: fp64 >= 5 TFLOPS, bf16 on
// Ampere+ or TPU, fp8 only where the catalog lists an fp8 peak).
void PrecisionRules(const Job& job, const Family& f, Candidate& cand) {
  const Accelerator* acc = f.accelerator;
  const std::string& name = f.name;
  // fp8 only where the catalog lists an fp8 peak (and does not list fp8
  // as unsupported): CPU series have no fp8 peak, nor do TPU v4/v5e, V100
  // or A100, so none of them trains in fp8.
  if (job.precision == Precision::kFp8) {
    const bool fp8 =
        acc != nullptr && f.platform != Platform::kCpu && IsFine(acc->peak_fp8) &&
        !(acc->formats.count("fp8") && !acc->formats.at("fp8").supported);
    if (!fp8) {
      cand.Reject(ReasonCode::kPrecisionUnsupported,
                  absl::StrCat(name, " has no fp8 peak in the catalog: it "
                                     "cannot train in fp8."));
    } else if (Fp8RunsAtBf16Rate(acc)) {
      cand.notes.push_back(
          {ReasonCode::kAssumption,
           absl::StrFormat("%s's fp8 peak (%.0f TFLOPS) is no higher than "
                           "its bf16 peak (%.0f TFLOPS): fp8 gains no "
                           "compute there, so the job is timed at the bf16 "
                           "rate and efficiency.",
                           name, acc->peak_fp8->value / 1e12,
                           acc->peak_bf16->value / 1e12)});
    }
  }
  if (f.platform != Platform::kCpu && acc != nullptr) {
    auto fmt = [&](const char* n) -> std::optional<bool> {
      auto it = acc->formats.find(n);
      if (it == acc->formats.end()) return std::nullopt;
      return it->second.supported;
    };
    switch (job.precision) {
      case Precision::kFp64Required: {
        const double fp64 = IsFine(acc->peak_fp64) ? acc->peak_fp64->value : 0;
        if (fmt("fp64") == std::optional<bool>(false) || fp64 < kPolicy.min_fp64_flops.value) {
          cand.Reject(ReasonCode::kPrecisionUnsupported,
                      fp64 > 0
                          ? absl::StrFormat("%s peaks at %.2f TFLOPS fp64, "
                                            "below the 5 TFLOPS fp64 work "
                                            "needs.", name, fp64 / 1e12)
                          : absl::StrCat(name, " has no usable fp64 "
                                               "arithmetic."));
        }
        break;
      }
      case Precision::kFp16Mixed:
        if (fmt("fp16") == std::optional<bool>(false)) {
          cand.Reject(ReasonCode::kPrecisionUnsupported,
                      absl::StrCat(name, " has no native fp16."));
        }
        break;
      case Precision::kBf16Mixed: {
        const auto b = fmt("bf16");
        if (b == std::optional<bool>(false) ||
            (!b.has_value() && !IsFine(acc->peak_bf16))) {
          // An assumed bf16 never rejects (a default never decides): a GPU
          // with fp16 trains in fp16 mixed precision, which its fp16 peak
          // times (PeakFlops) and whose bytes are bf16's.
          const bool fp16 = fmt("fp16") != std::optional<bool>(false) &&
                            IsFine(acc->peak_fp16);
          if (job.workload.precision == Precision::kUnspecified && fp16) {
            cand.notes.push_back(
                {ReasonCode::kAssumption,
                 absl::StrCat(name, " has no bf16: planned in fp16 mixed "
                                    "precision (automatic mixed precision "
                                    "with loss scaling), as the precision "
                                    "was not given.")});
            break;
          }
          cand.Reject(ReasonCode::kPrecisionUnsupported,
                      absl::StrCat(name, " has no bf16 (it needs an Ampere "
                                         "or newer GPU, or a TPU)."));
        }
        break;
      }
      default:
        break;
    }
  }
}

// QLoRA's frozen base is stored in bitsandbytes' 4-bit NF4 format, and
// 8-bit Adam keeps its states in bitsandbytes' block-wise 8-bit format:
// "k-bit quantization for PyTorch"
// (https://huggingface.co/docs/bitsandbytes/index), whose kernels run on
// NVIDIA and AMD GPUs, Intel XPUs and Gaudi, Apple silicon and CPUs, with
// no TPU (XLA) backend
// (https://huggingface.co/docs/bitsandbytes/v0.50.0/installation). A job
// that states JAX or TensorFlow has neither, on any hardware.
void BitsandbytesRules(const Job& job, const Family& f, Candidate& cand) {
  const bool qlora = job.method == TrainingMethod::kQlora;
  const bool adam8 = job.workload.optimizer == Optimizer::kAdam8bit;
  if (!qlora && !adam8) return;
  const char* what = qlora ? "QLoRA's 4-bit NF4 base weights need"
                           : "8-bit Adam's optimizer states need";
  const char* instead = qlora ? "LoRA, not QLoRA" : "Adam, not 8-bit Adam";
  if (job.framework == Framework::kJax ||
      job.framework == Framework::kTensorflow) {
    cand.Reject(ReasonCode::kFrameworkUnsupported,
                absl::StrCat(what, " bitsandbytes, a PyTorch library: with ",
                             FrameworkLabel(job.framework), ", train ", instead,
                             " (or the job in PyTorch)."));
  } else if (f.platform == Platform::kTpu) {
    cand.Reject(ReasonCode::kFrameworkUnsupported,
                absl::StrCat(what, " bitsandbytes, which has no TPU backend: ",
                             f.name, " can train ", instead, "."));
  }
}

// Kernels and ops the hardware cannot run, bitsandbytes' formats and
// Horovod off TPUs.
void OpsRules(const Job& job, const Family& f, Candidate& cand) {
  const Workload& w = job.workload;
  const Constraints& k = job.constraints;
  const std::string& name = f.name;
  if (w.custom_cuda_kernels && f.platform != Platform::kGpu) {
    cand.Reject(ReasonCode::kCustomKernelsNeedGpu,
                absl::StrCat("Custom CUDA kernels run only on NVIDIA GPUs, "
                             "not on ", name, "."));
  }
  if (w.cpu_only_custom_ops &&
      (f.platform == Platform::kGpu || f.platform == Platform::kTpu)) {
    cand.Reject(ReasonCode::kCpuOnlyOps,
                absl::StrCat("The model's custom ops have CPU kernels only; ",
                             name, " cannot run them, so only CPUs can "
                             "train it."));
  }
  if (!w.tpu_unsuited_ops.empty() && f.platform == Platform::kTpu) {
    cand.Reject(ReasonCode::kOpsUnsuitedToTpu,
                absl::StrCat("Frequent branching, element-wise-dominated "
                             "work or custom ops inside the step leave ",
                             name, "'s matrix units idle."));
  }
  BitsandbytesRules(job, f, cand);
  if (k.framework_agnostic_distribution && f.platform == Platform::kTpu) {
    cand.Reject(ReasonCode::kNotApplicable,
                absl::StrCat("Framework-agnostic distribution (Horovod) "
                             "runs over MPI/NCCL/Gloo on GPUs and CPUs, not "
                             "on ", name, "."));
  }
}

// The team keeps its current hardware and this family is its accelerator.
bool KeepsCurrentAccelerator(const Job& job, const Family& f) {
  return job.constraints.keep_current_hardware && f.accelerator != nullptr &&
         f.accelerator == job.current_accelerator;
}

// End of support judged at as_of (SPEC §4); past it, hardware the team
// keeps is a warning rather than a rejection (issue 15).
void EndOfSupportRule(const Job& job, const Family& f, Candidate& cand) {
  const Accelerator* acc = f.accelerator;
  const std::string& name = f.name;
  if (acc != nullptr && acc->end_of_support.has_value()) {
    const auto eos = ParseDate(*acc->end_of_support);
    if (eos && job.as_of_days >= *eos && KeepsCurrentAccelerator(job, f)) {
      // The team keeps this hardware: it is evaluated, and told to move.
      cand.notes.push_back(
          {ReasonCode::kEndOfSupport,
           absl::StrCat(name, " reached end of support on ",
                        *acc->end_of_support, "; kept because the team keeps "
                        "its current hardware (see the MOVE_TO_HARDWARE "
                        "remedy).")});
    } else if (eos && job.as_of_days >= *eos) {
      cand.Reject(ReasonCode::kEndOfSupport,
                  absl::StrCat(name, " reached end of support on ",
                               *acc->end_of_support, "."));
    } else if (eos && *eos - job.as_of_days <= kPolicy.end_of_support_warning_days.value) {
      cand.eos_soon = true;
      cand.notes.push_back({ReasonCode::kEndOfSupportSoon,
                            absl::StrCat(name, " reaches end of support on ",
                                         *acc->end_of_support, ".")});
    }
  }
}

std::optional<catalog::RunPlatform> RunPlatformOf(const Job& job) {
  return ToCatalogRunPlatform(job.constraints.run_platform);
}

// A job that does not checkpoint, under a hard deadline: Spot could lose it.
bool SpotUnsafe(const Job& job) {
  return job.goal.hard_deadline && !JobCheckpoints(job);
}

// Not documented absent on the request's run platform nor on Compute
// Engine.
bool OfferedWith(const Job& job, const Shape& s, catalog::Provisioning p) {
  const size_t i = static_cast<size_t>(p);
  return !s.OfferOn(RunPlatformOf(job).value_or(catalog::RunPlatform::kComputeEngine))
              .provisioning_absent[i] &&
         !s.OfferOn(catalog::RunPlatform::kComputeEngine).provisioning_absent[i];
}

}  // namespace

bool JobCheckpoints(const Job& job) {
  return job.workload.checkpoints || job.workload.checkpoint_interval_minutes > 0;
}

bool ProvisioningOffered(const Job& job, const Family&, const Shape& s,
                         catalog::Provisioning p) {
  return OfferedWith(job, s, p);
}

std::optional<Provisioning> ProvisioningWithoutSpot(const Job& job,
                                                    const Family& f,
                                                    const Shape& s) {
  const Constraints& k = job.constraints;
  if (ProvisioningOffered(job, f, s, catalog::Provisioning::kOnDemand)) {
    return Provisioning::kOnDemand;
  }
  if (k.flex_start_allowed &&
      ProvisioningOffered(job, f, s, catalog::Provisioning::kFlexStart)) {
    return Provisioning::kFlexStart;
  }
  if (k.reservation_available &&
      ProvisioningOffered(job, f, s, catalog::Provisioning::kReservation)) {
    return Provisioning::kReservation;
  }
  return std::nullopt;
}

void ApplyHardRules(const Catalog& catalog, const Job& job, const Family& f,
                    Candidate& cand) {
  DeploymentRules(job, f, cand);
  ConstraintRules(job, f, cand);
  if (!job.on_device && f.platform != Platform::kEdge) {
    FrameworkRules(catalog, job, f, cand);
    PrecisionRules(job, f, cand);
    OpsRules(job, f, cand);
  }
  EndOfSupportRule(job, f, cand);
}

namespace {

// Whether Vertex AI serverless training runs the shape with `p`, as the
// plan's run platform is chosen (ChooseRunPlatform, job_spec.h).
bool VertexRuns(const Family& f, const Shape& s, Provisioning p) {
  RunPlatformInput in;
  in.requested = RunPlatform::kVertexTraining;
  in.platform = f.platform;
  in.offerings = RunOfferingsOf(f, &s);
  in.provisioning = p;
  in.vms_per_slice = std::max(1, s.vms);  // Vertex's Spot TPUs: one host
  return planner::VertexRuns(in);
}

}  // namespace

std::optional<Provisioning> ProvisioningFor(const Job& job, const Family& f,
                                            const Shape& s) {
  const bool spot_ok =
      job.constraints.spot_allowed && !SpotUnsafe(job) &&
      ProvisioningOffered(job, f, s, catalog::Provisioning::kSpot);
  // Vertex AI serverless training requested: Spot only where Vertex runs
  // it, else the run platform asked for on a provisioning it runs (Spot
  // would move the plan to GKE).
  if (spot_ok && RunPlatformOf(job) == catalog::RunPlatform::kVertexTraining &&
      !VertexRuns(f, s, Provisioning::kSpot)) {
    if (auto other = ProvisioningWithoutSpot(job, f, s);
        other && VertexRuns(f, s, *other)) {
      return other;
    }
  }
  if (spot_ok && s.spot_hourly.has_value()) return Provisioning::kSpot;
  if (auto other = ProvisioningWithoutSpot(job, f, s)) return other;
  if (spot_ok) return Provisioning::kSpot;
  return std::nullopt;
}

Offer OfferedShapes(const Job& job, const Family& f, Candidate& cand) {
  const Constraints& k = job.constraints;
  const std::string& name = f.name;
  Offer out;
  out.offered.reserve(f.shapes.size());
  const auto rp = RunPlatformOf(job);
  for (const Shape& s : f.shapes) {
    if (rp.has_value()) {
      if (s.OfferOn(*rp).absent) continue;
      // Serverless training runs only what its machine-type list names.
      if (*rp == catalog::RunPlatform::kVertexTraining && !s.OfferOn(*rp).listed) {
        continue;
      }
    }
    out.offered.push_back(&s);
  }
  // An edge device is bought, not provisioned: whatever is offered is
  // obtainable.
  if (f.platform == Platform::kEdge) {
    out.obtainable = out.offered;
    return out;
  }
  if (out.offered.empty()) {
    cand.Reject(ReasonCode::kNotOfferedOnPlatform,
                absl::StrCat(name, " is not offered on ",
                             RunPlatformLabel(k.run_platform), "."));
    return out;
  }
  for (const Shape* s : out.offered) {
    if (ProvisioningFor(job, f, *s).has_value()) out.obtainable.push_back(s);
  }
  if (!out.obtainable.empty()) return out;
  RejectUnobtainable(job, name, out.offered, cand);
  return out;
}

std::string ProvisioningsNotAllowed(const Job& job,
                                    const std::vector<const Shape*>& shapes) {
  const Constraints& k = job.constraints;
  const std::pair<catalog::Provisioning, bool> kinds[] = {
      {catalog::Provisioning::kSpot, k.spot_allowed},
      {catalog::Provisioning::kFlexStart, k.flex_start_allowed},
      {catalog::Provisioning::kReservation, k.reservation_available}};
  static constexpr const char* kLabels[] = {"Spot", "DWS flex-start",
                                            "a reservation"};
  std::vector<std::string> needed;
  for (size_t i = 0; i < 3; ++i) {
    // Not a structured binding: lambdas cannot capture one before C++20.
    const catalog::Provisioning kind = kinds[i].first;
    const bool allowed = kinds[i].second;
    const bool offered =
        std::any_of(shapes.begin(), shapes.end(),
                    [&](const Shape* s) { return OfferedWith(job, *s, kind); });
    if (offered && !allowed) needed.push_back(kLabels[i]);
  }
  if (needed.size() <= 1) return needed.empty() ? "" : needed.front();
  return absl::StrCat(absl::StrJoin(needed.begin(), needed.end() - 1, ", "),
                      " or ", needed.back());
}

void RejectUnobtainable(const Job& job, const std::string& name,
                        const std::vector<const Shape*>& offered_shapes,
                        Candidate& cand) {
  const Constraints& k = job.constraints;
  bool spot_blocked = false;
  for (const Shape* s : offered_shapes) {
    if (k.spot_allowed && SpotUnsafe(job) && s->spot_hourly) spot_blocked = true;
  }
  if (spot_blocked) {
    cand.Reject(ReasonCode::kPreemptionRisk,
                absl::StrCat(name, " is available only as Spot here, and "
                                   "Spot VMs can be preempted before a hard "
                                   "deadline for a job that does not "
                                   "checkpoint."));
  }
  const std::string needed = ProvisioningsNotAllowed(job, offered_shapes);
  cand.Reject(
      ReasonCode::kNotAvailableOnDemand,
      !needed.empty()
          ? absl::StrCat(name, " is not offered on-demand; it is offered with ",
                         needed, ", which the request does not allow.")
          : absl::StrCat(name, " is not offered on-demand, and no other "
                               "provisioning the request allows offers it."));
}

}  // namespace accelplan::planner::internal
