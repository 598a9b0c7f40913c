#include "bench/load/mix.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "accelplan/v1/accelplan.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpc/health/v1/health.pb.h"

namespace accelplan::load {
namespace {

namespace fs = std::filesystem;
using google::protobuf::Message;

constexpr const char* kCodeNames[] = {"OK",
                                      "CANCELLED",
                                      "UNKNOWN",
                                      "INVALID_ARGUMENT",
                                      "DEADLINE_EXCEEDED",
                                      "NOT_FOUND",
                                      "ALREADY_EXISTS",
                                      "PERMISSION_DENIED",
                                      "RESOURCE_EXHAUSTED",
                                      "FAILED_PRECONDITION",
                                      "ABORTED",
                                      "OUT_OF_RANGE",
                                      "UNIMPLEMENTED",
                                      "INTERNAL",
                                      "UNAVAILABLE",
                                      "DATA_LOSS",
                                      "UNAUTHENTICATED"};

// SplitMix64: a fixed, portable sequence for a given seed (the standard
// library's distributions differ between implementations).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double Uniform() { return (Next() >> 11) * 0x1.0p-53; }  // [0, 1)
  // Log-uniform in [lo, hi]: sizes vary over orders of magnitude.
  double LogUniform(double lo, double hi) {
    return lo * std::pow(hi / lo, Uniform());
  }
  bool Chance(double p) { return Uniform() < p; }
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }

 private:
  uint64_t state_;
};

// Three significant digits, as a person would write the number.
double Round3(double x) {
  if (x <= 0 || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - 2);
  return std::round(x / scale) * scale;
}

absl::Status ParseJson(const std::string& json, const std::string& what,
                       Message* out) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  auto status = google::protobuf::util::JsonStringToMessage(json, out, options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": not a valid ", out->GetTypeName(), ": ", status.ToString()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

MixEntry Entry(Rpc rpc, grpc::StatusCode expected, std::string name,
               const Message& request) {
  MixEntry e;
  e.rpc = rpc;
  e.expected = expected;
  e.name = std::move(name);
  (void)google::protobuf::util::MessageToJsonString(request, &e.json);
  e.request = request.SerializeAsString();
  return e;
}

// A variant of a seed request: sizes scaled, deadline/budget/objective
// redrawn, so plans differ in counts, topologies and rankings.
void Vary(Rng& rng, v1::PlanTrainingRequest* r) {
  v1::Workload* w = r->mutable_workload();
  if (w->parameter_count() > 0) {
    w->set_parameter_count(
        Round3(w->parameter_count() * rng.LogUniform(0.25, 4)));
  }
  if (w->dataset_tokens() > 0) {
    w->set_dataset_tokens(
        Round3(w->dataset_tokens() * rng.LogUniform(0.1, 10)));
  }
  if (w->dataset_examples() > 0) {
    w->set_dataset_examples(
        Round3(w->dataset_examples() * rng.LogUniform(0.1, 10)));
  }
  v1::Goal* g = r->mutable_goal();
  if (rng.Chance(0.5)) {
    g->set_objective(static_cast<v1::Objective>(1 + rng.Below(3)));
  }
  if (g->deadline_hours() > 0 || rng.Chance(0.3)) {
    g->set_deadline_hours(Round3(rng.LogUniform(6, 2000)));
    g->set_hard_deadline(rng.Chance(0.5));
  }
  if (g->budget_usd() > 0 || rng.Chance(0.3)) {
    g->set_budget_usd(Round3(rng.LogUniform(100, 5e6)));
  }
}

// Invalid on purpose: the server must answer INVALID_ARGUMENT (SPEC §5).
void Break(Rng& rng, v1::PlanTrainingRequest* r) {
  v1::Workload* w = r->mutable_workload();
  switch (rng.Below(5)) {
    case 0:
      w->set_parameter_count(-std::max(1.0, w->parameter_count()));
      break;
    case 1:
      w->set_parameter_count(std::numeric_limits<double>::quiet_NaN());
      break;
    case 2:
      w->set_framework(static_cast<v1::Framework>(999));
      break;
    case 3:
      r->mutable_goal()->set_deadline_hours(-5);
      break;
    default:
      w->set_parameter_count(1e30);
      break;
  }
}

template <typename Request>
absl::StatusOr<std::vector<std::pair<std::string, Request>>> LoadExamples(
    const std::string& dir, absl::string_view word) {
  std::vector<fs::path> paths;
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(dir, ec)) {
    const std::string name = f.path().filename().string();
    if (absl::EndsWith(name, ".json") && absl::StrContains(name, word)) {
      paths.push_back(f.path());
    }
  }
  if (ec) {
    return absl::NotFoundError(
        absl::StrCat("cannot list ", dir, ": ", ec.message()));
  }
  std::sort(paths.begin(), paths.end());  // directory order is not stable
  std::vector<std::pair<std::string, Request>> out;
  for (const fs::path& p : paths) {
    absl::StatusOr<std::string> json = ReadFile(p);
    if (!json.ok()) return json.status();
    Request request;
    if (absl::Status s = ParseJson(*json, p.string(), &request); !s.ok()) {
      return s;
    }
    out.emplace_back(p.stem().string(), std::move(request));
  }
  return out;
}

}  // namespace

