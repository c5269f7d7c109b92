// GJK on the Minkowski difference A − B (MuJoCo's nativeccd, engine_collision_gjk.c).
//
// x_k is the point of the current simplex closest to the origin (barycentric coordinates from the
// signed-volumes subalgorithm of Montanari et al., ToG 2017); each iteration adds the support point
// s_k = s_A(−x̂_k) − s_B(x̂_k). Stopping rules, as MuJoCo's:
//   * |x_k| < min_norm (tolerance, or mjMINVAL for two discrete shapes): touching;
//   * the Frank–Wolfe gap x_k·(x_k − s_k) < ε = tol²/2 (0 for discrete shapes): converged;
//   * x_k·s_k > 0 (only when no distance is wanted): a separating plane, no contact;
//   * a tetrahedron when only contact is wanted: the intersection test below decides.
// Every support point inflates each geom by margin/2 along its direction (MuJoCo's `support`).
#pragma once

#include "support.hpp"

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

/// A vertex of the simplex/polytope: v = v1 − v2 with its two source points.
template <class T>
struct MinkowskiVertex {
  T vert[3];
  T vert1[3];
  T vert2[3];
  int index1;
  int index2;
};

/// mjCCDStatus's fields that GJK, EPA and the caller share.
template <class T>
struct CcdStatus {
  bool separated;
  T dist;  // the one witness pair's distance (MuJoCo's status.dist[0])
  T x1[3]; // witness point on geom 1
  T x2[3]; // witness point on geom 2
  int nx;
  int max_iterations;
  T tolerance;
  T dist_cutoff;
  int gjk_iterations;
  int epa_iterations;
  bool epa_ran;
  MinkowskiVertex<T> simplex[4];
  int nsimplex;
};

/// Both shapes polyhedral with no margin (boxes, meshes): GJK and EPA end in finitely many steps.
template <class T>
inline bool discrete_geoms(const CcdObject<T>& a, const CcdObject<T>& b) {
  if (a.margin != 0 || b.margin != 0) return false;
  const auto poly = [](const CcdObject<T>& o) {
    return o.mode == SupportMode::Full && (o.shape->kind == ConvexKind::Box || o.shape->kind == ConvexKind::Mesh);
  };
  return poly(a) && poly(b);
}

/// s_{A−B}(dir) = s_A(dir) − s_B(−dir), each inflated by margin/2 (dir unit).
template <class T>
inline void minkowski_support(MinkowskiVertex<T>& v, CcdObject<T>& a, CcdObject<T>& b, const T dir[3], const T dir_neg[3]) {
  support_point(v.vert1, a, dir);
  if (a.margin > 0) {
    const T m = T(0.5) * a.margin;
    v.vert1[0] += dir[0] * m, v.vert1[1] += dir[1] * m, v.vert1[2] += dir[2] * m;
  }
  support_point(v.vert2, b, dir_neg);
  if (b.margin > 0) {
    const T m = T(0.5) * b.margin;
    v.vert2[0] += dir_neg[0] * m, v.vert2[1] += dir_neg[1] * m, v.vert2[2] += dir_neg[2] * m;
  }
  sub3(v.vert, v.vert1, v.vert2);
  v.index1 = a.vertindex;
  v.index2 = b.vertindex;
}

template <class T>
inline void lincomb(T r[3], const T* c, int n, const T* v1, const T* v2, const T* v3, const T* v4) {
  switch (n) {
    case 1:
      r[0] = c[0] * v1[0], r[1] = c[0] * v1[1], r[2] = c[0] * v1[2];
      break;
    case 2:
      for (int i = 0; i < 3; ++i) r[i] = c[0] * v1[i] + c[1] * v2[i];
      break;
    case 3:
      for (int i = 0; i < 3; ++i) r[i] = c[0] * v1[i] + c[1] * v2[i] + c[2] * v3[i];
      break;
    case 4:
      for (int i = 0; i < 3; ++i) r[i] = c[0] * v1[i] + c[1] * v2[i] + c[2] * v3[i] + c[3] * v4[i];
      break;
    default:
      r[0] = r[1] = r[2] = 0;
  }
}

