// EPA: the penetration depth of overlapping shapes (MuJoCo's nativeccd, engine_collision_gjk.c).
//
// Starting from GJK's simplex (a segment and a triangle are first blown up into a hexahedron
// around the origin), the polytope inside A − B grows toward the face nearest the origin: its
// distance is a lower bound on the depth, the support point w along that face's normal gives
// the upper bound n̂·w; the loop ends when upper − lower < tolerance (mjMINEPATOL for two discrete
// shapes, which also stop on a repeated support vertex). The faces w sees are removed (the
// horizon) and w is joined to the horizon's edges. Witness points: the nearest face's barycentric
// coordinates of the origin's projection applied to the source points on A and on B.
// Storage: fixed arrays sized for kMaxCcdIterations (5 + N vertices, 6N faces), no allocation.
#pragma once

#include "gjk.hpp"

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

enum class EpaStatus : int {
  Success = 0,
  P2InvalidFaces,
  P2NonConvex,
  P2OriginOnFace,
  P3BadNormal,
  P3InvalidV4,
  P3InvalidV5,
  P3MissingOrigin,
  P3OriginOnFace,
  P4MissingOrigin
};

template <class T>
struct EpaFace {
  int verts[3]; // polytope vertex indices
  int adj[3];   // adjacent faces across edges [v0 v1], [v1 v2], [v2 v0]
  T v[3];       // the origin's projection on the face (an outward normal)
  T dist2;      // |v|²
  int index;    // slot in the map; −1 not in it, −2 deleted
};

template <class T>
struct Polytope {
  static constexpr int kMaxVerts = 5 + kMaxCcdIterations;
  static constexpr int kMaxFaces = 6 * kMaxCcdIterations;
  static constexpr int kMaxHorizon = kMaxFaces; // MuJoCo keeps 24; more only where it would overrun
  MinkowskiVertex<T> verts[kMaxVerts];
  int nverts = 0;
  EpaFace<T> faces[kMaxFaces];
  int nfaces = 0;
  int maxfaces = 0;
  T center[3];
  EpaFace<T>* map[kMaxFaces];
  int nmap = 0;
  int horizon_index[kMaxHorizon];
  int horizon_edge[kMaxHorizon];
  int nedges = 0;
  const T* w = nullptr;
};

template <class T>
inline int insert_vertex(Polytope<T>& pt, const MinkowskiVertex<T>& v) {
  pt.verts[pt.nverts] = v;
  return pt.nverts++;
}

/// Adds the support vertex along d (unit after division by dnorm; +x when d vanishes).
template <class T>
int epa_support(Polytope<T>& pt, CcdObject<T>& a, CcdObject<T>& b, const T d[3], T dnorm) {
  T dir[3] = {1, 0, 0}, dir_neg[3] = {-1, 0, 0};
  if (dnorm > Limits<T>::minval) {
    dir[0] = d[0] / dnorm, dir[1] = d[1] / dnorm, dir[2] = d[2] / dnorm;
    scl3(dir_neg, dir, T(-1));
  }
  const int n = pt.nverts++;
  minkowski_support(pt.verts[n], a, b, dir, dir_neg);
  return n;
}

/// Attach face (v1, v2, v3); returns its squared distance to the origin (0: degenerate).
template <class T>
T attach_face(Polytope<T>& pt, int v1, int v2, int v3, int adj1, int adj2, int adj3) {
  EpaFace<T>& f = pt.faces[pt.nfaces++];
  f.verts[0] = v1, f.verts[1] = v2, f.verts[2] = v3;
  f.adj[0] = adj1, f.adj[1] = adj2, f.adj[2] = adj3;
  f.dist2 = 0, f.index = -1;
  if (project_origin_plane(f.v, pt.verts[v3].vert, pt.verts[v2].vert, pt.verts[v1].vert)) return 0;
  T outward[3];
  sub3(outward, pt.verts[v1].vert, pt.center);
  if (dot3(f.v, outward) < 0) scl3(f.v, f.v, T(-1)); // point away from the polytope
  f.dist2 = dot3(f.v, f.v);
  f.index = -1;
  return f.dist2;
}

