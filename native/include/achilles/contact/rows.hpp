// The constraint rows at one state (MuJoCo's mj_instantiateEquality (equality.hpp), mj_instantiateLimit, mj_instantiateContact,
// mj_diagApprox, mj_makeImpedance, mj_referenceConstraint), for one block of lanes.
//
//   limit, lower side:  dist = q − lo,  J = +e_dof;   upper side: dist = hi − q,  J = −e_dof
//   tendon limit:       the same with the tendon's length L and moment J_T (contact/tendon.hpp),
//                       diagA = tendon_invweight0; tendon dry friction: J = J_T, aref = −B·L̇
//   contact point:      dist from the narrow phase, on while dist < margin (includemargin);
//                       frame (n, t1, t2) as mju_makeFrame: t1 = the capsule axis on a plane, else
//                       (0,1,0) — (0,0,1) when |n_y| ≥ 0.5 — made orthogonal to n; t2 = n × t1;
//                       pyramid rows J_n + μJ_t1, J_n − μJ_t1, J_n + μJ_t2, J_n − μJ_t2 (condim 3),
//                       then J_n ± μ_spin·J_spin (condim 4) and J_n ± μ_roll·J_roll1, J_roll2 (condim 6),
//                       or J_n (condim 1); elliptic cone: J_n, J_t1, J_t2, J_spin, J_roll1, J_roll2 (cone.hpp);
//                       J_d·x = d·(v_b(p) − v_a(p)) with the normal from a to b,
//                       J_spin, J_roll: n, t1, t2 ·(ω_b − ω_a).
// A point's J is kept per body, in the body's frame (point_jacobian.hpp): J·x then reads the body
// motions of x, and Jᵀ·f is a sweep of wrenches to the root (tree.hpp).
#pragma once

#include "../isa_namespace.hpp"

#include "../vmath.hpp"
#include "../collision/broad_phase.hpp"
#include "ball_limit.hpp"
#include "cone.hpp"
#include "work.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// MuJoCo's mju_normalize3: a / |a|, or (1, 0, 0) when |a| < mjMINVAL (as for a capsule standing
/// on a plane, whose axis made orthogonal to the normal is 0).
template <class V>
inline Vec3<V> normalize3(const Vec3<V>& a) {
  using T = ScalarOf<V>;
  const V norm = vsqrt(dot(a, a));
  const MaskOf<V> tiny = norm < V(T(kMinVal));
  const V inv = T(1) / vselect(tiny, V(T(1)), norm);
  return {vselect(tiny, V(T(1)), a.x * inv), vselect(tiny, V(T(0)), a.y * inv), vselect(tiny, V(T(0)), a.z * inv)};
}

/// mju_makeFrame: t1 from the collider's tangent (has_tangent) or the default axis, t2 = n × t1.
template <class V>
inline void make_frame(const Vec3<V>& n, bool has_tangent, const Vec3<V>& tangent, Vec3<V>& t1, Vec3<V>& t2) {
  using T = ScalarOf<V>;
  Vec3<V> y;
  if (has_tangent) {
    y = tangent;
  } else {
    const MaskOf<V> mid = vand(n.y<V(T(0.5)), n.y> V(T(-0.5)));
    y = {V(T(0)), vselect(mid, V(T(1)), V(T(0))), vselect(mid, V(T(0)), V(T(1)))};
  }
  const V s = dot(n, y);
  t1 = normalize3(y - s * n);
  if (ACH_BUG(ContactTangentFrame)) { // the planted bug: the frame turned 45° about n
    const Vec3<V> u = cross(n, t1);
    t1 = normalize3(t1 + u);
  }
  t2 = cross(n, t1);
}

