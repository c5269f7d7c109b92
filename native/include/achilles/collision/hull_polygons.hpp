// A convex hull's polygons as MuJoCo's compiler makes them (user_mesh.cc mjCMesh::MakePolygons,
// MakePolygonNormals), for the face clipping (convex/multicontact.hpp):
//  - each hull triangle's unit normal is turned into its azimuth atan2(n_y, n_x) and polar angle
//    acos(n_z), each rounded to a multiple of 0.01 rad (|n_z| > 1 − 1e-7: (0, 0) or (0, π)), and
//    triangles of one rounded pair are merged into one polygon: a triangle sharing an edge (in
//    the opposite direction) with the polygon's boundary takes that edge out and adds its other
//    edges; triangles that share no edge yet are kept as separate islands, joined when a later
//    triangle connects them;
//  - each island's boundary, walked from its first edge in the boundary list, is one polygon
//    (fewer than 3 vertices: dropped), its normal the unit normal of its first three vertices;
//  - each vertex's map lists the polygons through it, in polygon order.
// The one thing not reproduced: MuJoCo lists the polygons in its hash map's iteration order
// (std::unordered_map over the rounded angles); here they come in the order their first triangle
// appears. The polygon order decides only which candidate face the clipping tries first when two
// align, and the map is read in that order. Vertex order within a polygon is MuJoCo's for the
// same triangles in the same order (its faces are qhull's; the importer's quickhull orders them
// its own way, which can start a polygon at another vertex and so permute the clipped points).
#pragma once

#include <cmath>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace ach {

/// The most vertices of one polygon, and the most polygons through one vertex, the face clipping holds
/// (fixed storage on the stack: convex/multicontact.hpp).
inline constexpr int kMaxHullPolygonVerts = 256;

struct HullPolygonData {
  std::vector<int> vertadr, vertnum, vert; // polygon i: vertnum[i] vertex ids at vert[vertadr[i]...]
  std::vector<double> normal;              // 3 per polygon, unit, outward
  std::vector<int> mapadr, mapnum, map;    // vertex v: mapnum[v] polygon ids at map[mapadr[v]...]
  int npoly() const { return static_cast<int>(vertnum.size()); }
};

namespace hull_polygon_detail {

/// One group of coplanar triangles: its boundary edges, each with the island it belongs to.
struct Group {
  std::pair<double, double> key;
  std::vector<std::pair<int, int>> edges;
  std::vector<int> island;
  int nisland = 1;

  void merge_islands(int& i1, int& i2) {
    if (i2 < i1) std::swap(i1, i2);
    for (int& k : island) {
      if (k == i2)
        k = i1;
      else if (k > i2)
        --k;
    }
  }

