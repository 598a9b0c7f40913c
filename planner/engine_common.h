// Small helpers shared by the planner's stages (index, rules, sizing,
// estimates, assembly): enum labels, catalog fact checks, formatting.
#ifndef ACCELPLAN_PLANNER_ENGINE_COMMON_H_
#define ACCELPLAN_PLANNER_ENGINE_COMMON_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "planner/policy.h"
#include "planner/types.h"
#include "planner/util.h"

namespace accelplan::planner::internal {

// A remedy of `kind` for the symptom it addresses, with its one-paragraph
// summary (planner/remedies.cc, planner/edge_rules.cc).
inline Remedy MakeRemedy(RemedyKind kind, Symptom addresses,
                         std::string summary) {
  Remedy r;
  r.kind = kind;
  r.addresses = addresses;
  r.summary = std::move(summary);
  return r;
}

// Derived from the one place each value lives (planner/policy.h,
// planner/defaults.h).
inline constexpr double kHeadroom = kPolicy.headroom_fraction.value;
inline constexpr double kClassicalMemoryFactor =
    kDefaults.classical_memory_factor.value;
// PCIe per accelerator, each way: GPUs in one VM without NVLink (peer
// traffic crosses PCIe) and offloaded activations.
inline constexpr double kPcieBytesPerS = kPolicy.pcie_bytes_per_s.value;
inline constexpr double kHostHeadroom = kPolicy.host_headroom_fraction.value;

Platform ToPlatform(catalog::Platform p);
const char* PlatformName(Platform p);
// The catalog's framework key for a framework on a platform (nullptr: the
// catalog keeps no support row for it).
const char* FrameworkKey(Framework f, bool tpu, bool pytorch_xla_ok);
const char* FrameworkLabel(Framework f);
const char* PrecisionLabel(Precision p);
inline double Gib(double bytes) { return bytes / kGiB; }
// A fact that is present and positive.
bool IsFine(const std::optional<catalog::Fact>& f);
void AddSource(std::vector<std::string>& out, const std::string& id);
bool DocumentedAbsent(const std::vector<catalog::Offering>& offerings,
                      catalog::RunPlatform rp, catalog::Provisioning prov);
bool AnyPreview(const std::vector<catalog::Offering>& offerings);
std::optional<catalog::RunPlatform> ToCatalogRunPlatform(RunPlatform rp);
const char* RunPlatformLabel(RunPlatform rp);

std::string FormatUsd(double usd);
std::string FormatHours(double hours);
// "1 device", "8 devices".
std::string DevicesText(int devices);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_ENGINE_COMMON_H_
