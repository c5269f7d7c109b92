// The kernel for one pack type V: walks blocks of W lanes through the step.
//
// A block's state is loaded from the SoA storage into the block's scratch (kernel/block_io.hpp),
// stepped there for all requested steps (it stays in L1), checked for non-finite values after
// every step and stored back. Blocks are independent, so workers split them with no locking.
//
// One step (step_once) is the integrator's substeps, each made of acceleration evaluations
// (forward), and each evaluation is MuJoCo's mj_forwardSkip stage by stage: passive and actuator
// forces, the ABA's kinematics and smooth acceleration, then collision, constraint rows and the
// constraint solve (kernel/constrain.hpp). passes.hpp lists the fields each stage reads and writes.
#pragma once

#include "isa_namespace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "collision/collide.hpp"
#include "constraint/solver/newton.hpp"
#include "engine.hpp"
#include "integrators.hpp"
#include "kernel/block_io.hpp"
#include "kernel/block_scratch.hpp"
#include "kernel/constrain.hpp"
#include "kernel/constraint_report.hpp"
#include "kernel/mujoco_record.hpp"
#include "sensors/body_motion.hpp"
#include "sensors/mjcf_sensors.hpp"
#include "vmath.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class V>
class KernelImpl final : public Kernel {
  using T = ScalarOf<V>;
  static constexpr int W = lanes_of<V>;

 public:
  KernelImpl(const Model& model, const BatchOptions& opt, const Storage& storage)
      : M_(model),
        C_(model),
        KC_(model, opt.dt / opt.substeps),
        F_(model, opt.dt, opt.dt / opt.substeps),
        KI_(model, F_, opt.integrator == Integrator::ImplicitFast),
        MS_(model),
        opt_(opt),
        st_(storage),
        io_(M_, KC_, F_, st_),
        blocks_((opt.copies + W - 1) / W) {
    if (F_.na && opt.integrator != Integrator::Euler && opt.integrator != Integrator::Rk4 && opt.integrator != Integrator::ImplicitFast)
      throw std::invalid_argument(
          std::string("the model's actuators have activation states (dyntype integrator, filter or filterexact), which ") +
          "MuJoCo advances with its euler, rk4 and implicitfast integrators only: choose integrator euler, rk4 or implicitfast");
    implicit_damping_ = opt.integrator == Integrator::Euler || opt.integrator == Integrator::ImplicitFast;
    M_.set_step(model, opt.dt / opt.substeps, implicit_damping_);
    for (int t = 0; t < opt.threads; ++t) {
      // each worker its own copy of the constants, whose per-lane rows bind() points at its block's
      Mw_.push_back(std::make_unique<KModel<T>>(M_));
      Fw_.push_back(std::make_unique<KForces<T>>(F_));
      arenas_.emplace_back(BlockScratch<V>::bytes_needed(M_, C_.shapes.size(), F_.nu, &KC_, &KI_));
      scratch_.emplace_back(arenas_.back(), *Mw_.back(), *Fw_.back(), C_.shapes.size(), &KC_, &KI_);
      if (opt.record) record_work_.emplace_back(M_);
      sensor_work_.emplace_back(MS_.nsensordata, static_cast<int>(MS_.links.size()));
    }
    h_ = T(opt.dt / opt.substeps);
    if (KC_.enabled) constraint_slots_ = ConstraintLaneSlots(model), model_constraint_lanes_ = uniform_constraint_lanes(model);
  }

  int blocks() const override { return blocks_; }

