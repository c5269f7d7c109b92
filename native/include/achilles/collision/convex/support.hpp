// Support functions of the convex kinds: s(d) = argmax over the shape of x·d, for a unit d in the
// world frame (MuJoCo's nativeccd support functions, engine_collision_convex.c).
//
// Each rotates d into the geom frame (Rᵀd), takes the local maximiser and maps it back (R x + p):
//   sphere     r d                      capsule    r d_l + sign(d_lz) h e_z
//   ellipsoid  (s ∘ s ∘ d_l)/|s ∘ d_l|   cylinder   r (d_lx, d_ly)/|(d_lx, d_ly)| + sign(d_lz) h e_z
//   box        sign(d_l) ∘ s            mesh       the vertex of largest d_l·v
// A mesh with a hull graph and at least kMeshHillClimbMin vertices climbs the graph (MuJoCo's
// mjc_hillclimbSupport): from the better of the last support vertex and the seed of d_l's cell in a
// 3×3×3 grid (mesh_extrema), to a neighbour with a larger d_l·v until none is larger; on a convex hull
// that local maximum is the global one, so only ties can pick another vertex than the exhaustive search
// (mjc_meshSupport) of smaller meshes.
// (sign(0) = +1 as MuJoCo's `>= 0`.) Two reduced supports serve the sphere/capsule shortcut: the
// centre point and the capsule's segment. The CcdObject carries what MuJoCo's mjCCDObj carries
// between calls: the last support vertex (boxes and meshes: repeated-vertex test in EPA; meshes:
// the warm start that decides ties; a cylinder: the cap its point lies on, 1 at +h, 0 at −h, for the
// face clipping's features).
#pragma once

#include "../../bugs.hpp"
#include "types.hpp"

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

enum class SupportMode : int { Full, Point, Line };

template <class T>
struct CcdObject {
  const ConvexShape<T>* shape;
  T R[9];
  T p[3];
  T margin;      // the pair's margin: each geom is inflated by margin/2 in GJK/EPA
  int vertindex; // last support vertex (box corner bits, mesh vertex), −1 before the first
  int meshindex; // hill climbing: the last support vertex's local graph id, −1 before the first
  SupportMode mode;

  void init(const ConvexShape<T>& s, const ConvexPose<T>& X, T pair_margin) {
    shape = &s;
    for (int e = 0; e < 9; ++e) R[e] = X.R[e];
    copy3(p, X.p);
    margin = pair_margin;
    vertindex = -1;
    meshindex = -1;
    mode = SupportMode::Full;
  }
};

template <class T>
inline void local_to_global(T res[3], const T R[9], const T l[3], const T p[3]) {
  mul_mat_vec3(res, R, l);
  res[0] += p[0], res[1] += p[1], res[2] += p[2];
}

/// The climb both of MuJoCo's graph searches share (mjc_hillclimbSupport, mjccd_support): from hull
/// vertex `start` (a local graph id), a pass over the current vertex's neighbours moves to each one
/// with a larger l·v than the best so far; passes repeat until one moves nowhere. Returns the local id.
template <class T>
int climb_hull_graph(const ConvexShape<T>& s, const T l[3], int start) {
  const int numvert = s.graph[0];
  const int* vert_edgeadr = s.graph + 2;
  const int* vert_globalid = s.graph + 2 + numvert;
  const int* edge_localid = s.graph + 2 + 2 * numvert;
  int imax = start;
  T best = dot3(l, s.vert + 3 * vert_globalid[imax]);
  for (int prev = -1; imax != prev;) {
    prev = imax;
    for (int i = vert_edgeadr[prev], sub; (sub = edge_localid[i]) >= 0; ++i) {
      const T v = dot3(l, s.vert + 3 * vert_globalid[sub]);
      if (v > best) best = v, imax = sub;
    }
  }
  return imax;
}

/// A mesh's support along local direction l by climbing its hull graph (MuJoCo's mjc_hillclimbSupport).
template <class T>
void hillclimb_support(T res[3], CcdObject<T>& o, const T l[3]) {
  const ConvexShape<T>& s = *o.shape;
  const int* vert_globalid = s.graph + 2 + s.graph[0];
  const auto along = [&](int local) { return dot3(l, s.vert + 3 * vert_globalid[local]); };
  const auto cell = [](T x) { return (x > T(0.4)) - (x < T(-0.4)) + 1; };
  const int seed = s.extrema[cell(l[0]) * 9 + cell(l[1]) * 3 + cell(l[2])];
  int start = seed;
  if (o.meshindex >= 0) start = along(seed) > along(o.meshindex) ? seed : o.meshindex; // warm start
  const int imax = climb_hull_graph(s, l, start);
  o.meshindex = imax;
  o.vertindex = vert_globalid[imax];
  local_to_global(res, o.R, s.vert + 3 * o.vertindex, o.p);
}

