// ReviewPlan's stages: each proposal is judged as a query on the job's
// candidate space (planner/space.h); verdicts come from the one scorer.
#ifndef ACCELPLAN_PLANNER_REVIEW_INTERNAL_H_
#define ACCELPLAN_PLANNER_REVIEW_INTERNAL_H_

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/engine.h"
#include "planner/remedies.h"
#include "planner/space.h"

namespace accelplan::planner::internal {

// What one review call shares across its proposals.
struct ReviewContext {
  const catalog::Catalog& catalog;
  const Index& index;
  const Job& job;
  const Space& space;
  std::vector<std::string>& fact_ids;
  // Today's setup as a candidate of the space, evaluated at most once per
  // call (TodayOf): every remedy's "against today" line and the rule that
  // holds back what today beats read the same point.
  mutable std::optional<std::optional<Candidate>> today;
};

// Horovod proposed where the hardware is a TPU.
inline constexpr const char* kHorovodIsNotForTpus =
    "Horovod runs over MPI/NCCL/Gloo on GPUs and CPUs, not TPUs.";
// Parameter servers proposed where the hardware is a TPU: TensorFlow's
// ParameterServerStrategy trains on CPU and GPU workers, TPUs with
// TPUStrategy (https://www.tensorflow.org/guide/distributed_training;
// https://www.tensorflow.org/ranking/api_docs/python/tfr/keras/
// strategy_utils), and JAX has no parameter servers.
inline constexpr const char* kParameterServersAreNotForTpus =
    "Parameter servers (TensorFlow's ParameterServerStrategy) train on CPU "
    "and GPU workers; TPUs train with TPUStrategy or JAX/XLA sharding.";
// The reason a strategy cannot run on TPUs (Horovod, parameter servers),
// else nullptr.
inline const char* NotForTpus(Strategy s) {
  return s == Strategy::kHorovod           ? kHorovodIsNotForTpus
         : s == Strategy::kParameterServer ? kParameterServersAreNotForTpus
                                           : nullptr;
}

// One proposal's judgement. Non-rejected proposals are ordered by
// (tier, candidate rank in the space, secondary): what acts on a stated
// symptom first (kActsOnTheProblemTier: remedies, moves, and hardware or
// layouts whose point does, ActsOnTheStatedProblem), then the hardware and
// layouts that do not (1, with or without a stated symptom), then the rest
// (2, 3). Inside a tier a
// proposal that selects a point ranks by the scorer, as PlanTraining ranks it
// (SPEC §3: its recommendation is RECOMMENDED beside worse proposals).
struct Judged {
  std::vector<ReasonCode> codes;
  std::vector<std::string> why;
  bool rejected = false;
  // False: never RECOMMENDED though not rejected (an unpriced hardware
  // under a budget; pipeline stages over DCN).
  bool recommendable = true;
  int tier = 9;
  // It acts on the stated problem, whichever tier it ranks in (Review).
  bool acts_on_problem = false;
  // Its point is on today's hardware (OnTodaysHardware, set by Review).
  bool todays_hardware = false;
  double secondary = 0;
  // The proposal's label: the last tie-break, so that two proposals equal
  // in everything else do not rank by the order they are listed in.
  std::string label;
  // The point of the space the proposal selects, when it selects one.
  std::optional<Candidate> candidate;

