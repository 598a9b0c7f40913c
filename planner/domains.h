// Stage 4 helper: the NVLink/ICI domain of a point — the devices a tensor-
// or expert-parallel group may span, and the degrees that tile it. A TPU
// slice's ICI, a GPU VM's NVLink (or PCIe), or an NVLink domain spanning
// VMs (catalog nvlink_domain_gpus: A4X's NVL72 sub-block of 18 VMs).
#ifndef ACCELPLAN_PLANNER_DOMAINS_H_
#define ACCELPLAN_PLANNER_DOMAINS_H_

#include <string>

#include "planner/candidate.h"

namespace accelplan::planner::internal {

struct Job;

// GPUs of the point that one NVLink domain holds: the point's VM, or where
// the family's domain spans VMs the most whole VMs of the point that fit
// one domain and divide its VMs, so a tensor- or expert-parallel group, or
// a data-parallel group that fits, never straddles two domains. 1 without
// NVLink; off GPUs, the VM's devices.
int NvlinkDomainDevices(const Family& f, const Config& c);

// Devices of the point's NVLink/ICI domain (`per_slice`: a slice's
// devices): a TPU slice, a GPU VM (PCIe too: experts may all-to-all over
// it), or NvlinkDomainDevices.
int DomainDevices(const Family& f, const Config& c, int per_slice);

// The tensor-parallel degree of the point's hybrid layouts: the largest
// power of two up to kPolicy.max_tensor_parallel that tiles the domain
// (Megatron-LM §3.3: TP never crosses the network); 1 over PCIe or on CPUs.
int DomainTensorParallel(const Family& f, const Config& c, int per_slice);

// Whether tensor parallelism of degree `tp` splits the job's stated
// attention heads and key/value groups as PyTorch's Megatron-LM needs
// (under XLA, JAX and TensorFlow, the query heads only: a key/value head
// is replicated), and the largest degree that does, halving a power of two `tp`
// (so that it still tiles the domain). Every layout the planner builds or a pin
// spells holds to it (docs/planner.md §8).
bool HeadsSplitOver(const Job& job, int tp, Platform platform);
// Whether the key/value groups bind too: not under XLA (JAX, TensorFlow,
// and whatever runs on a TPU, PyTorch through PyTorch/XLA included).
bool KeyValueGroupsBind(const Job& job, Platform platform);
int TensorDegreeTheHeadsAllow(const Job& job, int tp, Platform platform);
// The policy's largest tensor-parallel degree the heads allow.
int TensorParallelCap(const Job& job, Platform platform);

// The devices a tensor-parallel group may span: the domain; a GPU VM
// without NVLink (PCIe only) has none (Megatron-LM §3.3).
int TensorDomain(const Family& f, const Config& c);

// The expert-parallel degree of a layout with `tensor`-way TP inside the
// domain (`domain` devices, DomainDevices). An NVLink domain spanning VMs
// takes any whole number of its VMs that divides the point's (every group
// the same size): the one whose devices share the most of the experts'
// divisors (256 experts on 16 A4X VMs of one NVL72 domain: EP 64).
int DomainExpertParallel(const Job& job, const Family& f, const Config& c,
                         int domain, int tensor);

// Where a group of `devices` GPUs (a TP or EP group) runs, for a plan's
// note: "VM over NVLink" (or PCIe), "group of 2 VMs (8 GPUs) in one NVLink
// domain"; a TPU's "slice over ICI".
std::string DomainOf(const Family& f, const Config& c, int devices);

// The note a point needs when its NVLink groups span VMs: create them as
// one sub-block (catalog source A4X-MIG); empty otherwise.
std::string SubBlockNote(const Family& f, const Config& c);

// The largest power of two that divides n (1 for n <= 0).
int LargestPowerOfTwoDividing(int n);
// The largest power of two not above `n` (1 for n < 2).
int PowerOfTwoAtMost(int n);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_DOMAINS_H_
