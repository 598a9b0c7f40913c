// Stages 3-5 for one family: its hard rules, its sizes, the points that fit,
// and of those the ones that meet the deadline and the budget — the
// family's share of the candidate space.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "planner/candidate.h"
#include "planner/current_evidence.h"
#include "planner/domains.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/policy.h"
#include "planner/provisioning.h"
#include "planner/rules.h"
#include "planner/scorer.h"
#include "planner/sizing.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

// What evaluating every size found.
struct Fitting {
  std::vector<Config> points;  // the sizes that hold the job
  double best_required = -1;   // per device, the last size that did not fit
  double best_usable = 0;
  // That size's offloaded bytes and host memory per device, when host
  // memory is what it lacked (RECOMPUTE_OFFLOAD, optimizer offload), and
  // how much of it is the optimizer's.
  double host_required = 0;
  double host_usable = 0;
  double host_optimizer = 0;
  // The smallest size whose every layout needs more data-parallel ranks
  // than the stated batch has sequences.
  std::optional<Config> batch_limited;
  // The smallest size held back by the assumed batch's cap
  // (Job::assumed_batch_rank_cap).
  std::optional<Config> over_assumed_batch;
  // Sizes where a proposal's stated degrees spell no layout.
  size_t without_layout = 0;
};

Fitting EvaluateSizes(const Job& job, const Family& f, const SizeSearch& sizes,
                      const Pins& pins, bool stop_at_first) {
  Fitting out;
  out.points.reserve(sizes.options.size());
  for (const SizeOption& o : sizes.options) {
    Config c = BuildPoint(job, f, o, pins.layout);
    if (!c.fits) {
      if (c.no_layout) {
        ++out.without_layout;
      } else if (c.batch_too_small) {
        if (!out.batch_limited) out.batch_limited = c;
      } else if (c.over_assumed_batch) {
        if (!out.over_assumed_batch) out.over_assumed_batch = c;
      } else {
        out.best_required = c.required_bytes;
        out.best_usable = c.usable_bytes;
        const bool host = c.HostTooSmall() && c.required_bytes <= c.usable_bytes;
        out.host_required = host ? c.host_required_bytes : 0;
        out.host_usable = host ? c.host_usable_bytes : 0;
        out.host_optimizer = host ? c.memory.host_optimizer_bytes : 0;
      }
      continue;
    }
    // An offloaded optimizer trades each step's time for fewer devices:
    // the first size that holds the job without it is kept as well, and
    // the scorer weighs the two.
    const bool offloads = c.layout.optimizer_offload;
    out.points.push_back(std::move(c));
    if (stop_at_first && !offloads) break;
  }
  return out;
}

