// Google Benchmark of the planner core (SPEC §6 "Planner core: median and p99
// per scenario"). Every request is one of the seed scenarios in examples/,
// decoded exactly as the server decodes it (protobuf JSON -> proto -> planner
// structs via api/convert.h), plus synthetic worst cases: the 70B
// MIN_TIME search, and the worst *valid* requests (issue 20): every repeated
// field at its limit of planner/limits.h (Plan/limits_*, Review/limits_*).
//
// Reported per benchmark (repetitions, aggregates only):
//   - real/cpu time: mean time per call within one repetition; the
//     median/p99/stddev rows aggregate those means over the repetitions;
//   - call_p50_us / call_p99_us: per-call wall-clock percentiles inside one
//     repetition (each call timed individually), aggregated the same way;
//   - preempt_per_1k: involuntary context switches per 1000 calls, to tell
//     a planner tail from a busy machine.
//
// Environment: ACCELPLAN_CATALOG overrides the catalog.db path,
// ACCELPLAN_EXAMPLES the examples/ directory.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "accelplan/v1/accelplan.pb.h"
#include "benchmark/benchmark.h"
#include "catalog/loader.h"
#include "google/protobuf/util/json_util.h"
#include "planner/limits.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "api/convert.h"
#include "core/planning_core.h"

namespace accelplan::bench {
namespace {

namespace fs = std::filesystem;

// The worst case for the search: no platform restriction, multi-host allowed,
// no accelerator cap, a 70B-class dense transformer (Llama-3-70B shape) with a
// dataset, and MIN_TIME, so every TPU topology and slice count stays in play.
constexpr char kWorstCaseJson[] = R"json({
  "workload": {
    "framework": "JAX",
    "modelKind": "DENSE_TRANSFORMER",
    "parameterCount": 70e9,
    "transformerShape": {
      "layers": 80, "hiddenSize": 8192, "attentionHeads": 64,
      "sequenceLength": 8192, "vocabSize": 128256, "ffnHiddenSize": 28672
    },
    "trainingMethod": "PRE_TRAINING",
    "precision": "BF16_MIXED",
    "optimizer": "ADAM",
    "datasetTokens": 1e12,
    "checkpoints": true
  },
  "goal": {"objective": "MIN_TIME"},
  "constraints": {
    "spotAllowed": true,
    "flexStartAllowed": true,
    "reservationAvailable": true
  }
})json";

constexpr int kDefaultRepetitions = 10;

namespace L = planner::limits;

// `n` copies of `pool`'s entries in turn.
template <typename T>
std::vector<T> Cycle(const std::vector<T>& pool, size_t n) {
  std::vector<T> out;
  for (size_t i = 0; i < n; ++i) out.push_back(pool[i % pool.size()]);
  return out;
}

// A valid name of exactly `chars` characters that no catalog entry has.
std::string Filler(size_t i, size_t chars) {
  std::string s = absl::StrCat("no-such-series-", i, "-");
  s.resize(chars, 'x');
  return s;
}

// The worst valid PlanTraining request: the 70B MIN_TIME workload, with
// every repeated field at its limit and every string at its length limit
// where a long value is still valid. allowed_series holds every catalog
// series first (nothing is excluded, so the search stays whole) and then
// 64-character names that match nothing, up to the limit; symptoms cycle all
// five (every remedy) on a multi-host NCCL GPU current setup (Reduction
// Server sizing, savings). `tpu_ops_full` also fills tpu_unsuited_ops, which
// removes TPU candidates: cheaper search, so it is the second case.
// tests/adversarial/worst_cases.py builds the same requests in Python for
// the overload and cancellation tests: change both together.
planner::PlanRequest LimitsPlanRequest(const catalog::Catalog& catalog,
                                       const planner::PlanRequest& base,
                                       bool tpu_ops_full) {
  planner::PlanRequest r = base;
  planner::Constraints& k = r.constraints;
  k.allowed_platforms = Cycle<planner::Platform>(
      {planner::Platform::kGpu, planner::Platform::kTpu,
       planner::Platform::kCpu, planner::Platform::kEdge},
      L::kMaxAllowedPlatforms);
  k.allowed_series.clear();
  for (const catalog::Series& s : catalog.series) {
    if (k.allowed_series.size() < static_cast<size_t>(L::kMaxAllowedSeries)) {
      k.allowed_series.push_back(s.id);
    }
  }
  while (k.allowed_series.size() < static_cast<size_t>(L::kMaxAllowedSeries)) {
    k.allowed_series.push_back(
        Filler(k.allowed_series.size(), L::kMaxSeriesNameChars));
  }
  k.region = std::string(L::kMaxStringChars, 'r');
  if (tpu_ops_full) {
    r.workload.tpu_unsuited_ops = Cycle<planner::TpuUnsuitedOp>(
        {planner::TpuUnsuitedOp::kFrequentBranching,
         planner::TpuUnsuitedOp::kElementwiseDominated,
         planner::TpuUnsuitedOp::kCustomOpsInStep},
        L::kMaxTpuUnsuitedOps);
  }
  r.workload.framework = planner::Framework::kPytorch;  // NCCL on GPUs
  r.workload.framework_version = "2.4";
  planner::CurrentSetup& cur = r.current_setup;
  cur.hardware = "nvidia-h100-80gb";
  cur.node_count = 16;
  cur.accelerator_count = 128;
  cur.uses_nccl = true;
  cur.strategy = planner::Strategy::kDataParallel;
  cur.current_global_batch_size = 1000;
  cur.symptoms = Cycle<planner::Symptom>(
      {planner::Symptom::kGradientSyncBound, planner::Symptom::kInputBound,
       planner::Symptom::kHeavyPadding, planner::Symptom::kOutOfMemory,
       planner::Symptom::kLowUtilization},
      L::kMaxSymptoms);
  for (int i = 0; i < L::kMaxLayerWidths; ++i) {
    cur.layer_widths.push_back(1000 + 7 * i);  // none a multiple of 128
  }
  cur.observed_hours = 100;
  return r;
}

