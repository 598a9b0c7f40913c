// ReviewPlan as a query on the same candidate space as PlanTraining
// (issue #12 item 3):
//   a. every order of the same proposals gives each proposal the same
//      verdict, codes and numbers;
//   b. PlanTraining's recommendation, proposed beside worse options, is
//      RECOMMENDED;
//   c. the same job on the same hardware has the same estimates in both
//      RPCs (step time, hours, cost, memory per device);
//   d. monotonicity over seeded random jobs: MIN_TIME with a larger budget
//      is never slower; MIN_COST with a later deadline never costs more
//      than the workload-list slack (kPolicy.workload_list_cost_slack) over
//      the earlier deadline's plan.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/policy.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"
#include "tests/planner/testing/random_requests.h"
#include "tests/planner/testing/verdicts.h"

namespace accelplan::planner {
namespace {

using ReviewConsistencyTest = CatalogPlannerTest;
using testutil::Dist;
using testutil::Remedy;

// ------------------------------------------------------------ jobs

TransformerShape Shape(int layers, int hidden, int heads, int seq, int ffn) {
  return {layers, hidden, heads, seq, 32000, ffn};
}

PlanRequest Llm(Framework f, double params, TransformerShape shape,
                Objective o) {
  PlanRequest r;
  r.workload.framework = f;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = params;
  r.workload.transformer_shape = shape;
  r.workload.dataset_tokens = 20 * params;  // Chinchilla-optimal
  r.workload.global_batch_size = 512;
  r.workload.precision = Precision::kBf16Mixed;
  r.goal.objective = o;
  r.as_of = "2026-09-26";
  return r;
}

// Llama-2-13B's shape (arXiv:2307.09288 Table 1: 40 layers, 5120 wide).
PlanRequest Job13B(Objective o) {
  return Llm(Framework::kPytorch, 13e9, Shape(40, 5120, 40, 2048, 13824), o);
}

// JAX 6.7B on TPU through GKE.
PlanRequest TpuJob(Objective o) {
  PlanRequest r =
      Llm(Framework::kJax, 6.7e9, Shape(32, 4096, 32, 2048, 16384), o);
  r.constraints.allowed_platforms = {Platform::kTpu};
  r.constraints.run_platform = RunPlatform::kGke;
  return r;
}

// SPEC S4: LoRA on Gemma 2 27B, lowest-cost GPU (G4 expected). The case of
// the 0.788 s (plan) vs 807 s (review) step-time bug on g4-standard-48.
PlanRequest Lora27B() {
  PlanRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_name = "gemma-2-27b";
  r.workload.training_method = TrainingMethod::kLora;
  r.workload.precision = Precision::kBf16Mixed;
  r.workload.dataset_tokens = 2e8;
  r.goal.objective = Objective::kMinCost;
  r.constraints.allowed_platforms = {Platform::kGpu};
  r.as_of = "2026-09-26";
  return r;
}

ReviewRequest ReviewOf(const PlanRequest& p, std::vector<Proposal> proposals) {
  ReviewRequest r;
  r.workload = p.workload;
  r.goal = p.goal;
  r.constraints = p.constraints;
  r.current_setup = p.current_setup;
  r.as_of = p.as_of;
  r.proposals = std::move(proposals);
  return r;
}

// ------------------------------------------------------------ proposals

Proposal Hw(const std::string& label, const std::string& machine_type,
            int count = 0, const std::string& topology = "", int slices = 0) {
  Proposal p;
  p.label = label;
  p.hardware = HardwareProposal{};
  p.hardware->machine_type = machine_type;
  p.hardware->count = count;
  p.hardware->tpu_topology = topology;
  p.hardware->slices = slices;
  return p;
}

// The hardware of a plan, proposed exactly: its machine type at its count
// (TPU: its topology and slices).
Proposal FromPlan(const std::string& label, const Plan& plan) {
  const Hardware& h = plan.hardware;
  Proposal p = Hw(label, h.machine_type);
  p.hardware->platform = h.platform;
  if (h.platform == Platform::kTpu) {
    p.hardware->tpu_topology = h.tpu_topology;
    p.hardware->slices = std::max(1, h.slices);
  } else {
    p.hardware->count =
        h.platform == Platform::kCpu ? h.hosts : h.total_accelerators;
  }
  return p;
}

// ------------------------------------------------------------ comparing

bool NearRel(double a, double b) {
  return a == b || std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

std::string Brief(const Plan& p) {
  const Estimates& e = p.estimates;
  return absl::StrFormat(
      "%s x%d (%d hosts, %s, %d slices) step=%.6g s hours=%.6g cost=%.6g "
      "mem=%.4g GiB dp=%d fsdp=%d tp=%d pp=%d",
      p.hardware.machine_type, p.hardware.total_accelerators, p.hardware.hosts,
      p.hardware.tpu_topology, p.hardware.slices, e.step_time_seconds,
      e.total_hours.expected, e.on_demand_cost_usd.expected,
      e.memory_per_device.total_gib, p.distribution.data_parallelism,
      p.distribution.fsdp_parallelism, p.distribution.tensor_parallelism,
      p.distribution.pipeline_parallelism);
}

// The same hardware, layout and numbers.
void ExpectSamePlan(const Plan& a, const Plan& b, const std::string& what) {
  const std::string both =
      absl::StrCat(what, "\n  first:  ", Brief(a), "\n  second: ", Brief(b));
  EXPECT_EQ(a.hardware.machine_type, b.hardware.machine_type) << both;
  EXPECT_EQ(a.hardware.total_accelerators, b.hardware.total_accelerators) << both;
  EXPECT_EQ(a.hardware.hosts, b.hardware.hosts) << both;
  EXPECT_EQ(a.hardware.tpu_topology, b.hardware.tpu_topology) << both;
  EXPECT_EQ(a.hardware.slices, b.hardware.slices) << both;
  EXPECT_EQ(a.hardware.provisioning, b.hardware.provisioning) << both;
  EXPECT_EQ(a.distribution.strategy, b.distribution.strategy) << both;
  EXPECT_EQ(a.distribution.data_parallelism, b.distribution.data_parallelism) << both;
  EXPECT_EQ(a.distribution.fsdp_parallelism, b.distribution.fsdp_parallelism) << both;
  EXPECT_EQ(a.distribution.tensor_parallelism, b.distribution.tensor_parallelism)
      << both;
  EXPECT_EQ(a.distribution.pipeline_parallelism,
            b.distribution.pipeline_parallelism)
      << both;
  const Estimates& x = a.estimates;
  const Estimates& y = b.estimates;
  EXPECT_TRUE(NearRel(x.step_time_seconds, y.step_time_seconds)) << both;
  EXPECT_TRUE(NearRel(x.total_hours.low, y.total_hours.low)) << both;
  EXPECT_TRUE(NearRel(x.total_hours.expected, y.total_hours.expected)) << both;
  EXPECT_TRUE(NearRel(x.total_hours.high, y.total_hours.high)) << both;
  EXPECT_TRUE(NearRel(x.on_demand_cost_usd.expected, y.on_demand_cost_usd.expected))
      << both;
  EXPECT_TRUE(NearRel(x.spot_cost_usd.expected, y.spot_cost_usd.expected)) << both;
  EXPECT_TRUE(NearRel(x.hourly_usd, y.hourly_usd)) << both;
  EXPECT_TRUE(NearRel(x.memory_per_device.total_gib, y.memory_per_device.total_gib))
      << both;
  EXPECT_TRUE(NearRel(x.memory_per_device.usable_gib, y.memory_per_device.usable_gib))
      << both;
  EXPECT_TRUE(NearRel(x.tokens_per_second, y.tokens_per_second)) << both;
  EXPECT_TRUE(NearRel(x.communication_fraction, y.communication_fraction)) << both;
  EXPECT_EQ(x.price_known, y.price_known) << both;
}

std::vector<ReasonCode> CodeSet(std::vector<ReasonCode> codes) {
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  return codes;
}

const ProposalVerdict* ByLabel(const ReviewResponse& r, const std::string& label) {
  for (const ProposalVerdict& v : r.verdicts) {
    if (v.label == label) return &v;
  }
  return nullptr;
}

ReviewResponse Review(const ReviewRequest& r) {
  EXPECT_TRUE(ValidateReviewRequest(r).empty());
  ReviewResponse out = CatalogPlannerTest::planner_->Review(r);
  EXPECT_EQ(out.verdicts.size(), r.proposals.size());
  int recommended = 0;
  for (const ProposalVerdict& v : out.verdicts) {
    recommended += v.verdict == Verdict::kRecommended;
  }
  EXPECT_LE(recommended, 1) << "at most one RECOMMENDED";
  return out;
}

std::string Verdicts(const ReviewResponse& r) {
  std::string s;
  for (const ProposalVerdict& v : r.verdicts) {
    absl::StrAppend(&s, "\n  ", v.label, ": ", static_cast<int>(v.verdict), " ",
                    v.reason);
  }
  return s;
}

// Every order of the request's proposals gives each the same verdict.
// Returns the number of orders reviewed.
int ExpectOrderIndependent(const ReviewRequest& r, const std::string& what) {
  const ReviewResponse base = Review(r);
  std::vector<size_t> order(r.proposals.size());
  std::iota(order.begin(), order.end(), 0);
  int orders = 0;
  while (std::next_permutation(order.begin(), order.end())) {
    ReviewRequest permuted = r;
    std::string names;
    for (size_t i = 0; i < order.size(); ++i) {
      permuted.proposals[i] = r.proposals[order[i]];
      absl::StrAppend(&names, i ? ", " : "", r.proposals[order[i]].label);
    }
    ++orders;
    const ReviewResponse out = Review(permuted);
    for (const ProposalVerdict& v : out.verdicts) {
      const std::string at = absl::StrCat(what, " in order [", names, "]: ", v.label);
      const ProposalVerdict* b = ByLabel(base, v.label);
      if (b == nullptr) {
        ADD_FAILURE() << at << " is missing from the first order";
        continue;
      }
      EXPECT_EQ(v.verdict, b->verdict) << at << Verdicts(out) << "\nfirst order:"
                                       << Verdicts(base);
      EXPECT_EQ(CodeSet(v.codes), CodeSet(b->codes)) << at;
      EXPECT_EQ(v.plan.has_value(), b->plan.has_value()) << at;
      if (v.plan && b->plan) ExpectSamePlan(*b->plan, *v.plan, at);
    }
  }
  return orders + 1;
}

// ------------------------------------------------------------ a. order

// Proposals sized past what PlanTraining searches (more data-parallel ranks
// than the assumed batch's sequences) can be faster than every point of the
// space. MIN_TIME's equal-time band then starts at the fastest proposal:
// 2,048 v5p chips (1.3 h) beat 1,024 (2.4 h), which won on cost while both
// sat inside the band of the space's 4.6 h. MIN_COST keeps the cheaper.
TEST_F(ReviewConsistencyTest, ProposalsFasterThanTheSpaceRankByTheirTimes) {
  ReviewRequest r;
  r.workload.framework = Framework::kJax;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = 8e9;
  r.workload.dataset_tokens = 5e10;
  r.goal.objective = Objective::kMinTime;
  r.as_of = "2026-09-26";
  r.proposals = {Hw("1024", "ct5p-hightpu-4t", 0, "8x8x16"),
                 Hw("2048", "ct5p-hightpu-4t", 0, "8x16x16")};
  ReviewResponse out = Review(r);
  const ProposalVerdict* small = ByLabel(out, "1024");
  const ProposalVerdict* large = ByLabel(out, "2048");
  ASSERT_TRUE(small && large && small->plan && large->plan) << Verdicts(out);
  ASSERT_LT(large->plan->estimates.total_hours.expected,
            0.8 * small->plan->estimates.total_hours.expected);
  EXPECT_EQ(large->verdict, Verdict::kRecommended) << Verdicts(out);
  EXPECT_TRUE(testutil::Has(*small, ReasonCode::kSlower)) << small->reason;

  r.goal.objective = Objective::kMinCost;
  out = Review(r);
  ASSERT_TRUE(ByLabel(out, "1024")) << Verdicts(out);
  EXPECT_EQ(ByLabel(out, "1024")->verdict, Verdict::kRecommended)
      << Verdicts(out);
}

TEST_F(ReviewConsistencyTest, HardwareCountsDoNotDependOnProposalOrder) {
  // 13B, fastest: A3 Mega at 16, 32, 48 and 64 GPUs.
  EXPECT_EQ(ExpectOrderIndependent(
                ReviewOf(Job13B(Objective::kMinTime),
                         {Hw("16", "a3-megagpu-8g", 16), Hw("32", "a3-megagpu-8g", 32),
                          Hw("48", "a3-megagpu-8g", 48), Hw("64", "a3-megagpu-8g", 64)}),
                "13B MIN_TIME on A3 Mega"),
            24);
}

// 13B on four a3-highgpu-8g nodes running DDP over NCCL.
PlanRequest GpuCluster() {
  PlanRequest r = Job13B(Objective::kMinCost);
  r.current_setup.hardware = "a3-highgpu-8g";
  r.current_setup.accelerator_count = 8;
  r.current_setup.node_count = 4;
  r.current_setup.strategy = Strategy::kDataParallel;
  r.current_setup.uses_nccl = true;
  return r;
}

TEST_F(ReviewConsistencyTest, HardwareAndLayoutsDoNotDependOnProposalOrder) {
  EXPECT_EQ(ExpectOrderIndependent(
                ReviewOf(GpuCluster(), {Hw("mega", "a3-megagpu-8g", 32),
                                        Dist("fsdp", Strategy::kFsdp),
                                        Dist("ddp", Strategy::kDataParallel),
                                        Dist("tp", Strategy::kTensorParallel)}),
                "13B hardware and layouts"),
            24);
}

TEST_F(ReviewConsistencyTest, RemediesForASymptomDoNotDependOnProposalOrder) {
  PlanRequest sync = GpuCluster();
  sync.current_setup.symptoms = {Symptom::kGradientSyncBound};
  sync.constraints.spot_allowed = true;
  EXPECT_EQ(
      ExpectOrderIndependent(
          ReviewOf(sync, {Remedy("reduction server", RemedyKind::kAddReductionServer),
                          Remedy("spot", RemedyKind::kUseSpot),
                          Remedy("storage", RemedyKind::kFasterInputPipeline),
                          Hw("mega", "a3-megagpu-8g", 32)}),
          "gradient-sync-bound remedies"),
      24);
}

// JAX 6.7B on two v5e 16x16 slices.
PlanRequest TpuSlices() {
  PlanRequest r = TpuJob(Objective::kBalanced);
  r.current_setup.hardware = "tpu-v5e";
  r.current_setup.tpu_topology = "16x16";
  r.current_setup.slice_count = 2;
  return r;
}

TEST_F(ReviewConsistencyTest, TpuSlicesDoNotDependOnProposalOrder) {
  EXPECT_EQ(ExpectOrderIndependent(
                ReviewOf(TpuSlices(),
                         {Hw("v5e 2x256", "ct5lp-hightpu-4t", 0, "16x16", 2),
                          Hw("v5e 64", "ct5lp-hightpu-4t", 0, "8x8", 1),
                          Hw("v6e 2x256", "ct6e-standard-4t", 0, "16x16", 2),
                          Hw("v6e 128", "ct6e-standard-4t", 0, "8x16", 1)}),
                "TPU slices"),
            24);
}

// Identical slices listed one by one (slice_topologies alone; the proto:
// "empty: every slice has tpu_topology") are the setup tpu_topology and
// slice_count state: the same verdicts and numbers, the same savings.
TEST_F(ReviewConsistencyTest, SlicesListedOneByOneAreTheStatedSetup) {
  PlanRequest listed = TpuSlices();
  listed.current_setup.tpu_topology.clear();
  listed.current_setup.slice_count = 0;
  listed.current_setup.slice_topologies = {"16x16", "16x16"};
  const std::vector<Proposal> proposals = {
      Remedy("more", RemedyKind::kAddAccelerators),
      Hw("v6e 2x256", "ct6e-standard-4t", 0, "16x16", 2),
      Dist("multislice", Strategy::kMultislice)};
  const ReviewResponse stated = Review(ReviewOf(TpuSlices(), proposals));
  const ReviewResponse one_by_one = Review(ReviewOf(listed, proposals));
  for (const ProposalVerdict& a : stated.verdicts) {
    const ProposalVerdict* b = ByLabel(one_by_one, a.label);
    ASSERT_NE(b, nullptr) << a.label;
    EXPECT_EQ(a.verdict, b->verdict)
        << a.label << Verdicts(one_by_one) << "\nstated:" << Verdicts(stated);
    EXPECT_EQ(CodeSet(a.codes), CodeSet(b->codes)) << a.label;
    ASSERT_EQ(a.plan.has_value(), b->plan.has_value()) << a.label;
    if (a.plan) ExpectSamePlan(*a.plan, *b->plan, a.label);
  }
  // More accelerators than today's 512 chips.
  const ProposalVerdict* more = ByLabel(stated, "more");
  ASSERT_NE(more, nullptr);
  ASSERT_TRUE(more->plan.has_value()) << more->reason;
  EXPECT_GT(more->plan->hardware.total_accelerators, 512) << more->reason;

  PlanRequest stated_plan = TpuSlices();
  const PlanResponse p = planner_->Plan(stated_plan);
  const PlanResponse q = planner_->Plan(listed);
  ASSERT_TRUE(p.savings.has_value());
  ASSERT_TRUE(q.savings.has_value());
  EXPECT_TRUE(
      NearRel(p.savings->current_cost_usd, q.savings->current_cost_usd));
  EXPECT_TRUE(NearRel(p.savings->current_hours, q.savings->current_hours));
}

// Slices of different topologies cannot train one model together, so they
// are no setup to price or grow: the plan computes no savings against them
// (a summed 384 chips was once pinned as if it were one setup). Their
// chips still count where a rule asks how many devices run today.
TEST_F(ReviewConsistencyTest, MixedCurrentSlicesAreNoSetupToPrice) {
  PlanRequest mixed = TpuSlices();
  mixed.current_setup.tpu_topology.clear();
  mixed.current_setup.slice_count = 0;
  mixed.current_setup.slice_topologies = {"16x16", "8x16"};
  const PlanResponse p = planner_->Plan(mixed);
  EXPECT_FALSE(p.savings.has_value());
  bool warned = false;
  for (const Reason& w : p.warnings) {
    warned |= w.code == ReasonCode::kNeedsIdenticalSlices;
  }
  EXPECT_TRUE(warned);
  // The same two slices stated as identical do get savings.
  PlanRequest same = mixed;
  same.current_setup.slice_topologies = {"16x16", "16x16"};
  EXPECT_TRUE(planner_->Plan(same).savings.has_value());
  // Still 384 chips today: sharding has devices to shard across.
  PlanRequest oom = mixed;
  oom.current_setup.symptoms = {Symptom::kOutOfMemory};
  const ReviewResponse review = Review(
      ReviewOf(oom, {Remedy("shard", RemedyKind::kShardOptimizerState)}));
  const ProposalVerdict* shard = ByLabel(review, "shard");
  ASSERT_NE(shard, nullptr);
  EXPECT_EQ(shard->reason.find("runs on one device"), std::string::npos)
      << shard->reason;
  EXPECT_NE(shard->verdict, Verdict::kRejected) << Verdicts(review);
}

// The case of an order-dependence bug: one 8x16x16 v5p slice and data
// parallelism over today's four 8x8x8 slices tie on every number (the same
// 2,048 chips, the DCN gradient hidden behind compute), and whichever was
// listed first was RECOMMENDED. Ties go to fewer slices over DCN, then
// fewer hosts, then the simpler layout, then the label.
// 70B in JAX on today's four v5p 8x8x8 slices (2,048 chips), MIN_TIME.
PlanRequest OnFourV5pSlices() {
  PlanRequest r = Llm(Framework::kJax, 70e9, Shape(80, 8192, 64, 2048, 28672),
                      Objective::kMinTime);
  r.workload.dataset_tokens = 1e12;
  r.goal.deadline_hours = 2000;
  r.current_setup.hardware = "tpu-v5p";
  r.current_setup.tpu_topology = "8x8x8";
  r.current_setup.slice_count = 4;
  return r;
}

Proposal AcrossSlices(const std::string& label, DcnParallelism across) {
  Proposal p = Dist(label, Strategy::kMultislice);
  p.distribution->across_slices = across;
  p.distribution->slices = 4;
  return p;
}

// Data parallelism ("data") and FSDP ("fsdp") across today's four slices,
// reviewed side by side.
ReviewResponse DataAndFsdpAcrossSlices(const PlanRequest& r) {
  return Review(ReviewOf(r, {AcrossSlices("data", DcnParallelism::kData),
                             AcrossSlices("fsdp", DcnParallelism::kFsdp)}));
}

// FSDP over DCN is a point of the space like data parallelism over DCN:
// its verdict carries its estimates, and it ranks after it. Its DCN
// traffic is hierarchical (each chip carries its 1/512 share of what its
// slice lacks), so it is a little slower, not a hundred times (a flat ring
// over DCN put this job at 747 days).
TEST_F(ReviewConsistencyTest, FsdpAcrossSlicesCarriesItsPoint) {
  PlanRequest r = OnFourV5pSlices();
  r.workload.global_batch_size = 4096;  // two sequences per chip
  const ReviewResponse out = DataAndFsdpAcrossSlices(r);
  const ProposalVerdict* data = ByLabel(out, "data");
  const ProposalVerdict* fsdp = ByLabel(out, "fsdp");
  ASSERT_TRUE(data && fsdp) << Verdicts(out);
  EXPECT_EQ(data->verdict, Verdict::kRecommended) << Verdicts(out);
  EXPECT_EQ(fsdp->verdict, Verdict::kViable) << Verdicts(out);
  ASSERT_TRUE(data->plan && fsdp->plan) << Verdicts(out);
  EXPECT_EQ(fsdp->plan->hardware.slices, 4);
  EXPECT_EQ(fsdp->plan->distribution.fsdp_parallelism, 2048);
  const double ratio = fsdp->plan->estimates.step_time_seconds /
                       data->plan->estimates.step_time_seconds;
  EXPECT_GE(ratio, 1.0) << Verdicts(out);
  EXPECT_LT(ratio, 2.0) << Verdicts(out);
  // Ranked after data parallelism whatever the numbers (SPEC §4), with both
  // steps stated.
  EXPECT_NE(fsdp->reason.find("with data parallelism across slices"),
            std::string::npos)
      << fsdp->reason;
  // FSDP over all 2,048 chips needs a sequence per chip: with the stated
  // 512 it has no point, and FSDP over the slices' tensor-parallel groups
  // (TP inside each slice, 2,048 / TP ranks) carries the verdict's numbers.
  // (Before that layout was generated across slices, the rule alone
  // judged this proposal, with no point.)
  const ReviewResponse stated = Review(ReviewOf(
      OnFourV5pSlices(), {AcrossSlices("fsdp", DcnParallelism::kFsdp)}));
  ASSERT_EQ(stated.verdicts.size(), 1u);
  const ProposalVerdict& small = stated.verdicts[0];
  EXPECT_NE(small.verdict, Verdict::kRejected) << small.reason;
  ASSERT_TRUE(small.plan.has_value()) << small.reason;
  const Distribution& d = small.plan->distribution;
  EXPECT_GT(d.tensor_parallelism, 1);
  EXPECT_EQ(d.fsdp_parallelism * d.tensor_parallelism, 2048);
  ASSERT_TRUE(d.multislice.has_value());
  EXPECT_EQ(d.multislice->dcn_fsdp_parallelism, 4);
}

// When compute hides FSDP's DCN gathers the two layouts step alike: FSDP
// across slices is still ranked after data parallelism (SPEC §4) but is
// not called SLOWER, and the reason says the model hides the gathers.
// A 7B model with 32 sequences per chip on the same four v5p slices.
TEST_F(ReviewConsistencyTest, FsdpAcrossSlicesHiddenByComputeIsNotSlower) {
  PlanRequest r = OnFourV5pSlices();
  r.workload.parameter_count = 7e9;
  r.workload.transformer_shape = Shape(32, 4096, 32, 2048, 11008);
  r.workload.global_batch_size = 65536;
  const ReviewResponse out = DataAndFsdpAcrossSlices(r);
  const ProposalVerdict* data = ByLabel(out, "data");
  const ProposalVerdict* fsdp = ByLabel(out, "fsdp");
  ASSERT_TRUE(data && fsdp) << Verdicts(out);
  ASSERT_TRUE(data->plan && fsdp->plan) << Verdicts(out);
  EXPECT_EQ(data->verdict, Verdict::kRecommended) << Verdicts(out);
  EXPECT_EQ(fsdp->verdict, Verdict::kViable) << Verdicts(out);
  EXPECT_FALSE(testutil::Has(*fsdp, ReasonCode::kSlower)) << fsdp->reason;
  EXPECT_NE(fsdp->reason.find("which the model hides here"), std::string::npos)
      << fsdp->reason;
}

TEST_F(ReviewConsistencyTest, TiedProposalsDoNotDependOnProposalOrder) {
  PlanRequest r = OnFourV5pSlices();
  const Proposal data = AcrossSlices("data over DCN", DcnParallelism::kData);
  const ReviewRequest review =
      ReviewOf(r, {Hw("one slice", "ct5p-hightpu-4t", 0, "8x16x16", 1), data,
                   Hw("four slices", "ct5p-hightpu-4t", 0, "8x8x8", 4)});
  EXPECT_EQ(ExpectOrderIndependent(review, "tied TPU proposals"), 6);
  const ReviewResponse out = Review(review);
  const ProposalVerdict* one = ByLabel(out, "one slice");
  const ProposalVerdict* over_dcn = ByLabel(out, "data over DCN");
  ASSERT_TRUE(one && over_dcn) << Verdicts(out);
  ASSERT_TRUE(one->plan && over_dcn->plan) << Verdicts(out);
  EXPECT_NEAR(
      one->plan->estimates.total_hours.expected,
      over_dcn->plan->estimates.total_hours.expected,
      kPolicy.tie_tolerance.value * one->plan->estimates.total_hours.expected)
      << Verdicts(out);
  EXPECT_EQ(one->verdict, Verdict::kRecommended) << Verdicts(out);
  EXPECT_NE(over_dcn->reason.find("Ties with proposal one slice"),
            std::string::npos)
      << over_dcn->reason;
}

// The case of an order-dependence bug (fixed in engine v2): a data-parallel
// Multislice distribution proposal was judged with no candidate, so it and
// a hardware proposal were incomparable and whichever was listed first was
// RECOMMENDED. A distribution proposal now selects its point in the space.
TEST_F(ReviewConsistencyTest,
       MultisliceLayoutBesideHardwareDoesNotDependOnOrder) {
  EXPECT_EQ(ExpectOrderIndependent(
                ReviewOf(TpuSlices(),
                         {Hw("v5e 2x256", "ct5lp-hightpu-4t", 0, "16x16", 2),
                          Hw("v5e 64", "ct5lp-hightpu-4t", 0, "8x8", 1),
                          Hw("v6e 2x256", "ct6e-standard-4t", 0, "16x16", 2),
                          Dist("multislice", Strategy::kMultislice)}),
                "TPU slices and a Multislice layout"),
            24);
}

// Across slices, stated degrees no Multislice layout has fall back on the
// strategy: the verdict names the degrees it was judged at; degrees a
// Multislice layout has are judged as stated, without that line.
TEST_F(ReviewConsistencyTest, UnmatchedDegreesAcrossSlicesAreNamed) {
  const auto reviewed = [&](int fsdp, int pipeline) {
    Proposal p = Hw("v5e 2x256", "ct5lp-hightpu-4t", 0, "16x16", 2);
    p.hardware->layout = DistributionProposal{};
    p.hardware->layout->strategy = Strategy::kFsdp;
    p.hardware->layout->fsdp_parallelism = fsdp;
    p.hardware->layout->pipeline_parallelism = pipeline;
    const ReviewResponse out = Review(ReviewOf(TpuSlices(), {p}));
    EXPECT_EQ(out.verdicts.size(), 1u);
    return out.verdicts.empty() ? ProposalVerdict{} : out.verdicts.front();
  };
  const ProposalVerdict unmatched = reviewed(0, 4);
  ASSERT_TRUE(unmatched.plan.has_value()) << unmatched.reason;
  EXPECT_NE(unmatched.reason.find("has the stated degrees"), std::string::npos)
      << unmatched.reason;
  EXPECT_LE(unmatched.plan->distribution.pipeline_parallelism, 1);
  const ProposalVerdict matched = reviewed(256, 0);
  ASSERT_TRUE(matched.plan.has_value()) << matched.reason;
  EXPECT_EQ(matched.reason.find("has the stated degrees"), std::string::npos)
      << matched.reason;
  EXPECT_EQ(matched.plan->distribution.fsdp_parallelism, 256);
}

// A machine type the family offers but the request cannot obtain (A3
// High's 1-GPU shape is Spot or flex-start only) is rejected for that, not
// for a missing throughput; allowed Spot, that code goes.
TEST_F(ReviewConsistencyTest, AMachineTypeTheRequestCannotObtainSaysWhy) {
  PlanRequest job = Job13B(Objective::kMinCost);
  const auto one_gpu = [&](const PlanRequest& r) {
    const ReviewResponse out = Review(ReviewOf(r, {Hw("one", "a3-highgpu-1g", 1)}));
    EXPECT_EQ(out.verdicts.size(), 1u);
    return out.verdicts.empty() ? ProposalVerdict{} : out.verdicts.front();
  };
  const ProposalVerdict on_demand = one_gpu(job);
  EXPECT_TRUE(testutil::Has(on_demand, ReasonCode::kNotAvailableOnDemand))
      << on_demand.reason;
  EXPECT_EQ(on_demand.reason.find("throughput"), std::string::npos)
      << on_demand.reason;
  job.constraints.spot_allowed = true;
  job.workload.checkpoints = true;
  // Obtainable on Spot, it is judged on: one GPU does not hold 13B.
  const ProposalVerdict spot = one_gpu(job);
  EXPECT_FALSE(testutil::Has(spot, ReasonCode::kNotAvailableOnDemand)) << spot.reason;
  EXPECT_TRUE(testutil::Has(spot, ReasonCode::kHbmTooSmall)) << spot.reason;
}

// ------------------------------------------------------------ b, c

std::vector<PlanRequest> PlannedJobs() {
  return {Job13B(Objective::kMinTime), Job13B(Objective::kMinCost),
          Job13B(Objective::kBalanced), TpuJob(Objective::kMinCost),
          TpuJob(Objective::kMinTime), Lora27B()};
}

std::string Named(const PlanRequest& r) {
  return testutil::DescribeRequest(r) + " " + r.workload.model_name;
}

TEST_F(ReviewConsistencyTest, PlansRecommendationIsRecommendedBesideWorseOptions) {
  for (const PlanRequest& job : PlannedJobs()) {
    const PlanResponse plan = planner_->Plan(job);
    ASSERT_TRUE(plan.recommendation.has_value()) << Named(job) << plan.no_plan_reason;
    ASSERT_FALSE(plan.alternatives.empty()) << Named(job);
    // The alternatives rank after the recommendation: worse options. The
    // recommendation goes in the middle, so position cannot decide.
    std::vector<Proposal> proposals;
    for (size_t i = 0; i < plan.alternatives.size() && i < 3; ++i) {
      proposals.push_back(FromPlan(absl::StrCat("alt", i), plan.alternatives[i]));
      if (i == 0) proposals.push_back(FromPlan("recommended", *plan.recommendation));
    }
    const ReviewResponse out = Review(ReviewOf(job, proposals));
    const ProposalVerdict* rec = ByLabel(out, "recommended");
    ASSERT_NE(rec, nullptr);
    EXPECT_EQ(rec->verdict, Verdict::kRecommended)
        << Named(job) << "\n  plan: " << Brief(*plan.recommendation) << Verdicts(out);
  }
}

TEST_F(ReviewConsistencyTest, SameHardwareGivesSameEstimatesInPlanAndReview) {
  int compared = 0, rejected = 0;
  for (const PlanRequest& job : PlannedJobs()) {
    const PlanResponse plan = planner_->Plan(job);
    ASSERT_TRUE(plan.recommendation.has_value()) << Named(job) << plan.no_plan_reason;
    std::vector<const Plan*> plans = {&*plan.recommendation};
    for (const Plan& alt : plan.alternatives) plans.push_back(&alt);
    for (size_t i = 0; i < plans.size(); ++i) {
      // Each alone, so no other proposal can change its judgement.
      const ReviewResponse out =
          Review(ReviewOf(job, {FromPlan(absl::StrCat("p", i), *plans[i])}));
      ASSERT_EQ(out.verdicts.size(), 1u);
      const ProposalVerdict& v = out.verdicts[0];
      const std::string what =
          absl::StrCat(Named(job), "\n  plan entry ", i, ": ", Brief(*plans[i]));
      // A rejected verdict carries no plan to compare (see
      // PlansOptionsAreNotRejectedWhenProposed).
      if (v.verdict == Verdict::kRejected) {
        ++rejected;
        continue;
      }
      ASSERT_TRUE(v.plan.has_value()) << what << "\n  " << v.reason;
      ExpectSamePlan(*plans[i], *v.plan, what);
      ++compared;
    }
  }
  std::cout << "[ same hardware ] compared: " << compared
            << ", rejected when proposed: " << rejected << "\n";
  EXPECT_GE(compared, 12);
}

// The case of a plan/review contradiction (fixed in engine v2): the 27B
// LoRA plan listed A2 Standard at a2-megagpu-16g x16 as an alternative;
// proposed as that machine type at that count, ReviewPlan rejected it
// OVERSIZED_FOR_WORKLOAD, because the machine-type pin made the family's
// smallest obtainable shape 16 GPUs. The oversize rule now judges the
// family's smallest shape before a proposal narrows it.
TEST_F(ReviewConsistencyTest, PlansOptionsAreNotRejectedWhenProposed) {
  for (const PlanRequest& job : PlannedJobs()) {
    const PlanResponse plan = planner_->Plan(job);
    ASSERT_TRUE(plan.recommendation.has_value()) << Named(job);
    std::vector<const Plan*> plans = {&*plan.recommendation};
    for (const Plan& alt : plan.alternatives) plans.push_back(&alt);
    for (size_t i = 0; i < plans.size(); ++i) {
      const ReviewResponse out =
          Review(ReviewOf(job, {FromPlan(absl::StrCat("p", i), *plans[i])}));
      ASSERT_EQ(out.verdicts.size(), 1u);
      EXPECT_NE(out.verdicts[0].verdict, Verdict::kRejected)
          << Named(job) << "\n  plan entry " << i << ": " << Brief(*plans[i])
          << "\n  " << out.verdicts[0].reason;
    }
  }
}

// A 70B model on TPU v5e (16 GB chips): PlanTraining fits a replica in
// each 16x16 slice with tensor parallelism inside it (activations sharded
// 8 ways) and data parallelism across the slices. Proposed as exactly that
// hardware and layout, ReviewPlan rejected it HBM_TOO_SMALL, because its
// replica-per-slice bound took FSDP alone over the slice's chips.
TEST_F(ReviewConsistencyTest, PlansMultisliceLayoutIsNotRejectedWhenProposed) {
  PlanRequest job = Llm(Framework::kJax, 70e9, Shape(80, 8192, 64, 8192, 28672),
                        Objective::kMinCost);
  job.workload.transformer_shape.num_kv_heads = 8;
  job.workload.transformer_shape.gated_ffn = true;
  job.workload.transformer_shape.vocab_size = 128256;
  job.workload.dataset_tokens = 1e12;
  job.workload.global_batch_size = 1024;
  job.goal.deadline_hours = 720;
  job.constraints.allowed_series = {"TPU v5e"};
  const PlanResponse plan = planner_->Plan(job);
  ASSERT_TRUE(plan.recommendation.has_value()) << plan.no_plan_reason;
  const Plan& rec = *plan.recommendation;
  ASSERT_TRUE(rec.distribution.multislice.has_value()) << Brief(rec);
  ASSERT_GT(rec.distribution.multislice->dcn_data_parallelism, 1) << Brief(rec);
  // The case needs tensor parallelism inside the slice to fit.
  ASSERT_GT(rec.distribution.tensor_parallelism, 1) << Brief(rec);

  Proposal p = FromPlan("as planned", rec);
  p.hardware->layout = DistributionProposal{};
  p.hardware->layout->strategy = Strategy::kMultislice;
  p.hardware->layout->across_slices = DcnParallelism::kData;
  p.hardware->layout->slices = rec.hardware.slices;
  const ReviewResponse out = Review(ReviewOf(job, {p}));
  ASSERT_EQ(out.verdicts.size(), 1u);
  const ProposalVerdict& v = out.verdicts[0];
  EXPECT_FALSE(testutil::Has(v, ReasonCode::kHbmTooSmall)) << v.reason;
  ASSERT_TRUE(v.plan.has_value()) << v.reason;
  ExpectSamePlan(rec, *v.plan, "70B on v5e slices, data across DCN");
}

CurrentSetup OnA2(int nodes, Strategy today, Symptom symptom);  // below
PlanRequest SyncBound(Strategy today);                          // below

// Troubleshooting setups: each symptom on multi-host GPUs (on Vertex AI and
// on GKE, with selective or full recompute) and on TPU slices.
std::vector<PlanRequest> TroubledJobs() {
  std::vector<PlanRequest> out;
  const Symptom symptoms[] = {Symptom::kGradientSyncBound, Symptom::kInputBound,
                              Symptom::kOutOfMemory, Symptom::kHeavyPadding,
                              Symptom::kLowUtilization};
  for (Symptom s : symptoms) {
    for (RunPlatform where :
         {RunPlatform::kVertexTraining, RunPlatform::kGke}) {
      for (Recompute rc : {Recompute::kSelective, Recompute::kFull}) {
        PlanRequest r = Job13B(Objective::kMinCost);
        r.workload.recompute = rc;
        r.current_setup = OnA2(4, Strategy::kDataParallel, s);
        r.constraints.run_platform = where;
        out.push_back(r);
      }
    }
    PlanRequest tpu = TpuJob(Objective::kMinCost);
    tpu.current_setup.hardware = "tpu-v5e";
    tpu.current_setup.tpu_topology = "16x16";
    tpu.current_setup.slice_count = 2;
    tpu.current_setup.symptoms = {s};
    out.push_back(tpu);
  }
  return out;
}

// PlanTraining's remedies are ones ReviewPlan recommends when each is
// proposed alone for the same job (the cases: a Reduction Server listed for
// a job on GKE, where ReviewPlan finds it NOT_APPLICABLE; activation
// recompute listed for a job that already recomputes every layer; a remedy
// today's setup beats on cost and time, which review holds back).
TEST_F(ReviewConsistencyTest, PlansRemediesAreNotRejectedWhenProposed) {
  int checked = 0;
  for (const PlanRequest& job : TroubledJobs()) {
    const PlanResponse plan = planner_->Plan(job);
    for (const struct Remedy& m : plan.remedies) {
      // The move off legacy hardware advises lifting the keep-hardware pin
      // (plan_training.cc); these jobs keep none, so none is listed.
      EXPECT_NE(m.kind, RemedyKind::kMoveToHardware) << Named(job);
      Proposal p = Remedy("remedy", m.kind);
      p.remedy->global_batch_size = m.global_batch_size;
      p.remedy->layer_widths = m.layer_widths;
      const ReviewResponse out = Review(ReviewOf(job, {p}));
      ASSERT_EQ(out.verdicts.size(), 1u);
      // Alone, it is neither rejected nor held back (pays, beats today).
      EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRecommended)
          << Named(job) << " on "
          << static_cast<int>(job.constraints.run_platform) << "\n  remedy "
          << m.summary << "\n  " << out.verdicts[0].reason;
      ++checked;
    }
  }
  EXPECT_GE(checked, 10);
}

// ... and what ReviewPlan rejects there is not listed: the Reduction
// Server for SPEC S3's gradient-bound DDP job on Vertex AI, not on GKE,
// nor for a 13B job whose DDP does not fit today's A100s (the setup is
// modelled as ZeRO-3, whose traffic no pool serves).
TEST_F(ReviewConsistencyTest, ReductionServerIsOfferedWhereItRuns) {
  PlanRequest job = SyncBound(Strategy::kDataParallel);
  const auto offered = [&](RunPlatform where) {
    job.constraints.run_platform = where;
    for (const struct Remedy& m : planner_->Plan(job).remedies) {
      if (m.kind == RemedyKind::kAddReductionServer) return true;
    }
    return false;
  };
  EXPECT_TRUE(offered(RunPlatform::kVertexTraining));
  EXPECT_FALSE(offered(RunPlatform::kGke));
  const ReviewResponse gke =
      Review(ReviewOf(job, {Remedy("rs", RemedyKind::kAddReductionServer)}));
  ASSERT_EQ(gke.verdicts.size(), 1u);
  EXPECT_EQ(gke.verdicts[0].verdict, Verdict::kRejected);
  job = Job13B(Objective::kMinCost);
  job.current_setup =
      OnA2(4, Strategy::kDataParallel, Symptom::kGradientSyncBound);
  EXPECT_FALSE(offered(RunPlatform::kVertexTraining));
}

// Evidence over the model: a team states DDP for a 3B model on 4 x
// a2-highgpu-8g and that it waits on the gradient sync. With the assumed
// Adam state (48 GiB per device) DDP does not fit a 40 GB A100 in the
// model, but the team runs it: its memory is taken as observed, so the
// Reduction Server that serves its all-reduce is offered and reviewed on
// it (it was NOT_APPLICABLE, the model having swapped in FSDP). 13B cannot
// hold even its 16-bit weights and gradients per device, so its stated DDP
// is not taken at its word (ReductionServerIsOfferedWhereItRuns).
TEST_F(ReviewConsistencyTest, AStatedDdpThatRunsIsTakenAsFittingForReductionServer) {
  PlanRequest job = Llm(Framework::kPytorch, 3e9, Shape(32, 2560, 32, 2048, 10240),
                        Objective::kMinCost);
  job.current_setup =
      OnA2(4, Strategy::kDataParallel, Symptom::kGradientSyncBound);
  job.current_setup.observed_hours = 40;
  const ReviewResponse small =
      Review(ReviewOf(job, {Remedy("rs", RemedyKind::kAddReductionServer)}));
  ASSERT_EQ(small.verdicts.size(), 1u);
  const ProposalVerdict& rs = small.verdicts[0];
  EXPECT_NE(rs.verdict, Verdict::kRejected) << rs.reason;
  ASSERT_TRUE(rs.plan.has_value()) << rs.reason;
  EXPECT_TRUE(rs.plan->distribution.reduction_server.has_value()) << rs.reason;
  EXPECT_NE(rs.reason.find("taken as observed to fit"), std::string::npos)
      << rs.reason;
  bool offered = false;
  for (const struct Remedy& m : planner_->Plan(job).remedies) {
    offered |= m.kind == RemedyKind::kAddReductionServer;
  }
  EXPECT_TRUE(offered);
  // The same evidence holds for every proposal on today's layout: today's
  // DDP as a distribution proposal, and remedies that keep it.
  PlanRequest calm = job;  // no symptom: each is judged on its point
  calm.current_setup.symptoms.clear();
  const ReviewResponse others = Review(ReviewOf(
      calm, {Dist("ddp", Strategy::kDataParallel),
            Remedy("more", RemedyKind::kAddAccelerators),
            Remedy("recompute", RemedyKind::kActivationRecompute)}));
  for (const ProposalVerdict& v : others.verdicts) {
    EXPECT_FALSE(testutil::Has(v, ReasonCode::kHbmTooSmall))
        << v.label << ": " << v.reason;
  }

  PlanRequest big = Job13B(Objective::kMinCost);
  big.current_setup = job.current_setup;
  const ReviewResponse large =
      Review(ReviewOf(big, {Remedy("rs", RemedyKind::kAddReductionServer)}));
  ASSERT_EQ(large.verdicts.size(), 1u);
  const ProposalVerdict& no = large.verdicts[0];
  EXPECT_EQ(no.verdict, Verdict::kRejected) << no.reason;
  EXPECT_TRUE(testutil::Has(no, ReasonCode::kNotApplicable)) << no.reason;
}

// A hardware proposal that restates today's machine, count and stated
// layout is today's setup: it runs, so it is judged on the point the
// distribution proposal of today's strategy gets (its memory taken as
// observed), not rejected HBM_TOO_SMALL. Not when the team reports running
// out of memory.
TEST_F(ReviewConsistencyTest, AProposalRestatingTodaysSetupIsTakenToFit) {
  PlanRequest job = Llm(Framework::kPytorch, 3e9, Shape(32, 2560, 32, 2048, 10240),
                        Objective::kMinCost);
  job.current_setup = OnA2(4, Strategy::kDataParallel, Symptom::kGradientSyncBound);
  job.current_setup.symptoms.clear();
  job.current_setup.observed_hours = 40;
  Proposal today = Hw("today", "a2-highgpu-8g", 32);
  today.hardware->layout = DistributionProposal{};
  today.hardware->layout->strategy = Strategy::kDataParallel;
  const ReviewResponse r =
      Review(ReviewOf(job, {today, Dist("ddp", Strategy::kDataParallel)}));
  ASSERT_EQ(r.verdicts.size(), 2u);
  const ProposalVerdict& hw = r.verdicts[0];
  const ProposalVerdict& ddp = r.verdicts[1];
  EXPECT_FALSE(testutil::Has(hw, ReasonCode::kHbmTooSmall)) << hw.reason;
  ASSERT_TRUE(hw.plan.has_value()) << hw.reason;
  ASSERT_TRUE(ddp.plan.has_value()) << ddp.reason;
  EXPECT_EQ(hw.plan->hardware.total_accelerators, 32);
  EXPECT_EQ(hw.plan->distribution.strategy, Strategy::kDataParallel);
  EXPECT_DOUBLE_EQ(hw.plan->estimates.step_time_seconds,
                   ddp.plan->estimates.step_time_seconds);
  EXPECT_NE(hw.reason.find("taken as observed to fit"), std::string::npos)
      << hw.reason;

  PlanRequest oom = job;
  oom.current_setup.symptoms = {Symptom::kOutOfMemory};
  const ReviewResponse o = Review(ReviewOf(oom, {today}));
  ASSERT_EQ(o.verdicts.size(), 1u);
  EXPECT_TRUE(testutil::Has(o.verdicts[0], ReasonCode::kHbmTooSmall))
      << o.verdicts[0].reason;

  // Across slices today's strategy is judged by the replica-per-slice rule,
  // which takes no memory as observed: the restatement agrees with it.
  PlanRequest tpu = Llm(Framework::kJax, 60e9, Shape(64, 7168, 56, 2048, 28672),
                        Objective::kMinCost);
  tpu.workload.dataset_tokens = 2e10;
  tpu.current_setup.hardware = "tpu-v5e";
  tpu.current_setup.tpu_topology = "4x4";
  tpu.current_setup.slice_count = 2;
  tpu.current_setup.strategy = Strategy::kFsdp;
  tpu.constraints.run_platform = RunPlatform::kGke;
  Proposal slices;
  slices.label = "slices";
  slices.hardware = HardwareProposal{};
  slices.hardware->accelerator = "tpu-v5e";
  slices.hardware->tpu_topology = "4x4";
  slices.hardware->slices = 2;
  slices.hardware->layout = DistributionProposal{};
  slices.hardware->layout->strategy = Strategy::kFsdp;
  Proposal one_slice = slices;
  one_slice.label = "one slice";
  one_slice.hardware->slices = 0;
  const ReviewResponse t = Review(
      ReviewOf(tpu, {slices, one_slice, Dist("fsdp", Strategy::kFsdp)}));
  ASSERT_EQ(t.verdicts.size(), 3u);
  for (int i : {0, 1}) {
    EXPECT_EQ(t.verdicts[i].verdict == Verdict::kRejected,
              t.verdicts[2].verdict == Verdict::kRejected)
        << t.verdicts[i].label << ": " << t.verdicts[i].reason << " | "
        << t.verdicts[2].reason;
    EXPECT_EQ(t.verdicts[i].reason.find("taken as observed"), std::string::npos)
        << t.verdicts[i].reason;
  }
}

// FSDP on one cluster is called SLOWER than data parallelism only when the
// model says a whole replica fits one device, and its point leaves the
// gathers exposed: hidden under compute they cost no time, and the numbers
// tie (it was SLOWER beside the same step time as DDP's). Today's FSDP of
// a model whose replica does not fit (13B with Adam on A100 80GB) is
// neither SLOWER nor said to fit one device; a 1B model's FSDP is either,
// as its point says.
TEST_F(ReviewConsistencyTest, FsdpIsSlowerOnlyWhereAReplicaFits) {
  const auto fsdp_verdict = [&](double params, TransformerShape shape,
                                const char* hardware, int nodes) {
    PlanRequest job = Llm(Framework::kPytorch, params, shape, Objective::kMinCost);
    job.current_setup =
        OnA2(nodes, Strategy::kFsdp, Symptom::kGradientSyncBound);
    job.current_setup.hardware = hardware;
    job.current_setup.symptoms.clear();
    const ReviewResponse r = Review(ReviewOf(job, {Dist("fsdp", Strategy::kFsdp)}));
    EXPECT_EQ(r.verdicts.size(), 1u);
    return r.verdicts.empty() ? ProposalVerdict{} : r.verdicts[0];
  };
  const ProposalVerdict big =
      fsdp_verdict(13e9, Shape(40, 5120, 40, 2048, 13824), "a2-ultragpu-8g", 4);
  EXPECT_NE(big.verdict, Verdict::kRejected) << big.reason;
  EXPECT_FALSE(testutil::Has(big, ReasonCode::kSlower)) << big.reason;
  EXPECT_EQ(big.reason.find("fits one device"), std::string::npos) << big.reason;
  bool slower = false, hidden = false;
  for (const char* hardware : {"a2-ultragpu-8g", "a2-highgpu-8g"}) {
    for (int nodes : {2, 4, 16, 32}) {
      const ProposalVerdict small =
          fsdp_verdict(1e9, Shape(24, 2048, 16, 2048, 8192), hardware, nodes);
      EXPECT_NE(small.reason.find("fits one device"), std::string::npos)
          << small.reason;
      ASSERT_TRUE(small.plan.has_value()) << small.reason;
      if (testutil::Has(small, ReasonCode::kSlower)) {
        slower = true;
        EXPECT_GT(small.plan->estimates.communication_fraction, 0)
            << small.reason;
      } else {
        hidden = true;
        EXPECT_NE(small.reason.find("hidden under compute"), std::string::npos)
            << small.reason;
      }
    }
  }
  EXPECT_TRUE(slower);
  EXPECT_TRUE(hidden);
}

// HYBRID is "several of the above": FSDP groups replicated across VMs
// (PyTorch's HYBRID_SHARD) is one, judged on the same point as FSDP with
// those degrees; HYBRID without a second form of parallelism spells none.
TEST_F(ReviewConsistencyTest, HybridShardingIsFsdpReplicatedAcrossGroups) {
  PlanRequest job = Job13B(Objective::kMinCost);
  job.current_setup = OnA2(4, Strategy::kFsdp, Symptom::kGradientSyncBound);
  job.current_setup.hardware = "a2-ultragpu-8g";
  const auto degrees = [](const std::string& label, Strategy s, int data, int fsdp) {
    Proposal p = Dist(label, s);
    p.distribution->data_parallelism = data;
    p.distribution->fsdp_parallelism = fsdp;
    return p;
  };
  const ReviewResponse r = Review(ReviewOf(
      job, {degrees("hsdp", Strategy::kHybrid, 4, 8),
            degrees("fsdp", Strategy::kFsdp, 4, 8),
            degrees("flat", Strategy::kHybrid, 1, 32)}));
  ASSERT_EQ(r.verdicts.size(), 3u);
  const ProposalVerdict& hsdp = r.verdicts[0];
  const ProposalVerdict& fsdp = r.verdicts[1];
  ASSERT_TRUE(hsdp.plan.has_value()) << hsdp.reason;
  ASSERT_TRUE(fsdp.plan.has_value()) << fsdp.reason;
  EXPECT_EQ(hsdp.plan->distribution.fsdp_parallelism, 8);
  EXPECT_EQ(hsdp.plan->distribution.data_parallelism, 4);
  EXPECT_DOUBLE_EQ(hsdp.plan->estimates.step_time_seconds,
                   fsdp.plan->estimates.step_time_seconds);
  EXPECT_EQ(hsdp.reason.find("model parallelism"), std::string::npos)
      << hsdp.reason;
  EXPECT_EQ(r.verdicts[2].verdict, Verdict::kRejected) << r.verdicts[2].reason;
  EXPECT_TRUE(testutil::Has(r.verdicts[2], ReasonCode::kNotApplicable))
      << r.verdicts[2].reason;
}

// A Multislice data-parallel proposal with no slices today is that layout
// on the TPU family and slice topology that rank best for the job, so its
// verdict carries estimates (it had none); with no TPU allowed there is no
// such point.
TEST_F(ReviewConsistencyTest, MultisliceDataProposalWithoutSlicesTodayHasEstimates) {
  PlanRequest job = TpuJob(Objective::kMinCost);
  Proposal four = Dist("four", Strategy::kMultislice);
  four.distribution->across_slices = DcnParallelism::kData;
  four.distribution->slices = 4;
  const ReviewResponse out = Review(ReviewOf(job, {four}));
  ASSERT_EQ(out.verdicts.size(), 1u);
  const ProposalVerdict& v = out.verdicts[0];
  ASSERT_TRUE(v.plan.has_value()) << v.reason;
  EXPECT_EQ(v.plan->hardware.platform, Platform::kTpu);
  EXPECT_EQ(v.plan->hardware.slices, 4);
  EXPECT_GT(v.plan->estimates.step_time_seconds, 0);
  // 70B on v6e: the family's own best point over four slices shards the
  // model across them; its smallest topology whose slice holds a replica
  // is taken instead (the family was dropped).
  PlanRequest big;
  big.as_of = "2026-09-26";
  big.workload.model_name = "llama-3.1-70b";
  big.workload.framework = Framework::kJax;
  big.workload.dataset_tokens = 1e11;
  big.constraints.allowed_series = {"TPU v6e"};
  big.constraints.run_platform = RunPlatform::kGke;
  const ReviewResponse v6e = Review(ReviewOf(big, {four}));
  ASSERT_EQ(v6e.verdicts.size(), 1u);
  ASSERT_TRUE(v6e.verdicts[0].plan.has_value()) << v6e.verdicts[0].reason;
  EXPECT_EQ(v6e.verdicts[0].plan->hardware.slices, 4);
  EXPECT_LE(v6e.verdicts[0].plan->distribution.fsdp_parallelism,
            v6e.verdicts[0].plan->hardware.total_accelerators / 4);
  job.constraints.allowed_platforms = {Platform::kGpu};
  const ReviewResponse gpus = Review(ReviewOf(job, {four}));
  ASSERT_EQ(gpus.verdicts.size(), 1u);
  EXPECT_FALSE(gpus.verdicts[0].plan.has_value()) << gpus.verdicts[0].reason;
  EXPECT_EQ(gpus.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_TRUE(testutil::Has(gpus.verdicts[0], ReasonCode::kNotApplicable))
      << gpus.verdicts[0].reason;
}

// The case of the step-time bug: g4-standard-48 named without a count
// selects the family's own point in the space, which must be the plan's.
TEST_F(ReviewConsistencyTest, LoraOnG4HasTheSameStepTimeInPlanAndReview) {
  const PlanRequest job = Lora27B();
  const PlanResponse plan = planner_->Plan(job);
  ASSERT_TRUE(plan.recommendation.has_value()) << plan.no_plan_reason;
  const Plan* g4 = nullptr;
  if (plan.recommendation->hardware.machine_type == "g4-standard-48") {
    g4 = &*plan.recommendation;
  }
  for (const Plan& alt : plan.alternatives) {
    if (g4 == nullptr && alt.hardware.machine_type == "g4-standard-48") g4 = &alt;
  }
  ASSERT_NE(g4, nullptr) << "the plan has no g4-standard-48 point; it has "
                         << Brief(*plan.recommendation);
  const ReviewResponse out = Review(ReviewOf(
      job, {Hw("g4 pinned", "g4-standard-48", g4->hardware.total_accelerators),
            Hw("g4", "g4-standard-48")}));
  for (const ProposalVerdict& v : out.verdicts) {
    ASSERT_TRUE(v.plan.has_value()) << v.label << ": " << v.reason;
    ExpectSamePlan(*g4, *v.plan, absl::StrCat("27B LoRA, ", v.label));
  }
}

// ------------------------------------------------------------ d. monotone

// Language models only: for classical ML (XGBoost, LightGBM) SPEC §4 puts
// CPU first whenever a CPU is viable, so a budget that first admits a CPU
// turns a fast GPU recommendation into a slower CPU one, by design (e.g.
// LightGBM, 16.5 GiB, MIN_TIME, Spot: $0.0052 gives 8192 A100s in 8e-5 s,
// $0.0155 gives 64 c4d-standard-8 VMs in 6 s).
TEST_F(ReviewConsistencyTest, LargerBudgetIsNeverSlowerUnderMinTime) {
  const std::vector<PlanRequest> jobs = testutil::RandomRequests(
      testutil::PropertyJobCount(150), 20261213, {.classical = false,
                                                 .without_data = false,
                                                 .constraints = true});
  int steps = 0, faster = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    PlanRequest r = jobs[i];
    r.goal.objective = Objective::kMinTime;
    r.goal.budget_usd = 0;
    // Budgets from a sliver of the fastest plan's cost to all of it.
    const PlanResponse free = planner_->Plan(r);
    if (!free.recommendation || !free.recommendation->estimates.price_known) continue;
    const double top = free.recommendation->estimates.hourly_usd *
                       free.recommendation->estimates.total_hours.expected;
    std::optional<Plan> prev;
    double prev_budget = 0;
    for (double f : {0.01, 0.03, 0.1, 0.3, 0.6, 1.0, 2.0}) {
      r.goal.budget_usd = top * f;
      const PlanResponse p = planner_->Plan(r);
      const std::string what = absl::StrCat(
          "job #", i, " ", testutil::DescribeRequest(r), "\n  budget $",
          prev_budget, " -> $", r.goal.budget_usd);
      if (prev) {
        ASSERT_TRUE(p.recommendation.has_value())
            << what << ": a larger budget leaves no plan (" << p.no_plan_reason << ")";
        ++steps;
        const double before = prev->estimates.total_hours.expected;
        const double after = p.recommendation->estimates.total_hours.expected;
        // Options within the band of the fastest are equally fast
        // (kPolicy.equal_time_fraction): a larger budget may take a
        // cheaper one of them, never a slower one that costs more.
        EXPECT_LE(after, before * (1 + kPolicy.equal_time_fraction.value))
            << what << "\n  before: " << Brief(*prev)
            << "\n  after:  " << Brief(*p.recommendation);
        if (after > before * (1 + 1e-9)) {
          // The cost the plan is provisioned at (Spot or on-demand): the
          // one the scorer ranked.
          const auto cost = [](const Plan& plan) {
            return plan.hardware.provisioning == Provisioning::kSpot
                       ? plan.estimates.spot_cost_usd.expected
                       : plan.estimates.on_demand_cost_usd.expected;
          };
          EXPECT_LE(cost(*p.recommendation), cost(*prev) * (1 + 1e-9))
              << what << "\n  before: " << Brief(*prev)
              << "\n  after:  " << Brief(*p.recommendation);
        }
        faster += after < before * (1 - 1e-9);
      }
      if (p.recommendation) prev = p.recommendation;
      prev_budget = r.goal.budget_usd;
    }
  }
  std::cout << "[ budget ] steps checked: " << steps << ", faster: " << faster << "\n";
  EXPECT_GE(steps, testutil::PropertyJobCount(150));
  EXPECT_GT(faster, 0);
}

// MIN_COST: a budget only removes options, so the plan without one (or
// with a larger one) is never both costlier and slower than the plan under
// a smaller budget (the workload lists may trade up to 25% of cost for a
// listed series, never cost and time together).
TEST_F(ReviewConsistencyTest, LargerBudgetNeverGivesACostlierAndSlowerPlan) {
  const std::vector<PlanRequest> jobs = testutil::RandomRequests(
      testutil::PropertyJobCount(150), 20261206, {.classical = false,
                                                 .without_data = false,
                                                 .constraints = true});
  int steps = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    PlanRequest r = jobs[i];
    r.goal.objective = Objective::kMinCost;
    r.goal.budget_usd = 0;
    const PlanResponse free = planner_->Plan(r);
    if (!free.recommendation || !free.recommendation->estimates.price_known) continue;
    const double cost = free.recommendation->estimates.on_demand_cost_usd.expected;
    // Budgets below the plan's cost (a plan the lists passed over may
    // cost up to their slack less).
    for (double f : {0.8, 0.9, 0.95, 0.99}) {
      r.goal.budget_usd = cost * f;
      const PlanResponse p = planner_->Plan(r);
      if (!p.recommendation) continue;
      ++steps;
      const Estimates& a = p.recommendation->estimates;
      const Estimates& b = free.recommendation->estimates;
      const bool dominated =
          b.on_demand_cost_usd.expected > a.on_demand_cost_usd.expected * (1 + 1e-9) &&
          b.total_hours.expected > a.total_hours.expected * (1 + 1e-9);
      EXPECT_FALSE(dominated)
          << "job #" << i << " " << testutil::DescribeRequest(r) << "\n  budget $"
          << r.goal.budget_usd << ": " << Brief(*p.recommendation)
          << "\n  no budget: " << Brief(*free.recommendation);
    }
  }
  std::cout << "[ budget, MIN_COST ] plans under a smaller budget: " << steps
            << "\n";
  EXPECT_GT(steps, 0);
}

// Whether the plan's series was sized to beat a listed one on cost and time
// (planner/relative_rules.cc WorkloadListRule): a relative rule whose
// reference, the listed series, a budget can rule out, and with it the
// reason for the larger size (a cheaper one is then the plan).
bool SizedToBeatAListedSeries(const PlanResponse& r) {
  const auto sized = [](const std::string& m) {
    return absl::StrContains(m, "list, and") &&
           absl::StrContains(m, "is sized at");
  };
  for (const std::string& a : r.assumptions) {
    if (sized(a)) return true;
  }
  for (const Reason& w : r.warnings) {
    if (sized(w.message)) return true;
  }
  return false;
}

// MIN_COST: a budget the plan without one already meets changes nothing.
// Count refinement searches beside the points over the budget as well (a
// count between two of them can cost less; probe: Mistral-7B on 43
// g2-standard-96 at $63.1k had no plan under a $64k budget). MIN_TIME and
// BALANCED measure against the fastest and cheapest feasible points, which
// a budget moves (LargerBudgetIsNeverSlowerUnderMinTime covers MIN_TIME).
TEST_F(ReviewConsistencyTest, ABudgetThePlanMeetsKeepsThePlan) {
  const std::vector<PlanRequest> jobs = testutil::RandomRequests(
      testutil::PropertyJobCount(150), 20261207,
      {.classical = false, .without_data = false, .constraints = true});
  int steps = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    PlanRequest r = jobs[i];
    r.goal.objective = Objective::kMinCost;
    r.goal.budget_usd = 0;
    const PlanResponse free = planner_->Plan(r);
    if (!free.recommendation || !free.recommendation->estimates.price_known ||
        free.recommendation->hardware.provisioning == Provisioning::kSpot ||
        SizedToBeatAListedSeries(free)) {
      continue;
    }
    const double cost =
        free.recommendation->estimates.on_demand_cost_usd.expected;
    for (double f : {1.0001, 1.05, 1.5}) {
      r.goal.budget_usd = cost * f;
      const PlanResponse p = planner_->Plan(r);
      const std::string what =
          absl::StrCat("job #", i, " ", testutil::DescribeRequest(r),
                       "\n  budget $", r.goal.budget_usd);
      ASSERT_TRUE(p.recommendation.has_value())
          << what << ": " << p.no_plan_reason;
      ++steps;
      EXPECT_EQ(Brief(*p.recommendation), Brief(*free.recommendation)) << what;
    }
  }
  std::cout << "[ budget met ] plans checked: " << steps << "\n";
  EXPECT_GE(steps, testutil::PropertyJobCount(150));
}

