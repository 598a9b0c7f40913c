// Catalog loader tests: key facts of the built catalog.db, and clear errors
// for missing, corrupt and invalid files. Fixtures are copies of the built
// catalog (or fresh files) in a mkdtemp() folder under /tmp.
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "SQLiteCpp/SQLiteCpp.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "catalog/catalog.h"
#include "catalog/loader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/catalog/temp_dir.h"

namespace accelplan::catalog {
namespace {

using ::testing::HasSubstr;

constexpr const char* kBuiltCatalog = ACCELPLAN_CATALOG_DB_PATH;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

class CatalogLoaderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<CatalogPtr> loaded = LoadCatalog(kBuiltCatalog);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    catalog_ = new CatalogPtr(*std::move(loaded));
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static const Catalog& cat() { return **catalog_; }

  static const Accelerator& Acc(const std::string& id) {
    const Accelerator* a = cat().FindAccelerator(id);
    EXPECT_NE(a, nullptr) << id;
    static const Accelerator kEmpty;
    return a != nullptr ? *a : kEmpty;
  }

  // Copies the built catalog into `dir` and applies `sql` to the copy with
  // foreign keys and CHECK constraints off, so broken rows can be written.
  static std::string MutatedCopy(const TempDir& dir, const std::string& sql) {
    const std::string path = dir.File("fixture.sqlite");
    std::filesystem::copy_file(
        kBuiltCatalog, path, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::permissions(path, std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
    if (!sql.empty()) {
      SQLite::Database db(path, SQLite::OPEN_READWRITE);
      db.exec(
          "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON;");
      db.exec(sql);
    }
    return path;
  }

  static CatalogPtr* catalog_;
};

CatalogPtr* CatalogLoaderTest::catalog_ = nullptr;

// ---------------------------------------------------------------- contents

TEST_F(CatalogLoaderTest, VersionIsContentHashAtDataDate) {
  EXPECT_EQ(cat().data_date, "2026-09-26");
  EXPECT_TRUE(std::regex_match(
      cat().version, std::regex("[0-9a-f]{12}@[0-9]{4}-[0-9]{2}-[0-9]{2}")))
      << cat().version;
  EXPECT_THAT(cat().version, ::testing::EndsWith("@" + cat().data_date));
}

TEST_F(CatalogLoaderTest, V5pMemoryIs95GiBUsable) {
  const Accelerator& v5p = Acc("tpu-v5p");
  ASSERT_TRUE(v5p.memory_bytes.has_value());
  EXPECT_DOUBLE_EQ(v5p.memory_bytes->value, 95 * kGiB);
  EXPECT_EQ(v5p.memory_bytes->source_id, "TPU-v5p-md");
  EXPECT_NE(cat().FindSource(v5p.memory_bytes->source_id), nullptr);
}

// Issue 17 audit fixes: each value with the source it now comes from.
TEST_F(CatalogLoaderTest, AuditedFactsCarryTheirFixedValues) {
  EXPECT_DOUBLE_EQ(Acc("nvidia-l4").peak_fp8->value, 242.5e12);
  EXPECT_EQ(Acc("nvidia-l4").peak_fp8->source_id, "NV-L4");
  EXPECT_DOUBLE_EQ(Acc("nvidia-gb300").peak_int8->value, 165e12);
  EXPECT_EQ(Acc("nvidia-gb300").architecture, "Blackwell Ultra");
  EXPECT_EQ(Acc("nvidia-l4").architecture, "Ada Lovelace");
  const MachineType* one = cat().FindMachineType("ct6e-standard-1t");
  ASSERT_NE(one, nullptr);
  EXPECT_DOUBLE_EQ(*one->memory_bytes, 176 * kGiB);
  const MachineType* eight = cat().FindMachineType("ct6e-standard-8t");
  ASSERT_NE(eight, nullptr);
  EXPECT_EQ(eight->vcpus, 360);
  EXPECT_FALSE(eight->network_bits_per_s.has_value());  // host NIC, not VM
  const Series* n1 = cat().FindSeries("N1");
  ASSERT_NE(n1, nullptr);
  EXPECT_DOUBLE_EQ(n1->fp32_flops_per_vcpu->value, 24.8e9);  // Ivy Bridge
}

TEST_F(CatalogLoaderTest, CoverageAddedForIssue17) {
  for (const char* id : {"C2", "M1", "C4D"}) {
    const Series* s = cat().FindSeries(id);
    ASSERT_NE(s, nullptr) << id;
    EXPECT_TRUE(s->fp32_flops_per_vcpu.has_value()) << id;
  }
  bool v4_4x4x12 = false;
  for (const TpuTopology& t : Acc("tpu-v4").topologies) {
    if (t.topology == "4x4x12") v4_4x4x12 = t.chips == 192 && t.vms == 48;
  }
  EXPECT_TRUE(v4_4x4x12);
  const MachineType* g4 = cat().FindMachineType("g4-standard-6");
  ASSERT_NE(g4, nullptr);
  ASSERT_TRUE(g4->price.has_value());
  EXPECT_DOUBLE_EQ(*g4->price->on_demand_usd, 0.55955625);
  bool p100_ends = false;
  for (const Offering& o :
       cat().FindMachineType("n1-standard-8+1xnvidia-tesla-p100")->offerings) {
    if (o.available_until == "2026-09-15") p100_ends = true;
  }
  EXPECT_TRUE(p100_ends);
}

TEST_F(CatalogLoaderTest, TpuMemoryKeepsTheSourcesUnits) {
  // GiB where a Google source states it (the v6e table on the TPU7x page;
  // Google's tpu-inference for v5e, whose own page says "16 GB").
  EXPECT_DOUBLE_EQ(Acc("tpu-v5e").memory_bytes->value, 16 * kGiB);
  EXPECT_DOUBLE_EQ(Acc("tpu-v6e").memory_bytes->value, 32 * kGiB);
  EXPECT_DOUBLE_EQ(Acc("tpu7x").memory_bytes->value, 192 * kGiB);
}

// A GPU's memory is the total its driver reports where a published
// nvidia-smi reading was found (81559 MiB on an H100, not 80e9 bytes), and
// Google's "GB" as 1e9 bytes where none was.
TEST_F(CatalogLoaderTest, GpuMemoryIsTheDriversTotalWhereOneIsPublished) {
  constexpr double kMiB = 1024.0 * 1024.0;
  EXPECT_DOUBLE_EQ(Acc("nvidia-h100-80gb").memory_bytes->value, 81559 * kMiB);
  EXPECT_EQ(Acc("nvidia-h100-80gb").memory_bytes->source_id, "SMI-H100");
  EXPECT_DOUBLE_EQ(Acc("nvidia-a100-40gb").memory_bytes->value, 40960 * kMiB);
  EXPECT_DOUBLE_EQ(Acc("nvidia-gb200").memory_bytes->value, 186e9);
  EXPECT_EQ(Acc("nvidia-gb200").memory_bytes->source_id, "GPU-MT");
}

TEST_F(CatalogLoaderTest, V5eTensorflowNeeds215) {
  const auto& fw = Acc("tpu-v5e").frameworks;
  ASSERT_TRUE(fw.count(kFrameworkTensorflow));
  EXPECT_EQ(fw.at(kFrameworkTensorflow).status, SupportStatus::kSupported);
  EXPECT_EQ(fw.at(kFrameworkTensorflow).min_version, "2.15");
  EXPECT_EQ(fw.at(kFrameworkJax).min_version, "0.4.6");
}

TEST_F(CatalogLoaderTest, V6eAndTpu7xRejectStableTensorflow) {
  for (const char* id : {"tpu-v6e", "tpu7x"}) {
    const auto& fw = Acc(id).frameworks;
    ASSERT_TRUE(fw.count(kFrameworkTensorflow)) << id;
    EXPECT_EQ(fw.at(kFrameworkTensorflow).status, SupportStatus::kUnsupported)
        << id;
    EXPECT_EQ(fw.at(kFrameworkJax).status, SupportStatus::kSupported) << id;
  }
}

TEST_F(CatalogLoaderTest, NoTpuRunsNativePytorchOrClassicalMl) {
  for (const char* id : {"tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu7x"}) {
    const auto& fw = Acc(id).frameworks;
    for (const char* name : {kFrameworkPytorch, kFrameworkXgboost,
                             kFrameworkScikitLearn, kFrameworkLightgbm}) {
      ASSERT_TRUE(fw.count(name)) << id << " " << name;
      EXPECT_EQ(fw.at(name).status, SupportStatus::kUnsupported)
          << id << " " << name;
    }
    EXPECT_FALSE(Acc(id).formats.at("fp64").supported) << id;
  }
  EXPECT_EQ(cat().cpu_frameworks.at(kFrameworkScikitLearn).status,
            SupportStatus::kSupported);
  EXPECT_EQ(Acc("nvidia-l4").frameworks.at(kFrameworkXgboost).status,
            SupportStatus::kSupported);
}

// Every TPU's slices talk over ICI: without a per-chip figure the planner
// would time a multi-chip slice's collectives as free (a TPU v4 slice once
// beat v5p and v6e on a communication-bound job that way).
TEST_F(CatalogLoaderTest, EveryTpuHasAnIciBandwidth) {
  for (const Accelerator& a : cat().accelerators) {
    if (a.topologies.empty()) continue;
    ASSERT_TRUE(a.ici_bandwidth.has_value()) << a.id;
    EXPECT_GT(a.ici_bandwidth->value, 0) << a.id;
  }
  // Links x bidirectional bandwidth per link (the Scaling Book's tables).
  EXPECT_DOUBLE_EQ(Acc("tpu-v4").ici_bandwidth->value, 6 * 9e10);
}

TEST_F(CatalogLoaderTest, T4HasNoBf16ButA100Does) {
  const Accelerator& t4 = Acc("nvidia-tesla-t4");
  ASSERT_TRUE(t4.formats.count("bf16"));
  EXPECT_FALSE(t4.formats.at("bf16").supported);
  EXPECT_FALSE(t4.peak_bf16.has_value());
  EXPECT_TRUE(t4.peak_fp16.has_value());
  EXPECT_TRUE(Acc("nvidia-a100-40gb").formats.at("bf16").supported);
  EXPECT_TRUE(Acc("nvidia-a100-40gb").peak_bf16.has_value());
}

TEST_F(CatalogLoaderTest, EveryRowNamesAResolvableSource) {
  for (const MachineType& m : cat().machine_types) {
    EXPECT_NE(cat().FindSource(m.source_id), nullptr) << m.id;
    if (m.price) {
      EXPECT_NE(cat().FindSource(m.price->source_id), nullptr) << m.id;
    }
    for (const Offering& o : m.offerings) {
      EXPECT_NE(cat().FindSource(o.source_id), nullptr) << m.id;
    }
  }
  for (const Accelerator& a : cat().accelerators) {
    EXPECT_NE(cat().FindSource(a.source_id), nullptr) << a.id;
    for (const auto* f : {&a.memory_bytes, &a.memory_bandwidth, &a.peak_bf16,
                          &a.peak_fp8, &a.peak_int8, &a.ici_bandwidth}) {
      if (f->has_value()) {
        EXPECT_NE(cat().FindSource((*f)->source_id), nullptr) << a.id;
      }
    }
  }
  for (const Source& s : cat().sources) EXPECT_FALSE(s.url.empty()) << s.id;
}

TEST_F(CatalogLoaderTest, PricesHaveDatesAndUnits) {
  const std::regex date("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  int priced = 0;
  for (const MachineType& m : cat().machine_types) {
    if (!m.price) continue;
    ++priced;
    EXPECT_TRUE(std::regex_match(m.price->date, date)) << m.id;
    EXPECT_FALSE(m.price->per_chip) << m.id;
    EXPECT_FALSE(m.price->region.empty()) << m.id;
  }
  EXPECT_GT(priced, 20);
  const Accelerator& v6e = Acc("tpu-v6e");
  ASSERT_TRUE(v6e.chip_price.has_value());
  EXPECT_TRUE(v6e.chip_price->per_chip);
  EXPECT_DOUBLE_EQ(*v6e.chip_price->on_demand_usd, 2.70);
  EXPECT_TRUE(std::regex_match(v6e.chip_price->date, date));
  EXPECT_FALSE(Acc("tpu7x").chip_price.has_value());  // not published
}

TEST_F(CatalogLoaderTest, DerivedN1PriceIsHostPlusGpus) {
  const MachineType* m =
      cat().FindMachineType("n1-standard-8+2xnvidia-tesla-t4");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->gce_machine_type, "n1-standard-8");
  EXPECT_EQ(m->accelerator_count, 2);
  ASSERT_TRUE(m->price.has_value());
  // host $0.379998 [CYC-PRICE] + 2 x T4 $0.35 [SKY]
  EXPECT_NEAR(*m->price->on_demand_usd, 0.379998 + 2 * 0.35, 1e-9);
  EXPECT_THAT(m->price->note, HasSubstr("derived"));
}

TEST_F(CatalogLoaderTest, MachineTypesSortedAndIndexed) {
  ASSERT_GT(cat().machine_types.size(), 50u);
  for (size_t i = 1; i < cat().machine_types.size(); ++i) {
    EXPECT_LT(cat().machine_types[i - 1].id, cat().machine_types[i].id);
  }
  for (size_t i = 0; i < cat().machine_types.size(); ++i) {
    EXPECT_EQ(cat().machine_type_index.at(cat().machine_types[i].id), i);
  }
  for (const char* id :
       {"n1-standard-8",     "n2-standard-16",       "c3-standard-22",
        "n1-highcpu-16",     "a4x-highgpu-4g",       "a4-highgpu-8g",
        "a3-ultragpu-8g",    "a3-megagpu-8g",        "a3-highgpu-8g",
        "a3-edgegpu-8g",     "a2-ultragpu-8g",       "a2-megagpu-16g",
        "g4-standard-48",    "g2-standard-4",        "ct4p-hightpu-4t",
        "ct5lp-hightpu-4t",  "ct5p-hightpu-4t",      "ct6e-standard-8t",
        "tpu7x-standard-4t", "coral-usb-accelerator"}) {
    EXPECT_NE(cat().FindMachineType(id), nullptr) << id;
  }
}

TEST_F(CatalogLoaderTest, TopologiesAscendByChipsAndMatchMachineTypes) {
  for (const char* id : {"tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu7x"}) {
    const Accelerator& a = Acc(id);
    ASSERT_FALSE(a.topologies.empty()) << id;
    for (size_t i = 0; i < a.topologies.size(); ++i) {
      const TpuTopology& t = a.topologies[i];
      if (i > 0) {
        EXPECT_LE(a.topologies[i - 1].chips, t.chips) << id;
      }
      const MachineType* m = cat().FindMachineType(t.machine_type_id);
      ASSERT_NE(m, nullptr) << t.machine_type_id;
      EXPECT_EQ(m->accelerator_id, id);
      // chips spread over the VMs never exceed the chips a VM holds
      EXPECT_LE(t.chips, t.vms * m->accelerator_count)
          << id << " " << t.topology;
    }
  }
  EXPECT_EQ(Acc("tpu-v5p").topologies.back().chips, 6144);
}

TEST_F(CatalogLoaderTest, RecordsDocumentedAbsences) {
  auto find = [](const std::vector<Offering>& offerings, RunPlatform p,
                 Provisioning v) -> const Offering* {
    for (const Offering& o : offerings) {
      if (o.run_platform == p && o.provisioning == v) return &o;
    }
    return nullptr;
  };
  for (const char* id : {"a4-highgpu-8g", "a3-ultragpu-8g", "a4x-highgpu-4g",
                         "a3-highgpu-1g", "a3-highgpu-4g"}) {
    const Offering* o =
        find(cat().FindMachineType(id)->offerings, RunPlatform::kComputeEngine,
             Provisioning::kOnDemand);
    ASSERT_NE(o, nullptr) << id;
    EXPECT_FALSE(o->available) << id;
  }
  const Offering* a3h8 =
      find(cat().FindMachineType("a3-highgpu-8g")->offerings,
           RunPlatform::kComputeEngine, Provisioning::kOnDemand);
  ASSERT_NE(a3h8, nullptr);
  EXPECT_TRUE(a3h8->available);
  for (const char* id : {"tpu-v4", "tpu-v5p"}) {
    const Offering* o = find(Acc(id).offerings, RunPlatform::kVertexTraining,
                             Provisioning::kAny);
    ASSERT_NE(o, nullptr) << id;
    EXPECT_FALSE(o->available) << id;
  }
  const Offering* v6e = find(Acc("tpu-v6e").offerings,
                             RunPlatform::kVertexTraining, Provisioning::kAny);
  ASSERT_NE(v6e, nullptr);
  EXPECT_TRUE(v6e->available);
}

TEST_F(CatalogLoaderTest, LegacyAndEdgeRows) {
  for (const char* id : {"nvidia-tesla-k80", "tpu-v2", "tpu-v3"}) {
    EXPECT_TRUE(Acc(id).legacy) << id;
    EXPECT_FALSE(Acc(id).chip_price.has_value()) << id;
  }
  EXPECT_EQ(Acc("nvidia-tesla-p100").end_of_support, "2026-09-15");
  const Accelerator& coral = Acc("coral-edge-tpu");
  EXPECT_EQ(coral.platform, Platform::kEdge);
  ASSERT_TRUE(coral.peak_int8.has_value());
  EXPECT_DOUBLE_EQ(coral.peak_int8->value, 4e12);
  EXPECT_FALSE(
      cat().FindMachineType("coral-usb-accelerator")->price.has_value());
}

// Only an NVL72 series' NVLink domain spans VMs: 18 four-GPU A4X (or A4X
// Max) instances of one sub-block (source A4X-MIG); every other series'
// domain is its VM.
TEST_F(CatalogLoaderTest, OnlyNvl72SeriesHaveADomainSpanningVms) {
  for (const char* id : {"A4X", "A4X Max"}) {
    const Series* s = cat().FindSeries(id);
    ASSERT_NE(s, nullptr) << id;
    ASSERT_TRUE(s->nvlink_domain_gpus.has_value()) << id;
    EXPECT_DOUBLE_EQ(s->nvlink_domain_gpus->value, 72) << id;
    EXPECT_EQ(s->nvlink_domain_gpus->source_id, "A4X-MIG") << id;
  }
  for (const Series& s : cat().series) {
    if (s.id == "A4X" || s.id == "A4X Max") continue;
    EXPECT_FALSE(s.nvlink_domain_gpus.has_value()) << s.id;
  }
}

// A series priced per VM prices every one of its machine types or none: a
// shape missing between priced ones is unknown by oversight, not because
// the source lacks it (G2's g2-standard-8 to -48 were, while the billing
// export behind g2-standard-4 and -96 lists them). TPUs are priced per chip.
TEST_F(CatalogLoaderTest, AVmPricedSeriesPricesEveryMachineType) {
  std::map<std::string, std::vector<std::string>> priced, unpriced;
  for (const MachineType& m : cat().machine_types) {
    const Series* s = cat().FindSeries(m.series_id);
    ASSERT_NE(s, nullptr) << m.id;
    if (s->platform == Platform::kTpu || s->platform == Platform::kEdge)
      continue;
    (m.price ? priced : unpriced)[s->id].push_back(m.id);
  }
  for (const auto& [series, ids] : unpriced) {
    EXPECT_EQ(priced.count(series), 0u)
        << series << " prices some machine types but not "
        << absl::StrJoin(ids, ", ");
  }
  EXPECT_GT(priced.size(), 10u);
}

TEST_F(CatalogLoaderTest, SeriesFactsListsAndServiceFacts) {
  const Series* a3u = cat().FindSeries("A3 Ultra");
  ASSERT_NE(a3u, nullptr);
  ASSERT_TRUE(a3u->nvlink_bandwidth.has_value());
  EXPECT_DOUBLE_EQ(a3u->nvlink_bandwidth->value, 900e9);
  // A network hop's latency only where a published run measured it.
  EXPECT_FALSE(a3u->network_hop_latency.has_value());
  const Series* mega = cat().FindSeries("A3 Mega");
  ASSERT_NE(mega, nullptr);
  ASSERT_TRUE(mega->network_hop_latency.has_value());
  EXPECT_DOUBLE_EQ(mega->network_hop_latency->value, 49.2e-6);
  EXPECT_EQ(mega->network_hop_latency->source_id, "NCCL-A3MEGA");
  EXPECT_TRUE(a3u->workload_lists.count(WorkloadList::kPreTraining));
  const Series* g4 = cat().FindSeries("G4");
  EXPECT_FALSE(g4->workload_lists.count(WorkloadList::kPreTraining));
  EXPECT_TRUE(g4->workload_lists.count(WorkloadList::kFineTuning));
  const Series* n2 = cat().FindSeries("N2");
  ASSERT_TRUE(n2->fp32_flops_per_vcpu.has_value());
  EXPECT_DOUBLE_EQ(n2->fp32_flops_per_vcpu->value, 108.8e9);
  EXPECT_EQ(
      cat().service_facts.at("reduction_server_image").first,
      "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:latest");
  EXPECT_EQ(cat().service_facts.at("reduction_server_machine_type").first,
            "n1-highcpu-16");
  EXPECT_EQ(Acc("tpu-v5e").labels.at("GKE_TPU_ACCELERATOR"),
            "tpu-v5-lite-podslice");
  EXPECT_EQ(Acc("nvidia-h100-80gb").labels.at("VERTEX_ACCELERATOR_TYPE"),
            "NVIDIA_H100_80GB");
}

// ------------------------------------------------------- version stability

TEST_F(CatalogLoaderTest, VersionDependsOnContentNotLayout) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  // Same rows, inserted in reverse order into a fresh file.
  const std::string path = dir.File("reordered.sqlite");
  {
    std::ifstream in(ACCELPLAN_CATALOG_SCHEMA_PATH);
    std::string schema((std::istreambuf_iterator<char>(in)), {});
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec(schema);
    db.exec("PRAGMA foreign_keys = OFF;");
    db.exec(absl::StrCat("ATTACH DATABASE '", kBuiltCatalog, "' AS src;"));
    SQLite::Statement tables(
        db, "SELECT name FROM src.sqlite_master WHERE type = 'table'");
    std::vector<std::string> names;
    while (tables.executeStep())
      names.push_back(tables.getColumn(0).getString());
    for (const std::string& t : names) {
      db.exec(absl::StrCat("INSERT INTO main.", t, " SELECT * FROM src.", t,
                           " ORDER BY rowid DESC;"));
    }
  }
  absl::StatusOr<CatalogPtr> reordered = LoadCatalog(path);
  ASSERT_TRUE(reordered.ok()) << reordered.status();
  EXPECT_EQ((*reordered)->version, cat().version);

  // One changed number gives another version.
  const std::string changed =
      MutatedCopy(dir,
                  "UPDATE facts SET value = 96e9 WHERE subject = 'tpu-v5e' AND "
                  "fact = 'memory_bytes';");
  absl::StatusOr<CatalogPtr> other = LoadCatalog(changed);
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE((*other)->version, cat().version);
}

TEST_F(CatalogLoaderTest, LoadsAReadOnlyCopy) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = MutatedCopy(dir, "");
  std::filesystem::permissions(path, std::filesystem::perms::owner_read,
                               std::filesystem::perm_options::replace);
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->version, cat().version);
}

