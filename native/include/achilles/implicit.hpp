// MuJoCo's implicitfast integrator (engine_forward.c mj_implicitSkip, engine_derivative.c
// mjd_smooth_vel with flg_bias = 0): the step's acceleration solves
//
//   (M − h·qDeriv)·q̈ = qfrc_smooth + qfrc_constraint,     qDeriv = ∂(qfrc_actuator + qfrc_passive)/∂q̇
//
// without the derivative of the bias forces (RNE: Coriolis, centrifugal), which makes qDeriv
// symmetric here, and then advances as semi-implicit Euler (mj_advance: act as Euler's). qDeriv is
//
//   dof damping            −damping on the diagonal                  (mjd_passive_vel)
//   actuator a on joint j  gear²·(biasprm₂ + gainprm₂·input) on j's dof (mjd_actuator_vel: affine bias
//                          and gain; servos as MuJoCo writes them, bias [0, −kp, −kv] or [0, 0, −kv];
//                          input = ctrl, or act (its next value with actearly); skipped in a lane
//                          where forcerange clamps the force: force <= lo or force >= hi)
//   fixed tendon t         −damping_t·c_t c_tᵀ (c_t the tendon's coefficients)  (mjd_passive_vel)
//   actuator a on tendon t d_a·m_a m_aᵀ, m_a = gear₀·c_t its moment, d_a = biasprm₂ + gainprm₂·input as above
//                          (mjd_actuator_vel: momentᵀ·d·moment; per lane, 0 where forcerange clamps)
//
// and a standalone free body (a root free joint with nothing of mass or motion below it) solves its
// own 6×6 block with the derivative of its bias force added back (mjd_freeMhat: A = M − h·qDeriv
// + h·∂qfrc_bias/∂q̇, the gyroscopic and centripetal terms of its rotational dofs; not symmetric).
//
// How the engine solves it: the diagonal part (dof damping in the joints' constant d_step as
// semi-implicit Euler's; the actuators' terms per lane in `diag`) and the free bodies' blocks enter
// the ABA's D (aba.hpp StepExtra), which then runs on M + those; the damped tendons' rank-one terms
// follow by Woodbury's identity with A = that matrix:
//
//   x = x₀ − Y·S⁻¹·Cᵀx₀,   x₀ = A⁻¹f,  Y = A⁻¹C,  S = diag(1/(h·b_t)) + CᵀY
//
// (A⁻¹ from the same ABA's factors, contact/tree.hpp solve_M; S is SPD, solved without pivoting).
// The tendon actuators' terms D_a·m_a m_aᵀ, D_a = −h·d_a, join as rows of the same system in the form
// that allows D_a = 0 (a lane where forcerange clamps): z_a = D_a·m_aᵀx, so their rows read
// D_a·m_aᵀY·z + z_a = D_a·m_aᵀx₀ (identity on the diagonal), and x = x₀ − Y·z over all columns. With
// D_a >= 0 every leading minor is positive (I + D·(a PSD Schur complement)), so no pivoting is needed.
#pragma once

#include "isa_namespace.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "aba.hpp"
#include "actuators/forces.hpp"
#include "bugs.hpp"
#include "contact/tree.hpp"
#include "engine.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// A standalone free body: its joint, mass, CoM and inertia about the CoM (body axes: xx yy zz xy xz yz).
template <class T>
struct KFreeBody {
  int joint, qoff, voff;
  T mass, com[3], I[6];
};

/// Whether joints i and j lie on one path from the root (one is the other's ancestor, or they are
/// one). MuJoCo stores qDeriv with M's sparsity, which holds only such pairs: a rank-one term
/// m mᵀ across dofs of two branches loses its cross terms there (addJTBJSparse writes none).
inline bool joints_on_one_path(const Model& m, int i, int j) {
  for (int k = i; k >= 0; k = m.joints[k].parent)
    if (k == j) return true;
  for (int k = j; k >= 0; k = m.joints[k].parent)
    if (k == i) return true;
  return false;
}

