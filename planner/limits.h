// Request limits: the one place that bounds how much work and memory one
// request can cost (issue 20). Validation (planner/validate.cc) answers every
// value over a limit with a violation naming the field and the limit, so the
// planner only ever sees requests inside these bounds. The proto documents the
// same numbers (proto/accelplan/v1/accelplan.proto); change both together.
//
// Counts of repeated fields are entries, duplicates included. String limits
// are in characters (Unicode code points of the UTF-8 text), so 256
// characters are at most 1,024 bytes.
#ifndef ACCELPLAN_PLANNER_LIMITS_H_
#define ACCELPLAN_PLANNER_LIMITS_H_

#include <cstdint>

namespace accelplan::planner::limits {

// ------------------------------------------------------- repeated fields
// constraints.allowed_series is normalised once per request into a set that
// each machine family's precomputed names are looked up in (engine.cc); 64
// covers every series the catalog holds.
inline constexpr int kMaxAllowedSeries = 64;
// The enum lists (allowed_platforms, tpu_unsuited_ops, symptoms,
// ListAcceleratorsRequest.platforms) have at most 5 distinct values; 16
// leaves room for new values and for harmless repeats. The planner ignores
// repeats (a repeated symptom adds its remedies once).
inline constexpr int kMaxAllowedPlatforms = 16;
inline constexpr int kMaxTpuUnsuitedOps = 16;
inline constexpr int kMaxSymptoms = 16;
inline constexpr int kMaxListPlatforms = 16;
// current_setup.layer_widths and proposals[].remedy.layer_widths: each width
// is echoed, rounded, in the tensor-shape remedy.
inline constexpr int kMaxLayerWidths = 256;
// ReviewPlanRequest.proposals: each is scored like a PlanTraining candidate.
inline constexpr int kMaxProposals = 64;

// ------------------------------------------------------- strings
// Every free-text or name field (framework_version, region, hardware,
// series, machine_type, accelerator, label, tpu_topology, as_of).
inline constexpr int kMaxStringChars = 256;
// One entry of constraints.allowed_series.
inline constexpr int kMaxSeriesNameChars = 64;
// How much of a bad value a violation quotes back (UTF-8 safe cut, then
// "..."), so an answer never grows with the request.
inline constexpr int kMaxEchoedChars = 24;

// ------------------------------------------------------- numbers
// Anything above is a unit mistake or garbage; a plan built on it would be
// nonsense. Every number must also be finite and not negative.
inline constexpr double kMaxParameterCount = 1e14;   // 100 T parameters
inline constexpr double kMaxFlopsPerExample = 1e18;  // a forward pass
inline constexpr double kMaxGib = 1e9;               // an exabyte
inline constexpr double kMaxDatasetTokens = 1e17;
inline constexpr double kMaxDatasetExamples = 1e15;
inline constexpr double kMaxEpochs = 1e6;
inline constexpr int64_t kMaxSteps = int64_t{1} << 40;
inline constexpr int64_t kMaxGlobalBatchSize = int64_t{1} << 32;
inline constexpr double kMaxCheckpointIntervalMinutes = 1e7;
inline constexpr double kMaxLoraRank = 1e5;
inline constexpr double kMaxHours = 24.0 * 365 * 10;  // ten years
inline constexpr double kMaxUsd = 1e12;
// Transformer shape.
inline constexpr int32_t kMaxLayers = 100000;
inline constexpr int32_t kMaxHiddenSize = 1 << 20;
inline constexpr int32_t kMaxAttentionHeads = 1 << 16;
inline constexpr int32_t kMaxSequenceLength = 1 << 24;
inline constexpr int32_t kMaxVocabSize = 1 << 24;
inline constexpr int32_t kMaxFfnHiddenSize = 1 << 22;
// One entry of layer_widths.
inline constexpr int64_t kMaxLayerWidth = 1 << 24;
// Accelerator counts (max_accelerators, accelerator_count, hardware
// proposal count) and parallelism degrees, which cannot exceed them.
inline constexpr int32_t kMaxAccelerators = 1000000;
// current_setup.node_count (hosts).
inline constexpr int32_t kMaxNodes = 100000;
// TPU slices (current_setup.slice_count, slice_topologies, proposal slices,
// dcn_* degrees).
inline constexpr int32_t kMaxSlices = 1024;
// Experts per mixture-of-experts layer (published MoE models use 8-256).
inline constexpr int32_t kMaxExperts = 1 << 16;
// Ops the Edge TPU compiler left unmapped.
inline constexpr int32_t kMaxUnmappedOps = 1 << 20;

}  // namespace accelplan::planner::limits

#endif  // ACCELPLAN_PLANNER_LIMITS_H_
