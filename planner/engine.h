// The planner's stages, for the files that assemble RPC answers from them:
// index (catalog -> families), job model (request -> Job), the candidate
// space (rules, sizing, estimates), the one scorer, and plan assembly.
// docs/planner.md draws the pipeline.
#ifndef ACCELPLAN_PLANNER_ENGINE_H_
#define ACCELPLAN_PLANNER_ENGINE_H_

#include "planner/candidate.h"
#include "planner/index.h"
#include "planner/job.h"
#include "planner/plan_assembly.h"
#include "planner/scorer.h"

#endif  // ACCELPLAN_PLANNER_ENGINE_H_
