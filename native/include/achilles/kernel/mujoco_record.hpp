// What MuJoCo's mjData holds after mj_step, for the quantities Gymnasium's tasks read (its
// MujocoEnv calls mj_step, then mj_rnePostConstraint). They are those of the step's LAST
// acceleration evaluation, not of the state the step ends in: RK4's fourth stage (at X0 + h·k3),
// Euler's one evaluation (at the state the step started from). So they are recorded from that
// evaluation's scratch, before another evaluation overwrites it (BatchOptions::record):
//   RecordBodyPos/Rot  each link's pose X_WB                     (mj_kinematics: xpos, xmat)
//   QfrcConstraint     Jᵀ·f, the constraint force in joint space   (mj_fwdConstraint: qfrc_constraint)
//   CfrcExt            each link's contact wrench [torque; force], world-oriented, about the centre
//                      of mass of its tree's subtree             (mj_rnePostConstraint: cfrc_ext)
//   QfrcActuator       Σ gear·force of the actuators, per dof      (mj_fwdActuation: qfrc_actuator)
//   RecordBodyVel      each link's velocity [ω; v] in its own axes (v: its origin's)
//   RecordXipos        each link's centre of mass x, world              (mj_kinematics: xipos)
//   RecordCinert       each link's inertia about the centre of mass c of its tree's subtree, world
//                      axes: [I_xx, I_yy, I_zz, I_xy, I_xz, I_yz, m·(x − c), m]     (mj_comPos: cinert)
//   RecordCvel         each link's [ω; velocity of the point c moving with it], world axes
//                                                                       (mj_comVel: cvel)
// A MuJoCo body is the last link of its chain (src/model-files/import/compile.ts), so a body's
// cfrc_ext is its last link's; the massless links before it carry no geoms, hence no contacts.
#pragma once

#include "../isa_namespace.hpp"

#include <cstdint>
#include <vector>

#include "block_io.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// What record_evaluation works in: made once per worker with the kernel, so that nothing is
/// allocated while stepping. The trees' roots and masses are the model's constants.
template <class V>
struct RecordWork {
  using T = ScalarOf<V>;
  std::vector<int> root;                // each link's tree root (parents come before their children)
  std::vector<V> tree_mass;             // per root: its tree's mass, per lane (each robot's masses)
  std::vector<bool> tree_mass_positive; // per root: whether its tree has mass (the same in every robot)
  std::vector<Vec3<V>> com;             // per root: Σ m·c, then the subtree centre of mass
  std::vector<Vec3<V>> xipos;           // per link: its centre of mass, world
  std::vector<V> wrench, qfrc_act;

  explicit RecordWork(const KModel<T>& M) {
    const int nb = static_cast<int>(M.joints.size());
    root.resize(nb);
    std::vector<T> mass(nb, T(0));
    for (int i = 0; i < nb; ++i) {
      const int p = M.joints[i].parent;
      root[i] = p < 0 ? i : root[p];
      mass[root[i]] += M.joints[i].m;
    }
    tree_mass.resize(nb);
    tree_mass_positive.resize(nb);
    for (int i = 0; i < nb; ++i) tree_mass_positive[i] = mass[i] > T(0);
    com.resize(nb);
    xipos.resize(nb);
    wrench.resize(static_cast<std::size_t>(nb) * 6);
    qfrc_act.resize(M.nv);
  }
};