absl::string_view RpcName(Rpc rpc) {
  switch (rpc) {
    case Rpc::kHealth:
      return "health";
    case Rpc::kPlan:
      return "plan";
    case Rpc::kReview:
      return "review";
    case Rpc::kList:
      return "list";
  }
  return "?";
}

absl::StatusOr<Rpc> ParseRpc(absl::string_view name) {
  for (Rpc r : {Rpc::kHealth, Rpc::kPlan, Rpc::kReview, Rpc::kList}) {
    if (name == RpcName(r)) return r;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown rpc \"", name, "\" (health, plan, review or list)"));
}

const char* RpcMethod(Rpc rpc) {
  switch (rpc) {
    case Rpc::kHealth:
      return "/grpc.health.v1.Health/Check";
    case Rpc::kPlan:
      return "/accelplan.v1.TrainingPlanner/PlanTraining";
    case Rpc::kReview:
      return "/accelplan.v1.TrainingPlanner/ReviewPlan";
    case Rpc::kList:
      return "/accelplan.v1.TrainingPlanner/ListAccelerators";
  }
  return "";
}

absl::string_view CodeName(grpc::StatusCode code) {
  const int i = static_cast<int>(code);
  return i >= 0 && i < 17 ? kCodeNames[i] : "INVALID_CODE";
}

absl::StatusOr<grpc::StatusCode> ParseCode(absl::string_view name) {
  for (int i = 0; i < 17; ++i) {
    if (absl::EqualsIgnoreCase(name, kCodeNames[i])) {
      return static_cast<grpc::StatusCode>(i);
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown status code \"", name, "\""));
}

std::string HealthCheckRequestBytes() {
  grpc::health::v1::HealthCheckRequest request;
  request.set_service("accelplan.v1.TrainingPlanner");
  return request.SerializeAsString();
}

absl::StatusOr<std::vector<MixEntry>> BuildMix(const MixOptions& options) {
  if (options.size < 1) {
    return absl::InvalidArgumentError("mix size must be >= 1");
  }
  auto seeds =
      LoadExamples<v1::PlanTrainingRequest>(options.examples_dir, "_plan");
  if (!seeds.ok()) return seeds.status();
  if (seeds->empty()) {
    return absl::NotFoundError(
        absl::StrCat("no *_plan*.json in ", options.examples_dir));
  }
  Rng rng(options.seed);
  std::vector<MixEntry> mix;
  for (int i = 0; i < options.size; ++i) {
    const auto& [seed_name, seed_request] = (*seeds)[i % seeds->size()];
    v1::PlanTrainingRequest request = seed_request;
    // The first round is the seeds themselves.
    if (i >= static_cast<int>(seeds->size())) Vary(rng, &request);
    std::string name = absl::StrCat(seed_name, "#", i);
    if (rng.Chance(options.invalid_fraction)) {
      Break(rng, &request);
      mix.push_back(Entry(Rpc::kPlan, grpc::StatusCode::INVALID_ARGUMENT,
                          absl::StrCat(name, "-invalid"), request));
    } else {
      mix.push_back(Entry(Rpc::kPlan, grpc::StatusCode::OK, name, request));
    }
  }
  if (options.other_fraction > 0) {
    auto reviews =
        LoadExamples<v1::ReviewPlanRequest>(options.examples_dir, "review");
    if (!reviews.ok()) return reviews.status();
    auto lists = LoadExamples<v1::ListAcceleratorsRequest>(options.examples_dir,
                                                           "catalog");
    if (!lists.ok()) return lists.status();
    grpc::health::v1::HealthCheckRequest health;
    health.set_service("accelplan.v1.TrainingPlanner");
    const int others =
        static_cast<int>(std::ceil(options.size * options.other_fraction /
                                   std::max(1e-9, 1 - options.other_fraction)));
    for (int i = 0; i < others; ++i) {
      switch (i % 3) {
        case 0:
          if (!reviews->empty()) {
            const auto& [n, r] = (*reviews)[rng.Below(reviews->size())];
            mix.push_back(Entry(Rpc::kReview, grpc::StatusCode::OK, n, r));
          }
          break;
        case 1:
          if (!lists->empty()) {
            const auto& [n, r] = (*lists)[rng.Below(lists->size())];
            mix.push_back(Entry(Rpc::kList, grpc::StatusCode::OK, n, r));
          }
          break;
        default:
          mix.push_back(
              Entry(Rpc::kHealth, grpc::StatusCode::OK, "health", health));
      }
    }
  }
  // Fisher-Yates with our own generator: the same order everywhere.
  for (size_t i = mix.size(); i > 1; --i)
    std::swap(mix[i - 1], mix[rng.Below(i)]);
  return mix;
}