  void Reject(ReasonCode code, std::string line);
  void Add(ReasonCode code, std::string line);
  void RejectWith(const Candidate& c);  // every code of a rejected candidate
};

inline constexpr int kActsOnTheProblemTier = 0;

// "waiting on gradient synchronization": a stated symptom in a sentence
// about today's job.
const char* SymptomLabel(Symptom s, const Job& job);
// Every stated symptom (and an edge job's CPU fallback) in one phrase.
std::string SymptomsText(const Job& job);

// The link a data-parallel gradient rides per device: across VMs the VM's
// own NIC share, inside one VM or NVLink domain its NVLink (or PCIe), ICI
// in a TPU slice, ICI and each chip's DCN share in series across slices;
// for today's setup (today's point where the model has one; 0: unknown)
// and for a point. WidensGradientLink: a viable point's is wider than
// today's.
double TodaysGradientLink(const ReviewContext& ctx);
double PointGradientLink(const Candidate& point);
bool WidensGradientLink(const ReviewContext& ctx, const Candidate& point);

// Today's hardware: today's machine type at today's size (TodayOf);
// today's setup restated: that, in the layout and recompute level today's
// point takes.
bool OnTodaysHardware(const ReviewContext& ctx, const Candidate& point);
bool IsTodaysSetup(const ReviewContext& ctx, const Candidate& point);

// A move under GRADIENT_SYNC_BOUND acts on it when the point it selects
// widens the gradient's link, as a hardware proposal's point does
// (ActsOnTheStatedProblem; on parameter servers it ranks after leaving
// them): decided after the point is chosen, by JudgeMoveByItsPoint, which
// ranks it with what acts or rejects it DOES_NOT_ADDRESS_BOTTLENECK saying
// why.
bool MoveJudgedByItsPoint(const Job& job, const RemedyProposal& m);
void JudgeMoveByItsPoint(const ReviewContext& ctx, Judged& j);
// Under an OUT_OF_MEMORY the model does not reproduce (Job::oom_unmodelled),
// a move (or more memory per device) whose point leaves no more memory
// free per device than today's does not act: it ranks as that hardware
// proposed bare does (ActsOnTheStatedProblem).
void HoldMoveThatFreesNoMemory(const ReviewContext& ctx,
                               const RemedyProposal& m, Judged& j);
// A FIX_TENSOR_SHAPES proposal whose sizes still pad (DOES_NOT_ADDRESS_
// BOTTLENECK, naming the tilings and the advised sizes), or whose batch is
// past the tolerated maximum (NOT_APPLICABLE).
void RejectIfShapesStillPad(const Job& job, const RemedyProposal& m, Judged& j);
// With a stated problem, whether a hardware or layout proposal's point acts
// on it the way a move does: OUT_OF_MEMORY, the point holds the job (the
// space keeps only points that fit) and is not today's setup restated;
// GRADIENT_SYNC_BOUND, the point widens the gradient's link
// (WidensGradientLink), and today's job is not on parameter servers
// (leaving them is the fix). Such a proposal ranks in
// kActsOnTheProblemTier.
bool ActsOnTheStatedProblem(const ReviewContext& ctx, const Candidate& point);

// `evaluate`: the proposal's families are evaluated with the context's job
// even when it pins nothing (a move judged on today's capacity), instead of
// taking their points in the space.
void JudgeHardware(const ReviewContext& ctx, const HardwareProposal& h,
                   Judged& j, bool evaluate = false);
void JudgeDistribution(const ReviewContext& ctx, const DistributionProposal& d,
                       Judged& j);
// A distribution over TPU slices (planner/review_multislice.cc): SPEC §4's
// Multislice rules, then its point on today's slices. False when the
// proposal is not a Multislice one (nothing judged).
bool JudgeMultislice(const ReviewContext& ctx, const DistributionProposal& d,
                     Judged& j);
// The best point with `pins` over the space's viable families (each
// evaluated in the space), first in RanksBefore order; nullopt when none
// has one.
std::optional<Candidate> BestFamilyWith(const ReviewContext& ctx,
                                        const Pins& pins);
// Classical ML (planner/review_classical.cc): tree boosting trains data
// parallel only, so a data-parallel or single-device proposal selects that
// many workers on the best hardware for it and a model-parallel one is
// NOT_APPLICABLE. Returns whether it judged `d` (false for deep learning).
bool JudgeClassicalLayout(const ReviewContext& ctx,
                          const DistributionProposal& d, Judged& j);
// A deep-learning remedy tree boosting has nothing for (optimizer state,
// activations, tile padding, Horovod): why, for classical ML; nullopt
// otherwise.
std::optional<std::string> NotABoostingRemedy(const Job& job, RemedyKind k);
// SPEC §4: pipeline stages over DCN are viable, never RECOMMENDED, and rank
// after every other layout.
void NeverRecommendPipelineOverDcn(Judged& j);
void JudgeRemedy(const ReviewContext& ctx, const RemedyProposal& m, Judged& j);
// A remedy the rules left standing, as a query on the space: the current
// setup with the remedy applied (a move: the hardware it names) selects a
// point, whose estimates the verdict carries and the scorer ranks
// (planner/review_remedy_point.cc).
void JudgeRemedyInSpace(const ReviewContext& ctx, const RemedyProposal& m,
                        Judged& j);
// Whether JudgeRemedyInSpace builds the current setup with the remedy
// applied: the space holds the current setup and models the remedy. Its
// memory per device is then the space's, not a formula's. (A move is
// judged at today's device count first, by the formula, then as the
// hardware proposal it names.)
bool RemedyHasPointInSpace(const ReviewContext& ctx, const RemedyProposal& m);
// The remedies the space models as a change to the current setup; the
// others (storage, evaluators, tensor shapes, Horovod, the edge) are
// judged by their rules alone.
bool SpaceModels(RemedyKind kind);
// Today's setup as a candidate of the space: the current family at today's
// size and stated layout, on today's capacity, with no deadline, budget or
// pace to meet (it is what runs now). nullopt when the space does not hold
// the current setup; a candidate without a point when it does not fit.
// Evaluated once per ReviewContext.
const std::optional<Candidate>& TodayOf(const ReviewContext& ctx);

// Keeping today's setup is an option every review has: a proposal today's
// point beats on both cost and time is never RECOMMENDED (HIGHER_COST,
// SLOWER). ReviewPlan applies it to every proposal, PlanTraining to the
// remedies it lists, so the two never disagree on one.
void NeverRecommendWhatTodayBeats(const ReviewContext& ctx,
                                  std::vector<Judged>& judged);

// A layout that states today's strategy and no degrees, or data
// parallelism over today's devices: on today's hardware it restates what
// runs today (plain DDP for data parallelism, LayoutPin::proposed; its
// memory taken as observed).
inline bool StatesTodaysStrategy(const Job& job, const LayoutPin& pin) {
  if (pin.strategy != job.current.strategy) return false;
  if (!pin.degrees()) return true;
  // Degrees that say what today runs: plain data parallelism over every
  // device today has.
  return pin.strategy == Strategy::kDataParallel &&
         pin.data == job.current_devices && pin.fsdp <= 1 && pin.tensor <= 1 &&
         pin.pipeline <= 1;
}

// A proposal whose point has no price is never RECOMMENDED under a budget
// (docs/planner.md §5): PRICE_UNKNOWN, whichever kind of proposal selected
// it. No-op without a budget, a point, or once applied.
void HoldUnpricedUnderBudget(const Job& job, Judged& j);
// An unpriced point is never recommended beside a priced proposal that is
// not rejected, whichever tier it ranks in (SPEC §4: an unknown price ranks
// below every priced one under every objective).
void HoldUnpricedBehindPriced(std::vector<Judged>& judged);

// Whether `a` is the better of two non-rejected judgements: an order over
// the proposals' own numbers, so verdicts never depend on proposal order.
bool JudgedBefore(const Job& job, const Judged& a, const Judged& b);
// Both select points of one tier that the scorer cannot tell apart.
bool TiedOnTheNumbers(const Job& job, const Judged& a, const Judged& b);

bool CurrentIsTpu(const Job& job);

// A remedy that names the hardware it moves to: MOVE_TO_HARDWARE, or MORE_
// MEMORY_PER_DEVICE with a target. Either is judged on its target (its
// memory, its hard rules, its point), not on today's hardware.
inline bool MovesToTarget(const RemedyProposal& m) {
  return m.target.has_value() && (m.kind == RemedyKind::kMoveToHardware ||
                                  m.kind == RemedyKind::kMoreMemoryPerDevice);
}

// A stated tensor degree larger than a slice of the candidate's point:
// its groups cross DCN, which SPEC §4 rejects COMMUNICATION_BOUND (TP 1024
// over four 256-chip slices was judged at TP 8 and RECOMMENDED).
bool RejectIfTensorSpansSlices(const ReviewContext& ctx, const LayoutPin& pin,
                               const Candidate& c, Judged& j);

// Across slices a layout's stated degrees that no Multislice layout has
// fall back on its strategy (planner/layouts.h): the verdict says so and
// names the degrees it was judged at.
void NoteUnmatchedDegrees(const LayoutPin& pin, const Candidate& c, Judged& j);
// Stated degrees that cannot tile the selected point's devices (one, or
// their product, does not divide the count; all four stated and their
// product is not it): as stated the job does not start, so the proposal
// is rejected NOT_APPLICABLE, naming the layout it would be judged at.
bool RejectIfDegreesCannotTile(const LayoutPin& pin, const Candidate& c,
                               Judged& j);
// Data parallelism across slices, stated with degrees whose FSDP (x
// tensor) group outgrows one slice, so that the point selected for them
// (j.candidate) shards across the slices: the two contradict each other
// (rejected NOT_APPLICABLE, the candidate dropped).
bool RejectIfShardedAcrossSlices(Judged& j);

// SPEC §4's hard DCN rules for a layout stated with a hardware proposal,
// as for a distribution proposal (planner/review_multislice.cc):
// independent models per slice share no model (NO_SHARED_MODEL), and
// tensor parallelism across `slices` > 1 is COMMUNICATION_BOUND (the
// links quoted are the first TPU family's of `families`). True when
// rejected.
bool RejectLayoutAcrossSlices(const ReviewContext& ctx,
                              const DistributionProposal& d, int slices,
                              const std::vector<const Family*>& families,
                              Judged& j);

// What a distribution sends across slices: as stated, else its mesh's
// outermost DCN degree over 1 (kUnspecified when neither says).
DcnParallelism AcrossSlices(const DistributionProposal& d);

// A mesh's DCN degrees must multiply to the slices and its ICI axes to the
// chips per slice (planner/review_mesh.cc). Fills in the slice count from
// the DCN degrees when the proposal gives none; true when it is rejected.
bool RejectBadMesh(const Job& job, const MultisliceMesh& m, int& slices,
                   Judged& j);
// What a mesh states that a staged pipeline layout does not model, as a
// sentence ("" when nothing).
std::string UnmodelledMeshAxes(const DistributionProposal& d);

// The remedy's name in verdict lines, and the symptoms it acts on, most
// direct first (planner/review_remedy.cc).
const char* RemedyLabel(RemedyKind k);
std::vector<Symptom> Addresses(RemedyKind k);
// USE_HOROVOD for a job on GPU parameter servers that waits on gradient
// sync: ring all-reduce is the published fix for their bottleneck.
bool LeavesParameterServers(const Job& job, const RemedyProposal& m);

// Remedies held back from RECOMMENDED (planner/review_remedy_holds.cc):
// ADD_REDUCTION_SERVER on GPU parameter servers (the pool serves NCCL
// all-reduce, so it needs that move first); ACTIVATION_RECOMPUTE where
// `today` already fits without full recompute and no out-of-memory is
// stated (it only re-runs the forward pass, which the estimate cannot
// show); a remedy the space does not time (no point: the model shows no
// change) with nothing in the request for it to act on, no symptom stated
// and no other evidence (padded shapes, an edge model's CPU fallback, a
// requested framework-agnostic distribution). One the space does not time
// that acts on nothing the request shows leaves the training time as it
// is: where today's setup misses the stated deadline it still does
// (RejectIfDeadlineStillMissed, MISSES_DEADLINE).
void MarkIfNothingToRemedy(const Job& job, const RemedyProposal& m, Judged& j);
// ADD_REDUCTION_SERVER whose remedied point declined the pool: never
// RECOMMENDED (the remedy leaves today's all-reduce as it is).
void MarkIfPoolDoesNotPay(const Job& job, const RemedyProposal& m,
                          const Candidate& after, Judged& j);
// A remedy to today's setup where the request states none: Spot judged on
// the plan's best point, the rest held back without a problem they act on.
void JudgeWithoutASetup(const ReviewContext& ctx, const RemedyProposal& m,
                        Judged& j);
// ADD_ACCELERATORS for a stated OUT_OF_MEMORY whose point holds as much
// per device as today's (replicas of today's layout, each holding what a
// device holds now): it does not act on the problem
// (DOES_NOT_ADDRESS_BOTTLENECK).
void RejectIfMemoryPerDeviceUnchanged(const ReviewContext& ctx,
                                      const RemedyProposal& m, Judged& j);
// USE_HOROVOD replaces today's layout with a full replica per worker
// (weights, gradients, optimizer state): rejected with the codes of the
// HOROVOD distribution proposal when that replica does not fit (as a
// HOROVOD proposal is), never RECOMMENDED for a job it cannot run.
void RejectIfHorovodReplicaDoesNotFit(const ReviewContext& ctx,
                                      const RemedyProposal& m, Judged& j);
// "16 x a2-highgpu-8g" / "tpu-v5p 4x4x4 x 2": a candidate's point.
std::string PointLabel(const Candidate& c);

// The remedied point's numbers against the current setup's point in the
// same space (same job, same pins, no remedy), when it has one
// (planner/review_against_today.cc).
std::string AgainstToday(const Job& job, const Candidate& c,
                         const Candidate* today);
// PlanTraining's remedies for the stated symptoms, kept to those ReviewPlan
// would neither reject nor hold back from RECOMMENDED for the same job (one
// judgement in the same space, so the two RPCs never contradict each
// other); returns, for each stated symptom none is kept for, why (a
// DOES_NOT_ADDRESS_BOTTLENECK warning with ReviewPlan's reason).
std::vector<Reason> KeepRemediesReviewAccepts(const catalog::Catalog& cat,
                                              const Index& index,
                                              const Job& job,
                                              const Space& space,
                                              std::vector<Remedy>& remedies);
// One the space does not time that acts on the stated problem can at best
// bring today's setup to the pace the model gives it: where even the fast
// end of that misses the stated deadline, it is MISSES_DEADLINE too.
void RejectIfDeadlineStillMissed(const ReviewContext& ctx,
                                 const RemedyProposal& m, Judged& j);
void MarkIfParameterServers(const Job& job, const RemedyProposal& m, Judged& j);
void MarkIfRecomputeIsNotNeeded(const Job& job, const RemedyProposal& m,
                                const std::optional<Candidate>& today,
                                Judged& j);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_REVIEW_INTERNAL_H_
