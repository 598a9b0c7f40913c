#include "client/cli/requests.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/cli/proposals.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/type_resolver_util.h"

namespace accelplan::cli {
namespace {

using google::protobuf::EnumDescriptor;
using google::protobuf::EnumValueDescriptor;

std::string Lower(absl::string_view s) { return absl::AsciiStrToLower(s); }

// Values a user may type for `type`, for error messages.
std::string AcceptedValues(const EnumDescriptor* type) {
  std::vector<std::string> names;
  for (int i = 0; i < type->value_count(); ++i) {
    if (type->value(i)->number() != 0)
      names.push_back(Lower(type->value(i)->name()));
  }
  return absl::StrJoin(names, "|");
}

// Words people use for run platforms that are not the enum's own names.
std::string CanonicalAlias(const std::string& upper) {
  if (upper == "GCE" || upper == "VM") return "COMPUTE_ENGINE";
  if (upper == "VERTEX_AI" || upper == "AGENT_PLATFORM")
    return "VERTEX_TRAINING";
  return upper;
}

absl::StatusOr<double> ParseDoubleFlag(const ParsedFlags& flags,
                                       const std::string& name) {
  double value = 0;
  if (!absl::SimpleAtod(flags.Get(name), &value) || !std::isfinite(value)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", name, " needs a finite number, got \"", flags.Get(name), "\""));
  }
  return value;
}

absl::StatusOr<int> ParseFlagEnum(const ParsedFlags& flags,
                                  const std::string& name,
                                  const EnumDescriptor* type) {
  absl::StatusOr<int> value = ParseEnum(type, flags.Get(name));
  if (!value.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, ": ", value.status().message()));
  }
  return value;
}

// Every --platform and --hardware value, split on commas.
std::vector<std::string> PlatformValues(const ParsedFlags& flags) {
  std::vector<std::string> out;
  for (const char* name : {"platform", "hardware"}) {
    auto it = flags.all_values.find(name);
    if (it == flags.all_values.end()) continue;
    for (const std::string& value : it->second) {
      for (absl::string_view part :
           absl::StrSplit(value, ',', absl::SkipEmpty())) {
        out.emplace_back(absl::StripAsciiWhitespace(part));
      }
    }
  }
  return out;
}

// No current setup unless a flag or the file gave one.
template <typename Request>
void ClearIfEmpty(Request* request) {
  if (request->has_current_setup() &&
      request->current_setup().ByteSizeLong() == 0) {
    request->clear_current_setup();
  }
}

template <typename Request>
absl::StatusOr<Request> ReadRequestIfGiven(const ParsedFlags& flags) {
  Request request;
  if (flags.Has("request")) {
    absl::Status status = ReadJsonRequest(flags.Get("request"), &request);
    if (!status.ok()) return status;
  }
  return request;
}

}  // namespace

absl::StatusOr<int> ParseEnum(const EnumDescriptor* type,
                              absl::string_view text) {
  std::string upper = absl::AsciiStrToUpper(absl::StrReplaceAll(
      absl::StripAsciiWhitespace(text), {{"-", "_"}, {" ", "_"}}));
  upper = CanonicalAlias(upper);
  if (!upper.empty()) {
    const EnumValueDescriptor* exact = type->FindValueByName(upper);
    if (exact != nullptr && exact->number() != 0) return exact->number();
    // Short forms: "bf16" → BF16_MIXED, "other" → OTHER_FRAMEWORK,
    // "none" → RECOMPUTE_NONE; only when exactly one value matches.
    const EnumValueDescriptor* match = nullptr;
    int matches = 0;
    for (int i = 0; i < type->value_count(); ++i) {
      const EnumValueDescriptor* value = type->value(i);
      if (value->number() == 0) continue;
      if (absl::StartsWith(value->name(), upper + "_") ||
          absl::EndsWith(value->name(), "_" + upper)) {
        match = value;
        ++matches;
      }
    }
    if (matches == 1) return match->number();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown ", type->name(), " \"", text,
                   "\"; expected one of ", AcceptedValues(type)));
}

absl::StatusOr<double> ParseQuantity(absl::string_view text) {
  absl::string_view body = absl::StripAsciiWhitespace(text);
  double scale = 1;
  if (!body.empty()) {
    switch (absl::ascii_toupper(body.back())) {
      case 'K':
        scale = 1e3;
        break;
      case 'M':
        scale = 1e6;
        break;
      case 'B':
      case 'G':
        scale = 1e9;
        break;
      case 'T':
        scale = 1e12;
        break;
      default:
        break;
    }
    if (scale != 1) body.remove_suffix(1);
  }
  double value = 0;
  if (!absl::SimpleAtod(body, &value) || !std::isfinite(value * scale)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "\"", text, "\" is not a number (examples: 7e9, 7000000000, 7B)"));
  }
  return value * scale;
}

