// Stage 1 of the planner: the catalog turned into candidate families (one
// GPU series + accelerator, TPU version, CPU series or edge device), built
// once per catalog snapshot; and matching a hardware description to them.
#ifndef ACCELPLAN_PLANNER_INDEX_H_
#define ACCELPLAN_PLANNER_INDEX_H_

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/planner.h"
#include "planner/time_model.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// One rentable unit: a VM shape (GPU, CPU, edge) or a TPU slice topology.
struct Shape {
  const catalog::MachineType* machine = nullptr;  // per-VM type
  const catalog::TpuTopology* topology = nullptr;  // TPU only
  int devices = 1;  // accelerators (CPU: the VM is one device)
  int vms = 1;
  std::optional<double> on_demand_hourly;  // the whole shape
  std::optional<double> spot_hourly;
  std::string price_date;
  std::string price_region;
  std::string price_source_id;
  // The catalog's offer rows for this shape, per catalog::RunPlatform,
  // reduced once per snapshot (planner/rules.cc reads them per request).
  struct RunPlatformOffer {
    bool absent = false;            // documented not offered there
    // Documented not offered with a provisioning (catalog::Provisioning
    // kOnDemand, kSpot, kFlexStart, kReservation).
    std::array<bool, 4> provisioning_absent{};
    bool listed = false;  // an available row names it there
  };
  std::array<RunPlatformOffer, 3> offer;
  const RunPlatformOffer& OfferOn(catalog::RunPlatform rp) const {
    return offer[static_cast<size_t>(rp)];
  }
};

// A candidate family: one GPU series + accelerator, one TPU version, one CPU
// series, or one edge device. Everything here depends only on the catalog.
struct Family {
  std::string name;  // "A3 High", "N1 + T4", "TPU v5p", "N2"
  const catalog::Series* series = nullptr;
  const catalog::Accelerator* accelerator = nullptr;  // null for CPU
  Platform platform = Platform::kUnspecified;
  std::vector<Shape> shapes;  // ascending by devices, then price
  double device_memory_bytes = 0;  // per accelerator (CPU: per VM, see shape)
  int max_devices_per_vm = 1;
  double intra_vm_bytes_per_s = 0;  // per device, one way
  // GPUs joined by NVLink inside a VM (else PCIe): where tensor
  // parallelism runs (kPolicy.max_tensor_parallel).
  bool nvlink = false;
  // GPUs of one NVLink domain that spans VMs (catalog nvlink_domain_gpus:
  // A4X's NVL72 sub-block, 72 GPUs over 18 VMs); 0: the domain is the
  // point's VM. Unused on TPUs (a slice is their domain).
  int nvlink_domain_devices = 0;
  double inter_vm_bytes_per_s = 0;  // per device, one way (0: single VM only)
  // What a hop between VMs adds to a GPU collective beyond NCCL's own
  // network figure (catalog network_hop_latency; 0 when unknown).
  double network_hop_extra_us = 0;
  double ici_bytes_per_s = 0;       // TPU per chip, one way
  double dcn_bytes_per_s_per_chip = 0;
  int sparse_cores = 0;
  bool preview = false;
  bool modern = true;  // Ampere+ GPU or TPU (MFU band)
  // Published measured runs on this platform (catalog measured_efficiency),
  // for the calibrated MFU band (planner/efficiency.h); `generation` is the
  // GPU architecture or the TPU accelerator id, the key of the first
  // fallback. Pointers into the catalog snapshot the index was built from.
  struct EfficiencyRun {
    const catalog::MeasuredEfficiency* run = nullptr;
    bool same_accelerator = false;
    bool same_generation = false;
  };
  std::string generation;
  std::vector<EfficiencyRun> efficiency_runs;
  // The calibrated band of each work class (precision class × software
  // stack × dense or mixture of experts), reduced from efficiency_runs once
  // per snapshot by PrecomputeMfuBands (planner/efficiency.h); runs == 0:
  // no published run, the assumed default applies.
  static constexpr int kMfuClasses = 2 * 4 * 2;
  std::array<MfuRange, kMfuClasses> mfu_bands{};
  // The units of Multislice: the largest multi-host TPU topology, and the
  // largest of a power-of-two chip count (index.cc FindMultisliceUnits).
  const Shape* largest_multi_host_slice = nullptr;
  const Shape* power_of_two_multi_host_slice = nullptr;
  std::vector<std::string> fact_sources;  // source ids of the facts used
  // The names constraints.allowed_series matches, normalised once per
  // catalog snapshot (NormalizeName): the series id, the family name and,
  // for an accelerator family, the accelerator's id and name.
  std::vector<std::string> allowed_series_keys;
  // The accelerator's names (AskedName): its id and name normalized, and
  // its GKE / Vertex AI labels as label keys.
  std::vector<std::string> accelerator_keys;
  std::vector<std::string> accelerator_label_keys;
  // What SeriesKeysNamed compares a name with: the series id lowercased,
  // and the family's machine types normalized.
  std::string series_lower;
  std::vector<std::string> machine_keys;
  // The words of the accelerator's name that name its chip (model numbers,
  // parenthesised aliases: "h100", "trillium"), for a chip's common name.
  std::vector<std::string> chip_words;
};

