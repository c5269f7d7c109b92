// The constraint stages of one acceleration evaluation, after forward dynamics left qacc_smooth:
// MuJoCo's mj_collision (poses, broad and narrow phase), the adhesion actuators' forces on the contacts
// (mj_transmission's mjTRN_BODY, added to qacc_smooth), mj_makeConstraint (the rows, in MuJoCo's
// order: equality, dry friction, limits, contacts) and mj_fwdConstraint (the CG, Newton or PGS solve,
// then the noslip post-solve when the model asks for it).
#pragma once

#include "../isa_namespace.hpp"

#include "../actuators/adhesion.hpp"
#include "../collision/collide.hpp"
#include "../constraint/solver/noslip.hpp"
#include "../constraint/solver/solve.hpp"
#include "block_scratch.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Detection, rows and the solve at (q, v) after forward_dynamics left qacc_smooth in `a`
/// (and the ABA factors in JointWork): `a` becomes the constrained acceleration.
template <class V>
inline void constrain(const KModel<ScalarOf<V>>& M, const KCollision<ScalarOf<V>>& C, const KConstraints<ScalarOf<V>>& KC, BlockScratch<V>& sc,
                      const V* q, const V* v, V* a, int iterations, bool warm) {
  ConstraintWork<V>& cw = sc.cw;
  cw.nused = cw.npts = cw.neq_used = cw.nfric_used = cw.first_contact_used = 0; // pack_rows sets the last four when there are rows
  // mj_collision: poses of bodies and shapes, the broad phase (the block's pairs and their row
  // slots, before any row is written: the slots may be carved afresh); each pair's narrow phase runs
  // as its rows are built
  pass_pose(M, sc.s.W, sc.X_WB);
  pass_shape_poses(C, sc.X_WB, sc.X_WS);
  list_contact_pairs(M, KC, C, sc.X_WS, sc.bp, cw);
  // mj_makeConstraint
  if (!KC.equalities.empty()) build_equality_rows(M, KC, sc.s.W, sc.X_WB, q, v, cw.tw.m, cw.eqj, cw);
  build_friction_rows(KC, v, cw);
  build_limit_rows(KC, q, v, cw);
  build_contact_rows(C, sc.s.W, sc.X_WB, sc.X_WS, sc.bp, cw);
  // mj_transmission's body transmissions read these contacts; their forces join qacc_smooth (adhesion.hpp)
  if (sc.adhesion) apply_adhesion(M, *sc.s.F, sc.s.W, sc.X_WB, cw, sc.s.u, sc.qfrc_adhesion, a);
  if (cw.nused == 0) return;
  // mj_fwdConstraint
  for (int k = 0; k < M.nv; ++k) cw.a0[k] = a[k];
  solve_constraints(M, KC, sc.s.W, cw, iterations, warm);        // CG, Newton or PGS (constraint/solver/solve.hpp)
  if (KC.noslip_iterations > 0) solve_noslip(M, KC, sc.s.W, cw); // MuJoCo's noslip, then mj_dualFinish
  for (int k = 0; k < M.nv; ++k) a[k] = cw.a[k];
}

/// A contact slot's force and torque in its frame (MuJoCo's mj_contactForce): the elliptic cone's
/// rows as they are; the pyramid's decoded (mju_decodePyramid): normal Σ f_e, then
/// per friction direction k (t1, t2, spin, roll t1, roll t2 up to condim − 1) (f_2k − f_2k+1)·μ_k;
/// the directions the condim lacks get 0.
template <class V>
inline void decode_point_force(int p, int i, const ConstraintWork<V>& cw, V* f) {
  using T = ScalarOf<V>;
  const KContactPair<T>& P = cw.pair[p];
  for (int k = 0; k < 6; ++k) f[k] = V(T(0));
  if (i >= P.points) return; // a slot the pair has no rows for
  const int row = cw.pair_row[p] + i * P.rows;
  const MaskOf<V> on = cw.point_on[p * kPairPoints + i];
  if (P.rows == 1 || P.elliptic) { // frictionless, or the elliptic cone's rows: the frame's forces already
    for (int k = 0; k < P.rows; ++k) f[k] = vselect(on, cw.force[row + k], V(T(0)));
    return;
  }
  const V* e = cw.force + row;
  V fn = e[0] + e[1] + e[2] + e[3];
  for (int k = 4; k < P.rows; ++k) fn += e[k];
  f[0] = vselect(on, fn, V(T(0)));
  const PairLanes<V>& PL = cw.pair_lanes[p];
  const V mu[5] = {PL.mu, PL.mu, PL.mu_spin, PL.mu_roll, PL.mu_roll};
  for (int k = 0; 2 * k < P.rows; ++k) f[1 + k] = vselect(on, (e[2 * k] - e[2 * k + 1]) * mu[k], V(T(0)));
}

} // namespace ACH_ISA_NS
} // namespace ach
