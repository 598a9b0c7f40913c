// The line that says how a point spends its step communicating: which
// traffic crosses which link (named by the figure the estimate gave it,
// planner/estimates.cc), against compute and the data-parallel roofline.
#include <algorithm>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/plan_assembly.h"
#include "planner/slice_replica.h"

namespace accelplan::planner::internal {

namespace {

// What crosses which link, named by the link the estimate gave it
// (planner/estimates.cc): the collective's link `w` (NVLink/PCIe inside
// the VM or NVLink domain, the VMs' NICs, ICI, DCN); across slices, the
// FSDP or tensor traffic that stays on ICI beside the gradient on DCN;
// and a pipeline's hand-offs on theirs. Ends with its verb.
std::string TrafficOverLinks(const Family& f, const Config& c, double w) {
  const char* traffic = c.layout.zero_stage == 3 ? "FSDP"
                        : c.layout.tensor > 1    ? "tensor/data-parallel"
                                                 : "data-parallel";
  std::string out;
  if (c.slices > 1 &&
      !ShardsAcrossSlices(c.layout, c.devices / std::max(1, c.slices)) &&
      (c.layout.zero_stage == 3 || c.layout.tensor > 1)) {
    out = absl::StrFormat(
        "%s traffic over ICI at %.1f GB/s per chip inside each slice and the "
        "gradient over DCN at %.1f GB/s",
        traffic, f.ici_bytes_per_s / 1e9, w / 1e9);
  } else {
    const bool over_nics = f.platform == Platform::kGpu && c.hosts > 1 &&
                           w < f.intra_vm_bytes_per_s;
    out = absl::StrFormat("%s traffic over %s at %.1f GB/s per device", traffic,
                          c.slices > 1 ? "DCN"
                          : over_nics  ? "the host network"
                                       : "the interconnect",
                          w / 1e9);
  }
  if (c.layout.pipeline > 1) {
    // The link the estimate times them on (PipelineLinkBytesPerS).
    const bool tpu = f.platform == Platform::kTpu;
    absl::StrAppend(
        &out, absl::StrFormat(" and pipeline hand-offs over %s at %.1f GB/s",
                              c.slices > 1  ? "DCN"
                              : tpu         ? "ICI"
                              : c.hosts > 1 ? "the host network"
                                            : "the interconnect",
                              PipelineLinkBytesPerS(f, c) / 1e9));
  }
  out[0] = absl::ascii_toupper(out[0]);
  absl::StrAppend(&out, absl::StrContains(out, " and ") ? " take" : " takes");
  return out;
}

}  // namespace

// The human line for a configuration that spends its step communicating;
// formatted only when a reason needs it.
std::string CommunicationDetail(const Job& job, const Candidate& cand) {
  const Family& f = *cand.family;
  const Config& c = *cand.config;
  const double tokens_per_device = job.tokens_per_step / c.devices;
  const double w = c.comm_link_bytes_per_s > 0 ? c.comm_link_bytes_per_s
                   : c.slices > 1              ? f.dcn_bytes_per_s_per_chip
                   : f.platform == Platform::kTpu ? f.ici_bytes_per_s
                   : c.hosts > 1 ? f.inter_vm_bytes_per_s
                                 : f.intra_vm_bytes_per_s;
  const BoundCheck b = DataParallelBound(tokens_per_device, c.peak_flops, w,
                                         c.hosts > 1 ? c.hosts : 0);
  // The roofline explains the exposure only when the batch falls short of
  // it; above it, what is exposed is traffic the roofline does not count
  // (FSDP's gathers per micro-step, tensor-parallel all-reduces, collective
  // latency, a gradient sync stated to be on the critical path).
  const bool below = tokens_per_device < b.required;
  return absl::StrFormat(
      "%s %.1fx the compute time per step, %.0f%% of the step "
      "exposed (%s >= %.0f %s per device per step, has %.0f%s)",
      TrafficOverLinks(f, c, w), c.step.comm_to_compute_ratio,
      100 * c.step.communication_fraction,
      below ? "compute-bound needs" : "the data-parallel roofline asks",
      b.required, job.unit, tokens_per_device,
      below ? ""
            : ": the exposed part is traffic or latency it does not "
              "count");
}

}  // namespace accelplan::planner::internal
