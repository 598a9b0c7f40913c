#include "tests/planner/testing/random_requests.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/engine_common.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define ACCELPLAN_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(ACCELPLAN_TEST_SANITIZED)
#define ACCELPLAN_TEST_SANITIZED 1
#endif

namespace accelplan::planner::testutil {

int PropertyJobCount(int normal) {
  if (const char* env = std::getenv("ACCELPLAN_PROPERTY_JOBS")) {
    int n = 0;
    if (absl::SimpleAtoi(env, &n) && n > 0) return n;
  }
#ifdef ACCELPLAN_TEST_SANITIZED
  return std::max(10, normal / 10);
#else
  return normal;
#endif
}

std::vector<PlanRequest> RandomRequests(int n, unsigned seed,
                                        const RandomRequestOptions& options) {
  std::mt19937 rng(seed);
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto log_uniform = [&](double lo, double hi) {
    return std::exp(uniform(std::log(lo), std::log(hi)));
  };
  auto pick = [&](int k) { return std::uniform_int_distribution<int>(0, k - 1)(rng); };
  const Framework frameworks[] = {Framework::kJax, Framework::kPytorch,
                                  Framework::kTensorflow};
  const Objective objectives[] = {Objective::kMinCost, Objective::kMinTime,
                                  Objective::kBalanced};
  std::vector<PlanRequest> out;
  for (int i = 0; i < n; ++i) {
    PlanRequest r;
    r.as_of = "2026-09-26";
    r.goal.objective = objectives[pick(3)];
    Workload& w = r.workload;
    if (options.classical && pick(6) == 0) {
      // Gradient-boosted trees: CPU VMs, several of them for large data.
      w.framework = pick(2) ? Framework::kXgboost : Framework::kLightgbm;
      w.model_kind = ModelKind::kTabular;
      w.dataset_gib = log_uniform(1, 2000);
      if (pick(2)) w.dataset_examples = log_uniform(1e6, 1e10);
      if (pick(2)) w.epochs = 1 + pick(20);
    } else {
      const double params = log_uniform(1e8, 1e12);
      w.framework = frameworks[pick(3)];
      w.model_kind = ModelKind::kDenseTransformer;
      w.parameter_count = params;
      if (pick(3) > 0) {
        // A Llama-like shape of about the requested size ("dense").
        const int layers =
            std::clamp(static_cast<int>(std::cbrt(params / 1e5)), 4, 128);
        const int hidden = std::max(
            256, static_cast<int>(std::sqrt(params / (12.0 * layers)) / 128) * 128);
        w.transformer_shape = {layers, hidden, std::max(4, hidden / 128),
                               pick(2) ? 4096 : 2048, 32000, 4 * hidden};
      }  // else "model-size-only": a parameter count and nothing else
      if (pick(2)) w.global_batch_size = 64 << pick(6);
      if (!options.without_data || pick(5) > 0) {
        w.dataset_tokens = params * log_uniform(2, 40);
      }
    }
    if (pick(2)) r.goal.deadline_hours = log_uniform(2, 5000);
    if (pick(3) == 0) r.goal.budget_usd = log_uniform(1e2, 1e7);
    if (options.constraints) {
      if (pick(4) == 0) r.constraints.spot_allowed = true;
      if (pick(6) == 0) r.constraints.max_accelerators = 8 << pick(10);
      if (pick(8) == 0) r.constraints.single_host_only = true;
      if (pick(6) == 0) r.constraints.run_platform = RunPlatform::kGke;
      if (pick(3) == 0) {
        const Platform ps[] = {Platform::kGpu, Platform::kTpu, Platform::kCpu};
        r.constraints.allowed_platforms = {ps[pick(3)]};
      }
    }
    out.push_back(r);
  }
  return out;
}

std::string DescribeRequest(const PlanRequest& r) {
  const Workload& w = r.workload;
  const Goal& g = r.goal;
  const Constraints& k = r.constraints;
  const char* objective = g.objective == Objective::kMinTime    ? "MIN_TIME"
                          : g.objective == Objective::kBalanced ? "BALANCED"
                                                                : "MIN_COST";
  std::string s =
      absl::StrCat(objective, " ", internal::FrameworkLabel(w.framework));
  if (w.parameter_count > 0) {
    absl::StrAppendFormat(&s, " params=%.4g", w.parameter_count);
  }
  if (w.transformer_shape.layers > 0) {
    const TransformerShape& t = w.transformer_shape;
    absl::StrAppendFormat(&s, " shape={%d,%d,%d,%d,%d,%d}", t.layers,
                          t.hidden_size, t.attention_heads, t.sequence_length,
                          t.vocab_size, t.ffn_hidden_size);
  }
  if (w.global_batch_size > 0) absl::StrAppend(&s, " batch=", w.global_batch_size);
  if (w.dataset_tokens > 0) absl::StrAppendFormat(&s, " tokens=%.4g", w.dataset_tokens);
  if (w.dataset_gib > 0) absl::StrAppendFormat(&s, " gib=%.4g", w.dataset_gib);
  if (w.dataset_examples > 0) {
    absl::StrAppendFormat(&s, " examples=%.4g", w.dataset_examples);
  }
  if (w.epochs > 0) absl::StrAppendFormat(&s, " epochs=%g", w.epochs);
  if (g.deadline_hours > 0) absl::StrAppendFormat(&s, " deadline=%.6g h", g.deadline_hours);
  if (g.budget_usd > 0) absl::StrAppendFormat(&s, " budget=$%.6g", g.budget_usd);
  if (k.spot_allowed) absl::StrAppend(&s, " spot");
  if (k.max_accelerators > 0) absl::StrAppend(&s, " max_accel=", k.max_accelerators);
  if (k.single_host_only) absl::StrAppend(&s, " single_host");
  if (k.run_platform != RunPlatform::kUnspecified) {
    absl::StrAppend(&s, " on ", internal::RunPlatformLabel(k.run_platform));
  }
  for (Platform p : k.allowed_platforms) {
    absl::StrAppend(&s, " only ", internal::PlatformName(p));
  }
  return s;
}

}  // namespace accelplan::planner::testutil
