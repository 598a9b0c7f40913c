// RECOMPUTE_OFFLOAD and ADAM_BF16 in the planner (issue 14), each both
// ways, on a synthetic catalog of two TPUs identical but for the VM's host
// memory: offloading the layer inputs fits a job whose selective
// activations do not fit device memory, the offloaded bytes are checked
// against the host memory per chip, and their PCIe transfer bounds the
// step.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/policy.h"
#include "planner/types.h"
#include "planner/util.h"
#include "tests/planner/testing/synthetic_catalog.h"
#include "tests/planner/testing/synthetic_fixture.h"

namespace accelplan::planner {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testutil::SyntheticCatalog;

// Trillium-like chips (32 GiB HBM, 918 TFLOPS, 4 per VM): "TPU Z1" with
// 180 GiB of host memory per chip (ct6e-standard-4t: 720 GiB over 4),
// "TPU Z2" with 1 GiB.
catalog::CatalogPtr OffloadCatalog() {
  testutil::TpuSpec big{.accelerator = "ztpu-1",
                        .name = "TPU Z1",
                        .memory_gib = 32,
                        .peak_bf16_tflops = 918,
                        .ici_gbps = 800,
                        .host_memory_gib_per_chip = 180,
                        .topologies = {"4x8"},
                        .on_demand_hourly_per_chip = 2.7};
  testutil::TpuSpec small = big;
  small.accelerator = "ztpu-2";
  small.name = "TPU Z2";
  small.host_memory_gib_per_chip = 1;
  return SyntheticCatalog().AddTpu(big).AddTpu(small).Build();
}

class OffloadRulesTest
    : public testutil::SyntheticPlannerTest<OffloadCatalog> {};

// Llama 3.1 70B at sequence 8192, 64 sequences a step, bf16 Adam state
// (MaxText weight_dtype: bfloat16): the v6e-32 recipe's job.
ReviewRequest Llama70bOn32(const std::string& accelerator,
                           Recompute recompute) {
  ReviewRequest q;
  Workload& w = q.workload;
  w.framework = Framework::kJax;
  w.model_kind = ModelKind::kDenseTransformer;
  w.parameter_count = 7.06e10;
  TransformerShape& s = w.transformer_shape;
  s.layers = 80;
  s.hidden_size = 8192;
  s.attention_heads = 64;
  s.num_kv_heads = 8;
  s.ffn_hidden_size = 28672;
  s.vocab_size = 128256;
  s.sequence_length = 8192;
  s.gated_ffn = true;
  w.precision = Precision::kBf16Mixed;
  w.optimizer = Optimizer::kAdamBf16;
  w.recompute = recompute;
  w.global_batch_size = 64;
  w.steps = 100;
  q.as_of = "2026-09-26";
  Proposal p;
  p.label = accelerator;
  p.hardware = HardwareProposal{};
  p.hardware->platform = Platform::kTpu;
  p.hardware->accelerator = accelerator;
  p.hardware->count = 32;
  q.proposals.push_back(p);
  return q;
}

TEST_F(OffloadRulesTest, OffloadFitsWhereSelectiveRecomputeDoesNot) {
  const ReviewResponse selective =
      Review(Llama70bOn32("ztpu-1", Recompute::kSelective));
  ASSERT_EQ(selective.verdicts.size(), 1u);
  EXPECT_EQ(selective.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_THAT(selective.verdicts[0].codes, Contains(ReasonCode::kHbmTooSmall));
  EXPECT_FALSE(selective.verdicts[0].plan.has_value());

  const ReviewResponse offload =
      Review(Llama70bOn32("ztpu-1", Recompute::kOffload));
  ASSERT_EQ(offload.verdicts.size(), 1u);
  EXPECT_NE(offload.verdicts[0].verdict, Verdict::kRejected)
      << offload.verdicts[0].reason;
  ASSERT_TRUE(offload.verdicts[0].plan.has_value());
  const planner::Plan& plan = *offload.verdicts[0].plan;
  const MemoryBreakdown& m = plan.estimates.memory_per_device;
  EXPECT_LE(m.total_gib, m.usable_gib);
  EXPECT_GT(m.host_offload_gib, 0);
  EXPECT_LE(m.host_offload_gib, m.host_usable_gib);
  EXPECT_NEAR(m.host_usable_gib,
              180 * (1 - kPolicy.host_headroom_fraction.value), 1e-9);
  // bf16 Adam: m and v at 2 B/param each, sharded over the 32 chips (the
  // weights and gradients also carry ZeRO-3's gathered largest layer).
  EXPECT_NEAR(m.optimizer_gib, 7.06e10 * 4 / 32 / kGiB, 1e-9);
  EXPECT_THAT(plan.distribution.notes, HasSubstr("Activation offload"));
  std::string assumptions;
  for (const Reason& w : offload.warnings) {
    if (w.code == ReasonCode::kAssumption) assumptions += w.message + "\n";
  }
  EXPECT_THAT(assumptions, HasSubstr("RECOMPUTE_OFFLOAD"));
  EXPECT_THAT(assumptions, HasSubstr("overlap compute"));
  EXPECT_THAT(assumptions, HasSubstr("ADAM_BF16"));
}

TEST_F(OffloadRulesTest, OffloadIsRefusedWhenHostMemoryCannotHoldIt) {
  const ReviewResponse small =
      Review(Llama70bOn32("ztpu-2", Recompute::kOffload));
  ASSERT_EQ(small.verdicts.size(), 1u);
  EXPECT_EQ(small.verdicts[0].verdict, Verdict::kRejected);
  EXPECT_THAT(small.verdicts[0].codes, Contains(ReasonCode::kHbmTooSmall));
  EXPECT_THAT(small.verdicts[0].reason, HasSubstr("host memory"));
  // The same job with its activations on the device (full recompute)
  // does not need the host: it fits the same chips.
  const ReviewResponse full = Review(Llama70bOn32("ztpu-2", Recompute::kFull));
  EXPECT_NE(full.verdicts[0].verdict, Verdict::kRejected)
      << full.verdicts[0].reason;
}

// The offloaded inputs cross PCIe (kPolicy.pcie_bytes_per_s) out and back
// every step: 2 x layers x 2·s·h bytes x sequences per chip. Behind a
// 70B model's compute it is hidden; a narrow model computes less per byte
// of layer input than PCIe carries, and the transfer is its step — slower
// than the same job under full recompute, which keeps the inputs on chip.
double TransferSeconds(const Workload& w, int chips) {
  const TransformerShape& s = w.transformer_shape;
  return 2.0 * s.layers * 2 * s.sequence_length * s.hidden_size *
         (static_cast<double>(w.global_batch_size) / chips) /
         kPolicy.pcie_bytes_per_s.value;
}

double StepSeconds(const ReviewRequest& q) {
  const ReviewResponse r = OffloadRulesTest::Review(q);
  EXPECT_TRUE(r.verdicts[0].plan.has_value()) << r.verdicts[0].reason;
  return r.verdicts[0].plan ? r.verdicts[0].plan->estimates.step_time_seconds
                            : 0;
}

TEST_F(OffloadRulesTest, PcieTransferBoundsTheStep) {
  const ReviewRequest big = Llama70bOn32("ztpu-1", Recompute::kOffload);
  EXPECT_GT(StepSeconds(big), 2 * TransferSeconds(big.workload, 32));

  ReviewRequest narrow = big;
  TransformerShape& s = narrow.workload.transformer_shape;
  s.layers = 24;
  s.hidden_size = 512;
  s.attention_heads = 8;
  s.num_kv_heads = 8;
  s.ffn_hidden_size = 2048;
  s.vocab_size = 32000;
  s.sequence_length = 2048;
  s.gated_ffn = false;
  narrow.workload.parameter_count = 9.2e7;
  const double transfer = TransferSeconds(narrow.workload, 32);
  const double offloaded = StepSeconds(narrow);
  EXPECT_GE(offloaded, transfer);
  EXPECT_LT(offloaded, 1.01 * transfer);
  narrow.workload.recompute = Recompute::kFull;
  EXPECT_LT(StepSeconds(narrow), 0.9 * transfer);
}

}  // namespace
}  // namespace accelplan::planner
