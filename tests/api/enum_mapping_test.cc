// Exhaustive planner <-> proto enum mapping (api/convert.cc). The converters
// static_cast between enums whose numbers planner/types.h promises to keep
// equal to the proto's; these tests hold both sides to it for every value:
//  - every value of every proto enum, set in every field of that enum type
//    anywhere in the six API messages, survives proto -> planner -> proto;
//  - every value of every planner enum (read from planner/types.h, since C++
//    has no enum reflection) is written as a distinct, defined proto value.
// api/convert.h exposes whole-message conversions only, so both go through
// them.
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "api/convert.h"
#include "google/protobuf/descriptor.h"
#include "gtest/gtest.h"

namespace accelplan::api {
namespace {

namespace pb = ::google::protobuf;
using FieldPath = std::vector<const pb::FieldDescriptor*>;

const pb::FileDescriptor* ApiFile() {
  return v1::PlanTrainingRequest::descriptor()->file();
}

std::string Name(const FieldPath& path) {
  std::vector<std::string> parts;
  for (const pb::FieldDescriptor* f : path) parts.push_back(f->name());
  return absl::StrJoin(parts, ".");
}

// Every enum-typed field reachable from `d`, as a path of fields; repeated
// messages on the way stand for their first element.
void CollectEnumFields(const pb::Descriptor* d, FieldPath& prefix,
                       std::vector<FieldPath>& out) {
  if (prefix.size() > 8) return;  // the API has no recursive messages
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    prefix.push_back(f);
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_ENUM) {
      out.push_back(prefix);
    } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE &&
               !f->is_map()) {
      CollectEnumFields(f->message_type(), prefix, out);
    }
    prefix.pop_back();
  }
}

void SetAt(pb::Message* m, const FieldPath& path, int value) {
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    const pb::Reflection* r = m->GetReflection();
    m = path[i]->is_repeated() ? r->AddMessage(m, path[i])
                               : r->MutableMessage(m, path[i]);
  }
  const pb::FieldDescriptor* f = path.back();
  if (f->is_repeated()) {
    m->GetReflection()->AddEnumValue(m, f, value);
  } else {
    m->GetReflection()->SetEnumValue(m, f, value);
  }
}

// The value at `path`; empty when a message or element on the way is gone.
std::optional<int> GetAt(const pb::Message& message, const FieldPath& path) {
  const pb::Message* m = &message;
  for (size_t i = 0; i < path.size(); ++i) {
    const pb::FieldDescriptor* f = path[i];
    const pb::Reflection* r = m->GetReflection();
    const bool last = i + 1 == path.size();
    if (f->is_repeated()) {
      if (r->FieldSize(*m, f) == 0) return std::nullopt;
      if (last) return r->GetRepeatedEnumValue(*m, f, 0);
      m = &r->GetRepeatedMessage(*m, f, 0);
    } else {
      if (last) return r->GetEnumValue(*m, f);
      if (!r->HasField(*m, f)) return std::nullopt;
      m = &r->GetMessage(*m, f);
    }
  }
  return std::nullopt;
}

// proto -> planner -> proto for one top-level message type.
struct Conversion {
  const pb::Message* prototype;
  std::function<void(const pb::Message&, pb::Message*)> round_trip;
};

template <typename M>
Conversion RequestConversion() {
  return {&M::default_instance(), [](const pb::Message& in, pb::Message* out) {
            Violations violations;
            const auto planner =
                FromProto(static_cast<const M&>(in), &violations);
            for (const planner::FieldViolation& v : violations) {
              ADD_FAILURE() << v.field << ": " << v.description;
            }
            ToProto(planner, static_cast<M*>(out));
          }};
}

template <typename M>
Conversion ResponseConversion() {
  return {&M::default_instance(), [](const pb::Message& in, pb::Message* out) {
            ToProto(FromProto(static_cast<const M&>(in)), static_cast<M*>(out));
          }};
}

std::vector<Conversion> AllConversions() {
  return {RequestConversion<v1::PlanTrainingRequest>(),
          RequestConversion<v1::ReviewPlanRequest>(),
          RequestConversion<v1::ListAcceleratorsRequest>(),
          ResponseConversion<v1::PlanTrainingResponse>(),
          ResponseConversion<v1::ReviewPlanResponse>(),
          ResponseConversion<v1::ListAcceleratorsResponse>()};
}