TEST_F(CatalogLoaderTest, LoadsPathsWithUriSpecialCharacters) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("odd ?#% name.sqlite");
  std::filesystem::copy_file(kBuiltCatalog, path);
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->version, cat().version);
}

// ------------------------------------------------------------------ errors

TEST(CatalogLoaderErrors, MissingFileIsNotFoundNamingThePath) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("absent.sqlite");
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(loaded.status().message(), HasSubstr(path));
}

TEST(CatalogLoaderErrors, RandomBytesAreNotADatabase) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("corrupt.sqlite");
  {
    std::mt19937 rng(42);
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 8192; ++i) out.put(static_cast<char>(rng() & 0xff));
  }
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(loaded.status().message(), HasSubstr(path));
  EXPECT_THAT(loaded.status().message(),
              HasSubstr("not a readable SQLite database"));
}

TEST(CatalogLoaderErrors, EmptySqliteDatabaseIsNotACatalog) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("empty.sqlite");
  {
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE unrelated (x INTEGER);");
  }
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(loaded.status().message(), HasSubstr("missing table"));
  EXPECT_THAT(loaded.status().message(), HasSubstr("catalog_meta"));
}

TEST(CatalogLoaderErrors, TablesWithTheWrongColumnsAreRejected) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("wrong-schema.sqlite");
  {
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    for (const char* t :
         {"catalog_meta", "sources", "series", "accelerators", "fact_kinds",
          "facts", "numeric_formats", "machine_types", "tpu_topologies",
          "prices", "framework_support", "offerings", "end_of_support",
          "series_workload_lists", "labels", "service_facts", "models",
          "measured_efficiency"}) {
      db.exec(absl::StrCat("CREATE TABLE ", t, " (x INTEGER);"));
    }
  }
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(loaded.status().message(), HasSubstr(path));
  EXPECT_THAT(loaded.status().message(), HasSubstr("no such column"));
}

