// The kernel for one pack type V: walks blocks of W lanes through the step pipeline.
//
// A block's state is loaded from the SoA storage into the block's scratch, stepped there for
// all requested steps (it stays in L1), checked for non-finite values after every step and
// stored back. Blocks are independent, so workers split them with no locking.
#pragma once

#include "isa_namespace.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "collision/collide.hpp"
#include "contact/solver.hpp"
#include "engine.hpp"
#include "integrators.hpp"
#include "sensors/body_motion.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// One arena: every scratch array of one worker, carved once.
class Arena {
 public:
  explicit Arena(std::size_t bytes) : buffer_(std::make_shared<Buffer>(bytes)), cap_(bytes) {}
  template <class X> X* take(std::size_t n) {
    const std::size_t align = 64;
    used_ = (used_ + align - 1) / align * align;
    const std::size_t bytes = n * sizeof(X);
    if (used_ + bytes > cap_)
      throw std::length_error("scratch arena overflow: needs " + std::to_string(used_ + bytes) + " bytes, has " +
                              std::to_string(cap_));
    X* p = reinterpret_cast<X*>(static_cast<char*>(buffer_->data()) + used_);
    used_ += bytes;
    return p;
  }

 private:
  std::shared_ptr<Buffer> buffer_;
  std::size_t cap_;
  std::size_t used_ = 0;
};

template <class V> struct BlockScratch {
  BlockState<V> s;
  V* a_sub;    // accelerations of substeps after the first
  V* tau_prev; // the previous step's torque (read only by a planted bug)
  V* target;   // each servo's rate-limited target (actuators)
  Transform<V>* X_WB;
  Transform<V>* X_WS; // world pose of every collision shape
  ConstraintWork<V> cw; // rows and solver vectors (constrained models only)

  static std::size_t bytes_needed(const KModel<ScalarOf<V>>& M, std::size_t nshapes, std::size_t nu, const KConstraints<ScalarOf<V>>* K = nullptr) {
    const std::size_t n = M.joints.size();
    const std::size_t nq = M.nq, nv = M.nv;
    // Mirrors the constructor's takes; each take may pad up to 64 bytes.
    std::size_t dof = 0;
    for (const auto& J : M.joints) {
      const std::size_t k = J.nv > 0 ? J.nv : 1;
      dof += k * (sizeof(Motion<V>) + sizeof(Force<V>) + (k + 1) * sizeof(V));
    }
    const std::size_t vecs = 2 * (nq + 1) + 9 * (nv + 1);
    return n * (sizeof(JointWork<V>) + sizeof(Transform<V>)) + dof + vecs * sizeof(V) + (4 * n + 16) * 64 +
           (nv + 1 + 3 * (nu + 1)) * sizeof(V) + 4 * 64 +
           (nshapes ? nshapes : 1) * sizeof(Transform<V>) + 64 + (K ? ConstraintWork<V>::bytes_needed(M, *K) : 0);
  }

  BlockScratch(Arena& arena, const KModel<ScalarOf<V>>& M, const KForces<ScalarOf<V>>& F, std::size_t nshapes, const KConstraints<ScalarOf<V>>* K = nullptr) {
    const std::size_t n = M.joints.size();
    s.W = arena.take<JointWork<V>>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int nv = M.joints[i].nv;
      JointWork<V>& w = s.W[i];
      w.S = arena.take<Motion<V>>(nv > 0 ? nv : 1);
      w.U = arena.take<Force<V>>(nv > 0 ? nv : 1);
      w.Dinv = arena.take<V>(nv > 0 ? nv * nv : 1);
      w.u = arena.take<V>(nv > 0 ? nv : 1);
    }
    const std::size_t nq = M.nq ? M.nq : 1, nv = M.nv ? M.nv : 1;
    s.q = arena.take<V>(nq);
    s.v = arena.take<V>(nv);
    s.tau = arena.take<V>(nv);
    s.qacc = arena.take<V>(nv);
    s.qs = arena.take<V>(nq);
    s.vs = arena.take<V>(nv);
    s.a = arena.take<V>(nv);
    s.qsum = arena.take<V>(nv);
    s.asum = arena.take<V>(nv);
    a_sub = arena.take<V>(nv);
    tau_prev = arena.take<V>(nv);
    const std::size_t nu = F.nu ? F.nu : 1;
    s.F = &F;
    s.tau_eff = arena.take<V>(nv);
    s.u = arena.take<V>(nu);
    s.force = arena.take<V>(nu);
    target = arena.take<V>(nu);
    X_WB = arena.take<Transform<V>>(n);
    X_WS = arena.take<Transform<V>>(nshapes ? nshapes : 1);
    if (K && K->enabled) cw.carve(arena, M, *K);
  }
};

