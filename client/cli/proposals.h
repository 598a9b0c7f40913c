// `accelplan review --propose SPEC`: one ReviewPlan proposal per flag, in a
// small grammar (kProposeGrammar, also printed by `review --help`).
#ifndef ACCELPLAN_CLIENT_CLI_PROPOSALS_H_
#define ACCELPLAN_CLIENT_CLI_PROPOSALS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "accelplan/v1/accelplan.pb.h"

namespace accelplan::cli {

extern const char kProposeGrammar[];

// Parses one SPEC ("machine:a3-highgpu-8g,count=32", "tpu:v5p,slices=2",
// "strategy:fsdp,dcn=data,slices=4", "remedy:add_reduction_server"). The
// label is `default_label` unless the spec has label=NAME.
absl::StatusOr<v1::Proposal> ParseProposal(absl::string_view spec,
                                           const std::string& default_label);

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_PROPOSALS_H_