/// A velocity-dependent actuator on a tendon under implicitfast: the engine adds its term as the whole
/// rank-one m mᵀ, which is MuJoCo's only when every pair of the tendon's joints lies on one path.
inline void check_tendon_actuator_implicit(const Model& m, const Actuator& a) {
  const Tendon& t = m.tendons[a.tendon];
  for (std::size_t x = 0; x < t.joints.size(); ++x)
    for (std::size_t y = x + 1; y < t.joints.size(); ++y)
      if (!joints_on_one_path(m, t.joints[x], t.joints[y]))
        throw std::invalid_argument(
            "actuator '" + a.name + "': a velocity-dependent actuator on tendon '" + t.name + "' under implicitfast, whose joints '" +
            m.joints[t.joints[x]].name + "' and '" + m.joints[t.joints[y]].name +
            "' lie on different branches of the tree: MuJoCo's qDeriv (M's sparsity) drops their cross term, which the engine does not "
            "(use Euler or RK4, or a tendon whose joints lie on one chain)");
}

/// What implicitfast reads of the model (constants, built once).
template <class T>
struct KImplicit {
  bool on = false;    // the integrator is implicitfast
  bool solve = false; // M − h·qDeriv (or a free body's block) can differ from M: the step solves with it
  std::vector<KFreeBody<T>> free;
  std::vector<int> free_slot;        // per joint: index into `free`, or −1
  std::vector<int> tendons;          // indices into KForces::tendons of the damped tendons
  std::vector<int> tendon_actuators; // indices into KForces::act of the tendon actuators whose force depends on the velocity
  bool actuators = false;            // some joint actuator's force depends on the velocity
  /// The Woodbury columns: the damped tendons', then the tendon actuators'.
  std::size_t columns() const { return tendons.size() + tendon_actuators.size(); }

  KImplicit(const Model& model, const KForces<T>& F, bool implicitfast) : on(implicitfast) {
    const int n = static_cast<int>(model.joints.size());
    free_slot.assign(n, -1);
    if (!on) return;
    // a root free joint whose descendants all have no mass and no dofs (MuJoCo's mj_isFreeBody)
    std::vector<bool> loaded(n, false); // a descendant (or the joint itself, below a root) has mass or dofs
    for (int i = n - 1; i >= 0; --i) {
      const Joint& j = model.joints[i];
      if (j.parent >= 0 && (loaded[i] || j.mass != 0 || j.nv != 0)) loaded[j.parent] = true;
    }
    for (int i = 0; i < n; ++i) {
      const Joint& j = model.joints[i];
      if (j.type != JointType::Free || j.parent >= 0 || loaded[i]) continue;
      KFreeBody<T> b{};
      b.joint = i;
      b.qoff = j.qoff;
      b.voff = j.voff;
      b.mass = T(j.mass);
      for (int e = 0; e < 3; ++e) b.com[e] = T(j.com[e]);
      for (int e = 0; e < 6; ++e) b.I[e] = T(j.I_com[e]);
      free_slot[i] = static_cast<int>(free.size());
      free.push_back(b);
    }
    for (std::size_t t = 0; t < F.tendons.size(); ++t)
      if (F.tendons[t].damping != 0) tendons.push_back(static_cast<int>(t));
    for (std::size_t a = 0; a < F.act.size(); ++a) {
      const auto& A = F.act[a];
      bool velocity = false;
      if (A.kind == ActuatorKind::Position || A.kind == ActuatorKind::Velocity) velocity = A.kv != 0;
      if (A.kind == ActuatorKind::General)
        velocity = (A.gen.bias == BiasType::Affine && A.gen.biasprm[2] != 0) || (A.gen.gain == GainType::Affine && A.gen.gainprm[2] != 0);
      if (velocity && A.on_tendon) {
        check_tendon_actuator_implicit(model, model.actuators[a]);
        tendon_actuators.push_back(static_cast<int>(a));
      } else
        actuators = actuators || velocity;
    }
    bool damping = false;
    for (const Joint& j : model.joints) damping = damping || j.damping != 0;
    solve = damping || actuators || !free.empty() || columns() != 0;
  }
};

