// The narrow phase on its own, one pair at a time (lanes 1), for validation: exactly the code the
// batch runs, planted bugs included in the bug build.
#pragma once

#include <vector>

#include "../engine.hpp"
#include "shape.hpp"

namespace ach {

struct PairQuery {
  ShapeKind kind[2];
  double half[2][3];
  double radius[2];
  double R[2][9]; // world orientation, row-major
  double p[2][3];
  double margin; // detection threshold: contacts with dist < margin
};

struct PairContacts {
  int count = 0;
  double normal[3] = {0, 0, 0};
  double pos[4][3] = {};
  double dist[4] = {};
};

/// Contacts of each query in `precision`; active slots in slot order.
void collide_shape_pairs(const std::vector<PairQuery>& queries, Precision precision, std::vector<PairContacts>& out);

} // namespace ach
