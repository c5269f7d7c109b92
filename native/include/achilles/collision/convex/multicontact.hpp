// MuJoCo's single-pass multi-contact for two of box, cylinder and mesh at zero margin (not box–box)
// (engine_collision_gjk.c `multicontact` and `polygonClip`, nativeccd with multiccd on, where
// mjc_Convex's maxContacts is 4; a cylinder's features: cylinder_faces.hpp).
//
// From EPA's final face: its three polytope vertices name one shape vertex on each geom
// (index1/index2: a box corner's bits, a mesh vertex). Repeated indices make the feature on each
// geom a vertex (1), an edge (2) or a face (3). Each feature gives candidate face normals (a box's
// from its corner bits or, when ambiguous, the axis nearest the contact direction within
// kFaceTol; a mesh's from its polygon map: the polygons through the feature's vertices). Two
// candidate faces anti-parallel within kFaceTol → face–face; else, when one feature is an
// edge or a vertex, its edges (a vertex's: toward each neighbour along a polygon) perpendicular
// within kEdgeTol to a face of the other → edge–face. Otherwise EPA's one contact stands.
// The incident face (or edge) is clipped (Sutherland–Hodgman) by the planes through the
// reference face's edges perpendicular to it, points above the reference face dropped; more
// than 4 left are reduced to the quadrilateral of largest area (polygonQuad); an edge keeps its
// two farthest points. Each point's depth is its own distance to the reference face's plane.
// Fixed storage: a polygon of at most kMaxPolygonVerts vertices, a vertex in at most
// kMaxMeshDegree polygons (larger meshes are refused at load: hull_polygons.hpp polygons_fit_clipping).
#pragma once

#include "../../bugs.hpp"
#include "../hull_polygons.hpp"
#include "cylinder_faces.hpp"
#include "epa.hpp"

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

inline constexpr int kMaxPolygonVerts = kMaxHullPolygonVerts;
inline constexpr int kMaxMeshDegree = kMaxHullPolygonVerts;
inline constexpr int kMaxClipContacts = 4; // mjc_Convex's maxContacts for box–mesh and mesh–mesh

/// mjFACE_TOL and mjEDGE_TOL (engine_collision_gjk.h; float's for float).
template <class T>
struct ClipTol;
template <>
struct ClipTol<double> {
  static constexpr double face = 0.996, edge = 0.0888;
};
template <>
struct ClipTol<float> {
  static constexpr float face = 0.996f, edge = 0.0888f;
};

/// The clipped contacts: x1 on geom a, x2 on geom b, dist ≤ 0 each (MuJoCo's status.x1/x2/dist).
template <class T>
struct ClipContacts {
  int n = 0;
  /// a's edge clipped by b's face to nothing: MuJoCo's swap of x1 and x2 (for the clipped points,
  /// which it then has none of) turns EPA's one witness pair round instead, so its one contact's
  /// normal points from b to a (measured on 3.14: a cylinder's cap against a side face)
  bool swapped = false;
  T dist[kMaxClipContacts];
  T x1[3 * kMaxClipContacts];
  T x2[3 * kMaxClipContacts];
};

