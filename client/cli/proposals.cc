#include "client/cli/proposals.h"

#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/cli/requests.h"

namespace accelplan::cli {

const char kProposeGrammar[] =
    R"(Proposals (--propose SPEC, repeatable; labelled A, B, C, ... in order):
  SPEC is KIND:VALUE[,KEY=VALUE...]; every KIND also takes label=NAME.
  machine:MACHINE_TYPE[,count=N]      a machine type; count = accelerators in
                                      total (VMs for CPU machines)
                                        machine:a3-highgpu-8g,count=32
  series:SERIES[,count=N]             a machine series   series:G4,count=1
  accelerator:ID[,count=N]            an accelerator     accelerator:nvidia-l4
  tpu:VERSION[,topology=AxBxC][,slices=N][,count=N]
                                      a TPU version      tpu:v5p,topology=4x4x4,slices=2
  platform:cpu|gpu|tpu|edge[,count=N] any machine of a family   platform:cpu
    Hardware proposals may carry the layout to judge them with:
    layout=STRATEGY[,data=N][,fsdp=N][,tensor=N][,pipeline=N]
  strategy:STRATEGY[,dcn=data|fsdp|tensor|pipeline|none][,slices=N]
           [,data=N][,fsdp=N][,tensor=N][,pipeline=N]
                                      a distribution     strategy:fsdp,dcn=data,slices=4
    STRATEGY: single_device|data_parallel|fsdp|tensor_parallel|
    pipeline_parallel|hybrid|multislice|horovod|parameter_server|
    independent_models
  remedy:KIND[,batch=N][,widths=N/N...][,TARGET]
                                      a remedy           remedy:add_reduction_server
                                        remedy:fix_tensor_shapes,batch=128,widths=384/384
                                        remedy:move_to_hardware,tpu=v6e
    KIND: add_reduction_server|faster_input_pipeline|use_spot|
    add_evaluator_pool|add_accelerators|fix_tensor_shapes|move_to_hardware|
    shard_optimizer_state|activation_recompute|more_memory_per_device|
    use_horovod|quantize_full_int8|replace_unsupported_op
    TARGET (move_to_hardware, add_accelerators): machine=, series=,
    accelerator=, tpu=, platform=, topology=, slices=, count=
)";

namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

absl::Status Bad(absl::string_view spec, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "--propose \"", spec, "\": ", why, " (see accelplan review --help)"));
}

absl::StatusOr<int32_t> Count(absl::string_view spec, const std::string& key,
                              const std::string& value) {
  absl::StatusOr<double> v = ParseQuantity(value);
  if (!v.ok() || *v != std::floor(*v) || *v < 0 || *v > 2147483647) {
    return Bad(spec,
               absl::StrCat(key, " needs a whole number, got \"", value, "\""));
  }
  return static_cast<int32_t>(*v);
}

absl::StatusOr<int> Enum(absl::string_view spec,
                         const google::protobuf::EnumDescriptor* type,
                         const std::string& value) {
  absl::StatusOr<int> v = ParseEnum(type, value);
  if (!v.ok()) return Bad(spec, v.status().message());
  return v;
}

// "v5p" → "tpu-v5p"; "tpu7x", "tpu-v6e" stay.
std::string TpuAccelerator(const std::string& version) {
  std::string v = absl::AsciiStrToLower(version);
  if (absl::StartsWith(v, "tpu")) return v;
  return absl::StrCat("tpu-", v);
}

// One hardware key (machine=, tpu=, count=, ...); false when `key` is not
// a hardware key.
absl::StatusOr<bool> SetHardware(absl::string_view spec, const std::string& key,
                                 const std::string& value,
                                 v1::HardwareProposal* h) {
  if (key == "machine") {
    h->set_machine_type(value);
  } else if (key == "series") {
    h->set_series(value);
  } else if (key == "accelerator") {
    h->set_accelerator(value);
  } else if (key == "tpu") {
    h->set_platform(v1::TPU);
    h->set_accelerator(TpuAccelerator(value));
  } else if (key == "platform") {
    absl::StatusOr<int> p = Enum(spec, v1::Platform_descriptor(), value);
    if (!p.ok()) return p.status();
    h->set_platform(static_cast<v1::Platform>(*p));
  } else if (key == "topology") {
    h->set_tpu_topology(value);
  } else if (key == "slices" || key == "count") {
    absl::StatusOr<int32_t> n = Count(spec, key, value);
    if (!n.ok()) return n.status();
    key == "slices" ? h->set_slices(*n) : h->set_count(*n);
  } else {
    return false;
  }
  return true;
}

// strategy= / layout=, degrees, dcn= and slices= of a distribution.
absl::StatusOr<bool> SetDistribution(absl::string_view spec,
                                     const std::string& key,
                                     const std::string& value,
                                     v1::DistributionProposal* d) {
  if (key == "strategy" || key == "layout") {
    absl::StatusOr<int> s = Enum(spec, v1::Strategy_descriptor(), value);
    if (!s.ok()) return s.status();
    d->set_strategy(static_cast<v1::Strategy>(*s));
    return true;
  }
  if (key == "dcn") {
    absl::StatusOr<int> s = Enum(spec, v1::DcnParallelism_descriptor(),
                                 absl::StrCat("dcn_", value));
    if (!s.ok()) return s.status();
    d->set_across_slices(static_cast<v1::DcnParallelism>(*s));
    return true;
  }
  if (key != "slices" && key != "data" && key != "fsdp" && key != "tensor" &&
      key != "pipeline") {
    return false;
  }
  absl::StatusOr<int32_t> n = Count(spec, key, value);
  if (!n.ok()) return n.status();
  if (key == "slices") d->set_slices(*n);
  if (key == "data") d->set_data_parallelism(*n);
  if (key == "fsdp") d->set_fsdp_parallelism(*n);
  if (key == "tensor") d->set_tensor_parallelism(*n);
  if (key == "pipeline") d->set_pipeline_parallelism(*n);
  return true;
}

