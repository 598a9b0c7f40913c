// The oversize rule, by accelerator count (planner/oversize.h).
#include "planner/oversize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/engine_common.h"
#include "planner/scorer.h"

namespace accelplan::planner::internal {
namespace {

// The most devices NeededDevices tries: a job no 1024 accelerators hold is
// never oversized on any offered shape (product choice, far above the
// largest single VM or slice).
constexpr int kMaxNeededDevices = 1024;

bool IsAccelerator(const Job& job, const Candidate& c) {
  return c.family->platform != Platform::kCpu &&
         c.family->platform != Platform::kEdge && !job.on_device;
}

int SmallestDevices(const Candidate& c) {
  return c.smallest_obtainable_devices > 0 ? c.smallest_obtainable_devices
                                           : c.family->shapes.front().devices;
}

// Bytes per device at `n` devices under the lightest of the first layouts.
double BestBytesAt(const Job& job, int n) {
  double best = std::min(JobBytesWith(job, n, 0, Recompute::kUnspecified),
                         JobBytesWith(job, n, 0, Recompute::kFull));
  if (n > 1) {
    best = std::min(best, JobBytesWith(job, n, 3, Recompute::kUnspecified));
    best = std::min(best, JobBytesWith(job, n, 3, Recompute::kFull));
  }
  return best;
}

// `a` is worse than `b` by more than rounding.
bool Worse(double a, double b) {
  if (!std::isfinite(a)) return true;
  return std::isfinite(b) && a > b * (1 + kPolicy.tie_tolerance.value);
}

}  // namespace

int NeededDevices(const Job& job, const Family& f) {
  const double usable = f.device_memory_bytes * (1 - kHeadroom);
  const double one = JobBytesOnOneDevice(job);
  if (one <= 0 || usable <= 0) return 0;
  const bool shardable = job.model_size_known && !job.classical &&
                         job.workload.per_device_memory_gib <= 0;
  if (!shardable) {
    // A per-device need is the need on each device; classical data is
    // split across devices.
    if (job.workload.per_device_memory_gib > 0) return one <= usable ? 1 : -1;
    return static_cast<int>(std::ceil(one / usable));
  }
  for (int n = 1; n <= kMaxNeededDevices; n *= 2) {
    if (BestBytesAt(job, n) <= usable) {
      // Bisect between the halves: memory per device falls with the count.
      int lo = n / 2 + 1, hi = n;
      while (n > 1 && lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (BestBytesAt(job, mid) <= usable) hi = mid; else lo = mid + 1;
      }
      return n == 1 ? 1 : hi;
    }
  }
  return -1;
}

// Every accelerator family is judged (a rejected one still gets every code
// that applies). A viable family whose chosen size is above its smallest
// obtainable shape needed those devices (for the deadline or the
// objective); a rejected one is judged for MIN_COST/BALANCED only. A family
// is oversized only when a viable shape of its platform with fewer
// accelerators than its smallest scores at least as well: a multi-GPU VM that is faster under
// MIN_TIME, or cheaper, is priced and ranked instead.
void OversizeRule(const Job& job, const Norm& norm,
                  const std::vector<const Candidate*>& refs,
                  const std::vector<Candidate*>& judged) {
  // NeededDevices searches memory at up to ~20 counts: it runs last, only
  // for a family whose smallest shape could be oversized and that a
  // smaller shape already matches, and once per device memory size.
  std::vector<std::pair<double, int>> need_by_memory;
  auto needed = [&](const Family& f) {
    for (const auto& [bytes, n] : need_by_memory) {
      if (bytes == f.device_memory_bytes) return n;
    }
    const int n = NeededDevices(job, f);
    need_by_memory.emplace_back(f.device_memory_bytes, n);
    return n;
  };
  for (Candidate* c : judged) {
    if (!IsAccelerator(job, *c)) continue;
    const bool viable = c->has_point();
    if (viable && c->config->devices > SmallestDevices(*c)) continue;
    if (!viable && job.objective == Objective::kMinTime) continue;
    const int smallest = SmallestDevices(*c);
    // A job needs at least one device.
    if (smallest < kPolicy.oversize_factor.value) continue;
    const double own = viable ? Score(job, norm, *c->config)
                              : std::numeric_limits<double>::infinity();
    const Candidate* smaller = nullptr;
    for (const Candidate* d : refs) {
      // Counts compare within a platform: a TPU chip is not a GPU.
      if (d == c || d->family == c->family ||
          d->family->platform != c->family->platform ||
          !d->has_point() || d->config->devices >= smallest) {
        continue;
      }
      if (Worse(Score(job, norm, *d->config), own)) continue;
      if (smaller == nullptr || d->config->devices < smaller->config->devices) {
        smaller = d;
      }
    }
    if (smaller == nullptr) continue;
    const int need = needed(*c->family);
    if (need <= 0 || smallest < kPolicy.oversize_factor.value * need) continue;
    // The numbers the objective weighed: the smaller shape's beside this
    // family's own (when it has a point).
    const std::string weighed =
        viable ? absl::StrCat(MetricsText(job, *smaller->config), " against ",
                              MetricsText(job, *c->config))
               : MetricsText(job, *smaller->config);
    c->Reject(
        ReasonCode::kOversizedForWorkload,
        absl::StrFormat(
            "%s's smallest shape has %d accelerators, %.0fx the %d the "
            "job needs (%.1f GiB at its best layout), and %s at %d "
            "scores at least as well under %s (%s).",
            c->family->name, smallest, static_cast<double>(smallest) / need,
            need, Gib(BestBytesAt(job, need)), smaller->family->name,
            smaller->config->devices, ObjectiveLabel(job.objective), weighed));
  }
}

}  // namespace accelplan::planner::internal