/// The origin projected on the plane of v1 v2 v3 (three tries at the normal, as MuJoCo);
/// returns true when the triangle is degenerate (zero normal).
template <class T>
bool project_origin_plane(T res[3], const T v1[3], const T v2[3], const T v3[3]) {
  T d21[3], d31[3], d32[3], n[3];
  sub3(d21, v2, v1);
  sub3(d31, v3, v1);
  sub3(d32, v3, v2);
  cross3(n, d32, d21);
  T nv = dot3(n, v2), nn = dot3(n, n);
  if (nn == 0) return true;
  if (nv != 0 && nn > Limits<T>::minval) {
    scl3(res, n, nv / nn);
    return false;
  }
  cross3(n, d21, d31);
  nv = dot3(n, v1), nn = dot3(n, n);
  if (nn == 0) return true;
  if (nv != 0 && nn > Limits<T>::minval) {
    scl3(res, n, nv / nn);
    return false;
  }
  cross3(n, d31, d32);
  nv = dot3(n, v3), nn = dot3(n, n);
  scl3(res, n, nv / nn);
  return false;
}

/// 1 both positive, −1 both negative, 0 otherwise
template <class T>
inline int same_sign2(T a, T b) {
  return (a > 0 && b > 0) ? 1 : (a < 0 && b < 0) ? -1 : 0;
}

/// Closest point of segment s1 s2 to the origin (barycentric).
template <class T>
void s1d(T lambda[2], const T s1[3], const T s2[3]) {
  T po[3], diff[3];
  sub3(diff, s2, s1);
  const T scl = -(dot3(s2, diff) / dot3(diff, diff));
  po[0] = s2[0] + scl * diff[0], po[1] = s2[1] + scl * diff[1], po[2] = s2[2] + scl * diff[2];
  // the axis of the segment's largest shadow
  T mu_max = s1[0] - s2[0];
  int index = 0;
  T mu = s1[1] - s2[1];
  if (std::fabs(mu) >= std::fabs(mu_max)) mu_max = mu, index = 1;
  mu = s1[2] - s2[2];
  if (std::fabs(mu) >= std::fabs(mu_max)) mu_max = mu, index = 2;
  const T c1 = po[index] - s2[index], c2 = s1[index] - po[index];
  const bool same = same_sign2(mu_max, c1) && same_sign2(mu_max, c2);
  lambda[0] = same ? c1 / mu_max : T(0);
  lambda[1] = same ? c2 / mu_max : T(1);
}

