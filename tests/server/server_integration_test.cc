// End to end: the real accelplan-server binary on loopback ports with the
// built catalog, driven through real channels (TrainingPlanner, health,
// reflection), its metrics endpoint scraped over HTTP, and its signals.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "SQLiteCpp/SQLiteCpp.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "accelplan/v1/accelplan.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/testing/metrics_scrape.h"

namespace accelplan {
namespace {

using ::accelplan::testing::HttpGetMetrics;
using ::accelplan::testing::Sample;
using ::accelplan::testing::SumSamples;
using ::accelplan::testing::WaitForSample;

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

// A fresh directory under the test temp dir.
std::string MakeTempDir() {
  std::string templ =
      absl::StrCat(::testing::TempDir(), "/accelplan-server-test-XXXXXX");
  const char* dir = ::mkdtemp(templ.data());
  return dir == nullptr ? "" : std::string(dir);
}

void CopyFile(const std::string& from, const std::string& to) {
  std::ifstream in(from, std::ios::binary);
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  out << in.rdbuf();
}

// Replaces `path` the way a deploy does: write beside it, then rename.
void ReplaceFile(const std::string& path, const std::string& content) {
  const std::string next = path + ".next";
  { std::ofstream(next, std::ios::binary | std::ios::trunc) << content; }
  ASSERT_EQ(std::rename(next.c_str(), path.c_str()), 0) << path;
}

// Runs `command` through /bin/sh; true when it exits 0.
bool Shell(const std::string& command) {
  return std::system(command.c_str()) == 0;
}

// A running accelplan-server child process.
class ServerProcess {
 public:
  // `credentials`: how the test talks to it (default plaintext); TLS
  // channels expect the server certificate to name "localhost".
  explicit ServerProcess(
      std::vector<std::string> extra_args,
      std::string catalog = ACCELPLAN_TEST_CATALOG_DB,
      std::shared_ptr<grpc::ChannelCredentials> credentials = nullptr)
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
    channel_ = Channel(credentials);
  }