// Every size searched lacks a layout the reviewed proposal allows.
void RejectWithoutLayout(const Job& job, const LayoutPin& l,
                         const std::string& name, Candidate& cand) {
  const bool model_parallel = l.tensor > 1 || l.pipeline > 1 ||
                              l.strategy == Strategy::kTensorParallel ||
                              l.strategy == Strategy::kPipelineParallel ||
                              l.strategy == Strategy::kHybrid;
  const bool pipeline =
      l.pipeline > 1 || l.strategy == Strategy::kPipelineParallel;
  if (pipeline && !FrameworkHasPipelines(job)) {
    cand.Reject(ReasonCode::kNotApplicable,
                absl::StrCat(kNoTensorflowPipeline, ": ", name,
                             " has no such layout for this job."));
    return;
  }
  if (model_parallel && ModelParallelLayers(job) <= 0) {
    cand.Reject(ReasonCode::kNotApplicable,
                absl::StrCat("Tensor and pipeline parallelism are modelled "
                             "for a stated transformer_shape, whose heads and "
                             "layers their degrees divide; the request gives "
                             "none, so ",
                             name, " has no such layout."));
    return;
  }
  // A degree the heads refuse: within the domains' cap, or past it on a
  // TPU, whose slice is one domain (past it, a GPU's NVLink domain
  // refuses first, below).
  if (l.tensor > 1 &&
      (l.tensor <= kPolicy.max_tensor_parallel.value ||
       cand.family->platform == Platform::kTpu) &&
      !HeadsSplitOver(job, l.tensor, cand.family->platform)) {
    const TransformerShape& shape = job.workload.transformer_shape;
    const bool megatron = KeyValueGroupsBind(job, cand.family->platform);
    cand.Reject(
        ReasonCode::kNotApplicable,
        absl::StrFormat(
            "Tensor parallelism %d %s the model's %d attention heads%s%s; "
            "%d is the largest power of two below it that %s "
            "(docs/planner.md §8).",
            l.tensor, megatron ? "does not split" : "is more than",
            shape.attention_heads,
            megatron && shape.num_kv_heads > 0
                ? absl::StrFormat(" and %d key/value groups",
                                  shape.num_kv_heads)
                : std::string(),
            megatron ? " evenly over its ranks" : ": ranks would hold none",
            TensorDegreeTheHeadsAllow(job, PowerOfTwoAtMost(l.tensor),
                                      cand.family->platform),
            megatron ? "does" : "they fill"));
    return;
  }
  if (!l.degrees()) {
    cand.Reject(
        ReasonCode::kNotApplicable,
        absl::StrCat("The proposed strategy has no layout on any ", name,
                     " size searched (model parallelism needs "
                     "more than one device, and tensor parallelism "
                     "an NVLink or ICI domain)."));
    return;
  }
  cand.Reject(ReasonCode::kNotApplicable,
              absl::StrFormat("The proposed degrees (data %d, FSDP %d, "
                              "tensor %d, pipeline %d; 0: not stated) "
                              "spell no layout on any %s size searched: "
                              "they must multiply to its devices, with "
                              "tensor parallelism inside one NVLink domain "
                              "(a VM, or an NVL72 sub-block) or one slice.",
                              l.data, l.fsdp, l.tensor, l.pipeline, name));
}

// The size held the job's device share but not what it offloads to host
// memory.
std::string HostTooSmallLine(const std::string& name, const Fitting& fit) {
  const bool optimizer = fit.host_optimizer > 0;
  const bool activations = fit.host_required > fit.host_optimizer;
  return absl::StrFormat(
      "%s has %.1f GiB of host memory usable per device (the VM's memory "
      "over its accelerators, less %.0f%% headroom); offloading %s there "
      "needs %.1f GiB per device.",
      name, Gib(fit.host_usable), kHostHeadroom * 100,
      optimizer && activations
          ? "the optimizer's states and RECOMPUTE_OFFLOAD's activations"
      : optimizer ? "the optimizer's states"
                  : "RECOMPUTE_OFFLOAD's activations",
      Gib(fit.host_required));
}

// Shapes within the accelerator cap that no provisioning the request
// allows obtains (A3 High's 1-, 2- and 4-GPU shapes are Spot or flex-start
// only): said, so the cap is not taken as the only reason.
std::string SmallerShapesUnobtainable(const Job& job, const Family& f) {
  std::vector<const Shape*> shapes;
  std::vector<std::string> ids;
  for (const Shape& s : f.shapes) {
    if (s.devices <= job.constraints.max_accelerators && s.machine != nullptr &&
        !ProvisioningFor(job, f, s).has_value()) {
      shapes.push_back(&s);
      ids.push_back(s.machine->id);
    }
  }
  const std::string with = ProvisioningsNotAllowed(job, shapes);
  if (with.empty()) return "";
  return absl::StrCat("; its smaller shapes (", absl::StrJoin(ids, ", "),
                      ") are offered only with ", with,
                      ", which the request does not allow");
}

