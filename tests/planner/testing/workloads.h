// Workloads the planner rule tests share: a dense decoder pre-training job
// in JAX, bf16, full recompute, at a few sizes.
#ifndef ACCELPLAN_TESTS_PLANNER_TESTING_WORKLOADS_H_
#define ACCELPLAN_TESTS_PLANNER_TESTING_WORKLOADS_H_

#include "planner/types.h"

namespace accelplan::planner::testutil {

inline TransformerShape Shape(int layers, int hidden, int heads, int seq) {
  TransformerShape s;
  s.layers = layers;
  s.hidden_size = hidden;
  s.attention_heads = heads;
  s.sequence_length = seq;
  s.vocab_size = 50304;
  return s;
}

// Full recompute keeps activations small: the planner sizes one
// micro-batch as the whole per-replica batch (no gradient accumulation).
inline Workload Llm(double params, double tokens, TransformerShape shape) {
  Workload w;
  w.framework = Framework::kJax;
  w.model_kind = ModelKind::kDenseTransformer;
  w.parameter_count = params;
  w.transformer_shape = shape;
  w.dataset_tokens = tokens;
  w.global_batch_size = 512;
  w.precision = Precision::kBf16Mixed;
  w.training_method = TrainingMethod::kPreTraining;
  w.recompute = Recompute::kFull;
  return w;
}

// 1.3B GPT-style model: fits one 24 GB+ GPU for training.
inline Workload Small() { return Llm(1.3e9, 2.6e10, Shape(24, 2048, 16, 2048)); }
// 7B model.
inline Workload Medium() { return Llm(6.7e9, 1.4e11, Shape(32, 4096, 32, 2048)); }

}  // namespace accelplan::planner::testutil

#endif  // ACCELPLAN_TESTS_PLANNER_TESTING_WORKLOADS_H_
