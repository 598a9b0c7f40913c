// The current setup as evidence (SPEC §4, issue 15 item 1). When the request
// names today's hardware and counts, the planner evaluates today's point in
// the same model that times every candidate, and the job's scale follows:
//  - with current_setup.observed_hours and no data set, the work is today's
//    modelled throughput x those hours, and every candidate is judged on it
//    (deadline and budget checked, savings against today);
//  - without a deadline, MIN_COST and BALANCED assume today's runtime
//    (observed, else modelled on the stated work) instead of 30 days;
//  - with neither a data set nor observed hours, today's throughput is the
//    floor: a point slower than today misses the assumed pace (the
//    per-unit form of the assumed deadline), kept and ranked after every
//    point that keeps it. A deadline in the request cannot be checked
//    without the job's length, so it cannot show that a slower plan is
//    allowed: the floor stays. Under every objective: it also makes each
//    family's sizes searched, so MIN_TIME finds its fastest;
//  - a deadline given in the request always wins over today's runtime
//    when there is a work to check it against.
// docs/planner.md §5 "Today's setup as evidence".
#ifndef ACCELPLAN_PLANNER_CURRENT_EVIDENCE_H_
#define ACCELPLAN_PLANNER_CURRENT_EVIDENCE_H_

#include <optional>
#include <vector>

#include "catalog/catalog.h"
#include "planner/candidate.h"
#include "planner/index.h"

namespace accelplan::planner::internal {

// Today's stated layout runs: when the model says it does not fit (its
// assumed optimizer or precision need more than the device holds), the job
// that takes its memory as observed to fit. nullopt when no layout is
// stated, when the team reports running out of memory, when it states its
// own per-device footprint (the evidence then says otherwise or is already
// the model's), or when `failed` (the stated layout's candidate without a
// point) lost on time or money (MISSES_DEADLINE, OVER_BUDGET): points of
// it fit, so no memory needs taking on trust, and a layout the model
// cannot hold (no gradient accumulation) must not win on speed.
std::optional<Job> ObservedToFit(const Job& job, const Candidate& failed);
// The job as today's stated layout runs it (a proposal restating today's
// strategy on today's hardware): a stated FSDP is FSDP, with no optimizer
// offload the team did not state, as for today's own point (TodaysJob).
Job AsStatedToday(const Job& job);
// Whether ObservedToFit gives a job (without copying one).
bool StatedLayoutTakenToFit(const Job& job);

// What a point that ObservedToFit kept says: the model's need per device,
// the usable memory, and why the layout is kept.
std::string ObservedMemoryLine(const Config& c);

// Today's point as the planner models it: the current family at its size
// (the named machine type kept), judged on no deadline, budget, platform or
// series constraint (the team runs it today), obtained on-demand or from a
// reservation, and without a Reduction Server (today's job has none).
// nullopt when the hardware or its size is unknown or nothing fits.
// `out_of_memory_as_stated` (optional): set when the team reports
// OUT_OF_MEMORY and the stated layout does not fit in the model either;
// no other layout then stands in for it (nullopt).
// `job_rule` (optional): where today's family fails a rule of the job as
// stated (its framework, version, precision or CPU-only ops), that line.
std::optional<Config> CurrentPoint(const catalog::Catalog& catalog,
                                   const Index& index, const Job& job,
                                   bool* out_of_memory_as_stated = nullptr,
                                   std::string* job_rule = nullptr);

// Fills the Job's current_* fields from today's point and, with observed
// hours and no data set, infers the work (stated in `assumptions`). Called
// by MakeJob before the deadline is resolved.
void ApplyCurrentEvidence(const catalog::Catalog& catalog, const Index& index,
                          Job& job);

// MIN_COST / BALANCED without a deadline and with a work: today's runtime
// as the assumed deadline. Returns false when today gives none (the 30-day
// default applies).
bool AssumeTodaysRuntime(Job& job);

// No work known (no data set, no observed hours), any objective: today's
// throughput is the floor, with or without a deadline (one given
// cannot be checked without the job's length, so it cannot show that a
// slower plan is allowed). Called after the deadline is resolved.
void ApplyPaceFloor(Job& job);

// Whether a point is slower than today's floor (false without one).
bool BelowPaceFloor(const Job& job, const Config& c);

// The recommendation's reasons against today: per unit of work without a
// work size, and why a plan slower than today is recommended.
void TodayReasons(const Job& job, const Candidate& best,
                  std::vector<Reason>& why);

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_CURRENT_EVIDENCE_H_
