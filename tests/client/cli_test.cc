// The CLI's parsing layer: flags, shorthand values, JSON requests, help and
// exit codes. End-to-end runs of the binary are in test_cli.py.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "client/cli/commands.h"
#include "client/cli/flags.h"
#include "client/cli/proposals.h"
#include "client/cli/requests.h"
#include "client/cli/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace accelplan::cli {
namespace {

using ::testing::HasSubstr;

ParsedFlags MustParse(const std::vector<FlagSpec>& specs,
                      const std::vector<std::string>& args) {
  absl::StatusOr<ParsedFlags> flags = ParseFlags(specs, args);
  EXPECT_TRUE(flags.ok()) << flags.status();
  return flags.ok() ? *flags : ParsedFlags{};
}

std::vector<FlagSpec> PlanSpecs() {
  std::vector<FlagSpec> specs = WorkloadFlagSpecs();
  specs.push_back({"request", "FILE.json", "", "request"});
  specs.push_back({"view", "basic|full", "full", "view"});
  return specs;
}

// A request file in a fresh temporary folder.
class TempJson {
 public:
  explicit TempJson(const std::string& json) {
    path_ = std::filesystem::temp_directory_path() /
            ("accelplan_cli_test_" + std::to_string(::getpid()) + "_" +
             std::to_string(counter_++) + ".json");
    std::ofstream(path_) << json;
  }
  ~TempJson() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

TEST(ParseQuantityTest, AcceptsScientificPlainAndSuffixedCounts) {
  EXPECT_EQ(*ParseQuantity("7e9"), 7e9);
  EXPECT_EQ(*ParseQuantity("7000000000"), 7e9);
  EXPECT_EQ(*ParseQuantity("7B"), 7e9);
  EXPECT_EQ(*ParseQuantity("1.5T"), 1.5e12);
  EXPECT_EQ(*ParseQuantity("350M"), 3.5e8);
  EXPECT_EQ(*ParseQuantity("8B"), 8e9);
  EXPECT_EQ(*ParseQuantity("70b"), 7e10);
  EXPECT_EQ(*ParseQuantity("2e10"), 2e10);
  EXPECT_EQ(*ParseQuantity("5k"), 5000);
}

TEST(ParseQuantityTest, RejectsWordsAndNonFiniteValues) {
  EXPECT_FALSE(ParseQuantity("seven").ok());
  EXPECT_FALSE(ParseQuantity("").ok());
  EXPECT_FALSE(ParseQuantity("inf").ok());
  EXPECT_FALSE(ParseQuantity("nan").ok());
  EXPECT_FALSE(ParseQuantity("8X").ok());
  EXPECT_FALSE(ParseQuantity("B").ok());
}

TEST(ParseEnumTest, AcceptsLowerCaseNamesAndUniqueShortForms) {
  EXPECT_EQ(*ParseEnum(v1::Framework_descriptor(), "jax"), v1::JAX);
  EXPECT_EQ(*ParseEnum(v1::Framework_descriptor(), "scikit-learn"),
            v1::SCIKIT_LEARN);
  EXPECT_EQ(*ParseEnum(v1::Framework_descriptor(), "other"),
            v1::OTHER_FRAMEWORK);
  EXPECT_EQ(*ParseEnum(v1::Precision_descriptor(), "bf16"), v1::BF16_MIXED);
  EXPECT_EQ(*ParseEnum(v1::Precision_descriptor(), "fp64_required"),
            v1::FP64_REQUIRED);
  EXPECT_EQ(*ParseEnum(v1::RunPlatform_descriptor(), "vertex"),
            v1::VERTEX_TRAINING);
}

TEST(ParseEnumTest, RejectsUnknownAndUnspecifiedValues) {
  absl::StatusOr<int> bad = ParseEnum(v1::Framework_descriptor(), "caffe");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("jax|tensorflow|pytorch"));
  EXPECT_FALSE(
      ParseEnum(v1::Framework_descriptor(), "framework_unspecified").ok());
  EXPECT_FALSE(ParseEnum(v1::Framework_descriptor(), "").ok());
}

TEST(ParseFlagsTest, AcceptsEqualsSpaceAndBooleanForms) {
  ParsedFlags flags = MustParse(
      PlanSpecs(), {"--framework=jax", "--params", "7e9", "--single_host"});
  EXPECT_EQ(flags.Get("framework"), "jax");
  EXPECT_EQ(flags.Get("params"), "7e9");
  EXPECT_EQ(flags.Get("single_host"), "true");
  EXPECT_EQ(MustParse(PlanSpecs(), {"--nosingle_host"}).Get("single_host"),
            "false");
}

TEST(ParseFlagsTest, RejectsUnknownFlagsMissingValuesAndBadBooleans) {
  EXPECT_FALSE(ParseFlags(PlanSpecs(), {"--frameworks=jax"}).ok());
  EXPECT_FALSE(ParseFlags(PlanSpecs(), {"--params"}).ok());
  EXPECT_FALSE(ParseFlags(PlanSpecs(), {"--single_host=maybe"}).ok());
  EXPECT_FALSE(ParseFlags(PlanSpecs(), {"--params=1", "--params=2"}).ok());
}

TEST(BuildPlanRequestTest, FlagsFillTheRequest) {
  ParsedFlags flags = MustParse(
      PlanSpecs(),
      {"--framework=pytorch", "--framework_version=2.4", "--params=7e9",
       "--method=lora", "--precision=bf16_mixed", "--objective=min_time",
       "--deadline_hours=48", "--budget_usd=5000", "--single_host",
       "--platform=gpu,tpu", "--platform=gke", "--view=basic"});
  absl::StatusOr<v1::PlanTrainingRequest> request = BuildPlanRequest(flags);
  ASSERT_TRUE(request.ok()) << request.status();
  EXPECT_EQ(request->workload().framework(), v1::PYTORCH);
  EXPECT_EQ(request->workload().framework_version(), "2.4");
  EXPECT_EQ(request->workload().parameter_count(), 7e9);
  EXPECT_EQ(request->workload().training_method(), v1::LORA);
  EXPECT_EQ(request->workload().precision(), v1::BF16_MIXED);
  EXPECT_EQ(request->goal().objective(), v1::MIN_TIME);
  EXPECT_EQ(request->goal().deadline_hours(), 48);
  EXPECT_EQ(request->goal().budget_usd(), 5000);
  EXPECT_TRUE(request->constraints().single_host_only());
  EXPECT_THAT(request->constraints().allowed_platforms(),
              ::testing::ElementsAre(v1::GPU, v1::TPU));
  EXPECT_EQ(request->constraints().run_platform(), v1::GKE);
  EXPECT_EQ(request->view(), v1::BASIC);
}

TEST(BuildPlanRequestTest, MixtureOfExpertsFlagsFillTheWorkload) {
  ParsedFlags flags =
      MustParse(PlanSpecs(), {"--params=46.7B", "--active_params=12.9B",
                              "--experts=8", "--experts_per_token=2"});
  absl::StatusOr<v1::PlanTrainingRequest> request = BuildPlanRequest(flags);
  ASSERT_TRUE(request.ok()) << request.status();
  EXPECT_EQ(request->workload().active_parameter_count(), 12.9e9);
  EXPECT_EQ(request->workload().num_experts(), 8);
  EXPECT_EQ(request->workload().experts_per_token(), 2);
  EXPECT_FALSE(BuildPlanRequest(MustParse(PlanSpecs(), {"--experts=many"}))
                   .ok());
  absl::StatusOr<v1::PlanTrainingRequest> cnn = BuildPlanRequest(
      MustParse(PlanSpecs(), {"--model_kind=cnn", "--forward_flops=7.6e9"}));
  ASSERT_TRUE(cnn.ok()) << cnn.status();
  EXPECT_EQ(cnn->workload().forward_flops_per_example(), 7.6e9);
}

TEST(BuildPlanRequestTest, FlagsOverrideAndExtendTheJsonFile) {
  // Proto field names and lowerCamelCase may be mixed, as the parser allows.
  TempJson file(R"({"workload": {"framework": "TENSORFLOW",
                                "parameter_count": 1e9,
                                "modelKind": "CNN"},
                   "constraints": {"allowedPlatforms": ["TPU"]}})");
  ParsedFlags flags =
      MustParse(PlanSpecs(), {"--request", file.path(), "--framework=jax",
                              "--platform=tpu", "--platform=cpu"});
  absl::StatusOr<v1::PlanTrainingRequest> request = BuildPlanRequest(flags);
  ASSERT_TRUE(request.ok()) << request.status();
  EXPECT_EQ(request->workload().framework(), v1::JAX);
  EXPECT_EQ(request->workload().parameter_count(), 1e9);
  EXPECT_EQ(request->workload().model_kind(), v1::CNN);
  EXPECT_THAT(request->constraints().allowed_platforms(),
              ::testing::ElementsAre(v1::TPU, v1::CPU));
}

