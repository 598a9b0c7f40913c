// The flags that describe one training job (plan and review): model,
// dataset, goal, constraints, where it runs and the current setup.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/cli/requests.h"

namespace accelplan::cli {
namespace {

using google::protobuf::EnumDescriptor;

// Every number flag sets a field whose 0 means "not given" in the API
// (proto3): a stated 0 would be planned as if the flag were left out, so
// it is refused, naming the flag.
absl::StatusOr<double> NumberFlag(const ParsedFlags& flags,
                                  const std::string& name) {
  absl::StatusOr<double> value = ParseQuantity(flags.Get(name));
  if (!value.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, ": ", value.status().message()));
  }
  if (*value == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name,
                     " 0 would read as not given (0 is the API's unset "
                     "value): give a positive value, or leave the flag out"));
  }
  return value;
}

// A count: "8B", "2e10", "1024"; whole and within int64.
absl::StatusOr<int64_t> CountFlag(const ParsedFlags& flags,
                                  const std::string& name) {
  absl::StatusOr<double> value = NumberFlag(flags, name);
  if (!value.ok()) return value.status();
  if (*value != std::floor(*value) || std::fabs(*value) > 9e18) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", name, " needs a whole number, got \"", flags.Get(name), "\""));
  }
  return static_cast<int64_t>(*value);
}

absl::StatusOr<int32_t> SmallCountFlag(const ParsedFlags& flags,
                                       const std::string& name) {
  absl::StatusOr<int64_t> value = CountFlag(flags, name);
  if (!value.ok()) return value.status();
  if (*value > 2147483647 || *value < -2147483647) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, " is too large: ", flags.Get(name)));
  }
  return static_cast<int32_t>(*value);
}

absl::StatusOr<int> EnumFlag(const ParsedFlags& flags, const std::string& name,
                             const EnumDescriptor* type) {
  absl::StatusOr<int> value = ParseEnum(type, flags.Get(name));
  if (!value.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, ": ", value.status().message()));
  }
  return value;
}

bool IsTrue(const ParsedFlags& flags, const std::string& name) {
  return flags.Get(name) == "true";
}

// Every value of a repeatable flag, split on commas.
std::vector<std::string> ListValues(const ParsedFlags& flags,
                                    const std::string& name) {
  std::vector<std::string> out;
  auto it = flags.all_values.find(name);
  if (it == flags.all_values.end()) return out;
  for (const std::string& value : it->second) {
    for (absl::string_view part :
         absl::StrSplit(value, ',', absl::SkipEmpty())) {
      out.emplace_back(absl::StripAsciiWhitespace(part));
    }
  }
  return out;
}

// Sets *field from --name when given; `parse` turns the flag into a value.
#define ACCELPLAN_SET(name, parse, setter)                \
  if (flags.Has(name)) {                                  \
    auto parsed_value = parse(flags, name);               \
    if (!parsed_value.ok()) return parsed_value.status(); \
    setter(*parsed_value);                                \
  }

absl::Status ApplyModel(const ParsedFlags& flags, v1::Workload* w) {
  if (flags.Has("framework")) {
    absl::StatusOr<int> v =
        EnumFlag(flags, "framework", v1::Framework_descriptor());
    if (!v.ok()) return v.status();
    w->set_framework(static_cast<v1::Framework>(*v));
  }
  if (flags.Has("framework_version")) {
    w->set_framework_version(flags.Get("framework_version"));
  }
  if (flags.Has("pytorch_xla"))
    w->set_pytorch_xla_ok(IsTrue(flags, "pytorch_xla"));
  if (flags.Has("model")) w->set_model_name(flags.Get("model"));
  if (flags.Has("model_kind")) {
    absl::StatusOr<int> v =
        EnumFlag(flags, "model_kind", v1::ModelKind_descriptor());
    if (!v.ok()) return v.status();
    w->set_model_kind(static_cast<v1::ModelKind>(*v));
  }
  ACCELPLAN_SET("params", NumberFlag, w->set_parameter_count);
  ACCELPLAN_SET("active_params", NumberFlag, w->set_active_parameter_count);
  ACCELPLAN_SET("experts", SmallCountFlag, w->set_num_experts);
  ACCELPLAN_SET("experts_per_token", SmallCountFlag,
                w->set_experts_per_token);
  ACCELPLAN_SET("forward_flops", NumberFlag, w->set_forward_flops_per_example);
  if (flags.Has("method")) {
    absl::StatusOr<int> v =
        EnumFlag(flags, "method", v1::TrainingMethod_descriptor());
    if (!v.ok()) return v.status();
    w->set_training_method(static_cast<v1::TrainingMethod>(*v));
  }
  if (flags.Has("precision")) {
    absl::StatusOr<int> v =
        EnumFlag(flags, "precision", v1::Precision_descriptor());
    if (!v.ok()) return v.status();
    w->set_precision(static_cast<v1::Precision>(*v));
  }
  if (flags.Has("optimizer")) {
    absl::StatusOr<int> v =
        EnumFlag(flags, "optimizer", v1::Optimizer_descriptor());
    if (!v.ok()) return v.status();
    w->set_optimizer(static_cast<v1::Optimizer>(*v));
  }
  if (flags.Has("recompute")) {
    absl::StatusOr<int> v =
        EnumFlag(flags, "recompute", v1::Recompute_descriptor());
    if (!v.ok()) return v.status();
    w->set_recompute(static_cast<v1::Recompute>(*v));
  }
  ACCELPLAN_SET("seq_len", SmallCountFlag,
                w->mutable_transformer_shape()->set_sequence_length);
  return absl::OkStatus();
}