// The worst valid ReviewPlan request: the same workload with kMaxProposals
// proposals cycling hardware (every non-legacy accelerator), distributions
// (FSDP, tensor + pipeline, Multislice with a mesh) and every remedy kind,
// remedies carrying kMaxLayerWidths widths and a hardware target.
planner::ReviewRequest LimitsReviewRequest(const catalog::Catalog& catalog,
                                           const planner::PlanRequest& plan) {
  planner::ReviewRequest r;
  r.workload = plan.workload;
  r.goal = plan.goal;
  r.constraints = plan.constraints;
  r.current_setup = plan.current_setup;
  r.as_of = plan.as_of;
  std::vector<planner::Proposal> pool;
  for (const catalog::Accelerator& a : catalog.accelerators) {
    if (a.legacy) continue;
    planner::Proposal p;
    p.label = std::string(L::kMaxStringChars, 'h');
    p.hardware = planner::HardwareProposal{};
    p.hardware->accelerator = a.id;
    p.hardware->count = 64;
    pool.push_back(p);
  }
  for (planner::Strategy st :
       {planner::Strategy::kFsdp, planner::Strategy::kHybrid,
        planner::Strategy::kMultislice}) {
    planner::Proposal p;
    p.label = "distribution";
    p.distribution = planner::DistributionProposal{};
    p.distribution->strategy = st;
    if (st == planner::Strategy::kHybrid) {
      p.distribution->tensor_parallelism = 8;
      p.distribution->pipeline_parallelism = 4;
    }
    if (st == planner::Strategy::kMultislice) {
      p.distribution->slices = 4;
      p.distribution->across_slices = planner::DcnParallelism::kData;
      p.distribution->mesh = planner::MultisliceMesh{};
      p.distribution->mesh->ici_fsdp_parallelism = 256;
      p.distribution->mesh->dcn_data_parallelism = 4;
    }
    pool.push_back(p);
  }
  for (int kind = 1; kind <= static_cast<int>(planner::RemedyKind::kUseHorovod);
       ++kind) {
    planner::Proposal p;
    p.label = "remedy";
    p.remedy = planner::RemedyProposal{};
    p.remedy->kind = static_cast<planner::RemedyKind>(kind);
    p.remedy->global_batch_size = 1024;
    p.remedy->layer_widths.assign(L::kMaxLayerWidths, 1024);
    p.remedy->target = planner::HardwareProposal{};
    p.remedy->target->accelerator = "tpu-v5p";
    p.remedy->target->tpu_topology = "4x4x4";
    pool.push_back(p);
  }
  // Interleave the kinds so every kind is present at any prefix.
  std::vector<planner::Proposal> ordered;
  const size_t n = pool.size();
  for (size_t i = 0; i < static_cast<size_t>(L::kMaxProposals); ++i) {
    ordered.push_back(pool[(i * 7) % n]);
  }
  r.proposals = std::move(ordered);
  return r;
}

