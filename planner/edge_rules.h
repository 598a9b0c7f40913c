// Edge (on-device inference) rules that depend on the model, not only on
// the deployment target: what of the model the Edge TPU runs, and whether it
// fits the device's sourced limits. Shared by Plan (hard rules, remedies)
// and Review (remedy judging).
#ifndef ACCELPLAN_PLANNER_EDGE_RULES_H_
#define ACCELPLAN_PLANNER_EDGE_RULES_H_

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/candidate.h"
#include "planner/job.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// Why part of an on-device model runs on the host CPU. The Edge TPU
// compiler partitions the graph at the first op it cannot map; that op and
// everything after it execute on the CPU, even supported ops
// (https://coral.ai/docs/edgetpu/models-intro/#compiling). Float or partly
// quantized ops are not mapped, so a model that is not fully int8 falls back
// the same way.
struct EdgeCpuFallback {
  bool not_full_int8 = false;  // quantization stated, and not full int8
  bool unmapped_ops = false;   // the compiler left ops unmapped
  int unmapped_op_count = 0;   // 0: not stated
  bool stated = false;         // current_setup lists EDGE_OPS_ON_CPU
  bool any() const { return not_full_int8 || unmapped_ops || stated; }
};
EdgeCpuFallback EdgeCpuFallbackOf(const Job& job);

// The EDGE_OPS_ON_CPU symptom holds: stated, or following from an
// on-device workload's quantization or unmapped ops.
bool EdgeOpsOnCpu(const Job& job);

// The model has attention (model kind DENSE_TRANSFORMER, or a shape with
// heads), which the Edge TPU does not map (TensorFlow Lite's BATCH_MATMUL
// is not among its supported operations).
bool HasAttention(const Workload& w);
// Why such a model does not run on `device` (an Edge TPU), with the source:
// the plan's rejection and ReviewPlan's edge remedies say it alike.
std::string AttentionUnmappedLine(const std::string& device);

// On an edge family for an on-device job: warns EDGE_OPS_ON_CPU (SLOWER)
// when part of the model falls back to the CPU; rejects HBM_TOO_SMALL when
// the int8 model exceeds the device's hard model-size limit, and warns when
// it only exceeds the on-chip parameter cache. Limits are catalog facts.
void EdgeModelRules(const Job& job, const Family& f, Candidate& cand);

// QUANTIZE_FULL_INT8 and/or REPLACE_UNSUPPORTED_OP, each addressing
// EDGE_OPS_ON_CPU; empty when the symptom does not hold.
std::vector<Remedy> EdgeRemedies(const Job& job);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_EDGE_RULES_H_
