#include "server/flags.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "catalog/loader.h"

#ifndef ACCELPLAN_VERSION
#define ACCELPLAN_VERSION "unknown"
#endif

ABSL_FLAG(std::string, listen, "0.0.0.0:50051",
          "gRPC listen address host:port (env ACCELPLAN_LISTEN).");
ABSL_FLAG(std::string, metrics_listen, "0.0.0.0:9464",
          "Prometheus /metrics HTTP address host:port; empty disables it "
          "(env ACCELPLAN_METRICS_LISTEN).");
ABSL_FLAG(std::string, catalog, "",
          "Catalog SQLite file. Default: catalog.db beside the executable if "
          "it exists, else <exe_dir>/../share/accelplan/catalog.db "
          "(env ACCELPLAN_CATALOG).");
ABSL_FLAG(double, drain_delay_seconds, 5,
          "Seconds between readiness NOT_SERVING and closing the listener on "
          "SIGTERM (env ACCELPLAN_DRAIN_DELAY_SECONDS).");
ABSL_FLAG(double, shutdown_grace_seconds, 10,
          "Seconds in-flight calls get to finish after the listener closes "
          "(env ACCELPLAN_SHUTDOWN_GRACE_SECONDS).");
ABSL_FLAG(std::string, log_level, "info",
          "debug, info, warning or error (env ACCELPLAN_LOG_LEVEL).");

// Connection management; the defaults suit an L4 load balancer in front.
ABSL_FLAG(double, max_connection_age_seconds, 300,
          "GOAWAY connections older than this so load spreads to new "
          "replicas (env ACCELPLAN_MAX_CONNECTION_AGE_SECONDS).");
ABSL_FLAG(double, max_connection_age_grace_seconds, 30,
          "Time calls get to finish after a max-age GOAWAY "
          "(env ACCELPLAN_MAX_CONNECTION_AGE_GRACE_SECONDS).");
ABSL_FLAG(double, max_connection_idle_seconds, 600,
          "Close connections without calls for this long; keep it below the "
          "load balancer's idle timeout "
          "(env ACCELPLAN_MAX_CONNECTION_IDLE_SECONDS).");
ABSL_FLAG(double, keepalive_time_seconds, 60,
          "Ping clients after this much silence "
          "(env ACCELPLAN_KEEPALIVE_TIME_SECONDS).");
ABSL_FLAG(double, keepalive_timeout_seconds, 20,
          "Close the connection when a ping is not answered within this "
          "(env ACCELPLAN_KEEPALIVE_TIMEOUT_SECONDS).");
ABSL_FLAG(bool, keepalive_permit_without_calls, true,
          "Keepalive pings also on connections without calls "
          "(env ACCELPLAN_KEEPALIVE_PERMIT_WITHOUT_CALLS).");
ABSL_FLAG(double, min_client_ping_interval_seconds, 10,
          "Client pings without data closer together than this are answered "
          "with GOAWAY (env ACCELPLAN_MIN_CLIENT_PING_INTERVAL_SECONDS).");
ABSL_FLAG(int32_t, max_concurrent_streams, 100,
          "Concurrent calls per connection "
          "(env ACCELPLAN_MAX_CONCURRENT_STREAMS).");
ABSL_FLAG(int32_t, max_receive_message_bytes, 1 << 20,
          "Larger requests get RESOURCE_EXHAUSTED "
          "(env ACCELPLAN_MAX_RECEIVE_MESSAGE_BYTES).");

ABSL_FLAG(int32_t, planning_threads, 0,
          "Plans computed at once; 0: one per core. Health checks and "
          "reflection never wait behind them (env ACCELPLAN_PLANNING_THREADS).");
ABSL_FLAG(int32_t, planning_queue, 64,
          "Calls that may wait for a planning thread; beyond that a call is "
          "answered RESOURCE_EXHAUSTED with a RetryInfo delay "
          "(env ACCELPLAN_PLANNING_QUEUE).");

