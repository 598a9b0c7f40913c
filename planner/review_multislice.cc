// ReviewPlan: distribution proposals over TPU slices (Multislice). Each
// passes SPEC §4's DCN rules, which stay hard rules above the scorer, and
// is then judged on its point on today's slices against data parallelism
// across them, the usual choice.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/current_evidence.h"
#include "planner/domains.h"
#include "planner/job_spec.h"
#include "planner/review_internal.h"
#include "planner/slice_replica.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

// Device memory left after the default headroom (planner/policy.h).
constexpr double kUsableFraction = 1 - kPolicy.headroom_fraction.value;

// The current slices' point in the space, `slices` of them (data parallel
// across slices, the layout inside chosen as PlanTraining would): what a
// Multislice data-parallel proposal is ranked by. Empty when the current
// hardware is not a known TPU topology or does not hold the job.
std::optional<Candidate> CurrentSlicesCandidate(const ReviewContext& ctx,
                                                int slices,
                                                const LayoutPin& layout) {
  const Family* current = CurrentFamily(ctx.index, ctx.job);
  if (current == nullptr || current->platform != Platform::kTpu ||
      ctx.job.current.tpu_topology.empty()) {
    return std::nullopt;
  }
  Pins pins;
  pins.topology = ctx.job.current.tpu_topology;
  pins.slices = std::max(1, slices);
  pins.layout = layout;
  return EvaluateInSpace(ctx.catalog, ctx.job, ctx.space, *current, pins,
                         /*compare_families=*/false);
}

std::optional<Candidate> CurrentSlicesPoint(const ReviewContext& ctx,
                                            int slices,
                                            const LayoutPin& layout = {}) {
  std::optional<Candidate> c = CurrentSlicesCandidate(ctx, slices, layout);
  if (!c || !c->viable() || !c->config) return std::nullopt;
  return c;
}

// Data parallelism across the current slices, the usual choice other DCN
// layouts are judged against: the current slices' point unless it shards
// the model across slices (then one slice cannot hold a replica, and
// `replica_too_big` says so). DataAcrossSlicesOf takes the current slices'
// candidate (CurrentSlicesCandidate) from a caller that already has it.
std::optional<Candidate> DataAcrossSlicesOf(std::optional<Candidate> c,
                                            bool* replica_too_big) {
  if (c && !c->has_point()) c.reset();
  *replica_too_big =
      c && ShardsAcrossSlices(c->config->layout,
                              c->config->devices / c->config->slices);
  if (*replica_too_big) return std::nullopt;
  return c;
}

std::optional<Candidate> DataAcrossSlicesPoint(const ReviewContext& ctx,
                                               int slices,
                                               bool* replica_too_big) {
  return DataAcrossSlicesOf(CurrentSlicesCandidate(ctx, slices, {}),
                            replica_too_big);
}

// Without slices today: `slices` identical multi-host slices of whichever
// TPU family and topology ranks best for the job, each holding a replica
// (data parallel across them), so the proposal carries estimates. Per
// family: its own best point over that many slices, else (when that point
// shards the model across slices) its smallest multi-host topology whose
// slice holds a replica.
std::optional<Candidate> BestDataAcrossSlices(const ReviewContext& ctx,
                                              int slices) {
  const auto replica_per_slice = [](const Candidate& c) {
    return c.viable() && c.config &&
           !ShardsAcrossSlices(
               c.config->layout,
               c.config->devices / std::max(1, c.config->slices));
  };
  std::optional<Candidate> best;
  for (const Candidate& field : ctx.space.candidates) {
    const Family& f = *field.family;
    if (!field.viable() || f.platform != Platform::kTpu) continue;
    Pins pins;
    pins.slices = slices;
    Candidate c = EvaluateInSpace(ctx.catalog, ctx.job, ctx.space, f, pins);
    if (!replica_per_slice(c)) {
      for (const Shape& shape : f.shapes) {  // ascending by chips
        if (shape.vms <= 1 || shape.topology == nullptr) continue;
        SliceReplica r{f.name, shape.devices, slices,
                       f.device_memory_bytes * kUsableFraction};
        if (ReplicaExceedsSlice(ctx.job, r)) continue;
        pins.topology = shape.topology->topology;
        c = EvaluateInSpace(ctx.catalog, ctx.job, ctx.space, f, pins);
        break;
      }
    }
    if (!replica_per_slice(c)) continue;
    if (!best || RanksBefore(ctx.job, c, *best)) best = std::move(c);
  }
  return best;
}

