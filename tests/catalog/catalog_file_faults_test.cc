// What the loader says about paths that are not a loadable catalog file: a
// directory, a FIFO, an unreadable file and a database with a write-ahead
// log beside it each get their own message instead of "not found". The
// server's SIGHUP reload calls the same LoadCatalog, so these messages are
// what a failed reload logs.
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "catalog/loader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/catalog/temp_dir.h"

namespace accelplan::catalog {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kBuiltCatalog = ACCELPLAN_CATALOG_DB_PATH;

std::string CopyOfBuiltCatalog(const TempDir& dir, const std::string& name) {
  const std::string path = dir.File(name);
  std::filesystem::copy_file(kBuiltCatalog, path);
  return path;
}

TEST(CatalogFileFaults, ControlTheCopyLoads) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  EXPECT_TRUE(LoadCatalog(CopyOfBuiltCatalog(dir, "catalog.db")).ok());
}

TEST(CatalogFileFaults, DirectoryIsNamedAsADirectory) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("catalog.db");
  ASSERT_TRUE(std::filesystem::create_directory(path));
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(loaded.status().message(), HasSubstr(path));
  EXPECT_THAT(loaded.status().message(), HasSubstr("is a directory"));
  EXPECT_THAT(loaded.status().message(), Not(HasSubstr("not found")));
}

TEST(CatalogFileFaults, FifoIsNamedAsAFifo) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("catalog.db");
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0) << std::strerror(errno);
  // Returns without opening the pipe: an open would block for a writer.
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(loaded.status().message(), HasSubstr("FIFO"));
  EXPECT_THAT(loaded.status().message(), Not(HasSubstr("not found")));
}

TEST(CatalogFileFaults, WalFileBesideTheDatabaseIsRefused) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = CopyOfBuiltCatalog(dir, "catalog.db");
  { std::ofstream(path + "-wal") << "pending pages"; }
  absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(loaded.status().message(), HasSubstr(path + "-wal"));
  EXPECT_THAT(loaded.status().message(), HasSubstr("write-ahead log"));
  // Removing the log makes the same file load again.
  std::filesystem::remove(path + "-wal");
  EXPECT_TRUE(LoadCatalog(path).ok());
}

// root reads files whatever their mode, so the load runs in a child that
// has dropped to an unprivileged uid when the test runs as root.
TEST(CatalogFileFaults, UnreadableFileIsPermissionDenied) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
  const std::string path = CopyOfBuiltCatalog(dir, "catalog.db");
  ASSERT_EQ(chmod(path.c_str(), 0000), 0);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
    absl::StatusOr<CatalogPtr> loaded = LoadCatalog(path);
    const std::string report =
        loaded.ok()
            ? std::string("OK")
            : absl::StrCat(absl::StatusCodeToString(loaded.status().code()),
                           ": ", loaded.status().message());
    (void)!write(fds[1], report.data(), report.size());
    _exit(0);
  }
  close(fds[1]);
  std::string report;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    report.append(buf, n);
  close(fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "child could not drop privileges";
  EXPECT_THAT(report, HasSubstr("PERMISSION_DENIED"));
  EXPECT_THAT(report, HasSubstr("cannot be read"));
  EXPECT_THAT(report, HasSubstr(path));
}

}  // namespace
}  // namespace accelplan::catalog
