// The CLI's human output: units, the one-screen plan table and the HTML
// report, on responses built here (the real planner's answers are checked
// end to end in test_cli.py and tests/html/).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "client/cli/html.h"
#include "client/cli/plan_view.h"
#include "client/cli/summary.h"
#include "client/cli/table.h"
#include "client/cli/units.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace accelplan::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

TEST(UnitsTest, HumanTimesMoneyAndCounts) {
  EXPECT_EQ(HumanHours(0.75), "45 min");
  EXPECT_EQ(HumanHours(4.08), "4.1 h");
  EXPECT_EQ(HumanHours(24), "24 h");
  EXPECT_EQ(HumanHours(80.7), "3.4 days");
  EXPECT_EQ(HumanHours(24 * 800), "2.2 years");
  EXPECT_EQ(HumanHours(0.001), "<1 min");
  EXPECT_EQ(HumanUsd(0.163), "$0.16");
  EXPECT_EQ(HumanUsd(32.66), "$33");
  EXPECT_EQ(HumanUsd(4321), "$4,321");
  EXPECT_EQ(HumanUsd(12345), "$12.3k");
  EXPECT_EQ(HumanUsd(100000), "$100k");
  EXPECT_EQ(HumanUsd(2.5e6), "$2.5M");
  EXPECT_EQ(HumanCount(950), "950");
  EXPECT_EQ(HumanCount(13612), "13.6k");
  EXPECT_EQ(HumanCount(2e8), "200M");
  EXPECT_EQ(HumanCount(2e10), "20B");
  EXPECT_EQ(HumanCount(1.5e12), "1.5T");
  EXPECT_EQ(HumanRatio(5.23), "5.2×");
  EXPECT_EQ(HumanRatio(12.4), "12×");
}

TEST(UnitsTest, UnknownFiguresPrintNothing) {
  for (double unknown : {0.0, -1.0, 1.0 / 0.0, 0.0 / 0.0}) {
    EXPECT_FALSE(Known(unknown));
    EXPECT_EQ(HumanHours(unknown), "");
    EXPECT_EQ(HumanRatio(unknown), "");
  }
  EXPECT_TRUE(Known(1e-9));
  EXPECT_EQ(HumanUsd(1.0 / 0.0), "");
}

TEST(UnitsTest, ClipCountsCharactersNotBytes) {
  EXPECT_EQ(Clip("abc", 5), "abc");
  EXPECT_EQ(Clip("abcdef", 4), "abc…");
  EXPECT_EQ(DisplayWidth("5.2× — ok"), 9u);
  EXPECT_EQ(DisplayWidth(Clip("××××××", 4)), 4u);
}

v1::Plan MakePlan(const std::string& machine, int chips, double hours,
                  double cost, v1::RunPlatform run = v1::VERTEX_TRAINING) {
  v1::Plan plan;
  v1::Hardware* h = plan.mutable_hardware();
  h->set_platform(v1::GPU);
  h->set_machine_type(machine);
  h->set_accelerator_name("NVIDIA L4");
  h->set_total_accelerators(chips);
  h->set_hosts(1);
  h->set_run_platform(run);
  h->set_provisioning(v1::ON_DEMAND);
  v1::Estimates* e = plan.mutable_estimates();
  e->set_price_known(true);
  e->set_price_region("us-central1");
  e->set_hourly_usd(cost > 0 && hours > 0 ? cost / hours : 2);
  e->set_tokens_per_second(1000.0 * chips);
  e->set_cost_per_million_tokens_usd(0.5);
  e->mutable_total_hours()->set_expected(hours);
  e->mutable_total_hours()->set_low(hours * 0.8);
  e->mutable_total_hours()->set_high(hours * 1.3);
  e->mutable_on_demand_cost_usd()->set_expected(cost);
  e->mutable_on_demand_cost_usd()->set_low(cost * 0.8);
  e->mutable_on_demand_cost_usd()->set_high(cost * 1.3);
  plan.mutable_distribution()->set_strategy(v1::DATA_PARALLEL);
  plan.mutable_distribution()->set_data_parallelism(chips);
  plan.mutable_job_spec()->mutable_vertex()->set_config_json("{\"a\":1}");
  plan.mutable_job_spec()->mutable_gke()->set_manifest_yaml("kind: JobSet\n");
  return plan;
}