std::string EnvOr(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

absl::StatusOr<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

absl::Status ParseJson(const std::string& json, const std::string& what,
                       google::protobuf::Message* message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;  // same as the CLI: typos must fail
  auto status = google::protobuf::util::JsonStringToMessage(json, message,
                                                            options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": ", status.message().ToString()));
  }
  return absl::OkStatus();
}

// A seed request must decode and validate cleanly: benchmarking the
// rejection path instead of planning would silently flatter the figures.
absl::Status CheckClean(const std::string& what,
                        const api::Violations& violations) {
  if (violations.empty()) return absl::OkStatus();
  std::vector<std::string> fields;
  for (const auto& v : violations) fields.push_back(v.field);
  return absl::InvalidArgumentError(absl::StrCat(
      what, " has violations: ", absl::StrJoin(fields, ", ")));
}

struct PlanScenario {
  std::string name;
  v1::PlanTrainingRequest proto;
  planner::PlanRequest request;
};
struct ReviewScenario {
  std::string name;
  planner::ReviewRequest request;
};
struct ListScenario {
  std::string name;
  planner::ListRequest request;
};

struct Scenarios {
  std::vector<PlanScenario> plans;
  std::vector<ReviewScenario> reviews;
  std::vector<ListScenario> lists;
};

absl::StatusOr<PlanScenario> DecodePlan(const std::string& name,
                                        const std::string& json) {
  PlanScenario s;
  s.name = name;
  if (auto st = ParseJson(json, name, &s.proto); !st.ok()) return st;
  api::Violations violations;
  s.request = api::FromProto(s.proto, &violations);
  for (auto& v : planner::ValidatePlanRequest(s.request)) {
    violations.push_back(std::move(v));
  }
  if (auto st = CheckClean(name, violations); !st.ok()) return st;
  return s;
}

absl::StatusOr<Scenarios> LoadScenarios(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  if (ec) {
    return absl::NotFoundError(
        absl::StrCat("cannot list ", dir.string(), ": ", ec.message()));
  }
  std::sort(files.begin(), files.end());
  Scenarios out;
  for (const auto& path : files) {
    const std::string name = path.stem().string();
    absl::StatusOr<std::string> json = ReadFile(path);
    if (!json.ok()) return json.status();
    api::Violations violations;
    if (absl::EndsWith(name, "_plan")) {
      absl::StatusOr<PlanScenario> s = DecodePlan(name, *json);
      if (!s.ok()) return s.status();
      out.plans.push_back(*std::move(s));
    } else if (absl::EndsWith(name, "_review")) {
      v1::ReviewPlanRequest proto;
      if (auto st = ParseJson(*json, name, &proto); !st.ok()) return st;
      ReviewScenario s{name, api::FromProto(proto, &violations)};
      for (auto& v : planner::ValidateReviewRequest(s.request)) {
        violations.push_back(std::move(v));
      }
      if (auto st = CheckClean(name, violations); !st.ok()) return st;
      out.reviews.push_back(std::move(s));
    } else if (absl::StartsWith(name, "catalog_")) {
      v1::ListAcceleratorsRequest proto;
      if (auto st = ParseJson(*json, name, &proto); !st.ok()) return st;
      ListScenario s{name, api::FromProto(proto, &violations)};
      for (auto& v : planner::ValidateListRequest(s.request)) {
        violations.push_back(std::move(v));
      }
      if (auto st = CheckClean(name, violations); !st.ok()) return st;
      out.lists.push_back(std::move(s));
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          path.string(), ": cannot tell the request type from the file name"));
    }
  }
  if (out.plans.empty() || out.reviews.empty()) {
    return absl::NotFoundError(
        absl::StrCat("no *_plan.json / *_review.json in ", dir.string()));
  }
  return out;
}

// Nearest-rank percentile, so the result is an observed value.
double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
  rank = std::clamp<size_t>(rank, 1, v.size());
  return v[rank - 1];
}
// p99 over the repetitions: benchmark's built-in statistics stop at
// mean/median/stddev/cv.
double P99(const std::vector<double>& v) { return Percentile(v, 0.99); }

long InvoluntarySwitches() {
  rusage usage;
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_nivcsw;
}

