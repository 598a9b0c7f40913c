// The synthetic catalog holds what catalog::LoadCatalog and the build's
// invariants (catalog/invariants.h) demand of a real one, so a rule test on
// it cannot pass thanks to a row the production catalog could never have.
// Those checks read SQLite; these are their in-memory counterparts.
#include "tests/planner/testing/synthetic_catalog.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "catalog/dates.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace accelplan::planner::testutil {
namespace {

using ::testing::IsEmpty;

// Every option of every spec exercised once.
catalog::CatalogPtr EveryOption() {
  return SyntheticCatalog("2026-09-01")
      .AddGpuSeries("Z9",
                    {.accelerator = "zpu-1",
                     .memory_gib = 24,
                     .peak_bf16_tflops = 400,
                     .peak_fp8_tflops = 800,
                     .devices_per_vm = {1, 8},
                     .on_demand_hourly_per_device = 2,
                     .spot_hourly_per_device = 0.8,
                     .nvlink_gbps = 900,
                     .inter_vm_gbps = 100,
                     .on_demand = false,
                     .end_of_support = "2027-01-31",
                     .frameworks = {{catalog::kFrameworkJax,
                                     catalog::SupportStatus::kUnverified}},
                     .run_platforms = {.gke = false},
                     .workload_lists = {catalog::WorkloadList::kFineTuning}})
      .AddTpu({.accelerator = "ztpu-1",
               .name = "TPU Z1",
               .memory_gib = 32,
               .peak_bf16_tflops = 500,
               .ici_gbps = 800,
               .dcn_gbps = 100,
               .topologies = {"4x4", "1x1", "2x2x1", "8x8"},
               .on_demand_hourly_per_chip = 1.5})
      .AddCpuSeries("ZC1", {.fp32_gflops_per_vcpu = 64, .vcpus = {8, 96}})
      .Build();
}

// Every source id a row cites, with the row it is on.
std::vector<std::pair<std::string, std::string>> Citations(
    const catalog::Catalog& c) {
  std::vector<std::pair<std::string, std::string>> out;
  auto fact = [&](const std::optional<catalog::Fact>& f,
                  const std::string& row) {
    if (f) out.push_back({f->source_id, row});
  };
  auto offerings = [&](const std::vector<catalog::Offering>& os,
                       const std::string& row) {
    for (const catalog::Offering& o : os) out.push_back({o.source_id, row});
  };
  for (const catalog::Series& s : c.series) {
    out.push_back({s.source_id, s.id});
    fact(s.nvlink_bandwidth, s.id);
    fact(s.fp32_flops_per_vcpu, s.id);
    for (const auto& [list, id] : s.workload_lists) out.push_back({id, s.id});
  }
  for (const catalog::Accelerator& a : c.accelerators) {
    out.push_back({a.source_id, a.id});
    for (const auto* f :
         {&a.memory_bytes, &a.peak_bf16, &a.peak_fp16, &a.peak_fp32,
          &a.peak_fp8, &a.ici_bandwidth, &a.dcn_bandwidth}) {
      fact(*f, a.id);
    }
    for (const auto& [name, f] : a.formats) out.push_back({f.source_id, a.id});
    for (const auto& [name, f] : a.frameworks) {
      out.push_back({f.source_id, a.id});
    }
    if (a.end_of_support) out.push_back({a.end_of_support_source_id, a.id});
    for (const catalog::TpuTopology& t : a.topologies) {
      out.push_back({t.source_id, a.id});
    }
    if (a.chip_price) out.push_back({a.chip_price->source_id, a.id});
    offerings(a.offerings, a.id);
  }
  for (const catalog::MachineType& m : c.machine_types) {
    out.push_back({m.source_id, m.id});
    if (m.price) out.push_back({m.price->source_id, m.id});
    offerings(m.offerings, m.id);
  }
  for (const auto& [name, f] : c.cpu_frameworks) {
    out.push_back({f.source_id, name});
  }
  return out;
}

TEST(SyntheticCatalogTest, EveryRowCitesASourceThatResolves) {
  const catalog::CatalogPtr c = EveryOption();
  const auto citations = Citations(*c);
  EXPECT_GT(citations.size(), 50u);
  for (const auto& [id, row] : citations) {
    const catalog::Source* s = c->FindSource(id);
    ASSERT_NE(s, nullptr) << row << " cites '" << id << "'";
    EXPECT_FALSE(s->url.empty()) << id;
  }
}

TEST(SyntheticCatalogTest, IndicesAndOrderAreTheLoaders) {
  const catalog::CatalogPtr c = EveryOption();
  EXPECT_TRUE(
      std::is_sorted(c->machine_types.begin(), c->machine_types.end(),
                     [](const auto& a, const auto& b) { return a.id < b.id; }));
  for (const catalog::MachineType& m : c->machine_types) {
    EXPECT_EQ(c->FindMachineType(m.id), &m);
    EXPECT_NE(c->FindSeries(m.series_id), nullptr) << m.id;
    if (!m.accelerator_id.empty()) {
      EXPECT_NE(c->FindAccelerator(m.accelerator_id), nullptr) << m.id;
    }
  }
  for (const catalog::Accelerator& a : c->accelerators) {
    EXPECT_EQ(c->FindAccelerator(a.id), &a);
    EXPECT_NE(c->FindSeries(a.series_id), nullptr) << a.id;
    EXPECT_TRUE(std::is_sorted(
        a.topologies.begin(), a.topologies.end(),
        [](const auto& x, const auto& y) { return x.chips < y.chips; }))
        << a.id;
  }
}

// catalog/invariants.h, the ones that apply to what the builder writes.
std::vector<std::string> InvariantViolations(const catalog::Catalog& c) {
  std::vector<std::string> out;
  auto price = [&](const std::optional<catalog::Price>& p,
                   const std::string& row) {
    if (!p) return;
    if ((p->on_demand_usd && *p->on_demand_usd <= 0) ||
        (p->spot_usd && *p->spot_usd <= 0)) {
      out.push_back(absl::StrCat(row, ": price not positive"));
    }
    if (!catalog::IsCalendarDate(p->date) || p->date > c.data_date) {
      out.push_back(absl::StrCat(row, ": price date ", p->date));
    }
  };
  for (const catalog::Accelerator& a : c.accelerators) {
    if (a.peak_fp8 && a.peak_bf16 && a.peak_fp8->value <= a.peak_bf16->value) {
      out.push_back(absl::StrCat(a.id, ": peak_fp8 not above peak_bf16"));
    }
    price(a.chip_price, a.id);
    // Host vCPUs and memory per chip within 20% of the series median; the
    // builder gives every VM size the same share, so any spread is a bug.
    std::vector<double> vcpus_per_chip;
    for (const catalog::TpuTopology& t : a.topologies) {
      int product = 1;
      for (absl::string_view d : absl::StrSplit(t.topology, 'x')) {
        int n = 0;
        product *= absl::SimpleAtoi(d, &n) ? n : 0;
      }
      if (product != t.chips) {
        out.push_back(absl::StrCat(a.id, " ", t.topology, ": chips ", t.chips));
      }
      const catalog::MachineType* m = c.FindMachineType(t.machine_type_id);
      if (m == nullptr || m->accelerator_id != a.id) {
        out.push_back(absl::StrCat(a.id, " ", t.topology, ": machine type"));
        continue;
      }
      vcpus_per_chip.push_back(1.0 * m->vcpus.value_or(0) /
                               m->accelerator_count);
    }
    if (!vcpus_per_chip.empty()) {
      std::sort(vcpus_per_chip.begin(), vcpus_per_chip.end());
      const double median = vcpus_per_chip[vcpus_per_chip.size() / 2];
      for (double v : vcpus_per_chip) {
        if (v < 0.8 * median || v > 1.2 * median) {
          out.push_back(absl::StrCat(a.id, ": vCPUs per chip ", v));
        }
      }
    }
  }
  for (const catalog::MachineType& m : c.machine_types) price(m.price, m.id);
  return out;
}

TEST(SyntheticCatalogTest, HoldsTheCatalogInvariants) {
  EXPECT_THAT(InvariantViolations(*EveryOption()), IsEmpty());
}

TEST(SyntheticCatalogTest, StoresSpecSheetUnitsAsSiUnits) {
  const catalog::CatalogPtr c = EveryOption();
  const catalog::Accelerator* z = c->FindAccelerator("zpu-1");
  ASSERT_NE(z, nullptr);
  EXPECT_DOUBLE_EQ(z->memory_bytes->value, 24.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(z->peak_fp8->value, 800e12);
  EXPECT_EQ(z->end_of_support, "2027-01-31");
  EXPECT_DOUBLE_EQ(c->FindSeries("Z9")->nvlink_bandwidth->value, 900e9);
  const catalog::MachineType* vm = c->FindMachineType("z9-gpu-8g");
  ASSERT_NE(vm, nullptr);
  EXPECT_DOUBLE_EQ(*vm->price->on_demand_usd, 16);
  EXPECT_DOUBLE_EQ(*vm->network_bits_per_s, 800e9);
  const catalog::Accelerator* t = c->FindAccelerator("ztpu-1");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->topologies.size(), 4u);
  EXPECT_EQ(t->topologies.back().topology, "8x8");
  EXPECT_EQ(t->topologies.back().vms, 16);
  EXPECT_TRUE(t->chip_price->per_chip);
}

}  // namespace
}  // namespace accelplan::planner::testutil