template <class T>
inline void replace_simplex3(Polytope<T>& pt, CcdStatus<T>& st, int v1, int v2, int v3) {
  st.nsimplex = 3;
  const MinkowskiVertex<T> a = pt.verts[v1], b = pt.verts[v2], c = pt.verts[v3];
  st.simplex[0] = a, st.simplex[1] = b, st.simplex[2] = c;
  pt.nfaces = 0, pt.nverts = 0, pt.nmap = 0;
}

/// The origin and p3 on the same side of plane p0 p1 p2.
template <class T>
bool same_side(const T p0[3], const T p1[3], const T p2[3], const T p3[3]) {
  T d1[3], d2[3], d3[3], d4[3], n[3];
  sub3(d1, p1, p0);
  sub3(d2, p2, p0);
  cross3(n, d1, d2);
  sub3(d3, p3, p0);
  const T dot1 = dot3(n, d3);
  scl3(d4, p0, T(-1));
  const T dot2 = dot3(n, d4);
  return (dot1 > 0 && dot2 > 0) || (dot1 < 0 && dot2 < 0);
}

template <class T>
bool test_tetra(const T p0[3], const T p1[3], const T p2[3], const T p3[3]) {
  return same_side(p0, p1, p2, p3) && same_side(p1, p2, p3, p0) && same_side(p2, p3, p0, p1) && same_side(p3, p0, p1, p2);
}

/// Rotation by 120° about axis.
template <class T>
void rotmat120(T R[9], const T axis[3]) {
  const T n = norm3(axis);
  const T u1 = axis[0] / n, u2 = axis[1] / n, u3 = axis[2] / n;
  const T sn = T(0.86602540378), cs = T(-0.5);
  R[0] = cs + u1 * u1 * (1 - cs);
  R[1] = u1 * u2 * (1 - cs) - u3 * sn;
  R[2] = u1 * u3 * (1 - cs) + u2 * sn;
  R[3] = u2 * u1 * (1 - cs) + u3 * sn;
  R[4] = cs + u2 * u2 * (1 - cs);
  R[5] = u2 * u3 * (1 - cs) - u1 * sn;
  R[6] = u1 * u3 * (1 - cs) - u2 * sn;
  R[7] = u2 * u3 * (1 - cs) + u1 * sn;
  R[8] = cs + u3 * u3 * (1 - cs);
}

/// Nonzero when the ray v1 → v2 crosses triangle v3 v4 v5.
template <class T>
int ray_triangle(const T v1[3], const T v2[3], const T v3[3], const T v4[3], const T v5[3]) {
  T d12[3], d13[3], d14[3], d15[3];
  sub3(d12, v2, v1);
  sub3(d13, v3, v1);
  sub3(d14, v4, v1);
  sub3(d15, v5, v1);
  const T vol1 = det3(d13, d14, d12), vol2 = det3(d14, d15, d12), vol3 = det3(d15, d13, d12);
  if (vol1 >= 0 && vol2 >= 0 && vol3 >= 0) return 1;
  if (vol1 <= 0 && vol2 <= 0 && vol3 <= 0) return -1;
  return 0;
}

/// Affine coordinates of p in triangle v1 v2 v3 (in the plane of its largest projection).
template <class T>
void tri_affine_coord(T lambda[3], const T v1[3], const T v2[3], const T v3[3], const T p[3]) {
  const T m14 = v2[1] * v3[2] - v2[2] * v3[1] - v1[1] * v3[2] + v1[2] * v3[1] + v1[1] * v2[2] - v1[2] * v2[1];
  const T m24 = v2[0] * v3[2] - v2[2] * v3[0] - v1[0] * v3[2] + v1[2] * v3[0] + v1[0] * v2[2] - v1[2] * v2[0];
  const T m34 = v2[0] * v3[1] - v2[1] * v3[0] - v1[0] * v3[1] + v1[1] * v3[0] + v1[0] * v2[1] - v1[1] * v2[0];
  const T mu1 = std::fabs(m14), mu2 = std::fabs(m24), mu3 = std::fabs(m34);
  T m_max;
  int x, y;
  if (mu1 >= mu2 && mu1 >= mu3)
    m_max = m14, x = 1, y = 2;
  else if (mu2 >= mu3)
    m_max = m24, x = 0, y = 2;
  else
    m_max = m34, x = 0, y = 1;
  const T c31 = p[x] * v2[y] + p[y] * v3[x] + v2[x] * v3[y] - p[x] * v3[y] - p[y] * v2[x] - v3[x] * v2[y];
  const T c32 = p[x] * v3[y] + p[y] * v1[x] + v3[x] * v1[y] - p[x] * v1[y] - p[y] * v3[x] - v1[x] * v3[y];
  const T c33 = p[x] * v1[y] + p[y] * v2[x] + v1[x] * v2[y] - p[x] * v2[y] - p[y] * v1[x] - v2[x] * v1[y];
  lambda[0] = c31 / m_max, lambda[1] = c32 / m_max, lambda[2] = c33 / m_max;
}

