// Prometheus metrics with go-grpc-prometheus names and labels plus the
// domain metrics. Every series the request path touches is created up front,
// so a call only increments counters it already holds (no registry lookup).
#ifndef ACCELPLAN_SERVER_METRICS_H_
#define ACCELPLAN_SERVER_METRICS_H_

#include <array>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "catalog/catalog.h"
#include "grpcpp/support/status.h"
#include "planner/types.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace accelplan::server {

enum class Method { kPlanTraining = 0, kReviewPlan, kListAccelerators };
inline constexpr int kNumMethods = 3;
inline constexpr const char* kServiceName = "accelplan.v1.TrainingPlanner";
const char* MethodName(Method method);

// accelplan_plans_total series for one catalog snapshot: its series ids
// (with their platforms) are known when the snapshot is built.
class PlanCounters {
 public:
  // Counts one PlanTraining response (by its recommendation, or "none").
  void Count(const planner::PlanResponse& response) const;

 private:
  friend class Metrics;
  absl::flat_hash_map<std::string, prometheus::Counter*> by_series_;
  std::array<prometheus::Counter*, 5> other_by_platform_{};  // unknown series
  prometheus::Counter* none_ = nullptr;
};

class Metrics {
 public:
  Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  const std::shared_ptr<prometheus::Registry>& registry() const {
    return registry_;
  }

  void Started(Method method) const;
  void Handled(Method method, grpc::StatusCode code, double seconds) const;
  void Rejections(const planner::PlanResponse& response) const;

  // Off the request path (start-up and reload).
  std::shared_ptr<const PlanCounters> MakePlanCounters(
      const catalog::Catalog& catalog);
  void SetCatalogVersion(const std::string& version);
  void Reload(bool ok);

 private:
  struct MethodSeries {
    prometheus::Counter* started = nullptr;
    std::array<prometheus::Counter*, 17> handled{};  // by grpc status code
    prometheus::Histogram* seconds = nullptr;
  };

  std::shared_ptr<prometheus::Registry> registry_;
  std::array<MethodSeries, kNumMethods> methods_;
  std::array<prometheus::Counter*, planner::kMaxReasonCode + 1> rejections_{};
  prometheus::Family<prometheus::Counter>* plans_family_ = nullptr;
  prometheus::Family<prometheus::Gauge>* catalog_info_ = nullptr;
  prometheus::Gauge* catalog_info_current_ = nullptr;
  prometheus::Counter* reload_success_ = nullptr;
  prometheus::Counter* reload_failure_ = nullptr;
};

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_METRICS_H_
