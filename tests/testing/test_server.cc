#include "tests/testing/test_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "grpcpp/generic/generic_stub.h"

namespace accelplan::testing {
namespace {

constexpr char kHealthCheckMethod[] = "/grpc.health.v1.Health/Check";

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return (value != nullptr && *value != '\0') ? std::string(value) : fallback;
}

std::string ErrnoMessage(const std::string& what) {
  return absl::StrCat(what, ": ", std::strerror(errno));
}

// Channel arguments that retry connecting quickly: the server may not
// listen yet when the first health check goes out, and gRPC's default
// reconnect backoff (1 s, growing) would slow every test start.
grpc::ChannelArguments FastReconnectArgs() {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 50);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 50);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 500);
  return args;
}

// grpc.health.v1.HealthCheckRequest{service} in wire format: field 1,
// length-delimited. Hand-encoded so this helper needs no generated health
// proto that could clash with one linked into a test binary.
std::string EncodeHealthCheckRequest(const std::string& service) {
  std::string out;
  if (service.empty()) return out;
  out.push_back(static_cast<char>(0x0A));
  size_t n = service.size();
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7F) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
  out += service;
  return out;
}

// Reads field 1 (status, varint) of grpc.health.v1.HealthCheckResponse;
// an empty message means UNKNOWN (0).
absl::StatusOr<int> DecodeHealthCheckResponse(const std::string& bytes) {
  size_t i = 0;
  int status = 0;
  while (i < bytes.size()) {
    const unsigned char tag = static_cast<unsigned char>(bytes[i++]);
    if ((tag & 0x07) != 0) {
      return absl::DataLossError("unexpected wire type in HealthCheckResponse");
    }
    uint64_t value = 0;
    int shift = 0;
    while (true) {
      if (i >= bytes.size() || shift > 63) {
        return absl::DataLossError("truncated varint in HealthCheckResponse");
      }
      const unsigned char b = static_cast<unsigned char>(bytes[i++]);
      value |= static_cast<uint64_t>(b & 0x7F) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    if ((tag >> 3) == 1) status = static_cast<int>(value);
  }
  return status;
}

std::string ReadFileTail(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string all = buffer.str();
  if (all.size() > max_bytes) all = all.substr(all.size() - max_bytes);
  return all;
}

}  // namespace

TestServerOptions DefaultTestServerOptions() {
  TestServerOptions options;
#ifdef ACCELPLAN_TEST_SERVER_BINARY
  options.server_binary = ACCELPLAN_TEST_SERVER_BINARY;
#endif
#ifdef ACCELPLAN_TEST_CATALOG
  options.catalog_path = ACCELPLAN_TEST_CATALOG;
#endif
  options.server_binary =
      EnvOr("ACCELPLAN_SERVER_BINARY", options.server_binary);
  options.catalog_path = EnvOr("ACCELPLAN_TEST_CATALOG", options.catalog_path);
  return options;
}

absl::StatusOr<int> PickUnusedLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::InternalError(ErrnoMessage("socket"));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    const std::string message = ErrnoMessage("bind 127.0.0.1:0");
    ::close(fd);
    return absl::InternalError(message);
  }
  socklen_t len = sizeof(addr);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const std::string message = ErrnoMessage("getsockname");
    ::close(fd);
    return absl::InternalError(message);
  }
  ::close(fd);
  return static_cast<int>(ntohs(addr.sin_port));
}

absl::StatusOr<int> HealthCheck(grpc::Channel& channel,
                                const std::string& service,
                                absl::Duration timeout) {
  // GenericStub wants shared ownership; the caller keeps the channel alive
  // for the duration of this call, so a non-owning alias is enough.
  std::shared_ptr<grpc::Channel> alias(std::shared_ptr<grpc::Channel>(),
                                       &channel);
  grpc::GenericStub stub(alias);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  const std::string encoded = EncodeHealthCheckRequest(service);
  grpc::Slice slice(encoded);
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&context, kHealthCheckMethod, grpc::StubOptions(), &request,
                 &response,
                 [&done](grpc::Status status) { done.set_value(status); });
  const grpc::Status status = done.get_future().get();
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                        absl::StrCat("health check of '", service,
                                     "': ", status.error_message()));
  }
  std::vector<grpc::Slice> slices;
  if (!response.Dump(&slices).ok()) {
    return absl::DataLossError("unreadable HealthCheckResponse");
  }
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return DecodeHealthCheckResponse(bytes);
}

absl::Status WaitForServing(grpc::Channel& channel, const std::string& service,
                            absl::Time deadline) {
  absl::Status last = absl::DeadlineExceededError("no health check sent");
  while (absl::Now() < deadline) {
    absl::StatusOr<int> status =
        HealthCheck(channel, service, absl::Seconds(1));
    if (status.ok() && *status == 1) return absl::OkStatus();
    last = status.ok() ? absl::UnavailableError(absl::StrCat(
                             "'", service, "' reports status ", *status))
                       : status.status();
    absl::SleepFor(absl::Milliseconds(50));
  }
  return absl::DeadlineExceededError(absl::StrCat(
      "'", service, "' not SERVING in time; last: ", last.ToString()));
}

