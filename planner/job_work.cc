// Stage 2, the work of a job (planner/job_work.h).
#include "planner/job_work.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/collective_latency.h"
#include "planner/defaults.h"
#include "planner/engine_common.h"
#include "planner/policy.h"
#include "planner/time_model.h"
#include "planner/util.h"

namespace accelplan::planner::internal {
namespace {

// 1048576 -> "1,048,576" (whole numbers, for assumption lines).
std::string Grouped(double v) {
  std::string digits = absl::StrFormat("%.0f", v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    const size_t left = digits.size() - i;  // digits from here to the end
    if (i > 0 && left % 3 == 0 && digits[i - 1] != '-') out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// A boosting round is a step (one tree: LightGBM's num_iterations,
// XGBoost's num_boost_round) and a pass over the data (an epoch); stated
// steps win over epochs, as they do for deep learning. Says which it used.
double BoostingRounds(const Workload& w, Job& job) {
  const auto g = [](double v) { return absl::StrFormat("%g", v); };
  if (w.steps > 0) {
    const double rounds = static_cast<double>(w.steps);
    job.assumptions.push_back(absl::StrCat(
        "Classical ML: ", g(rounds),
        " boosting rounds (the stated steps, one tree each)",
        w.epochs > 0 && w.epochs != rounds
            ? absl::StrCat("; the stated ", g(w.epochs),
                           " epochs are not used (steps override epochs)")
            : "",
        "."));
    return rounds;
  }
  if (w.epochs > 0) {
    job.assumptions.push_back(absl::StrCat(
        "Classical ML: ", g(w.epochs),
        " boosting rounds (the stated epochs), each a pass over the data."));
    return w.epochs;
  }
  job.assumptions.push_back(absl::StrFormat(
      "Boosting rounds not given (steps or epochs): %.0f assumed (%s).",
      kDefaults.boosting_rounds.value, kDefaults.boosting_rounds.source));
  return kDefaults.boosting_rounds.value;
}

// Classical ML counts bytes of training data, timed per boosting round
// (planner/tree_boosting.h): no FLOP count. A pass over the data is a
// round, and the rounds are the stated steps or epochs, else the
// libraries' default.
// Returns false: the rounds have their own assumption line, not the epochs'.
bool ResolveClassicalWork(const Workload& w, Job& job) {
  const double batch = static_cast<double>(w.global_batch_size);
  job.unit = "bytes";
  double bytes = w.dataset_gib * kGiB;
  if (bytes <= 0 && w.dataset_examples > 0) {
    bytes = w.dataset_examples * kDefaults.classical_bytes_per_example.value;
    job.assumptions.push_back(absl::StrCat(
        "Dataset size in bytes not given: 1 KB per example assumed (",
        kDefaults.classical_bytes_per_example.source, ")."));
  }
  job.flops_per_unit = 0;
  job.classical_data_bytes = bytes;
  if (bytes > 0) {
    job.has_dataset = true;
    job.tokens = bytes * BoostingRounds(w, job);
  }
  if (w.forward_flops_per_example > 0) {
    job.assumptions.push_back(
        "forward_flops_per_example is not used: classical ML work is counted "
        "in bytes of training data.");
  }
  // Classical training has no step: a nominal one of a default batch of
  // examples keeps the internal throughput (bytes/s) in one unit; none of
  // it reaches the response (no step time or tokens/s for classical ML).
  job.tokens_per_step = kDefaults.batch_examples.value *
                        kDefaults.classical_bytes_per_example.value;
  job.batch_sequences = job.batch_given ? batch : kDefaults.batch_examples.value;
  return false;
}

// Steps of a stated batch fix the run's length, as a training loop's step
// limit overrides its epochs (Hugging Face TrainingArguments.max_steps:
// "Overrides num_train_epochs"); a data set stated beside them that gives
// another length is said. Steps without a batch train the assumed batch,
// unless a data set gives the length. The units the steps train; 0 when
// they do not decide it.
double StepsWork(const Workload& w, double dataset_units, Job& job) {
  if (w.steps <= 0) return 0;
  const double units = static_cast<double>(w.steps) * job.tokens_per_step;
  if (!job.batch_given && dataset_units > 0) {
    // The data set's length is stated; an assumed batch's is not.
    job.assumptions.push_back(absl::StrFormat(
        "workload.steps without a global batch: the data set and epochs "
        "give the run's length (%.3g %s), not %s steps of an assumed batch; "
        "state global_batch_size to plan on the steps.",
        dataset_units, job.unit, Grouped(static_cast<double>(w.steps))));
    return 0;
  }
  if (!job.batch_given) {
    // Steps of an unstated batch train the batch the plan assumes (said
    // beside it): the run's length is then known and its deadline and
    // budget are checked, where before the steps were dropped unsaid.
    job.assumptions.push_back(absl::StrFormat(
        "workload.steps without a global batch: %s steps of the assumed "
        "batch (%s %s each) train %.3g %s; state global_batch_size if the "
        "job's batch differs.",
        Grouped(static_cast<double>(w.steps)), Grouped(job.tokens_per_step),
        job.unit, units, job.unit));
  }
  if (dataset_units > 0 && std::abs(units - dataset_units) > 0.01 * units) {
    job.warnings.push_back(
        {ReasonCode::kAssumption,
         absl::StrFormat(
             "workload.steps and the data set give different run lengths: "
             "%s steps of %s %s train %.3g %s, %.2f passes over the %.3g %s "
             "the data set and epochs state. The steps are planned (a "
             "training loop's step limit overrides its epochs, as Hugging "
             "Face's max_steps does); leave steps unset to train on the "
             "whole data set.",
             Grouped(static_cast<double>(w.steps)), Grouped(job.tokens_per_step),
             job.unit, units, job.unit, units / dataset_units, dataset_units,
             job.unit)});
  }
  return units;
}

// A sequence model counts tokens, in sequences of the given or default
// length. Returns whether D counts epochs of a data set.
bool ResolveTokenWork(const Workload& w, double epochs, Job& job) {
  const TransformerShape& shape = w.transformer_shape;
  const double batch = static_cast<double>(w.global_batch_size);
  bool dataset_in_passes = false;
  job.unit = "tokens";
  int seq = shape.sequence_length;
  if (seq <= 0) {
    seq = static_cast<int>(kDefaults.sequence_length.value);
    job.assumptions.push_back(absl::StrCat(
        "No sequence length given for a sequence model: ", Grouped(seq),
        " tokens per sequence assumed (", kDefaults.sequence_length.source,
        ")."));
    // The activation model reads the shape's sequence length.
    if (shape.layers > 0) job.workload.transformer_shape.sequence_length = seq;
  }
  job.sequence_length = seq;
  if (job.batch_given) {
    job.tokens_per_step = batch * seq;
    job.batch_sequences = batch;
  } else {
    job.tokens_per_step = kDefaults.batch_tokens.value;
    job.batch_sequences = std::max(1.0, std::floor(job.tokens_per_step / seq));
    job.assumptions.push_back(absl::StrCat(
        "No global batch given: ", Grouped(job.tokens_per_step),
        " tokens per step assumed (", Grouped(job.batch_sequences),
        " sequences of ", Grouped(seq), " tokens; ",
        kDefaults.batch_tokens.source,
        "). A configuration with more data-parallel ranks than that is "
        "kept, with a warning that it needs a larger batch."));
  }
  const double dataset = w.dataset_tokens > 0     ? w.dataset_tokens * epochs
                         : w.dataset_examples > 0 ? w.dataset_examples * epochs * seq
                                                  : 0;
  if (const double by_steps = StepsWork(w, dataset, job); by_steps > 0) {
    job.tokens = by_steps;
  } else if (dataset > 0) {
    job.tokens = dataset;
    dataset_in_passes = true;
  }
  return dataset_in_passes;
}

// Any other deep learning model counts examples. Returns whether D counts
// epochs of a data set.
bool ResolveExampleWork(const Workload& w, double epochs, Job& job) {
  const double batch = static_cast<double>(w.global_batch_size);
  bool dataset_in_passes = false;
  job.unit = "examples";
  if (job.batch_given) {
    job.tokens_per_step = batch;
  } else {
    job.tokens_per_step = kDefaults.batch_examples.value;
    job.assumptions.push_back(absl::StrCat(
        "No global batch given: ", Grouped(job.tokens_per_step),
        " examples per step assumed (", kDefaults.batch_examples.source,
        ")."));
  }
  job.batch_sequences = job.tokens_per_step;
  const double dataset =
      w.dataset_examples > 0 ? w.dataset_examples * epochs : 0;
  if (const double by_steps = StepsWork(w, dataset, job); by_steps > 0) {
    job.tokens = by_steps;
  } else if (dataset > 0) {
    job.tokens = dataset;
    dataset_in_passes = true;
  }
  return dataset_in_passes;
}

// A convolutional network counted in examples that states no forward pass:
// it is estimated from its parameters (kDefaults.cnn_forward_flops_per_param),
// since it reuses each weight at every position of its input and so far
// exceeds 2·P.
bool EstimatesCnnForwardPass(const Workload& w, const Job& job) {
  return w.model_kind == ModelKind::kCnn && w.forward_flops_per_example <= 0 &&
         !job.sequence_model;
}

// A sliding window shorter than the sequence: which layers it spares, and
// the attention FLOPs it saves against every layer global.
void StateSlidingWindow(const TransformerShape& shape, Job& job) {
  const int s = job.sequence_length;
  if (shape.sliding_window <= 0 || shape.sliding_window >= s ||
      shape.layers <= 0) {
    return;
  }
  const int global = GlobalAttentionLayers(shape);
  if (global >= shape.layers) return;  // every layer global: no window
  // Attention alone: ModelFlopsPerToken with no parameters.
  const auto gflop = [&](double positions) {
    return ModelFlopsPerToken(0, AttentionWidth(shape), positions) / 1e9;
  };
  job.assumptions.push_back(absl::StrFormat(
      "Sliding-window attention: %d of %d layers attend within %d positions "
      "and %d over all %d; attention counted at %.3g GFLOP per token against "
      "%.3g with every layer global (a local layer on the same non-causal "
      "basis as a global one: 2W - W^2/s positions).",
      shape.layers - global, shape.layers, shape.sliding_window, global, s,
      gflop(AttendedPositions(shape, s)),
      gflop(static_cast<double>(shape.layers) * s)));
}

// How the FLOPs per unit were counted, every statement in one place: LoRA's
// frozen base, then for a model counted in examples 3x the stated forward
// pass (a CNN's estimated from its parameters), else 6·P. A stated pass
// counts only for a model counted in examples with a parameter count.
void StateFlopsPerUnit(const Workload& w, double active, Job& job) {
  const bool stated = w.forward_flops_per_example > 0;
  const bool counts_stated =
      stated && !job.sequence_model && job.model_size_known;
  const bool cnn_estimate =
      EstimatesCnnForwardPass(w, job) && job.model_size_known;
  const bool lora = job.method == TrainingMethod::kLora ||
                    job.method == TrainingMethod::kQlora;
  if (lora) {
    job.assumptions.push_back(
        counts_stated || cnn_estimate
            ? absl::StrCat(
                  "LoRA/QLoRA compute: 2 x the ",
                  counts_stated ? absl::StrFormat("stated %.3g",
                                                  w.forward_flops_per_example)
                                : "estimated",
                  " forward FLOPs per example (forward + the backward through "
                  "activations; no weight gradients for the frozen base).")
            : "LoRA/QLoRA compute: 4·P·D (no weight gradients for the frozen "
              "base).");
  }
  if (job.sequence_model && stated) {
    job.assumptions.push_back(
        "forward_flops_per_example is not used: the work of a sequence model "
        "is counted in tokens, its FLOPs from its parameters and shape.");
  }
  if (job.sequence_model) return;
  if (!job.model_size_known) {
    if (stated) {
      job.assumptions.push_back(
          "forward_flops_per_example is not used without a parameter count: "
          "memory per device, and so the device count, need the model's "
          "size.");
    }
    return;
  }
  // No parameters to count 6·P from: the tables-only warning says so
  // (planner/job_assumptions.cc WarnIfNoDataset).
  if (job.tables_only && !counts_stated) return;
  if (counts_stated) {
    // Under LoRA the LoRA line states the stated pass's multiple.
    if (!lora) {
      job.assumptions.push_back(absl::StrFormat(
          "Work counted in examples at 3 x the stated %.3g forward FLOPs per "
          "example (forward + a backward of about twice the forward).",
          w.forward_flops_per_example));
    }
    return;
  }
  if (cnn_estimate) {
    const double per_param = kDefaults.cnn_forward_flops_per_param.value;
    // Under LoRA the LoRA line states the pass's multiple.
    job.assumptions.push_back(absl::StrFormat(
        "Convolutional network without forward_flops_per_example: work "
        "counted in examples, its forward pass at %.0f FLOPs per parameter "
        "(%.3g per example; %s)%s.",
        per_param, per_param * active,
        kDefaults.cnn_forward_flops_per_param.source,
        lora ? "" : ", training 3 x that"));
    if (!job.on_device) {
      job.warnings.push_back(
          {ReasonCode::kAssumption,
           "The FLOPs per example of this convolutional network are "
           "estimated from its parameter count at ResNet-50's ratio; other "
           "networks differ by up to about 2x either way at 224x224 inputs, "
           "and the work grows with the input's pixels. State "
           "workload.forward_flops_per_example (--forward_flops) for its "
           "own count."});
    }
    return;
  }
  job.assumptions.push_back(absl::StrCat(
      "Not a sequence model (no transformer shape, sequence length or "
      "dataset in tokens): work counted in examples at 6·P training "
      "FLOPs per example (",
      kDefaults.training_flops_per_param.source, ")."));
}

// An encoder-decoder passes each token through one of its two stacks: an
// input token the encoder, a target token the decoder (T5, Raffel et al.
// 2020, arXiv:1910.10683 §3.2.2: an encoder-decoder of L + L layers costs
// about what a language model of L layers does). How the tokens split
// between inputs and targets is not stated, so a token is charged the
// larger stack's share of the model's FLOPs. Memory still holds every
// layer's activations at the full sequence length (an upper bound: the
// targets are usually shorter).
void ChargeOneStackPerToken(const TransformerShape& shape, Job& job) {
  if (shape.decoder_layers <= 0 || shape.decoder_layers >= shape.layers) {
    return;
  }
  const int encoder = shape.layers - shape.decoder_layers;
  const double share =
      static_cast<double>(std::max(encoder, shape.decoder_layers)) /
      shape.layers;
  job.flops_per_unit *= share;
  job.assumptions.push_back(absl::StrFormat(
      "Encoder-decoder (%d + %d layers): each token passes one stack, so it "
      "is charged %.0f%% of the model's FLOPs (the larger stack's share; T5, "
      "arXiv:1910.10683 §3.2.2); activations are held for every layer at "
      "the full sequence length.",
      encoder, shape.decoder_layers, share * 100));
}

// Deep learning: tokens or examples, then 6·P FLOPs per unit (adjusted for
// recompute, LoRA and an encoder-decoder's stacks). Returns whether D
// counts epochs of a data set.
bool ResolveDeepLearningWork(const Workload& w, double epochs, Job& job) {
  const TransformerShape& shape = w.transformer_shape;
  job.sequence_model = shape.sequence_length > 0 || shape.layers > 0 ||
                       shape.hidden_size > 0 ||
                       w.model_kind == ModelKind::kDenseTransformer ||
                       w.dataset_tokens > 0;
  const bool dataset_in_passes = job.sequence_model
                                     ? ResolveTokenWork(w, epochs, job)
                                     : ResolveExampleWork(w, epochs, job);
  // Model FLOPs per unit: 6·P (kDefaults' training_flops_per_param) of the
  // active parameters (a mixture of experts computes with its routed
  // experts only) plus attention, 12·L·(heads·head_dim)·s (PaLM appendix
  // B; heads·head_dim is h unless the shape sets head_dim), for a shape,
  // with a sliding window's local layers at their window (AttendedPositions).
  // Recompute is not added: the measured MFU bands already include it
  // (time_model.h, planner/efficiency.h).
  const double active = w.active_parameter_count > 0 &&
                                w.active_parameter_count < job.params
                            ? w.active_parameter_count
                            : job.params;
  // A forward pass per example, stated (or a CNN's, estimated): training is
  // forward + backward, the backward about twice the forward (Kaplan et al.
  // 2020, arXiv:2001.08361 §2.1, the same 2:4 split as 6·P).
  const double forward =
      job.sequence_model ? 0
      : EstimatesCnnForwardPass(w, job)
          ? kDefaults.cnn_forward_flops_per_param.value * active
          : w.forward_flops_per_example;
  if (w.model_kind == ModelKind::kCnn && !job.sequence_model) {
    job.cnn_forward_flops = forward;
  }
  const double dense =
      forward > 0 ? 3 * forward : TrainingFlops(active, 1.0, Recompute::kNone);
  job.flops_per_unit =
      job.sequence_model
          ? ModelFlopsPerToken(active, AttentionWidth(shape),
                               AttendedPositions(shape, job.sequence_length))
          : dense;
  if (job.method == TrainingMethod::kLora ||
      job.method == TrainingMethod::kQlora) {
    // Frozen base: no weight gradients, so ~4·P·D instead of 6·P·D (the
    // attention matmuls have no weights and keep their backward).
    job.flops_per_unit -= dense * 2.0 / 6.0;
  }
  if (job.sequence_model) ChargeOneStackPerToken(shape, job);
  StateFlopsPerUnit(w, active, job);
  if (job.sequence_model) StateSlidingWindow(shape, job);
  job.has_dataset =
      job.tokens > 0 && job.model_size_known && job.flops_per_unit > 0;
  if (job.has_dataset) job.training_flops = job.flops_per_unit * job.tokens;
  return dataset_in_passes;
}

}  // namespace

std::string FullRecomputeFlops(const Job& job) {
  const bool adapters = job.method == TrainingMethod::kLora ||
                        job.method == TrainingMethod::kQlora;
  return adapters ? "6·P·D against 4·P·D" : "8·P·D against 6·P·D";
}

std::string JobStartupAssumption() {
  return absl::StrFormat(
      "Every plan's hours and cost hold one %.0f-minute job start-up "
      "(creating the VMs, starting the job, loading the data), billed on "
      "every device (%s).",
      kPolicy.job_startup_hours.value * 60, kPolicy.job_startup_hours.source);
}

std::string CollectiveLatencyAssumption() {
  return absl::StrFormat(
      "Every collective pays a fixed latency besides its bytes: NCCL's "
      "latency model between GPUs (its tuning.cc LL figures), with a "
      "series' published network hop where the catalog has one and NCCL's "
      "own network figure elsewhere; %.0f µs per collective plus %.0f µs "
      "per ICI hop on a TPU; %.0f µs per DCN hop; gradients all-reduced in "
      "%.0f MiB buckets (%s), FSDP gathered per layer.",
      kLatency.ici_fixed_us.value, kLatency.ici_hop_us.value,
      kLatency.dcn_hop_us.value,
      kLatency.gradient_bucket_bytes.value / (1024 * 1024),
      kLatency.gradient_bucket_bytes.source);
}

// The unit of work, the global batch in that unit, the data set size D and
// the FLOPs per unit, with every default that was used stated. Examples are
// never counted as tokens: a sequence model counts tokens (sequences of the
// given or default length), any other model examples, classical ML bytes.
void ResolveWork(const Workload& w, Job& job) {
  // An on-device job is not trained here: its work is modelled, but no
  // statement about a training batch or FLOPs applies to it.
  const size_t stated_before = job.assumptions.size();
  const bool epochs_given = w.epochs > 0;
  const double epochs = epochs_given ? w.epochs : kDefaults.epochs.value;
  job.batch_given = w.global_batch_size > 0;
  const bool dataset_in_passes = job.classical
                                     ? ResolveClassicalWork(w, job)
                                     : ResolveDeepLearningWork(w, epochs, job);
  if (job.has_dataset && dataset_in_passes && !epochs_given) {
    job.assumptions.push_back(absl::StrCat("Epochs not given: 1 assumed (",
                                           kDefaults.epochs.source, ")."));
  }
  if (job.has_dataset) job.assumptions.push_back(JobStartupAssumption());
  if (!job.classical && job.model_size_known) {
    job.assumptions.push_back(CollectiveLatencyAssumption());
  }
  if (job.on_device) job.assumptions.resize(stated_before);
}

}  // namespace accelplan::planner::internal