// The probe itself: Mistral-7B's cheapest plan (43 g2-standard-96 VMs) is
// off the grid, and every grid count of G2 costs more. A budget just above
// it keeps it in PlanTraining (G2 was rejected OVER_BUDGET on the grid),
// and the move to G2 in ReviewPlan is not rejected OVER_BUDGET either.
TEST_F(ReviewConsistencyTest, ABudgetMetOnlyOffTheGridKeepsThePlan) {
  PlanRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_name = "mistral-7b";
  r.workload.dataset_tokens = 3e11;
  r.workload.global_batch_size = 1024;
  r.constraints.spot_allowed = true;
  r.as_of = "2026-09-26";
  const PlanResponse free = planner_->Plan(r);
  ASSERT_TRUE(free.recommendation.has_value()) << free.no_plan_reason;
  const Plan& best = *free.recommendation;
  ASSERT_EQ(best.hardware.series, "G2") << Brief(best);
  ASSERT_NE(best.hardware.hosts % 32, 0) << Brief(best);  // off the grid
  r.goal.budget_usd = best.estimates.on_demand_cost_usd.expected * 1.001;
  const PlanResponse budgeted = planner_->Plan(r);
  ASSERT_TRUE(budgeted.recommendation.has_value()) << budgeted.no_plan_reason;
  EXPECT_EQ(Brief(*budgeted.recommendation), Brief(best));
  ReviewRequest review;
  review.workload = r.workload;
  review.goal = r.goal;
  review.constraints = r.constraints;
  review.as_of = r.as_of;
  review.current_setup.hardware = "a3-highgpu-8g";
  review.current_setup.accelerator_count = 8;
  review.current_setup.node_count = 1;
  Proposal move;
  move.label = "g2";
  move.remedy = RemedyProposal{};
  move.remedy->kind = RemedyKind::kMoveToHardware;
  move.remedy->target = HardwareProposal{};
  move.remedy->target->series = "G2";
  review.proposals = {move};
  const ReviewResponse out = planner_->Review(review);
  ASSERT_EQ(out.verdicts.size(), 1u);
  const std::vector<ReasonCode>& codes = out.verdicts[0].codes;
  EXPECT_EQ(std::find(codes.begin(), codes.end(), ReasonCode::kOverBudget),
            codes.end())
      << out.verdicts[0].reason;
}