absl::Status ApplyDataset(const ParsedFlags& flags, v1::Workload* w) {
  ACCELPLAN_SET("tokens", NumberFlag, w->set_dataset_tokens);
  ACCELPLAN_SET("examples", NumberFlag, w->set_dataset_examples);
  ACCELPLAN_SET("dataset_gib", NumberFlag, w->set_dataset_gib);
  ACCELPLAN_SET("epochs", NumberFlag, w->set_epochs);
  ACCELPLAN_SET("steps", CountFlag, w->set_steps);
  ACCELPLAN_SET("batch", CountFlag, w->set_global_batch_size);
  ACCELPLAN_SET("micro_batch", CountFlag, w->set_micro_batch_size);
  if (flags.Has("checkpoints"))
    w->set_checkpoints(IsTrue(flags, "checkpoints"));
  if (flags.Has("checkpoint_minutes")) {
    absl::StatusOr<double> v = NumberFlag(flags, "checkpoint_minutes");
    if (!v.ok()) return v.status();
    w->set_checkpoint_interval_minutes(*v);
    if (!flags.Has("checkpoints")) w->set_checkpoints(true);
  }
  return absl::OkStatus();
}

absl::Status ApplyGoal(const ParsedFlags& flags, v1::Goal* g) {
  if (flags.Has("objective")) {
    absl::StatusOr<int> v =
        EnumFlag(flags, "objective", v1::Objective_descriptor());
    if (!v.ok()) return v.status();
    g->set_objective(static_cast<v1::Objective>(*v));
  }
  ACCELPLAN_SET("deadline_hours", NumberFlag, g->set_deadline_hours);
  if (flags.Has("hard_deadline")) {
    g->set_hard_deadline(IsTrue(flags, "hard_deadline"));
  }
  ACCELPLAN_SET("budget_usd", NumberFlag, g->set_budget_usd);
  return absl::OkStatus();
}

absl::Status ApplyConstraints(const ParsedFlags& flags, v1::Constraints* c) {
  if (flags.Has("single_host"))
    c->set_single_host_only(IsTrue(flags, "single_host"));
  ACCELPLAN_SET("max_accelerators", SmallCountFlag, c->set_max_accelerators);
  if (flags.Has("spot")) c->set_spot_allowed(IsTrue(flags, "spot"));
  if (flags.Has("flex_start"))
    c->set_flex_start_allowed(IsTrue(flags, "flex_start"));
  if (flags.Has("reservation")) {
    c->set_reservation_available(IsTrue(flags, "reservation"));
  }
  if (flags.Has("keep_current")) {
    c->set_keep_current_hardware(IsTrue(flags, "keep_current"));
  }
  if (flags.Has("region")) c->set_region(flags.Get("region"));
  for (const std::string& series : ListValues(flags, "series")) {
    c->add_allowed_series(series);
  }
  return ApplyPlatforms(flags, c);
}

