// Every value the planner assumes when a request leaves it out, in one
// place, each with its source or marked "product choice". MakeJob (used by
// PlanTraining and ReviewPlan alike) reads them from here and states each
// one a plan relied on in the plan's `assumptions`; docs/planner.md §1 lists
// them. No other file in planner/ may re-type one of these numbers.
//
// A default only describes the job; it never decides on its own: a
// configuration that would fail only because of an assumed value is kept
// and warned about (SPEC §4 "Defaults never decide").
#ifndef ACCELPLAN_PLANNER_DEFAULTS_H_
#define ACCELPLAN_PLANNER_DEFAULTS_H_

namespace accelplan::planner {

// torchvision's ResNet-50 (https://docs.pytorch.org/vision/stable/models.html):
// multiply-adds of one 224x224 forward pass, and parameters. The network the
// CNN MFU bands are measured on (planner/time_model.cc), and the one whose
// FLOPs per parameter a CNN that states none is counted at.
inline constexpr double kResNet50ForwardMultiplyAdds = 4.09e9;
inline constexpr double kResNet50Parameters = 25.56e6;

// A default value and where it comes from ("product choice: ..." when it is
// ours rather than a published figure).
struct SourcedDefault {
  double value;
  const char* source;
};

struct PlannerDefaults {
  // ---- memory
  SourcedDefault headroom_fraction{
      0.10, "SPEC §4: headroom defaults to 10% of device memory"};

  // ---- goal
  // Only MIN_COST assumes a deadline; MIN_TIME and BALANCED have none.
  SourcedDefault min_cost_deadline_hours{
      30 * 24.0, "SPEC §4: MIN_COST with no deadline assumes 30 days"};

  // ---- batch, sequence and work unit
  // A sequence model (a dense transformer, a transformer shape, a sequence
  // length or a dataset size in tokens) counts its batch in tokens; any
  // other model counts examples. Examples are never counted as tokens.
  SourcedDefault sequence_length{
      2048,
      "product choice: the context length of GPT-3 (Brown et al. 2020, "
      "arXiv:2005.14165, Table 2.1) and LLaMA (Touvron et al. 2023, "
      "arXiv:2302.13971)"};
  // A dense transformer given by its parameter count alone: d_model this
  // many times its layer count, heads of attention_head_width, FFN
  // 4 x d_model, and 12 * layers * d_model^2 parameters.
  SourcedDefault hidden_per_layer{
      128,
      "GPT-3's aspect ratio (Brown et al. 2020, arXiv:2005.14165, Table 2.1: "
      "6.7B 32 x 4096, 13B 40 x 5140, 175B 96 x 12288)"};
  SourcedDefault attention_head_width{
      128, "GPT-3's d_head from 6.7B to 175B (arXiv:2005.14165, Table 2.1)"};
  SourcedDefault batch_tokens{
      1048576,
      "product choice: 2^20 tokens, inside the 0.5M-3.2M tokens per step of "
      "GPT-3 (arXiv:2005.14165, Table 2.1) and under LLaMA's 4M "
      "(arXiv:2302.13971)"};
  SourcedDefault batch_examples{
      1024,
      "product choice: the total batch the Cloud TPU performance guide finds "
      "most efficient (a multiple of 1024, "
      "https://cloud.google.com/tpu/docs/performance-guide)"};
  // FLOPs per parameter per unit of work (token or example) for training:
  // 2 forward + 4 backward.
  SourcedDefault training_flops_per_param{
      6,
      "6·P·D (Transformer Math 101; Scaling Book transformers.md); for an "
      "example of a non-sequence model it is exact for fully connected "
      "layers (a convolution reuses each weight at every position: "
      "cnn_forward_flops_per_param)"};
  // A convolutional network states no forward pass: its FLOPs per example
  // are counted from its parameters at the ratio of the network the CNN MFU
  // bands are measured on (planner/time_model.cc), not at 2·P.
  SourcedDefault cnn_forward_flops_per_param{
      2 * kResNet50ForwardMultiplyAdds / kResNet50Parameters,
      "ResNet-50's forward pass per parameter at 224x224 (torchvision: 4.09 G "
      "multiply-adds, 25.56 M parameters, "
      "https://docs.pytorch.org/vision/stable/models.html), the network "
      "accelplan's CNN efficiency is measured on; torchvision's "
      "classification CNNs span 146 (EfficientNet-B0: 0.386 G, 5.29 M) to "
      "710 (DenseNet-121: 2.834 G, 7.98 M) FLOPs per parameter"};
  SourcedDefault epochs{1, "product choice: one pass over the data set"};
  // ---- mixture of experts
  SourcedDefault experts_per_token{
      2,
      "top-2 routing of GShard (Lepikhin et al. 2020, arXiv:2006.16668) and "
      "Mixtral (arXiv:2401.04088), used when neither the request nor the "
      "model preset gives k"};

