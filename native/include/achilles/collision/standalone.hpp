// The narrow phase on its own, one pair at a time (lanes 1), for validation: exactly the code the
// batch runs, planted bugs included in the bug build.
#pragma once

#include <vector>

#include "../engine.hpp"
#include "pair_points.hpp"
#include "shape.hpp"

namespace ach {

struct PairQuery {
  ShapeKind kind[2];
  double half[2][3];
  double radius[2];
  // cylinder, ellipsoid: MuJoCo's geom_size; convex: the hull's vertices (x y z each, shape frame) and
  // its graph (hull_graph.hpp) or none (shape.hpp Shape, as a model's shapes carry them)
  double size[2][3] = {{0, 0, 0}, {0, 0, 0}};
  std::vector<double> vert[2];
  std::vector<int> graph[2];
  std::vector<int> extrema[2]; // with a graph: its hill-climbing seeds (hull_graph.hpp hull_extrema)
  HullPolygonData polygons[2]; // with faces: its polygons (hull_polygons.hpp)
  double R[2][9];              // world orientation, row-major
  double p[2][3];
  double margin; // detection threshold: contacts with dist < margin
};

struct PairContacts {
  int count = 0;
  double normal[3] = {0, 0, 0};
  double pos[kPairPoints][3] = {};
  double dist[kPairPoints] = {};
  double normals[kPairPoints][3] = {}; // per active point: its own normal (multiccd's perturbed points), else `normal`
};

/// Contacts of each query in `precision`; active slots in slot order. A pair the batch refuses at
/// load (convex_pair_unsupported: MuJoCo's face clipping, a rounded box with a convex kind) is
/// refused here too (std::invalid_argument naming it), never answered approximately.
void collide_shape_pairs(const std::vector<PairQuery>& queries, Precision precision, std::vector<PairContacts>& out);

} // namespace ach
