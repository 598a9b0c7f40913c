#include "catalog/loader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "SQLiteCpp/SQLiteCpp.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "catalog/dates.h"
#include "planner/limits.h"

namespace accelplan::catalog {
namespace {

// Every table of schema.sql, in the order the content hash walks them.
constexpr const char* kTables[] = {"catalog_meta",
                                   "sources",
                                   "series",
                                   "accelerators",
                                   "fact_kinds",
                                   "facts",
                                   "numeric_formats",
                                   "machine_types",
                                   "tpu_topologies",
                                   "prices",
                                   "framework_support",
                                   "offerings",
                                   "end_of_support",
                                   "series_workload_lists",
                                   "labels",
                                   "service_facts",
                                   "models",
                                   "measured_efficiency"};

// The region whose price is attached when a subject has several.
constexpr absl::string_view kPreferredRegion = "us-central1";

// Percent-encodes the characters that would end or alter the path part of
// an SQLite URI filename.
std::string UriPath(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      absl::StrAppendFormat(&out, "%%%02X", static_cast<unsigned char>(c));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string Text(const SQLite::Column& c) {
  return c.isNull() ? "" : c.getString();
}

std::optional<double> OptReal(const SQLite::Column& c) {
  if (c.isNull()) return std::nullopt;
  return c.getDouble();
}

bool IsDate(absl::string_view s) { return IsCalendarDate(s); }

bool PositiveFinite(double v) { return std::isfinite(v) && v > 0; }

// FNV-1a, 64 bit: small, dependency-free and stable across platforms, which
// is all a content fingerprint needs.
class Fnv1a64 {
 public:
  void Update(absl::string_view s) {
    for (unsigned char c : s) {
      hash_ ^= c;
      hash_ *= 0x100000001b3ULL;
    }
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ULL;
};

class Loader {
 public:
  Loader(SQLite::Database& db, std::string path)
      : db_(db),
        path_(std::move(path)),
        catalog_(std::make_shared<Catalog>()) {}

  absl::StatusOr<CatalogPtr> Load() {
    if (absl::Status s = CheckTables(); !s.ok()) return s;
    if (absl::Status s = LoadMeta(); !s.ok()) return s;
    for (auto step :
         {&Loader::LoadSources, &Loader::LoadSeries, &Loader::LoadAccelerators,
          &Loader::LoadMachineTypes, &Loader::LoadFacts, &Loader::LoadFormats,
          &Loader::LoadTopologies, &Loader::LoadPrices, &Loader::LoadFrameworks,
          &Loader::LoadOfferings, &Loader::LoadEndOfSupport,
          &Loader::LoadWorkloadLists, &Loader::LoadLabels,
          &Loader::LoadServiceFacts, &Loader::LoadModels,
          &Loader::LoadMeasuredEfficiencies}) {
      if (absl::Status s = (this->*step)(); !s.ok()) return s;
    }
    // Last, so the row-level checks above report with ids, not rowids.
    if (absl::Status s = CheckForeignKeys(); !s.ok()) return s;
    for (Accelerator& a : catalog_->accelerators) {
      std::stable_sort(a.topologies.begin(), a.topologies.end(),
                       [](const TpuTopology& x, const TpuTopology& y) {
                         return x.chips != y.chips ? x.chips < y.chips
                                                   : x.topology < y.topology;
                       });
    }
    absl::StatusOr<std::string> hash = ContentHash();
    if (!hash.ok()) return hash.status();
    catalog_->version = absl::StrCat(*hash, "@", catalog_->data_date);
    return CatalogPtr(std::move(catalog_));
  }

 private:
  absl::Status Bad(absl::string_view table, absl::string_view row,
                   absl::string_view problem) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "catalog ", path_, ": table ", table, " row ", row, ": ", problem));
  }

  // Every row must name a source that exists; the schema's foreign keys say
  // the same, but a file built without them must not slip through.
  absl::Status CheckSource(absl::string_view table, absl::string_view row,
                           const std::string& source_id) const {
    if (source_id.empty()) return Bad(table, row, "has no source_id");
    if (catalog_->source_index.find(source_id) ==
        catalog_->source_index.end()) {
      return Bad(table, row,
                 absl::StrCat("source_id '", source_id,
                              "' does not resolve in table sources"));
    }
    return absl::OkStatus();
  }