TEST_F(ReviewConsistencyTest, LaterDeadlineNeverCostsMoreThanTheListSlackUnderMinCost) {
  const std::vector<PlanRequest> jobs = testutil::RandomRequests(
      testutil::PropertyJobCount(150), 20261214, {.classical = true,
                                                 .without_data = false,
                                                 .constraints = true});
  const double slack = kPolicy.workload_list_cost_slack.value;
  int steps = 0, cheaper = 0, within_slack = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    PlanRequest r = jobs[i];
    r.goal.objective = Objective::kMinTime;
    r.goal.deadline_hours = 0;
    r.goal.budget_usd = 0;
    // Deadlines from the fastest plan's hours to many times it.
    const PlanResponse fastest = planner_->Plan(r);
    if (!fastest.recommendation) continue;
    const double quickest = fastest.recommendation->estimates.total_hours.expected;
    r.goal.objective = Objective::kMinCost;
    std::optional<Plan> prev;
    double prev_deadline = 0;
    for (double f : {1.0, 1.5, 3.0, 10.0, 30.0, 100.0, 1000.0}) {
      r.goal.deadline_hours = quickest * f;
      const PlanResponse p = planner_->Plan(r);
      const std::string what = absl::StrCat(
          "job #", i, " ", testutil::DescribeRequest(r), "\n  deadline ",
          prev_deadline, " h -> ", r.goal.deadline_hours, " h");
      if (prev && prev->estimates.price_known) {
        ASSERT_TRUE(p.recommendation.has_value())
            << what << ": a later deadline leaves no plan (" << p.no_plan_reason << ")";
        // A priced plan never gives way to an unpriced one (they rank last).
        ASSERT_TRUE(p.recommendation->estimates.price_known) << what;
        ++steps;
        const double before = prev->estimates.hourly_usd *
                              prev->estimates.total_hours.expected;
        const double after = p.recommendation->estimates.hourly_usd *
                             p.recommendation->estimates.total_hours.expected;
        EXPECT_LE(after, before * slack * (1 + 1e-9))
            << what << "\n  before: " << Brief(*prev)
            << "\n  after:  " << Brief(*p.recommendation);
        // The earlier plan still meets the later deadline: the later one
        // may cost more (a listed series within the slack), never more
        // and take longer as well.
        const double before_hours = prev->estimates.total_hours.expected;
        const double after_hours =
            p.recommendation->estimates.total_hours.expected;
        EXPECT_FALSE(after > before * (1 + 1e-9) &&
                     after_hours > before_hours * (1 + 1e-9))
            << what << ": dearer and slower\n  before: " << Brief(*prev)
            << "\n  after:  " << Brief(*p.recommendation);
        cheaper += after < before * (1 - 1e-9);
        within_slack += after > before * (1 + 1e-9);
      }
      if (p.recommendation) prev = p.recommendation;
      prev_deadline = r.goal.deadline_hours;
    }
  }
  std::cout << "[ deadline ] steps checked: " << steps << ", cheaper: " << cheaper
            << ", costlier within the list slack: " << within_slack << "\n";
  EXPECT_GE(steps, testutil::PropertyJobCount(150));
  EXPECT_GT(cheaper, 0);
}

