#include "planner/time_model.h"

#include <string>

#include "gtest/gtest.h"

namespace accelplan::planner {
namespace {

constexpr double kDay = 86400;

// Transformer Math 101 / Scaling Book: C = 6·P·D, 8·P·D with full remat.
TEST(TimeModelTest, TrainingFlopsAreSixOrEightPD) {
  EXPECT_DOUBLE_EQ(TrainingFlops(7e9, 1e12, Recompute::kNone), 4.2e22);
  EXPECT_DOUBLE_EQ(TrainingFlops(7e9, 1e12, Recompute::kSelective), 4.2e22);
  EXPECT_DOUBLE_EQ(TrainingFlops(7e9, 1e12, Recompute::kFull), 5.6e22);
  // Offload keeps only the layer inputs (on the host): full's recompute.
  EXPECT_DOUBLE_EQ(TrainingFlops(7e9, 1e12, Recompute::kOffload), 5.6e22);
}

// Attention positions on the non-causal basis: s per global layer; a local
// layer of window W < s at 2W - W^2/s (twice its causal W - W^2/2s); every
// global_attention_every-th layer global. Gemma 3 12B at 32k (5 local : 1
// global, W 1,024): 8 x 32768 + 40 x 2016.
TEST(TimeModelTest, AttendedPositionsCountTheWindow) {
  TransformerShape shape;
  shape.layers = 48;
  EXPECT_DOUBLE_EQ(AttendedPositions(shape, 32768), 48.0 * 32768);
  shape.sliding_window = 1024;
  shape.global_attention_every = 6;
  EXPECT_DOUBLE_EQ(AttendedPositions(shape, 32768), 8.0 * 32768 + 40.0 * 2016);
  // A window as long as the sequence spares nothing.
  EXPECT_DOUBLE_EQ(AttendedPositions(shape, 1024), 48.0 * 1024);
  // Every layer local (Mistral 7B v0.1), or every layer global.
  shape.global_attention_every = 0;
  EXPECT_DOUBLE_EQ(AttendedPositions(shape, 4096), 48.0 * (2048 - 256));
  shape.global_attention_every = 1;
  EXPECT_DOUBLE_EQ(AttendedPositions(shape, 4096), 48.0 * 4096);
  // Without layers or a sequence: no attention term.
  shape.layers = 0;
  EXPECT_DOUBLE_EQ(AttendedPositions(shape, 4096), 0);
}

// Scaling Book (planner-anchors §8): LLaMA-3-70B, 15T tokens on 4,096 H100
// (989.5 TFLOPS bf16 dense) at 45% MFU ≈ 40 days.
TEST(TimeModelTest, ReproducesScalingBookLlama3On4096H100) {
  const double flops = TrainingFlops(70e9, 15e12, Recompute::kNone);
  const double days = ComputeSeconds(flops, 4096, 989.5e12, 0.45) / kDay;
  EXPECT_NEAR(days, 40, 4);
  StepTimeInput in;
  in.flops_per_step_total = flops;
  in.devices = 4096;
  in.peak_flops_per_device = 989.5e12;
  in.mfu_low = 0.45;
  in.mfu_high = 0.45;
  const StepTimeEstimate step = EstimateStepTime(in);
  EXPECT_NEAR(step.step_seconds_expected / kDay, 40, 4);
  EXPECT_DOUBLE_EQ(step.communication_fraction, 0);
}

// Scaling Book: the same run on TPU v5p (4.59e14) at 50% MFU on ~18.8k
// chips takes ≈ 17 days; within 10%.
TEST(TimeModelTest, ReproducesScalingBookLlama3OnV5p) {
  const double flops = TrainingFlops(70e9, 15e12, Recompute::kNone);
  const double days = ComputeSeconds(flops, 18800, 4.59e14, 0.5) / kDay;
  EXPECT_NEAR(days, 17, 1.7);
}

// nccl-tests PERFORMANCE.md via llm-analysis: ring all-reduce moves
// 2(n−1)/n of the bytes, all-gather and reduce-scatter (n−1)/n.
TEST(TimeModelTest, RingCollectiveVolumes) {
  EXPECT_DOUBLE_EQ(RingAllReduceSeconds(8e9, 8, 1e9), 14.0);
  EXPECT_DOUBLE_EQ(AllGatherSeconds(8e9, 8, 1e9), 7.0);
  EXPECT_DOUBLE_EQ(ReduceScatterSeconds(8e9, 4, 2e9), 3.0);
  EXPECT_DOUBLE_EQ(RingAllReduceSeconds(8e9, 1, 1e9), 0);
  EXPECT_DOUBLE_EQ(RingAllReduceSeconds(8e9, 8, 0), 0);
}

// Vertex AI Reduction Server blog: doubles all-reduce algorithm bandwidth,
// unless the reducers' aggregate bandwidth is too small.
TEST(TimeModelTest, ReductionServerHalvesAllReduceWhenReducersSuffice) {
  const double ring = RingAllReduceSeconds(14e9, 16, 12.5e9);
  const double rs =
      ReductionServerAllReduceSeconds(14e9, 16, 12.5e9, 16 * 4e9 * 4);
  EXPECT_NEAR(ring / rs, 2 * 15.0 / 16, 1e-9);
  // Under-provisioned reducers: 16 workers × 14 GB over 32 GB/s in total.
  EXPECT_DOUBLE_EQ(ReductionServerAllReduceSeconds(14e9, 16, 12.5e9, 32e9),
                   16 * 14e9 / 32e9);
}

StepTimeInput DpStep(double comm_bytes) {
  StepTimeInput in;
  in.flops_per_step_total = 8 * 1e15 * 0.5 * 10;  // 10 s at 50% on 8 × 1e15
  in.devices = 8;
  in.peak_flops_per_device = 1e15;
  in.mfu_low = 0.5;
  in.mfu_high = 0.5;
  in.bytes_allreduce_per_step = comm_bytes;
  in.link_bytes_per_s = 1e9;
  in.ring_size = 8;
  return in;
}

// Overlap model: DP traffic hides behind compute until it exceeds it.
TEST(TimeModelTest, DataParallelCommHidesBehindComputeUpToComputeTime) {
  const StepTimeEstimate hidden = EstimateStepTime(DpStep(4e9));  // 7 s comm
  EXPECT_DOUBLE_EQ(hidden.compute_seconds_fast, 10);
  EXPECT_DOUBLE_EQ(hidden.overlappable_comm_seconds, 7);
  EXPECT_DOUBLE_EQ(hidden.step_seconds_expected, 10);
  EXPECT_DOUBLE_EQ(hidden.communication_fraction, 0);

  const StepTimeEstimate bound = EstimateStepTime(DpStep(16e9));  // 28 s
  EXPECT_DOUBLE_EQ(bound.exposed_comm_seconds_fast, 18);
  EXPECT_DOUBLE_EQ(bound.step_seconds_expected, 28);
  EXPECT_NEAR(bound.communication_fraction, 18.0 / 28, 1e-12);
  EXPECT_NEAR(bound.comm_to_compute_ratio, 2.8, 1e-12);
}

TEST(TimeModelTest, TensorParallelTrafficIsAlwaysExposed) {
  StepTimeInput in = DpStep(0);
  in.tp_bytes_allreduce_per_step = 4e9;
  in.tp_size = 8;
  in.tp_link_bytes_per_s = 1e9;
  const StepTimeEstimate e = EstimateStepTime(in);
  EXPECT_DOUBLE_EQ(e.critical_comm_seconds, 7);
  EXPECT_DOUBLE_EQ(e.step_seconds_expected, 17);
}

// A calibrated band holds the TP traffic its runs paid for, no more: a band
// measured on FSDP-only runs (MfuRange::tensor_parallel 1) leaves a TP-8
// layout's all-reduces on the critical path; a band with TP-8 runs hides
// them behind compute.
TEST(TimeModelTest, ABandHoldsOnlyTheTensorParallelismItsRunsUsed) {
  StepTimeInput in = DpStep(0);
  in.tp_bytes_allreduce_per_step = 4e9;
  in.tp_size = 8;
  in.tp_link_bytes_per_s = 1e9;  // 7 s of TP traffic, 10 s of compute
  in.overheads_in_mfu = true;
  in.tp_in_mfu = false;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).critical_comm_seconds, 7);
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_expected, 17);
  in.tp_in_mfu = true;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).critical_comm_seconds, 0);
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_expected, 10);
}

