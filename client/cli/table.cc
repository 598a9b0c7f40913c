#include "client/cli/table.h"

#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "client/cli/units.h"

namespace accelplan::cli {
namespace {

// "TPU", "MIN_COST" → "tpu", "min_cost": the spelling the flags use.
template <typename Enum>
std::string EnumName(const google::protobuf::EnumDescriptor* type, Enum value) {
  const auto* v = type->FindValueByNumber(static_cast<int>(value));
  return v == nullptr ? absl::StrCat(static_cast<int>(value))
                      : absl::AsciiStrToLower(v->name());
}

std::string CodeNames(const google::protobuf::RepeatedField<int>& codes) {
  std::vector<std::string> names;
  for (int code : codes) {
    const auto* v = v1::ReasonCode_descriptor()->FindValueByNumber(code);
    names.push_back(v == nullptr ? absl::StrCat(code) : v->name());
  }
  return absl::StrJoin(names, ",");
}

std::string Usd(double usd) {
  if (usd >= 100) return absl::StrFormat("$%.0f", usd);
  return absl::StrFormat("$%.2f", usd);
}

std::string RangeText(const v1::Range& range, bool money) {
  auto fmt = [money](double v) {
    return money ? Usd(v) : absl::StrFormat("%.1f", v);
  };
  if (range.low() == 0 && range.high() == 0) return fmt(range.expected());
  return absl::StrCat(fmt(range.expected()), " (", fmt(range.low()), "–",
                      fmt(range.high()), ")");
}

// `text` word-wrapped to 120 columns, every line indented by `indent`.
std::string WrapAt120(const std::string& text, size_t indent) {
  const std::string pad(indent, ' ');
  std::string out, line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line.empty() && DisplayWidth(line) + 1 + DisplayWidth(word) > 120) {
      absl::StrAppend(&out, line, "\n");
      line.clear();
    }
    absl::StrAppend(&line, line.empty() ? pad : " ", word);
  }
  if (!line.empty()) absl::StrAppend(&out, line, "\n");
  return out;
}

// `optimizer_offload`: the host memory holds the optimizer partition
// (Distribution.optimizer_offload), else offloaded activations.
void AppendEstimates(const v1::Estimates& e, bool optimizer_offload,
                     const std::string& indent, std::string* out) {
  const v1::MemoryBreakdown& m = e.memory_per_device();
  if (Known(m.total_gib())) {  // unknown memory is omitted, never 0.0
    absl::StrAppendFormat(
        out,
        "%smemory/device: %.1f GiB needed of %.1f GiB usable (device %.1f "
        "GiB, %.0f%% headroom)",
        indent, m.total_gib(), m.usable_gib(), m.device_memory_gib(),
        m.headroom_fraction() * 100);
    // The parts exist only where the planner modelled them (not for a
    // stated per-device need or a classical working set).
    if (m.has_weights_gib()) {
      absl::StrAppendFormat(
          out,
          ": weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f, "
          "embeddings %.1f",
          m.weights_gib(), m.gradients_gib(), m.optimizer_gib(),
          m.activations_gib(), m.embeddings_gib());
    }
    absl::StrAppend(out, "\n");
    if (m.has_host_offload_gib()) {
      absl::StrAppendFormat(out, "%shost memory/device: %.1f GiB of %s", indent,
                            m.host_offload_gib(),
                            optimizer_offload ? "offloaded optimizer state"
                                              : "offloaded activations");
      if (m.has_host_usable_gib()) {
        absl::StrAppendFormat(out, " of %.1f GiB usable", m.host_usable_gib());
      }
      absl::StrAppend(out, "\n");
    }
  }
  std::vector<std::string> timing;
  if (Known(e.total_hours().expected())) {
    const std::string human = HumanHours(e.total_hours().expected());
    timing.push_back(absl::StrCat(
        "time: ", RangeText(e.total_hours(), false), " h",
        absl::EndsWith(human, " h") ? "" : absl::StrCat(" (", human, ")")));
  }
  if (Known(e.step_time_seconds())) {
    timing.push_back(absl::StrFormat("step %.3g s", e.step_time_seconds()));
  }
  if (Known(e.mfu_high())) {
    timing.push_back(absl::StrFormat("MFU %.0f–%.0f%%", e.mfu_low() * 100,
                                     e.mfu_high() * 100));
  }
  if (Known(e.step_time_seconds())) {
    timing.push_back(absl::StrFormat("communication %.0f%% of step",
                                     e.communication_fraction() * 100));
  }
  if (!timing.empty()) {
    absl::StrAppend(out, indent, absl::StrJoin(timing, "; "), "\n");
  }
  if (!e.price_known()) {
    absl::StrAppend(out, indent, "cost: price unknown\n");
  } else {
    absl::StrAppend(out, indent, "cost: ");
    if (e.on_demand_cost_usd().expected() > 0) {
      absl::StrAppend(out, "on-demand ",
                      RangeText(e.on_demand_cost_usd(), true));
      if (e.spot_cost_usd().expected() > 0) {
        absl::StrAppend(out, ", Spot ", RangeText(e.spot_cost_usd(), true));
      }
      absl::StrAppend(out, "; ");
    }
    absl::StrAppend(out, Usd(e.on_demand_hourly_usd()), "/h on-demand");
    if (e.spot_hourly_usd() > 0) {
      absl::StrAppend(out, ", ", Usd(e.spot_hourly_usd()), "/h Spot");
    }
    absl::StrAppend(out, " (", e.price_region(), ", ", e.price_date(), ")\n");
  }
  if (Known(e.tokens_per_second())) {
    absl::StrAppend(out, indent,
                    "throughput: ", HumanCount(e.tokens_per_second()),
                    " tokens/s");
    if (e.price_known() && Known(e.cost_per_million_tokens_usd())) {
      absl::StrAppend(out, ", ", Usd(e.cost_per_million_tokens_usd()),
                      " per 1M tokens");
    }
    absl::StrAppend(out, "\n");
  }
}

