// End to end: the real accelplan-server binary on loopback ports with the
// built catalog, driven through real channels (TrainingPlanner, health,
// reflection), its metrics endpoint scraped over HTTP, and its signals.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "accelplan/v1/accelplan.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"

namespace accelplan {
namespace {

using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kReadiness[] = "accelplan.v1.TrainingPlanner";

// A loopback port nobody listens on right now.
int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// True when something accepts TCP connections on 127.0.0.1:port.
bool Accepts(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok =
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

// GET http://127.0.0.1:port/metrics; empty on failure.
std::string HttpGetMetrics(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return "";
  }
  const std::string request =
      "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (::write(fd, request.data(), request.size()) < 0) {
    ::close(fd);
    return "";
  }
  std::string response;
  char buffer[8192];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof(buffer))) > 0)
    response.append(buffer, n);
  ::close(fd);
  return response;
}

// The value of the first sample of `metric` whose labels contain every
// `label="value"` in `labels`; -1 when absent.
double Sample(const std::string& scrape, const std::string& metric,
              const std::vector<std::string>& labels) {
  for (absl::string_view line : absl::StrSplit(scrape, '\n')) {
    if (!absl::StartsWith(line, absl::StrCat(metric, "{"))) continue;
    bool all = true;
    for (const std::string& l : labels) all = all && absl::StrContains(line, l);
    if (!all) continue;
    const size_t space = line.rfind(' ');
    double value = -1;
    if (absl::SimpleAtod(line.substr(space + 1), &value)) return value;
  }
  return -1;
}

// A running accelplan-server child process.
class ServerProcess {
 public:
  explicit ServerProcess(std::vector<std::string> extra_args,
                         std::string catalog = ACCELPLAN_TEST_CATALOG_DB)
      : port_(FreePort()), metrics_port_(FreePort()) {
    log_path_ =
        absl::StrCat(::testing::TempDir(), "/accelplan-server-", port_, ".log");
    std::vector<std::string> args = {
        ACCELPLAN_SERVER_BINARY,
        absl::StrCat("--listen=127.0.0.1:", port_),
        absl::StrCat("--metrics_listen=127.0.0.1:", metrics_port_),
        absl::StrCat("--catalog=", catalog),
        "--drain_delay_seconds=0",
        "--shutdown_grace_seconds=5",
        "--log_level=debug"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      const int log =
          ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(log, STDERR_FILENO);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    // Lazy: it connects on the first call, which WaitUntilReady() makes
    // only once the port accepts connections (so no reconnect backoff).
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", port_),
                                   grpc::InsecureChannelCredentials());
  }

