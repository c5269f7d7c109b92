// The convex collider's inputs and outputs: one pair of geoms, one lane, scalar T (float or double).
//
// Sizes follow MuJoCo's geom_size: sphere (r), capsule (r, half-length), ellipsoid (radii),
// cylinder (r, half-length), box (half-extents). A convex mesh is a vertex array in the geom frame
// (MuJoCo's mesh_vert after compilation: the mesh recentred on its inertial frame).
// Poses are row-major world rotations R (columns: the geom's axes) and world positions p.
#pragma once

#include "../../isa_namespace.hpp"

#include <cmath>

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

enum class ConvexKind : int { Sphere, Capsule, Ellipsoid, Cylinder, Box, Mesh };

inline const char* convex_kind_name(ConvexKind k) {
  switch (k) {
    case ConvexKind::Sphere:
      return "sphere";
    case ConvexKind::Capsule:
      return "capsule";
    case ConvexKind::Ellipsoid:
      return "ellipsoid";
    case ConvexKind::Cylinder:
      return "cylinder";
    case ConvexKind::Box:
      return "box";
    case ConvexKind::Mesh:
      return "mesh";
  }
  return "?";
}

/// Meshes with fewer vertices are searched exhaustively, larger ones with a graph climb it
/// (MuJoCo's mjMESH_HILLCLIMB_MIN).
constexpr int kMeshHillClimbMin = 10;

/// A mesh hull's polygons (MuJoCo's mesh_poly*: the hull's coplanar triangles merged, user_mesh.cc
/// MakePolygons): polygon i has vertnum[i] vertex ids at vert[vertadr[i]...] (counter-clockwise
/// seen from outside) and unit outward normal normal[3i..]; vertex v lies on mapnum[v] polygons
/// listed at map[mapadr[v]...]. Read by the face clipping (multicontact.hpp).
template <class T>
struct HullPolygons {
  int npoly = 0;
  const int* vertadr = nullptr;
  const int* vertnum = nullptr;
  const int* vert = nullptr;
  const T* normal = nullptr;
  const int* mapadr = nullptr;
  const int* mapnum = nullptr;
  const int* map = nullptr;
};

template <class T>
struct ConvexShape {
  ConvexKind kind = ConvexKind::Sphere;
  T size[3] = {0, 0, 0};
  const T* vert = nullptr; // mesh: nvert points (x, y, z) in the geom frame
  int nvert = 0;
  const int* graph = nullptr;                // mesh: MuJoCo's hull graph (mesh_graph from mesh_graphadr), or none
  const int* extrema = nullptr;              // mesh with a graph: MuJoCo's mesh_extrema, 27 hill-climbing seeds
  const HullPolygons<T>* polygons = nullptr; // mesh: its polygons for the face clipping, or none
  T rbound = 0;                              // MuJoCo's geom_rbound (bounding-sphere radius about the geom origin)
};

template <class T>
struct ConvexPose {
  T R[9]; // row-major world rotation; column 2 is a capsule's or cylinder's axis
  T p[3];
};

/// One contact, as MuJoCo's mjContact reads for the pair (a, b).
template <class T>
struct ConvexContact {
  T dist;      // signed distance (negative: penetration)
  T normal[3]; // unit, from geom a to geom b
  T pos[3];    // midway between the two surfaces
};

/// MuJoCo's mjOption fields for nativeccd (3.14 defaults) and the multiccd switch.
template <class T>
struct CcdOptions {
  T tolerance = T(1e-6); // opt.ccd_tolerance
  int iterations = 35;   // opt.ccd_iterations (3.14's default; ≤ kMaxCcdIterations)
  bool multiccd = true;  // !(disableflags & mjDSBL_MULTICCD): perturbed re-runs for extra points
};

/// The polytope's storage is sized for this many iterations (MuJoCo sizes its buffer from
/// opt.ccd_iterations the same way: 5 + N vertices, 6N faces).
inline constexpr int kMaxCcdIterations = 64;

/// MuJoCo's most contacts per pair (mjMAXCONPAIR); the perturbed multiccd path gives at most 5.
inline constexpr int kMaxConvexContacts = 5;

