// The layouts chosen at one family's sizes, shared by the provisioning
// what-ifs of its rejection (planner/provisioning.h): each what-if searches
// the same sizes of the same job under another provisioning, and a point's
// layout, memory and step time do not depend on the provisioning unless the
// Reduction Server's decision read it (Config::read_provisioning). Only such
// independent points are kept; each is reused as chosen, then priced and
// judged under the what-if's own provisioning (planner/sizing.h
// BuildPoint). Exact: a reused point is the one ChooseLayout would build.
#ifndef ACCELPLAN_PLANNER_LAYOUT_MEMO_H_
#define ACCELPLAN_PLANNER_LAYOUT_MEMO_H_

#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "planner/candidate.h"

namespace accelplan::planner::internal {

class LayoutMemo {
 public:
  // For one family and one reviewed layout (what the what-ifs share).
  LayoutMemo(const Family& f, const LayoutPin& pin) : family_(&f), pin_(pin) {
    points_.reserve(kExpectedSizes);
  }

  // The point chosen at `units` of `shape` for a job with this assumed-batch
  // rank cap (Job::assumed_batch_rank_cap, the one input the size search
  // changes), or null.
  const Config* Find(const Family& f, const LayoutPin& pin, const Shape* shape,
                     int units, double rank_cap) const;
  // Keeps a point whose layout choice did not read the provisioning.
  void Keep(const Family& f, const LayoutPin& pin, double rank_cap,
            const Config& c);
  // No later what-if reads what would be kept from here on.
  void StopKeeping() { keeping_ = false; }

 private:
  bool Serves(const Family& f, const LayoutPin& pin) const;

  // About one family's sizes searched (planner/sizing.h, count refinement).
  static constexpr size_t kExpectedSizes = 256;
  using Key = std::tuple<const Shape*, int, double>;
  const Family* family_;
  LayoutPin pin_;
  bool keeping_ = true;
  absl::flat_hash_map<Key, Config> points_;
};

}  // namespace accelplan::planner::internal

#endif  // ACCELPLAN_PLANNER_LAYOUT_MEMO_H_