// The current TPU accelerator, if the current hardware is one.
const catalog::Accelerator* CurrentTpu(const Job& job) {
  return job.current_accelerator &&
                 job.current_accelerator->platform == catalog::Platform::kTpu
             ? job.current_accelerator
             : nullptr;
}

// DCN and ICI bandwidth for the numbers in the reasons, in GB/s per chip:
// the current TPU's, else the first TPU family's with a DCN figure.
struct SliceLinks {
  double dcn_gbs = 0;
  double ici_gbs = 0;
};

SliceLinks SliceLinksFor(const Index& index, const catalog::Accelerator* tpu) {
  SliceLinks links;
  for (const Family& f : index.families) {
    if (f.platform != Platform::kTpu) continue;
    if (tpu != nullptr && f.accelerator != tpu) continue;
    links.dcn_gbs = f.dcn_bytes_per_s_per_chip / 1e9;
    links.ici_gbs = f.ici_bytes_per_s / 1e9;
    if (tpu != nullptr || links.dcn_gbs > 0) break;
  }
  return links;
}

// The degrees a proposal states (a mesh's ICI and DCN axes), judged as a
// hardware proposal of today's slices with that layout is: its point, or
// rejected with the codes of a layout that holds none (false).
bool JudgeStatedDegrees(const ReviewContext& ctx, const DistributionProposal& d,
                        int slices, Judged& j) {
  const LayoutPin pin = PinOf(d);
  std::optional<Candidate> c = CurrentSlicesCandidate(ctx, slices, pin);
  if (c && !c->has_point()) {
    for (size_t i = 0; i < c->codes.size(); ++i) {
      j.Reject(c->codes[i], i < c->why.size() ? c->why[i] : "");
    }
    return false;
  }
  if (c && c->config) {
    if (RejectIfTensorSpansSlices(ctx, pin, *c, j) ||
        RejectIfDegreesCannotTile(pin, *c, j)) {
      return false;
    }
    NoteUnmatchedDegrees(pin, *c, j);
  }
  if (c) j.candidate = std::move(c);
  return true;
}

// Data parallel across slices replicates the model in each slice: one
// slice must hold a replica (planner/slice_replica.h).
void JudgeDataAcrossSlices(const ReviewContext& ctx,
                           const catalog::Accelerator* tpu,
                           const DistributionProposal& d, int slices,
                           Judged& j) {
  const Job& job = ctx.job;
  SliceReplica replica;
  replica.slice = job.current.tpu_topology;
  replica.chips_per_slice = job.current.tpu_topology.empty()
                                ? 0
                                : TopologyChips(job.current.tpu_topology);
  replica.slices = std::max(1, slices);
  replica.usable_bytes_per_chip =
      tpu != nullptr && tpu->memory_bytes
          ? tpu->memory_bytes->value * kUsableFraction
          : 0;
  if (auto why = ReplicaExceedsSlice(job, replica)) {
    j.Reject(ReasonCode::kHbmTooSmall, *why);
    return;
  }
  j.tier = 1;
  j.secondary = 0;
  if (job.current.tpu_topology.empty()) {
    j.candidate = BestDataAcrossSlices(ctx, slices);
    if (!j.candidate) {
      j.Reject(ReasonCode::kNotApplicable,
               absl::StrFormat("No TPU family the request allows runs %d "
                               "identical multi-host slices that each hold "
                               "a replica of the job (Multislice is a TPU "
                               "layout).",
                               slices));
      return;
    }
    // The degrees it states, held to on the hardware that runs it as
    // JudgeStatedDegrees holds them on today's slices.
    const LayoutPin pin = PinOf(d);
    if (pin.degrees() && j.candidate->config) {
      if (RejectIfTensorSpansSlices(ctx, pin, *j.candidate, j) ||
          RejectIfDegreesCannotTile(pin, *j.candidate, j)) {
        j.candidate.reset();
        return;
      }
      NoteUnmatchedDegrees(pin, *j.candidate, j);
    }
  } else if (PinOf(d).degrees()) {
    if (!JudgeStatedDegrees(ctx, d, slices, j)) return;
    if (RejectIfShardedAcrossSlices(j)) return;
  } else {
    // Today's slices as a hardware proposal of them is judged: rejected
    // with its codes when they hold no point (single-host slices).
    std::optional<Candidate> c = CurrentSlicesCandidate(ctx, slices, {});
    if (c && !c->viable()) {
      j.RejectWith(*c);
      return;
    }
    if (c && c->has_point()) j.candidate = std::move(c);
  }
  if (j.candidate && ActsOnTheStatedProblem(ctx, *j.candidate)) {
    j.tier = kActsOnTheProblemTier;
  }
  j.why.push_back(absl::StrFormat(
      "Data parallelism across the %d slices: only the gradient "
      "crosses DCN, once per step (dcn_data_parallelism = %d), while "
      "FSDP/tensor traffic stays on ICI.",
      slices, slices));
}