  ~ServerProcess() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  // Health status of `service`, or UNKNOWN when the call fails.
  HealthCheckResponse::ServingStatus Health(const std::string& service) {
    auto stub = grpc::health::v1::Health::NewStub(channel_);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(2));
    HealthCheckRequest request;
    request.set_service(service);
    HealthCheckResponse response;
    if (!stub->Check(&context, request, &response).ok()) {
      return HealthCheckResponse::UNKNOWN;
    }
    return response.status();
  }

  bool WaitUntilReady(std::chrono::seconds timeout = std::chrono::seconds(60)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!Accepts(port_)) {
      if (Exited() || std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    while (std::chrono::steady_clock::now() < deadline) {
      if (Exited()) return false;
      if (Health(kReadiness) == HealthCheckResponse::SERVING) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  // True once the child has exited (its code then in exit_code()).
  bool Exited() {
    if (exited_) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exited_ = true;
      exit_code_ =
          WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    return exited_;
  }

  // Waits for the child to exit; its exit code, or -1 on timeout.
  int WaitExit(std::chrono::seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!Exited() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return exited_ ? exit_code_ : -1;
  }

  void Signal(int signal) { ::kill(pid_, signal); }

  std::string Log() const {
    std::ifstream in(log_path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::unique_ptr<v1::TrainingPlanner::Stub> Stub() {
    return v1::TrainingPlanner::NewStub(channel_);
  }
  const std::shared_ptr<grpc::Channel>& channel() const { return channel_; }
  int metrics_port() const { return metrics_port_; }

 private:
  int port_;
  int metrics_port_;
  std::string log_path_;
  pid_t pid_ = -1;
  bool exited_ = false;
  int exit_code_ = -1;
  std::shared_ptr<grpc::Channel> channel_;
};

void SetDeadline(grpc::ClientContext* context) {
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(10));
}

v1::PlanTrainingRequest SimpleJaxRequest() {
  v1::PlanTrainingRequest request;
  v1::Workload* w = request.mutable_workload();
  w->set_framework(v1::JAX);
  w->set_model_kind(v1::DENSE_TRANSFORMER);
  w->set_parameter_count(1e9);
  w->set_dataset_tokens(2e10);
  w->set_precision(v1::BF16_MIXED);
  return request;
}

// One server for the whole suite: starting it loads the catalog once.
class ServerIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new ServerProcess({});
    ready_ = server_->WaitUntilReady();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(ready_) << "server did not become ready; its log:\n"
                        << server_->Log();
  }

  static ServerProcess* server_;
  static bool ready_;
};

ServerProcess* ServerIntegrationTest::server_ = nullptr;
bool ServerIntegrationTest::ready_ = false;

TEST_F(ServerIntegrationTest, HealthReportsLivenessAndReadiness) {
  EXPECT_EQ(server_->Health(""), HealthCheckResponse::SERVING);
  EXPECT_EQ(server_->Health(kReadiness), HealthCheckResponse::SERVING);
}

TEST_F(ServerIntegrationTest, ReflectionListsAndDescribesTheService) {
  auto stub =
      grpc::reflection::v1alpha::ServerReflection::NewStub(server_->channel());
  grpc::ClientContext context;
  SetDeadline(&context);
  auto stream = stub->ServerReflectionInfo(&context);

  grpc::reflection::v1alpha::ServerReflectionRequest list;
  list.set_list_services("*");
  ASSERT_TRUE(stream->Write(list));
  grpc::reflection::v1alpha::ServerReflectionResponse listed;
  ASSERT_TRUE(stream->Read(&listed));
  std::vector<std::string> names;
  for (const auto& s : listed.list_services_response().service()) {
    names.push_back(s.name());
  }
  EXPECT_THAT(names, ::testing::Contains(kReadiness));
  EXPECT_THAT(names, ::testing::Contains("grpc.health.v1.Health"));

  // What grpcurl does next: fetch the file that defines the service.
  grpc::reflection::v1alpha::ServerReflectionRequest describe;
  describe.set_file_containing_symbol(kReadiness);
  ASSERT_TRUE(stream->Write(describe));
  grpc::reflection::v1alpha::ServerReflectionResponse described;
  ASSERT_TRUE(stream->Read(&described));
  ASSERT_GT(described.file_descriptor_response().file_descriptor_proto_size(),
            0);
  google::protobuf::FileDescriptorProto file;
  ASSERT_TRUE(file.ParseFromString(
      described.file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(file.package(), "accelplan.v1");
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(ServerIntegrationTest, ListAcceleratorsReturnsTheCatalog) {
  auto stub = server_->Stub();
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::ListAcceleratorsResponse response;
  const grpc::Status status = stub->ListAccelerators(
      &context, v1::ListAcceleratorsRequest(), &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_GT(response.accelerators_size(), 0);
  EXPECT_THAT(response.catalog_version(), Not(IsEmpty()));
}

TEST_F(ServerIntegrationTest, PlanTrainingReturnsTheCatalogVersion) {
  auto stub = server_->Stub();
  v1::ListAcceleratorsResponse catalog;
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    ASSERT_TRUE(stub->ListAccelerators(&context, {}, &catalog).ok());
  }
  for (v1::View view : {v1::FULL, v1::BASIC}) {
    v1::PlanTrainingRequest request = SimpleJaxRequest();
    request.set_view(view);
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::PlanTrainingResponse response;
    const grpc::Status status =
        stub->PlanTraining(&context, request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(response.catalog_version(), catalog.catalog_version());
    if (view == v1::BASIC) {
      EXPECT_THAT(response.alternatives(), IsEmpty());
      EXPECT_THAT(response.rejected(), IsEmpty());
      EXPECT_THAT(response.facts_used(), IsEmpty());
    }
  }
}

TEST_F(ServerIntegrationTest, ReviewPlanReturnsOneVerdictPerProposal) {
  v1::ReviewPlanRequest request;
  *request.mutable_workload() = SimpleJaxRequest().workload();
  v1::Proposal* tpu = request.add_proposals();
  tpu->set_label("A");
  tpu->mutable_hardware()->set_platform(v1::TPU);
  tpu->mutable_hardware()->set_accelerator("tpu-v5p");
  v1::Proposal* gpu = request.add_proposals();
  gpu->set_label("B");
  gpu->mutable_hardware()->set_platform(v1::GPU);
  v1::Proposal* remedy = request.add_proposals();
  remedy->set_label("C");
  remedy->mutable_remedy()->set_kind(v1::USE_SPOT);

  auto stub = server_->Stub();
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::ReviewPlanResponse response;
  const grpc::Status status = stub->ReviewPlan(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.verdicts_size(), 3);
  EXPECT_THAT(response.catalog_version(), Not(IsEmpty()));
}

TEST_F(ServerIntegrationTest, BadRequestNamesEveryFieldWithBadRequestDetails) {
  v1::PlanTrainingRequest request = SimpleJaxRequest();
  request.mutable_workload()->set_parameter_count(-5);
  request.mutable_workload()->set_framework(static_cast<v1::Framework>(999));

  auto stub = server_->Stub();
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::PlanTrainingResponse response;
  const grpc::Status status = stub->PlanTraining(&context, request, &response);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("workload.parameter_count"));
  EXPECT_THAT(status.error_message(), HasSubstr("workload.framework"));

  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.code(), grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_EQ(details.details_size(), 1);
  google::rpc::BadRequest bad_request;
  ASSERT_TRUE(details.details(0).UnpackTo(&bad_request));
  ASSERT_EQ(bad_request.field_violations_size(), 2);
  std::vector<std::string> fields;
  for (const auto& v : bad_request.field_violations()) {
    fields.push_back(v.field());
    EXPECT_THAT(v.description(), Not(IsEmpty()));
  }
  EXPECT_THAT(fields, ::testing::UnorderedElementsAre(
                          "workload.parameter_count", "workload.framework"));
}

TEST_F(ServerIntegrationTest, OversizedRequestIsRefused) {
  v1::PlanTrainingRequest request = SimpleJaxRequest();
  request.mutable_workload()->set_framework_version(std::string(2 << 20, 'x'));
  auto stub = server_->Stub();
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::PlanTrainingResponse response;
  EXPECT_EQ(stub->PlanTraining(&context, request, &response).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(ServerIntegrationTest, MetricsCountHandledCallsByCode) {
  auto stub = server_->Stub();
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::PlanTrainingResponse response;
    ASSERT_TRUE(
        stub->PlanTraining(&context, SimpleJaxRequest(), &response).ok());
  }
  const std::string scrape = HttpGetMetrics(server_->metrics_port());
  ASSERT_THAT(scrape, HasSubstr("200 OK"));
  const std::vector<std::string> plan_ok = {
      "grpc_method=\"PlanTraining\"", "grpc_code=\"OK\"",
      "grpc_service=\"accelplan.v1.TrainingPlanner\"", "grpc_type=\"unary\""};
  EXPECT_GE(Sample(scrape, "grpc_server_handled_total", plan_ok), 1);
  EXPECT_GE(Sample(scrape, "grpc_server_started_total",
                   {"grpc_method=\"PlanTraining\""}),
            1);
  // Series exist before their first call (pre-created per method and code).
  EXPECT_GE(Sample(scrape, "grpc_server_handled_total",
                   {"grpc_method=\"ReviewPlan\"", "grpc_code=\"Unavailable\""}),
            0);
  EXPECT_GE(Sample(scrape, "grpc_server_handling_seconds_bucket",
                   {"grpc_method=\"PlanTraining\"", "le=\"0.0001\""}),
            0);
  EXPECT_EQ(Sample(scrape, "accelplan_catalog_info", {"catalog_version=\""}),
            1);
  EXPECT_GE(Sample(scrape, "accelplan_plans_total", {"platform=\""}), 0);
}

TEST_F(ServerIntegrationTest, SighupReloadsTheCatalogAndCountsIt) {
  auto reloads = [&] {
    return Sample(HttpGetMetrics(server_->metrics_port()),
                  "accelplan_catalog_reloads_total", {"result=\"success\""});
  };
  const double before = reloads();
  ASSERT_GE(before, 0);
  server_->Signal(SIGHUP);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (reloads() < before + 1 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(reloads(), before + 1);
  EXPECT_EQ(server_->Health(kReadiness), HealthCheckResponse::SERVING);
}

// A separate server per test below: they stop it.

TEST(ServerLifecycleTest, SigtermDrainsReadinessFirstThenExitsZero) {
  ServerProcess server({"--drain_delay_seconds=3"});
  ASSERT_TRUE(server.WaitUntilReady()) << server.Log();
  server.Signal(SIGTERM);
  // During the drain delay: not ready, but alive and still answering.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(2);
  HealthCheckResponse::ServingStatus readiness = HealthCheckResponse::SERVING;
  while (readiness == HealthCheckResponse::SERVING &&
         std::chrono::steady_clock::now() < deadline) {
    readiness = server.Health(kReadiness);
  }
  EXPECT_EQ(readiness, HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(server.Health(""), HealthCheckResponse::SERVING);
  EXPECT_EQ(server.WaitExit(std::chrono::seconds(30)), 0) << server.Log();
}

TEST(ServerLifecycleTest, FailedReloadKeepsServingTheOldCatalog) {
  // A private copy (not named catalog.db) that the test can corrupt.
  const std::string copy = absl::StrCat(
      ::testing::TempDir(), "/accelplan-reload-test-", ::getpid(), ".sqlite");
  {
    std::ifstream in(ACCELPLAN_TEST_CATALOG_DB, std::ios::binary);
    std::ofstream out(copy, std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
  }
  ServerProcess server({}, copy);
  ASSERT_TRUE(server.WaitUntilReady()) << server.Log();
  auto plan_version = [&] {
    auto stub = server.Stub();
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::PlanTrainingResponse response;
    EXPECT_TRUE(
        stub->PlanTraining(&context, SimpleJaxRequest(), &response).ok());
    return response.catalog_version();
  };
  const std::string version = plan_version();
  ASSERT_THAT(version, Not(IsEmpty()));

  { std::ofstream(copy, std::ios::trunc) << "not a sqlite database"; }
  server.Signal(SIGHUP);
  auto failures = [&] {
    return Sample(HttpGetMetrics(server.metrics_port()),
                  "accelplan_catalog_reloads_total", {"result=\"failure\""});
  };
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (failures() < 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(failures(), 1);
  EXPECT_EQ(server.Health(kReadiness), HealthCheckResponse::SERVING);
  EXPECT_EQ(plan_version(), version);
  std::remove(copy.c_str());
}

TEST(ServerLifecycleTest, MissingCatalogExitsNonZeroWithAClearError) {
  const std::string missing =
      absl::StrCat(::testing::TempDir(), "/no-such-dir/missing.db");
  ServerProcess server({}, missing);
  EXPECT_EQ(server.WaitExit(std::chrono::seconds(30)), 1) << server.Log();
  const std::string log = server.Log();
  EXPECT_THAT(log, HasSubstr("\"level\":\"error\""));
  EXPECT_THAT(log, HasSubstr(missing));
}

}  // namespace
}  // namespace accelplan
