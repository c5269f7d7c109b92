// How many contact points one shape pair can hold: MuJoCo's mjc_Convex with multiccd (on by default
// in 3.14) keeps its first contact and up to 4 more from the perturbed re-runs, each with its own
// normal (collision/convex.hpp); the closed-form colliders give at most 4. A pair's rows, Jacobians,
// frames and stored contacts take this many slots, unused ones off.
#pragma once

#include "shape.hpp"

namespace ach {

constexpr int kPairPoints = 5;

/// The point slots a pair of shape kinds needs: all kPairPoints where MuJoCo may run multiccd's
/// re-runs on it (mjc_Convex for a pair with a cylinder or a mesh and neither a plane, a sphere nor an
/// ellipsoid), else 4; a pair's row slots follow it, so pairs without such points keep their layout.
inline int pair_point_slots(ShapeKind a, ShapeKind b) {
  const auto multi = [](ShapeKind k) { return k == ShapeKind::Cylinder || k == ShapeKind::Convex; };
  const auto single = [](ShapeKind k) { return k == ShapeKind::Plane || k == ShapeKind::Sphere || k == ShapeKind::Ellipsoid; };
  return (multi(a) || multi(b)) && !single(a) && !single(b) ? kPairPoints : 4;
}

} // namespace ach
