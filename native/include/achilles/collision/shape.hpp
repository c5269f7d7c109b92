// Collision shapes and candidate pairs: the static tables of the collision room.
//
// Every non-plane shape is a sphere-swept box: a core box with half-extents h >= 0 swept by a
// ball of radius r >= 0 (sphere h = 0; capsule h = (0, 0, l/2) along the shape's z; box r = 0;
// rounded box both). A plane is the half-space z <= 0 of its shape frame (normal +z), static only.
#pragma once

#include <cstdint>
#include <string>

namespace ach {

enum class ShapeKind : std::uint8_t { Sphere, Capsule, Box, RoundedBox, Plane };

inline const char* shape_kind_name(ShapeKind k) {
  switch (k) {
  case ShapeKind::Sphere: return "sphere";
  case ShapeKind::Capsule: return "capsule";
  case ShapeKind::Box: return "box";
  case ShapeKind::RoundedBox: return "rounded-box";
  case ShapeKind::Plane: return "plane";
  }
  return "?";
}

struct Shape {
  std::string name;
  int body = -1; // -1: static world geometry
  ShapeKind kind = ShapeKind::Sphere;
  double half[3] = {0, 0, 0}; // core half-extents (shape frame)
  double radius = 0;          // sweep radius
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
};

/// A candidate pair: shape indices a < b in model order, after filtering at load.
struct ShapePair {
  int a, b;
};

} // namespace ach
