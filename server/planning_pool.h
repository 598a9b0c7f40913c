// A fixed set of threads that run planning work, with a short bounded queue.
// Planning used to run on gRPC's callback threads, so a few expensive calls
// could starve health checks and reflection, which share those threads.
// Work is offered, never blocked on: when every thread is busy and the
// queue is full, TrySubmit refuses and the caller answers RESOURCE_EXHAUSTED.
#ifndef ACCELPLAN_SERVER_PLANNING_POOL_H_
#define ACCELPLAN_SERVER_PLANNING_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace accelplan::server {

class PlanningPool {
 public:
  // `threads` >= 1 run the work; at most `queue_capacity` more wait.
  PlanningPool(int threads, int queue_capacity);
  // Runs what was already queued, then joins the threads.
  ~PlanningPool();
  PlanningPool(const PlanningPool&) = delete;
  PlanningPool& operator=(const PlanningPool&) = delete;

  // False (and `work` is not run) when the queue is full or the pool stops.
  bool TrySubmit(std::function<void()> work);

  int threads() const { return static_cast<int>(threads_.size()); }
  int queue_capacity() const { return queue_capacity_; }

 private:
  void Run();

  const int queue_capacity_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  int idle_ = 0;  // threads waiting for work
  std::vector<std::thread> threads_;
};

}  // namespace accelplan::server

#endif  // ACCELPLAN_SERVER_PLANNING_POOL_H_
