// The candidate space: every family's feasible configurations for a job.
#ifndef ACCELPLAN_PLANNER_CANDIDATE_H_
#define ACCELPLAN_PLANNER_CANDIDATE_H_

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "catalog/catalog.h"
#include "planner/index.h"
#include "planner/job.h"
#include "planner/memory_model.h"
#include "planner/time_model.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// A Reduction Server pool (planner/reduction_server.h) sized for a point.
struct ReducerPool {
  const catalog::MachineType* machine = nullptr;  // the reducer type
  // The catalog's reducer image (Job::reducer_image): a view, so that a
  // point stays trivially copyable.
  std::string_view image_uri;
  int replicas = 0;
  double reducer_bits_per_s = 0;  // each reducer
  double worker_bits_per_s = 0;   // each worker VM's egress to reducers
  int worker_vms = 0;
  double hourly_on_demand = 0;  // the whole pool
  double hourly_spot = 0;
  bool on_demand_known = false;
  bool spot_known = false;
};

// A family at a chosen size and layout, with its numbers: one point of the
// candidate space.
struct Config {
  const Shape* shape = nullptr;
  int units = 1;  // VMs of `shape` (GPU/CPU) or slices (TPU)
  int devices = 1;
  int hosts = 1;
  int slices = 1;
  ShardingLayout layout;
  Strategy strategy = Strategy::kSingleDevice;
  Recompute recompute = Recompute::kUnspecified;  // the level chosen
  int accumulation_steps = 1;  // gradient accumulation micro-steps
  MemoryEstimate memory;
  double required_bytes = 0;  // per device
  double usable_bytes = 0;    // per device after headroom
  // RECOMPUTE_OFFLOAD: activations per device in host memory, and the
  // host memory usable per device (the VM's over its accelerators, after
  // headroom; 0: the catalog does not know the VM's memory, not checked).
  double host_required_bytes = 0;
  double host_usable_bytes = 0;
  bool HostTooSmall() const {
    return host_usable_bytes > 0 && host_required_bytes > host_usable_bytes;
  }
  bool fits = false;
  // Every layout needs more data-parallel ranks than the stated global
  // batch has sequences (`min_ranks` is the fewest any layout needs).
  bool batch_too_small = false;
  // Every layout needs more data-parallel ranks than the assumed batch has
  // sequences (Job::assumed_batch_rank_cap): not used while a smaller size
  // holds the job.
  bool over_assumed_batch = false;
  // A reviewed proposal's strategy and degrees leave no layout at this size
  // (planner/layouts.h, LayoutsFor).
  bool no_layout = false;
  int min_ranks = 0;
  StepTimeEstimate step;
  // A Reduction Server the point takes (its price is in the hourly costs).
  std::optional<ReducerPool> reducers;
  // Some layout tried here was timed with the Reduction Server's decision,
  // which reads the provisioning (where the job runs, the pool's price):
  // the layout chosen may differ under another (planner/layout_memo.h).
  bool read_provisioning = false;
  double peak_flops = 0;  // per device at the job's precision
  MfuRange mfu;
  Range hours;
  double hourly_on_demand = 0;
  double hourly_spot = 0;
  bool on_demand_known = false;
  bool spot_known = false;
  double hourly = 0;  // at the chosen provisioning
  Range cost;          // at the chosen provisioning
  bool price_known = false;
  bool comm_bound = false;
  double comm_link_bytes_per_s = 0;  // the link that bounds it
  double tokens_per_second = 0;
  // How this shape is obtained under the request (on-demand first, else
  // what the request allows).
  Provisioning provisioning = Provisioning::kOnDemand;
  // Spot with checkpoints: the expected fraction of hours added by
  // restarts from the last checkpoint (already in `hours` and `cost`).
  double restart_overhead = 0;
  // Hours before the point can start (the flex-start capacity wait),
  // counted against the deadline but not billed.
  double start_wait_hours = 0;
  // No provisioning the request allows can run this point (Spot for a long
  // job that does not checkpoint, flex-start past its maximum run): the
  // code that says why (planner/provisioning.h).
  ReasonCode blocked = ReasonCode::kUnspecified;
  // Spot, which the request allows, was passed over: a preemption would
  // lose all work of a job that does not checkpoint (SpotLosesWork).
  bool spot_refused = false;
};
// A point is copied and moved several times while layouts are compared and
// sizes merged (planner/layouts.cc, count_refinement.cc): it holds no
// owning member, so each copy is a flat memory copy.
static_assert(std::is_trivially_copyable_v<Config>);

