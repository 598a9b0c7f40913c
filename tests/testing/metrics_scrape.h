// Reading the server's Prometheus endpoint in tests: one HTTP GET of
// /metrics over loopback, and the value of a sample by name and labels.
#ifndef ACCELPLAN_TESTS_TESTING_METRICS_SCRAPE_H_
#define ACCELPLAN_TESTS_TESTING_METRICS_SCRAPE_H_

#include <string>
#include <vector>

namespace accelplan::testing {

// A TCP connection to 127.0.0.1:port (a file descriptor), or -1.
int ConnectLoopback(int port);

// GET http://127.0.0.1:port/metrics (headers included); empty on failure.
// Gives up after `timeout_seconds` without data, so a blocked endpoint fails
// the scrape instead of hanging the test.
std::string HttpGetMetrics(int port, int timeout_seconds = 30);

// The value of the first sample of `metric` whose labels contain every
// `label="value"` in `labels`; -1 when absent.
double Sample(const std::string& scrape, const std::string& metric,
              const std::vector<std::string>& labels);

// The sum over every sample of `metric` whose labels contain all of
// `labels`; 0 when there is none.
double SumSamples(const std::string& scrape, const std::string& metric,
                  const std::vector<std::string>& labels);

// Polls the endpoint until the sample reaches `want` (or 30 s pass); the
// last value seen.
double WaitForSample(int metrics_port, const std::string& metric,
                     const std::vector<std::string>& labels, double want);
// The same for the sum over every matching sample (SumSamples).
double WaitForSum(int metrics_port, const std::string& metric,
                  const std::vector<std::string>& labels, double want);

}  // namespace accelplan::testing

#endif  // ACCELPLAN_TESTS_TESTING_METRICS_SCRAPE_H_
