// Shape checks and candidate pairs: MuJoCo's contact filtering, applied once at load.
//
// MuJoCo (engine_collision_driver.c: filterBodyPair, filterBitmask, the exclude scan) works on
// weld bodies: a body attached by no degree of freedom moves with its parent, so its weld body is
// its parent's. Two geoms are tested iff
//   1. their weld bodies differ (so two static shapes, or two shapes welded together, never pair);
//   2. neither weld body is the other's weld parent, when both weld bodies are moving (the
//      "filterparent" rule: a link never touches the link it hangs from, but a link hinged to the
//      world *does* touch static world geometry such as the ground);
//   3. (contype_a & conaffinity_b) || (contype_b & conaffinity_a);
//   4. their body pair is not excluded (<contact><exclude>, by body, either order).
// We apply exactly these rules; plane-plane pairs are static-static and fall under rule 1.
#include <cmath>
#include <stdexcept>
#include <string>

#include "achilles/bugs.hpp"
#include "achilles/model.hpp"

namespace ach {

namespace {

[[noreturn]] void fail(const Shape& s, const std::string& what) {
  throw std::invalid_argument("shape '" + s.name + "': " + what);
}

bool finite_nonneg(double x) { return std::isfinite(x) && x >= 0; }

/// The weld body: the nearest ancestor-or-self that moves by a joint with degrees of freedom (-1: world).
int weld_of(const Model& m, int body) {
  while (body >= 0 && m.joints[body].type == JointType::Fixed) body = m.joints[body].parent;
  return body;
}

} // namespace

void finalize_collision(Model& m) {
  const int nbody = static_cast<int>(m.joints.size());
  for (const Shape& s : m.shapes) {
    if (s.body < -1 || s.body >= nbody)
      fail(s, "body index " + std::to_string(s.body) + " does not name a link (-1 = world, 0.." + std::to_string(nbody - 1) + ")");
    for (int k = 0; k < 3; ++k)
      if (!finite_nonneg(s.half[k])) fail(s, "half-extents must be finite and >= 0");
    if (!finite_nonneg(s.radius)) fail(s, "radius must be finite and >= 0");
    if (!finite_nonneg(s.margin) || !finite_nonneg(s.gap)) fail(s, "margin and gap must be finite and >= 0");
    if (!finite_nonneg(s.friction)) fail(s, "friction must be finite and >= 0");
    for (int k = 0; k < 9; ++k)
      if (!std::isfinite(s.R_BS[k])) fail(s, "non-finite orientation");
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(s.p_BS[k])) fail(s, "non-finite position");
    if (s.kind == ShapeKind::Plane && weld_of(m, s.body) != -1)
      fail(s, "a plane must be static (on the world or welded to it), not on moving link '" + m.joints[s.body].name + "'");
  }
  for (const auto& e : m.excludes)
    if (e.first < -1 || e.first >= nbody || e.second < -1 || e.second >= nbody)
      throw std::invalid_argument("exclude pair (" + std::to_string(e.first) + ", " + std::to_string(e.second) + ") names a link that does not exist");

  m.pairs.clear();
  const int n = static_cast<int>(m.shapes.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const Shape& sa = m.shapes[a];
      const Shape& sb = m.shapes[b];
      const int wa = weld_of(m, sa.body), wb = weld_of(m, sb.body);
      if (wa == wb) continue; // same weld body (both static included)
      const int pa = wa >= 0 ? weld_of(m, m.joints[wa].parent) : -1;
      const int pb = wb >= 0 ? weld_of(m, m.joints[wb].parent) : -1;
      // The planted bug keeps parent-child pairs that filterparent drops.
      if (!ACH_BUG(CollisionFilteredPairKept) && wa >= 0 && wb >= 0 && (wa == pb || wb == pa)) continue;
      if (!((sa.contype & sb.conaffinity) || (sb.contype & sa.conaffinity))) continue;
      bool excluded = false;
      for (const auto& e : m.excludes)
        if ((e.first == sa.body && e.second == sb.body) || (e.first == sb.body && e.second == sa.body)) excluded = true;
      if (excluded) continue;
      m.pairs.push_back({a, b});
    }
}

} // namespace ach