template <class T>
bool tri_point_intersect(const T v1[3], const T v2[3], const T v3[3], const T p[3]) {
  T l[3];
  tri_affine_coord(l, v1, v2, v3, p);
  if (l[0] < 0 || l[1] < 0 || l[2] < 0) return false;
  T pr[3], diff[3];
  for (int i = 0; i < 3; ++i) pr[i] = v1[i] * l[0] + v2[i] * l[1] + v3[i] * l[2];
  sub3(diff, pr, p);
  return norm3(diff) < Limits<T>::minval;
}

template <class T>
inline void map_initial_faces(Polytope<T>& pt, int n) {
  for (int i = 0; i < n; ++i) {
    pt.map[i] = pt.faces + i;
    pt.faces[i].index = i;
  }
  pt.nmap = n;
}

/// Hexahedron from a triangle: the two support points along ± its normal.
template <class T>
EpaStatus polytope3(Polytope<T>& pt, CcdStatus<T>& st, CcdObject<T>& a, CcdObject<T>& b) {
  const T* v1 = st.simplex[0].vert;
  const T* v2 = st.simplex[1].vert;
  const T* v3 = st.simplex[2].vert;
  add3(pt.center, v1, v2);
  add3(pt.center, pt.center, v3);
  scl3(pt.center, pt.center, T(1.0 / 3.0));
  T d1[3], d2[3], n[3], n_neg[3];
  sub3(d1, v2, v1);
  sub3(d2, v3, v1);
  cross3(n, d1, d2);
  const T n_norm = norm3(n);
  if (n_norm < Limits<T>::minval) return EpaStatus::P3BadNormal;
  scl3(n_neg, n, T(-1));
  const int v1i = insert_vertex(pt, st.simplex[0]);
  const int v2i = insert_vertex(pt, st.simplex[1]);
  const int v3i = insert_vertex(pt, st.simplex[2]);
  const int v5i = epa_support(pt, a, b, n_neg, n_norm);
  const int v4i = epa_support(pt, a, b, n, n_norm);
  const T* v4 = pt.verts[v4i].vert;
  const T* v5 = pt.verts[v5i].vert;
  if (tri_point_intersect(v1, v2, v3, v4)) return EpaStatus::P3InvalidV4;
  if (tri_point_intersect(v1, v2, v3, v5)) return EpaStatus::P3InvalidV5;
  if (st.dist > 10 * Limits<T>::minval && !test_tetra(v1, v2, v3, v4) && !test_tetra(v1, v2, v3, v5)) return EpaStatus::P3MissingOrigin;
  const T md = Limits<T>::mindist3;
  if (attach_face(pt, v4i, v1i, v2i, 1, 3, 2) < md) return EpaStatus::P3OriginOnFace;
  if (attach_face(pt, v4i, v3i, v1i, 2, 4, 0) < md) return EpaStatus::P3OriginOnFace;
  if (attach_face(pt, v4i, v2i, v3i, 0, 5, 1) < md) return EpaStatus::P3OriginOnFace;
  if (attach_face(pt, v5i, v2i, v1i, 5, 0, 4) < md) return EpaStatus::P3OriginOnFace;
  if (attach_face(pt, v5i, v1i, v3i, 3, 1, 5) < md) return EpaStatus::P3OriginOnFace;
  if (attach_face(pt, v5i, v3i, v2i, 4, 2, 3) < md) return EpaStatus::P3OriginOnFace;
  map_initial_faces(pt, 6);
  return EpaStatus::Success;
}