// The layout a reviewed distribution proposal names: its strategy and any
// degrees it states (0: not stated). Implicit from a strategy alone.
struct LayoutPin {
  Strategy strategy = Strategy::kUnspecified;
  int data = 0;      // data-parallel replicas (of the FSDP group with FSDP)
  int fsdp = 0;      // devices the model states are sharded over (ZeRO-3)
  int tensor = 0;
  int pipeline = 0;
  // A proposal's layout, not today's: DATA_PARALLEL admits the sharded
  // optimizer state (ZeRO-1) the search plans and reports as data
  // parallelism, so PlanTraining's layout restated selects its point. What
  // a team runs today, and a proposal that restates it (its strategy with
  // no degrees, on today's hardware: RestatesToday, BestWithLayout), is
  // taken as stated (plain DDP).
  bool proposed = false;
  LayoutPin() = default;
  LayoutPin(Strategy s) : strategy(s) {}  // NOLINT: a strategy pins only it
  bool degrees() const {
    return data > 0 || fsdp > 0 || tensor > 0 || pipeline > 0;
  }
  bool any() const { return strategy != Strategy::kUnspecified || degrees(); }
};

// The strategy and degrees a distribution proposal states. A Multislice
// mesh that states its ICI axes states every degree (an unstated ICI axis
// is 1: MaxText's ici_* axes multiply to the chips of a slice, which the
// review checks): data and FSDP over ICI times their DCN axes, tensor over
// ICI; degrees stated outside the mesh win. A mesh of DCN axes alone
// leaves the layout inside each slice to the planner.
inline LayoutPin PinOf(const DistributionProposal& d) {
  LayoutPin pin(d.strategy);
  pin.proposed = true;
  pin.data = d.data_parallelism;
  pin.fsdp = d.fsdp_parallelism;
  pin.tensor = d.tensor_parallelism;
  pin.pipeline = d.pipeline_parallelism;
  const MultisliceMesh* m = d.mesh ? &*d.mesh : nullptr;
  if (m != nullptr &&
      (m->ici_data_parallelism > 0 || m->ici_fsdp_parallelism > 0 ||
       m->ici_tensor_parallelism > 0)) {
    const auto axis = [](int32_t a) { return a > 0 ? a : 1; };
    if (pin.data <= 0) {
      pin.data = axis(m->ici_data_parallelism) * axis(m->dcn_data_parallelism);
    }
    if (pin.fsdp <= 0) {
      pin.fsdp = axis(m->ici_fsdp_parallelism) * axis(m->dcn_fsdp_parallelism);
    }
    if (pin.tensor <= 0) pin.tensor = axis(m->ici_tensor_parallelism);
  }
  // FSDP or data parallelism with a tensor axis (MaxText's fsdp x tensor
  // meshes) is a hybrid layout: the stated strategy names the rest of the
  // mesh, not the absence of tensor parallelism.
  if (pin.tensor > 1 && (pin.strategy == Strategy::kFsdp ||
                         pin.strategy == Strategy::kDataParallel)) {
    // Data parallelism shards nothing: no FSDP group unless one is stated.
    if (pin.strategy == Strategy::kDataParallel && pin.fsdp <= 0) pin.fsdp = 1;
    pin.strategy = Strategy::kHybrid;
  }
  return pin;
}

// What a caller fixes about the configurations a family yields: the current
// hardware kept (keep_current_hardware) or a reviewed proposal. Zero/empty
// fields fix nothing.
struct Pins {
  int devices = 0;       // accelerator count
  std::string topology;  // TPU slice topology ("4x4")
  int slices = 0;        // TPU slices
  // A machine type kept exactly as given ("a2-highgpu-8g"): only its
  // shapes are searched, at any count of it.
  std::string machine_type;
  // A reviewed distribution proposal: only layouts of its strategy
  // (kDataParallel, kFsdp, kTensorParallel / kPipelineParallel / kHybrid)
  // and with the degrees it states.
  LayoutPin layout;
  // More accelerators than today (ReviewPlan's ADD_ACCELERATORS remedy):
  // only sizes with at least this many devices.
  int min_devices = 0;
  bool sizes() const { return devices > 0 || !topology.empty() || slices > 0; }
};