TEST(EnumMappingTest, EveryProtoEnumValueRoundTripsInEveryField) {
  std::set<std::string> covered;
  int checked = 0;
  for (const Conversion& c : AllConversions()) {
    const pb::Descriptor* d = c.prototype->GetDescriptor();
    FieldPath prefix;
    std::vector<FieldPath> fields;
    CollectEnumFields(d, prefix, fields);
    for (const FieldPath& path : fields) {
      const pb::EnumDescriptor* e = path.back()->enum_type();
      covered.insert(e->name());
      for (int i = 0; i < e->value_count(); ++i) {
        const pb::EnumValueDescriptor* v = e->value(i);
        std::unique_ptr<pb::Message> in(c.prototype->New());
        SetAt(in.get(), path, v->number());
        std::unique_ptr<pb::Message> out(c.prototype->New());
        c.round_trip(*in, out.get());
        // An unset proto3 scalar reads as 0: the zero value may vanish
        // together with the message that held it, anything else may not.
        EXPECT_EQ(GetAt(*out, path).value_or(0), v->number())
            << d->name() << "." << Name(path) << " = " << v->full_name();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 300);
  // Every enum the API declares is carried by some field tested above.
  for (int i = 0; i < ApiFile()->enum_type_count(); ++i) {
    EXPECT_TRUE(covered.count(ApiFile()->enum_type(i)->name()))
        << ApiFile()->enum_type(i)->full_name() << " is in no message";
  }
}

// ------------------------------------------------------------ planner side

// planner/types.h's `enum class Name { kA = 0, kB, ... };` declarations:
// name -> the number of each enumerator, in order.
std::map<std::string, std::vector<int>> PlannerEnums() {
  std::ifstream file(ACCELPLAN_PLANNER_TYPES_H);
  std::stringstream text;
  text << file.rdbuf();
  const std::string source =
      std::regex_replace(text.str(), std::regex("//[^\n]*"), "");
  std::map<std::string, std::vector<int>> out;
  const std::regex decl(R"(enum class (\w+) \{([^}]*)\};)");
  for (std::sregex_iterator it(source.begin(), source.end(), decl), end;
       it != end; ++it) {
    std::vector<int>& values = out[(*it)[1].str()];
    int next = 0;
    for (absl::string_view item : absl::StrSplit((*it)[2].str(), ',')) {
      item = absl::StripAsciiWhitespace(item);
      if (item.empty()) continue;
      std::vector<std::string> parts = absl::StrSplit(item, '=');
      if (parts.size() == 2) next = std::stoi(parts[1]);
      values.push_back(next++);
    }
  }
  return out;
}

// The proto number ToProto writes for planner value `n` of one enum: the
// value is set in a planner message and read back at `path` in the proto.
using Probe = std::function<std::optional<int>(int)>;

template <typename ProtoM, typename PlannerM, typename Set>
Probe Writes(Set set, const std::string& path) {
  return [set, path](int n) -> std::optional<int> {
    PlannerM in;
    set(in, n);
    ProtoM out;
    ToProto(in, &out);
    FieldPath fields;
    const pb::Descriptor* d = ProtoM::descriptor();
    for (absl::string_view part : absl::StrSplit(path, '.')) {
      const pb::FieldDescriptor* f = d->FindFieldByName(std::string(part));
      if (f == nullptr) return std::nullopt;
      fields.push_back(f);
      d = f->message_type();
    }
    return GetAt(out, fields);
  };
}

using planner::PlanRequest, planner::PlanResponse, planner::ReviewRequest,
    planner::ReviewResponse;
using PlanReq = v1::PlanTrainingRequest;
using PlanResp = v1::PlanTrainingResponse;

// One probe per planner enum, through a field of that enum's type.
std::map<std::string, Probe> Probes() {
  namespace p = ::accelplan::planner;
  return {
      {"Framework",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.workload.framework = p::Framework(n); },
           "workload.framework")},
      {"ModelKind",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.workload.model_kind = p::ModelKind(n); },
           "workload.model_kind")},
      {"TrainingMethod", Writes<PlanReq, PlanRequest>(
                             [](auto& r, int n) {
                               r.workload.training_method =
                                   p::TrainingMethod(n);
                             },
                             "workload.training_method")},
      {"Precision",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.workload.precision = p::Precision(n); },
           "workload.precision")},
      {"Optimizer",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.workload.optimizer = p::Optimizer(n); },
           "workload.optimizer")},
      {"Recompute",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.workload.recompute = p::Recompute(n); },
           "workload.recompute")},
      {"TpuUnsuitedOp", Writes<PlanReq, PlanRequest>(
                            [](auto& r, int n) {
                              r.workload.tpu_unsuited_ops = {
                                  p::TpuUnsuitedOp(n)};
                            },
                            "workload.tpu_unsuited_ops")},
      {"Objective",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.goal.objective = p::Objective(n); },
           "goal.objective")},
      {"Platform", Writes<PlanReq, PlanRequest>(
                       [](auto& r, int n) {
                         r.constraints.allowed_platforms = {p::Platform(n)};
                       },
                       "constraints.allowed_platforms")},
      {"RunPlatform", Writes<PlanReq, PlanRequest>(
                          [](auto& r, int n) {
                            r.constraints.run_platform = p::RunPlatform(n);
                          },
                          "constraints.run_platform")},
      {"Provisioning", Writes<PlanResp, PlanResponse>(
                           [](auto& r, int n) {
                             r.recommendation.emplace().hardware.provisioning =
                                 p::Provisioning(n);
                           },
                           "recommendation.hardware.provisioning")},
      {"DeploymentTarget", Writes<PlanReq, PlanRequest>(
                               [](auto& r, int n) {
                                 r.workload.deployment_target =
                                     p::DeploymentTarget(n);
                               },
                               "workload.deployment_target")},
      {"ModelFormat", Writes<PlanReq, PlanRequest>(
                          [](auto& r, int n) {
                            r.workload.edge.model_format = p::ModelFormat(n);
                          },
                          "workload.edge.model_format")},
      {"Quantization", Writes<PlanReq, PlanRequest>(
                           [](auto& r, int n) {
                             r.workload.edge.quantization = p::Quantization(n);
                           },
                           "workload.edge.quantization")},
      {"Symptom",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.current_setup.symptoms = {p::Symptom(n)}; },
           "current_setup.symptoms")},
      {"Strategy",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.current_setup.strategy = p::Strategy(n); },
           "current_setup.strategy")},
      {"DcnParallelism",
       Writes<v1::ReviewPlanRequest, ReviewRequest>(
           [](auto& r, int n) {
             r.proposals.emplace_back().distribution.emplace().across_slices =
                 p::DcnParallelism(n);
           },
           "proposals.distribution.across_slices")},
      {"View", Writes<PlanReq, PlanRequest>(
                   [](auto& r, int n) { r.view = p::View(n); }, "view")},
      {"Verdict", Writes<v1::ReviewPlanResponse, ReviewResponse>(
                      [](auto& r, int n) {
                        r.verdicts.emplace_back().verdict = p::Verdict(n);
                      },
                      "verdicts.verdict")},
      {"RemedyKind", Writes<PlanResp, PlanResponse>(
                         [](auto& r, int n) {
                           r.remedies.emplace_back().kind = p::RemedyKind(n);
                         },
                         "remedies.kind")},
      {"Attention",
       Writes<PlanReq, PlanRequest>(
           [](auto& r, int n) { r.workload.attention = p::Attention(n); },
           "workload.attention")},
      {"ReasonCode", Writes<PlanResp, PlanResponse>(
                         [](auto& r, int n) {
                           r.warnings.push_back({p::ReasonCode(n), "m"});
                         },
                         "warnings.code")},
  };
}

