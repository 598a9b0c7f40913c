#include "api/errors.h"

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "google/rpc/error_details.pb.h"

namespace accelplan::api {

std::string DescribeViolations(const Violations& violations) {
  std::string out;
  for (const planner::FieldViolation& v : violations) {
    if (!out.empty()) out.append("; ");
    absl::StrAppend(&out, v.field, ": ", v.description);
  }
  return out;
}

absl::Status InvalidRequest(const Violations& violations) {
  absl::Status status = absl::InvalidArgumentError(
      absl::StrCat("invalid request: ", DescribeViolations(violations)));
  google::rpc::BadRequest bad_request;
  for (const planner::FieldViolation& v : violations) {
    google::rpc::BadRequest::FieldViolation* fv =
        bad_request.add_field_violations();
    fv->set_field(v.field);
    fv->set_description(v.description);
  }
  status.SetPayload(kBadRequestTypeUrl,
                    absl::Cord(bad_request.SerializeAsString()));
  return status;
}

Violations FieldViolations(const absl::Status& status) {
  Violations out;
  const auto payload = status.GetPayload(kBadRequestTypeUrl);
  google::rpc::BadRequest bad_request;
  if (!payload || !bad_request.ParseFromString(std::string(*payload))) {
    return out;
  }
  for (const auto& v : bad_request.field_violations()) {
    out.push_back({v.field(), v.description()});
  }
  return out;
}

}  // namespace accelplan::api