// A pipeline's bubble idles a stage's TP all-reduces as it idles its
// compute: 4 stages of 1 micro-batch are 4 slots of (compute + TP), not
// 4 slots of compute plus one of TP (arXiv:2104.04473 §2.2).
TEST(TimeModelTest, PipelineBubbleStretchesTensorParallelTraffic) {
  StepTimeInput in = DpStep(0);
  in.tp_bytes_allreduce_per_step = 4e9;
  in.tp_size = 8;
  in.tp_link_bytes_per_s = 1e9;
  in.pipeline_stages = 4;
  in.microbatches = 1;
  const StepTimeEstimate e = EstimateStepTime(in);
  EXPECT_DOUBLE_EQ(e.critical_comm_seconds, 4 * 7);
  EXPECT_DOUBLE_EQ(e.step_seconds_expected, 4 * (10 + 7));
}

// Offloaded activations cross the host link beside compute and beside the
// collectives (their own link): hidden while shorter than both, the step
// when longer; never counted as communication.
TEST(TimeModelTest, HostOffloadTransferBoundsTheStepWithoutAddingToIt) {
  StepTimeInput in = DpStep(4e9);  // 10 s compute, 7 s DP traffic
  in.host_link_bytes_per_s = 1e9;
  in.host_transfer_bytes_per_step = 6e9;  // 6 s: hidden
  StepTimeEstimate e = EstimateStepTime(in);
  EXPECT_DOUBLE_EQ(e.host_transfer_seconds, 6);
  EXPECT_DOUBLE_EQ(e.step_seconds_expected, 10);
  in.host_transfer_bytes_per_step = 12e9;  // 12 s: the step
  e = EstimateStepTime(in);
  EXPECT_DOUBLE_EQ(e.step_seconds_fast, 12);
  EXPECT_DOUBLE_EQ(e.step_seconds_expected, 12);
  EXPECT_DOUBLE_EQ(e.communication_fraction, 0);
  // TP traffic stays on the critical path after it.
  in.tp_bytes_allreduce_per_step = 4e9;
  in.tp_size = 8;
  in.tp_link_bytes_per_s = 1e9;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_expected, 12 + 7);
  // No link known: nothing bounds.
  in = DpStep(4e9);
  in.host_transfer_bytes_per_step = 12e9;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_expected, 10);
}

