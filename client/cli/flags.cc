#include "client/cli/flags.h"

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace accelplan::cli {
namespace {

const FlagSpec* Find(const std::vector<FlagSpec>& specs,
                     const std::string& name) {
  for (const FlagSpec& spec : specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

// Greedy word wrap; `indent` starts every line.
std::string Wrap(absl::string_view text, const std::string& indent,
                 size_t width = 78) {
  std::string out;
  size_t line = 0;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (line > 0 && line + 1 + word.size() > width) {
      absl::StrAppend(&out, "\n");
      line = 0;
    }
    if (line == 0) {
      absl::StrAppend(&out, indent, word);
      line = indent.size() + word.size();
    } else {
      absl::StrAppend(&out, " ", word);
      line += 1 + word.size();
    }
  }
  return out;
}

}  // namespace

std::string ParsedFlags::Get(const std::string& name) const {
  auto it = values.find(name);
  return it == values.end() ? "" : it->second;
}

absl::StatusOr<ParsedFlags> ParseFlags(const std::vector<FlagSpec>& specs,
                                       const std::vector<std::string>& args) {
  ParsedFlags parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help" || arg == "-help") {
      parsed.help = true;
      continue;
    }
    if (arg == "--") {
      parsed.positional.insert(parsed.positional.end(), args.begin() + i + 1,
                               args.end());
      break;
    }
    if (!absl::StartsWith(arg, "-") || arg == "-") {
      parsed.positional.push_back(arg);
      continue;
    }
    // Both "-flag" and "--flag", as absl and gflags accept.
    std::string body = arg.substr(absl::StartsWith(arg, "--") ? 2 : 1);
    std::string name = body;
    std::string value;
    bool has_value = false;
    if (size_t eq = body.find('='); eq != std::string::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    const FlagSpec* spec = Find(specs, name);
    if (spec == nullptr && !has_value && absl::StartsWith(name, "no")) {
      const FlagSpec* negated = Find(specs, name.substr(2));
      if (negated != nullptr && negated->value_name.empty()) {
        parsed.values[negated->name] = "false";
        continue;
      }
    }
    if (spec == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", name, " (see --help)"));
    }
    if (spec->value_name.empty()) {  // boolean
      if (!has_value) {
        value = "true";
      } else if (value == "true" || value == "1" || value == "yes") {
        value = "true";
      } else if (value == "false" || value == "0" || value == "no") {
        value = "false";
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", name, " takes true or false, got \"", value, "\""));
      }
    } else if (!has_value) {
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", name, " needs a value (", spec->value_name, ")"));
      }
      value = args[++i];
    }
    if (spec->arity == 2) {
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", name, " needs two values (", spec->value_name, ")"));
      }
      parsed.second[name] = args[++i];
    }
    if (!spec->repeated && parsed.values.count(name) > 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, " given more than once"));
    }
    parsed.values[name] = value;
    parsed.all_values[name].push_back(value);
  }
  return parsed;
}

std::string FormatHelp(const std::string& usage, const std::string& summary,
                       const std::vector<FlagSpec>& specs,
                       const std::string& details) {
  std::string out =
      absl::StrCat("Usage: ", usage, "\n\n", Wrap(summary, ""), "\n\nFlags:\n");
  for (const FlagSpec& spec : specs) {
    std::string head = absl::StrCat("  --", spec.name);
    if (spec.arity == 2) {
      absl::StrAppend(&head, " ", spec.value_name);
    } else if (!spec.value_name.empty()) {
      absl::StrAppend(&head, "=", spec.value_name);
    }
    absl::StrAppend(
        &out, head, "\n", Wrap(spec.help, "      "), "\n",
        Wrap(absl::StrCat(
                 "default: ",
                 spec.default_value.empty() ? "(none)" : spec.default_value,
                 spec.repeated ? "; may be repeated" : ""),
             "      "),
        "\n");
  }
  absl::StrAppend(&out, "  --help\n      Print this help and exit.\n");
  if (!details.empty()) absl::StrAppend(&out, "\n", details);
  return out;
}

}  // namespace accelplan::cli