TEST(BuildPlanRequestTest, RejectsInvalidJsonUnknownFieldsAndMissingFiles) {
  TempJson broken("{\"workload\": ");
  EXPECT_EQ(
      BuildPlanRequest(MustParse(PlanSpecs(), {"--request", broken.path()}))
          .status()
          .code(),
      absl::StatusCode::kInvalidArgument);
  TempJson typo(R"({"workload": {"framwork": "JAX"}})");
  EXPECT_FALSE(
      BuildPlanRequest(MustParse(PlanSpecs(), {"--request", typo.path()}))
          .ok());
  EXPECT_FALSE(BuildPlanRequest(
                   MustParse(PlanSpecs(), {"--request", "/nonexistent/x.json"}))
                   .ok());
}

TEST(BuildReviewRequestTest, NeedsProposals) {
  std::vector<FlagSpec> specs = PlanSpecs();
  EXPECT_FALSE(BuildReviewRequest(MustParse(specs, {"--framework=jax"})).ok());
  TempJson file(R"({"workload": {"framework": "JAX"},
                   "proposals": [{"label": "A",
                                  "hardware": {"accelerator": "tpu-v5p"}}]})");
  absl::StatusOr<v1::ReviewPlanRequest> request =
      BuildReviewRequest(MustParse(specs, {"--request", file.path()}));
  ASSERT_TRUE(request.ok()) << request.status();
  EXPECT_EQ(request->proposals(0).hardware().accelerator(), "tpu-v5p");
}