// An offloaded optimizer's host step follows the backward pass: it adds
// to the step at every MFU, whatever hides behind the compute, and is not
// communication.
TEST(TimeModelTest, HostOptimizerStepAddsToTheStep) {
  StepTimeInput in = DpStep(4e9);  // 10 s compute, 7 s DP traffic
  const StepTimeEstimate without = EstimateStepTime(in);
  in.host_optimizer_seconds = 5;
  const StepTimeEstimate e = EstimateStepTime(in);
  EXPECT_DOUBLE_EQ(e.host_optimizer_seconds, 5);
  EXPECT_DOUBLE_EQ(e.step_seconds_fast, without.step_seconds_fast + 5);
  EXPECT_DOUBLE_EQ(e.step_seconds_expected, 15);
  EXPECT_DOUBLE_EQ(e.step_seconds_slow, without.step_seconds_slow + 5);
  EXPECT_DOUBLE_EQ(e.exposed_comm_seconds_fast,
                   without.exposed_comm_seconds_fast);
  EXPECT_DOUBLE_EQ(e.communication_fraction, 0);
}

TEST(TimeModelTest, FsdpGathersTwiceAndReduceScattersOnce) {
  StepTimeInput in = DpStep(0);
  in.fsdp_bytes = 8e9;
  in.fsdp_size = 8;
  in.fsdp_link_bytes_per_s = 1e9;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).overlappable_comm_seconds, 21);
}

