// ReviewPlan for classical ML's distribution proposals: XGBoost and
// LightGBM train data parallel only (each worker holds part of the rows and
// the workers all-reduce their histograms), so there is no model replica to
// fit and no model to shard, pipeline or serve from a parameter server.
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "planner/engine_common.h"
#include "planner/review_internal.h"
#include "planner/space.h"

namespace accelplan::planner::internal {
namespace {

// The layouts tree boosting lacks, as a noun phrase; null for the ones it
// has (data parallel, one device).
const char* NotABoostingLayout(Strategy s) {
  switch (s) {
    case Strategy::kFsdp:
      return "FSDP/ZeRO sharding";
    case Strategy::kTensorParallel:
      return "tensor parallelism";
    case Strategy::kPipelineParallel:
      return "pipeline parallelism";
    case Strategy::kHybrid:
      return "model parallelism";
    case Strategy::kHorovod:
      return "Horovod";
    case Strategy::kParameterServer:
      return "parameter server";
    default:
      return nullptr;
  }
}

// The best point at `workers` devices (0: any count): on today's family
// when the request names one, else on whichever viable family ranks first.
std::optional<Candidate> BestWithWorkers(const ReviewContext& ctx,
                                         const LayoutPin& layout, int workers) {
  Pins pins;
  pins.layout = layout;
  pins.devices = workers;
  if (const Family* current = CurrentFamily(ctx.index, ctx.job)) {
    return EvaluateInSpace(ctx.catalog, ctx.job, ctx.space, *current, pins,
                           /*compare_families=*/false);
  }
  return BestFamilyWith(ctx, pins);
}

// The job's library, as a sentence's subject.
std::string Library(const Job& job) {
  return job.framework == Framework::kUnspecified
             ? "Tree boosting"
             : FrameworkLabel(job.framework);
}

}  // namespace

std::optional<std::string> NotABoostingRemedy(const Job& job, RemedyKind k) {
  if (!job.classical) return std::nullopt;
  switch (k) {
    case RemedyKind::kShardOptimizerState:
      return absl::StrCat(Library(job),
                          " has no optimizer state to shard: it keeps "
                          "gradient statistics per row, not per parameter.");
    case RemedyKind::kActivationRecompute:
      return absl::StrCat(Library(job), " has no activations to recompute.");
    case RemedyKind::kFixTensorShapes:
      return absl::StrCat(Library(job),
                          " has no layer widths or batch to pad to the "
                          "accelerator's tiles.");
    case RemedyKind::kUseHorovod:
      return absl::StrCat("Horovod distributes TensorFlow, PyTorch and MXNet; ",
                          Library(job),
                          " distributes itself (Dask, Spark or its own "
                          "collective).");
    default:
      return std::nullopt;
  }
}

bool JudgeClassicalLayout(const ReviewContext& ctx,
                          const DistributionProposal& d, Judged& j) {
  const Job& job = ctx.job;
  if (!job.classical) return false;
  const Strategy s = PinOf(d).strategy;
  if (const char* lacks = NotABoostingLayout(s)) {
    j.Reject(ReasonCode::kNotApplicable,
             absl::StrCat(Library(job),
                          job.framework == Framework::kScikitLearn
                              ? " trains on one machine"
                              : " trains data parallel only (each worker "
                                "holds part of the rows)",
                          ": it has no ", lacks, "."));
    return true;
  }
  if (s != Strategy::kDataParallel && s != Strategy::kSingleDevice) {
    return false;
  }
  // scikit-learn has no distributed training (its n_jobs parallelism stays
  // on one machine; sizing.cc plans it on one VM).
  if (job.framework == Framework::kScikitLearn &&
      s == Strategy::kDataParallel && d.data_parallelism != 1) {
    j.Reject(ReasonCode::kNotApplicable,
             "scikit-learn trains on one machine (n_jobs uses that machine's "
             "cores): it has no data-parallel workers.");
    return true;
  }
  const int workers = s == Strategy::kSingleDevice ? 1 : d.data_parallelism;
  std::optional<Candidate> c = BestWithWorkers(ctx, PinOf(d), workers);
  if (c && !c->viable()) {
    j.RejectWith(*c);
    return true;
  }
  if (!(c && c->config)) {
    j.Reject(ReasonCode::kNotApplicable,
             absl::StrCat("No hardware the request allows holds the job on ",
                          workers > 0 ? absl::StrCat(workers, " worker(s)")
                                      : "any count of workers",
                          "."));
    return true;
  }
  // As any layout: first when its point acts on the stated problem.
  j.tier = ActsOnTheStatedProblem(ctx, *c) ? kActsOnTheProblemTier : 1;
  j.candidate = std::move(c);
  j.secondary = 0;
  return true;
}

}  // namespace accelplan::planner::internal