// Runs `call` once per iteration, timing each call on its own so the
// per-call tail is visible and not just the mean. steady_clock costs tens of
// nanoseconds here; the thread CPU clock is a system call of about 2 us on
// this VM, too dear to read per call. On a shared machine a preempted call
// lands in the tail, so the involuntary context switches of the repetition
// are reported beside the percentiles: when preemptions per 1000 calls stay
// well under 10, the p99 is not a preemption.
template <typename Call>
void TimedLoop(benchmark::State& state, Call&& call) {
  std::vector<double> wall_us;
  wall_us.reserve(static_cast<size_t>(state.max_iterations));
  const long switches_before = InvoluntarySwitches();
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    call();
    const auto end = std::chrono::steady_clock::now();
    wall_us.push_back(
        std::chrono::duration<double, std::micro>(end - start).count());
  }
  const long switches = InvoluntarySwitches() - switches_before;
  state.counters["call_p50_us"] = Percentile(wall_us, 0.50);
  state.counters["call_p99_us"] = Percentile(wall_us, 0.99);
  state.counters["preempt_per_1k"] =
      wall_us.empty() ? 0
                      : 1000.0 * static_cast<double>(switches) /
                            static_cast<double>(wall_us.size());
}

void Configure(benchmark::internal::Benchmark* b) {
  b->ComputeStatistics("p99", P99)->Unit(benchmark::kMicrosecond);
}

void CountPlan(benchmark::State& state, const planner::PlanResponse& r) {
  state.counters["alternatives"] = static_cast<double>(r.alternatives.size());
  state.counters["rejected"] = static_cast<double>(r.rejected.size());
  state.counters["has_plan"] = r.recommendation.has_value() ? 1 : 0;
}

// The server's per-call CPU work minus gRPC: the core's PlanTraining (proto
// -> structs, validation, planning with the view, structs -> proto) and
// serialization.
size_t Serve(const planner::Planner& planner,
             const v1::PlanTrainingRequest& proto, v1::PlanTrainingResponse* out,
             std::string* wire) {
  out->Clear();
  if (!core::PlanTraining(planner, proto, {}, out).ok()) return 0;
  out->SerializeToString(wire);
  return wire->size();
}

// Everything passed in must outlive RunSpecifiedBenchmarks.
void RegisterAll(const catalog::CatalogPtr& catalog,
                 const planner::Planner* planner, const Scenarios& scenarios,
                 const std::vector<PlanScenario>& worst,
                 const std::vector<ReviewScenario>& worst_reviews) {
  Configure(benchmark::RegisterBenchmark(
      "PlannerConstruction", [catalog](benchmark::State& state) {
        TimedLoop(state, [&] {
          planner::Planner p(catalog);
          benchmark::DoNotOptimize(&p);
        });
      }));

  std::vector<const PlanScenario*> plans;
  for (const auto& s : scenarios.plans) plans.push_back(&s);
  for (const auto& s : worst) plans.push_back(&s);

  for (const PlanScenario* s : plans) {
    Configure(benchmark::RegisterBenchmark(
        absl::StrCat("Plan/", s->name).c_str(),
        [planner, s](benchmark::State& state) {
          planner::PlanResponse last;
          TimedLoop(state, [&] {
            planner::PlanResponse r = planner->Plan(s->request);
            benchmark::DoNotOptimize(r);
            last = std::move(r);
          });
          CountPlan(state, last);
        }));
  }
  std::vector<const ReviewScenario*> reviews;
  for (const auto& s : scenarios.reviews) reviews.push_back(&s);
  for (const auto& s : worst_reviews) reviews.push_back(&s);
  for (const ReviewScenario* sp : reviews) {
    const ReviewScenario& s = *sp;
    Configure(benchmark::RegisterBenchmark(
        absl::StrCat("Review/", s.name).c_str(),
        [planner, sp](benchmark::State& state) {
          TimedLoop(state, [&] {
            planner::ReviewResponse r = planner->Review(sp->request);
            benchmark::DoNotOptimize(r);
          });
        }));
  }
  for (const auto& s : scenarios.lists) {
    const ListScenario* sp = &s;
    Configure(benchmark::RegisterBenchmark(
        absl::StrCat("List/", s.name).c_str(),
        [planner, sp](benchmark::State& state) {
          TimedLoop(state, [&] {
            planner::ListResponse r = planner->List(sp->request);
            benchmark::DoNotOptimize(r);
          });
        }));
  }
  // BASIC against FULL on the whole handler path, for every plan request
  // (the worst case once: Serve sets the view itself).
  std::vector<std::pair<std::string, const PlanScenario*>> served;
  for (const auto& s : scenarios.plans) served.emplace_back(s.name, &s);
  served.emplace_back("worst_case_70b_min_time", &worst.front());
  for (const auto& s : worst) {
    if (absl::StartsWith(s.name, "limits_")) served.emplace_back(s.name, &s);
  }
  for (const auto& [name, s] : served) {
    for (v1::View view : {v1::BASIC, v1::FULL}) {
      auto proto = std::make_shared<v1::PlanTrainingRequest>(s->proto);
      proto->set_view(view);
      Configure(benchmark::RegisterBenchmark(
          absl::StrCat("Serve/", name, "/", v1::View_Name(view)).c_str(),
          [planner, proto](benchmark::State& state) {
            v1::PlanTrainingResponse response;
            std::string wire;
            size_t bytes = 0;
            TimedLoop(state, [&] {
              bytes = Serve(*planner, *proto, &response, &wire);
            });
            if (bytes == 0) state.SkipWithError("request did not plan");
            state.counters["response_bytes"] = static_cast<double>(bytes);
          }));
    }
  }
}

