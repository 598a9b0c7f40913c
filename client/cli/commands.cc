#include "client/cli/commands.h"

#include <fstream>
#include <iterator>
#include <memory>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "client/accelplan_client.h"
#include "client/cli/backend.h"
#include "client/cli/flags.h"
#include "client/cli/html.h"
#include "client/cli/plan_view.h"
#include "client/cli/proposals.h"
#include "client/cli/requests.h"
#include "client/cli/summary.h"
#include "client/cli/table.h"

#ifndef ACCELPLAN_VERSION
#define ACCELPLAN_VERSION "unknown"
#endif

namespace accelplan::cli {
namespace {

constexpr char kTopUsage[] =
    R"(accelplan: which Google Cloud hardware and distribution strategy a
training job should use, and why not the alternatives.

Usage: accelplan <command> [flags]
       accelplan --version [--catalog PATH | --server HOST:PORT]

Commands:
  plan      Recommend hardware, distribution, cost and time (PlanTraining).
  review    Judge proposals for one workload (ReviewPlan): --propose SPEC
            (repeatable) or --request FILE.json.
  catalog   List the accelerator catalog (ListAccelerators).
  version   The binary's version and the catalog's (same as --version).

Runs in-process over a catalog file (no server) unless --server is given.
`accelplan <command> --help` lists the flags of each command.

Exit codes: 0 ok (review: whatever the verdicts); 1 plan found no viable
plan; 2 bad input (flags, JSON, INVALID_ARGUMENT); 3 server unavailable or
failed.
)";

std::vector<FlagSpec> CommonFlagSpecs() {
  return {
      {"server", "HOST:PORT", "",
       "Send the request to an accelplan-server (\"host:port\", or "
       "\"dns:///name:port\" to balance round_robin over every address). "
       "Unset: plan in-process with no server."},
      {"catalog", "PATH",
       "catalog.db beside this executable, else "
       "<exe_dir>/../share/accelplan/catalog.db",
       "Catalog file for in-process planning. Cannot be combined with "
       "--server."},
      {"request", "FILE.json", "",
       "Request in the protobuf JSON mapping (lowerCamelCase or proto field "
       "names, enums by name); \"-\" reads stdin. Flags below override or "
       "extend it."},
      {"output", "json|table", "json",
       "json: the response in the protobuf JSON mapping, lowerCamelCase. "
       "table: a human-readable summary (for plan: one screen; see "
       "--verbose). plan also takes html: one self-contained HTML report "
       "with a cost-time chart."},
      {"verbose", "", "false",
       "With --output=table: every figure of every option and every "
       "rejection with its full reason."},
      {"timeout_seconds", "SECONDS", "30",
       "Deadline of the RPC with --server, retries of UNAVAILABLE included."},
      {"tls_ca", "PEM_FILE", "",
       "Use TLS with --server and verify the server against these root "
       "certificates (unset: plaintext, unless --tls_cert is given)."},
      {"tls_cert", "PEM_FILE", "",
       "Client certificate chain for mutual TLS (with --tls_key)."},
      {"tls_key", "PEM_FILE", "", "Client private key for mutual TLS."},
  };
}

struct Command {
  std::string name;
  std::string usage;
  std::string summary;
  std::vector<FlagSpec> flags;
};

Command PlanCommand() {
  Command c{"plan",
            "accelplan plan [--server HOST:PORT | --catalog PATH] "
            "[--request FILE.json] [flags]",
            "Recommends hardware, distribution, cost and time for one "
            "training job (PlanTraining). Exits 1 when no plan is viable.",
            CommonFlagSpecs()};
  for (FlagSpec& f : c.flags) {
    if (f.name == "output") f.value_name = "json|table|html";
  }
  for (FlagSpec& f : WorkloadFlagSpecs()) c.flags.push_back(std::move(f));
  c.flags.push_back(
      {"view", "basic|full", "full",
       "basic: the recommendation, its job spec and key "
       "reasons; full: also alternatives, rejections and facts."});
  c.flags.push_back(
      {"emit", "vertex|gke FILE", "",
       "Write the recommendation's job spec to FILE: vertex the JSON that "
       "`gcloud ai custom-jobs create --config=FILE` takes, gke the JobSet "
       "manifest for `kubectl apply -f FILE`. The table's launch command "
       "names FILE.",
       false, 2});
  return c;
}

Command ReviewCommand() {
  Command c{"review",
            "accelplan review --request FILE.json [--server "
            "HOST:PORT | --catalog PATH] [flags]",
            "Judges each proposal (hardware, distribution or remedy) as "
            "RECOMMENDED, VIABLE or REJECTED with reason codes (ReviewPlan). "
            "Proposals come from --propose (grammar below) and the request "
            "file's \"proposals\"; exits 0 whatever the verdicts.",
            CommonFlagSpecs()};
  for (FlagSpec& f : WorkloadFlagSpecs()) c.flags.push_back(std::move(f));
  c.flags.push_back({"propose", "SPEC", "",
                     "One proposal, e.g. machine:a3-highgpu-8g,count=32, "
                     "tpu:v5p,topology=4x4x4,slices=2, "
                     "strategy:fsdp,dcn=data,slices=4 or "
                     "remedy:add_reduction_server (grammar below).",
                     true});
  return c;
}

Command CatalogCommand() {
  Command c{"catalog",
            "accelplan catalog [--server HOST:PORT | --catalog "
            "PATH] [flags]",
            "Lists the catalog: every machine type with memory, peak "
            "throughput, prices and sources (ListAccelerators).",
            CommonFlagSpecs()};
  c.flags.push_back({"hardware", "cpu|gpu|tpu|edge", "",
                     "Only these hardware families; comma-separated or "
                     "repeated (unset: all).",
                     true});
  c.flags.push_back(
      {"platform", "NAME[,NAME]", "", "Older spelling of --hardware.", true});
  c.flags.push_back({"framework", "NAME", "",
                     "Only machine types that run this framework (unset: "
                     "any)."});
  c.flags.push_back({"min_memory_gib", "GIB", "0",
                     "Minimum memory per accelerator (host RAM for CPU)."});
  c.flags.push_back({"include_legacy", "", "false",
                     "Also list legacy rows (K80, TPU v2/v3, ...)."});
  c.flags.push_back({"models", "", "false",
                     "List the model presets --model takes instead of the "
                     "machine types."});
  return c;
}

absl::StatusOr<std::unique_ptr<Backend>> OpenBackend(const ParsedFlags& flags) {
  if (flags.Has("server") && flags.Has("catalog")) {
    return absl::InvalidArgumentError(
        "give either --server (remote) or --catalog (in-process), not both");
  }
  if (flags.Has("server")) {
    client::ClientOptions options;
    if (flags.Has("timeout_seconds")) {
      double seconds = 0;
      if (!absl::SimpleAtod(flags.Get("timeout_seconds"), &seconds) ||
          !(seconds > 0 && seconds <= 3600)) {
        return absl::InvalidArgumentError(
            "--timeout_seconds needs a number of seconds in (0, 3600]");
      }
      options.deadline = absl::Seconds(seconds);
    }
    if (flags.Get("server").empty()) {
      return absl::InvalidArgumentError("--server needs HOST:PORT");
    }
    auto read_pem = [&](const char* flag, std::string* out) -> absl::Status {
      if (!flags.Has(flag) || flags.Get(flag).empty()) return absl::OkStatus();
      std::ifstream in(flags.Get(flag), std::ios::binary);
      if (!in) {
        return absl::InvalidArgumentError(
            absl::StrCat("--", flag, ": cannot read ", flags.Get(flag)));
      }
      out->assign(std::istreambuf_iterator<char>(in), {});
      options.use_tls = true;
      return absl::OkStatus();
    };
    for (auto [flag, out] : {std::pair<const char*, std::string*>{
                                 "tls_ca", &options.tls_root_certs_pem},
                             {"tls_cert", &options.tls_cert_chain_pem},
                             {"tls_key", &options.tls_private_key_pem}}) {
      if (absl::Status s = read_pem(flag, out); !s.ok()) return s;
    }
    if (options.tls_cert_chain_pem.empty() !=
        options.tls_private_key_pem.empty()) {
      return absl::InvalidArgumentError(
          "--tls_cert and --tls_key go together (mutual TLS)");
    }
    return MakeRemoteBackend(flags.Get("server"), options);
  }
  std::string path = flags.Get("catalog");
  if (!flags.Has("catalog")) {
    absl::StatusOr<std::string> found = DefaultCatalogPath();
    if (!found.ok())
      return absl::InvalidArgumentError(found.status().message());
    path = *found;
  }
  absl::StatusOr<std::unique_ptr<Backend>> backend = MakeLocalBackend(path);
  // A catalog the user pointed at that cannot be loaded is bad input.
  if (!backend.ok()) {
    return absl::InvalidArgumentError(backend.status().message());
  }
  return backend;
}

int Fail(const absl::Status& status, std::ostream& err) {
  err << "accelplan: error: " << status.message() << "\n";
  return ExitCodeFor(status);
}

// A failed call, with the server named when it could not be reached.
int FailCall(const absl::Status& status, const ParsedFlags& flags,
             std::ostream& err) {
  if (flags.Has("server") && ExitCodeFor(status) == kExitUnavailable) {
    return Fail(
        absl::Status(status.code(),
                     absl::StrCat("accelplan-server at ", flags.Get("server"),
                                  ": ", absl::StatusCodeToString(status.code()),
                                  ": ", status.message())),
        err);
  }
  return Fail(status, err);
}

// Writes the recommendation's job spec for --emit KIND FILE.
absl::Status Emit(const ParsedFlags& flags,
                  const v1::PlanTrainingResponse& response) {
  const std::string kind = flags.Get("emit");
  const std::string path =
      flags.second.count("emit") ? flags.second.at("emit") : "";
  if (!response.has_recommendation()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "--emit: no viable plan, so no job spec; ", path, " not written"));
  }
  const std::string spec = JobSpecText(response, kind);
  if (spec.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "--emit: the plan has no ", kind, " job spec; ", path, " not written"));
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << spec;
  if (!spec.empty() && spec.back() != '\n') file << "\n";
  file.close();
  if (!file) {
    return absl::InvalidArgumentError(
        absl::StrCat("--emit: cannot write ", path));
  }
  return absl::OkStatus();
}

