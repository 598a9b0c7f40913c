// Vertex AI Reduction Server: sizing, price and step-time effect of pool 2
// (planner/reduction_server.h).
#include "planner/reduction_server.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_format.h"
#include "planner/collective_latency.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/job_spec.h"

namespace accelplan::planner::internal {
namespace {

// Cross-host data parallel: plain or ZeRO-1/2 replicas, no FSDP gathers,
// no pipeline or Multislice (their traffic is not one gradient all-reduce).
bool CrossHostDataParallel(const Family& f, const Config& c) {
  return f.platform == Platform::kGpu && c.hosts > 1 && c.slices <= 1 &&
         c.layout.zero_stage < 3 && c.layout.pipeline <= 1;
}

// Where the point runs (planner/run_platform.h); unspecified without a
// machine type.
RunPlatform RunsOn(const Job& job, const Family& f, const Config& c) {
  if (c.shape == nullptr || c.shape->machine == nullptr) {
    return RunPlatform::kUnspecified;
  }
  RunPlatformInput where;
  where.requested = job.constraints.run_platform;
  where.platform = f.platform;
  where.machine_type = c.shape->machine->gce_machine_type;
  where.offerings = &c.shape->machine->offerings;
  where.provisioning = c.provisioning;
  where.vms_per_slice = std::max(1, c.hosts);
  return RunPlatformOf(where);
}

bool RunsOnVertex(const Job& job, const Family& f, const Config& c) {
  return RunsOn(job, f, c) == RunPlatform::kVertexTraining;
}

// The workers' hourly price at the point's provisioning; 0 when unknown.
double WorkersHourly(const Config& c) {
  const auto& h = c.provisioning == Provisioning::kSpot
                      ? c.shape->spot_hourly
                      : c.shape->on_demand_hourly;
  return h.value_or(0) * c.units;
}

double PoolHourly(const ReducerPool& pool, Provisioning prov) {
  return prov == Provisioning::kSpot && pool.spot_known ? pool.hourly_spot
                                                        : pool.hourly_on_demand;
}

// Total reducer bandwidth >= total worker bandwidth (pools 0 + 1), priced
// from the catalog.
// The image is set by the caller once the pool is kept (a string copy per
// point otherwise).
ReducerPool MakePool(const catalog::MachineType& r, double egress_bits_per_s,
                     int worker_vms) {
  ReducerPool pool;
  pool.machine = &r;
  pool.reducer_bits_per_s = *r.network_bits_per_s;
  pool.worker_bits_per_s = egress_bits_per_s;
  pool.worker_vms = worker_vms;
  pool.replicas = std::max(
      1, static_cast<int>(std::ceil(worker_vms * egress_bits_per_s /
                                        pool.reducer_bits_per_s -
                                    1e-9)));
  if (r.price && r.price->on_demand_usd) {
    pool.on_demand_known = true;
    pool.hourly_on_demand = *r.price->on_demand_usd * pool.replicas;
  }
  if (r.price && r.price->spot_usd) {
    pool.spot_known = true;
    pool.hourly_spot = *r.price->spot_usd * pool.replicas;
  }
  return pool;
}

}  // namespace

double WorkerEgressBitsPerS(const catalog::MachineType& machine,
                            const catalog::Series* series, const Family* family,
                            int devices) {
  double bits = machine.network_bits_per_s.value_or(0);
  if (series != nullptr && series->host_nic_bandwidth.has_value() &&
      series->host_nic_bandwidth->value > 0) {
    bits = bits > 0 ? std::min(bits, series->host_nic_bandwidth->value)
                    : series->host_nic_bandwidth->value;
  }
  if (bits <= 0 && family != nullptr) {
    bits = family->inter_vm_bytes_per_s * 8 * std::max(0, devices);
  }
  return bits;
}

void ResolveReducer(const catalog::Catalog& catalog, Job& job) {
  auto img = catalog.service_facts.find("reduction_server_image");
  auto mt = catalog.service_facts.find("reduction_server_machine_type");
  if (img == catalog.service_facts.end() || mt == catalog.service_facts.end()) {
    return;
  }
  const catalog::MachineType* m = catalog.FindMachineType(mt->second.first);
  if (m == nullptr || !m->network_bits_per_s || *m->network_bits_per_s <= 0) {
    return;
  }
  job.reducer_machine = m;
  job.reducer_image = img->second.first;
}

std::optional<ReducerPool> SizeReducerPool(const catalog::Catalog& catalog,
                                           const catalog::MachineType& machine,
                                           const catalog::Series* series,
                                           const Family* family,
                                           int worker_vms) {
  Job facts;
  ResolveReducer(catalog, facts);
  const double feed =
      WorkerFeedBitsPerS(machine, series, family, machine.accelerator_count);
  if (facts.reducer_machine == nullptr || feed <= 0 || worker_vms < 1) {
    return std::nullopt;
  }
  ReducerPool pool = MakePool(*facts.reducer_machine, feed, worker_vms);
  pool.image_uri = facts.reducer_image;
  return pool;
}

bool ReductionServerApplies(const Job& job, const Family& f, const Config& c) {
  return job.nccl_framework && CrossHostDataParallel(f, c) &&
         c.provisioning != Provisioning::kFlexStart && RunsOnVertex(job, f, c);
}

std::vector<std::string> WhyNoReductionServer(const Job& job, const Family& f,
                                              const Config& c) {
  std::vector<std::string> out;
  if (!job.nccl_framework) {
    out.push_back(
        "its framework does not all-reduce over NCCL (TensorFlow "
        "or PyTorch on GPUs, or a job stated to: current.uses_nccl)");
  }
  if (f.platform != Platform::kGpu || c.hosts <= 1) {
    out.push_back(
        absl::StrFormat("it runs on %d host%s of %s, not across "
                        "GPU hosts",
                        c.hosts, c.hosts == 1 ? "" : "s", f.name));
  } else if (!CrossHostDataParallel(f, c)) {
    out.push_back(absl::StrFormat(
        "its gradient is not one data-parallel all-reduce (ZeRO stage %d, "
        "pipeline %d%s)",
        c.layout.zero_stage, std::max(1, c.layout.pipeline),
        c.slices > 1 ? absl::StrFormat(", %d slices", c.slices) : ""));
  }
  if (c.provisioning == Provisioning::kFlexStart) {
    out.push_back("it runs on DWS flex-start");
  }
  const RunPlatform where = RunsOn(job, f, c);
  if (where != RunPlatform::kVertexTraining) {
    out.push_back(absl::StrCat("it runs on ", RunPlatformLabel(where),
                               ", not Vertex AI serverless training, where "
                               "the pool runs"));
  }
  return out;
}

double WorkerFeedBitsPerS(const catalog::MachineType& machine,
                          const catalog::Series* series, const Family* f,
                          int devices_per_vm) {
  const double egress_bits_per_s =
      WorkerEgressBitsPerS(machine, series, f, devices_per_vm);
  // Before a VM's gradient leaves for the reducers its GPUs reduce it among
  // themselves, and gather the result back after: a ring over the VM's own
  // link (NVLink, or PCIe without it), each GPU sending 2·(d-1)/d of the
  // gradient. NCCL pipelines the two hops in chunks, so the slower one
  // bounds the transfer: as a rate for the whole gradient, d/(2·(d-1))
  // times the per-GPU link.
  const int d = devices_per_vm;
  if (f == nullptr || d <= 1 || f->intra_vm_bytes_per_s <= 0) {
    return egress_bits_per_s;
  }
  return std::min(egress_bits_per_s,
                  8 * f->intra_vm_bytes_per_s * d / (2.0 * (d - 1)));
}

bool GradientSyncExposed(const Job& job, const Family& f, const Config& c) {
  const auto& v = job.current.symptoms;
  return f.platform == Platform::kGpu && c.hosts > 1 &&
         std::find(v.begin(), v.end(), Symptom::kGradientSyncBound) != v.end();
}

void ApplyReductionServer(const Job& job, const Family& f, Config& c,
                          const StepTimeInput& in) {
  if (f.platform != Platform::kGpu || c.hosts <= 1) return;
  if (in.bytes_allreduce_per_step <= 0 || !CrossHostDataParallel(f, c)) return;
  if (job.reducer_machine == nullptr || !job.nccl_framework) return;
  c.read_provisioning = true;  // what follows depends on it
  if (!ReductionServerApplies(job, f, c)) return;
  const double feed =
      WorkerFeedBitsPerS(*c.shape->machine, f.series, &f, DevicesPerVm(c));
  if (feed <= 0) return;
  // Sized to what the workers can send, not to a NIC their GPUs' own link
  // cannot fill.
  ReducerPool pool = MakePool(*job.reducer_machine, feed, c.hosts);
  // Each worker VM sends its gradient once and receives the result once
  // (ReductionServerAllReduceSeconds).
  StepTimeInput with = in;
  with.ring_size = c.hosts;
  with.link_bytes_per_s = pool.worker_bits_per_s / 8;
  with.reduction_server_bytes_per_s =
      pool.replicas * pool.reducer_bits_per_s / 8;
  with.dp_latency_seconds =
      GradientBuckets(in.bytes_allreduce_per_step) *
      ReductionServerLatencySeconds(DevicesPerVm(c), f.nvlink);
  const StepTimeEstimate step = EstimateStepTime(with);
  const double before = c.step.step_seconds_expected;
  const double after = step.step_seconds_expected;
  if (!(after > 0 && before > 0)) return;
  const double tol = kPolicy.tie_tolerance.value;
  bool pays = false;
  if (job.objective == Objective::kMinTime) {
    pays = after < before * (1 - tol);
  } else {
    // Cost per unit of work: (workers + reducers) per hour / throughput.
    const double workers = WorkersHourly(c);
    if (workers <= 0 || !pool.on_demand_known) return;
    const double reducers = PoolHourly(pool, c.provisioning);
    pays = (workers + reducers) * after < workers * before * (1 - tol);
  }
  if (!pays) return;
  c.step = step;
  pool.image_uri = job.reducer_image;
  c.reducers = std::move(pool);
}

ReductionServerPool ToPlanPool(const ReducerPool& pool) {
  ReductionServerPool rs;
  rs.machine_type = pool.machine ? pool.machine->gce_machine_type : "";
  rs.image_uri = std::string(pool.image_uri);
  rs.replica_count = pool.replicas;
  rs.reducer_bandwidth_gbps = pool.replicas * pool.reducer_bits_per_s / 1e9;
  rs.worker_bandwidth_gbps = pool.worker_vms * pool.worker_bits_per_s / 1e9;
  return rs;
}

}  // namespace accelplan::planner::internal