/// One block's implicitfast scratch: D's per-lane additions, the tree products' temporaries and
/// Woodbury's Y (nv per damped tendon), S and vectors.
template <class V>
struct ImplicitWork {
  V* diag; // nv
  V* free; // 36 per free body
  TreeWork<V> tw;
  V* Y;    // nv × k
  V* S;    // k × k
  V* c;    // nv
  V* z;    // k
  V* dact; // per tendon actuator: D_a = −h·d_a
  StepExtra<V> extra;

  static std::size_t bytes_needed(const KModel<ScalarOf<V>>& M, const KImplicit<ScalarOf<V>>& I) {
    if (!I.on) return 0;
    const std::size_t n = M.joints.size(), nv = M.nv + 1, k = I.columns() + 1;
    return (nv + 36 * (I.free.size() + 1) + nv * k + k * k + nv + 2 * k) * sizeof(V) + n * (sizeof(Motion<V>) + sizeof(Force<V>)) + 9 * 64;
  }
  template <class Arena>
  void carve(Arena& arena, const KModel<ScalarOf<V>>& M, const KImplicit<ScalarOf<V>>& I) {
    const std::size_t n = M.joints.size() ? M.joints.size() : 1, nv = M.nv ? M.nv : 1, k = I.columns() ? I.columns() : 1;
    diag = arena.template take<V>(nv);
    free = arena.template take<V>(36 * (I.free.size() ? I.free.size() : 1));
    tw.m = arena.template take<Motion<V>>(n);
    tw.f = arena.template take<Force<V>>(n);
    Y = arena.template take<V>(nv * k);
    S = arena.template take<V>(k * k);
    c = arena.template take<V>(nv);
    z = arena.template take<V>(k);
    dact = arena.template take<V>(k);
    extra = {diag, free, I.free_slot.data()};
  }
};

/// ∂qfrc_actuator/∂q̇ of actuator A on its (one) dof, before the gear²: MuJoCo's bias_vel +
/// gain_vel·input, 0 where the force is clamped by forcerange.
template <class V>
inline V actuator_velocity_derivative(const KActuator<ScalarOf<V>>& A, const ScalarOf<V>* lanes, const V& u, const V* act, const V* act_dot,
                                      const V& force) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  V d = zero;
  if (A.kind == ActuatorKind::Position || A.kind == ActuatorKind::Velocity) {
    d = -lane_value<V>(lanes, A.slot + LaneSlots::Kv);
  } else if (A.kind == ActuatorKind::General) {
    const KGeneral<T>& G = A.gen;
    if (G.bias == BiasType::Affine) d = lane_value<V>(lanes, A.slot + LaneSlots::Bias + 2);
    if (G.gain == GainType::Affine && G.gainprm[2] != 0) {
      V input = u;
      if (G.act_adr >= 0) input = G.act_early ? next_activation(G, act[G.act_adr], act_dot[G.act_adr]) : act[G.act_adr];
      d = d + lane_value<V>(lanes, A.slot + LaneSlots::Gain + 2) * input;
    }
  }
  if (A.clamp_force) d = vselect(vor(force <= V(A.force_lo), force >= V(A.force_hi)), zero, d);
  return d;
}