  // ---- checkpoints
  SourcedDefault checkpoint_interval_minutes{
      60, "product choice: an hourly checkpoint when the job checkpoints "
          "but states no interval"};

  // ---- classical ML (XGBoost, scikit-learn, LightGBM)
  SourcedDefault boosting_rounds{
      100,
      "LightGBM's num_iterations default, "
      "https://lightgbm.readthedocs.io/en/v4.6.0/Parameters.html, and "
      "XGBoost's scikit-learn n_estimators default"};
  SourcedDefault classical_bytes_per_example{
      1000, "product choice: 1 KB per example when only a count is given"};
  SourcedDefault classical_memory_factor{
      2, "product choice: the working set is twice the data set"};

  // ---- plausibility (issue 13)
  SourcedDefault implausible_deadline_factor{
      10,
      "product choice: an expected time over 10x the deadline is flagged "
      "IMPLAUSIBLE_ESTIMATE"};
  SourcedDefault implausible_hours_without_deadline{
      365 * 24.0,
      "product choice: with no deadline given, an expected time over a year "
      "is flagged IMPLAUSIBLE_ESTIMATE"};
  // A parameter_count more than this many times, or under 1/this of, what
  // the stated transformer shape implies (its bounds already span gated and
  // plain MLPs, tied and untied embeddings) draws a warning.
  SourcedDefault shape_params_disagreement{
      2,
      "product choice: further off than the shape's own bounds by 2x is "
      "not rounding or an unstated part"};
};

inline constexpr PlannerDefaults kDefaults{};

// Freshness of the facts a plan uses, judged at as_of (SPEC §2).
struct FreshnessPolicy {
  // CATALOG_STALE: the catalog's data date is older than this at as_of.
  SourcedDefault catalog_stale_days{
      180, "SPEC §2: CATALOG_STALE when data_date is over 180 days before "
           "as_of"};
  // PRICES_STALE: the recommendation's price date is older than this.
  SourcedDefault prices_stale_days{
      90, "product choice (issue 17): list prices change a few times a "
          "year; a quarter-old price is worth a warning"};
};

inline constexpr FreshnessPolicy kFreshness{};

// Defaults of enumerated fields (their source is the API's own comment in
// proto/accelplan/v1/accelplan.proto or SPEC):
//   precision     BF16_MIXED ("PRECISION_UNSPECIFIED = 0; treated as
//                 BF16_MIXED"); FP32 for classical ML, which trains in fp32
//                 on CPUs and CUDA (product choice)
//   optimizer     ADAM ("treated as ADAM")
//   recompute     SELECTIVE for memory ("treated as SELECTIVE"); 6·P·D for
//                 compute unless FULL is asked or chosen to fit
//   method        PRE_TRAINING (SPEC §4: no method → the pre-training list)
//   objective     MIN_COST (SPEC §2: "MIN_COST — the default")
//   lora_rank     16 ("double lora_rank = 26; // 0: 16")
//   as_of         the caller's date (CallContext), else the catalog's
//   framework version  assumed to meet the catalog minimum, with a warning
//                 (SPEC §4)

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_DEFAULTS_H_
