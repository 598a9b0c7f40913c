// accelplan-server's command-line flags. Each flag can also come from the
// environment as ACCELPLAN_<FLAG_IN_UPPER_CASE>; the command line wins.
#ifndef ACCELPLAN_SERVER_FLAGS_H_
#define ACCELPLAN_SERVER_FLAGS_H_

#include "absl/status/statusor.h"
#include "server/log.h"
#include "server/server.h"

namespace accelplan::server {

struct ServerFlags {
  ServerOptions options;
  LogLevel log_level = LogLevel::kInfo;
};

// Applies ACCELPLAN_* environment values to the flags, then parses argv
// (which overrides them) with absl::ParseCommandLine (which handles --help).
// Call once per process.
absl::StatusOr<ServerFlags> ParseServerFlags(int argc, char** argv);

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_FLAGS_H_
