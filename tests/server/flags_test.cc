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
  ::setenv("ACCELPLAN_MAX_CONNECTION_AGE_SECONDS", "120", 1);
  ::setenv("ACCELPLAN_KEEPALIVE_TIME_SECONDS", "45", 1);
  ::setenv("ACCELPLAN_KEEPALIVE_PERMIT_WITHOUT_CALLS", "false", 1);
  ::setenv("ACCELPLAN_MAX_CONCURRENT_STREAMS", "7", 1);
  ::setenv("ACCELPLAN_TLS_CLIENT_CA", "/tmp/ca.pem", 1);
  std::vector<std::string> args = {
      "accelplan-server", "--listen=127.0.0.1:7001",
      "--shutdown_grace_seconds=4", "--max_connection_age_seconds=60",
      "--max_concurrent_streams=9"};
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

  const ConnectionOptions& c = o.connection;
  EXPECT_EQ(c.max_connection_age, absl::Seconds(60));  // flag beats env
  EXPECT_EQ(c.max_concurrent_streams, 9);              // flag beats env
  EXPECT_EQ(c.keepalive_time, absl::Seconds(45));      // env only
  EXPECT_FALSE(c.keepalive_permit_without_calls);      // env only
  EXPECT_EQ(o.tls.client_ca_path, "/tmp/ca.pem");      // env only
  // Neither: the defaults meant for running behind an L4 load balancer.
  EXPECT_EQ(c.max_connection_age_grace, absl::Seconds(30));
  EXPECT_EQ(c.max_connection_idle, absl::Minutes(10));
  EXPECT_EQ(c.keepalive_timeout, absl::Seconds(20));
  EXPECT_EQ(c.min_client_ping_interval, absl::Seconds(10));
  EXPECT_EQ(o.max_receive_message_bytes, 1 << 20);
  EXPECT_TRUE(o.tls.cert_path.empty());
  for (const char* env :
       {"ACCELPLAN_LISTEN", "ACCELPLAN_CATALOG",
        "ACCELPLAN_DRAIN_DELAY_SECONDS", "ACCELPLAN_SHUTDOWN_GRACE_SECONDS",
        "ACCELPLAN_LOG_LEVEL", "ACCELPLAN_MAX_CONNECTION_AGE_SECONDS",
        "ACCELPLAN_KEEPALIVE_TIME_SECONDS",
        "ACCELPLAN_KEEPALIVE_PERMIT_WITHOUT_CALLS",
        "ACCELPLAN_MAX_CONCURRENT_STREAMS", "ACCELPLAN_TLS_CLIENT_CA"}) {
    ::unsetenv(env);
  }
}

TEST(ServerFlagsTest, DefaultCatalogIsBesideTheExecutableOrUnderShare) {
  const std::string path = DefaultCatalogPath();
  EXPECT_THAT(path, EndsWith("catalog.db"));
  EXPECT_EQ(path.front(), '/');
}

}  // namespace
}  // namespace accelplan::server
