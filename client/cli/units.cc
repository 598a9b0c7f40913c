#include "client/cli/units.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace accelplan::cli {
namespace {

// "1234567" → "1,234,567".
std::string Thousands(double value) {
  std::string digits = absl::StrFormat("%.0f", value);
  std::string out;
  const int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// 3 significant figures at most, no trailing ".0" for whole numbers >= 10.
std::string Short(double value) {
  if (value >= 100) return absl::StrFormat("%.0f", value);
  if (value >= 10) {
    std::string out = absl::StrFormat("%.1f", value);
    if (out.size() > 2 && out.substr(out.size() - 2) == ".0")
      out.resize(out.size() - 2);
    return out;
  }
  return absl::StrFormat("%.2g", value);
}

}  // namespace

bool Known(double value) { return std::isfinite(value) && value > 0; }

std::string HumanHours(double hours) {
  if (!Known(hours)) return "";
  const double minutes = hours * 60;
  if (minutes < 1) return "<1 min";
  if (minutes < 59.5) return absl::StrFormat("%.0f min", minutes);
  if (hours < 47.95) {
    std::string out = absl::StrFormat("%.1f", hours);
    if (out.size() > 2 && out.substr(out.size() - 2) == ".0") {
      out.resize(out.size() - 2);
    }
    return out + " h";
  }
  const double days = hours / 24;
  if (days < 365) return absl::StrFormat("%.1f days", days);
  return absl::StrFormat("%.1f years", days / 365);
}

std::string HumanUsd(double usd) {
  if (!std::isfinite(usd) || usd < 0) return "";
  if (usd < 10) return absl::StrFormat("$%.2f", usd);
  if (usd < 10000) return absl::StrCat("$", Thousands(usd));
  if (usd < 1e6) return absl::StrCat("$", Short(usd / 1e3), "k");
  if (usd < 1e9) return absl::StrCat("$", Short(usd / 1e6), "M");
  return absl::StrCat("$", Short(usd / 1e9), "B");
}

std::string HumanCount(double value) {
  if (!std::isfinite(value)) return "";
  const double a = std::fabs(value);
  const char* sign = value < 0 ? "-" : "";
  if (a < 1000) return absl::StrCat(sign, Short(a));
  if (a < 1e6) return absl::StrCat(sign, Short(a / 1e3), "k");
  if (a < 1e9) return absl::StrCat(sign, Short(a / 1e6), "M");
  if (a < 1e12) return absl::StrCat(sign, Short(a / 1e9), "B");
  return absl::StrCat(sign, Short(a / 1e12), "T");
}

std::string HumanRatio(double ratio) {
  if (!Known(ratio)) return "";
  if (ratio >= 9.95) return absl::StrFormat("%.0f×", ratio);
  return absl::StrFormat("%.1f×", ratio);
}

size_t DisplayWidth(absl::string_view text) {
  size_t width = 0;
  for (char c : text) {
    // Count every byte that does not continue a UTF-8 sequence.
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  }
  return width;
}

std::string Clip(absl::string_view text, size_t width) {
  if (DisplayWidth(text) <= width) return std::string(text);
  std::string out;
  size_t shown = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool starts = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts && shown + 1 >= width) break;
    if (starts) ++shown;
    out.push_back(text[i]);
  }
  return out + "…";
}

}  // namespace accelplan::cli