// A pinned TPU topology the family has no slice of (a typo: 4x4x5 on v5p)
// names the slices of that many chips, else the nearest below and above;
// any other size no shape gives says only that.
std::string NoShapeLine(const Family& f, const std::string& topology) {
  const std::string generic =
      absl::StrCat("No ", f.name, " shape matches the requested size.");
  int chips = 1;
  for (absl::string_view d : absl::StrSplit(topology, 'x')) {
    int v = 0;
    if (!absl::SimpleAtoi(d, &v) || v <= 0) return generic;
    chips *= v;
  }
  std::vector<const catalog::TpuTopology*> same, below, above;
  for (const Shape& s : f.shapes) {
    const catalog::TpuTopology* t = s.topology;
    if (t == nullptr) return generic;  // not a TPU family
    if (SameTopology(t->topology, topology)) return generic;
    auto& side = t->chips == chips ? same : t->chips < chips ? below : above;
    side.push_back(t);
  }
  // "4x4x4 or 4x8x2", with each slice's chip count when `chips_too`.
  const auto names = [](const std::vector<const catalog::TpuTopology*>& ts,
                        bool chips_too) {
    std::vector<std::string> out;
    for (const catalog::TpuTopology* t : ts) {
      out.push_back(
          chips_too ? absl::StrFormat("%s (%d chips)", t->topology, t->chips)
                    : t->topology);
    }
    return absl::StrJoin(out, " or ");
  };
  std::string line = absl::StrCat(f.name, " has no ", topology, " slice");
  if (!same.empty()) {
    return absl::StrCat(line, "; its ", chips, "-chip ",
                        same.size() > 1 ? "slices are " : "slice is ",
                        names(same, false), ".");
  }
  const auto by_chips = [](const catalog::TpuTopology* a,
                           const catalog::TpuTopology* b) {
    return a->chips < b->chips;
  };
  std::vector<const catalog::TpuTopology*> nearest;
  if (!below.empty()) {
    nearest.push_back(*std::max_element(below.begin(), below.end(), by_chips));
  }
  if (!above.empty()) {
    nearest.push_back(*std::min_element(above.begin(), above.end(), by_chips));
  }
  if (nearest.empty()) return generic;
  return absl::StrCat(line, " of ", chips, " chips; the nearest are ",
                      names(nearest, true), ".");
}

// Nothing fits: the codes that say why (a size the constraints excluded
// would have held it; too little memory; too small a batch).
void RejectNothingFits(const Job& job, const Family& f, const Pins& pins,
                       const SizeSearch& sizes, const Fitting& fit,
                       Candidate& cand) {
  const std::string& name = f.name;
  auto fits_any = [&](const std::vector<SizeOption>& excluded) {
    for (const SizeOption& o : excluded) {
      if (BuildPoint(job, f, o, pins.layout).fits) return true;
    }
    return false;
  };
  // The cap first: a size it alone excludes is on one host (multi-host
  // ones are the single-host rule's), so the cap is what blocks a fit.
  if (!sizes.excluded_max.empty() && fits_any(sizes.excluded_max)) {
    cand.Reject(ReasonCode::kExceedsMaxAccelerators,
                absl::StrFormat("%s needs more than the %d accelerators the "
                                "request allows%s.",
                                name, job.constraints.max_accelerators,
                                SmallerShapesUnobtainable(job, f)));
    return;
  }
  if (!sizes.excluded_host.empty() && fits_any(sizes.excluded_host)) {
    cand.Reject(ReasonCode::kExceedsSingleHost,
                absl::StrCat(name,
                             " needs more than one host to hold the "
                             "job; the request allows one."));
    return;
  }
  if (sizes.options.empty()) {
    if (!cand.codes.empty()) return;
    cand.Reject(
        pins.devices > 0 || !pins.topology.empty() || pins.min_devices > 0
            ? ReasonCode::kNotApplicable
            : ReasonCode::kExceedsSingleHost,
        NoShapeLine(f, pins.topology));
    return;
  }
  if (fit.without_layout == sizes.options.size()) {
    RejectWithoutLayout(job, pins.layout, name, cand);
    return;
  }
  if (fit.best_required >= 0 && fit.host_required > 0) {
    cand.Reject(ReasonCode::kHbmTooSmall, HostTooSmallLine(name, fit));
  } else if (fit.best_required >= 0) {
    // A requested micro-batch is honoured, never shrunk: say that it is
    // what does not fit.
    const Workload& w = job.workload;
    const std::string micro =
        w.micro_batch_size > 0
            ? absl::StrFormat(" at the requested micro_batch_size of %d "
                              "sequences per device (a smaller micro-batch "
                              "needs less activation memory)",
                              w.micro_batch_size)
        : w.gradient_accumulation_steps > 0
            ? absl::StrFormat(" at the requested %d gradient accumulation "
                              "steps (more steps need less activation "
                              "memory)",
                              w.gradient_accumulation_steps)
            : "";
    cand.Reject(ReasonCode::kHbmTooSmall,
                absl::StrFormat("%s has %.1f GiB usable per device (%.1f GiB "
                                "less %.0f%% headroom); the job needs %.1f "
                                "GiB per device%s.",
                                name, Gib(fit.best_usable),
                                Gib(fit.best_usable / (1 - kHeadroom)),
                                kHeadroom * 100, Gib(fit.best_required),
                                micro));
  }
  if (fit.batch_limited) {
    const Config& b = *fit.batch_limited;
    cand.Reject(
        ReasonCode::kBatchTooSmall,
        absl::StrFormat(
            "%s at %d devices needs at least %d data-parallel ranks "
            "(each takes at least one %s per step), more than the stated "
            "global batch of %d %s%s.",
            name, b.devices, b.min_ranks,
            job.sequence_model ? "sequence" : "example",
            static_cast<int>(std::min<int64_t>(
                job.workload.global_batch_size, std::numeric_limits<int>::max())),
            job.sequence_model ? "sequences" : "examples",
            fit.best_required >= 0 ? "; fewer devices do not hold the job" : ""));
  }
}