  /// Takes out the boundary edge b→a if present (the triangle's a→b shared), joining islands.
  bool take_edge(int a, int b, int& isl) {
    for (std::size_t i = 0; i < edges.size(); ++i)
      if (edges[i].first == b && edges[i].second == a) {
        int other = island[i];
        if (isl == -1)
          isl = other;
        else if (other != isl)
          --nisland, merge_islands(isl, other);
        edges.erase(edges.begin() + static_cast<std::ptrdiff_t>(i));
        island.erase(island.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
      }
    return false;
  }

  void insert(int v1, int v2, int v3) {
    int isl = -1;
    // MuJoCo's first edge takes the island as found; the later two may join islands
    bool shared1 = false;
    for (std::size_t i = 0; i < edges.size(); ++i)
      if (edges[i].first == v2 && edges[i].second == v1) {
        shared1 = true;
        isl = island[i];
        edges.erase(edges.begin() + static_cast<std::ptrdiff_t>(i));
        island.erase(island.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    const bool shared2 = take_edge(v2, v3, isl);
    const bool shared3 = take_edge(v3, v1, isl);
    if (isl == -1) isl = nisland++;
    if (!shared1) edges.push_back({v1, v2}), island.push_back(isl);
    if (!shared2) edges.push_back({v2, v3}), island.push_back(isl);
    if (!shared3) edges.push_back({v3, v1}), island.push_back(isl);
  }

  /// Each island's boundary walked from its first edge (MeshPolygon::Paths).
  std::vector<std::vector<int>> paths() const {
    if (edges.size() == 3) return {{edges[0].first, edges[1].first, edges[2].first}};
    std::vector<std::vector<int>> out;
    for (int i = 0; i < nisland; ++i) {
      std::vector<int> path;
      for (std::size_t j = 0; j < edges.size(); ++j)
        if (island[j] == i) {
          path.push_back(edges[j].first), path.push_back(edges[j].second);
          break;
        }
      if (path.empty()) continue;
      int next = path.back();
      for (std::size_t l = 0; l < edges.size(); ++l) {
        bool done = false;
        for (std::size_t k = 1; k < edges.size(); ++k) // from 1, as MuJoCo's walk
          if (island[k] == i && edges[k].first == next) {
            next = edges[k].second;
            if (next == path[0]) {
              out.push_back(path);
              done = true;
            } else {
              path.push_back(next);
            }
            break;
          }
        if (done) break;
      }
    }
    return out;
  }
};

/// (b − a) × (c − a) into n; returns its norm.
inline double triangle_normal(double n[3], const double* a, const double* b, const double* c) {
  const double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  n[0] = e1[1] * e2[2] - e1[2] * e2[1], n[1] = e1[2] * e2[0] - e1[0] * e2[2], n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  return std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

/// MeshPolygonKey: the triangle's rounded (azimuth, polar) pair; false for a degenerate triangle.
inline bool polygon_key(std::pair<double, double>& key, const double* a, const double* b, const double* c) {
  constexpr double kAngleTol = 0.01, kPi = 3.14159265358979323846;
  double n[3];
  const double norm = triangle_normal(n, a, b, c);
  if (norm < 1e-15) return false;         // mjMINVAL
  for (double& x : n) x = x / norm + 0.0; // +0.0: no negative zero into atan2
  if (std::abs(n[2]) > 1.0 - 1e-7) {
    key = {0.0, n[2] < 0 ? std::round(kPi / kAngleTol) : 0.0};
    return true;
  }
  key = {std::round(std::atan2(n[1], n[0]) / kAngleTol), std::round(std::acos(n[2]) / kAngleTol)};
  return true;
}

} // namespace hull_polygon_detail

/// The vertices' polygon lists (mapadr, mapnum, map) of polygons vertadr/vertnum/vert over nvert
/// vertices: each vertex's polygons in polygon order, as MuJoCo's compiler fills mesh_polymap.
inline void fill_polygon_map(HullPolygonData& p, int nvert) {
  std::vector<std::vector<int>> by_vertex(static_cast<std::size_t>(nvert));
  for (int i = 0; i < p.npoly(); ++i)
    for (int j = 0; j < p.vertnum[static_cast<std::size_t>(i)]; ++j)
      by_vertex[static_cast<std::size_t>(p.vert[static_cast<std::size_t>(p.vertadr[static_cast<std::size_t>(i)] + j)])].push_back(i);
  p.mapadr.assign(static_cast<std::size_t>(nvert), 0);
  p.mapnum.assign(static_cast<std::size_t>(nvert), 0);
  p.map.clear();
  for (std::size_t v = 0; v < by_vertex.size(); ++v) {
    p.mapadr[v] = static_cast<int>(p.map.size());
    p.mapnum[v] = static_cast<int>(by_vertex[v].size());
    p.map.insert(p.map.end(), by_vertex[v].begin(), by_vertex[v].end());
  }
}

/// The polygons of the hull whose triangles are `faces` (indices into `vert`, x y z each, counter-
/// clockwise from outside). `key_vert` (same vertices, same order) is the frame the triangles are
/// grouped in: MuJoCo groups them in the frame the mesh was given in, before moving it to its
/// principal axes, and a rounded angle can fall on either side of a cell boundary in another frame;
/// empty: `vert`. The normals are `vert`'s. Empty when there are no faces.
inline HullPolygonData hull_polygons(const std::vector<int>& faces, const std::vector<double>& vert, const std::vector<double>& key_vert = {}) {
  const std::vector<double>& kv = key_vert.size() == vert.size() ? key_vert : vert;
  using hull_polygon_detail::Group;
  HullPolygonData out;
  const int nvert = static_cast<int>(vert.size() / 3);
  std::vector<Group> groups;
  std::map<std::pair<double, double>, std::size_t> index; // a key's group
  for (std::size_t f = 0; f + 2 < faces.size(); f += 3) {
    const int v1 = faces[f], v2 = faces[f + 1], v3 = faces[f + 2];
    std::pair<double, double> key;
    if (!hull_polygon_detail::polygon_key(key, &kv[3 * static_cast<std::size_t>(v1)], &kv[3 * static_cast<std::size_t>(v2)],
                                          &kv[3 * static_cast<std::size_t>(v3)]))
      continue;
    const auto found = index.find(key);
    if (found == index.end()) {
      index.emplace(key, groups.size());
      groups.push_back(Group{key, {{v1, v2}, {v2, v3}, {v3, v1}}, {0, 0, 0}, 1});
      continue;
    }
    groups[found->second].insert(v1, v2, v3);
  }
  for (const Group& g : groups)
    for (const std::vector<int>& path : g.paths()) {
      if (path.size() < 3) continue;
      out.vertadr.push_back(static_cast<int>(out.vert.size()));
      out.vertnum.push_back(static_cast<int>(path.size()));
      out.vert.insert(out.vert.end(), path.begin(), path.end());
      // mjuu_makenormal of the first three vertices
      double n[3];
      const std::size_t i0 = 3 * static_cast<std::size_t>(path[0]), i1 = 3 * static_cast<std::size_t>(path[1]),
                        i2 = 3 * static_cast<std::size_t>(path[2]);
      const double norm = hull_polygon_detail::triangle_normal(n, &vert[i0], &vert[i1], &vert[i2]);
      if (norm < 1e-14)
        n[0] = 1, n[1] = 0, n[2] = 0; // mjEPS
      else
        n[0] /= norm, n[1] /= norm, n[2] /= norm;
      out.normal.insert(out.normal.end(), n, n + 3);
    }
  fill_polygon_map(out, nvert);
  return out;
}

/// True when every polygon and every vertex's polygon list fits kMaxHullPolygonVerts.
inline bool polygons_fit_clipping(const HullPolygonData& p) {
  for (int n : p.vertnum)
    if (n > kMaxHullPolygonVerts) return false;
  for (int n : p.mapnum)
    if (n > kMaxHullPolygonVerts) return false;
  return true;
}

} // namespace ach
