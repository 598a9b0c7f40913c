#include "planner/pipeline_schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/strings/str_format.h"
#include "planner/time_model.h"

namespace accelplan::planner::internal {
namespace {

// Megatron's interleaved schedule is "not supported for pipelines with 2
// stages" (Megatron-LM README).
constexpr int kMinInterleavedStages = 3;
// The embedding and the loss, each counted as one layer of the split.
constexpr int kNonDecoderLayers = 2;

int64_t CeilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / std::max<int64_t>(1, b);
}

int Clamp(int64_t v) {
  return static_cast<int>(std::clamp<int64_t>(v, 1, 1 << 30));
}

// Adds the pipelined schedules for micro-batch `b`: interleaved when the
// layers allow it, then 1F1B.
void AddPipelined(const Job& job, int stages, int64_t per_replica, int64_t b,
                  ScheduleOptions& out) {
  const int m = Clamp(CeilDiv(per_replica, b));
  const int v =
      MaxVirtualStages(job.workload.transformer_shape.layers, stages, m);
  if (v > 1) out.items[out.count++] = {v, Clamp(b), m};
  out.items[out.count++] = {1, Clamp(b), m};
}

}  // namespace

int MaxVirtualStages(int layers, int stages, int microbatches) {
  if (stages < kMinInterleavedStages || layers <= 0 ||
      microbatches % stages != 0) {
    return 1;
  }
  // p·v divides n exactly when p divides n and v divides n / p, so the
  // largest v is n / p itself (one layer per chunk).
  int v = 1;
  for (const int n : {layers, layers + kNonDecoderLayers}) {
    if (n % stages == 0) v = std::max(v, n / stages);
  }
  return v;
}

ScheduleOptions SchedulesFor(const Job& job, const ShardingLayout& layout,
                             int replicas) {
  ScheduleOptions out;
  const Workload& w = job.workload;
  const int64_t sequences =
      job.batch_given
          ? std::max<int64_t>(1, w.global_batch_size)
          : static_cast<int64_t>(std::max(1.0, job.batch_sequences));
  const int64_t per_replica = CeilDiv(sequences, std::max(1, replicas));
  const bool pipelined = layout.pipeline > 1;
  int64_t b = 0;
  if (w.micro_batch_size > 0) {
    b = std::min<int64_t>(w.micro_batch_size, per_replica);
  } else if (w.gradient_accumulation_steps > 0) {
    b = CeilDiv(per_replica, w.gradient_accumulation_steps);
  }
  out.requested = b > 0;
  if (pipelined) {
    AddPipelined(job, layout.pipeline, per_replica, b > 0 ? b : 1, out);
    return out;
  }
  if (b > 0) {
    out.items[out.count++] = {1, Clamp(b), Clamp(CeilDiv(per_replica, b))};
    return out;
  }
  // The whole replica batch at once (the old default: memory reads the
  // stated batch, one sequence without one), then, when a stated batch
  // gives a replica more than one, micro-batches that halve it while they
  // divide it evenly (no padding), then one sequence per micro-step. A
  // CNN's activations are per example (memory reads its assumed batch
  // too): its halvings round up (the last micro-batch is the smaller one)
  // and go on down to 2, so a replica of 5,000 images is not dropped to 1
  // per micro-step when 625 does not fit.
  out.items[out.count++] = {1, 0, 1};
  const bool cnn = job.cnn_forward_flops > 0;
  if ((job.batch_given || cnn) && per_replica > 1) {
    const int halvings = cnn ? ScheduleOptions::kMax - 2 : 6;
    for (int64_t b = per_replica;
         (cnn || b % 2 == 0) && b / 2 > 1 && out.count <= halvings;) {
      b = CeilDiv(b, 2);
      out.items[out.count++] = {1, Clamp(b), Clamp(CeilDiv(per_replica, b))};
    }
    out.items[out.count++] = {1, 1, Clamp(per_replica)};
  }
  return out;
}

ShardingLayout WithSchedule(ShardingLayout layout, const Schedule& s) {
  layout.virtual_stages = s.virtual_stages;
  layout.micro_batch = s.micro_batch;
  layout.microbatches = s.micro_batch > 0 ? s.microbatches : 0;
  return layout;
}

std::string DescribeSchedule(const Job& job, const ShardingLayout& l) {
  if (l.pipeline <= 1 || l.micro_batch <= 0) return "";
  const int layers = job.workload.transformer_shape.layers;
  const int v = std::max(1, l.virtual_stages);
  const double bubble =
      1.0 / (1.0 - PipelineBubbleFraction(l.pipeline, l.microbatches, v)) - 1;
  const std::string micro = absl::StrFormat(
      "%d micro-batches of %d sequence%s per replica per step", l.microbatches,
      l.micro_batch, l.micro_batch == 1 ? "" : "s");
  if (v > 1) {
    return absl::StrFormat(
        "Pipeline schedule: interleaved 1F1B, %d stages x %d model chunks "
        "per device (%d layers each), %s: bubble (p-1)/(v*m) = %.1f%% of "
        "the step's compute, %.1f micro-batches' activations in flight on "
        "the first stage (Narayanan et al., arXiv:2104.04473).",
        l.pipeline, v, (layers + l.pipeline * v - 1) / (l.pipeline * v), micro,
        100 * bubble, MicrobatchesInFlight(l.pipeline, v, l.microbatches));
  }
  return absl::StrFormat(
      "Pipeline schedule: 1F1B, %d stages of %d layers, %s: bubble "
      "(p-1)/m = %.1f%% of the step's compute, %.0f micro-batches' "
      "activations in flight on the first stage%s.",
      l.pipeline, (layers + l.pipeline - 1) / l.pipeline, micro, 100 * bubble,
      MicrobatchesInFlight(l.pipeline, 1, l.microbatches),
      MaxVirtualStages(layers, l.pipeline, l.microbatches) > 1
          ? " (interleaved 1F1B did not fit in memory or was not faster)"
      : l.microbatches % l.pipeline != 0 || l.pipeline < kMinInterleavedStages
          ? " (interleaving needs a micro-batch count that is a multiple of "
            "the depth and more than 2 stages)"
          : " (the layer count splits into no whole interleaved chunks)");
}

}  // namespace accelplan::planner::internal
