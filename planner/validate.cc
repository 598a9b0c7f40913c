// Semantic validation of decoded requests. Every violation is reported at
// once, named by its proto field path, so a caller fixes all of them in one
// round trip.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/planner.h"
#include "planner/util.h"

namespace accelplan::planner {
namespace {

// Upper bounds that no real training job reaches; anything above is a unit
// mistake or garbage, and a plan built on it would be nonsense.
constexpr double kMaxParams = 1e15;
constexpr double kMaxGib = 1e9;      // an exabyte
constexpr double kMaxTokens = 1e17;
constexpr double kMaxExamples = 1e15;
constexpr double kMaxHours = 24.0 * 365 * 10;
constexpr double kMaxUsd = 1e12;
constexpr int64_t kMaxBatch = int64_t{1} << 32;
constexpr int64_t kMaxSteps = int64_t{1} << 40;
constexpr int kMaxCount = 1 << 20;

class Checker {
 public:
  explicit Checker(std::vector<FieldViolation>* out) : out_(out) {}

  void Number(const std::string& field, double v, double max) {
    if (!std::isfinite(v)) {
      Add(field, "must be a finite number");
    } else if (v < 0) {
      Add(field, absl::StrFormat("must not be negative (got %g)", v));
    } else if (v > max) {
      Add(field, absl::StrFormat("is implausibly large (got %g, max %g)", v, max));
    }
  }
  void Integer(const std::string& field, int64_t v, int64_t max) {
    if (v < 0) {
      Add(field, absl::StrCat("must not be negative (got ", v, ")"));
    } else if (v > max) {
      Add(field, absl::StrCat("is implausibly large (got ", v, ", max ", max, ")"));
    }
  }
  void Date(const std::string& field, const std::string& v) {
    if (!v.empty() && !ParseDate(v).has_value()) {
      Add(field, absl::StrCat("must be a date YYYY-MM-DD (got \"", v, "\")"));
    }
  }
  void Topology(const std::string& field, const std::string& v) {
    if (!v.empty() && TopologyChips(v) <= 0) {
      Add(field, absl::StrCat("must look like 2x2 or 2x2x1 (got \"", v, "\")"));
    }
  }
  void Text(const std::string& field, const std::string& v) {
    if (v.size() > 256) Add(field, "is longer than 256 characters");
  }
  void Add(const std::string& field, std::string description) {
    out_->push_back({field, std::move(description)});
  }

