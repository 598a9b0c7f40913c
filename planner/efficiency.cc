#include "planner/efficiency.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/estimates.h"
#include "planner/policy.h"

namespace accelplan::planner::internal {
namespace {

constexpr const char* kCalibrated =
    "min-max of published measured runs (catalog measured_efficiency)";

// The fallback chain, narrowest first.
enum Level { kOwnClass = 0, kGeneration, kGenerationAnyStack, kPlatform };
constexpr int kLevels = 4;

const char* PrecisionClass(Precision p) {
  switch (p) {
    case Precision::kUnspecified:
    case Precision::kBf16Mixed:
    case Precision::kFp16Mixed:
      return "BF16";
    case Precision::kFp8:
      return "FP8";
    default:
      return nullptr;  // fp32 / fp64: no published runs
  }
}

// "" matches every stack (framework not given).
const char* StackPrefix(Framework fw) {
  switch (fw) {
    case Framework::kJax: return "JAX";
    case Framework::kTensorflow: return "TENSORFLOW";
    case Framework::kPytorch: return "PYTORCH";  // FSDP and Megatron-style
    default: return "";
  }
}

bool Moe(const Job& job) {
  const Workload& w = job.workload;
  return w.num_experts > 1 ||
         (w.active_parameter_count > 0 &&
          w.active_parameter_count < w.parameter_count);
}

// Whether calibrated bands apply at all, and the precision class.
const char* Applicable(const Job& job, const Family& f) {
  if (job.classical || f.accelerator == nullptr) return nullptr;
  const ModelKind kind = job.workload.model_kind;
  if (kind != ModelKind::kDenseTransformer && kind != ModelKind::kUnspecified)
    return nullptr;
  const DeviceClass dc = ClassOf(f);
  if (dc != DeviceClass::kTpu && dc != DeviceClass::kModernGpu) return nullptr;
  return PrecisionClass(job.precision);
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

}  // namespace

MfuRange CalibratedMfu(const Job& job, const Family& f) {
  const MfuRange fallback =
      DefaultMfu(ClassOf(f), job.classical ? ModelKind::kTabular
                                           : job.workload.model_kind);
  const char* precision = Applicable(job, f);
  if (precision == nullptr) return fallback;
  const char* stack = StackPrefix(job.framework);
  const bool moe = Moe(job);
  for (int level = 0; level < kLevels; ++level) {
    double lo = 1, hi = 0;
    int runs = 0;
    for (const Family::EfficiencyRun& r : f.efficiency_runs) {
      if (!Matches(r, level, precision, stack, moe)) continue;
      lo = std::min(lo, r.run->mfu);
      hi = std::max(hi, r.run->mfu);
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
    return band;
  }
  return fallback;
}

std::string DescribeMfu(const Job& job, const Family& f) {
  const MfuRange band = CalibratedMfu(job, f);
  if (band.runs == 0) {
    return absl::StrCat("Efficiency: MFU ", absl::StrFormat("%.0f-%.0f%%",
                        100 * band.low, 100 * band.high), " assumed (",
                        band.source, "); no published run covers this work.");
  }
  const char* precision = Applicable(job, f);
  const char* stack = StackPrefix(job.framework);
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

}  // namespace accelplan::planner::internal
