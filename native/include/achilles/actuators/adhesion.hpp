// MuJoCo's body transmission (mjTRN_BODY, an <adhesion> actuator; engine_core_smooth.c mj_transmission):
// an actuator that pulls a body onto whatever its shapes touch. Over the N contacts of the body's shapes
// detected at this state — those with rows (dist < margin) and those inside the gap (margin <= dist <
// margin + gap, which MuJoCo lists with exclude = 1 and no row) — its moment is
//
//   moment = −(1/N)·Σ_c J_n,c,   J_n,c·q̇ = n_c·(v_b(p_c) − v_a(p_c))   (the contact's normal row, n from a to b)
//
// (for a pyramid MuJoCo averages the 2(condim − 1) edge rows with weight 1/(2(condim − 1)) each, which is J_n:
// the edges' ±μ·J_t cancel), and τ += momentᵀ·force with force = gainprm₀·u (clamped; forces.hpp). So the
// contact's bodies get the forces ∓(force/N)·n at p_c: b, which the normal points to, is pulled back to
// a, and a to b. N = 0: the moment is 0. Contacts enter qfrc_smooth, so the detection comes first: the
// kernel runs this after mj_collision, before the solve, and adds M⁻¹·τ_adhesion to qacc_smooth (the
// same q̈ as an ABA with the force in τ: M⁻¹ is linear).
#pragma once

#include "../isa_namespace.hpp"

#include "../bugs.hpp"
#include "../collision/collide.hpp"
#include "../contact/tree.hpp"
#include "../contact/work.hpp"
#include "forces.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// τ_adhesion (length nv, written) of every body-transmission actuator at this state, from the pairs and
/// manifolds of cw (build_contact_rows ran), the body poses X_WB, the controls u; then a += M⁻¹·τ_adhesion
/// from the factors of the ABA that made a (qacc_smooth). Uses cw.F and cw.tw as scratch.
template <class V>
inline void apply_adhesion(const KModel<ScalarOf<V>>& M, const KForces<ScalarOf<V>>& F, const JointWork<V>* W, const Transform<V>* X_WB,
                           ConstraintWork<V>& cw, const V* u, V* qfrc, V* a) {
  using T = ScalarOf<V>;
  const int n = static_cast<int>(M.joints.size());
  const V zero(T(0)), one(T(1));
  for (int k = 0; k < M.nv; ++k) qfrc[k] = zero;
  for (int i = 0; i < n; ++i) cw.F[i] = zero_force<V>();
  bool any = false;
  for (int ai = 0; ai < F.nu; ++ai) {
    const KActuator<T>& A = F.act[ai];
    if (!A.on_body) continue;
    const int B = A.trn_body;
    // N per lane: the detected points of the pairs with a shape of B (two shapes of one body never pair)
    V count = zero;
    for (int p = 0; p < cw.npairs; ++p) {
      const KContactPair<T>& P = cw.pair[p];
      if (P.body_a != B && P.body_b != B) continue;
      for (int i = 0; i < P.points; ++i) count += vselect(cw.mf[p].on[i], one, zero);
    }
    const MaskOf<V> touching = count > zero;
    if (!vany(touching)) continue;
    any = true;
    // force/N: MuJoCo's actuator_force times its moment's 1/N (force as forces.hpp computes it)
    V force = general_force(A.gen, F.lanes, A.slot, u[ai], u[ai], u[ai], zero, zero);
    if (A.clamp_force) force = vclamp(force, V(A.force_lo), V(A.force_hi));
    // the moment's sign: −J_n, the pull (the planted bug: +J_n, a push)
    const V per = vselect(touching, (ACH_BUG(AdhesionPushes) ? force : -force) / vselect(touching, count, one), zero);
    for (int p = 0; p < cw.npairs; ++p) {
      const KContactPair<T>& P = cw.pair[p];
      if (P.body_a != B && P.body_b != B) continue;
      const Manifold<V>& m = cw.mf[p];
      for (int i = 0; i < P.points; ++i) {
        if (!vany(m.on[i])) continue;
        // the normal force λ·n on b, −λ·n on a at p (lanes without the point: zeros, whatever the manifold holds there)
        const MaskOf<V>& on = m.on[i];
        const Vec3<V> f{vselect(on, per * m.n[i].x, zero), vselect(on, per * m.n[i].y, zero), vselect(on, per * m.n[i].z, zero)};
        const Vec3<V> pos{vselect(on, m.pos[i].x, zero), vselect(on, m.pos[i].y, zero), vselect(on, m.pos[i].z, zero)};
        // a body's wrench in its frame: (r × f_B, f_B), r and f_B = R_WBᵀ·(p − o), R_WBᵀ·f
        const auto add = [&](int body, const Vec3<V>& fw) {
          const Vec3<V> fb = mulT(X_WB[body].R, fw), r = mulT(X_WB[body].R, pos - X_WB[body].p);
          cw.F[body] = Force<V>{cw.F[body].n + cross(r, fb), cw.F[body].f + fb};
        };
        if (P.body_b >= 0) add(P.body_b, f);
        if (P.body_a >= 0) add(P.body_a, Vec3<V>{-f.x, -f.y, -f.z});
      }
    }
  }
  if (!any) return;
  pass_wrench_to_joints(M, W, cw.F, qfrc);
  // qacc_smooth += M⁻¹·τ_adhesion (cw.tmp holds the product)
  solve_M(M, W, cw.tw, qfrc, cw.tmp);
  for (int k = 0; k < M.nv; ++k) a[k] += cw.tmp[k];
}

} // namespace ACH_ISA_NS
} // namespace ach
