// Properties every plan must have, checked over seeded random language-model
// jobs (100M to 1T parameters, with and without a transformer shape and a
// global batch, every objective, deadlines and budgets from tight to loose,
// platform, run-platform, Spot and accelerator limits). The scenario tests
// pin exact answers; this one covers the space between them.
#include <algorithm>
#include <cmath>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "accelplan/v1/accelplan.pb.h"
#include "api/convert.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"
#include "tests/planner/testing/random_requests.h"

namespace accelplan::planner {
namespace {

using RandomJobsTest = CatalogPlannerTest;

bool d_has_mesh(const Plan& p) { return p.distribution.multislice.has_value(); }

// What a caller relies on in any plan it is handed.
void ExpectSound(const PlanRequest& r, const Plan& p, const std::string& what) {
  const Hardware& h = p.hardware;
  const Estimates& e = p.estimates;
  EXPECT_GT(h.hosts, 0) << what;
  if (r.constraints.max_accelerators > 0) {
    EXPECT_LE(h.total_accelerators, r.constraints.max_accelerators) << what;
  }
  if (r.constraints.single_host_only) {
    EXPECT_EQ(h.hosts, 1) << what;
  }
  if (!r.constraints.allowed_platforms.empty()) {
    EXPECT_EQ(h.platform, r.constraints.allowed_platforms.front()) << what;
  }
  // Sized jobs (these all give a model and a dataset size) know their
  // numbers; nothing unknown reaches the wire (see NoInfNanOrUnknownZero).
  EXPECT_TRUE(e.hours_known && e.step_known && e.memory_known && e.flops_known)
      << what;
  EXPECT_TRUE(p.score.has_value() || !e.price_known) << what;
  if (p.score) {
    EXPECT_TRUE(std::isfinite(*p.score)) << what;
  }
  if (d_has_mesh(p)) {
    // SPEC §4: tensor and pipeline parallelism never cross DCN in a plan.
    EXPECT_EQ(p.distribution.multislice->dcn_tensor_parallelism, 1) << what;
    EXPECT_EQ(p.distribution.multislice->dcn_pipeline_parallelism, 1) << what;
  }
  const Range& t = e.total_hours;
  EXPECT_TRUE(std::isfinite(t.low) && std::isfinite(t.high)) << what;
  EXPECT_GT(t.low, 0) << what;
  EXPECT_LE(t.low, t.expected) << what;
  EXPECT_LE(t.expected, t.high) << what;
  EXPECT_GT(e.step_time_seconds, 0) << what;
  const MemoryBreakdown& m = e.memory_per_device;
  EXPECT_GT(m.total_gib, 0) << what;
  EXPECT_LE(m.total_gib, m.usable_gib * (1 + 1e-9)) << what << " must fit";
  if (e.price_known) {
    EXPECT_GT(e.hourly_usd, 0) << what;
    EXPECT_NEAR(e.hourly_usd * t.expected,
                h.provisioning == Provisioning::kSpot ? e.spot_cost_usd.expected
                                                      : e.on_demand_cost_usd.expected,
                1e-6 * e.hourly_usd * t.expected + 1e-6)
        << what;
  }
  const Distribution& d = p.distribution;
  if (h.platform == Platform::kCpu) return;  // no accelerators to lay out
  EXPECT_GT(h.total_accelerators, 0) << what;
  const int layout_devices = std::max(1, d.data_parallelism) *
                             std::max(1, d.fsdp_parallelism) *
                             std::max(1, d.tensor_parallelism) *
                             std::max(1, d.pipeline_parallelism);
  EXPECT_EQ(layout_devices, h.total_accelerators)
      << what << " data x fsdp x tensor x pipeline must use every accelerator";
}

TEST_F(RandomJobsTest, EveryPlanIsSoundAndEveryRefusalExplained) {
  // Language models with a data set (the generator shared with the other
  // property tests), every constraint mixed in.
  const std::vector<PlanRequest> jobs = testutil::RandomRequests(
      300, 20261130, {.classical = false, .without_data = false});
  int planned = 0, multi_host = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const PlanRequest& r = jobs[i];
    const std::string what =
        absl::StrCat("job #", i, " (", r.workload.parameter_count, " params)");
    const PlanResponse resp = planner_->Plan(r);
    for (const Rejection& j : resp.rejected) {
      EXPECT_FALSE(j.codes.empty()) << what << " " << j.hardware.series;
      EXPECT_FALSE(j.reason.empty()) << what << " " << j.hardware.series;
    }
    if (!resp.recommendation) {
      EXPECT_FALSE(resp.no_plan_reason.empty()) << what;
      EXPECT_FALSE(resp.rejected.empty()) << what;
      continue;
    }
    ++planned;
    const Plan& rec = *resp.recommendation;
    if (rec.hardware.hosts > 1) ++multi_host;
    ExpectSound(r, rec, what);
    // The recommendation honours the goal's hard limits.
    if (r.goal.deadline_hours > 0) {
      EXPECT_LE(rec.estimates.total_hours.expected, r.goal.deadline_hours) << what;
    }
    if (r.goal.budget_usd > 0 && rec.estimates.price_known) {
      EXPECT_LE(rec.estimates.hourly_usd * rec.estimates.total_hours.expected,
                r.goal.budget_usd * (1 + 1e-9))
          << what;
    }
    for (size_t j = 0; j < resp.alternatives.size(); ++j) {
      ExpectSound(r, resp.alternatives[j], absl::StrCat(what, " alternative ", j));
    }
    // Planning is a pure function of the request and the catalog.
    const PlanResponse again = planner_->Plan(r);
    ASSERT_TRUE(again.recommendation.has_value()) << what;
    EXPECT_EQ(again.recommendation->hardware.machine_type, rec.hardware.machine_type);
    EXPECT_EQ(again.recommendation->hardware.total_accelerators,
              rec.hardware.total_accelerators);
    EXPECT_EQ(again.recommendation->estimates.total_hours.expected,
              rec.estimates.total_hours.expected);
  }
  // Guards against a sample the planner mostly refuses or keeps on one VM.
  EXPECT_GE(planned, 150);
  EXPECT_GE(multi_host, 30);
}

// Every double of a converted response, at any depth, is a finite number;
// every Range present is ordered and positive; an optional estimate that is
// present is not a meaningless zero. Returns the number of doubles checked.
int ExpectFiniteEverywhere(const google::protobuf::Message& m,
                           const std::string& path, const std::string& what) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection* refl = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  refl->ListFields(m, &fields);
  int checked = 0;
  for (const FieldDescriptor* f : fields) {
    const std::string at = absl::StrCat(path, ".", f->name());
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE ||
        f->cpp_type() == FieldDescriptor::CPPTYPE_FLOAT) {
      const int n = f->is_repeated() ? refl->FieldSize(m, f) : 1;
      for (int i = 0; i < n; ++i) {
        const double v =
            f->cpp_type() == FieldDescriptor::CPPTYPE_FLOAT
                ? (f->is_repeated() ? refl->GetRepeatedFloat(m, f, i)
                                    : refl->GetFloat(m, f))
                : (f->is_repeated() ? refl->GetRepeatedDouble(m, f, i)
                                    : refl->GetDouble(m, f));
        EXPECT_TRUE(std::isfinite(v)) << what << " " << at << " = " << v;
        ++checked;
      }
    } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < refl->FieldSize(m, f); ++i) {
          checked += ExpectFiniteEverywhere(refl->GetRepeatedMessage(m, f, i),
                                            absl::StrCat(at, "[", i, "]"), what);
        }
      } else {
        checked += ExpectFiniteEverywhere(refl->GetMessage(m, f), at, what);
      }
    }
  }
  return checked;
}

