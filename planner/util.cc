#include "planner/util.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "planner/defaults.h"

namespace accelplan::planner {

std::optional<int> ParseDate(absl::string_view date) {
  if (date.size() != 10 || date[4] != '-' || date[7] != '-') return std::nullopt;
  int y = 0, m = 0, d = 0;
  if (!absl::SimpleAtoi(date.substr(0, 4), &y) ||
      !absl::SimpleAtoi(date.substr(5, 2), &m) ||
      !absl::SimpleAtoi(date.substr(8, 2), &d)) {
    return std::nullopt;
  }
  if (y < 1970 || y > 9999 || m < 1 || m > 12 || d < 1) return std::nullopt;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[m - 1] + (m == 2 && leap ? 1 : 0)) return std::nullopt;
  // Days from civil (Howard Hinnant's algorithm).
  y -= m <= 2;
  const int era = y / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool SameTopology(absl::string_view a, absl::string_view b) {
  return absl::EqualsIgnoreCase(a, b);
}

int TopologyChips(absl::string_view topology) {
  std::vector<absl::string_view> parts = absl::StrSplit(topology, 'x');
  if (parts.size() < 2 || parts.size() > 3) return 0;
  int64_t chips = 1;
  for (absl::string_view p : parts) {
    int v = 0;
    if (!absl::SimpleAtoi(p, &v) || v <= 0 || v > 4096) return 0;
    chips *= v;
  }
  return chips > (1 << 20) ? 0 : static_cast<int>(chips);
}

int CompareVersions(absl::string_view a, absl::string_view b) {
  std::vector<absl::string_view> pa = absl::StrSplit(a, '.');
  std::vector<absl::string_view> pb = absl::StrSplit(b, '.');
  const size_t n = std::max(pa.size(), pb.size());
  for (size_t i = 0; i < n; ++i) {
    auto num = [](const std::vector<absl::string_view>& p, size_t i) -> long {
      if (i >= p.size()) return 0;
      long v = 0;
      for (char ch : p[i]) {
        if (!std::isdigit(static_cast<unsigned char>(ch))) break;
        v = v * 10 + (ch - '0');
        if (v > 1000000000L) break;
      }
      return v;
    };
    const long x = num(pa, i), y = num(pb, i);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

std::string NormalizeName(absl::string_view name) {
  std::string s = absl::AsciiStrToLower(name);
  s = absl::StrReplaceAll(s, {{"nvidia", ""}, {"tesla", ""}});
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    if (ch == ' ' || ch == '-' || ch == '_' || ch == '.') continue;
    out.push_back(ch);
  }
  return out;
}

void AppendJsonString(std::string_view value, std::string* out) {
  out->push_back('"');
  for (const char c : value) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x",
                        static_cast<unsigned>(static_cast<unsigned char>(c)));
          out->append(buf);
        } else {
          out->push_back(c);  // UTF-8 bytes pass through unchanged
        }
    }
  }
  out->push_back('"');
}

int LayersAtAssumedAspectRatio(double params) {
  const double ratio = kDefaults.hidden_per_layer.value;
  return std::max(
      1,
      static_cast<int>(std::lround(std::cbrt(params / (12 * ratio * ratio)))));
}

}  // namespace accelplan::planner