const Config& Fastest(const std::vector<Config>& points) {
  return *std::min_element(points.begin(), points.end(),
                           [](const Config& a, const Config& b) {
                             return a.hours.expected < b.hours.expected;
                           });
}

// No work to time: every point is kept, except, with today's throughput as
// the floor (planner/current_evidence.h), those slower than today. A family
// with none that keeps pace misses the assumed pace: kept at its points,
// ranked after those that keep it (the scorer then takes its fastest).
void KeepPace(const Job& job, std::vector<Config> points, Candidate& cand) {
  const auto slow = [&](const Config& c) { return BelowPaceFloor(job, c); };
  if (job.pace_floor_units_per_s > 0 &&
      std::all_of(points.begin(), points.end(), slow)) {
    const Config& fastest = *std::max_element(
        points.begin(), points.end(), [](const Config& a, const Config& b) {
          return a.tokens_per_second < b.tokens_per_second;
        });
    cand.misses_assumed_deadline = true;
    cand.notes.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat("%s runs %.4g %s/s at its fastest size (%s), "
                         "slower than %s; kept, ranked after options that "
                         "keep it.",
                         cand.family->name, fastest.tokens_per_second, job.unit,
                         DevicesText(fastest.devices),
                         job.assumed_deadline_label)});
  } else {
    points.erase(std::remove_if(points.begin(), points.end(), slow),
                 points.end());
  }
  cand.points = std::move(points);
}

// Keeps the points that meet the deadline and the budget. A family with
// none is rejected (MISSES_DEADLINE / OVER_BUDGET) carrying the point that
// came closest (those over the budget are kept aside in
// Candidate::over_budget, for count refinement); one that misses only the
// deadline MIN_COST assumes is kept
// (an assumption never rejects) at its fastest points, ranked after those
// that meet it.
void KeepFeasible(const Job& job, std::vector<Config> points,
                  Candidate& cand) {
  const std::string& name = cand.family->name;
  if (!job.has_dataset) {
    KeepPace(job, std::move(points), cand);  // no work to time
    return;
  }
  auto late = [&](const Config& c) { return LateForDeadline(job, c); };
  if (std::all_of(points.begin(), points.end(), late)) {
    const Config& fastest = Fastest(points);
    if (job.deadline_given) {
      cand.Reject(ReasonCode::kMissesDeadline,
                  absl::StrFormat(
                      "%s takes %s at its fastest size (%s), past the "
                      "%s deadline.%s%s",
                      name, FormatHours(fastest.hours.expected),
                      DevicesText(fastest.devices),
                      FormatHours(job.deadline_hours),
                      HeldBackInTime(job, cand), UntimedBeyond(cand, fastest)));
      cand.config = fastest;
      return;
    }
    cand.misses_assumed_deadline = true;
    cand.notes.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat("%s takes %s at its fastest size (%s), past %s; "
                         "kept, ranked after options that meet it.",
                         name, FormatHours(fastest.hours.expected),
                         DevicesText(fastest.devices),
                         job.assumed_deadline_label)});
  } else {
    points.erase(std::remove_if(points.begin(), points.end(), late),
                 points.end());
  }
  const auto first_over = std::stable_partition(
      points.begin(), points.end(),
      [&](const Config& c) { return !OverBudget(job, c); });
  cand.over_budget.assign(std::make_move_iterator(first_over),
                          std::make_move_iterator(points.end()));
  points.erase(first_over, points.end());
  cand.points = std::move(points);
  if (cand.points.empty()) RejectOverBudget(job, cand);
}

