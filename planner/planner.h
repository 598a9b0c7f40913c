// The decision engine's entry points. Pure C++: plain structs in, plain
// structs out, over an immutable catalog snapshot. Thread-safe: every method
// is const and allocates only its own result.
#ifndef ACCELPLAN_PLANNER_PLANNER_H_
#define ACCELPLAN_PLANNER_PLANNER_H_

#include <memory>
#include <vector>

#include "catalog/catalog.h"
#include "planner/types.h"

namespace accelplan::planner {

class Planner {
 public:
  // Precomputes everything that depends only on the catalog.
  explicit Planner(catalog::CatalogPtr catalog);
  ~Planner();
  Planner(const Planner&) = delete;
  Planner& operator=(const Planner&) = delete;

  PlanResponse Plan(const PlanRequest& request) const;
  ReviewResponse Review(const ReviewRequest& request) const;
  ListResponse List(const ListRequest& request) const;

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
// (server/conversion.h).
std::vector<FieldViolation> ValidatePlanRequest(const PlanRequest& request);
std::vector<FieldViolation> ValidateReviewRequest(const ReviewRequest& request);
std::vector<FieldViolation> ValidateListRequest(const ListRequest& request);

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_PLANNER_H_
