// Thin C++ client for accelplan.v1.TrainingPlanner: one channel, a default
// deadline on every call, retries of UNAVAILABLE and client-side round_robin
// load balancing, all declared in the channel's gRPC service config.
#ifndef ACCELPLAN_CLIENT_ACCELPLAN_CLIENT_H_
#define ACCELPLAN_CLIENT_ACCELPLAN_CLIENT_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "accelplan/v1/accelplan.grpc.pb.h"
#include "accelplan/v1/accelplan.pb.h"
#include "grpcpp/channel.h"
#include "grpcpp/support/status.h"

namespace accelplan::client {

struct ClientOptions {
  // Deadline of each call, retries included. Planning takes microseconds;
  // the budget is for queueing, connection set-up and retries.
  absl::Duration deadline = absl::Seconds(30);
  // Attempts per call (first try included) when the server answers
  // UNAVAILABLE (not ready, draining, connection refused). gRPC caps it at 5.
  int max_attempts = 4;
  absl::Duration initial_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(2);
  // Load-balancing policy for "dns:///" targets that resolve to several
  // pods (a headless Kubernetes Service).
  std::string lb_policy = "round_robin";
  // Client keepalive; the server accepts pings at least 10 s apart.
  absl::Duration keepalive_time = absl::Seconds(30);
  // TLS: when `use_tls` is set the channel verifies the server against
  // `tls_root_certs_pem` (empty: the system roots); a client certificate and
  // key (PEM) are presented when both are set (mTLS).
  bool use_tls = false;
  std::string tls_root_certs_pem;
  std::string tls_cert_chain_pem;
  std::string tls_private_key_pem;
};

// The service config JSON the channel is created with (exposed for tests).
std::string ServiceConfigJson(const ClientOptions& options);

// A channel to `target` ("host:port", "dns:///name:port", "unix:/path")
// carrying ServiceConfigJson(options): TLS when options.use_tls, else
// plaintext.
std::shared_ptr<grpc::Channel> CreateChannel(const std::string& target,
                                             const ClientOptions& options);

// grpc::Status → absl::Status with the same code and message. The details'
// payloads (e.g. a google.rpc.BadRequest) become absl payloads under their
// type URLs (api::FieldViolations reads them); a violation the message does
// not already name is appended to it.
absl::Status ToAbslStatus(const grpc::Status& status);

class Client {
 public:
  explicit Client(const std::string& target, ClientOptions options = {});
  // For tests and callers that manage their own channel.
  Client(std::shared_ptr<grpc::ChannelInterface> channel,
         ClientOptions options);

  absl::StatusOr<v1::PlanTrainingResponse> Plan(
      const v1::PlanTrainingRequest& request) const;
  absl::StatusOr<v1::ReviewPlanResponse> Review(
      const v1::ReviewPlanRequest& request) const;
  absl::StatusOr<v1::ListAcceleratorsResponse> ListAccelerators(
      const v1::ListAcceleratorsRequest& request = {}) const;

  const ClientOptions& options() const { return options_; }

 private:
  ClientOptions options_;
  std::unique_ptr<v1::TrainingPlanner::Stub> stub_;
};

}  // namespace accelplan::client

#endif  // ACCELPLAN_CLIENT_ACCELPLAN_CLIENT_H_
