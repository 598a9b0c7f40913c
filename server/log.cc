#include "server/log.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "google/protobuf/stubs/logging.h"
#include "grpc/support/log.h"

namespace accelplan::server {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};
std::mutex g_write_mutex;

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

void GrpcLogFunction(gpr_log_func_args* args) {
  LogLevel level = LogLevel::kInfo;
  if (args->severity == GPR_LOG_SEVERITY_DEBUG) level = LogLevel::kDebug;
  if (args->severity == GPR_LOG_SEVERITY_ERROR) level = LogLevel::kError;
  if (!LogEnabled(level)) return;
  Log(level, args->message ? args->message : "",
      {{"component", "grpc"},
       {"file", args->file ? args->file : ""},
       {"line", args->line}});
}

}  // namespace

absl::StatusOr<LogLevel> ParseLogLevel(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  if (lower == "debug") return LogLevel::kDebug;
  if (lower == "info") return LogLevel::kInfo;
  if (lower == "warning" || lower == "warn") return LogLevel::kWarning;
  if (lower == "error") return LogLevel::kError;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown log level \"", name, "\" (want debug, info, warning or error)"));
}

void SetLogLevel(LogLevel level) {
  g_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

bool LogEnabled(LogLevel level) {
  return static_cast<int>(level) >= g_level.load(std::memory_order_relaxed);
}

std::string JsonString(absl::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (char c : s) {
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", static_cast<int>(c));
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

LogField::LogField(absl::string_view k, absl::string_view v)
    : key(k), json(JsonString(v)) {}
LogField::LogField(absl::string_view k, int64_t v)
    : key(k), json(absl::StrCat(v)) {}
LogField::LogField(absl::string_view k, double v)
    : key(k), json(std::isfinite(v) ? absl::StrCat(v) : "null") {}
LogField::LogField(absl::string_view k, bool v)
    : key(k), json(v ? "true" : "false") {}

void Log(LogLevel level, absl::string_view msg,
         std::initializer_list<LogField> fields) {
  if (!LogEnabled(level)) return;
  std::string line = absl::StrCat(
      "{\"ts\":\"",
      absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                       absl::UTCTimeZone()),
      "\",\"level\":\"", LevelName(level), "\",\"msg\":", JsonString(msg));
  for (const LogField& f : fields) {
    absl::StrAppend(&line, ",", JsonString(f.key), ":", f.json);
  }
  line.append("}\n");
  std::lock_guard<std::mutex> lock(g_write_mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

namespace {

// protobuf's own messages (e.g. "String field ... contains invalid UTF-8
// data" when a request is parsed) as JSON lines too.
void ProtobufLogHandler(google::protobuf::LogLevel level, const char* file,
                        int line, const std::string& message) {
  const LogLevel ours = level >= google::protobuf::LOGLEVEL_ERROR
                            ? LogLevel::kError
                            : level == google::protobuf::LOGLEVEL_WARNING
                                  ? LogLevel::kWarning
                                  : LogLevel::kDebug;
  Log(ours, message,
      {{"source", "protobuf"},
       {"file", file != nullptr ? file : ""},
       {"line", static_cast<int64_t>(line)}});
}

}  // namespace

void InstallGrpcLogBridge() {
  gpr_set_log_function(&GrpcLogFunction);
  google::protobuf::SetLogHandler(&ProtobufLogHandler);
}

}  // namespace accelplan::server
