#include "api/errors.h"

#include <algorithm>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace accelplan::api {

namespace {

bool IsContinuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The longest prefix of `text` of at most `max_bytes` bytes that ends on a
// UTF-8 character boundary.
absl::string_view PrefixBytes(absl::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  while (end > 0 && IsContinuation(text[end])) --end;
  return text.substr(0, end);
}

std::string MoreEntry(size_t n) {
  return absl::StrCat("and ", n, " more violation", n == 1 ? "" : "s");
}

std::string Join(const std::vector<planner::FieldViolation>& violations) {
  std::string out;
  for (const planner::FieldViolation& v : violations) {
    if (!out.empty()) out.append("; ");
    if (v.field.empty()) {
      out.append(v.description);
    } else {
      absl::StrAppend(&out, v.field, ": ", v.description);
    }
  }
  return out;
}

google::rpc::Status Details(
    const std::string& message,
    const std::vector<planner::FieldViolation>& violations) {
  google::rpc::BadRequest bad_request;
  for (const planner::FieldViolation& v : violations) {
    google::rpc::BadRequest::FieldViolation* fv =
        bad_request.add_field_violations();
    fv->set_field(v.field);
    fv->set_description(v.description);
  }
  google::rpc::Status details;
  details.set_code(static_cast<int>(absl::StatusCode::kInvalidArgument));
  details.set_message(message);
  details.add_details()->PackFrom(bad_request);
  return details;
}

}  // namespace

std::string TruncateUtf8(absl::string_view text, size_t max_chars) {
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (IsContinuation(text[i])) continue;
    if (chars == max_chars) {
      // Room for the "..." marker inside the budget.
      size_t end = i;
      for (int dropped = 0; dropped < 3 && end > 0; ++dropped) {
        do {
          --end;
        } while (end > 0 && IsContinuation(text[end]));
      }
      return absl::StrCat(text.substr(0, end), "...");
    }
    ++chars;
  }
  return std::string(text);
}

std::vector<planner::FieldViolation> BoundViolations(
    const std::vector<planner::FieldViolation>& violations) {
  const size_t kept =
      std::min(violations.size(), static_cast<size_t>(kMaxReportedViolations));
  std::vector<planner::FieldViolation> out;
  out.reserve(kept + 1);
  for (size_t i = 0; i < kept; ++i) {
    out.push_back({TruncateUtf8(violations[i].field, kMaxViolationFieldChars),
                   TruncateUtf8(violations[i].description,
                                kMaxViolationDescriptionChars)});
  }
  if (kept < violations.size()) {
    out.push_back({"", MoreEntry(violations.size() - kept)});
  }
  return out;
}

std::string DescribeViolations(
    const std::vector<planner::FieldViolation>& violations) {
  return Join(BoundViolations(violations));
}

absl::Status InvalidRequest(const Violations& violations) {
  std::vector<planner::FieldViolation> bounded = BoundViolations(violations);
  // The caps above keep a message near 20 x 150 bytes; cut it to its byte
  // budget on a character boundary.
  std::string message = absl::StrCat("invalid request: ", Join(bounded));
  if (message.size() > kMaxInvalidArgumentMessageBytes) {
    message = absl::StrCat(
        PrefixBytes(message, kMaxInvalidArgumentMessageBytes - 3), "...");
  }
  google::rpc::Status details = Details(message, bounded);
  // Field paths and descriptions of many bytes per character (CJK, emoji)
  // can still overshoot: fold listed violations, last first, into the
  // "more" entry until the details fit.
  size_t listed =
      std::min(violations.size(), static_cast<size_t>(kMaxReportedViolations));
  while (details.ByteSizeLong() > kMaxInvalidArgumentDetailsBytes &&
         listed > 0) {
    --listed;
    bounded.resize(listed);
    bounded.push_back({"", MoreEntry(violations.size() - listed)});
    details = Details(message, bounded);
  }
  absl::Status status = absl::InvalidArgumentError(message);
  status.SetPayload(kBadRequestTypeUrl,
                    absl::Cord(details.details(0).value()));
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
