// Human-readable summaries for `--output=table`. JSON stays the complete,
// machine-readable form; these show what a person reads first.
#ifndef ACCELPLAN_CLIENT_CLI_TABLE_H_
#define ACCELPLAN_CLIENT_CLI_TABLE_H_

#include <string>

#include "accelplan/v1/accelplan.pb.h"

namespace accelplan::cli {

// Recommendation, distribution, estimates, remedies, alternatives, every
// rejection with its codes and reason, warnings and assumptions.
std::string PlanTable(const v1::PlanTrainingResponse& response);
// One line per proposal: label, verdict, codes, reason.
std::string ReviewTable(const v1::ReviewPlanResponse& response);
// One row per machine type with memory, peak and prices.
std::string CatalogTable(const v1::ListAcceleratorsResponse& response);
// The model presets of a ListAccelerators response (`catalog --models`).
std::string ModelsTable(const v1::ListAcceleratorsResponse& response);

// "a3-highgpu-8g ×2 (16 × NVIDIA H100 80GB, GPU)" and similar.
std::string HardwareLabel(const v1::Hardware& hardware);

}  // namespace accelplan::cli

#endif  // ACCELPLAN_CLIENT_CLI_TABLE_H_
