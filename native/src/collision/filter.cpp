// Shape checks, and whether any two shapes may touch (MuJoCo's contact filtering, the rules in
// collision/pair_filter.hpp): the candidate pairs themselves are never listed at load, the broad
// phase asks the filter of each pair whose boxes overlap.
#include <cmath>
#include <stdexcept>
#include <string>

#include "achilles/collision/pair_filter.hpp"
#include "achilles/model.hpp"

namespace ach {

namespace {

[[noreturn]] void fail(const Shape& s, const std::string& what) { throw std::invalid_argument("shape '" + s.name + "': " + what); }

bool finite_nonneg(double x) { return std::isfinite(x) && x >= 0; }

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
      throw std::invalid_argument("exclude pair (" + std::to_string(e.first) + ", " + std::to_string(e.second) +
                                  ") names a link that does not exist");

  const PairFilter filter(m);
  const int n = static_cast<int>(m.shapes.size());
  m.has_pairs = false;
  for (int a = 0; a < n && !m.has_pairs; ++a)
    for (int b = a + 1; b < n && !m.has_pairs; ++b) m.has_pairs = filter.admits(a, b);
}

} // namespace ach
