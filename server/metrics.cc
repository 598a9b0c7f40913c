#include "server/metrics.h"

#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "server/status.h"

namespace accelplan::server {
namespace {

// Sub-millisecond buckets: planning is meant to take microseconds.
const prometheus::Histogram::BucketBoundaries& HandlingBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
      0.025,  0.05,    0.1,    0.25,  0.5,    1,     2.5};
  return *buckets;
}

const char* PlatformLabel(int platform) {
  switch (platform) {
    case 1:
      return "CPU";
    case 2:
      return "GPU";
    case 3:
      return "TPU";
    case 4:
      return "EDGE";
    default:
      return "UNSPECIFIED";
  }
}

int PlannerPlatform(catalog::Platform platform) {
  switch (platform) {
    case catalog::Platform::kCpu:
      return 1;
    case catalog::Platform::kGpu:
      return 2;
    case catalog::Platform::kTpu:
      return 3;
    case catalog::Platform::kEdge:
      return 4;
  }
  return 0;
}

}  // namespace

const char* MethodName(Method method) {
  switch (method) {
    case Method::kPlanTraining:
      return "PlanTraining";
    case Method::kReviewPlan:
      return "ReviewPlan";
    case Method::kListAccelerators:
      return "ListAccelerators";
  }
  return "";
}

void PlanCounters::Count(const planner::PlanResponse& response) const {
  if (!response.recommendation) {
    if (none_) none_->Increment();
    return;
  }
  const planner::Hardware& hw = response.recommendation->hardware;
  auto it = by_series_.find(hw.series);
  if (it != by_series_.end()) {
    it->second->Increment();
    return;
  }
  const size_t platform = static_cast<size_t>(hw.platform);
  if (platform < other_by_platform_.size() && other_by_platform_[platform]) {
    other_by_platform_[platform]->Increment();
  }
}

std::vector<prometheus::MetricFamily> CatalogAge::Collect() const {
  const double data_time = data_time_.load();
  if (data_time < 0) return {};
  prometheus::MetricFamily family;
  family.name = "accelplan_catalog_age_seconds";
  family.help = "Seconds since the served catalog's data date (midnight UTC).";
  family.type = prometheus::MetricType::Gauge;
  family.metric.emplace_back();
  family.metric.back().gauge.value =
      absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch()) - data_time;
  return {std::move(family)};
}

Metrics::Metrics() : registry_(std::make_shared<prometheus::Registry>()) {
  auto& started = prometheus::BuildCounter()
                      .Name("grpc_server_started_total")
                      .Help("Total number of RPCs started on the server.")
                      .Register(*registry_);
  auto& handled = prometheus::BuildCounter()
                      .Name("grpc_server_handled_total")
                      .Help(
                          "Total number of RPCs completed on the server, "
                          "regardless of success or failure.")
                      .Register(*registry_);
  auto& received = prometheus::BuildCounter()
                       .Name("grpc_server_msg_received_total")
                       .Help(
                           "Total number of RPC stream messages received on "
                           "the server.")
                       .Register(*registry_);
  auto& sent = prometheus::BuildCounter()
                   .Name("grpc_server_msg_sent_total")
                   .Help(
                       "Total number of gRPC stream messages sent by the "
                       "server.")
                   .Register(*registry_);
  auto& seconds = prometheus::BuildHistogram()
                      .Name("grpc_server_handling_seconds")
                      .Help(
                          "Histogram of response latency (seconds) of gRPC "
                          "that had been application-level handled by the "
                          "server.")
                      .Register(*registry_);
  for (int m = 0; m < kNumMethods; ++m) {
    const prometheus::Labels labels = {
        {"grpc_type", "unary"},
        {"grpc_service", kServiceName},
        {"grpc_method", MethodName(static_cast<Method>(m))}};
    MethodSeries& series = methods_[m];
    series.started = &started.Add(labels);
    series.msg_received = &received.Add(labels);
    series.msg_sent = &sent.Add(labels);
    for (int code = 0; code < 17; ++code) {
      prometheus::Labels with_code = labels;
      with_code["grpc_code"] =
          std::string(GoCodeName(static_cast<grpc::StatusCode>(code)));
      series.handled[code] = &handled.Add(with_code);
    }
    series.seconds = &seconds.Add(labels, HandlingBuckets());
  }

  auto& rejections = prometheus::BuildCounter()
                         .Name("accelplan_rejections_total")
                         .Help(
                             "Candidates rejected in PlanTraining responses, "
                             "by reason code.")
                         .Register(*registry_);
  for (int code = 1; code <= planner::kMaxReasonCode; ++code) {
    rejections_[code] = &rejections.Add(
        {{"reason",
          planner::ReasonCodeName(static_cast<planner::ReasonCode>(code))}});
  }

  plans_family_ = &prometheus::BuildCounter()
                       .Name("accelplan_plans_total")
                       .Help(
                           "PlanTraining responses by recommended platform "
                           "and series (\"none\": nothing viable).")
                       .Register(*registry_);
  catalog_info_ = &prometheus::BuildGauge()
                       .Name("accelplan_catalog_info")
                       .Help("The catalog snapshot being served (value 1).")
                       .Register(*registry_);
  catalog_data_time_ = &prometheus::BuildGauge()
                            .Name("accelplan_catalog_data_timestamp_seconds")
                            .Help(
                                "The served catalog's data date as a Unix "
                                "time (midnight UTC).")
                            .Register(*registry_)
                            .Add({});
  auto& reloads = prometheus::BuildCounter()
                      .Name("accelplan_catalog_reloads_total")
                      .Help("Catalog reloads (SIGHUP) by result.")
                      .Register(*registry_);
  reload_success_ = &reloads.Add({{"result", "success"}});
  reload_failure_ = &reloads.Add({{"result", "failure"}});
}