absl::StatusOr<std::unique_ptr<TestServer>> TestServer::Start(
    const TestServerOptions& options) {
  if (options.server_binary.empty()) {
    return absl::FailedPreconditionError(
        "no server binary: set ACCELPLAN_SERVER_BINARY");
  }
  if (::access(options.server_binary.c_str(), X_OK) != 0) {
    return absl::FailedPreconditionError(
        ErrnoMessage(absl::StrCat("server binary ", options.server_binary)));
  }
  if (!options.catalog_path.empty() &&
      ::access(options.catalog_path.c_str(), R_OK) != 0) {
    return absl::FailedPreconditionError(
        ErrnoMessage(absl::StrCat("catalog ", options.catalog_path)));
  }

  absl::Status last_error;
  constexpr int kAttempts = 3;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::unique_ptr<TestServer> server(new TestServer());
    server->options_ = options;
    absl::StatusOr<int> port = PickUnusedLoopbackPort();
    if (!port.ok()) return port.status();
    absl::StatusOr<int> metrics_port = PickUnusedLoopbackPort();
    if (!metrics_port.ok()) return metrics_port.status();
    if (*metrics_port == *port) continue;
    server->port_ = *port;
    server->metrics_port_ = *metrics_port;
    server->target_ = absl::StrCat("127.0.0.1:", *port);

    const char* tmp = std::getenv("TMPDIR");
    std::string dir_template =
        absl::StrCat((tmp != nullptr && *tmp != '\0') ? tmp : "/tmp",
                     "/accelplan-test-server-XXXXXX");
    if (::mkdtemp(dir_template.data()) == nullptr) {
      return absl::InternalError(ErrnoMessage("mkdtemp"));
    }
    server->log_dir_ = dir_template;
    server->log_path_ = absl::StrCat(dir_template, "/server.log");

    std::vector<std::string> args = {
        options.server_binary,
        absl::StrCat("--listen=", server->target_),
        absl::StrCat("--metrics_listen=127.0.0.1:", *metrics_port),
        absl::StrCat("--drain_delay_seconds=", options.drain_delay_seconds),
    };
    if (!options.catalog_path.empty()) {
      args.push_back(absl::StrCat("--catalog=", options.catalog_path));
    }
    args.insert(args.end(), options.extra_args.begin(),
                options.extra_args.end());
    // argv is built before fork: the child only calls async-signal-safe
    // functions.
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);

    const int log_fd = ::open(server->log_path_.c_str(),
                              O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log_fd < 0) return absl::InternalError(ErrnoMessage("open log"));
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
      ::close(log_fd);
      return absl::InternalError(ErrnoMessage("fork"));
    }
    if (pid == 0) {
      // Never outlive the test binary, even when it crashes.
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent) ::_exit(127);
      ::dup2(log_fd, STDOUT_FILENO);
      ::dup2(log_fd, STDERR_FILENO);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(log_fd);
    server->pid_ = pid;

    const absl::Time deadline = absl::Now() + options.startup_timeout;
    std::shared_ptr<grpc::Channel> channel = server->NewChannel();
    absl::Status ready = absl::DeadlineExceededError("not started");
    while (absl::Now() < deadline) {
      if (!server->Running()) {
        ready = absl::UnavailableError(absl::StrCat(
            "accelplan-server exited with code ", server->exit_code_,
            " before becoming ready; log tail:\n", server->LogTail()));
        break;
      }
      absl::StatusOr<int> status =
          HealthCheck(*channel, kReadinessService, absl::Milliseconds(500));
      if (status.ok() && *status == 1) {
        ready = absl::OkStatus();
        break;
      }
      ready = status.ok() ? absl::UnavailableError(
                                absl::StrCat("readiness status ", *status))
                          : status.status();
      absl::SleepFor(absl::Milliseconds(50));
    }
    if (ready.ok()) return server;
    last_error = absl::Status(
        ready.code(),
        absl::StrCat(
            "starting ", absl::StrJoin(args, " "), ": ", ready.message(),
            server->Running() ? absl::StrCat("\nlog tail:\n", server->LogTail())
                              : ""));
    // Only an early exit (e.g. the port was taken meanwhile) is worth a
    // retry; a server that runs but never gets ready will not improve.
    if (server->Running()) break;
  }
  return last_error;
}

TestServer::~TestServer() {
  (void)Stop();
  if (!log_path_.empty()) ::unlink(log_path_.c_str());
  if (!log_dir_.empty()) ::rmdir(log_dir_.c_str());
}

std::string TestServer::LogTail(size_t max_bytes) const {
  return ReadFileTail(log_path_, max_bytes);
}

std::shared_ptr<grpc::Channel> TestServer::NewChannel() const {
  return grpc::CreateCustomChannel(target_, grpc::InsecureChannelCredentials(),
                                   FastReconnectArgs());
}

bool TestServer::Running() {
  if (pid_ <= 0 || exited_) return false;
  int wstatus = 0;
  const pid_t r = ::waitpid(pid_, &wstatus, WNOHANG);
  if (r == 0) return true;
  exited_ = true;
  if (r == pid_) {
    exit_code_ =
        WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  }
  return false;
}

absl::StatusOr<int> TestServer::Stop() {
  if (pid_ <= 0) return absl::FailedPreconditionError("server never started");
  if (!Running()) return exit_code_;
  ::kill(pid_, SIGTERM);
  const absl::Time deadline = absl::Now() + options_.shutdown_timeout;
  while (absl::Now() < deadline) {
    if (!Running()) return exit_code_;
    absl::SleepFor(absl::Milliseconds(20));
  }
  ::kill(pid_, SIGKILL);
  int wstatus = 0;
  ::waitpid(pid_, &wstatus, 0);
  exited_ = true;
  exit_code_ = 128 + SIGKILL;
  return absl::DeadlineExceededError(absl::StrCat(
      "accelplan-server ignored SIGTERM for ",
      absl::FormatDuration(options_.shutdown_timeout), "; killed"));
}

}  // namespace accelplan::testing