/// Impedance, R, D and a_ref of one row (all share the point's imp, K and B).
template <class V>
inline void soft_row(ConstraintWork<V>& cw, int r, const V& imp, const V& Rrow, const V& K, const V& B, const V& dist, const V& margin,
                     const V& vel) {
  using T = ScalarOf<V>;
  cw.imp[r] = imp;
  cw.R[r] = ACH_BUG(ContactRDropped) ? V(T(kMinVal)) : Rrow;
  cw.D[r] = T(1) / cw.R[r];
  cw.dist[r] = dist;
  cw.vel[r] = vel;
  const V damping = ACH_BUG(ArefDampingSign) ? B * vel : -(B * vel);
  cw.aref[r] = damping - K * imp * (dist - margin);
  // lanes where the row is off keep finite numbers (they are masked, never multiplied in)
  const MaskOf<V>& on = cw.on[r];
  cw.R[r] = vselect(on, cw.R[r], V(T(1)));
  cw.D[r] = vselect(on, cw.D[r], V(T(1)));
  cw.aref[r] = vselect(on, cw.aref[r], V(T(0)));
  cw.vel[r] = vselect(on, vel, V(T(0)));
  cw.dist[r] = vselect(on, dist, V(T(0)));
  cw.imp[r] = vselect(on, imp, V(T(0)));
}

/// The equality rows (slots 0 .. KC.equality_rows, all on in every lane), from the joint work of the
/// evaluation (velocities, bias accelerations c) and the body poses X_WB.
template <class V>
inline void build_equality_rows(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, const Transform<V>* X_WB,
                                const V* q, const V* v, Motion<V>* bias, EqualityJ<V>* EJ, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  const V zero(T(0)), one(T(1)), half(T(0.5));
  if (KC.equality_bodies) // the bodies' bias accelerations: a_i = X a_parent + c_i
    for (std::size_t i = 0; i < M.joints.size(); ++i) {
      const auto& J = M.joints[i];
      bias[i] = J.parent >= 0 ? motion_to_child(J, W[i].X, bias[J.parent]) + W[i].c : W[i].c;
    }
  const Motion<V> none = zero_motion<V>();
  for (std::size_t k = 0; k < KC.equalities.size(); ++k) {
    const KEquality<T>& e = KC.equalities[k];
    EqualityJ<V>& J = EJ[k];
    const int r0 = e.row;
    for (int i = 0; i < e.rows; ++i) {
      cw.on[r0 + i] = mask_true<V>();
      cw.lim_sign[r0 + i] = T(1);
    }
    if (e.type == EqualityType::Joint) {
      const V y = q[e.qadr1];
      V pos, vel;
      if (e.dof2 >= 0) {
        const V d = q[e.qadr2] - V(e.ref2);
        // MuJoCo's sum: a1·d + a2·d·d + a3·d·d·d + a4·d·d·d·d, and its derivative
        V a[5];
        for (int i = 0; i < 5; ++i) a[i] = V(ACH_BUG(EqualityJointPolycoefOrder) ? e.poly[4 - i] : e.poly[i]); // planted: a4 .. a0
        pos = y - V(e.ref1) - a[0] - (a[1] * d + a[2] * d * d + a[3] * d * d * d + a[4] * d * d * d * d);
        const V deriv = a[1] + T(2) * a[2] * d + T(3) * a[3] * d * d + T(4) * a[4] * d * d * d;
        J.c = -deriv;
        vel = v[e.dof1] + J.c * v[e.dof2];
      } else {
        pos = y - V(e.ref1) - V(e.poly[0]);
        J.c = zero;
        vel = v[e.dof1];
      }
      const V imp = impedance(e.imp, pos, zero);
      V diagA, unused;
      equality_diagA(e, cw.lanes, diagA, unused);
      const V R = vmax(V(T(kMinVal)), (one - imp) * diagA / imp);
      soft_row(cw, r0, imp, R, V(e.K), V(e.B), pos, zero, vel);
      cw.used[cw.nused++] = r0;
      continue;
    }
    const Transform<V> I{identity3<V>(), {zero, zero, zero}};
    const Transform<V>& X1 = e.body1 >= 0 ? X_WB[e.body1] : I;
    const Transform<V>& X2 = e.body2 >= 0 ? X_WB[e.body2] : I;
    J.R1 = X1.R;
    J.R2 = X2.R;
    const Vec3<V> p1 = const_vec<V>(e.p1), p2 = const_vec<V>(e.p2);
    const Vec3<V> a1 = mul(X1.R, p1) + X1.p;
    // planted: body 2's anchor placed with body 1's frame
    const Vec3<V> a2 = ACH_BUG(EqualityConnectAnchorWrongBody) && e.type == EqualityType::Connect ? mul(X1.R, p2) + X1.p : mul(X2.R, p2) + X2.p;
    V pos[6] = {a1.x - a2.x, a1.y - a2.y, a1.z - a2.z, zero, zero, zero};
    const Motion<V>& v1 = e.body1 >= 0 ? W[e.body1].vel : none;
    const Motion<V>& v2 = e.body2 >= 0 ? W[e.body2].vel : none;
    Vec3<V> jdv{zero, zero, zero}, jdr{zero, zero, zero};
    if (e.body1 >= 0) jdv = point_bias_acc(X1.R, v1, bias[e.body1], p1);
    if (e.body2 >= 0) jdv = jdv - point_bias_acc(X2.R, v2, bias[e.body2], p2);
    if (e.type == EqualityType::Weld) {
      const Mat3<V> R1e = mul(X1.R, const_mat3<V>(e.Q1)), R2e = mul(X2.R, const_mat3<V>(e.Q2));
      const Mat3<V> R2eT = transpose3(R2e);
      V w;
      Vec3<V> u;
      rotation_quat(mul(R2eT, R1e), w, u);
      const V ts(e.torquescale);
      const V sgn = ACH_BUG(EqualityWeldOrientationSign) ? V(T(-1)) : one; // planted: the error's sign flipped
      pos[3] = sgn * ts * u.x, pos[4] = sgn * ts * u.y, pos[5] = sgn * ts * u.z;
      // G = ½·ts·(w·1 − [u]×)·R2eᵀ
      const V h = half * ts;
      const Mat3<V> A{{h * w, h * u.z, -(h * u.y), -(h * u.z), h * w, h * u.x, h * u.y, -(h * u.x), h * w}};
      const Mat3<V> G = mul(A, R2eT);
      J.G1 = mul(G, X1.R);
      J.G2 = mul(G, X2.R);
      // J̇·v of the rotation rows
      const Vec3<V> om1 = mul(X1.R, v1.w), om2 = mul(X2.R, v2.w);
      const Vec3<V> dw = om1 - om2;
      Vec3<V> ddw{zero, zero, zero};
      if (e.body1 >= 0) ddw = mul(X1.R, bias[e.body1].w);
      if (e.body2 >= 0) ddw = ddw - mul(X2.R, bias[e.body2].w);
      const V Pw = T(-0.5) * dot(dw, dw);
      const Vec3<V> Pv = mulT(R2e, ddw + half * cross(dw, om1 + om2));
      const Vec3<V> im = Pw * u + w * Pv + cross(Pv, u);
      jdr = h * im;
    }
    V vel[6];
    equality_times(e, J, v1, v2, v, vel);
    V n2 = pos[0] * pos[0];
    for (int i = 1; i < e.rows; ++i) n2 += pos[i] * pos[i];
    const V imp = impedance(e.imp, vsqrt(n2), zero);
    V diagA_tran, diagA_rot;
    equality_diagA(e, cw.lanes, diagA_tran, diagA_rot);
    const V Rt = vmax(V(T(kMinVal)), (one - imp) * diagA_tran / imp);
    const V Rr = vmax(V(T(kMinVal)), (one - imp) * diagA_rot / imp);
    const V jd[6] = {jdv.x, jdv.y, jdv.z, jdr.x, jdr.y, jdr.z};
    for (int i = 0; i < e.rows; ++i) {
      const int r = r0 + i;
      soft_row(cw, r, imp, i < 3 ? Rt : Rr, V(e.K), V(e.B), pos[i], zero, vel[i]);
      cw.aref[r] = cw.aref[r] - jd[i];
      cw.used[cw.nused++] = r;
    }
  }
}

