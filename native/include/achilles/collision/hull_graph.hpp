// A convex shape's hull graph in the layout of MuJoCo's mesh_graph (user_mesh.cc mjCMesh::MakeGraph),
// which its plane–mesh collider and hill-climbing support read (convex/analytic.hpp):
//   numvert, numface, vert_edgeadr[numvert], vert_globalid[numvert], edge_localid[numvert + 3·numface]
// (face_globalid, which the colliders never read, is left out). The hull vertices are the shape's
// vertices that some face uses, numbered in ascending order (vert_globalid: their index in `vert`);
// each one's neighbours are the other corners of its faces, face by face in `faces` order, each
// listed once, then −1. MuJoCo numbers vertices and orders neighbours as qhull hands them out, which
// the importer's quickhull does not reproduce: the neighbour SETS are the same wherever the hull's
// faces are triangles in general position; their order decides which two neighbours a plane contact
// adds only when three or more of them are within the margin (a flat face of four or more corners
// resting on the plane). docs/collision-validation.md notes this.
#pragma once

#include <cstddef>
#include <vector>

namespace ach {

/// The graph of the hull whose triangles are `faces` (three indices into nvert vertices each; the
/// caller has checked they are in range). Empty when there are no faces.
inline std::vector<int> hull_graph(const std::vector<int>& faces, int nvert) {
  std::vector<int> graph;
  const int numface = static_cast<int>(faces.size() / 3);
  if (numface == 0) return graph;
  std::vector<int> local(static_cast<std::size_t>(nvert), -1);
  for (int f : faces) local[static_cast<std::size_t>(f)] = 0;
  std::vector<int> global;
  for (int v = 0; v < nvert; ++v)
    if (local[static_cast<std::size_t>(v)] == 0) local[static_cast<std::size_t>(v)] = static_cast<int>(global.size()), global.push_back(v);
  const int numvert = static_cast<int>(global.size());
  graph.assign(2 + 2 * static_cast<std::size_t>(numvert), 0);
  graph[0] = numvert;
  graph[1] = numface;
  for (int i = 0; i < numvert; ++i) {
    graph[2 + static_cast<std::size_t>(numvert) + i] = global[static_cast<std::size_t>(i)];
    graph[2 + static_cast<std::size_t>(i)] = static_cast<int>(graph.size()) - 2 - 2 * numvert; // vert_edgeadr
    const std::size_t start = graph.size();
    for (int f = 0; f < numface; ++f) {
      const int* t = faces.data() + 3 * f;
      if (t[0] != global[i] && t[1] != global[i] && t[2] != global[i]) continue;
      for (int c = 0; c < 3; ++c) {
        if (t[c] == global[i]) continue;
        const int nb = local[static_cast<std::size_t>(t[c])];
        bool seen = false;
        for (std::size_t j = start; j < graph.size(); ++j) seen = seen || graph[j] == nb;
        if (!seen) graph.push_back(nb);
      }
    }
    graph.push_back(-1);
  }
  return graph;
}

} // namespace ach
