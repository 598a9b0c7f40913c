// Conversion proto <-> planner structs: nothing dropped in either direction,
// unknown enum numbers reported with their field paths, and view=BASIC.
#include "api/convert.h"

#include <map>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace accelplan::api {
namespace {

namespace pb = ::google::protobuf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::IsEmpty;

// Sets every field of `message` (recursively) to a distinct non-default
// value, so a round trip that drops or swaps any field shows up as a diff.
// Repeated fields get three elements; oneofs rotate through their members.
class Filler {
 public:
  void Fill(pb::Message* message, int depth = 0) {
    const pb::Descriptor* d = message->GetDescriptor();
    const pb::Reflection* r = message->GetReflection();
    std::map<const pb::OneofDescriptor*, const pb::FieldDescriptor*> chosen;
    for (int i = 0; i < d->oneof_decl_count(); ++i) {
      const pb::OneofDescriptor* o = d->oneof_decl(i);
      chosen[o] = o->field(rotation_[o]++ % o->field_count());
    }
    for (int i = 0; i < d->field_count(); ++i) {
      const pb::FieldDescriptor* f = d->field(i);
      if (const pb::OneofDescriptor* o = f->containing_oneof()) {
        if (chosen[o] != f) continue;
      }
      if (f->is_map()) {
        for (int n = 0; n < 3; ++n) {
          pb::Message* entry = r->AddMessage(message, f);
          Fill(entry, depth + 1);
        }
      } else if (f->is_repeated()) {
        for (int n = 0; n < 3; ++n) Add(message, f, depth);
      } else {
        Set(message, f, depth);
      }
    }
  }

 private:
  void Set(pb::Message* m, const pb::FieldDescriptor* f, int depth) {
    const pb::Reflection* r = m->GetReflection();
    ++counter_;
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        r->SetInt32(m, f, counter_);
        break;
      case pb::FieldDescriptor::CPPTYPE_INT64:
        r->SetInt64(m, f, counter_ * 1000003);
        break;
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        r->SetUInt32(m, f, counter_);
        break;
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        r->SetUInt64(m, f, counter_);
        break;
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        r->SetDouble(m, f, counter_ + 0.5);
        break;
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        r->SetFloat(m, f, counter_ + 0.5f);
        break;
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        r->SetBool(m, f, true);
        break;
      case pb::FieldDescriptor::CPPTYPE_STRING:
        r->SetString(m, f, absl::StrCat("s", counter_));
        break;
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        r->SetEnumValue(m, f, EnumValue(f));
        break;
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        Fill(r->MutableMessage(m, f), depth + 1);
        break;
    }
  }

  void Add(pb::Message* m, const pb::FieldDescriptor* f, int depth) {
    const pb::Reflection* r = m->GetReflection();
    ++counter_;
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        r->AddInt32(m, f, counter_);
        break;
      case pb::FieldDescriptor::CPPTYPE_INT64:
        r->AddInt64(m, f, counter_ * 1000003);
        break;
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        r->AddUInt32(m, f, counter_);
        break;
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        r->AddUInt64(m, f, counter_);
        break;
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        r->AddDouble(m, f, counter_ + 0.5);
        break;
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        r->AddFloat(m, f, counter_ + 0.5f);
        break;
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        r->AddBool(m, f, true);
        break;
      case pb::FieldDescriptor::CPPTYPE_STRING:
        r->AddString(m, f, absl::StrCat("s", counter_));
        break;
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        r->AddEnumValue(m, f, EnumValue(f));
        break;
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        Fill(r->AddMessage(m, f), depth + 1);
        break;
    }
  }

  // A defined, non-zero value that varies with the counter.
  int EnumValue(const pb::FieldDescriptor* f) {
    const pb::EnumDescriptor* e = f->enum_type();
    const int n = e->value_count();
    return e->value(1 + static_cast<int>(counter_ % (n - 1)))->number();
  }

  int64_t counter_ = 0;
  std::map<const pb::OneofDescriptor*, int> rotation_;
};

template <typename M>
M Filled() {
  M message;
  Filler().Fill(&message);
  return message;
}

void ExpectSame(const pb::Message& want, const pb::Message& got) {
  std::string diff;
  pb::util::MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&diff);
  EXPECT_TRUE(differencer.Compare(want, got)) << diff;
}

TEST(ConversionTest, PlanTrainingRequestRoundTripsEveryField) {
  const v1::PlanTrainingRequest in = Filled<v1::PlanTrainingRequest>();
  Violations violations;
  const planner::PlanRequest request = FromProto(in, &violations);
  EXPECT_THAT(violations, IsEmpty());
  v1::PlanTrainingRequest out;
  ToProto(request, &out);
  ExpectSame(in, out);
}

TEST(ConversionTest, ReviewPlanRequestRoundTripsEveryProposalKind) {
  const v1::ReviewPlanRequest in = Filled<v1::ReviewPlanRequest>();
  ASSERT_EQ(in.proposals_size(), 3);
  // The filler rotates through the oneof, so all three kinds are covered.
  std::set<int> kinds;
  for (const v1::Proposal& p : in.proposals()) kinds.insert(p.kind_case());
  EXPECT_EQ(kinds.size(), 3u);
  Violations violations;
  const planner::ReviewRequest request = FromProto(in, &violations);
  EXPECT_THAT(violations, IsEmpty());
  v1::ReviewPlanRequest out;
  ToProto(request, &out);
  ExpectSame(in, out);
}

