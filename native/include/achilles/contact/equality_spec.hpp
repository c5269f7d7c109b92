// MuJoCo's equality constraints (mjCNSTR_EQUALITY, engine_core_constraint.c mj_instantiateEquality):
//
//   connect  3 rows: pos = p1_W − p2_W, the two anchors in world (p1 on body 1, p2 on body 2),
//            J = J_p(body 1, p1) − J_p(body 2, p2);  aref −= J̇·v of that difference (mj_Jdotv)
//   weld     6 rows: the connect rows with p1 = relpose's position (body 1) and p2 = anchor (body 2),
//            then ts·Im(qe), qe = (q_b2·Q2)⁻¹ · (q_b1·Q1) (Q1 = relpose's quaternion, Q2 = identity;
//            site semantic: the sites' quaternions), J = ½·ts·Im(q2⁻¹·(0, ω1 − ω2)·q1), ts = torquescale
//   joint    1 row: pos = y − y0 − a0 − (a1·d + a2·d² + a3·d³ + a4·d⁴), d = x − x0 (y = joint 1,
//            x = joint 2, y0 and x0 their qpos0), J = e_y − P'(d)·e_x; without joint 2: y − y0 − a0, J = e_y
//
// A block's impedance is taken at the norm of its pos (3 or 6 rows; mj_makeImpedance getposdim), its
// R from diagA = body_invweight0 (translation rows: the two bodies' translational weights, rotation
// rows: their rotational ones) or dof_invweight0 (joint). The rows are two-sided: always in the
// quadratic piece of the cost. Only active constraints (MuJoCo's eq_active0) make rows.
#pragma once

#include <cstdint>
#include <string>

namespace ach {

enum class EqualityType : std::uint8_t { Connect, Weld, Joint };

struct Equality {
  std::string name;
  EqualityType type = EqualityType::Connect;
  bool active = true;
  // connect, weld: the bodies (joint = link indices, −1: the world) and the anchors in their frames
  int body1 = -1, body2 = -1;
  double p1[3] = {0, 0, 0}, p2[3] = {0, 0, 0};
  // weld: Q1 (body 1) and Q2 (body 2) as row-major rotation matrices
  double Q1[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Q2[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  // MuJoCo's body semantic: the missing anchor (connect: p2 from p1; weld: p1 and Q1 from p2) is
  // made at qpos0 by finalize_constraints (mj_setConst), where the constraint then holds exactly
  bool at_qpos0 = false;
  double torquescale = 1;
  // joint: joint (= link) indices, joint2 −1 for none; polycoef a0..a4; y0, x0 (qpos0 of the joints)
  int joint1 = -1, joint2 = -1;
  double polycoef[5] = {0, 1, 0, 0, 0};
  double ref1 = 0, ref2 = 0;
  double solref[2] = {0.02, 1};
  double solimp[5] = {0.9, 0.95, 0.001, 0.5, 2};
};

/// Rows an equality makes: connect 3, weld 6, joint 1.
inline int equality_rows(EqualityType t) { return t == EqualityType::Connect ? 3 : t == EqualityType::Weld ? 6 : 1; }

} // namespace ach