TEST(BuildPlanRequestTest, FlagsDescribeTheWholeJob) {
  ParsedFlags flags =
      MustParse(PlanSpecs(), {"--model=llama-3.1-8b",
                              "--tokens=2e8",
                              "--dataset_gib=50",
                              "--examples=1M",
                              "--epochs=2",
                              "--steps=1000",
                              "--seq_len=4096",
                              "--batch=512",
                              "--micro_batch=4",
                              "--optimizer=adam_bf16",
                              "--recompute=offload",
                              "--spot",
                              "--flex_start",
                              "--reservation",
                              "--checkpoints",
                              "--hard_deadline",
                              "--current=a3-highgpu-8g",
                              "--nodes=4",
                              "--slices=2",
                              "--topology=2x2x4",
                              "--observed_hours=30",
                              "--symptom=gradient_sync_bound,input_bound",
                              "--symptom=heavy_padding",
                              "--as_of=2026-10-01",
                              "--budget_usd=5k",
                              "--max_accelerators=64",
                              "--series=G4",
                              "--region=europe-west4",
                              "--nccl",
                              "--current_strategy=data_parallel",
                              "--pytorch_xla"});
  absl::StatusOr<v1::PlanTrainingRequest> request = BuildPlanRequest(flags);
  ASSERT_TRUE(request.ok()) << request.status();
  const v1::Workload& w = request->workload();
  EXPECT_EQ(w.model_name(), "llama-3.1-8b");
  EXPECT_EQ(w.dataset_tokens(), 2e8);
  EXPECT_EQ(w.dataset_gib(), 50);
  EXPECT_EQ(w.dataset_examples(), 1e6);
  EXPECT_EQ(w.epochs(), 2);
  EXPECT_EQ(w.steps(), 1000);
  EXPECT_EQ(w.transformer_shape().sequence_length(), 4096);
  EXPECT_EQ(w.global_batch_size(), 512);
  EXPECT_EQ(w.micro_batch_size(), 4);
  EXPECT_EQ(w.optimizer(), v1::ADAM_BF16);
  EXPECT_EQ(w.recompute(), v1::RECOMPUTE_OFFLOAD);
  EXPECT_TRUE(w.checkpoints());
  EXPECT_TRUE(w.pytorch_xla_ok());
  const v1::Constraints& c = request->constraints();
  EXPECT_TRUE(c.spot_allowed());
  EXPECT_TRUE(c.flex_start_allowed());
  EXPECT_TRUE(c.reservation_available());
  EXPECT_EQ(c.max_accelerators(), 64);
  EXPECT_THAT(c.allowed_series(), ::testing::ElementsAre("G4"));
  EXPECT_EQ(c.region(), "europe-west4");
  EXPECT_TRUE(request->goal().hard_deadline());
  EXPECT_EQ(request->goal().budget_usd(), 5000);
  const v1::CurrentSetup& s = request->current_setup();
  EXPECT_EQ(s.hardware(), "a3-highgpu-8g");
  EXPECT_EQ(s.node_count(), 4);
  EXPECT_EQ(s.slice_count(), 2);
  EXPECT_EQ(s.tpu_topology(), "2x2x4");
  EXPECT_EQ(s.observed_hours(), 30);
  EXPECT_TRUE(s.uses_nccl());
  EXPECT_EQ(s.strategy(), v1::DATA_PARALLEL);
  EXPECT_THAT(s.symptoms(),
              ::testing::ElementsAre(v1::GRADIENT_SYNC_BOUND, v1::INPUT_BOUND,
                                     v1::HEAVY_PADDING));
  EXPECT_EQ(request->as_of(), "2026-10-01");

  // Without the flags nothing is set.
  absl::StatusOr<v1::PlanTrainingRequest> empty =
      BuildPlanRequest(MustParse(PlanSpecs(), {"--params=7B"}));
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->has_current_setup());
  EXPECT_EQ(empty->workload().dataset_tokens(), 0);
  EXPECT_FALSE(empty->constraints().spot_allowed());
  EXPECT_TRUE(empty->as_of().empty());
}

