// accelplan.v1.TrainingPlanner over the callback API. Thin on purpose: each
// handler decodes the raw request bytes itself (so an undecodable body is
// answered INVALID_ARGUMENT, counted and logged, instead of gRPC's silent
// UNIMPLEMENTED), hands the call to the planning pool (so planning never
// occupies the threads health checks and reflection run on), calls one
// function of the transport-neutral core (core/planning_core.h) and maps
// its status (server/status.h). Every decision lives in planner/.
#ifndef ACCELPLAN_SERVER_TRAINING_PLANNER_SERVICE_H_
#define ACCELPLAN_SERVER_TRAINING_PLANNER_SERVICE_H_

#include <functional>
#include <memory>

#include "absl/time/time.h"
#include "accelplan/v1/accelplan.grpc.pb.h"
#include "planner/planner.h"
#include "server/metrics.h"
#include "server/planning_pool.h"

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

// How much planning runs at once, and what a refused call is told.
struct PlanningLimits {
  int threads = 2;  // concurrent plans (about the core count)
  // Calls that may wait for a thread. 64 keeps the wait of the last one
  // to a few milliseconds (plans take 0.01-0.3 ms) and the bodies held to
  // 64 × --max_receive_message_bytes, while our own load and soak tests
  // (24-32 calls in flight) never see a shed call (product choice).
  int queue_capacity = 64;
  // google.rpc.RetryInfo.retry_delay of a RESOURCE_EXHAUSTED answer: about
  // the time a few queued plans take (product choice).
  absl::Duration retry_delay = absl::Milliseconds(100);
};

using RawService = v1::TrainingPlanner::WithRawCallbackMethod_PlanTraining<
    v1::TrainingPlanner::WithRawCallbackMethod_ReviewPlan<
        v1::TrainingPlanner::WithRawCallbackMethod_ListAccelerators<
            v1::TrainingPlanner::Service>>>;

class TrainingPlannerService final : public RawService {
 public:
  // `metrics` may be null (no metrics); it must outlive the service.
  TrainingPlannerService(const Metrics* metrics, PlanningLimits limits,
                         PlanTrainingHandler plan_handler = nullptr);

  // Installs a snapshot; safe to call while calls are in flight. Calls that
  // already started finish on the snapshot they read.
  void SetSnapshot(std::shared_ptr<const ServingSnapshot> snapshot);
  std::shared_ptr<const ServingSnapshot> snapshot() const;

  grpc::ServerUnaryReactor* PlanTraining(grpc::CallbackServerContext* context,
                                         const grpc::ByteBuffer* request,
                                         grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ReviewPlan(grpc::CallbackServerContext* context,
                                       const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ListAccelerators(
      grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
      grpc::ByteBuffer* response) override;

 private:
  const Metrics* metrics_;
  const PlanningLimits limits_;
  const PlanTrainingHandler plan_handler_;
  // Read with std::atomic_load, written with std::atomic_store (reload).
  std::shared_ptr<const ServingSnapshot> snapshot_;
  // Last member: destroyed first, so queued calls finish while the rest of
  // the service is still alive.
  PlanningPool pool_;
};

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_TRAINING_PLANNER_SERVICE_H_
