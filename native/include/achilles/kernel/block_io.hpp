// A block's way in and out of the batch's SoA storage: its state loaded into the block scratch
// before stepping and stored after, the outputs (poses, contacts, contact forces) stored, and the
// controls' double buffer (the controller writes one half while a step reads the other).
#pragma once

#include "../isa_namespace.hpp"

#include <cstdint>

#include "../bugs.hpp"
#include "../vmath.hpp"
#include "block_scratch.hpp"
#include "constrain.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Every lane of a block (BlockIO's stores' `lanes`).
inline constexpr std::uint32_t kAllLanes = ~std::uint32_t(0);

template <class V>
class BlockIO {
  using T = ScalarOf<V>;
  static constexpr int W = lanes_of<V>;

 public:
  BlockIO(const KModel<T>& M, const KConstraints<T>& KC, const KForces<T>& F, const Storage& st) : M_(M), KC_(KC), F_(F), st_(st) {}

  T* lane_ptr(FieldId f, int component, int block) const {
    return static_cast<T*>(st_.ptr(f)) + static_cast<std::size_t>(component) * st_.stride + static_cast<std::size_t>(block) * W;
  }
  void load_field(FieldId f, int b, V* dst, int count, int first = 0) const {
    for (int k = 0; k < count; ++k) dst[k] = load<V>(lane_ptr(f, first + k, b));
  }
  void store_field(FieldId f, int b, const V* src, int count) const {
    for (int k = 0; k < count; ++k) vstore(lane_ptr(f, k, b), src[k]);
  }

