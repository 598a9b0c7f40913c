#include "planner/efficiency.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/policy.h"

namespace accelplan::planner::internal {
namespace {

constexpr const char* kCalibrated =
    "min-max of published measured runs (catalog measured_efficiency)";

// The fallback chain, narrowest first.
enum Level { kOwnClass = 0, kGeneration, kGenerationAnyStack, kPlatform };
constexpr int kLevels = 4;

constexpr const char* kPrecisionClasses[] = {"BF16", "FP8"};
// "" matches every stack (framework not given); PyTorch covers FSDP and
// Megatron-style runs.
constexpr const char* kStacks[] = {"", "JAX", "TENSORFLOW", "PYTORCH"};

// Index into kPrecisionClasses; -1 for fp32 / fp64 (no published runs).
int PrecisionClass(Precision p) {
  switch (p) {
    case Precision::kUnspecified:
    case Precision::kBf16Mixed:
    case Precision::kFp16Mixed:
      return 0;
    case Precision::kFp8:
      return 1;
    default:
      return -1;
  }
}

int StackOf(Framework fw) {
  switch (fw) {
    case Framework::kJax: return 1;
    case Framework::kTensorflow: return 2;
    case Framework::kPytorch: return 3;
    default: return 0;
  }
}

int BandIndex(int precision, int stack, bool moe) {
  return (precision * 4 + stack) * 2 + (moe ? 1 : 0);
}

bool Moe(const Job& job) {
  const Workload& w = job.workload;
  return w.num_experts > 1 ||
         (w.active_parameter_count > 0 &&
          w.active_parameter_count < w.parameter_count);
}

// The precision class when calibrated bands apply at all, else -1. fp8
// whose peak is no faster than bf16's is bf16 work (Fp8RunsAtBf16Rate).
int Applicable(const Job& job, const Family& f) {
  if (job.classical || f.accelerator == nullptr) return -1;
  const ModelKind kind = job.workload.model_kind;
  if (kind != ModelKind::kDenseTransformer && kind != ModelKind::kUnspecified)
    return -1;
  const DeviceClass dc = ClassOf(f);
  if (dc != DeviceClass::kTpu && dc != DeviceClass::kModernGpu) return -1;
  return PrecisionClass(BandPrecision(job, f));
}

bool Matches(const Family::EfficiencyRun& r, int level, const char* precision,
             const char* stack, bool moe) {
  const catalog::MeasuredEfficiency& e = *r.run;
  if (e.precision != precision || e.moe != moe) return false;
  const bool stack_ok = level >= kGenerationAnyStack ||
                        e.stack.compare(0, std::char_traits<char>::length(stack),
                                        stack) == 0;
  switch (level) {
    case kOwnClass: return stack_ok && r.same_accelerator;
    case kGeneration: return stack_ok && r.same_generation;
    case kGenerationAnyStack: return r.same_generation;
    default: return true;
  }
}

// The band of one work class: the narrowest fallback level with runs.
MfuRange BandOf(const Family& f, const char* precision, const char* stack,
                bool moe) {
  for (int level = 0; level < kLevels; ++level) {
    double lo = 1, hi = 0;
    int runs = 0, tensor_parallel = 1;
    for (const Family::EfficiencyRun& r : f.efficiency_runs) {
      if (!Matches(r, level, precision, stack, moe)) continue;
      lo = std::min(lo, r.run->mfu);
      hi = std::max(hi, r.run->mfu);
      tensor_parallel = std::max(tensor_parallel, r.run->tensor_parallel);
      ++runs;
    }
    if (runs == 0) continue;
    const double widen = kPolicy.mfu_run_spread.value +
                         (level > 0 ? kPolicy.mfu_fallback_widening.value : 0);
    MfuRange band;
    band.low = lo * (1 - widen);
    band.high = std::min(0.95, hi * (1 + widen));
    band.source = kCalibrated;
    band.runs = runs;
    band.fallback = level;
    band.tensor_parallel = tensor_parallel;
    return band;
  }
  return {};
}

}  // namespace

bool Fp8RunsAtBf16Rate(const catalog::Accelerator* acc) {
  return acc != nullptr && IsFine(acc->peak_fp8) && IsFine(acc->peak_bf16) &&
         acc->peak_fp8->value <= acc->peak_bf16->value;
}

Precision BandPrecision(const Job& job, const Family& f) {
  if (job.precision == Precision::kFp8 && Fp8RunsAtBf16Rate(f.accelerator)) {
    return Precision::kBf16Mixed;
  }
  return job.precision;
}

void PrecomputeMfuBands(Family& f) {
  for (int p = 0; p < 2; ++p) {
    for (int st = 0; st < 4; ++st) {
      for (bool moe : {false, true}) {
        f.mfu_bands[BandIndex(p, st, moe)] =
            BandOf(f, kPrecisionClasses[p], kStacks[st], moe);
      }
    }
  }
}

namespace {

// What routing costs a mixture of experts where it was measured: the
// platform's published MoE band over its dense band (same precision class,
// else 16-bit; same stack), midpoint to midpoint. 1 when either is missing.
double MoeToDenseRatio(const Job& job, const Family& f) {
  if (!Moe(job) || f.accelerator == nullptr) return 1;
  const int own = PrecisionClass(BandPrecision(job, f));
  for (int p : {own, 0}) {
    if (p < 0) continue;
    const MfuRange& moe = f.mfu_bands[BandIndex(p, StackOf(job.framework), true)];
    const MfuRange& dense =
        f.mfu_bands[BandIndex(p, StackOf(job.framework), false)];
    if (moe.runs > 0 && dense.runs > 0 && dense.expected() > 0) {
      return std::min(1.0, moe.expected() / dense.expected());
    }
  }
  return 1;
}

MfuRange BaseMfu(const Job& job, const Family& f) {
  const int precision = Applicable(job, f);
  if (precision >= 0) {
    const MfuRange& band =
        f.mfu_bands[BandIndex(precision, StackOf(job.framework), Moe(job))];
    if (band.runs > 0) return band;
  }
  MfuRange band = DefaultMfu(
      ClassOf(f), job.classical ? ModelKind::kTabular : job.workload.model_kind,
      BandPrecision(job, f));
  // A default band is a dense model's: a mixture of experts pays its
  // measured routing cost on top (MoeToDenseRatio).
  const double moe = MoeToDenseRatio(job, f);
  band.low *= moe;
  band.high *= moe;
  return band;
}

// kPolicy.qlora_slowdown_*: measured on GPUs, where QLoRA runs.
bool QloraSlowdownApplies(const Job& job, const Family& f) {
  return job.method == TrainingMethod::kQlora && f.platform == Platform::kGpu;
}

}  // namespace

MfuRange CalibratedMfu(const Job& job, const Family& f) {
  MfuRange band = BaseMfu(job, f);
  if (QloraSlowdownApplies(job, f)) {
    band.low /= kPolicy.qlora_slowdown_max.value;
    band.high /= kPolicy.qlora_slowdown_min.value;
  }
  return band;
}

namespace {

std::string DescribeBand(const Job& job, const Family& f) {
  const MfuRange band = CalibratedMfu(job, f);
  if (band.runs == 0) {
    const std::string range =
        absl::StrFormat("%.0f-%.0f%%", 100 * band.low, 100 * band.high);
    const double moe = MoeToDenseRatio(job, f);
    const std::string routing =
        moe < 1 ? absl::StrFormat(
                      " A mixture of experts: the dense band times %.2f, the "
                      "midpoint of the platform's published MoE runs over its "
                      "dense runs (ASSUMPTION: routing costs the same share "
                      "here).",
                      moe)
                : "";
    if (band.published) {
      return absl::StrCat("Efficiency: MFU ", range, " (", band.source, ").",
                          routing);
    }
    return absl::StrCat("Efficiency: MFU ", range, " assumed (", band.source,
                        "); no published run covers this work.", routing);
  }
  const char* precision = kPrecisionClasses[Applicable(job, f)];
  const char* stack = kStacks[StackOf(job.framework)];
  const bool moe = Moe(job);
  std::vector<std::string> ids;
  for (const Family::EfficiencyRun& r : f.efficiency_runs) {
    if (Matches(r, band.fallback, precision, stack, moe)) {
      ids.push_back(r.run->run_id);
    }
  }
  static constexpr const char* kWhere[] = {
      "its own class", "the same generation", "any stack of the same generation",
      "any accelerator of the platform"};
  std::string out = absl::StrFormat(
      "Efficiency: MFU %.0f-%.0f%% of the %s peak on the 6·P·D + attention "
      "basis for %s %s %s%s, the min-max of %d published runs of %s (%s) "
      "widened by %.0f%%",
      100 * band.low, 100 * band.high, precision, f.generation, precision,
      *stack ? stack : "any stack", moe ? " mixture-of-experts" : "",
      band.runs, kWhere[band.fallback], absl::StrJoin(ids, ", "),
      100 * (kPolicy.mfu_run_spread.value +
             (band.fallback > 0 ? kPolicy.mfu_fallback_widening.value : 0)));
  if (band.fallback > 0) {
    absl::StrAppend(&out, "; no published run of ", f.accelerator->name, " ",
                    precision, " ", *stack ? stack : "", moe ? " MoE" : "",
                    ": the band is borrowed (ASSUMPTION)");
  }
  return out + ".";
}

}  // namespace

std::string DescribeMfu(const Job& job, const Family& f) {
  std::string out = DescribeBand(job, f);
  if (job.precision == Precision::kFp32 && f.platform == Platform::kGpu) {
    absl::StrAppend(
        &out, Fp32RunsAsTf32(job.workload)
                  ? " fp32 on GPUs: of the TF32 tensor-core peak where the GPU "
                    "has one (TensorFlow and JAX run fp32 matrix products as "
                    "TF32 by default, PyTorch its cuDNN convolutions)."
                  : " fp32 on GPUs: of the CUDA-core fp32 peak (PyTorch runs "
                    "fp32 matrix products without TF32 by default since "
                    "1.12: torch.backends.cuda.matmul.allow_tf32).");
  }
  if (job.precision == Precision::kFp32 && f.platform == Platform::kTpu) {
    absl::StrAppend(
        &out,
        " fp32 on TPUs: of the bf16 peak (TPUs multiply fp32 matrices in "
        "bfloat16 with float32 accumulation by default, "
        "https://cloud.google.com/tpu/docs/bfloat16; a higher matmul "
        "precision set by the job runs several passes and is slower).");
  }
  if (job.precision == Precision::kFp16Mixed && f.platform == Platform::kTpu &&
      f.accelerator != nullptr && !IsFine(f.accelerator->peak_fp16)) {
    // Said, not assumed silently: no fp16 rate is published for a TPU,
    // whose matrix units take bfloat16.
    absl::StrAppend(
        &out,
        " fp16 on TPUs: timed at the bf16 peak (the catalog has no fp16 rate; "
        "TPU matrix units take bfloat16, "
        "https://cloud.google.com/tpu/docs/bfloat16): train in bfloat16 "
        "there, which needs no loss scaling.");
  }
  if (QloraSlowdownApplies(job, f)) {
    absl::StrAppend(
        &out,
        absl::StrFormat(
            " QLoRA: LoRA's band divided by %.2f-%.2f, the slowdown of a "
            "4-bit base (dequantized in every pass) in Lit-GPT's measured "
            "LoRA/QLoRA pairs on one A100.",
            kPolicy.qlora_slowdown_min.value, kPolicy.qlora_slowdown_max.value));
  }
  return out;
}

}  // namespace accelplan::planner::internal