absl::Status ReadJsonRequest(const std::string& path,
                             google::protobuf::Message* message) {
  std::string json;
  if (path == "-") {
    json.assign(std::istreambuf_iterator<char>(std::cin),
                std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read request file ", path));
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    json = buffer.str();
  }
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;  // a typo must not silently vanish
  google::protobuf::util::Status status =
      google::protobuf::util::JsonStringToMessage(json, message, options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, " is not a valid ", message->GetDescriptor()->full_name(),
        " in the protobuf JSON mapping: ", status.message().ToString()));
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::PlanTrainingRequest> BuildPlanRequest(
    const ParsedFlags& flags) {
  absl::StatusOr<v1::PlanTrainingRequest> request =
      ReadRequestIfGiven<v1::PlanTrainingRequest>(flags);
  if (!request.ok()) return request;
  absl::Status status = ApplyWorkloadFlags(flags, JobPartsOf(&*request));
  if (!status.ok()) return status;
  ClearIfEmpty(&*request);
  if (flags.Has("view")) {
    absl::StatusOr<int> view =
        ParseFlagEnum(flags, "view", v1::View_descriptor());
    if (!view.ok()) return view.status();
    request->set_view(static_cast<v1::View>(*view));
  }
  return request;
}

absl::StatusOr<v1::ReviewPlanRequest> BuildReviewRequest(
    const ParsedFlags& flags) {
  absl::StatusOr<v1::ReviewPlanRequest> request =
      ReadRequestIfGiven<v1::ReviewPlanRequest>(flags);
  if (!request.ok()) return request;
  absl::Status status = ApplyWorkloadFlags(flags, JobPartsOf(&*request));
  if (!status.ok()) return status;
  ClearIfEmpty(&*request);
  if (auto it = flags.all_values.find("propose");
      it != flags.all_values.end()) {
    for (const std::string& spec : it->second) {
      const int n = request->proposals_size();
      // A..Z, then P27, P28, ...
      std::string label = n < 26 ? std::string(1, static_cast<char>('A' + n))
                                 : absl::StrCat("P", n + 1);
      absl::StatusOr<v1::Proposal> proposal = ParseProposal(spec, label);
      if (!proposal.ok()) return proposal.status();
      *request->add_proposals() = *std::move(proposal);
    }
  }
  if (request->proposals().empty()) {
    return absl::InvalidArgumentError(
        "review needs at least one proposal: give --propose SPEC (see "
        "accelplan review --help) or --request FILE.json with "
        "\"proposals\"");
  }
  return request;
}

absl::StatusOr<v1::ListAcceleratorsRequest> BuildListRequest(
    const ParsedFlags& flags) {
  absl::StatusOr<v1::ListAcceleratorsRequest> request =
      ReadRequestIfGiven<v1::ListAcceleratorsRequest>(flags);
  if (!request.ok()) return request;
  for (const std::string& name : PlatformValues(flags)) {
    absl::StatusOr<int> platform = ParseEnum(v1::Platform_descriptor(), name);
    if (!platform.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--platform: unknown platform \"", name,
                       "\"; expected cpu|gpu|tpu|edge"));
    }
    request->add_platforms(static_cast<v1::Platform>(*platform));
  }
  if (flags.Has("framework")) {
    absl::StatusOr<int> value =
        ParseFlagEnum(flags, "framework", v1::Framework_descriptor());
    if (!value.ok()) return value.status();
    request->set_framework(static_cast<v1::Framework>(*value));
  }
  if (flags.Has("min_memory_gib")) {
    absl::StatusOr<double> value = ParseDoubleFlag(flags, "min_memory_gib");
    if (!value.ok()) return value.status();
    request->set_min_memory_gib(*value);
  }
  if (flags.Has("include_legacy")) {
    request->set_include_legacy(flags.Get("include_legacy") == "true");
  }
  return request;
}

std::string ToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = false;  // lowerCamelCase
  // Through a deterministic binary form: map fields (a job spec's node
  // selector) then print in key order, so the same plan prints the same
  // bytes on every run (MessageToJsonString follows the map's hash order).
  std::string binary;
  {
    google::protobuf::io::StringOutputStream stream(&binary);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    (void)message.SerializeToCodedStream(&coded);
  }
  const google::protobuf::DescriptorPool* pool =
      message.GetDescriptor()->file()->pool();
  std::unique_ptr<google::protobuf::util::TypeResolver> resolver(
      google::protobuf::util::NewTypeResolverForDescriptorPool(
          "type.googleapis.com", pool));
  std::string json;
  // Printing a valid message cannot fail; an empty object is the fallback.
  if (!google::protobuf::util::BinaryToJsonString(
           resolver.get(),
           absl::StrCat("type.googleapis.com/",
                        message.GetDescriptor()->full_name()),
           binary, &json, options)
           .ok()) {
    return "{}";
  }
  return json;
}

}  // namespace accelplan::cli
