// The `accelplan` command line: subcommands plan, review and catalog, run
// against a server (--server) or in-process (--catalog). Kept apart from
// main() so tests can drive it with their own streams.
#ifndef ACCELPLAN_CLIENT_CLI_COMMANDS_H_
#define ACCELPLAN_CLIENT_CLI_COMMANDS_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace accelplan::cli {

// Exit codes (the CLI contract).
inline constexpr int kExitOk = 0;           // review: whatever the verdicts
inline constexpr int kExitNoPlan = 1;       // plan: no viable plan
inline constexpr int kExitBadInput = 2;     // flags, JSON, INVALID_ARGUMENT
inline constexpr int kExitUnavailable = 3;  // server unreachable or failing

// Maps a failed call to an exit code: bad input → 2, anything the server
// (or the transport) did → 3.
int ExitCodeFor(const absl::Status& status);

// `args` excludes the program name: {"plan", "--framework=jax", ...}.
int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err);

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_COMMANDS_H_
