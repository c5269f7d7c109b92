// MuJoCo's general convex collider (mjc_Convex with nativeccd, MuJoCo 3.14) for one pair of geoms
// in one lane, scalar T (float for f32 robots, double for f64). Allocation-free (the EPA polytope
// is a fixed array on the stack, ~36 KB in double), deterministic (no state outlives a call).
//
// The integrator calls, per lane,
//     int n = convex::convex_collide<T>(shape_a, pose_a, shape_b, pose_b, margin, options, out);
// and gets n ≤ kMaxConvexContacts contacts {dist, normal (a → b), pos (midway)}, every one with
// dist < margin. MuJoCo's driver orders a pair by geom type (then by geom id); so does this call:
// a pair given in the other order is computed in MuJoCo's and its normals turned round. Two geoms
// of one kind are taken as given: pass the lower geom id as a.
//
// Which pairs MuJoCo sends here (its collision table, engine_collision_driver.c): ellipsoid with
// anything but a plane, cylinder with capsule, ellipsoid, cylinder, box and mesh, and mesh with
// every solid kind; sphere–cylinder, plane–cylinder and plane–ellipsoid/mesh have analytic
// colliders (convex/analytic.hpp). Sphere–sphere, sphere–box and box–box run here correctly too
// (the tests use them), though MuJoCo has its own closed forms for them.
//
// Extra contacts (multiccd, on by default in MuJoCo 3.14): when one contact was found, neither
// geom is a sphere or an ellipsoid, and the pair is not one of the face-clipped ones below, both
// geoms are tilted by ±1e-3 rad about the two tangent axes (a about the contact point, b the
// opposite way) and the query rerun; a new point farther than 1e-3·min(rbound) from every kept one
// is kept with the first point's dist. Up to 5 contacts.
// Face clipping (MuJoCo's gjk.c `multicontact`, maxContacts 4): two of box, cylinder and mesh (not
// box–box) at zero margin with multiccd on take EPA's final face to MuJoCo's clipping of one face
// against the other (convex/multicontact.hpp; a cylinder's caps as 16-gons, its side as a segment
// along the axis: convex/cylinder_faces.hpp), up to 4 points, no perturbed re-runs; a mesh needs its
// polygons (ConvexShape::polygons) for it, else such a pair keeps EPA's one contact (as MuJoCo
// does for a mesh without polygons). Box–box is MuJoCo's own mjc_BoxBox (up to 8 points), not
// ported here: convex_first_contact_only() says so, and the integrator calls its own box–box.
// With multiccd off (opt.multiccd = false, MuJoCo's <flag multiccd="disable"/>) MuJoCo takes
// neither path: its maxContacts is 1 and the re-runs are skipped, so every pair gets the first
// contact, as here.
// Also: a mesh of 10 or more vertices with a hull graph is searched by hill climbing in MuJoCo;
// here always exhaustively: the same support vertex but for ties between vertices.
#pragma once

#include "convex/ccd.hpp"

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

/// True where MuJoCo clips one face against another (gjk.c `multicontact`, maxContacts 4): zero
/// margin, multiccd on, two of box, cylinder and mesh but not two boxes (MuJoCo's mjc_BoxBox).
/// Ported (multicontact.hpp, cylinder_faces.hpp).
inline bool convex_clips_faces(ConvexKind a, ConvexKind b, bool positive_margin, bool multiccd) {
  if (positive_margin || !multiccd) return false;
  const auto faceted = [](ConvexKind k) { return k == ConvexKind::Box || k == ConvexKind::Mesh || k == ConvexKind::Cylinder; };
  return faceted(a) && faceted(b) && !(a == ConvexKind::Box && b == ConvexKind::Box);
}

/// True where MuJoCo takes a single-pass multi-contact path this collider does not have: box–box
/// at zero margin (mjc_BoxBox, up to 8 points, whatever multiccd says). There MuJoCo may return
/// more points, so such a pair must be refused (or given the integrator's own box–box), not
/// approximated.
inline bool convex_first_contact_only(ConvexKind a, ConvexKind b, bool positive_margin, bool multiccd) {
  if (positive_margin) return false;
  return a == ConvexKind::Box && b == ConvexKind::Box; // MuJoCo's maxContacts: 8 whatever multiccd says
}

/// mju_makeFrame's tangent axes for a unit normal n: t1 ⟂ n from (0,1,0) (or (0,0,1)), t2 = n × t1.
template <class T>
void make_tangents(T t1[3], T t2[3], const T normal[3]) {
  T n[3];
  copy3(n, normal);
  normalize3(n);
  t1[0] = 0, t1[1] = 0, t1[2] = 0;
  if (n[1] < T(0.5) && n[1] > T(-0.5))
    t1[1] = 1;
  else
    t1[2] = 1;
  T tmp[3];
  scl3(tmp, n, dot3(n, t1));
  t1[0] -= tmp[0], t1[1] -= tmp[1], t1[2] -= tmp[2];
  normalize3(t1);
  cross3(t2, n, t1);
}

