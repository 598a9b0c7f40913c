// The GKE JobSet manifest of a job spec, split out of job_spec.cc (which
// decides the spec's shape: node selectors, resources, pods and replicas).
#ifndef ACCELPLAN_PLANNER_JOBSET_YAML_H_
#define ACCELPLAN_PLANNER_JOBSET_YAML_H_

#include <string>

#include "planner/job_spec.h"
#include "planner/types.h"

namespace accelplan::planner::internal {

// The JobSet YAML for `gke` (node_selectors, resource_name/_per_pod,
// pods_per_job, jobset_replicas already set): what BuildJobSpec documents
// for GKE in job_spec.h.
std::string JobSetYaml(const JobSpecInput& in, const GkeJobSpec& gke);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_JOBSET_YAML_H_