// The catalog offerings that say where a point runs: the TPU accelerator's
// (a slice runs wherever its chips are offered), else its VM's machine
// type's; null when the point has no machine type.
inline const std::vector<catalog::Offering>* RunOfferingsOf(const Family& f,
                                                            const Shape* s) {
  if (f.platform == Platform::kTpu && f.accelerator != nullptr) {
    return &f.accelerator->offerings;
  }
  return s != nullptr && s->machine != nullptr ? &s->machine->offerings
                                               : nullptr;
}

struct Index {
  std::vector<Family> families;
  std::vector<AcceleratorInfo> listing;  // one per machine type
  std::vector<SourceInfo> sources;
};

Index BuildIndex(const catalog::Catalog& catalog);

// A shape's prices from a catalog price row (TPUs: per chip, times chips).
void PriceShape(Shape& s, const std::optional<catalog::Price>& p,
                double multiplier);

// The facts of a family derived from its series, accelerator and shapes
// (shapes sorted, memory, bandwidths, preview, sources), and then, once its
// shapes no longer move, its allowed-series keys and Multislice unit.
// BuildIndex applies both to every family; a family built outside the
// index (legacy hardware kept by the team, planner/legacy.h) too.
void FinishFamily(Family& f);
void FinishFamilyKeys(Family& f);

// A name a request gives for an accelerator, normalized once. It names an
// accelerator by its id or name ("tpu-v5e", "NVIDIA T4", "v5e"), or by the
// name GKE or Vertex AI gives it ("nvidia-tesla-a100", "NVIDIA_TESLA_A100",
// "tpu-v5-lite-podslice"; the catalog's labels, matched whole: "A100" alone
// is no label, and the GKE resource name names every GPU).
class AskedName {
 public:
  explicit AskedName(const std::string& name);
  bool Names(const catalog::Accelerator& a) const;
  // With the family's precomputed keys (FinishFamilyKeys).
  bool Names(const Family& f) const;

 private:
  std::string norm_, tpu_norm_, label_;
};

// The series keys (Family::allowed_series_keys) one name in
// constraints.allowed_series selects. A key selects itself ("v5p" reads as
// "TPU v5p", as an accelerator name does). Else a name Google gives a
// machine series that the catalog splits ("A3" for A3 Ultra, Mega, High and
// Edge; "A2") selects each series whose id begins with it as a word. Else a
// machine type selects its family's series. Else a chip's common name —
// model numbers and parenthesised aliases of its accelerator's name
// ("H100": A3 High, Mega and Edge; "Trillium": TPU v6e; not "80GB") —
// selects each series carrying it. Empty: it selects nothing.
std::vector<std::string> SeriesKeysNamed(const Index& index,
                                         const std::string& name);
// The same keys, and what in the name selected them.
struct SeriesNamed {
  enum class By { kNothing, kSeries, kMachineType, kChip };
  std::vector<std::string> keys;
  By by = By::kNothing;
};
SeriesNamed MatchSeriesName(const Index& index, const std::string& name);

// Families that a hardware description names: series ("A3 Ultra", "N1"),
// accelerator ("tpu-v5e", "T4"), machine type ("g4-standard-48"), or only a
// platform. Empty when nothing matches.
std::vector<const Family*> MatchFamilies(const Index& index, Platform platform,
                                         const std::string& series,
                                         const std::string& accelerator,
                                         const std::string& machine_type);

}  // namespace accelplan::planner::internal

namespace accelplan::planner {
// The Planner's private snapshot index, defined once for planner.cc and
// review.cc.
struct Planner::Index : internal::Index {};
}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_INDEX_H_
