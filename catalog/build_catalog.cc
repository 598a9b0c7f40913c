// Build-time tool: creates the catalog SQLite file from schema.sql and the
// data/*.sql files, in the order given on the command line.
//
//   accelplan_build_catalog OUT.db schema.sql data/00_x.sql data/10_y.sql ...
//
// Writes to a temporary file next to OUT.db and renames it into place, so an
// interrupted build never leaves a half-written catalog behind. Before the
// rename it checks foreign keys and the sanity invariants of invariants.h;
// any violation fails the build, naming the row.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "SQLiteCpp/SQLiteCpp.h"
#include "absl/strings/str_cat.h"
#include "catalog/invariants.h"

namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buf;
  buf << in.rdbuf();
  *out = buf.str();
  return true;
}

int Fail(const std::string& message) {
  std::cerr << "accelplan_build_catalog: " << message << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    return Fail(
        "usage: accelplan_build_catalog OUT.db schema.sql [data.sql...]");
  }
  const std::filesystem::path out = argv[1];
  const std::filesystem::path tmp = absl::StrCat(out.string(), ".tmp");
  std::error_code ec;
  std::filesystem::remove(tmp, ec);
  std::filesystem::remove(absl::StrCat(tmp.string(), "-journal"), ec);

  std::string current = "(opening)";
  try {
    SQLite::Database db(tmp.string(),
                        SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    // Foreign keys on so a data row pointing at a missing id fails here, at
    // build time, naming the file.
    db.exec("PRAGMA foreign_keys = ON;");
    for (int i = 2; i < argc; ++i) {
      current = argv[i];
      std::string sql;
      if (!ReadFile(current, &sql)) {
        return Fail(absl::StrCat("cannot read ", current));
      }
      SQLite::Transaction txn(db);
      db.exec(sql);
      txn.commit();
    }
    current = "(foreign key check)";
    SQLite::Statement fk(db, "PRAGMA foreign_key_check;");
    bool bad = false;
    while (fk.executeStep()) {
      bad = true;
      std::cerr << "foreign key violation: table "
                << fk.getColumn(0).getString() << " rowid "
                << fk.getColumn(1).getInt64() << " -> "
                << fk.getColumn(2).getString() << "\n";
    }
    if (bad) return Fail("foreign key violations");
    current = "(invariants)";
    const std::vector<std::string> violations =
        accelplan::catalog::CheckInvariants(db);
    for (const std::string& v : violations) {
      std::cerr << "invariant violated: " << v << "\n";
    }
    if (!violations.empty()) {
      // Unlinking the open file is fine on POSIX; no half-checked catalog
      // is left behind to be mistaken for a good one.
      std::filesystem::remove(tmp, ec);
      return Fail(
          absl::StrCat(violations.size(),
                       " invariant violation(s); fix the rows named above"));
    }
    db.exec("VACUUM;");
  } catch (const std::exception& e) {
    std::filesystem::remove(tmp, ec);
    return Fail(absl::StrCat(current, ": ", e.what()));
  }
  std::filesystem::rename(tmp, out, ec);
  if (ec) {
    return Fail(absl::StrCat("cannot rename ", tmp.string(), " to ",
                             out.string(), ": ", ec.message()));
  }
  return 0;
}
