// Optimizer offload (DeepSpeed ZeRO-Offload, `offload_optimizer: cpu`;
// Ren et al. 2021, arXiv:2101.06840): the optimizer states and fp32
// gradients of each device's ZeRO partition in host memory, the optimizer
// step on the host's CPUs. It lets a job train on devices whose memory holds
// its 16-bit weights and activations but not its optimizer, at the price of
// a host step after every backward pass. The memory it moves is in
// planner/memory_model.h (ShardingLayout::optimizer_offload); this module
// says where it is offered and what it costs per step.
#ifndef ACCELPLAN_PLANNER_OPTIMIZER_OFFLOAD_H_
#define ACCELPLAN_PLANNER_OPTIMIZER_OFFLOAD_H_

#include <string>

#include "planner/defaults.h"

namespace accelplan::planner {

struct OptimizerOffloadDefaults {
  // Host bytes per offloaded parameter besides the optimizer state: its
  // fp32 gradient (DeepSpeed's estimator counts 16 bytes per parameter
  // with offload_optimizer: 12 of mixed-precision Adam's state plus these
  // 4), and the estimator's allowance for buffers on top.
  SourcedDefault host_gradient_bytes_per_param{
      4,
      "DeepSpeed estimate_zero3_model_states_mem_needs "
      "(deepspeed/runtime/zero/stage3.py, https://deepspeed.readthedocs.io/"
      "en/latest/memory.html): cpu_mem = total_params * 16 per node with "
      "offload_optimizer=cpu"};
  SourcedDefault host_buffer_factor{
      1.5,
      "DeepSpeed estimate_zero3_model_states_mem_needs: "
      "additional_buffer_factor=1.5 (https://deepspeed.readthedocs.io/en/"
      "latest/memory.html)"};
  // DeepSpeed's vectorised CPU-Adam, per VM (every rank of the VM steps
  // its partition on the VM's cores at once). One figure for every VM: the
  // catalog holds no host-CPU throughput, and the published measurement
  // names no core count.
  SourcedDefault cpu_adam_params_per_s_per_vm{
      11.6e9 / 8.2,
      "DeepSpeed PR 735 (https://github.com/deepspeedai/DeepSpeed/pull/735): "
      "CPU-Adam steps an 11.6B-parameter GPT-2 in 8.2 s (torch.optim.Adam "
      "56 s)"};
};
inline constexpr OptimizerOffloadDefaults kOffload;

namespace internal {

struct Job;
struct Family;
struct Config;

// Whether a job on a family may offload its optimizer: a GPU VM with a
// known host memory, PyTorch (DeepSpeed) or an unstated framework, every
// weight trained (pre-training or full fine-tuning), 16-bit mixed precision
// and Adam with fp32 states (what DeepSpeedCPUAdam steps); not under
// framework-agnostic (Horovod) distribution.
bool OptimizerOffloadOffered(const Job& job, const Family& f);

// The host's optimizer step and the 16-bit weights' trip back up, per
// step: after the backward pass and before the next forward, so exposed
// (DeepSpeed runs them in sequence unless one-step delayed update is on).
// 0 when the point does not offload.
double HostOptimizerSeconds(const Config& c);
// The same from its parts: each device's offloaded parameters, the bytes
// per parameter of its 16-bit weights, the devices sharing one VM's CPUs.
double HostStepSeconds(double params_per_device, double weight_bytes_per_param,
                       int devices_per_vm);

// The plan's note and assumption for a point that offloads.
std::string DescribeOptimizerOffload(const Config& c);
std::string OptimizerOffloadAssumption();

}  // namespace internal
}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_OPTIMIZER_OFFLOAD_H_