/// Dry-friction rows: always on (MuJoCo's mj_instantiateFriction), aref = −B·v_dof (a tendon's: −B·L̇).
template <class V>
inline void build_friction_rows(const KConstraints<ScalarOf<V>>& KC, const V* v, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  for (int r = cw.neq_rows; r < cw.first_limit; ++r) {
    const KFriction<T>& F = KC.frictions[r - cw.neq_rows];
    cw.on[r] = mask_true<V>();
    cw.lim_sign[r] = T(1);
    const V vel = F.tendon < 0 ? v[F.dof] : tendon_dot(KC.tendons[F.tendon], v);
    soft_row(cw, r, V(F.imp), friction_R<V>(F, cw.lanes), V(T(0)), V(F.B), V(T(0)), V(T(0)), vel);
    cw.used[cw.nused++] = r;
  }
}

/// A ball joint's cone row (slot 2l; the slot 2l + 1 stays off): dist = hi − angle, J = −u.
template <class V>
inline void build_ball_limit_row(const KLimit<ScalarOf<V>>& L, int l, const V* q, const V* v, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  const int r = cw.first_limit + l * 2;
  cw.on[r + 1] = mask_false<V>();
  cw.lim_sign[r] = cw.lim_sign[r + 1] = T(1);
  Vec3<V> u;
  const V angle = ball_angle(q + L.qadr, u);
  const V dist = V(L.hi) - angle;
  cw.on[r] = dist < V(L.margin);
  const V z(T(0));
  const Vec3<V> J = ACH_BUG(BallLimitAxisSign) ? u : Vec3<V>{-u.x, -u.y, -u.z}; // planted: J = +u
  cw.ball_J[2 * l] = {vselect(cw.on[r], J.x, z), vselect(cw.on[r], J.y, z), vselect(cw.on[r], J.z, z)};
  if (!vany(cw.on[r])) return;
  const Vec3<V>& Jr = cw.ball_J[2 * l];
  const V vel = Jr.x * v[L.dof] + Jr.y * v[L.dof + 1] + Jr.z * v[L.dof + 2];
  const V imp = impedance(L.imp, dist, V(L.margin));
  const V R = vmax(V(T(kMinVal)), (T(1) - imp) * limit_diagA<V>(L, cw.lanes) / imp);
  soft_row(cw, r, imp, R, V(L.K), V(L.B), dist, V(L.margin), vel);
  cw.used[cw.nused++] = r;
}

