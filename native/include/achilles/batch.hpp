// A batch: the model, its SoA storage, the kernel for the chosen precision × lane width, and
// the worker threads that split its blocks. This is the plain C++ API the addon wraps.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "engine.hpp"

namespace ach {

/// Fixed workers that run one job over a split range and wait; no allocation or locking per step
/// (one hand-off per call, whatever the number of steps).
///
/// A call that steps once (a controller or the bench's random controls between steps) hands off
/// every few hundred microseconds. Putting a thread to sleep on a futex and waking it costs tens of
/// microseconds on a virtual machine (a halted vCPU woken by an interrupt), paid twice per call
/// (the workers' start and the caller's finish). So each side first spins a short while on an atomic
/// (kSpin) and only then sleeps: back-to-back calls never sleep, an idle pool does after kSpin.
class WorkerPool {
 public:
  explicit WorkerPool(int threads);
  ~WorkerPool();
  int size() const { return threads_; }
  /// Run job(worker, b, b + 1) for every b in [0, items), each worker taking the next item as it
  /// finishes one (the results do not depend on which worker runs which item).
  void run(int items, const std::function<void(int, int, int)>& job);

 private:
  void loop(int worker);
  void work(int worker, int items, const std::function<void(int, int, int)>& job);
  int threads_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int, int, int)>* job_ = nullptr;
  int items_ = 0;
  std::atomic<int> next_{0};                 // the next item to take
  std::atomic<std::uint64_t> generation_{0}; // one per run(); published after job_ and items_
  std::atomic<int> pending_{0};              // workers still on the current generation
  std::atomic<bool> stop_{false};
};

/// Each actuator's initial rate-limited target (see FieldId::CtrlTarget).
std::vector<double> initial_ctrl_targets(const Model& model);

class Batch {
 public:
  Batch(Model model, const BatchOptions& opt);
  const Model& model() const { return model_; }
  const BatchOptions& options() const { return opt_; }
  const Storage& storage() const { return storage_; }
  std::int64_t steps() const { return steps_; }

  /// Advance nsteps; returns what happened (non-finite states stop their block). With `hold`, the
  /// controls written before the call act over all nsteps steps (a frame skip: MuJoCo's mj_step
  /// nstep times with d->ctrl kept), the halves left as that many single steps with those controls
  /// written before each would leave them. A robot's control that MuJoCo calls bad (NaN, |u| > 1e10)
  /// stops the call before its first step: nothing is advanced and StepStats::bad_control names it.
  StepStats step(std::int64_t nsteps, bool monitor = false, bool hold = false);
  void forward();
  void observe();
  /// Contacts of every robot at the current state (storage().contacts, without forces).
  void collide();
  /// Detection + constraint solve at the current state (qacc, and storage().contacts with forces).
  /// With `record` (a BatchOptions::record batch): also keep its fields, as mj_forward leaves mjData.
  /// With `robots`: only the blocks that hold them are evaluated (the others keep what they have).
  void constrain(bool record = false, const std::vector<int>* robots = nullptr);
  /// One robot's constraint rows and accelerations at the current state (validation).
  ConstraintReport constraint_report(int robot, int iterations, bool warm);
  /// What sensors read at the current state (qacc, body velocities, accelerations and poses).
  void sense();
  /// Every robot (and every padding lane) back to the model's initial state.
  void reset();
  /// Robot `robot` runs from now on with `model`'s per-robot parameters (gravity, masses, centres of
  /// mass and inertias, damping, armature, actuator gains and control ranges: lane_values.hpp; the
  /// shapes' frictions and the inverse weights: contact/lane_constraints.hpp), its lane of the batch's SoA constants; its state is kept. Throws
  /// std::invalid_argument naming the first difference when `model` differs from the batch's model
  /// in anything else (lane_difference.hpp).
  void set_robot_model(int robot, const Model& model);

 private:
  Model model_;
  BatchOptions opt_;
  Storage storage_;
  std::unique_ptr<Kernel> kernel_;
  WorkerPool pool_;
  std::vector<StepStats> per_worker_;             // reused by every step() call
  std::vector<std::exception_ptr> worker_errors_; // likewise
  std::vector<int> worker_error_block_;           // the block each worker's error came from
  // With workers, step() hands out blocks dearest first, by each block's time in the previous call
  // (longest processing time first): robots that differ make blocks cost different amounts, and a
  // dear block taken last leaves the other workers idle at the call's end. Only the order in which
  // workers take blocks changes, never what a block computes.
  std::vector<int> block_order_;
  std::vector<std::int64_t> block_cost_ns_;
  std::int64_t steps_ = 0;
};

} // namespace ach
