// The engine's type-erased face: a batch's storage and the kernel that steps it.
//
// State lives in structure-of-arrays storage: component k of robot r is field[k * stride + r],
// stride a multiple of the lane width, so W robots' copies of one component are W adjacent,
// aligned values that one SIMD load reads. Scratch is per worker thread, sized for one block
// of W lanes, carved from one arena when the batch is made: nothing is allocated while stepping.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "contact/report.hpp"
#include "contact_store.hpp"
#include "model.hpp"

namespace ach {

enum class Precision { F32, F64 };
enum class Integrator { Euler, Verlet, Midpoint, Rk4, ImplicitFast };
enum class Isa { Scalar, Sse2, Avx2, Avx512 };

struct BatchOptions {
  Precision precision = Precision::F32;
  int lanes = 1;
  int copies = 1;
  Integrator integrator = Integrator::Euler;
  double dt = 0.002;
  int substeps = 1;
  int midpoint_iterations = 4;
  int threads = 1;
  /// Keep what MuJoCo's mjData holds after mj_step from each call's last evaluation: QfrcConstraint,
  /// CfrcExt, RecordBodyPos/RecordBodyRot (kernel/mujoco_record.hpp). Constrained models.
  bool record = false;
};

/// Aligned, zero-filled memory shared between the kernel and the typed arrays JavaScript holds.
class Buffer {
 public:
  explicit Buffer(std::size_t bytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_;
  std::size_t bytes_;
};

// QaccWarm (nv): the warm start of the constraint solver (the previous step's qacc; constrained models
// only). Contacts are not fields: collide() and constrain() keep them per block (contact_store.hpp).
// Actuator fields: Ctrl holds two halves of nu components each (half k = components k·nu ..), the
// step with 0-based index s reads half s % 2 and clears the other (the double buffer); CtrlTarget
// is each servo's rate-limited target (state); ActuatorForce each actuator's force at the last
// step's start. Act (na): the activation states of the general actuators with dynamics (MuJoCo's
// act, zero at reset); ActuatorForceNow (nu) and ActDotNow (na): actuator_force and act_dot at the
// current state, written by forward().
enum class FieldId {
  Q,
  V,
  Tau,
  Qacc,
  Kinetic,
  Potential,
  BodyPos,
  BodyRot,
  TauPrev,
  EnergyRef,
  DriftMax,
  KineticPeak,
  QaccWarm,
  Ctrl,
  CtrlTarget,
  ActuatorForce,
  // sensors (filled by sense()): per body 6 components each, [ω; v] and [α; a] in body axes
  BodyVel,
  BodyAcc,
  Act,
  ActuatorForceNow,
  ActDotNow,
  // BatchOptions::record, the last evaluation's: Jᵀ·f (nv), per body [torque; force] (6),
  // pose (3 + 9; apart from BodyPos/BodyRot, which observe() and sense() write)
  QfrcConstraint,
  CfrcExt,
  RecordBodyPos,
  RecordBodyRot,
  // ... and its actuator forces in joint space (nv), each body's velocity [ω; v] in its axes (6),
  // and mj_comPos's / mj_comVel's xipos (3), cinert (10) and cvel (6) of each body
  QfrcActuator,
  RecordBodyVel,
  RecordXipos,
  RecordCinert,
  RecordCvel,
  // sense(): MuJoCo's sensordata of an imported MJCF model (nsensordata; sensors/mjcf_sensors.hpp)
  MjcfSensorData,
  Count
};

struct FieldView {
  std::shared_ptr<Buffer> buffer;
  void* data;
  std::size_t count; // elements
};

/// A control the next step would read that MuJoCo calls bad (mju_isBad: NaN, or a magnitude above
/// mjMAXVAL = 1e10, ±inf included): the lowest robot with one, and its lowest such actuator.
struct BadControl {
  int robot = -1; // -1: every control is good
  int actuator = -1;
  double value = 0; // as written (in the batch's precision)
  explicit operator bool() const { return robot >= 0; }
};

/// What a call to step() did.
struct StepStats {
  std::int64_t robot_steps = 0; // robot-steps that produced a finite state
  bool nonfinite = false;
  std::int64_t step = 0; // 1-based step (since the batch began) that first produced a non-finite state
  int robot = -1;
  int joint = -1;
  /// Set: the call refused to step (nothing advanced, step counter included), since a control of the
  /// step it would have taken first (0-based: Batch::steps()) is bad.
  BadControl bad_control;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual int blocks() const = 0;
  /// Advance blocks [b0, b1) by nsteps steps using worker `worker`'s scratch. steps_before is the
  /// batch's step counter before the call (for reporting).
  /// With `monitor`, every step also updates each lane's largest |E − EnergyRef| (DriftMax) and
  /// largest kinetic energy (KineticPeak), so a run's energy drift covers every step, not only the
  /// recorded ones, without a call per step.
  virtual void step_blocks(int worker, int b0, int b1, std::int64_t nsteps, std::int64_t steps_before, StepStats& stats, bool monitor, bool hold) = 0;
  /// qacc at the current state.
  virtual void forward_blocks(int worker, int b0, int b1) = 0;
  /// Body poses and energies at the current state.
  virtual void observe_blocks(int worker, int b0, int b1) = 0;
  /// Contacts at the current state: shape poses, broad phase, narrow phase (Storage::contacts).
  virtual void collide_blocks(int worker, int b0, int b1) = 0;
  /// Detection and the constraint solve at the current state, as the next step starts it (warm
  /// start included): qacc, and the contacts with their forces (Storage::contacts). Models without constraints: qacc only.
  virtual void constrain_blocks(int worker, int b0, int b1) = 0;
  /// One robot's rows, forces and accelerations at the current state, solved with `iterations`
  /// (from qacc_smooth, or from the stored warm start with `warm`), on worker 0's scratch.
  virtual void constraint_report(int robot, int iterations, bool warm, ConstraintReport& out) = 0;
  /// What sensors read at the current state: qacc (as constrain), every body's spatial velocity and
  /// acceleration (BodyVel, BodyAcc) and world pose (BodyPos, BodyRot).
  virtual void sense_blocks(int worker, int b0, int b1) = 0;
  /// Robot `robot` runs with `model`'s per-lane constants (lane_values.hpp): a model that differs from
  /// the batch's only where lane_difference allows (the batch checks it first).
  virtual void set_robot_model(int robot, const Model& model) = 0;
  /// Steps taken so far (set by the batch before forward_blocks): forward uses the controls the
  /// last step read (its half (steps_done − 1) % 2, held), or before the first step half 0.
  std::int64_t steps_done = 0;
  /// Set by the batch before constrain_blocks: keep BatchOptions::record's fields of this evaluation,
  /// in block b's lanes whose bits record_lanes[b] sets (every lane where record_lanes is empty): the
  /// other robots of a block keep the record of their last step (an autoreset's mj_forward).
  bool record_constrain = false;
  std::vector<std::uint32_t> record_lanes;
};

/// The instruction set a pack of `lanes` values needs: one register of it holds the pack
/// (f32: 4 SSE2, 8 AVX2, 16 AVX-512; f64: 4 AVX2, 8 AVX-512, 16 two AVX-512 registers; 1 scalar).
Isa isa_for(Precision precision, int lanes);
bool cpu_supports(Isa isa);
const char* isa_name(Isa isa);
/// The widest f32 lane count this CPU supports (f64 at that width may need more: see isa_for).
int widest_lanes();

struct Storage {
  std::shared_ptr<Buffer> buffer;
  std::shared_ptr<ContactStore> contacts; // the last collide() or constrain()'s contacts, per block
  int stride = 0;
  std::size_t elem = 0; // bytes per scalar
  std::size_t off[static_cast<int>(FieldId::Count)] = {};
  std::size_t count[static_cast<int>(FieldId::Count)] = {};
  void* ptr(FieldId f) const { return static_cast<char*>(buffer->data()) + off[static_cast<int>(f)]; }
};

/// The fields' offsets and counts for a batch (no memory yet), and the bytes they need in all.
Storage storage_layout(const Model& model, const BatchOptions& opt, std::size_t* total_bytes);
/// Bytes of a batch's state storage, computed before allocating it (the run's memory check).
std::size_t storage_bytes(const Model& model, const BatchOptions& opt);
Storage make_storage(const Model& model, const BatchOptions& opt);
/// Every robot (and padding lane) at the model's initial state; previous torques zero.
void fill_initial_state(const Model& model, const Storage& storage);

/// Make the kernel for opt.precision × opt.lanes. Throws std::invalid_argument when the CPU lacks
/// the instruction set the lane width needs.
std::unique_ptr<Kernel> make_kernel(const Model& model, const BatchOptions& opt, const Storage& storage);

// One factory per instruction set, each compiled in its own translation unit with its own flags.
std::unique_ptr<Kernel> make_kernel_scalar(const Model&, const BatchOptions&, const Storage&);
std::unique_ptr<Kernel> make_kernel_sse2(const Model&, const BatchOptions&, const Storage&);
std::unique_ptr<Kernel> make_kernel_avx2(const Model&, const BatchOptions&, const Storage&);
std::unique_ptr<Kernel> make_kernel_avx512(const Model&, const BatchOptions&, const Storage&);

/// The add+mul loop of peak.hpp on the pack of (precision, lanes), per instruction set: flops/s.
double peak_flops_scalar(Precision, int lanes, long iters, int reps);
double peak_flops_sse2(Precision, int lanes, long iters, int reps);
double peak_flops_avx2(Precision, int lanes, long iters, int reps);
double peak_flops_avx512(Precision, int lanes, long iters, int reps);

struct PeakMeasure {
  double gflops;    // one core, adds and multiplies at (precision, lanes), best of the repetitions
  double clock_mhz; // the core's clock while it ran, from a chain of dependent integer adds (1/cycle)
};
/// Measure one core's floating-point peak for a pack width over about `seconds`. Throws
/// std::invalid_argument when the CPU lacks the instruction set (as make_kernel).
PeakMeasure measure_peak(Precision precision, int lanes, double seconds);

} // namespace ach