// FSDP over every chip of the slices: its point on today's slices, judged
// against data parallelism across them (SPEC §4: viable, not the usual
// choice, so ranked after it whatever the numbers).
void JudgeFsdpAcrossSlices(const ReviewContext& ctx, const SliceLinks& links,
                           const DistributionProposal& d, int slices,
                           Judged& j) {
  j.tier = 3;
  const std::string& topology = ctx.job.current.tpu_topology;
  std::optional<Candidate> fsdp, data;
  bool replica_too_big = false;
  if (!topology.empty() && d.mesh && d.mesh->dcn_fsdp_parallelism > 1 &&
      PinOf(d).degrees()) {
    // The mesh it states, sharding across the slices (dcn_fsdp), held to as
    // data parallelism across slices is to its mesh.
    if (!JudgeStatedDegrees(ctx, d, slices, j)) return;
    fsdp = std::move(j.candidate);
    j.candidate.reset();
    data = DataAcrossSlicesPoint(ctx, slices, &replica_too_big);
  } else if (!topology.empty()) {
    const int chips = TopologyChips(topology) * std::max(1, slices);
    LayoutPin over_all(Strategy::kFsdp);
    over_all.fsdp = chips;
    // FSDP over every chip; with fewer sequences than chips (or too little
    // memory) it has no point, and FSDP over the slices' tensor-parallel
    // groups (planner/layouts.h) is tried; failing both, the proposal is
    // judged by the rule alone.
    fsdp = CurrentSlicesPoint(ctx, slices, over_all);
    const int tp = TensorParallelCap(ctx.job, Platform::kTpu);
    if (!fsdp && tp > 1 && chips % tp == 0 &&
        ModelParallelLayers(ctx.job) > 0) {
      LayoutPin tp_groups;
      tp_groups.tensor = tp;
      tp_groups.fsdp = chips / tp;
      fsdp = CurrentSlicesPoint(ctx, slices, tp_groups);
    }
    // Neither fits today's slices (or has a rank for each sequence): the
    // proposal is rejected for what its own point fails.
    if (!fsdp) {
      const std::optional<Candidate> failed =
          CurrentSlicesCandidate(ctx, slices, over_all);
      if (failed && !failed->codes.empty()) {
        j.RejectWith(*failed);
        return;
      }
    }
    data = DataAcrossSlicesPoint(ctx, slices, &replica_too_big);
  }
  const double tol = kPolicy.tie_tolerance.value;
  const auto step = [](const Candidate& c) {
    return c.config->step.step_seconds_expected;
  };
  const std::string gathers = absl::StrFormat(
      "FSDP across slices re-gathers weights over DCN (%.1f GB/s per chip) "
      "every step",
      links.dcn_gbs);
  if (replica_too_big) {
    j.why.push_back(
        absl::StrCat(gathers,
                     "; one slice cannot hold a replica here, so FSDP across "
                     "slices is what holds the job."));
  } else if (fsdp && data && !(step(*fsdp) > step(*data) * (1 + tol))) {
    j.why.push_back(absl::StrCat(
        gathers,
        absl::StrFormat(", which the model hides here (step %.3g s against "
                        "%.3g s with data parallelism across slices); data "
                        "parallelism across slices, which sends only the "
                        "gradient, is the usual choice.",
                        step(*fsdp), step(*data))));
  } else {
    j.Add(ReasonCode::kSlower,
          absl::StrCat(
              gathers,
              fsdp && data
                  ? absl::StrFormat(": step %.3g s against %.3g s with data "
                                    "parallelism across slices, which sends "
                                    "only the gradient once.",
                                    step(*fsdp), step(*data))
                  : "; data parallelism across slices sends only the "
                    "gradient once."));
  }
  if (fsdp) j.candidate = std::move(fsdp);
}