absl::Status ApplyCurrentSetup(const ParsedFlags& flags, v1::CurrentSetup* s) {
  if (flags.Has("current")) s->set_hardware(flags.Get("current"));
  ACCELPLAN_SET("nodes", SmallCountFlag, s->set_node_count);
  ACCELPLAN_SET("accelerators_per_node", SmallCountFlag,
                s->set_accelerator_count);
  ACCELPLAN_SET("slices", SmallCountFlag, s->set_slice_count);
  if (flags.Has("topology")) s->set_tpu_topology(flags.Get("topology"));
  ACCELPLAN_SET("observed_hours", NumberFlag, s->set_observed_hours);
  if (flags.Has("current_strategy")) {
    absl::StatusOr<int> v =
        EnumFlag(flags, "current_strategy", v1::Strategy_descriptor());
    if (!v.ok()) return v.status();
    s->set_strategy(static_cast<v1::Strategy>(*v));
  }
  ACCELPLAN_SET("current_batch", CountFlag, s->set_current_global_batch_size);
  if (flags.Has("nccl")) s->set_uses_nccl(IsTrue(flags, "nccl"));
  for (const std::string& name : ListValues(flags, "symptom")) {
    absl::StatusOr<int> v = ParseEnum(v1::Symptom_descriptor(), name);
    if (!v.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--symptom: ", v.status().message()));
    }
    s->add_symptoms(static_cast<v1::Symptom>(*v));
  }
  return absl::OkStatus();
}

#undef ACCELPLAN_SET

}  // namespace

absl::Status ApplyPlatforms(const ParsedFlags& flags, v1::Constraints* c) {
  std::vector<v1::Platform> hardware;
  std::vector<std::pair<v1::RunPlatform, std::string>> run_on;
  auto add_hardware = [&hardware](v1::Platform p) {
    for (v1::Platform existing : hardware) {
      if (existing == p) return;
    }
    hardware.push_back(p);
  };
  for (const std::string& name : ListValues(flags, "hardware")) {
    absl::StatusOr<int> p = ParseEnum(v1::Platform_descriptor(), name);
    if (!p.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--hardware: unknown hardware \"", name,
          "\"; expected cpu|gpu|tpu|edge (where the job runs is --run_on)"));
    }
    add_hardware(static_cast<v1::Platform>(*p));
  }
  for (const std::string& name : ListValues(flags, "run_on")) {
    absl::StatusOr<int> r = ParseEnum(v1::RunPlatform_descriptor(), name);
    if (!r.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--run_on: unknown platform \"", name,
          "\"; expected vertex|gke|compute_engine (the hardware family is "
          "--hardware)"));
    }
    run_on.emplace_back(static_cast<v1::RunPlatform>(*r), "--run_on=" + name);
  }
  // --platform: the older spelling of both.
  for (const std::string& name : ListValues(flags, "platform")) {
    if (absl::StatusOr<int> p = ParseEnum(v1::Platform_descriptor(), name);
        p.ok()) {
      add_hardware(static_cast<v1::Platform>(*p));
      continue;
    }
    absl::StatusOr<int> r = ParseEnum(v1::RunPlatform_descriptor(), name);
    if (!r.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--platform: unknown platform \"", name,
          "\"; expected cpu|gpu|tpu|edge or vertex|gke|compute_engine"));
    }
    run_on.emplace_back(static_cast<v1::RunPlatform>(*r), "--platform=" + name);
  }
  for (const auto& [platform, given] : run_on) {
    if (platform != run_on.front().first) {
      return absl::InvalidArgumentError(absl::StrCat(
          "conflicting places to run the job: ", run_on.front().second, " and ",
          given, " (a job runs in one place; give one --run_on)"));
    }
  }
  if (!hardware.empty()) {
    // Flags extend the file's list; duplicates are dropped.
    for (v1::Platform p : hardware) {
      bool present = false;
      for (int existing : c->allowed_platforms()) present |= existing == p;
      if (!present) c->add_allowed_platforms(p);
    }
  }
  if (!run_on.empty()) c->set_run_platform(run_on.front().first);
  return absl::OkStatus();
}

absl::Status ApplyWorkloadFlags(const ParsedFlags& flags, const JobParts& job) {
  for (absl::Status s :
       {ApplyModel(flags, job.workload), ApplyDataset(flags, job.workload),
        ApplyGoal(flags, job.goal), ApplyConstraints(flags, job.constraints),
        ApplyCurrentSetup(flags, job.current_setup)}) {
    if (!s.ok()) return s;
  }
  if (flags.Has("as_of")) *job.as_of = flags.Get("as_of");
  return absl::OkStatus();
}

}  // namespace accelplan::cli
