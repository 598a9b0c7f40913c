#include "planner/optimizer_offload.h"

#include "absl/strings/str_format.h"
#include "planner/candidate.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

bool OptimizerOffloadOffered(const Job& job, const Family& f) {
  const Workload& w = job.workload;
  const bool pytorch = job.framework == Framework::kPytorch ||
                       job.framework == Framework::kUnspecified;
  const bool every_weight =
      w.training_method == TrainingMethod::kPreTraining ||
      w.training_method == TrainingMethod::kFullFineTune ||
      w.training_method == TrainingMethod::kUnspecified;
  const bool mixed = w.precision == Precision::kBf16Mixed ||
                     w.precision == Precision::kFp16Mixed ||
                     w.precision == Precision::kUnspecified;
  const bool adam = w.optimizer == Optimizer::kUnspecified ||
                    w.optimizer == Optimizer::kAdam ||
                    w.optimizer == Optimizer::kAdamFp32Grads;
  // Horovod (framework-agnostic distribution) has no ZeRO partitions.
  return f.platform == Platform::kGpu && job.model_size_known && pytorch &&
         every_weight && mixed && adam &&
         !job.constraints.framework_agnostic_distribution &&
         !job.optimizer_offload_excluded;
}

double HostStepSeconds(double params_per_device, double weight_bytes_per_param,
                       int devices_per_vm) {
  return params_per_device * devices_per_vm /
             kOffload.cpu_adam_params_per_s_per_vm.value +
         params_per_device * weight_bytes_per_param / kPcieBytesPerS;
}

double HostOptimizerSeconds(const Config& c) {
  if (!c.layout.optimizer_offload || c.memory.host_optimizer_params <= 0) {
    return 0;
  }
  const double params = c.memory.host_optimizer_params;
  return HostStepSeconds(params, c.memory.host_upload_bytes_per_step / params,
                         DevicesPerVm(c));
}

std::string DescribeOptimizerOffload(const Config& c) {
  return absl::StrFormat(
      "Optimizer offload (DeepSpeed ZeRO-%d with offload_optimizer: cpu): "
      "Adam's states and fp32 gradients take %.1f GiB of host memory per "
      "device (%.1f GiB usable); after each backward pass the VM's CPUs step "
      "%.3g billion parameters and send the 16-bit weights back, %.3g s of the "
      "%.3g s step.",
      c.layout.zero_stage, Gib(c.memory.host_optimizer_bytes),
      Gib(c.host_usable_bytes),
      c.memory.host_optimizer_params * DevicesPerVm(c) / 1e9,
      c.step.host_optimizer_seconds, c.step.step_seconds_expected);
}

std::string OptimizerOffloadAssumption() {
  return absl::StrFormat(
      "Optimizer offload: host memory holds the optimizer state (12 bytes "
      "per parameter for mixed-precision Adam) and a %.0f-byte fp32 gradient "
      "per offloaded parameter, times %.1f for buffers (%s); the host steps "
      "%.3g parameters per second per VM (%s), after the backward pass and "
      "before the next forward (no delayed update), and the 16-bit weights "
      "return over PCIe.",
      kOffload.host_gradient_bytes_per_param.value,
      kOffload.host_buffer_factor.value, kOffload.host_buffer_factor.source,
      kOffload.cpu_adam_params_per_s_per_vm.value,
      kOffload.cpu_adam_params_per_s_per_vm.source);
}

}  // namespace accelplan::planner::internal