// ------------------------------------------------------------ e. remedies

// A remedy is the current setup with the remedy applied, selected in the
// same space (planner/review_remedy_point.cc): its verdict carries that
// point's estimates and the scorer ranks it.

// `nodes` x a2-highgpu-8g (8 x A100 40GB each) running `today` over NCCL,
// with one symptom.
CurrentSetup OnA2(int nodes, Strategy today, Symptom symptom) {
  CurrentSetup c;
  c.hardware = "a2-highgpu-8g";
  c.accelerator_count = 8;
  c.node_count = nodes;
  c.strategy = today;
  c.uses_nccl = true;
  c.symptoms = {symptom};
  return c;
}

// 7B on one a2-highgpu-8g, out of memory: 112 GB of Adam state does not
// fit one 40 GB GPU whole, and fits sharded over 8.
PlanRequest OutOfMemory7B(Strategy today, Objective o = Objective::kMinCost) {
  PlanRequest r =
      Llm(Framework::kPytorch, 7e9, Shape(32, 4096, 32, 2048, 16384), o);
  r.current_setup = OnA2(1, today, Symptom::kOutOfMemory);
  return r;
}

Proposal MoveTo(const std::string& label, const std::string& machine_type) {
  Proposal p = Remedy(label, RemedyKind::kMoveToHardware);
  p.remedy->target = HardwareProposal{};
  p.remedy->target->machine_type = machine_type;
  return p;
}