int RunPlan(const ParsedFlags& flags, const std::string& output,
            std::ostream& out, std::ostream& err) {
  const bool emit = flags.Has("emit");
  if (emit && flags.Get("emit") != "vertex" && flags.Get("emit") != "gke") {
    return Fail(absl::InvalidArgumentError(absl::StrCat(
                    "--emit takes vertex or gke and a file, got \"",
                    flags.Get("emit"), "\"")),
                err);
  }
  // Build the request before connecting: bad input never costs a round trip.
  absl::StatusOr<v1::PlanTrainingRequest> request = BuildPlanRequest(flags);
  if (!request.ok()) return Fail(request.status(), err);
  absl::StatusOr<std::unique_ptr<Backend>> backend = OpenBackend(flags);
  if (!backend.ok()) return Fail(backend.status(), err);
  absl::StatusOr<v1::PlanTrainingResponse> response =
      (*backend)->Plan(*request);
  if (!response.ok()) return FailCall(response.status(), flags, err);
  const int code = response->has_recommendation() ? kExitOk : kExitNoPlan;
  bool emitted = false;
  if (emit) {
    absl::Status written = Emit(flags, *response);
    if (!written.ok() && written.code() == absl::StatusCode::kInvalidArgument) {
      return Fail(written, err);
    }
    if (!written.ok()) err << "accelplan: " << written.message() << "\n";
    emitted = written.ok();
  }
  if (output == "json") {
    out << ToJson(*response) << "\n";
    return code;
  }
  if (output == "table" && flags.Get("verbose") == "true") {
    out << PlanTable(*response);
    return code;
  }
  const PlanView view =
      BuildPlanView(*request, *response, emitted ? flags.Get("emit") : "",
                    emitted ? flags.second.at("emit") : "");
  out << (output == "html" ? PlanHtml(view, *response) : PlanSummary(view));
  return code;
}

