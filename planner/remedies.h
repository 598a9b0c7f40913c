// Remedies derived from the symptoms of a current setup, the TPU tensor-shape
// rounding rule, Reduction Server sizing, and savings against the current
// setup. Shared by Plan and Review.
#ifndef ACCELPLAN_PLANNER_REMEDIES_H_
#define ACCELPLAN_PLANNER_REMEDIES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "catalog/catalog.h"
#include "planner/engine.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// Cloud TPU performance guide: with a current or tolerated global batch of
// 1024 or more, batch a multiple of 1024 and features multiples of 8; else
// batch a multiple of 64 and features multiples of 128 — rounding up.
struct ShapeRule {
  int64_t batch_multiple = 64;
  int64_t width_multiple = 128;
  int64_t batch = 0;                 // rounded up
  std::vector<int64_t> widths;       // rounded up
};
ShapeRule TpuShapeRule(const CurrentSetup& current);

bool HasSymptom(const Job& job, Symptom s);
bool AnySymptom(const Job& job);

// Reduction Server pool sized so reducers' total bandwidth matches the
// workers' egress (Vertex AI guidance). nullopt when the catalog lacks the
// image or reducer machine type.
std::optional<ReductionServerPool> SizeReductionServer(
    const catalog::Catalog& catalog, double worker_gbps_total);

// Whether the current setup is multi-host GPU data parallel with NCCL.
bool CurrentIsMultiHostNcclGpu(const Job& job);

std::vector<Remedy> RemediesForSymptoms(const catalog::Catalog& catalog,
                                        const Job& job);

std::optional<Savings> SavingsAgainstCurrent(const catalog::Catalog& catalog,
                                             const Index& index, const Job& job,
                                             const Candidate& best);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_REMEDIES_H_