// Estimates that are present mean something: no "$0 vs $0", "step: 0 s",
// "0.0 GiB" or empty range standing in for "unknown".
void ExpectNoUnknownZero(const v1::Estimates& e, const std::string& what) {
  for (const v1::Range* r : {&e.total_hours(), &e.on_demand_cost_usd(),
                             &e.spot_cost_usd()}) {
    if (r == &e.total_hours() && !e.has_total_hours()) continue;
    if (r == &e.on_demand_cost_usd() && !e.has_on_demand_cost_usd()) continue;
    if (r == &e.spot_cost_usd() && !e.has_spot_cost_usd()) continue;
    EXPECT_GT(r->low(), 0) << what;
    EXPECT_LE(r->low(), r->expected()) << what;
    EXPECT_LE(r->expected(), r->high()) << what;
  }
  if (e.has_memory_per_device()) {
    EXPECT_GT(e.memory_per_device().total_gib(), 0) << what;
  }
  if (e.has_step_time_seconds()) {
    EXPECT_GT(e.step_time_seconds(), 0) << what;
  }
  if (e.has_hourly_usd()) {
    EXPECT_GT(e.hourly_usd(), 0) << what;
  }
  if (e.has_tokens_per_second()) {
    EXPECT_GT(e.tokens_per_second(), 0) << what;
  }
  if (e.has_training_flops()) {
    EXPECT_GT(e.training_flops(), 0) << what;
  }
  EXPECT_EQ(e.has_hourly_usd(), e.price_known()) << what;
  if (e.has_on_demand_cost_usd() || e.has_spot_cost_usd()) {
    EXPECT_TRUE(e.has_total_hours()) << what;
  }
}