/// R ← rot R, p ← p − (rot (o − p) − (o − p)): the frame turned by rot about the point o.
template <class T>
void rotate_frame(T R[9], T p[3], const T o[3], const T rot[9]) {
  T m[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m[3 * i + j] = rot[3 * i] * R[j] + rot[3 * i + 1] * R[3 + j] + rot[3 * i + 2] * R[6 + j];
  for (int e = 0; e < 9; ++e) R[e] = m[e];
  T rel[3], v[3];
  sub3(rel, o, p);
  mul_mat_vec3(v, rot, rel);
  v[0] -= rel[0], v[1] -= rel[1], v[2] -= rel[2];
  p[0] -= v[0], p[1] -= v[1], p[2] -= v[2];
}

/// mju_axisAngle2Quat then mju_quat2Mat (unit axis).
template <class T>
void axis_angle_matrix(T R[9], const T axis[3], T angle) {
  const T s = std::sin(angle * T(0.5));
  const T q[4] = {std::cos(angle * T(0.5)), axis[0] * s, axis[1] * s, axis[2] * s};
  const T q00 = q[0] * q[0], q01 = q[0] * q[1], q02 = q[0] * q[2], q03 = q[0] * q[3];
  const T q11 = q[1] * q[1], q12 = q[1] * q[2], q13 = q[1] * q[3], q22 = q[2] * q[2], q23 = q[2] * q[3], q33 = q[3] * q[3];
  R[0] = q00 + q11 - q22 - q33;
  R[4] = q00 - q11 + q22 - q33;
  R[8] = q00 - q11 - q22 + q33;
  R[1] = 2 * (q12 - q03);
  R[2] = 2 * (q13 + q02);
  R[3] = 2 * (q12 + q03);
  R[5] = 2 * (q23 - q01);
  R[6] = 2 * (q13 - q02);
  R[7] = 2 * (q23 + q01);
}

/// The pair in MuJoCo's order (kind(a) ≤ kind(b)).
template <class T>
int convex_collide_ordered(const ConvexShape<T>& sa, const ConvexPose<T>& Xa, const ConvexShape<T>& sb, const ConvexPose<T>& Xb, T margin,
                           const CcdOptions<T>& opt, ConvexContact<T>* con) {
  CcdObject<T> a, b;
  a.init(sa, Xa, margin);
  b.init(sb, Xb, margin);
  if (!(margin > 0) && convex_clips_faces(sa.kind, sb.kind, false, opt.multiccd)) return penetration_clipped(opt, a, b, margin, con);
  int ncon = penetration(opt, a, b, margin, con[0]);
  const bool single_pass_many = !(margin > 0) && convex_first_contact_only(sa.kind, sb.kind, false, opt.multiccd);
  if (ncon != 1 || !opt.multiccd || single_pass_many) return ncon;
  if (sa.kind == ConvexKind::Sphere || sa.kind == ConvexKind::Ellipsoid || sb.kind == ConvexKind::Sphere || sb.kind == ConvexKind::Ellipsoid)
    return ncon;

  const T relative_tolerance = T(1e-3), angle = T(1e-3);
  T axes[2][3];
  make_tangents(axes[0], axes[1], con[0].normal);
  const T tolerance = relative_tolerance * std::fmin(sa.rbound, sb.rbound);
  const T angles[2] = {-angle, angle};
  for (int ax = 0; ax < 2; ++ax)
    for (int an = 0; an < 2; ++an) {
      T rot[9], inv[9];
      axis_angle_matrix(rot, axes[ax], angles[an]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) inv[3 * i + j] = rot[3 * j + i];
      rotate_frame(a.R, a.p, con[0].pos, rot);
      rotate_frame(b.R, b.p, con[0].pos, inv);
      if (penetration(opt, a, b, margin, con[ncon])) {
        bool distinct = true;
        for (int i = 0; i < ncon; ++i) {
          T d[3];
          sub3(d, con[i].pos, con[ncon].pos);
          if (norm3(d) <= tolerance) distinct = false;
        }
        if (distinct) con[ncon].dist = con[0].dist, ++ncon;
      }
      // back to the true poses (the support caches carry over, as in MuJoCo)
      for (int e = 0; e < 9; ++e) a.R[e] = Xa.R[e], b.R[e] = Xb.R[e];
      copy3(a.p, Xa.p);
      copy3(b.p, Xb.p);
    }
  return ncon;
}

/// Contacts of geoms a and b (any order), normals from a to b. `out` holds kMaxConvexContacts.
template <class T>
int convex_collide(const ConvexShape<T>& sa, const ConvexPose<T>& Xa, const ConvexShape<T>& sb, const ConvexPose<T>& Xb, T margin,
                   const CcdOptions<T>& opt, ConvexContact<T>* out) {
  if (static_cast<int>(sa.kind) <= static_cast<int>(sb.kind)) return convex_collide_ordered(sa, Xa, sb, Xb, margin, opt, out);
  const int n = convex_collide_ordered(sb, Xb, sa, Xa, margin, opt, out);
  for (int i = 0; i < n; ++i) scl3(out[i].normal, out[i].normal, T(-1));
  return n;
}

} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
