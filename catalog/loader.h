// Loads the catalog SQLite file into an immutable, validated snapshot.
#ifndef ACCELPLAN_CATALOG_LOADER_H_
#define ACCELPLAN_CATALOG_LOADER_H_

#include <string>

#include "absl/status/statusor.h"
#include "catalog/catalog.h"

namespace accelplan::catalog {

// The schema_version this loader understands (catalog_meta.schema_version).
inline constexpr const char* kSupportedSchemaVersion = "1";

// Opens `path` read-only (SQLite immutable URI), loads every table into a
// Catalog and validates it: schema version, foreign keys, fact units against
// fact_kinds, subjects that exist, positive finite numbers, and a resolvable
// source (URL, or repo + path + commit) for every row.
//
// Errors: NotFound when the file does not exist; FailedPrecondition when it
// is not a SQLite database or not an accelplan catalog (missing tables,
// unsupported schema version); InvalidArgument naming the table and row
// when the data breaks an invariant.
absl::StatusOr<CatalogPtr> LoadCatalog(const std::string& path);

}  // namespace accelplan::catalog

#endif  // ACCELPLAN_CATALOG_LOADER_H_
