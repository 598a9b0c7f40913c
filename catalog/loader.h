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
// Errors: NotFound when the file does not exist; PermissionDenied when it
// cannot be read; FailedPrecondition, each with its own message, when the
// path is a directory, a FIFO or another non-regular file, when a `-wal`
// file lies beside it (an immutable open would miss its pages), when it is
// not a SQLite database or not an accelplan catalog (missing tables,
// unsupported schema version), or when it has no machine types;
// InvalidArgument naming the table and row when the data breaks an
// invariant (including a data_date or price_date that is not a real
// calendar date).
absl::StatusOr<CatalogPtr> LoadCatalog(const std::string& path);

}  // namespace accelplan::catalog

#endif  // ACCELPLAN_CATALOG_LOADER_H_