int RunCommand(const Command& command, const std::vector<std::string>& args,
               std::ostream& out, std::ostream& err) {
  absl::StatusOr<ParsedFlags> flags = ParseFlags(command.flags, args);
  if (!flags.ok()) return Fail(flags.status(), err);
  if (flags->help) {
    out << FormatHelp(command.usage, command.summary, command.flags,
                      command.name == "review" ? kProposeGrammar : "");
    return kExitOk;
  }
  if (!flags->positional.empty()) {
    return Fail(absl::InvalidArgumentError(absl::StrCat(
                    "unexpected argument \"", flags->positional.front(),
                    "\" (see accelplan ", command.name, " --help)")),
                err);
  }
  const std::string output =
      flags->Has("output") ? flags->Get("output") : "json";
  const bool html_ok = command.name == "plan";
  if (output != "json" && output != "table" && !(html_ok && output == "html")) {
    return Fail(absl::InvalidArgumentError(absl::StrCat(
                    "--output must be json or table", html_ok ? " or html" : "",
                    ", got \"", output, "\"")),
                err);
  }
  const bool table = output == "table";
  if (command.name == "plan") return RunPlan(*flags, output, out, err);
  if (command.name == "review") {
    absl::StatusOr<v1::ReviewPlanRequest> request = BuildReviewRequest(*flags);
    if (!request.ok()) return Fail(request.status(), err);
    absl::StatusOr<std::unique_ptr<Backend>> backend = OpenBackend(*flags);
    if (!backend.ok()) return Fail(backend.status(), err);
    absl::StatusOr<v1::ReviewPlanResponse> response =
        (*backend)->Review(*request);
    if (!response.ok()) return FailCall(response.status(), *flags, err);
    out << (table ? ReviewTable(*response) : ToJson(*response) + "\n");
    return kExitOk;
  }
  absl::StatusOr<v1::ListAcceleratorsRequest> request =
      BuildListRequest(*flags);
  if (!request.ok()) return Fail(request.status(), err);
  absl::StatusOr<std::unique_ptr<Backend>> backend = OpenBackend(*flags);
  if (!backend.ok()) return Fail(backend.status(), err);
  absl::StatusOr<v1::ListAcceleratorsResponse> response =
      (*backend)->List(*request);
  if (!response.ok()) return FailCall(response.status(), *flags, err);
  if (flags->Has("models") && flags->Get("models") != "false") {
    v1::ListAcceleratorsResponse models;
    *models.mutable_models() = response->models();
    models.set_catalog_version(response->catalog_version());
    models.set_data_date(response->data_date());
    out << (table ? ModelsTable(models) : ToJson(models) + "\n");
    return kExitOk;
  }
  out << (table ? CatalogTable(*response) : ToJson(*response) + "\n");
  return kExitOk;
}

