// accelplan-server: parses flags and runs server/server.h.
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "server/flags.h"
#include "server/log.h"
#include "server/server.h"

int main(int argc, char** argv) {
  using accelplan::server::Log;
  using accelplan::server::LogLevel;
  // glibc gives each new thread its own malloc arena, up to 8 per core;
  // gRPC's thread pool grows under load, so each new arena kept its peak
  // and RSS crept after warm-up (the soak's +3-5%). Two per core bound it.
  mallopt(M_ARENA_MAX,
          2 * static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
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
