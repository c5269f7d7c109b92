// The narrow phase of pairs with a cylinder, ellipsoid or convex shape (shape.hpp), lane by lane:
// each lane's poses go to the scalar colliders MuJoCo uses for the pair (convex_pair.hpp: its
// analytic plane–cylinder, sphere–cylinder and plane–convex, else its GJK/EPA), and the lanes'
// contacts come back as one Manifold. A lane's contacts are a function of its own poses only, so
// they are the same at any lane width.
// The colliders run in double for f32 robots too: GJK/EPA stops at a tolerance of 1e-6 of the
// shapes' size, which float's 6e-8 resolution cannot resolve reliably (in float it ended as many as
// 9 iterations early and up to 7e-3 of the size off MuJoCo), and an f32 robot's contacts would then
// stray from MuJoCo's by more than its float32 rounding. In double they are MuJoCo's (to 1e-16 of
// the size) rounded once to float.
#pragma once

#include "../isa_namespace.hpp"

#include "convex_pair.hpp"
#include "narrow.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Contacts of a and b (either of a kind is_convex_kind) at Xa, Xb: normals from a to b, ≤ kPairPoints
/// points in MuJoCo's order, each active when its distance is below thr.
template <class V>
inline void narrow_convex_pair(const ShapeGeom<ScalarOf<V>>& a, const Transform<V>& Xa, const ShapeGeom<ScalarOf<V>>& b, const Transform<V>& Xb,
                               ScalarOf<V> thr, Manifold<V>& m) {
  using T = ScalarOf<V>;
  constexpr int W = lanes_of<V>;
  alignas(64) T n[kPairPoints][3][W], pos[kPairPoints][3][W], dist[kPairPoints][W], on[kPairPoints][W];
  const ConvexGeom ga = convex_geom(a), gb = convex_geom(b);
  const bool shared = pair_point_slots(a.kind, b.kind) < kPairPoints; // only multiccd's points have normals of their own
  for (int l = 0; l < W; ++l) {
    convex::ConvexPose<double> pa, pb;
    for (int e = 0; e < 9; ++e) {
      pa.R[e] = vlane(Xa.R.m[e], l);
      pb.R[e] = vlane(Xb.R.m[e], l);
    }
    pa.p[0] = vlane(Xa.p.x, l), pa.p[1] = vlane(Xa.p.y, l), pa.p[2] = vlane(Xa.p.z, l);
    pb.p[0] = vlane(Xb.p.x, l), pb.p[1] = vlane(Xb.p.y, l), pb.p[2] = vlane(Xb.p.z, l);
    ConvexContacts<double> c;
    convex_pair_contacts(ga, pa, gb, pb, double(thr), a.multiccd && b.multiccd, c);
    for (int i = 0; i < kPairPoints; ++i) {
      const bool has = i < c.count;
      // a pair whose points share a normal (and a slot without a contact) reads the first point's, +z where there is none
      for (int k = 0; k < 3; ++k) n[i][k][l] = has && !shared ? T(c.normal[i][k]) : c.count ? T(c.normal[0][k]) : T(k == 2);
      for (int k = 0; k < 3; ++k) pos[i][k][l] = has ? T(c.pos[i][k]) : T(0);
      dist[i][l] = has ? T(c.dist[i]) : T(0);
      on[i][l] = has && T(c.dist[i]) < thr ? T(1) : T(0);
    }
  }
  m.shared_normal = shared;
  for (int i = 0; i < kPairPoints; ++i) {
    m.n[i] = {load<V>(n[i][0]), load<V>(n[i][1]), load<V>(n[i][2])};
    m.pos[i] = {load<V>(pos[i][0]), load<V>(pos[i][1]), load<V>(pos[i][2])};
    m.dist[i] = load<V>(dist[i]);
    m.on[i] = load<V>(on[i]) > V(T(0));
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