  // A new channel with its own connection (no shared subchannel).
  std::shared_ptr<grpc::Channel> Channel(
      std::shared_ptr<grpc::ChannelCredentials> credentials = nullptr) const {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    if (credentials) {
      args.SetSslTargetNameOverride("localhost");
    } else {
      credentials = grpc::InsecureChannelCredentials();
    }
    return grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", port_),
                                     credentials, args);
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
  int port() const { return port_; }

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
    if (ready_ && server_->Exited()) {
      // An earlier test took it down (and failed for it, see TearDown): the
      // rest of the suite gets a fresh server rather than that failure.
      delete server_;
      server_ = new ServerProcess({});
      ready_ = server_->WaitUntilReady();
    }
    ASSERT_TRUE(ready_) << "server did not become ready; its log:\n"
                        << server_->Log();
  }
  void TearDown() override {
    if (ready_ && server_->Exited()) {
      ADD_FAILURE() << "the server died during this test; its log:\n"
                    << server_->Log();
    }
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

TEST_F(ServerIntegrationTest, ReflectionDescribesTheHealthService) {
  // grpcurl ... grpc.health.v1.Health/Check resolves the name this way.
  auto stub =
      grpc::reflection::v1alpha::ServerReflection::NewStub(server_->channel());
  grpc::ClientContext context;
  SetDeadline(&context);
  auto stream = stub->ServerReflectionInfo(&context);
  grpc::reflection::v1alpha::ServerReflectionRequest describe;
  describe.set_file_containing_symbol("grpc.health.v1.Health");
  ASSERT_TRUE(stream->Write(describe));
  grpc::reflection::v1alpha::ServerReflectionResponse described;
  ASSERT_TRUE(stream->Read(&described));
  ASSERT_FALSE(described.has_error_response())
      << described.error_response().error_message();
  ASSERT_EQ(described.file_descriptor_response().file_descriptor_proto_size(),
            1);
  google::protobuf::FileDescriptorProto file;
  ASSERT_TRUE(file.ParseFromString(
      described.file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(file.name(), "grpc/health/v1/health.proto");
  EXPECT_EQ(file.package(), "grpc.health.v1");
  ASSERT_EQ(file.service_size(), 1);
  EXPECT_EQ(file.service(0).name(), "Health");
  std::vector<std::string> methods;
  for (const auto& m : file.service(0).method()) methods.push_back(m.name());
  EXPECT_THAT(methods, ::testing::UnorderedElementsAre("Check", "Watch"));
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

// SPEC §5: a request with nothing to plan is INVALID_ARGUMENT naming
// `workload`, in the message and the BadRequest details; one fact that
// decides the hardware (allowed platforms, a run platform) is enough.
TEST_F(ServerIntegrationTest, NothingToPlanIsInvalidArgument) {
  auto stub = server_->Stub();
  v1::PlanTrainingRequest objective_only;
  objective_only.mutable_goal()->set_objective(v1::MIN_TIME);
  v1::PlanTrainingRequest budget_only;
  budget_only.mutable_goal()->set_budget_usd(5000);
  for (const v1::PlanTrainingRequest& request :
       {v1::PlanTrainingRequest{}, objective_only, budget_only}) {
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::PlanTrainingResponse response;
    const grpc::Status status =
        stub->PlanTraining(&context, request, &response);
    ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << request.ShortDebugString();
    EXPECT_THAT(status.error_message(), HasSubstr("workload: gives nothing"));
    google::rpc::Status details;
    ASSERT_TRUE(details.ParseFromString(status.error_details()));
    ASSERT_EQ(details.details_size(), 1);
    google::rpc::BadRequest bad_request;
    ASSERT_TRUE(details.details(0).UnpackTo(&bad_request));
    ASSERT_EQ(bad_request.field_violations_size(), 1);
    EXPECT_EQ(bad_request.field_violations(0).field(), "workload");
    EXPECT_THAT(bad_request.field_violations(0).description(),
                HasSubstr("parameter_count"));
  }
  // S5's facts: TensorFlow on TPUs, on Vertex AI serverless training.
  v1::PlanTrainingRequest s5;
  s5.mutable_workload()->set_framework(v1::TENSORFLOW);
  s5.mutable_constraints()->add_allowed_platforms(v1::TPU);
  s5.mutable_constraints()->set_run_platform(v1::VERTEX_TRAINING);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::PlanTrainingResponse response;
  const grpc::Status status = stub->PlanTraining(&context, s5, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
}

// One invalid input: `mutate` breaks exactly the field at `field` (its proto
// path as the server must name it) of an otherwise valid request.
struct BadInput {
  std::string field;
  std::string what;
  std::function<void(google::protobuf::Message*)> mutate;
};

using MessageLocator =
    std::function<google::protobuf::Message*(google::protobuf::Message*)>;

// Appends a BadInput for every invalid value of every leaf field reachable
// from the message `locate` finds in `base`: unknown enum numbers; negative,
// NaN, infinite and absurd numbers; oversize strings. Bools cannot be
// invalid. Nested messages are walked (unset oneof members are skipped:
// setting one would change the proposal's kind), repeated messages per
// element present in `base`, repeated scalars by appending one bad element.
void CollectBadInputs(const google::protobuf::Message& base,
                      const MessageLocator& locate, const std::string& prefix,
                      std::vector<BadInput>* out) {
  namespace pb = ::google::protobuf;
  std::unique_ptr<pb::Message> probe(base.New());
  probe->CopyFrom(base);
  const pb::Message* msg = locate(probe.get());
  const pb::Descriptor* d = msg->GetDescriptor();
  const pb::Reflection* r = msg->GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    const std::string path = absl::StrCat(prefix, f->name());
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int j = 0; j < r->FieldSize(*msg, f); ++j) {
          CollectBadInputs(
              base,
              [locate, f, j](pb::Message* m) {
                pb::Message* p = locate(m);
                return p->GetReflection()->MutableRepeatedMessage(p, f, j);
              },
              absl::StrCat(path, "[", j, "]."), out);
        }
      } else if (f->containing_oneof() == nullptr || r->HasField(*msg, f)) {
        CollectBadInputs(
            base,
            [locate, f](pb::Message* m) {
              pb::Message* p = locate(m);
              return p->GetReflection()->MutableMessage(p, f);
            },
            absl::StrCat(path, "."), out);
      }
      continue;
    }
    const std::string field =
        f->is_repeated() ? absl::StrCat(path, "[", r->FieldSize(*msg, f), "]")
                         : path;
    auto add =
        [&](std::string what,
            std::function<void(pb::Message*, const pb::Reflection*)> set) {
          out->push_back(
              {field, std::move(what), [locate, set](pb::Message* m) {
                 pb::Message* p = locate(m);
                 set(p, p->GetReflection());
               }});
        };
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        add("unknown enum number 999",
            [f](pb::Message* p, const pb::Reflection* pr) {
              if (f->is_repeated()) {
                pr->AddEnumValue(p, f, 999);
              } else {
                pr->SetEnumValue(p, f, 999);
              }
            });
        break;
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        for (double v : {-1.0, std::numeric_limits<double>::quiet_NaN(),
                         std::numeric_limits<double>::infinity(), 1e300}) {
          add(absl::StrCat("double ", v),
              [f, v](pb::Message* p, const pb::Reflection* pr) {
                if (f->is_repeated()) {
                  pr->AddDouble(p, f, v);
                } else {
                  pr->SetDouble(p, f, v);
                }
              });
        }
        break;
      case pb::FieldDescriptor::CPPTYPE_INT32:
        for (int32_t v : {-1, std::numeric_limits<int32_t>::max()}) {
          add(absl::StrCat("int32 ", v),
              [f, v](pb::Message* p, const pb::Reflection* pr) {
                if (f->is_repeated()) {
                  pr->AddInt32(p, f, v);
                } else {
                  pr->SetInt32(p, f, v);
                }
              });
        }
        break;
      case pb::FieldDescriptor::CPPTYPE_INT64:
        for (int64_t v : {int64_t{-1}, std::numeric_limits<int64_t>::max()}) {
          add(absl::StrCat("int64 ", v),
              [f, v](pb::Message* p, const pb::Reflection* pr) {
                if (f->is_repeated()) {
                  pr->AddInt64(p, f, v);
                } else {
                  pr->SetInt64(p, f, v);
                }
              });
        }
        break;
      case pb::FieldDescriptor::CPPTYPE_STRING:
        add("a 300-character string",
            [f](pb::Message* p, const pb::Reflection* pr) {
              if (f->is_repeated()) {
                pr->AddString(p, f, std::string(300, '7'));
              } else {
                pr->SetString(p, f, std::string(300, '7'));
              }
            });
        break;
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        break;  // every value is valid
      default:
        ADD_FAILURE() << path << ": no bad values for this field type yet";
    }
  }
}

std::vector<BadInput> BadInputsFor(const google::protobuf::Message& base) {
  std::vector<BadInput> out;
  CollectBadInputs(
      base, [](google::protobuf::Message* m) { return m; }, "", &out);
  return out;
}

// Values with more than one way to be wrong, beyond what the type says.
template <typename Request>
void AddSemanticBadInputs(std::vector<BadInput>* out) {
  auto add = [&](std::string field, std::string what,
                 std::function<void(Request*)> mutate) {
    out->push_back({std::move(field), std::move(what),
                    [mutate](google::protobuf::Message* m) {
                      mutate(static_cast<Request*>(m));
                    }});
  };
  for (const char* date : {"2026-13-01", "2026-02-30", "26-1-1", "yesterday",
                           "2026-01-01T00:00:00Z"}) {
    add("as_of", absl::StrCat("date ", date),
        [date](Request* r) { r->set_as_of(date); });
  }
  for (const char* topology : {"2x", "0x4", "axb", "2x2x2x2x2", "-2x2"}) {
    add("current_setup.tpu_topology", absl::StrCat("topology ", topology),
        [topology](Request* r) {
          r->mutable_current_setup()->set_tpu_topology(topology);
        });
  }
  add("workload.transformer_shape.attention_heads",
      "heads that do not divide hidden_size", [](Request* r) {
        r->mutable_workload()->mutable_transformer_shape()->set_hidden_size(
            1000);
        r->mutable_workload()->mutable_transformer_shape()->set_attention_heads(
            7);
      });
}

v1::ReviewPlanRequest ValidReviewRequest() {
  v1::ReviewPlanRequest request;
  *request.mutable_workload() = SimpleJaxRequest().workload();
  v1::Proposal* hardware = request.add_proposals();
  hardware->set_label("A");
  hardware->mutable_hardware()->set_platform(v1::TPU);
  hardware->mutable_hardware()->set_accelerator("tpu-v5p");
  v1::Proposal* distribution = request.add_proposals();
  distribution->set_label("B");
  distribution->mutable_distribution()->set_strategy(v1::DATA_PARALLEL);
  distribution->mutable_distribution()->mutable_mesh();
  v1::Proposal* remedy = request.add_proposals();
  remedy->set_label("C");
  remedy->mutable_remedy()->set_kind(v1::USE_SPOT);
  remedy->mutable_remedy()->mutable_target();
  return request;
}

// Sends `request` and checks it is refused naming `field`, in the message
// and in the google.rpc.BadRequest details.
template <typename Request, typename Response, typename Method>
void ExpectRefused(const BadInput& bad, const Request& request, Method method) {
  SCOPED_TRACE(absl::StrCat(Request::descriptor()->name(), " ", bad.field,
                            " = ", bad.what));
  grpc::ClientContext context;
  SetDeadline(&context);
  Response response;
  const grpc::Status status = method(&context, request, &response);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr(bad.field));
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  ASSERT_EQ(details.details_size(), 1);
  google::rpc::BadRequest bad_request;
  ASSERT_TRUE(details.details(0).UnpackTo(&bad_request));
  std::vector<std::string> fields;
  for (const auto& v : bad_request.field_violations()) {
    fields.push_back(v.field());
  }
  EXPECT_THAT(fields, ::testing::Contains(bad.field));
}

