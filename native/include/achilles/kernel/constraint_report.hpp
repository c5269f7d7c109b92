// The validation-only view of one robot's constraints (MuJoCo's efc_* arrays and contacts): the
// rows with their J, dist, velocity, aref, R, D, impedance and force, each contact point's frame
// and force, and the tendons' lengths. `achilles validate` compares it with MuJoCo row by row;
// stepping never reads it.
#pragma once

#include "../isa_namespace.hpp"

#include <cstdint>

#include "block_io.hpp"
#include "constrain.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// The constraints of robot `robot` at its current state (forward dynamics under the held controls,
/// then detection, rows and a solve of `iterations`, warm-started when `warm`). Uses worker 0's scratch.
template <class V>
inline void report_constraints(const KModel<ScalarOf<V>>& M, const KCollision<ScalarOf<V>>& C, const KConstraints<ScalarOf<V>>& KC,
                               const BlockIO<V>& io, BlockScratch<V>& sc, std::int64_t steps_done, int robot, int iterations, bool warm,
                               ConstraintReport& out) {
  using T = ScalarOf<V>;
  constexpr int W = lanes_of<V>;
  BlockState<V>& s = sc.s;
  const int b = robot / W, lane = robot % W;
  io.load_block(b, sc);
  io.held_controls_now(b, sc, steps_done);
  forward_dynamics(M, s.W, s.q, s.v, efforts(M, s, s.q, s.v), s.qacc);
  const int nv = M.nv;
  out.qacc_smooth.resize(nv);
  for (int k = 0; k < nv; ++k) out.qacc_smooth[k] = double(vlane(s.qacc[k], lane));
  out.qfrc_constraint.assign(nv, 0.0);
  out.rows.clear();
  out.contacts.clear();
  out.tendon_length.clear();
  out.tendon_velocity.clear();
  if (KC.enabled) {
    ConstraintWork<V>& cw = sc.cw;
    for (const KTendon<T>& t : KC.tendons) {
      out.tendon_length.push_back(double(vlane(tendon_length(t, s.q), lane)));
      out.tendon_velocity.push_back(double(vlane(tendon_dot(t, s.v), lane)));
    }
    constrain(M, C, KC, sc, s.q, s.v, s.qacc, iterations, warm);
    if (sc.adhesion) { // MuJoCo's qacc_smooth holds the adhesion actuators' forces, made from the contacts
      solve_M(M, s.W, cw.tw, sc.qfrc_adhesion, cw.tmp);
      for (int k = 0; k < nv; ++k) out.qacc_smooth[k] += double(vlane(cw.tmp[k], lane));
    }
    if (cw.nused > 0)
      for (int k = 0; k < nv; ++k) out.qfrc_constraint[k] = double(vlane(cw.qfrc[k], lane));
    for (int u = 0; u < cw.nused; ++u) {
      const int r = cw.used[u];
      if (!vlane(cw.on[r], lane)) continue;
      ConstraintRowReport row;
      if (r < cw.neq_rows) {
        int k = 0;
        while (k + 1 < static_cast<int>(KC.equalities.size()) && KC.equalities[k + 1].row <= r) ++k;
        row.kind = 5;
        row.id = KC.equalities[k].index;
        row.point = r - KC.equalities[k].row;
      } else if (r < cw.first_limit) {
        const KFriction<T>& F = KC.frictions[r - cw.neq_rows];
        row.kind = F.tendon >= 0 ? 4 : 2;
        row.id = F.tendon >= 0 ? F.tendon : F.joint;
        row.point = F.tendon >= 0 ? 0 : F.dof - M.joints[row.id].voff;
      } else if (r < cw.first_contact) {
        const KLimit<T>& L = KC.limits[(r - cw.first_limit) / 2];
        row.kind = L.tendon >= 0 ? 3 : 0;
        row.id = L.tendon >= 0 ? L.tendon : L.joint;
        row.point = (r - cw.first_limit) % 2;
      } else {
        const int c = r - cw.first_contact;
        const int slot = cw.row_point[c];
        int edge = 0;
        while (edge < c && cw.row_point[c - edge - 1] == slot) ++edge;
        row.kind = 1;
        row.id = slot / kPairPoints; // the pair's index in out.contacts' pair numbering (this evaluation's pairs)
        row.point = slot % kPairPoints;
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
    for (int p = 0; p < cw.npairs; ++p)
      for (int i = 0; i < kPairPoints; ++i) {
        if (!vlane(cw.point_on[p * kPairPoints + i], lane)) continue;
        ContactPointReport c;
        c.pair = p;
        c.shape_a = cw.pair[p].shape_a;
        c.shape_b = cw.pair[p].shape_b;
        c.point = i;
        c.dist = double(vlane(cw.mf[p].dist[i], lane));
        const Vec3<V>& pos = cw.mf[p].pos[i];
        c.pos[0] = double(vlane(pos.x, lane)), c.pos[1] = double(vlane(pos.y, lane)), c.pos[2] = double(vlane(pos.z, lane));
        for (int a = 0; a < 3; ++a) {
          const Vec3<V>& f = cw.frame[(p * kPairPoints + i) * 3 + a];
          c.frame[a * 3 + 0] = double(vlane(f.x, lane)), c.frame[a * 3 + 1] = double(vlane(f.y, lane)), c.frame[a * 3 + 2] = double(vlane(f.z, lane));
        }
        V f[6];
        decode_point_force(p, i, cw, f);
        for (int a = 0; a < 6; ++a) c.force[a] = double(vlane(f[a], lane));
        out.contacts.push_back(c);
      }
    // J row by row: J·e_k for every dof k (after the solve, so jv and tmp are free)
    for (int k = 0; k < nv; ++k) {
      for (int j = 0; j < nv; ++j) cw.tmp[j] = V(T(j == k ? 1 : 0));
      pass_body_motion(M, s.W, cw.tmp, cw.tw.m);
      rows_times(KC, cw, cw.tw.m, cw.tmp, cw.jv);
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

} // namespace ACH_ISA_NS
} // namespace ach
