// Remedies derived from the symptoms of a current setup, the TPU tensor-shape
// rounding rule, Reduction Server sizing, and savings against the current
// setup. Shared by Plan and Review.
#ifndef ACCELPLAN_PLANNER_REMEDIES_H_
#define ACCELPLAN_PLANNER_REMEDIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/engine.h"
#include "planner/space.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// Cloud TPU performance guide (https://cloud.google.com/tpu/docs/
// performance-guide) documents two tilings that avoid padding: batch a
// multiple of 64 with feature dimensions multiples of 128, or batch a
// multiple of 1024 with feature dimensions multiples of 8.
inline constexpr int64_t kSmallBatchMultiple = 64;
inline constexpr int64_t kSmallWidthMultiple = 128;
inline constexpr int64_t kLargeBatchMultiple = 1024;
inline constexpr int64_t kLargeWidthMultiple = 8;

// Whether a global batch and feature dimensions meet either documented
// tiling. batch <= 0 (unknown): widths multiples of 8 (the looser tiling).
bool MeetsTpuTiling(int64_t batch, const std::vector<int64_t>& widths);

// The advice: with a current or tolerated global batch of 1024 or more,
// batch a multiple of 1024 and features multiples of 8; else batch a
// multiple of 64 and features multiples of 128 — rounding up. When the
// rounded batch is itself a multiple of 1024 (990 -> 1024), the widths need
// only be multiples of 8, so they change as little as possible.
struct ShapeRule {
  int64_t batch_multiple = 64;
  int64_t width_multiple = 128;
  int64_t batch = 0;  // rounded up; down when past the tolerated batch
  std::vector<int64_t> widths;       // rounded up
};
ShapeRule TpuShapeRule(const CurrentSetup& current);

// On NVIDIA GPUs the tensor cores need 16-bit GEMM dimensions that are
// multiples of 8 elements (16 bytes): NVIDIA's Matrix Multiplication
// Background guide, "Tensor Core Requirements"
// (https://docs.nvidia.com/deeplearning/performance/dl-performance-matrix-multiplication/index.html),
// and PyTorch's Performance Tuning Guide ("set sizes to multiples of 8").
inline constexpr int64_t kGpuTileMultiple = 8;

// Today's hardware is GPUs (not a TPU): the tensor cores' tiling applies.
bool TilesForGpu(const Job& job);
// The tiling of today's hardware: the tensor cores' (batch and feature
// dimensions multiples of 8) on GPUs, else the TPU's two tilings.
bool MeetsTiling(const Job& job, int64_t batch,
                 const std::vector<int64_t>& widths);
ShapeRule ShapeRuleFor(const Job& job);
// "the MXU" or "the tensor cores": what the shapes are tiled for.
const char* TilingTarget(const Job& job);

// "batch 100 -> 128, widths 300 -> 384": each stated size and what the rule
// rounds it to; "" when neither today's batch nor widths are given.
std::string ShapeRounding(const CurrentSetup& current, const ShapeRule& rule);

// The request's own shapes (today's widths and batch, or the transformer
// shape it states) pad on a TPU: evidence for a tensor-shape fix.
bool ShapesPad(const Job& job);

// Why the tiling remedy has nothing to fix: the model's feature widths (the
// stated layer widths, else the transformer shape's) already meet the TPU
// tiling with today's batch, or with a multiple of 64 when it is not given.
std::optional<std::string> ShapesAlreadyTile(const Job& job);

// Today's hardware is a TPU (its accelerator, or a stated slice topology):
// low utilisation there is the MXU tiling's to fix, not elsewhere.
bool CurrentlyOnTpu(const Job& job);
// Today's hardware is GPUs (named, or NCCL stated with no hardware named).
bool CurrentlyOnGpu(const Job& job);
// Today's job on GPU parameter servers: ring all-reduce over NCCL (Horovod)
// is the published fix for their gradient-sync bottleneck.
bool OnGpuParameterServers(const Job& job);

bool HasSymptom(const Job& job, Symptom s);
bool AnySymptom(const Job& job);

// Whether the current setup is multi-host GPU data parallel with NCCL.
bool CurrentIsMultiHostNcclGpu(const Job& job);

// `current_family` is the family of today's hardware (CurrentFamily; may be
// null): a Reduction Server pool is sized on its network share.
std::vector<Remedy> RemediesForSymptoms(const catalog::Catalog& catalog,
                                        const Job& job,
                                        const Family* current_family);

// The recommendation against today's setup as MakeJob modelled it
// (job.current_hourly, job.current_hours); nullopt when either is unknown.
std::optional<Savings> SavingsAgainstCurrent(const Job& job,
                                             const Candidate& best);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_REMEDIES_H_
