// A cylinder's features for MuJoCo 3.14's face clipping (gjk.c `multicontact`, which 3.14 runs for a
// cylinder with a box, a mesh or another cylinder at zero margin with multiccd on: MuJoCo commit
// c9d9976, "cylinder multiccd"; its source is not in the stored snapshot: this is the rule measured
// against the 3.14 wheel, native/tests/cylinder_fixture.py).
//
// The cylinder's support point records its cap (CcdObject::vertindex: 1 the cap at +h, 0 the one at
// −h, by the sign of the local direction's z, as the point's own z). EPA's final face then names a
// cap per polytope vertex: all three on one cap make the cylinder's feature a "vertex" (dim 1),
// both caps an "edge" (dim 2). The features, as the box's and the mesh's are read:
//   face normals  a cap (dim 1): its one outward normal (±axis); an edge (dim 2): none
//   edge          dim 1 or 2: the side's segment through the first support point, along the axis
//                 to the other cap (a cylinder lying on a face touches it along that line)
//   face          cap idx as the regular 16-gon inscribed in its rim, vertex k at angle 2πk/16
//                 from the local x axis, listed clockwise seen from outside the cap as MuJoCo's box
//                 and mesh faces are: cap 0 (−h) k = 0, 1, …, 15; cap 1 (+h) k = 0, 15, 14, …, 1
// The angles' cosines and sines are the double values of cos(2πk/16), sin(2πk/16). Where the clipped
// polygon is a regular 16-gon (a cap wholly on a larger face), polygonQuad's candidate areas tie in
// exact arithmetic and rounding picks the quad: 3.14's pick is not always this port's there (an
// equal-area quad instead; measured on the posed box–cylinder cap cases, these values meet 3.14's
// pick in 28 of 34, the exact 0, ±1, ±√2/2 in 27: docs/collision-validation.md).
#pragma once

#include "../../bugs.hpp"
#include "gjk.hpp"

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

inline constexpr int kCylinderPolygonVerts = 16;

namespace clip_detail {

/// cos(2πk/16) and sin(2πk/16), k = 0 … 15, as double evaluates them.
inline constexpr double kCylCos[kCylinderPolygonVerts] = {
    1.0,
    0.9238795325112867,
    0.7071067811865476,
    0.38268343236508984,
    6.123233995736766e-17,
    -0.3826834323650897,
    -0.7071067811865475,
    -0.9238795325112867,
    -1.0,
    -0.9238795325112868,
    -0.7071067811865477,
    -0.38268343236509034,
    -1.8369701987210297e-16,
    0.38268343236509,
    0.7071067811865474,
    0.9238795325112865,
};
inline constexpr double kCylSin[kCylinderPolygonVerts] = {
    0.0,
    0.3826834323650898,
    0.7071067811865475,
    0.9238795325112867,
    1.0,
    0.9238795325112867,
    0.7071067811865476,
    0.3826834323650899,
    1.2246467991473532e-16,
    -0.38268343236508967,
    -0.7071067811865475,
    -0.9238795325112865,
    -1.0,
    -0.9238795325112866,
    -0.7071067811865477,
    -0.3826834323650904,
};

/// Face normals of a cylinder feature: a cap's one outward normal (dim 1), else none.
template <class T>
int cylinder_normals(T* res, int* resind, int dim, const CcdObject<T>& o, const int vi[3]) {
  if (dim != 1) return 0;
  const T s = vi[0] ? T(1) : T(-1);
  res[0] = o.R[2] * s, res[1] = o.R[5] * s, res[2] = o.R[8] * s;
  resind[0] = vi[0];
  return 1;
}

/// The side's segment from support point v (on cap cap) along the axis to the other cap: its unit
/// direction and that end.
template <class T>
int cylinder_edge_normals(T* res, T* endverts, int dim, const CcdObject<T>& o, const T v[3], int cap) {
  if (dim != 1 && dim != 2) return 0;
  const T* R = o.R;
  const T len = cap ? -2 * o.shape->size[1] : 2 * o.shape->size[1];
  endverts[0] = v[0] + R[2] * len, endverts[1] = v[1] + R[5] * len, endverts[2] = v[2] + R[8] * len;
  res[0] = cap ? -R[2] : R[2], res[1] = cap ? -R[5] : R[5], res[2] = cap ? -R[8] : R[8];
  return 1;
}

/// Cap idx as a 16-gon in the world, clockwise seen from outside the cap.
template <class T>
int cylinder_face(T* res, const CcdObject<T>& o, int idx) {
  const T r = o.shape->size[0], h = idx ? o.shape->size[1] : -o.shape->size[1];
  const T* R = o.R;
  const T* p = o.p;
  // the planted bug: the polygon turned by half a step (its vertices at 2π(k + ½)/16)
  const T turn = ACH_BUG(ContactCylinderCapPhase) ? T(0.19509032201612825) : T(0),
          keep = ACH_BUG(ContactCylinderCapPhase) ? T(0.98078528040323043) : T(1);
  for (int i = 0; i < kCylinderPolygonVerts; ++i) {
    const int k = idx ? (kCylinderPolygonVerts - i) % kCylinderPolygonVerts : i;
    T c = T(kCylCos[k]), s = T(kCylSin[k]);
    if (turn != 0) {
      const T c2 = c * keep - s * turn, s2 = s * keep + c * turn;
      c = c2, s = s2;
    }
    const T x = r * c, y = r * s;
    T* out = res + 3 * i;
    out[0] = R[0] * x + R[1] * y + R[2] * h + p[0];
    out[1] = R[3] * x + R[4] * y + R[5] * h + p[1];
    out[2] = R[6] * x + R[7] * y + R[8] * h + p[2];
  }
  return kCylinderPolygonVerts;
}

} // namespace clip_detail
} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