TEST(EnumMappingTest, ReadsEveryPlannerEnumFromTypesH) {
  const auto enums = PlannerEnums();
  ASSERT_GE(enums.size(), 20u) << "planner/types.h not read";
  EXPECT_EQ(enums.at("Precision"), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(enums.at("ReasonCode").back(), planner::kMaxReasonCode);
}

TEST(EnumMappingTest, EveryPlannerEnumValueMapsToADistinctProtoValue) {
  const auto probes = Probes();
  std::set<std::string> planner_names;
  for (const auto& [name, values] : PlannerEnums()) {
    planner_names.insert(name);
    const pb::EnumDescriptor* e = ApiFile()->FindEnumTypeByName(name);
    ASSERT_NE(e, nullptr) << "planner enum " << name << " has no proto enum";
    auto probe = probes.find(name);
    ASSERT_NE(probe, probes.end())
        << "planner enum " << name << " has no probe: add one to Probes()";
    EXPECT_EQ(values.size(), static_cast<size_t>(e->value_count())) << name;
    std::map<int, int> written;  // proto number -> planner number
    for (int n : values) {
      const std::optional<int> number = probe->second(n);
      // Zero (UNSPECIFIED) is proto3's unset: a repeated field keeps it,
      // a singular one may read back as "not there".
      const int got = number.value_or(0);
      EXPECT_NE(e->FindValueByNumber(got), nullptr)
          << name << " value " << n << " is written as undefined " << got;
      const auto [it, fresh] = written.emplace(got, n);
      EXPECT_TRUE(fresh) << name << " values " << it->second << " and " << n
                         << " are both written as " << got;
    }
  }
  for (int i = 0; i < ApiFile()->enum_type_count(); ++i) {
    EXPECT_TRUE(planner_names.count(ApiFile()->enum_type(i)->name()))
        << "proto enum " << ApiFile()->enum_type(i)->name()
        << " has no planner enum of that name in planner/types.h";
  }
}

}  // namespace
}  // namespace accelplan::api
