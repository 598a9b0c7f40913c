#include "server/status.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace accelplan::server {

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  // absl and gRPC share the canonical code numbers 0..16.
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()));
}

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
  details.set_code(static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
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

grpc::Status InvalidArgument(
    const std::vector<planner::FieldViolation>& violations) {
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
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, message,
                      details.SerializeAsString());
}

absl::string_view GoCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "Canceled";
    case grpc::StatusCode::UNKNOWN:
      return "Unknown";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "InvalidArgument";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DeadlineExceeded";
    case grpc::StatusCode::NOT_FOUND:
      return "NotFound";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "AlreadyExists";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PermissionDenied";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "ResourceExhausted";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FailedPrecondition";
    case grpc::StatusCode::ABORTED:
      return "Aborted";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OutOfRange";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "Unimplemented";
    case grpc::StatusCode::INTERNAL:
      return "Internal";
    case grpc::StatusCode::UNAVAILABLE:
      return "Unavailable";
    case grpc::StatusCode::DATA_LOSS:
      return "DataLoss";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "Unauthenticated";
    default:
      return "Unknown";
  }
}

}  // namespace accelplan::server
