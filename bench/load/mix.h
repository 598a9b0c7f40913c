// The request mix shared by accelplan_loadgen and accelplan_replay_server:
// seed requests from examples/ plus deterministic randomised variants (sizes,
// deadlines, budgets, objectives) so no response cache can stand in for
// planning (SPEC §6), optionally with invalid requests and other RPCs mixed
// in for the soak. Both binaries build the same mix from the same flags, or
// read the same mix file.
#ifndef ACCELPLAN_BENCH_LOAD_MIX_H_
#define ACCELPLAN_BENCH_LOAD_MIX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/support/status_code_enum.h"

namespace accelplan::load {

enum class Rpc { kHealth, kPlan, kReview, kList };

struct MixEntry {
  Rpc rpc = Rpc::kPlan;
  grpc::StatusCode expected = grpc::StatusCode::OK;
  std::string name;     // where it came from, e.g. "s4_lora...#17"
  std::string json;     // the request, protobuf JSON, one line
  std::string request;  // the request, serialized (wire bytes)
};

struct MixOptions {
  std::string examples_dir;
  uint64_t seed = 1;
  int size = 2000;              // plan requests, seeds included
  double invalid_fraction = 0;  // share of plan requests made invalid
  // Adds ReviewPlan (examples/*review*), ListAccelerators (examples/*catalog*)
  // and health requests, about `other_fraction` of the mix in all.
  double other_fraction = 0;
};

// Builds the mix. Plan requests have no view set; see WithView.
absl::StatusOr<std::vector<MixEntry>> BuildMix(const MixOptions& options);

// One entry per line: rpc<TAB>expected code<TAB>name<TAB>request JSON.
// Lines starting with '#' and blank lines are skipped.
absl::StatusOr<std::vector<MixEntry>> ReadMixFile(const std::string& path);

// The mix a bench tool was asked for: the file `mix_file`, or one built from
// `options.examples_dir`; exactly one of the two must be given.
absl::StatusOr<std::vector<MixEntry>> LoadMix(const std::string& mix_file,
                                              const MixOptions& options);
absl::Status WriteMixFile(const std::vector<MixEntry>& mix,
                          const std::string& path);

// view: "basic" or "full" sets PlanTrainingRequest.view on every plan entry
// (and re-serializes it); "" keeps each entry as it is.
absl::Status ApplyView(absl::string_view view, std::vector<MixEntry>* mix);

absl::string_view RpcName(Rpc rpc);  // "plan", "review", ...
absl::StatusOr<Rpc> ParseRpc(absl::string_view name);
const char* RpcMethod(Rpc rpc);                     // "/accelplan.v1..../..."
absl::string_view CodeName(grpc::StatusCode code);  // "INVALID_ARGUMENT"
absl::StatusOr<grpc::StatusCode> ParseCode(absl::string_view name);

// The health Check request used for the no-op (the readiness service name).
std::string HealthCheckRequestBytes();

}  // namespace accelplan::load

#endif  // ACCELPLAN_BENCH_LOAD_MIX_H_
