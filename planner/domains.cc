#include "planner/domains.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_format.h"
#include "planner/estimates.h"
#include "planner/experts.h"
#include "planner/policy.h"

namespace accelplan::planner::internal {

int NvlinkDomainDevices(const Family& f, const Config& c) {
  const int per_vm = std::min(DevicesPerVm(c), std::max(1, c.devices));
  if (f.platform != Platform::kGpu) return per_vm;
  if (!f.nvlink) return 1;
  if (f.nvlink_domain_devices <= 0) return per_vm;  // the VM is the domain
  const int domain_vms = f.nvlink_domain_devices / DevicesPerVm(c);
  int vms = 1;
  for (int k = std::min(domain_vms, c.hosts); k > 1; --k) {
    if (c.hosts % k == 0) {
      vms = k;
      break;
    }
  }
  return per_vm * vms;
}

int DomainDevices(const Family& f, const Config& c, int per_slice) {
  if (f.platform == Platform::kTpu) return per_slice;
  if (f.nvlink) return NvlinkDomainDevices(f, c);
  return std::min(DevicesPerVm(c), c.devices);
}

// 1, 2, 4, ...: the largest power of two that divides n (1 for n <= 0).
int LargestPowerOfTwoDividing(int n) {
  int p = 1;
  while (n > 0 && n % (p * 2) == 0) p *= 2;
  return p;
}

int DomainTensorParallel(const Family& f, const Config& c, int per_slice) {
  const int max_tp = static_cast<int>(kPolicy.max_tensor_parallel.value);
  if (f.platform == Platform::kTpu) return max_tp;
  if (f.platform != Platform::kGpu || !f.nvlink) return 1;
  return std::min(max_tp,
                  LargestPowerOfTwoDividing(DomainDevices(f, c, per_slice)));
}

int TensorDomain(const Family& f, const Config& c) {
  if (f.platform == Platform::kGpu && !f.nvlink) return 1;
  return DomainDevices(f, c, c.devices);
}

int DomainExpertParallel(const Job& job, const Family& f, const Config& c,
                         int domain, int tensor) {
  int ep = ExpertParallelDegree(job, domain, tensor);
  const int per_vm = DevicesPerVm(c);
  if (f.platform != Platform::kGpu || domain <= per_vm) return ep;
  for (int vms = 1; vms * per_vm < domain; ++vms) {
    if (c.hosts % vms != 0) continue;
    ep = std::max(ep, ExpertParallelDegree(job, vms * per_vm, tensor));
  }
  return ep;
}

// Where a group of `devices` GPUs (a TP group, an EP group) runs: one VM,
// or VMs of one NVLink domain (NvlinkDomainDevices; SubBlockNote says how
// to get one); a TPU slice.
std::string DomainOf(const Family& f, const Config& c, int devices) {
  if (f.platform == Platform::kTpu) return "slice over ICI";
  if (devices <= DevicesPerVm(c)) {
    return f.nvlink ? "VM over NVLink" : "VM over PCIe";
  }
  return absl::StrFormat("group of %d VMs (%d GPUs) in one NVLink domain",
                         devices / DevicesPerVm(c), devices);
}

// A point whose NVLink groups span VMs (tensor or expert parallelism, or a
// data-parallel or FSDP group timed over NVLink) needs those VMs created
// together (catalog source A4X-MIG); empty otherwise.
std::string SubBlockNote(const Family& f, const Config& c) {
  const int per_vm = DevicesPerVm(c);
  const int domain = NvlinkDomainDevices(f, c);
  if (f.platform != Platform::kGpu || domain <= per_vm) return "";
  const ShardingLayout& l = c.layout;
  const int tp = std::max(1, l.tensor);
  const int group = l.zero_stage == 3 ? l.fsdp : l.data;
  const bool spans =
      tp > per_vm || std::max(1, l.expert) * tp > per_vm ||
      (std::max(1, group) * tp > per_vm && std::max(1, group) * tp <= domain);
  if (!spans) return "";
  return absl::StrFormat(
      "Groups of %d VMs share one NVLink domain: create each group's VMs as "
      "one sub-block (a workload policy with a 1x%d topology), else their "
      "traffic crosses the NICs.",
      domain / per_vm, f.nvlink_domain_devices);
}

// Tensor parallelism splits the attention heads over its ranks. PyTorch's
// Megatron-LM asserts that the heads and the key/value groups both divide
// (megatron/core/transformer/attention.py: divide(num_attention_heads,
// world_size), divide(num_query_groups, world_size)). XLA (JAX,
// TensorFlow, and whatever runs on a TPU, PyTorch through PyTorch/XLA's
// SPMD) is planned as padding a head axis its degree does not divide and
// replicating a key/value head it cannot split (PaLM's multi-query
// attention ran 12-way model parallel, arXiv:2204.02311 §4); the padding
// is not charged (docs/planner.md §8). A degree past the heads themselves
// leaves ranks without a head, under XLA too. On GPUs a framework not
// stated (or another) is held to Megatron's rule.
bool KeyValueGroupsBind(const Job& job, Platform platform) {
  return platform != Platform::kTpu && job.framework != Framework::kJax &&
         job.framework != Framework::kTensorflow;
}

bool HeadsSplitOver(const Job& job, int tp, Platform platform) {
  const TransformerShape& s = job.workload.transformer_shape;
  if (tp <= 1 || s.attention_heads <= 0) return true;
  if (!KeyValueGroupsBind(job, platform)) return tp <= s.attention_heads;
  return s.attention_heads % tp == 0 &&
         (s.num_kv_heads <= 0 || s.num_kv_heads % tp == 0);
}

// The largest degree the heads split over, halving `tp` (a power of two,
// so every halving still tiles the domain).
int TensorDegreeTheHeadsAllow(const Job& job, int tp, Platform platform) {
  while (tp > 1 && !HeadsSplitOver(job, tp, platform)) tp /= 2;
  return tp;
}

int PowerOfTwoAtMost(int n) {
  int p = 1;
  while (p <= n / 2) p *= 2;
  return p;
}

int TensorParallelCap(const Job& job, Platform platform) {
  return TensorDegreeTheHeadsAllow(
      job, static_cast<int>(kPolicy.max_tensor_parallel.value), platform);
}

}  // namespace accelplan::planner::internal
