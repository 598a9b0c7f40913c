// Build-time sanity invariants (catalog/invariants.h): the built catalog
// passes them, each one rejects a deliberately broken row naming it, and
// accelplan_build_catalog fails the build on a violation.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "SQLiteCpp/SQLiteCpp.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "catalog/invariants.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/catalog/temp_dir.h"

namespace accelplan::catalog {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kBuiltCatalog = ACCELPLAN_CATALOG_DB_PATH;

// Violations found in a copy of the built catalog after `sql`, applied with
// foreign keys and CHECK constraints off so broken rows can be written.
std::vector<std::string> ViolationsAfter(const std::string& sql) {
  TempDir dir;
  if (!dir.ok()) return {"(no temporary folder)"};
  const std::string path = dir.File("fixture.sqlite");
  std::filesystem::copy_file(kBuiltCatalog, path);
  SQLite::Database db(path, SQLite::OPEN_READWRITE);
  db.exec("PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON;");
  if (!sql.empty()) db.exec(sql);
  return CheckInvariants(db);
}

TEST(CatalogInvariants, TheBuiltCatalogHoldsThemAll) {
  const std::vector<std::string> v = ViolationsAfter("");
  EXPECT_TRUE(v.empty()) << absl::StrJoin(v, "\n");
}

struct BrokenRow {
  const char* name;
  const char* sql;
  std::vector<const char*> message_parts;
};

void PrintTo(const BrokenRow& c, std::ostream* os) { *os << c.name; }

class CatalogInvariantsBrokenRowTest
    : public ::testing::TestWithParam<BrokenRow> {};

TEST_P(CatalogInvariantsBrokenRowTest, IsRejectedNamingTheRow) {
  const BrokenRow& c = GetParam();
  const std::vector<std::string> v = ViolationsAfter(c.sql);
  ASSERT_FALSE(v.empty()) << c.name;
  std::string all = absl::StrJoin(v, "\n");
  for (const char* part : c.message_parts) {
    EXPECT_THAT(all, HasSubstr(part)) << all;
  }
}

INSTANTIATE_TEST_SUITE_P(
    EachInvariant, CatalogInvariantsBrokenRowTest,
    ::testing::Values(
        // The old L4 row: FP8 copied from the BF16 column.
        BrokenRow{
            "Fp8EqualToBf16WithoutNote",
            "UPDATE facts SET value = 121e12, note = NULL WHERE subject = "
            "'nvidia-l4' AND fact = 'peak_fp8';",
            {"subject='nvidia-l4'", "peak_fp8", "equals peak_bf16"}},
        BrokenRow{"Fp8BelowBf16",
                  "UPDATE facts SET value = 100e12 WHERE subject = 'tpu7x' "
                  "AND fact = 'peak_fp8';",
                  {"subject='tpu7x'", "is below peak_bf16"}},
        BrokenRow{"Int8BelowFp8OnHopper",
                  "UPDATE facts SET value = 900e12 WHERE subject = "
                  "'nvidia-h100-80gb' AND fact = 'peak_int8';",
                  {"subject='nvidia-h100-80gb'", "peak_int8", "Hopper"}},
        // The Edge TPU's ~8 MB parameter cache typed in GiB.
        BrokenRow{"EdgeParamCacheNotBelowMaxModel",
                  "UPDATE facts SET value = 8589934592 WHERE subject = "
                  "'coral-edge-tpu' AND fact = 'param_cache_bytes';",
                  {"subject='coral-edge-tpu'", "param_cache_bytes",
                   "max_model_bytes"}},
        BrokenRow{"Fp32EqualToFp64WithoutNote",
                  "UPDATE facts SET value = 40e12 WHERE subject = "
                  "'nvidia-b200' AND fact = 'peak_fp32';",
                  {"subject='nvidia-b200'", "peak_fp64", "equals peak_fp32"}},
        // The old ct6e-standard-1t row: 48 GB where the series has 180 per
        // chip.
        BrokenRow{"TpuHostMemoryPerChipOutOfLine",
                  "UPDATE machine_types SET memory_bytes = 51539607552 WHERE "
                  "id = 'ct6e-standard-1t';",
                  {"'ct6e-standard-1t'", "memory_bytes per chip", "TPU v6e"}},
        // The old ct6e-standard-8t row: 180 vCPU on 8 chips.
        BrokenRow{"TpuVcpusPerChipOutOfLine",
                  "UPDATE machine_types SET vcpus = 180 WHERE id = "
                  "'ct6e-standard-8t';",
                  {"'ct6e-standard-8t'", "vcpus per chip"}},
        BrokenRow{"PriceWithNoPrice",
                  "UPDATE prices SET on_demand_usd = NULL, spot_usd = NULL "
                  "WHERE subject = 'g2-standard-4';",
                  {"prices (g2-standard-4, us-central1)", "no price"}},
        BrokenRow{"NegativePrice",
                  "UPDATE prices SET spot_usd = -0.5 WHERE subject = "
                  "'g2-standard-4';",
                  {"prices (g2-standard-4, us-central1)", "not positive"}},
        BrokenRow{
            "PriceDateThatDoesNotExist",
            "UPDATE prices SET price_date = '2026-02-30' WHERE subject "
            "= 'g2-standard-4';",
            {"prices (g2-standard-4, us-central1)", "not a calendar date"}},
        BrokenRow{"PriceDateAfterDataDate",
                  "UPDATE prices SET price_date = '2027-01-01' WHERE subject "
                  "= 'g2-standard-4';",
                  {"prices (g2-standard-4, us-central1)", "after the catalog"}},
        BrokenRow{"TopologyChipsNotTheProduct",
                  "UPDATE tpu_topologies SET chips = 200 WHERE accelerator_id "
                  "= 'tpu-v4' AND topology = '4x4x12';",
                  {"tpu_topologies (tpu-v4, 4x4x12)", "192"}}),
    [](const ::testing::TestParamInfo<BrokenRow>& info) {
      return info.param.name;
    });

// The build tool runs the same checks and refuses to publish the catalog.
TEST(CatalogInvariants, BuildToolFailsNamingTheRow) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  std::vector<std::string> args = {ACCELPLAN_BUILD_CATALOG_TOOL,
                                   dir.File("out.db"),
                                   ACCELPLAN_CATALOG_SCHEMA_PATH};
  for (const auto& entry :
       std::filesystem::directory_iterator(ACCELPLAN_CATALOG_DATA_DIR)) {
    if (entry.path().extension() == ".sql") args.push_back(entry.path());
  }
  std::sort(args.begin() + 3, args.end());
  const std::string broken = dir.File("99_broken.sql");
  std::ofstream(broken) << "UPDATE facts SET value = 900e12 WHERE subject = "
                           "'nvidia-h200-141gb' AND fact = 'peak_int8';\n";
  args.push_back(broken);
  const std::string cmd = absl::StrCat(absl::StrJoin(args, " "), " 2>&1");
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string output;
  char buf[512];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) output.append(buf, n);
  const int rc = pclose(p);
  EXPECT_NE(rc, 0) << output;
  EXPECT_THAT(output, AllOf(HasSubstr("invariant violated"),
                            HasSubstr("subject='nvidia-h200-141gb'")));
  EXPECT_FALSE(std::filesystem::exists(dir.File("out.db")));
}

}  // namespace
}  // namespace accelplan::catalog