ABSL_FLAG(std::string, tls_cert, "",
          "PEM certificate chain; with --tls_key serves TLS instead of "
          "plaintext (env ACCELPLAN_TLS_CERT).");
ABSL_FLAG(std::string, tls_key, "",
          "PEM private key for --tls_cert (env ACCELPLAN_TLS_KEY).");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA certificates; set: clients must present a certificate "
          "they signed (mTLS) (env ACCELPLAN_TLS_CLIENT_CA).");

namespace accelplan::server {
namespace {

constexpr const char* kFlagNames[] = {"listen",
                                      "metrics_listen",
                                      "catalog",
                                      "drain_delay_seconds",
                                      "shutdown_grace_seconds",
                                      "log_level",
                                      "max_connection_age_seconds",
                                      "max_connection_age_grace_seconds",
                                      "max_connection_idle_seconds",
                                      "keepalive_time_seconds",
                                      "keepalive_timeout_seconds",
                                      "keepalive_permit_without_calls",
                                      "min_client_ping_interval_seconds",
                                      "max_concurrent_streams",
                                      "max_receive_message_bytes",
                                      "planning_threads",
                                      "planning_queue",
                                      "tls_cert",
                                      "tls_key",
                                      "tls_client_ca"};

absl::Status ApplyEnvironment() {
  for (const char* name : kFlagNames) {
    const std::string env =
        absl::StrCat("ACCELPLAN_", absl::AsciiStrToUpper(name));
    const char* value = std::getenv(env.c_str());
    if (value == nullptr) continue;
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    std::string error;
    if (flag == nullptr || !flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad value \"", value, "\" in ", env, ": ", error));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<absl::Duration> Seconds(const char* name, double value) {
  if (!(value >= 0) || value > 24 * 3600) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, " must be between 0 and 86400, got ", value));
  }
  return absl::Seconds(value);
}

// --version: this binary's version and the catalog's (after the command
// line and the environment are applied, so --catalog counts).
std::string VersionString() {
  std::string path = absl::GetFlag(FLAGS_catalog);
  if (path.empty()) path = DefaultCatalogPath();
  std::string out = absl::StrCat("accelplan-server ", ACCELPLAN_VERSION, "\n");
  absl::StatusOr<catalog::CatalogPtr> loaded = catalog::LoadCatalog(path);
  if (loaded.ok()) {
    absl::StrAppend(&out, "catalog ", (*loaded)->version, " (data date ",
                    (*loaded)->data_date, ") from ", path, "\n");
  } else {
    absl::StrAppend(&out, "catalog: cannot load ", path, ": ",
                    loaded.status().message(), "\n");
  }
  return out;
}

}  // namespace

