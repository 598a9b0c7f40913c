#include "server/server.h"

#include <unistd.h>

#include <chrono>
#include <climits>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "catalog/loader.h"
#include "grpc/health/v1/health.pb.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "planner/planner.h"
#include "prometheus/exposer.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/training_planner_service.h"

namespace accelplan::server {
namespace {

// civetweb options of the metrics endpoint. Each open connection holds one
// worker thread until its request arrives, so prometheus-cpp's default of 2
// threads let two idle TCP connections block /metrics for civetweb's default
// 30 s request timeout (issue 20). Enough workers for a few idle or slow
// clients beside the scrapers, and a short timeout to free them; scrapers
// send their request as soon as they connect and read the answer at once.
constexpr int kMetricsThreads = 8;
constexpr int kMetricsRequestTimeoutMs = 3000;

std::vector<std::string> MetricsExposerOptions(const std::string& listen) {
  return {"listening_ports",    listen,
          "num_threads",        absl::StrCat(kMetricsThreads),
          "request_timeout_ms", absl::StrCat(kMetricsRequestTimeoutMs),
          "enable_keep_alive",  "no"};
}

int Millis(absl::Duration d) {
  const int64_t ms = absl::ToInt64Milliseconds(d);
  return ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
}

std::chrono::system_clock::time_point Deadline(absl::Duration from_now) {
  return std::chrono::system_clock::now() +
         std::chrono::milliseconds(absl::ToInt64Milliseconds(from_now));
}

absl::StatusOr<std::string> ReadPem(const std::string& flag,
                                    const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  if (!in.good() && !in.eof()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": cannot read ", path));
  }
  if (content.str().find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, ": ", path, " is missing, unreadable or not PEM"));
  }
  return content.str();
}

// Plaintext without --tls_cert/--tls_key; TLS with them; mTLS (clients must
// present a certificate signed by one of these CAs) with --tls_client_ca.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> Credentials(
    const TlsOptions& tls) {
  if (tls.cert_path.empty() && tls.key_path.empty()) {
    if (!tls.client_ca_path.empty()) {
      return absl::InvalidArgumentError(
          "--tls_client_ca needs --tls_cert and --tls_key");
    }
    return grpc::InsecureServerCredentials();
  }
  if (tls.cert_path.empty() || tls.key_path.empty()) {
    return absl::InvalidArgumentError(
        "--tls_cert and --tls_key must be given together");
  }
  absl::StatusOr<std::string> cert = ReadPem("tls_cert", tls.cert_path);
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadPem("tls_key", tls.key_path);
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions options(
      GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  options.pem_key_cert_pairs.push_back({*key, *cert});
  if (!tls.client_ca_path.empty()) {
    absl::StatusOr<std::string> ca =
        ReadPem("tls_client_ca", tls.client_ca_path);
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *ca;
    options.client_certificate_request =
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace

sigset_t BlockServerSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

std::string DefaultCatalogPath() {
  std::error_code ec;
  const std::filesystem::path exe =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "catalog.db";
  const std::filesystem::path dir = exe.parent_path();
  const std::filesystem::path beside = dir / "catalog.db";
  if (std::filesystem::exists(beside, ec)) return beside.string();
  return (dir / ".." / "share" / "accelplan" / "catalog.db")
      .lexically_normal()
      .string();
}

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    const ServerOptions& options, CatalogLoader loader) {
  std::unique_ptr<Server> s(new Server());
  s->options_ = options;
  s->loader_ =
      loader ? std::move(loader) : CatalogLoader(&catalog::LoadCatalog);
  s->metrics_ = std::make_unique<Metrics>();
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      Credentials(options.tls);
  if (!credentials.ok()) return credentials.status();

  if (!options.metrics_listen.empty()) {
    try {
      s->exposer_ =
          std::make_unique<prometheus::Exposer>(
          MetricsExposerOptions(options.metrics_listen));
    } catch (const std::exception& e) {
      return absl::UnavailableError(absl::StrCat(
          "cannot serve metrics on ", options.metrics_listen, ": ", e.what()));
    }
    s->exposer_->RegisterCollectable(s->metrics_->registry());
    s->exposer_->RegisterCollectable(s->metrics_->catalog_age());
    const std::vector<int> ports = s->exposer_->GetListeningPorts();
    if (!ports.empty()) s->metrics_port_ = ports.front();
  }

  s->service_ = std::make_unique<TrainingPlannerService>(
      s->metrics_.get(), options.planning, options.plan_training_handler);
  // Explicit calls keep the reflection library linked despite --as-needed.
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  // Links health.pb.cc in, whose descriptor reflection then serves for the
  // built-in grpc.health.v1.Health (the implementation is gRPC's own).
  (void)grpc::health::v1::HealthCheckRequest::descriptor();
  grpc::EnableDefaultHealthCheckService(true);

  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.listen, *credentials, &s->port_);
  builder.RegisterService(s->service_.get());
  builder.SetMaxReceiveMessageSize(options.max_receive_message_bytes);
  // A port already taken is an error, not a silently shared listener.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  const ConnectionOptions& c = options.connection;
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS,
                             Millis(c.max_connection_age));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
                             Millis(c.max_connection_age_grace));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS,
                             Millis(c.max_connection_idle));
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS,
                             Millis(c.keepalive_time));
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS,
                             Millis(c.keepalive_timeout));
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS,
                             c.keepalive_permit_without_calls ? 1 : 0);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                             c.max_concurrent_streams);
  builder.AddChannelArgument(
      GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
      Millis(c.min_client_ping_interval));
  s->server_ = builder.BuildAndStart();
  if (s->server_ == nullptr || s->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options.listen));
  }
  grpc::HealthCheckServiceInterface* health =
      s->server_->GetHealthCheckService();
  health->SetServingStatus("", true);
  health->SetServingStatus(kReadinessService, false);
  Log(LogLevel::kInfo, "listening",
      {{"listen", options.listen},
       {"port", s->port_},
       {"tls", !options.tls.cert_path.empty()},
       {"mtls", !options.tls.client_ca_path.empty()},
       {"metrics_listen", options.metrics_listen},
       {"metrics_port", s->metrics_port_},
       {"planning_threads", options.planning.threads},
       {"planning_queue", options.planning.queue_capacity}});

  if (absl::Status loaded = s->LoadAndInstall(); !loaded.ok()) {
    s->server_->Shutdown(std::chrono::system_clock::now());
    s->server_->Wait();
    return loaded;
  }
  health->SetServingStatus(kReadinessService, true);
  Log(LogLevel::kInfo, "ready",
      {{"catalog", options.catalog_path},
       {"catalog_version", s->catalog_version()}});
  return s;
}