void AppendDistribution(const v1::Distribution& d, const std::string& indent,
                        std::string* out) {
  if (d.strategy() == v1::STRATEGY_UNSPECIFIED) return;
  absl::StrAppend(out, indent, "distribution: ",
                  EnumName(v1::Strategy_descriptor(), d.strategy()));
  std::vector<std::string> degrees;
  auto add = [&degrees](const char* name, int value) {
    if (value > 0) degrees.push_back(absl::StrCat(name, "=", value));
  };
  add("data", d.data_parallelism());
  add("fsdp", d.fsdp_parallelism());
  add("zero_stage", d.zero_stage());
  add("tensor", d.tensor_parallelism());
  add("pipeline", d.pipeline_parallelism());
  if (d.optimizer_offload()) degrees.push_back("optimizer_offload");
  if (d.has_multislice()) {
    const v1::MultisliceMesh& m = d.multislice();
    add("ici_data", m.ici_data_parallelism());
    add("ici_fsdp", m.ici_fsdp_parallelism());
    add("ici_tensor", m.ici_tensor_parallelism());
    add("dcn_data", m.dcn_data_parallelism());
    add("dcn_fsdp", m.dcn_fsdp_parallelism());
    add("dcn_tensor", m.dcn_tensor_parallelism());
    add("dcn_pipeline", m.dcn_pipeline_parallelism());
  }
  if (!degrees.empty())
    absl::StrAppend(out, " (", absl::StrJoin(degrees, ", "), ")");
  if (!d.framework_api().empty())
    absl::StrAppend(out, " via ", d.framework_api());
  if (d.horovod()) absl::StrAppend(out, ", Horovod");
  absl::StrAppend(out, "\n");
  if (d.has_reduction_server()) {
    absl::StrAppendFormat(out, "%sreduction server: %d × %s\n", indent,
                          d.reduction_server().replica_count(),
                          d.reduction_server().machine_type());
  }
  if (!d.notes().empty())
    absl::StrAppend(out, indent, "note: ", d.notes(), "\n");
}

void AppendReasons(
    const google::protobuf::RepeatedPtrField<v1::Reason>& reasons,
    const std::string& indent, std::string* out) {
  for (const v1::Reason& r : reasons) {
    if (r.code() == v1::REASON_CODE_UNSPECIFIED) {
      absl::StrAppend(out, indent, "- ", r.message(), "\n");
    } else {
      absl::StrAppend(out, indent, "- ", v1::ReasonCode_Name(r.code()), ": ",
                      r.message(), "\n");
    }
  }
}

}  // namespace

