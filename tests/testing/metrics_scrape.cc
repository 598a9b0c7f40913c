#include "tests/testing/metrics_scrape.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace accelplan::testing {

int ConnectLoopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string HttpGetMetrics(int port, int timeout_seconds) {
  const int fd = ConnectLoopback(port);
  if (fd < 0) return "";
  timeval tv{};
  tv.tv_sec = timeout_seconds;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  const std::string request =
      "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  std::string response;
  if (::write(fd, request.data(), request.size()) ==
      static_cast<ssize_t>(request.size())) {
    char buffer[8192];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) {
      response.append(buffer, static_cast<size_t>(n));
    }
  }
  ::close(fd);
  return response;
}

// The value of the first sample of `metric` whose labels contain every
// `label="value"` in `labels`; -1 when absent.
double Sample(const std::string& scrape, const std::string& metric,
              const std::vector<std::string>& labels) {
  for (absl::string_view line : absl::StrSplit(scrape, '\n')) {
    if (!absl::StartsWith(line, absl::StrCat(metric, "{"))) continue;
    bool all = true;
    for (const std::string& l : labels) all = all && absl::StrContains(line, l);
    if (!all) continue;
    const size_t space = line.rfind(' ');
    double value = -1;
    if (absl::SimpleAtod(line.substr(space + 1), &value)) return value;
  }
  return -1;
}

// The sum over every sample of `metric` whose labels contain all of
// `labels`; 0 when there is none.
double SumSamples(const std::string& scrape, const std::string& metric,
                  const std::vector<std::string>& labels) {
  double sum = 0;
  for (absl::string_view line : absl::StrSplit(scrape, '\n')) {
    if (!absl::StartsWith(line, absl::StrCat(metric, "{"))) continue;
    bool all = true;
    for (const std::string& l : labels) all = all && absl::StrContains(line, l);
    double value = 0;
    if (all && absl::SimpleAtod(line.substr(line.rfind(' ') + 1), &value)) {
      sum += value;
    }
  }
  return sum;
}

namespace {

// Polls the endpoint until `read` of the scrape reaches `want` (or 30 s
// pass); the last value read.
template <typename Read>
double PollUntil(int metrics_port, double want, const Read& read) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  double value = read(HttpGetMetrics(metrics_port));
  while (value < want && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    value = read(HttpGetMetrics(metrics_port));
  }
  return value;
}

}  // namespace

double WaitForSample(int metrics_port, const std::string& metric,
                     const std::vector<std::string>& labels, double want) {
  return PollUntil(metrics_port, want, [&](const std::string& scrape) {
    return Sample(scrape, metric, labels);
  });
}

double WaitForSum(int metrics_port, const std::string& metric,
                  const std::vector<std::string>& labels, double want) {
  return PollUntil(metrics_port, want, [&](const std::string& scrape) {
    return SumSamples(scrape, metric, labels);
  });
}

}  // namespace accelplan::testing