/// Block b's record of this evaluation, into the lanes whose bits `lanes` sets (the others keep theirs).
template <class V>
inline void record_evaluation(const KModel<ScalarOf<V>>& M, const KForces<ScalarOf<V>>& F, const BlockScratch<V>& sc, const BlockIO<V>& io, int b,
                              RecordWork<V>& rw, std::uint32_t lanes = kAllLanes) {
  using T = ScalarOf<V>;
  const ConstraintWork<V>& cw = sc.cw;
  const int nb = static_cast<int>(M.joints.size());
  const V zero(T(0));
  auto put = [&](FieldId f, int row, const V& x) { io.store_lanes(f, row, b, x, lanes); };
  io.store_poses(b, sc, FieldId::RecordBodyPos, FieldId::RecordBodyRot, lanes);
  for (int i = 0; i < nb; ++i) io.store_motion(FieldId::RecordBodyVel, i, b, sc.s.W[i].vel, lanes);
  // qfrc_actuator: each actuator's force through its transmission (a joint's dofs, by gear; a tendon's, by its moment)
  for (int k = 0; k < M.nv; ++k) rw.qfrc_act[k] = zero;
  for (int a = 0; a < F.nu; ++a) {
    const auto& A = F.act[a];
    for (int k = 0; k < A.nv; ++k) rw.qfrc_act[A.voff + k] = rw.qfrc_act[A.voff + k] + V(A.gear[k]) * sc.rec_force[a];
    for (std::size_t k = 0; k < A.trn_dof.size(); ++k) rw.qfrc_act[A.trn_dof[k]] = rw.qfrc_act[A.trn_dof[k]] + V(A.trn_moment[k]) * sc.rec_force[a];
  }
  for (int k = 0; k < M.nv; ++k) put(FieldId::QfrcActuator, k, rw.qfrc_act[k]);
  // qfrc_constraint: the solve's Jᵀ·f (an evaluation without active rows leaves none)
  for (int k = 0; k < M.nv; ++k) put(FieldId::QfrcConstraint, k, cw.nused > 0 ? cw.qfrc[k] : zero);

  // mj_comPos's subtree_com of each root: Σ m·c / Σ m over its tree (the root's CoM if massless)
  // masses and centres of mass per lane (lane_values.hpp), the trees' masses summed in the same order
  auto mass = [&](int i) { return M.template lane<V>(LaneSlots::mass(i)); };
  auto com_B = [&](int i) { // the link's CoM in its own frame
    return Vec3<V>{M.template lane<V>(LaneSlots::com(i, 0)), M.template lane<V>(LaneSlots::com(i, 1)), M.template lane<V>(LaneSlots::com(i, 2))};
  };
  for (int i = 0; i < nb; ++i) rw.xipos[i] = sc.X_WB[i].p + mul(sc.X_WB[i].R, com_B(i)); // xipos, world
  for (int i = 0; i < nb; ++i) rw.com[i] = Vec3<V>{zero, zero, zero}, rw.tree_mass[i] = zero;
  for (int i = 0; i < nb; ++i) rw.tree_mass[rw.root[i]] += mass(i);
  for (int i = 0; i < nb; ++i)
    if (M.joints[i].m != T(0)) rw.com[rw.root[i]] = rw.com[rw.root[i]] + mass(i) * rw.xipos[i];
  for (int i = 0; i < nb; ++i)
    if (rw.root[i] == i) rw.com[i] = rw.tree_mass_positive[i] ? (V(T(1)) / rw.tree_mass[i]) * rw.com[i] : rw.xipos[i];

  // xipos, cinert and cvel, each about its tree's subtree CoM c (mj_comPos, mj_comVel)
  for (int i = 0; i < nb; ++i) {
    const Mat3<V>& R = sc.X_WB[i].R;
    const Vec3<V> x = rw.xipos[i], d = x - rw.com[rw.root[i]]; // d: from the subtree CoM to the link's
    const RigidInertia<V> I = rigid_inertia<V>(M, i);          // about the link's origin, its axes
    const V m = I.m;
    const Vec3<V> p = com_B(i);
    // about the link's CoM (at p in its axes): I_o − m·(|p|²E − p·pᵀ); then world axes; then about
    // the subtree CoM: + m·(|d|²E − d·dᵀ)
    const Sym3<V> Ic{I.Io.xx - m * (p.y * p.y + p.z * p.z),
                     I.Io.yy - m * (p.x * p.x + p.z * p.z),
                     I.Io.zz - m * (p.x * p.x + p.y * p.y),
                     I.Io.xy + m * p.x * p.y,
                     I.Io.xz + m * p.x * p.z,
                     I.Io.yz + m * p.y * p.z};
    const Sym3<V> Iw = rotate(R, Ic);
    const V cinert[10] = {Iw.xx + m * (d.y * d.y + d.z * d.z),
                          Iw.yy + m * (d.x * d.x + d.z * d.z),
                          Iw.zz + m * (d.x * d.x + d.y * d.y),
                          Iw.xy - m * d.x * d.y,
                          Iw.xz - m * d.x * d.z,
                          Iw.yz - m * d.y * d.z,
                          m * d.x,
                          m * d.y,
                          m * d.z,
                          m};
    for (int e = 0; e < 10; ++e) put(FieldId::RecordCinert, i * 10 + e, cinert[e]);
    const V xs[3] = {x.x, x.y, x.z};
    for (int e = 0; e < 3; ++e) put(FieldId::RecordXipos, i * 3 + e, xs[e]);
    const Motion<V>& vel = sc.s.W[i].vel; // [ω; v of the origin], link axes
    const Vec3<V> w = mul(R, vel.w);
    io.store_motion(FieldId::RecordCvel, i, b, Motion<V>{w, mul(R, vel.v) + cross(w, rw.com[rw.root[i]] - sc.X_WB[i].p)}, lanes);
  }

  // cfrc_ext: each active contact point's force F = f_n·n + f_1·t1 + f_2·t2 (n from shape a to b)
  // pushes body b and pulls body a, moved to the subtree CoM c: torque (p − c) × F (mju_transformSpatial)
  for (V& w : rw.wrench) w = zero;
  for (int p = 0; p < cw.npairs; ++p) {
    const KContactPair<T>& P = cw.pair[p];
    for (int i = 0; i < kPairPoints; ++i) {
      if (!vany(cw.point_on[p * kPairPoints + i])) continue;
      V f[6];
      decode_point_force(p, i, cw, f); // zero in the lanes where the point is not active
      const Vec3<V>* fr = cw.frame + (p * kPairPoints + i) * 3;
      const Vec3<V> Fw = f[0] * fr[0] + f[1] * fr[1] + f[2] * fr[2];
      const Vec3<V> Tw = f[3] * fr[0] + f[4] * fr[1] + f[5] * fr[2]; // condim 4, 6: the torsional and rolling torque
      const Vec3<V>& pos = cw.mf[p].pos[i];
      for (int side = 0; side < 2; ++side) {
        const int body = side == 0 ? P.body_a : P.body_b;
        if (body < 0) continue; // the world's cfrc_ext stays 0 (MuJoCo skips body 0)
        Vec3<V> tq = cross(pos - rw.com[rw.root[body]], Fw);
        if (P.condim > 3) tq = tq + Tw;
        const V sign(side == 0 ? T(-1) : T(1));
        V* w = rw.wrench.data() + static_cast<std::size_t>(body) * 6;
        const V e[6] = {tq.x, tq.y, tq.z, Fw.x, Fw.y, Fw.z};
        for (int c = 0; c < 6; ++c) w[c] = w[c] + sign * e[c];
      }
    }
  }
  for (int k = 0; k < nb * 6; ++k) put(FieldId::CfrcExt, k, rw.wrench[k]);
}

} // namespace ACH_ISA_NS
} // namespace ach