// A busy answer: many alternatives, rejections, notes and long reasons.
v1::PlanTrainingResponse BusyResponse() {
  v1::PlanTrainingResponse r;
  *r.mutable_recommendation() = MakePlan("g2-standard-96", 8, 4.1, 32.66);
  r.mutable_recommendation()->mutable_job_spec()->set_note(
      "Vertex AI does not support Spot VMs with multi-host TPU slices: run it "
      "on GKE.");
  *r.add_alternatives() = MakePlan("a2-megagpu-16g", 16, 0.79, 44.1);
  v1::Plan* slow = r.add_alternatives();
  *slow = MakePlan("a2-ultragpu-1g", 1, 12.7, 64.2);
  slow->add_reasons()->set_code(v1::HIGHER_COST);
  v1::Plan* cheap = r.add_alternatives();
  *cheap = MakePlan("g2-standard-48", 4, 4.1, 32.66);
  cheap->add_reasons()->set_code(v1::CHEAPER);
  for (int i = 0; i < 12; ++i) {
    *r.add_alternatives() =
        MakePlan(absl::StrCat("extra-", i), 2, 30 + i, 300 + i);
  }
  const char* codes[] = {"OVERSIZED_FOR_WORKLOAD", "NOT_AVAILABLE_ON_DEMAND",
                         "FRAMEWORK_UNSUPPORTED",  "PRECISION_UNSUPPORTED",
                         "NOT_FOR_TRAINING",       "HBM_TOO_SMALL",
                         "END_OF_SUPPORT",         "MISSES_DEADLINE"};
  for (int i = 0; i < 40; ++i) {
    v1::Rejection* rej = r.add_rejected();
    rej->mutable_hardware()->set_series(absl::StrCat("Series", i % 13));
    rej->mutable_hardware()->set_machine_type(absl::StrCat("m-", i));
    v1::ReasonCode code = v1::REASON_CODE_UNSPECIFIED;
    v1::ReasonCode_Parse(codes[i % 8], &code);
    rej->add_codes(code);
    rej->set_reason(std::string(400, 'x') + ". Second sentence.");
  }
  for (int i = 0; i < 6; ++i) {
    r.add_remedies()->set_summary(std::string(300, 'r'));
    r.add_warnings()->set_message(absl::StrCat("warning ", i));
    r.add_assumptions(absl::StrCat("No thing ", i, " given: assumed ", i));
  }
  r.add_assumptions(
      "Memory per device keeps 10% of device memory as headroom.");
  r.set_catalog_version("abc@2026-09-26");
  return r;
}