// Hardware that does not act on a stated symptom may still be the best
// proposal, but its verdict says it leaves the problem, as the move to the
// same hardware is rejected DOES_NOT_ADDRESS_BOTTLENECK beside it (it read
// "meets every hard rule").
TEST_F(ReviewConsistencyTest, RecommendedHardwareSaysItLeavesTheSymptom) {
  PlanRequest job = TpuJob(Objective::kMinCost);
  job.current_setup.hardware = "tpu-v5e";
  job.current_setup.tpu_topology = "16x16";
  job.current_setup.slice_count = 2;
  job.current_setup.symptoms = {Symptom::kLowUtilization};
  Proposal move = MoveTo("move", "ct6e-standard-4t");
  move.remedy->target->tpu_topology = "16x16";
  move.remedy->target->slices = 2;
  const ReviewResponse out = Review(
      ReviewOf(job, {move, Hw("v6e", "ct6e-standard-4t", 0, "16x16", 2)}));
  const ProposalVerdict* m = ByLabel(out, "move");
  const ProposalVerdict* h = ByLabel(out, "v6e");
  ASSERT_TRUE(m && h) << Verdicts(out);
  EXPECT_TRUE(testutil::Has(*m, ReasonCode::kDoesNotAddressBottleneck))
      << m->reason;
  ASSERT_EQ(h->verdict, Verdict::kRecommended) << Verdicts(out);
  EXPECT_TRUE(
      absl::StrContains(h->reason, "does not act on the stated problem"))
      << h->reason;
  // Without the symptom there is no problem to leave.
  job.current_setup.symptoms.clear();
  const ReviewResponse plain =
      Review(ReviewOf(job, {Hw("v6e", "ct6e-standard-4t", 0, "16x16", 2)}));
  ASSERT_EQ(plain.verdicts.size(), 1u);
  EXPECT_FALSE(absl::StrContains(plain.verdicts[0].reason, "stated problem"))
      << plain.verdicts[0].reason;
}

