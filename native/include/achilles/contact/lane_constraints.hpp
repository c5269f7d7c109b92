// Per-robot constraint constants: what the constraint rows read that a robot's own parameters
// change. Each shape's frictions (sliding, torsional, rolling), and what load derives at qpos0 from
// the masses and armatures (contact/invweight.cpp, MuJoCo's mj_setConst): body_invweight0,
// dof_invweight0, tendon_invweight0 and meaninertia.
//
// A batch of robots that differ keeps them per block in double, one row of kLaneStride values per
// constant (lane l: robot b·W + l's), beside the kernel's own rows (lane_values.hpp). The row
// builders make each lane's pair, limit, dry-friction and equality constants from them in double,
// by the formulas KConstraints uses for a single model, and round once: a robot's rows get the very
// bits its own model gives alone. Without such rows (identical robots) every lane reads the
// KConstraints scalars, as before.
#pragma once

#include "../isa_namespace.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "../bugs.hpp"
#include "../lane_values.hpp"
#include "../model.hpp"
#include "tables.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Where each constant's row lies in a block's constraint rows: per shape its friction, torsion and
/// rolling; per joint (body) its translational and rotational invweight0; per dof its invweight0;
/// per tendon its invweight0; then meaninertia.
struct ConstraintLaneSlots {
  int shapes = 0, bodies = 0, dofs = 0, tendons = 0;
  ConstraintLaneSlots() = default;
  explicit ConstraintLaneSlots(const Model& m)
      : shapes(static_cast<int>(m.shapes.size())),
        bodies(static_cast<int>(m.joints.size())),
        dofs(m.nv),
        tendons(static_cast<int>(m.tendons.size())) {}
  int friction(int s) const { return 3 * s; }
  int torsion(int s) const { return 3 * s + 1; }
  int rolling(int s) const { return 3 * s + 2; }
  int body(int b, int part) const { return 3 * shapes + 2 * b + part; } // part 0: translation, 1: rotation
  int dof(int k) const { return 3 * shapes + 2 * bodies + k; }
  int tendon(int i) const { return 3 * shapes + 2 * bodies + dofs + i; }
  int meaninertia() const { return 3 * shapes + 2 * bodies + dofs + tendons; }
  int count() const { return meaninertia() + 1; }
};

/// Robot `m`'s constraint constants written into lane `lane` of one block's rows.
inline void write_constraint_lane(double* block, int lane, const Model& m) {
  const ConstraintLaneSlots S(m);
  auto row = [&](int slot) -> double& { return block[static_cast<std::size_t>(slot) * kLaneStride + lane]; };
  for (int s = 0; s < S.shapes; ++s) {
    row(S.friction(s)) = m.shapes[s].friction;
    row(S.torsion(s)) = m.shapes[s].torsion;
    row(S.rolling(s)) = m.shapes[s].rolling;
  }
  // the inverse weights are filled by finalize only when the model has constraints; else they stay 0
  auto at = [](const std::vector<double>& v, std::size_t i) { return i < v.size() ? v[i] : 0.0; };
  for (int b = 0; b < S.bodies; ++b)
    for (int part = 0; part < 2; ++part) row(S.body(b, part)) = at(m.body_invweight0, 2 * static_cast<std::size_t>(b) + part);
  for (int k = 0; k < S.dofs; ++k) row(S.dof(k)) = at(m.dof_invweight0, static_cast<std::size_t>(k));
  for (int i = 0; i < S.tendons; ++i) row(S.tendon(i)) = at(m.tendon_invweight0, static_cast<std::size_t>(i));
  row(S.meaninertia()) = m.meaninertia;
}

/// One block's constraint rows, every lane at model `m`'s values.
inline LaneRows<double> uniform_constraint_lanes(const Model& m) {
  LaneRows<double> rows(static_cast<std::size_t>(ConstraintLaneSlots(m).count()) * kLaneStride);
  for (int l = 0; l < kLaneStride; ++l) write_constraint_lane(rows.data(), l, m);
  return rows;
}

/// A block's constraint rows as the row builders read them: `rows` nullptr when every robot runs the
/// batch's model (then the KConstraints scalars serve every lane).
struct ConstraintLanes {
  const double* rows = nullptr;
  ConstraintLaneSlots slots;
  /// Lane l's value of the constant in row `slot`. The planted bug: every lane reads lane 0's robot.
  double at(int slot, int l) const { return rows[static_cast<std::size_t>(slot) * kLaneStride + (ACH_BUG(ParamsConstraintLaneZero) ? 0 : l)]; }
};

/// The pack whose lane l is f(l), worked out in double and rounded once to the kernel's scalar.
template <class V, class F>
inline V lanewise(F&& f) {
  using T = ScalarOf<V>;
  constexpr int W = lanes_of<V>;
  alignas(64) T x[W];
  for (int l = 0; l < W; ++l) x[l] = T(f(l));
  return load<V>(x);
}