void Metrics::Started(Method method) const {
  const MethodSeries& series = methods_[static_cast<int>(method)];
  series.started->Increment();
  series.msg_received->Increment();
}

void Metrics::Handled(Method method, grpc::StatusCode code,
                      double seconds) const {
  const MethodSeries& series = methods_[static_cast<int>(method)];
  int index = static_cast<int>(code);
  if (index < 0 || index >= 17) index = static_cast<int>(grpc::UNKNOWN);
  series.handled[index]->Increment();
  if (code == grpc::StatusCode::OK) series.msg_sent->Increment();
  series.seconds->Observe(seconds);
}

void Metrics::Rejections(const planner::PlanResponse& response) const {
  for (const planner::Rejection& r : response.rejected) {
    for (planner::ReasonCode code : r.codes) {
      const int index = static_cast<int>(code);
      if (index > 0 && index <= planner::kMaxReasonCode) {
        rejections_[index]->Increment();
      }
    }
  }
}

std::shared_ptr<const PlanCounters> Metrics::MakePlanCounters(
    const catalog::Catalog& catalog) {
  // Family::Add returns the existing series for known labels, so counts carry
  // over across reloads.
  auto counters = std::make_shared<PlanCounters>();
  for (const catalog::Series& s : catalog.series) {
    counters->by_series_[s.id] = &plans_family_->Add(
        {{"platform", PlatformLabel(PlannerPlatform(s.platform))},
         {"series", s.id}});
  }
  for (int p = 0; p < 5; ++p) {
    counters->other_by_platform_[p] = &plans_family_->Add(
        {{"platform", PlatformLabel(p)}, {"series", "other"}});
  }
  counters->none_ =
      &plans_family_->Add({{"platform", "none"}, {"series", "none"}});
  return counters;
}

void Metrics::SetCatalogVersion(const std::string& version) {
  if (catalog_info_current_) catalog_info_->Remove(catalog_info_current_);
  catalog_info_current_ = &catalog_info_->Add({{"catalog_version", version}});
  catalog_info_current_->Set(1);
}

void Metrics::SetCatalogDataDate(const std::string& date) {
  absl::Time time;
  std::string error;
  if (!absl::ParseTime("%Y-%m-%d", date, absl::UTCTimeZone(), &time, &error)) {
    return;
  }
  const double unix_seconds = absl::ToDoubleSeconds(time - absl::UnixEpoch());
  catalog_data_time_->Set(unix_seconds);
  catalog_age_->SetDataTime(unix_seconds);
}

void Metrics::Reload(bool ok) {
  (ok ? reload_success_ : reload_failure_)->Increment();
}

}  // namespace accelplan::server
