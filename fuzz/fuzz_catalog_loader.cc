// libFuzzer target: catalog::LoadCatalog on arbitrary (mostly mutated SQLite)
// files. Every input must yield a status or a catalog, never a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/statusor.h"
#include "catalog/loader.h"

namespace {

// One file per process, rewritten for every input; in TMPDIR so parallel
// fuzzing jobs never share it.
const std::string& TempPath() {
  static const std::string* path = [] {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir != nullptr ? dir : "/tmp") +
                          "/accelplan_fuzz_catalog_XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd < 0) {
      std::perror("fuzz_catalog_loader: mkstemp");
      std::abort();
    }
    close(fd);
    return new std::string(pattern);
  }();
  return *path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = TempPath();
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
  absl::StatusOr<accelplan::catalog::CatalogPtr> catalog =
      accelplan::catalog::LoadCatalog(path);
  // A loaded catalog must be usable: touch it so a bad snapshot shows up here.
  if (catalog.ok() && *catalog == nullptr) std::abort();
  return 0;
}