/// Limit rows (joints, then tendons) from the joint positions q and velocities v.
template <class V>
inline void build_limit_rows(const KConstraints<ScalarOf<V>>& KC, const V* q, const V* v, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  for (std::size_t l = 0; l < KC.limits.size(); ++l) {
    const KLimit<T>& L = KC.limits[l];
    if (L.ball) {
      build_ball_limit_row(L, static_cast<int>(l), q, v, cw);
      continue;
    }
    const bool tendon = L.tendon >= 0;
    const V qv = tendon ? tendon_length(KC.tendons[L.tendon], q) : q[L.qadr];
    const V vv = tendon ? tendon_dot(KC.tendons[L.tendon], v) : v[L.dof];
    for (int side = 0; side < 2; ++side) {
      const int r = cw.first_limit + static_cast<int>(l) * 2 + side;
      const V dist = side == 0 ? qv - V(L.lo) : V(L.hi) - qv;
      const bool bug = tendon ? ACH_BUG(TendonLimitSign) : ACH_BUG(LimitSign); // planted: the upper side's J = +J
      const T sign = side == 0 ? T(1) : (bug ? T(1) : T(-1));
      cw.lim_sign[r] = sign;
      cw.on[r] = dist < V(L.margin);
      if (!vany(cw.on[r])) continue;
      const V imp = impedance(L.imp, dist, V(L.margin));
      const V R = vmax(V(T(kMinVal)), (T(1) - imp) * limit_diagA<V>(L, cw.lanes) / imp);
      soft_row(cw, r, imp, R, V(L.K), V(L.B), dist, V(L.margin), sign * vv);
      cw.used[cw.nused++] = r;
    }
  }
}

/// The block's contact pairs: the broad phase's (collision/broad_phase.hpp), with their constants
/// and row slots (P.points points × P.rows each, in pair order after the friction and limit rows).
template <class V>
inline void list_contact_pairs(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const KCollision<ScalarOf<V>>& C,
                               const Transform<V>* X_WS, BroadPhaseWork<V>& bp, ConstraintWork<V>& cw) {
  broad_phase(C, X_WS, bp);
  cw.npairs = static_cast<int>(bp.pairs.size());
  cw.reserve_pairs(M, KC, cw.npairs);
  int row = cw.first_contact;
  if (KC.dense) cw.pair_dof_start[0] = 0;
  const bool listed = C.listed; // bp.listed holds each pair's place in the list
  for (int p = 0; p < cw.npairs; ++p) {
    const KContactPair<ScalarOf<V>>& P = cw.pair[p] =
        listed ? KC.listed_pairs[bp.listed[p]] : KC.contact_pair(pair_a(bp.pairs[p]), pair_b(bp.pairs[p]));
    cw.pair_row[p] = row;
    for (int k = 0; k < P.points * P.rows; ++k) {
      cw.row_tree_a[row + k] = P.tree_a;
      cw.row_tree_b[row + k] = P.tree_b;
      cw.row_point[row + k - cw.first_contact] = p * kPairPoints + k / P.rows;
    }
    row += P.points * P.rows;
    if (!KC.dense) continue;
    int* dofs = cw.pair_dofs + cw.pair_dof_start[p];
    int n;
    if (listed) {
      const int k = bp.listed[p], b0 = KC.listed_dof_start[k];
      n = KC.listed_dof_start[k + 1] - b0;
      for (int e = 0; e < n; ++e) dofs[e] = KC.listed_dofs[b0 + e];
    } else {
      n = KC.contact_dofs(P.body_a, P.body_b, dofs);
    }
    cw.pair_dof_start[p + 1] = cw.pair_dof_start[p] + n;
  }
  cw.nrows = row;
}