TEST(BuildPlanRequestTest, RejectsBadJobValues) {
  for (const char* bad : {"--batch=1.5", "--steps=lots", "--symptom=bored",
                          "--tokens=many", "--seq_len=9e12", "--nodes=two",
                          "--current_strategy=magic", "--model_kind=huge"}) {
    absl::StatusOr<v1::PlanTrainingRequest> request =
        BuildPlanRequest(MustParse(PlanSpecs(), {bad}));
    ASSERT_FALSE(request.ok()) << bad;
    const std::string name(bad, std::string(bad).find('='));
    EXPECT_THAT(request.status().message(), HasSubstr(name)) << bad;
  }
}

TEST(BuildPlanRequestTest, HardwareAndRunOnWithPlatformAsTheirAlias) {
  absl::StatusOr<v1::PlanTrainingRequest> request = BuildPlanRequest(MustParse(
      PlanSpecs(), {"--hardware=gpu", "--hardware=tpu,gpu", "--run_on=gke"}));
  ASSERT_TRUE(request.ok()) << request.status();
  EXPECT_THAT(request->constraints().allowed_platforms(),
              ::testing::ElementsAre(v1::GPU, v1::TPU));
  EXPECT_EQ(request->constraints().run_platform(), v1::GKE);
  // The alias: the same request.
  absl::StatusOr<v1::PlanTrainingRequest> alias = BuildPlanRequest(
      MustParse(PlanSpecs(), {"--platform=gpu,tpu", "--platform=gke"}));
  ASSERT_TRUE(alias.ok()) << alias.status();
  EXPECT_EQ(alias->SerializeAsString(), request->SerializeAsString());
  // The same place twice is no conflict.
  EXPECT_TRUE(BuildPlanRequest(
                  MustParse(PlanSpecs(), {"--run_on=gke", "--platform=gke"}))
                  .ok());
}