TEST_F(ServerIntegrationTest, EveryInvalidRequestFieldIsRefusedByName) {
  auto stub = server_->Stub();
  std::set<std::string> fields;

  const v1::PlanTrainingRequest plan = SimpleJaxRequest();
  {
    // The base request itself is valid.
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::PlanTrainingResponse response;
    ASSERT_TRUE(stub->PlanTraining(&context, plan, &response).ok());
  }
  std::vector<BadInput> plan_inputs = BadInputsFor(plan);
  AddSemanticBadInputs<v1::PlanTrainingRequest>(&plan_inputs);
  for (const BadInput& bad : plan_inputs) {
    v1::PlanTrainingRequest request = plan;
    bad.mutate(&request);
    ExpectRefused<v1::PlanTrainingRequest, v1::PlanTrainingResponse>(
        bad, request, [&](auto* c, const auto& q, auto* a) {
          return stub->PlanTraining(c, q, a);
        });
    fields.insert(bad.field);
  }

  // Never sent as is: a valid review plans (this test is about refusals).
  const v1::ReviewPlanRequest review = ValidReviewRequest();
  std::vector<BadInput> review_inputs = BadInputsFor(review);
  AddSemanticBadInputs<v1::ReviewPlanRequest>(&review_inputs);
  using Review = v1::ReviewPlanRequest;
  auto add = [&](std::string field, std::string what,
                 std::function<void(Review*)> mutate) {
    review_inputs.push_back({std::move(field), std::move(what),
                             [mutate](google::protobuf::Message* m) {
                               mutate(static_cast<Review*>(m));
                             }});
  };
  add("proposals", "no proposals", [](Review* r) { r->clear_proposals(); });
  add("proposals", "65 proposals", [](Review* r) {
    while (r->proposals_size() < 65) *r->add_proposals() = r->proposals(0);
  });
  add("proposals[0]", "a proposal of no kind",
      [](Review* r) { r->mutable_proposals(0)->clear_kind(); });
  add("proposals[2].remedy.kind", "a remedy of no kind", [](Review* r) {
    r->mutable_proposals(2)->mutable_remedy()->set_kind(
        v1::REMEDY_KIND_UNSPECIFIED);
  });
  add("proposals[0].hardware.tpu_topology", "topology 4x", [](Review* r) {
    r->mutable_proposals(0)->mutable_hardware()->set_tpu_topology("4x");
  });
  add("proposals[2].remedy.target.tpu_topology", "topology 0x0", [](Review* r) {
    r->mutable_proposals(2)
        ->mutable_remedy()
        ->mutable_target()
        ->set_tpu_topology("0x0");
  });
  for (const BadInput& bad : review_inputs) {
    v1::ReviewPlanRequest request = review;
    bad.mutate(&request);
    ExpectRefused<v1::ReviewPlanRequest, v1::ReviewPlanResponse>(
        bad, request, [&](auto* c, const auto& q, auto* a) {
          return stub->ReviewPlan(c, q, a);
        });
    fields.insert(bad.field);
  }

  const v1::ListAcceleratorsRequest list;
  for (const BadInput& bad : BadInputsFor(list)) {
    v1::ListAcceleratorsRequest request = list;
    bad.mutate(&request);
    ExpectRefused<v1::ListAcceleratorsRequest, v1::ListAcceleratorsResponse>(
        bad, request, [&](auto* c, const auto& q, auto* a) {
          return stub->ListAccelerators(c, q, a);
        });
    fields.insert(bad.field);
  }
  // The walk reached every nested message, not only the top level.
  for (const char* deep :
       {"workload.transformer_shape.ffn_hidden_size",
        "workload.edge.quantization", "workload.tpu_unsuited_ops[0]",
        "goal.budget_usd", "constraints.allowed_platforms[0]",
        "constraints.allowed_series[0]", "current_setup.layer_widths[0]",
        "current_setup.symptoms[0]", "proposals[0].label",
        "proposals[0].hardware.count",
        "proposals[1].distribution.mesh.dcn_pipeline_parallelism",
        "proposals[2].remedy.target.slices",
        "proposals[2].remedy.layer_widths[0]", "platforms[0]",
        "min_memory_gib"}) {
    EXPECT_THAT(fields, ::testing::Contains(deep));
  }
  std::cout << "bad-input table: " << fields.size() << " distinct fields\n";
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

TEST_F(ServerIntegrationTest, MetricsCountRealCallsExactly) {
  const std::vector<std::string> plan = {
      "grpc_service=\"accelplan.v1.TrainingPlanner\"", "grpc_type=\"unary\"",
      "grpc_method=\"PlanTraining\""};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.end(), plan.begin(), plan.end());
    return more;
  };
  const std::string before = HttpGetMetrics(server_->metrics_port());
  ASSERT_THAT(before, HasSubstr("200 OK"));

  // kOk valid plans and kBad invalid ones, one after the other (the suite
  // runs its tests sequentially, so the deltas are exactly these calls).
  constexpr int kOk = 3;
  constexpr int kBad = 2;
  auto stub = server_->Stub();
  std::vector<v1::PlanTrainingResponse> responses(kOk);
  for (v1::PlanTrainingResponse& response : responses) {
    grpc::ClientContext context;
    SetDeadline(&context);
    const grpc::Status status =
        stub->PlanTraining(&context, SimpleJaxRequest(), &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  for (int i = 0; i < kBad; ++i) {
    v1::PlanTrainingRequest request = SimpleJaxRequest();
    request.mutable_workload()->set_parameter_count(-1);
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::PlanTrainingResponse response;
    ASSERT_EQ(stub->PlanTraining(&context, request, &response).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  const std::string after = HttpGetMetrics(server_->metrics_port());
  ASSERT_THAT(after, HasSubstr("200 OK"));
  auto delta = [&](const std::string& metric,
                   const std::vector<std::string>& labels) {
    return Sample(after, metric, labels) - Sample(before, metric, labels);
  };

  EXPECT_EQ(delta("grpc_server_started_total", plan), kOk + kBad);
  EXPECT_EQ(delta("grpc_server_msg_received_total", plan), kOk + kBad);
  EXPECT_EQ(delta("grpc_server_msg_sent_total", plan), kOk);
  EXPECT_EQ(delta("grpc_server_handled_total", with({"grpc_code=\"OK\""})),
            kOk);
  EXPECT_EQ(delta("grpc_server_handled_total",
                  with({"grpc_code=\"InvalidArgument\""})),
            kBad);
  EXPECT_EQ(
      delta("grpc_server_handled_total", with({"grpc_code=\"Internal\""})), 0);
  EXPECT_EQ(delta("grpc_server_handling_seconds_count", plan), kOk + kBad);
  EXPECT_EQ(delta("grpc_server_handling_seconds_bucket", with({"le=\"+Inf\""})),
            kOk + kBad);
  // Sub-millisecond buckets exist and are cumulative.
  double previous = 0;
  for (const char* le : {"0.0001", "0.00025", "0.0005", "0.001", "+Inf"}) {
    const double bucket = Sample(after, "grpc_server_handling_seconds_bucket",
                                 with({absl::StrCat("le=\"", le, "\"")}));
    EXPECT_GE(bucket, previous) << "le=" << le;
    previous = bucket;
  }
  // Series exist before their first call (pre-created per method and code).
  EXPECT_EQ(Sample(after, "grpc_server_handled_total",
                   {"grpc_method=\"ReviewPlan\"", "grpc_code=\"Unavailable\""}),
            0);

  // Domain metrics, from what the responses said.
  int rejection_codes = 0;
  for (const v1::PlanTrainingResponse& r : responses) {
    for (const v1::Rejection& rejection : r.rejected()) {
      rejection_codes += rejection.codes_size();
    }
  }
  EXPECT_GT(rejection_codes, 0) << "the request should rule some hardware out";
  EXPECT_EQ(SumSamples(after, "accelplan_rejections_total", {}) -
                SumSamples(before, "accelplan_rejections_total", {}),
            rejection_codes);
  EXPECT_EQ(SumSamples(after, "accelplan_plans_total", {}) -
                SumSamples(before, "accelplan_plans_total", {}),
            kOk);
  ASSERT_TRUE(responses[0].has_recommendation());
  const v1::Hardware& hw = responses[0].recommendation().hardware();
  const std::vector<std::string> recommended = {
      absl::StrCat("platform=\"", v1::Platform_Name(hw.platform()), "\""),
      absl::StrCat("series=\"", hw.series(), "\"")};
  EXPECT_EQ(SumSamples(after, "accelplan_plans_total", recommended) -
                SumSamples(before, "accelplan_plans_total", recommended),
            kOk)
      << "plans by the recommended platform and series";
  EXPECT_EQ(Sample(after, "accelplan_catalog_info",
                   {absl::StrCat("catalog_version=\"",
                                 responses[0].catalog_version(), "\"")}),
            1);
  // Catalog age: now minus its data date (a midnight UTC in the past).
  double data_time = -1;
  double age = -1;
  for (absl::string_view line : absl::StrSplit(after, '\n')) {
    const size_t space = line.rfind(' ');
    if (absl::StartsWith(line, "accelplan_catalog_data_timestamp_seconds ")) {
      ASSERT_TRUE(absl::SimpleAtod(line.substr(space + 1), &data_time));
    }
    if (absl::StartsWith(line, "accelplan_catalog_age_seconds ")) {
      ASSERT_TRUE(absl::SimpleAtod(line.substr(space + 1), &age));
    }
  }
  ASSERT_GT(data_time, 1.5e9) << after;
  EXPECT_EQ(std::fmod(data_time, 86400), 0);
  const double now = static_cast<double>(std::time(nullptr));
  EXPECT_NEAR(age, now - data_time, 60);
  EXPECT_GT(age, 0);
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

TEST(ServerLifecycleTest, ReloadTakesAGoodCatalogAndSurvivesBadOnes) {
  // A private copy (not named catalog.db) that the test replaces.
  const std::string dir = MakeTempDir();
  ASSERT_FALSE(dir.empty());
  const std::string path = absl::StrCat(dir, "/catalog.sqlite");
  CopyFile(ACCELPLAN_TEST_CATALOG_DB, path);
  ServerProcess server({}, path);
  ASSERT_TRUE(server.WaitUntilReady()) << server.Log();
  auto plan_version = [&] {
    auto stub = server.Stub();
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::PlanTrainingResponse response;
    const grpc::Status status =
        stub->PlanTraining(&context, SimpleJaxRequest(), &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.catalog_version();
  };
  const std::string version = plan_version();
  ASSERT_THAT(version, Not(IsEmpty()));
  const std::vector<std::string> success = {"result=\"success\""};
  const std::vector<std::string> failure = {"result=\"failure\""};
  const int metrics = server.metrics_port();
  auto reloads = [&](const std::vector<std::string>& result) {
    return Sample(HttpGetMetrics(metrics), "accelplan_catalog_reloads_total",
                  result);
  };
  ASSERT_EQ(reloads(success), 0);
  ASSERT_EQ(reloads(failure), 0);

  // Good: a fresh copy deployed over the old file.
  {
    std::ifstream in(ACCELPLAN_TEST_CATALOG_DB, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    ReplaceFile(path, content.str());
  }
  server.Signal(SIGHUP);
  EXPECT_EQ(
      WaitForSample(metrics, "accelplan_catalog_reloads_total", success, 1), 1);
  EXPECT_EQ(reloads(failure), 0);
  EXPECT_EQ(plan_version(), version);
  EXPECT_EQ(Sample(HttpGetMetrics(metrics), "accelplan_catalog_info",
                   {absl::StrCat("catalog_version=\"", version, "\"")}),
            1);

  // Corrupt: counted, logged, and the old snapshot keeps serving.
  ReplaceFile(path, "not a sqlite database");
  server.Signal(SIGHUP);
  EXPECT_EQ(
      WaitForSample(metrics, "accelplan_catalog_reloads_total", failure, 1), 1);
  EXPECT_EQ(server.Health(kReadiness), HealthCheckResponse::SERVING);
  EXPECT_EQ(plan_version(), version);

  // Missing: the same.
  ASSERT_EQ(std::remove(path.c_str()), 0);
  server.Signal(SIGHUP);
  EXPECT_EQ(
      WaitForSample(metrics, "accelplan_catalog_reloads_total", failure, 2), 2);
  EXPECT_EQ(reloads(success), 1);
  EXPECT_EQ(server.Health(kReadiness), HealthCheckResponse::SERVING);
  EXPECT_EQ(plan_version(), version);
  EXPECT_EQ(Sample(HttpGetMetrics(metrics), "accelplan_catalog_info",
                   {absl::StrCat("catalog_version=\"", version, "\"")}),
            1);
  const std::string log = server.Log();
  EXPECT_THAT(log, HasSubstr("catalog reload failed"));
  EXPECT_THAT(log, HasSubstr(path));
  ::rmdir(dir.c_str());
}

TEST(ServerLifecycleTest, DrainUnderLoadFailsNoAcceptedCall) {
  constexpr auto kDrainDelay = std::chrono::seconds(1);
  ServerProcess server(
      {"--drain_delay_seconds=1", "--shutdown_grace_seconds=5"});
  ASSERT_TRUE(server.WaitUntilReady()) << server.Log();

  using Clock = std::chrono::steady_clock;
  struct Call {
    Clock::time_point start;
    grpc::StatusCode code;
    std::string message;
  };
  constexpr int kClients = 8;
  std::atomic<bool> stop{false};
  std::vector<std::vector<Call>> calls(kClients);
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) {
    // A channel (so a connection) per client, as behind an L4 balancer.
    clients.emplace_back([&, i, channel = server.Channel()] {
      auto stub = v1::TrainingPlanner::NewStub(channel);
      while (!stop.load()) {
        grpc::ClientContext context;
        SetDeadline(&context);
        v1::PlanTrainingResponse response;
        const Clock::time_point start = Clock::now();
        const grpc::Status status =
            stub->PlanTraining(&context, SimpleJaxRequest(), &response);
        calls[i].push_back(
            {start, status.error_code(), status.error_message()});
        if (!status.ok()) {
          // Refused: don't spin while the server goes away.
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const Clock::time_point sigterm = Clock::now();
  server.Signal(SIGTERM);
  // Readiness flips at once, while calls keep being served.
  HealthCheckResponse::ServingStatus readiness = HealthCheckResponse::SERVING;
  while (readiness == HealthCheckResponse::SERVING &&
         Clock::now() < sigterm + kDrainDelay) {
    readiness = server.Health(kReadiness);
  }
  EXPECT_EQ(readiness, HealthCheckResponse::NOT_SERVING);
  std::this_thread::sleep_until(sigterm + kDrainDelay +
                                std::chrono::milliseconds(500));
  stop = true;
  for (std::thread& t : clients) t.join();
  const int exit_code = server.WaitExit(std::chrono::seconds(10));
  const auto exited_after = Clock::now() - sigterm;
  EXPECT_EQ(exit_code, 0) << server.Log();
  // Nothing is in flight after the drain, so the grace is not needed.
  EXPECT_LT(exited_after, kDrainDelay + std::chrono::seconds(2));

  // Calls that started well before the listener closed (drain delay after
  // SIGTERM; the margin covers signal delivery on a loaded machine) were
  // accepted and must all succeed. Later ones may only be refused: new
  // connections get UNAVAILABLE; streams that race the server's GOAWAY on a
  // connection it is closing are never accepted and gRPC core cancels them
  // (CANCELLED). Clients behind a balancer are gone by then (readiness).
  const Clock::time_point accepted_before =
      sigterm + kDrainDelay - std::chrono::milliseconds(200);
  int before_sigterm = 0;
  int during_drain = 0;
  int refused = 0;
  Clock::duration first_refused = Clock::duration::max();
  for (const std::vector<Call>& client : calls) {
    for (const Call& call : client) {
      if (call.start < accepted_before) {
        ++(call.start < sigterm ? before_sigterm : during_drain);
        EXPECT_EQ(call.code, grpc::StatusCode::OK)
            << call.message << " (started "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   call.start - sigterm)
                   .count()
            << " ms after SIGTERM)";
      } else if (call.code != grpc::StatusCode::OK) {
        EXPECT_THAT(call.code, ::testing::AnyOf(grpc::StatusCode::UNAVAILABLE,
                                                grpc::StatusCode::CANCELLED))
            << call.message << " (started "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   call.start - sigterm)
                   .count()
            << " ms after SIGTERM)";
        ++refused;
        first_refused = std::min(first_refused, call.start - sigterm);
      }
    }
  }
  EXPECT_GT(before_sigterm, 0);
  EXPECT_GE(during_drain, kClients) << "the load must go on during the drain";
  std::cout << "drain under load: " << before_sigterm
            << " calls before SIGTERM, " << during_drain
            << " accepted during the drain, " << refused
            << " refused after the listener closed, the first started "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   first_refused)
                   .count()
            << " ms after SIGTERM\n";
}

// Certificates made at test time with openssl; empty when it is missing.
class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Shell("command -v openssl >/dev/null 2>&1")) {
      GTEST_SKIP() << "openssl is not installed: cannot make test "
                      "certificates (apt-get install openssl)";
    }
    dir_ = MakeTempDir();
    ASSERT_FALSE(dir_.empty());
    for (const char* name : {"server", "client"}) {
      ASSERT_TRUE(Shell(absl::StrCat(
          "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "
          "/CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 "
          "-keyout ",
          dir_, "/", name, ".key -out ", dir_, "/", name,
          ".crt >/dev/null 2>&1")))
          << name;
    }
  }
  void TearDown() override {
    if (!dir_.empty()) Shell(absl::StrCat("rm -rf '", dir_, "'"));
  }

  std::string File(const std::string& name) const {
    std::ifstream in(absl::StrCat(dir_, "/", name));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string Path(const std::string& name) const {
    return absl::StrCat(dir_, "/", name);
  }
  // Trusts the server certificate; presents the client one when asked to.
  std::shared_ptr<grpc::ChannelCredentials> Tls(bool client_cert) const {
    grpc::SslCredentialsOptions options;
    options.pem_root_certs = File("server.crt");
    if (client_cert) {
      options.pem_private_key = File("client.key");
      options.pem_cert_chain = File("client.crt");
    }
    return grpc::SslCredentials(options);
  }

  std::string dir_;
};

grpc::StatusCode ListOver(const std::shared_ptr<grpc::Channel>& channel) {
  auto stub = v1::TrainingPlanner::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(3));
  v1::ListAcceleratorsResponse response;
  return stub->ListAccelerators(&context, {}, &response).error_code();
}

TEST_F(TlsTest, TlsChannelWorksAndPlaintextFails) {
  ServerProcess server({absl::StrCat("--tls_cert=", Path("server.crt")),
                        absl::StrCat("--tls_key=", Path("server.key"))},
                       ACCELPLAN_TEST_CATALOG_DB, Tls(false));
  ASSERT_TRUE(server.WaitUntilReady()) << server.Log();
  EXPECT_EQ(ListOver(server.channel()), grpc::StatusCode::OK);
  EXPECT_NE(ListOver(server.Channel()), grpc::StatusCode::OK);
}

TEST_F(TlsTest, MutualTlsRequiresATrustedClientCertificate) {
  ServerProcess server({absl::StrCat("--tls_cert=", Path("server.crt")),
                        absl::StrCat("--tls_key=", Path("server.key")),
                        absl::StrCat("--tls_client_ca=", Path("client.crt"))},
                       ACCELPLAN_TEST_CATALOG_DB, Tls(true));
  ASSERT_TRUE(server.WaitUntilReady()) << server.Log();
  EXPECT_EQ(ListOver(server.channel()), grpc::StatusCode::OK);
  EXPECT_NE(ListOver(server.Channel(Tls(false))), grpc::StatusCode::OK);
  EXPECT_NE(ListOver(server.Channel()), grpc::StatusCode::OK);
}

TEST(ServerLifecycleTest, TlsKeyWithoutCertificateIsAStartupError) {
  ServerProcess server({"--tls_key=/nonexistent/key.pem"});
  EXPECT_EQ(server.WaitExit(std::chrono::seconds(30)), 1) << server.Log();
  EXPECT_THAT(server.Log(), HasSubstr("--tls_cert and --tls_key"));
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

// Catalog faults at reload (issue 17): each is refused with its own message
// in the log, counted as a failed reload, and the old snapshot keeps
// serving. The same LoadCatalog refuses them at start
// (tests/catalog/catalog_file_faults_test.cc, catalog_loader_test.cc).
TEST(ServerLifecycleTest, ReloadRefusesFaultyCatalogsWithTheirOwnMessages) {
  const std::string dir = MakeTempDir();
  ASSERT_FALSE(dir.empty());
  const std::string path = absl::StrCat(dir, "/catalog.sqlite");
  CopyFile(ACCELPLAN_TEST_CATALOG_DB, path);
  ServerProcess server({}, path);
  ASSERT_TRUE(server.WaitUntilReady()) << server.Log();
  auto plan_version = [&] {
    auto stub = server.Stub();
    grpc::ClientContext context;
    SetDeadline(&context);
    v1::PlanTrainingResponse response;
    const grpc::Status status =
        stub->PlanTraining(&context, SimpleJaxRequest(), &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.catalog_version();
  };
  const std::string version = plan_version();
  ASSERT_THAT(version, Not(IsEmpty()));
  const std::vector<std::string> failure = {"result=\"failure\""};
  const int metrics = server.metrics_port();
  // A copy of the built catalog with `sql` applied, moved over `path`.
  auto deploy_mutated = [&](const std::string& sql) {
    const std::string next = path + ".next";
    CopyFile(ACCELPLAN_TEST_CATALOG_DB, next);
    {
      SQLite::Database db(next, SQLite::OPEN_READWRITE);
      db.exec("PRAGMA foreign_keys = OFF;");
      db.exec(sql);
    }
    ASSERT_EQ(std::rename(next.c_str(), path.c_str()), 0);
  };
  int failures = 0;
  auto expect_refused = [&](const std::string& message) {
    server.Signal(SIGHUP);
    ++failures;
    EXPECT_EQ(WaitForSample(metrics, "accelplan_catalog_reloads_total", failure,
                            failures),
              failures)
        << message;
    EXPECT_EQ(server.Health(kReadiness), HealthCheckResponse::SERVING);
    EXPECT_EQ(plan_version(), version) << message;
    EXPECT_THAT(server.Log(), HasSubstr(message));
  };

  ASSERT_EQ(std::remove(path.c_str()), 0);
  ASSERT_EQ(::mkdir(path.c_str(), 0700), 0);
  expect_refused("is a directory");
  ASSERT_EQ(::rmdir(path.c_str()), 0);

  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  expect_refused("FIFO");
  ASSERT_EQ(std::remove(path.c_str()), 0);

  CopyFile(ACCELPLAN_TEST_CATALOG_DB, path);
  { std::ofstream(path + "-wal") << "pending pages"; }
  expect_refused("write-ahead log");
  ASSERT_EQ(std::remove((path + "-wal").c_str()), 0);

  deploy_mutated("DELETE FROM machine_types;");
  expect_refused("machine_types is empty");

  deploy_mutated(
      "UPDATE catalog_meta SET value = '2026-13-45' WHERE key = 'data_date';");
  expect_refused("data_date");

  std::remove(path.c_str());
  ::rmdir(dir.c_str());
}

}  // namespace
}  // namespace accelplan