// A stated GRADIENT_SYNC_BOUND puts the data-parallel group's network
// traffic on the critical path: DDP's all-reduce, and all of FSDP's (its
// two gathers ride the same network as its reduce-scatter), so sharding,
// at 1.5x DDP's bytes, cannot look like the cure. Without the symptom both
// hide behind compute.
TEST(TimeModelTest, GradientSyncBoundExposesEveryDataParallelCollective) {
  StepTimeInput ddp = DpStep(4e9);  // 10 s compute, 7 s all-reduce
  StepTimeInput fsdp = DpStep(0);
  fsdp.fsdp_bytes = 4e9;
  fsdp.fsdp_size = 8;
  fsdp.fsdp_link_bytes_per_s = 4e9 / 3;  // 3 x 2.625 s
  EXPECT_DOUBLE_EQ(EstimateStepTime(ddp).step_seconds_expected, 10);
  EXPECT_DOUBLE_EQ(EstimateStepTime(fsdp).step_seconds_expected, 10);
  ddp.gradient_sync_exposed = fsdp.gradient_sync_exposed = true;
  EXPECT_DOUBLE_EQ(EstimateStepTime(ddp).step_seconds_expected, 17);
  EXPECT_DOUBLE_EQ(EstimateStepTime(fsdp).step_seconds_expected, 17.875);
  // FSDP inside one NVLink domain (HSDP's shard groups): the network-bound
  // sync does not slow it; it hides behind compute again.
  fsdp.fsdp_over_network = false;
  EXPECT_DOUBLE_EQ(EstimateStepTime(fsdp).step_seconds_expected, 10);
}

// Each gradient-accumulation micro-step gathers and reduce-scatters again
// (PyTorch FSDP, https://github.com/pytorch/pytorch/pull/126166; ZeRO-3).
TEST(TimeModelTest, FsdpGathersEveryMicroStep) {
  StepTimeInput in = DpStep(0);
  in.fsdp_bytes = 8e9;
  in.fsdp_size = 8;
  in.fsdp_link_bytes_per_s = 1e9;
  in.fsdp_passes = 4;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).overlappable_comm_seconds, 4 * 21);
}

// GPipe / Megatron 1F1B: bubble = (p − 1)/(m + p − 1) of the step.
TEST(TimeModelTest, PipelineBubbleStretchesCompute) {
  EXPECT_DOUBLE_EQ(PipelineBubbleFraction(1, 8), 0);
  EXPECT_DOUBLE_EQ(PipelineBubbleFraction(4, 13), 3.0 / 16);
  StepTimeInput in = DpStep(0);
  in.pipeline_stages = 4;
  in.microbatches = 13;
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_expected, 10 * 16.0 / 13);
  in.microbatches = 0;  // default 4 per stage: 3/19 bubble
  EXPECT_DOUBLE_EQ(EstimateStepTime(in).step_seconds_fast, 10 * 19.0 / 16);
}

TEST(TimeModelTest, MfuRangeOrdersFastAndSlowSteps) {
  StepTimeInput in = DpStep(0);
  in.mfu_low = 0.25;
  in.mfu_high = 0.5;
  const StepTimeEstimate e = EstimateStepTime(in);
  EXPECT_DOUBLE_EQ(e.step_seconds_fast, 10);
  EXPECT_DOUBLE_EQ(e.step_seconds_slow, 20);
  EXPECT_NEAR(e.step_seconds_expected, 10 * 0.5 / 0.375, 1e-9);
}