// dcn=data with slices=4 → mesh.dcn_data_parallelism = 4, and so on.
void FillMesh(v1::DistributionProposal* d) {
  const int slices = d->slices();
  if (slices <= 0 || d->has_mesh()) return;
  v1::MultisliceMesh* mesh = d->mutable_mesh();
  switch (d->across_slices()) {
    case v1::DCN_DATA:
      mesh->set_dcn_data_parallelism(slices);
      break;
    case v1::DCN_FSDP:
      mesh->set_dcn_fsdp_parallelism(slices);
      break;
    case v1::DCN_TENSOR:
      mesh->set_dcn_tensor_parallelism(slices);
      break;
    case v1::DCN_PIPELINE:
      mesh->set_dcn_pipeline_parallelism(slices);
      break;
    default:
      d->clear_mesh();
      break;
  }
}

absl::Status SetRemedy(absl::string_view spec, const std::string& key,
                       const std::string& value, v1::RemedyProposal* r) {
  if (key == "batch") {
    absl::StatusOr<double> v = ParseQuantity(value);
    if (!v.ok() || *v != std::floor(*v) || *v < 0) {
      return Bad(spec, "batch needs a whole number");
    }
    r->set_global_batch_size(static_cast<int64_t>(*v));
    return absl::OkStatus();
  }
  if (key == "widths") {
    for (absl::string_view w : absl::StrSplit(value, '/', absl::SkipEmpty())) {
      int64_t width = 0;
      if (!absl::SimpleAtoi(w, &width) || width <= 0) {
        return Bad(spec, "widths are whole numbers separated by /");
      }
      r->add_layer_widths(width);
    }
    return absl::OkStatus();
  }
  absl::StatusOr<bool> hw = SetHardware(spec, key, value, r->mutable_target());
  if (!hw.ok()) return hw.status();
  if (!*hw) return Bad(spec, absl::StrCat("unknown key \"", key, "\""));
  return absl::OkStatus();
}

absl::StatusOr<KeyValues> SplitSpec(absl::string_view spec) {
  KeyValues out;
  bool first = true;
  for (absl::string_view part : absl::StrSplit(spec, ',', absl::SkipEmpty())) {
    part = absl::StripAsciiWhitespace(part);
    const size_t sep = part.find(first ? ':' : '=');
    if (sep == absl::string_view::npos || sep == 0 || sep + 1 == part.size()) {
      return Bad(
          spec, first ? "expected KIND:VALUE first"
                      : absl::StrCat("expected KEY=VALUE, got \"", part, "\""));
    }
    out.emplace_back(
        absl::AsciiStrToLower(absl::StripAsciiWhitespace(part.substr(0, sep))),
        std::string(absl::StripAsciiWhitespace(part.substr(sep + 1))));
    first = false;
  }
  if (out.empty()) return Bad(spec, "empty proposal");
  return out;
}

}  // namespace

absl::StatusOr<v1::Proposal> ParseProposal(absl::string_view spec,
                                           const std::string& default_label) {
  absl::StatusOr<KeyValues> parts = SplitSpec(spec);
  if (!parts.ok()) return parts.status();
  v1::Proposal proposal;
  proposal.set_label(default_label);
  const std::string kind = parts->front().first;
  // The first part names the kind; its value is the kind's main key.
  if (kind == "remedy") {
    absl::StatusOr<int> k =
        Enum(spec, v1::RemedyKind_descriptor(), parts->front().second);
    if (!k.ok()) return k.status();
    proposal.mutable_remedy()->set_kind(static_cast<v1::RemedyKind>(*k));
  } else if (kind == "strategy") {
    proposal.mutable_distribution();
  } else if (kind == "machine" || kind == "series" || kind == "accelerator" ||
             kind == "tpu" || kind == "platform") {
    proposal.mutable_hardware();
  } else {
    return Bad(spec, absl::StrCat("unknown kind \"", kind,
                                  "\"; expected machine, series, accelerator, "
                                  "tpu, platform, strategy or remedy"));
  }
  for (size_t i = 0; i < parts->size(); ++i) {
    const auto& [key, value] = (*parts)[i];
    if (i == 0 && kind == "remedy") continue;
    if (key == "label") {
      proposal.set_label(value);
      continue;
    }
    absl::StatusOr<bool> handled = false;
    if (proposal.has_remedy()) {
      absl::Status s = SetRemedy(spec, key, value, proposal.mutable_remedy());
      if (!s.ok()) return s;
      continue;
    }
    if (proposal.has_distribution()) {
      handled =
          SetDistribution(spec, key, value, proposal.mutable_distribution());
    } else {
      v1::HardwareProposal* h = proposal.mutable_hardware();
      handled = SetHardware(spec, key, value, h);
      if (handled.ok() && !*handled) {
        handled = SetDistribution(spec, key, value, h->mutable_layout());
      }
    }
    if (!handled.ok()) return handled.status();
    if (!*handled) return Bad(spec, absl::StrCat("unknown key \"", key, "\""));
  }
  if (proposal.has_distribution()) FillMesh(proposal.mutable_distribution());
  if (proposal.has_hardware() && proposal.hardware().has_layout()) {
    FillMesh(proposal.mutable_hardware()->mutable_layout());
  }
  return proposal;
}

}  // namespace accelplan::cli
