#include "planner/collective_latency.h"

#include <algorithm>
#include <cmath>

namespace accelplan::planner {
namespace {

constexpr double kUs = 1e-6;

double IntraHostHopUs(bool nvlink) {
  return nvlink ? kNccl.nvlink_hop_us : kNccl.pcie_hop_us;
}

int FloorLog2(int n) {
  int log = 0;
  while (n > 1) {
    n /= 2;
    ++log;
  }
  return log;
}

// NCCL's latency of one ring, in us (tuning.cc: the ring's steps, those
// between hosts at the network's hop latency, the rest at the host's).
double RingLatencyUs(CollectiveOp op, int ranks, int nodes, bool nvlink,
                     double net_extra_us) {
  const bool all_reduce = op == CollectiveOp::kAllReduce;
  const int steps = all_reduce ? 2 * (ranks - 1) : ranks - 1;
  const int inter = nodes <= 1 ? 0 : all_reduce ? 2 * nodes : nodes - 1;
  double intra = IntraHostHopUs(nvlink);
  if (nodes > 1) intra = std::max(intra, kNccl.net_post_us);
  const double net = kNccl.net_ring_hop_us + net_extra_us;
  // NCCL lets steps - inter go negative when every rank is on its own host
  // (2(n-1) - 2n); the planner counts no intra-host step there.
  return kNccl.ring_base_us + std::max(0, steps - inter) * intra + inter * net;
}

// NCCL's latency of one tree all-reduce, in us: up and down the ranks of a
// host and a binary tree over the hosts.
double TreeLatencyUs(int ranks, int nodes, bool nvlink, double net_extra_us) {
  const int per_node = std::max(1, ranks / std::max(1, nodes));
  const double intra = IntraHostHopUs(nvlink);
  const double net = kNccl.net_tree_hop_us + net_extra_us;
  return kNccl.tree_base_us +
         2 * ((per_node - 1) * intra + FloorLog2(nodes) * net);
}

}  // namespace

double NcclLatencySeconds(CollectiveOp op, int ranks, int nodes, bool nvlink,
                          double net_extra_us) {
  if (ranks <= 1) return 0;
  nodes = std::clamp(nodes, 1, ranks);
  double us = RingLatencyUs(op, ranks, nodes, nvlink, net_extra_us);
  if (op == CollectiveOp::kAllReduce) {
    us = std::min(us, TreeLatencyUs(ranks, nodes, nvlink, net_extra_us));
  }
  return us * kUs;
}

double IciCollectiveLatencySeconds(CollectiveOp op, int chips, int torus_dims) {
  if (chips <= 1) return 0;
  const int dims = std::max(1, torus_dims);
  const double per_axis = std::round(std::pow(chips, 1.0 / dims));
  const double hops = std::max(1.0, dims * (per_axis - 1)) *
                      (op == CollectiveOp::kAllReduce ? 2 : 1);
  return (kLatency.ici_fixed_us.value + hops * kLatency.ici_hop_us.value) * kUs;
}

double DcnAllReduceLatencySeconds(int slices) {
  if (slices <= 1) return 0;
  const int levels = FloorLog2(slices - 1) + 1;  // ceil(log2 slices)
  return 2.0 * levels * kLatency.dcn_hop_us.value * kUs;
}

double ReductionServerLatencySeconds(int gpus_per_vm, bool nvlink) {
  // NCCL's tree over two hosts: the VM's GPUs, then one network level.
  const int gpus = std::max(1, gpus_per_vm);
  return TreeLatencyUs(2 * gpus, 2, nvlink, 0) * kUs;
}

double GradientBuckets(double bytes) {
  if (!(bytes > 0)) return 0;
  return std::max(1.0, std::ceil(bytes / kLatency.gradient_bucket_bytes.value));
}

}  // namespace accelplan::planner