template <class V> class KernelImpl final : public Kernel {
  using T = ScalarOf<V>;
  static constexpr int W = lanes_of<V>;

 public:
  KernelImpl(const Model& model, const BatchOptions& opt, const Storage& storage)
      : M_(model), C_(model), KC_(model, opt.dt / opt.substeps), F_(model, opt.dt), opt_(opt), st_(storage), blocks_((opt.copies + W - 1) / W) {
    M_.set_step(model, opt.dt / opt.substeps, opt.integrator == Integrator::Euler);
    for (int t = 0; t < opt.threads; ++t) {
      arenas_.emplace_back(BlockScratch<V>::bytes_needed(M_, C_.shapes.size(), F_.nu, &KC_));
      scratch_.emplace_back(arenas_.back(), M_, F_, C_.shapes.size(), &KC_);
    }
    h_ = T(opt.dt / opt.substeps);
  }

  int blocks() const override { return blocks_; }

  void step_blocks(int worker, int b0, int b1, std::int64_t nsteps, std::int64_t steps_before, StepStats& stats, bool monitor) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    for (int b = b0; b < b1; ++b) {
      load_block(b, sc);
      const int valid = valid_lanes(b);
      V e_ref(T(0)), drift_max(T(0)), ke_peak(T(0));
      if (monitor) {
        e_ref = load<V>(lane_ptr(FieldId::EnergyRef, 0, b));
        drift_max = load<V>(lane_ptr(FieldId::DriftMax, 0, b));
        ke_peak = load<V>(lane_ptr(FieldId::KineticPeak, 0, b));
      }
      std::int64_t done = 0;
      for (; done < nsteps; ++done) {
        if (F_.nu) begin_step(b, steps_before + done, sc);
        step_once(sc);
        if (F_.nu && ACH_BUG(EffortLate)) clear_ctrl_half(b, static_cast<int>((steps_before + done + 1) % 2));
        if (monitor) {
          // The observation pipeline (kPassVelocity, kPassPose, kPassEnergy) at the new state;
          // a NaN never replaces a maximum (the compare is false), the step reports it instead.
          pass_velocity(M_, s.W, s.q, s.v);
          pass_pose(M_, s.W, sc.X_WB);
          V ke, pe;
          pass_energy(M_, s.W, sc.X_WB, ke, pe);
          passive_energy(F_, s.q, s.v, ke, pe);
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
      stats.robot_steps += done * valid;
      store_block(b, sc);
      if (monitor) {
        vstore(lane_ptr(FieldId::DriftMax, 0, b), drift_max);
        vstore(lane_ptr(FieldId::KineticPeak, 0, b), ke_peak);
      }
    }
  }

  void forward_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    for (int b = b0; b < b1; ++b) {
      load_block(b, sc);
      held_controls_now(b, sc);
      forward_dynamics(M_, s.W, s.q, s.v, efforts(M_, s, s.q, s.v), s.qacc);
      store_field(FieldId::Qacc, b, s.qacc, M_.nv);
    }
  }

  void observe_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    for (int b = b0; b < b1; ++b) {
      load_block(b, sc);
      pass_velocity(M_, s.W, s.q, s.v);
      pass_pose(M_, s.W, sc.X_WB);
      V ke, pe;
      pass_energy(M_, s.W, sc.X_WB, ke, pe);
      passive_energy(F_, s.q, s.v, ke, pe);
      vstore(lane_ptr(FieldId::Kinetic, 0, b), ke);
      vstore(lane_ptr(FieldId::Potential, 0, b), pe);
      store_poses(b, sc);
    }
  }

  /// Sensors: q̈ at the current state as the next step starts it (forward dynamics, then the
  /// constraint solve with the stored warm start, as constrain_blocks), then body accelerations from
  /// that q̈, and poses. The warm start is read, never written: sensing does not change the next step.
  void sense_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    const int n = static_cast<int>(M_.joints.size());
    for (int b = b0; b < b1; ++b) {
      acceleration_now(b, sc);
      pass_body_acceleration(M_, s.W, s.qacc);
      pass_pose(M_, s.W, sc.X_WB);
      for (int i = 0; i < n; ++i) {
        const Motion<V>& v = s.W[i].vel;
        const Motion<V>& a = s.W[i].acc;
        const V vs[6] = {v.w.x, v.w.y, v.w.z, v.v.x, v.v.y, v.v.z};
        const V as[6] = {a.w.x, a.w.y, a.w.z, a.v.x, a.v.y, a.v.z};
        for (int e = 0; e < 6; ++e) {
          vstore(lane_ptr(FieldId::BodyVel, i * 6 + e, b), vs[e]);
          vstore(lane_ptr(FieldId::BodyAcc, i * 6 + e, b), as[e]);
        }
      }
      store_poses(b, sc);
    }
  }

  /// kCollision (passes.hpp): placements, world poses, shape poses, broad and narrow phase.
  void collide_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    BlockState<V>& s = sc.s;
    for (int b = b0; b < b1; ++b) {
      load_field(FieldId::Q, b, s.q, M_.nq); // positions are all detection reads
      for (std::size_t i = 0; i < M_.joints.size(); ++i) s.W[i].X = joint_placement<V>(M_.joints[i], s.q + M_.joints[i].qoff);
      pass_pose(M_, s.W, sc.X_WB);
      pass_shape_poses(C_, sc.X_WB, sc.X_WS);
      for (std::size_t p = 0; p < C_.pairs.size(); ++p) {
        const KPair<T>& pr = C_.pairs[p];
        const KShape<T>& a = C_.shapes[pr.a];
        const KShape<T>& bs = C_.shapes[pr.b];
        const MaskOf<V> overlap = aabb_overlap(a, sc.X_WS[pr.a], bs, sc.X_WS[pr.b]);
        Manifold<V> m;
        if (vany(overlap)) {
          narrow_pair<V>(a.geom, sc.X_WS[pr.a], bs.geom, sc.X_WS[pr.b], pr.thr, m);
        } else {
          m.n = splat3<V>(0, 0, 0);
          for (int i = 0; i < 4; ++i) {
            m.pos[i] = splat3<V>(0, 0, 0);
            m.dist[i] = V(0);
            m.on[i] = mask_false<V>();
          }
        }
        store_contacts(static_cast<int>(p), b, overlap, m);
      }
    }
  }

  /// Detection and the solve at the current state (warm start included), as the next step's first
  /// evaluation: qacc, the contact fields and each contact slot's force.
  void constrain_blocks(int worker, int b0, int b1) override {
    BlockScratch<V>& sc = scratch_[worker];
    for (int b = b0; b < b1; ++b) {
      acceleration_now(b, sc);
      if (KC_.enabled)
        for (std::size_t p = 0; p < KC_.pairs.size(); ++p) {
          store_contacts(static_cast<int>(p), b, mask_true<V>(), sc.cw.mf[p]);
          store_pair_forces(static_cast<int>(p), b, sc.cw);
        }
    }
  }

  void constraint_report(int robot, int iterations, bool warm, ConstraintReport& out) override {
    BlockScratch<V>& sc = scratch_[0];
    BlockState<V>& s = sc.s;
    const int b = robot / W, lane = robot % W;
    load_block(b, sc);
    held_controls_now(b, sc);
    forward_dynamics(M_, s.W, s.q, s.v, efforts(M_, s, s.q, s.v), s.qacc);
    const int nv = M_.nv;
    out.qacc_smooth.resize(nv);
    for (int k = 0; k < nv; ++k) out.qacc_smooth[k] = double(vlane(s.qacc[k], lane));
    out.qfrc_constraint.assign(nv, 0.0);
    out.rows.clear();
    out.contacts.clear();
    out.tendon_length.clear();
    out.tendon_velocity.clear();
    if (KC_.enabled) {
      ConstraintWork<V>& cw = sc.cw;
      for (const KTendon<T>& t : KC_.tendons) {
        out.tendon_length.push_back(double(vlane(tendon_length(t, s.q), lane)));
        out.tendon_velocity.push_back(double(vlane(tendon_dot(t, s.v), lane)));
      }
      for (int r = 0; r < cw.nrows; ++r) cw.force[r] = V(T(0));
      constrain(sc, s.q, s.v, s.qacc, iterations, warm);
      if (cw.nused > 0)
        for (int k = 0; k < nv; ++k) out.qfrc_constraint[k] = double(vlane(cw.qfrc[k], lane));
      for (int u = 0; u < cw.nused; ++u) {
        const int r = cw.used[u];
        if (!vlane(cw.on[r], lane)) continue;
        ConstraintRowReport row;
        if (r < cw.nfric_rows) {
          const KFriction<T>& F = KC_.frictions[r];
          row.kind = F.tendon >= 0 ? 4 : 2;
          row.id = F.tendon >= 0 ? F.tendon : F.joint;
          row.point = F.tendon >= 0 ? 0 : F.dof - M_.joints[row.id].voff;
        } else if (r < cw.first_contact) {
          const KLimit<T>& L = KC_.limits[(r - cw.nfric_rows) / 2];
          row.kind = L.tendon >= 0 ? 3 : 0;
          row.id = L.tendon >= 0 ? L.tendon : L.joint;
          row.point = (r - cw.nfric_rows) % 2;
        } else {
          const int c = r - cw.first_contact;
          const int slot = KC_.row_point[c];
          int edge = 0;
          while (edge < c && KC_.row_point[c - edge - 1] == slot) ++edge;
          row.kind = 1;
          row.id = slot / 4;
          row.point = slot % 4;
          row.edge = edge;
        }
        row.dist = double(vlane(cw.dist[r], lane));
        row.vel = double(vlane(cw.vel[r], lane));
        row.aref = double(vlane(cw.aref[r], lane));
        row.R = double(vlane(cw.R[r], lane));
        row.D = double(vlane(cw.D[r], lane));
        row.imp = double(vlane(cw.imp[r], lane));
        row.force = double(vlane(cw.force[r], lane));
        out.rows.push_back(row);
      }
      for (std::size_t p = 0; p < KC_.pairs.size(); ++p)
        for (int i = 0; i < 4; ++i) {
          if (!vlane(cw.point_on[p * 4 + i], lane)) continue;
          ContactPointReport c;
          c.pair = static_cast<int>(p);
          c.point = i;
          c.dist = double(vlane(cw.mf[p].dist[i], lane));
          const Vec3<V>& pos = cw.mf[p].pos[i];
          c.pos[0] = double(vlane(pos.x, lane)), c.pos[1] = double(vlane(pos.y, lane)), c.pos[2] = double(vlane(pos.z, lane));
          for (int a = 0; a < 3; ++a) {
            const Vec3<V>& f = cw.frame[(p * 4 + i) * 3 + a];
            c.frame[a * 3 + 0] = double(vlane(f.x, lane)), c.frame[a * 3 + 1] = double(vlane(f.y, lane)), c.frame[a * 3 + 2] = double(vlane(f.z, lane));
          }
          V f[3];
          decode_point_force(static_cast<int>(p), i, cw, f);
          for (int a = 0; a < 3; ++a) c.force[a] = double(vlane(f[a], lane));
          out.contacts.push_back(c);
        }
      // J row by row: J·e_k for every dof k (after the solve, so jv and tmp are free)
      for (int k = 0; k < nv; ++k) {
        for (int j = 0; j < nv; ++j) cw.tmp[j] = V(T(j == k ? 1 : 0));
        pass_body_motion(M_, s.W, cw.tmp, cw.tw.m);
        rows_times(KC_, cw, cw.tw.m, cw.tmp, cw.jv);
        std::size_t at = 0;
        for (int u = 0; u < cw.nused; ++u) {
          const int r = cw.used[u];
          if (!vlane(cw.on[r], lane)) continue;
          out.rows[at].J.resize(nv);
          out.rows[at++].J[k] = double(vlane(cw.jv[u], lane));
        }
      }
    }
    out.qacc.resize(nv);
    for (int k = 0; k < nv; ++k) out.qacc[k] = double(vlane(s.qacc[k], lane));
  }

 private:
  /// Detection, rows and the solve at (q, v) after forward_dynamics left qacc_smooth in `a`
  /// (and the ABA factors in JointWork): `a` becomes the constrained acceleration.
  void constrain(BlockScratch<V>& sc, const V* q, const V* v, V* a, int iterations, bool warm) {
    ConstraintWork<V>& cw = sc.cw;
    cw.nused = cw.npts = cw.nfric_used = cw.first_contact_used = 0; // pack_rows sets the last three when there are rows
    pass_pose(M_, sc.s.W, sc.X_WB);
    pass_shape_poses(C_, sc.X_WB, sc.X_WS);
    build_friction_rows(KC_, v, cw);
    build_limit_rows(KC_, q, v, cw);
    build_contact_rows(KC_, C_, sc.s.W, sc.X_WB, sc.X_WS, cw);
    if (cw.nused == 0) return;
    for (int k = 0; k < M_.nv; ++k) cw.a0[k] = a[k];
    solve_constraints(M_, KC_, sc.s.W, cw, iterations, warm);
    for (int k = 0; k < M_.nv; ++k) a[k] = cw.a[k];
  }

  /// A contact slot's force in its frame: normal Σ f_e, friction (f_0 − f_1)·μ, (f_2 − f_3)·μ.
  void decode_point_force(int p, int i, const ConstraintWork<V>& cw, V* f) const {
    const KContactPair<T>& P = KC_.pairs[p];
    int row = cw.first_contact;
    for (int q = 0; q < p; ++q) row += 4 * KC_.pairs[q].rows;
    row += i * P.rows;
    const MaskOf<V> on = cw.point_on[p * 4 + i];
    if (P.rows == 1) {
      f[0] = vselect(on, cw.force[row], V(T(0)));
      f[1] = f[2] = V(T(0));
      return;
    }
    const V* e = cw.force + row;
    f[0] = vselect(on, e[0] + e[1] + e[2] + e[3], V(T(0)));
    f[1] = vselect(on, (e[0] - e[1]) * V(P.mu), V(T(0)));
    f[2] = vselect(on, (e[2] - e[3]) * V(P.mu), V(T(0)));
  }

  void store_pair_forces(int p, int b, const ConstraintWork<V>& cw) const {
    for (int i = 0; i < 4; ++i) {
      V f[3];
      decode_point_force(p, i, cw, f);
      for (int c = 0; c < 3; ++c) vstore(lane_ptr(FieldId::ContactForce, (p * 4 + i) * 3 + c, b), f[c]);
    }
  }

  /// Active slots get their contact; inactive ones read 0 (and the normal 0 when no slot is).
  void store_contacts(int p, int b, const MaskOf<V>& overlap, const Manifold<V>& m) const {
    MaskOf<V> any = mask_false<V>();
    for (int i = 0; i < 4; ++i) {
      const MaskOf<V> on = vand(overlap, m.on[i]);
      any = vor(any, on);
      const int slot = p * 4 + i;
      vstore(lane_ptr(FieldId::ContactActive, slot, b), vselect(on, V(1), V(0)));
      vstore(lane_ptr(FieldId::ContactDist, slot, b), vselect(on, m.dist[i], V(0)));
      vstore(lane_ptr(FieldId::ContactPos, slot * 3 + 0, b), vselect(on, m.pos[i].x, V(0)));
      vstore(lane_ptr(FieldId::ContactPos, slot * 3 + 1, b), vselect(on, m.pos[i].y, V(0)));
      vstore(lane_ptr(FieldId::ContactPos, slot * 3 + 2, b), vselect(on, m.pos[i].z, V(0)));
    }
    vstore(lane_ptr(FieldId::ContactNormal, p * 3 + 0, b), vselect(any, m.n.x, V(0)));
    vstore(lane_ptr(FieldId::ContactNormal, p * 3 + 1, b), vselect(any, m.n.y, V(0)));
    vstore(lane_ptr(FieldId::ContactNormal, p * 3 + 2, b), vselect(any, m.n.z, V(0)));
  }

  T* lane_ptr(FieldId f, int component, int block) const {
    return static_cast<T*>(st_.ptr(f)) + static_cast<std::size_t>(component) * st_.stride + static_cast<std::size_t>(block) * W;
  }
  void load_field(FieldId f, int b, V* dst, int count, int first = 0) const {
    for (int k = 0; k < count; ++k) dst[k] = load<V>(lane_ptr(f, first + k, b));
  }
  /// The controls the next step would read, without moving the servos' targets (merge of
  /// actuators' forward_blocks: shared by forward, constrain, constraint_report and sense).
  /// q̈ at block b's current state as the next step starts it: forward dynamics under the held
  /// controls, then (constrained models) detection and the solve with the stored warm start, which
  /// is read, never written. Stores Qacc.
  void acceleration_now(int b, BlockScratch<V>& sc) {
    BlockState<V>& s = sc.s;
    load_block(b, sc);
    held_controls_now(b, sc);
    forward_dynamics(M_, s.W, s.q, s.v, efforts(M_, s, s.q, s.v), s.qacc);
    if (KC_.enabled) {
      ConstraintWork<V>& cw = sc.cw;
      for (int r = 0; r < cw.nrows; ++r) cw.force[r] = V(T(0));
      constrain(sc, s.q, s.v, s.qacc, KC_.iterations, true);
    }
    store_field(FieldId::Qacc, b, s.qacc, M_.nv);
  }
  /// Every body's world pose X_WB (after pass_pose) into BodyPos and BodyRot.
  void store_poses(int b, const BlockScratch<V>& sc) const {
    for (std::size_t i = 0; i < M_.joints.size(); ++i) {
      const Transform<V>& X = sc.X_WB[i];
      vstore(lane_ptr(FieldId::BodyPos, i * 3 + 0, b), X.p.x);
      vstore(lane_ptr(FieldId::BodyPos, i * 3 + 1, b), X.p.y);
      vstore(lane_ptr(FieldId::BodyPos, i * 3 + 2, b), X.p.z);
      for (int e = 0; e < 9; ++e) vstore(lane_ptr(FieldId::BodyRot, i * 9 + e, b), X.R.m[e]);
    }
  }
  /// The controls acting at the current state, for forward, constrain and sense between steps:
  /// those the last step read (its half (steps_done − 1) % 2, held), or before any step the ones
  /// written for the first.
  void held_controls_now(int b, BlockScratch<V>& sc) const {
    if (!F_.nu) return;
    const int half = steps_done > 0 ? static_cast<int>((steps_done - 1) % 2) : 0;
    load_field(FieldId::Ctrl, b, sc.s.u, F_.nu, half * F_.nu);
    held_controls(F_, sc.s.u, sc.target, sc.s.u);
  }
  void clear_ctrl_half(int b, int half) const {
    for (int a = 0; a < F_.nu; ++a) vstore(lane_ptr(FieldId::Ctrl, half * F_.nu + a, b), V(T(0)));
  }
  /// The double buffer: step s reads the control half s % 2 (written before it) and clears the
  /// other, which the controller writes for step s + 1; what is not written again reads 0.
  void begin_step(int b, std::int64_t s, BlockScratch<V>& sc) const {
    const int half = static_cast<int>(s % 2);
    if (ACH_BUG(EffortLate)) { // the planted bug: the half written before the previous step, cleared after
      load_field(FieldId::Ctrl, b, sc.s.u, F_.nu, (1 - half) * F_.nu);
    } else {
      load_field(FieldId::Ctrl, b, sc.s.u, F_.nu, half * F_.nu);
      clear_ctrl_half(b, 1 - half);
    }
    step_controls(F_, sc.s.u, sc.target, sc.s.u);
  }
  void store_field(FieldId f, int b, const V* src, int count) const {
    for (int k = 0; k < count; ++k) vstore(lane_ptr(f, k, b), src[k]);
  }
  void load_block(int b, BlockScratch<V>& sc) const {
    load_field(FieldId::Q, b, sc.s.q, M_.nq);
    load_field(FieldId::V, b, sc.s.v, M_.nv);
    load_field(FieldId::Tau, b, sc.s.tau, M_.nv);
    if (ACH_BUG(TorqueLate)) load_field(FieldId::TauPrev, b, sc.tau_prev, M_.nv);
    if (KC_.enabled) {
      load_field(FieldId::QaccWarm, b, sc.cw.warm, M_.nv);
    }
    if (F_.nu) {
      load_field(FieldId::CtrlTarget, b, sc.target, F_.nu);
      load_field(FieldId::ActuatorForce, b, sc.s.force, F_.nu);
    }
  }
  void store_block(int b, const BlockScratch<V>& sc) const {
    store_field(FieldId::Q, b, sc.s.q, M_.nq);
    store_field(FieldId::V, b, sc.s.v, M_.nv);
    store_field(FieldId::Qacc, b, sc.s.qacc, M_.nv);
    if (ACH_BUG(TorqueLate)) store_field(FieldId::TauPrev, b, sc.tau_prev, M_.nv);
    if (KC_.enabled) store_field(FieldId::QaccWarm, b, sc.cw.warm, M_.nv);
    if (F_.nu) {
      store_field(FieldId::CtrlTarget, b, sc.target, F_.nu);
      store_field(FieldId::ActuatorForce, b, sc.s.force, F_.nu);
    }
  }
  int valid_lanes(int b) const {
    const int left = opt_.copies - b * W;
    return left < W ? left : W;
  }

  /// One step of the chosen integrator, split into substeps; qacc = a(q, v) at the step's start.
  void step_once(BlockScratch<V>& sc) {
    BlockState<V>& s = sc.s;
    if (ACH_BUG(TorqueLate)) // the planted bug: this step applies the previous step's torque
      for (int k = 0; k < M_.nv; ++k) {
        const V now = s.tau[k];
        s.tau[k] = sc.tau_prev[k];
        sc.tau_prev[k] = now;
      }
    for (int sub = 0; sub < opt_.substeps; ++sub) {
      V* a = sub == 0 ? s.qacc : sc.a_sub;
      if (!KC_.enabled) {
        substep(s, a, SmoothAcc<V>{M_, s});
      } else {
        if (ACH_BUG(WarmStartOtherLane)) // the planted bug: lane i warm-starts from lane i + 1's qacc
          for (int k = 0; k < M_.nv; ++k) {
            alignas(64) T buf[W], rot[W];
            vstore(buf, sc.cw.warm[k]);
            for (int l = 0; l < W; ++l) rot[l] = buf[(l + 1) % W];
            sc.cw.warm[k] = load<V>(rot);
          }
        // every evaluation: forward dynamics, detection, rows, the solve warm-started from the
        // qacc of the substep's first evaluation of the previous substep (MuJoCo's qacc_warmstart)
        // (efforts and Euler's implicit damping as SmoothAcc; the solve then uses that smooth q̈)
        // With implicit damping (semi-implicit Euler), as MuJoCo's mj_EulerSkip: the constraints are
        // solved with M (qacc_smooth = M⁻¹f), and only then (M + h·D)·q̈ = f + Jᵀλ gives the step's q̈;
        // the warm start keeps the constrained q̈ of M, as MuJoCo's qacc_warmstart does.
        const bool damped = M_.damped_step && opt_.integrator == Integrator::Euler;
        ConstraintWork<V>& cw = sc.cw;
        auto acc = [&](const V* q, const V* v, V* out, bool first = false, bool stepping = false) {
          const V* f = efforts(M_, s, q, v, first);
          const bool implicit = stepping && damped;
          forward_dynamics(M_, s.W, q, v, f, out, stepping && !implicit);
          constrain(sc, q, v, out, KC_.iterations, true);
          if (!implicit) return;
          for (int k = 0; k < M_.nv; ++k) {
            cw.tmp2[k] = out[k]; // the constrained q̈ of M
            cw.tmp[k] = cw.nused > 0 ? f[k] + cw.qfrc[k] : f[k];
          }
          forward_dynamics(M_, s.W, q, v, cw.tmp, out, true);
        };
        substep(s, a, acc);
        const V* warm = damped ? cw.tmp2 : a;
        for (int k = 0; k < M_.nv; ++k) cw.warm[k] = warm[k];
      }
    }
    if (ACH_BUG(TorqueLate))
      for (int k = 0; k < M_.nv; ++k) s.tau[k] = sc.tau_prev[k];
  }

  template <class Acc> void substep(BlockState<V>& s, V* a, const Acc& acc) {
    switch (opt_.integrator) {
    case Integrator::Euler: step_euler(M_, s, V(h_), a, acc); break;
    case Integrator::Verlet: step_verlet(M_, s, V(h_), a, acc); break;
    case Integrator::Midpoint: step_midpoint(M_, s, V(h_), a, opt_.midpoint_iterations, acc); break;
    case Integrator::Rk4: step_rk4(M_, s, V(h_), a, acc); break;
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
  BatchOptions opt_;
  Storage st_;
  int blocks_;
  T h_;
  std::vector<Arena> arenas_;
  std::vector<BlockScratch<V>> scratch_;
};

template <class V> std::unique_ptr<Kernel> make_kernel_for(const Model& model, const BatchOptions& opt, const Storage& st) {
  return std::make_unique<KernelImpl<V>>(model, opt, st);
}

} // namespace ACH_ISA_NS
} // namespace ach
