// The planner's policy: every constant that decides which configurations
// are searched and how they are ranked, in one place, each with its source
// or marked "product choice". Request defaults (what a request leaves out)
// live in planner/defaults.h; this file holds the rules of the search and
// of the one scorer (planner/scorer.h). docs/planner.md §"Policy" lists
// them. No other file in planner/ may re-type one of these numbers.
#ifndef ACCELPLAN_PLANNER_POLICY_H_
#define ACCELPLAN_PLANNER_POLICY_H_

#include "planner/defaults.h"

namespace accelplan::planner {

struct PlannerPolicy {
  // ---- memory
  SourcedDefault headroom_fraction = kDefaults.headroom_fraction;
  // Host memory a VM gives RECOMPUTE_OFFLOAD: its memory over its
  // accelerators, less this share (the OS, the runtime and the input
  // pipeline live there too).
  SourcedDefault host_headroom_fraction{
      0.10, "product choice: host memory keeps the device's 10% headroom"};
  // The host <-> accelerator link (PCIe) per accelerator, each way: what
  // offloaded activations cross, and GPU peer traffic in a VM without
  // NVLink. One value for every accelerator: the catalog stores no host
  // link per machine type, and this is the book's typical (lower) figure.
  SourcedDefault pcie_bytes_per_s{
      1.5e10, "Scaling Book tpus.md (jax-ml/scaling-book 0819a7d): \"PCIe "
              "bandwidth is typically around 1.5e10 bytes / second per "
              "chip\" (v4 16 GB/s each way; v6e 32 GB/s)"};

  // ---- calibrated efficiency (planner/efficiency.h)
  // A class's band is the min-max of its published runs, each end moved
  // out by this share: the smallest multiple of 0.05 for which at least 80%
  // of the fit-half runs fall inside the band of the *other* fit runs of
  // their class (leave-one-out, scripts/calibration/derive_efficiency.py
  // --loo). A class with one run would otherwise have no width.
  SourcedDefault mfu_run_spread{
      0.20, "fit: leave-one-out over the fit half of the published runs "
            "(docs/planner.md, Calibration)"};
  // A class with no published run uses the nearest class that has some
  // (same generation, then any stack, then the platform), widened by this
  // share more on each side, with an ASSUMPTION naming it.
  SourcedDefault mfu_fallback_widening{
      0.10, "product choice: a borrowed band is 10% wider on each side"};

  // QLoRA dequantizes its 4-bit base to 16 bits in every pass over it, so
  // its step is slower than LoRA's on the same model, hardware and batch:
  // the min and max of Lit-GPT's four measured pairs on one A100 40GB
  // (phi-1.5 1.62 -> 1.77 min per 1k iterations, StableLM 3B 1.24 -> 1.82,
  // Llama 2 7B 2.36 -> 3.68, Llama 2 13B 3.19 -> 6.38), as a slowdown of
  // LoRA's efficiency band.
  SourcedDefault qlora_slowdown_min{
      1.09, "Lit-GPT resource tables (Lit-GPT 8641822, bnb.nf4 vs none, "
            "https://github.com/Lightning-AI/litgpt/blob/main/tutorials/"
            "resource-tables.md): phi-1.5 1.77 / 1.62 min"};
  SourcedDefault qlora_slowdown_max{
      2.00, "Lit-GPT resource tables (as above): Llama 2 13B 6.38 / 3.19 min"};

  // ---- hard rules
  SourcedDefault min_fp64_flops{
      5e12, "SPEC §4: fp64-required work needs an fp64 peak of 5 TFLOPS or "
            "more"};
  SourcedDefault end_of_support_warning_days{
      365, "SPEC §4: end of support within 12 months is a warning and loses "
           "ties"};

  // ---- provisioning (planner/provisioning.h)
  SourcedDefault spot_uncheckpointed_max_hours{
      1.0, "SPEC §4: Spot for a job that does not checkpoint and runs longer "
           "than an hour is PREEMPTION_RISK (a preemption loses all work)"};
  // Google publishes no Spot preemption rate: Spot VMs are excess capacity
  // whose "availability varies with usage" and which Compute Engine "might
  // reclaim ... at any time" (https://cloud.google.com/compute/docs/
  // instances/spot); per-zone rates exist only in the Preview capacity
  // advice API. A synchronous job restarts whenever any of its VMs is
  // preempted, so the rate is taken per job.
  SourcedDefault spot_preemptions_per_hour{
      1.0 / 24, "product choice: one preemption of the job per 24 hours of "
                "running (Google publishes no Spot preemption rate, "
                "https://cloud.google.com/compute/docs/instances/spot)"};
  SourcedDefault spot_restart_hours{
      10.0 / 60, "product choice: 10 minutes per preemption to recreate the "
                 "VMs, restart the job and reload its checkpoint"};
  // Every job with a data set pays a start-up before its first step:
  // creating the VMs, pulling the container, initialising the runtime and
  // loading the first batches. It is billed (the VMs run) and counts
  // against the deadline; it does not grow with the device count. Google
  // names it: persistent resources suit "many short-lived training jobs
  // where the actual training time is shorter than the job startup time".
  SourcedDefault job_startup_hours{
      spot_restart_hours.value,
      "product choice: 10 minutes, as a Spot restart; Google publishes no "
      "figure, only that a job's start-up is the time \"needed for compute "
      "resource creation\" and can exceed a short job's training "
      "(https://cloud.google.com/vertex-ai/docs/training/"
      "persistent-resource-overview)"};
  SourcedDefault flex_start_max_run_hours{
      7 * 24.0, "Flex-start VMs \"run for up to seven days\" "
                "(https://cloud.google.com/compute/docs/instances/"
                "about-flex-start-vms); Vertex DWS jobs need a timeout of at "
                "most 7 days (https://cloud.google.com/vertex-ai/docs/"
                "training/schedule-jobs-dws)"};
  SourcedDefault flex_start_wait_hours{
      2.0, "flex-start capacity requests \"persist in a queue for up to two "
           "hours\" (https://cloud.google.com/blog/products/compute/"
           "introducing-flex-start-vms-for-the-compute-engine-instance-api); "
           "product choice: the whole wait counts against the deadline"};