  /// The state a step reads and writes: q, v, τ, the warm start, the servos' targets, the
  /// activations and the actuator forces (and the planted TorqueLate bug's previous torque).
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
    if (F_.na) load_field(FieldId::Act, b, sc.s.act, F_.na);
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
    if (F_.na) store_field(FieldId::Act, b, sc.s.act, F_.na);
  }

  /// x into component `component` of field f in block b: the lanes whose bits `lanes` sets (the
  /// others keep what they hold), one vector store when that is every lane.
  void store_lanes(FieldId f, int component, int b, const V& x, std::uint32_t lanes = kAllLanes) const {
    T* p = lane_ptr(f, component, b);
    constexpr std::uint32_t every = (std::uint32_t(2) << (W - 1)) - 1; // bits 0 .. W − 1
    if ((lanes & every) == every) {
      vstore(p, x);
      return;
    }
    for (int l = 0; l < W; ++l)
      if (lanes >> l & 1u) p[l] = vlane(x, l);
  }

  /// Every body's world pose X_WB (after pass_pose) into BodyPos and BodyRot (or the given fields),
  /// in the lanes `lanes` sets.
  void store_poses(int b, const BlockScratch<V>& sc, FieldId pos = FieldId::BodyPos, FieldId rot = FieldId::BodyRot,
                   std::uint32_t lanes = kAllLanes) const {
    for (std::size_t i = 0; i < M_.joints.size(); ++i) {
      const Transform<V>& X = sc.X_WB[i];
      const int k = static_cast<int>(i);
      store_lanes(pos, k * 3 + 0, b, X.p.x, lanes);
      store_lanes(pos, k * 3 + 1, b, X.p.y, lanes);
      store_lanes(pos, k * 3 + 2, b, X.p.z, lanes);
      for (int e = 0; e < 9; ++e) store_lanes(rot, k * 9 + e, b, X.R.m[e], lanes);
    }
  }

  /// Body i's spatial motion [ω; v] (6 components) into field f, in the lanes `lanes` sets.
  void store_motion(FieldId f, int i, int b, const Motion<V>& m, std::uint32_t lanes = kAllLanes) const {
    const V e[6] = {m.w.x, m.w.y, m.w.z, m.v.x, m.v.y, m.v.z};
    for (int c = 0; c < 6; ++c) store_lanes(f, i * 6 + c, b, e[c], lanes);
  }

  /// Block b's contacts start afresh with `npairs` pairs (the contact store, contact_store.hpp).
  BlockContacts& begin_contacts(int b, int npairs) const {
    BlockContacts& bc = st_.contacts->block(b);
    bc.shape_a.assign(npairs, 0);
    bc.shape_b.assign(npairs, 0);
    bc.values.assign(static_cast<std::size_t>(npairs) * kContactPairValues * W, 0.0);
    return bc;
  }
  /// Pair p of block b: shapes a < b, each point where `on` (its normal and force; f: per point
  /// normal, t1, t2, null: 0); the rest read 0.
  void store_pair_contacts(BlockContacts& bc, int p, int sa, int sb, const MaskOf<V>* on, const Manifold<V>& m, const V (*f)[3]) const {
    bc.shape_a[p] = sa;
    bc.shape_b[p] = sb;
    double* x = bc.values.data() + static_cast<std::size_t>(p) * kContactPairValues * W;
    auto put = [&](int k, const V& v) {
      alignas(64) T lanes[W];
      vstore(lanes, v);
      for (int l = 0; l < W; ++l) x[k * W + l] = double(lanes[l]);
    };
    const V zero(T(0));
    for (int i = 0; i < kPairPoints; ++i) {
      const int o = i * kContactPointValues;
      put(o, vselect(on[i], V(T(1)), zero));
      put(o + 1, vselect(on[i], m.dist[i], zero));
      put(o + 2, vselect(on[i], m.pos[i].x, zero));
      put(o + 3, vselect(on[i], m.pos[i].y, zero));
      put(o + 4, vselect(on[i], m.pos[i].z, zero));
      put(o + 5, vselect(on[i], m.n[i].x, zero));
      put(o + 6, vselect(on[i], m.n[i].y, zero));
      put(o + 7, vselect(on[i], m.n[i].z, zero));
      if (f)
        for (int c = 0; c < 3; ++c) put(o + 8 + c, f[i][c]);
    }
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
    step_controls(*sc.s.F, sc.s.u, sc.target, sc.s.u); // the worker's forces: its control ranges are the block's
  }
  /// After a held call of an even number of steps from step s: the controls it held (half s % 2)
  /// moved to the other half, as the last of that many single steps would have read them there
  /// (and cleared this one): what forward, constrain and sense read after it, and what the
  /// controller writes next (half s % 2 again) starts from 0.
  void hand_over_held(int b, std::int64_t s) const {
    const int half = static_cast<int>(s % 2);
    for (int a = 0; a < F_.nu; ++a) {
      vstore(lane_ptr(FieldId::Ctrl, (1 - half) * F_.nu + a, b), load<V>(lane_ptr(FieldId::Ctrl, half * F_.nu + a, b)));
      vstore(lane_ptr(FieldId::Ctrl, half * F_.nu + a, b), V(T(0)));
    }
  }
  void clear_ctrl_half(int b, int half) const {
    for (int a = 0; a < F_.nu; ++a) vstore(lane_ptr(FieldId::Ctrl, half * F_.nu + a, b), V(T(0)));
  }
  /// The controls acting at the current state, for forward, constrain and sense between steps,
  /// without moving the servos' targets: those the last step read (its half (steps_done − 1) % 2,
  /// held), or before any step the ones written for the first.
  void held_controls_now(int b, BlockScratch<V>& sc, std::int64_t steps_done) const {
    if (!F_.nu) return;
    const int half = steps_done > 0 ? static_cast<int>((steps_done - 1) % 2) : 0;
    load_field(FieldId::Ctrl, b, sc.s.u, F_.nu, half * F_.nu);
    held_controls(*sc.s.F, sc.s.u, sc.target, sc.s.u);
  }

 private:
  const KModel<T>& M_;
  const KConstraints<T>& KC_;
  const KForces<T>& F_;
  const Storage& st_;
};

} // namespace ACH_ISA_NS
} // namespace ach
