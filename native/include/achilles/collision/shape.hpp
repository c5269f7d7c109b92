// Collision shapes and candidate pairs: the static tables of the collision room.
//
// Sphere, capsule, box and rounded box are sphere-swept boxes: a core box with half-extents h >= 0
// swept by a ball of radius r >= 0 (sphere h = 0; capsule h = (0, 0, l/2) along the shape's z;
// box r = 0; rounded box both), collided by narrow.hpp in SIMD. A plane is the half-space z <= 0 of
// its shape frame (normal +z), static only. Cylinder, ellipsoid and convex (a mesh's convex hull) are
// MuJoCo's geoms of those types, sized as its geom_size (`size`; convex: `vert`), collided lane by
// lane as MuJoCo does (narrow_convex.hpp); their `half` is a box bounding them, for the broad phase.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hull_polygons.hpp"

namespace ach {

enum class ShapeKind : std::uint8_t { Sphere, Capsule, Box, RoundedBox, Plane, Cylinder, Ellipsoid, Convex };

/// The kinds narrow.hpp's sphere-swept boxes do not cover (collided lane by lane as MuJoCo does).
inline bool is_convex_kind(ShapeKind k) { return k == ShapeKind::Cylinder || k == ShapeKind::Ellipsoid || k == ShapeKind::Convex; }

inline const char* shape_kind_name(ShapeKind k) {
  switch (k) {
    case ShapeKind::Sphere:
      return "sphere";
    case ShapeKind::Capsule:
      return "capsule";
    case ShapeKind::Box:
      return "box";
    case ShapeKind::RoundedBox:
      return "rounded-box";
    case ShapeKind::Plane:
      return "plane";
    case ShapeKind::Cylinder:
      return "cylinder";
    case ShapeKind::Ellipsoid:
      return "ellipsoid";
    case ShapeKind::Convex:
      return "convex";
  }
  return "?";
}

struct Shape {
  std::string name;
  int body = -1; // -1: static world geometry
  ShapeKind kind = ShapeKind::Sphere;
  double half[3] = {0, 0, 0}; // core half-extents (shape frame)
  double radius = 0;          // sweep radius
  // cylinder (radius, half-length, 0) along z; ellipsoid: its three radii (MuJoCo's geom_size)
  double size[3] = {0, 0, 0};
  std::vector<double> vert;                     // convex: the hull's vertices in the shape frame, x y z each
  std::vector<int> graph;                       // convex: its hull graph in MuJoCo's mesh_graph layout (hull_graph.hpp), or empty
  std::vector<int> extrema;                     // convex with a graph: MuJoCo's 27 hill-climbing seeds (hull_extrema), or empty
  HullPolygonData polygons;                     // convex with faces: MuJoCo's merged coplanar faces (hull_polygons), for the face clipping
  double R_BS[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}; // shape frame in body (or world) frame, row-major
  double p_BS[3] = {0, 0, 0};
  double friction = 1;
  double torsion = 0.005, rolling = 0.0001; // MuJoCo's friction[1], friction[2]: torsional and rolling (condim 4, 6)
  std::uint32_t contype = 1, conaffinity = 1;
  double margin = 0, gap = 0;
  // Contact softness (contact/ room): MuJoCo's solref, solimp and condim (1, 3, 4 or 6).
  double solref[2] = {0.02, 1};
  double solimp[5] = {0.9, 0.95, 0.001, 0.5, 2};
  int condim = 3;
  // MuJoCo's priority and solmix: whose contact parameters a pair takes, and the weight of this
  // shape's solref and solimp in a pair of equal priorities (contact/contact_param.hpp)
  int priority = 0;
  double solmix = 1;
};

/// A cylinder's, ellipsoid's or convex shape's `half`: a box about the shape origin bounding it (the
/// broad phase's extents), from its MuJoCo size or its hull's vertices; its sweep radius is 0.
inline void bound_convex_shape(Shape& s) {
  s.radius = 0;
  for (double& h : s.half) h = 0;
  if (s.kind == ShapeKind::Convex) {
    for (std::size_t i = 0; i < s.vert.size(); ++i) s.half[i % 3] = std::fmax(s.half[i % 3], std::fabs(s.vert[i]));
  } else if (s.kind == ShapeKind::Cylinder) {
    s.half[0] = s.half[1] = s.size[0];
    s.half[2] = s.size[1];
  } else {
    for (int k = 0; k < 3; ++k) s.half[k] = s.size[k];
  }
}

/// A candidate pair: shape indices a < b in model order, after filtering at load.
struct ShapePair {
  int a, b;
};

} // namespace ach