  // ---- rules that compare candidates
  SourcedDefault oversize_factor{
      4, "SPEC §4: a shape whose smallest offer has at least 4x the "
         "accelerators the job needs is OVERSIZED_FOR_WORKLOAD"};
  SourcedDefault workload_list_cost_slack{
      1.25, "SPEC §4: a listed GPU series wins when it costs no more than 25% "
            "more"};
  SourcedDefault small_job_hours{
      1.0, "product choice: Google's CPU profile (\"simple models that train "
           "quickly\", https://cloud.google.com/tpu/docs/intro-to-tpu) "
           "read as a job a CPU VM finishes within an hour"};

  // ---- search caps: the largest sizes searched. A plan whose best point
  // sits at a cap says so (ASSUMPTION), so a cap never decides silently.
  SourcedDefault max_gpus{
      8192, "product choice: the largest GPU cluster searched (Meta trained "
            "Llama 3 405B on 16,384 H100s, arXiv:2407.21783; 8,192 keeps "
            "the search bounded at half that)"};
  SourcedDefault max_gpu_vms{
      512, "product choice: the most VMs of one GPU shape searched"};
  SourcedDefault max_cpu_vms{
      64, "product choice: the most CPU VMs a distributed XGBoost/LightGBM "
          "job is searched over"};
  SourcedDefault max_slices{
      32, "product choice: the most Multislice slices searched"};
  // Every count up to this many units is searched, then its multiples, so
  // every pipeline depth up to it divides the unit count evenly.
  SourcedDefault dense_units{
      32, "product choice: pipeline depths up to 32 (Megatron-LM, "
          "arXiv:2104.04473 Table 1 uses up to 64 stages at 3,072 GPUs)"};
  // Count refinement (planner/count_refinement.h) samples every this-many
  // counts of a window first, then every count beside the best samples.
  SourcedDefault refine_stride{
      4, "product choice: a divisor of dense_units; the brute-force "
         "property test (tests/planner/engine_space_property_test.cc) "
         "bounds what it misses"};
  SourcedDefault max_tensor_parallel{
      8, "Megatron-LM (arXiv:2104.04473 §3.3): tensor parallelism inside a "
         "server's NVLink domain (8 GPUs); on TPU a product choice, the "
         "same degree inside the ICI domain"};

  // ---- the scorer
  // Two scores closer than this (relative) are a tie; ties go to fewer
  // devices, then the tie-breaks below.
  SourcedDefault tie_tolerance{
      1e-9, "product choice: float noise, not a difference"};
  // Two times within this fraction are equally fast: the time model's
  // checks against published runs hold to about ±20% (mfu_run_spread), so
  // a lead of a few percent is not one it can tell apart. MIN_TIME: a
  // point within it of the fastest point is as fast, and the cheapest of
  // those wins (Score; paying for the lead spread short jobs over
  // thousands of devices to save seconds of a start-up). Today's runtime
  // as the assumed deadline: a point within it of today's is not slower
  // (Spot's restarts cost a checkpointed job a few percent).
  SourcedDefault equal_time_fraction{
      0.05,
      "product choice: a twentieth of the fastest time, a quarter of "
      "the time model's run spread"};
  // BALANCED: cost / cheapest + time / fastest. A candidate without a price
  // counts its cost as twice the cheapest.
  SourcedDefault balanced_unpriced_cost_ratio{
      2, "product choice: an unknown price counts as twice the cheapest"};
  // A CNN point with fewer examples per accelerator per step than this is
  // warned about (its MFU band comes from runs at full per-GPU batches).
  SourcedDefault cnn_small_batch_per_device{
      16,
      "NVIDIA DeepLearningExamples ResNet-50 v1.5 throughput scans (the only "
      "per-batch scans published, inference): at 16 images per GPU 60% "
      "(A100 80GB, MXNet AMP) and 70% (V100 16GB, MXNet AMP) of the best "
      "throughput, 35% (V100 16GB, PyTorch AMP); "
      "https://github.com/NVIDIA/DeepLearningExamples MxNet/Classification/"
      "RN50v1.5 and PyTorch/Classification/ConvNets/resnet50v1.5 READMEs"};
  SourcedDefault max_alternatives{
      8, "product choice: the alternatives one plan lists"};
};

inline constexpr PlannerPolicy kPolicy{};

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_POLICY_H_