TEST(TimeModelTest, DefaultMfuBands) {
  const MfuRange tpu =
      DefaultMfu(DeviceClass::kTpu, ModelKind::kDenseTransformer);
  EXPECT_DOUBLE_EQ(tpu.low, 0.35);
  EXPECT_DOUBLE_EQ(tpu.high, 0.55);
  EXPECT_DOUBLE_EQ(tpu.expected(), 0.45);
  // Other work on a pre-Ampere GPU keeps the generic band; a CNN there has
  // NVIDIA's V100 ResNet-50 runs at each precision's peak (the generic
  // 25-45% band before).
  EXPECT_DOUBLE_EQ(
      DefaultMfu(DeviceClass::kOlderGpu, ModelKind::kRecommender).high, 0.45);
  const MfuRange v100_amp = DefaultMfu(DeviceClass::kOlderGpu, ModelKind::kCnn,
                                       Precision::kFp16Mixed);
  EXPECT_NEAR(v100_amp.low, 0.204 * 0.8, 0.002);
  EXPECT_NEAR(v100_amp.high, 0.236 * 1.2, 0.002);
  EXPECT_TRUE(v100_amp.published);
  const MfuRange v100_fp32 =
      DefaultMfu(DeviceClass::kOlderGpu, ModelKind::kCnn, Precision::kFp32);
  EXPECT_NEAR(v100_fp32.low, 0.561 * 0.8, 0.002);
  EXPECT_NEAR(v100_fp32.high, 0.577 * 1.2, 0.002);
  EXPECT_TRUE(v100_fp32.published);
  EXPECT_FALSE(DefaultMfu(DeviceClass::kOlderGpu, ModelKind::kCnn,
                          Precision::kFp64Required)
                   .published);
  const MfuRange cpu = DefaultMfu(DeviceClass::kCpu, ModelKind::kTabular);
  EXPECT_DOUBLE_EQ(cpu.low, 0.05);
  EXPECT_DOUBLE_EQ(cpu.high, 0.15);
  EXPECT_NE(std::string(cpu.source).find("fp32"), std::string::npos);
  EXPECT_LT(
      DefaultMfu(DeviceClass::kModernGpu, ModelKind::kRecommender).high,
      DefaultMfu(DeviceClass::kModernGpu, ModelKind::kDenseTransformer).high);
  // A CNN on a modern GPU: NVIDIA's ResNet-50 runs (16.3% and 19.4% of an
  // A100's peak) widened by the run spread; on a TPU Google's MLPerf
  // ResNet-50 runs on v4 (30.8% and 31.0%), likewise (the generic 25-45%
  // band before); other non-transformer work keeps the generic band.
  const MfuRange cnn = DefaultMfu(DeviceClass::kModernGpu, ModelKind::kCnn);
  EXPECT_NEAR(cnn.low, 0.163 * 0.8, 0.002);
  EXPECT_NEAR(cnn.high, 0.194 * 1.2, 0.002);
  EXPECT_TRUE(cnn.published);
  const MfuRange tpu_cnn = DefaultMfu(DeviceClass::kTpu, ModelKind::kCnn);
  EXPECT_NEAR(tpu_cnn.low, 0.308 * 0.8, 0.002);
  EXPECT_NEAR(tpu_cnn.high, 0.310 * 1.2, 0.002);
  EXPECT_TRUE(tpu_cnn.published);
  EXPECT_DOUBLE_EQ(DefaultMfu(DeviceClass::kTpu, ModelKind::kRecommender).low,
                   0.25);
  EXPECT_FALSE(
      DefaultMfu(DeviceClass::kTpu, ModelKind::kRecommender).published);
}

// Scaling Book training.md: DP/FSDP compute-bound iff B/X > C/W_ici:
// v5p 4.59e14 / 1.8e11 = 2,550 tokens per chip on one axis, 850 on three.
TEST(TimeModelTest, ScalingBookDataParallelThresholdTpuV5p) {
  const BoundCheck one_axis = DataParallelBound(2000, 4.59e14, 1.8e11);
  EXPECT_NEAR(one_axis.required, 2550, 1);
  EXPECT_TRUE(one_axis.communication_bound);
  EXPECT_NEAR(one_axis.ratio, 2000 / 2550.0, 1e-3);
  const BoundCheck three_axes = DataParallelBound(2000, 4.59e14, 3 * 1.8e11);
  EXPECT_NEAR(three_axes.required, 850, 1);
  EXPECT_FALSE(three_axes.communication_bound);
}

