#include "catalog/invariants.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "catalog/dates.h"

namespace accelplan::catalog {
namespace {

// Largest relative spread of per-chip host resources within a TPU series:
// the v6e 1t row once said 48 GB per chip beside 180 GB on 4t and 8t.
constexpr double kPerChipTolerance = 0.20;

std::string Text(const SQLite::Column& c) {
  return c.isNull() ? "" : c.getString();
}

// A note justifies an equality only if it says so in words.
bool SaysEqual(const std::string& note) {
  return absl::StrContains(absl::AsciiStrToLower(note), "equal");
}

std::string FactRow(const std::string& subject, absl::string_view fact) {
  return absl::StrCat("facts (subject='", subject, "', fact='", fact, "')");
}

// Pairs of facts on the same subject: (subject, a value, a note, b value,
// b note).
struct FactPair {
  std::string subject;
  double a = 0, b = 0;
  std::string a_note, b_note, architecture;
};

std::vector<FactPair> Pairs(SQLite::Database& db, absl::string_view a,
                            absl::string_view b) {
  SQLite::Statement q(
      db,
      "SELECT fa.subject, fa.value, fa.note, fb.value, fb.note, "
      "acc.architecture FROM facts fa JOIN facts fb ON fa.subject = "
      "fb.subject LEFT JOIN accelerators acc ON acc.id = fa.subject "
      "WHERE fa.fact = ? AND fb.fact = ? ORDER BY fa.subject");
  q.bind(1, std::string(a));
  q.bind(2, std::string(b));
  std::vector<FactPair> out;
  while (q.executeStep()) {
    out.push_back({q.getColumn(0).getString(), q.getColumn(1).getDouble(),
                   q.getColumn(3).getDouble(), Text(q.getColumn(2)),
                   Text(q.getColumn(4)), Text(q.getColumn(5))});
  }
  return out;
}

void Fp8AtLeastBf16(SQLite::Database& db, std::vector<std::string>& out) {
  for (const FactPair& p : Pairs(db, "peak_fp8", "peak_bf16")) {
    if (p.a < p.b) {
      out.push_back(absl::StrCat(FactRow(p.subject, "peak_fp8"), ": ", p.a,
                                 " is below peak_bf16 ", p.b,
                                 "; FP8 is never slower than BF16"));
    } else if (p.a == p.b && !SaysEqual(p.a_note)) {
      out.push_back(absl::StrCat(
          FactRow(p.subject, "peak_fp8"), ": equals peak_bf16 ", p.b,
          " without a note saying why (the note must say 'equal ...'); a "
          "copied BF16 figure looks exactly like this"));
    }
  }
}

void Int8AtLeastFp8OnAdaAndHopper(SQLite::Database& db,
                                  std::vector<std::string>& out) {
  for (const FactPair& p : Pairs(db, "peak_int8", "peak_fp8")) {
    if (p.architecture != "Ada Lovelace" && p.architecture != "Hopper")
      continue;
    if (p.a < p.b) {
      out.push_back(absl::StrCat(
          FactRow(p.subject, "peak_int8"), ": ", p.a, " is below peak_fp8 ",
          p.b, "; on ", p.architecture, " INT8 runs at least at the FP8 rate"));
    }
  }
}

void Fp32EqualsFp64OnlyWithNote(SQLite::Database& db,
                                std::vector<std::string>& out) {
  for (const FactPair& p : Pairs(db, "peak_fp64", "peak_fp32")) {
    if (p.a == p.b && !SaysEqual(p.a_note) && !SaysEqual(p.b_note)) {
      out.push_back(absl::StrCat(
          FactRow(p.subject, "peak_fp64"), ": equals peak_fp32 ", p.b,
          " without a note saying why (the note must say 'equal ...')"));
    }
  }
}

// A parameter cache no smaller than the largest model would make the
// planner's "streams from host memory" warning unreachable: a unit slip
// (MiB typed as GiB) looks exactly like this.
void ParamCacheBelowMaxModel(SQLite::Database& db,
                             std::vector<std::string>& out) {
  for (const FactPair& p : Pairs(db, "param_cache_bytes", "max_model_bytes")) {
    if (p.a >= p.b) {
      out.push_back(absl::StrCat(FactRow(p.subject, "param_cache_bytes"), ": ",
                                 p.a, " is not below max_model_bytes ", p.b,
                                 "; an on-chip cache is smaller than the "
                                 "largest model it streams"));
    }
  }
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void TpuHostPerChipConsistent(SQLite::Database& db,
                              std::vector<std::string>& out) {
  struct Row {
    std::string id;
    double per_chip;
  };
  // (series, "vcpus" | "memory_bytes") -> rows
  std::map<std::pair<std::string, std::string>, std::vector<Row>> groups;
  SQLite::Statement q(
      db,
      "SELECT m.id, m.series_id, m.accelerator_count, m.vcpus, m.memory_bytes "
      "FROM machine_types m JOIN series s ON s.id = m.series_id "
      "WHERE s.platform = 'TPU' AND m.accelerator_count > 0 ORDER BY m.id");
  while (q.executeStep()) {
    const std::string id = q.getColumn(0).getString();
    const std::string series = q.getColumn(1).getString();
    const double chips = q.getColumn(2).getDouble();
    if (!q.getColumn(3).isNull()) {
      groups[{series, "vcpus"}].push_back(
          {id, q.getColumn(3).getDouble() / chips});
    }
    if (!q.getColumn(4).isNull()) {
      groups[{series, "memory_bytes"}].push_back(
          {id, q.getColumn(4).getDouble() / chips});
    }
  }
  for (const auto& [key, rows] : groups) {
    if (rows.size() < 2) continue;
    std::vector<double> values;
    for (const Row& r : rows) values.push_back(r.per_chip);
    const double median = Median(values);
    for (const Row& r : rows) {
      if (std::abs(r.per_chip / median - 1) > kPerChipTolerance) {
        out.push_back(absl::StrCat("machine_types row '", r.id,
                                   "': ", key.second, " per chip ", r.per_chip,
                                   " is more than 20% from the ", key.first,
                                   " median of ", median, " per chip"));
      }
    }
  }
}

void PricesPositiveAndDated(SQLite::Database& db,
                            std::vector<std::string>& out) {
  std::string data_date;
  SQLite::Statement meta(
      db, "SELECT value FROM catalog_meta WHERE key = 'data_date'");
  if (meta.executeStep()) data_date = meta.getColumn(0).getString();
  SQLite::Statement q(db,
                      "SELECT subject, region, on_demand_usd, spot_usd, "
                      "price_date FROM prices ORDER BY subject, region");
  while (q.executeStep()) {
    const std::string row = absl::StrCat("prices (", q.getColumn(0).getString(),
                                         ", ", q.getColumn(1).getString(), ")");
    const bool has_od = !q.getColumn(2).isNull();
    const bool has_spot = !q.getColumn(3).isNull();
    if (!has_od && !has_spot) {
      out.push_back(absl::StrCat(row,
                                 ": carries no price; put the reason in "
                                 "the machine type's note instead"));
    }
    for (int col : {2, 3}) {
      if (q.getColumn(col).isNull()) continue;
      const double v = q.getColumn(col).getDouble();
      if (!(std::isfinite(v) && v > 0)) {
        out.push_back(absl::StrCat(row, ": price ", v, " is not positive"));
      }
    }
    const std::string date = Text(q.getColumn(4));
    if (!IsCalendarDate(date)) {
      out.push_back(absl::StrCat(row, ": price_date '", date,
                                 "' is not a calendar date"));
    } else if (IsCalendarDate(data_date) && date > data_date) {
      out.push_back(absl::StrCat(row, ": price_date ", date,
                                 " is after the catalog data_date ",
                                 data_date));
    }
  }
}

void TopologyChipsMatchDimensions(SQLite::Database& db,
                                  std::vector<std::string>& out) {
  SQLite::Statement q(db,
                      "SELECT accelerator_id, topology, chips FROM "
                      "tpu_topologies ORDER BY accelerator_id, topology");
  while (q.executeStep()) {
    const std::string topology = q.getColumn(1).getString();
    const std::string row = absl::StrCat(
        "tpu_topologies (", q.getColumn(0).getString(), ", ", topology, ")");
    long long product = 1;
    bool parsed = !topology.empty();
    for (absl::string_view dim : absl::StrSplit(topology, 'x')) {
      int v = 0;
      if (!absl::SimpleAtoi(dim, &v) || v <= 0) {
        parsed = false;
        break;
      }
      product *= v;
    }
    if (!parsed) {
      out.push_back(absl::StrCat(row, ": topology is not AxB or AxBxC"));
    } else if (product != q.getColumn(2).getInt64()) {
      out.push_back(absl::StrCat(row, ": chips ", q.getColumn(2).getInt64(),
                                 " differ from the product of the dimensions, ",
                                 product));
    }
  }
}

}  // namespace

std::vector<std::string> CheckInvariants(SQLite::Database& db) {
  std::vector<std::string> out;
  Fp8AtLeastBf16(db, out);
  Int8AtLeastFp8OnAdaAndHopper(db, out);
  ParamCacheBelowMaxModel(db, out);
  Fp32EqualsFp64OnlyWithNote(db, out);
  TpuHostPerChipConsistent(db, out);
  PricesPositiveAndDated(db, out);
  TopologyChipsMatchDimensions(db, out);
  return out;
}

}  // namespace accelplan::catalog
