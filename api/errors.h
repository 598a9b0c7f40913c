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
#include "planner/types.h"

namespace accelplan::api {

using Violations = std::vector<planner::FieldViolation>;

// The payload type URL of a google.rpc.BadRequest, as in google.rpc.Status
// details (an Any's type_url).
inline constexpr char kBadRequestTypeUrl[] =
    "type.googleapis.com/google.rpc.BadRequest";

// INVALID_ARGUMENT: "invalid request: field: description; ..." with a
// google.rpc.BadRequest payload holding one field violation each.
absl::Status InvalidRequest(const Violations& violations);

// The field violations of a status made by InvalidRequest (or received from a
// server); empty when it has none.
Violations FieldViolations(const absl::Status& status);

// "field: description; field: description".
std::string DescribeViolations(const Violations& violations);

}  // namespace accelplan::api

#endif  // ACCELPLAN_API_ERRORS_H_