constexpr char kPipelineOverDcnRule[] =
    "Pipeline stages over DCN work but add pipeline bubbles; XLA already "
    "generates and overlaps the DCN collectives, and data parallelism "
    "across slices is the usual choice";

// Pipeline stages across slices without a point that holds them: viable,
// never recommended, SLOWER, saying why there is no estimate.
void NoStagedEstimate(const Job& job, bool topology_known, Judged& j) {
  NeverRecommendPipelineOverDcn(j);
  j.Add(ReasonCode::kSlower,
        absl::StrCat(
            kPipelineOverDcnRule,
            !topology_known ? " (no estimate: the slice topology is not given)."
            : ModelParallelLayers(job) <= 0
                ? " (no estimate: the request gives no transformer shape "
                  "to split into stages)."
                : " (no estimate: the stages do not divide the slices, "
                  "outnumber the layers, or do not fit a slice)."));
}

// Pipeline stages over groups of slices: the point on today's slices with
// that many stages (FSDP inside each slice, planner/layouts.h), its step
// against data parallelism across them (TensorFlow, which schedules no
// pipeline, never gets here: JudgeMultislice rejects its slices). SPEC §4:
// viable, never recommended, so ranked after the usual choice whatever the
// numbers; SLOWER only when it is slower (or has no numbers to say
// otherwise).
void JudgePipelineAcrossSlices(const ReviewContext& ctx,
                               const DistributionProposal& d, int slices,
                               Judged& j) {
  NeverRecommendPipelineOverDcn(j);
  std::optional<Candidate> staged, data;
  if (!ctx.job.current.tpu_topology.empty()) {
    LayoutPin pin(Strategy::kPipelineParallel);
    pin.pipeline = d.mesh && d.mesh->dcn_pipeline_parallelism > 1
                       ? d.mesh->dcn_pipeline_parallelism
                       : std::max(1, slices);
    if (d.mesh && d.mesh->ici_tensor_parallelism > 1) {
      pin.tensor = d.mesh->ici_tensor_parallelism;
    }
    // Today's slices rejected as a hardware proposal of them is (single-host
    // slices): the same codes, not a missing estimate.
    std::optional<Candidate> today = CurrentSlicesCandidate(ctx, slices, {});
    if (today && !today->viable() &&
        HasCode(today->codes, ReasonCode::kNeedsMultiHostSlices)) {
      j.RejectWith(*today);
      return;
    }
    staged = CurrentSlicesPoint(ctx, slices, pin);
    bool replica_too_big = false;
    data = DataAcrossSlicesOf(std::move(today), &replica_too_big);
  }
  if (!staged) {
    NoStagedEstimate(ctx.job, !ctx.job.current.tpu_topology.empty(), j);
    return;
  }
  const Config& c = *staged->config;
  const char* rule = kPipelineOverDcnRule;
  std::string numbers = absl::StrFormat(
      ": %d stages over %d micro-batches step %.3g s", c.layout.pipeline,
      std::max(1, c.layout.microbatches), c.step.step_seconds_expected);
  const double tol = kPolicy.tie_tolerance.value;
  const bool slower =
      data && c.step.step_seconds_expected >
                  data->config->step.step_seconds_expected * (1 + tol);
  if (data) {
    absl::StrAppend(&numbers,
                    absl::StrFormat(" against %.3g s with data parallelism "
                                    "across slices",
                                    data->config->step.step_seconds_expected));
  } else {
    absl::StrAppend(&numbers,
                    "; a replica does not fit one slice, so data "
                    "parallelism across slices has no point here");
  }
  const std::string why =
      absl::StrCat(rule, numbers, ".", UnmodelledMeshAxes(d));
  if (slower) {
    j.Add(ReasonCode::kSlower, why);
  } else {
    j.why.push_back(why);
  }
  j.candidate = std::move(staged);
}

// `lead`: why the tensor axis is over DCN, when the proposal does not say.
void RejectTensorOverDcn(const SliceLinks& links, Judged& j,
                         const std::string& lead = "") {
  j.Reject(ReasonCode::kCommunicationBound,
           absl::StrFormat(
               "%sTensor parallelism all-reduces activations inside every "
               "layer; over DCN (%.1f GB/s per chip, against %.0f GB/s of "
               "ICI) it is communication-bound. Keep it inside a slice.",
               lead, links.dcn_gbs, links.ici_gbs));
}

