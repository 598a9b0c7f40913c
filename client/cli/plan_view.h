// What a person reads in a plan, computed once from the request and the
// response and then laid out as the one-screen table (summary.cc) or the
// HTML report (html.cc): the verdict, each viable option with what it wins
// and loses against the recommendation, rejections grouped by reason, the
// notes that change the answer and the launch command.
//
// Unknown figures (0, NaN, inf, price_known=false) are 0 here and never
// shown.
#ifndef ACCELPLAN_CLIENT_CLI_PLAN_VIEW_H_
#define ACCELPLAN_CLIENT_CLI_PLAN_VIEW_H_

#include <string>
#include <vector>

#include "accelplan/v1/accelplan.pb.h"

namespace accelplan::cli {

struct OptionView {
  const v1::Plan* plan = nullptr;
  bool recommended = false;
  std::string label;     // "g2-standard-96 (L4)", "4× a3-highgpu-8g (H100)"
  std::string headline;  // "8 × NVIDIA L4 on g2-standard-96 (Vertex AI)"
  int count = 0;         // accelerators in total (VMs for CPU)
  double hours = 0, hours_low = 0, hours_high = 0;  // expected, range
  double cost = 0, cost_low = 0, cost_high = 0;     // at its provisioning
  double spot_cost = 0;  // when the plan is on-demand and Spot is priced
  double hourly_usd = 0;
  double tokens_per_second = 0;
  double cost_per_million_tokens = 0;
  double step_seconds = 0;  // one optimizer step of the global batch
  std::vector<std::string> wins;   // "5.2× faster", "−35% cost"
  std::vector<std::string> loses;  // "+96% cost", "3.1× slower", ...
};

struct RejectionGroup {
  v1::ReasonCode code = v1::REASON_CODE_UNSPECIFIED;
  int count = 0;
  std::vector<std::string> families;  // "A2 Ultra", "N1 (P100/T4)"
  std::string example;                // the first rejection's first sentence
  std::vector<std::string> reasons;   // every one-line reason
};

struct LaunchView {
  std::string kind;      // "vertex", "gke", "compute_engine" or "" (none)
  std::string where;     // "Vertex AI", "GKE", "Compute Engine"
  std::string file;      // the spec file the command names; "" for VMs
  std::string command;   // gcloud ai custom-jobs create ... / kubectl apply
  std::string spec;      // the spec's text (config JSON or manifest YAML)
  bool emitted = false;  // --emit wrote `file`
};

struct PlanView {
  bool viable = false;
  bool totals_known = false;        // the recommendation has a total time
  std::string verdict;              // line 1
  std::string details;              // distribution, memory, ranges
  std::vector<OptionView> options;  // the recommendation first
  std::vector<RejectionGroup> rejections;
  int rejected_total = 0;
  std::vector<std::string> remedies, warnings, assumptions;
  std::string savings;
  std::string job_spec_note;
  LaunchView launch;
  std::string catalog_version;
  double deadline_hours = 0;  // from the request; 0: none
  double budget_usd = 0;
};

// `emit_kind` ("vertex", "gke" or "") and `emit_path` name the spec file
// the launch command uses; without them the view picks the spec for where
// the plan runs and a default file name.
PlanView BuildPlanView(const v1::PlanTrainingRequest& request,
                       const v1::PlanTrainingResponse& response,
                       const std::string& emit_kind = "",
                       const std::string& emit_path = "");

// The spec text of `kind` ("vertex": config JSON, "gke": manifest YAML) of
// the recommendation; empty when there is none.
std::string JobSpecText(const v1::PlanTrainingResponse& response,
                        const std::string& kind);

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_PLAN_VIEW_H_