v1::PlanTrainingRequest Request(double deadline, double budget) {
  v1::PlanTrainingRequest request;
  request.mutable_workload()->set_model_name("llama-3.1-8b");
  request.mutable_workload()->set_training_method(v1::LORA);
  request.mutable_goal()->set_deadline_hours(deadline);
  request.mutable_goal()->set_budget_usd(budget);
  return request;
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

TEST(PlanSummaryTest, FitsOneScreenWhateverTheResponseHolds) {
  const std::string table =
      PlanSummary(BuildPlanView(Request(24, 5000), BusyResponse()));
  const std::vector<std::string> lines = absl::StrSplit(table, '\n');
  EXPECT_LE(static_cast<int>(lines.size()), kSummaryMaxLines) << table;
  for (const std::string& line : lines) {
    EXPECT_LE(DisplayWidth(line), static_cast<size_t>(kSummaryMaxColumns))
        << line;
  }
  EXPECT_THAT(table, HasSubstr("more viable options (--verbose)"));
  EXPECT_THAT(table, HasSubstr("Rejected (40), by reason:"));
}

TEST(PlanSummaryTest, FirstLineHasTheAnswerAndTheGoals) {
  const std::vector<std::string> lines =
      Lines(PlanSummary(BuildPlanView(Request(24, 5000), BusyResponse())));
  EXPECT_THAT(lines[0], StartsWith("RECOMMENDED: 8 × NVIDIA L4 on "
                                   "g2-standard-96 (Vertex AI)"));
  EXPECT_THAT(lines[0], HasSubstr("4.1 h, $33"));
  EXPECT_THAT(lines[0],
              HasSubstr("meets the 24 h deadline and the $5,000 budget"));

  const std::string missed =
      Lines(PlanSummary(BuildPlanView(Request(2, 10), BusyResponse())))[0];
  EXPECT_THAT(missed, HasSubstr("MISSES the 2 h deadline"));
  EXPECT_THAT(missed, HasSubstr("OVER the $10 budget"));

  const std::string no_goals =
      Lines(PlanSummary(BuildPlanView(Request(0, 0), BusyResponse())))[0];
  EXPECT_THAT(no_goals, Not(HasSubstr("deadline")));
  EXPECT_THAT(no_goals, Not(HasSubstr("budget")));
}

TEST(PlanSummaryTest, SaysWhyTheDeadlineIsNotCheckedWithoutADataset) {
  v1::PlanTrainingResponse r;
  *r.mutable_recommendation() = MakePlan("g2-standard-4", 1, 0, 0);
  v1::Reason* w = r.add_warnings();
  w->set_code(v1::NO_DATASET_SIZE);
  w->set_message("No dataset size given.");
  const std::string table = PlanSummary(BuildPlanView(Request(24, 0), r));
  EXPECT_THAT(
      Lines(table)[0],
      HasSubstr("deadline not checked: no dataset size — give --tokens"));
  // Unknown totals are omitted, never printed as zeros.
  EXPECT_THAT(table, Not(HasSubstr("$0 ")));
  EXPECT_THAT(table, Not(HasSubstr("0 s")));
  EXPECT_THAT(table, Not(HasSubstr("0.0")));
  EXPECT_THAT(table, Not(HasSubstr("nan")));
  EXPECT_THAT(table, Not(HasSubstr("inf")));
  v1::PlanTrainingRequest classical = Request(24, 0);
  classical.mutable_workload()->set_framework(v1::XGBOOST);
  EXPECT_THAT(PlanSummary(BuildPlanView(classical, r)),
              HasSubstr("give --dataset_gib"));
  // The flag is the field the planner's warning names: a model counted in
  // examples needs their number, not tokens.
  v1::PlanTrainingResponse examples = r;
  examples.mutable_warnings(0)->set_message(
      "No dataset size given (dataset_examples): candidates ranked by cost "
      "per unit of work; no deadline check.");
  EXPECT_THAT(PlanSummary(BuildPlanView(Request(24, 0), examples)),
              HasSubstr("give --examples"));
}

TEST(PlanSummaryTest, AlternativesSayWhatTheyWinAndLose) {
  const std::string table =
      PlanSummary(BuildPlanView(Request(24, 0), BusyResponse()));
  EXPECT_THAT(table, HasSubstr("wins 5.2× faster; loses +35% cost"));
  EXPECT_THAT(table, HasSubstr("loses 3.1× slower, +97% cost"));
  // CHEAPER from the planner shows even when the totals are equal.
  EXPECT_THAT(table, HasSubstr("wins cheaper"));
  EXPECT_THAT(table, Not(HasSubstr("HIGHER_COST")));

  // With no figures to compare, the planner's codes still say it.
  v1::PlanTrainingResponse r;
  *r.mutable_recommendation() = MakePlan("g2-standard-4", 1, 0, 0);
  v1::Plan* alt = r.add_alternatives();
  *alt = MakePlan("a2-highgpu-1g", 1, 0, 0);
  alt->mutable_estimates()->set_price_known(false);
  alt->mutable_estimates()->set_tokens_per_second(0);
  alt->add_reasons()->set_code(v1::HIGHER_COST);
  alt->add_reasons()->set_code(v1::FASTER);
  alt->add_reasons()->set_code(v1::COMMUNICATION_BOUND);
  EXPECT_THAT(PlanSummary(BuildPlanView(Request(0, 0), r)),
              HasSubstr("wins faster; loses higher cost, communication"));
}

// A flex-start alternative with fewer hours that waits for capacity past
// the recommendation is SLOWER to the planner: the table says so instead
// of "faster" from the hours; without the code the hours decide.
TEST(PlanSummaryTest, ASlowerToResultsAlternativeIsNotCalledFaster) {
  v1::PlanTrainingResponse r;
  *r.mutable_recommendation() = MakePlan("a3-megagpu-8g", 8, 1.4, 100);
  v1::Plan* flex = r.add_alternatives();
  *flex = MakePlan("a4-highgpu-8g", 8, 0.7, 60);
  flex->mutable_hardware()->set_provisioning(v1::FLEX_START);
  std::string table = PlanSummary(BuildPlanView(Request(24, 0), r));
  EXPECT_THAT(table, HasSubstr("2.0× faster"));
  flex->add_reasons()->set_code(v1::SLOWER);
  table = PlanSummary(BuildPlanView(Request(24, 0), r));
  EXPECT_THAT(table, Not(HasSubstr("faster")));
  EXPECT_THAT(table, HasSubstr("slower to results"));
}

TEST(PlanSummaryTest, RejectionsOneLinePerReasonNotPerOption) {
  const std::string table =
      PlanSummary(BuildPlanView(Request(24, 0), BusyResponse()));
  EXPECT_THAT(table, HasSubstr("OVERSIZED_FOR_WORKLOAD (5): Series0, Series8"));
  int lines_with_code = 0;
  for (const std::string& line : Lines(table)) {
    if (line.find("OVERSIZED_FOR_WORKLOAD") != std::string::npos) {
      ++lines_with_code;
    }
  }
  EXPECT_EQ(lines_with_code, 1);
}

// The N1 CPU series and N1's T4 VMs share a series name: one group names
// both, "N1 (CPU/T4)", not "N1 (/T4)"; one kind alone gets no suffix.
TEST(PlanSummaryTest, ASeriesWithCpusAndGpusNamesBoth) {
  v1::PlanTrainingResponse r = BusyResponse();
  r.clear_rejected();
  const auto reject = [&](const std::string& accelerator_name) {
    v1::Rejection* rej = r.add_rejected();
    rej->add_codes(v1::MISSES_DEADLINE);
    rej->set_reason("N1 takes too long.");
    rej->mutable_hardware()->set_series("N1");
    rej->mutable_hardware()->set_machine_type("n1-standard-8");
    rej->mutable_hardware()->set_accelerator_name(accelerator_name);
  };
  reject("");
  EXPECT_THAT(PlanSummary(BuildPlanView(Request(24, 0), r)),
              HasSubstr("MISSES_DEADLINE (1): N1 — "));
  reject("NVIDIA T4");
  EXPECT_THAT(PlanSummary(BuildPlanView(Request(24, 0), r)),
              HasSubstr("MISSES_DEADLINE (2): N1 (CPU/T4) — "));
}

TEST(PlanSummaryTest, EndsWithTheLaunchCommandForWhereThePlanRuns) {
  v1::PlanTrainingResponse r = BusyResponse();
  std::vector<std::string> lines =
      Lines(PlanSummary(BuildPlanView(Request(24, 0), r)));
  EXPECT_EQ(lines.back(),
            "  gcloud ai custom-jobs create --region=us-central1 "
            "--display-name=accelplan-llama-3-1-8b-lora --config=job.json");
  EXPECT_THAT(lines[lines.size() - 2], HasSubstr("--emit vertex job.json"));
  EXPECT_THAT(PlanSummary(BuildPlanView(Request(24, 0), r)),
              HasSubstr("Job spec: Vertex AI does not support Spot VMs"));

  v1::PlanTrainingRequest in_europe = Request(24, 0);
  in_europe.mutable_constraints()->set_region("europe-west4");
  EXPECT_THAT(PlanSummary(BuildPlanView(in_europe, r, "vertex", "out/x.json")),
              HasSubstr("--region=europe-west4 "
                        "--display-name=accelplan-llama-3-1-8b-lora "
                        "--config=out/x.json"));

  r.mutable_recommendation()->mutable_hardware()->set_run_platform(v1::GKE);
  lines = Lines(PlanSummary(BuildPlanView(Request(24, 0), r)));
  EXPECT_EQ(lines.back(), "  kubectl apply -f jobset.yaml");
  lines = Lines(PlanSummary(BuildPlanView(Request(24, 0), r, "gke", "j.yaml")));
  EXPECT_EQ(lines.back(), "  kubectl apply -f j.yaml");
  EXPECT_THAT(lines[lines.size() - 2], HasSubstr("wrote j.yaml"));
}

TEST(PlanSummaryTest, NoViablePlanSaysWhy) {
  v1::PlanTrainingResponse r;
  r.set_no_plan_reason("fp64 rules out every allowed platform");
  v1::Rejection* rej = r.add_rejected();
  rej->mutable_hardware()->set_series("TPU v5p");
  rej->add_codes(v1::PRECISION_UNSUPPORTED);
  rej->set_reason("TPU v5p has no fp64.");
  const std::string table = PlanSummary(BuildPlanView(Request(0, 0), r));
  EXPECT_EQ(Lines(table)[0],
            "NO VIABLE PLAN: fp64 rules out every allowed platform");
  EXPECT_THAT(table, HasSubstr("PRECISION_UNSUPPORTED (1): TPU v5p"));
  EXPECT_THAT(table, Not(HasSubstr("gcloud")));
  EXPECT_THAT(table, Not(HasSubstr("OPTION")));  // nothing to list
}

// Unpriced hardware under a budget: no recommendation, and the reason says
// those options are listed, so the table lists them with what keeps each
// from being recommended (and the HTML report the same rows, no chart).
TEST(PlanSummaryTest, NoViablePlanListsTheOptionsItNames) {
  v1::PlanTrainingResponse r;
  r.set_no_plan_reason(
      "Only hardware without a price in the catalog satisfies every hard "
      "rule: TPU7x is listed as an alternative (PRICE_UNKNOWN).");
  v1::Plan* alt = r.add_alternatives();
  alt->mutable_hardware()->set_series("TPU7x");
  alt->mutable_hardware()->set_machine_type("tpu7x-standard-4t");
  alt->mutable_hardware()->set_platform(v1::TPU);
  alt->mutable_hardware()->set_total_accelerators(128);
  alt->mutable_estimates()->mutable_total_hours()->set_expected(645);
  v1::Reason* why = alt->add_reasons();
  why->set_code(v1::PRICE_UNKNOWN);
  why->set_message("No on-demand price for TPU7x in the catalog.");
  const std::string table = PlanSummary(BuildPlanView(Request(0, 1000), r));
  EXPECT_THAT(table, HasSubstr("NOT RECOMMENDED"));
  EXPECT_THAT(table, HasSubstr("tpu7x-standard-4t"));
  EXPECT_THAT(table, HasSubstr("price unknown"));
  EXPECT_THAT(table, Not(HasSubstr("recommended\n")));
  EXPECT_THAT(table, Not(HasSubstr("gcloud")));
  const std::string html = PlanHtml(BuildPlanView(Request(0, 1000), r), r);
  EXPECT_THAT(html, HasSubstr("Options not recommended"));
  EXPECT_THAT(html, HasSubstr("tpu7x-standard-4t"));
  EXPECT_THAT(html, Not(HasSubstr("<svg")));
  // More such options than the table shows: the rest are not called viable.
  const v1::Plan unpriced = *alt;
  for (int i = 0; i < 12; ++i) *r.add_alternatives() = unpriced;
  const std::string many = PlanSummary(BuildPlanView(Request(0, 1000), r));
  EXPECT_THAT(many, HasSubstr(" more options (--verbose)"));
  EXPECT_THAT(many, Not(HasSubstr("viable")));
}

// A memory breakdown prints only the parts the planner modelled: a
// classical working set (or a stated per-device need) has a total and no
// parts, which are absent on the wire, never zeros.
TEST(ReviewTableTest, MemoryPartsPrintOnlyWhenModelled) {
  v1::ReviewPlanResponse r;
  v1::ProposalVerdict* v = r.add_verdicts();
  v->set_label("vm");
  v->set_verdict(v1::RECOMMENDED);
  v1::MemoryBreakdown* m =
      v->mutable_plan()->mutable_estimates()->mutable_memory_per_device();
  m->set_total_gib(25);
  m->set_usable_gib(27);
  m->set_device_memory_gib(30);
  EXPECT_THAT(ReviewTable(r), HasSubstr("25.0 GiB needed of 27.0 GiB usable"));
  EXPECT_THAT(ReviewTable(r), Not(HasSubstr("weights")));
  m->set_weights_gib(1);
  EXPECT_THAT(ReviewTable(r), HasSubstr("weights 1.0, gradients 0.0"));
}

// Host memory holds offloaded activations (RECOMPUTE_OFFLOAD) or, under
// Distribution.optimizer_offload, the optimizer partition: the line says
// which.
TEST(ReviewTableTest, HostMemorySaysWhatWasOffloaded) {
  v1::ReviewPlanResponse r;
  v1::ProposalVerdict* v = r.add_verdicts();
  v->set_label("offload");
  v->set_verdict(v1::RECOMMENDED);
  v1::MemoryBreakdown* m =
      v->mutable_plan()->mutable_estimates()->mutable_memory_per_device();
  m->set_total_gib(25);
  m->set_usable_gib(27);
  m->set_device_memory_gib(30);
  m->set_host_offload_gib(190);
  EXPECT_THAT(ReviewTable(r), HasSubstr("190.0 GiB of offloaded activations"));
  v->mutable_plan()->mutable_distribution()->set_optimizer_offload(true);
  EXPECT_THAT(ReviewTable(r),
              HasSubstr("190.0 GiB of offloaded optimizer state"));
}

TEST(PlanHtmlTest, SelfContainedWithAPointPerOptionAndTheMarker) {
  v1::PlanTrainingResponse r = BusyResponse();
  r.mutable_recommendation()->mutable_hardware()->set_machine_type(
      "<b>&\"quoted\"");
  v1::FactRef* fact = r.add_facts_used();
  fact->set_source_id("gcp-gpus");
  fact->set_url("https://cloud.google.com/compute/docs/gpus");
  const std::string html = PlanHtml(BuildPlanView(Request(24, 5000), r), r);
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr(" src=")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("<b>&")));  // escaped
  EXPECT_THAT(html, HasSubstr("&lt;b&gt;&amp;&quot;quoted&quot;"));
  size_t points = 0;
  for (size_t at = html.find("<circle class=\"point"); at != std::string::npos;
       at = html.find("<circle class=\"point", at + 1)) {
    ++points;
  }
  EXPECT_EQ(points, 1u + r.alternatives_size());
  EXPECT_EQ(html.find("point recommended"), html.rfind("point recommended"));
  EXPECT_THAT(html, HasSubstr("id=\"recommended-marker\""));
  EXPECT_THAT(html, HasSubstr("id=\"deadline\" data-hours=\"24\""));
  EXPECT_THAT(html, HasSubstr("id=\"budget\" data-cost=\"5000\""));
  EXPECT_THAT(html, HasSubstr("https://cloud.google.com/compute/docs/gpus"));
  EXPECT_THAT(html, HasSubstr("gcloud ai custom-jobs create"));

  // Without a deadline or budget there are no lines for them.
  const std::string free = PlanHtml(BuildPlanView(Request(0, 0), r), r);
  EXPECT_THAT(free, Not(HasSubstr("id=\"deadline\"")));
  EXPECT_THAT(free, Not(HasSubstr("id=\"budget\"")));
}

}  // namespace
}  // namespace accelplan::cli
