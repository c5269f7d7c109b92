// Batch and its worker pool.
#include "achilles/batch.hpp"
#include "achilles/lane_difference.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>

namespace ach {

namespace {

/// How long a waiting side spins before it sleeps (see WorkerPool).
constexpr auto kSpin = std::chrono::microseconds(200);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Spin until done() or kSpin has passed; true when done() held.
template <class F>
bool spin_until(F done) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return done();
  }
}

// MuJoCo's mju_isBad (engine_util_misc.c), which mj_fwdActuation applies to every control: NaN, or a
// magnitude above mjMAXVAL = 1e10 (±inf included). MuJoCo 3.14 checks the control after its clamp to
// ctrlrange, so there a limited actuator takes ±inf or 1e12 as its bound, and on a bad one it steps
// with every control at 0; Batch::step checks the controls as written and refuses to step instead (the
// clamp would turn a NaN into a bound and hide it). The Gym envs do as MuJoCo does, before the batch.
constexpr double kMaxControl = 1e10;

// Compared in T: 1e10 is exact in float (9765625 · 2^10), so a float compares as its double would.
template <class T>
bool bad_control_value(T u) {
  return !(std::abs(u) <= T(kMaxControl));
}

/// The first bad control (lowest robot, then lowest actuator) of robots [0, copies) in one control
/// half: rows of `stride` lanes, one per actuator. A branch-free pass per row, which the compiler
/// vectorizes; only a row with a bad value is searched again for its robot.
template <class T>
BadControl first_bad_control(const T* half, std::size_t nu, std::size_t stride, int copies) {
  BadControl bad;
  for (std::size_t a = 0; a < nu; ++a) {
    const T* row = half + a * stride;
    int any = 0; // an int OR the compiler vectorizes (a bool's |= it does not)
    for (int r = 0; r < copies; ++r) any |= bad_control_value(row[r]) ? 1 : 0;
    if (!any) continue;
    for (int r = 0; r < copies && (!bad || r < bad.robot); ++r) {
      if (bad_control_value(row[r])) {
        bad = BadControl{r, static_cast<int>(a), static_cast<double>(row[r])};
        break;
      }
    }
  }
  return bad;
}

/// The first bad control the next step() call would read. Only the half `steps` % 2 holds what the
/// caller wrote: a call's first step clears the other half before its second step reads it, and a
/// call holding its controls reads this half at every step. So one pass over robots × actuators per
/// call covers every control a call reads (padding lanes past `copies` are not robots: not checked).
/// Controls change only between calls: a controller writes before each (ControlLoop.beforeStep, an
/// RL loop); a Python thread writing ctrl during a call (which releases the GIL) races with the step.
BadControl first_bad_control(const Storage& st, std::size_t nu, int copies, std::int64_t steps) {
  if (nu == 0) return {};
  const std::size_t stride = static_cast<std::size_t>(st.stride), offset = static_cast<std::size_t>(steps % 2) * nu * stride;
  if (st.elem == 4) return first_bad_control(static_cast<const float*>(st.ptr(FieldId::Ctrl)) + offset, nu, stride, copies);
  return first_bad_control(static_cast<const double*>(st.ptr(FieldId::Ctrl)) + offset, nu, stride, copies);
}

} // namespace

WorkerPool::WorkerPool(int threads) : threads_(threads) {
  for (int w = 1; w < threads_; ++w) workers_.emplace_back([this, w] { loop(w); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_.store(true);
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

/// Take items one at a time until none is left: blocks of robots that differ cost different
/// amounts (a solve may stop after 1 iteration or run 5), so a fixed split would leave a worker
/// waiting on the other. Which worker runs an item never changes what it computes.
void WorkerPool::work(int worker, int items, const std::function<void(int, int, int)>& job) {
  for (int b; (b = next_.fetch_add(1, std::memory_order_relaxed)) < items;) job(worker, b, b + 1);
}

void WorkerPool::loop(int worker) {
  std::uint64_t seen = 0;
  for (;;) {
    auto fresh = [&] { return stop_.load(std::memory_order_relaxed) || generation_.load(std::memory_order_acquire) != seen; };
    if (!spin_until(fresh)) {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, fresh);
    }
    if (stop_.load()) return;
    // the acquire load of generation_ makes run()'s job_ and items_ (written before it) visible
    seen = generation_.load(std::memory_order_acquire);
    work(worker, items_, *job_);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mu_); // the caller may be between its check and its wait
      done_cv_.notify_one();
    }
  }
}