// The SPEC S3 setup: 1.5B PyTorch DDP on 16 x a2-highgpu-8g on Vertex AI.
PlanRequest SyncBound(Strategy today) {
  PlanRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_kind = ModelKind::kDenseTransformer;
  r.workload.parameter_count = 1.5e9;
  r.workload.precision = Precision::kBf16Mixed;
  r.constraints.run_platform = RunPlatform::kVertexTraining;
  r.current_setup = OnA2(16, today, Symptom::kGradientSyncBound);
  r.as_of = "2026-09-26";
  return r;
}

// The one verdict, by value: the response is often a temporary.
ProposalVerdict Only(const ReviewResponse& r) {
  EXPECT_EQ(r.verdicts.size(), 1u);
  return r.verdicts.empty() ? ProposalVerdict{} : r.verdicts.front();
}

// Waiting on gradient synchronization, a move to hardware with a faster
// link between hosts per GPU acts on the problem, as PlanTraining's own
// move to it does (A3 Mega's 1,800 Gbps over 8 GPUs against A2's 100);
// a move to the same link does not. Both ways.
TEST_F(ReviewConsistencyTest, AMoveToAFasterLinkActsOnGradientSync) {
  const PlanRequest job = SyncBound(Strategy::kDataParallel);
  const ProposalVerdict faster =
      Only(Review(ReviewOf(job, {MoveTo("mega", "a3-megagpu-8g")})));
  EXPECT_NE(faster.verdict, Verdict::kRejected) << faster.reason;
  EXPECT_FALSE(testutil::Has(faster, ReasonCode::kDoesNotAddressBottleneck))
      << faster.reason;
  ASSERT_TRUE(faster.plan.has_value()) << faster.reason;
  EXPECT_EQ(faster.plan->hardware.machine_type, "a3-megagpu-8g");
  const ProposalVerdict same =
      Only(Review(ReviewOf(job, {MoveTo("a2", "a2-highgpu-8g")})));
  EXPECT_EQ(same.verdict, Verdict::kRejected) << same.reason;
  EXPECT_TRUE(testutil::Has(same, ReasonCode::kDoesNotAddressBottleneck))
      << same.reason;
}

TEST_F(ReviewConsistencyTest, AReductionServerVerdictCarriesThePooledSetup) {
  const ReviewResponse ddp = Review(ReviewOf(
      SyncBound(Strategy::kDataParallel),
      {Remedy("rs", RemedyKind::kAddReductionServer)}));
  const ProposalVerdict v = Only(ddp);
  EXPECT_EQ(v.verdict, Verdict::kRecommended) << v.reason;
  ASSERT_TRUE(v.plan.has_value()) << v.reason;
  EXPECT_EQ(v.plan->hardware.machine_type, "a2-highgpu-8g");
  EXPECT_EQ(v.plan->hardware.total_accelerators, 128);
  EXPECT_TRUE(v.plan->distribution.reduction_server.has_value()) << v.reason;
  EXPECT_NE(v.reason.find("today's"), std::string::npos) << v.reason;
  // FSDP's gathers and reduce-scatters are not the all-reduce a pool
  // serves: the remedied point takes none, and the remedy is rejected.
  const ReviewResponse fsdp = Review(ReviewOf(
      SyncBound(Strategy::kFsdp), {Remedy("rs", RemedyKind::kAddReductionServer)}));
  const ProposalVerdict w = Only(fsdp);
  EXPECT_EQ(w.verdict, Verdict::kRejected) << w.reason;
  EXPECT_TRUE(testutil::Has(w, ReasonCode::kNotApplicable)) << w.reason;
  EXPECT_FALSE(w.plan.has_value());
  EXPECT_NE(w.reason.find("not one data-parallel all-reduce (ZeRO stage 3"),
            std::string::npos)
      << w.reason;
  // The pool is pool 2 of a Vertex AI job: on GKE the same DDP setup has
  // none, and the verdict names where it runs.
  PlanRequest on_gke = SyncBound(Strategy::kDataParallel);
  on_gke.constraints.run_platform = RunPlatform::kGke;
  const ProposalVerdict g = Only(Review(
      ReviewOf(on_gke, {Remedy("rs", RemedyKind::kAddReductionServer)})));
  EXPECT_EQ(g.verdict, Verdict::kRejected) << g.reason;
  EXPECT_TRUE(testutil::Has(g, ReasonCode::kNotApplicable)) << g.reason;
  EXPECT_NE(g.reason.find("it runs on GKE"), std::string::npos) << g.reason;
}

TEST_F(ReviewConsistencyTest, MoreAcceleratorsKeepTodaysLayout) {
  // Under DDP every GPU holds the whole state, at any count: no fix.
  const ProposalVerdict ddp = Only(Review(ReviewOf(
      OutOfMemory7B(Strategy::kDataParallel),
      {Remedy("more", RemedyKind::kAddAccelerators)})));
  EXPECT_EQ(ddp.verdict, Verdict::kRejected) << ddp.reason;
  EXPECT_TRUE(testutil::Has(ddp, ReasonCode::kHbmTooSmall)) << ddp.reason;
  // Under FSDP more GPUs shard it further: a point with more devices.
  const ProposalVerdict fsdp = Only(Review(ReviewOf(
      OutOfMemory7B(Strategy::kFsdp), {Remedy("more", RemedyKind::kAddAccelerators)})));
  EXPECT_NE(fsdp.verdict, Verdict::kRejected) << fsdp.reason;
  ASSERT_TRUE(fsdp.plan.has_value()) << fsdp.reason;
  EXPECT_GT(fsdp.plan->hardware.total_accelerators, 8);
  EXPECT_EQ(fsdp.plan->hardware.machine_type, "a2-highgpu-8g");
}

// OUT_OF_MEMORY on one L4 for a LoRA 8B with full recompute: four L4 VMs
// of today's layout are four replicas, each holding today's model states
// and micro-batch, so adding them does not act on the problem; moving to
// more memory per device does.
TEST_F(ReviewConsistencyTest, MoreReplicasDoNotRelieveOutOfMemory) {
  ReviewRequest r;
  r.workload.framework = Framework::kPytorch;
  r.workload.model_name = "llama-3.1-8b";
  r.workload.training_method = TrainingMethod::kLora;
  r.workload.recompute = Recompute::kFull;
  r.workload.dataset_tokens = 1e8;
  r.workload.global_batch_size = 32;
  r.current_setup.hardware = "g2-standard-12";
  r.current_setup.accelerator_count = 1;
  r.current_setup.node_count = 1;
  r.current_setup.strategy = Strategy::kSingleDevice;
  r.current_setup.symptoms = {Symptom::kOutOfMemory};
  r.as_of = "2026-09-26";
  Proposal more = Remedy("more", RemedyKind::kAddAccelerators);
  more.remedy->target = HardwareProposal{};
  more.remedy->target->count = 4;
  r.proposals = {more, Remedy("memory", RemedyKind::kMoreMemoryPerDevice)};
  const ReviewResponse out = Review(r);
  ASSERT_EQ(out.verdicts.size(), 2u);
  EXPECT_EQ(out.verdicts[0].verdict, Verdict::kRejected)
      << out.verdicts[0].reason;
  EXPECT_TRUE(
      testutil::Has(out.verdicts[0], ReasonCode::kDoesNotAddressBottleneck))
      << out.verdicts[0].reason;
  EXPECT_EQ(out.verdicts[1].verdict, Verdict::kRecommended)
      << out.verdicts[1].reason;
}

// ADD_ACCELERATORS with a stated size is judged at that size (it was
// judged at the smallest larger one whatever it stated), and a stated size
// not above today's is NOT_APPLICABLE.
TEST_F(ReviewConsistencyTest, MoreAcceleratorsAtTheStatedSize) {
  const auto more = [](const std::string& label, int count) {
    Proposal p = Remedy(label, RemedyKind::kAddAccelerators);
    p.remedy->target = HardwareProposal{};
    p.remedy->target->count = count;
    return p;
  };
  const ReviewResponse r = Review(ReviewOf(
      OutOfMemory7B(Strategy::kFsdp),
      {more("32", 32), more("64", 64), more("8", 8),
       Remedy("any", RemedyKind::kAddAccelerators)}));
  ASSERT_EQ(r.verdicts.size(), 4u);
  for (int i : {0, 1}) {
    const ProposalVerdict& v = r.verdicts[i];
    ASSERT_TRUE(v.plan.has_value()) << v.label << ": " << v.reason;
    EXPECT_EQ(v.plan->hardware.total_accelerators, std::stoi(v.label));
    EXPECT_EQ(v.plan->hardware.machine_type, "a2-highgpu-8g");
  }
  EXPECT_EQ(r.verdicts[2].verdict, Verdict::kRejected) << r.verdicts[2].reason;
  EXPECT_TRUE(testutil::Has(r.verdicts[2], ReasonCode::kNotApplicable));
  ASSERT_TRUE(r.verdicts[3].plan.has_value()) << r.verdicts[3].reason;
  EXPECT_GT(r.verdicts[3].plan->hardware.total_accelerators, 8);

  // On TPU slices an unstated slice count (or topology) is today's, and a
  // target naming other hardware is a move, not more of today's.
  PlanRequest tpu = Llm(Framework::kJax, 8e9, Shape(32, 4096, 32, 2048, 14336),
                        Objective::kMinCost);
  tpu.current_setup.hardware = "tpu-v5e";
  tpu.current_setup.tpu_topology = "4x4";
  tpu.current_setup.slice_count = 2;
  tpu.current_setup.strategy = Strategy::kFsdp;
  tpu.constraints.run_platform = RunPlatform::kGke;
  Proposal wider = Remedy("4x8", RemedyKind::kAddAccelerators);
  wider.remedy->target = HardwareProposal{};
  wider.remedy->target->tpu_topology = "4x8";
  Proposal elsewhere = more("h100", 64);
  elsewhere.remedy->target->accelerator = "nvidia-h100-80gb";
  const ReviewResponse t = Review(ReviewOf(tpu, {wider, elsewhere}));
  ASSERT_EQ(t.verdicts.size(), 2u);
  ASSERT_TRUE(t.verdicts[0].plan.has_value()) << t.verdicts[0].reason;
  EXPECT_EQ(t.verdicts[0].plan->hardware.tpu_topology, "4x8");
  EXPECT_EQ(t.verdicts[0].plan->hardware.slices, 2);
  EXPECT_TRUE(testutil::Has(t.verdicts[1], ReasonCode::kNotApplicable))
      << t.verdicts[1].reason;
}