TEST(BuildPlanRequestTest, ConflictingOrMisplacedPlatformsAreErrors) {
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"--platform=vertex,gke"},
           {"--run_on=gke", "--platform=vertex"},
           {"--hardware=vertex"},
           {"--run_on=tpu"},
           {"--platform=moon"}}) {
    absl::StatusOr<v1::PlanTrainingRequest> request =
        BuildPlanRequest(MustParse(PlanSpecs(), args));
    EXPECT_EQ(request.status().code(), absl::StatusCode::kInvalidArgument)
        << args[0];
  }
  absl::StatusOr<v1::PlanTrainingRequest> conflict =
      BuildPlanRequest(MustParse(PlanSpecs(), {"--platform=vertex,gke"}));
  EXPECT_THAT(conflict.status().message(), HasSubstr("conflicting"));
  // --run_on takes one value.
  EXPECT_FALSE(
      ParseFlags(PlanSpecs(), {"--run_on=vertex", "--run_on=gke"}).ok());
}

TEST(ParseProposalTest, EveryKindOfTheGrammar) {
  absl::StatusOr<v1::Proposal> machine =
      ParseProposal("machine:a3-highgpu-8g,count=32", "A");
  ASSERT_TRUE(machine.ok()) << machine.status();
  EXPECT_EQ(machine->label(), "A");
  EXPECT_EQ(machine->hardware().machine_type(), "a3-highgpu-8g");
  EXPECT_EQ(machine->hardware().count(), 32);

  absl::StatusOr<v1::Proposal> series =
      ParseProposal("series:A3 Ultra,count=8,label=ultra", "B");
  ASSERT_TRUE(series.ok()) << series.status();
  EXPECT_EQ(series->label(), "ultra");
  EXPECT_EQ(series->hardware().series(), "A3 Ultra");

  absl::StatusOr<v1::Proposal> tpu =
      ParseProposal("tpu:v5p,topology=4x4x4,slices=2,layout=fsdp,fsdp=64", "C");
  ASSERT_TRUE(tpu.ok()) << tpu.status();
  EXPECT_EQ(tpu->hardware().platform(), v1::TPU);
  EXPECT_EQ(tpu->hardware().accelerator(), "tpu-v5p");
  EXPECT_EQ(tpu->hardware().tpu_topology(), "4x4x4");
  EXPECT_EQ(tpu->hardware().slices(), 2);
  EXPECT_EQ(tpu->hardware().layout().strategy(), v1::FSDP);
  EXPECT_EQ(tpu->hardware().layout().fsdp_parallelism(), 64);
  EXPECT_EQ(ParseProposal("tpu:tpu7x", "D")->hardware().accelerator(), "tpu7x");
  EXPECT_EQ(ParseProposal("platform:cpu", "D")->hardware().platform(), v1::CPU);

  absl::StatusOr<v1::Proposal> strategy =
      ParseProposal("strategy:fsdp,dcn=data,slices=4", "E");
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->distribution().strategy(), v1::FSDP);
  EXPECT_EQ(strategy->distribution().across_slices(), v1::DCN_DATA);
  EXPECT_EQ(strategy->distribution().slices(), 4);
  EXPECT_EQ(strategy->distribution().mesh().dcn_data_parallelism(), 4);
  EXPECT_FALSE(
      ParseProposal("strategy:independent_models,dcn=none,slices=4", "F")
          ->distribution()
          .has_mesh());

  absl::StatusOr<v1::Proposal> shapes =
      ParseProposal("remedy:fix_tensor_shapes,batch=128,widths=384/512", "G");
  ASSERT_TRUE(shapes.ok()) << shapes.status();
  EXPECT_EQ(shapes->remedy().kind(), v1::FIX_TENSOR_SHAPES);
  EXPECT_EQ(shapes->remedy().global_batch_size(), 128);
  EXPECT_THAT(shapes->remedy().layer_widths(),
              ::testing::ElementsAre(384, 512));
  absl::StatusOr<v1::Proposal> move =
      ParseProposal("remedy:move_to_hardware,tpu=v6e", "H");
  ASSERT_TRUE(move.ok()) << move.status();
  EXPECT_EQ(move->remedy().target().accelerator(), "tpu-v6e");
  EXPECT_EQ(ParseProposal("remedy:reduction_server", "I")->remedy().kind(),
            v1::ADD_REDUCTION_SERVER);
}