/// The support point of the (un-inflated) geom along unit world direction d.
template <class T>
void support_point(T res[3], CcdObject<T>& o, const T d[3]) {
  const ConvexShape<T>& s = *o.shape;
  const T* R = o.R;
  const T* p = o.p;
  if (o.mode == SupportMode::Point) {
    copy3(res, p);
    return;
  }
  if (o.mode == SupportMode::Line) {
    const T dot = R[2] * d[0] + R[5] * d[1] + R[8] * d[2];
    const T scl = dot >= 0 ? s.size[1] : -s.size[1];
    res[0] = R[2] * scl + p[0];
    res[1] = R[5] * scl + p[1];
    res[2] = R[8] * scl + p[2];
    return;
  }
  T l[3], sup[3];
  switch (s.kind) {
    case ConvexKind::Sphere: {
      const T r = s.size[0];
      res[0] = r * d[0] + p[0];
      res[1] = r * d[1] + p[1];
      res[2] = r * d[2] + p[2];
      return;
    }
    case ConvexKind::Capsule: {
      mul_mat_t_vec3(l, R, d);
      const T r = s.size[0];
      sup[0] = l[0] * r, sup[1] = l[1] * r, sup[2] = l[2] * r;
      sup[2] += l[2] >= 0 ? s.size[1] : -s.size[1];
      local_to_global(res, R, sup, p);
      return;
    }
    case ConvexKind::Ellipsoid: {
      mul_mat_t_vec3(l, R, d);
      sup[0] = l[0] * s.size[0], sup[1] = l[1] * s.size[1], sup[2] = l[2] * s.size[2];
      const T n2 = sup[0] * sup[0] + sup[1] * sup[1] + sup[2] * sup[2];
      if (n2 < Limits<T>::minval * Limits<T>::minval) { // too small to normalise: the x-axis tip
        res[0] = R[0] * s.size[0] + p[0];
        res[1] = R[3] * s.size[0] + p[1];
        res[2] = R[6] * s.size[0] + p[2];
        return;
      }
      const T inv = 1 / std::sqrt(n2);
      sup[0] *= inv * s.size[0], sup[1] *= inv * s.size[1], sup[2] *= inv * s.size[2];
      local_to_global(res, R, sup, p);
      return;
    }
    case ConvexKind::Cylinder: {
      mul_mat_t_vec3(l, R, d);
      const T n2 = l[0] * l[0] + l[1] * l[1];
      const T scl = n2 >= Limits<T>::minval * Limits<T>::minval ? s.size[0] / std::sqrt(n2) : T(0);
      sup[0] = scl * l[0], sup[1] = scl * l[1];
      sup[2] = l[2] >= 0 ? s.size[1] : -s.size[1];
      o.vertindex = l[2] >= 0 ? 1 : 0; // its cap, read by the face clipping (cylinder_faces.hpp)
      local_to_global(res, R, sup, p);
      return;
    }
    case ConvexKind::Box: {
      mul_mat_t_vec3(l, R, d);
      sup[0] = l[0] >= 0 ? s.size[0] : -s.size[0];
      sup[1] = l[1] >= 0 ? s.size[1] : -s.size[1];
      sup[2] = l[2] >= 0 ? s.size[2] : -s.size[2];
      if (ACH_BUG(ConvexBoxSupportCornerSign)) sup[2] = s.size[2]; // the planted bug: z's sign dropped
      o.vertindex = (sup[0] > 0 ? 1 : 0) | (sup[1] > 0 ? 2 : 0) | (sup[2] > 0 ? 4 : 0);
      local_to_global(res, R, sup, p);
      return;
    }
    case ConvexKind::Mesh: {
      mul_mat_t_vec3(l, R, d);
      if (s.graph && s.extrema && s.nvert >= kMeshHillClimbMin) {
        hillclimb_support(res, o, l);
        return;
      }
      // the previous support vertex is the incumbent: a tie keeps it (MuJoCo's warm start)
      T best = -Limits<float>::max_limit;
      int ibest = 0;
      if (o.vertindex >= 0) {
        ibest = o.vertindex;
        best = dot3(l, s.vert + 3 * ibest);
      }
      for (int i = 0; i < s.nvert; ++i) {
        const T v = dot3(l, s.vert + 3 * i);
        if (v > best) best = v, ibest = i;
      }
      o.vertindex = ibest;
      local_to_global(res, R, s.vert + 3 * ibest, p);
      return;
    }
  }
}

} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
