#include "planner/layout_memo.h"

namespace accelplan::planner::internal {

bool LayoutMemo::Serves(const Family& f, const LayoutPin& pin) const {
  return &f == family_ && pin.strategy == pin_.strategy &&
         pin.data == pin_.data && pin.fsdp == pin_.fsdp &&
         pin.tensor == pin_.tensor && pin.pipeline == pin_.pipeline;
}

const Config* LayoutMemo::Find(const Family& f, const LayoutPin& pin,
                               const Shape* shape, int units,
                               double rank_cap) const {
  if (!Serves(f, pin)) return nullptr;
  auto it = points_.find(Key{shape, units, rank_cap});
  return it == points_.end() ? nullptr : &it->second;
}

void LayoutMemo::Keep(const Family& f, const LayoutPin& pin, double rank_cap,
                      const Config& c) {
  if (!keeping_ || c.read_provisioning || !Serves(f, pin)) return;
  points_.try_emplace(Key{c.shape, c.units, rank_cap}, c);
}

}  // namespace accelplan::planner::internal