// Scaling Book gpus.md: H100 within a node 990e12/450e9 = 2,200 tokens per
// GPU, across nodes 990e12/400e9 = 2,475; two nodes halve it (≈1,237).
TEST(TimeModelTest, ScalingBookDataParallelThresholdH100) {
  EXPECT_NEAR(DataParallelBound(4096, 990e12, 450e9).required, 2200, 1);
  const BoundCheck across = DataParallelBound(2048, 990e12, 400e9);
  EXPECT_NEAR(across.required, 2475, 1);
  EXPECT_TRUE(across.communication_bound);
  const BoundCheck two_nodes = DataParallelBound(2048, 990e12, 400e9, 2);
  EXPECT_NEAR(two_nodes.required, 1237.5, 1);
  EXPECT_FALSE(two_nodes.communication_bound);
}

// Scaling Book gpus.md: TP over Y is comms-bound when Y > F/2475 (H100 beyond
// a node); F = 28,000 (LLaMA-3) gives ≈ 11-way.
TEST(TimeModelTest, ScalingBookTensorParallelLimit) {
  const BoundCheck tp8 = TensorParallelBound(8, 28000, 990e12, 400e9);
  EXPECT_NEAR(tp8.required, 11.3, 0.05);
  EXPECT_FALSE(tp8.communication_bound);
  EXPECT_TRUE(
      TensorParallelBound(16, 28000, 990e12, 400e9).communication_bound);
  // TPU v5p with one ICI axis: Y < F/2550.
  EXPECT_NEAR(TensorParallelBound(4, 28000, 4.59e14, 1.8e11).required,
              28000 / 2550.0, 0.01);
}

// Scaling Book training.md: FSDP + TP needs B/N > 2·2550²/F ≈ 400 tokens.
TEST(TimeModelTest, ScalingBookFsdpPlusTensorParallelFloor) {
  const BoundCheck check = FsdpTensorParallelBound(300, 32768, 4.59e14, 1.8e11);
  EXPECT_NEAR(check.required, 2 * 2550.0 * 2550.0 / 32768, 1);
  EXPECT_TRUE(check.communication_bound);
}

// Scaling Book training.md: Multislice DCN data parallelism needs a per-slice
// batch above C/W_dcn ≈ 76,000 tokens for a v5p pod (4 chips per host,
// 2.5e10 B/s DCN per host → 73,440 with the book's per-chip numbers).
TEST(TimeModelTest, ScalingBookDcnDataParallelThreshold) {
  const BoundCheck pod =
      DcnDataParallelBound(65536, 8960, 4.59e14, 2240, 2.5e10);
  EXPECT_NEAR(pod.required, 76000, 0.05 * 76000);
  EXPECT_TRUE(pod.communication_bound);
  EXPECT_FALSE(DcnDataParallelBound(1 << 20, 256, 4.59e14, 64, 2.5e10)
                   .communication_bound);
}

// Collective latency joins its collective's term: the gradient all-reduce's
// hides behind compute up to the compute time, TP's and the pipeline's
// hand-overs lengthen the step whatever the compute.
TEST(TimeModelTest, LatencyHidesWhereItsCollectiveHides) {
  StepTimeInput in;
  in.flops_per_step_total = 1e15;
  in.devices = 10;
  in.peak_flops_per_device = 1e15;
  in.mfu_low = in.mfu_high = 0.5;  // compute: 0.2 s
  const double compute = EstimateStepTime(in).step_seconds_expected;
  ASSERT_NEAR(compute, 0.2, 1e-12);
  StepTimeInput dp = in;
  dp.dp_latency_seconds = 0.1;
  EXPECT_NEAR(EstimateStepTime(dp).step_seconds_expected, compute, 1e-12);
  dp.dp_latency_seconds = 0.3;
  EXPECT_NEAR(EstimateStepTime(dp).step_seconds_expected, 0.3, 1e-12);
  StepTimeInput tp = in;
  tp.tp_latency_seconds = 0.01;
  EXPECT_NEAR(EstimateStepTime(tp).step_seconds_expected, 0.21, 1e-12);
  StepTimeInput pp = in;
  pp.pp_latency_seconds = 0.02;
  EXPECT_NEAR(EstimateStepTime(pp).step_seconds_expected, 0.22, 1e-12);
}

}  // namespace
}  // namespace accelplan::planner
