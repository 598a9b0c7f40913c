// Stage 2: the defaults and warnings a job states (job_assumptions.h).
#include "planner/job_assumptions.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/defaults.h"
#include "planner/engine_common.h"
#include "planner/policy.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

// The field that sizes this job's work: tokens for a sequence model,
// examples for one counted in examples, either for a bare parameter count
// (counted in examples until a token count says it is a sequence model).
const char* DatasetField(const Job& job) {
  if (job.sequence_model) return "dataset_tokens";
  return job.workload.model_kind == ModelKind::kUnspecified
             ? "dataset_tokens or dataset_examples"
             : "dataset_examples";
}

}  // namespace

// States the enumerated defaults the request relied on.
void StateEnumDefaults(const Workload& w, const Goal& g, Job& job) {
  if (job.on_device) return;
  if (w.precision == Precision::kUnspecified) {
    job.assumptions.push_back(
        job.classical
            ? "Precision not given: fp32 assumed (classical ML trains in "
              "fp32 on CPUs and CUDA; product choice)."
            : "Precision not given: bf16 mixed assumed (the API's default).");
  }
  if (!job.classical && job.model_size_known) {
    if (w.optimizer == Optimizer::kUnspecified) {
      job.assumptions.push_back(
          "Optimizer not given: Adam assumed (the API's default; 16 B/param "
          "with mixed precision).");
    }
    if (w.recompute == Recompute::kUnspecified &&
        job.workload.transformer_shape.layers > 0) {
      job.assumptions.push_back(
          "Recompute not given: selective assumed for activation memory (the "
          "API's default); full recompute is tried where it is needed to "
          "fit.");
    }
    if (w.training_method == TrainingMethod::kUnspecified) {
      job.assumptions.push_back(
          "Training method not given: pre-training assumed (SPEC §4: the "
          "pre-training list applies).");
    }
    if (w.zero_stage.has_value()) {
      job.assumptions.push_back(absl::StrFormat(
          "workload.zero_stage pins ZeRO stage %d: every layout searched "
          "shards its model states at that stage (a pipeline only at 0 or "
          "1: DeepSpeed's pipeline engine rejects ZeRO-2 and ZeRO-3).",
          *w.zero_stage));
    }
    if (job.constraints.framework_agnostic_distribution) {
      job.assumptions.push_back(
          "Framework-agnostic distribution: Horovod is plain data "
          "parallelism (ring all-reduce of gradients), so every device "
          "holds a whole replica; ZeRO, FSDP, tensor and pipeline sharding "
          "are not searched.");
    }
  }
  if (g.objective == Objective::kUnspecified) {
    job.assumptions.push_back(
        "Objective not given: MIN_COST assumed (the API's default).");
  }
}

// What the stated bf16 optimizer state and activation offload mean for
// the memory and time figures.
void StateOptimizerAndOffload(const Workload& w, Job& job) {
  if (job.classical || !job.model_size_known) return;
  if (w.optimizer == Optimizer::kAdamBf16) {
    job.assumptions.push_back(
        "ADAM_BF16: weights, gradients and both Adam moments in bf16, no "
        "fp32 master copy: 8 B/param (optax keeps the moments in the "
        "parameters' dtype unless mu_dtype is set).");
  }
  if (w.recompute == Recompute::kOffload &&
      job.workload.transformer_shape.layers > 0) {
    job.assumptions.push_back(absl::StrFormat(
        "RECOMPUTE_OFFLOAD: each layer's input is held in host memory "
        "(at most the VM's memory over its accelerators, less %.0f%%) and "
        "the rest recomputed, as full recompute does; the inputs cross "
        "PCIe out in the forward pass and back in the backward pass at "
        "%.3g B/s per accelerator each way (%s). The transfer is assumed "
        "to overlap compute (product choice): it bounds the step, it "
        "never adds to it.",
        kHostHeadroom * 100, kPcieBytesPerS, kPolicy.pcie_bytes_per_s.source));
  }
}