// One family's share of the candidate space: the hard rules it fails, and
// its feasible points (they fit, meet the deadline and the budget). `config`
// is the point the scorer selects (planner/scorer.h); for a family rejected
// on time or money it is the point that came closest.
struct Candidate {
  const Family* family = nullptr;
  std::vector<ReasonCode> codes;  // hard rejections; empty = viable
  std::vector<std::string> why;   // one human line per code
  std::vector<Reason> notes;      // warnings that travel with the plan
  std::vector<Config> points;     // feasible points, ascending in devices
  // Points that fit and meet the deadline but cost more than the budget:
  // count refinement searches beside them too, since a count between two
  // of them can cost less (planner/count_refinement.h).
  std::vector<Config> over_budget;
  std::optional<Config> config;   // the selected point
  // Where the selected point's notes start in `notes` (planner/scorer.h,
  // ReselectPoint replaces them).
  size_t point_notes_from = 0;
  Provisioning provisioning = Provisioning::kOnDemand;
  // Accelerators in the smallest shape the request can obtain (offered on
  // its platform, with its provisioning); the family's smallest otherwise.
  int smallest_obtainable_devices = 0;
  // The most devices the policy's search caps allow this family (0: no
  // multi-unit search); a selected point there says so (planner/policy.h).
  int search_cap_devices = 0;
  // The fewest devices at which every layout has more data-parallel ranks
  // than the assumed batch has sequences (0: the assumed batch capped
  // nothing): the search stops below it (Job::assumed_batch_rank_cap).
  int assumed_batch_cap_devices = 0;
  // Every size within that cap missed the deadline: the smallest size it
  // held back that meets it, which the MISSES_DEADLINE line names with the
  // batch it needs (planner/family_space.cc KeepFeasible).
  struct HeldBack {
    int devices = 0;
    double hours = 0;
    int ranks = 0;  // data-parallel ranks: the batch it needs
  };
  std::optional<HeldBack> held_back_in_time;
  // What count refinement needs once the space's normalisation is known
  // (planner/count_refinement.h): the policy's multi-unit sequences (shape,
  // most units) and the layout a proposal pins.
  std::vector<std::pair<const Shape*, int>> sequences;
  LayoutPin pinned_layout;
  int min_devices = 0;  // Pins::min_devices
  bool eos_soon = false;
  bool on_workload_list = false;
  // Why Google's workload lists sized this family past its own choice
  // (planner/relative_rules.cc); empty when they did not.
  std::string list_sizing;
  bool price_unknown = false;
  // Misses the deadline MIN_COST assumes when none is given: kept (an
  // assumption never rejects), ranked after every candidate that meets it.
  bool misses_assumed_deadline = false;
  // Set when the family is rejected NOT_AVAILABLE_ON_DEMAND in the FULL
  // view: the pins its provisioning what-ifs are evaluated under, once the
  // space's rules have all run (DescribeNeededProvisioning).
  std::optional<Pins> what_if_pins;
  double score = 0;  // objective value; lower is better
  // The same score with the exposed communication taken out of its time
  // and cost: when it beats the winner, communication is why it loses.
  double score_without_comm = 0;
  bool viable() const { return codes.empty(); }
  // Viable with a selected point: what ranks, recommends and compares.
  bool has_point() const { return viable() && config.has_value(); }
  void Reject(ReasonCode code, std::string why_line);
};

inline bool HasCode(const std::vector<ReasonCode>& codes, ReasonCode code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}
// A rejection that comes from the job as stated, not from the family's
// numbers: its framework (or version) unsupported, its precision, its
// CPU-only ops. Such a line holds for every family that carries the code.
inline bool IsTheJobsOwnCode(ReasonCode code) {
  return code == ReasonCode::kFrameworkUnsupported ||
         code == ReasonCode::kFrameworkVersionTooOld ||
         code == ReasonCode::kPrecisionUnsupported ||
         code == ReasonCode::kCpuOnlyOps;
}
// The PREVIEW_HARDWARE note a viable candidate of a preview family carries.
void NotePreview(Candidate& cand);
// Whether a point costs more than the stated budget.
bool OverBudget(const Job& job, const Config& c);
// Rejects the candidate OVER_BUDGET with the cheapest of its over-budget
// points as the one that came closest (no-op when it has none).
void RejectOverBudget(const Job& job, Candidate& cand);

// Stages 3-5 for one family: hard rules (planner/rules.cc), the sizes and
// layouts that fit with their estimates (planner/sizing.cc), then deadline
// and budget (planner/family_space.cc). The candidate carries its feasible
// points; the scorer selects one and ranks the families (planner/scorer.h).
Candidate EvaluateFamily(const catalog::Catalog& catalog, const Job& job,
                         const Family& family, const Pins& pins = {});

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_CANDIDATE_H_
