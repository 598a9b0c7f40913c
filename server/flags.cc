#include "server/flags.h"

#include <cstdlib>
#include <mutex>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

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

namespace accelplan::server {
namespace {

constexpr const char* kFlagNames[] = {"listen",
                                      "metrics_listen",
                                      "catalog",
                                      "drain_delay_seconds",
                                      "shutdown_grace_seconds",
                                      "log_level"};

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

}  // namespace

absl::StatusOr<ServerFlags> ParseServerFlags(int argc, char** argv) {
  // absl allows setting the usage message only once per process.
  static std::once_flag usage_once;
  std::call_once(usage_once, [] {
    absl::SetProgramUsageMessage(
        "gRPC service that plans ML training hardware.\n"
        "Every flag can also be set as ACCELPLAN_<FLAG_IN_UPPER_CASE>; the "
        "command line wins.");
    // --help lists the flags defined in this file.
    absl::FlagsUsageConfig config;
    config.contains_help_flags = [](absl::string_view file) {
      return absl::StrContains(file, "server/flags");
    };
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
  absl::StatusOr<LogLevel> level =
      ParseLogLevel(absl::GetFlag(FLAGS_log_level));
  if (!level.ok()) return level.status();
  flags.log_level = *level;
  return flags;
}

}  // namespace accelplan::server
