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
#include "api/errors.h"
#include "planner/types.h"

namespace accelplan::server {

// Maps an absl::Status to the grpc::Status with the same code and message;
// its payloads become the details of a google.rpc.Status.
grpc::Status ToGrpcStatus(const absl::Status& status);

// The bounds and helpers of api/errors.h, under their old names here.
using api::BoundViolations;
using api::DescribeViolations;
using api::kMaxInvalidArgumentDetailsBytes;
using api::kMaxInvalidArgumentMessageBytes;
using api::kMaxReportedViolations;
using api::kMaxViolationDescriptionChars;
using api::kMaxViolationFieldChars;
using api::TruncateUtf8;

// ToGrpcStatus(api::InvalidRequest(violations)).
grpc::Status InvalidArgument(
    const std::vector<planner::FieldViolation>& violations);

// go-grpc-prometheus spelling of a status code ("OK", "InvalidArgument",
// "Canceled", ...), used as the grpc_code label.
absl::string_view GoCodeName(grpc::StatusCode code);

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_STATUS_H_
