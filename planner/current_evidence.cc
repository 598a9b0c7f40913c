// The current setup as evidence (planner/current_evidence.h).
#include "planner/current_evidence.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/job_assumptions.h"
#include "planner/job_work.h"
#include "planner/policy.h"
#include "planner/remedies.h"
#include "planner/scorer.h"
#include "planner/space.h"

namespace accelplan::planner::internal {

Job AsStatedToday(const Job& job) {
  Job today = job;
  // A stated FSDP is FSDP: no optimizer offload the team did not state.
  today.optimizer_offload_excluded =
      job.current.strategy != Strategy::kUnspecified;
  return today;
}

namespace {

// "16 x a2-highgpu-8g", "tpu-v5e 4x4 x 2 slices", "8 x H100".
std::string TodayLabel(const Job& job) {
  const CurrentSetup& cur = job.current;
  if (!cur.tpu_topology.empty()) {
    return cur.slice_count > 1
               ? absl::StrCat(cur.hardware, " ", cur.tpu_topology, " x ",
                              cur.slice_count, " slices")
               : absl::StrCat(cur.hardware, " ", cur.tpu_topology);
  }
  if (job.current_machine != nullptr) {
    return absl::StrCat(std::max(1, cur.node_count), " x ", cur.hardware);
  }
  return absl::StrCat(job.current_devices, " x ", cur.hardware);
}

// Today's job as it runs: none of the request's constraints on where the
// new plan may go, no deadline or budget, no Reduction Server.
Job TodaysJob(const Job& job) {
  Job today = job;
  today.constraints = Constraints{};
  today.constraints.reservation_available = true;  // the team has capacity
  today.allowed_series.clear();
  today.deadline_hours = std::numeric_limits<double>::infinity();
  today.goal.budget_usd = 0;
  today.goal.hard_deadline = false;
  today.reducer_machine = nullptr;
  today.pace_floor_units_per_s = 0;
  today.what_if = true;  // no provisioning what-ifs
  today.explain_rejections = false;
  return AsStatedToday(today);
}

// No data set: the work is today's modelled throughput x its observed hours.
void InferWork(Job& job, double observed_hours) {
  // The observed wall clock includes the job's start-up; the rest trained.
  job.tokens = job.current_units_per_s * TrainingHours(observed_hours) * 3600;
  job.has_dataset = true;
  job.work_from_current = true;
  job.training_flops = job.flops_per_unit * job.tokens;
  job.warnings.erase(
      std::remove_if(job.warnings.begin(), job.warnings.end(),
                     [](const Reason& r) {
                       return r.code == ReasonCode::kNoDatasetSize;
                     }),
      job.warnings.end());
  job.assumptions.push_back(absl::StrFormat(
      "No dataset size given: the work is inferred from today's setup, %s "
      "at its modelled %.4g %s/s for the observed %s less its %.0f-minute "
      "start-up = %.4g %s (the model that times every candidate); state "
      "the dataset size to plan on it instead.",
      job.current_label, job.current_units_per_s, job.unit,
      FormatHours(observed_hours), kPolicy.job_startup_hours.value * 60,
      job.tokens, job.unit));
  job.assumptions.push_back(JobStartupAssumption());
}

// The NO_DATASET_SIZE warning, restated when today's pace is known.
void RestateNoDataset(Job& job, const std::string& text) {
  for (Reason& r : job.warnings) {
    if (r.code == ReasonCode::kNoDatasetSize) r.message = text;
  }
}

// The team runs out of memory where the model's layout fits: what runs out
// is memory the model does not count, and remedies are judged on the
// model's figures.
std::string UnmodelledOomLine(const Config& today) {
  return absl::StrFormat(
      "The team reports OUT_OF_MEMORY, but today's layout needs %.1f of the "
      "%.1f GiB usable per device in the model: what runs out is memory it "
      "does not count (a larger micro-batch than modelled, fp32 logits over "
      "a large vocabulary, long sequences' activations, fragmentation), so "
      "remedies are judged on the model's memory; a smaller micro-batch "
      "with gradient accumulation is the first thing to try, and stating "
      "per_device_memory_gib models the observed footprint.",
      today.required_bytes / kGiB, today.usable_bytes / kGiB);
}

// Today's hardware is known but the model has no point for it (nothing
// fits, or its size cannot be timed, e.g. N1 T4 VMs with no network figure):
// said, and stated observed hours still stand for today's runtime.
void NoTodaysPoint(const Index& index, bool out_of_memory_as_stated, Job& job) {
  if (job.on_device || job.current_devices <= 0 ||
      CurrentFamily(index, job) == nullptr) {
    return;
  }
  job.current_label = TodayLabel(job);
  if (out_of_memory_as_stated) {
    // Observed hours, if any, ran until the job failed: not a runtime.
    job.assumptions.push_back(absl::StrCat(
        "Today's setup (", job.current_label,
        ") runs out of memory, as the request says, and its stated layout "
        "does not fit in the model either: it has no throughput, runtime or "
        "cost, so savings are not computed and no deadline or pace is "
        "assumed from it."));
    return;
  }
  job.assumptions.push_back(absl::StrCat(
      "Today's setup (", job.current_label, ") has no point in the model "
      "(it does not hold the job, or its size cannot be timed): today's "
      "throughput, savings and remedies on it are not computed."));
  if (job.has_dataset && job.current.observed_hours > 0) {
    job.current_hours = job.current.observed_hours;
  }
}

// Observed hours outside the model's range for today's stated work on
// today's hardware: the savings put the observed run beside modelled ones,
// and the job runs unlike the model, so may every estimate of it.
void WarnIfTodayRunsUnlikeTheModel(const Config& today, Job& job) {
  const double observed = job.current.observed_hours;
  const Range& h = today.hours;
  if (!job.has_dataset || !(h.expected > 0) ||
      (observed >= h.low && observed <= h.high)) {
    return;
  }
  job.warnings.push_back(
      {ReasonCode::kAssumption,
       absl::StrFormat(
           "Today's observed %s is %.2fx the model's %s (%s-%s) for the "
           "stated work on %s: the job runs unlike the model, so every "
           "option's hours may be off by as much, and savings against today "
           "put the observed run beside modelled ones.",
           FormatHours(observed), observed / h.expected,
           FormatHours(h.expected), FormatHours(h.low), FormatHours(h.high),
           job.current_label)});
}

// The first line of a rule the job as stated fails on this family (its
// framework, version, precision, CPU-only ops); "" when none.
std::string JobRuleLine(const Candidate& c) {
  for (size_t k = 0; k < c.codes.size() && k < c.why.size(); ++k) {
    if (IsTheJobsOwnCode(c.codes[k])) return c.why[k];
  }
  return "";
}

}  // namespace

bool StatedLayoutTakenToFit(const Job& job) {
  const Strategy s = job.current.strategy;
  const catalog::Accelerator* acc = job.current_accelerator;
  if (s == Strategy::kUnspecified || HasSymptom(job, Symptom::kOutOfMemory) ||
      job.workload.per_device_memory_gib > 0 || acc == nullptr ||
      !acc->memory_bytes || !job.model_size_known) {
    return false;
  }
  // What no optimizer or precision choice removes: the weights (and, when
  // trained, their gradients) in 16 bits, over every device when the
  // stated layout shards them. A stated layout that cannot hold even these
  // is not the layout the team runs.
  const bool adapters = job.method == TrainingMethod::kLora ||
                        job.method == TrainingMethod::kQlora;
  const double per_param = job.method == TrainingMethod::kQlora ? 0.5625
                           : adapters                          ? 2.0
                                                               : 4.0;
  const bool replicated = s == Strategy::kDataParallel ||
                          s == Strategy::kSingleDevice ||
                          s == Strategy::kHorovod;
  const double shards = replicated ? 1 : std::max(1, job.current_devices);
  return job.params * per_param / shards <=
         acc->memory_bytes->value * (1 - kHeadroom);
}

std::optional<Job> ObservedToFit(const Job& job, const Candidate& failed) {
  if (!StatedLayoutTakenToFit(job) ||
      HasCode(failed.codes, ReasonCode::kMissesDeadline) ||
      HasCode(failed.codes, ReasonCode::kOverBudget)) {
    return std::nullopt;
  }
  Job observed = job;
  observed.memory_observed = true;
  return observed;
}

std::string ObservedMemoryLine(const Config& c) {
  return absl::StrFormat(
      "Today's stated layout needs %.1f GiB per device in the model (with "
      "its assumed optimizer and precision), more than the %.1f GiB usable; "
      "the team runs it, so its memory is taken as observed to fit (state "
      "the optimizer, precision or per-device memory to model it).",
      c.required_bytes / kGiB, c.usable_bytes / kGiB);
}

std::optional<Config> CurrentPoint(const catalog::Catalog& catalog,
                                   const Index& index, const Job& job,
                                   bool* out_of_memory_as_stated,
                                   std::string* job_rule) {
  if (job.on_device || job.current_devices <= 0) return std::nullopt;
  const Family* family = CurrentFamily(index, job);
  if (family == nullptr) return std::nullopt;
  const Job today = TodaysJob(job);
  // Today's layout when the request states it (DDP, FSDP, ...); the fastest
  // that fits when it does not, or when the stated one holds no point.
  Pins pins = CurrentSetupPins(job);
  std::vector<Candidate> one{EvaluateFamily(catalog, today, *family, pins)};
  const auto none = [&] {
    return !one.front().viable() || one.front().points.empty();
  };
  if (pins.layout.any() && none()) {
    if (std::optional<Job> observed = ObservedToFit(today, one.front())) {
      one = {EvaluateFamily(catalog, *observed, *family, pins)};
    }
  }
  // A stated layout that has no point stands for one that has (the team
  // runs something), except when the team says it runs out of memory and
  // the model agrees (HBM_TOO_SMALL): then today's job, as stated, does
  // not run at all.
  const std::vector<ReasonCode>& codes = one.front().codes;
  const bool oom_as_stated =
      pins.layout.any() && none() && HasSymptom(job, Symptom::kOutOfMemory) &&
      std::find(codes.begin(), codes.end(), ReasonCode::kHbmTooSmall) !=
          codes.end();
  if (out_of_memory_as_stated != nullptr) {
    *out_of_memory_as_stated = oom_as_stated;
  }
  if (pins.layout.any() && none() && !oom_as_stated) {
    pins.layout = {};
    one = {EvaluateFamily(catalog, today, *family, pins)};
  }
  Candidate& c = one.front();
  if (job_rule != nullptr) *job_rule = JobRuleLine(c);
  if (!c.viable() || c.points.empty()) return std::nullopt;
  SelectPoint(today, NormOver(today, one), c);
  if (!c.config) return std::nullopt;
  return c.config;
}

void ApplyCurrentEvidence(const catalog::Catalog& catalog, const Index& index,
                          Job& job) {
  bool out_of_memory = false;
  std::string job_rule;
  const std::optional<Config> today =
      CurrentPoint(catalog, index, job, &out_of_memory, &job_rule);
  if (!job_rule.empty() && AnySymptom(job)) {
    // The team reports a problem on hardware where the job, as stated,
    // breaks a rule: that may be the problem itself.
    job.warnings.push_back(
        {ReasonCode::kAssumption,
         absl::StrCat("Today's setup (", TodayLabel(job),
                      ") fails a rule of the job as stated, which may itself "
                      "cause what the team sees: ",
                      job_rule)});
  }
  if (!today) NoTodaysPoint(index, out_of_memory, job);
  if (!today || !(today->tokens_per_second > 0)) return;
  job.current_units_per_s = today->tokens_per_second;
  job.current_hourly = today->price_known ? today->hourly : 0;
  job.current_label = TodayLabel(job);
  job.current_hosts = today->hosts;
  job.current_comm_fraction = today->step.communication_fraction;
  if (today->required_bytes > today->usable_bytes) {
    job.assumptions.push_back(ObservedMemoryLine(*today));
  } else if (HasSymptom(job, Symptom::kOutOfMemory) &&
             job.current.strategy != Strategy::kUnspecified &&
             today->strategy == job.current.strategy) {
    // Today's stated layout fits in the model (not a fallback layout the
    // model chose because the stated one does not fit: that explains it),
    // nor at a recompute level the team does not state (that explains it
    // too).
    const Recompute stated = job.workload.recompute;
    job.oom_unmodelled = stated != Recompute::kUnspecified
                             ? today->recompute == stated
                             : today->recompute == Recompute::kNone ||
                                   today->recompute == Recompute::kUnspecified;
    job.current_free_bytes = today->usable_bytes - today->required_bytes;
    if (job.oom_unmodelled) {
      job.assumptions.push_back(UnmodelledOomLine(*today));
    }
  }
  const double observed = job.current.observed_hours;
  // Deep learning only: classical ML's memory follows the data size, which
  // an inferred work would not change. A job observed to end within its
  // start-up gives no work to infer.
  if (!job.has_dataset && TrainingHours(observed) > 0 && job.model_size_known &&
      !job.classical && job.flops_per_unit > 0) {
    InferWork(job, observed);
  }
  if (observed > 0) {
    job.current_hours = observed;
    WarnIfTodayRunsUnlikeTheModel(*today, job);
  } else if (job.has_dataset && today->hours.expected > 0) {
    job.current_hours = today->hours.expected;
  }
}

bool AssumeTodaysRuntime(Job& job) {
  if (!job.has_dataset || !(job.current_hours > 0)) return false;
  const bool observed = job.current.observed_hours > 0;
  job.deadline_is_todays_runtime = true;
  // A time within equal_time_fraction of today's is as fast as today's.
  job.deadline_hours =
      job.current_hours * (1 + kPolicy.equal_time_fraction.value);
  job.assumed_deadline_label = absl::StrFormat(
      "today's runtime (%s on %s), the deadline assumed because none was "
      "given", FormatHours(job.current_hours), job.current_label);
  job.assumptions.push_back(absl::StrFormat(
      "No deadline given: today's runtime, %s on %s (%s), assumed for %s "
      "instead of 30 days; a configuration slower than today by more than "
      "%.0f%% (%s) is kept, ranked after those that are not (a deadline in "
      "the request replaces it).",
      FormatHours(job.current_hours), job.current_label,
      observed ? "observed" : "modelled on the stated work",
      ObjectiveLabel(job.objective), 100 * kPolicy.equal_time_fraction.value,
      kPolicy.equal_time_fraction.source));
  return true;
}

void ApplyPaceFloor(Job& job) {
  if (job.has_dataset || !(job.current_units_per_s > 0)) return;
  job.pace_floor_units_per_s = job.current_units_per_s;
  job.assumed_deadline_label = absl::StrFormat(
      "today's %.4g %s/s on %s, the pace assumed because the job's length "
      "is unknown", job.current_units_per_s, job.unit, job.current_label);
  const std::string floor = absl::StrFormat(
      "today's throughput, %.4g %s/s on %s (modelled), is the floor for %s: "
      "a configuration slower than today is kept, ranked after those that "
      "keep pace",
      job.current_units_per_s, job.unit, job.current_label,
      ObjectiveLabel(job.objective));
  const std::string deadline =
      job.deadline_given
          ? absl::StrCat("the ", FormatHours(job.deadline_hours),
                         " deadline cannot be checked without the job's "
                         "length, so it does not lift the floor")
          : "no deadline check";
  // Observed hours within the start-up give no work to infer; nor do any
  // for classical ML, whose memory follows a data size they do not give.
  const char* given =
      job.current.observed_hours <= 0
          ? "No dataset size or observed hours given: "
      : job.classical
          ? "No dataset size given (observed hours do not give a classical "
            "job's data size, which its memory follows): "
          : "No dataset size given, and the observed hours end within the "
            "job's start-up: ";
  job.assumptions.push_back(absl::StrCat(
      given, floor, "; ", deadline,
      ". State current_setup.observed_hours or the dataset size to plan on "
      "the job's length."));
  RestateNoDataset(
      job, absl::StrCat(given, NoWorkRanking(job), "; ", floor, "; ", deadline,
                        UncheckedBudgetClause(job), "."));
}

bool BelowPaceFloor(const Job& job, const Config& c) {
  return job.pace_floor_units_per_s > 0 &&
         c.tokens_per_second < job.pace_floor_units_per_s *
                                   (1 - kPolicy.tie_tolerance.value);
}

void TodayReasons(const Job& job, const Candidate& best,
                  std::vector<Reason>& why) {
  const double today = job.current_units_per_s;
  if (!(today > 0) || !best.config || !(best.config->tokens_per_second > 0)) {
    return;
  }
  const Config& c = *best.config;
  const double rate = c.tokens_per_second;
  if (!job.has_dataset) {
    std::string line = absl::StrFormat(
        "Against today (%s at %.4g %s/s): %.4g %s/s (%.2fx today's pace)",
        job.current_label, today, job.unit, rate, job.unit, rate / today);
    if (c.price_known && job.current_hourly > 0) {
      const double now = job.current_hourly / (today * 3600) * 1e6;
      const double then = c.hourly / (rate * 3600) * 1e6;
      absl::StrAppend(&line, absl::StrFormat(
                                 ", $%.3g per million %s of work vs $%.3g "
                                 "today (%+.0f%%)",
                                 then, job.unit, now, 100 * (then / now - 1)));
    }
    why.push_back({ReasonCode::kUnspecified, absl::StrCat(line, ".")});
  }
  // With a work, slower means more hours than today's runtime (the
  // assumed deadline); without one, a lower throughput than today's.
  const double tol = kPolicy.tie_tolerance.value;
  const bool by_hours = job.has_dataset && job.current_hours > 0;
  // Today's runtime as the assumed deadline keeps anything within the
  // equal-time band (AssumeTodaysRuntime); otherwise slower is slower.
  const double slack =
      job.deadline_is_todays_runtime ? kPolicy.equal_time_fraction.value : tol;
  const bool slower = by_hours
                          ? c.hours.expected > job.current_hours * (1 + slack)
                          : rate < today * (1 - tol);
  if (c.hosts < job.current_hosts && job.current_comm_fraction > 0 &&
      !slower) {
    // Why the plan leaves today's multi-host setup.
    why.push_back(
        {ReasonCode::kUnspecified,
         absl::StrFormat("Fewer hosts than today (%d vs %d): %.0f%% of today's "
                         "modelled step is exposed communication between its "
                         "hosts, and %d host(s) keep today's pace %s.",
                         c.hosts, job.current_hosts,
                         100 * job.current_comm_fraction, c.hosts,
                         job.objective == Objective::kMinTime
                             ? "and are as fast as the fastest option"
                             : "for less per unit of work")});
  }
  if (!slower) return;
  std::string because;
  if (best.misses_assumed_deadline) {
    because = "no option the request allows keeps today's pace; this one "
              "comes closest";
  } else if (job.deadline_given && job.has_dataset) {
    because = absl::StrCat("the ", FormatHours(job.deadline_hours),
                           " deadline given allows it");
  } else if (job.objective == Objective::kMinTime) {
    because = "it is as fast as the fastest option the request allows";
  } else {
    because = "the objective and deadline allow it";
  }
  const std::string numbers =
      by_hours ? absl::StrCat(FormatHours(c.hours.expected), " vs ",
                              FormatHours(job.current_hours))
               : absl::StrFormat("%.4g vs %.4g %s/s", rate, today, job.unit);
  why.push_back({ReasonCode::kSlower,
                 absl::StrCat("Slower than today (", numbers, " on ",
                              job.current_label, "): recommended because ",
                              because, ".")});
}

}  // namespace accelplan::planner::internal
