#include "client/accelplan_client.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"

namespace accelplan::client {
namespace {

// google.protobuf.Duration in its JSON form, which the service config uses.
std::string JsonDuration(absl::Duration d) {
  return absl::StrFormat("%.3fs", absl::ToDoubleSeconds(d));
}

template <typename Response, typename Call>
absl::StatusOr<Response> Invoke(const ClientOptions& options, Call call) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       absl::ToChronoMilliseconds(options.deadline));
  Response response;
  grpc::Status status = call(&context, &response);
  if (!status.ok()) return ToAbslStatus(status);
  return response;
}

}  // namespace

std::string ServiceConfigJson(const ClientOptions& options) {
  std::string method_config =
      absl::StrCat(R"({"name":[{"service":"accelplan.v1.TrainingPlanner"}],)",
                   R"("timeout":")", JsonDuration(options.deadline), R"(")");
  // gRPC rejects the whole service config when maxAttempts < 2, so a
  // caller that wants no retries gets no retryPolicy at all.
  if (options.max_attempts >= 2) {
    absl::StrAppend(
        &method_config, R"(,"retryPolicy":{"maxAttempts":)",
        options.max_attempts, R"(,"initialBackoff":")",
        JsonDuration(options.initial_backoff), R"(","maxBackoff":")",
        JsonDuration(std::max(options.max_backoff, options.initial_backoff)),
        R"(","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]})");
  }
  absl::StrAppend(&method_config, "}");
  return absl::StrCat(R"({"loadBalancingConfig":[{")", options.lb_policy,
                      R"(":{}}],"methodConfig":[)", method_config, "]}");
}

std::shared_ptr<grpc::Channel> CreateChannel(const std::string& target,
                                             const ClientOptions& options) {
  grpc::ChannelArguments args;
  args.SetServiceConfigJSON(ServiceConfigJson(options));
  args.SetInt(GRPC_ARG_ENABLE_RETRIES, 1);
  args.SetInt(
      GRPC_ARG_KEEPALIVE_TIME_MS,
      static_cast<int>(absl::ToInt64Milliseconds(options.keepalive_time)));
  if (!options.use_tls) {
    return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(),
                                     args);
  }
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = options.tls_root_certs_pem;
  ssl.pem_cert_chain = options.tls_cert_chain_pem;
  ssl.pem_private_key = options.tls_private_key_pem;
  return grpc::CreateCustomChannel(target, grpc::SslCredentials(ssl), args);
}

absl::Status ToAbslStatus(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  std::string message = status.error_message();
  google::rpc::Status details;
  std::vector<std::pair<std::string, std::string>> payloads;
  if (!status.error_details().empty() &&
      details.ParseFromString(status.error_details())) {
    std::vector<std::string> missing;
    for (const google::protobuf::Any& any : details.details()) {
      payloads.emplace_back(any.type_url(), any.value());
      google::rpc::BadRequest bad_request;
      if (!any.UnpackTo(&bad_request)) continue;
      for (const auto& v : bad_request.field_violations()) {
        // accelplan's own servers already name every violation in the
        // message; other servers may not, so name only what is missing.
        std::string text = absl::StrCat(v.field(), ": ", v.description());
        if (!absl::StrContains(message, text)) missing.push_back(text);
      }
    }
    if (!missing.empty()) {
      absl::StrAppend(&message, " [", absl::StrJoin(missing, "; "), "]");
    }
  }
  // grpc::StatusCode and absl::StatusCode share their numbering.
  absl::Status out(static_cast<absl::StatusCode>(status.error_code()),
                   message);
  // The details' Anys become payloads, as the server's core made them
  // (api/errors.h reads the BadRequest back from there).
  for (const auto& [type_url, value] : payloads) {
    out.SetPayload(type_url, absl::Cord(value));
  }
  return out;
}

Client::Client(const std::string& target, ClientOptions options)
    : Client(CreateChannel(target, options), options) {}

Client::Client(std::shared_ptr<grpc::ChannelInterface> channel,
               ClientOptions options)
    : options_(std::move(options)),
      stub_(v1::TrainingPlanner::NewStub(std::move(channel))) {}

absl::StatusOr<v1::PlanTrainingResponse> Client::Plan(
    const v1::PlanTrainingRequest& request) const {
  return Invoke<v1::PlanTrainingResponse>(
      options_, [&](grpc::ClientContext* context, auto* response) {
        return stub_->PlanTraining(context, request, response);
      });
}

absl::StatusOr<v1::ReviewPlanResponse> Client::Review(
    const v1::ReviewPlanRequest& request) const {
  return Invoke<v1::ReviewPlanResponse>(
      options_, [&](grpc::ClientContext* context, auto* response) {
        return stub_->ReviewPlan(context, request, response);
      });
}

absl::StatusOr<v1::ListAcceleratorsResponse> Client::ListAccelerators(
    const v1::ListAcceleratorsRequest& request) const {
  return Invoke<v1::ListAcceleratorsResponse>(
      options_, [&](grpc::ClientContext* context, auto* response) {
        return stub_->ListAccelerators(context, request, response);
      });
}

}  // namespace accelplan::client
