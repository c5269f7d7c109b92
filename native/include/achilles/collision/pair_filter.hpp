// MuJoCo's contact filtering (engine_collision_driver.c: filterBodyPair, filterBitmask, the exclude
// scan), asked of one pair of shapes at a time: by the broad phase for the pairs whose boxes overlap
// (collision/broad_phase.hpp), and by candidate_pairs for a listing. Nothing is enumerated at load,
// so a scene's memory does not grow with the square of its shapes.
//
// MuJoCo works on weld bodies: a body attached by no degree of freedom moves with its parent, so its
// weld body is its parent's. Two shapes are tested iff
//   1. their weld bodies differ (so two static shapes, or two shapes welded together, never pair);
//   2. neither weld body is the other's weld parent, when both weld bodies are moving (the
//      "filterparent" rule: a link never touches the link it hangs from, but a link hinged to the
//      world *does* touch static world geometry such as the ground);
//   3. (contype_a & conaffinity_b) || (contype_b & conaffinity_a);
//   4. their body pair is not excluded (<contact><exclude>, by body, either order).
// Plane–plane pairs are static–static and fall under rule 1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "../bugs.hpp"
#include "../model.hpp"

namespace ach {

/// The weld body: the nearest ancestor-or-self that moves by a joint with degrees of freedom (-1: world).
inline int weld_of(const Model& m, int body) {
  while (body >= 0 && m.joints[body].type == JointType::Fixed) body = m.joints[body].parent;
  return body;
}

class PairFilter {
 public:
  explicit PairFilter(const Model& m) {
    for (const Shape& s : m.shapes) {
      const int w = weld_of(m, s.body);
      weld_.push_back(w);
      weld_parent_.push_back(w >= 0 ? weld_of(m, m.joints[w].parent) : -1);
      body_.push_back(s.body);
      contype_.push_back(s.contype);
      conaffinity_.push_back(s.conaffinity);
    }
    for (const auto& e : m.excludes) excluded_.push_back({std::min(e.first, e.second), std::max(e.first, e.second)});
    std::sort(excluded_.begin(), excluded_.end());
  }

  /// Whether shapes a and b may touch (MuJoCo's four rules above). `planted`: false asks MuJoCo's
  /// rules even in the bug build (the load-time checks judge the model, not the planted bug).
  bool admits(int a, int b, bool planted = true) const {
    const int wa = weld_[a], wb = weld_[b];
    if (wa == wb) return false; // same weld body (both static included)
    // The planted bug keeps parent-child pairs that filterparent drops.
    if (!(planted && ACH_BUG(CollisionFilteredPairKept)) && wa >= 0 && wb >= 0 && (wa == weld_parent_[b] || wb == weld_parent_[a])) return false;
    if (!((contype_[a] & conaffinity_[b]) || (contype_[b] & conaffinity_[a]))) return false;
    if (excluded_.empty()) return true;
    const std::pair<int, int> bodies{std::min(body_[a], body_[b]), std::max(body_[a], body_[b])};
    return !std::binary_search(excluded_.begin(), excluded_.end(), bodies);
  }

  /// The weld body of shape s (-1: static).
  int weld(int s) const { return weld_[s]; }

 private:
  std::vector<int> weld_, weld_parent_, body_;
  std::vector<std::uint32_t> contype_, conaffinity_;
  std::vector<std::pair<int, int>> excluded_; // body pairs, the smaller first, sorted
};

/// Every admitted pair of shapes, a < b, in (a, b) order: the order of the contact rows. Quadratic
/// in the shapes: for listings and small scenes, never for stepping.
inline std::vector<ShapePair> candidate_pairs(const Model& m) {
  const PairFilter f(m);
  std::vector<ShapePair> out;
  const int n = static_cast<int>(m.shapes.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      if (f.admits(a, b)) out.push_back({a, b});
  return out;
}

/// Models of at most kListedShapes shapes and kListedPairs admitted pairs list their pairs at load
/// (KCollision::listed, KConstraints::listed_pairs): the broad phase then tests each listed pair, lane
/// by lane, which is as cheap as it gets for a robot. Returns whether m lists them (into out).
constexpr int kListedShapes = 128, kListedPairs = 2048;
inline bool listed_pairs(const Model& m, std::vector<ShapePair>& out) {
  out.clear();
  if (m.shapes.size() > static_cast<std::size_t>(kListedShapes)) return false;
  out = candidate_pairs(m);
  if (out.size() <= static_cast<std::size_t>(kListedPairs)) return true;
  out.clear();
  return false;
}

} // namespace ach
