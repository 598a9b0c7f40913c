// Structured logs: one JSON object per line on stderr, e.g.
// {"ts":"2026-01-01T00:00:00.000Z","level":"info","msg":"listening","addr":"0.0.0.0:50051"}
#ifndef ACCELPLAN_SERVER_LOG_H_
#define ACCELPLAN_SERVER_LOG_H_

#include <cstdint>
#include <initializer_list>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace accelplan::server {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// "debug", "info", "warning" (or "warn"), "error".
absl::StatusOr<LogLevel> ParseLogLevel(absl::string_view name);
void SetLogLevel(LogLevel level);
bool LogEnabled(LogLevel level);

// A key and its value already encoded as JSON.
struct LogField {
  LogField(absl::string_view k, absl::string_view v);
  LogField(absl::string_view k, const char* v)
      : LogField(k, absl::string_view(v)) {}
  LogField(absl::string_view k, const std::string& v)
      : LogField(k, absl::string_view(v)) {}
  LogField(absl::string_view k, int64_t v);
  LogField(absl::string_view k, int v) : LogField(k, int64_t{v}) {}
  LogField(absl::string_view k, double v);
  LogField(absl::string_view k, bool v);
  std::string key;
  std::string json;
};

void Log(LogLevel level, absl::string_view msg,
         std::initializer_list<LogField> fields = {});

// Encodes `s` as a JSON string literal, quotes included.
std::string JsonString(absl::string_view s);

// Routes gRPC core's and protobuf's own log lines through Log() so stderr
// stays JSON.
void InstallGrpcLogBridge();

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_LOG_H_