/// Contact rows: detection at the shape poses X_WS (the pairs list_contact_pairs found, each in the
/// lanes where the broad phase found its boxes overlap), then the rows of every point within the margin.
template <class V>
inline void build_contact_rows(const KCollision<ScalarOf<V>>& C, const JointWork<V>* W, const Transform<V>* X_WB, const Transform<V>* X_WS,
                               const BroadPhaseWork<V>& bp, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  for (int p = 0; p < cw.npairs; ++p) {
    const KContactPair<T>& P = cw.pair[p];
    const KShape<T>& sa = C.shapes[P.shape_a];
    const KShape<T>& sb = C.shapes[P.shape_b];
    const int prow = cw.pair_row[p];
    Manifold<V>& m = cw.mf[p];
    narrow_pair<V>(sa.geom, X_WS[P.shape_a], sb.geom, X_WS[P.shape_b], C.pair_threshold(P.shape_a, P.shape_b), m);
    // a pair has rows for its first P.points slots only (a 4-slot pair's slot 4 is never on)
    for (int i = 0; i < kPairPoints; ++i) m.on[i] = i < P.points ? vand(m.on[i], bp.overlap[p].on) : mask_false<V>();
    bool any_point = false;
    MaskOf<V> pon[kPairPoints];
    for (int i = 0; i < kPairPoints; ++i) {
      // detected (dist < margin + gap) but inside the gap (dist >= includemargin = margin): MuJoCo lists
      // it with exclude set and makes no row (mj_setContact, mj_instantiateContact)
      pon[i] = ACH_BUG(ContactGapRowKept) ? m.on[i] : vand(m.on[i], m.dist[i] < V(P.margin));
      cw.point_on[p * kPairPoints + i] = pon[i];
      any_point = any_point || vany(pon[i]);
    }
    for (int k = 0; k < P.points * P.rows; ++k) cw.on[prow + k] = mask_false<V>();
    // the pair's frictions and diagA, each lane its robot's (worked out only where the pair has points)
    cw.pair_lanes[p] = pair_lanes<V>(P, any_point ? cw.lanes : ConstraintLanes{});
    if (!any_point) continue;
    // MuJoCo's frame, from its normal (geom order by type), then signed to our a → b rows: one per
    // pair where its points share the normal, else one per point (multiccd's, each its own normal)
    const T sgn = P.mj_swap ? T(-1) : T(1);
    Vec3<V> axis{V(T(0)), V(T(0)), V(T(0))};
    if (P.capsule_on_plane >= 0) axis = col(X_WS[P.capsule_on_plane].R, 2);
    Vec3<V> t1, t2;
    const auto frame_of = [&](const Vec3<V>& n) {
      make_frame(V(sgn) * n, P.capsule_on_plane >= 0, axis, t1, t2);
      t1 = V(sgn) * t1;
      t2 = V(sgn) * t2;
    };
    frame_of(m.n[0]);
    // the dual solvers visit a plane–box pair's points in MuJoCo's order: mjc_PlaneBox's corner index
    // i = [x > 0] + 2[y > 0] + 4[z > 0] in the box's frame (a point lies at its corner, less dist/2 along n)
    if (P.box_on_plane >= 0 && cw.mj_corner) {
      const Transform<V>& XB = X_WS[P.box_on_plane];
      for (int i = 0; i < P.points; ++i) {
        const Vec3<V> d = m.pos[i] - XB.p;
        V rank(T(0));
        for (int k = 0; k < 3; ++k) rank += vselect(dot(d, col(XB.R, k)) > V(T(0)), V(T(1 << k)), V(T(0)));
        cw.mj_corner[p * kPairPoints + i] = rank;
      }
    }
    const Motion<V> zero = zero_motion<V>();
    const Motion<V>& va = P.body_a >= 0 ? W[P.body_a].vel : zero;
    const Motion<V>& vb = P.body_b >= 0 ? W[P.body_b].vel : zero;
    const PairLanes<V>& PL = cw.pair_lanes[p];
    const V mu = PL.mu, z(T(0));
    // condim 1 has no friction directions; the elliptic cone's rows are the frame's own (μ enters its cost)
    const V fric[5] = {PL.mu, PL.mu, PL.mu_spin, PL.mu_roll, PL.mu_roll}; // MuJoCo's contact friction
    for (int i = 0; i < P.points; ++i) {
      if (i > 0 && !m.shared_normal) frame_of(m.n[i]);
      const Vec3<V>& n = m.n[i];
      cw.frame[(p * kPairPoints + i) * 3 + 0] = n;
      cw.frame[(p * kPairPoints + i) * 3 + 1] = t1;
      cw.frame[(p * kPairPoints + i) * 3 + 2] = t2;
      if (!vany(pon[i])) continue;
      const Vec3<V> mt1 = P.rows == 1  ? Vec3<V>{z, z, z}
                          : P.elliptic ? t1
                                       : mu * t1,
                    mt2 = P.rows == 1  ? Vec3<V>{z, z, z}
                          : P.elliptic ? t2
                                       : mu * t2;
      const V dist = m.dist[i];
      const V imp = impedance(P.imp, dist, V(P.margin));
      V R = vmax(V(T(kMinVal)), (T(1) - imp) * PL.diagA / imp);
      V Rc[kMaxPointRows], mu_reg = mu;
      if (P.elliptic)
        cone_R(R, P.impratio, fric, P.rows, Rc, mu_reg);
      else if (P.rows > 1) {
        // R1 = R0/impratio, μ' = μ·√(R1/R0), R_py = 2μ'²R0 for every edge (mj_makeImpedance)
        const V R1 = ACH_BUG(ContactImpratioIgnored) ? R : R / V(P.impratio); // planted: impratio ignored
        const V mu_reg = mu * vsqrt(R1 / R);
        R = T(2) * mu_reg * mu_reg * R;
      }
      const int slot = p * kPairPoints + i;
      PointJ<V>& Ja = cw.pj_a[slot];
      PointJ<V>& Jb = cw.pj_b[slot];
      if (P.body_a >= 0) point_jacobian(Ja, X_WB[P.body_a], m.pos[i], n, mt1, mt2, pon[i]);
      if (P.body_b >= 0) point_jacobian(Jb, X_WB[P.body_b], m.pos[i], n, mt1, mt2, pon[i]);
      if (P.condim > 3) {
        const V ms = P.elliptic ? V(T(1)) : PL.mu_spin, mr = P.elliptic ? V(T(1)) : PL.mu_roll;
        if (P.body_a >= 0) point_rotation_axes(Ja, X_WB[P.body_a], n, t1, t2, P.condim, ms, mr, pon[i]);
        if (P.body_b >= 0) point_rotation_axes(Jb, X_WB[P.body_b], n, t1, t2, P.condim, ms, mr, pon[i]);
      }
      V vel[kMaxPointRows];
      point_rows(P, Ja, Jb, va, vb, vel);
      for (int e = 0; e < P.rows; ++e) {
        const int r = prow + i * P.rows + e;
        cw.on[r] = pon[i];
        if (P.elliptic && e > 0) { // friction directions: K = 0, pos = margin = 0 (mj_instantiateContact)
          soft_row(cw, r, imp, Rc[e], V(T(0)), V(P.B), z, z, vel[e]);
          cw.cone_mu[r] = fric[e - 1];
        } else {
          soft_row(cw, r, imp, P.elliptic ? Rc[0] : R, V(P.K), V(P.B), dist, V(P.margin), vel[e]);
          cw.cone_mu[r] = mu_reg;
        }
        cw.used[cw.nused++] = r;
      }
    }
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