// Requests as a new user types them, and everything around them: flags
// only (no dataset, batch or sequence), every model kind and framework,
// stated batches from tiny to large, stated per-device memory, classical
// ML, on-device inference, unpriced hardware (reservations, flex-start).
std::vector<PlanRequest> OpenEndedJobs(int n, unsigned seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto log_uniform = [&](double lo, double hi) {
    return std::exp(uniform(std::log(lo), std::log(hi)));
  };
  auto pick = [&](int k) { return std::uniform_int_distribution<int>(0, k - 1)(rng); };
  const Framework frameworks[] = {Framework::kJax,     Framework::kPytorch,
                                  Framework::kTensorflow, Framework::kXgboost,
                                  Framework::kScikitLearn, Framework::kUnspecified};
  const ModelKind kinds[] = {ModelKind::kUnspecified, ModelKind::kDenseTransformer,
                             ModelKind::kCnn, ModelKind::kRecommender,
                             ModelKind::kTabular, ModelKind::kOther};
  const Precision precisions[] = {Precision::kUnspecified, Precision::kBf16Mixed,
                                  Precision::kFp8, Precision::kFp32,
                                  Precision::kFp16Mixed, Precision::kFp64Required};
  const TrainingMethod methods[] = {TrainingMethod::kUnspecified,
                                    TrainingMethod::kFullFineTune,
                                    TrainingMethod::kLora, TrainingMethod::kQlora};
  const Objective objectives[] = {Objective::kUnspecified, Objective::kMinCost,
                                  Objective::kMinTime, Objective::kBalanced};
  std::vector<PlanRequest> out;
  for (int i = 0; i < n; ++i) {
    PlanRequest r;
    Workload& w = r.workload;
    r.as_of = "2026-09-26";
    w.framework = frameworks[pick(6)];
    w.model_kind = kinds[pick(6)];
    w.precision = precisions[pick(6)];
    w.training_method = methods[pick(4)];
    r.goal.objective = objectives[pick(4)];
    if (w.framework == Framework::kXgboost || w.framework == Framework::kScikitLearn) {
      if (pick(2)) w.dataset_gib = log_uniform(0.1, 500);
      if (pick(2)) w.dataset_examples = log_uniform(1e4, 1e9);
    } else if (pick(8) == 0) {
      w.per_device_memory_gib = log_uniform(1, 200);  // a team's own plan
    } else {
      w.parameter_count = log_uniform(1e6, 2e12);
    }
    if (pick(4) == 0) {
      const int layers = 4 + pick(120);
      const int hidden = 128 * (2 + pick(120));
      w.transformer_shape = {layers, hidden, std::max(1, hidden / 128),
                             pick(2) ? 0 : 512 << pick(6), pick(2) ? 0 : 32000,
                             0};
    }
    switch (pick(5)) {  // the data set, often absent
      case 0: w.dataset_tokens = log_uniform(1e6, 1e14); break;
      case 1: w.dataset_examples = log_uniform(1e3, 1e10); break;
      case 2: w.steps = 1 + pick(1000000); break;
      default: break;
    }
    if (pick(2)) w.epochs = pick(2) ? 0.5 + pick(10) : 0;
    if (pick(3) == 0) w.global_batch_size = int64_t{1} << pick(16);
    if (pick(6) == 0) {
      w.deployment_target = DeploymentTarget::kOnDeviceInference;
      w.edge.model_format = ModelFormat::kTflite;
      w.edge.quantization = pick(2) ? Quantization::kFullInt8 : Quantization::kFloat16;
    }
    if (pick(3) == 0) r.goal.deadline_hours = log_uniform(0.1, 20000);
    if (pick(4) == 0) r.goal.budget_usd = log_uniform(1, 1e8);
    if (pick(3) == 0) r.constraints.reservation_available = true;  // A4X: no price
    if (pick(4) == 0) r.constraints.flex_start_allowed = true;
    if (pick(4) == 0) r.constraints.spot_allowed = true;
    if (pick(6) == 0) r.constraints.single_host_only = true;
    if (pick(6) == 0) r.constraints.max_accelerators = 1 << pick(12);
    if (pick(4) == 0) {
      const RunPlatform rps[] = {RunPlatform::kVertexTraining, RunPlatform::kGke,
                                 RunPlatform::kComputeEngine};
      r.constraints.run_platform = rps[pick(3)];
    }
    if (pick(4) == 0) {
      const Platform ps[] = {Platform::kCpu, Platform::kGpu, Platform::kTpu};
      r.constraints.allowed_platforms = {ps[pick(3)]};
    }
    if (pick(2)) r.view = View::kBasic;
    out.push_back(r);
  }
  return out;
}