/// Closest point of triangle s1 s2 s3 to the origin: signed areas in the plane of the largest
/// projection; outside, the best of the three edges.
template <class T>
void s2d(T lambda[3], const T s1[3], const T s2[3], const T s3[3]) {
  T po[3];
  if (project_origin_plane(po, s1, s2, s3)) {
    s1d(lambda, s1, s2);
    lambda[2] = 0;
    return;
  }
  const T m14 = s2[1] * s3[2] - s2[2] * s3[1] - s1[1] * s3[2] + s1[2] * s3[1] + s1[1] * s2[2] - s1[2] * s2[1];
  const T m24 = s2[0] * s3[2] - s2[2] * s3[0] - s1[0] * s3[2] + s1[2] * s3[0] + s1[0] * s2[2] - s1[2] * s2[0];
  const T m34 = s2[0] * s3[1] - s2[1] * s3[0] - s1[0] * s3[1] + s1[1] * s3[0] + s1[0] * s2[1] - s1[1] * s2[0];
  const T mu1 = std::fabs(m14), mu2 = std::fabs(m24), mu3 = std::fabs(m34);
  int x, y;
  T m_max;
  if (mu1 >= mu2 && mu1 >= mu3)
    m_max = m14, x = 1, y = 2;
  else if (mu2 >= mu3)
    m_max = m24, x = 0, y = 2;
  else
    m_max = m34, x = 0, y = 1;
  const T a[2] = {s1[x], s1[y]}, b[2] = {s2[x], s2[y]}, c[2] = {s3[x], s3[y]}, p[2] = {po[x], po[y]};
  const T c31 = p[0] * b[1] + p[1] * c[0] + b[0] * c[1] - p[0] * c[1] - p[1] * b[0] - c[0] * b[1];
  const T c32 = p[0] * c[1] + p[1] * a[0] + c[0] * a[1] - p[0] * a[1] - p[1] * c[0] - a[0] * c[1];
  const T c33 = p[0] * a[1] + p[1] * b[0] + a[0] * b[1] - p[0] * b[1] - p[1] * a[0] - b[0] * a[1];
  const int k1 = same_sign2(m_max, c31), k2 = same_sign2(m_max, c32), k3 = same_sign2(m_max, c33);
  if (k1 && k2 && k3) {
    lambda[0] = c31 / m_max, lambda[1] = c32 / m_max, lambda[2] = c33 / m_max;
    return;
  }
  T dmin = Limits<T>::max_limit;
  if (!k1) {
    T l[2], x3[3];
    s1d(l, s2, s3);
    lincomb<T>(x3, l, 2, s2, s3, nullptr, nullptr);
    lambda[0] = 0, lambda[1] = l[0], lambda[2] = l[1];
    dmin = dot3(x3, x3);
  }
  if (!k2) {
    T l[2], x3[3];
    s1d(l, s1, s3);
    lincomb<T>(x3, l, 2, s1, s3, nullptr, nullptr);
    const T d = dot3(x3, x3);
    if (d < dmin) lambda[0] = l[0], lambda[1] = 0, lambda[2] = l[1], dmin = d;
  }
  if (!k3) {
    T l[2], x3[3];
    s1d(l, s1, s2);
    lincomb<T>(x3, l, 2, s1, s2, nullptr, nullptr);
    const T d = dot3(x3, x3);
    if (d < dmin) lambda[0] = l[0], lambda[1] = l[1], lambda[2] = 0;
  }
}

/// Closest point of tetrahedron s1..s4 to the origin: cofactors of [s; 1] give the barycentric
/// coordinates when the origin is inside; otherwise the best face.
template <class T>
void s3d(T lambda[4], const T s1[3], const T s2[3], const T s3[3], const T s4[3]) {
  const T c41 = -det3(s2, s3, s4), c42 = det3(s1, s3, s4), c43 = -det3(s1, s2, s4), c44 = det3(s1, s2, s3);
  const T m_det = c41 + c42 + c43 + c44;
  const int k1 = same_sign2(m_det, c41), k2 = same_sign2(m_det, c42), k3 = same_sign2(m_det, c43), k4 = same_sign2(m_det, c44);
  if (k1 && k2 && k3 && k4) {
    lambda[0] = c41 / m_det, lambda[1] = c42 / m_det, lambda[2] = c43 / m_det, lambda[3] = c44 / m_det;
    return;
  }
  T dmin = Limits<T>::max_limit;
  if (!k1) {
    T l[3], x[3];
    s2d(l, s2, s3, s4);
    lincomb<T>(x, l, 3, s2, s3, s4, nullptr);
    lambda[0] = 0, lambda[1] = l[0], lambda[2] = l[1], lambda[3] = l[2];
    dmin = dot3(x, x);
  }
  if (!k2) {
    T l[3], x[3];
    s2d(l, s1, s3, s4);
    lincomb<T>(x, l, 3, s1, s3, s4, nullptr);
    const T d = dot3(x, x);
    if (d < dmin) lambda[0] = l[0], lambda[1] = 0, lambda[2] = l[1], lambda[3] = l[2], dmin = d;
  }
  if (!k3) {
    T l[3], x[3];
    s2d(l, s1, s2, s4);
    lincomb<T>(x, l, 3, s1, s2, s4, nullptr);
    const T d = dot3(x, x);
    if (d < dmin) lambda[0] = l[0], lambda[1] = l[1], lambda[2] = 0, lambda[3] = l[2], dmin = d;
  }
  if (!k4) {
    T l[3], x[3];
    s2d(l, s1, s2, s3);
    lincomb<T>(x, l, 3, s1, s2, s3, nullptr);
    const T d = dot3(x, x);
    if (d < dmin) lambda[0] = l[0], lambda[1] = l[1], lambda[2] = l[2], lambda[3] = 0;
  }
}