namespace clip_detail {

template <class T>
inline void global_point(T res[3], const T R[9], const T* p, T l1, T l2, T l3) {
  res[0] = R[0] * l1 + R[1] * l2 + R[2] * l3;
  res[1] = R[3] * l1 + R[4] * l2 + R[5] * l3;
  res[2] = R[6] * l1 + R[7] * l2 + R[8] * l3;
  if (p) res[0] += p[0], res[1] += p[1], res[2] += p[2];
}

/// The quadrilateral a b c d's area, half the norm of its diagonals' cross product. MuJoCo 3.14's
/// (the stored source's area4, ½|(d−a)×(b−d) + (c−b)×(a−c)|, picks another quad on a regular
/// octagon: measured, 3.14 picks the one this formula's greedy search picks).
template <class T>
T quad_area(const T a[3], const T b[3], const T c[3], const T d[3]) {
  const T ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const T bd[3] = {d[0] - b[0], d[1] - b[1], d[2] - b[2]};
  T e[3];
  cross3(e, ac, bd);
  return T(0.5) * norm3(e);
}

/// polygonQuad: from each start a, grow d, then c, then b while the area grows; indices into the polygon.
/// `starts`: the first corners tried (0 … starts − 1; 1 holds corner 0 fixed, as the plane–mesh collider does).
template <class T>
void largest_quad(int res[4], const T* poly, int n, int starts = -1) {
  if (starts < 0 || starts > n) starts = n;
  const auto nxt = [n](int i) { return i == n - 1 ? 0 : i + 1; };
  int a = 0, b = 1, c = 2, d = 3;
  res[0] = a, res[1] = b, res[2] = c, res[3] = d;
  T m = quad_area(poly + 3 * a, poly + 3 * b, poly + 3 * c, poly + 3 * d);
  for (; a < starts; ++a) {
    for (;;) {
      T m_next = quad_area(poly + 3 * a, poly + 3 * b, poly + 3 * c, poly + 3 * nxt(d));
      if (m_next <= m) break;
      m = m_next, d = nxt(d);
      res[0] = a, res[1] = b, res[2] = c, res[3] = d;
      for (;;) {
        m_next = quad_area(poly + 3 * a, poly + 3 * b, poly + 3 * nxt(c), poly + 3 * d);
        if (m_next <= m) break;
        m = m_next, c = nxt(c);
        res[0] = a, res[1] = b, res[2] = c, res[3] = d;
      }
      for (;;) {
        m_next = quad_area(poly + 3 * a, poly + 3 * nxt(b), poly + 3 * c, poly + 3 * d);
        if (m_next <= m) break;
        m = m_next, b = nxt(b);
        res[0] = a, res[1] = b, res[2] = c, res[3] = d;
      }
    }
    if (b == a) {
      b = nxt(b);
      if (c == b) {
        c = nxt(c);
        if (d == c) d = nxt(d);
      }
    }
  }
}

/// The plane through edge v1 v2 containing the face normal n: its unit normal and offset.
template <class T>
T side_plane(T res[3], const T v1[3], const T v2[3], const T n[3]) {
  T v3[3], e1[3], e2[3];
  add3(v3, v1, n);
  sub3(e1, v2, v1);
  sub3(e2, v3, v1);
  cross3(res, e1, e2);
  normalize3(res);
  return dot3(res, v1);
}

template <class T>
inline bool inside_plane(const T a[3], const T n[3], const T p[3]) {
  const T d[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
  return dot3(d, n) > -Limits<T>::minval;
}

/// witnessOnFace: w2 the clipped point, w1 moved by its depth along dir; returns the depth.
template <class T>
T witness(T w1[3], T w2[3], const T v[3], const T face_point[3], const T n[3], const T dir[3]) {
  const T d[3] = {v[0] - face_point[0], v[1] - face_point[1], v[2] - face_point[2]};
  const T dist = dot3(d, n);
  const T s = -std::fabs(dist);
  w1[0] = v[0] + dir[0] * s, w1[1] = v[1] + dir[1] * s, w1[2] = v[2] + dir[2] * s;
  copy3(w2, v);
  return dist;
}

/// polygonClip: face2 (polygon or edge) clipped by face1's side planes (face1's normal n).
template <class T>
void clip_polygon(ClipContacts<T>& out, const T* face1, int nface1, const T* face2, int nface2, const T n[3], const T dir[3]) {
  if (nface1 < 3) return;
  constexpr int kCap = 2 * kMaxPolygonVerts + 8; // a convex n-gon clipped by m planes keeps ≤ n + m vertices
  T buf_a[3 * kCap], buf_b[3 * kCap], pn[3 * kMaxPolygonVerts], pd[kMaxPolygonVerts];
  for (int i = 0; i < nface1; ++i) pd[i] = side_plane(pn + 3 * i, face1 + 3 * i, face1 + 3 * (i + 1 < nface1 ? i + 1 : 0), n);
  T* polygon = buf_a;
  T* clipped = buf_b;
  int npolygon = nface2, nclipped = 0;
  for (int i = 0; i < 3 * nface2; ++i) polygon[i] = face2[i];
  const int nsides = ACH_BUG(ContactClipSideSkipped) ? nface1 - 1 : nface1; // the planted bug: the last side not clipped
  for (int e = 0; e < nsides; ++e) {
    const T* fe = face1 + 3 * e;
    const T* ne = pn + 3 * e;
    for (int i = 0; i < npolygon && nclipped < kCap - 2; ++i) {
      const T* P = polygon + 3 * i;
      const T* Q = i < npolygon - 1 ? polygon + 3 * (i + 1) : polygon;
      const T PQ[3] = {Q[0] - P[0], Q[1] - P[1], Q[2] - P[2]};
      const bool in1 = inside_plane(fe, ne, P), in2 = inside_plane(fe, ne, Q);
      if (!in1 && !in2) continue;
      if (in1 && in2) {
        copy3(clipped + 3 * nclipped++, Q);
        continue;
      }
      const T den = dot3(ne, PQ);
      if (den != 0) {
        const T t = (pd[e] - dot3(ne, P)) / den;
        if (t >= 0 && t <= 1) {
          T* c = clipped + 3 * nclipped++;
          c[0] = P[0] + PQ[0] * t, c[1] = P[1] + PQ[1] * t, c[2] = P[2] + PQ[2] * t;
        }
      }
      if (in2) copy3(clipped + 3 * nclipped++, Q);
    }
    T* tmp = polygon;
    polygon = clipped, clipped = tmp;
    npolygon = nclipped, nclipped = 0;
  }
  // drop the points above the reference face
  const int m = npolygon;
  npolygon = 0;
  for (int i = 0; i < m; ++i) {
    T d[3];
    sub3(d, polygon + 3 * i, face1);
    if (!(dot3(d, n) > 0)) {
      if (npolygon != i) copy3(polygon + 3 * npolygon, polygon + 3 * i);
      ++npolygon;
    }
  }
  if (npolygon < 1) return;
  if (npolygon > kMaxClipContacts) {
    int quad[4];
    largest_quad(quad, polygon, npolygon);
    for (int i = 0; i < 4; ++i) out.dist[i] = witness(out.x1 + 3 * i, out.x2 + 3 * i, polygon + 3 * quad[i], face1, n, dir);
    out.n = 4;
    return;
  }
  if (nface2 == 2 && npolygon > 2) { // an edge: its two farthest points
    int best1 = 0, best2 = 1;
    T dmax = 0;
    for (int i = 0; i < npolygon; ++i)
      for (int j = i + 1; j < npolygon; ++j) {
        T d[3];
        sub3(d, polygon + 3 * j, polygon + 3 * i);
        const T d2 = dot3(d, d);
        if (d2 > dmax) dmax = d2, best1 = i, best2 = j;
      }
    out.dist[0] = witness(out.x1, out.x2, polygon + 3 * best1, face1, n, dir);
    out.dist[1] = witness(out.x1 + 3, out.x2 + 3, polygon + 3 * best2, face1, n, dir);
    out.n = 2;
    return;
  }
  for (int i = 0; i < npolygon; ++i) out.dist[i] = witness(out.x1 + 3 * i, out.x2 + 3 * i, polygon + 3 * i, face1, n, dir);
  out.n = npolygon;
}

/// Up to 2 integers common to arr1[0..n) and arr2[0..m), in arr1's order.
inline int common_ints(int res[2], const int* arr1, const int* arr2, int n, int m) {
  int count = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      if (arr1[i] == arr2[j]) {
        res[count++] = arr1[i];
        if (count == 2) return 2;
      }
  return count;
}

/// meshNormals: the polygons through the feature's vertices (a face: one; an edge: up to two; a vertex: all).
template <class T>
int mesh_normals(T* res, int* resind, int dim, const CcdObject<T>& o, const int vi[3]) {
  const HullPolygons<T>& h = *o.shape->polygons;
  const auto put = [&](int slot, int poly) {
    const T* nrm = h.normal + 3 * poly;
    global_point<T>(res + 3 * slot, o.R, nullptr, nrm[0], nrm[1], nrm[2]);
    resind[slot] = poly;
  };
  if (dim == 3) {
    int edgeset[2], faceset[2];
    int n = common_ints(edgeset, h.map + h.mapadr[vi[0]], h.map + h.mapadr[vi[1]], h.mapnum[vi[0]], h.mapnum[vi[1]]);
    if (!n) return 0;
    n = common_ints(faceset, edgeset, h.map + h.mapadr[vi[2]], n, h.mapnum[vi[2]]);
    if (!n) return 0;
    put(0, faceset[0]);
    return 1;
  }
  if (dim == 2) {
    int edgeset[2];
    const int n = common_ints(edgeset, h.map + h.mapadr[vi[0]], h.map + h.mapadr[vi[1]], h.mapnum[vi[0]], h.mapnum[vi[1]]);
    for (int i = 0; i < n; ++i) put(i, edgeset[i]);
    return n;
  }
  if (dim == 1) {
    const int num = h.mapnum[vi[0]];
    for (int i = 0; i < num; ++i) put(i, h.map[h.mapadr[vi[0]] + i]);
    return num;
  }
  return 0;
}

/// meshEdgeNormals of a vertex: unit directions to the previous vertex of each polygon through it,
/// with those ends.
template <class T>
int mesh_edge_normals(T* res, T* endverts, int dim, const CcdObject<T>& o, const T v[9], int v1i) {
  if (dim == 1) {
    const HullPolygons<T>& h = *o.shape->polygons;
    const int num = h.mapnum[v1i];
    for (int i = 0; i < num; ++i) {
      const int poly = h.map[h.mapadr[v1i] + i];
      const int adr = h.vertadr[poly], nv = h.vertnum[poly];
      for (int j = 0; j < nv; ++j)
        if (h.vert[adr + j] == v1i) {
          const T* vk = o.shape->vert + 3 * h.vert[adr + (j == 0 ? nv - 1 : j - 1)];
          global_point<T>(endverts + 3 * i, o.R, o.p, vk[0], vk[1], vk[2]);
          sub3(res + 3 * i, endverts + 3 * i, v);
          normalize3(res + 3 * i);
          break;
        }
    }
    return num;
  }
  return 0;
}

/// boxNormals2: the box face whose normal is within kFaceTol of n.
template <class T>
int box_normal_near(T res[3], int resind[3], const T R[9], const T n[3]) {
  static constexpr T normals[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
  T l[3];
  l[0] = R[0] * n[0] + R[3] * n[1] + R[6] * n[2];
  l[1] = R[1] * n[0] + R[4] * n[1] + R[7] * n[2];
  l[2] = R[2] * n[0] + R[5] * n[1] + R[8] * n[2];
  scl3(l, l, 1 / std::sqrt(dot3(l, l)));
  for (int i = 0; i < 6; ++i)
    if (dot3(l, normals + 3 * i) > ClipTol<T>::face) {
      global_point<T>(res, R, nullptr, normals[3 * i], normals[3 * i + 1], normals[3 * i + 2]);
      resind[0] = i;
      return 1;
    }
  return 0;
}

/// boxNormals: the box faces through the feature's corners (corner bits: x 1, y 2, z 4).
template <class T>
int box_normals(T res[9], int resind[3], int dim, const CcdObject<T>& o, const int vi[3], const T dir[3]) {
  const T* R = o.R;
  const int v1 = vi[0], v2 = vi[1], v3 = vi[2];
  // +1 where every corner has the bit, −1 where none has it, 0 otherwise
  const auto common = [&](int bit, int n) {
    bool all = (v1 & bit) && (v2 & bit), none = !(v1 & bit) && !(v2 & bit);
    if (n == 3) all = all && (v3 & bit), none = none && !(v3 & bit);
    return int(all) - int(none);
  };
  if (dim == 3) {
    int c = 0;
    const int x = common(1, 3), y = common(2, 3), z = common(4, 3);
    global_point<T>(res, R, nullptr, T(x), T(y), T(z));
    if (x) resind[c++] = 0;
    if (y) resind[c++] = 2;
    if (z) resind[c++] = 4;
    if (x + y + z == -1) resind[0]++;
    return c == 1 ? 1 : box_normal_near(res, resind, R, dir);
  }
  if (dim == 2) {
    int c = 0;
    const int x = common(1, 2), y = common(2, 2), z = common(4, 2);
    if (x) {
      global_point<T>(res, R, nullptr, T(x), T(0), T(0));
      resind[c++] = x > 0 ? 0 : 1;
    }
    if (y) {
      global_point<T>(res + 3 * c, R, nullptr, T(0), T(y), T(0));
      resind[c++] = y > 0 ? 2 : 3;
    }
    if (z) {
      global_point<T>(res + 3, R, nullptr, T(0), T(0), T(z)); // slot 1, as MuJoCo writes it
      resind[c++] = z > 0 ? 4 : 5;
    }
    return c == 2 ? 2 : box_normal_near(res, resind, R, dir);
  }
  if (dim == 1) {
    const T x = (v1 & 1) ? 1 : -1, y = (v1 & 2) ? 1 : -1, z = (v1 & 4) ? 1 : -1;
    global_point<T>(res + 0, R, nullptr, x, T(0), T(0));
    global_point<T>(res + 3, R, nullptr, T(0), y, T(0));
    global_point<T>(res + 6, R, nullptr, T(0), T(0), z);
    resind[0] = x > 0 ? 0 : 1;
    resind[1] = y > 0 ? 2 : 3;
    resind[2] = z > 0 ? 4 : 5;
    return 3;
  }
  return 0;
}

/// boxEdgeNormals of a corner: its three edges to its neighbours, with those ends.
template <class T>
int box_edge_normals(T res[9], T endverts[9], int dim, const CcdObject<T>& o, const T v[9], int v1i) {
  if (dim == 1) {
    const T* s = o.shape->size;
    const T x = (v1i & 1) ? s[0] : -s[0], y = (v1i & 2) ? s[1] : -s[1], z = (v1i & 4) ? s[2] : -s[2];
    const T ends[9] = {-x, y, z, x, -y, z, x, y, -z};
    for (int i = 0; i < 3; ++i) {
      global_point<T>(endverts + 3 * i, o.R, o.p, ends[3 * i], ends[3 * i + 1], ends[3 * i + 2]);
      sub3(res + 3 * i, endverts + 3 * i, v);
      normalize3(res + 3 * i);
    }
    return 3;
  }
  return 0;
}

/// boxFace: face idx's 4 corners in MuJoCo's order (right, left, top, bottom, front, back).
template <class T>
int box_face(T res[12], const CcdObject<T>& o, int idx) {
  static constexpr signed char corners[6][12] = {{1, 1, 1, 1, 1, -1, 1, -1, -1, 1, -1, 1}, {-1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1},
                                                 {-1, 1, -1, 1, 1, -1, 1, 1, 1, -1, 1, 1}, {-1, -1, 1, 1, -1, 1, 1, -1, -1, -1, -1, -1},
                                                 {-1, 1, 1, 1, 1, 1, 1, -1, 1, -1, -1, 1}, {1, 1, -1, -1, 1, -1, -1, -1, -1, 1, -1, -1}};
  if (idx < 0 || idx > 5) return 0;
  const T* s = o.shape->size;
  for (int i = 0; i < 4; ++i) {
    const signed char* c = corners[idx] + 3 * i;
    global_point<T>(res + 3 * i, o.R, o.p, c[0] > 0 ? s[0] : -s[0], c[1] > 0 ? s[1] : -s[1], c[2] > 0 ? s[2] : -s[2]);
  }
  return 4;
}

/// meshFace: polygon idx in the world, its vertices in reverse order.
template <class T>
int mesh_face(T* res, const CcdObject<T>& o, int idx) {
  const HullPolygons<T>& h = *o.shape->polygons;
  const int adr = h.vertadr[idx], nv = h.vertnum[idx];
  for (int i = nv - 1, j = 0; i >= 0; --i, ++j) {
    const T* v = o.shape->vert + 3 * h.vert[adr + i];
    global_point<T>(res + 3 * j, o.R, o.p, v[0], v[1], v[2]);
  }
  return nv;
}

template <class T>
bool aligned_faces(int res[2], const T* v, int nv, const T* w, int nw) {
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j < nw; ++j)
      if (dot3(v + 3 * i, w + 3 * j) < -ClipTol<T>::face) return res[0] = i, res[1] = j, true;
  return false;
}

template <class T>
bool aligned_face_edge(int res[2], const T* edge, int nedge, const T* face, int nface) {
  for (int i = 0; i < nface; ++i)
    for (int j = 0; j < nedge; ++j)
      if (std::fabs(dot3(edge + 3 * j, face + 3 * i)) < ClipTol<T>::edge) return res[0] = j, res[1] = i, true;
  return false;
}

/// simplexDim: 1, 2 or 3 distinct indices; an edge's second vertex moved to slot 1.
template <class T>
int simplex_dim(int vi[3], T v[9]) {
  if (vi[0] == vi[1]) {
    if (vi[0] == vi[2]) return 1;
    vi[1] = vi[2];
    copy3(v + 3, v + 6);
    return 2;
  }
  return (vi[2] == vi[0] || vi[2] == vi[1]) ? 2 : 3;
}

template <class T>
int face_normals(T* res, int* resind, int dim, const CcdObject<T>& o, const int vi[3], const T dir[3]) {
  if (o.shape->kind == ConvexKind::Box) return box_normals(res, resind, dim, o, vi, dir);
  if (o.shape->kind == ConvexKind::Cylinder) return cylinder_normals(res, resind, dim, o, vi);
  return mesh_normals(res, resind, dim, o, vi);
}

/// boxEdgeNormals / meshEdgeNormals: the feature's edge itself (v[0] → v[1]), or a vertex's edges;
/// a cylinder's: its side's segment through v[0] (cylinder_faces.hpp).
template <class T>
int edge_normals(T* res, T* endverts, int dim, const CcdObject<T>& o, const T v[9], int v1i) {
  if (o.shape->kind == ConvexKind::Cylinder) return cylinder_edge_normals(res, endverts, dim, o, v, v1i);
  if (dim == 2) {
    copy3(endverts, v + 3);
    sub3(res, v + 3, v);
    normalize3(res);
    return 1;
  }
  if (o.shape->kind == ConvexKind::Box) return box_edge_normals(res, endverts, dim, o, v, v1i);
  return mesh_edge_normals(res, endverts, dim, o, v, v1i);
}

template <class T>
int face_of(T* res, const CcdObject<T>& o, int idx) {
  if (o.shape->kind == ConvexKind::Box) return box_face(res, o, idx);
  if (o.shape->kind == ConvexKind::Cylinder) return cylinder_face(res, o, idx);
  return mesh_face(res, o, idx);
}

} // namespace clip_detail

/// MuJoCo's `multicontact` after EPA ended on `face` with witnesses x1 (on a), x2 (on b): fills out
/// (n = 0 where MuJoCo keeps EPA's one contact, turned round where out.swapped). a and b are boxes,
/// cylinders or meshes with polygons.
template <class T>
void multicontact(const Polytope<T>& pt, const EpaFace<T>& face, const T x1[3], const T x2[3], const CcdObject<T>& a, const CcdObject<T>& b,
                  ClipContacts<T>& out) {
  using namespace clip_detail;
  out.n = 0;
  out.swapped = false;
  constexpr int kDeg = kMaxMeshDegree > 3 ? kMaxMeshDegree : 3;
  int v1i[3], v2i[3];
  T v1[9], v2[9];
  for (int k = 0; k < 3; ++k) {
    const MinkowskiVertex<T>& pv = pt.verts[face.verts[k]];
    v1i[k] = pv.index1, v2i[k] = pv.index2;
    copy3(v1 + 3 * k, pv.vert1);
    copy3(v2 + 3 * k, pv.vert2);
  }
  int idx1[kDeg], idx2[kDeg];
  T n1[3 * kDeg], n2[3 * kDeg], endverts[3 * kDeg], face1[3 * kMaxPolygonVerts], face2[3 * kMaxPolygonVerts];
  int nface1 = simplex_dim(v1i, v1), nface2 = simplex_dim(v2i, v2);
  T dir[3], dir_neg[3];
  sub3(dir, x2, x1);
  sub3(dir_neg, x1, x2);
  int nnorms1 = face_normals(n1, idx1, nface1, a, v1i, dir_neg);
  int nnorms2 = face_normals(n2, idx2, nface2, b, v2i, dir);

  int res[2];
  bool edge1 = false, edge2 = false;
  if (!aligned_faces(res, n1, nnorms1, n2, nnorms2)) {
    if (nface1 < 3 && nface1 <= nface2) { // an edge (or a vertex's edges) of a against a face of b
      nnorms1 = edge_normals(n1, endverts, nface1, a, v1, v1i[0]);
      if (!aligned_face_edge(res, n1, nnorms1, n2, nnorms2)) return;
      edge1 = true;
    } else if (nface2 < 3) {
      nnorms2 = edge_normals(n2, endverts, nface2, b, v2, v2i[0]);
      if (!aligned_face_edge(res, n2, nnorms2, n1, nnorms1)) return;
      edge2 = true;
    } else {
      return;
    }
  }
  const int i = res[0], j = res[1];
  if (edge1) {
    copy3(face1, v1);
    copy3(face1 + 3, endverts + 3 * i);
    nface1 = 2;
  } else {
    nface1 = face_of(face1, a, edge2 ? idx1[j] : idx1[i]);
  }
  if (edge2) {
    copy3(face2, v2);
    copy3(face2 + 3, endverts + 3 * i);
    nface2 = 2;
  } else {
    nface2 = face_of(face2, b, idx2[j]);
  }

  T wit_dir[3];
  if (edge1) { // a's edge clipped by b's face; the witnesses swapped back to (a, b)
    scl3(wit_dir, n2 + 3 * j, T(-1));
    clip_polygon(out, face2, nface2, face1, nface1, n2 + 3 * j, wit_dir);
    out.swapped = out.n == 0;
    for (int k = 0; k < out.n; ++k) {
      T tmp[3];
      copy3(tmp, out.x1 + 3 * k);
      copy3(out.x1 + 3 * k, out.x2 + 3 * k);
      copy3(out.x2 + 3 * k, tmp);
    }
    return;
  }
  if (edge2) {
    scl3(wit_dir, n1 + 3 * j, T(-1));
    clip_polygon(out, face1, nface1, face2, nface2, n1 + 3 * j, wit_dir);
    return;
  }
  copy3(wit_dir, n2 + 3 * j);
  clip_polygon(out, face1, nface1, face2, nface2, n1 + 3 * i, wit_dir);
}

} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