Server::~Server() {
  if (server_) {
    server_->Shutdown(std::chrono::system_clock::now());
    server_->Wait();
  }
}

std::string Server::catalog_version() const {
  std::lock_guard<std::mutex> lock(version_mutex_);
  return catalog_version_;
}

absl::Status Server::LoadAndInstall() {
  absl::StatusOr<catalog::CatalogPtr> catalog = loader_(options_.catalog_path);
  if (!catalog.ok()) {
    return absl::Status(
        catalog.status().code(),
        absl::StrCat("cannot load catalog ", options_.catalog_path, ": ",
                     catalog.status().message()));
  }
  auto snapshot = std::make_shared<ServingSnapshot>();
  // Building the planner precomputes candidate shapes: done here, off the
  // request path, before the swap.
  snapshot->planner = std::make_shared<const planner::Planner>(*catalog);
  snapshot->plan_counters = metrics_->MakePlanCounters(**catalog);
  const std::string version = (*catalog)->version;
  service_->SetSnapshot(std::move(snapshot));
  metrics_->SetCatalogVersion(version);
  metrics_->SetCatalogDataDate((*catalog)->data_date);
  {
    std::lock_guard<std::mutex> lock(version_mutex_);
    catalog_version_ = version;
  }
  Log(LogLevel::kInfo, "catalog loaded",
      {{"catalog", options_.catalog_path},
       {"catalog_version", version},
       {"data_date", (*catalog)->data_date},
       {"machine_types",
        static_cast<int64_t>((*catalog)->machine_types.size())}});
  return absl::OkStatus();
}

absl::Status Server::Reload() {
  std::lock_guard<std::mutex> lock(reload_mutex_);
  absl::Status status;
  try {
    status = LoadAndInstall();
  } catch (const std::exception& e) {
    status = absl::InternalError(absl::StrCat("catalog reload: ", e.what()));
  }
  metrics_->Reload(status.ok());
  if (!status.ok()) {
    Log(LogLevel::kError, "catalog reload failed; still serving the old one",
        {{"error", status.ToString()}, {"catalog_version", catalog_version()}});
  }
  return status;
}

void Server::Drain() {
  server_->GetHealthCheckService()->SetServingStatus(kReadinessService, false);
  Log(LogLevel::kInfo, "draining",
      {{"drain_delay_seconds", absl::ToDoubleSeconds(options_.drain_delay)},
       {"shutdown_grace_seconds",
        absl::ToDoubleSeconds(options_.shutdown_grace)}});
  // Load balancers keep sending for a while after readiness flips.
  std::this_thread::sleep_for(std::chrono::milliseconds(
      absl::ToInt64Milliseconds(options_.drain_delay)));
  server_->Shutdown(Deadline(options_.shutdown_grace));
  Log(LogLevel::kInfo, "stopped");
}

void Server::Wait() { server_->Wait(); }

void Server::RunUntilSignalled(const sigset_t& signals) {
  std::thread signal_thread([this, signals] {
    while (true) {
      int signal = 0;
      if (sigwait(&signals, &signal) != 0) continue;
      if (signal == SIGHUP) {
        Log(LogLevel::kInfo, "SIGHUP: reloading catalog",
            {{"catalog", options_.catalog_path}});
        (void)Reload();  // Reload logs and counts its own failure.
        continue;
      }
      Log(LogLevel::kInfo, "shutdown signal", {{"signal", signal}});
      Drain();
      return;
    }
  });
  Wait();
  signal_thread.join();
}

}  // namespace accelplan::server