TEST(ParseProposalTest, RejectsWhatTheGrammarDoesNotHave) {
  for (const char* bad :
       {"", "a3-highgpu-8g", "gpu:a100", "machine:", "machine:x,count=lots",
        "machine:x,count=-1", "machine:x,colour=red", "strategy:magic",
        "strategy:fsdp,dcn=sideways", "remedy:pray",
        "remedy:fix_tensor_shapes,widths=a/b", "tpu:v5p,slices"}) {
    absl::StatusOr<v1::Proposal> p = ParseProposal(bad, "A");
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_THAT(p.status().message(), HasSubstr("--propose")) << bad;
  }
}

TEST(BuildReviewRequestTest, ProposalsFromFlagsFollowTheFileAndAreLabelled) {
  std::vector<FlagSpec> specs = PlanSpecs();
  specs.push_back({"propose", "SPEC", "", "proposal", true});
  absl::StatusOr<v1::ReviewPlanRequest> request = BuildReviewRequest(
      MustParse(specs, {"--framework=pytorch", "--propose=series:G4",
                        "--propose", "remedy:add_reduction_server"}));
  ASSERT_TRUE(request.ok()) << request.status();
  ASSERT_EQ(request->proposals_size(), 2);
  EXPECT_EQ(request->proposals(0).label(), "A");
  EXPECT_EQ(request->proposals(0).hardware().series(), "G4");
  EXPECT_EQ(request->proposals(1).label(), "B");
  EXPECT_TRUE(request->proposals(1).has_remedy());
  EXPECT_FALSE(BuildReviewRequest(MustParse(specs, {"--propose=warp:9"})).ok());
}

TEST(ToJsonTest, PrintsLowerCamelCase) {
  v1::PlanTrainingResponse response;
  response.set_catalog_version("v1");
  response.set_no_plan_reason("nothing fits");
  const std::string json = ToJson(response);
  EXPECT_THAT(json, HasSubstr("\"catalogVersion\""));
  EXPECT_THAT(json, HasSubstr("\"noPlanReason\""));
  EXPECT_THAT(json, ::testing::Not(HasSubstr("catalog_version")));
}

// A map field prints in key order, however it was filled: the same plan
// prints the same bytes on every run (the map's own order is its hash's).
TEST(ToJsonTest, PrintsMapKeysInOrder) {
  const std::vector<std::string> keys = {"h", "c", "f", "a", "g", "b", "e", "d"};
  v1::PlanTrainingResponse response;
  auto* selectors = response.mutable_recommendation()
                        ->mutable_job_spec()
                        ->mutable_gke()
                        ->mutable_node_selectors();
  for (const std::string& k : keys) (*selectors)[k] = "v";
  const std::string json = ToJson(response);
  size_t last = 0;
  for (const char* k : {"a", "b", "c", "d", "e", "f", "g", "h"}) {
    const size_t at = json.find(absl::StrCat("\"", k, "\": \"v\""));
    ASSERT_NE(at, std::string::npos) << k << " in " << json;
    EXPECT_GT(at, last) << k << " out of order in " << json;
    last = at;
  }
}

