#include "planner/domains.h"

#include <algorithm>

#include "planner/estimates.h"
#include "planner/experts.h"
#include "planner/policy.h"

namespace accelplan::planner::internal {

int NvlinkDomainDevices(const Family& f, const Config& c) {
  const int per_vm = std::min(DevicesPerVm(c), std::max(1, c.devices));
  if (f.platform != Platform::kGpu) return per_vm;
  if (!f.nvlink) return 1;
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

}  // namespace accelplan::planner::internal
