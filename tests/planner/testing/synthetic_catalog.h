// A small in-memory catalog of made-up hardware, so that a planner rule can
// be shown to follow from catalog facts alone, for hardware the production
// catalog does not have. No SQLite: Build() fills catalog::Catalog directly,
// with every row the loader would have attached (facts with sources, formats,
// framework support, offerings per run platform and provisioning, prices
// with dates, end of support, workload lists, labels).
//
//   catalog::CatalogPtr c =
//       SyntheticCatalog()
//           .AddGpuSeries("Z9", {.accelerator = "zpu-1", .memory_gib = 24,
//                                .peak_bf16_tflops = 400,
//                                .devices_per_vm = {1, 2, 4, 8},
//                                .on_demand_hourly_per_device = 2})
//           .AddTpu({.accelerator = "ztpu-1", .name = "TPU Z1", ...})
//           .AddCpuSeries("ZC1", {.fp32_gflops_per_vcpu = 64})
//           .AddEdgeDevice({.accelerator = "zedge-1", .name = "Z Edge", ...})
//           .Build();
//
// Quantities are given in the units of a spec sheet (GiB, TFLOPS, GB/s,
// Gbit/s, USD per hour); Build() stores the catalog's SI units. Every fact of
// a family cites that family's own source, "synthetic-<id>".
#ifndef ACCELPLAN_TESTS_PLANNER_TESTING_SYNTHETIC_CATALOG_H_
#define ACCELPLAN_TESTS_PLANNER_TESTING_SYNTHETIC_CATALOG_H_

#include <map>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace accelplan::planner::testutil {

// Framework name (catalog::kFramework*) -> status. A framework the map does
// not name is documented as supported, so a test states only the exception.
using FrameworkStatuses = std::map<std::string, catalog::SupportStatus>;

// Where an offering can run. Each run platform gets an offering row either
// way (available or documented absent), as the production catalog has: Vertex
// serverless training runs only what a row names, so silence would read as
// absence there and as availability elsewhere.
struct RunPlatforms {
  bool vertex_training = true;
  bool gke = true;
  bool compute_engine = true;
};

// Every member of the specs below has an initializer, so a designated-
// initializer call site may leave any of them out without tripping
// -Wmissing-field-initializers.

// One GPU series whose VMs carry 1..N of a single accelerator.
struct GpuSeriesSpec {
  std::string accelerator{};  // accelerator id, e.g. "zpu-1"
  double memory_gib = 0;      // per device
  double peak_bf16_tflops = 0;
  double peak_fp8_tflops = 0;              // 0: the catalog lists no fp8 peak
  std::vector<int> devices_per_vm = {1};   // one machine type each
  double on_demand_hourly_per_device = 0;  // USD; 0: no on-demand price
  double spot_hourly_per_device = 0;       // USD; 0: no Spot price
  double nvlink_gbps = 0;    // GB/s per GPU, bidirectional; 0: PCIe only
  // GPUs of one NVLink domain spanning VMs (catalog nvlink_domain_gpus,
  // A4X's 72); 0: the domain is one VM.
  int nvlink_domain_gpus = 0;
  double inter_vm_gbps = 0;  // host network, Gbit/s per GPU; 0: unknown
  // What a hop between VMs adds to a collective (catalog
  // network_hop_latency), microseconds; 0: not documented.
  double network_hop_latency_us = 0;
  double host_memory_gib_per_device = 64;  // the VM's memory over its GPUs
  // false: documented not available on-demand (it needs Spot, flex-start
  // or a reservation), as Google documents for A4.
  bool on_demand = true;
  std::string end_of_support{};  // YYYY-MM-DD; empty: none documented
  FrameworkStatuses frameworks{};
  RunPlatforms run_platforms{};
  std::vector<catalog::WorkloadList> workload_lists{};
  // A legacy catalog row: never a candidate, planned only when a team
  // keeps it as its current hardware.
  bool legacy = false;
};

// One TPU generation; its series is named after `name`.
struct TpuSpec {
  std::string accelerator{};  // e.g. "ztpu-1"
  std::string name{};         // e.g. "TPU Z1": family and series name
  double memory_gib = 0;      // per chip
  double peak_bf16_tflops = 0;
  double peak_fp8_tflops = 0;  // 0: the catalog lists no fp8 peak
  double ici_gbps = 0;         // GB/s per chip, bidirectional
  double dcn_gbps = 0;         // Gbit/s per chip; 0: none (no Multislice)
  int chips_per_vm = 4;        // VMs of a multi-host slice
  double host_memory_gib_per_chip = 48;  // the VM's memory over its chips
  // Slice shapes such as "1x1", "2x2", "4x4": chips are the product of the
  // dimensions, VMs the chips over chips_per_vm (at least one).
  std::vector<std::string> topologies{};
  double on_demand_hourly_per_chip = 0;  // USD; 0: no on-demand price
  double spot_hourly_per_chip = 0;       // USD; 0: no Spot price
  std::string end_of_support{};
  FrameworkStatuses frameworks{};
  RunPlatforms run_platforms{};
};

// One CPU series; VM sizes by vCPU count.
struct CpuSeriesSpec {
  double fp32_gflops_per_vcpu = 0;
  std::vector<int> vcpus = {8, 32};
  double memory_gib_per_vcpu = 4;
  double on_demand_hourly_per_vcpu = 0.05;  // USD
  double spot_hourly_per_vcpu = 0;          // USD; 0: no Spot price
  double network_gbps = 32;                 // per VM
};

// One edge inference device (series, accelerator and one unpriced device
// row, as the production Coral rows): fully int8 models only.
struct EdgeSpec {
  std::string accelerator{};  // e.g. "zedge-1"
  std::string name{};         // e.g. "Z Edge": family and series name
  double peak_int8_tops = 0;
  double param_cache_mib = 0;  // on-chip parameter cache; 0: not documented
  double max_model_gib = 0;    // largest model file; 0: not documented
};

class SyntheticCatalog {
 public:
  // `data_date` is the catalog's data date and every price's date.
  explicit SyntheticCatalog(std::string data_date = "2026-09-01");

  SyntheticCatalog& AddGpuSeries(const std::string& series,
                                 const GpuSeriesSpec& spec);
  SyntheticCatalog& AddTpu(const TpuSpec& spec);
  SyntheticCatalog& AddCpuSeries(const std::string& series,
                                 const CpuSeriesSpec& spec);
  SyntheticCatalog& AddEdgeDevice(const EdgeSpec& spec);

  // The finished snapshot: machine types sorted by id, TPU topologies by
  // chips, every lookup index filled, as catalog::LoadCatalog leaves them.
  catalog::CatalogPtr Build() const;

 private:
  // A source for `subject`, cited by each of its facts.
  std::string AddSource(const std::string& subject);

  catalog::Catalog catalog_;
};

}  // namespace accelplan::planner::testutil

#endif  // ACCELPLAN_TESTS_PLANNER_TESTING_SYNTHETIC_CATALOG_H_
