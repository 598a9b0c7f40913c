#include "planner/edge_rules.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/engine_common.h"

namespace accelplan::planner::internal {
namespace {

// An int8 model stores one byte per parameter: the smallest form of the
// model the Edge TPU can run, so a limit it exceeds is exceeded by any form.
constexpr double kInt8BytesPerParam = 1;

std::string Bytes(double b) {
  if (b >= 1e12) return absl::StrFormat("%.3g TB", b / 1e12);
  if (b >= 1e9) return absl::StrFormat("%.3g GB", b / 1e9);
  return absl::StrFormat("%.3g MB", b / 1e6);
}

// "3 ops the Edge TPU compiler does not map", or "ops ..." when no count.
std::string OpsText(const EdgeCpuFallback& e) {
  if (e.unmapped_op_count > 0) {
    return absl::StrCat(e.unmapped_op_count,
                        e.unmapped_op_count == 1 ? " op" : " ops",
                        " the Edge TPU compiler does not map");
  }
  return "ops the Edge TPU compiler does not map";
}

std::string FallbackWarning(const EdgeCpuFallback& e, const std::string& name) {
  std::string cause;
  if (e.not_full_int8 && e.unmapped_ops) {
    cause = absl::StrCat("the model is not fully int8-quantized and has ",
                         OpsText(e));
  } else if (e.not_full_int8) {
    cause = "the model is not fully int8-quantized (its float ops are not "
            "mapped)";
  } else if (e.unmapped_ops) {
    cause = absl::StrCat("the model has ", OpsText(e));
  } else {
    cause = "part of the model runs on the CPU, as stated";
  }
  return absl::StrCat(
      "EDGE_OPS_ON_CPU: ", cause, ". ", name,
      " runs the graph only up to the first unmapped op; that op and "
      "everything after it execute on the host CPU, which is slower "
      "(https://coral.ai/docs/edgetpu/models-intro/#compiling).");
}

}  // namespace

EdgeCpuFallback EdgeCpuFallbackOf(const Job& job) {
  EdgeCpuFallback e;
  const auto& s = job.current.symptoms;
  e.stated = std::find(s.begin(), s.end(), Symptom::kEdgeOpsOnCpu) != s.end();
  if (!job.on_device) return e;
  const EdgeDeployment& d = job.workload.edge;
  e.not_full_int8 = d.quantization != Quantization::kUnspecified &&
                    d.quantization != Quantization::kFullInt8;
  e.unmapped_ops = d.has_unmapped_ops || d.unmapped_op_count > 0;
  e.unmapped_op_count = std::max(0, d.unmapped_op_count);
  return e;
}

bool EdgeOpsOnCpu(const Job& job) { return EdgeCpuFallbackOf(job).any(); }

// Attention multiplies two activations (q·kᵀ, then the scores by v:
// TensorFlow Lite's BATCH_MATMUL), an op absent from the Edge TPU's
// supported operations, whose FullyConnected also has a one-dimensional
// output only
// (https://coral.ai/docs/edgetpu/models-intro/#supported-operations). The
// compiler maps a graph only up to its first unmapped op, so a transformer
// would run on the host CPU from its first attention layer on.
bool HasAttention(const Workload& w) {
  return w.model_kind == ModelKind::kDenseTransformer ||
         w.transformer_shape.attention_heads > 0;
}

std::string AttentionUnmappedLine(const std::string& device) {
  return absl::StrCat(
      "A transformer's attention multiplies two activations (TensorFlow "
      "Lite's BATCH_MATMUL), which is not among ",
      device,
      "'s supported operations; its compiler maps the graph only up to the "
      "first unmapped op, so from the first attention layer on the model "
      "would run on the host CPU "
      "(https://coral.ai/docs/edgetpu/models-intro/#supported-operations).");
}

void EdgeModelRules(const Job& job, const Family& f, Candidate& cand) {
  if (!job.on_device || f.platform != Platform::kEdge) return;
  if (HasAttention(job.workload)) {
    cand.Reject(ReasonCode::kOpsUnsuitedToTpu,
                absl::StrCat(AttentionUnmappedLine(f.name),
                             " It runs feed-forward networks such as CNNs."));
  }
  const EdgeCpuFallback e = EdgeCpuFallbackOf(job);
  if (e.any()) {
    cand.notes.push_back({ReasonCode::kSlower, FallbackWarning(e, f.name)});
  }
  const catalog::Accelerator* acc = f.accelerator;
  if (acc == nullptr || !job.model_size_known || job.params <= 0) return;
  const double bytes = job.params * kInt8BytesPerParam;
  if (IsFine(acc->max_model_bytes) && bytes > acc->max_model_bytes->value) {
    cand.Reject(
        ReasonCode::kHbmTooSmall,
        absl::StrFormat(
            "%.3g parameters are %s even fully int8-quantized; %s runs "
            "compiled TensorFlow Lite models of at most %s (catalog source "
            "%s), so the model cannot be deployed on it.",
            job.params, Bytes(bytes), f.name,
            Bytes(acc->max_model_bytes->value),
            acc->max_model_bytes->source_id));
    return;
  }
  if (IsFine(acc->param_cache_bytes) && bytes > acc->param_cache_bytes->value) {
    cand.notes.push_back(
        {ReasonCode::kSlower,
         absl::StrFormat(
             "%.3g int8 parameters (%s) exceed the %s of on-chip memory "
             "%s caches parameters in (catalog source %s): the rest "
             "streams from host memory on every inference, which is "
             "slower.",
             job.params, Bytes(bytes), Bytes(acc->param_cache_bytes->value),
             f.name, acc->param_cache_bytes->source_id)});
  }
}

std::vector<Remedy> EdgeRemedies(const Job& job) {
  std::vector<Remedy> out;
  const EdgeCpuFallback e = EdgeCpuFallbackOf(job);
  // Quantizing or replacing ops leaves attention unmapped (HasAttention).
  if (!e.any() || HasAttention(job.workload)) return out;
  const Quantization q = job.workload.edge.quantization;
  // With only the symptom stated, each cause not ruled out gets its remedy.
  const bool quantize =
      e.not_full_int8 ||
      (e.stated && !e.unmapped_ops && q == Quantization::kUnspecified);
  const bool replace = e.unmapped_ops || (e.stated && !e.not_full_int8);
  if (quantize) {
    out.push_back(MakeRemedy(
        RemedyKind::kQuantizeFullInt8, Symptom::kEdgeOpsOnCpu,
        "Quantize the model fully to int8 (weights, activations, inputs and "
        "outputs; quantization-aware training or full-integer post-training "
        "quantization with a representative data set), recompile with "
        "edgetpu_compiler and check accuracy: float ops are not mapped to "
        "the Edge TPU."));
  }
  if (replace) {
    out.push_back(MakeRemedy(
        RemedyKind::kReplaceUnsupportedOp, Symptom::kEdgeOpsOnCpu,
        absl::StrCat(
            "Replace the ", e.unmapped_ops ? OpsText(e) : "unmapped ops",
            " with supported ones (the compiler's operation log names "
            "them), earliest first: the graph falls back to the CPU from "
            "the first unmapped op onward.")));
  }
  return out;
}

}  // namespace accelplan::planner::internal
