// accelplan.v1.TrainingPlanner over the callback API. Thin on purpose: each
// handler calls one function of the transport-neutral core
// (core/planning_core.h) and maps its status (server/status.h). Every
// decision lives in planner/.
#ifndef ACCELPLAN_SERVER_TRAINING_PLANNER_SERVICE_H_
#define ACCELPLAN_SERVER_TRAINING_PLANNER_SERVICE_H_

#include <functional>
#include <memory>

#include "accelplan/v1/accelplan.grpc.pb.h"
#include "planner/planner.h"
#include "server/metrics.h"

namespace accelplan::server {

// What a call plans against; swapped whole on catalog reload.
struct ServingSnapshot {
  std::shared_ptr<const planner::Planner> planner;
  std::shared_ptr<const PlanCounters> plan_counters;  // may be null
};

// Bench-only (bench/load's replay server): answers PlanTraining in place of
// validation + planning + conversion, so a replay server shares every other
// part of the serving stack with the real one. Empty in accelplan-server.
using PlanTrainingHandler = std::function<grpc::Status(
    const v1::PlanTrainingRequest&, v1::PlanTrainingResponse*)>;

class TrainingPlannerService final
    : public v1::TrainingPlanner::CallbackService {
 public:
  // `metrics` may be null (no metrics); it must outlive the service.
  explicit TrainingPlannerService(const Metrics* metrics,
                                  PlanTrainingHandler plan_handler = nullptr);

  // Installs a snapshot; safe to call while calls are in flight. Calls that
  // already started finish on the snapshot they read.
  void SetSnapshot(std::shared_ptr<const ServingSnapshot> snapshot);
  std::shared_ptr<const ServingSnapshot> snapshot() const;

  grpc::ServerUnaryReactor* PlanTraining(
      grpc::CallbackServerContext* context,
      const v1::PlanTrainingRequest* request,
      v1::PlanTrainingResponse* response) override;
  grpc::ServerUnaryReactor* ReviewPlan(
      grpc::CallbackServerContext* context,
      const v1::ReviewPlanRequest* request,
      v1::ReviewPlanResponse* response) override;
  grpc::ServerUnaryReactor* ListAccelerators(
      grpc::CallbackServerContext* context,
      const v1::ListAcceleratorsRequest* request,
      v1::ListAcceleratorsResponse* response) override;

 private:
  const Metrics* metrics_;
  const PlanTrainingHandler plan_handler_;
  // Read with std::atomic_load, written with std::atomic_store (reload).
  std::shared_ptr<const ServingSnapshot> snapshot_;
};

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_TRAINING_PLANNER_SERVICE_H_