TEST(PlanTableTest, ShowsRecommendationAlternativesAndEveryRejection) {
  v1::PlanTrainingResponse response;
  v1::Plan* best = response.mutable_recommendation();
  best->mutable_hardware()->set_machine_type("g4-standard-48");
  best->mutable_hardware()->set_platform(v1::GPU);
  best->mutable_distribution()->set_strategy(v1::DATA_PARALLEL);
  best->mutable_estimates()->set_price_known(true);
  best->mutable_estimates()->set_on_demand_hourly_usd(4.5);
  best->mutable_estimates()->mutable_total_hours()->set_expected(12);
  v1::Plan* alternative = response.add_alternatives();
  alternative->set_rank(2);
  alternative->mutable_hardware()->set_machine_type("a2-ultragpu-1g");
  v1::Reason* loses = alternative->add_reasons();
  loses->set_code(v1::HIGHER_COST);
  loses->set_message("costs $80 vs $54");
  for (const char* machine : {"a4-highgpu-8g", "n1-standard-8"}) {
    v1::Rejection* rejection = response.add_rejected();
    rejection->mutable_hardware()->set_machine_type(machine);
    rejection->add_codes(v1::OVERSIZED_FOR_WORKLOAD);
    rejection->set_reason(absl::StrCat(machine, " is 8x what the job needs"));
  }
  response.set_catalog_version("abc@2026-09-26");

  const std::string table = PlanTable(response);
  EXPECT_THAT(table, HasSubstr("RECOMMENDED: g4-standard-48"));
  EXPECT_THAT(table, HasSubstr("distribution: data_parallel"));
  EXPECT_THAT(table, HasSubstr("time: 12.0 h"));
  EXPECT_THAT(table, HasSubstr("$4.50/h on-demand"));
  EXPECT_THAT(table, HasSubstr("#2 a2-ultragpu-1g"));
  EXPECT_THAT(table, HasSubstr("HIGHER_COST: costs $80 vs $54"));
  EXPECT_THAT(table, HasSubstr("Rejected (2)"));
  EXPECT_THAT(table, HasSubstr("a4-highgpu-8g is 8x what the job needs"));
  EXPECT_THAT(table, HasSubstr("n1-standard-8 is 8x what the job needs"));
  EXPECT_THAT(table, HasSubstr("OVERSIZED_FOR_WORKLOAD"));
  EXPECT_THAT(table, HasSubstr("Catalog: abc@2026-09-26"));
}

TEST(PlanTableTest, SaysWhyNothingIsViable) {
  v1::PlanTrainingResponse response;
  response.set_no_plan_reason("fp64 rules out every allowed platform");
  EXPECT_THAT(
      PlanTable(response),
      HasSubstr("NO VIABLE PLAN: fp64 rules out every allowed platform"));
}

TEST(ExitCodeTest, MapsStatusesToTheContract) {
  EXPECT_EQ(ExitCodeFor(absl::OkStatus()), kExitOk);
  EXPECT_EQ(ExitCodeFor(absl::InvalidArgumentError("x")), kExitBadInput);
  EXPECT_EQ(ExitCodeFor(absl::UnavailableError("x")), kExitUnavailable);
  EXPECT_EQ(ExitCodeFor(absl::DeadlineExceededError("x")), kExitUnavailable);
}

int RunArgs(const std::vector<std::string>& args, std::string* out,
            std::string* err) {
  std::ostringstream o, e;
  int code = RunCli(args, o, e);
  *out = o.str();
  *err = e.str();
  return code;
}

TEST(RunCliTest, EverySubcommandDocumentsEachFlagWithItsDefault) {
  for (const char* command : {"plan", "review", "catalog"}) {
    std::string out, err;
    EXPECT_EQ(RunArgs({command, "--help"}, &out, &err), kExitOk) << command;
    EXPECT_THAT(out, HasSubstr("--server=HOST:PORT")) << command;
    EXPECT_THAT(out, HasSubstr("--catalog=PATH")) << command;
    EXPECT_THAT(out, HasSubstr("--output=json|table")) << command;
    EXPECT_THAT(out, HasSubstr("default: json")) << command;
  }
  std::string out, err;
  RunArgs({"plan", "--help"}, &out, &err);
  for (const char* flag :
       {"--framework=", "--framework_version=", "--params=", "--method=",
        "--precision=", "--objective=", "--deadline_hours=", "--budget_usd=",
        "--single_host", "--platform=", "--view=basic|full", "--request="}) {
    EXPECT_THAT(out, HasSubstr(flag));
  }
  EXPECT_THAT(out, HasSubstr("default: full"));
  for (const FlagSpec& spec : WorkloadFlagSpecs()) {
    EXPECT_THAT(out, HasSubstr("--" + spec.name)) << spec.name;
  }
  for (const char* flag :
       {"--emit vertex|gke FILE", "--verbose", "--output=json|table", "html"}) {
    EXPECT_THAT(out, HasSubstr(flag));
  }
  RunArgs({"review", "--help"}, &out, &err);
  EXPECT_THAT(out, HasSubstr("--propose=SPEC"));
  EXPECT_THAT(out, HasSubstr("machine:MACHINE_TYPE[,count=N]"));
  EXPECT_THAT(out, HasSubstr("remedy:KIND"));
  for (const char* command : {"plan", "review", "catalog"}) {
    RunArgs({command, "--help"}, &out, &err);
    EXPECT_THAT(out, ::testing::Not(HasSubstr(".cc"))) << command;
  }
}

