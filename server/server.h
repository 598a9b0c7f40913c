// Builds and runs accelplan-server: the gRPC server (TrainingPlanner, health,
// reflection), the metrics endpoint, catalog loading and reload, and the
// graceful drain. main() only parses flags and calls this.
#ifndef ACCELPLAN_SERVER_SERVER_H_
#define ACCELPLAN_SERVER_SERVER_H_

#include <csignal>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "catalog/catalog.h"
#include "server/training_planner_service.h"

namespace grpc {
class Server;
}  // namespace grpc
namespace prometheus {
class Exposer;
}  // namespace prometheus

namespace accelplan::server {

class Metrics;
class TrainingPlannerService;

// Readiness is reported under the service's full name.
inline constexpr const char* kReadinessService = "accelplan.v1.TrainingPlanner";

// HTTP/2 connection management (gRPC proposal A9 + keepalive).
struct ConnectionOptions {
  // GOAWAY after this age so an L4 load balancer gets to rebalance.
  absl::Duration max_connection_age = absl::Minutes(5);
  // In-flight calls get this long after GOAWAY.
  absl::Duration max_connection_age_grace = absl::Seconds(30);
  absl::Duration max_connection_idle = absl::Minutes(10);
  absl::Duration keepalive_time = absl::Seconds(60);
  absl::Duration keepalive_timeout = absl::Seconds(20);
  // Keepalive pings also on connections without calls, so idle connections
  // through a load balancer that silently drops flows are detected.
  bool keepalive_permit_without_calls = true;
  // Client pings closer together than this are answered with GOAWAY.
  absl::Duration min_client_ping_interval = absl::Seconds(10);
  // Per connection; further streams wait (gRPC's own default is unlimited).
  int max_concurrent_streams = 100;
};

// Server TLS, optional: all paths empty means plaintext.
struct TlsOptions {
  std::string cert_path;       // PEM certificate chain
  std::string key_path;        // PEM private key
  std::string client_ca_path;  // PEM CAs; set: clients must present a
                               // certificate they signed (mTLS)
};

struct ServerOptions {
  std::string listen = "0.0.0.0:50051";
  std::string metrics_listen = "0.0.0.0:9464";  // empty: no metrics endpoint
  std::string catalog_path;
  absl::Duration drain_delay = absl::Seconds(5);
  absl::Duration shutdown_grace = absl::Seconds(10);
  int max_receive_message_bytes = 1 << 20;  // requests are a few KiB
  ConnectionOptions connection;
  PlanningLimits planning;
  TlsOptions tls;
  // Bench-only, see PlanTrainingHandler; empty: the planner answers.
  PlanTrainingHandler plan_training_handler;
};

using CatalogLoader =
    std::function<absl::StatusOr<catalog::CatalogPtr>(const std::string&)>;

class Server {
 public:
  // Starts serving with readiness NOT_SERVING, loads the catalog, then
  // flips readiness to SERVING. Fails (and stops everything it started)
  // when a port cannot be bound or the catalog cannot be loaded.
  // `loader` defaults to catalog::LoadCatalog.
  static absl::StatusOr<std::unique_ptr<Server>> Start(
      const ServerOptions& options, CatalogLoader loader = nullptr);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  int port() const { return port_; }
  int metrics_port() const { return metrics_port_; }
  std::string catalog_version() const;

  // Loads the catalog again and swaps the planner atomically; on failure the
  // old snapshot keeps serving. Counted in accelplan_catalog_reloads_total.
  absl::Status Reload();

  // Readiness -> NOT_SERVING, waits the drain delay, then stops accepting
  // calls and lets in-flight ones finish until the grace deadline.
  void Drain();
  // Blocks until the gRPC server has shut down.
  void Wait();

  // Handles `signals` (blocked in every thread, see BlockServerSignals) on a
  // dedicated thread: SIGHUP reloads, SIGTERM/SIGINT drain. Returns after the
  // drain completed.
  void RunUntilSignalled(const sigset_t& signals);

 private:
  Server() = default;
  absl::Status LoadAndInstall();

  ServerOptions options_;
  CatalogLoader loader_;
  std::unique_ptr<Metrics> metrics_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::unique_ptr<TrainingPlannerService> service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  int metrics_port_ = 0;
  std::mutex reload_mutex_;  // one reload at a time
  mutable std::mutex version_mutex_;
  std::string catalog_version_;
};

// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread (and so in every
// thread started after it); call first thing in main().
sigset_t BlockServerSignals();

// The default --catalog: catalog.db beside the executable (the build tree
// root holds both), else <exe_dir>/../share/accelplan/catalog.db.
std::string DefaultCatalogPath();

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_SERVER_H_