/// Hexahedron from a segment: three support points 120° apart around it.
template <class T>
EpaStatus polytope2(Polytope<T>& pt, CcdStatus<T>& st, CcdObject<T>& a, CcdObject<T>& b) {
  const T* v1 = st.simplex[0].vert;
  const T* v2 = st.simplex[1].vert;
  add3(pt.center, v1, v2);
  scl3(pt.center, pt.center, T(0.5));
  T diff[3];
  sub3(diff, v2, v1);
  T value = Limits<T>::max_limit;
  int index = 0;
  for (int i = 0; i < 3; ++i)
    if (std::fabs(diff[i]) < value) value = std::fabs(diff[i]), index = i;
  T e[3] = {0, 0, 0};
  e[index] = 1;
  T d1[3], d2[3], d3[3], R[9];
  cross3(d1, e, diff);
  rotmat120(R, diff);
  mul_mat_vec3(d2, R, d1);
  mul_mat_vec3(d3, R, d2);
  const int v1i = insert_vertex(pt, st.simplex[0]);
  const int v2i = insert_vertex(pt, st.simplex[1]);
  const int v3i = epa_support(pt, a, b, d1, norm3(d1));
  const int v4i = epa_support(pt, a, b, d2, norm3(d2));
  const int v5i = epa_support(pt, a, b, d3, norm3(d3));
  const T md = Limits<T>::mindist2;
  // a face through the origin: continue from that triangle instead
  if (attach_face(pt, v1i, v3i, v4i, 1, 3, 2) < md) return replace_simplex3(pt, st, v1i, v3i, v4i), polytope3(pt, st, a, b);
  if (attach_face(pt, v1i, v5i, v3i, 2, 4, 0) < md) return replace_simplex3(pt, st, v1i, v5i, v3i), polytope3(pt, st, a, b);
  if (attach_face(pt, v1i, v4i, v5i, 0, 5, 1) < md) return replace_simplex3(pt, st, v1i, v4i, v5i), polytope3(pt, st, a, b);
  if (attach_face(pt, v2i, v4i, v3i, 5, 0, 4) < md) return replace_simplex3(pt, st, v2i, v4i, v3i), polytope3(pt, st, a, b);
  if (attach_face(pt, v2i, v3i, v5i, 3, 1, 5) < md) return replace_simplex3(pt, st, v2i, v3i, v5i), polytope3(pt, st, a, b);
  if (attach_face(pt, v2i, v5i, v4i, 4, 2, 3) < md) return replace_simplex3(pt, st, v2i, v5i, v4i), polytope3(pt, st, a, b);
  if (!ray_triangle(pt.verts[v1i].vert, pt.verts[v2i].vert, pt.verts[v3i].vert, pt.verts[v4i].vert, pt.verts[v5i].vert))
    return EpaStatus::P2NonConvex;
  map_initial_faces(pt, 6);
  return EpaStatus::Success;
}

/// GJK's tetrahedron as the first polytope.
template <class T>
EpaStatus polytope4(Polytope<T>& pt, CcdStatus<T>& st, CcdObject<T>& a, CcdObject<T>& b) {
  const int v1 = insert_vertex(pt, st.simplex[0]);
  const int v2 = insert_vertex(pt, st.simplex[1]);
  const int v3 = insert_vertex(pt, st.simplex[2]);
  const int v4 = insert_vertex(pt, st.simplex[3]);
  add3(pt.center, pt.verts[v1].vert, pt.verts[v2].vert);
  add3(pt.center, pt.center, pt.verts[v3].vert);
  add3(pt.center, pt.center, pt.verts[v4].vert);
  scl3(pt.center, pt.center, T(0.25));
  const T md = Limits<T>::mindist4;
  if (attach_face(pt, v1, v2, v3, 1, 3, 2) < md) return replace_simplex3(pt, st, v1, v2, v3), polytope3(pt, st, a, b);
  if (attach_face(pt, v1, v4, v2, 2, 3, 0) < md) return replace_simplex3(pt, st, v1, v4, v2), polytope3(pt, st, a, b);
  if (attach_face(pt, v1, v3, v4, 0, 3, 1) < md) return replace_simplex3(pt, st, v1, v3, v4), polytope3(pt, st, a, b);
  if (attach_face(pt, v4, v3, v2, 2, 0, 1) < md) return replace_simplex3(pt, st, v4, v3, v2), polytope3(pt, st, a, b);
  if (!test_tetra(pt.verts[v1].vert, pt.verts[v2].vert, pt.verts[v3].vert, pt.verts[v4].vert)) return EpaStatus::P4MissingOrigin;
  map_initial_faces(pt, 4);
  return EpaStatus::Success;
}

