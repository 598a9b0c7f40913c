// A calibrated efficiency band holds the overheads its published runs paid
// (planner/efficiency.h): tensor parallelism only up to the largest degree
// those runs used. The production catalog's TPU v6e runs are FSDP-only
// (tpu-recipes' MaxText Llama 3.1 and GPT-3 runs), its TPU v5p runs reach
// TP 16 (MaxText's v5p README, the 1024B run).

#include <string>

#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using EfficiencyBandTest = CatalogPlannerTest;

// Llama 3.1 8B's published shape (https://huggingface.co/meta-llama/
// Llama-3.1-8B/blob/main/config.json), a JAX fine-tune of 64 sequences.
Workload Llama8B() {
  Workload w;
  w.framework = Framework::kJax;
  w.model_kind = ModelKind::kDenseTransformer;
  w.parameter_count = 8.03e9;
  TransformerShape& s = w.transformer_shape;
  s.layers = 32;
  s.hidden_size = 4096;
  s.ffn_hidden_size = 14336;
  s.attention_heads = 32;
  s.num_kv_heads = 8;
  s.vocab_size = 128256;
  s.sequence_length = 8192;
  w.training_method = TrainingMethod::kFullFineTune;
  w.precision = Precision::kBf16Mixed;
  w.optimizer = Optimizer::kAdam;
  w.global_batch_size = 64;
  w.steps = 100;
  return w;
}

Proposal Pinned(const std::string& machine, const std::string& topology,
                int fsdp, int tensor) {
  Proposal p;
  p.label = machine + " fsdp " + std::to_string(fsdp) + " tp " +
            std::to_string(tensor);
  HardwareProposal h;
  h.platform = Platform::kTpu;
  h.machine_type = machine;
  h.tpu_topology = topology;
  DistributionProposal d;
  d.strategy = Strategy::kFsdp;
  d.fsdp_parallelism = fsdp;
  d.tensor_parallelism = tensor;
  h.layout = d;
  p.hardware = h;
  return p;
}

// The communication fraction of each proposal, in order.
std::vector<double> CommunicationFractions(const Planner& planner,
                                           std::vector<Proposal> proposals) {
  ReviewRequest r;
  r.workload = Llama8B();
  r.as_of = "2026-09-26";
  r.constraints.reservation_available = true;
  r.proposals = std::move(proposals);
  const ReviewResponse out = planner.Review(r);
  std::vector<double> fractions;
  for (const ProposalVerdict& v : out.verdicts) {
    EXPECT_TRUE(v.plan.has_value()) << v.label << ": " << v.reason;
    fractions.push_back(v.plan ? v.plan->estimates.communication_fraction
                               : -1);
  }
  return fractions;
}

TEST_F(EfficiencyBandTest, TensorParallelTrafficBeyondTheBandsRunsIsCharged) {
  const std::vector<double> v6e = CommunicationFractions(
      *planner_, {Pinned("ct6e-standard-4t", "8x8", 8, 8),
                  Pinned("ct6e-standard-4t", "8x8", 64, 1)});
  ASSERT_EQ(v6e.size(), 2u);
  EXPECT_GT(v6e[0], 0.05) << "TP 8 on v6e, a band of FSDP-only runs";
  EXPECT_LT(v6e[1], 0.01) << "FSDP on v6e, as the band's runs";
  const std::vector<double> v5p = CommunicationFractions(
      *planner_, {Pinned("ct5p-hightpu-4t", "4x4x4", 8, 8)});
  ASSERT_EQ(v5p.size(), 1u);
  EXPECT_LT(v5p[0], 0.01) << "TP 8 on v5p, a band with TP 16 runs";
}

}  // namespace
}  // namespace accelplan::planner
