#include "planner/planner.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/defaults.h"
#include "planner/engine.h"
#include "planner/model_presets.h"
#include "planner/remedies.h"
#include "planner/util.h"

namespace accelplan::planner {

using internal::Candidate;
using internal::Family;
using internal::Job;

namespace {

// PRICES_STALE when the recommendation's prices are older than the policy
// allows at as_of.
std::optional<Reason> PricesStaleWarning(const Estimates& e, const Job& job) {
  const std::optional<int> priced = ParseDate(e.price_date);
  if (!priced || job.as_of_days <= 0) return std::nullopt;
  const int age = job.as_of_days - *priced;
  if (age <= kFreshness.prices_stale_days.value) return std::nullopt;
  return Reason{ReasonCode::kPricesStale,
                absl::StrCat("The prices used date from ", e.price_date, ", ",
                             age, " days before ", job.as_of,
                             "; list prices may have changed (refresh with "
                             "catalog/import_prices.py).")};
}

Platform ToPlatform(catalog::Platform p) {
  switch (p) {
    case catalog::Platform::kCpu: return Platform::kCpu;
    case catalog::Platform::kGpu: return Platform::kGpu;
    case catalog::Platform::kTpu: return Platform::kTpu;
    case catalog::Platform::kEdge: return Platform::kEdge;
  }
  return Platform::kUnspecified;
}

Framework FrameworkFromKey(const std::string& key) {
  if (key == catalog::kFrameworkJax) return Framework::kJax;
  if (key == catalog::kFrameworkTensorflow) return Framework::kTensorflow;
  if (key == catalog::kFrameworkPytorch || key == catalog::kFrameworkPytorchXla) {
    return Framework::kPytorch;
  }
  if (key == catalog::kFrameworkXgboost) return Framework::kXgboost;
  if (key == catalog::kFrameworkScikitLearn) return Framework::kScikitLearn;
  if (key == catalog::kFrameworkLightgbm) return Framework::kLightgbm;
  return Framework::kOther;
}

const char* StatusName(catalog::SupportStatus s) {
  switch (s) {
    case catalog::SupportStatus::kSupported: return "SUPPORTED";
    case catalog::SupportStatus::kUnsupported: return "UNSUPPORTED";
    default: return "UNVERIFIED";
  }
}

RunPlatform ToRunPlatform(catalog::RunPlatform rp) {
  switch (rp) {
    case catalog::RunPlatform::kVertexTraining: return RunPlatform::kVertexTraining;
    case catalog::RunPlatform::kGke: return RunPlatform::kGke;
    default: return RunPlatform::kComputeEngine;
  }
}

Provisioning ToProvisioning(catalog::Provisioning p) {
  switch (p) {
    case catalog::Provisioning::kOnDemand: return Provisioning::kOnDemand;
    case catalog::Provisioning::kSpot: return Provisioning::kSpot;
    case catalog::Provisioning::kFlexStart: return Provisioning::kFlexStart;
    case catalog::Provisioning::kReservation: return Provisioning::kReservation;
    default: return Provisioning::kUnspecified;
  }
}

const char* MaturityName(catalog::Maturity m) {
  switch (m) {
    case catalog::Maturity::kPreview: return "PREVIEW";
    case catalog::Maturity::kLegacy: return "LEGACY";
    default: return "GA";
  }
}

void AddId(std::vector<std::string>& ids, const std::string& id) {
  if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) {
    ids.push_back(id);
  }
}

double Tflops(const std::optional<catalog::Fact>& f, std::vector<std::string>& ids) {
  if (!f.has_value()) return 0;
  AddId(ids, f->source_id);
  return f->value / 1e12;
}

// One listing entry per machine type (TPU VM types carry their topologies),
// plus legacy accelerators that no machine type names.
std::vector<AcceleratorInfo> BuildListing(const catalog::Catalog& cat) {
  std::vector<AcceleratorInfo> out;
  std::set<std::string> listed_accelerators;
  for (const catalog::MachineType& mt : cat.machine_types) {
    AcceleratorInfo info;
    std::vector<std::string> ids;
    info.machine_type = mt.id;
    info.series = mt.series_id;
    const catalog::Series* series = cat.FindSeries(mt.series_id);
    const catalog::Accelerator* acc =
        mt.accelerator_id.empty() ? nullptr : cat.FindAccelerator(mt.accelerator_id);
    AddId(ids, mt.source_id);
    if (series) {
      AddId(ids, series->source_id);
      info.maturity = MaturityName(series->maturity);
    }
    info.vcpus = mt.vcpus.value_or(0);
    info.host_memory_gib = mt.memory_bytes.value_or(0) / kGiB;
    info.network_gbps = mt.network_bits_per_s.value_or(0) / 1e9;
    if (acc == nullptr) {
      info.platform = Platform::kCpu;
      if (series && series->fp32_flops_per_vcpu && mt.vcpus) {
        info.peak_fp32_tflops = series->fp32_flops_per_vcpu->value * *mt.vcpus / 1e12;
        AddId(ids, series->fp32_flops_per_vcpu->source_id);
      }
      if (series && series->fp64_flops_per_vcpu && mt.vcpus) {
        info.peak_fp64_tflops = series->fp64_flops_per_vcpu->value * *mt.vcpus / 1e12;
        AddId(ids, series->fp64_flops_per_vcpu->source_id);
      }
      for (const auto& [key, fs] : cat.cpu_frameworks) {
        info.frameworks.push_back(
            {FrameworkFromKey(key), StatusName(fs.status), fs.min_version, fs.source_id});
        AddId(ids, fs.source_id);
      }
    } else {
      listed_accelerators.insert(acc->id);
      info.platform = ToPlatform(acc->platform);
      info.accelerator = acc->id;
      info.accelerator_name = acc->name;
      info.accelerators_per_host = mt.accelerator_count;
      info.legacy = acc->legacy;
      if (acc->legacy) info.maturity = "LEGACY";
      AddId(ids, acc->source_id);
      if (acc->memory_bytes) {
        info.memory_per_accelerator_gib = acc->memory_bytes->value / kGiB;
        AddId(ids, acc->memory_bytes->source_id);
      }
      info.peak_bf16_tflops = Tflops(acc->peak_bf16, ids);
      info.peak_fp8_tflops = Tflops(acc->peak_fp8, ids);
      info.peak_fp64_tflops = Tflops(acc->peak_fp64, ids);
      info.peak_fp32_tflops = Tflops(acc->peak_fp32, ids);
      if (acc->sparse_cores) {
        info.sparse_cores = static_cast<int>(acc->sparse_cores->value);
        AddId(ids, acc->sparse_cores->source_id);
      }
      for (const auto& [key, fs] : acc->frameworks) {
        info.frameworks.push_back(
            {FrameworkFromKey(key), StatusName(fs.status), fs.min_version, fs.source_id});
        AddId(ids, fs.source_id);
      }
      if (acc->end_of_support) {
        info.end_of_support = *acc->end_of_support;
        AddId(ids, acc->end_of_support_source_id);
      }
      for (const catalog::TpuTopology& t : acc->topologies) {
        if (t.machine_type_id == mt.id) {
          info.tpu_topologies.push_back(t.topology);
          AddId(ids, t.source_id);
        }
      }
    }
    const bool tpu = acc && acc->platform == catalog::Platform::kTpu;
    const std::optional<catalog::Price>& price = tpu ? acc->chip_price : mt.price;
    if (price.has_value()) {
      const double mult = tpu ? std::max(1, mt.accelerator_count) : 1;
      info.price_known = price->on_demand_usd.has_value();
      info.on_demand_usd_per_hour = price->on_demand_usd.value_or(0) * mult;
      info.spot_usd_per_hour = price->spot_usd.value_or(0) * mult;
      info.price_date = price->date;
      info.price_region = price->region;
      AddId(ids, price->source_id);
    }
    const std::vector<catalog::Offering>& offerings = tpu ? acc->offerings : mt.offerings;
    for (const catalog::Offering& o : offerings) {
      info.offerings.push_back({ToRunPlatform(o.run_platform),
                                ToProvisioning(o.provisioning), o.available,
                                o.preview ? "PREVIEW" : "GA", o.source_id});
      AddId(ids, o.source_id);
    }
    info.source_ids = ids;
    for (const std::string& id : ids) {
      const catalog::Source* s = cat.FindSource(id);
      info.source_urls.push_back(s ? s->url : "");
    }
    out.push_back(std::move(info));
  }
  for (const catalog::Accelerator& acc : cat.accelerators) {
    if (listed_accelerators.count(acc.id)) continue;
    AcceleratorInfo info;
    info.accelerator = acc.id;
    info.accelerator_name = acc.name;
    info.platform = ToPlatform(acc.platform);
    info.series = acc.series_id;
    info.legacy = acc.legacy;
    info.maturity = acc.legacy ? "LEGACY" : "GA";
    std::vector<std::string> ids;
    AddId(ids, acc.source_id);
    if (acc.memory_bytes) {
      info.memory_per_accelerator_gib = acc.memory_bytes->value / kGiB;
      AddId(ids, acc.memory_bytes->source_id);
    }
    if (acc.end_of_support) {
      info.end_of_support = *acc.end_of_support;
      AddId(ids, acc.end_of_support_source_id);
    }
    info.source_ids = ids;
    for (const std::string& id : ids) {
      const catalog::Source* s = cat.FindSource(id);
      info.source_urls.push_back(s ? s->url : "");
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::string JoinWhy(const Candidate& c) { return absl::StrJoin(c.why, " "); }

// The score as the wire carries it: absent unless it is a finite number
// that means something (on-device inference ranks by rules, not a score).
std::optional<double> KnownScore(const Job& job, const Candidate& c) {
  if (job.on_device || !std::isfinite(c.score)) return std::nullopt;
  return c.score;
}

}  // namespace

Planner::Planner(catalog::CatalogPtr catalog) : catalog_(std::move(catalog)) {
  auto index = std::make_unique<Index>();
  static_cast<internal::Index&>(*index) = internal::BuildIndex(*catalog_);
  index->listing = BuildListing(*catalog_);
  index_ = std::move(index);
}

Planner::~Planner() = default;

ListResponse Planner::List(const ListRequest& r) const {
  ListResponse out;
  out.catalog_version = catalog_->version;
  out.data_date = catalog_->data_date;
  for (const AcceleratorInfo& a : index_->listing) {
    if (a.legacy && !r.include_legacy) continue;
    if (!r.platforms.empty() &&
        std::find(r.platforms.begin(), r.platforms.end(), a.platform) ==
            r.platforms.end()) {
      continue;
    }
    if (r.min_memory_gib > 0) {
      const double mem = a.platform == Platform::kCpu ? a.host_memory_gib
                                                      : a.memory_per_accelerator_gib;
      if (mem < r.min_memory_gib) continue;
    }
    if (r.framework != Framework::kUnspecified) {
      bool runs = false;
      for (const FrameworkSupportInfo& f : a.frameworks) {
        if (f.framework == r.framework && f.status != "UNSUPPORTED") runs = true;
      }
      if (!runs) continue;
    }
    out.accelerators.push_back(a);
  }
  out.sources = index_->sources;
  out.models = ListModelPresets(*catalog_);
  return out;
}

PlanResponse Planner::Plan(const PlanRequest& request,
                           const CallContext& context) const {
  const catalog::Catalog& cat = *catalog_;
  PlanRequest resolved;
  std::string preset_assumption;
  const PlanRequest& r =
      WithModelPreset(cat, request, &resolved, &preset_assumption);
  Job job = internal::MakeJob(cat, r.workload, r.goal, r.constraints,
                              r.current_setup, context.AsOf(r.as_of));
  const bool full = r.view != View::kBasic;
  PlanResponse out;
  out.catalog_version = cat.version;

  std::vector<Candidate> cands;
  cands.reserve(index_->families.size());
  for (const Family& f : index_->families) {
    if (context.Cancelled()) return out;
    const bool pinned =
        r.constraints.keep_current_hardware &&
        ((job.current_accelerator != nullptr && f.accelerator == job.current_accelerator) ||
         (job.current_accelerator == nullptr && job.current_series != nullptr &&
          f.series == job.current_series));
    if (pinned) {
      Candidate c = internal::Evaluate(
          cat, job, f, r.current_setup.tpu_topology.empty() ? job.current_devices : 0,
          r.current_setup.tpu_topology, r.current_setup.slice_count);
      if (!c.viable() && job.current_devices > 0) {
        // The pinned size is what it is; fall back on the family's own sizing
        // so the plan still says what the hardware can do.
        Candidate free = internal::Evaluate(cat, job, f);
        if (free.viable()) c = std::move(free);
      }
      cands.push_back(std::move(c));
    } else {
      cands.push_back(internal::Evaluate(cat, job, f));
    }
  }
  internal::RankCandidates(job, cands);

  out.warnings = job.warnings;
  out.assumptions = job.assumptions;
  if (!preset_assumption.empty()) out.assumptions.push_back(preset_assumption);
  out.assumptions.push_back(absl::StrFormat(
      "Memory per device keeps %.0f%% of device memory as headroom (%s).",
      100 * kDefaults.headroom_fraction.value,
      kDefaults.headroom_fraction.source));
  const Candidate* best = nullptr;
  if (!cands.empty() && cands.front().viable() && cands.front().config) {
    best = &cands.front();
  }
  // A budget cannot be checked against an unknown price: an unpriced
  // candidate (ranked after every priced one) is never the recommendation
  // under a budget; it stays an alternative carrying PRICE_UNKNOWN.
  const bool unpriced_under_budget =
      best != nullptr && best->price_unknown && r.goal.budget_usd > 0;
  if (unpriced_under_budget) best = nullptr;
  std::vector<std::string> fact_ids;
  if (best != nullptr) {
    planner::Plan plan = internal::MakePlan(cat, job, *best, /*with_job_spec=*/true);
    plan.rank = 1;
    plan.score = KnownScore(job, *best);
    for (const Reason& r : plan.reasons) {
      if (r.code == ReasonCode::kImplausibleEstimate) out.warnings.push_back(r);
    }
    const internal::Config& c = *best->config;
    std::vector<Reason>& why = plan.reasons;
    if (!job.on_device && c.required_bytes > 0) {
      why.push_back({ReasonCode::kUnspecified,
                     absl::StrFormat("Fits: %.1f GiB needed per device of %.1f "
                                     "GiB usable.",
                                     c.required_bytes / kGiB, c.usable_bytes / kGiB)});
    }
    if (job.has_dataset && c.price_known) {
      why.push_back({ReasonCode::kUnspecified,
                     absl::StrFormat("%s for %s on %d device(s) (%s).",
                                     internal::FormatHours(c.hours.expected),
                                     internal::FormatUsd(c.cost.expected), c.devices,
                                     job.objective == Objective::kMinTime
                                         ? "fastest within budget"
                                         : job.objective == Objective::kBalanced
                                               ? "best cost+time balance"
                                               : "cheapest that meets the deadline")});
    }
    if (job.sparsecore_ranking && best->family->sparse_cores > 0) {
      why.push_back({ReasonCode::kUnspecified,
                     absl::StrFormat("%d SparseCores per chip accelerate the "
                                     "embedding lookups that dominate the step.",
                                     best->family->sparse_cores)});
    }
    if (job.on_device) {
      why.push_back({ReasonCode::kUnspecified,
                     "On-device offline inference: convert to a fully int8-"
                     "quantized TensorFlow Lite model and compile it with "
                     "edgetpu_compiler."});
    }
    for (const Reason& n : best->notes) out.warnings.push_back(n);
    for (const std::string& id : best->family->fact_sources) fact_ids.push_back(id);
    if (c.shape && !c.shape->price_source_id.empty()) {
      fact_ids.push_back(c.shape->price_source_id);
    }
    if (c.shape && c.shape->machine) fact_ids.push_back(c.shape->machine->source_id);
    if (auto stale = PricesStaleWarning(plan.estimates, job)) {
      out.warnings.push_back(*std::move(stale));
    }
    out.recommendation = std::move(plan);
  } else {
    std::vector<std::string> parts;
    for (const Candidate& c : cands) {
      for (ReasonCode code : c.codes) parts.push_back(ReasonCodeName(code));
    }
    std::sort(parts.begin(), parts.end());
    parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
    out.no_plan_reason = absl::StrCat(
        "No hardware in the catalog satisfies every hard rule for this job "
        "(reasons seen: ", absl::StrJoin(parts, ", "), "); see rejected.");
    if (unpriced_under_budget) {
      out.no_plan_reason = absl::StrCat(
          "Only hardware without a price in the catalog satisfies every hard "
          "rule, and the ", internal::FormatUsd(r.goal.budget_usd),
          " budget cannot be checked against an unknown price: ",
          cands.front().family->name,
          " and any other unpriced option are listed as alternatives "
          "(PRICE_UNKNOWN)",
          parts.empty() ? "" : absl::StrCat("; others were rejected (",
                                            absl::StrJoin(parts, ", "), ")"),
          ".");
    }
  }

  if (full) {
    int rank = 2;
    for (const Candidate& c : cands) {
      if (&c == best) continue;
      if (c.viable() && c.config) {
        if (out.alternatives.size() >= 8) continue;
        planner::Plan alt = internal::MakePlan(cat, job, c, /*with_job_spec=*/false);
        alt.rank = rank++;
        alt.score = KnownScore(job, c);
        if (best != nullptr) {
          const internal::Config& a = *c.config;
          const internal::Config& b = *best->config;
          if (job.has_dataset && a.price_known && b.price_known &&
              a.cost.expected > b.cost.expected) {
            alt.reasons.push_back(
                {ReasonCode::kHigherCost,
                 absl::StrFormat("Costs %s vs %s (+%.0f%%).",
                                 internal::FormatUsd(a.cost.expected),
                                 internal::FormatUsd(b.cost.expected),
                                 100 * (a.cost.expected / b.cost.expected - 1))});
          } else if (!job.has_dataset && a.price_known && b.price_known &&
                     a.tokens_per_second > 0 && b.tokens_per_second > 0) {
            auto per_million = [](const internal::Config& k) {
              return k.hourly / (k.tokens_per_second * 3600) * 1e6;
            };
            if (per_million(a) > per_million(b)) {
              alt.reasons.push_back(
                  {ReasonCode::kHigherCost,
                   absl::StrFormat("Costs $%.3g per million %s of work vs $%.3g.",
                                   per_million(a), job.unit, per_million(b))});
            }
          }
          // Communication is a cost, not a veto: it is named as the reason
          // a configuration loses when, without its exposed communication,
          // it would have beaten the recommendation.
          if (c.price_unknown == best->price_unknown &&
              c.misses_assumed_deadline == best->misses_assumed_deadline &&
              a.step.communication_fraction > 0 &&
              std::isfinite(c.score_without_comm) && std::isfinite(best->score) &&
              c.score_without_comm < best->score * (1 - 1e-9)) {
            alt.reasons.push_back(
                {ReasonCode::kCommunicationBound,
                 absl::StrCat(internal::CommunicationDetail(job, c),
                              "; without that exposed communication it would "
                              "beat the recommendation.")});
          }
          if (job.has_dataset && a.hours.expected > b.hours.expected * 1.0001) {
            alt.reasons.push_back(
                {ReasonCode::kSlower,
                 absl::StrFormat("Takes %s vs %s.",
                                 internal::FormatHours(a.hours.expected),
                                 internal::FormatHours(b.hours.expected))});
          }
          if (c.price_unknown) {
            alt.reasons.push_back({ReasonCode::kPriceUnknown,
                                   "No price in the catalog: ranks below every "
                                   "priced option."});
          }
          if (job.sparsecore_ranking && c.family->sparse_cores <= 0) {
            alt.reasons.push_back(
                {ReasonCode::kSlower,
                 "No SparseCores: embedding lookups run on the general cores."});
          }
        }
        for (const Reason& n : c.notes) alt.reasons.push_back(n);
        out.alternatives.push_back(std::move(alt));
      } else if (!c.viable()) {
        Rejection rej;
        rej.hardware = internal::MakeHardware(c);
        rej.codes = c.codes;
        rej.reason = JoinWhy(c);
        out.rejected.push_back(std::move(rej));
      }
    }
  }

  out.remedies = internal::RemediesForSymptoms(cat, job);
  if (best != nullptr && job.has_dataset && job.current_devices > 0) {
    out.savings = internal::SavingsAgainstCurrent(cat, *index_, job, *best);
  }
  if (full) {
    out.facts_used = internal::MakeFactRefs(cat, fact_ids);
  } else {
    out.assumptions.clear();
    out.savings.reset();
  }
  return out;
}

}  // namespace accelplan::planner