  absl::Status CheckTables() {
    absl::flat_hash_set<std::string> present;
    SQLite::Statement q(db_,
                        "SELECT name FROM sqlite_master WHERE type = 'table'");
    while (q.executeStep()) present.insert(q.getColumn(0).getString());
    std::vector<std::string> missing;
    for (const char* t : kTables) {
      if (!present.contains(t)) missing.push_back(t);
    }
    if (!missing.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "catalog ", path_, " is not an accelplan catalog: missing table(s) ",
          absl::StrJoin(missing, ", ")));
    }
    return absl::OkStatus();
  }

  absl::Status LoadMeta() {
    std::optional<std::string> version, date;
    SQLite::Statement q(db_, "SELECT key, value FROM catalog_meta");
    while (q.executeStep()) {
      const std::string key = q.getColumn(0).getString();
      if (key == "schema_version") version = q.getColumn(1).getString();
      if (key == "data_date") date = q.getColumn(1).getString();
    }
    if (!version) {
      return absl::FailedPreconditionError(absl::StrCat(
          "catalog ", path_, ": catalog_meta has no schema_version"));
    }
    if (*version != kSupportedSchemaVersion) {
      return absl::FailedPreconditionError(absl::StrCat(
          "catalog ", path_, ": unsupported schema_version '", *version,
          "' (this build reads '", kSupportedSchemaVersion, "')"));
    }
    if (!date || !IsDate(*date)) {
      return Bad("catalog_meta", "data_date",
                 "missing or not a YYYY-MM-DD date");
    }
    catalog_->data_date = *date;
    return absl::OkStatus();
  }

  absl::Status CheckForeignKeys() {
    SQLite::Statement q(db_, "PRAGMA foreign_key_check");
    if (q.executeStep()) {
      return Bad(q.getColumn(0).getString(),
                 absl::StrCat("rowid ", q.getColumn(1).getInt64()),
                 absl::StrCat("foreign key into table ",
                              q.getColumn(2).getString(), " does not resolve"));
    }
    return absl::OkStatus();
  }

  absl::Status LoadSources() {
    SQLite::Statement q(db_,
                        "SELECT id, url, repo, path, commit_sha, title FROM "
                        "sources ORDER BY id");
    while (q.executeStep()) {
      Source s;
      s.id = q.getColumn(0).getString();
      const std::string url = Text(q.getColumn(1));
      const std::string repo = Text(q.getColumn(2));
      const std::string file = Text(q.getColumn(3));
      const std::string commit = Text(q.getColumn(4));
      if (!url.empty()) {
        s.url = url;
      } else if (!repo.empty() && !file.empty() && !commit.empty()) {
        s.url = absl::StrCat(repo, "/", file, "@", commit);
      } else {
        return Bad("sources", absl::StrCat("'", s.id, "'"),
                   "has neither a url nor repo + path + commit");
      }
      s.title = Text(q.getColumn(5));
      catalog_->source_index[s.id] = catalog_->sources.size();
      catalog_->sources.push_back(std::move(s));
    }
    return absl::OkStatus();
  }

  static std::optional<Platform> ParsePlatform(absl::string_view s) {
    if (s == "CPU") return Platform::kCpu;
    if (s == "GPU") return Platform::kGpu;
    if (s == "TPU") return Platform::kTpu;
    if (s == "EDGE") return Platform::kEdge;
    return std::nullopt;
  }

  absl::Status LoadSeries() {
    SQLite::Statement q(db_,
                        "SELECT id, platform, family, maturity, positioning, "
                        "source_id FROM series ORDER BY id");
    while (q.executeStep()) {
      Series s;
      s.id = q.getColumn(0).getString();
      const std::string row = absl::StrCat("'", s.id, "'");
      std::optional<Platform> p = ParsePlatform(q.getColumn(1).getString());
      if (!p) return Bad("series", row, "unknown platform");
      s.platform = *p;
      s.family = Text(q.getColumn(2));
      const std::string m = q.getColumn(3).getString();
      if (m == "GA") {
        s.maturity = Maturity::kGa;
      } else if (m == "PREVIEW") {
        s.maturity = Maturity::kPreview;
      } else if (m == "LEGACY") {
        s.maturity = Maturity::kLegacy;
      } else {
        return Bad("series", row, absl::StrCat("unknown maturity '", m, "'"));
      }
      s.positioning = Text(q.getColumn(4));
      s.source_id = q.getColumn(5).getString();
      if (absl::Status st = CheckSource("series", row, s.source_id); !st.ok())
        return st;
      catalog_->series_index[s.id] = catalog_->series.size();
      catalog_->series.push_back(std::move(s));
    }
    return absl::OkStatus();
  }

  absl::Status LoadAccelerators() {
    SQLite::Statement q(
        db_,
        "SELECT id, platform, name, series_id, legacy, source_id, "
        "architecture FROM accelerators ORDER BY id");
    while (q.executeStep()) {
      Accelerator a;
      a.id = q.getColumn(0).getString();
      const std::string row = absl::StrCat("'", a.id, "'");
      std::optional<Platform> p = ParsePlatform(q.getColumn(1).getString());
      if (!p || *p == Platform::kCpu) {
        return Bad("accelerators", row, "platform must be GPU, TPU or EDGE");
      }
      a.platform = *p;
      a.name = q.getColumn(2).getString();
      a.series_id = Text(q.getColumn(3));
      if (!a.series_id.empty() &&
          !catalog_->series_index.contains(a.series_id)) {
        return Bad(
            "accelerators", row,
            absl::StrCat("series_id '", a.series_id, "' does not exist"));
      }
      a.legacy = q.getColumn(4).getInt() != 0;
      a.source_id = q.getColumn(5).getString();
      a.architecture = Text(q.getColumn(6));
      if (absl::Status st = CheckSource("accelerators", row, a.source_id);
          !st.ok())
        return st;
      catalog_->accelerator_index[a.id] = catalog_->accelerators.size();
      catalog_->accelerators.push_back(std::move(a));
    }
    return absl::OkStatus();
  }

  absl::Status LoadMachineTypes() {
    SQLite::Statement q(
        db_,
        "SELECT id, gce_machine_type, series_id, accelerator_id, "
        "accelerator_count, vcpus, memory_bytes, network_bits_per_s, source_id "
        "FROM machine_types ORDER BY id");
    while (q.executeStep()) {
      MachineType m;
      m.id = q.getColumn(0).getString();
      const std::string row = absl::StrCat("'", m.id, "'");
      m.gce_machine_type = q.getColumn(1).getString();
      m.series_id = q.getColumn(2).getString();
      const Series* series = catalog_->FindSeries(m.series_id);
      if (series == nullptr) {
        return Bad(
            "machine_types", row,
            absl::StrCat("series_id '", m.series_id, "' does not exist"));
      }
      m.accelerator_id = Text(q.getColumn(3));
      m.accelerator_count = q.getColumn(4).getInt();
      if (m.accelerator_count < 0) {
        return Bad("machine_types", row, "negative accelerator_count");
      }
      if (m.accelerator_id.empty()) {
        if (m.accelerator_count != 0 || series->platform != Platform::kCpu) {
          return Bad("machine_types", row,
                     "an accelerator machine type needs an accelerator_id");
        }
      } else if (!catalog_->accelerator_index.contains(m.accelerator_id)) {
        return Bad("machine_types", row,
                   absl::StrCat("accelerator_id '", m.accelerator_id,
                                "' does not exist"));
      }
      if (!q.getColumn(5).isNull()) {
        m.vcpus = q.getColumn(5).getInt();
        if (*m.vcpus <= 0)
          return Bad("machine_types", row, "vcpus must be > 0");
      }
      m.memory_bytes = OptReal(q.getColumn(6));
      m.network_bits_per_s = OptReal(q.getColumn(7));
      if ((m.memory_bytes && !PositiveFinite(*m.memory_bytes)) ||
          (m.network_bits_per_s && !PositiveFinite(*m.network_bits_per_s))) {
        return Bad(
            "machine_types", row,
            "memory_bytes and network_bits_per_s must be positive and finite");
      }
      m.source_id = q.getColumn(8).getString();
      if (absl::Status st = CheckSource("machine_types", row, m.source_id);
          !st.ok())
        return st;
      catalog_->machine_type_index[m.id] = catalog_->machine_types.size();
      catalog_->machine_types.push_back(std::move(m));
    }
    if (catalog_->machine_types.empty()) {
      // Every plan would come back empty while readiness says SERVING.
      return absl::FailedPreconditionError(absl::StrCat(
          "catalog ", path_,
          ": table machine_types is empty; nothing could be planned"));
    }
    return absl::OkStatus();
  }

  std::optional<Fact>* AcceleratorFact(Accelerator& a, absl::string_view name) {
    if (name == "memory_bytes") return &a.memory_bytes;
    if (name == "memory_bandwidth") return &a.memory_bandwidth;
    if (name == "peak_bf16") return &a.peak_bf16;
    if (name == "peak_fp16") return &a.peak_fp16;
    if (name == "peak_fp32") return &a.peak_fp32;
    if (name == "peak_tf32") return &a.peak_tf32;
    if (name == "peak_fp8") return &a.peak_fp8;
    if (name == "peak_int8") return &a.peak_int8;
    if (name == "peak_fp64") return &a.peak_fp64;
    if (name == "sparse_cores") return &a.sparse_cores;
    if (name == "tensorcores") return &a.tensorcores;
    if (name == "ici_bandwidth") return &a.ici_bandwidth;
    if (name == "dcn_bandwidth") return &a.dcn_bandwidth;
    if (name == "pod_chips") return &a.pod_chips;
    if (name == "param_cache_bytes") return &a.param_cache_bytes;
    if (name == "max_model_bytes") return &a.max_model_bytes;
    return nullptr;
  }

  std::optional<Fact>* SeriesFact(Series& s, absl::string_view name) {
    if (name == "nvlink_bandwidth") return &s.nvlink_bandwidth;
    if (name == "nvlink_domain_gpus") return &s.nvlink_domain_gpus;
    if (name == "host_nic_bandwidth") return &s.host_nic_bandwidth;
    if (name == "network_hop_latency") return &s.network_hop_latency;
    if (name == "fp32_flops_per_vcpu") return &s.fp32_flops_per_vcpu;
    if (name == "fp64_flops_per_vcpu") return &s.fp64_flops_per_vcpu;
    return nullptr;
  }

  absl::Status LoadFacts() {
    // fact name -> (applies_to, unit)
    absl::flat_hash_map<std::string, std::pair<std::string, std::string>> kinds;
    SQLite::Statement k(db_, "SELECT name, applies_to, unit FROM fact_kinds");
    while (k.executeStep()) {
      kinds[k.getColumn(0).getString()] = {k.getColumn(1).getString(),
                                           k.getColumn(2).getString()};
    }
    SQLite::Statement q(
        db_,
        "SELECT subject, fact, value, unit, source_id FROM facts "
        "ORDER BY subject, fact");
    while (q.executeStep()) {
      const std::string subject = q.getColumn(0).getString();
      const std::string name = q.getColumn(1).getString();
      const std::string row =
          absl::StrCat("(subject='", subject, "', fact='", name, "')");
      const double value = q.getColumn(2).getDouble();
      const std::string unit = q.getColumn(3).getString();
      const std::string source_id = q.getColumn(4).getString();
      auto kind = kinds.find(name);
      if (kind == kinds.end()) {
        return Bad("facts", row, "fact is not declared in fact_kinds");
      }
      const auto& [applies_to, kind_unit] = kind->second;
      if (unit != kind_unit) {
        return Bad(
            "facts", row,
            absl::StrCat("unit '", unit, "' does not match fact_kinds unit '",
                         kind_unit, "'"));
      }
      if (!PositiveFinite(value)) {
        return Bad(
            "facts", row,
            absl::StrCat("value ", value, " is not positive and finite"));
      }
      if (absl::Status st = CheckSource("facts", row, source_id); !st.ok())
        return st;
      Fact fact{value, source_id};
      std::optional<Fact>* slot = nullptr;
      if (applies_to == "accelerator") {
        auto it = catalog_->accelerator_index.find(subject);
        if (it == catalog_->accelerator_index.end()) {
          return Bad("facts", row, "subject is not an accelerator id");
        }
        slot = AcceleratorFact(catalog_->accelerators[it->second], name);
      } else if (applies_to == "series") {
        auto it = catalog_->series_index.find(subject);
        if (it == catalog_->series_index.end()) {
          return Bad("facts", row, "subject is not a series id");
        }
        slot = SeriesFact(catalog_->series[it->second], name);
      } else if (applies_to == "machine_type") {
        if (!catalog_->machine_type_index.contains(subject)) {
          return Bad("facts", row, "subject is not a machine type id");
        }
      } else {
        return Bad("fact_kinds", name,
                   absl::StrCat("unknown applies_to '", applies_to, "'"));
      }
      // Kinds this loader has no field for are validated and then skipped,
      // so adding a fact kind does not break older servers.
      if (slot != nullptr) *slot = fact;
    }
    return absl::OkStatus();
  }

  Accelerator* MutableAccelerator(const std::string& id) {
    auto it = catalog_->accelerator_index.find(id);
    return it == catalog_->accelerator_index.end()
               ? nullptr
               : &catalog_->accelerators[it->second];
  }

  MachineType* MutableMachineType(const std::string& id) {
    auto it = catalog_->machine_type_index.find(id);
    return it == catalog_->machine_type_index.end()
               ? nullptr
               : &catalog_->machine_types[it->second];
  }

  absl::Status LoadFormats() {
    SQLite::Statement q(db_,
                        "SELECT accelerator_id, format, supported, source_id "
                        "FROM numeric_formats ORDER BY accelerator_id, format");
    while (q.executeStep()) {
      const std::string id = q.getColumn(0).getString();
      const std::string format = q.getColumn(1).getString();
      const std::string row = absl::StrCat("(", id, ", ", format, ")");
      Accelerator* a = MutableAccelerator(id);
      if (a == nullptr)
        return Bad("numeric_formats", row, "unknown accelerator");
      FormatSupport f{q.getColumn(2).getInt() != 0, q.getColumn(3).getString()};
      if (absl::Status st = CheckSource("numeric_formats", row, f.source_id);
          !st.ok())
        return st;
      a->formats[format] = std::move(f);
    }
    return absl::OkStatus();
  }

  absl::Status LoadTopologies() {
    SQLite::Statement q(db_,
                        "SELECT accelerator_id, topology, chips, vms, "
                        "machine_type_id, source_id FROM tpu_topologies "
                        "ORDER BY accelerator_id, chips, topology");
    while (q.executeStep()) {
      const std::string id = q.getColumn(0).getString();
      TpuTopology t;
      t.topology = q.getColumn(1).getString();
      const std::string row = absl::StrCat("(", id, ", ", t.topology, ")");
      t.chips = q.getColumn(2).getInt();
      t.vms = q.getColumn(3).getInt();
      t.machine_type_id = q.getColumn(4).getString();
      t.source_id = q.getColumn(5).getString();
      Accelerator* a = MutableAccelerator(id);
      if (a == nullptr)
        return Bad("tpu_topologies", row, "unknown accelerator");
      if (t.chips <= 0 || t.vms <= 0) {
        return Bad("tpu_topologies", row, "chips and vms must be > 0");
      }
      const MachineType* m = catalog_->FindMachineType(t.machine_type_id);
      if (m == nullptr || m->accelerator_id != id) {
        return Bad(
            "tpu_topologies", row,
            absl::StrCat("machine type '", t.machine_type_id,
                         "' does not exist or carries another accelerator"));
      }
      if (absl::Status st = CheckSource("tpu_topologies", row, t.source_id);
          !st.ok())
        return st;
      a->topologies.push_back(std::move(t));
    }
    return absl::OkStatus();
  }

  static void Attach(std::optional<Price>& slot, Price p) {
    if (!slot ||
        (p.region == kPreferredRegion && slot->region != kPreferredRegion)) {
      slot = std::move(p);
    }
  }

  absl::Status LoadPrices() {
    SQLite::Statement q(
        db_,
        "SELECT subject, unit, region, on_demand_usd, spot_usd, "
        "price_date, source_id, note FROM prices "
        "ORDER BY subject, region");
    while (q.executeStep()) {
      const std::string subject = q.getColumn(0).getString();
      const std::string unit = q.getColumn(1).getString();
      Price p;
      p.region = q.getColumn(2).getString();
      const std::string row = absl::StrCat("(", subject, ", ", p.region, ")");
      p.on_demand_usd = OptReal(q.getColumn(3));
      p.spot_usd = OptReal(q.getColumn(4));
      p.date = q.getColumn(5).getString();
      p.source_id = q.getColumn(6).getString();
      p.note = Text(q.getColumn(7));
      if ((p.on_demand_usd && !PositiveFinite(*p.on_demand_usd)) ||
          (p.spot_usd && !PositiveFinite(*p.spot_usd))) {
        return Bad("prices", row, "prices must be positive and finite");
      }
      if (!IsDate(p.date))
        return Bad("prices", row, "price_date is not YYYY-MM-DD");
      if (absl::Status st = CheckSource("prices", row, p.source_id); !st.ok())
        return st;
      if (unit == "usd_per_vm_hour") {
        MachineType* m = MutableMachineType(subject);
        if (m == nullptr)
          return Bad("prices", row, "subject is not a machine type");
        Attach(m->price, std::move(p));
      } else if (unit == "usd_per_chip_hour") {
        Accelerator* a = MutableAccelerator(subject);
        if (a == nullptr || a->platform != Platform::kTpu) {
          return Bad("prices", row,
                     "per-chip prices need a TPU accelerator subject");
        }
        p.per_chip = true;
        Attach(a->chip_price, std::move(p));
      } else {
        return Bad("prices", row, absl::StrCat("unknown unit '", unit, "'"));
      }
    }
    return absl::OkStatus();
  }

  absl::Status LoadFrameworks() {
    SQLite::Statement q(db_,
                        "SELECT subject, framework, status, min_version, "
                        "source_id, note FROM framework_support "
                        "ORDER BY subject, framework");
    while (q.executeStep()) {
      const std::string subject = q.getColumn(0).getString();
      const std::string framework = q.getColumn(1).getString();
      const std::string row = absl::StrCat("(", subject, ", ", framework, ")");
      FrameworkSupport f;
      const std::string status = q.getColumn(2).getString();
      if (status == "SUPPORTED") {
        f.status = SupportStatus::kSupported;
      } else if (status == "UNSUPPORTED") {
        f.status = SupportStatus::kUnsupported;
      } else if (status == "UNVERIFIED") {
        f.status = SupportStatus::kUnverified;
      } else {
        return Bad("framework_support", row,
                   absl::StrCat("unknown status '", status, "'"));
      }
      f.min_version = Text(q.getColumn(3));
      f.source_id = q.getColumn(4).getString();
      f.note = Text(q.getColumn(5));
      if (absl::Status st = CheckSource("framework_support", row, f.source_id);
          !st.ok())
        return st;
      if (subject == kCpuSubject) {
        catalog_->cpu_frameworks[framework] = std::move(f);
      } else if (Accelerator* a = MutableAccelerator(subject); a != nullptr) {
        a->frameworks[framework] = std::move(f);
      } else {
        return Bad("framework_support", row,
                   "subject is neither 'CPU' nor an accelerator");
      }
    }
    return absl::OkStatus();
  }

  absl::Status LoadOfferings() {
    SQLite::Statement q(
        db_,
        "SELECT subject, run_platform, provisioning, available, "
        "status, source_id, note, available_until FROM offerings "
        "ORDER BY subject, run_platform, provisioning");
    while (q.executeStep()) {
      const std::string subject = q.getColumn(0).getString();
      const std::string platform = q.getColumn(1).getString();
      const std::string provisioning = q.getColumn(2).getString();
      const std::string row =
          absl::StrCat("(", subject, ", ", platform, ", ", provisioning, ")");
      Offering o;
      if (platform == "VERTEX_TRAINING") {
        o.run_platform = RunPlatform::kVertexTraining;
      } else if (platform == "GKE") {
        o.run_platform = RunPlatform::kGke;
      } else if (platform == "COMPUTE_ENGINE") {
        o.run_platform = RunPlatform::kComputeEngine;
      } else {
        return Bad("offerings", row, "unknown run_platform");
      }
      if (provisioning == "ON_DEMAND") {
        o.provisioning = Provisioning::kOnDemand;
      } else if (provisioning == "SPOT") {
        o.provisioning = Provisioning::kSpot;
      } else if (provisioning == "FLEX_START") {
        o.provisioning = Provisioning::kFlexStart;
      } else if (provisioning == "RESERVATION") {
        o.provisioning = Provisioning::kReservation;
      } else if (provisioning == "ANY") {
        o.provisioning = Provisioning::kAny;
      } else {
        return Bad("offerings", row, "unknown provisioning");
      }
      o.available = q.getColumn(3).getInt() != 0;
      const std::string status = q.getColumn(4).getString();
      if (status != "GA" && status != "PREVIEW") {
        return Bad("offerings", row,
                   absl::StrCat("unknown status '", status, "'"));
      }
      o.preview = status == "PREVIEW";
      o.source_id = q.getColumn(5).getString();
      o.note = Text(q.getColumn(6));
      o.available_until = Text(q.getColumn(7));
      if (!o.available_until.empty() && !IsDate(o.available_until)) {
        return Bad("offerings", row,
                   "available_until is not a YYYY-MM-DD date");
      }
      if (absl::Status st = CheckSource("offerings", row, o.source_id);
          !st.ok())
        return st;
      if (MachineType* m = MutableMachineType(subject); m != nullptr) {
        m->offerings.push_back(std::move(o));
      } else if (Accelerator* a = MutableAccelerator(subject); a != nullptr) {
        a->offerings.push_back(std::move(o));
      } else {
        return Bad("offerings", row,
                   "subject is neither a machine type nor an accelerator");
      }
    }
    return absl::OkStatus();
  }

  absl::Status LoadEndOfSupport() {
    SQLite::Statement q(
        db_,
        "SELECT accelerator_id, date, source_id FROM end_of_support "
        "ORDER BY accelerator_id");
    while (q.executeStep()) {
      const std::string id = q.getColumn(0).getString();
      const std::string date = q.getColumn(1).getString();
      const std::string source_id = q.getColumn(2).getString();
      const std::string row = absl::StrCat("'", id, "'");
      Accelerator* a = MutableAccelerator(id);
      if (a == nullptr)
        return Bad("end_of_support", row, "unknown accelerator");
      if (!IsDate(date))
        return Bad("end_of_support", row, "date is not YYYY-MM-DD");
      if (absl::Status st = CheckSource("end_of_support", row, source_id);
          !st.ok())
        return st;
      a->end_of_support = date;
      a->end_of_support_source_id = source_id;
    }
    return absl::OkStatus();
  }

  absl::Status LoadWorkloadLists() {
    SQLite::Statement q(
        db_,
        "SELECT series_id, list, source_id FROM series_workload_lists "
        "ORDER BY series_id, list");
    while (q.executeStep()) {
      const std::string id = q.getColumn(0).getString();
      const std::string list = q.getColumn(1).getString();
      const std::string source_id = q.getColumn(2).getString();
      const std::string row = absl::StrCat("(", id, ", ", list, ")");
      auto it = catalog_->series_index.find(id);
      if (it == catalog_->series_index.end()) {
        return Bad("series_workload_lists", row, "unknown series");
      }
      WorkloadList w;
      if (list == "PRE_TRAINING") {
        w = WorkloadList::kPreTraining;
      } else if (list == "FINE_TUNING") {
        w = WorkloadList::kFineTuning;
      } else if (list == "INFERENCE") {
        w = WorkloadList::kInference;
      } else {
        return Bad("series_workload_lists", row, "unknown list");
      }
      if (absl::Status st =
              CheckSource("series_workload_lists", row, source_id);
          !st.ok())
        return st;
      catalog_->series[it->second].workload_lists[w] = source_id;
    }
    return absl::OkStatus();
  }

  absl::Status LoadLabels() {
    SQLite::Statement q(db_,
                        "SELECT subject, system, value, source_id FROM labels "
                        "ORDER BY subject, system");
    while (q.executeStep()) {
      const std::string id = q.getColumn(0).getString();
      const std::string system = q.getColumn(1).getString();
      const std::string row = absl::StrCat("(", id, ", ", system, ")");
      Accelerator* a = MutableAccelerator(id);
      if (a == nullptr) return Bad("labels", row, "unknown accelerator");
      if (absl::Status st =
              CheckSource("labels", row, q.getColumn(3).getString());
          !st.ok())
        return st;
      a->labels[system] = q.getColumn(2).getString();
    }
    return absl::OkStatus();
  }

  absl::Status LoadServiceFacts() {
    SQLite::Statement q(
        db_, "SELECT name, value, source_id FROM service_facts ORDER BY name");
    while (q.executeStep()) {
      const std::string name = q.getColumn(0).getString();
      const std::string source_id = q.getColumn(2).getString();
      if (absl::Status st = CheckSource(
              "service_facts", absl::StrCat("'", name, "'"), source_id);
          !st.ok())
        return st;
      catalog_->service_facts[name] = {q.getColumn(1).getString(), source_id};
    }
    return absl::OkStatus();
  }

  static std::optional<int> OptInt(const SQLite::Column& c) {
    if (c.isNull()) return std::nullopt;
    return c.getInt();
  }

  // A preset's dimensions: each NULL (unknown) or a whole number from 1 to
  // the limit the request's field has (patch_size, which no request states,
  // the hidden size's), since a preset fills a request's shape
  // (planner/model_presets.cc) after the request's own checks. Unchecked, a
  // zero divided (heads by KV heads) and a 64-bit value read as int wrapped.
  absl::Status LoadPresetDimensions(SQLite::Statement& q,
                                    const std::string& row, ModelPreset& m) {
    namespace L = planner::limits;
    const struct {
      int column;
      const char* name;
      int64_t max;
      std::optional<int>* field;
    } dims[] = {
        {4, "layers", L::kMaxLayers, &m.layers},
        {5, "decoder_layers", L::kMaxLayers, &m.decoder_layers},
        {6, "hidden_size", L::kMaxHiddenSize, &m.hidden_size},
        {7, "attention_heads", L::kMaxAttentionHeads, &m.attention_heads},
        {8, "kv_heads", L::kMaxAttentionHeads, &m.kv_heads},
        {9, "head_dim", L::kMaxHiddenSize, &m.head_dim},
        {10, "ffn_size", L::kMaxFfnHiddenSize, &m.ffn_size},
        {12, "vocab_size", L::kMaxVocabSize, &m.vocab_size},
        {13, "max_sequence", L::kMaxSequenceLength, &m.max_sequence},
        {16, "patch_size", L::kMaxHiddenSize, &m.patch_size},
        {17, "experts", L::kMaxExperts, &m.experts},
        {18, "experts_per_token", L::kMaxExperts, &m.experts_per_token},
        {23, "sliding_window", L::kMaxSequenceLength, &m.sliding_window},
        {24, "global_attention_every", L::kMaxLayers,
         &m.global_attention_every},
    };
    for (const auto& d : dims) {
      const SQLite::Column c = q.getColumn(d.column);
      if (c.isNull()) continue;
      const int64_t v = c.isInteger() ? c.getInt64() : 0;
      if (v < 1 || v > d.max) {
        return Bad("models", row,
                   absl::StrCat(d.name,
                                " must be NULL or a whole number "
                                "from 1 to ",
                                d.max));
      }
      *d.field = static_cast<int>(v);
    }
    return absl::OkStatus();
  }

  absl::Status LoadModels() {
    SQLite::Statement q(
        db_,
        "SELECT id, name, family, architecture, layers, decoder_layers, "
        "hidden_size, attention_heads, kv_heads, head_dim, ffn_size, "
        "gated_ffn, vocab_size, max_sequence, tied_embeddings, "
        "learned_positions, patch_size, experts, experts_per_token, "
        "total_params, active_params, source_id, note, sliding_window, "
        "global_attention_every, window_source_id FROM models ORDER BY id");
    while (q.executeStep()) {
      ModelPreset m;
      m.id = q.getColumn(0).getString();
      const std::string row = absl::StrCat("'", m.id, "'");
      if (m.id != absl::AsciiStrToLower(m.id)) {
        return Bad("models", row, "id must be lowercase (lookups fold case)");
      }
      m.name = q.getColumn(1).getString();
      m.family = q.getColumn(2).getString();
      m.architecture = q.getColumn(3).getString();
      if (absl::Status st = LoadPresetDimensions(q, row, m); !st.ok())
        return st;
      m.gated_ffn = OptInt(q.getColumn(11)).value_or(0) != 0;
      m.tied_embeddings = OptInt(q.getColumn(14)).value_or(0) != 0;
      m.learned_positions = OptInt(q.getColumn(15)).value_or(0) != 0;
      m.total_params = q.getColumn(19).getDouble();
      m.active_params = OptReal(q.getColumn(20));
      m.source_id = q.getColumn(21).getString();
      m.note = Text(q.getColumn(22));
      m.window_source_id = Text(q.getColumn(25));
      if (!PositiveFinite(m.total_params) ||
          (m.active_params && (!PositiveFinite(*m.active_params) ||
                               *m.active_params > m.total_params))) {
        return Bad("models", row,
                   "total_params must be positive and active_params at most "
                   "total_params");
      }
      if (m.attention_heads && m.kv_heads &&
          *m.attention_heads % *m.kv_heads != 0) {
        return Bad("models", row,
                   "attention_heads is not a multiple of kv_heads");
      }
      if (m.experts_per_token &&
          (!m.experts || *m.experts_per_token > *m.experts)) {
        return Bad("models", row,
                   "experts_per_token needs experts and must not exceed it");
      }
      if (absl::Status st = CheckSource("models", row, m.source_id); !st.ok())
        return st;
      if (m.sliding_window) {
        if (absl::Status st = CheckSource("models", row, m.window_source_id);
            !st.ok())
          return st;
      }
      if (!catalog_->model_index
               .emplace(ModelKey(m.id), catalog_->models.size())
               .second) {
        return Bad("models", row,
                   "id differs from another preset's only in case or "
                   "separators (lookups ignore them)");
      }
      catalog_->models.push_back(std::move(m));
    }
    return absl::OkStatus();
  }

  absl::Status LoadMeasuredEfficiencies() {
    SQLite::Statement q(
        db_,
        "SELECT run_id, accelerator, precision, stack, moe, recompute, "
        "devices, model, mfu, mfu_6pd, source_id, note, tensor_parallel FROM "
        "measured_efficiency ORDER BY run_id");
    while (q.executeStep()) {
      MeasuredEfficiency e;
      e.run_id = q.getColumn(0).getString();
      const std::string row = absl::StrCat("'", e.run_id, "'");
      e.accelerator = q.getColumn(1).getString();
      e.precision = q.getColumn(2).getString();
      e.stack = q.getColumn(3).getString();
      e.moe = q.getColumn(4).getInt() != 0;
      e.recompute = Text(q.getColumn(5));
      const int64_t devices = q.getColumn(6).getInt64();
      e.model = q.getColumn(7).getString();
      e.mfu = q.getColumn(8).getDouble();
      e.mfu_6pd = q.getColumn(9).getDouble();
      e.source_id = q.getColumn(10).getString();
      e.note = Text(q.getColumn(11));
      const bool tensor_parallel_stated = !q.getColumn(12).isNull();
      const int64_t tensor_parallel =
          tensor_parallel_stated ? q.getColumn(12).getInt64() : 0;
      if (catalog_->FindAccelerator(e.accelerator) == nullptr) {
        return Bad("measured_efficiency", row, "names an unknown accelerator");
      }
      if (!PositiveFinite(e.mfu) || e.mfu >= 1) {
        return Bad("measured_efficiency", row, "mfu must be in (0, 1)");
      }
      if (devices < 1 || devices > std::numeric_limits<int>::max() ||
          (tensor_parallel_stated &&
           (tensor_parallel < 1 || tensor_parallel > devices))) {
        return Bad("measured_efficiency", row,
                   "devices must be > 0 and tensor_parallel NULL or from 1 "
                   "to devices");
      }
      e.devices = static_cast<int>(devices);
      e.tensor_parallel = static_cast<int>(tensor_parallel);
      if (absl::Status st = CheckSource("measured_efficiency", row, e.source_id);
          !st.ok())
        return st;
      catalog_->measured_efficiencies.push_back(std::move(e));
    }
    return absl::OkStatus();
  }

  // Hash over a canonical dump: each table's rows ordered by every column,
  // each value tagged with its type, so the result depends on content only,
  // not on insert order or page layout.
  absl::StatusOr<std::string> ContentHash() {
    Fnv1a64 h;
    for (const char* table : kTables) {
      int columns = 0;
      SQLite::Statement info(db_,
                             absl::StrCat("PRAGMA table_info(", table, ")"));
      while (info.executeStep()) ++columns;
      std::string order;
      for (int i = 1; i <= columns; ++i)
        absl::StrAppend(&order, i == 1 ? "" : ",", i);
      SQLite::Statement q(
          db_, absl::StrCat("SELECT * FROM ", table, " ORDER BY ", order));
      h.Update(absl::StrCat("#", table, "\n"));
      while (q.executeStep()) {
        std::string line;
        for (int i = 0; i < q.getColumnCount(); ++i) {
          const SQLite::Column c = q.getColumn(i);
          if (c.isNull()) {
            line += "N|";
          } else if (c.isInteger()) {
            absl::StrAppend(&line, "I", c.getInt64(), "|");
          } else if (c.isFloat()) {
            absl::StrAppend(&line, "R", absl::StrFormat("%.17g", c.getDouble()),
                            "|");
          } else {
            const std::string s = c.getString();
            absl::StrAppend(&line, "T", s.size(), ":", s, "|");
          }
        }
        line += "\n";
        h.Update(line);
      }
    }
    return absl::StrFormat("%016x", h.value()).substr(0, 12);
  }

  SQLite::Database& db_;
  std::string path_;
  std::shared_ptr<Catalog> catalog_;
};