/// h·∂qfrc_bias/∂q̇ of a standalone free body (mjd_freeBias_vel), added to its D block (row-major 6×6,
/// dofs [v_W; ω_B]). In body axes (ω, s = CoM, I about the CoM): K = s ωᵀ − (ω·s)·1 + [ω × s]ₓ,
/// linear rows ∂f/∂ω = −m·R·K, rotational rows −m [s]ₓ K + [ω]ₓ I − [I ω]ₓ; the linear columns are 0.
template <class V>
inline void free_bias_derivative(const KFreeBody<ScalarOf<V>>& B, const ScalarOf<V>* lanes, const V* q, const V* qd, const V& h, V* A) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  const Mat3<V> R = quat_to_matrix(normalized(load_quat(q + B.qoff + 3)));
  const V w[3] = {qd[B.voff + 3], qd[B.voff + 4], qd[B.voff + 5]};
  // the body's mass, CoM and inertia about it: each lane its robot's (lane_values.hpp)
  auto at = [&](int slot) { return lane_value<V>(lanes, slot); };
  const V s[3] = {at(LaneSlots::com(B.joint, 0)), at(LaneSlots::com(B.joint, 1)), at(LaneSlots::com(B.joint, 2))};
  const V m = at(LaneSlots::mass(B.joint));
  const V Ic[6] = {at(LaneSlots::I_com(B.joint, 0)), at(LaneSlots::I_com(B.joint, 1)), at(LaneSlots::I_com(B.joint, 2)),
                   at(LaneSlots::I_com(B.joint, 3)), at(LaneSlots::I_com(B.joint, 4)), at(LaneSlots::I_com(B.joint, 5))};
  const V I[9] = {Ic[0], Ic[3], Ic[4], Ic[3], Ic[1], Ic[5], Ic[4], Ic[5], Ic[2]};
  const V ws[3] = {w[1] * s[2] - w[2] * s[1], w[2] * s[0] - w[0] * s[2], w[0] * s[1] - w[1] * s[0]};
  const V Iw[3] = {I[0] * w[0] + I[1] * w[1] + I[2] * w[2], I[3] * w[0] + I[4] * w[1] + I[5] * w[2], I[6] * w[0] + I[7] * w[1] + I[8] * w[2]};
  const V wds = w[0] * s[0] + w[1] * s[1] + w[2] * s[2];
  const V K[9] = {s[0] * w[0] - wds,   s[0] * w[1] - ws[2], s[0] * w[2] + ws[1], s[1] * w[0] + ws[2], s[1] * w[1] - wds,
                  s[1] * w[2] - ws[0], s[2] * w[0] - ws[1], s[2] * w[1] + ws[0], s[2] * w[2] - wds};
  for (int k = 0; k < 36; ++k) A[k] = zero;
  const V hm = -(h * m);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      // lin = R·K
      const V lin = R.m[r * 3 + 0] * K[c] + R.m[r * 3 + 1] * K[3 + c] + R.m[r * 3 + 2] * K[6 + c];
      A[r * 6 + 3 + c] = hm * lin;
      // C = −m [s]ₓ K + [ω]ₓ I − [I ω]ₓ
      const int r1 = (r + 1) % 3, r2 = (r + 2) % 3;
      const V sK = s[r1] * K[r2 * 3 + c] - s[r2] * K[r1 * 3 + c];
      const V wI = w[r1] * I[r2 * 3 + c] - w[r2] * I[r1 * 3 + c];
      // −[a]ₓ(r, c): a_{r2} at c = r1, −a_{r1} at c = r2
      const V Iwx = c == r1 ? Iw[r2] : (c == r2 ? -Iw[r1] : zero);
      A[(3 + r) * 6 + 3 + c] = h * ((wI - m * sK) + Iwx);
    }
}

/// Fill D's per-lane additions at (q, q̇) with the step's controls and activations: the actuators'
/// −h·gear²·∂force/∂ℓ̇ per dof, and each free body's block (h·damping of free and other dofs is in d_step).
template <class V>
inline void implicit_terms(const KImplicit<ScalarOf<V>>& I, const KForces<ScalarOf<V>>& F, ImplicitWork<V>& w, int nv, const V* q, const V* qd,
                           const V* u, const V* act, const V* act_dot, const V* force, const V& h) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  for (int k = 0; k < nv; ++k) w.diag[k] = zero;
  if (I.actuators && !ACH_BUG(ImplicitDerivativeDropped))
    for (int a = 0; a < F.nu; ++a) {
      const auto& A = F.act[a];
      if (A.kind == ActuatorKind::Motor || A.on_tendon) continue;
      const V d = actuator_velocity_derivative(A, F.lanes, u[a], act, act_dot, force[a]);
      const V g(A.gear[0]);
      w.diag[A.voff] -= h * ((g * d) * g);
    }
  // the tendon actuators' rank-one weights D_a = −h·d_a (implicit_tendons)
  for (std::size_t i = 0; i < I.tendon_actuators.size(); ++i) {
    const int a = I.tendon_actuators[i];
    const V d = ACH_BUG(ImplicitDerivativeDropped) ? zero : actuator_velocity_derivative(F.act[a], F.lanes, u[a], act, act_dot, force[a]);
    w.dact[i] = -(h * d);
  }
  for (std::size_t b = 0; b < I.free.size(); ++b) free_bias_derivative(I.free[b], F.lanes, q, qd, h, w.free + 36 * b);
}

