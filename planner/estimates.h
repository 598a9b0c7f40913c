// Stage 5: the numbers of one point — peak throughput at the job's
// precision, step time (compute, exposed communication, pipeline bubble),
// total hours and price.
#ifndef ACCELPLAN_PLANNER_ESTIMATES_H_
#define ACCELPLAN_PLANNER_ESTIMATES_H_

#include <string>
#include <vector>

#include "planner/candidate.h"

namespace accelplan::planner::internal {

// Whether the job's fp32 matrix products run on tensor cores as TF32 by
// default where the GPU has them: TensorFlow ("TensorFloat-32 is enabled
// by default",
// https://www.tensorflow.org/api_docs/python/tf/config/experimental/enable_tensor_float_32_execution)
// and JAX ("TF32 on recent GPUs",
// https://docs.jax.dev/en/latest/201/precision.html) do; PyTorch only for
// convolutions (torch.backends.cudnn.allow_tf32 defaults to True,
// torch.backends.cuda.matmul.allow_tf32 to False since 1.12,
// https://pytorch.org/docs/stable/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices).
bool Fp32RunsAsTf32(const Workload& w);

// Peak FLOPS per device of a shape at a precision (0: the catalog has
// none); at fp32 on a GPU, the TF32 tensor-core peak if `tf32` (and the GPU
// has one), else the CUDA-core fp32 peak. `sources` collects the facts
// used, `note` an assumption made.
double PeakFlops(const Family& f, const Shape& s, Precision p, bool tf32,
                 std::vector<std::string>* sources, std::string* note);

// The MFU band's device class.
DeviceClass ClassOf(const Family& f);

// The link inside the point's NVLink/ICI domain: ICI on a TPU, NVLink (or
// PCIe) inside a GPU VM. Tensor-parallel and expert all-to-all traffic
// ride it.
double DomainLinkBytesPerS(const Family& f);
// A VM's network bandwidth per accelerator, bytes/s; 0 when unknown.
double NicSharePerDevice(const catalog::MachineType* m);
// The link a pipeline's stage hand-offs cross: DCN between slices, ICI
// inside a slice, the VMs' NICs between GPU VMs, else NVLink/PCIe.
double PipelineLinkBytesPerS(const Family& f, const Config& c);

// Accelerators of the point's VM (1 when the catalog gives none).
int DevicesPerVm(const Config& c);

// Megatron TP: 4 activation all-reduces per layer (2 forward, 2 backward)
// of tokens × hidden 16-bit values per TP group, inside the VM/slice; on
// the critical path. The same whatever the pipeline depth: layers per stage
// (L/p) times tokens per replica (T·t·p/n).
struct TpTraffic {
  double bytes = 0;
  double link_bytes_per_s = 0;
};
TpTraffic TensorParallelTraffic(const Job& job, const Family& f, int n,
                                const ShardingLayout& layout);

// Fills c.mfu, c.step, c.comm_*, c.tokens_per_second and c.hours from the
// point's size and layout.
// `end_to_end`: a calibrated MFU band (measured runs, planner/efficiency.h)
// already includes the tensor-parallel traffic (up to the degree its runs
// used) and pipeline bubble of the layouts it was measured with, so the
// chosen layout's numbers do not add them again. Layouts are *ranked* with
// those costs modelled (end_to_end false), so model parallelism is never free
// when choosing. `mfu`: the family's CalibratedMfu(job, f) when the caller has
// it (a point's layouts share it), else it is looked up.
void EstimateTime(const Job& job, const Family& f, Config& c,
                  bool end_to_end = false, const MfuRange* mfu = nullptr);

// The sequences (or examples) a step runs over the stated global batch
// (1 without one, or for a team's own per-device footprint): each
// data-parallel rank runs whole micro-batches, so a rank count that does
// not divide the batch runs padding on some ranks and the synchronous step
// waits for the fullest (a per-rank batch is a whole number: JAX shards a
// whole per-device batch, a PyTorch DataLoader's batch_size is per rank).
// 1,024 sequences on 896 ranks run as 2 per rank: 1.75x.
double RunBatchOverStated(const Job& job, const Config& c);

// EstimateTime in its two halves, for a caller that times one layout twice
// (ranked, then end to end: planner/layouts.cc): the step's inputs at the
// point's layout and c.mfu (its traffic, latencies and host transfers, and
// the link its gradient collectives ride), then the step, the Reduction
// Server's decision and the hours from them. Only `overheads_in_mfu`
// differs between the two estimates, so the second reuses the inputs of
// the first.
struct TimingInputs {
  StepTimeInput step;
  double collective_link_bytes_per_s = 0;
};
TimingInputs StepInputs(const Job& job, const Family& f, const Config& c,
                        bool end_to_end);
void TimeFromInputs(const Job& job, const Family& f, const TimingInputs& in,
                    Config& c);

// A job's wall-clock hours less its start-up (kPolicy.job_startup_hours,
// which EstimateTime adds once): the hours it trains.
double TrainingHours(double hours);

// Fills the point's hourly prices and cost range under a provisioning.
void Price(const Job& job, Config& c, Provisioning prov);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_ESTIMATES_H_