TEST_F(RandomJobsTest, NoInfNanOrUnknownZeroInAnyConvertedResponse) {
  const std::vector<PlanRequest> jobs = OpenEndedJobs(400, 20261201);
  int doubles = 0, planned = 0, absent_score = 0, absent_hours = 0;
  const char* machines[] = {"a3-megagpu-8g", "g4-standard-48", "a2-highgpu-8g",
                            "ct5lp-hightpu-4t", "ct6e-standard-4t",
                            "n2-highmem-8", "a4x-highgpu-4g"};
  for (size_t i = 0; i < jobs.size(); ++i) {
    const PlanRequest& r = jobs[i];
    const std::string what = absl::StrCat("job #", i, " (",
                                          r.workload.parameter_count, " params)");
    const PlanResponse resp = planner_->Plan(r);
    v1::PlanTrainingResponse proto;
    api::ToProto(resp, &proto);
    doubles += ExpectFiniteEverywhere(proto, "plan", what);
    if (proto.has_recommendation()) {
      ++planned;
      ExpectNoUnknownZero(proto.recommendation().estimates(), what);
      absent_score += !proto.recommendation().has_score();
      absent_hours += !proto.recommendation().estimates().has_total_hours();
    }
    for (const v1::Plan& alt : proto.alternatives()) {
      ExpectNoUnknownZero(alt.estimates(), absl::StrCat(what, " alternative"));
    }
    for (const v1::Rejection& rej : proto.rejected()) {
      EXPECT_EQ(rej.reason().find(" inf "), std::string::npos) << what << rej.reason();
      EXPECT_EQ(rej.reason().find(" nan "), std::string::npos) << what << rej.reason();
    }

    // ReviewPlan of the same job: a few pinned and free hardware proposals.
    ReviewRequest q;
    q.workload = r.workload;
    q.goal = r.goal;
    q.constraints = r.constraints;
    q.as_of = r.as_of;
    for (int k = 0; k < 3; ++k) {
      Proposal p;
      p.label = absl::StrCat("p", k);
      HardwareProposal h;
      h.machine_type = machines[(i + 3 * k) % 7];
      if (k > 0) h.count = 1 << ((i + k) % 14);
      p.hardware = h;
      q.proposals.push_back(p);
    }
    const ReviewResponse review = planner_->Review(q);
    v1::ReviewPlanResponse review_proto;
    api::ToProto(review, &review_proto);
    doubles += ExpectFiniteEverywhere(review_proto, "review", what);
    for (const v1::ProposalVerdict& v : review_proto.verdicts()) {
      if (v.has_plan()) ExpectNoUnknownZero(v.plan().estimates(), what);
      EXPECT_EQ(v.reason().find(" inf "), std::string::npos) << what << v.reason();
    }
  }
  // Guards against a sample that checks nothing: many plans, and among
  // them unknown scores and totals (the absent case is exercised).
  EXPECT_GE(planned, 150);
  EXPECT_GT(absent_score, 0);
  EXPECT_GT(absent_hours, 0);
  EXPECT_GT(doubles, 10000);
}

}  // namespace
// A communication line states the data-parallel roofline, "compute-bound
// needs >= X per device per step, has Y", only when Y falls short of X:
// above it, the exposed part is traffic the roofline does not count and
// the line says so (it claimed a shortfall while the batch exceeded it).
TEST_F(RandomJobsTest, ACommunicationLineNeverContradictsItsRoofline) {
  const std::regex line(
      R"((compute-bound needs|the data-parallel roofline asks) >= ([0-9.]+) \S+ per device per step, has ([0-9.]+))");
  int shortfalls = 0, above = 0;
  auto check = [&](const std::string& text, const std::string& what) {
    for (std::sregex_iterator m(text.begin(), text.end(), line), end;
         m != end; ++m) {
      const bool short_of_it = (*m)[1] == "compute-bound needs";
      const double needs = std::stod((*m)[2]), has = std::stod((*m)[3]);
      // The figures are printed rounded: within a unit they cannot tell.
      if (std::abs(has - needs) >= 1) {
        EXPECT_EQ(has < needs, short_of_it) << what << ": " << text;
      }
      (short_of_it ? shortfalls : above) += 1;
    }
  };
  for (unsigned seed : {1u, 7u}) {
    const std::vector<PlanRequest> jobs = testutil::RandomRequests(300, seed);
    for (size_t i = 0; i < jobs.size(); ++i) {
      const PlanResponse r = planner_->Plan(jobs[i]);
      const std::string what = absl::StrCat("seed ", seed, " job #", i);
      for (const Reason& w : r.warnings) check(w.message, what);
      for (const Plan& alt : r.alternatives) {
        for (const Reason& x : alt.reasons) check(x.message, what);
      }
      for (const Rejection& rej : r.rejected) check(rej.reason, what);
    }
  }
  EXPECT_GT(shortfalls, 0);
  EXPECT_GT(above, 0);
}

}  // namespace accelplan::planner
