// The --help entries of the job flags (job_flags.cc applies them).
#include <vector>

#include "client/cli/requests.h"

namespace accelplan::cli {
namespace {

std::vector<FlagSpec> ModelAndDataSpecs() {
  return {
      // The model.
      {"model", "NAME", "",
       "A catalog model preset, e.g. llama-3.1-8b (case-insensitive); "
       "explicit flags such as --params override it. Sets "
       "workload.model_name."},
      {"framework", "NAME", "",
       "Training framework: jax|tensorflow|pytorch|xgboost|scikit_learn|"
       "lightgbm|other. Sets workload.framework."},
      {"framework_version", "VERSION", "",
       "Framework version, e.g. 2.15. Sets workload.framework_version."},
      {"pytorch_xla", "", "false",
       "PyTorch may run on TPUs through PyTorch/XLA. Sets "
       "workload.pytorch_xla_ok."},
      {"model_kind", "NAME", "",
       "dense_transformer|cnn|recommender|tabular|other. Sets "
       "workload.model_kind."},
      {"params", "N", "",
       "Parameter count: 7e9, 7000000000, 7B, 70b, 1.5T. Sets "
       "workload.parameter_count."},
      {"active_params", "N", "",
       "Mixture of experts: parameters active per token (12.9B for Mixtral "
       "8x7B). Sets workload.active_parameter_count."},
      {"experts", "N", "",
       "Mixture of experts: experts per MoE layer. Sets "
       "workload.num_experts."},
      {"experts_per_token", "K", "",
       "Mixture of experts: experts each token is routed to (top-k). Sets "
       "workload.experts_per_token (unset: the preset's, else 2)."},
      {"forward_flops", "N", "",
       "FLOPs of one forward pass over one example, a multiply-add counting "
       "2 (8.2e9 for ResNet-50 at 224x224), for a model counted in "
       "examples (a CNN): training counts 3x. Sets "
       "workload.forward_flops_per_example (unset: a CNN's is estimated "
       "at ResNet-50's 320 x parameters, any other model's is 2 x "
       "parameters)."},
      {"method", "NAME", "",
       "Training method: pre_training|full_fine_tune|lora|qlora. Sets "
       "workload.training_method (unset: pre_training)."},
      {"precision", "NAME", "",
       "Numeric precision: bf16_mixed|fp16_mixed|fp32|fp8|fp64_required. "
       "Sets workload.precision (unset: bf16_mixed)."},
      {"optimizer", "NAME", "",
       "Optimizer and its state: adam|adam_fp32_grads|adam_8bit|"
       "sgd_momentum|adafactor|adam_bf16 (bf16 weights, grads, m and v: "
       "8 B/param). Sets workload.optimizer (unset: adam)."},
      {"recompute", "NAME", "",
       "Activation recompute: none|selective|full|offload (full recompute, "
       "checkpoints in host memory). Sets workload.recompute (unset: "
       "selective, full where needed to fit)."},
      {"seq_len", "TOKENS", "",
       "Sequence length in tokens. Sets "
       "workload.transformer_shape.sequence_length."},
      // The data.
      {"tokens", "N", "",
       "Dataset size in tokens per epoch: 2e8, 200M, 20B. Sets "
       "workload.dataset_tokens; without a dataset size the deadline and "
       "budget are not checked."},
      {"examples", "N", "",
       "Dataset size in examples per epoch (1M, 5e6). Sets "
       "workload.dataset_examples."},
      {"dataset_gib", "GIB", "",
       "Dataset size in GiB (classical ML: XGBoost, scikit-learn). Sets "
       "workload.dataset_gib."},
      {"epochs", "N", "",
       "Passes over the dataset. Sets workload.epochs "
       "(unset: 1)."},
      {"steps", "N", "", "Optimizer steps. Sets workload.steps."},
      {"batch", "N", "",
       "Global batch size in sequences (examples) per step. Sets "
       "workload.global_batch_size (unset: the planner assumes one and "
       "says so)."},
      {"micro_batch", "N", "",
       "Sequences per device per micro-step. Sets "
       "workload.micro_batch_size (unset: the planner chooses)."},
      {"checkpoints", "", "false",
       "The job checkpoints (so Spot and flex-start can resume). Sets "
       "workload.checkpoints."},
      {"checkpoint_minutes", "MINUTES", "",
       "Checkpoint interval; implies --checkpoints. Sets "
       "workload.checkpoint_interval_minutes."},
  };
}

std::vector<FlagSpec> GoalAndConstraintSpecs() {
  return {
      // The goal.
      {"objective", "NAME", "",
       "Objective: min_cost|min_time|balanced. Sets goal.objective (unset: "
       "min_cost)."},
      {"deadline_hours", "HOURS", "",
       "Wall-clock deadline of the training job in hours. Sets "
       "goal.deadline_hours (unset: none)."},
      {"hard_deadline", "", "false",
       "The deadline cannot slip (Spot then counts as a risk). Sets "
       "goal.hard_deadline."},
      {"budget_usd", "USD", "",
       "Budget in US dollars (5000, 5k). Sets goal.budget_usd (unset: "
       "none)."},
      // Constraints and where it runs.
      {"hardware", "cpu|gpu|tpu|edge", "",
       "Hardware families to consider; comma-separated or repeated. Adds to "
       "constraints.allowed_platforms (unset: all).",
       true},
      {"run_on", "vertex|gke|compute_engine", "",
       "Where the job runs: Vertex AI (Agent Platform) serverless training, "
       "GKE or Compute Engine. Sets constraints.run_platform (unset: any). "
       "Two different values are an error."},
      {"platform", "NAME[,NAME]", "",
       "Older spelling of both: cpu|gpu|tpu|edge as --hardware, "
       "vertex|gke|compute_engine as --run_on; conflicting places to run "
       "are an error.",
       true},
      {"series", "NAME[,NAME]", "",
       "Only these machine series, e.g. G4 or \"TPU v5e\". Adds to "
       "constraints.allowed_series (unset: all).",
       true},
      {"single_host", "", "false",
       "Only plans that fit one host. Sets constraints.single_host_only."},
      {"max_accelerators", "N", "",
       "At most this many accelerators. Sets constraints.max_accelerators "
       "(unset: no limit)."},
      {"spot", "", "false",
       "Spot VMs are acceptable. Sets constraints.spot_allowed."},
      {"flex_start", "", "false",
       "DWS flex-start is acceptable. Sets "
       "constraints.flex_start_allowed."},
      {"reservation", "", "false",
       "A reservation is available. Sets "
       "constraints.reservation_available."},
      {"keep_current", "", "false",
       "Keep the current hardware (--current). Sets "
       "constraints.keep_current_hardware."},
      {"region", "REGION", "",
       "Region for the launch command (prices stay US list prices). Sets "
       "constraints.region (unset: the price region)."},
  };
}

std::vector<FlagSpec> CurrentSetupSpecs() {
  return {
      // The current setup (troubleshooting a job that already runs).
      {"current", "HW", "",
       "Current hardware: a machine type (a3-highgpu-8g), accelerator "
       "(nvidia-tesla-k80, tpu-v5e) or series (N1); legacy hardware is "
       "accepted. Sets current_setup.hardware."},
      {"nodes", "N", "",
       "Current node (VM) count. Sets "
       "current_setup.node_count."},
      {"accelerators_per_node", "N", "",
       "Current accelerators per node. Sets "
       "current_setup.accelerator_count."},
      {"slices", "N", "",
       "Current TPU slice count. Sets "
       "current_setup.slice_count."},
      {"topology", "AxB[xC]", "",
       "Current TPU topology per slice, e.g. "
       "2x2x4. Sets current_setup.tpu_topology."},
      {"current_strategy", "NAME", "",
       "Current distribution: data_parallel|fsdp|tensor_parallel|"
       "pipeline_parallel|hybrid|multislice|horovod|... Sets "
       "current_setup.strategy."},
      {"current_batch", "N", "",
       "Current global batch size. Sets "
       "current_setup.current_global_batch_size."},
      {"nccl", "", "false",
       "The job's all-reduce uses NCCL. Sets current_setup.uses_nccl."},
      {"observed_hours", "HOURS", "",
       "How long the job takes today. Sets current_setup.observed_hours."},
      {"symptom", "NAME", "",
       "What goes wrong: gradient_sync_bound|input_bound|heavy_padding|"
       "out_of_memory|low_utilization|edge_ops_on_cpu; comma-separated or "
       "repeated. Adds to current_setup.symptoms.",
       true},
      {"as_of", "YYYY-MM-DD", "",
       "Judge end of support and the catalog's age at this date. Sets "
       "as_of (unset: today, UTC)."},
  };
}

}  // namespace

std::vector<FlagSpec> WorkloadFlagSpecs() {
  std::vector<FlagSpec> specs = ModelAndDataSpecs();
  for (auto part : {GoalAndConstraintSpecs(), CurrentSetupSpecs()}) {
    specs.insert(specs.end(), part.begin(), part.end());
  }
  return specs;
}

}  // namespace accelplan::cli