// Only the shapes of one machine type (a proposal names it exactly). One
// the family offers but the request cannot obtain (a3-highgpu-1g is Spot
// or flex-start only) is rejected as such, not sized.
void KeepMachineType(const Job& job, const std::string& machine_type,
                     Offer& offer, Candidate& cand) {
  const std::string want = NormalizeName(machine_type);
  auto other = [&](const Shape* s) {
    return s->machine == nullptr ||
           (NormalizeName(s->machine->id) != want &&
            NormalizeName(s->machine->gce_machine_type) != want);
  };
  for (std::vector<const Shape*>* v : {&offer.offered, &offer.obtainable}) {
    v->erase(std::remove_if(v->begin(), v->end(), other), v->end());
  }
  if (!offer.obtainable.empty() || !cand.viable()) return;
  if (offer.offered.empty()) {
    cand.Reject(ReasonCode::kNotOfferedOnPlatform,
                absl::StrCat(machine_type, " is not offered on ",
                             RunPlatformLabel(job.constraints.run_platform),
                             "."));
    return;
  }
  RejectUnobtainable(job, machine_type, offer.offered, cand);
}

// The edge device's one point: on-device inference searches no size.
void AddEdgePoint(const Family& f, Candidate& cand) {
  Config c;
  c.shape = &f.shapes.front();
  c.fits = true;
  c.provisioning = Provisioning::kUnspecified;
  cand.points.push_back(c);
  cand.provisioning = Provisioning::kUnspecified;
}

// The sizes that hold the job. When none within the assumed batch does,
// the cap is dropped (an assumption never rejects) and the plan says which
// batch it needs (planner/scorer.cc AddPointNotes); when it excluded sizes
// of a full search, the plan says where it stopped.
Fitting FitSizes(const Job& job, const Family& f, const SizeSearch& sizes,
                 const Pins& pins, bool stop_at_first, bool rejected_already,
                 Candidate& cand) {
  Fitting fit = EvaluateSizes(job, f, sizes, pins, stop_at_first);
  if (fit.points.empty() && fit.over_assumed_batch) {
    Job uncapped = job;
    uncapped.assumed_batch_rank_cap = 0;
    return EvaluateSizes(uncapped, f, sizes, pins, stop_at_first);
  }
  // When every size within the cap misses the deadline, the rejection says
  // whether a size it held back would meet it, and with which batch (the
  // cap itself stays: lifting it only under a tight deadline would give a
  // later deadline a slower MIN_TIME plan).
  if (fit.over_assumed_batch && job.has_dataset && !stop_at_first &&
      !rejected_already &&
      std::all_of(fit.points.begin(), fit.points.end(),
                  [&](const Config& c) { return LateForDeadline(job, c); })) {
    Job uncapped = job;
    uncapped.assumed_batch_rank_cap = 0;
    Fitting held_back = EvaluateSizes(uncapped, f, sizes, pins, stop_at_first);
    for (Config& c : held_back.points) {
      if (!LateForDeadline(job, c) && c.blocked == ReasonCode::kUnspecified) {
        cand.held_back_in_time = Candidate::HeldBack{
            c.devices, c.hours.expected, DataParallelRanks(c)};
        break;
      }
    }
  }
  if (fit.over_assumed_batch && !stop_at_first && !rejected_already) {
    cand.assumed_batch_cap_devices = fit.over_assumed_batch->devices;
  }
  return fit;
}

}  // namespace

bool OverBudget(const Job& job, const Config& c) {
  return job.goal.budget_usd > 0 && c.price_known &&
         c.cost.expected > job.goal.budget_usd;
}

