// The one place that decides how errors look on the wire: absl::Status and
// request field violations become grpc::Status, with a google.rpc.Status
// (holding a google.rpc.BadRequest for bad input) in the binary details
// trailer `grpc-status-details-bin`.
#ifndef ACCELPLAN_SERVER_STATUS_H_
#define ACCELPLAN_SERVER_STATUS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"
#include "planner/types.h"

namespace accelplan::server {

// Maps an absl::Status to the grpc::Status with the same code and message.
grpc::Status ToGrpcStatus(const absl::Status& status);

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
std::vector<planner::FieldViolation> BoundViolations(
    const std::vector<planner::FieldViolation>& violations);

// INVALID_ARGUMENT whose message names the bad fields
// ("invalid request: workload.parameter_count: must be >= 0; ...") and whose
// details hold a google.rpc.BadRequest with one field violation each; both
// bounded as above (BoundViolations, then the byte caps).
grpc::Status InvalidArgument(
    const std::vector<planner::FieldViolation>& violations);

// "field: description; field: description" of BoundViolations(violations),
// the message part above; also what the CLI prints for bad input in
// in-process mode.
std::string DescribeViolations(
    const std::vector<planner::FieldViolation>& violations);

// go-grpc-prometheus spelling of a status code ("OK", "InvalidArgument",
// "Canceled", ...), used as the grpc_code label.
absl::string_view GoCodeName(grpc::StatusCode code);

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_STATUS_H_
