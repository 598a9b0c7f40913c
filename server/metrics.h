// Prometheus metrics with go-grpc-prometheus names and labels plus the
// domain metrics. Every series the request path touches is created up front,
// so a call only increments counters it already holds (no registry lookup).
#ifndef ACCELPLAN_SERVER_METRICS_H_
#define ACCELPLAN_SERVER_METRICS_H_

#include <array>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "catalog/catalog.h"
#include "grpcpp/support/status.h"
#include "planner/types.h"
#include "prometheus/collectable.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/metric_family.h"
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

// accelplan_catalog_age_seconds: computed at scrape time, so it grows between
// reloads without a timer thread.
class CatalogAge final : public prometheus::Collectable {
 public:
  void SetDataTime(double unix_seconds) { data_time_.store(unix_seconds); }
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  std::atomic<double> data_time_{-1};  // < 0: no catalog yet
};

class Metrics {
 public:
  Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  const std::shared_ptr<prometheus::Registry>& registry() const {
    return registry_;
  }
  // Register with the exposer beside registry().
  const std::shared_ptr<CatalogAge>& catalog_age() const {
    return catalog_age_;
  }

  // A unary call starts with its one request message already received.
  void Started(Method method) const;
  // An OK unary call also sent its one response message.
  void Handled(Method method, grpc::StatusCode code, double seconds) const;
  void Rejections(const planner::PlanResponse& response) const;

  // Off the request path (start-up and reload).
  std::shared_ptr<const PlanCounters> MakePlanCounters(
      const catalog::Catalog& catalog);
  void SetCatalogVersion(const std::string& version);
  // The catalog's data date, YYYY-MM-DD (midnight UTC); ignored if malformed.
  void SetCatalogDataDate(const std::string& date);
  void Reload(bool ok);

 private:
  struct MethodSeries {
    prometheus::Counter* started = nullptr;
    prometheus::Counter* msg_received = nullptr;
    prometheus::Counter* msg_sent = nullptr;
    std::array<prometheus::Counter*, 17> handled{};  // by grpc status code
    prometheus::Histogram* seconds = nullptr;
  };

  std::shared_ptr<prometheus::Registry> registry_;
  std::array<MethodSeries, kNumMethods> methods_;
  std::array<prometheus::Counter*, planner::kMaxReasonCode + 1> rejections_{};
  prometheus::Family<prometheus::Counter>* plans_family_ = nullptr;
  prometheus::Family<prometheus::Gauge>* catalog_info_ = nullptr;
  prometheus::Gauge* catalog_info_current_ = nullptr;
  prometheus::Gauge* catalog_data_time_ = nullptr;
  std::shared_ptr<CatalogAge> catalog_age_ = std::make_shared<CatalogAge>();
  prometheus::Counter* reload_success_ = nullptr;
  prometheus::Counter* reload_failure_ = nullptr;
};

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_METRICS_H_
