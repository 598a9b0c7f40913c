// A private folder under /tmp for catalog test fixtures, removed with
// everything in it when the test ends.
#ifndef ACCELPLAN_TESTS_CATALOG_TEMP_DIR_H_
#define ACCELPLAN_TESTS_CATALOG_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace accelplan::catalog {

class TempDir {
 public:
  TempDir() {
    std::string templ = "/tmp/accelplan-catalog-test-XXXXXX";
    char* made = mkdtemp(templ.data());
    if (made != nullptr) path_ = made;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  bool ok() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace accelplan::catalog

#endif  // ACCELPLAN_TESTS_CATALOG_TEMP_DIR_H_