// `accelplan --version`: this binary's version, then the catalog's (the
// in-process catalog, or the server's with --server).
int RunVersion(const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err) {
  absl::StatusOr<ParsedFlags> flags = ParseFlags(CommonFlagSpecs(), args);
  if (!flags.ok()) return Fail(flags.status(), err);
  out << "accelplan " << ACCELPLAN_VERSION << "\n";
  absl::StatusOr<std::unique_ptr<Backend>> backend = OpenBackend(*flags);
  if (!backend.ok()) return Fail(backend.status(), err);
  absl::StatusOr<v1::ListAcceleratorsResponse> catalog =
      (*backend)->List(v1::ListAcceleratorsRequest());
  if (!catalog.ok()) return FailCall(catalog.status(), *flags, err);
  out << "catalog " << catalog->catalog_version() << " (data date "
      << catalog->data_date() << ", " << catalog->accelerators_size()
      << " machine types"
      << (flags->Has("server") ? ", from " + flags->Get("server") : "")
      << ")\n";
  return kExitOk;
}

}  // namespace

int ExitCodeFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return kExitOk;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return kExitBadInput;
    default:
      // UNAVAILABLE (refused, not ready, draining), DEADLINE_EXCEEDED and
      // any other server-side failure.
      return kExitUnavailable;
  }
}

int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err) {
  if (args.empty()) {
    err << kTopUsage;
    return kExitBadInput;
  }
  const std::string& name = args.front();
  if (name == "-h" || name == "--help" || name == "help") {
    out << kTopUsage;
    return kExitOk;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (name == "--version" || name == "-version" || name == "version") {
    return RunVersion(rest, out, err);
  }
  for (const Command& command :
       {PlanCommand(), ReviewCommand(), CatalogCommand()}) {
    if (command.name == name) return RunCommand(command, rest, out, err);
  }
  err << "accelplan: error: unknown command \"" << name << "\"\n\n"
      << kTopUsage;
  return kExitBadInput;
}

}  // namespace accelplan::cli