template <class T>
inline void subdistance(T lambda[4], int n, const MinkowskiVertex<T> s[4]) {
  lambda[0] = lambda[1] = lambda[2] = lambda[3] = 0;
  switch (n) {
    case 4:
      s3d(lambda, s[0].vert, s[1].vert, s[2].vert, s[3].vert);
      break;
    case 3:
      s2d(lambda, s[0].vert, s[1].vert, s[2].vert);
      break;
    case 2:
      s1d(lambda, s[0].vert, s[1].vert);
      break;
    default:
      lambda[0] = 1;
  }
}

/// Signed distance of the origin's plane through v1 v2 v3, normal (v3 − v1) × (v2 − v1);
/// max_limit when the normal cannot be recovered.
template <class T>
inline T face_signed_distance(T normal[3], const MinkowskiVertex<T>& v1, const MinkowskiVertex<T>& v2, const MinkowskiVertex<T>& v3) {
  T d1[3], d2[3];
  sub3(d1, v3.vert, v1.vert);
  sub3(d2, v2.vert, v1.vert);
  cross3(normal, d1, d2);
  const T n2 = dot3(normal, normal);
  if (n2 > Limits<T>::minval * Limits<T>::minval && n2 < Limits<T>::maxval * Limits<T>::maxval) {
    scl3(normal, normal, 1 / std::sqrt(n2));
    return dot3(normal, v1.vert);
  }
  return Limits<T>::max_limit;
}

/// Tetrahedron walk toward the origin (MuJoCo's gjkIntersect): 1 contact, 0 none, −1 undecided.
template <class T>
int gjk_intersect(CcdStatus<T>& st, CcdObject<T>& a, CcdObject<T>& b) {
  MinkowskiVertex<T> simplex[4] = {st.simplex[0], st.simplex[1], st.simplex[2], st.simplex[3]};
  int s[4] = {0, 1, 2, 3};
  int k = st.gjk_iterations;
  for (; k < st.max_iterations; ++k) {
    T dist[4], normals[12];
    dist[0] = face_signed_distance(normals + 0, simplex[s[2]], simplex[s[1]], simplex[s[3]]);
    dist[1] = face_signed_distance(normals + 3, simplex[s[0]], simplex[s[2]], simplex[s[3]]);
    dist[2] = face_signed_distance(normals + 6, simplex[s[1]], simplex[s[0]], simplex[s[3]]);
    dist[3] = face_signed_distance(normals + 9, simplex[s[0]], simplex[s[1]], simplex[s[2]]);
    if (dist[3] == 0 || dist[2] == 0 || dist[1] == 0 || dist[0] == 0) { // origin on a face's plane
      st.gjk_iterations = k;
      return -1;
    }
    int i = dist[0] < dist[1] ? 0 : 1;
    int j = dist[2] < dist[3] ? 2 : 3;
    const int index = dist[i] < dist[j] ? i : j;
    if (dist[index] > 0) { // the origin is inside every face
      st.nsimplex = 4;
      for (int q = 0; q < 4; ++q) st.simplex[q] = simplex[s[q]];
      st.gjk_iterations = k;
      return 1;
    }
    // replace the vertex opposite the face the origin is beyond
    T neg[3] = {-normals[3 * index], -normals[3 * index + 1], -normals[3 * index + 2]};
    minkowski_support(simplex[s[index]], a, b, normals + 3 * index, neg);
    if (dot3(normals + 3 * index, simplex[s[index]].vert) < 0) {
      st.nsimplex = 0;
      st.gjk_iterations = k;
      return 0;
    }
    // keep the orientation: swap the other two
    i = (index + 1) & 3;
    j = (index + 2) & 3;
    const int sw = s[i];
    s[i] = s[j];
    s[j] = sw;
  }
  st.gjk_iterations = k;
  return -1;
}

/// The support point along −x_k/|x_k|.
template <class T>
inline void gjk_support(MinkowskiVertex<T>& v, CcdObject<T>& a, CcdObject<T>& b, const T x_k[3], T x_norm) {
  T dir[3], dir_neg[3];
  scl3(dir_neg, x_k, 1 / x_norm);
  scl3(dir, dir_neg, T(-1));
  minkowski_support(v, a, b, dir, dir_neg);
}

