#include "client/cli/plan_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "client/cli/units.h"

namespace accelplan::cli {
namespace {

// "TPU v6e (Trillium)" → "TPU v6e": the nickname adds width, not meaning.
std::string AcceleratorName(const v1::Hardware& h) {
  std::string name = h.accelerator_name();
  if (h.platform() == v1::TPU && absl::EndsWith(name, ")")) {
    if (size_t open = name.find(" ("); open != std::string::npos) {
      name.resize(open);
    }
  }
  return name;
}

std::string ShortAccelerator(const v1::Hardware& h) {
  std::string name = AcceleratorName(h);
  if (absl::StartsWith(name, "NVIDIA ")) name = name.substr(7);
  if (h.platform() == v1::TPU && !h.tpu_topology().empty()) {
    absl::StrAppend(&name, " ", h.tpu_topology());
  }
  return name;
}

std::string RunPlatformName(v1::RunPlatform p) {
  switch (p) {
    case v1::VERTEX_TRAINING:
      return "Vertex AI";
    case v1::GKE:
      return "GKE";
    case v1::COMPUTE_ENGINE:
      return "Compute Engine";
    default:
      return "";
  }
}

std::string ProvisioningName(v1::Provisioning p) {
  switch (p) {
    case v1::SPOT:
      return "Spot";
    case v1::FLEX_START:
      return "DWS flex-start";
    case v1::RESERVATION:
      return "reservation";
    default:
      return "";
  }
}

// "g2-standard-96 (L4)", "4× a3-highgpu-8g (H100 80GB), Spot".
std::string OptionLabel(const v1::Hardware& h) {
  std::string label = h.machine_type().empty() ? h.series() : h.machine_type();
  if (h.hosts() > 1) label = absl::StrCat(h.hosts(), "× ", label);
  std::string accel = ShortAccelerator(h);
  if (h.slices() > 1) absl::StrAppend(&accel, " ×", h.slices(), " slices");
  if (!accel.empty()) absl::StrAppend(&label, " (", accel, ")");
  if (std::string p = ProvisioningName(h.provisioning()); !p.empty()) {
    absl::StrAppend(&label, ", ", p);
  }
  return label;
}

// "8 × NVIDIA L4 on g2-standard-96 (Vertex AI)".
std::string Headline(const v1::Hardware& h) {
  const std::string machine =
      h.machine_type().empty() ? h.series() : h.machine_type();
  const std::string hosts =
      h.hosts() > 1 ? absl::StrCat(h.hosts(), " × ", machine) : machine;
  std::string out;
  if (h.platform() == v1::TPU) {
    out = AcceleratorName(h);
    if (!h.tpu_topology().empty()) absl::StrAppend(&out, " ", h.tpu_topology());
    if (h.slices() > 1) absl::StrAppend(&out, " × ", h.slices(), " slices");
    absl::StrAppend(&out, " on ", hosts);
  } else if (h.total_accelerators() > 0 && !h.accelerator_name().empty()) {
    out = absl::StrCat(h.total_accelerators(), " × ", h.accelerator_name(),
                       " on ", hosts);
  } else {
    out = absl::StrCat(hosts, h.platform() == v1::CPU ? " (CPU)" : "");
  }
  std::vector<std::string> where;
  if (h.platform() == v1::CPU && h.total_accelerators() == 0) {
    out = hosts;
    where.push_back("CPU");
  }
  if (std::string r = RunPlatformName(h.run_platform()); !r.empty()) {
    where.push_back(r);
  }
  if (std::string p = ProvisioningName(h.provisioning()); !p.empty()) {
    where.push_back(p);
  }
  if (!where.empty())
    absl::StrAppend(&out, " (", absl::StrJoin(where, ", "), ")");
  return out;
}

double KnownOr0(double v) { return Known(v) ? v : 0; }

OptionView MakeOption(const v1::Plan& plan, bool recommended) {
  OptionView o;
  o.plan = &plan;
  o.recommended = recommended;
  const v1::Hardware& h = plan.hardware();
  const v1::Estimates& e = plan.estimates();
  o.label = OptionLabel(h);
  o.headline = Headline(h);
  o.count = h.total_accelerators() > 0 ? h.total_accelerators() : h.hosts();
  o.hours = KnownOr0(e.total_hours().expected());
  if (o.hours > 0) {
    o.hours_low = KnownOr0(e.total_hours().low());
    o.hours_high = KnownOr0(e.total_hours().high());
  }
  o.tokens_per_second = KnownOr0(e.tokens_per_second());
  o.step_seconds = KnownOr0(e.step_time_seconds());
  if (e.price_known()) {
    const bool spot = h.provisioning() == v1::SPOT;
    const v1::Range& cost = spot ? e.spot_cost_usd() : e.on_demand_cost_usd();
    o.cost = o.hours > 0 ? KnownOr0(cost.expected()) : 0;
    if (o.cost > 0) {
      o.cost_low = KnownOr0(cost.low());
      o.cost_high = KnownOr0(cost.high());
    }
    if (!spot && o.cost > 0)
      o.spot_cost = KnownOr0(e.spot_cost_usd().expected());
    o.hourly_usd = KnownOr0(e.hourly_usd());
    if (o.hourly_usd == 0) o.hourly_usd = KnownOr0(e.on_demand_hourly_usd());
    o.cost_per_million_tokens = KnownOr0(e.cost_per_million_tokens_usd());
  }
  return o;
}

std::string CodeWords(v1::ReasonCode code) {
  return absl::StrReplaceAll(absl::AsciiStrToLower(v1::ReasonCode_Name(code)),
                             {{"_", " "}});
}

// What `alt` wins and loses against `best`: from the totals when both are
// known, else from throughput and cost per token; CHEAPER/FASTER and any
// other reason code the planner gave fill in the rest.
void Compare(const OptionView& best, OptionView* alt) {
  double time_ratio = 0, cost_ratio = 0;
  if (alt->hours > 0 && best.hours > 0) {
    time_ratio = alt->hours / best.hours;
  } else if (alt->tokens_per_second > 0 && best.tokens_per_second > 0) {
    time_ratio = best.tokens_per_second / alt->tokens_per_second;
  }
  if (alt->cost > 0 && best.cost > 0) {
    cost_ratio = alt->cost / best.cost;
  } else if (alt->cost_per_million_tokens > 0 &&
             best.cost_per_million_tokens > 0) {
    cost_ratio = alt->cost_per_million_tokens / best.cost_per_million_tokens;
  }
  // The planner's own SLOWER/FASTER count a flex-start wait for capacity
  // the hours leave out: they win over the hours' ratio.
  const auto says = [&](v1::ReasonCode code) {
    for (const v1::Reason& r : alt->plan->reasons()) {
      if (r.code() == code) return true;
    }
    return false;
  };
  if (time_ratio > 0 && time_ratio < 0.95 && !says(v1::SLOWER)) {
    alt->wins.push_back(HumanRatio(1 / time_ratio) + " faster");
  } else if (time_ratio > 1.05 && !says(v1::FASTER)) {
    alt->loses.push_back(HumanRatio(time_ratio) + " slower");
  }
  if (cost_ratio > 0 && cost_ratio < 0.95) {
    alt->wins.push_back(
        absl::StrFormat("−%.0f%% cost", (1 - cost_ratio) * 100));
  } else if (cost_ratio >= 2) {
    alt->loses.push_back(HumanRatio(cost_ratio) + " the cost");
  } else if (cost_ratio > 1.05) {
    alt->loses.push_back(
        absl::StrFormat("+%.0f%% cost", (cost_ratio - 1) * 100));
  }
  for (const v1::Reason& r : alt->plan->reasons()) {
    switch (r.code()) {
      case v1::REASON_CODE_UNSPECIFIED:
      case v1::ASSUMPTION:
        break;
      case v1::HIGHER_COST:  // the numbers above say it, when known
        if (cost_ratio == 0) alt->loses.push_back("higher cost");
        break;
      case v1::SLOWER:  // the ratio above says it when over 1.05
        if (time_ratio > 0 && time_ratio < 0.95) {
          alt->loses.push_back("slower to results (waits for capacity)");
        } else if (time_ratio <= 1.05) {
          alt->loses.push_back("slower");
        }
        break;
      case v1::CHEAPER:
        if (cost_ratio == 0 || cost_ratio >= 0.95)
          alt->wins.push_back("cheaper");
        break;
      case v1::FASTER:
        if (time_ratio == 0 || time_ratio >= 0.95)
          alt->wins.push_back("faster");
        break;
      default:
        alt->loses.push_back(CodeWords(r.code()));
    }
  }
  if (alt->plan->hardware().provisioning() !=
          best.plan->hardware().provisioning() &&
      alt->plan->hardware().provisioning() == v1::SPOT) {
    alt->loses.push_back("may be preempted");
  }
}

std::string FirstSentence(absl::string_view text) {
  size_t end = text.find(". ");
  return std::string(end == absl::string_view::npos ? text
                                                    : text.substr(0, end + 1));
}

std::vector<RejectionGroup> GroupRejections(
    const v1::PlanTrainingResponse& response) {
  std::vector<RejectionGroup> groups;
  std::map<int, size_t> index;
  std::map<int, std::map<std::string, std::set<std::string>>> families;
  for (const v1::Rejection& r : response.rejected()) {
    const v1::ReasonCode code = r.codes().empty()
                                    ? v1::REASON_CODE_UNSPECIFIED
                                    : static_cast<v1::ReasonCode>(r.codes(0));
    auto [it, added] = index.emplace(code, groups.size());
    if (added) {
      groups.push_back({code, 0, {}, FirstSentence(r.reason()), {}});
    }
    RejectionGroup& g = groups[it->second];
    ++g.count;
    g.reasons.push_back(r.reason());
    const v1::Hardware& h = r.hardware();
    std::string family = h.series().empty() ? h.machine_type() : h.series();
    if (families[code].count(family) == 0) g.families.push_back(family);
    // The N1 CPU series and N1's GPUs share the series name: "N1 (CPU/T4)".
    const std::string accel = ShortAccelerator(h);
    families[code][family].insert(accel.empty() ? "CPU" : accel);
  }
  // "N1" rejected for four GPUs reads "N1 (P100/P4/T4/V100)".
  for (RejectionGroup& g : groups) {
    for (std::string& family : g.families) {
      const std::set<std::string>& accels = families[g.code][family];
      if (accels.size() > 1) {
        family = absl::StrCat(family, " (", absl::StrJoin(accels, "/"), ")");
      }
    }
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const RejectionGroup& a, const RejectionGroup& b) {
                     return a.count > b.count;
                   });
  return groups;
}

// Assumptions that change the answer: defaults for what was not given.
bool ChangesTheAnswer(absl::string_view a) {
  return absl::StartsWith(a, "No ") || absl::StrContains(a, "not given") ||
         absl::StrContains(a, "assumed") || absl::StrContains(a, "Assumed");
}

bool IsClassical(v1::Framework f) {
  return f == v1::XGBOOST || f == v1::SCIKIT_LEARN || f == v1::LIGHTGBM;
}

bool HasWarning(const v1::PlanTrainingResponse& r, v1::ReasonCode code) {
  for (const v1::Reason& w : r.warnings()) {
    if (w.code() == code) return true;
  }
  return false;
}

// The flag that sizes this workload's data set: the field the planner's
// NO_DATASET_SIZE warning names (it knows whether the work counts tokens,
// examples or bytes); classical ML's bytes when it names none.
std::string DatasetFlag(const v1::PlanTrainingRequest& request,
                        const v1::PlanTrainingResponse& response) {
  for (const v1::Reason& w : response.warnings()) {
    if (w.code() != v1::NO_DATASET_SIZE) continue;
    if (absl::StrContains(w.message(), "dataset_tokens or dataset_examples")) {
      return "--tokens or --examples";
    }
    if (absl::StrContains(w.message(), "dataset_examples")) return "--examples";
    if (absl::StrContains(w.message(), "dataset_tokens")) return "--tokens";
    if (absl::StrContains(w.message(), "dataset_gib")) return "--dataset_gib";
  }
  return IsClassical(request.workload().framework()) ? "--dataset_gib"
                                                     : "--tokens or --examples";
}

// "; meets the 24 h deadline; within the $5,000 budget" and the like.
std::string GoalStatus(const v1::PlanTrainingRequest& request,
                       const v1::PlanTrainingResponse& response,
                       const OptionView& best) {
  const double deadline = KnownOr0(request.goal().deadline_hours());
  const double budget = KnownOr0(request.goal().budget_usd());
  std::vector<std::string> parts;
  if (best.hours == 0) {
    const std::string why =
        HasWarning(response, v1::NO_DATASET_SIZE)
            ? absl::StrCat("no dataset size — give ",
                           DatasetFlag(request, response))
            : "no total time estimated";
    const char* what = deadline > 0 && budget > 0
                           ? "deadline and budget not checked"
                       : deadline > 0 ? "deadline not checked"
                       : budget > 0   ? "budget not checked"
                                      : "no total time or cost";
    const bool no_dataset = HasWarning(response, v1::NO_DATASET_SIZE);
    parts.push_back(no_dataset || deadline > 0 || budget > 0
                        ? absl::StrCat(what, ": ", why)
                        : "no total time or cost estimated");
    return absl::StrJoin(parts, "; ");
  }
  const bool meets = best.hours <= deadline;
  const bool within = best.cost > 0 && best.cost <= budget;
  if (deadline > 0 && budget > 0 && meets && within) {
    return absl::StrCat("meets the ", absl::StrFormat("%g", deadline),
                        " h deadline and the ", HumanUsd(budget), " budget");
  }
  if (deadline > 0) {
    parts.push_back(
        meets ? absl::StrCat("meets the ", absl::StrFormat("%g", deadline),
                             " h deadline")
              : absl::StrCat("MISSES the ", absl::StrFormat("%g", deadline),
                             " h deadline"));
  }
  if (budget > 0 && best.cost > 0) {
    parts.push_back(
        within ? absl::StrCat("within the ", HumanUsd(budget), " budget")
               : absl::StrCat("OVER the ", HumanUsd(budget), " budget"));
  } else if (budget > 0) {
    parts.push_back("budget not checked: price unknown");
  }
  return absl::StrJoin(parts, "; ");
}

std::string Verdict(const v1::PlanTrainingRequest& request,
                    const v1::PlanTrainingResponse& response,
                    const OptionView& best) {
  std::vector<std::string> figures;
  if (best.hours > 0) figures.push_back(HumanHours(best.hours));
  if (best.cost > 0) {
    figures.push_back(HumanUsd(best.cost));
  } else if (best.hourly_usd > 0) {
    figures.push_back(HumanUsd(best.hourly_usd) + "/h");
  }
  if (best.hours == 0 && best.tokens_per_second > 0) {
    figures.push_back(HumanCount(best.tokens_per_second) + " tokens/s");
  }
  std::string tail;
  if (!figures.empty())
    absl::StrAppend(&tail, " — ", absl::StrJoin(figures, ", "));
  if (std::string status = GoalStatus(request, response, best);
      !status.empty()) {
    absl::StrAppend(&tail, "; ", status);
  }
  // One screen line: the short label when the headline does not fit (the
  // table wraps what still does not, never cutting the status).
  std::string out = absl::StrCat("RECOMMENDED: ", best.headline, tail);
  if (DisplayWidth(out) > 120)
    out = absl::StrCat("RECOMMENDED: ", best.label, tail);
  return out;
}

std::string Details(const v1::Plan& plan, const OptionView& best) {
  std::vector<std::string> parts;
  const v1::Distribution& d = plan.distribution();
  if (d.strategy() != v1::STRATEGY_UNSPECIFIED) {
    std::string s = absl::StrReplaceAll(
        absl::AsciiStrToLower(v1::Strategy_Name(d.strategy())), {{"_", " "}});
    const int degree =
        std::max({d.data_parallelism(), d.fsdp_parallelism(),
                  d.tensor_parallelism(), d.pipeline_parallelism()});
    if (degree > 1) {
      std::vector<std::string> degrees;
      for (auto [name, n] :
           {std::pair<const char*, int>{"data", d.data_parallelism()},
            {"fsdp", d.fsdp_parallelism()},
            {"tensor", d.tensor_parallelism()},
            {"pipeline", d.pipeline_parallelism()}}) {
        if (n > 1) degrees.push_back(absl::StrCat(name, " ", n));
      }
      absl::StrAppend(&s, " (", absl::StrJoin(degrees, ", "), ")");
    }
    if (!d.framework_api().empty()) {
      // "torch.nn.parallel.DistributedDataParallel (DDP)" → "DDP".
      std::string api = d.framework_api();
      const size_t open = api.rfind('(');
      if (open != std::string::npos && api.back() == ')' &&
          open + 2 < api.size()) {
        api = api.substr(open + 1, api.size() - open - 2);
      }
      absl::StrAppend(&s, " via ", api);
    }
    if (d.has_reduction_server() && d.reduction_server().replica_count() > 0) {
      absl::StrAppend(&s, " + Reduction Server ",
                      d.reduction_server().replica_count(), " × ",
                      d.reduction_server().machine_type());
    }
    parts.push_back(s);
  }
  const v1::MemoryBreakdown& m = plan.estimates().memory_per_device();
  if (Known(m.total_gib()) && Known(m.usable_gib())) {
    parts.push_back(absl::StrFormat("%.1f of %.1f GiB per device",
                                    m.total_gib(), m.usable_gib()));
  }
  if (best.hours_low > 0 && best.hours_high > 0) {
    std::string range = absl::StrCat(HumanHours(best.hours_low), "–",
                                     HumanHours(best.hours_high));
    if (best.cost_low > 0 && best.cost_high > 0) {
      absl::StrAppend(&range, ", ", HumanUsd(best.cost_low), "–",
                      HumanUsd(best.cost_high));
    }
    parts.push_back("range " + range);
  }
  if (best.spot_cost > 0) parts.push_back("Spot " + HumanUsd(best.spot_cost));
  return absl::StrJoin(parts, " · ");
}

// "accelplan-llama-3-1-8b-lora": the model (or method and size), in the
// characters Vertex AI display names and Kubernetes names accept.
std::string DisplayName(const v1::PlanTrainingRequest& request) {
  const v1::Workload& w = request.workload();
  std::string name = w.model_name();
  if (name.empty() && Known(w.parameter_count())) {
    name = absl::AsciiStrToLower(HumanCount(w.parameter_count()));
  }
  if (w.training_method() != v1::TRAINING_METHOD_UNSPECIFIED) {
    absl::StrAppend(&name, name.empty() ? "" : "-",
                    v1::TrainingMethod_Name(w.training_method()));
  }
  std::string slug;
  for (char c : absl::AsciiStrToLower(name.empty() ? "training" : name)) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) {
      slug.push_back(c);
    } else if (!slug.empty() && slug.back() != '-') {
      slug.push_back('-');
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return absl::StrCat("accelplan-", slug).substr(0, 63);
}

LaunchView Launch(const v1::PlanTrainingRequest& request,
                  const v1::PlanTrainingResponse& response,
                  const std::string& emit_kind, const std::string& emit_path) {
  LaunchView l;
  const v1::Plan& plan = response.recommendation();
  std::string kind = emit_kind;
  if (kind.empty()) {
    const bool gke = plan.hardware().run_platform() == v1::GKE ||
                     JobSpecText(response, "vertex").empty();
    kind = gke ? "gke" : "vertex";
  }
  l.spec = JobSpecText(response, kind);
  if (l.spec.empty()) {
    if (plan.hardware().run_platform() == v1::COMPUTE_ENGINE &&
        plan.hardware().platform() != v1::TPU &&
        !plan.hardware().machine_type().empty()) {
      // No job spec: the plan runs on VMs the team creates itself, in the
      // zone of its gcloud configuration (compute/zone).
      const int hosts = std::max(1, plan.hardware().hosts());
      l.kind = "compute_engine";
      l.where = "Compute Engine";
      l.command =
          hosts > 1
              ? absl::StrCat(
                    "gcloud compute instances bulk create "
                    "--name-pattern=accelplan-## --count=",
                    hosts, " --machine-type=", plan.hardware().machine_type())
              : absl::StrCat("gcloud compute instances create ",
                             DisplayName(request), " --machine-type=",
                             plan.hardware().machine_type());
    }
    return l;
  }
  l.kind = kind;
  l.emitted = !emit_path.empty();
  if (kind == "vertex") {
    l.where = "Vertex AI";
    l.file = l.emitted ? emit_path : "job.json";
    std::string region = request.constraints().region();
    if (region.empty()) region = plan.estimates().price_region();
    if (region.empty()) region = "us-central1";
    l.command = absl::StrCat("gcloud ai custom-jobs create --region=", region,
                             " --display-name=", DisplayName(request),
                             " --config=", l.file);
  } else {
    l.where = "GKE";
    l.file = l.emitted ? emit_path : "jobset.yaml";
    l.command = absl::StrCat("kubectl apply -f ", l.file);
  }
  return l;
}

}  // namespace