TEST(RunCliTest, VersionNamesTheBinaryAndTheCatalog) {
  std::string out, err;
  // No catalog: the binary's version still prints, then the error, once.
  EXPECT_EQ(
      RunArgs({"--version", "--catalog=/nonexistent/catalog.db"}, &out, &err),
      kExitBadInput);
  EXPECT_THAT(out, HasSubstr("accelplan "));
  EXPECT_THAT(out, ::testing::Not(HasSubstr("unknown")));
  EXPECT_THAT(err, HasSubstr("/nonexistent/catalog.db"));
  EXPECT_EQ(RunArgs({"--version", "--no_such_flag"}, &out, &err),
            kExitBadInput);
}

TEST(RunCliTest, OutputAndEmitValuesAreChecked) {
  std::string out, err;
  EXPECT_EQ(RunArgs({"review", "--output=html", "--propose=series:G4",
                     "--server=127.0.0.1:1"},
                    &out, &err),
            kExitBadInput);
  EXPECT_EQ(RunArgs({"plan", "--params=7B", "--emit", "yaml", "x.yaml",
                     "--server=127.0.0.1:1"},
                    &out, &err),
            kExitBadInput);
  EXPECT_THAT(err, HasSubstr("--emit"));
  EXPECT_EQ(RunArgs({"plan", "--params=7B", "--emit", "vertex"}, &out, &err),
            kExitBadInput);
  // An error is printed once.
  RunArgs({"plan", "--framework=caffe", "--server=127.0.0.1:1"}, &out, &err);
  EXPECT_EQ(err.find("error"), err.rfind("error")) << err;
}

TEST(RunCliTest, BadInputExitsTwoBeforeConnecting) {
  std::string out, err;
  EXPECT_EQ(RunArgs({}, &out, &err), kExitBadInput);
  EXPECT_EQ(RunArgs({"frobnicate"}, &out, &err), kExitBadInput);
  EXPECT_EQ(RunArgs({"plan", "--framework=caffe", "--server=127.0.0.1:1"}, &out,
                    &err),
            kExitBadInput);
  EXPECT_THAT(err, HasSubstr("--framework"));
  EXPECT_EQ(
      RunArgs({"plan", "--params=lots", "--server=127.0.0.1:1"}, &out, &err),
      kExitBadInput);
  EXPECT_EQ(
      RunArgs({"plan", "--output=xml", "--server=127.0.0.1:1"}, &out, &err),
      kExitBadInput);
  EXPECT_EQ(
      RunArgs({"plan", "--server=127.0.0.1:1", "--catalog=x.db"}, &out, &err),
      kExitBadInput);
  EXPECT_EQ(
      RunArgs({"catalog", "--catalog=/nonexistent/catalog.db"}, &out, &err),
      kExitBadInput);
}

TEST(RunCliTest, UnreachableServerExitsThree) {
  std::string out, err;
  EXPECT_EQ(RunArgs({"catalog", "--server=127.0.0.1:1", "--timeout_seconds=10"},
                    &out, &err),
            kExitUnavailable);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace accelplan::cli