template <class T>
inline void delete_face(Polytope<T>& pt, EpaFace<T>& f) {
  if (f.index >= 0) {
    pt.map[f.index] = pt.map[--pt.nmap];
    pt.map[f.index]->index = f.index;
  }
  f.index = -2;
}

template <class T>
inline void add_edge(Polytope<T>& pt, int index, int edge) {
  if (pt.nedges >= Polytope<T>::kMaxHorizon) return; // cannot occur within 6N faces
  pt.horizon_edge[pt.nedges] = edge;
  pt.horizon_index[pt.nedges++] = index;
}

template <class T>
inline int edge_of(const EpaFace<T>& f, int vertex) {
  if (f.verts[0] == vertex) return 0;
  if (f.verts[1] == vertex) return 1;
  return 2;
}

/// Deletes the faces w sees, depth first from face across edge e; true when face is visible.
template <class T>
bool horizon_rec(Polytope<T>& pt, EpaFace<T>& f, int e) {
  if (dot3(f.v, pt.w) - f.dist2 > Limits<T>::minval) {
    const int verts[3] = {f.verts[0], f.verts[1], f.verts[2]};
    delete_face(pt, f);
    for (int k = 1; k < 3; ++k) {
      const int i = (e + k) % 3;
      EpaFace<T>& adj = pt.faces[f.adj[i]];
      if (adj.index > -2) {
        const int adj_edge = edge_of(adj, verts[(i + 1) % 3]);
        if (!horizon_rec(pt, adj, adj_edge)) add_edge(pt, f.adj[i], adj_edge);
      }
    }
    return true;
  }
  return false;
}

template <class T>
void horizon(Polytope<T>& pt, EpaFace<T>& f) {
  delete_face(pt, f);
  const int verts[3] = {f.verts[0], f.verts[1], f.verts[2]};
  EpaFace<T>* adj = &pt.faces[f.adj[0]];
  int adj_edge = edge_of(*adj, verts[1]);
  if (!horizon_rec(pt, *adj, adj_edge)) add_edge(pt, f.adj[0], adj_edge);
  adj = &pt.faces[f.adj[1]];
  adj_edge = edge_of(*adj, verts[2]);
  if (adj->index > -2 && !horizon_rec(pt, *adj, adj_edge)) add_edge(pt, f.adj[1], adj_edge);
  adj = &pt.faces[f.adj[2]];
  adj_edge = edge_of(*adj, verts[0]);
  if (adj->index > -2 && !horizon_rec(pt, *adj, adj_edge)) add_edge(pt, f.adj[2], adj_edge);
}

/// Witness points of a face (barycentric coordinates of the origin's projection); returns −depth.
template <class T>
T epa_witness(const Polytope<T>& pt, const EpaFace<T>& f, T x1[3], T x2[3]) {
  const MinkowskiVertex<T>& v1 = pt.verts[f.verts[0]];
  const MinkowskiVertex<T>& v2 = pt.verts[f.verts[1]];
  const MinkowskiVertex<T>& v3 = pt.verts[f.verts[2]];
  T l[3];
  tri_affine_coord(l, v1.vert, v2.vert, v3.vert, f.v);
  lincomb<T>(x1, l, 3, v1.vert1, v2.vert1, v3.vert1, nullptr);
  lincomb<T>(x2, l, 3, v1.vert2, v2.vert2, v3.vert2, nullptr);
  return -std::sqrt(f.dist2);
}