void WarnIfShapeDisagreesWithParams(const Workload& w, Job& job) {
  const TransformerShape& s = w.transformer_shape;
  if (w.parameter_count <= 0 || s.layers <= 0 || s.hidden_size <= 0) return;
  const double h = s.hidden_size;
  const double heads = std::max(1, s.attention_heads);
  const double head_dim = s.head_dim > 0 ? s.head_dim : h / heads;
  const double kv = (s.num_kv_heads > 0 ? s.num_kv_heads : heads) * head_dim;
  const double ffn = s.ffn_hidden_size > 0 ? s.ffn_hidden_size : 4 * h;
  // Q and O (h x heads·head_dim each), K and V (h x kv each); an MLP of two
  // matrices, or three when gated (SwiGLU), per expert; the embedding tied
  // or not. Bounds, not a count: the request does not say which.
  const double attention = 2 * h * heads * head_dim + 2 * h * kv;
  const double vocab = std::max(0, s.vocab_size) * h;
  const int experts = std::max(1, w.num_experts);
  const double low = s.layers * (attention + 2 * h * ffn) + vocab;
  const double high =
      s.layers * (attention + 3 * h * ffn * experts) + 2 * vocab;
  const double factor = kDefaults.shape_params_disagreement.value;
  if (w.parameter_count <= factor * high && w.parameter_count >= low / factor) {
    return;
  }
  job.warnings.push_back(
      {ReasonCode::kAssumption,
       absl::StrFormat(
           "parameter_count %.3g disagrees with the stated shape (%d layers "
           "of width %d, FFN %.0f%s), which implies %.3g-%.3g parameters: "
           "weights, gradients, optimizer states and 6·P FLOPs are counted "
           "from parameter_count, activations and attention from the shape. "
           "Check both.",
           w.parameter_count, s.layers, s.hidden_size, ffn,
           s.vocab_size > 0 ? absl::StrFormat(", vocabulary %d", s.vocab_size)
                            : "",
           low, high)});
}

// Without a dataset size there is no deadline check, only cost per unit,
// and no total cost to hold to a budget.
std::string UncheckedBudgetClause(const Job& job) {
  if (job.goal.budget_usd <= 0) return "";
  return absl::StrCat(", and the ", FormatUsd(job.goal.budget_usd),
                      " budget is not checked (a total cost needs the work)");
}

std::string NoWorkRanking(const Job& job) {
  switch (job.objective) {
    case Objective::kMinTime:
      return absl::StrCat(
          "candidates ranked by throughput (the time per unit of work)",
          SearchesSizes(job) ? ", each family at its fastest size" : "");
    case Objective::kBalanced:
      return absl::StrCat(
          "candidates ranked by cost and time per unit of work",
          SearchesSizes(job) ? ", every size of each family weighed" : "");
    default:
      return "candidates ranked by cost per unit of work";
  }
}

void WarnIfNoDataset(Job& job) {
  if (job.has_dataset || job.on_device) return;
  if (job.tables_only && job.tokens > 0) {
    // The data set is given: what is missing is the work per example.
    job.warnings.push_back(
        {ReasonCode::kAssumption,
         absl::StrCat(job.sequence_model
                          ? "No parameter_count: the recommender is sized by "
                            "its embedding tables, but its tokens are not "
                            "timed (state the dense layers' parameter_count); "
                          : "No parameter_count or forward_flops_per_example: "
                            "the recommender is sized by its embedding "
                            "tables, but its examples are not timed (state "
                            "the dense layers' parameter_count, or "
                            "forward_flops_per_example); ",
                      NoWorkRanking(job), "; no deadline check",
                      UncheckedBudgetClause(job), ".")});
    return;
  }
  const std::string checks =
      absl::StrCat(NoWorkRanking(job),
                   job.model_size_known || job.classical
                       ? ""
                       : " at the smallest shape that holds the stated memory",
                   "; no deadline check", UncheckedBudgetClause(job), ".");
  job.warnings.push_back(
      {ReasonCode::kNoDatasetSize,
       job.workload.dataset_gib > 0 && !job.classical
           ? absl::StrCat("No dataset size in ",
                          job.sequence_model ? "tokens" : "examples",
                          ": a size in GiB gives classical ML's memory, not a "
                          "deep model's work (state ",
                          DatasetField(job), "); ", checks)
       : job.classical
           ? absl::StrCat("No dataset size given (dataset_gib): ", checks)
       : job.model_size_known
           ? absl::StrCat("No dataset size given (", DatasetField(job),
                          "): ", checks)
           : absl::StrCat("No model or dataset size given: ", checks)});
}

}  // namespace accelplan::planner::internal
