// Builds accelplan.v1 requests from a JSON file (protobuf JSON mapping) and
// the CLI's shorthand flags, which override or extend the file.
#ifndef ACCELPLAN_CLIENT_CLI_REQUESTS_H_
#define ACCELPLAN_CLIENT_CLI_REQUESTS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "accelplan/v1/accelplan.pb.h"
#include "client/cli/flags.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace accelplan::cli {

// Flags shared by `plan` and `review`: the model, the data, the goal, the
// constraints, where the job runs and the current setup (job_flag_specs.cc).
std::vector<FlagSpec> WorkloadFlagSpecs();

// "jax" → JAX, "scikit-learn" → SCIKIT_LEARN, "bf16" → BF16_MIXED,
// "other" → OTHER_FRAMEWORK: case-insensitive proto value names, '-' for
// '_', and the enum's own suffix or prefix when the short form is unique.
// UNSPECIFIED is never accepted.
absl::StatusOr<int> ParseEnum(const google::protobuf::EnumDescriptor* type,
                              absl::string_view text);

// "7e9", "7000000000", "7B", "70b", "1.5T", "350M", "20k": a finite number.
absl::StatusOr<double> ParseQuantity(absl::string_view text);

// Parses `path` ("-" reads stdin) into `message` with the protobuf JSON
// parser: lowerCamelCase and proto field names, enum names or numbers.
absl::Status ReadJsonRequest(const std::string& path,
                             google::protobuf::Message* message);

// The parts of a plan or review request that the job flags fill.
struct JobParts {
  v1::Workload* workload;
  v1::Goal* goal;
  v1::Constraints* constraints;
  v1::CurrentSetup* current_setup;
  std::string* as_of;
};
template <typename Request>
JobParts JobPartsOf(Request* r) {
  return {r->mutable_workload(), r->mutable_goal(), r->mutable_constraints(),
          r->mutable_current_setup(), r->mutable_as_of()};
}

// Applies --framework, --params, --tokens, ... onto the request parts
// (job_flags.cc). Flags override the file's values; list flags extend them.
absl::Status ApplyWorkloadFlags(const ParsedFlags& flags, const JobParts& job);

// --hardware, --run_on and their older spelling --platform onto
// allowed_platforms and run_platform; two places to run is an error.
absl::Status ApplyPlatforms(const ParsedFlags& flags, v1::Constraints* c);

absl::StatusOr<v1::PlanTrainingRequest> BuildPlanRequest(
    const ParsedFlags& flags);
absl::StatusOr<v1::ReviewPlanRequest> BuildReviewRequest(
    const ParsedFlags& flags);
absl::StatusOr<v1::ListAcceleratorsRequest> BuildListRequest(
    const ParsedFlags& flags);

// Pretty JSON in lowerCamelCase, enums by name.
std::string ToJson(const google::protobuf::Message& message);

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_REQUESTS_H_
