// accelplan_replay_server (bench only): accelplan-server with PlanTraining
// answered from responses the real planner precomputed for a request mix.
// Everything else -- flags, ServerBuilder options, callback service,
// metrics, logging, health, reflection, signals -- is the real server's code
// (server/server.h with ServerOptions::plan_training_handler), so real/replay
// throughput isolates what validation, planning and conversion cost per call.
//
// The mix is built exactly as accelplan_loadgen builds it (same flags, same
// seed) or read from the same --mix file; each plan request is precomputed
// for its own view and for BASIC and FULL. The key is the request's
// serialized bytes: a request the mix does not hold gets FAILED_PRECONDITION.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/flags/flag.h"
#include "accelplan/v1/accelplan.pb.h"
#include "bench/load/mix.h"
#include "catalog/loader.h"
#include "planner/planner.h"
#include "core/planning_core.h"
#include "server/flags.h"
#include "server/log.h"
#include "server/server.h"
#include "server/status.h"

ABSL_FLAG(std::string, examples_dir, "",
          "Build the mix from DIR/*_plan*.json as accelplan_loadgen does.");
ABSL_FLAG(std::string, mix, "", "Mix file, instead of --examples_dir.");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the randomised mix.");
ABSL_FLAG(int32_t, mix_size, 2000, "Plan requests in a built mix.");
ABSL_FLAG(double, invalid_fraction, 0,
          "Share of built plan requests made invalid.");

namespace accelplan::load {
namespace {

struct Answer {
  grpc::Status status;
  v1::PlanTrainingResponse response;
};
using AnswerTable = absl::flat_hash_map<std::string, Answer>;

// Planned, validated and converted by the core, exactly as
// TrainingPlannerService::PlanTraining does.
Answer Precompute(const planner::Planner& planner,
                  const v1::PlanTrainingRequest& request) {
  Answer a;
  // The same date the real server judges as_of against (a replay table is
  // built at start-up, well inside one day).
  core::CallOptions options;
  options.context.today = core::TodayUtc();
  a.status = server::ToGrpcStatus(
      core::PlanTraining(planner, request, options, &a.response));
  return a;
}

absl::StatusOr<std::shared_ptr<const AnswerTable>> BuildTable(
    const std::string& catalog_path) {
  MixOptions o;
  o.examples_dir = absl::GetFlag(FLAGS_examples_dir);
  o.seed = absl::GetFlag(FLAGS_seed);
  o.size = absl::GetFlag(FLAGS_mix_size);
  o.invalid_fraction = absl::GetFlag(FLAGS_invalid_fraction);
  const absl::StatusOr<std::vector<MixEntry>> mix =
      LoadMix(absl::GetFlag(FLAGS_mix), o);
  if (!mix.ok()) return mix.status();
  absl::StatusOr<catalog::CatalogPtr> catalog =
      catalog::LoadCatalog(catalog_path);
  if (!catalog.ok()) return catalog.status();
  const planner::Planner planner(*catalog);
  auto table = std::make_shared<AnswerTable>();
  for (const MixEntry& e : *mix) {
    if (e.rpc != Rpc::kPlan) continue;
    v1::PlanTrainingRequest request;
    if (!request.ParseFromString(e.request)) {
      return absl::InternalError(absl::StrCat(e.name, ": cannot parse"));
    }
    // As written, and with each view the load generator may set.
    for (int view : {-1, int{v1::BASIC}, int{v1::FULL}}) {
      if (view >= 0) request.set_view(static_cast<v1::View>(view));
      std::string key = request.SerializeAsString();
      if (table->contains(key)) continue;
      table->emplace(std::move(key), Precompute(planner, request));
    }
  }
  return table;
}

int Main(int argc, char** argv) {
  const sigset_t signals = server::BlockServerSignals();
  server::InstallGrpcLogBridge();
  absl::StatusOr<server::ServerFlags> flags =
      server::ParseServerFlags(argc, argv);
  if (!flags.ok()) {
    server::Log(server::LogLevel::kError, "bad flags",
                {{"error", flags.status().ToString()}});
    return 2;
  }
  server::SetLogLevel(flags->log_level);
  absl::StatusOr<std::shared_ptr<const AnswerTable>> table =
      BuildTable(flags->options.catalog_path);
  if (!table.ok()) {
    server::Log(server::LogLevel::kError, "cannot build the replay table",
                {{"error", table.status().ToString()}});
    return 1;
  }
  server::Log(server::LogLevel::kInfo, "replay table built",
              {{"responses", static_cast<int64_t>((*table)->size())}});
  flags->options.plan_training_handler =
      [table = *table](const v1::PlanTrainingRequest& request,
                       v1::PlanTrainingResponse* response) {
        // Re-serializing the parsed request gives the loadgen's bytes back
        // (proto3, no maps, no unknown fields).
        auto it = table->find(request.SerializeAsString());
        if (it == table->end()) {
          return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                              "request not in the replay mix");
        }
        if (it->second.status.ok()) *response = it->second.response;
        return it->second.status;
      };
  absl::StatusOr<std::unique_ptr<server::Server>> srv =
      server::Server::Start(flags->options);
  if (!srv.ok()) {
    server::Log(server::LogLevel::kError, "cannot start",
                {{"error", srv.status().ToString()}});
    return 1;
  }
  (*srv)->RunUntilSignalled(signals);
  std::fflush(nullptr);
  std::_Exit(0);  // as accelplan-server: the drain is done
}

}  // namespace
}  // namespace accelplan::load

int main(int argc, char** argv) { return accelplan::load::Main(argc, argv); }
