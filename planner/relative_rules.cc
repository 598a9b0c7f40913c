// Stage 6a: the rules that compare candidates (SPEC §4): the CPU profile,
// embedding-dominated work, oversized shapes and Google's per-workload GPU
// lists. Each judges a candidate against the rest of the space.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/count_refinement.h"
#include "planner/engine_common.h"
#include "planner/oversize.h"
#include "planner/scorer.h"

namespace accelplan::planner::internal {
namespace {

using Refs = std::vector<const Candidate*>;

catalog::WorkloadList ListFor(const Job& job) {
  switch (job.method) {
    case TrainingMethod::kFullFineTune:
    case TrainingMethod::kLora:
    case TrainingMethod::kQlora:
      return catalog::WorkloadList::kFineTuning;
    default:
      return catalog::WorkloadList::kPreTraining;
  }
}

double Cost(const Job& job, const Candidate& c) {
  return CostMetric(job, *c.config);
}

// An accelerator point that costs less than the CPU point is not more than
// the job needs: 56 L4s train 500 GiB of XGBoost over 300 rounds in 0.8 h
// for $17 against $139 on CPUs. Without this, a budget the CPU point
// missed gave the cheaper GPU plan and a larger one the dearer CPU plan.
// The CPU point is the one the objective would recommend among CPUs: under
// MIN_TIME the cheapest CPU point instead let 64 bare-metal VMs (2.8 h,
// $1,717) win over 0.2 h of L4s for $623. Time alone does not exempt: the
// model splits rows linearly over GPUs, so under MIN_TIME any job would
// spread to the search cap.
bool BeatsTheCpuPoint(const Job& job, const Config& accelerator,
                      const Config& cpu) {
  return CostMetric(job, accelerator) < CostMetric(job, cpu);
}

// CPU profile: classical ML, or a job a CPU VM finishes quickly, goes to
// CPU and accelerators are OVERSIZED_FOR_WORKLOAD; for classical ML, only
// those that do not beat the CPU point (BeatsTheCpuPoint). A small deep
// learning job goes to CPU as SPEC §4 says, even where a GPU costs less.
void CpuProfileRule(const Job& job, const Norm& norm, const Refs& refs,
                    const std::vector<Candidate*>& judged) {
  if (job.on_device || job.embedding_dominated) return;
  // Classical ML: the objective's CPU pick by its score (ties to the
  // cheaper), which an accelerator must undercut. A small deep learning
  // job: the cheapest CPU point, whether it is quick deciding the profile
  // whatever the objective (SPEC §4 sends it to CPU).
  const auto key = [&](const Candidate* c) {
    return job.classical
               ? std::make_pair(Score(job, norm, *c->config), Cost(job, *c))
               : std::make_pair(Cost(job, *c), 0.0);
  };
  const Candidate* best_cpu = nullptr;
  for (const Candidate* c : refs) {
    if (!c->has_point() || c->family->platform != Platform::kCpu) continue;
    if (best_cpu == nullptr || key(c) < key(best_cpu)) best_cpu = c;
  }
  if (best_cpu == nullptr) return;
  const Config& cpu = *best_cpu->config;
  const bool quick =
      job.has_dataset && cpu.hours.expected <= kPolicy.small_job_hours.value;
  if (!(job.classical ? !GpuAskedFor(job) : quick)) return;
  // The CPU point as the plan states it: one VM, or its count of them.
  const std::string& vm = cpu.shape->machine->gce_machine_type;
  const std::string vms =
      cpu.units > 1 ? absl::StrFormat("%d x %s VMs", cpu.units, vm)
                    : absl::StrCat("a ", vm, " VM");
  const char* verb = cpu.units > 1 ? "finish" : "finishes";
  const std::string detail =
      job.has_dataset
          ? absl::StrFormat("%s %s in %s for %s", vms, verb,
                            FormatHours(cpu.hours.expected),
                            FormatUsd(cpu.cost.expected))
          : absl::StrCat(vms, cpu.units > 1 ? " handle it" : " handles it");
  const auto beats_cpu = [&](const Config& p) {
    return BeatsTheCpuPoint(job, p, cpu);
  };
  for (Candidate* c : judged) {
    if (!c->has_point() || c->family->platform == Platform::kCpu) continue;
    if (job.classical && beats_cpu(*c->config)) continue;
    // A smaller size of the family that costs less than the CPU plan is
    // not oversized either: a budget that admits the family's dearer sizes
    // must not lose it to a slower, dearer CPU plan. The counts are refined
    // under the CPU plan's cost as under a budget first: those refined
    // toward the family's own pick depend on the budget, and a larger one
    // gave a 27% slower size (docs/planner.md §13 Stop 38).
    if (job.classical) RefineCountsUnder(job, norm, *c, beats_cpu);
    if (job.classical && ReselectPoint(job, norm, *c, beats_cpu)) {
      c->notes.push_back(
          {ReasonCode::kAssumption,
           absl::StrFormat("%s is sized at %d devices (%s), the best of its "
                           "searched sizes that cost less than the CPU plan "
                           "(%s): dearer sizes are more than this classical "
                           "ML job needs.",
                           c->family->name, c->config->devices,
                           MetricsText(job, *c->config), detail)});
      continue;
    }
    c->Reject(ReasonCode::kOversizedForWorkload,
              absl::StrCat(c->family->name, " is more than this ",
                           job.classical ? "classical ML" : "small",
                           " job needs: ", detail, "."));
  }
}

// Embedding-dominated work: CPUs suit small models and I/O-bound work,
// not a step dominated by embedding lookups (Cloud TPU guidance).
void EmbeddingRule(const Job& job, const std::vector<Candidate*>& judged) {
  if (!job.embedding_dominated || job.on_device) return;
  for (Candidate* c : judged) {
    if (!c->has_point() || c->family->platform != Platform::kCpu) continue;
    c->Reject(ReasonCode::kNotRecommendedForWorkload,
              absl::StrCat(c->family->name, ": embedding lookups dominate the "
                           "step; CPUs suit small models or I/O-bound work, "
                           "not large embedding models."));
  }
}

// The clause that names a list ("Google's fine-tuning list").
std::string ListName(catalog::WorkloadList list) {
  return list == catalog::WorkloadList::kFineTuning ? "fine-tuning"
                                                    : "pre-training";
}

// Why an unlisted series is sized past its objective's choice (below).
Reason ListSizingNote(const Job& job, const Candidate& c, const Config& was,
                      const Candidate& listed) {
  const auto point = [&](const Config& p) { return MetricsText(job, p); };
  return {ReasonCode::kAssumption,
          absl::StrFormat(
              "%s is not on Google's %s list, and %s, which is, costs no "
              "more than %.0f%% more than %s's own choice (%d device%s, "
              "%s). %s is sized at %d devices instead (%s), which beats %s "
              "(%s) on both cost and time.",
              c.family->name, ListName(ListFor(job)), listed.family->name,
              100 * (kPolicy.workload_list_cost_slack.value - 1),
              c.family->name, was.devices, was.devices == 1 ? "" : "s",
              point(was), c.family->name, c.config->devices, point(*c.config),
              listed.family->name, point(*listed.config))};
}

// Google's per-workload GPU lists rank GPU series against GPU series: an
// unlisted series loses to the cheapest listed one when that costs no more
// than 25% more (SPEC §4), unless it beats that one on both cost and time
// (the list would then trade a cheaper, faster plan for a label, and a
// budget that rules the listed one out would give a better plan than none).
// The exception weighs every feasible size of the unlisted series, not only
// the one its objective selects: a later deadline lets a series select a
// cheaper, slower size, and the list must not then reject the series whose
// faster size still beats the listed one (a later deadline never gives a
// dearer and slower plan). The series is then sized at the best size that
// beats it, and the plan says so.
void WorkloadListRule(const Job& job, const Norm& norm, const Refs& refs,
                      const std::vector<Candidate*>& judged) {
  if (job.on_device) return;
  const catalog::WorkloadList list = ListFor(job);
  const Candidate* listed = nullptr;
  for (const Candidate* c : refs) {
    if (c->has_point() && c->family->platform == Platform::kGpu &&
        c->on_workload_list &&
        (listed == nullptr || Cost(job, *c) < Cost(job, *listed))) {
      listed = c;
    }
  }
  if (listed == nullptr) return;
  const double listed_cost = Cost(job, *listed);
  const double listed_time = TimeMetric(job, *listed->config);
  const double slack = kPolicy.workload_list_cost_slack.value;
  const auto beats_listed = [&](const Config& p) {
    return CostMetric(job, p) <= listed_cost &&
           TimeMetric(job, p) < listed_time;
  };
  for (Candidate* c : judged) {
    if (!c->has_point() || c->family->platform != Platform::kGpu ||
        c->on_workload_list) {
      continue;
    }
    const Config selected = *c->config;
    if (listed_cost > slack * Cost(job, *c) || beats_listed(selected)) continue;
    if (ReselectPoint(job, norm, *c, beats_listed)) {
      c->notes.push_back(ListSizingNote(job, *c, selected, *listed));
      c->list_sizing = c->notes.back().message;
      continue;
    }
    c->Reject(ReasonCode::kNotRecommendedForWorkload,
              absl::StrCat(
                  c->family->name, " is not on Google's ", ListName(list),
                  " list, and ", listed->family->name,
                  absl::StrFormat(", which is, costs no more than %.0f%% more.",
                                  100 * (slack - 1))));
  }
}

}  // namespace

void ApplyRelativeRules(const Job& job, const Norm& norm,
                        const std::vector<Candidate>& field,
                        const std::vector<Candidate*>& judged) {
  const catalog::WorkloadList list = ListFor(job);
  // The judged candidates stand in for their families' own in the field.
  Refs refs(judged.begin(), judged.end());
  for (const Candidate& c : field) {
    const bool replaced =
        std::any_of(judged.begin(), judged.end(),
                    [&](const Candidate* j) { return j->family == c.family; });
    if (!replaced) refs.push_back(&c);
  }
  for (Candidate* c : judged) {
    if (c->family->series != nullptr) {
      c->on_workload_list = c->family->series->workload_lists.count(list) > 0;
    }
  }
  CpuProfileRule(job, norm, refs, judged);
  EmbeddingRule(job, judged);
  WorkloadListRule(job, norm, refs, judged);
  // After the workload lists: a smaller shape they reject does not make
  // another family oversized (planner/oversize.h).
  OversizeRule(job, NormOver(job, field), refs, judged);
}

}  // namespace accelplan::planner::internal
