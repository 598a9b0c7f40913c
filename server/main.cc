// accelplan-server: parses flags and runs server/server.h.
#include <cstdio>
#include <cstdlib>

#include "server/flags.h"
#include "server/log.h"
#include "server/server.h"

int main(int argc, char** argv) {
  using accelplan::server::Log;
  using accelplan::server::LogLevel;
  // Before any thread exists, so every thread inherits the blocked mask and
  // only the signal thread sees SIGTERM/SIGINT/SIGHUP.
  const sigset_t signals = accelplan::server::BlockServerSignals();
  accelplan::server::InstallGrpcLogBridge();

  absl::StatusOr<accelplan::server::ServerFlags> flags =
      accelplan::server::ParseServerFlags(argc, argv);
  if (!flags.ok()) {
    Log(LogLevel::kError, "bad flags", {{"error", flags.status().ToString()}});
    return 2;
  }
  accelplan::server::SetLogLevel(flags->log_level);

  absl::StatusOr<std::unique_ptr<accelplan::server::Server>> server =
      accelplan::server::Server::Start(flags->options);
  if (!server.ok()) {
    Log(LogLevel::kError, "cannot start",
        {{"error", server.status().ToString()},
         {"catalog", flags->options.catalog_path}});
    return 1;
  }
  (*server)->RunUntilSignalled(signals);
  // The gRPC server has drained; nothing is left worth tearing down. Skipping
  // destructors matters for the metrics endpoint: civetweb's stop waits out
  // its listener's poll quantum (up to 2 s) past drain + grace.
  Log(LogLevel::kInfo, "exiting", {{"exit_code", 0}});
  std::fflush(nullptr);
  std::_Exit(0);
}
