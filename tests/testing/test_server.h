// Starts the real accelplan-server binary on free loopback ports for tests,
// waits until its readiness health check is SERVING, and stops it with
// SIGTERM. Shared by the integration and acceptance suites.
#ifndef ACCELPLAN_TESTS_TESTING_TEST_SERVER_H_
#define ACCELPLAN_TESTS_TESTING_TEST_SERVER_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"

namespace accelplan::testing {

// The readiness service name the server flips to SERVING once the catalog
// is loaded (SPEC §5).
inline constexpr char kReadinessService[] = "accelplan.v1.TrainingPlanner";

struct TestServerOptions {
  // Path of the accelplan-server executable.
  std::string server_binary;
  // Path of the catalog database passed as --catalog.
  std::string catalog_path;
  // Appended after the standard flags (e.g. "--log_level=debug").
  std::vector<std::string> extra_args;
  // How long the server may take to report SERVING.
  absl::Duration startup_timeout = absl::Seconds(60);
  // How long SIGTERM may take before the process is killed.
  absl::Duration shutdown_timeout = absl::Seconds(30);
  // Drain delay passed to the server; 0 keeps tests fast.
  int drain_delay_seconds = 0;
};

// Defaults from the build (compile definitions set by tests/testing's
// CMakeLists), overridable with the environment variables
// ACCELPLAN_SERVER_BINARY and ACCELPLAN_TEST_CATALOG.
TestServerOptions DefaultTestServerOptions();

// Returns a TCP port on 127.0.0.1 that was free a moment ago.
absl::StatusOr<int> PickUnusedLoopbackPort();

// Calls grpc.health.v1.Health/Check for `service`; returns the raw serving
// status (1 = SERVING, 2 = NOT_SERVING) or the RPC error.
absl::StatusOr<int> HealthCheck(grpc::Channel& channel,
                                const std::string& service,
                                absl::Duration timeout);

// Polls HealthCheck until `service` is SERVING or `deadline` passes.
absl::Status WaitForServing(grpc::Channel& channel, const std::string& service,
                            absl::Time deadline);

// One accelplan-server child process. Stops it (SIGTERM) on destruction.
class TestServer {
 public:
  // Launches the server and waits for readiness. Retries with new ports
  // when the child exits early (e.g. a port taken in between).
  static absl::StatusOr<std::unique_ptr<TestServer>> Start(
      const TestServerOptions& options);

  ~TestServer();
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  // "127.0.0.1:PORT" of the gRPC listener.
  const std::string& target() const { return target_; }
  int port() const { return port_; }
  int metrics_port() const { return metrics_port_; }
  pid_t pid() const { return pid_; }
  // Where the child's stdout and stderr go.
  const std::string& log_path() const { return log_path_; }
  // The last `max_bytes` of the server log, for failure messages.
  std::string LogTail(size_t max_bytes = 4096) const;

  // A fresh insecure channel to the server.
  std::shared_ptr<grpc::Channel> NewChannel() const;

  // Sends SIGTERM and waits; kills after the shutdown timeout. Returns the
  // exit code (0 is a clean drain). Idempotent.
  absl::StatusOr<int> Stop();

  // True while the child has not exited.
  bool Running();

 private:
  TestServer() = default;

  TestServerOptions options_;
  std::string target_;
  int port_ = 0;
  int metrics_port_ = 0;
  pid_t pid_ = -1;
  std::string log_dir_;
  std::string log_path_;
  bool exited_ = false;
  int exit_code_ = -1;
};

}  // namespace accelplan::testing

#endif  // ACCELPLAN_TESTS_TESTING_TEST_SERVER_H_
