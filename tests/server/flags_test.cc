// accelplan-server flags: ACCELPLAN_* environment values apply, the command
// line wins over them, and bad values are errors naming the variable.
#include "server/flags.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace accelplan::server {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;

// absl::ParseCommandLine wants mutable argv.
std::vector<char*> Argv(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return argv;
}

TEST(ServerFlagsTest, BadEnvironmentValueNamesTheVariable) {
  ::setenv("ACCELPLAN_SHUTDOWN_GRACE_SECONDS", "soon", 1);
  std::vector<std::string> args = {"accelplan-server"};
  std::vector<char*> argv = Argv(args);
  absl::StatusOr<ServerFlags> flags =
      ParseServerFlags(static_cast<int>(argv.size()), argv.data());
  ::unsetenv("ACCELPLAN_SHUTDOWN_GRACE_SECONDS");
  ASSERT_FALSE(flags.ok());
  EXPECT_THAT(flags.status().message(),
              HasSubstr("ACCELPLAN_SHUTDOWN_GRACE_SECONDS"));
}

// One parse per process: absl flags are global.
TEST(ServerFlagsTest, CommandLineWinsOverEnvironment) {
  ::setenv("ACCELPLAN_LISTEN", "127.0.0.1:7000", 1);
  ::setenv("ACCELPLAN_CATALOG", "/tmp/from-env.db", 1);
  ::setenv("ACCELPLAN_DRAIN_DELAY_SECONDS", "2.5", 1);
  ::setenv("ACCELPLAN_SHUTDOWN_GRACE_SECONDS", "3", 1);
  ::setenv("ACCELPLAN_LOG_LEVEL", "debug", 1);
  std::vector<std::string> args = {"accelplan-server",
                                   "--listen=127.0.0.1:7001",
                                   "--shutdown_grace_seconds=4"};
  std::vector<char*> argv = Argv(args);
  absl::StatusOr<ServerFlags> flags =
      ParseServerFlags(static_cast<int>(argv.size()), argv.data());
  ASSERT_TRUE(flags.ok()) << flags.status();
  const ServerOptions& o = flags->options;
  EXPECT_EQ(o.listen, "127.0.0.1:7001");               // flag beats env
  EXPECT_EQ(o.shutdown_grace, absl::Seconds(4));       // flag beats env
  EXPECT_EQ(o.catalog_path, "/tmp/from-env.db");       // env only
  EXPECT_EQ(o.drain_delay, absl::Milliseconds(2500));  // env only
  EXPECT_EQ(flags->log_level, LogLevel::kDebug);       // env only
  EXPECT_EQ(o.metrics_listen, "0.0.0.0:9464");         // neither: default
}

TEST(ServerFlagsTest, DefaultCatalogIsBesideTheExecutableOrUnderShare) {
  const std::string path = DefaultCatalogPath();
  EXPECT_THAT(path, EndsWith("catalog.db"));
  EXPECT_EQ(path.front(), '/');
}

}  // namespace
}  // namespace accelplan::server