/// GJK from the initial guess x1 − x2 in st; leaves the simplex, witness points and distance.
template <class T>
void gjk(CcdStatus<T>& st, CcdObject<T>& a, CcdObject<T>& b) {
  const bool get_dist = st.dist_cutoff > 0;
  bool backup = !get_dist;
  MinkowskiVertex<T>* simplex = st.simplex;
  int n = 0, k = 0;
  const int kmax = st.max_iterations;
  T x_k[3], lambda[4] = {0, 0, 0, 0};
  const T tol2 = st.tolerance * st.tolerance;
  st.separated = false;
  const bool discrete = discrete_geoms(a, b);
  const T epsilon = discrete ? T(0) : T(0.5) * tol2;
  const T min_norm = discrete ? Limits<T>::minval : st.tolerance;

  sub3(x_k, st.x1, st.x2);
  T x_norm = norm3(x_k), x_norm_prev = 0;
  for (; k < kmax; ++k) {
    if (x_norm < min_norm || std::fabs(x_norm_prev - x_norm) < Limits<T>::minval) break;
    gjk_support(simplex[n], a, b, x_k, x_norm);
    const T* s_k = simplex[n].vert;
    const T diff[3] = {x_k[0] - s_k[0], x_k[1] - s_k[1], x_k[2] - s_k[2]};
    if (dot3(x_k, diff) < epsilon) break; // Frank–Wolfe duality gap
    const T lower = dot3(x_k, s_k);       // lower/|x_k| bounds the distance from below
    if (!get_dist) {
      if (lower > 0) {
        st.separated = true, st.gjk_iterations = k, st.nsimplex = 0, st.nx = 0, st.dist = Limits<T>::max_limit;
        return;
      }
    } else if (st.dist_cutoff < Limits<T>::max_limit) {
      if (lower > 0 && lower >= st.dist_cutoff * x_norm) {
        st.separated = true, st.gjk_iterations = k, st.nsimplex = 0, st.nx = 0, st.dist = Limits<T>::max_limit;
        return;
      }
    }
    if (n == 3 && backup) { // a tetrahedron and only contact wanted: decide by the tetrahedron walk
      st.gjk_iterations = k;
      const int ret = gjk_intersect(st, a, b);
      if (ret != -1) {
        st.nx = 0;
        st.separated = ret == 0;
        st.dist = ret > 0 ? T(0) : Limits<T>::max_limit;
        return;
      }
      k = st.gjk_iterations;
      backup = false;
    }
    subdistance(lambda, n + 1, simplex);
    n = 0;
    for (int i = 0; i < 4; ++i) {
      if (lambda[i] == 0) continue;
      simplex[n] = simplex[i];
      lambda[n++] = lambda[i];
    }
    if (n < 1) { // should not occur
      st.gjk_iterations = k, st.nsimplex = 0, st.nx = 0, st.dist = Limits<T>::max_limit, st.separated = true;
      return;
    }
    lincomb(x_k, lambda, n, simplex[0].vert, simplex[1].vert, simplex[2].vert, simplex[3].vert);
    x_norm_prev = x_norm;
    x_norm = norm3(x_k);
    if (n == 4) break; // the tetrahedron holds the origin
  }
  if (n > 0) {
    lincomb(st.x1, lambda, n, simplex[0].vert1, simplex[1].vert1, simplex[2].vert1, simplex[3].vert1);
    lincomb(st.x2, lambda, n, simplex[0].vert2, simplex[1].vert2, simplex[2].vert2, simplex[3].vert2);
  }
  // early exit: a last separation check
  MinkowskiVertex<T> tmp;
  gjk_support(tmp, a, b, x_k, x_norm);
  if (dot3(x_k, tmp.vert) > 0) st.separated = true;
  st.nx = 1;
  st.gjk_iterations = k;
  st.nsimplex = n;
  st.dist = (n == 4 && !st.separated) ? T(0) : x_norm;
}

} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