std::string HardwareLabel(const v1::Hardware& h) {
  std::string label = h.machine_type().empty() ? h.series() : h.machine_type();
  if (h.hosts() > 1) absl::StrAppend(&label, " ×", h.hosts());
  std::vector<std::string> details;
  if (h.total_accelerators() > 0 && !h.accelerator_name().empty()) {
    details.push_back(
        absl::StrCat(h.total_accelerators(), " × ", h.accelerator_name()));
  } else if (!h.accelerator_name().empty()) {
    details.push_back(h.accelerator_name());
  }
  if (!h.tpu_topology().empty()) {
    details.push_back(absl::StrCat("topology ", h.tpu_topology()));
  }
  if (h.slices() > 1) details.push_back(absl::StrCat(h.slices(), " slices"));
  if (h.platform() != v1::PLATFORM_UNSPECIFIED) {
    details.push_back(EnumName(v1::Platform_descriptor(), h.platform()));
  }
  if (h.provisioning() != v1::PROVISIONING_UNSPECIFIED) {
    details.push_back(
        EnumName(v1::Provisioning_descriptor(), h.provisioning()));
  }
  if (h.run_platform() != v1::RUN_PLATFORM_UNSPECIFIED) {
    details.push_back(EnumName(v1::RunPlatform_descriptor(), h.run_platform()));
  }
  if (!details.empty())
    absl::StrAppend(&label, " (", absl::StrJoin(details, ", "), ")");
  return label;
}

std::string PlanTable(const v1::PlanTrainingResponse& response) {
  std::string out;
  if (response.has_recommendation()) {
    const v1::Plan& plan = response.recommendation();
    absl::StrAppend(&out, "RECOMMENDED: ", HardwareLabel(plan.hardware()),
                    "\n");
    AppendDistribution(plan.distribution(), "  ", &out);
    AppendEstimates(plan.estimates(), plan.distribution().optimizer_offload(),
                    "  ", &out);
    AppendReasons(plan.reasons(), "  ", &out);
  } else {
    absl::StrAppend(&out, "NO VIABLE PLAN: ",
                    response.no_plan_reason().empty()
                        ? "(no reason given)"
                        : response.no_plan_reason(),
                    "\n");
  }
  if (!response.remedies().empty()) {
    absl::StrAppend(&out, "\nRemedies:\n");
    for (const v1::Remedy& r : response.remedies()) {
      absl::StrAppend(&out, "  - ",
                      EnumName(v1::RemedyKind_descriptor(), r.kind()), ": ",
                      r.summary(), "\n");
    }
  }
  if (response.has_savings()) {
    const v1::Savings& s = response.savings();
    absl::StrAppendFormat(
        &out, "\nSavings against %s: %s and %.1f h (current %s, %.1f h)\n",
        s.current_hardware(), Usd(s.cost_saved_usd()), s.hours_saved(),
        Usd(s.current_cost_usd()), s.current_hours());
  }
  if (!response.alternatives().empty()) {
    absl::StrAppend(&out, "\nAlternatives (", response.alternatives_size(),
                    "):\n");
    for (const v1::Plan& plan : response.alternatives()) {
      absl::StrAppend(&out, "  #", plan.rank(), " ",
                      HardwareLabel(plan.hardware()), "\n");
      AppendEstimates(plan.estimates(), plan.distribution().optimizer_offload(),
                      "      ", &out);
      AppendReasons(plan.reasons(), "      ", &out);
    }
  }
  if (!response.rejected().empty()) {
    absl::StrAppend(&out, "\nRejected (", response.rejected_size(), "):\n");
    for (const v1::Rejection& r : response.rejected()) {
      absl::StrAppend(&out, "  ", HardwareLabel(r.hardware()), "\n      ",
                      CodeNames(r.codes()), ": ", r.reason(), "\n");
    }
  }
  if (!response.warnings().empty()) {
    absl::StrAppend(&out, "\nWarnings:\n");
    AppendReasons(response.warnings(), "  ", &out);
  }
  if (!response.assumptions().empty()) {
    absl::StrAppend(&out, "\nAssumptions:\n");
    for (const std::string& a : response.assumptions()) {
      absl::StrAppend(&out, "  - ", a, "\n");
    }
  }
  absl::StrAppend(&out, "\nCatalog: ", response.catalog_version(), "\n");
  return out;
}

