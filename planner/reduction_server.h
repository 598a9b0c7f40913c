// Vertex AI Reduction Server (SPEC §4 Distribution): planned only for
// multi-host GPU data parallelism with NCCL (TensorFlow or PyTorch) on
// Vertex AI serverless training; sized from the workers' egress bandwidth,
// priced into the point's hourly cost, its all-reduce modelled
// (time_model.h ReductionServerAllReduceSeconds), and kept only when it
// lowers the cost per unit of work (MIN_TIME: the time).
//
// Sizing (Vertex AI guidance, https://cloud.google.com/vertex-ai/docs/
// training/distributed-training#reduction-server, catalog-facts §4.2): the
// reducers' total bandwidth matches or exceeds the workers' (pools 0 + 1);
// Google's example: 5 VMs x 100 Gbps take 16 x n1-highcpu-16 (32 Gbps).
// A worker's egress to a reducer is its host NICs: on GPUDirect machines
// the GPU NICs carry GPU-to-GPU traffic only (series fact
// host_nic_bandwidth).
#ifndef ACCELPLAN_PLANNER_REDUCTION_SERVER_H_
#define ACCELPLAN_PLANNER_REDUCTION_SERVER_H_

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/candidate.h"

namespace accelplan::planner::internal {

// Bits/s one VM of `machine` can send to a CPU reducer. A VM the catalog
// states no network for gets its family's per-accelerator share
// (Family::inter_vm_bytes_per_s, the figure its all-reduce is timed with)
// for its `devices` accelerators, so that a pool is sized on the traffic it
// relieves; `family` may be null.
double WorkerEgressBitsPerS(const catalog::MachineType& machine,
                            const catalog::Series* series, const Family* family,
                            int devices);

// The pool for `worker_vms` VMs of `machine`: reducers of the catalog's
// reducer machine type, priced from the catalog. nullopt when the catalog
// lacks the reducer machine type, its bandwidth or the image.
// `family` is the machine's family (may be null), for WorkerEgressBitsPerS.
std::optional<ReducerPool> SizeReducerPool(const catalog::Catalog& catalog,
                                           const catalog::MachineType& machine,
                                           const catalog::Series* series,
                                           const Family* family,
                                           int worker_vms);

// The job's reducer facts, resolved once (MakeJob).
void ResolveReducer(const catalog::Catalog& catalog, Job& job);

// Whether a point is multi-host GPU data parallel with NCCL that would run
// on Vertex AI serverless training (where pool 2 exists).
bool ReductionServerApplies(const Job& job, const Family& f, const Config& c);
// The conditions of ReductionServerApplies a point fails, one clause each
// ("it runs on GKE, not Vertex AI serverless training"); empty when none.
std::vector<std::string> WhyNoReductionServer(const Job& job, const Family& f,
                                              const Config& c);

// A stated GRADIENT_SYNC_BOUND on a multi-host GPU point: the user sees the
// gradient sync stall the GPUs, so the cross-host gradient all-reduce (or
// FSDP reduce-scatter) is timed as not hidden behind compute
// (StepTimeInput::gradient_sync_exposed, set by EstimateTime).
bool GradientSyncExposed(const Job& job, const Family& f, const Config& c);

// What one worker VM can send the reducers, in bits per second: its
// egress (WorkerEgressBitsPerS), or the rate its GPUs reduce the gradient
// among themselves (and gather it back) over the VM's own link, NVLink or
// PCIe, when slower. The pool is sized to it and the all-reduce timed at
// it. `f` may be null (egress only).
double WorkerFeedBitsPerS(const catalog::MachineType& machine,
                          const catalog::Series* series, const Family* f,
                          int devices_per_vm);

// Called by EstimateTime with the point's step input: when a Reduction
// Server lowers the cost per unit of work (MIN_TIME: the step time), the
// point takes it: c.step, c.reducers.
void ApplyReductionServer(const Job& job, const Family& f, Config& c,
                          const StepTimeInput& in);

// ReductionServerPool (the plan's and the remedy's wire form) of a pool.
ReductionServerPool ToPlanPool(const ReducerPool& pool);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_REDUCTION_SERVER_H_
