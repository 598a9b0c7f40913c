// Micro-batching and pipeline schedules (issue 14 item 2): for one layout,
// the few schedules worth estimating. Analytic, no search grid: the
// planner evaluates each returned schedule once (planner/layouts.cc).
//
// The model (Narayanan et al., "Efficient Large-Scale Language Model
// Training on GPU Clusters Using Megatron-LM", arXiv:2104.04473 §2.2):
//  - a replica's share of the global batch, B_r = ⌈batch / replicas⌉
//    sequences, runs as m = ⌈B_r / b⌉ micro-batches of b sequences
//    (Megatron: num_microbatches = global / (dp · micro_batch));
//  - 1F1B stretches the step by 1 + (p − 1)/m and keeps min(m, p)
//    micro-batches in flight on its first stage; interleaved 1F1B with v
//    model chunks per device stretches it by 1 + (p − 1)/(v·m), sends v×
//    the point-to-point traffic and keeps p + (p − 1)/v in flight
//    (planner/memory_model.h MicrobatchesInFlight);
//  - interleaving needs m a multiple of p, more than 2 stages and whole
//    layers per model chunk (https://github.com/NVIDIA/Megatron-LM README,
//    "--num-layers-per-virtual-pipeline-stage"); the embedding and the
//    loss may each count as one layer of the split (Megatron-core
//    TransformerConfig account_for_embedding_in_pipeline_split /
//    account_for_loss_in_pipeline_split, https://github.com/NVIDIA/
//    Megatron-LM/blob/main/megatron/core/transformer/transformer_config.py).
// With the MFU band independent of b, both the bubble and the in-flight
// activations fall as b falls, so a pipeline's modelled optimum is b = 1
// and the largest v the layer count allows; 1F1B is kept as the fallback
// (it holds fewer micro-batches in flight). A request's micro_batch_size is
// honoured as given; its gradient_accumulation_steps, when no micro-batch
// is given, sets m (b = ⌈B_r / m⌉).
#ifndef ACCELPLAN_PLANNER_PIPELINE_SCHEDULE_H_
#define ACCELPLAN_PLANNER_PIPELINE_SCHEDULE_H_

#include <string>

#include "planner/job.h"
#include "planner/memory_model.h"

namespace accelplan::planner::internal {

struct Schedule {
  int virtual_stages = 1;  // 1: 1F1B (or no pipeline)
  int micro_batch = 0;     // sequences; 0: the whole B_r in one pass
  int microbatches = 1;    // per replica per step
};

struct ScheduleOptions {
  // The whole batch, its halvings (at most six; a CNN's, fourteen) and one
  // sequence.
  static constexpr int kMax = 16;
  Schedule items[kMax];
  int count = 0;
  // The request fixed the micro-batch (micro_batch_size, or
  // gradient_accumulation_steps): no other micro-batching is tried.
  bool requested = false;
};

// The schedules evaluated for `layout` with `replicas` data-parallel
// ranks, in order of preference. Without a request, a non-pipelined
// layout gets the whole replica batch at once, then micro-batches of half,
// a quarter, ... of it while they divide it, then one sequence per
// micro-step (gradient accumulation): the first that fits has the fewest
// micro-steps, and each micro-step repeats FSDP's gathers (time_model.h
// fsdp_passes). A pipelined one gets b = 1 with the largest valid
// interleaving, then plain 1F1B.
ScheduleOptions SchedulesFor(const Job& job, const ShardingLayout& layout,
                             int replicas);

// The largest v > 1 for which `layers` split into p·v whole chunks
// (counting the embedding and the loss as a layer each if that is what
// makes it whole), with p > 2 and m a multiple of p; 1 when none.
int MaxVirtualStages(int layers, int stages, int microbatches);

// `layout` with the schedule's fields set.
ShardingLayout WithSchedule(ShardingLayout layout, const Schedule& s);

// "interleaved 1F1B, 8 stages x 8 chunks of 2 layers, 32 micro-batches of
// 1 sequence per replica, bubble 2.7%" — for the plan's notes.
std::string DescribeSchedule(const Job& job, const ShardingLayout& layout);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_PIPELINE_SCHEDULE_H_