  /// Robot `robot`'s lane takes `model`'s per-lane constants (lane_values.hpp). The first call gives
  /// every block rows of its own, each lane at the batch's model's values until its robot is set.
  void set_robot_model(int robot, const Model& model) override {
    const int slots = LaneSlots::count(M_.joints.size(), static_cast<std::size_t>(F_.nu));
    const std::size_t block_rows = static_cast<std::size_t>(slots) * kLaneStride;
    if (robot_lanes_.empty()) {
      robot_lanes_.resize(block_rows * static_cast<std::size_t>(blocks_));
      for (int b = 0; b < blocks_; ++b) std::copy(M_.own_lanes.begin(), M_.own_lanes.end(), robot_lanes_.begin() + block_rows * b);
    }
    int lane = robot % W;
    // The planted bug: a robot's constants written into its neighbour's lane (lane l reads lane l − 1's robot's).
    if (ACH_BUG(ParamsNeighbourLane)) lane = (lane + 1) % W;
    write_lane(robot_lanes_.data() + block_rows * (robot / W), lane, model, opt_.dt / opt_.substeps, implicit_damping_);
    if (!KC_.enabled) return;
    // the frictions and inverse weights the constraint rows read (contact/lane_constraints.hpp)
    const std::size_t constraint_rows = static_cast<std::size_t>(constraint_slots_.count()) * kLaneStride;
    if (robot_constraint_lanes_.empty()) {
      robot_constraint_lanes_.resize(constraint_rows * static_cast<std::size_t>(blocks_));
      for (int b = 0; b < blocks_; ++b)
        std::copy(model_constraint_lanes_.begin(), model_constraint_lanes_.end(), robot_constraint_lanes_.begin() + constraint_rows * b);
    }
    write_constraint_lane(robot_constraint_lanes_.data() + constraint_rows * (robot / W), lane, model);
  }