int Main(int argc, char** argv) {
  const std::string catalog_path =
      EnvOr("ACCELPLAN_CATALOG", ACCELPLAN_BENCH_CATALOG);
  const std::string examples_dir =
      EnvOr("ACCELPLAN_EXAMPLES", ACCELPLAN_BENCH_EXAMPLES);

  absl::StatusOr<catalog::CatalogPtr> catalog =
      catalog::LoadCatalog(catalog_path);
  if (!catalog.ok()) {
    std::fprintf(stderr, "loading catalog %s: %s\n", catalog_path.c_str(),
                 catalog.status().ToString().c_str());
    return 1;
  }
  absl::StatusOr<Scenarios> scenarios = LoadScenarios(examples_dir);
  if (!scenarios.ok()) {
    std::fprintf(stderr, "loading scenarios: %s\n",
                 scenarios.status().ToString().c_str());
    return 1;
  }
  // The planner skips FULL-only work for BASIC, so the worst case is
  // planned in both views.
  std::vector<PlanScenario> worst;
  for (v1::View view : {v1::BASIC, v1::FULL}) {
    absl::StatusOr<PlanScenario> s = DecodePlan(
        absl::StrCat("worst_case_70b_min_time_", v1::View_Name(view)),
        kWorstCaseJson);
    if (!s.ok()) {
      std::fprintf(stderr, "worst case: %s\n", s.status().ToString().c_str());
      return 1;
    }
    s->proto.set_view(view);
    s->request.view = static_cast<planner::View>(view);
    worst.push_back(*std::move(s));
  }
  // The worst valid requests: every repeated field at its limit. Built as
  // planner structs, sent through the proto and back like a real request,
  // and checked to be valid (a rejected request would flatter the figure).
  std::vector<ReviewScenario> worst_reviews;
  const planner::PlanRequest base = worst.back().request;  // 70B, FULL
  for (bool tpu_ops_full : {false, true}) {
    const std::string name = tpu_ops_full ? "limits_all_lists_full"
                                          : "limits_all_lists_full_tpus_kept";
    PlanScenario s;
    s.name = name;
    planner::PlanRequest r =
        LimitsPlanRequest(**catalog, base, tpu_ops_full);
    api::ToProto(r, &s.proto);
    api::Violations violations;
    s.request = api::FromProto(s.proto, &violations);
    for (auto& v : planner::ValidatePlanRequest(s.request)) {
      violations.push_back(std::move(v));
    }
    if (auto st = CheckClean(name, violations); !st.ok()) {
      std::fprintf(stderr, "%s\n", st.ToString().c_str());
      return 1;
    }
    if (!tpu_ops_full) {
      ReviewScenario review{"limits_64_proposals",
                            LimitsReviewRequest(**catalog, s.request)};
      auto v = planner::ValidateReviewRequest(review.request);
      if (auto st = CheckClean(review.name, v); !st.ok()) {
        std::fprintf(stderr, "%s\n", st.ToString().c_str());
        return 1;
      }
      worst_reviews.push_back(std::move(review));
    }
    worst.push_back(std::move(s));
  }
  const planner::Planner planner(*catalog);
  RegisterAll(*catalog, &planner, *scenarios, worst, worst_reviews);

  // Defaults first so that flags given on the command line win.
  std::string reps =
      absl::StrCat("--benchmark_repetitions=", kDefaultRepetitions);
  std::vector<char*> args = {argv[0], reps.data()};
  std::string aggregates = "--benchmark_report_aggregates_only=true";
  std::string min_time = "--benchmark_min_time=0.05";
  args.push_back(aggregates.data());
  args.push_back(min_time.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  int args_count = static_cast<int>(args.size());
  benchmark::Initialize(&args_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace accelplan::bench

int main(int argc, char** argv) { return accelplan::bench::Main(argc, argv); }