/// MuJoCo's numerical floors, in T (mjtype.h; gjk.c's single-precision values for float).
template <class T>
struct Limits;
template <>
struct Limits<double> {
  static constexpr double minval = 1e-15;                     // mjMINVAL
  static constexpr double maxval = 1e10;                      // mjMAXVAL
  static constexpr double max_limit = 1.7976931348623157e308; // mjMAX_LIMIT (DBL_MAX)
  static constexpr double mindist2 = 1e-30;                   // mjMINDIST2 = mjMINVAL²
  static constexpr double mindist3 = 1e-30;                   // mjMINDIST3
  static constexpr double mindist4 = 1e-30;                   // mjMINDIST4
  static constexpr double min_epa_tol = 1e-15;                // mjMINEPATOL
};
template <>
struct Limits<float> {
  static constexpr float minval = 1e-15f;
  static constexpr float maxval = 1e10f;
  static constexpr float max_limit = 3.40282347e38f; // FLT_MAX
  static constexpr float mindist2 = 1e-10f;
  static constexpr float mindist3 = 1e-10f;
  static constexpr float mindist4 = 1e-17f;
  static constexpr float min_epa_tol = 1e-7f;
};

/// geom_rbound as MuJoCo's compiler computes it: for primitives the farthest surface point from
/// the origin; for a mesh the corner of the box of its largest |x|, |y|, |z| (measured on 3.14).
template <class T>
T default_rbound(const ConvexShape<T>& s) {
  const T* z = s.size;
  switch (s.kind) {
    case ConvexKind::Sphere:
      return z[0];
    case ConvexKind::Capsule:
      return z[0] + z[1];
    case ConvexKind::Ellipsoid:
      return std::fmax(std::fmax(z[0], z[1]), z[2]);
    case ConvexKind::Cylinder:
      return std::sqrt(z[0] * z[0] + z[1] * z[1]);
    case ConvexKind::Box:
      return std::sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
    case ConvexKind::Mesh: {
      T m[3] = {0, 0, 0};
      for (int i = 0; i < s.nvert; ++i)
        for (int k = 0; k < 3; ++k) m[k] = std::fmax(m[k], std::fabs(s.vert[3 * i + k]));
      return std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    }
  }
  return 0;
}

// ---- small vector helpers (MuJoCo's operation order, so results round alike) ----------------

template <class T>
inline T dot3(const T a[3], const T b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
template <class T>
inline void sub3(T r[3], const T a[3], const T b[3]) {
  r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2];
}
template <class T>
inline void add3(T r[3], const T a[3], const T b[3]) {
  r[0] = a[0] + b[0], r[1] = a[1] + b[1], r[2] = a[2] + b[2];
}
template <class T>
inline void scl3(T r[3], const T a[3], T s) {
  r[0] = s * a[0], r[1] = s * a[1], r[2] = s * a[2];
}
template <class T>
inline void copy3(T r[3], const T a[3]) {
  r[0] = a[0], r[1] = a[1], r[2] = a[2];
}
template <class T>
inline void cross3(T r[3], const T a[3], const T b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}
template <class T>
inline T norm3(const T a[3]) {
  return std::sqrt(dot3(a, a));
}
/// a · (b × c), as gjk.c's det3
template <class T>
inline T det3(const T a[3], const T b[3], const T c[3]) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
}
/// mju_normalize3: unit vector, or (1, 0, 0) below mjMINVAL; returns the norm
template <class T>
inline T normalize3(T v[3]) {
  const T n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (n < Limits<T>::minval) {
    v[0] = 1, v[1] = 0, v[2] = 0;
  } else {
    const T inv = 1 / n;
    v[0] *= inv, v[1] *= inv, v[2] *= inv;
  }
  return n;
}
/// R v (row-major R)
template <class T>
inline void mul_mat_vec3(T r[3], const T R[9], const T v[3]) {
  const T x = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
  const T y = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
  const T z = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
  r[0] = x, r[1] = y, r[2] = z;
}
/// Rᵀ v
template <class T>
inline void mul_mat_t_vec3(T r[3], const T R[9], const T v[3]) {
  const T x = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  const T y = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  const T z = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
  r[0] = x, r[1] = y, r[2] = z;
}

} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
