// The decision engine's entry points. Pure C++: plain structs in, plain
// structs out, over an immutable catalog snapshot. Thread-safe: every method
// is const and allocates only its own result.
#ifndef ACCELPLAN_PLANNER_PLANNER_H_
#define ACCELPLAN_PLANNER_PLANNER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "planner/types.h"

namespace accelplan::planner {

// What the caller supplies for one call. The planner reads no clock and knows
// no transport: the server passes today's UTC date and a hook wired to the
// call's cancellation and deadline; tests pass fixed dates.
struct CallContext {
  // YYYY-MM-DD: the date an empty `as_of` means. Empty: the catalog's
  // data date.
  std::string today;
  // Polled between stages; once it returns true the planner stops and its
  // partial result must be discarded (the caller answers CANCELLED or
  // DEADLINE_EXCEEDED).
  std::function<bool()> cancelled;

  bool Cancelled() const { return cancelled && cancelled(); }
  const std::string& AsOf(const std::string& as_of) const {
    return as_of.empty() ? today : as_of;
  }
};

class Planner {
 public:
  // Precomputes everything that depends only on the catalog.
  explicit Planner(catalog::CatalogPtr catalog);
  ~Planner();
  Planner(const Planner&) = delete;
  Planner& operator=(const Planner&) = delete;

  // view=BASIC keeps only what a pipeline needs to launch the job (the
  // recommendation, remedies, warnings, catalog_version, no_plan_reason):
  // alternatives, rejections, facts used, assumptions and savings are
  // neither built nor returned. This is the one place the view is applied.
  PlanResponse Plan(const PlanRequest& request,
                    const CallContext& context = {}) const;
  ReviewResponse Review(const ReviewRequest& request,
                        const CallContext& context = {}) const;
  ListResponse List(const ListRequest& request) const;

  // Checks of a request that need the catalog (planner/catalog_checks.cc),
  // run by the core after Validate*Request and before planning: each
  // violation names the field, like ValidatePlanRequest's: a
  // workload.model_name the catalog has no preset for (closest names
  // listed); constraints.keep_current_hardware without a
  // current_setup.hardware the catalog knows (machine type, accelerator or
  // series); a current accelerator count per node or TPU slice shape the
  // stated hardware does not have.
  std::vector<FieldViolation> CheckAgainstCatalog(
      const Workload& workload, const Constraints& constraints,
      const CurrentSetup& current_setup) const;

  const catalog::Catalog& catalog() const { return *catalog_; }

 private:
  struct Index;  // precomputed candidate shapes
  catalog::CatalogPtr catalog_;
  std::unique_ptr<const Index> index_;
};

// Semantic validation of already-decoded requests: negative, non-finite and
// absurd numbers, malformed dates and topologies, and every size limit of
// planner/limits.h (entries per repeated field, characters per string), each
// violation naming the field and the limit. Every violation is reported at
// once, with the proto field path; the entries of an over-long list are not
// checked one by one, and a bad value is quoted at most
// limits::kMaxEchoedChars characters long, so the result stays small whatever
// the request. Unknown enum values are caught during proto conversion
// (api/convert.h).
std::vector<FieldViolation> ValidatePlanRequest(const PlanRequest& request);
std::vector<FieldViolation> ValidateReviewRequest(const ReviewRequest& request);
std::vector<FieldViolation> ValidateListRequest(const ListRequest& request);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_PLANNER_H_