TEST(ConversionTest, ListAcceleratorsRequestRoundTrips) {
  const v1::ListAcceleratorsRequest in = Filled<v1::ListAcceleratorsRequest>();
  Violations violations;
  const planner::ListRequest request = FromProto(in, &violations);
  EXPECT_THAT(violations, IsEmpty());
  v1::ListAcceleratorsRequest out;
  ToProto(request, &out);
  ExpectSame(in, out);
}

TEST(ConversionTest, PlanTrainingResponseRoundTripsEveryField) {
  const v1::PlanTrainingResponse in = Filled<v1::PlanTrainingResponse>();
  v1::PlanTrainingResponse out;
  ToProto(FromProto(in), &out);
  ExpectSame(in, out);
}

TEST(ConversionTest, ReviewPlanResponseRoundTripsEveryField) {
  const v1::ReviewPlanResponse in = Filled<v1::ReviewPlanResponse>();
  v1::ReviewPlanResponse out;
  ToProto(FromProto(in), &out);
  ExpectSame(in, out);
}

TEST(ConversionTest, ListAcceleratorsResponseRoundTripsEveryField) {
  const v1::ListAcceleratorsResponse in =
      Filled<v1::ListAcceleratorsResponse>();
  v1::ListAcceleratorsResponse out;
  ToProto(FromProto(in), &out);
  ExpectSame(in, out);
}

TEST(ConversionTest, EnumNumbersMatchThePlannerTypes) {
  Violations violations;
  v1::PlanTrainingRequest in;
  in.mutable_workload()->set_framework(v1::PYTORCH);
  in.mutable_workload()->set_precision(v1::FP64_REQUIRED);
  in.mutable_constraints()->add_allowed_platforms(v1::TPU);
  in.set_view(v1::BASIC);
  const planner::PlanRequest out = FromProto(in, &violations);
  EXPECT_EQ(out.workload.framework, planner::Framework::kPytorch);
  EXPECT_EQ(out.workload.precision, planner::Precision::kFp64Required);
  EXPECT_THAT(out.constraints.allowed_platforms,
              ElementsAre(planner::Platform::kTpu));
  EXPECT_EQ(out.view, planner::View::kBasic);
  EXPECT_THAT(violations, IsEmpty());
}

TEST(ConversionTest, ReportsUnknownEnumNumbersWithTheirFieldPaths) {
  v1::PlanTrainingRequest plan;
  plan.mutable_workload()->set_framework(static_cast<v1::Framework>(999));
  plan.mutable_workload()->mutable_edge()->set_quantization(
      static_cast<v1::Quantization>(42));
  plan.mutable_constraints()->add_allowed_platforms(v1::GPU);
  plan.mutable_constraints()->add_allowed_platforms(
      static_cast<v1::Platform>(77));
  plan.mutable_current_setup()->add_symptoms(static_cast<v1::Symptom>(-3));
  plan.set_view(static_cast<v1::View>(9));
  Violations violations;
  FromProto(plan, &violations);
  EXPECT_THAT(
      violations,
      ElementsAre(
          Field(&planner::FieldViolation::field, "workload.framework"),
          Field(&planner::FieldViolation::field, "workload.edge.quantization"),
          Field(&planner::FieldViolation::field,
                "constraints.allowed_platforms[1]"),
          Field(&planner::FieldViolation::field, "current_setup.symptoms[0]"),
          Field(&planner::FieldViolation::field, "view")));
  EXPECT_THAT(violations[0].description, ::testing::HasSubstr("999"));

  v1::ReviewPlanRequest review;
  review.add_proposals()->mutable_hardware()->set_platform(v1::TPU);
  review.add_proposals()->mutable_remedy()->mutable_target()->set_platform(
      static_cast<v1::Platform>(55));
  review.add_proposals()->mutable_distribution()->set_across_slices(
      static_cast<v1::DcnParallelism>(12));
  violations.clear();
  FromProto(review, &violations);
  EXPECT_THAT(violations,
              ElementsAre(Field(&planner::FieldViolation::field,
                                "proposals[1].remedy.target.platform"),
                          Field(&planner::FieldViolation::field,
                                "proposals[2].distribution.across_slices")));

  v1::ListAcceleratorsRequest list;
  list.add_platforms(static_cast<v1::Platform>(5));
  list.set_framework(static_cast<v1::Framework>(8));
  violations.clear();
  FromProto(list, &violations);
  EXPECT_THAT(
      violations,
      ElementsAre(Field(&planner::FieldViolation::field, "platforms[0]"),
                  Field(&planner::FieldViolation::field, "framework")));
}

// Every ReasonCode the proto defines has the planner's name for it, so the
// two enums cannot drift apart silently.
TEST(ConversionTest, EveryReasonCodeHasTheSameNumberAndName) {
  const pb::EnumDescriptor* e = v1::ReasonCode_descriptor();
  ASSERT_EQ(e->value(e->value_count() - 1)->number(), planner::kMaxReasonCode);
  for (int i = 0; i < e->value_count(); ++i) {
    const pb::EnumValueDescriptor* v = e->value(i);
    EXPECT_EQ(planner::ReasonCodeName(
                  static_cast<planner::ReasonCode>(v->number())),
              v->name());
  }
}

}  // namespace
}  // namespace accelplan::api