void WorkerPool::run(int items, const std::function<void(int, int, int)>& job) {
  if (threads_ == 1) {
    job(0, 0, items);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    job_ = &job;
    items_ = items;
    next_.store(0, std::memory_order_relaxed);
    pending_.store(threads_ - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  cv_.notify_all();
  work(0, items, job);
  auto finished = [&] { return pending_.load(std::memory_order_acquire) == 0; };
  if (spin_until(finished)) return;
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, finished);
}

/// Each servo's rate-limited target starts where the servo is: a position servo at its length g·q0,
/// a velocity servo at rest (0).
std::vector<double> initial_ctrl_targets(const Model& m) {
  std::vector<double> t(m.actuators.size(), 0.0);
  for (std::size_t a = 0; a < t.size(); ++a) {
    const Actuator& A = m.actuators[a];
    if (A.kind != ActuatorKind::Position) continue;
    if (A.tendon >= 0) { // its length at q0: L·g₀
      const Tendon& T = m.tendons[A.tendon];
      double L = 0;
      for (std::size_t e = 0; e < T.joints.size(); ++e) L += T.coefs[e] * m.q0[m.joints[T.joints[e]].qoff];
      t[a] = L * A.gear[0];
    } else {
      t[a] = A.gear[0] * m.q0[m.joints[A.joint].qoff];
    }
  }
  return t;
}

Batch::Batch(Model model, const BatchOptions& opt)
    : model_(std::move(model)),
      opt_(opt),
      storage_(make_storage(model_, opt_)),
      kernel_(make_kernel(model_, opt_, storage_)),
      pool_(opt.threads),
      per_worker_(opt.threads),
      worker_errors_(opt.threads),
      worker_error_block_(opt.threads, 0),
      block_order_(kernel_->blocks()),
      block_cost_ns_(kernel_->blocks(), 0) {
  for (std::size_t b = 0; b < block_order_.size(); ++b) block_order_[b] = static_cast<int>(b);
  reset();
}

template <class T>
static void fill_initial(const Model& m, const Storage& s) {
  auto fill = [&](FieldId f, const std::vector<double>& values) {
    T* p = static_cast<T*>(s.ptr(f));
    for (std::size_t k = 0; k < values.size(); ++k) std::fill(p + k * s.stride, p + (k + 1) * s.stride, T(values[k]));
  };
  fill(FieldId::Q, m.q0);
  fill(FieldId::V, m.v0);
  fill(FieldId::Tau, m.tau0);
  fill(FieldId::TauPrev, std::vector<double>(m.nv, 0.0));
  fill(FieldId::Qacc, std::vector<double>(m.nv, 0.0));
  if (m.constrained()) fill(FieldId::QaccWarm, std::vector<double>(m.nv, 0.0));
  const std::size_t nu = m.actuators.size();
  fill(FieldId::Ctrl, std::vector<double>(2 * nu, 0.0));
  fill(FieldId::ActuatorForce, std::vector<double>(nu, 0.0));
  fill(FieldId::CtrlTarget, initial_ctrl_targets(m));
  std::size_t na = 0;
  for (const Actuator& a : m.actuators) na += a.stateful() ? 1 : 0;
  fill(FieldId::Act, std::vector<double>(na, 0.0)); // MuJoCo's mj_resetData: act = 0
}

void fill_initial_state(const Model& model, const Storage& storage) {
  if (storage.elem == 4)
    fill_initial<float>(model, storage);
  else
    fill_initial<double>(model, storage);
}

void Batch::reset() {
  fill_initial_state(model_, storage_);
  steps_ = 0;
}

void Batch::set_robot_model(int robot, const Model& model) {
  if (robot < 0 || robot >= opt_.copies) throw std::invalid_argument("robot " + std::to_string(robot) + " is out of range");
  const std::string d = lane_difference(model_, model);
  if (!d.empty())
    throw std::invalid_argument("robot " + std::to_string(robot) +
                                "'s model differs from the batch's in more than its per-robot parameters (gravity, masses, centres of mass and "
                                "inertias, damping, armature, frictions, actuator gains and control ranges): " +
                                d);
  kernel_->set_robot_model(robot, model);
}

StepStats Batch::step(std::int64_t nsteps, bool monitor, bool hold) {
  if (nsteps > 0) {
    StepStats refused;
    refused.bad_control = first_bad_control(storage_, model_.actuators.size(), opt_.copies, steps_);
    if (refused.bad_control) return refused;
  }
  std::vector<StepStats>& per = per_worker_;
  std::vector<std::exception_ptr>& errors = worker_errors_;
  for (auto& s : per) s = StepStats{};
  for (auto& e : errors) e = nullptr;
  std::vector<int>& error_block = worker_error_block_;
  const bool timed = pool_.size() > 1;
  pool_.run(kernel_->blocks(), [&](int w, int i, int e) {
    // one item at a time with workers (block_order_[i], timed), all blocks at once with one thread
    const int b = timed ? block_order_[i] : i;
    const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    try {
      kernel_->step_blocks(w, b, timed ? b + 1 : e, nsteps, steps_, per[w], monitor, hold);
    } catch (...) {
      if (!errors[w] || b < error_block[w]) errors[w] = std::current_exception(), error_block[w] = b; // the first block's, whoever ran it
    }
    if (timed) block_cost_ns_[b] = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  });
  if (timed) std::stable_sort(block_order_.begin(), block_order_.end(), [&](int a, int b) { return block_cost_ns_[a] > block_cost_ns_[b]; });
  int first = -1;
  for (std::size_t w = 0; w < errors.size(); ++w)
    if (errors[w] && (first < 0 || error_block[w] < error_block[first])) first = static_cast<int>(w);
  if (first >= 0) std::rethrow_exception(errors[first]);
  StepStats total;
  for (const StepStats& s : per) {
    total.robot_steps += s.robot_steps;
    if (s.nonfinite && (!total.nonfinite || s.step < total.step || (s.step == total.step && s.robot < total.robot))) {
      total.nonfinite = true;
      total.step = s.step;
      total.robot = s.robot;
      total.joint = s.joint;
    }
  }
  steps_ += nsteps;
  return total;
}

void Batch::forward() {
  kernel_->steps_done = steps_;
  pool_.run(kernel_->blocks(), [&](int w, int b, int e) { kernel_->forward_blocks(w, b, e); });
}

void Batch::collide() {
  pool_.run(kernel_->blocks(), [&](int w, int b, int e) { kernel_->collide_blocks(w, b, e); });
}

void Batch::constrain(bool record, const std::vector<int>* robots) {
  kernel_->steps_done = steps_;
  kernel_->record_constrain = record && opt_.record;
  kernel_->record_lanes.clear(); // every lane, unless `robots` names some (a call that threw left none behind)
  if (!robots) {
    pool_.run(kernel_->blocks(), [&](int w, int b, int e) { kernel_->constrain_blocks(w, b, e); });
    return;
  }
  std::vector<int> blocks;
  for (int r : *robots) {
    if (r < 0 || r >= opt_.copies) throw std::invalid_argument("robot " + std::to_string(r) + " is out of range");
    blocks.push_back(r / opt_.lanes);
  }
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  // the record is kept for these robots only: their blocks' other robots keep their last step's
  if (kernel_->record_constrain) {
    kernel_->record_lanes.assign(kernel_->blocks(), 0u);
    for (int r : *robots) kernel_->record_lanes[r / opt_.lanes] |= 1u << (r % opt_.lanes);
  }
  // items [i, e): one at a time with workers, all at once with a single thread
  pool_.run(static_cast<int>(blocks.size()), [&](int w, int i, int e) {
    for (; i < e; ++i) kernel_->constrain_blocks(w, blocks[i], blocks[i] + 1);
  });
}

ConstraintReport Batch::constraint_report(int robot, int iterations, bool warm) {
  if (robot < 0 || robot >= opt_.copies) throw std::invalid_argument("robot " + std::to_string(robot) + " is out of range");
  if (iterations < 0 || iterations > 1000000) throw std::invalid_argument("iterations must be an integer from 0 to 1000000");
  ConstraintReport r;
  kernel_->steps_done = steps_;
  kernel_->constraint_report(robot, iterations, warm, r);
  return r;
}

void Batch::sense() {
  kernel_->steps_done = steps_;
  pool_.run(kernel_->blocks(), [&](int w, int b, int e) { kernel_->sense_blocks(w, b, e); });
}

void Batch::observe() {
  pool_.run(kernel_->blocks(), [&](int w, int b, int e) { kernel_->observe_blocks(w, b, e); });
}

} // namespace ach