TEST_F(ReviewConsistencyTest, RemediesAlreadyInPlaceAreNotApplicable) {
  const auto shard = [&](Strategy today) {
    return Only(Review(ReviewOf(OutOfMemory7B(today),
                                {Remedy("shard", RemedyKind::kShardOptimizerState)})));
  };
  const ProposalVerdict sharded = shard(Strategy::kFsdp);
  EXPECT_EQ(sharded.verdict, Verdict::kRejected);
  EXPECT_TRUE(testutil::Has(sharded, ReasonCode::kNotApplicable));
  EXPECT_NE(sharded.reason.find("already"), std::string::npos) << sharded.reason;
  const ProposalVerdict ddp = shard(Strategy::kDataParallel);
  EXPECT_EQ(ddp.verdict, Verdict::kRecommended) << ddp.reason;
  ASSERT_TRUE(ddp.plan.has_value());
  EXPECT_EQ(ddp.plan->distribution.zero_stage, 3);
  // No symptom: recompute is judged by the space alone (for the OOM the
  // model states cause, recompute is rejected HBM_TOO_SMALL).
  const auto recompute = [&](Recompute level) {
    PlanRequest job = OutOfMemory7B(Strategy::kFsdp);
    job.current_setup.symptoms = {};
    job.workload.recompute = level;
    return Only(Review(ReviewOf(
        job, {Remedy("recompute", RemedyKind::kActivationRecompute)})));
  };
  const ProposalVerdict full = recompute(Recompute::kFull);
  EXPECT_EQ(full.verdict, Verdict::kRejected);
  EXPECT_NE(full.reason.find("already"), std::string::npos) << full.reason;
  const ProposalVerdict selective = recompute(Recompute::kSelective);
  EXPECT_NE(selective.verdict, Verdict::kRejected) << selective.reason;
  // Horovod for a job that already runs it is NOT_APPLICABLE, saying so;
  // for today's DDP it is not.
  const auto horovod = [&](Strategy today) {
    PlanRequest job = GpuCluster();
    job.current_setup.strategy = today;
    job.current_setup.symptoms = {Symptom::kGradientSyncBound};
    return Only(
        Review(ReviewOf(job, {Remedy("hvd", RemedyKind::kUseHorovod)})));
  };
  const ProposalVerdict on_horovod = horovod(Strategy::kHorovod);
  EXPECT_TRUE(testutil::Has(on_horovod, ReasonCode::kNotApplicable))
      << on_horovod.reason;
  EXPECT_NE(on_horovod.reason.find("already runs Horovod"), std::string::npos)
      << on_horovod.reason;
  const ProposalVerdict on_ddp = horovod(Strategy::kDataParallel);
  EXPECT_FALSE(testutil::Has(on_ddp, ReasonCode::kNotApplicable))
      << on_ddp.reason;
}

TEST_F(ReviewConsistencyTest, WithoutSymptomsTheObjectiveRanksTheRemedies) {
  for (Objective o : {Objective::kMinCost, Objective::kMinTime}) {
    PlanRequest job = GpuCluster();
    job.goal.objective = o;
    job.current_setup.strategy = Strategy::kFsdp;
    job.constraints.spot_allowed = true;
    job.workload.checkpoints = true;
    // A deadline both meet: without one MIN_COST assumes today's runtime,
    // which Spot's restarts miss.
    job.goal.deadline_hours = 24 * 60;
    const ReviewResponse out =
        Review(ReviewOf(job, {Remedy("spot", RemedyKind::kUseSpot),
                              Remedy("more", RemedyKind::kAddAccelerators)}));
    const ProposalVerdict* spot = ByLabel(out, "spot");
    const ProposalVerdict* more = ByLabel(out, "more");
    ASSERT_TRUE(spot && more && spot->plan && more->plan) << Verdicts(out);
    EXPECT_EQ(spot->plan->hardware.provisioning, Provisioning::kSpot);
    EXPECT_GT(more->plan->hardware.total_accelerators, 32);
    const ProposalVerdict* winner = o == Objective::kMinCost ? spot : more;
    EXPECT_EQ(winner->verdict, Verdict::kRecommended) << Verdicts(out);
  }
}

// Without a stated problem a remedy is one more option: beside hardware it
// wins or loses on the objective's numbers, not on its kind.
TEST_F(ReviewConsistencyTest, WithoutSymptomsARemedyAndHardwareRankByCost) {
  PlanRequest job = GpuCluster();
  job.current_setup.strategy = Strategy::kFsdp;
  job.constraints.spot_allowed = true;
  job.workload.checkpoints = true;
  job.goal.deadline_hours = 24 * 60;
  std::set<std::string> winners;
  for (const char* machine : {"a2-ultragpu-8g", "a3-megagpu-8g"}) {
    const ReviewResponse out = Review(ReviewOf(
        job, {Remedy("spot", RemedyKind::kUseSpot), Hw("hardware", machine)}));
    const ProposalVerdict* spot = ByLabel(out, "spot");
    const ProposalVerdict* hw = ByLabel(out, "hardware");
    ASSERT_TRUE(spot && hw && spot->plan && hw->plan) << machine << Verdicts(out);
    const auto cost = [](const Plan& p) {
      return p.hardware.provisioning == Provisioning::kSpot
                 ? p.estimates.spot_cost_usd.expected
                 : p.estimates.on_demand_cost_usd.expected;
    };
    const double spot_cost = cost(*spot->plan);
    const double hw_cost = cost(*hw->plan);
    const ProposalVerdict* cheaper = spot_cost <= hw_cost ? spot : hw;
    EXPECT_EQ(cheaper->verdict, Verdict::kRecommended)
        << machine << ": spot $" << spot_cost << ", hardware $" << hw_cost
        << Verdicts(out);
    winners.insert(cheaper->label);
  }
  // One pair goes each way, so neither kind wins by rule.
  EXPECT_EQ(winners.size(), 2u);
}

// A move and a remedy on today's hardware that both act on the stated
// problem rank by the scorer, as PlanTraining ranks their points (SPEC §3:
// its recommendation is RECOMMENDED beside worse proposals): the move to
// H100s, cheaper and 3x faster, wins over sharding on today's A100s; a move
// to A100 80GB, dearer, loses to it. A remedy that ranked first whatever
// its numbers recommended a costlier, slower plan than PlanTraining's.
TEST_F(ReviewConsistencyTest, AMoveAndARemedyThatBothActRankByTheNumbers) {
  const PlanRequest job = OutOfMemory7B(Strategy::kDataParallel);
  const ReviewRequest both =
      ReviewOf(job, {MoveTo("h100", "a3-highgpu-8g"),
                     Remedy("shard", RemedyKind::kShardOptimizerState)});
  EXPECT_EQ(ExpectOrderIndependent(both, "a move beside sharding"), 2);
  const ReviewResponse out = Review(both);
  const ProposalVerdict* shard = ByLabel(out, "shard");
  const ProposalVerdict* move = ByLabel(out, "h100");
  ASSERT_TRUE(shard && move && shard->plan && move->plan) << Verdicts(out);
  ASSERT_LT(move->plan->estimates.on_demand_cost_usd.expected,
            shard->plan->estimates.on_demand_cost_usd.expected);
  EXPECT_EQ(move->verdict, Verdict::kRecommended) << Verdicts(out);
  EXPECT_EQ(shard->verdict, Verdict::kViable) << Verdicts(out);
  EXPECT_TRUE(testutil::Has(*shard, ReasonCode::kHigherCost)) << shard->reason;
  EXPECT_TRUE(testutil::Has(*shard, ReasonCode::kSlower)) << shard->reason;
  EXPECT_EQ(move->plan->hardware.machine_type, "a3-highgpu-8g");
  // The other way: a dearer move ranks behind the remedy by its cost.
  // (Less data: at 50 days both miss the assumed deadline, and the faster
  // ranks first.)
  PlanRequest shorter = job;
  shorter.workload.dataset_tokens = job.workload.dataset_tokens / 4;
  const ReviewResponse dear = Review(
      ReviewOf(shorter, {MoveTo("a100-80", "a2-ultragpu-8g"),
                         Remedy("shard", RemedyKind::kShardOptimizerState)}));
  const ProposalVerdict* a100 = ByLabel(dear, "a100-80");
  const ProposalVerdict* sharded = ByLabel(dear, "shard");
  ASSERT_TRUE(a100 && sharded && a100->plan && sharded->plan) << Verdicts(dear);
  ASSERT_GT(a100->plan->estimates.on_demand_cost_usd.expected,
            sharded->plan->estimates.on_demand_cost_usd.expected);
  EXPECT_EQ(sharded->verdict, Verdict::kRecommended) << Verdicts(dear);
  EXPECT_EQ(a100->verdict, Verdict::kViable) << Verdicts(dear);
  EXPECT_TRUE(testutil::Has(*a100, ReasonCode::kHigherCost)) << a100->reason;
  // Beside a remedy that does not fix it, the move is the one recommended.
  const ReviewResponse beside = Review(ReviewOf(
      job, {MoveTo("h100", "a3-highgpu-8g"),
            Remedy("recompute", RemedyKind::kActivationRecompute)}));
  const ProposalVerdict* recompute = ByLabel(beside, "recompute");
  const ProposalVerdict* alone = ByLabel(beside, "h100");
  ASSERT_TRUE(recompute && alone) << Verdicts(beside);
  EXPECT_EQ(recompute->verdict, Verdict::kRejected);
  EXPECT_EQ(alone->verdict, Verdict::kRecommended) << Verdicts(beside);
}

// The same point proposed twice ties: the one ranked second is VIABLE with
// "ties", not COMMUNICATION_BOUND "would beat" the first (both carry the
// same traffic). Both ways: other hardware that loses to it on exposed
// communication still says so.
TEST_F(ReviewConsistencyTest, TheSamePointTwiceTiesWithoutACommunicationClaim) {
  PlanRequest job;
  job.workload.model_name = "llama-3.1-70b";
  job.workload.framework = Framework::kPytorch;
  job.workload.training_method = TrainingMethod::kLora;
  job.workload.dataset_tokens = 2e8;
  job.goal.objective = Objective::kMinTime;
  job.goal.budget_usd = 2020;
  // The size the unsized proposal selects, proposed again as A (and B on
  // the other machine type).
  const ReviewResponse alone =
      Review(ReviewOf(job, {Hw("again", "a3-megagpu-8g")}));
  ASSERT_EQ(alone.verdicts.size(), 1u);
  ASSERT_TRUE(alone.verdicts[0].plan.has_value()) << alone.verdicts[0].reason;
  const int n = alone.verdicts[0].plan->hardware.total_accelerators;
  const ReviewResponse out = Review(
      ReviewOf(job, {Hw("A", "a3-megagpu-8g", n), Hw("B", "a3-highgpu-8g", n),
                     Hw("again", "a3-megagpu-8g")}));
  const ProposalVerdict* a = ByLabel(out, "A");
  const ProposalVerdict* b = ByLabel(out, "B");
  const ProposalVerdict* again = ByLabel(out, "again");
  ASSERT_TRUE(a && b && again && a->plan && again->plan) << Verdicts(out);
  ASSERT_EQ(a->plan->hardware.total_accelerators,
            again->plan->hardware.total_accelerators);
  ASSERT_GT(a->plan->estimates.communication_fraction, 0);
  EXPECT_EQ(a->verdict, Verdict::kRecommended) << Verdicts(out);
  EXPECT_EQ(again->verdict, Verdict::kViable) << Verdicts(out);
  EXPECT_FALSE(testutil::Has(*again, ReasonCode::kCommunicationBound))
      << again->reason;
  EXPECT_NE(again->reason.find("Ties with proposal A"), std::string::npos)
      << again->reason;
  // The line names the proposal that ranks first, not "it".
  EXPECT_NE(again->reason.find("; A ranks first"), std::string::npos)
      << again->reason;
  EXPECT_EQ(b->verdict, Verdict::kViable) << Verdicts(out);
  EXPECT_TRUE(testutil::Has(*b, ReasonCode::kCommunicationBound)) << b->reason;
}

// MORE_MEMORY_PER_DEVICE naming its target is that move, judged on the
// target's memory and point, not on today's 40 GB GPU (which it would
// leave); under keep_current_hardware it changes the pinned hardware, as a
// move does.
TEST_F(ReviewConsistencyTest, MoreMemoryPerDeviceIsJudgedOnItsTarget) {
  const PlanRequest job = OutOfMemory7B(Strategy::kDataParallel);
  Proposal bigger = MoveTo("bigger", "a2-ultragpu-8g");
  bigger.remedy->kind = RemedyKind::kMoreMemoryPerDevice;
  const ProposalVerdict more = Only(Review(ReviewOf(job, {bigger})));
  const ProposalVerdict move =
      Only(Review(ReviewOf(job, {MoveTo("move", "a2-ultragpu-8g")})));
  ASSERT_TRUE(more.plan && move.plan) << more.reason << move.reason;
  EXPECT_EQ(more.verdict, Verdict::kRecommended) << more.reason;
  EXPECT_EQ(move.verdict, Verdict::kRecommended) << move.reason;
  EXPECT_EQ(more.plan->hardware.machine_type, "a2-ultragpu-8g");
  EXPECT_EQ(more.plan->estimates.step_time_seconds,
            move.plan->estimates.step_time_seconds);
  // Both ways: a target whose device holds no more than today's is not
  // more memory per device (the move to it is a move, judged as one).
  Proposal same = MoveTo("same", "a2-highgpu-8g");
  same.remedy->kind = RemedyKind::kMoreMemoryPerDevice;
  const ProposalVerdict still = Only(Review(ReviewOf(job, {same})));
  EXPECT_EQ(still.verdict, Verdict::kRejected) << still.reason;
  EXPECT_TRUE(testutil::Has(still, ReasonCode::kNotApplicable)) << still.reason;
  PlanRequest kept = job;
  kept.constraints.keep_current_hardware = true;
  const ProposalVerdict pinned = Only(Review(ReviewOf(kept, {bigger})));
  EXPECT_TRUE(testutil::Has(pinned, ReasonCode::kChangesPinnedHardware))
      << pinned.reason;
}

