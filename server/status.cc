#include "server/status.h"

#include "absl/strings/str_cat.h"
#include "api/errors.h"
#include "google/rpc/status.pb.h"

namespace accelplan::server {

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  // absl and gRPC share the canonical code numbers 0..16.
  const auto code = static_cast<grpc::StatusCode>(status.code());
  std::string message(status.message());
  // Payloads (e.g. api::InvalidRequest's google.rpc.BadRequest) travel as
  // the Any details of a google.rpc.Status in grpc-status-details-bin.
  google::rpc::Status details;
  status.ForEachPayload([&](absl::string_view type_url, const absl::Cord& v) {
    google::protobuf::Any* any = details.add_details();
    any->set_type_url(std::string(type_url));
    any->set_value(std::string(v));
  });
  if (details.details().empty()) return grpc::Status(code, message);
  details.set_code(static_cast<int>(code));
  details.set_message(message);
  return grpc::Status(code, message, details.SerializeAsString());
}

grpc::Status InvalidArgument(
    const std::vector<planner::FieldViolation>& violations) {
  return ToGrpcStatus(api::InvalidRequest(violations));
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
