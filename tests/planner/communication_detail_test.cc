// The line that says which traffic crosses which link (plan_assembly.cc
// CommunicationDetail): it names each link by the figure the estimate gave
// it, so a data-parallel group inside one NVLink domain is not called the
// host network, pipeline stages on several VMs are, and FSDP inside each
// TPU slice is not called DCN traffic.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "planner/candidate.h"
#include "planner/plan_assembly.h"

namespace accelplan::planner::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Two a2-megagpu-16g-like VMs: NVLink 300 GB/s per GPU inside, 100 Gbps
// NICs shared by 16 GPUs between them.
Family TwoSixteenGpuVms() {
  Family f;
  f.platform = Platform::kGpu;
  f.intra_vm_bytes_per_s = 300e9;
  f.inter_vm_bytes_per_s = 100e9 / 8 / 16;
  return f;
}

// The line for `c` on `devices` over `hosts` VMs in `slices` slices.
std::string Detail(const Family& f, Config c, int devices, int hosts,
                   int slices) {
  Job job;
  job.tokens_per_step = 512 * 2048;
  job.unit = "tokens";
  c.devices = devices;
  c.hosts = hosts;
  c.slices = slices;
  c.peak_flops = 400e12;
  Candidate cand;
  cand.family = &f;
  cand.config = c;
  return CommunicationDetail(job, cand);
}

// Tensor 8 x data 2 fills each VM under Megatron's rank order, so the
// gradient all-reduce rides NVLink and the 2 pipeline stages hand over
// between the VMs.
TEST(CommunicationDetailTest, NamesEachLinkByTheFigureItCarries) {
  const Family f = TwoSixteenGpuVms();
  Config c;
  c.layout.tensor = 8;
  c.layout.data = 2;
  c.layout.pipeline = 2;
  c.comm_link_bytes_per_s = f.intra_vm_bytes_per_s;
  const std::string inside = Detail(f, c, 32, 2, 1);
  EXPECT_THAT(inside, HasSubstr("over the interconnect at 300.0 GB/s"));
  EXPECT_THAT(inside, HasSubstr("pipeline hand-offs over the host network "
                                "at 0.8 GB/s"));
  EXPECT_THAT(inside, Not(HasSubstr("host network at 300")));

  // Data parallel across the VMs: the NICs' share is the host network.
  c.layout = {};
  c.layout.data = 32;
  c.comm_link_bytes_per_s = 2 * f.inter_vm_bytes_per_s;
  const std::string across = Detail(f, c, 32, 2, 1);
  EXPECT_THAT(across, HasSubstr("Data-parallel traffic over the host network "
                                "at 1.6 GB/s"));
  EXPECT_THAT(across, Not(HasSubstr("pipeline")));
}

// Three v5p-like slices of 512 chips (ICI 600 GB/s, DCN 6.2 GB/s per
// chip): FSDP inside each slice keeps its gathers on ICI, and only the
// gradient crosses DCN; FSDP over all 1,536 chips puts its traffic on DCN.
TEST(CommunicationDetailTest, AcrossSlicesFsdpInsideASliceStaysOnIci) {
  Family f;
  f.platform = Platform::kTpu;
  f.ici_bytes_per_s = 600e9;
  f.dcn_bytes_per_s_per_chip = 6.2e9;
  Config c;
  c.layout.zero_stage = 3;
  c.layout.fsdp = 512;
  c.layout.data = 1536;
  c.comm_link_bytes_per_s = f.dcn_bytes_per_s_per_chip;
  const std::string inside = Detail(f, c, 1536, 384, 3);
  EXPECT_THAT(inside, HasSubstr("FSDP traffic over ICI at 600.0 GB/s per chip "
                                "inside each slice and the gradient over DCN "
                                "at 6.2 GB/s take"));
  c.layout.fsdp = 1536;
  const std::string across = Detail(f, c, 1536, 384, 3);
  EXPECT_THAT(across, HasSubstr("FSDP traffic over DCN at 6.2 GB/s per device "
                                "takes"));
}

}  // namespace
}  // namespace accelplan::planner::internal
