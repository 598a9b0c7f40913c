// Seed acceptance scenarios (SPEC §7): every row replayed from its
// examples/*.json through a real accelplan-server on a loopback port.
//
// One server serves the whole binary (a gtest Environment). Environment:
//   ACCELPLAN_TARGET=HOST:PORT   use a running server instead of starting one
//   ACCELPLAN_SERVER_BINARY, ACCELPLAN_TEST_CATALOG   override build paths
//   ACCELPLAN_DUMP=1             print every response as JSON
//   ACCELPLAN_DUMP=summary       print each scenario's summary, pass or fail
// One scenario: seed_scenarios_test --gtest_filter='*S4_*'
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "accelplan/v1/accelplan.grpc.pb.h"
#include "accelplan/v1/accelplan.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/testing/test_server.h"

namespace accelplan {
namespace {

using ::accelplan::v1::AcceleratorInfo;
using ::accelplan::v1::Hardware;
using ::accelplan::v1::ListAcceleratorsRequest;
using ::accelplan::v1::ListAcceleratorsResponse;
using ::accelplan::v1::Plan;
using ::accelplan::v1::PlanTrainingRequest;
using ::accelplan::v1::PlanTrainingResponse;
using ::accelplan::v1::Platform;
using ::accelplan::v1::ProposalVerdict;
using ::accelplan::v1::ReasonCode;
using ::accelplan::v1::Rejection;
using ::accelplan::v1::Remedy;
using ::accelplan::v1::ReviewPlanRequest;
using ::accelplan::v1::ReviewPlanResponse;
using ::accelplan::v1::Strategy;
using ::accelplan::v1::TrainingPlanner;
using ::accelplan::v1::Verdict;

constexpr int kRpcDeadlineSeconds = 30;

std::string ExamplesDir() {
  return absl::StrCat(ACCELPLAN_SOURCE_DIR, "/examples");
}

std::string DumpMode() {
  const char* dump = std::getenv("ACCELPLAN_DUMP");
  return dump == nullptr ? "" : dump;
}

// ACCELPLAN_DUMP=1: every response as JSON.
bool DumpEnabled() {
  const std::string mode = DumpMode();
  return !mode.empty() && mode != "0" && mode != "summary";
}

// ACCELPLAN_DUMP=summary: the one-screen summary even for passing tests.
bool SummaryAlways() { return DumpMode() == "summary"; }

// ------------------------------------------------------------ the server

class ServerEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    std::shared_ptr<grpc::Channel> channel;
    const char* target = std::getenv("ACCELPLAN_TARGET");
    if (target != nullptr && *target != '\0') {
      channel = grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
    } else {
      absl::StatusOr<std::unique_ptr<testing::TestServer>> server =
          testing::TestServer::Start(testing::DefaultTestServerOptions());
      if (!server.ok()) {
        startup_error_ = server.status().ToString();
        return;
      }
      server_ = *std::move(server);
      channel = server_->NewChannel();
    }
    stub_ = TrainingPlanner::NewStub(channel);
  }

  void TearDown() override {
    stub_.reset();
    if (server_ == nullptr) return;
    absl::StatusOr<int> exit_code = server_->Stop();
    if (!exit_code.ok() || *exit_code != 0) {
      std::cerr << "accelplan-server did not exit cleanly on SIGTERM: "
                << (exit_code.ok() ? absl::StrCat("exit code ", *exit_code)
                                   : exit_code.status().ToString())
                << "\n"
                << server_->LogTail() << "\n";
    }
    server_.reset();
  }

  TrainingPlanner::Stub* stub() const { return stub_.get(); }
  const std::string& startup_error() const { return startup_error_; }

 private:
  std::unique_ptr<testing::TestServer> server_;
  std::unique_ptr<TrainingPlanner::Stub> stub_;
  std::string startup_error_;
};

ServerEnvironment* g_env = nullptr;

// ------------------------------------------------------------ describing