 private:
  std::vector<FieldViolation>* out_;
};

void CheckWorkload(const Workload& w, Checker& c) {
  c.Text("workload.framework_version", w.framework_version);
  c.Number("workload.parameter_count", w.parameter_count, kMaxParams);
  c.Number("workload.embedding_table_gib", w.embedding_table_gib, kMaxGib);
  c.Number("workload.per_device_memory_gib", w.per_device_memory_gib, kMaxGib);
  c.Number("workload.dataset_tokens", w.dataset_tokens, kMaxTokens);
  c.Number("workload.dataset_examples", w.dataset_examples, kMaxExamples);
  c.Number("workload.dataset_gib", w.dataset_gib, kMaxGib);
  c.Number("workload.epochs", w.epochs, 1e6);
  c.Integer("workload.steps", w.steps, kMaxSteps);
  c.Integer("workload.global_batch_size", w.global_batch_size, kMaxBatch);
  c.Number("workload.checkpoint_interval_minutes",
           w.checkpoint_interval_minutes, 1e7);
  c.Number("workload.lora_rank", w.lora_rank, 1e5);
  const TransformerShape& s = w.transformer_shape;
  c.Integer("workload.transformer_shape.layers", s.layers, 100000);
  c.Integer("workload.transformer_shape.hidden_size", s.hidden_size, 1 << 20);
  c.Integer("workload.transformer_shape.attention_heads", s.attention_heads,
            1 << 16);
  c.Integer("workload.transformer_shape.sequence_length", s.sequence_length,
            1 << 24);
  c.Integer("workload.transformer_shape.vocab_size", s.vocab_size, 1 << 24);
  c.Integer("workload.transformer_shape.ffn_hidden_size", s.ffn_hidden_size,
            1 << 22);
  if (s.hidden_size > 0 && s.attention_heads > 0 &&
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
  c.Integer("workload.transformer_shape.num_kv_heads", s.num_kv_heads, 1 << 16);
  if (s.num_kv_heads > 0 && s.attention_heads > 0 &&
      (s.num_kv_heads > s.attention_heads ||
       s.attention_heads % s.num_kv_heads != 0)) {
    c.Add("workload.transformer_shape.num_kv_heads",
          absl::StrCat("must divide attention_heads (", s.attention_heads,
                       " heads, ", s.num_kv_heads, " KV heads)"));
  }
  c.Text("workload.model_name", w.model_name);
  c.Integer("workload.micro_batch_size", w.micro_batch_size, kMaxBatch);
  if (w.global_batch_size > 0 && w.micro_batch_size > w.global_batch_size) {
    c.Add("workload.micro_batch_size",
          absl::StrCat("must not exceed global_batch_size (",
                       w.micro_batch_size, " > ", w.global_batch_size, ")"));
  }
  c.Integer("workload.gradient_accumulation_steps",
            w.gradient_accumulation_steps, kMaxSteps);
  if (w.zero_stage && (*w.zero_stage < 0 || *w.zero_stage > 3)) {
    c.Add("workload.zero_stage",
          absl::StrCat("must be 0, 1, 2 or 3 (got ", *w.zero_stage, ")"));
  }
  c.Number("workload.active_parameter_count", w.active_parameter_count,
           kMaxParams);
  if (w.parameter_count > 0 &&
      w.active_parameter_count > w.parameter_count) {
    c.Add("workload.active_parameter_count",
          absl::StrFormat("must not exceed parameter_count (%g > %g)",
                          w.active_parameter_count, w.parameter_count));
  }
  c.Integer("workload.num_experts", w.num_experts, 1 << 16);
  c.Integer("workload.edge.unmapped_op_count", w.edge.unmapped_op_count,
            1 << 20);
}

void CheckMesh(const std::string& prefix, const MultisliceMesh& m, Checker& c) {
  c.Integer(prefix + "ici_data_parallelism", m.ici_data_parallelism, kMaxCount);
  c.Integer(prefix + "ici_fsdp_parallelism", m.ici_fsdp_parallelism, kMaxCount);
  c.Integer(prefix + "ici_tensor_parallelism", m.ici_tensor_parallelism,
            kMaxCount);
  c.Integer(prefix + "dcn_data_parallelism", m.dcn_data_parallelism, 4096);
  c.Integer(prefix + "dcn_fsdp_parallelism", m.dcn_fsdp_parallelism, 4096);
  c.Integer(prefix + "dcn_tensor_parallelism", m.dcn_tensor_parallelism, 4096);
  c.Integer(prefix + "dcn_pipeline_parallelism", m.dcn_pipeline_parallelism,
            4096);
}

// The current slices: one topology each, as many as slice_count says.
void CheckSlices(const CurrentSetup& cur, Checker& c) {
  for (size_t i = 0; i < cur.slice_topologies.size(); ++i) {
    c.Topology(absl::StrCat("current_setup.slice_topologies[", i, "]"),
               cur.slice_topologies[i]);
  }
  if (!cur.slice_topologies.empty() && cur.slice_count > 0 &&
      static_cast<size_t>(cur.slice_count) != cur.slice_topologies.size()) {
    c.Add("current_setup.slice_topologies",
          absl::StrCat("must list one topology per slice (",
                       cur.slice_topologies.size(), " for slice_count ",
                       cur.slice_count, ")"));
  }
  if (cur.mesh) CheckMesh("current_setup.mesh.", *cur.mesh, c);
}

void CheckDistributionProposal(const std::string& path,
                               const DistributionProposal& d, Checker& c) {
  c.Integer(path + ".slices", d.slices, 4096);
  c.Integer(path + ".data_parallelism", d.data_parallelism, kMaxCount);
  c.Integer(path + ".tensor_parallelism", d.tensor_parallelism, kMaxCount);
  c.Integer(path + ".pipeline_parallelism", d.pipeline_parallelism, kMaxCount);
  c.Integer(path + ".fsdp_parallelism", d.fsdp_parallelism, kMaxCount);
  if (d.mesh) CheckMesh(path + ".mesh.", *d.mesh, c);
}

void CheckCommon(const Workload& w, const Goal& g, const Constraints& k,
                 const CurrentSetup& cur, const std::string& as_of,
                 Checker& c) {
  CheckWorkload(w, c);
  CheckModelDetails(w, c);
  c.Number("goal.deadline_hours", g.deadline_hours, kMaxHours);
  c.Number("goal.budget_usd", g.budget_usd, kMaxUsd);
  c.Integer("constraints.max_accelerators", k.max_accelerators, kMaxCount);
  for (size_t i = 0; i < k.allowed_series.size(); ++i) {
    c.Text(absl::StrCat("constraints.allowed_series[", i, "]"),
           k.allowed_series[i]);
  }
  c.Text("constraints.region", k.region);
  c.Text("current_setup.hardware", cur.hardware);
  c.Integer("current_setup.accelerator_count", cur.accelerator_count,
            kMaxCount);
  c.Integer("current_setup.node_count", cur.node_count, kMaxCount);
  c.Integer("current_setup.slice_count", cur.slice_count, 4096);
  c.Topology("current_setup.tpu_topology", cur.tpu_topology);
  c.Integer("current_setup.current_global_batch_size",
            cur.current_global_batch_size, kMaxBatch);
  c.Integer("current_setup.max_tolerated_global_batch_size",
            cur.max_tolerated_global_batch_size, kMaxBatch);
  for (size_t i = 0; i < cur.layer_widths.size(); ++i) {
    c.Integer(absl::StrCat("current_setup.layer_widths[", i, "]"),
              cur.layer_widths[i], 1 << 24);
  }
  c.Number("current_setup.observed_hours", cur.observed_hours, kMaxHours);
  CheckSlices(cur, c);
  c.Date("as_of", as_of);
}

void CheckHardwareProposal(const std::string& path, const HardwareProposal& h,
                           Checker& c) {
  c.Text(path + ".series", h.series);
  c.Text(path + ".machine_type", h.machine_type);
  c.Text(path + ".accelerator", h.accelerator);
  c.Topology(path + ".tpu_topology", h.tpu_topology);
  c.Integer(path + ".slices", h.slices, 4096);
  c.Integer(path + ".count", h.count, kMaxCount);
  if (h.layout) CheckDistributionProposal(path + ".layout", *h.layout, c);
}

}  // namespace

std::vector<FieldViolation> ValidatePlanRequest(const PlanRequest& r) {
  std::vector<FieldViolation> out;
  Checker c(&out);
  CheckCommon(r.workload, r.goal, r.constraints, r.current_setup, r.as_of, c);
  return out;
}

std::vector<FieldViolation> ValidateReviewRequest(const ReviewRequest& r) {
  std::vector<FieldViolation> out;
  Checker c(&out);
  CheckCommon(r.workload, r.goal, r.constraints, r.current_setup, r.as_of, c);
  if (r.proposals.empty()) c.Add("proposals", "must hold at least one proposal");
  if (r.proposals.size() > 64) c.Add("proposals", "at most 64 proposals");
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
      if (m.target) CheckHardwareProposal(path + ".remedy.target", *m.target, c);
      c.Integer(path + ".remedy.global_batch_size", m.global_batch_size, kMaxBatch);
      for (size_t j = 0; j < m.layer_widths.size(); ++j) {
        c.Integer(absl::StrCat(path, ".remedy.layer_widths[", j, "]"),
                  m.layer_widths[j], 1 << 24);
      }
    }
  }
  return out;
}

std::vector<FieldViolation> ValidateListRequest(const ListRequest& r) {
  std::vector<FieldViolation> out;
  Checker c(&out);
  c.Number("min_memory_gib", r.min_memory_gib, kMaxGib);
  return out;
}

}  // namespace accelplan::planner