absl::StatusOr<std::vector<MixEntry>> ReadMixFile(const std::string& path) {
  absl::StatusOr<std::string> content = ReadFile(path);
  if (!content.ok()) return content.status();
  std::vector<MixEntry> mix;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(*content, '\n')) {
    ++line_no;
    if (absl::StripAsciiWhitespace(line).empty() || line[0] == '#') continue;
    std::vector<absl::string_view> f =
        absl::StrSplit(line, absl::MaxSplits('\t', 3));
    const std::string where = absl::StrCat(path, ":", line_no);
    if (f.size() != 4) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": want rpc<TAB>expected_code<TAB>name<TAB>request_json"));
    }
    absl::StatusOr<Rpc> rpc = ParseRpc(f[0]);
    if (!rpc.ok())
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", rpc.status().message()));
    absl::StatusOr<grpc::StatusCode> code = ParseCode(f[1]);
    if (!code.ok())
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", code.status().message()));
    std::unique_ptr<Message> request;
    switch (*rpc) {
      case Rpc::kHealth:
        request = std::make_unique<grpc::health::v1::HealthCheckRequest>();
        break;
      case Rpc::kPlan:
        request = std::make_unique<v1::PlanTrainingRequest>();
        break;
      case Rpc::kReview:
        request = std::make_unique<v1::ReviewPlanRequest>();
        break;
      case Rpc::kList:
        request = std::make_unique<v1::ListAcceleratorsRequest>();
        break;
    }
    if (absl::Status s = ParseJson(std::string(f[3]), where, request.get());
        !s.ok())
      return s;
    mix.push_back(Entry(*rpc, *code, std::string(f[2]), *request));
  }
  if (mix.empty())
    return absl::InvalidArgumentError(absl::StrCat(path, ": no requests"));
  return mix;
}

absl::Status WriteMixFile(const std::vector<MixEntry>& mix,
                          const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << "# accelplan load mix: "
         "rpc<TAB>expected_code<TAB>name<TAB>request_json\n";
  for (const MixEntry& e : mix) {
    out << RpcName(e.rpc) << '\t' << CodeName(e.expected) << '\t' << e.name
        << '\t' << e.json << '\n';
  }
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

absl::Status ApplyView(absl::string_view view, std::vector<MixEntry>* mix) {
  if (view.empty()) return absl::OkStatus();
  v1::View v;
  if (view == "basic") {
    v = v1::BASIC;
  } else if (view == "full") {
    v = v1::FULL;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--view must be basic or full, got \"", view, "\""));
  }
  for (MixEntry& e : *mix) {
    if (e.rpc != Rpc::kPlan) continue;
    v1::PlanTrainingRequest r;
    if (!r.ParseFromString(e.request)) {
      return absl::InternalError(absl::StrCat(e.name, ": cannot reparse"));
    }
    r.set_view(v);
    e = Entry(e.rpc, e.expected, std::move(e.name), r);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<MixEntry>> LoadMix(const std::string& mix_file,
                                              const MixOptions& options) {
  if (!mix_file.empty() && options.examples_dir.empty()) {
    return ReadMixFile(mix_file);
  }
  if (!options.examples_dir.empty() && mix_file.empty()) {
    return BuildMix(options);
  }
  return absl::InvalidArgumentError(
      "give exactly one of --examples_dir and --mix");
}

}  // namespace accelplan::load
