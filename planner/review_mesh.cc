// ReviewPlan: a Multislice mesh proposal's checks and wording, shared by
// the distribution and hardware judgements.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/review_internal.h"
#include "planner/slice_replica.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

bool RejectBadMesh(const Job& job, const MultisliceMesh& m, int& slices,
                   Judged& j) {
  if (auto why = DcnProductMismatch(m, slices)) {
    j.Reject(ReasonCode::kNotApplicable, *why);
    return true;
  }
  if (slices <= 0) {
    slices = std::max(1, m.dcn_data_parallelism) *
             std::max(1, m.dcn_fsdp_parallelism) *
             std::max(1, m.dcn_tensor_parallelism) *
             std::max(1, m.dcn_pipeline_parallelism);
  }
  if (!job.current.tpu_topology.empty()) {
    const int ici = std::max(1, m.ici_data_parallelism) *
                    std::max(1, m.ici_fsdp_parallelism) *
                    std::max(1, m.ici_tensor_parallelism);
    const int chips = TopologyChips(job.current.tpu_topology);
    if (ici != chips && (m.ici_data_parallelism > 0 ||
                         m.ici_fsdp_parallelism > 0 ||
                         m.ici_tensor_parallelism > 0)) {
      j.Reject(ReasonCode::kNotApplicable,
               absl::StrFormat("The product of the ici_* axes (%d) must "
                               "equal the chips per slice (%d).",
                               ici, chips));
      return true;
    }
  }
  return false;
}

// What the mesh states that the staged layout does not model (it keeps
// FSDP inside each slice and data parallelism across the stage groups).
std::string UnmodelledMeshAxes(const DistributionProposal& d) {
  if (!d.mesh) return "";
  std::vector<std::string> axes;
  if (d.mesh->dcn_fsdp_parallelism > 1) {
    axes.push_back(
        absl::StrCat("dcn_fsdp_parallelism = ", d.mesh->dcn_fsdp_parallelism));
  }
  if (d.mesh->ici_data_parallelism > 1) {
    axes.push_back(
        absl::StrCat("ici_data_parallelism = ", d.mesh->ici_data_parallelism));
  }
  if (axes.empty()) return "";
  return absl::StrCat(
      " Judged with FSDP inside each slice and data "
      "parallelism across the stage groups; the mesh's ",
      absl::StrJoin(axes, ", "), " is not modelled.");
}

DcnParallelism AcrossSlices(const DistributionProposal& d) {
  // A mesh's tensor, pipeline or FSDP axis over DCN is what crosses the
  // slices, whatever across_slices says beside it: SPEC §4's DCN rules
  // judge it (a DCN_DATA label over dcn_tensor_parallelism 2 was judged as
  // data parallelism and RECOMMENDED).
  if (d.mesh && d.mesh->dcn_tensor_parallelism > 1) {
    return DcnParallelism::kTensor;
  }
  if (d.mesh && d.mesh->dcn_pipeline_parallelism > 1) {
    return DcnParallelism::kPipeline;
  }
  if (d.mesh && d.mesh->dcn_fsdp_parallelism > 1) {
    return DcnParallelism::kFsdp;
  }
  DcnParallelism across = d.across_slices;
  if (across == DcnParallelism::kUnspecified && d.mesh &&
      d.mesh->dcn_data_parallelism > 1) {
    across = DcnParallelism::kData;
  }
  return across;
}

bool RejectIfShardedAcrossSlices(Judged& j) {
  if (!j.candidate || !j.candidate->config) return false;
  const Config& p = *j.candidate->config;
  const int per_slice = p.devices / std::max(1, p.slices);
  if (p.slices <= 1 || !ShardsAcrossSlices(p.layout, per_slice)) return false;
  const int group = p.layout.fsdp * std::max(1, p.layout.tensor);
  j.candidate.reset();
  j.Reject(
      ReasonCode::kNotApplicable,
      absl::StrFormat(
          "Data parallelism across the %d slices keeps each slice's mesh "
          "inside its %d chips, but the stated degrees make an FSDP%s "
          "group of %d chips, which shards across the slices "
          "(dcn_fsdp_parallelism): state that, or degrees that fit one "
          "slice.",
          p.slices, per_slice, p.layout.tensor > 1 ? " x tensor" : "", group));
  return true;
}

}  // namespace accelplan::planner::internal