/// A contact pair's constants that a robot's frictions and inverse weights change, per lane.
template <class V>
struct PairLanes {
  V mu, mu_spin, mu_roll; // MuJoCo's contact friction: sliding, torsional, rolling
  V diagA;
};

/// The pair's per-lane constants: KConstraints::contact_pair's formulas, per lane from CL's rows
/// (one pass over the lanes: the pair's rows are made only where it has points, build_contact_rows).
template <class V>
inline PairLanes<V> pair_lanes(const KContactPair<ScalarOf<V>>& P, const ConstraintLanes& CL) {
  using T = ScalarOf<V>;
  constexpr int W = lanes_of<V>;
  if (!CL.rows) return {V(P.mu), V(P.mu_spin), V(P.mu_roll), V(P.diagA)};
  const ConstraintLaneSlots& S = CL.slots;
  // the torsional and rolling coefficients are read by condim 4 and 6 only
  const bool spin_roll = P.condim > 3;
  alignas(64) T mu[W], spin[W] = {}, roll[W] = {}, diagA[W]; // spin, roll: filled for condim > 3 only
  for (int l = 0; l < W; ++l) {
    // the higher-priority shape's, or the max of both (P.side: mj_contactParam, contact_param.hpp)
    auto most = [&](int slot_a, int slot_b) { return pair_friction(P.side, CL.at(slot_a, l), CL.at(slot_b, l)); };
    const double m = most(S.friction(P.shape_a), S.friction(P.shape_b));
    mu[l] = T(m);
    if (spin_roll) {
      spin[l] = T(most(S.torsion(P.shape_a), S.torsion(P.shape_b)));
      roll[l] = T(most(S.rolling(P.shape_a), S.rolling(P.shape_b)));
    }
    double tran = 0;
    if (P.body_a >= 0) tran += CL.at(S.body(P.body_a, 0), l);
    if (P.body_b >= 0) tran += CL.at(S.body(P.body_b, 0), l);
    diagA[l] = T(pair_diagA(tran, m, P.condim == 1 || P.elliptic));
  }
  if (!spin_roll) return {load<V>(mu), V(P.mu_spin), V(P.mu_roll), load<V>(diagA)};
  return {load<V>(mu), load<V>(spin), load<V>(roll), load<V>(diagA)};
}

/// A limit's diagA per lane: its dof's invweight0 (a tendon's: the tendon's).
template <class V>
inline V limit_diagA(const KLimit<ScalarOf<V>>& L, const ConstraintLanes& CL) {
  if (!CL.rows) return V(L.diagA);
  const int slot = L.tendon >= 0 ? CL.slots.tendon(L.tendon) : CL.slots.dof(L.dof);
  return lanewise<V>([&](int l) { return CL.at(slot, l); });
}

/// A dry-friction row's R per lane: (1 − imp)/imp · invweight0 of its dof (a tendon's: the tendon's).
template <class V>
inline V friction_R(const KFriction<ScalarOf<V>>& F, const ConstraintLanes& CL) {
  if (!CL.rows) return V(F.R);
  const int slot = F.tendon >= 0 ? CL.slots.tendon(F.tendon) : CL.slots.dof(F.dof);
  return lanewise<V>([&](int l) { return constant_imp_R(F.imp0, CL.at(slot, l)); });
}

/// An equality's diagA per lane: a joint coupling's the sum of its dofs' invweight0 (both parts);
/// a connect or weld's the sum of its bodies' translational (tran) and rotational (rot) ones.
template <class V>
inline void equality_diagA(const KEquality<ScalarOf<V>>& e, const ConstraintLanes& CL, V& tran, V& rot) {
  if (!CL.rows) {
    tran = V(e.diagA_tran), rot = V(e.diagA_rot);
    return;
  }
  const ConstraintLaneSlots& S = CL.slots;
  if (e.type == EqualityType::Joint) {
    tran = rot = lanewise<V>([&](int l) {
      double dA = CL.at(S.dof(e.dof1), l);
      if (e.dof2 >= 0) dA += CL.at(S.dof(e.dof2), l);
      return dA;
    });
    return;
  }
  auto weight = [&](int part, int l) {
    const double w1 = e.body1 >= 0 ? CL.at(S.body(e.body1, part), l) : 0.0;
    const double w2 = e.body2 >= 0 ? CL.at(S.body(e.body2, part), l) : 0.0;
    return w1 + w2;
  };
  tran = lanewise<V>([&](int l) { return weight(0, l); });
  rot = lanewise<V>([&](int l) { return weight(1, l); });
}

/// PGS's improvement scale 1/(meaninertia·nv) in lane l (the model's when robots do not differ).
template <class T>
inline T pgs_scale(const KConstraints<T>& KC, const ConstraintLanes& CL, int nv, int l) {
  const double meaninertia = CL.rows ? CL.at(CL.slots.meaninertia(), l) : KC.meaninertia;
  return T(1) / (T(meaninertia) * T(nv > 1 ? nv : 1));
}

} // namespace ACH_ISA_NS
} // namespace ach