std::string Norm(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out.push_back(
          static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return out;
}

std::string CodesToString(const google::protobuf::RepeatedField<int>& codes) {
  std::vector<std::string> names;
  for (int code : codes) {
    names.push_back(v1::ReasonCode_Name(static_cast<ReasonCode>(code)));
  }
  return absl::StrJoin(names, ",");
}

std::string Describe(const Hardware& hw) {
  std::string out =
      absl::StrCat(v1::Platform_Name(hw.platform()), " '", hw.series(), "' ",
                   hw.machine_type(), " [", hw.accelerator(), "]");
  if (hw.total_accelerators() > 0 || hw.hosts() > 0) {
    absl::StrAppend(&out, " ", hw.total_accelerators(), " accel on ",
                    hw.hosts(), " host(s)");
  }
  if (!hw.tpu_topology().empty()) absl::StrAppend(&out, " ", hw.tpu_topology());
  if (hw.slices() > 1) absl::StrAppend(&out, " x", hw.slices(), " slices");
  return out;
}

std::string DescribeDistribution(const v1::Distribution& d) {
  std::string out = absl::StrCat(
      v1::Strategy_Name(d.strategy()), " dp=", d.data_parallelism(),
      " fsdp=", d.fsdp_parallelism(), " tp=", d.tensor_parallelism(),
      " pp=", d.pipeline_parallelism());
  if (d.has_multislice()) {
    const v1::MultisliceMesh& m = d.multislice();
    absl::StrAppend(
        &out, " ici(d=", m.ici_data_parallelism(),
        ",fsdp=", m.ici_fsdp_parallelism(), ",t=", m.ici_tensor_parallelism(),
        ") dcn(d=", m.dcn_data_parallelism(),
        ",fsdp=", m.dcn_fsdp_parallelism(), ",t=", m.dcn_tensor_parallelism(),
        ",p=", m.dcn_pipeline_parallelism(), ")");
  }
  if (d.reduction_server().replica_count() > 0) {
    absl::StrAppend(&out,
                    " reduction_server=", d.reduction_server().replica_count(),
                    "x", d.reduction_server().machine_type());
  }
  if (d.horovod()) absl::StrAppend(&out, " horovod");
  if (!d.framework_api().empty())
    absl::StrAppend(&out, " api=", d.framework_api());
  return out;
}

std::string DescribeRemedy(const Remedy& r) {
  return absl::StrCat(v1::RemedyKind_Name(r.kind()),
                      " batch=", r.global_batch_size(), " widths=[",
                      absl::StrJoin(r.layer_widths(), ","),
                      "] addresses=", v1::Symptom_Name(r.addresses()), " \"",
                      r.summary(), "\"");
}

std::string Summary(const PlanTrainingResponse& r) {
  std::string out = "---- PlanTraining response summary\n";
  if (r.has_recommendation()) {
    absl::StrAppend(
        &out, "recommendation: ", Describe(r.recommendation().hardware()),
        "\n  distribution: ",
        DescribeDistribution(r.recommendation().distribution()), "\n");
  } else {
    absl::StrAppend(&out, "recommendation: (none) no_plan_reason: ",
                    r.no_plan_reason(), "\n");
  }
  absl::StrAppend(&out, "alternatives (", r.alternatives_size(), "):\n");
  for (const Plan& alt : r.alternatives()) {
    absl::StrAppend(&out, "  - ", Describe(alt.hardware()), " | ",
                    v1::Strategy_Name(alt.distribution().strategy()), "\n");
  }
  absl::StrAppend(&out, "rejected (", r.rejected_size(), "):\n");
  for (const Rejection& rej : r.rejected()) {
    absl::StrAppend(&out, "  - ", Describe(rej.hardware()), " : ",
                    CodesToString(rej.codes()), " -- ", rej.reason(), "\n");
  }
  absl::StrAppend(&out, "remedies (", r.remedies_size(), "):\n");
  for (const Remedy& remedy : r.remedies()) {
    absl::StrAppend(&out, "  - ", DescribeRemedy(remedy), "\n");
  }
  for (const v1::Reason& w : r.warnings()) {
    absl::StrAppend(&out, "warning: ", v1::ReasonCode_Name(w.code()), " ",
                    w.message(), "\n");
  }
  return out;
}

std::string Summary(const ReviewPlanResponse& r) {
  std::string out = "---- ReviewPlan response summary\n";
  for (const ProposalVerdict& v : r.verdicts()) {
    absl::StrAppend(&out, "  ", v.label(), " (#", v.index(),
                    "): ", v1::Verdict_Name(v.verdict()), " [",
                    CodesToString(v.codes()), "] ", v.reason(), "\n");
  }
  for (const v1::Reason& w : r.warnings()) {
    absl::StrAppend(&out, "warning: ", v1::ReasonCode_Name(w.code()), " ",
                    w.message(), "\n");
  }
  return out;
}

// Prints the response summary once, at the end of a test that failed.
class PrintOnFailure {
 public:
  explicit PrintOnFailure(std::string summary) : summary_(std::move(summary)) {}
  ~PrintOnFailure() {
    if (::testing::Test::HasFailure() || SummaryAlways()) {
      std::cout << summary_ << std::flush;
    }
  }

 private:
  std::string summary_;
};

std::string ToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

void MaybeDump(const std::string& what, const google::protobuf::Message& m) {
  if (!DumpEnabled()) return;
  std::cout << "==== " << what << "\n" << ToJson(m) << std::flush;
}

// ------------------------------------------------------------ calling

::testing::AssertionResult LoadExample(const std::string& file,
                                       google::protobuf::Message* request) {
  const std::string path = absl::StrCat(ExamplesDir(), "/", file);
  std::ifstream in(path);
  if (!in) return ::testing::AssertionFailure() << "cannot read " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(
      buffer.str(), request, options);
  if (!status.ok()) {
    return ::testing::AssertionFailure()
           << path << " is not a valid " << request->GetTypeName() << ": "
           << status.ToString();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult ServerUp() {
  if (g_env == nullptr || g_env->stub() == nullptr) {
    return ::testing::AssertionFailure()
           << "no server: "
           << (g_env == nullptr ? "environment missing"
                                : g_env->startup_error());
  }
  return ::testing::AssertionSuccess();
}

void SetDeadline(grpc::ClientContext* context) {
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(kRpcDeadlineSeconds));
}

::testing::AssertionResult RpcFailure(const std::string& what,
                                      const grpc::Status& status) {
  return ::testing::AssertionFailure()
         << what << " failed: code " << status.error_code() << " "
         << status.error_message();
}

::testing::AssertionResult Call(const std::string& what,
                                const PlanTrainingRequest& request,
                                PlanTrainingResponse* response) {
  if (auto up = ServerUp(); !up) return up;
  grpc::ClientContext context;
  SetDeadline(&context);
  grpc::Status status =
      g_env->stub()->PlanTraining(&context, request, response);
  if (!status.ok())
    return RpcFailure(absl::StrCat("PlanTraining ", what), status);
  MaybeDump(absl::StrCat("PlanTraining ", what), *response);
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult Call(const std::string& what,
                                const ReviewPlanRequest& request,
                                ReviewPlanResponse* response) {
  if (auto up = ServerUp(); !up) return up;
  grpc::ClientContext context;
  SetDeadline(&context);
  grpc::Status status = g_env->stub()->ReviewPlan(&context, request, response);
  if (!status.ok())
    return RpcFailure(absl::StrCat("ReviewPlan ", what), status);
  MaybeDump(absl::StrCat("ReviewPlan ", what), *response);
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult Call(const std::string& what,
                                const ListAcceleratorsRequest& request,
                                ListAcceleratorsResponse* response) {
  if (auto up = ServerUp(); !up) return up;
  grpc::ClientContext context;
  SetDeadline(&context);
  grpc::Status status =
      g_env->stub()->ListAccelerators(&context, request, response);
  if (!status.ok()) {
    return RpcFailure(absl::StrCat("ListAccelerators ", what), status);
  }
  MaybeDump(absl::StrCat("ListAccelerators ", what), *response);
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult PlanExample(const std::string& file,
                                       PlanTrainingResponse* response) {
  PlanTrainingRequest request;
  if (auto loaded = LoadExample(file, &request); !loaded) return loaded;
  return Call(file, request, response);
}

::testing::AssertionResult ReviewExample(const std::string& file,
                                         ReviewPlanResponse* response) {
  ReviewPlanRequest request;
  if (auto loaded = LoadExample(file, &request); !loaded) return loaded;
  if (auto called = Call(file, request, response); !called) return called;
  // Every proposal gets exactly one verdict; at most one is RECOMMENDED.
  std::string problems;
  for (const v1::Proposal& p : request.proposals()) {
    const auto n = std::count_if(
        response->verdicts().begin(), response->verdicts().end(),
        [&](const ProposalVerdict& v) { return v.label() == p.label(); });
    if (n != 1) {
      absl::StrAppend(&problems, "proposal ", p.label(), " has ", n,
                      " verdicts; ");
    }
  }
  const auto recommended = std::count_if(
      response->verdicts().begin(), response->verdicts().end(),
      [](const ProposalVerdict& v) { return v.verdict() == v1::RECOMMENDED; });
  if (recommended > 1) {
    absl::StrAppend(&problems, recommended, " proposals are RECOMMENDED; ");
  }
  if (!problems.empty()) {
    return ::testing::AssertionFailure() << file << ": " << problems << "\n"
                                         << Summary(*response);
  }
  return ::testing::AssertionSuccess();
}

// The whole catalog, fetched once per binary.
const ListAcceleratorsResponse& Catalog() {
  static const ListAcceleratorsResponse* catalog = [] {
    auto* response = new ListAcceleratorsResponse();
    ListAcceleratorsRequest request;
    request.set_include_legacy(true);
    EXPECT_TRUE(Call("(whole catalog)", request, response));
    return response;
  }();
  return *catalog;
}

// The catalog row of a planned machine: by machine type, else accelerator.
const AcceleratorInfo* FindCatalogEntry(const Hardware& hw) {
  const ListAcceleratorsResponse& catalog = Catalog();
  if (!hw.machine_type().empty()) {
    for (const AcceleratorInfo& info : catalog.accelerators()) {
      if (info.machine_type() == hw.machine_type()) return &info;
    }
  }
  if (!hw.accelerator().empty()) {
    for (const AcceleratorInfo& info : catalog.accelerators()) {
      if (info.accelerator() == hw.accelerator()) return &info;
    }
  }
  return nullptr;
}

// ------------------------------------------------------------ matching

// Selects hardware entries the way a reader of the seeds names them.
struct HardwareSelector {
  std::string description;
  std::function<bool(const Hardware&)> matches;
};

HardwareSelector AnyOf(Platform platform) {
  return {absl::StrCat("any ", v1::Platform_Name(platform)),
          [platform](const Hardware& hw) { return hw.platform() == platform; }};
}

// `version` as in "v5p", "v5e", "v6e", "7x"; matched against the series,
// the accelerator id and its name, ignoring case and punctuation.
HardwareSelector Tpu(const std::string& version,
                     std::vector<std::string> aliases = {}) {
  aliases.push_back(version);
  return {absl::StrCat("TPU ", version), [aliases](const Hardware& hw) {
            if (hw.platform() != v1::TPU) return false;
            for (const std::string& alias : aliases) {
              const std::string a = Norm(alias);
              if (absl::StrContains(Norm(hw.series()), a) ||
                  absl::StrContains(Norm(hw.accelerator()), a) ||
                  absl::StrContains(Norm(hw.accelerator_name()), a)) {
                return true;
              }
            }
            return false;
          }};
}
HardwareSelector TpuV5e() { return Tpu("v5e", {"v5lite"}); }
HardwareSelector TpuV6e() { return Tpu("v6e", {"trillium"}); }
HardwareSelector Tpu7x() { return Tpu("7x", {"ironwood"}); }

bool HasCode(const google::protobuf::RepeatedField<int>& codes,
             ReasonCode code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

std::string CodeNames(const std::vector<ReasonCode>& codes) {
  std::vector<std::string> names;
  for (ReasonCode c : codes) names.push_back(v1::ReasonCode_Name(c));
  return absl::StrJoin(names, "/");
}

// "Rejected with CODE": at least one rejected entry matches, every matching
// entry carries one of `any_of`, and nothing matching is recommended or
// offered as an alternative.
::testing::AssertionResult RejectedWith(const PlanTrainingResponse& r,
                                        const HardwareSelector& selector,
                                        const std::vector<ReasonCode>& any_of) {
  std::string problems;
  int matched = 0;
  for (const Rejection& rej : r.rejected()) {
    if (!selector.matches(rej.hardware())) continue;
    ++matched;
    const bool ok =
        std::any_of(any_of.begin(), any_of.end(),
                    [&](ReasonCode c) { return HasCode(rej.codes(), c); });
    if (!ok) {
      absl::StrAppend(&problems, "\n  rejected ", Describe(rej.hardware()),
                      " carries [", CodesToString(rej.codes()), "], not ",
                      CodeNames(any_of));
    }
  }
  if (matched == 0) {
    absl::StrAppend(&problems, "\n  no rejected entry is ",
                    selector.description);
  }
  if (r.has_recommendation() &&
      selector.matches(r.recommendation().hardware())) {
    absl::StrAppend(&problems, "\n  the recommendation is ",
                    selector.description, ": ",
                    Describe(r.recommendation().hardware()));
  }
  for (const Plan& alt : r.alternatives()) {
    if (selector.matches(alt.hardware())) {
      absl::StrAppend(&problems, "\n  an alternative is ", selector.description,
                      ": ", Describe(alt.hardware()));
    }
  }
  if (problems.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected " << selector.description << " rejected with "
         << CodeNames(any_of) << ":" << problems;
}

::testing::AssertionResult RecommendationIs(const PlanTrainingResponse& r,
                                            const HardwareSelector& selector) {
  if (!r.has_recommendation()) {
    return ::testing::AssertionFailure()
           << "expected a recommendation on " << selector.description
           << ", got none (no_plan_reason: " << r.no_plan_reason() << ")";
  }
  if (!selector.matches(r.recommendation().hardware())) {
    return ::testing::AssertionFailure()
           << "expected the recommendation on " << selector.description
           << ", got " << Describe(r.recommendation().hardware());
  }
  return ::testing::AssertionSuccess();
}

const ProposalVerdict* FindVerdict(const ReviewPlanResponse& r,
                                   const std::string& label) {
  for (const ProposalVerdict& v : r.verdicts()) {
    if (v.label() == label) return &v;
  }
  return nullptr;
}

// The verdict for `label` is `expected` and, when `any_of` is given,
// carries at least one of those codes.
::testing::AssertionResult VerdictIs(
    const ReviewPlanResponse& r, const std::string& label, Verdict expected,
    const std::vector<ReasonCode>& any_of = {}) {
  const ProposalVerdict* v = FindVerdict(r, label);
  if (v == nullptr) {
    return ::testing::AssertionFailure() << "no verdict for proposal " << label;
  }
  if (v->verdict() != expected) {
    return ::testing::AssertionFailure()
           << "proposal " << label << ": expected "
           << v1::Verdict_Name(expected) << ", got "
           << v1::Verdict_Name(v->verdict()) << " ["
           << CodesToString(v->codes()) << "] " << v->reason();
  }
  if (!any_of.empty() &&
      std::none_of(any_of.begin(), any_of.end(),
                   [&](ReasonCode c) { return HasCode(v->codes(), c); })) {
    return ::testing::AssertionFailure()
           << "proposal " << label << ": " << v1::Verdict_Name(expected)
           << " but with [" << CodesToString(v->codes()) << "], expected "
           << CodeNames(any_of) << " -- " << v->reason();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult VerdictIsNot(const ReviewPlanResponse& r,
                                        const std::string& label,
                                        Verdict unwanted) {
  const ProposalVerdict* v = FindVerdict(r, label);
  if (v == nullptr) {
    return ::testing::AssertionFailure() << "no verdict for proposal " << label;
  }
  if (v->verdict() == unwanted) {
    return ::testing::AssertionFailure()
           << "proposal " << label << " must not be "
           << v1::Verdict_Name(unwanted) << " [" << CodesToString(v->codes())
           << "] " << v->reason();
  }
  return ::testing::AssertionSuccess();
}

// Reduction Server in the plan: a pool in the recommended distribution, or
// a remedy that adds one.
::testing::AssertionResult PlansReductionServer(const PlanTrainingResponse& r) {
  if (r.has_recommendation() &&
      r.recommendation().distribution().reduction_server().replica_count() >
          0) {
    return ::testing::AssertionSuccess();
  }
  for (const Remedy& remedy : r.remedies()) {
    if (remedy.kind() == v1::ADD_REDUCTION_SERVER) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure()
         << "no Reduction Server pool in the recommended distribution and no "
            "ADD_REDUCTION_SERVER remedy";
}

// ------------------------------------------------------------ Q1–Q6

TEST(SeedScenarios, Q1_LargeTensorflowModelGoesToTpu) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("q1_large_tensorflow_model_plan.json", &r));
  PrintOnFailure print(Summary(r));
  ASSERT_TRUE(RecommendationIs(r, AnyOf(v1::TPU)));
  const Hardware& hw = r.recommendation().hardware();
  // A version that runs (stable) TensorFlow: v6e only runs tf-nightly and
  // TPU7x none (SPEC §4).
  EXPECT_FALSE(TpuV6e().matches(hw)) << Describe(hw);
  EXPECT_FALSE(Tpu7x().matches(hw)) << Describe(hw);
  // And the catalog itself lists it among the TPUs that run TensorFlow.
  ListAcceleratorsRequest tf_tpus;
  tf_tpus.add_platforms(v1::TPU);
  tf_tpus.set_framework(v1::TENSORFLOW);
  ListAcceleratorsResponse listed;
  ASSERT_TRUE(Call("TPUs running TensorFlow", tf_tpus, &listed));
  const bool runs_tf =
      std::any_of(listed.accelerators().begin(), listed.accelerators().end(),
                  [&](const AcceleratorInfo& info) {
                    return (!hw.machine_type().empty() &&
                            info.machine_type() == hw.machine_type()) ||
                           (hw.machine_type().empty() &&
                            info.accelerator() == hw.accelerator());
                  });
  EXPECT_TRUE(runs_tf) << Describe(hw)
                       << " is not among the catalog's TPUs that run "
                          "TensorFlow (ListAccelerators platforms=TPU "
                          "framework=TENSORFLOW)";
}

TEST(SeedScenarios, Q2_PytorchGoesToGpuAndTpusAreFrameworkUnsupported) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("q2_pytorch_small_mid_model_plan.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(RecommendationIs(r, AnyOf(v1::GPU)));
  EXPECT_TRUE(RejectedWith(r, AnyOf(v1::TPU), {v1::FRAMEWORK_UNSUPPORTED}));
}

TEST(SeedScenarios, Q3_AllReduceBottleneckGetsReductionServer) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("q3_gpu_allreduce_bottleneck_plan.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(PlansReductionServer(r));
}

TEST(SeedScenarios, Q4_OnDeviceOfflineInferenceGoesToEdgeTpu) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("q4_on_device_offline_inference_plan.json", &r));
  PrintOnFailure print(Summary(r));
  ASSERT_TRUE(RecommendationIs(r, AnyOf(v1::EDGE)));
  const Hardware& hw = r.recommendation().hardware();
  const std::string all =
      Norm(absl::StrCat(hw.series(), hw.accelerator(), hw.accelerator_name()));
  EXPECT_TRUE(absl::StrContains(all, "coral") ||
              absl::StrContains(all, "edgetpu"))
      << "expected the Coral Edge TPU, got " << Describe(hw);
}

TEST(SeedScenarios, Q4_EdgeRejectedNotForTrainingForATrainingRequest) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("q4_edge_model_cloud_training_plan.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(RejectedWith(r, AnyOf(v1::EDGE), {v1::NOT_FOR_TRAINING}));
}

std::vector<std::string> ExampleFiles();
bool IsPlanExample(const std::string& name);

// "For any training request": every training example, not just Q4's.
TEST(SeedScenarios, Q4_EdgeRejectedNotForTrainingInEveryTrainingExample) {
  int training_examples = 0;
  for (const std::string& f : ExampleFiles()) {
    if (!IsPlanExample(f)) continue;
    PlanTrainingRequest request;
    ASSERT_TRUE(LoadExample(f, &request));
    if (request.workload().deployment_target() == v1::ON_DEVICE_INFERENCE) {
      continue;
    }
    // Where the request itself excludes edge, NOT_IN_ALLOWED_SET may be the
    // only code the edge rows carry.
    const v1::Constraints& c = request.constraints();
    const bool edge_excluded =
        !c.allowed_series().empty() ||
        (!c.allowed_platforms().empty() &&
         std::find(c.allowed_platforms().begin(), c.allowed_platforms().end(),
                   v1::EDGE) == c.allowed_platforms().end());
    if (edge_excluded) continue;
    ++training_examples;
    PlanTrainingResponse r;
    ASSERT_TRUE(Call(f, request, &r));
    EXPECT_TRUE(RejectedWith(r, AnyOf(v1::EDGE), {v1::NOT_FOR_TRAINING}))
        << "in " << f;
  }
  EXPECT_GT(training_examples, 0);
}

TEST(SeedScenarios, Q5_FrameworkAgnosticDistributionUsesHorovod) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("q5_framework_agnostic_distribution_plan.json", &r));
  PrintOnFailure print(Summary(r));
  const bool in_plan =
      r.has_recommendation() &&
      (r.recommendation().distribution().horovod() ||
       r.recommendation().distribution().strategy() == v1::HOROVOD);
  const bool as_remedy =
      std::any_of(r.remedies().begin(), r.remedies().end(),
                  [](const Remedy& m) { return m.kind() == v1::USE_HOROVOD; });
  EXPECT_TRUE(in_plan || as_remedy)
      << "expected Horovod in the recommended distribution (horovod=true or "
         "strategy HOROVOD) or a USE_HOROVOD remedy";
}

TEST(SeedScenarios, Q6_SmallClassicalModelGoesToCpuAndTpusAreUnsupported) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("q6_small_scikit_learn_model_plan.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(RecommendationIs(r, AnyOf(v1::CPU)));
  EXPECT_TRUE(RejectedWith(r, AnyOf(v1::TPU), {v1::FRAMEWORK_UNSUPPORTED}));
}

// ------------------------------------------------------------ S1–S7

TEST(SeedScenarios, S1_Review_EmbeddingRankingPicksV5pOverSmallHbm) {
  ReviewPlanResponse r;
  ASSERT_TRUE(ReviewExample("s1_embedding_ranking_review.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(VerdictIs(r, "A", v1::RECOMMENDED));
  EXPECT_TRUE(VerdictIs(r, "B", v1::REJECTED, {v1::HBM_TOO_SMALL}));
  EXPECT_TRUE(VerdictIs(r, "C", v1::REJECTED, {v1::HBM_TOO_SMALL}));
  EXPECT_TRUE(VerdictIsNot(r, "D", v1::RECOMMENDED));
}

TEST(SeedScenarios, S1_Plan_EmbeddingRankingGetsTpuWith60GiBAndSparseCores) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("s1_embedding_ranking_plan.json", &r));
  PrintOnFailure print(Summary(r));
  ASSERT_TRUE(RecommendationIs(r, AnyOf(v1::TPU)));
  const Hardware& hw = r.recommendation().hardware();
  const AcceleratorInfo* info = FindCatalogEntry(hw);
  ASSERT_NE(info, nullptr) << "recommended " << Describe(hw)
                           << " is not in ListAccelerators";
  EXPECT_GE(info->memory_per_accelerator_gib(), 60.0) << Describe(hw);
  EXPECT_GT(info->sparse_cores(), 0) << Describe(hw);
  if (hw.memory_per_accelerator_gib() > 0) {
    EXPECT_GE(hw.memory_per_accelerator_gib(), 60.0) << Describe(hw);
  }
}

TEST(SeedScenarios, S2_Review_HeavyPaddingIsFixedByTensorShapes) {
  ReviewPlanResponse r;
  ASSERT_TRUE(ReviewExample("s2_tpu_padding_shapes_review.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(VerdictIs(
      r, "A", v1::REJECTED,
      {v1::CHANGES_PINNED_HARDWARE, v1::DOES_NOT_ADDRESS_BOTTLENECK}));
  EXPECT_TRUE(VerdictIs(r, "B", v1::RECOMMENDED));
  EXPECT_TRUE(
      VerdictIs(r, "C", v1::REJECTED, {v1::DOES_NOT_ADDRESS_BOTTLENECK}));
  EXPECT_TRUE(
      VerdictIs(r, "D", v1::REJECTED, {v1::DOES_NOT_ADDRESS_BOTTLENECK}));
}

TEST(SeedScenarios, S2_Plan_HeavyPaddingRemedyRoundsBatchAndWidths) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("s2_tpu_padding_shapes_plan.json", &r));
  PrintOnFailure print(Summary(r));
  const Remedy* fix = nullptr;
  for (const Remedy& m : r.remedies()) {
    if (m.kind() == v1::FIX_TENSOR_SHAPES) fix = &m;
  }
  ASSERT_NE(fix, nullptr) << "no FIX_TENSOR_SHAPES remedy";
  // Batch 100 → multiple of 64 → 128; width 300 → multiple of 128 → 384.
  EXPECT_EQ(fix->global_batch_size(), 128) << DescribeRemedy(*fix);
  EXPECT_EQ(std::vector<int64_t>(fix->layer_widths().begin(),
                                 fix->layer_widths().end()),
            std::vector<int64_t>({384}))
      << DescribeRemedy(*fix);
  // The team keeps its v5e.
  if (r.has_recommendation()) {
    EXPECT_TRUE(RecommendationIs(r, TpuV5e()));
  }
}

TEST(SeedScenarios, S3_Review_GradientSyncBoundGetsReductionServer) {
  ReviewPlanResponse r;
  ASSERT_TRUE(ReviewExample("s3_gradient_sync_bound_review.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(VerdictIs(r, "A", v1::RECOMMENDED));
  EXPECT_TRUE(
      VerdictIs(r, "B", v1::REJECTED, {v1::DOES_NOT_ADDRESS_BOTTLENECK}));
  EXPECT_TRUE(
      VerdictIs(r, "C", v1::REJECTED, {v1::DOES_NOT_ADDRESS_BOTTLENECK}));
  EXPECT_TRUE(
      VerdictIs(r, "D", v1::REJECTED, {v1::DOES_NOT_ADDRESS_BOTTLENECK}));
}

TEST(SeedScenarios, S3_Plan_GradientSyncBoundGetsReductionServer) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("s3_gradient_sync_bound_plan.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(PlansReductionServer(r));
}

TEST(SeedScenarios, S4_Review_LoraOnOneHostPicksG4) {
  ReviewPlanResponse r;
  ASSERT_TRUE(ReviewExample("s4_lora_single_host_gpu_review.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(VerdictIs(r, "A", v1::REJECTED, {v1::OVERSIZED_FOR_WORKLOAD}));
  EXPECT_TRUE(VerdictIs(r, "B", v1::REJECTED, {v1::OVERSIZED_FOR_WORKLOAD}));
  EXPECT_TRUE(VerdictIs(r, "C", v1::REJECTED, {v1::PRECISION_UNSUPPORTED}));
  EXPECT_TRUE(VerdictIs(r, "D", v1::RECOMMENDED));
}

TEST(SeedScenarios, S4_Plan_LoraOnOneHostGetsSingleHostGSeries) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("s4_lora_single_host_gpu_plan.json", &r));
  PrintOnFailure print(Summary(r));
  ASSERT_TRUE(RecommendationIs(r, AnyOf(v1::GPU)));
  const Hardware& hw = r.recommendation().hardware();
  const std::string series = Norm(hw.series());
  EXPECT_TRUE(absl::StartsWith(series, "g") ||
              absl::StartsWith(hw.machine_type(), "g"))
      << "expected a G-series machine, got " << Describe(hw);
  EXPECT_EQ(hw.hosts(), 1) << Describe(hw);
}

TEST(SeedScenarios, S5_Review_TensorflowOnServerlessTpuPicksV5e) {
  ReviewPlanResponse r;
  ASSERT_TRUE(ReviewExample("s5_tensorflow_serverless_tpu_review.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(VerdictIs(r, "A", v1::REJECTED, {v1::FRAMEWORK_UNSUPPORTED}));
  EXPECT_TRUE(VerdictIs(r, "C", v1::RECOMMENDED));
}

TEST(SeedScenarios, S5_Plan_TensorflowOnServerlessTpuGetsV5e) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("s5_tensorflow_serverless_tpu_plan.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(RecommendationIs(r, TpuV5e()));
  EXPECT_TRUE(RejectedWith(r, TpuV6e(), {v1::FRAMEWORK_UNSUPPORTED}));
  EXPECT_TRUE(RejectedWith(r, Tpu7x(), {v1::FRAMEWORK_UNSUPPORTED}));
}

TEST(SeedScenarios, S6_Review_MultisliceRunsDataParallelOverDcn) {
  ReviewPlanResponse r;
  ASSERT_TRUE(ReviewExample("s6_multislice_fsdp_review.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(VerdictIs(r, "A", v1::RECOMMENDED));
  EXPECT_TRUE(VerdictIs(r, "B", v1::REJECTED, {v1::COMMUNICATION_BOUND}));
  EXPECT_TRUE(VerdictIs(r, "C", v1::REJECTED, {v1::NO_SHARED_MODEL}));
  EXPECT_TRUE(VerdictIs(r, "D", v1::VIABLE, {v1::SLOWER}));
}

TEST(SeedScenarios, S6_Plan_MultisliceSetsDcnDataParallelismToSlices) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("s6_multislice_fsdp_plan.json", &r));
  PrintOnFailure print(Summary(r));
  ASSERT_TRUE(RecommendationIs(r, AnyOf(v1::TPU)));
  const Plan& plan = r.recommendation();
  EXPECT_EQ(plan.hardware().slices(), 4) << Describe(plan.hardware());
  EXPECT_EQ(plan.distribution().multislice().dcn_data_parallelism(), 4)
      << DescribeDistribution(plan.distribution());
  EXPECT_LE(plan.distribution().multislice().dcn_tensor_parallelism(), 1)
      << DescribeDistribution(plan.distribution());
}

TEST(SeedScenarios, S7_Review_Fp64RejectsTpusOneSliceOrMultislice) {
  ReviewPlanResponse r;
  ASSERT_TRUE(ReviewExample("s7_fp64_loss_review.json", &r));
  PrintOnFailure print(Summary(r));
  EXPECT_TRUE(VerdictIs(r, "A", v1::REJECTED, {v1::PRECISION_UNSUPPORTED}));
  EXPECT_TRUE(VerdictIs(r, "C", v1::REJECTED, {v1::PRECISION_UNSUPPORTED}));
}

TEST(SeedScenarios, S7_Plan_Fp64GetsAcceleratorWithFp64AtLeast5Tflops) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("s7_fp64_loss_plan.json", &r));
  PrintOnFailure print(Summary(r));
  ASSERT_TRUE(r.has_recommendation()) << r.no_plan_reason();
  const Hardware& hw = r.recommendation().hardware();
  EXPECT_NE(hw.platform(), v1::TPU) << Describe(hw);
  const AcceleratorInfo* info = FindCatalogEntry(hw);
  ASSERT_NE(info, nullptr) << "recommended " << Describe(hw)
                           << " is not in ListAccelerators";
  EXPECT_GE(info->peak_fp64_tflops(), 5.0)
      << Describe(hw) << " (catalog machine " << info->machine_type() << ")";
}

// ------------------------------------------------------------ F1–F2

TEST(SeedScenarios, F1_ModelFitsOneDeviceAndScalesWithDataParallelism) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("f1_data_parallel_speedup_plan.json", &r));
  PrintOnFailure print(Summary(r));
  ASSERT_TRUE(r.has_recommendation()) << r.no_plan_reason();
  const Plan& plan = r.recommendation();
  EXPECT_EQ(plan.distribution().strategy(), v1::DATA_PARALLEL)
      << DescribeDistribution(plan.distribution());
  EXPECT_GE(plan.hardware().total_accelerators(), 2)
      << Describe(plan.hardware());
  if (plan.distribution().data_parallelism() > 0) {
    EXPECT_EQ(plan.distribution().data_parallelism(),
              plan.hardware().total_accelerators())
        << "every accelerator holds a full replica";
  }
  // The request's hard 10 h deadline is what asks for the speed-up.
  if (plan.estimates().total_hours().expected() > 0) {
    EXPECT_LE(plan.estimates().total_hours().expected(), 10.0);
  }
}

TEST(SeedScenarios, F2_ModelTooLargeForOneDeviceUsesModelParallelism) {
  PlanTrainingResponse r;
  ASSERT_TRUE(PlanExample("f2_model_too_large_for_one_device_plan.json", &r));
  PrintOnFailure print(Summary(r));
  ASSERT_TRUE(r.has_recommendation()) << r.no_plan_reason();
  const Plan& plan = r.recommendation();
  const std::set<Strategy> model_parallel = {v1::FSDP, v1::TENSOR_PARALLEL,
                                             v1::PIPELINE_PARALLEL, v1::HYBRID};
  EXPECT_TRUE(model_parallel.count(plan.distribution().strategy()) > 0)
      << "expected FSDP/TENSOR_PARALLEL/PIPELINE_PARALLEL/HYBRID, got "
      << DescribeDistribution(plan.distribution());
  EXPECT_GE(plan.hardware().total_accelerators(), 2)
      << Describe(plan.hardware());
}

// ------------------------------------------------------------ examples

enum class Rpc { kPlan, kReview, kCatalog };

// SPEC §2: `review` in the name → ReviewPlan, `catalog` → ListAccelerators,
// anything else → PlanTraining.
Rpc RpcForExample(const std::string& name) {
  if (absl::StrContains(name, "review")) return Rpc::kReview;
  if (absl::StrContains(name, "catalog")) return Rpc::kCatalog;
  return Rpc::kPlan;
}

bool IsPlanExample(const std::string& name) {
  return RpcForExample(name) == Rpc::kPlan;
}

std::vector<std::string> ExampleFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(ExamplesDir())) {
    if (entry.path().extension() == ".json") {
      files.push_back(entry.path().filename().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Examples, NamesFollowTheContractAndCoverEverySeedScenario) {
  const std::vector<std::string> files = ExampleFiles();
  ASSERT_FALSE(files.empty()) << ExamplesDir();
  for (const std::string& f : files) {
    EXPECT_FALSE(absl::StrContains(f, "review") &&
                 absl::StrContains(f, "catalog"))
        << f << " names two RPCs";
  }
  auto has = [&](const std::string& prefix, Rpc rpc) {
    return std::any_of(files.begin(), files.end(), [&](const std::string& f) {
      return absl::StartsWith(f, prefix) && RpcForExample(f) == rpc;
    });
  };
  for (const char* id :
       {"q1_", "q2_", "q3_", "q4_", "q5_", "q6_", "f1_", "f2_"}) {
    EXPECT_TRUE(has(id, Rpc::kPlan)) << "no plan example for " << id;
  }
  for (const char* id : {"s1_", "s2_", "s3_", "s4_", "s5_", "s6_", "s7_"}) {
    EXPECT_TRUE(has(id, Rpc::kPlan)) << "no plan example for " << id;
    EXPECT_TRUE(has(id, Rpc::kReview)) << "no review example for " << id;
  }
  EXPECT_TRUE(has("catalog", Rpc::kCatalog));
}

TEST(Examples, EveryFileParsesAndTheServerAcceptsIt) {
  for (const std::string& f : ExampleFiles()) {
    SCOPED_TRACE(f);
    switch (RpcForExample(f)) {
      case Rpc::kPlan: {
        PlanTrainingResponse r;
        EXPECT_TRUE(PlanExample(f, &r));
        break;
      }
      case Rpc::kReview: {
        ReviewPlanRequest request;
        ASSERT_TRUE(LoadExample(f, &request));
        EXPECT_GT(request.proposals_size(), 0) << "a review without proposals";
        ReviewPlanResponse r;
        EXPECT_TRUE(Call(f, request, &r));
        break;
      }
      case Rpc::kCatalog: {
        ListAcceleratorsRequest request;
        ASSERT_TRUE(LoadExample(f, &request));
        ListAcceleratorsResponse r;
        EXPECT_TRUE(Call(f, request, &r));
        EXPECT_GT(r.accelerators_size(), 0);
        break;
      }
    }
  }
}

TEST(Examples, CatalogAllListsEveryPlatformWithSources) {
  ListAcceleratorsRequest request;
  ASSERT_TRUE(LoadExample("catalog_all.json", &request));
  ListAcceleratorsResponse r;
  ASSERT_TRUE(Call("catalog_all.json", request, &r));
  EXPECT_FALSE(r.catalog_version().empty());
  std::set<int> platforms;
  std::set<std::string> machine_types;
  for (const AcceleratorInfo& info : r.accelerators()) {
    platforms.insert(info.platform());
    EXPECT_TRUE(machine_types.insert(info.machine_type()).second)
        << "machine type listed twice: " << info.machine_type();
    EXPECT_FALSE(info.source_urls().empty())
        << info.machine_type() << " has no source URL";
  }
  for (Platform p : {v1::CPU, v1::GPU, v1::TPU, v1::EDGE}) {
    EXPECT_TRUE(platforms.count(p) > 0)
        << "no " << v1::Platform_Name(p) << " machine type in the catalog";
  }
}

TEST(Examples, CatalogTpuJaxListsOnlyTpus) {
  ListAcceleratorsRequest request;
  ASSERT_TRUE(LoadExample("catalog_tpu_jax.json", &request));
  ListAcceleratorsResponse r;
  ASSERT_TRUE(Call("catalog_tpu_jax.json", request, &r));
  EXPECT_GT(r.accelerators_size(), 0);
  for (const AcceleratorInfo& info : r.accelerators()) {
    EXPECT_EQ(info.platform(), v1::TPU) << info.machine_type();
  }
}

}  // namespace
}  // namespace accelplan

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  accelplan::g_env = new accelplan::ServerEnvironment();
  ::testing::AddGlobalTestEnvironment(accelplan::g_env);  // gtest owns it
  return RUN_ALL_TESTS();
}
