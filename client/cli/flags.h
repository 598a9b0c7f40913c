// A small command-line parser for the `accelplan` subcommands. Each
// subcommand declares its own flags so that `accelplan SUB --help` lists
// exactly the flags SUB accepts, each with its default.
#ifndef ACCELPLAN_CLIENT_CLI_FLAGS_H_
#define ACCELPLAN_CLIENT_CLI_FLAGS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace accelplan::cli {

struct FlagSpec {
  std::string name;           // without the leading "--"
  std::string value_name;     // "PATH", "N"; empty for boolean flags
  std::string default_value;  // shown in --help; "" prints "(none)"
  std::string help;
  bool repeated = false;  // may be given several times (values accumulate)
  // Values the flag takes: 1, or 2 for "--emit KIND FILE" (the second value
  // is always the next argument; "--emit=KIND FILE" also works).
  int arity = 1;
};

struct ParsedFlags {
  // Last value of each flag given; booleans hold "true" or "false".
  std::map<std::string, std::string> values;
  // Every value of repeated flags, in order.
  std::map<std::string, std::vector<std::string>> all_values;
  // The second value of two-value flags (arity 2).
  std::map<std::string, std::string> second;
  std::vector<std::string> positional;
  bool help = false;

  bool Has(const std::string& name) const { return values.count(name) > 0; }
  std::string Get(const std::string& name) const;
};

// Accepts "--name=value", "--name value" and, for boolean flags, "--name",
// "--name=true|false" and "--noname". "-h"/"--help" sets `help`.
absl::StatusOr<ParsedFlags> ParseFlags(const std::vector<FlagSpec>& specs,
                                       const std::vector<std::string>& args);

// "Usage: ...", the summary, then one entry per flag with its default, then
// `details` as it is (preformatted: grammars, examples).
std::string FormatHelp(const std::string& usage, const std::string& summary,
                       const std::vector<FlagSpec>& specs,
                       const std::string& details = "");

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_FLAGS_H_