std::string JobSpecText(const v1::PlanTrainingResponse& response,
                        const std::string& kind) {
  if (!response.has_recommendation()) return "";
  const v1::JobSpec& spec = response.recommendation().job_spec();
  if (kind == "vertex") return spec.vertex().config_json();
  if (kind == "gke") return spec.gke().manifest_yaml();
  return "";
}

PlanView BuildPlanView(const v1::PlanTrainingRequest& request,
                       const v1::PlanTrainingResponse& response,
                       const std::string& emit_kind,
                       const std::string& emit_path) {
  PlanView v;
  v.catalog_version = response.catalog_version();
  v.deadline_hours = KnownOr0(request.goal().deadline_hours());
  v.budget_usd = KnownOr0(request.goal().budget_usd());
  v.viable = response.has_recommendation();
  if (v.viable) {
    v.options.push_back(MakeOption(response.recommendation(), true));
    for (const v1::Plan& alt : response.alternatives()) {
      v.options.push_back(MakeOption(alt, false));
      Compare(v.options.front(), &v.options.back());
    }
    const OptionView& best = v.options.front();
    v.totals_known = best.hours > 0;
    v.verdict = Verdict(request, response, best);
    v.details = Details(response.recommendation(), best);
    v.job_spec_note = response.recommendation().job_spec().note();
    v.launch = Launch(request, response, emit_kind, emit_path);
  } else {
    v.verdict =
        absl::StrCat("NO VIABLE PLAN: ", response.no_plan_reason().empty()
                                             ? "(no reason given)"
                                             : response.no_plan_reason());
    // What the reason says is listed as alternatives (unpriced hardware
    // under a budget): each with the codes that keep it from being
    // recommended, nothing to compare against.
    for (const v1::Plan& alt : response.alternatives()) {
      OptionView o = MakeOption(alt, false);
      for (const v1::Reason& r : alt.reasons()) {
        if (r.code() != v1::ASSUMPTION &&
            r.code() != v1::REASON_CODE_UNSPECIFIED) {
          o.loses.push_back(CodeWords(r.code()));
        }
      }
      v.options.push_back(std::move(o));
    }
    v.totals_known = !v.options.empty() && v.options.front().hours > 0;
  }
  v.rejections = GroupRejections(response);
  v.rejected_total = response.rejected_size();
  for (const v1::Remedy& r : response.remedies())
    v.remedies.push_back(r.summary());
  if (response.has_savings() && Known(response.savings().cost_saved_usd())) {
    const v1::Savings& s = response.savings();
    v.savings = absl::StrCat("saves ", HumanUsd(s.cost_saved_usd()));
    if (Known(s.hours_saved())) {
      absl::StrAppend(&v.savings, " and ", HumanHours(s.hours_saved()));
    }
    absl::StrAppend(&v.savings, " against ", s.current_hardware());
  }
  for (const v1::Reason& w : response.warnings()) {
    if (w.code() == v1::NO_DATASET_SIZE && v.viable) continue;  // line 1
    v.warnings.push_back(w.message());
  }
  for (const std::string& a : response.assumptions()) {
    if (ChangesTheAnswer(a)) v.assumptions.push_back(a);
  }
  return v;
}

}  // namespace accelplan::cli
