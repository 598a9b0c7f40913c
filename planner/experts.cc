#include "planner/experts.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_format.h"
#include "planner/defaults.h"
#include "planner/job.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

namespace {

// The layers and width the all-to-all moves tokens through. Without a
// stated shape: a dense model of the active parameters (what each token
// computes) at GPT-3's aspect ratio, 12·L·h² parameters with h =
// kDefaults.hidden_per_layer·L, as a dense model's assumed shape is
// (planner/job_model.cc InferShapeFromParams). That shape is used for the
// all-to-all only: its activations and attention FLOPs stay as without a
// shape.
void ResolveExpertDims(double active, Job& job) {
  const TransformerShape& s = job.workload.transformer_shape;
  if (s.layers > 0 && s.hidden_size > 0) {
    job.expert_layers = s.layers;
    job.expert_hidden = s.hidden_size;
    return;
  }
  if (s.layers > 0 || s.hidden_size > 0) return;  // a part: not guessed
  job.expert_layers = LayersAtAssumedAspectRatio(active);
  job.expert_hidden =
      static_cast<int>(kDefaults.hidden_per_layer.value) * job.expert_layers;
  job.assumptions.push_back(absl::StrFormat(
      "Mixture of experts without a transformer shape: its expert all-to-all "
      "is taken through %d layers of width %d, the shape of a dense model of "
      "its %.3g active parameters (%s); state transformer_shape for its own.",
      job.expert_layers, job.expert_hidden, active,
      kDefaults.hidden_per_layer.source));
}

}  // namespace

void ResolveExperts(Job& job) {
  const Workload& w = job.workload;
  if (w.num_experts <= 1) return;
  job.experts = w.num_experts;
  job.experts_per_token = w.experts_per_token;
  if (job.experts_per_token <= 0) {
    job.experts_per_token = std::min(
        job.experts, static_cast<int>(kDefaults.experts_per_token.value));
    job.assumptions.push_back(absl::StrFormat(
        "Mixture of experts: %d experts per token assumed (%s).",
        job.experts_per_token, kDefaults.experts_per_token.source));
  }
  const double total = job.params;
  const double active = w.active_parameter_count;
  const int e = job.experts;
  const int k = job.experts_per_token;
  if (e > k && active <= 0 && total > 0) {
    // Without the active count the compute is an upper bound: a top-k of E
    // model runs its shared layers and k of its E experts per token.
    job.warnings.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat(
             "Mixture of experts (%d experts, %d per token) without "
             "active_parameter_count: all %.3g parameters are charged per "
             "token, an upper bound on time and cost (Mixtral 8x7B computes "
             "with 12.9B of its 46.7B). State active_parameter_count, or "
             "use a model preset, for its compute.",
             e, k, total)});
  }
  if (e <= k && active > 0 && active < total) {
    // Every expert runs for every token: the stated active count cannot be
    // below the total.
    job.warnings.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat(
             "Mixture of experts routing each token to %d of %d experts runs "
             "every expert, yet active_parameter_count (%.3g) is below the "
             "total (%.3g): the compute is charged at the stated active "
             "count, a lower bound.",
             k, e, active, total)});
  }
  if (e <= k || active <= 0 || active >= total) return;
  job.expert_params = (total - active) * e / (e - k);
  if (job.expert_params > total) job.expert_params = 0;  // inconsistent
  if (job.expert_params > 0) {
    job.assumptions.push_back(absl::StrFormat(
        "Mixture of experts: %.3g of the %.3g parameters are in the %d "
        "experts (E·(P − A)/(E − k)); every transformer layer is taken as an "
        "MoE layer for the all-to-all of expert parallelism, which is on the "
        "critical path (not overlapped with compute).",
        job.expert_params, total, e));
    ResolveExpertDims(active, job);
  }
}

int ExpertParallelDegree(const Job& job, int domain_devices, int tensor) {
  if (job.expert_params <= 0 || job.expert_layers <= 0 ||
      job.expert_hidden <= 0) {
    return 1;
  }
  const int room = std::max(1, domain_devices / std::max(1, tensor));
  // The largest common divisor of the expert count and the room: every EP
  // rank holds E/ep whole experts and the EP group tiles the domain.
  return std::max(1, std::gcd(job.experts, room));
}

double GatheredParams(const Job& job, const ShardingLayout& layout) {
  const int ep = std::max(1, layout.expert);
  if (ep <= 1 || job.expert_params <= 0) return job.params;
  return job.params - job.expert_params + job.expert_params / ep;
}

double ExpertAllToAllBytes(const Job& job, const ShardingLayout& layout,
                           int devices) {
  const int ep = std::max(1, layout.expert);
  if (ep <= 1 || job.expert_params <= 0 || devices <= 0) return 0;
  // Each device dispatches its own tokens: the step's tokens over the
  // devices of one pipeline stage.
  const double tokens_per_device =
      job.tokens_per_step * std::max(1, layout.pipeline) / devices;
  constexpr double kAllToAllsPerLayer = 4;  // dispatch, combine; fwd + bwd
  constexpr double kBytesPerValue = 2;      // 16-bit activations
  return kAllToAllsPerLayer * job.expert_layers * tokens_per_device *
         job.experts_per_token * job.expert_hidden * kBytesPerValue * (ep - 1) /
         ep;
}

}  // namespace accelplan::planner::internal