void RejectOverBudget(const Job& job, Candidate& cand) {
  if (cand.over_budget.empty()) return;
  const Config& cheapest =
      *std::min_element(cand.over_budget.begin(), cand.over_budget.end(),
                        [](const Config& a, const Config& b) {
                          return a.cost.expected < b.cost.expected;
                        });
  cand.Reject(
      ReasonCode::kOverBudget,
      absl::StrFormat("%s costs %s at best, over the %s budget.",
                      cand.family->name, FormatUsd(cheapest.cost.expected),
                      FormatUsd(job.goal.budget_usd)));
  cand.config = cheapest;
}

void NotePreview(Candidate& cand) {
  if (cand.viable() && cand.family->preview) {
    cand.notes.push_back({ReasonCode::kPreviewHardware,
                          absl::StrCat(cand.family->name, " is in preview.")});
  }
}

void Candidate::Reject(ReasonCode code, std::string why_line) {
  if (std::find(codes.begin(), codes.end(), code) == codes.end()) {
    codes.push_back(code);
    why.push_back(std::move(why_line));
  }
}

Candidate EvaluateFamily(const catalog::Catalog& catalog, const Job& job,
                         const Family& f, const Pins& pins) {
  Candidate cand;
  cand.family = &f;
  ApplyHardRules(catalog, job, f, cand);
  Offer offer = OfferedShapes(job, f, cand);
  // The family's smallest obtainable shape, before a proposal narrows it to
  // one machine type: the oversize rule judges the family, not the pin.
  if (!offer.obtainable.empty()) {
    cand.smallest_obtainable_devices = offer.obtainable.front()->devices;
  }
  MarkProvisioningWhatIf(job, pins, cand);
  if (!pins.machine_type.empty()) {
    KeepMachineType(job, pins.machine_type, offer, cand);
  }
  std::vector<const Shape*>& obtainable = offer.obtainable;
  // A family already rejected by a hard rule is still sized, so that every
  // code that applies (HBM_TOO_SMALL, EXCEEDS_*) is reported; the checks
  // that only rank viable options (deadline, budget, communication) are not.
  const bool rejected_already = !cand.codes.empty();
  if (rejected_already && (job.on_device || f.platform == Platform::kEdge)) {
    return cand;
  }
  if (rejected_already && obtainable.empty()) {
    obtainable = offer.offered;
    if (obtainable.empty()) {
      for (const Shape& s : f.shapes) obtainable.push_back(&s);
    }
  }
  if (f.platform == Platform::kEdge) {
    AddEdgePoint(f, cand);
    return cand;
  }
  SizeSearch sizes;
  if (!EnumerateSizes(job, f, obtainable, pins, cand, sizes)) return cand;
  cand.search_cap_devices = sizes.policy_cap_devices;
  const double peak_probe =
      obtainable.empty()
          ? 0
          : PeakFlops(f, *obtainable.front(), job.precision,
                      Fp32RunsAsTf32(job.workload), nullptr, nullptr);
  if (peak_probe <= 0 && !rejected_already &&
      (job.has_dataset || job.model_size_known)) {
    cand.Reject(ReasonCode::kNotApplicable,
                absl::StrCat("The catalog has no ", PrecisionLabel(job.precision),
                             " throughput for ", f.name, "."));
    return cand;
  }
  // Without a data set there is no work to time, so each family is taken
  // at its smallest size that holds the job (options ascend in devices;
  // with the optimizer on the devices, and any smaller sizes that hold it
  // by offloading the optimizer) and the scan stops there, unless today's
  // throughput is the floor (every size is judged against it); rejected
  // families only need to know that something fits.
  const bool stop_at_first = rejected_already || !SearchesSizes(job);
  Fitting fit =
      FitSizes(job, f, sizes, pins, stop_at_first, rejected_already, cand);
  const bool any_fits = !fit.points.empty();
  if (!rejected_already) KeepObtainable(job, f, pins, fit.points, cand);
  if (fit.points.empty()) {
    if (!any_fits) RejectNothingFits(job, f, pins, sizes, fit, cand);
    return cand;
  }
  if (rejected_already) return cand;
  KeepFeasible(job, std::move(fit.points), cand);
  for (const SizeOption& s : sizes.sequences) {
    cand.sequences.push_back({s.shape, s.units});
  }
  cand.pinned_layout = pins.layout;
  cand.min_devices = pins.min_devices;
  NotePreview(cand);
  return cand;
}

}  // namespace accelplan::planner::internal