// MORE_MEMORY_PER_DEVICE with no target is the move to the best-ranked
// hardware of the job's space whose device holds more than today's: 8B
// sharded over a v5e 2x4 still needs about 24 GiB per chip, more than the
// v5e's 16 GB (it was judged on the v5e itself, and rejected
// HBM_TOO_SMALL); when the request allows nothing larger it is rejected
// for that.
TEST_F(ReviewConsistencyTest, MoreMemoryPerDeviceWithoutTargetMovesToALargerDevice) {
  PlanRequest job;
  job.as_of = "2026-09-26";
  job.workload.model_name = "llama-3.1-8b";
  job.workload.framework = Framework::kJax;
  job.current_setup.hardware = "tpu-v5e";
  job.current_setup.tpu_topology = "2x4";
  job.current_setup.strategy = Strategy::kFsdp;
  job.current_setup.symptoms = {Symptom::kOutOfMemory};
  const Proposal more = Remedy("more", RemedyKind::kMoreMemoryPerDevice);
  const ProposalVerdict v = Only(Review(ReviewOf(job, {more})));
  ASSERT_TRUE(v.plan.has_value()) << v.reason;
  EXPECT_NE(v.verdict, Verdict::kRejected) << v.reason;
  EXPECT_GT(v.plan->estimates.memory_per_device.device_memory_gib, 16)
      << v.reason;
  PlanRequest only_v5e = job;
  only_v5e.constraints.allowed_series = {"TPU v5e"};
  const ProposalVerdict none = Only(Review(ReviewOf(only_v5e, {more})));
  EXPECT_EQ(none.verdict, Verdict::kRejected) << none.reason;
  EXPECT_TRUE(testutil::Has(none, ReasonCode::kHbmTooSmall)) << none.reason;

  // The best-ranked larger device may be refused at today's size (G4 at 4
  // GPUs, off Google's pre-training list beside A2 Standard): the next one
  // that a move can take is judged, not the remedy rejected for it.
  PlanRequest on_l4;
  on_l4.as_of = "2026-09-26";
  on_l4.workload.model_name = "llama-3.1-8b";
  on_l4.workload.framework = Framework::kPytorch;
  on_l4.workload.dataset_tokens = 5e9;
  on_l4.current_setup.hardware = "g2-standard-48";
  on_l4.current_setup.node_count = 1;
  on_l4.current_setup.accelerator_count = 4;
  on_l4.current_setup.symptoms = {Symptom::kOutOfMemory};
  const ProposalVerdict next = Only(Review(ReviewOf(on_l4, {more})));
  EXPECT_FALSE(testutil::Has(next, ReasonCode::kNotRecommendedForWorkload))
      << next.reason;
  ASSERT_TRUE(next.plan.has_value()) << next.reason;
  EXPECT_GT(next.plan->estimates.memory_per_device.device_memory_gib, 24)
      << next.reason;
}

// A move changes the hardware only: named by series (no pins), it is
// judged on today's capacity, not on the Spot the request allows a new
// plan; the same series as a hardware proposal is the plan's point.
TEST_F(ReviewConsistencyTest, AMoveKeepsTodaysProvisioning) {
  // BALANCED: under MIN_COST the start-up billed on A3 Mega's 8 GPUs makes
  // it OVERSIZED for this 2-GPU job (A3 High at 4 costs less).
  PlanRequest job = OutOfMemory7B(Strategy::kFsdp, Objective::kBalanced);
  job.constraints.spot_allowed = true;
  job.workload.checkpoints = true;
  Proposal move = Remedy("move", RemedyKind::kMoveToHardware);
  move.remedy->target = HardwareProposal{};
  move.remedy->target->series = "A3 Mega";
  Proposal hw;
  hw.label = "hardware";
  hw.hardware = HardwareProposal{};
  hw.hardware->series = "A3 Mega";
  const ReviewResponse out = Review(ReviewOf(job, {move, hw}));
  const ProposalVerdict* m = ByLabel(out, "move");
  const ProposalVerdict* h = ByLabel(out, "hardware");
  ASSERT_TRUE(m && h && m->plan && h->plan) << Verdicts(out);
  EXPECT_NE(m->plan->hardware.provisioning, Provisioning::kSpot) << m->reason;
  EXPECT_EQ(h->plan->hardware.provisioning, Provisioning::kSpot) << h->reason;
}

// A remedy whose setup has no feasible point is rejected with its codes,
// as a hardware proposal would be: more GPUs than the request allows, a
// move to a machine that cannot hold the job.
TEST_F(ReviewConsistencyTest, ARemedyWhoseSetupStillFailsIsRejected) {
  PlanRequest capped = OutOfMemory7B(Strategy::kFsdp);
  capped.constraints.max_accelerators = 8;
  const ReviewResponse out = Review(ReviewOf(
      capped, {Remedy("more", RemedyKind::kAddAccelerators),
               MoveTo("h100", "a3-highgpu-8g")}));
  const ProposalVerdict* capped_more = ByLabel(out, "more");
  const ProposalVerdict* move = ByLabel(out, "h100");
  ASSERT_TRUE(capped_more && move) << Verdicts(out);
  EXPECT_EQ(capped_more->verdict, Verdict::kRejected) << Verdicts(out);
  EXPECT_TRUE(testutil::Has(*capped_more, ReasonCode::kExceedsMaxAccelerators))
      << capped_more->reason;
  EXPECT_EQ(move->verdict, Verdict::kRecommended) << Verdicts(out);
  // Uncapped, more GPUs are a point of the space.
  const ProposalVerdict more = Only(Review(ReviewOf(
      OutOfMemory7B(Strategy::kFsdp), {Remedy("more", RemedyKind::kAddAccelerators)})));
  EXPECT_NE(more.verdict, Verdict::kRejected) << more.reason;
  // One 80 GB H100 holds 112 GB of state only by offloading the optimizer
  // to its VM's 234 GB (planner/optimizer_offload.h); one 40 GB A100,
  // whose VM has 85 GB, cannot hold it either way. a3-highgpu-1g is not
  // offered on-demand: a move to it needs the reservation the request
  // allows (today's reservation is for today's machines, not the target's).
  Proposal one = MoveTo("one h100", "a3-highgpu-1g");
  one.remedy->target->count = 1;
  PlanRequest reserved = OutOfMemory7B(Strategy::kFsdp);
  const ProposalVerdict unreserved = Only(Review(ReviewOf(reserved, {one})));
  EXPECT_EQ(unreserved.verdict, Verdict::kRejected) << unreserved.reason;
  EXPECT_TRUE(testutil::Has(unreserved, ReasonCode::kNotAvailableOnDemand))
      << unreserved.reason;
  reserved.constraints.reservation_available = true;
  const ProposalVerdict h100 = Only(Review(ReviewOf(reserved, {one})));
  EXPECT_NE(h100.verdict, Verdict::kRejected) << h100.reason;
  ASSERT_TRUE(h100.plan.has_value()) << h100.reason;
  EXPECT_TRUE(h100.plan->distribution.optimizer_offload) << h100.reason;
  Proposal a100 = MoveTo("one a100", "a2-highgpu-1g");
  a100.remedy->target->count = 1;
  const ProposalVerdict small =
      Only(Review(ReviewOf(OutOfMemory7B(Strategy::kFsdp), {a100})));
  EXPECT_EQ(small.verdict, Verdict::kRejected) << small.reason;
  EXPECT_TRUE(testutil::Has(small, ReasonCode::kHbmTooSmall)) << small.reason;
}

// The GiB per device a rejection's line states ("needs 33.7 GiB per
// device"); -1 when it states none.
double NeededGib(const std::string& reason) {
  const std::string key = "needs ";
  for (size_t at = reason.find(key); at != std::string::npos;
       at = reason.find(key, at + 1)) {
    size_t used = 0;
    try {
      const double gib = std::stod(reason.substr(at + key.size()), &used);
      if (reason.compare(at + key.size() + used, 4, " GiB") == 0) return gib;
    } catch (const std::exception&) {
    }
  }
  return -1;
}

// Sharding as a remedy is the FSDP layout on today's hardware: it needs
// the memory per device the FSDP distribution proposal needs there (8B
// full fine-tune on 2 x A100 40GB: neither fits, by the same host memory
// its offloaded optimizer would need; on 4 both fit).
TEST_F(ReviewConsistencyTest, ShardingRemedyNeedsWhatTheFsdpLayoutNeeds) {
  PlanRequest r;
  r.workload.model_name = "llama-3.1-8b";  // the catalog preset's shape
  r.workload.framework = Framework::kPytorch;
  r.workload.dataset_tokens = 5e8;
  r.workload.training_method = TrainingMethod::kFullFineTune;
  r.as_of = "2026-09-26";
  r.current_setup.hardware = "a2-highgpu-2g";
  r.current_setup.accelerator_count = 2;
  r.current_setup.node_count = 1;
  r.current_setup.strategy = Strategy::kDataParallel;
  r.current_setup.symptoms = {Symptom::kOutOfMemory};
  const ReviewResponse out =
      Review(ReviewOf(r, {Remedy("shard", RemedyKind::kShardOptimizerState),
                          Dist("fsdp", Strategy::kFsdp)}));
  const ProposalVerdict* shard = ByLabel(out, "shard");
  const ProposalVerdict* fsdp = ByLabel(out, "fsdp");
  ASSERT_TRUE(shard && fsdp) << Verdicts(out);
  EXPECT_EQ(shard->verdict, Verdict::kRejected) << Verdicts(out);
  EXPECT_EQ(fsdp->verdict, Verdict::kRejected) << Verdicts(out);
  EXPECT_TRUE(testutil::Has(*shard, ReasonCode::kHbmTooSmall)) << shard->reason;
  const double shard_gib = NeededGib(shard->reason);
  EXPECT_GT(shard_gib, 0) << shard->reason;
  EXPECT_EQ(shard_gib, NeededGib(fsdp->reason)) << Verdicts(out);
  // On four (40960 MiB each) both fit, with the same layout: the same
  // point.
  r.current_setup.hardware = "a2-highgpu-4g";
  r.current_setup.accelerator_count = 4;
  const ReviewResponse four =
      Review(ReviewOf(r, {Remedy("shard", RemedyKind::kShardOptimizerState),
                          Dist("fsdp", Strategy::kFsdp)}));
  const ProposalVerdict* shard4 = ByLabel(four, "shard");
  const ProposalVerdict* fsdp4 = ByLabel(four, "fsdp");
  ASSERT_TRUE(shard4 && fsdp4 && shard4->plan && fsdp4->plan) << Verdicts(four);
  EXPECT_EQ(shard4->plan->distribution.optimizer_offload,
            fsdp4->plan->distribution.optimizer_offload)
      << Verdicts(four);
  EXPECT_EQ(shard4->plan->estimates.memory_per_device.total_gib,
            fsdp4->plan->estimates.memory_per_device.total_gib);
  EXPECT_EQ(shard4->plan->estimates.step_time_seconds,
            fsdp4->plan->estimates.step_time_seconds);
  // On eight of them the same layout fits, and so does the remedy.
  r.current_setup.hardware = "a2-highgpu-8g";
  r.current_setup.accelerator_count = 8;
  const ProposalVerdict eight = Only(
      Review(ReviewOf(r, {Remedy("shard", RemedyKind::kShardOptimizerState)})));
  EXPECT_NE(eight.verdict, Verdict::kRejected) << eight.reason;
  ASSERT_TRUE(eight.plan.has_value()) << eight.reason;
  EXPECT_EQ(eight.plan->distribution.strategy, Strategy::kFsdp);
}

TEST_F(ReviewConsistencyTest, OutOfMemoryRemediesDoNotDependOnProposalOrder) {
  EXPECT_EQ(ExpectOrderIndependent(
                ReviewOf(OutOfMemory7B(Strategy::kFsdp, Objective::kMinTime),
                         {Remedy("more", RemedyKind::kAddAccelerators),
                          Remedy("recompute", RemedyKind::kActivationRecompute),
                          Remedy("bigger", RemedyKind::kMoreMemoryPerDevice),
                          MoveTo("h100", "a3-highgpu-8g")}),
                "out-of-memory remedies"),
            24);
}

// PlanTraining reports its sharded-optimizer data parallelism (ZeRO-1) as
// DATA_PARALLEL with its degree; restated so beside its hardware, it selects
// the same point (it was judged as plain DDP, whose replica does not fit:
// HBM_TOO_SMALL). A team's stated DDP stays DDP (AProposalRestatingTodays-
// SetupIsTakenToFit).
TEST_F(ReviewConsistencyTest, APlansDataParallelLayoutRestatedSelectsItsPoint) {
  PlanRequest job;
  job.workload.framework = Framework::kPytorch;
  job.workload.model_name = "llama-2-13b";
  job.workload.dataset_tokens = 1e11;
  job.workload.global_batch_size = 1024;
  job.workload.checkpoints = true;
  job.goal.deadline_hours = 400;
  job.constraints.allowed_platforms = {Platform::kGpu};
  job.as_of = "2026-09-26";
  const PlanResponse plan = planner_->Plan(job);
  ASSERT_TRUE(plan.recommendation.has_value()) << plan.no_plan_reason;
  const Plan& rec = *plan.recommendation;
  ASSERT_EQ(rec.distribution.strategy, Strategy::kDataParallel);
  ASSERT_EQ(rec.distribution.zero_stage, 1);
  Proposal restated = FromPlan("restated", rec);
  restated.hardware->layout = DistributionProposal{};
  restated.hardware->layout->strategy = rec.distribution.strategy;
  restated.hardware->layout->data_parallelism =
      rec.distribution.data_parallelism;
  const ReviewResponse r = Review(ReviewOf(job, {restated}));
  ASSERT_EQ(r.verdicts.size(), 1u);
  const ProposalVerdict& v = r.verdicts[0];
  EXPECT_EQ(v.verdict, Verdict::kRecommended) << v.reason;
  ASSERT_TRUE(v.plan.has_value()) << v.reason;
  EXPECT_EQ(v.plan->distribution.zero_stage, 1);
  EXPECT_TRUE(NearRel(v.plan->estimates.on_demand_cost_usd.expected,
                      rec.estimates.on_demand_cost_usd.expected))
      << Brief(*v.plan) << " vs " << Brief(rec);

  // The layout alone, as a distribution proposal: not rejected for a full
  // replica it does not need.
  Proposal layout;
  layout.label = "layout";
  layout.distribution = *restated.hardware->layout;
  const ReviewResponse d = Review(ReviewOf(job, {layout}));
  ASSERT_EQ(d.verdicts.size(), 1u);
  EXPECT_NE(d.verdicts[0].verdict, Verdict::kRejected) << d.verdicts[0].reason;
  EXPECT_FALSE(testutil::Has(d.verdicts[0], ReasonCode::kHbmTooSmall))
      << d.verdicts[0].reason;
}

}  // namespace
}  // namespace accelplan::planner
