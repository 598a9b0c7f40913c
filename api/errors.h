// How request errors are represented before any transport sees them: an
// absl::Status whose message names every bad field and whose payload holds a
// google.rpc.BadRequest. The server maps it onto gRPC's status details
// (server/status.h), the C++ client maps those details back
// (client/accelplan_client.h), so a caller in-process and a caller over the
// wire see the same code, message and violations.
#ifndef ACCELPLAN_API_ERRORS_H_
#define ACCELPLAN_API_ERRORS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "planner/types.h"

namespace accelplan::api {

using Violations = std::vector<planner::FieldViolation>;

// The payload type URL of a google.rpc.BadRequest, as in google.rpc.Status
// details (an Any's type_url).
inline constexpr char kBadRequestTypeUrl[] =
    "type.googleapis.com/google.rpc.BadRequest";

// How big an INVALID_ARGUMENT answer may get, whatever the request: its
// message (grpc-message) and its serialized details (grpc-status-details-bin,
// base64 on the wire) travel as trailers, and clients refuse trailers over
// 8 KiB (gRPC's default max metadata size) with RESOURCE_EXHAUSTED.
// At most this many violations are listed; the rest become one final entry
// with an empty field, "and N more violations".
inline constexpr int kMaxReportedViolations = 20;
// Each field path and description is cut to this many characters (on a
// UTF-8 character boundary, ending in "...").
inline constexpr int kMaxViolationFieldChars = 80;
inline constexpr int kMaxViolationDescriptionChars = 64;
// The message, "invalid request: " included.
inline constexpr size_t kMaxInvalidArgumentMessageBytes = 1024;
// The serialized google.rpc.Status (message + BadRequest): 4 KiB once
// base64-encoded, which leaves room for a message of 1 KiB even when
// percent-encoded three times over.
inline constexpr size_t kMaxInvalidArgumentDetailsBytes = 3072;

// `text` cut to at most `max_chars` characters, never inside a UTF-8
// sequence, with "..." appended when cut.
std::string TruncateUtf8(absl::string_view text, size_t max_chars);

// The violations as they are reported: at most kMaxReportedViolations, each
// field and description truncated, plus "and N more violations" when some
// were left out.
Violations BoundViolations(const Violations& violations);

// INVALID_ARGUMENT whose message names the bad fields ("invalid request:
// workload.parameter_count: must not be negative (got -1); ...") and whose
// google.rpc.BadRequest payload holds one field violation each; both bounded
// as above (BoundViolations, then the byte caps), so every client receives
// it whatever the request.
absl::Status InvalidRequest(const Violations& violations);

// The field violations of a status made by InvalidRequest (or received from a
// server); empty when it has none.
Violations FieldViolations(const absl::Status& status);

// "field: description; field: description" of BoundViolations(violations),
// the message part above.
std::string DescribeViolations(const Violations& violations);

}  // namespace accelplan::api

#endif  // ACCELPLAN_API_ERRORS_H_
