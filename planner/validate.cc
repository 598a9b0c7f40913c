// Semantic validation of decoded requests. Every violation is reported at
// once, named by its proto field path, so a caller fixes all of them in one
// round trip.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "planner/limits.h"
#include "planner/planner.h"
#include "planner/util.h"

namespace accelplan::planner {
namespace {

namespace L = limits;

// Unicode code points of UTF-8 text (continuation bytes not counted).
size_t CharCount(absl::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// At most L::kMaxEchoedChars characters of `v`, cut on a character boundary,
// with "..." when cut: what a violation quotes back of a bad value.
std::string Echo(absl::string_view v) {
  size_t chars = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if ((static_cast<unsigned char>(v[i]) & 0xC0) == 0x80) continue;
    if (chars == static_cast<size_t>(L::kMaxEchoedChars)) {
      return absl::StrCat(v.substr(0, i), "...");
    }
    ++chars;
  }
  return std::string(v);
}

class Checker {
 public:
  explicit Checker(std::vector<FieldViolation>* out) : out_(out) {}

  void Number(const std::string& field, double v, double max) {
    if (!std::isfinite(v)) {
      Add(field, "must be a finite number");
    } else if (v < 0) {
      Add(field, absl::StrFormat("must not be negative (got %g)", v));
    } else if (v > max) {
      Add(field,
          absl::StrFormat("is implausibly large (got %g, max %g)", v, max));
    }
  }
  void Integer(const std::string& field, int64_t v, int64_t max) {
    if (v < 0) {
      Add(field, absl::StrCat("must not be negative (got ", v, ")"));
    } else if (v > max) {
      Add(field,
          absl::StrCat("is implausibly large (got ", v, ", max ", max, ")"));
    }
  }
  // False (and a violation) when `v` is longer than `max` characters.
  bool Text(const std::string& field, absl::string_view v,
            int max = L::kMaxStringChars) {
    if (v.size() <= static_cast<size_t>(max)) return true;  // fast path
    const size_t chars = CharCount(v);
    if (chars <= static_cast<size_t>(max)) return true;
    Add(field,
        absl::StrCat("must be at most ", max, " characters (got ", chars, ")"));
    return false;
  }
  void Date(const std::string& field, const std::string& v) {
    if (Text(field, v) && !v.empty() && !ParseDate(v).has_value()) {
      Add(field,
          absl::StrCat("must be a date YYYY-MM-DD (got \"", Echo(v), "\")"));
    }
  }
  void Topology(const std::string& field, const std::string& v) {
    if (Text(field, v) && !v.empty() && TopologyChips(v) <= 0) {
      Add(field,
          absl::StrCat("must look like 2x2 or 2x2x1 (got \"", Echo(v), "\")"));
    }
  }
  // False (and a violation on the list itself) when `list` holds more than
  // `max` entries; its entries are then not checked one by one, so the
  // violations stay few.
  template <typename T>
  bool Count(const std::string& field, const std::vector<T>& list, int max) {
    if (list.size() <= static_cast<size_t>(max)) return true;
    Add(field, absl::StrCat("must hold at most ", max, " entries (got ",
                            list.size(), ")"));
    return false;
  }
  void Add(const std::string& field, std::string description) {
    out_->push_back({field, std::move(description)});
  }