// What is at `path` before SQLite sees it: each way a path can fail to be a
// catalog file gets its own message, so an operator is not told "not found"
// about a directory or a pipe.
absl::Status CheckFile(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      return absl::NotFoundError(
          absl::StrCat("catalog file not found: ", path));
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "catalog ", path, " cannot be examined: ", std::strerror(err)));
  }
  if (S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("catalog ", path, " is a directory, not a catalog file"));
  }
  if (S_ISFIFO(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "catalog ", path,
        " is a FIFO (named pipe), not a regular file; SQLite needs a file it "
        "can seek in"));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("catalog ", path, " is not a regular file"));
  }
  if (::access(path.c_str(), R_OK) != 0) {
    return absl::PermissionDeniedError(absl::StrCat(
        "catalog ", path, " cannot be read: ", std::strerror(errno)));
  }
  // An immutable open reads only the main file, so committed pages still in
  // a write-ahead log would be silently missing from the snapshot.
  const std::string wal = absl::StrCat(path, "-wal");
  struct stat wal_st;
  if (::stat(wal.c_str(), &wal_st) == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "catalog ", path, " has a write-ahead log beside it (", wal,
        "); an immutable read-only open would ignore it and load stale data. "
        "Checkpoint it (sqlite3 ",
        path, " 'PRAGMA wal_checkpoint(TRUNCATE)') or rebuild the catalog"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CatalogPtr> LoadCatalog(const std::string& path) {
  if (absl::Status s = CheckFile(path); !s.ok()) return s;
  try {
    // immutable=1: the file never changes while open, so SQLite takes no
    // locks and writes no journal; a swap happens by reopening.
    SQLite::Database db(absl::StrCat("file:", UriPath(path), "?immutable=1"),
                        SQLite::OPEN_READONLY | SQLite::OPEN_URI);
    try {
      // Touch the schema first so a non-database file fails with a clear
      // message instead of somewhere inside the loader.
      db.execAndGet("SELECT count(*) FROM sqlite_master");
    } catch (const SQLite::Exception& e) {
      return absl::FailedPreconditionError(absl::StrCat(
          "catalog ", path, " is not a readable SQLite database: ", e.what()));
    }
    Loader loader(db, path);
    return loader.Load();
  } catch (const SQLite::Exception& e) {
    return absl::FailedPreconditionError(
        absl::StrCat("catalog ", path, ": cannot read: ", e.what()));
  }
}

}  // namespace accelplan::catalog
