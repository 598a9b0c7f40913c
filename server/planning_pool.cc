#include "server/planning_pool.h"

#include <algorithm>
#include <utility>

namespace accelplan::server {

PlanningPool::PlanningPool(int threads, int queue_capacity)
    : queue_capacity_(std::max(0, queue_capacity)) {
  const int n = std::max(1, threads);
  threads_.reserve(n);
  for (int i = 0; i < n; ++i) threads_.emplace_back([this] { Run(); });
}

PlanningPool::~PlanningPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool PlanningPool::TrySubmit(std::function<void()> work) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return false;
    // Work waiting beyond the idle threads is what the queue bounds.
    if (static_cast<int>(queue_.size()) >= queue_capacity_ + idle_) {
      return false;
    }
    queue_.push_back(std::move(work));
  }
  ready_.notify_one();
  return true;
}

void PlanningPool::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    ++idle_;
    ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (queue_.empty()) return;  // stopping, nothing left to run
    std::function<void()> work = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    work();
    lock.lock();
  }
}

}  // namespace accelplan::server