std::string ReviewTable(const v1::ReviewPlanResponse& response) {
  std::string out;
  for (const v1::ProposalVerdict& v : response.verdicts()) {
    std::string label =
        v.label().empty() ? absl::StrCat("#", v.index()) : v.label();
    absl::StrAppendFormat(&out, "%-8s %-11s %s\n", label,
                          v1::Verdict_Name(v.verdict()), CodeNames(v.codes()));
    if (!v.reason().empty()) absl::StrAppend(&out, WrapAt120(v.reason(), 9));
    if (v.has_plan()) {
      absl::StrAppend(
          &out, "         plan: ", HardwareLabel(v.plan().hardware()), "\n");
      AppendEstimates(v.plan().estimates(),
                      v.plan().distribution().optimizer_offload(),
                      "           ", &out);
    }
  }
  if (!response.warnings().empty()) {
    absl::StrAppend(&out, "\nWarnings:\n");
    AppendReasons(response.warnings(), "  ", &out);
  }
  absl::StrAppend(&out, "\nCatalog: ", response.catalog_version(), "\n");
  return out;
}

std::string CatalogTable(const v1::ListAcceleratorsResponse& response) {
  std::string out =
      absl::StrFormat("%-32s %-9s %-5s %-28s %4s %9s %9s %9s %10s %10s\n",
                      "MACHINE TYPE", "MATURITY", "PLAT", "ACCELERATOR", "N",
                      "MEM GiB", "BF16 TF", "FP64 TF", "$/h", "SPOT $/h");
  for (const v1::AcceleratorInfo& a : response.accelerators()) {
    std::string price =
        a.price_known() ? absl::StrFormat("%.2f", a.on_demand_usd_per_hour())
                        : "?";
    std::string spot = a.price_known() && a.spot_usd_per_hour() > 0
                           ? absl::StrFormat("%.2f", a.spot_usd_per_hour())
                           : "?";
    absl::StrAppendFormat(
        &out, "%-32s %-9s %-5s %-28s %4d %9.1f %9.1f %9.2f %10s %10s\n",
        a.machine_type(), a.maturity(),
        EnumName(v1::Platform_descriptor(), a.platform()),
        a.accelerator_name().empty() ? a.accelerator() : a.accelerator_name(),
        a.accelerators_per_host(), a.memory_per_accelerator_gib(),
        a.peak_bf16_tflops(), a.peak_fp64_tflops(), price, spot);
  }
  absl::StrAppend(&out, "\n", response.accelerators_size(),
                  " machine types; catalog ", response.catalog_version(),
                  ", data date ", response.data_date(), "\n");
  return out;
}

std::string ModelsTable(const v1::ListAcceleratorsResponse& response) {
  std::string out = absl::StrFormat(
      "%-16s %-22s %-16s %6s %6s %5s %4s %8s %8s %9s %s\n", "MODEL (--model)",
      "NAME", "ARCHITECTURE", "LAYERS", "HIDDEN", "HEADS", "KV", "HEAD_DIM",
      "PARAMS", "ACTIVE", "WINDOW");
  const auto shown = [](int32_t v) {
    return v > 0 ? absl::StrCat(v) : std::string();
  };
  for (const v1::ModelInfo& m : response.models()) {
    const std::string active =
        m.active_parameter_count() > 0
            ? absl::StrFormat("%.3gB", m.active_parameter_count() / 1e9)
            : "";
    // Sliding window: its positions, and which layers stay global.
    const std::string window =
        m.sliding_window() <= 0 ? ""
        : m.global_attention_every() > 0
            ? absl::StrFormat("%d; 1 in %d layers global", m.sliding_window(),
                              m.global_attention_every())
            : absl::StrFormat("%d; every layer local", m.sliding_window());
    absl::StrAppendFormat(
        &out, "%-16s %-22s %-16s %6s %6s %5s %4s %8s %7.3gB %9s %s\n", m.id(),
        m.name(), m.architecture(), shown(m.layers()), shown(m.hidden_size()),
        shown(m.attention_heads()), shown(m.num_kv_heads()),
        shown(m.head_dim()), m.parameter_count() / 1e9, active, window);
  }
  absl::StrAppend(&out, "\n", response.models_size(),
                  " model presets; catalog ", response.catalog_version(), "\n");
  return out;
}

}  // namespace accelplan::cli