/// x ← (A + Σ_t h·b_t c_t c_tᵀ + Σ_a D_a m_a m_aᵀ)⁻¹ f from x = A⁻¹ f, A the matrix of the ABA just run
/// (its factors in W): the damped tendons' columns, then the tendon actuators'.
template <class V>
inline void implicit_tendons(const KModel<ScalarOf<V>>& M, const KImplicit<ScalarOf<V>>& I, const KForces<ScalarOf<V>>& F, const JointWork<V>* W,
                             ImplicitWork<V>& w, const V& h, V* x) {
  using T = ScalarOf<V>;
  const int kt = static_cast<int>(I.tendons.size()), k = static_cast<int>(I.columns()), nv = M.nv;
  if (k == 0) return;
  const V zero(T(0));
  // Y_t = A⁻¹ c_t;  S = diag(1/(h·b_t)) + CᵀY;  z = Cᵀx
  for (int t = 0; t < kt; ++t) {
    const auto& P = F.tendons[I.tendons[t]];
    for (int e = 0; e < nv; ++e) w.c[e] = zero;
    for (std::size_t e = 0; e < P.dof.size(); ++e) w.c[P.dof[e]] += V(P.coef[e]);
    solve_M(M, W, w.tw, w.c, w.Y + t * nv);
  }
  for (int t = kt; t < k; ++t) {
    const auto& A = F.act[I.tendon_actuators[t - kt]];
    for (int e = 0; e < nv; ++e) w.c[e] = zero;
    for (std::size_t e = 0; e < A.trn_dof.size(); ++e) w.c[A.trn_dof[e]] += V(A.trn_moment[e]);
    solve_M(M, W, w.tw, w.c, w.Y + t * nv);
  }
  // the actuators' rows: D_a·m_aᵀY·z + z_a = D_a·m_aᵀx₀
  for (int r = kt; r < k; ++r) {
    const auto& A = F.act[I.tendon_actuators[r - kt]];
    const V D = w.dact[r - kt];
    const auto mdot = [&](const V* y) {
      V s = V(A.trn_moment[0]) * y[A.trn_dof[0]];
      for (std::size_t e = 1; e < A.trn_dof.size(); ++e) s += V(A.trn_moment[e]) * y[A.trn_dof[e]];
      return s;
    };
    for (int c = 0; c < k; ++c) w.S[r * k + c] = D * mdot(w.Y + c * nv);
    w.S[r * k + r] += T(1);
    w.z[r] = D * mdot(x);
  }
  for (int r = 0; r < kt; ++r) {
    const auto& P = F.tendons[I.tendons[r]];
    const auto cdot = [&](const V* y) {
      V s = V(P.coef[0]) * y[P.dof[0]];
      for (std::size_t e = 1; e < P.dof.size(); ++e) s += V(P.coef[e]) * y[P.dof[e]];
      return s;
    };
    for (int c = 0; c < k; ++c) w.S[r * k + c] = cdot(w.Y + c * nv);
    w.S[r * k + r] += T(1) / (h * V(P.damping));
    w.z[r] = cdot(x);
  }
  // z ← S⁻¹ z (Gaussian elimination, no pivoting: the tendons' block is SPD, the actuators' rows see above)
  for (int p = 0; p < k; ++p) {
    const V inv = T(1) / w.S[p * k + p];
    for (int r = p + 1; r < k; ++r) {
      const V f = w.S[r * k + p] * inv;
      for (int c = p; c < k; ++c) w.S[r * k + c] -= f * w.S[p * k + c];
      w.z[r] -= f * w.z[p];
    }
  }
  for (int p = k - 1; p >= 0; --p) {
    V s = w.z[p];
    for (int c = p + 1; c < k; ++c) s -= w.S[p * k + c] * w.z[c];
    w.z[p] = s / w.S[p * k + p];
  }
  for (int t = 0; t < k; ++t)
    for (int e = 0; e < nv; ++e) x[e] -= w.Y[t * nv + e] * w.z[t];
}

} // namespace ACH_ISA_NS
} // namespace ach