/// Expands the polytope; sets st.dist (−depth), st.x1, st.x2, st.nx. Returns the final face.
template <class T>
const EpaFace<T>* epa(CcdStatus<T>& st, Polytope<T>& pt, CcdObject<T>& a, CcdObject<T>& b) {
  T upper = Limits<T>::max_limit, upper2 = Limits<T>::max_limit, lower2;
  EpaFace<T>* face = nullptr;
  EpaFace<T>* pface = nullptr;
  const bool discrete = discrete_geoms(a, b);
  const T tolerance = discrete ? Limits<T>::min_epa_tol : st.tolerance;
  const int kmax = st.max_iterations < 1000 ? st.max_iterations : 1000;
  int k;
  for (k = 0; k < kmax; ++k) {
    pface = face;
    lower2 = Limits<T>::max_limit;
    for (int i = 0; i < pt.nmap; ++i)
      if (pt.map[i]->dist2 < lower2) face = pt.map[i], lower2 = face->dist2;
    if (lower2 > upper2 || !face) { // no valid face: keep the previous one
      face = pface;
      break;
    }
    if (lower2 <= 0) break; // the origin on a face's plane (MuJoCo warns)
    const T lower = std::sqrt(lower2);
    const int wi = epa_support(pt, a, b, face->v, lower);
    const MinkowskiVertex<T>& w = pt.verts[wi];
    const T upper_k = dot3(face->v, w.vert) / lower;
    if (upper_k < upper) upper = upper_k, upper2 = upper * upper;
    if (upper - lower < tolerance) {
      if (k == 0 && upper < lower - T(1e-10)) face = nullptr; // upper below lower at once: no contact
      break;
    }
    if (discrete) { // a repeated support vertex ends a polyhedral search
      int i = 0;
      const int nv = pt.nverts - 1;
      for (; i < nv; ++i)
        if (w.index1 == pt.verts[i].index1 && w.index2 == pt.verts[i].index2) break;
      if (i != nv) break;
    }
    pt.w = w.vert;
    horizon(pt, *face);
    if (pt.nedges < 3) {
      face = nullptr;
      break;
    }
    const int nfaces = pt.nfaces, nedges = pt.nedges;
    if (nedges > pt.maxfaces - pt.nfaces) break; // out of face storage (MuJoCo warns)
    int hzn_index = pt.horizon_index[0], hzn_edge = pt.horizon_edge[0];
    EpaFace<T>* hzn = &pt.faces[hzn_index];
    int v1 = hzn->verts[hzn_edge], v2 = hzn->verts[(hzn_edge + 1) % 3];
    hzn->adj[hzn_edge] = nfaces;
    T dist2 = attach_face(pt, wi, v2, v1, nfaces + nedges - 1, hzn_index, nfaces + 1);
    if (dist2 == 0) {
      face = nullptr;
      break;
    }
    if (dist2 >= lower2 && dist2 <= upper2) {
      const int i = pt.nmap++;
      pt.map[i] = &pt.faces[pt.nfaces - 1];
      pt.map[i]->index = i;
    }
    for (int i = 1; i < nedges; ++i) {
      const int cur = nfaces + i, next = nfaces + (i + 1) % nedges;
      hzn_index = pt.horizon_index[i], hzn_edge = pt.horizon_edge[i];
      hzn = &pt.faces[hzn_index];
      v1 = hzn->verts[hzn_edge], v2 = hzn->verts[(hzn_edge + 1) % 3];
      hzn->adj[hzn_edge] = cur;
      dist2 = attach_face(pt, wi, v2, v1, cur - 1, hzn_index, next);
      if (dist2 == 0) {
        face = nullptr;
        break;
      }
      if (dist2 >= lower2 && dist2 <= upper2) {
        const int idx = pt.nmap++;
        pt.map[idx] = &pt.faces[pt.nfaces - 1];
        pt.map[idx]->index = idx;
      }
    }
    pt.nedges = 0;
    if (!pt.nmap || !face) break;
  }
  st.epa_iterations = k;
  if (face) {
    st.dist = epa_witness(pt, *face, st.x1, st.x2);
    st.nx = 1;
  } else {
    st.nx = 0;
    st.dist = 0;
  }
  return face;
}

} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