  void step_blocks(int worker, int b0, int b1, std::int64_t nsteps, std::int64_t steps_before, StepStats& stats, bool monitor, bool hold) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model; // the worker's model: its per-lane rows are the block's (bind)
    const KForces<T>& Fb = *s.F;
    for (int b = b0; b < b1; ++b) {
      bind(worker, b);
      io_.load_block(b, sc);
      const int valid = valid_lanes(b);
      V e_ref(T(0)), drift_max(T(0)), ke_peak(T(0));
      if (monitor) {
        e_ref = load<V>(io_.lane_ptr(FieldId::EnergyRef, 0, b));
        drift_max = load<V>(io_.lane_ptr(FieldId::DriftMax, 0, b));
        ke_peak = load<V>(io_.lane_ptr(FieldId::KineticPeak, 0, b));
      }
      std::int64_t done = 0;
      for (; done < nsteps; ++done) {
        if (Fb.nu) io_.begin_step(b, hold ? steps_before : steps_before + done, sc); // held: every step reads the call's first half
        step_once(sc);
        if (opt_.record && done + 1 == nsteps) record_evaluation(Mb, Fb, sc, io_, b, record_work_[worker]); // the call's last evaluation
        if (Fb.nu && ACH_BUG(EffortLate)) io_.clear_ctrl_half(b, static_cast<int>((steps_before + done + 1) % 2));
        if (monitor) {
          // The observation pipeline (kPassVelocity, kPassPose, kPassEnergy) at the new state;
          // a NaN never replaces a maximum (the compare is false), the step reports it instead.
          pass_velocity(Mb, s.W, s.q, s.v);
          pass_pose(Mb, s.W, sc.X_WB);
          V ke, pe;
          pass_energy(Mb, s.W, sc.X_WB, ke, pe);
          passive_energy(Fb, s.q, s.v, ke, pe);
          const V drift = vabs((ke + pe) - e_ref);
          drift_max = vselect(drift > drift_max, drift, drift_max);
          ke_peak = vselect(ke > ke_peak, ke, ke_peak);
        }
        const int lane = first_nonfinite_lane(s, valid);
        if (lane >= 0) {
          const std::int64_t step = steps_before + done + 1;
          if (!stats.nonfinite || step < stats.step || (step == stats.step && b * W + lane < stats.robot)) {
            stats.nonfinite = true;
            stats.step = step;
            stats.robot = b * W + lane;
            stats.joint = first_nonfinite_joint(s, lane);
          }
          break;
        }
      }
      if (Fb.nu && hold && nsteps % 2 == 0) io_.hand_over_held(b, steps_before); // the halves as nsteps single steps leave them
      stats.robot_steps += done * valid;
      io_.store_block(b, sc);
      if (monitor) {
        vstore(io_.lane_ptr(FieldId::DriftMax, 0, b), drift_max);
        vstore(io_.lane_ptr(FieldId::KineticPeak, 0, b), ke_peak);
      }
    }
  }

  void forward_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model; // the worker's model: its per-lane rows are the block's (bind)
    const KForces<T>& Fb = *s.F;
    for (int b = b0; b < b1; ++b) {
      bind(worker, b);
      io_.load_block(b, sc);
      io_.held_controls_now(b, sc, steps_done);
      forward_dynamics(Mb, s.W, s.q, s.v, efforts(Mb, s, s.q, s.v, true), s.qacc);
      io_.store_field(FieldId::Qacc, b, s.qacc, Mb.nv);
      // MuJoCo's actuator_force and act_dot at this state (mj_forward's), apart from the step's
      io_.store_field(FieldId::ActuatorForceNow, b, s.force, Fb.nu);
      io_.store_field(FieldId::ActDotNow, b, s.act_dot, Fb.na);
    }
  }

  void observe_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model; // the worker's model: its per-lane rows are the block's (bind)
    const KForces<T>& Fb = *s.F;
    for (int b = b0; b < b1; ++b) {
      bind(worker, b);
      io_.load_block(b, sc);
      pass_velocity(Mb, s.W, s.q, s.v);
      pass_pose(Mb, s.W, sc.X_WB);
      V ke, pe;
      pass_energy(Mb, s.W, sc.X_WB, ke, pe);
      passive_energy(Fb, s.q, s.v, ke, pe);
      vstore(io_.lane_ptr(FieldId::Kinetic, 0, b), ke);
      vstore(io_.lane_ptr(FieldId::Potential, 0, b), pe);
      io_.store_poses(b, sc);
    }
  }

  /// Sensors: q̈ at the current state as the next step starts it (forward dynamics, then the
  /// constraint solve with the stored warm start, as constrain_blocks), then body accelerations from
  /// that q̈, and poses. The warm start is read, never written: sensing does not change the next step.
  void sense_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model; // the worker's model: its per-lane rows are the block's (bind)
    const int n = static_cast<int>(Mb.joints.size());
    for (int b = b0; b < b1; ++b) {
      bind(worker, b);
      acceleration_now(b, sc);
      pass_body_acceleration(Mb, s.W, s.qacc);
      pass_pose(Mb, s.W, sc.X_WB);
      for (int i = 0; i < n; ++i) {
        io_.store_motion(FieldId::BodyVel, i, b, s.W[i].vel);
        io_.store_motion(FieldId::BodyAcc, i, b, s.W[i].acc);
      }
      io_.store_poses(b, sc);
      if (!MS_.empty()) { // an MJCF model's sensordata from this evaluation (the host adds force, torque and touch)
        MjcfSensorWork<V>& sw = sensor_work_[worker];
        pass_mjcf_sensors(MS_, Mb, s.W, sc.X_WB, s.q, s.v, s.force, sw);
        io_.store_field(FieldId::MjcfSensorData, b, sw.out.data(), MS_.nsensordata);
      }
    }
  }

  /// kCollision (passes.hpp): placements, world poses, shape poses, broad and narrow phase.
  void collide_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model; // the worker's model: its per-lane rows are the block's (bind)
    for (int b = b0; b < b1; ++b) {
      io_.load_field(FieldId::Q, b, s.q, Mb.nq); // positions are all detection reads
      for (std::size_t i = 0; i < Mb.joints.size(); ++i) s.W[i].X = joint_placement<V>(Mb.joints[i], s.q + Mb.joints[i].qoff);
      pass_pose(Mb, s.W, sc.X_WB);
      pass_shape_poses(C_, sc.X_WB, sc.X_WS);
      broad_phase(C_, sc.X_WS, sc.bp);
      BlockContacts& bc = io_.begin_contacts(b, static_cast<int>(sc.bp.pairs.size()));
      for (std::size_t p = 0; p < sc.bp.pairs.size(); ++p) {
        const int sa = pair_a(sc.bp.pairs[p]), sb = pair_b(sc.bp.pairs[p]);
        Manifold<V> m;
        narrow_pair<V>(C_.shapes[sa].geom, sc.X_WS[sa], C_.shapes[sb].geom, sc.X_WS[sb], C_.pair_threshold(sa, sb), m);
        MaskOf<V> on[kPairPoints];
        for (int i = 0; i < kPairPoints; ++i) on[i] = vand(sc.bp.overlap[p].on, m.on[i]);
        io_.store_pair_contacts(bc, static_cast<int>(p), sa, sb, on, m, nullptr);
      }
    }
  }

  /// Detection and the solve at the current state (warm start included), as the next step's first
  /// evaluation: qacc, and the block's contacts with each point's force.
  void constrain_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    const KModel<T>& Mb = *sc.model;
    const KForces<T>& Fb = *sc.s.F;
    for (int b = b0; b < b1; ++b) {
      bind(worker, b);
      acceleration_now(b, sc);
      if (!KC_.enabled) continue;
      if (record_constrain) // MuJoCo's mj_forward fills the same fields
        record_evaluation(Mb, Fb, sc, io_, b, record_work_[worker], record_lanes.empty() ? kAllLanes : record_lanes[b]);
      const ConstraintWork<V>& cw = sc.cw;
      BlockContacts& bc = io_.begin_contacts(b, cw.npairs);
      for (int p = 0; p < cw.npairs; ++p) {
        V f[kPairPoints][3];
        for (int i = 0; i < kPairPoints; ++i) { // the stored contacts keep the force (a condim 4, 6 torque is in the constraint report)
          V f6[6];
          decode_point_force(p, i, cw, f6);
          for (int k = 0; k < 3; ++k) f[i][k] = f6[k];
        }
        io_.store_pair_contacts(bc, p, cw.pair[p].shape_a, cw.pair[p].shape_b, cw.mf[p].on, cw.mf[p], f);
      }
    }
  }

  void constraint_report(int robot, int iterations, bool warm, ConstraintReport& out) override {
    bind(0, robot / W);
    report_constraints(*Mw_[0], C_, KC_, io_, scratch_[0], steps_done, robot, iterations, warm, out);
  }

 private:
  /// q̈ at block b's current state as the next step starts it: forward dynamics under the held
  /// controls, then (constrained models) detection and the solve with the stored warm start, which
  /// is read, never written. Stores Qacc.
  void acceleration_now(int b, BlockScratch<V>& sc) {
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model;
    const KForces<T>& Fb = *s.F;
    io_.load_block(b, sc);
    io_.held_controls_now(b, sc, steps_done);
    forward_dynamics(Mb, s.W, s.q, s.v, efforts(Mb, s, s.q, s.v, true), s.qacc);
    if (opt_.record) keep_actuator_forces(sc, s.q, s.v, true);
    io_.store_field(FieldId::ActuatorForceNow, b, s.force, Fb.nu);
    io_.store_field(FieldId::ActDotNow, b, s.act_dot, Fb.na);
    if (KC_.enabled) {
      constrain(Mb, C_, KC_, sc, s.q, s.v, s.qacc, KC_.iterations, true);
    }
    io_.store_field(FieldId::Qacc, b, s.qacc, Mb.nv);
  }

  /// The record's actuator forces (mjData's actuator_force) of this evaluation: the step's first
  /// evaluation has them in s.force; a later one (an RK4 stage) computes them again at its (q, v)
  /// and activations (joint_efforts rewrites τ_eff and act_dot with the very same values).
  void keep_actuator_forces(BlockScratch<V>& sc, const V* q, const V* v, bool first) {
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model;
    const KForces<T>& Fb = *s.F;
    if (Fb.nu == 0) return;
    if (first) {
      for (int a = 0; a < Fb.nu; ++a) sc.rec_force[a] = s.force[a];
      return;
    }
    joint_efforts(Fb, Mb.nv, q, v, s.tau, s.u, s.act_now, s.act_dot, s.tau_eff, sc.rec_force);
  }

  /// Worker `worker`'s constants read block b's per-lane rows (a batch of robots that differ; else
  /// they keep their own, the model's values in every lane).
  void bind(int worker, int b) {
    if (robot_lanes_.empty()) return;
    const T* rows =
        robot_lanes_.data() + static_cast<std::size_t>(b) * LaneSlots::count(M_.joints.size(), static_cast<std::size_t>(F_.nu)) * kLaneStride;
    Mw_[worker]->lanes = rows;
    Mw_[worker]->per_lane = true;
    Fw_[worker]->lanes = rows;
    if (!robot_constraint_lanes_.empty())
      scratch_[worker].cw.lanes = {robot_constraint_lanes_.data() + static_cast<std::size_t>(b) * constraint_slots_.count() * kLaneStride,
                                   constraint_slots_};
  }

  int valid_lanes(int b) const {
    const int left = opt_.copies - b * W;
    return left < W ? left : W;
  }

  /// With implicit damping (semi-implicit Euler), as MuJoCo's mj_EulerSkip: the constraints are
  /// solved with M (qacc_smooth = M⁻¹f), and only then (M + h·D)·q̈ = f + Jᵀλ gives the step's q̈;
  /// the warm start keeps the constrained q̈ of M, as MuJoCo's qacc_warmstart does. implicitfast
  /// (mj_implicitSkip) the same with M − h·qDeriv (implicit.hpp).
  bool damped_euler() const {
    return (M_.damped_step && opt_.integrator == Integrator::Euler) || (KI_.solve && opt_.integrator == Integrator::ImplicitFast);
  }

  /// One acceleration evaluation of a constrained model at (q, v), MuJoCo's mj_forwardSkip stage by
  /// stage: `out` becomes q̈. `first`: the step's first evaluation (it records the actuator forces);
  /// `stepping`: the evaluation whose q̈ the step integrates (Euler's implicit damping applies).
  void forward(BlockScratch<V>& sc, const V* q, const V* v, V* out, bool first, bool stepping) {
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model;
    const KForces<T>& Fb = *s.F;
    ConstraintWork<V>& cw = sc.cw;
    const bool implicit = stepping && damped_euler();
    // mj_passive + mj_actuation: τ_eff = τ + passive forces + actuator forces
    const V* f = efforts(Mb, s, q, v, first);
    if (opt_.record) keep_actuator_forces(sc, q, v, first);
    // mj_kinematics, mj_comPos, mj_crb, mj_fwdAcceleration: the ABA's three sweeps give qacc_smooth
    forward_dynamics(Mb, s.W, q, v, f, out, stepping && !implicit);
    // mj_collision, mj_makeConstraint, mj_fwdConstraint
    constrain(Mb, C_, KC_, sc, q, v, out, KC_.iterations, true);
    if (!implicit) return;
    // mj_EulerSkip's implicit damping: (M + h·D)·q̈ = f + Jᵀλ
    for (int k = 0; k < Mb.nv; ++k) {
      cw.tmp2[k] = out[k]; // the constrained q̈ of M
      cw.tmp[k] = cw.nused > 0 ? f[k] + cw.qfrc[k] : f[k];
      if (sc.adhesion) cw.tmp[k] += sc.qfrc_adhesion[k]; // the adhesion actuators' part of qfrc_actuator
    }
    if (opt_.integrator != Integrator::ImplicitFast) {
      forward_dynamics(Mb, s.W, q, v, cw.tmp, out, true);
      return;
    }
    // mj_implicitSkip (implicitfast): (M − h·qDeriv)·q̈ = f + Jᵀλ
    const V h(h_);
    implicit_terms(KI_, Fb, sc.iw, Mb.nv, q, v, s.u, s.act_now, s.act_dot, s.force, h);
    forward_dynamics(Mb, s.W, q, v, cw.tmp, out, true, &sc.iw.extra);
    implicit_tendons(Mb, KI_, Fb, s.W, sc.iw, h, out);
  }

  /// One step of the chosen integrator, split into substeps; qacc = a(q, v) at the step's start.
  /// Every evaluation of a constrained model is forward(): the solve is warm-started from the q̈ of
  /// the previous substep's first evaluation, RK4's last (MuJoCo's qacc_warmstart).
  void step_once(BlockScratch<V>& sc) {
    BlockState<V>& s = sc.s;
    const KModel<T>& Mb = *sc.model;
    if (ACH_BUG(TorqueLate)) // the planted bug: this step applies the previous step's torque
      for (int k = 0; k < Mb.nv; ++k) {
        const V now = s.tau[k];
        s.tau[k] = sc.tau_prev[k];
        sc.tau_prev[k] = now;
      }
    for (int sub = 0; sub < opt_.substeps; ++sub) {
      V* a = sub == 0 ? s.qacc : sc.a_sub;
      if (!KC_.enabled) {
        if (opt_.integrator == Integrator::ImplicitFast)
          substep(Mb, s, a, SmoothAcc<V>{Mb, s, &KI_, &sc.iw, V(h_)});
        else
          substep(Mb, s, a, SmoothAcc<V>{Mb, s});
        continue;
      }
      if (ACH_BUG(WarmStartOtherLane)) // the planted bug: lane i warm-starts from lane i + 1's qacc
        for (int k = 0; k < Mb.nv; ++k) {
          alignas(64) T buf[W], rot[W];
          vstore(buf, sc.cw.warm[k]);
          for (int l = 0; l < W; ++l) rot[l] = buf[(l + 1) % W];
          sc.cw.warm[k] = load<V>(rot);
        }
      substep(Mb, s, a, [&](const V* q, const V* v, V* out, bool first = false, bool stepping = false) { forward(sc, q, v, out, first, stepping); });
      // MuJoCo's mj_advance saves d->qacc: RK4's is its last stage's (mj_RK4 evaluates stages 1–3 after
      // the step's mj_forward), which step_rk4 leaves in s.a
      const V* warm = damped_euler() ? sc.cw.tmp2 : opt_.integrator == Integrator::Rk4 ? s.a : a;
      for (int k = 0; k < Mb.nv; ++k) sc.cw.warm[k] = warm[k];
    }
    if (ACH_BUG(TorqueLate))
      for (int k = 0; k < Mb.nv; ++k) s.tau[k] = sc.tau_prev[k];
  }

  template <class Acc>
  void substep(const KModel<T>& Mb, BlockState<V>& s, V* a, const Acc& acc) {
    switch (opt_.integrator) {
      case Integrator::Euler:
        step_euler(Mb, s, V(h_), a, acc);
        break;
      case Integrator::Verlet:
        step_verlet(Mb, s, V(h_), a, acc);
        break;
      case Integrator::Midpoint:
        step_midpoint(Mb, s, V(h_), a, opt_.midpoint_iterations, acc);
        break;
      case Integrator::Rk4:
        step_rk4(Mb, s, V(h_), a, acc);
        break;
      case Integrator::ImplicitFast:
        step_euler(Mb, s, V(h_), a, acc);
        break; // its evaluation solves with M − h·qDeriv
    }
  }

  int first_nonfinite_lane(const BlockState<V>& s, int valid) const {
    MaskOf<V> bad = nonfinite(s.q[0]);
    for (int k = 1; k < M_.nq; ++k) bad = vor(bad, nonfinite(s.q[k]));
    for (int k = 0; k < M_.nv; ++k) bad = vor(bad, nonfinite(s.v[k]));
    if (!vany(bad)) return -1;
    for (int lane = 0; lane < valid; ++lane)
      if (vlane(bad, lane)) return lane;
    return -1; // only padding lanes went bad
  }

  int first_nonfinite_joint(const BlockState<V>& s, int lane) const {
    for (std::size_t i = 0; i < M_.joints.size(); ++i) {
      const auto& J = M_.joints[i];
      for (int k = 0; k < J.nq; ++k)
        if (!std::isfinite(vlane(s.q[J.qoff + k], lane))) return static_cast<int>(i);
      for (int k = 0; k < J.nv; ++k)
        if (!std::isfinite(vlane(s.v[J.voff + k], lane))) return static_cast<int>(i);
    }
    return 0;
  }

  KModel<T> M_;
  KCollision<T> C_;
  KConstraints<T> KC_;
  KForces<T> F_;
  KImplicit<T> KI_;    // implicitfast's constants (reads F_, declared before it)
  KMjcfSensors<T> MS_; // an MJCF model's sensors (sensors/mjcf_sensors.hpp)
  BatchOptions opt_;
  Storage st_;
  BlockIO<V> io_; // reads M_, KC_, F_, st_ (declared before it)
  int blocks_;
  T h_;
  bool implicit_damping_ = false;              // the step's damping is implicit (KModel::set_step)
  std::vector<std::unique_ptr<KModel<T>>> Mw_; // per worker (bind)
  std::vector<std::unique_ptr<KForces<T>>> Fw_;
  LaneRows<T> robot_lanes_; // robots that differ: every block's rows, LaneSlots::count × kLaneStride each; empty otherwise
  // robots that differ in a model with constraints: every block's constraint rows (contact/lane_constraints.hpp),
  // ConstraintLaneSlots::count × kLaneStride each, in double; empty otherwise
  LaneRows<double> robot_constraint_lanes_;
  ConstraintLaneSlots constraint_slots_;
  LaneRows<double> model_constraint_lanes_; // one block's, every lane at the batch's model (each lane's until its robot is set)
  std::vector<Arena> arenas_;
  std::vector<BlockScratch<V>> scratch_;
  std::vector<RecordWork<V>> record_work_;     // per worker, with BatchOptions::record
  std::vector<MjcfSensorWork<V>> sensor_work_; // per worker
};

template <class V>
std::unique_ptr<Kernel> make_kernel_for(const Model& model, const BatchOptions& opt, const Storage& st) {
  return std::make_unique<KernelImpl<V>>(model, opt, st);
}

} // namespace ACH_ISA_NS
} // namespace ach