absl::StatusOr<ServerFlags> ParseServerFlags(int argc, char** argv) {
  // absl allows setting the usage message only once per process.
  static std::once_flag usage_once;
  std::call_once(usage_once, [] {
    absl::SetProgramUsageMessage(
        "gRPC service that plans ML training hardware.\n"
        "Every flag can also be set as ACCELPLAN_<FLAG_IN_UPPER_CASE>; the "
        "command line wins.\n\n"
        "    --help (print these flags and exit)\n"
        "    --version (print this binary's version and the catalog's, then "
        "exit)");
    // --help lists the flags defined in this file, under the binary's name
    // rather than the source path the build used.
    absl::FlagsUsageConfig config;
    config.normalize_filename = [](absl::string_view file) -> std::string {
      if (absl::StrContains(file, "server/flags")) return "accelplan-server";
      return std::string(file);
    };
    config.contains_help_flags = [](absl::string_view file) {
      return file == "accelplan-server";
    };
    config.version_string = VersionString;
    config.contains_helpshort_flags = config.contains_help_flags;
    absl::SetFlagsUsageConfig(config);
  });
  if (absl::Status env = ApplyEnvironment(); !env.ok()) return env;
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected arguments: ",
                     absl::StrJoin(rest.begin() + 1, rest.end(), " ")));
  }
  ServerFlags flags;
  ServerOptions& o = flags.options;
  o.listen = absl::GetFlag(FLAGS_listen);
  o.metrics_listen = absl::GetFlag(FLAGS_metrics_listen);
  o.catalog_path = absl::GetFlag(FLAGS_catalog);
  if (o.catalog_path.empty()) o.catalog_path = DefaultCatalogPath();
  absl::StatusOr<absl::Duration> drain =
      Seconds("drain_delay_seconds", absl::GetFlag(FLAGS_drain_delay_seconds));
  if (!drain.ok()) return drain.status();
  o.drain_delay = *drain;
  absl::StatusOr<absl::Duration> grace = Seconds(
      "shutdown_grace_seconds", absl::GetFlag(FLAGS_shutdown_grace_seconds));
  if (!grace.ok()) return grace.status();
  o.shutdown_grace = *grace;

  ConnectionOptions& c = o.connection;
  struct DurationFlag {
    const char* name;
    const absl::Flag<double>& flag;
    absl::Duration* out;
  };
  for (const DurationFlag& d : {
           DurationFlag{"max_connection_age_seconds",
                        FLAGS_max_connection_age_seconds,
                        &c.max_connection_age},
           DurationFlag{"max_connection_age_grace_seconds",
                        FLAGS_max_connection_age_grace_seconds,
                        &c.max_connection_age_grace},
           DurationFlag{"max_connection_idle_seconds",
                        FLAGS_max_connection_idle_seconds,
                        &c.max_connection_idle},
           DurationFlag{"keepalive_time_seconds", FLAGS_keepalive_time_seconds,
                        &c.keepalive_time},
           DurationFlag{"keepalive_timeout_seconds",
                        FLAGS_keepalive_timeout_seconds, &c.keepalive_timeout},
           DurationFlag{"min_client_ping_interval_seconds",
                        FLAGS_min_client_ping_interval_seconds,
                        &c.min_client_ping_interval},
       }) {
    absl::StatusOr<absl::Duration> value =
        Seconds(d.name, absl::GetFlag(d.flag));
    if (!value.ok()) return value.status();
    *d.out = *value;
  }
  c.keepalive_permit_without_calls =
      absl::GetFlag(FLAGS_keepalive_permit_without_calls);
  c.max_concurrent_streams = absl::GetFlag(FLAGS_max_concurrent_streams);
  if (c.max_concurrent_streams < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--max_concurrent_streams must be >= 1, got ",
                     c.max_concurrent_streams));
  }
  o.max_receive_message_bytes = absl::GetFlag(FLAGS_max_receive_message_bytes);
  if (o.max_receive_message_bytes < 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("--max_receive_message_bytes must be >= 1024, got ",
                     o.max_receive_message_bytes));
  }
  const int threads = absl::GetFlag(FLAGS_planning_threads);
  const int queue = absl::GetFlag(FLAGS_planning_queue);
  if (threads < 0 || threads > 1024 || queue < 0 || queue > 100000) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--planning_threads must be 0..1024 and --planning_queue 0..100000, "
        "got ", threads, " and ", queue));
  }
  o.planning.threads =
      threads > 0 ? threads
                  : std::max(1, static_cast<int>(
                                    std::thread::hardware_concurrency()));
  o.planning.queue_capacity = queue;
  o.tls.cert_path = absl::GetFlag(FLAGS_tls_cert);
  o.tls.key_path = absl::GetFlag(FLAGS_tls_key);
  o.tls.client_ca_path = absl::GetFlag(FLAGS_tls_client_ca);

  absl::StatusOr<LogLevel> level =
      ParseLogLevel(absl::GetFlag(FLAGS_log_level));
  if (!level.ok()) return level.status();
  flags.log_level = *level;
  return flags;
}

}  // namespace accelplan::server
