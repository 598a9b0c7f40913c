// The fixed latency (the α of an α-β model) of the collectives in a
// training step: the part of a collective's time that does not shrink with
// its bytes. Bandwidth alone says a small model spread very wide steps in
// well under a millisecond; every collective also pays a start-up and a
// latency per hop, which sets a floor on the step and an end to scaling.
// Pure arithmetic, like planner/time_model.h.
#ifndef ACCELPLAN_PLANNER_COLLECTIVE_LATENCY_H_
#define ACCELPLAN_PLANNER_COLLECTIVE_LATENCY_H_

#include "planner/defaults.h"

namespace accelplan::planner {

// NCCL's own latency model (NVIDIA/nccl src/graph/tuning.cc, commit
// b6475625, "Latencies in us": baseLat and hwLat) for its low-latency (LL)
// protocol: a base per collective plus a latency per ring step or tree
// level, by the link the step crosses. The bandwidth term is taken at full
// bandwidth: NCCL switches protocol with the size, and measured runs keep
// about LL's latency while the bandwidth grows (nccl-tests all_reduce_perf
// on 8 x H100 over NVLink, in place: 13.0 us at 8 B, 16.2 us at 1 KB,
// 19.7 us at 512 KB; https://github.com/NVIDIA/dgxc-benchmarking
// nccl/README.md, where this model says 15.0 us; 2 x 8 A100s over
// InfiniBand measure 27.7 us at 8 B where it says 25.2, dstack
// examples/clusters/crusoe at 33be4e79).
struct NcclLatency {
  double ring_base_us = 6.6;
  double tree_base_us = 6.8;
  double nvlink_hop_us = 0.6;  // ring and tree
  double pcie_hop_us = 1.0;
  double net_ring_hop_us = 2.7;
  double net_tree_hop_us = 5.0;
  // A ring across hosts posts every step to the network: each step inside
  // a host costs at least this (getNetOverhead: 1 us on Intel x86, 2 on
  // AMD; the catalog does not say which CPU a GPU VM has).
  double net_post_us = 1.0;
};
inline constexpr NcclLatency kNccl{};

struct CollectiveLatencyModel {
  // TPU ICI: "each hop has some intrinsic overhead regardless of the data
  // volume. This is typically around 1us" (Scaling Book sharding.md), and
  // its worked AllGather over 4 v5e chips (3 hops, 32 kB shards) measured
  // "closer to 8us": the 5 us beyond the hops is each collective's fixed
  // cost (lax.ppermute on v5p fits 4.55 us + bytes / 86 GB/s,
  // github.com/marin-community/marin/issues/6736).
  SourcedDefault ici_hop_us{
      1.0, "Scaling Book sharding.md: ICI per-hop overhead ~1 us"};
  SourcedDefault ici_fixed_us{
      5.0,
      "Scaling Book sharding.md: 3-hop v5e AllGather measured ~8 us, less "
      "3 x 1 us of hops"};
  // DCN between TPU slices: no published collective latency. One-way MPI
  // latency between Google Cloud VMs before tuning: 28 us ("from 28us to
  // 8us", https://cloud.google.com/blog/products/compute/
  // how-to-reduce-mpi-latency-for-hpc-workloads-on-google-cloud). A
  // cross-slice all-reduce is taken as a tree over the slices: 2 × ⌈log2
  // slices⌉ such hops.
  SourcedDefault dcn_hop_us{
      28.0,
      "Google Cloud blog, How to reduce MPI latency for HPC workloads on "
      "Google Cloud: 28 us one way before tuning"};
  // Gradients are all-reduced in buckets, each one collective: PyTorch
  // DDP's bucket_cap_mb defaults to 25 MiB
  // (https://docs.pytorch.org/docs/stable/generated/
  // torch.nn.parallel.DistributedDataParallel.html). Taken for every
  // framework's gradient all-reduce.
  SourcedDefault gradient_bucket_bytes{
      25.0 * 1024 * 1024,
      "PyTorch DistributedDataParallel: bucket_cap_mb=25 by default"};
};
inline constexpr CollectiveLatencyModel kLatency{};

enum class CollectiveOp {
  kAllReduce,
  kAllGather,  // and reduce-scatter: the same ring steps
};

// The latency of one NCCL collective: the lower of ring and (for an
// all-reduce) tree, as NCCL picks. `ranks` ranks on `nodes` hosts;
// `nvlink` the link inside a host (else PCIe); `net_extra_us` added to
// each network hop (the series' catalog network_hop_latency, 0 for NCCL's
// own figure).
double NcclLatencySeconds(CollectiveOp op, int ranks, int nodes, bool nvlink,
                          double net_extra_us);

// The latency of one XLA collective over `chips` chips of a TPU slice whose
// torus has `torus_dims` axes: a fixed cost plus one hop per chip along
// each axis of a cube-shaped group, round(chips^(1/d)) - 1 per axis and at
// least one hop in all (an all-reduce is a reduce-scatter and an
// all-gather: twice the hops). That is the hop count without wraparound
// links, as in the Scaling Book's v5e example; a slice with wraparound
// halves the longest path, so the rule is high there by up to the hops'
// share.
double IciCollectiveLatencySeconds(CollectiveOp op, int chips, int torus_dims);

// The latency of one all-reduce across `slices` TPU slices over DCN.
double DcnAllReduceLatencySeconds(int slices);

// The latency of one all-reduce through a Vertex AI Reduction Server: the
// VM's `gpus_per_vm` GPUs reduce and broadcast inside the VM as NCCL's tree
// does (its base and two intra-VM hops per GPU), and each worker sends to
// the reducers and receives the result, two network hops at NCCL's figure
// (the pool rides the host NICs, not a GPUDirect transport).
double ReductionServerLatencySeconds(int gpus_per_vm, bool nvlink);

// Gradient buckets of `bytes`: one collective each (at least one; 0 for no
// bytes). A double: an absurd-but-valid model has more than an int holds.
double GradientBuckets(double bytes);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_COLLECTIVE_LATENCY_H_
