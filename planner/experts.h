// Mixture of experts: the parameters that live in the experts, the
// expert-parallel degree a layout can use inside its NVLink/ICI domain, and
// the all-to-all that expert parallelism costs. Closed form; called per
// layout, so nothing here allocates.
#ifndef ACCELPLAN_PLANNER_EXPERTS_H_
#define ACCELPLAN_PLANNER_EXPERTS_H_

#include <string>

#include "planner/memory_model.h"

namespace accelplan::planner::internal {

struct Job;

// Resolves job.experts, job.experts_per_token and job.expert_params from
// the workload (after the parameter count is known) and states the
// assumptions it makes. The experts hold E·(P − A)/(E − k) parameters:
// each token runs the shared part and k of the E experts, so P − A is
// (E − k) experts' worth. Needs E > k and 0 < A < P; else the model is
// treated as dense for layouts (expert_params 0) and only its FLOPs use A.
void ResolveExperts(Job& job);

// The largest expert-parallel degree of a layout whose TP groups already
// take `tensor` devices of a domain of `domain_devices` (a GPU VM's
// NVLink, a TPU slice's ICI): a divisor of both the expert count and the
// remaining devices, so every device holds the same number of experts.
// 1 when the job has no experts (or its expert split is unknown).
int ExpertParallelDegree(const Job& job, int domain_devices, int tensor);

// Parameters an FSDP rank all-gathers per pass: the shared part over the
// whole FSDP group, the experts only for the 1/ep of them its EP rank
// holds (Megatron-Core / torchtitan: experts sharded over EP, FSDP'd over
// the rest).
double GatheredParams(const Job& job, const ShardingLayout& layout);

// Bytes one device sends per step in the expert all-to-alls: dispatch and
// combine in the forward pass and their transposes in the backward, four
// per MoE layer, each moving the device's tokens × k × h 16-bit values,
// (ep − 1)/ep of them to other devices (TensorRT-LLM MoE guide, Megatron-
// Core token dispatcher). 0 without expert parallelism.
double ExpertAllToAllBytes(const Job& job, const ShardingLayout& layout,
                           int devices);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_EXPERTS_H_