 private:
  std::vector<FieldViolation>* out_;
};

void CheckWorkload(const Workload& w, Checker& c) {
  c.Text("workload.framework_version", w.framework_version);
  c.Number("workload.parameter_count", w.parameter_count,
           L::kMaxParameterCount);
  c.Number("workload.embedding_table_gib", w.embedding_table_gib, L::kMaxGib);
  c.Number("workload.per_device_memory_gib", w.per_device_memory_gib,
           L::kMaxGib);
  c.Number("workload.dataset_tokens", w.dataset_tokens, L::kMaxDatasetTokens);
  c.Number("workload.dataset_examples", w.dataset_examples,
           L::kMaxDatasetExamples);
  c.Number("workload.dataset_gib", w.dataset_gib, L::kMaxGib);
  c.Number("workload.epochs", w.epochs, L::kMaxEpochs);
  c.Integer("workload.steps", w.steps, L::kMaxSteps);
  c.Integer("workload.global_batch_size", w.global_batch_size,
            L::kMaxGlobalBatchSize);
  c.Number("workload.checkpoint_interval_minutes",
           w.checkpoint_interval_minutes, L::kMaxCheckpointIntervalMinutes);
  c.Number("workload.lora_rank", w.lora_rank, L::kMaxLoraRank);
  c.Count("workload.tpu_unsuited_ops", w.tpu_unsuited_ops,
          L::kMaxTpuUnsuitedOps);
  const TransformerShape& s = w.transformer_shape;
  c.Integer("workload.transformer_shape.layers", s.layers, L::kMaxLayers);
  c.Integer("workload.transformer_shape.hidden_size", s.hidden_size,
            L::kMaxHiddenSize);
  c.Integer("workload.transformer_shape.attention_heads", s.attention_heads,
            L::kMaxAttentionHeads);
  c.Integer("workload.transformer_shape.sequence_length", s.sequence_length,
            L::kMaxSequenceLength);
  c.Integer("workload.transformer_shape.vocab_size", s.vocab_size,
            L::kMaxVocabSize);
  c.Integer("workload.transformer_shape.ffn_hidden_size", s.ffn_hidden_size,
            L::kMaxFfnHiddenSize);
  c.Integer("workload.transformer_shape.head_dim", s.head_dim,
            L::kMaxHiddenSize);
  if (s.head_dim > 0 && s.attention_heads <= 0) {
    c.Add("workload.transformer_shape.head_dim",
          "needs attention_heads (the attention width is heads x head_dim)");
  }
  c.Integer("workload.transformer_shape.sliding_window", s.sliding_window,
            L::kMaxSequenceLength);
  c.Integer("workload.transformer_shape.global_attention_every",
            s.global_attention_every, L::kMaxLayers);
  if (s.global_attention_every > 0 && s.sliding_window <= 0) {
    c.Add("workload.transformer_shape.global_attention_every",
          "needs sliding_window (it names the layers that skip the window)");
  }
  // Without head_dim a head is hidden_size / attention_heads wide.
  if (s.head_dim <= 0 && s.hidden_size > 0 && s.attention_heads > 0 &&
      s.hidden_size % s.attention_heads != 0) {
    c.Add("workload.transformer_shape.attention_heads",
          absl::StrCat("must divide hidden_size (", s.hidden_size, " % ",
                       s.attention_heads, " != 0)"));
  }
}

// Model details: grouped-query attention, mixture-of-experts, batching, a
// pinned ZeRO stage and the preset name.
void CheckModelDetails(const Workload& w, Checker& c) {
  const TransformerShape& s = w.transformer_shape;
  c.Integer("workload.transformer_shape.num_kv_heads", s.num_kv_heads,
            L::kMaxAttentionHeads);
  if (s.num_kv_heads > 0 && s.attention_heads > 0 &&
      (s.num_kv_heads > s.attention_heads ||
       s.attention_heads % s.num_kv_heads != 0)) {
    c.Add("workload.transformer_shape.num_kv_heads",
          absl::StrCat("must divide attention_heads (", s.attention_heads,
                       " heads, ", s.num_kv_heads, " KV heads)"));
  }
  c.Text("workload.model_name", w.model_name);
  // Adapters train on a base model whose size decides memory and FLOPs.
  const bool adapters = w.training_method == TrainingMethod::kLora ||
                        w.training_method == TrainingMethod::kQlora;
  if (adapters && w.parameter_count <= 0 && w.model_name.empty() &&
      (s.layers <= 0 || s.hidden_size <= 0)) {
    c.Add("workload.training_method",
          "LoRA/QLoRA needs the base model's size: give parameter_count, "
          "transformer_shape or model_name");
  }
  c.Integer("workload.micro_batch_size", w.micro_batch_size,
            L::kMaxGlobalBatchSize);
  if (w.global_batch_size > 0 && w.micro_batch_size > w.global_batch_size) {
    c.Add("workload.micro_batch_size",
          absl::StrCat("must not exceed global_batch_size (",
                       w.micro_batch_size, " > ", w.global_batch_size, ")"));
  }
  c.Integer("workload.gradient_accumulation_steps",
            w.gradient_accumulation_steps, L::kMaxSteps);
  if (w.zero_stage && (*w.zero_stage < 0 || *w.zero_stage > 3)) {
    c.Add("workload.zero_stage",
          absl::StrCat("must be 0, 1, 2 or 3 (got ", *w.zero_stage, ")"));
  }
  c.Number("workload.active_parameter_count", w.active_parameter_count,
           L::kMaxParameterCount);
  c.Number("workload.forward_flops_per_example", w.forward_flops_per_example,
           L::kMaxFlopsPerExample);
  if (w.parameter_count > 0 &&
      w.active_parameter_count > w.parameter_count) {
    c.Add("workload.active_parameter_count",
          absl::StrFormat("must not exceed parameter_count (%g > %g)",
                          w.active_parameter_count, w.parameter_count));
  }
  c.Integer("workload.num_experts", w.num_experts, L::kMaxExperts);
  c.Integer("workload.experts_per_token", w.experts_per_token, L::kMaxExperts);
  if (w.experts_per_token > 0 && w.num_experts > 0 &&
      w.experts_per_token > w.num_experts) {
    c.Add("workload.experts_per_token",
          absl::StrCat("must not exceed num_experts (", w.experts_per_token,
                       " > ", w.num_experts, ")"));
  }
  // ADAM_BF16 keeps bf16 weights: fp32 and fp64 training keep wider ones.
  if (w.optimizer == Optimizer::kAdamBf16 &&
      (w.precision == Precision::kFp32 ||
       w.precision == Precision::kFp64Required)) {
    c.Add("workload.optimizer",
          "ADAM_BF16 keeps bf16 weights, gradients and moments; it needs a "
          "16-bit precision (BF16_MIXED, FP16_MIXED, FP8), not FP32 or "
          "FP64_REQUIRED");
  }
  c.Integer("workload.edge.unmapped_op_count", w.edge.unmapped_op_count,
            L::kMaxUnmappedOps);
}

void CheckMesh(const std::string& prefix, const MultisliceMesh& m, Checker& c) {
  c.Integer(prefix + "ici_data_parallelism", m.ici_data_parallelism, L::kMaxAccelerators);
  c.Integer(prefix + "ici_fsdp_parallelism", m.ici_fsdp_parallelism, L::kMaxAccelerators);
  c.Integer(prefix + "ici_tensor_parallelism", m.ici_tensor_parallelism,
            L::kMaxAccelerators);
  c.Integer(prefix + "dcn_data_parallelism", m.dcn_data_parallelism, L::kMaxSlices);
  c.Integer(prefix + "dcn_fsdp_parallelism", m.dcn_fsdp_parallelism, L::kMaxSlices);
  c.Integer(prefix + "dcn_tensor_parallelism", m.dcn_tensor_parallelism, L::kMaxSlices);
  c.Integer(prefix + "dcn_pipeline_parallelism", m.dcn_pipeline_parallelism,
            L::kMaxSlices);
}

// The current slices: one topology each, as many as slice_count says.
void CheckSlices(const CurrentSetup& cur, Checker& c) {
  if (c.Count("current_setup.slice_topologies", cur.slice_topologies,
              L::kMaxSlices)) {
    for (size_t i = 0; i < cur.slice_topologies.size(); ++i) {
      c.Topology(absl::StrCat("current_setup.slice_topologies[", i, "]"),
                 cur.slice_topologies[i]);
    }
  }
  if (!cur.slice_topologies.empty() && cur.slice_count > 0 &&
      static_cast<size_t>(cur.slice_count) != cur.slice_topologies.size()) {
    c.Add("current_setup.slice_topologies",
          absl::StrCat("must list one topology per slice (",
                       cur.slice_topologies.size(), " for slice_count ",
                       cur.slice_count, ")"));
  }
  // tpu_topology is every slice's when slice_topologies is empty; given
  // beside it, a different one would give the slices two sizes.
  if (!cur.tpu_topology.empty()) {
    for (size_t i = 0; i < cur.slice_topologies.size(); ++i) {
      if (!SameTopology(cur.slice_topologies[i], cur.tpu_topology)) {
        c.Add(absl::StrCat("current_setup.slice_topologies[", i, "]"),
              absl::StrCat("differs from current_setup.tpu_topology (",
                           cur.tpu_topology, "); give one or the other"));
        break;
      }
    }
  }
  if (cur.mesh) CheckMesh("current_setup.mesh.", *cur.mesh, c);
}

void CheckDistributionProposal(const std::string& path,
                               const DistributionProposal& d, Checker& c) {
  c.Integer(path + ".slices", d.slices, L::kMaxSlices);
  c.Integer(path + ".data_parallelism", d.data_parallelism, L::kMaxAccelerators);
  c.Integer(path + ".tensor_parallelism", d.tensor_parallelism, L::kMaxAccelerators);
  c.Integer(path + ".pipeline_parallelism", d.pipeline_parallelism, L::kMaxAccelerators);
  c.Integer(path + ".fsdp_parallelism", d.fsdp_parallelism, L::kMaxAccelerators);
  if (d.mesh) CheckMesh(path + ".mesh.", *d.mesh, c);
}

void CheckLayerWidths(const std::string& path,
                      const std::vector<int64_t>& widths, Checker& c) {
  if (!c.Count(path, widths, L::kMaxLayerWidths)) return;
  for (size_t i = 0; i < widths.size(); ++i) {
    c.Integer(absl::StrCat(path, "[", i, "]"), widths[i], L::kMaxLayerWidth);
  }
}

void CheckCommon(const Workload& w, const Goal& g, const Constraints& k,
                 const CurrentSetup& cur, const std::string& as_of,
                 Checker& c) {
  CheckWorkload(w, c);
  CheckModelDetails(w, c);
  c.Number("goal.deadline_hours", g.deadline_hours, L::kMaxHours);
  c.Number("goal.budget_usd", g.budget_usd, L::kMaxUsd);
  c.Integer("constraints.max_accelerators", k.max_accelerators,
            L::kMaxAccelerators);
  c.Count("constraints.allowed_platforms", k.allowed_platforms,
          L::kMaxAllowedPlatforms);
  if (c.Count("constraints.allowed_series", k.allowed_series,
              L::kMaxAllowedSeries)) {
    for (size_t i = 0; i < k.allowed_series.size(); ++i) {
      c.Text(absl::StrCat("constraints.allowed_series[", i, "]"),
             k.allowed_series[i], L::kMaxSeriesNameChars);
    }
  }
  c.Text("constraints.region", k.region);
  c.Text("current_setup.hardware", cur.hardware);
  c.Integer("current_setup.accelerator_count", cur.accelerator_count,
            L::kMaxAccelerators);
  c.Integer("current_setup.node_count", cur.node_count, L::kMaxNodes);
  c.Integer("current_setup.slice_count", cur.slice_count, L::kMaxSlices);
  c.Topology("current_setup.tpu_topology", cur.tpu_topology);
  c.Count("current_setup.symptoms", cur.symptoms, L::kMaxSymptoms);
  c.Integer("current_setup.current_global_batch_size",
            cur.current_global_batch_size, L::kMaxGlobalBatchSize);
  c.Integer("current_setup.max_tolerated_global_batch_size",
            cur.max_tolerated_global_batch_size, L::kMaxGlobalBatchSize);
  CheckLayerWidths("current_setup.layer_widths", cur.layer_widths, c);
  c.Number("current_setup.observed_hours", cur.observed_hours, L::kMaxHours);
  CheckSlices(cur, c);
  c.Date("as_of", as_of);
}

void CheckHardwareProposal(const std::string& path, const HardwareProposal& h,
                           Checker& c) {
  c.Text(path + ".series", h.series);
  c.Text(path + ".machine_type", h.machine_type);
  c.Text(path + ".accelerator", h.accelerator);
  c.Topology(path + ".tpu_topology", h.tpu_topology);
  c.Integer(path + ".slices", h.slices, L::kMaxSlices);
  c.Integer(path + ".count", h.count, L::kMaxAccelerators);
  if (h.layout) CheckDistributionProposal(path + ".layout", *h.layout, c);
}

// A fact about the workload's size or work: what memory, FLOPs and time
// are computed from (the model's size, its embedding tables or the team's
// own per-device footprint, or the data set).
bool GivesWorkloadSize(const Workload& w) {
  // != 0: a negative or non-finite size is stated, and named by its own
  // violation.
  const TransformerShape& s = w.transformer_shape;
  return w.parameter_count != 0 || w.active_parameter_count != 0 ||
         s.layers != 0 || s.hidden_size != 0 || !w.model_name.empty() ||
         w.embedding_table_gib != 0 || w.per_device_memory_gib != 0 ||
         w.dataset_tokens != 0 || w.dataset_examples != 0 ||
         w.dataset_gib != 0;
}

// A fact one of SPEC §4's hard rules (planner/rules.cc) narrows the
// hardware with by itself, whatever the workload's size: a number format
// only some accelerators carry a sourced peak for (fp64, fp8), kernels or
// ops only some platforms run, on-device inference (edge devices only),
// and the request's own platform, series or run-platform limits. A
// framework is not one by itself (every framework has hardware that runs
// it), nor is an objective, a budget, a deadline or a count limit: those
// rank or bound hardware, they do not pick it.
bool GivesHardwareDecidingFact(const Workload& w, const Constraints& k) {
  return w.precision == Precision::kFp64Required ||
         w.precision == Precision::kFp8 || w.custom_cuda_kernels ||
         w.cpu_only_custom_ops || !w.tpu_unsuited_ops.empty() ||
         w.deployment_target == DeploymentTarget::kOnDeviceInference ||
         k.framework_agnostic_distribution || !k.allowed_platforms.empty() ||
         !k.allowed_series.empty() || k.run_platform != RunPlatform::kUnspecified;
}

// SPEC §5: a request with nothing to plan is refused, not answered with the
// cheapest hardware for an unknown job.
void CheckSomethingToPlan(const Workload& w, const Constraints& k,
                          const CurrentSetup& cur, Checker& c) {
  if (GivesWorkloadSize(w) || GivesHardwareDecidingFact(w, k) ||
      !cur.hardware.empty() || !cur.symptoms.empty()) {
    return;
  }
  c.Add("workload",
        "gives nothing to plan: give the model's size (parameter_count, "
        "transformer_shape, model_name, embedding_table_gib or "
        "per_device_memory_gib), the data set's size (dataset_tokens, "
        "dataset_examples or dataset_gib), the current setup "
        "(current_setup.hardware or current_setup.symptoms), or a fact that "
        "decides the hardware (precision FP64_REQUIRED or FP8, "
        "custom_cuda_kernels, cpu_only_custom_ops, tpu_unsuited_ops, "
        "deployment_target ON_DEVICE_INFERENCE, "
        "constraints.framework_agnostic_distribution, "
        "constraints.allowed_platforms, constraints.allowed_series or "
        "constraints.run_platform)");
}

}  // namespace

std::vector<FieldViolation> ValidatePlanRequest(const PlanRequest& r) {
  std::vector<FieldViolation> out;
  Checker c(&out);
  CheckCommon(r.workload, r.goal, r.constraints, r.current_setup, r.as_of, c);
  CheckSomethingToPlan(r.workload, r.constraints, r.current_setup, c);
  return out;
}

std::vector<FieldViolation> ValidateReviewRequest(const ReviewRequest& r) {
  std::vector<FieldViolation> out;
  Checker c(&out);
  CheckCommon(r.workload, r.goal, r.constraints, r.current_setup, r.as_of, c);
  if (r.proposals.empty())
    c.Add("proposals", "must hold at least one proposal");
  if (!c.Count("proposals", r.proposals, L::kMaxProposals)) return out;
  for (size_t i = 0; i < r.proposals.size(); ++i) {
    const Proposal& p = r.proposals[i];
    const std::string path = absl::StrCat("proposals[", i, "]");
    c.Text(path + ".label", p.label);
    const int kinds = p.hardware.has_value() + p.distribution.has_value() +
                      p.remedy.has_value();
    if (kinds != 1) {
      c.Add(path, "must set exactly one of hardware, distribution, remedy");
    }
    if (p.hardware) CheckHardwareProposal(path + ".hardware", *p.hardware, c);
    if (p.distribution) {
      CheckDistributionProposal(path + ".distribution", *p.distribution, c);
    }
    if (p.remedy) {
      const RemedyProposal& m = *p.remedy;
      if (m.kind == RemedyKind::kUnspecified) {
        c.Add(path + ".remedy.kind", "must be set");
      }
      if (m.target)
        CheckHardwareProposal(path + ".remedy.target", *m.target, c);
      c.Integer(path + ".remedy.global_batch_size", m.global_batch_size,
                L::kMaxGlobalBatchSize);
      CheckLayerWidths(path + ".remedy.layer_widths", m.layer_widths, c);
    }
  }
  return out;
}

std::vector<FieldViolation> ValidateListRequest(const ListRequest& r) {
  std::vector<FieldViolation> out;
  Checker c(&out);
  c.Count("platforms", r.platforms, L::kMaxListPlatforms);
  c.Number("min_memory_gib", r.min_memory_gib, L::kMaxGib);
  return out;
}

}  // namespace accelplan::planner