// Each mutation breaks one invariant; the loader must name the offending row.
struct BadCase {
  const char* name;
  const char* sql;
  absl::StatusCode code;
  std::vector<const char*> message_parts;
};

// Readable test names in ctest output instead of a byte dump.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class CatalogLoaderBadRowTest : public CatalogLoaderTest,
                                public ::testing::WithParamInterface<BadCase> {
};

TEST_P(CatalogLoaderBadRowTest, RejectsWithAClearError) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  // Control: the unmodified copy loads, so the failure below is the mutation's.
  ASSERT_TRUE(LoadCatalog(MutatedCopy(dir, "")).ok());
  const BadCase& c = GetParam();
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(MutatedCopy(dir, c.sql));
  ASSERT_FALSE(loaded.ok()) << c.name;
  RecordProperty("error", std::string(loaded.status().message()));
  EXPECT_EQ(loaded.status().code(), c.code) << loaded.status();
  for (const char* part : c.message_parts) {
    EXPECT_THAT(loaded.status().message(), HasSubstr(part));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Invariants, CatalogLoaderBadRowTest,
    ::testing::Values(
        BadCase{"FactWithBadUnit",
                "UPDATE facts SET unit = 'bytes' WHERE subject = 'tpu-v5p' AND "
                "fact = 'peak_bf16';",
                absl::StatusCode::kInvalidArgument,
                {"tpu-v5p", "peak_bf16", "unit 'bytes'"}},
        BadCase{"UnsourcedMachineType",
                "INSERT INTO machine_types (id, gce_machine_type, series_id, "
                "source_id) "
                "VALUES ('n2-standard-4', 'n2-standard-4', 'N2', "
                "'NO-SUCH-SOURCE');",
                absl::StatusCode::kInvalidArgument,
                {"n2-standard-4", "NO-SUCH-SOURCE"}},
        BadCase{"SourceWithoutUrlOrCommit",
                "UPDATE sources SET url = NULL WHERE id = 'GPU-MT';",
                absl::StatusCode::kInvalidArgument,
                {"GPU-MT", "url"}},
        BadCase{"NegativeFact",
                "UPDATE facts SET value = -1 WHERE subject = 'nvidia-l4' AND "
                "fact = 'memory_bytes';",
                absl::StatusCode::kInvalidArgument,
                {"nvidia-l4", "positive"}},
        BadCase{"FactAboutUnknownSubject",
                "INSERT INTO facts (subject, fact, value, unit, source_id) "
                "VALUES ('nvidia-z9000', 'peak_bf16', 1e15, 'flop_per_s', "
                "'GPU-MT');",
                absl::StatusCode::kInvalidArgument,
                {"nvidia-z9000"}},
        BadCase{"PriceWithoutDate",
                "UPDATE prices SET price_date = 'recently' WHERE subject = "
                "'n1-standard-8';",
                absl::StatusCode::kInvalidArgument,
                {"n1-standard-8", "price_date"}},
        BadCase{
            "DanglingForeignKey",
            "INSERT INTO series_workload_lists (series_id, list, source_id) "
            "VALUES ('A9 Imaginary', 'INFERENCE', 'ACC-OPT');",
            absl::StatusCode::kInvalidArgument,
            {"A9 Imaginary"}},
        BadCase{"UnsupportedSchemaVersion",
                "UPDATE catalog_meta SET value = '99' WHERE key = "
                "'schema_version';",
                absl::StatusCode::kFailedPrecondition,
                {"schema_version", "99"}},
        BadCase{"MissingSchemaVersion",
                "DELETE FROM catalog_meta WHERE key = 'schema_version';",
                absl::StatusCode::kFailedPrecondition,
                {"schema_version"}},
        // Accepted before: readiness stayed SERVING while every call
        // returned no recommendation.
        BadCase{"NoMachineTypes",
                "DELETE FROM machine_types;",
                absl::StatusCode::kFailedPrecondition,
                {"machine_types", "empty"}},
        // The right shape, but no such day.
        BadCase{"DataDateThatDoesNotExist",
                "UPDATE catalog_meta SET value = '2026-13-45' WHERE key = "
                "'data_date';",
                absl::StatusCode::kInvalidArgument,
                {"data_date", "YYYY-MM-DD"}},
        BadCase{"ModelIdNotLowercase",
                "UPDATE models SET id = 'Llama-3.1-8B' WHERE id = "
                "'llama-3.1-8b';",
                absl::StatusCode::kInvalidArgument,
                {"models", "Llama-3.1-8B", "lowercase"}},
        // Lookups ignore separators, so one of the two could never be
        // found.
        BadCase{"ModelIdsDifferingOnlyInSeparators",
                "UPDATE models SET id = 'llama3.1-8b' WHERE id = "
                "'llama-3.2-1b';",
                absl::StatusCode::kInvalidArgument,
                {"models", "llama3.1-8b", "separators"}},
        BadCase{"ModelActiveAboveTotal",
                "UPDATE models SET active_params = 1e12 WHERE id = "
                "'mixtral-8x7b';",
                absl::StatusCode::kInvalidArgument,
                {"models", "mixtral-8x7b", "active_params"}},
        // Found by the catalog-loader fuzzer: a zero divided the heads.
        BadCase{"ModelKvHeadsZero",
                "UPDATE models SET kv_heads = 0 WHERE id = 'llama-3.1-8b';",
                absl::StatusCode::kInvalidArgument,
                {"models", "llama-3.1-8b", "kv_heads", "from 1 to"}},
        // 2^32 + 32 read as an int wrapped to 32 layers.
        BadCase{"ModelLayersPastInt",
                "UPDATE models SET layers = 4294967328 WHERE id = "
                "'llama-3.1-8b';",
                absl::StatusCode::kInvalidArgument,
                {"models", "llama-3.1-8b", "layers"}},
        // Held to the request's own limit for the field it fills.
        BadCase{"ModelHeadsPastTheRequestLimit",
                "UPDATE models SET attention_heads = 131072, kv_heads = 8 "
                "WHERE id = 'llama-3.1-8b';",
                absl::StatusCode::kInvalidArgument,
                {"models", "attention_heads", "65536"}},
        BadCase{"ModelLayersAsText",
                "UPDATE models SET layers = 'many' WHERE id = "
                "'llama-3.1-8b';",
                absl::StatusCode::kInvalidArgument,
                {"models", "llama-3.1-8b", "layers"}},
        BadCase{"ModelTopKPastExperts",
                "UPDATE models SET experts_per_token = 9 WHERE id = "
                "'mixtral-8x7b';",
                absl::StatusCode::kInvalidArgument,
                {"models", "mixtral-8x7b", "experts_per_token"}},
        BadCase{"MeasuredRunOnNoDevices",
                "UPDATE measured_efficiency SET devices = 0 WHERE run_id = "
                "(SELECT MIN(run_id) FROM measured_efficiency);",
                absl::StatusCode::kInvalidArgument,
                {"measured_efficiency", "devices"}},
        BadCase{"MeasuredRunWithTensorParallelZero",
                "UPDATE measured_efficiency SET tensor_parallel = 0 WHERE "
                "run_id = (SELECT MIN(run_id) FROM measured_efficiency);",
                absl::StatusCode::kInvalidArgument,
                {"measured_efficiency", "tensor_parallel"}},
        BadCase{"FebruaryThirtieth",
                "UPDATE prices SET price_date = '2026-02-30' WHERE subject = "
                "'n1-standard-8';",
                absl::StatusCode::kInvalidArgument,
                {"n1-standard-8", "price_date"}}),
    [](const ::testing::TestParamInfo<BadCase>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace accelplan::catalog