bool RejectIndependentModels(const DistributionProposal& d, Judged& j) {
  if (d.strategy != Strategy::kIndependentModels &&
      AcrossSlices(d) != DcnParallelism::kNone) {
    return false;
  }
  j.Reject(ReasonCode::kNoSharedModel,
           "Independent models per slice never combine into one trained "
           "model; slices must share the model through data parallelism.");
  return true;
}

// Each DCN parallelism judged by what it sends over DCN per step.
void JudgeAcrossSlices(const ReviewContext& ctx,
                       const catalog::Accelerator* tpu, const SliceLinks& links,
                       const DistributionProposal& d, DcnParallelism across,
                       int slices, Judged& j) {
  if (across == DcnParallelism::kTensor) {
    RejectTensorOverDcn(links, j);
  } else if (across == DcnParallelism::kPipeline) {
    JudgePipelineAcrossSlices(ctx, d, slices, j);
  } else if (across == DcnParallelism::kFsdp) {
    JudgeFsdpAcrossSlices(ctx, links, d, slices, j);
  } else {
    JudgeDataAcrossSlices(ctx, tpu, d, slices, j);
  }
}

}  // namespace

// SPEC §4's Multislice rules for a distribution over slices. Returns false
// when the proposal is not a Multislice one (nothing judged).
bool JudgeMultislice(const ReviewContext& ctx, const DistributionProposal& d,
                     Judged& j) {
  const Job& job = ctx.job;
  int slices = d.slices > 0 ? d.slices : job.current_slices;
  if (d.mesh && RejectBadMesh(job, *d.mesh, slices, j)) return true;
  if (RejectIndependentModels(d, j)) return true;
  const DcnParallelism across = AcrossSlices(d);
  const catalog::Accelerator* tpu = CurrentTpu(job);
  const SliceLinks links = SliceLinksFor(ctx.index, tpu);
  const bool multislice = slices > 1 || across != DcnParallelism::kUnspecified;
  if (!multislice) return false;
  if (const std::string why = MultisliceFrameworkReason(job.framework);
      !why.empty()) {
    j.Reject(ReasonCode::kFrameworkUnsupported, absl::StrCat(why, "."));
    return true;
  }
  if (job.mixed_current_slices) {
    j.Reject(
        ReasonCode::kNeedsIdenticalSlices,
        absl::StrCat("Multislice needs identical slices; the current "
                     "ones have different topologies (",
                     absl::StrJoin(job.current.slice_topologies, ", "), ")."));
    return true;
  }
  if (ToCatalogRunPlatform(job.constraints.run_platform) ==
      catalog::RunPlatform::kVertexTraining) {
    j.Reject(ReasonCode::kNotOfferedOnPlatform,
             absl::StrCat(VertexHasNoMultislice(std::max(2, slices)), "."));
    return true;
  }
  JudgeAcrossSlices(ctx, tpu, links, d, across, slices, j);
  return true;
}

bool RejectLayoutAcrossSlices(const ReviewContext& ctx,
                              const DistributionProposal& d, int slices,
                              const std::vector<const Family*>& families,
                              Judged& j) {
  if (RejectIndependentModels(d, j)) return true;
  if (slices <= 1 || AcrossSlices(d) != DcnParallelism::kTensor) return false;
  const catalog::Accelerator* tpu = nullptr;
  for (const Family* f : families) {
    if (f->platform == Platform::kTpu) {
      tpu = f->accelerator;
      break;
    }
  }
  RejectTensorOverDcn(SliceLinksFor(ctx.index, tpu), j);
  return true;
}

bool RejectIfTensorSpansSlices(const ReviewContext& ctx, const LayoutPin& pin,
                               const Candidate& c, Judged& j) {
  const Config& p = *c.config;
  const int per_slice = p.devices / std::max(1, p.slices);
  if (p.slices <= 1 || pin.tensor <= per_slice) return false;
  RejectTensorOverDcn(
      SliceLinksFor(ctx.index, c.family->accelerator), j,
      absl::StrFormat("Tensor parallelism %d spans slices of %d chips, so its "
                      "groups cross DCN. ",
                      pin.tensor, per_slice));
  return true;
}

}  // namespace accelplan::planner::internal
