// MuJoCo's analytic colliders for the pairs of the new kinds that do not go through GJK/EPA
// (engine_collision_primitive.c and engine_collision_convex.c, 3.14), scalar T, one lane:
//   plane_cylinder   mjc_PlaneCylinder  (up to 4 contacts)
//   sphere_cylinder  mjc_SphereCylinder (1)
//   plane_convex     mjc_PlaneConvex for an ellipsoid (1) or a mesh (up to 4)
// The plane is geom a (MuJoCo's type order), its normal the third column of its rotation; the
// sphere is geom a against the cylinder. Normals from a to b; pos midway between the surfaces.
// A contact is reported when dist ≤ margin (MuJoCo's test here; the driver then keeps those
// with dist < margin − gap).
#pragma once

#include "multicontact.hpp"
#include "support.hpp"

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

/// mjraw_SphereSphere: centres c1, c2 with radii r1, r2 (z axes za, zb break a tie of centres).
template <class T>
int sphere_sphere_raw(ConvexContact<T>& con, T margin, const T c1[3], const T za[3], T r1, const T c2[3], const T zb[3], T r2) {
  const T dif[3] = {c1[0] - c2[0], c1[1] - c2[1], c1[2] - c2[2]};
  const T cdist2 = dot3(dif, dif);
  const T min_dist = margin + r1 + r2;
  if (cdist2 > min_dist * min_dist) return 0;
  con.dist = std::sqrt(cdist2) - r1 - r2;
  sub3(con.normal, c2, c1);
  const T len = normalize3(con.normal);
  if (len < Limits<T>::minval) { // same centres: the normal is za × zb (or x)
    cross3(con.normal, za, zb);
    normalize3(con.normal);
  }
  scl3(con.pos, con.normal, r1 + con.dist / 2);
  con.pos[0] += c1[0], con.pos[1] += c1[1], con.pos[2] += c1[2];
  return 1;
}

/// mjraw_PlaneSphere: plane at p1 with normal n, sphere at c of radius r.
template <class T>
int plane_sphere_raw(ConvexContact<T>& con, T margin, const T p1[3], const T n[3], const T c[3], T r) {
  copy3(con.normal, n);
  T tmp[3] = {c[0] - p1[0], c[1] - p1[1], c[2] - p1[2]};
  const T cdist = dot3(tmp, con.normal);
  if (cdist > margin + r) return 0;
  con.dist = cdist - r;
  scl3(tmp, con.normal, -con.dist / 2 - r);
  add3(con.pos, c, tmp);
  return 1;
}

template <class T>
inline void column(T v[3], const T R[9], int j) {
  v[0] = R[j], v[1] = R[3 + j], v[2] = R[6 + j];
}

/// The plane's contact at point q (on the geom) with distance d: pos = q − (d/2) n.
template <class T>
inline void plane_contact(ConvexContact<T>& con, const T q[3], const T n[3], T d) {
  con.dist = d;
  copy3(con.pos, q);
  con.pos[0] += n[0] * (-d * T(0.5)), con.pos[1] += n[1] * (-d * T(0.5)), con.pos[2] += n[2] * (-d * T(0.5));
  copy3(con.normal, n);
}

/// Plane–cylinder: the rim point nearest the plane at both caps; if the near cap's centre side
/// is within the margin too, two more rim points of that cap at ±120° (a triangle of support).
template <class T>
int plane_cylinder(const ConvexPose<T>& plane, const ConvexShape<T>& cyl, const ConvexPose<T>& X, T margin, ConvexContact<T>* con) {
  T normal[3], axis[3];
  column(normal, plane.R, 2);
  column(axis, X.R, 2);
  const T r = cyl.size[0], h = cyl.size[1];
  T prjaxis = dot3(normal, axis);
  if (prjaxis > 0) { // the axis toward the plane
    scl3(axis, axis, T(-1));
    prjaxis = -prjaxis;
  }
  T vec[3] = {X.p[0] - plane.p[0], X.p[1] - plane.p[1], X.p[2] - plane.p[2]};
  const T dist0 = dot3(vec, normal);
  // the rim direction nearest the plane: −normal without its axial part, scaled to r
  scl3(vec, axis, prjaxis);
  vec[0] -= normal[0], vec[1] -= normal[1], vec[2] -= normal[2];
  const T len2 = dot3(vec, vec);
  if (len2 >= Limits<T>::minval * Limits<T>::minval) {
    const T scl = r / std::sqrt(len2);
    vec[0] *= scl, vec[1] *= scl, vec[2] *= scl;
  } else { // disk parallel to the plane: the cylinder's x axis
    vec[0] = X.R[0] * r, vec[1] = X.R[3] * r, vec[2] = X.R[6] * r;
  }
  const T prjvec = dot3(vec, normal);
  scl3(axis, axis, h);
  prjaxis *= h;
  int cnt = 0;
  T q[3];
  if (dist0 + prjaxis + prjvec <= margin) {
    add3(q, X.p, vec);
    q[0] += axis[0], q[1] += axis[1], q[2] += axis[2];
    plane_contact(con[cnt++], q, normal, dist0 + prjaxis + prjvec);
  } else {
    return 0;
  }
  if (dist0 - prjaxis + prjvec <= margin) {
    add3(q, X.p, vec);
    q[0] -= axis[0], q[1] -= axis[1], q[2] -= axis[2];
    plane_contact(con[cnt++], q, normal, dist0 - prjaxis + prjvec);
  }
  const T prjvec1 = -prjvec * T(0.5);
  if (dist0 + prjaxis + prjvec1 <= margin) {
    T vec1[3];
    cross3(vec1, vec, axis);
    normalize3(vec1);
    scl3(vec1, vec1, r * std::sqrt(T(3)) / 2);
    const T d = dist0 + prjaxis + prjvec1;
    for (int sgn = 0; sgn < 2; ++sgn) {
      if (sgn == 0)
        add3(q, X.p, vec1);
      else
        sub3(q, X.p, vec1);
      q[0] += axis[0], q[1] += axis[1], q[2] += axis[2];
      q[0] += vec[0] * T(-0.5), q[1] += vec[1] * T(-0.5), q[2] += vec[2] * T(-0.5);
      plane_contact(con[cnt++], q, normal, d);
    }
  }
  return cnt;
}

/// Sphere–cylinder: against the side (sphere–sphere with the axis point), a cap (plane–sphere),
/// or the rim (sphere–sphere with a point); a centre inside the cylinder takes the nearer of side
/// and cap.
template <class T>
int sphere_cylinder(const ConvexShape<T>& sph, const ConvexPose<T>& Xs, const ConvexShape<T>& cyl, const ConvexPose<T>& Xc, T margin,
                    ConvexContact<T>* con) {
  const T radius = cyl.size[0], height = cyl.size[1];
  T axis[3], za[3];
  column(axis, Xc.R, 2);
  column(za, Xs.R, 2);
  T vec[3];
  sub3(vec, Xs.p, Xc.p);
  const T x = dot3(axis, vec);
  T a_proj[3], p_proj[3];
  scl3(a_proj, axis, x);
  sub3(p_proj, vec, a_proj);
  const T p_proj2 = dot3(p_proj, p_proj);
  bool side = std::fabs(x) < height;
  bool cap = p_proj2 < radius * radius;
  if (side && cap) { // centre inside: the shallower way out
    const T dist_cap = height - std::fabs(x), dist_radius = radius - std::sqrt(p_proj2);
    if (dist_cap < dist_radius)
      side = false;
    else
      cap = false;
  }
  if (side) {
    a_proj[0] += Xc.p[0], a_proj[1] += Xc.p[1], a_proj[2] += Xc.p[2];
    return sphere_sphere_raw(con[0], margin, Xs.p, za, sph.size[0], a_proj, axis, radius);
  }
  if (cap) {
    T pos_cap[3], n_cap[3];
    const T s = x > 0 ? height : -height;
    pos_cap[0] = Xc.p[0] + axis[0] * s, pos_cap[1] = Xc.p[1] + axis[1] * s, pos_cap[2] = Xc.p[2] + axis[2] * s;
    if (x > 0)
      copy3(n_cap, axis);
    else
      scl3(n_cap, axis, T(-1)); // MuJoCo's flipped frame: third column −axis
    const int n = plane_sphere_raw(con[0], margin, pos_cap, n_cap, Xs.p, sph.size[0]);
    if (n) scl3(con[0].normal, con[0].normal, T(-1)); // from the sphere to the cylinder
    return n;
  }
  // the rim: a point sphere at the nearest rim point
  scl3(p_proj, p_proj, radius / std::sqrt(p_proj2));
  scl3(vec, axis, x > 0 ? height : -height);
  vec[0] += p_proj[0], vec[1] += p_proj[1], vec[2] += p_proj[2];
  vec[0] += Xc.p[0], vec[1] += Xc.p[1], vec[2] += Xc.p[2];
  return sphere_sphere_raw(con[0], margin, Xs.p, za, sph.size[0], vec, axis, T(0));
}

/// The support (mjc_PlaneConvex's) of an ellipsoid or a mesh along d, margin 0: the point and, for a
/// mesh, the index MuJoCo records (global vertex index from an exhaustive search; a local graph id from
/// hill climbing on a mesh of 10 or more vertices with a graph) and, in `vertex`, the vertex's own
/// (global) index.
template <class T>
void ccd_support_plane(T res[3], int& meshindex, const ConvexShape<T>& s, const ConvexPose<T>& X, const T d[3], int* vertex = nullptr) {
  T l[3];
  mul_mat_t_vec3(l, X.R, d);
  if (s.kind == ConvexKind::Ellipsoid) {
    for (int i = 0; i < 3; ++i) res[i] = l[i] * s.size[i];
    normalize3(res);
    for (int i = 0; i < 3; ++i) res[i] *= s.size[i];
  } else {
    const bool hill = s.graph && s.nvert >= kMeshHillClimbMin;
    int ibest = -1;
    if (!hill) {
      T best = T(-1e10);
      for (int i = 0; i < s.nvert; ++i) {
        const T v = dot3(l, s.vert + 3 * i);
        if (v > best) best = v, ibest = i;
      }
      meshindex = ibest;
    } else {
      // from the warm start, else the seed of l's cell (MuJoCo 3.14's mjc_hillclimbSupport; without
      // seeds, vertex 0): on a face parallel to the plane the start decides which vertex is deepest,
      // and 3.14's choice is the seed's (plane_mesh_fixture.py: a 16-gon face down)
      int start = meshindex < 0 ? 0 : meshindex;
      if (meshindex < 0 && s.extrema) {
        const auto cell = [](T x) { return (x > T(0.4)) - (x < T(-0.4)) + 1; };
        start = s.extrema[cell(l[0]) * 9 + cell(l[1]) * 3 + cell(l[2])];
      }
      ibest = climb_hull_graph(s, l, start);
      meshindex = ibest;
      ibest = s.graph[2 + s.graph[0] + ibest]; // vert_globalid
    }
    if (vertex) *vertex = ibest;
    copy3(res, s.vert + 3 * ibest);
  }
  mul_mat_vec3(res, X.R, res);
  res[0] += X.p[0], res[1] += X.p[1], res[2] += X.p[2];
}

/// Plane–ellipsoid and plane–mesh: the deepest support point (MuJoCo 3.14 mjc_PlaneConvex). For a
/// mesh with its polygons, up to three more: the polygon through that vertex whose normal is most
/// aligned with −(plane normal) (the first such in the vertex's polygon list), its vertices in the
/// polygon's order starting from the deepest (more than 4: the quadrilateral of largest area from
/// polygonQuad's climb with the deepest vertex held as its first corner, on the mesh-frame
/// vertices), each one within the margin of the plane and not above the mesh frame's origin along
/// the plane's normal (the second test matters where a face can rise above the origin: tetrahedra).
/// Read from the 3.14 wheel's machine code (docs/collision-validation.md) and checked on it
/// (plane_mesh_fixture.py). A mesh without polygons (a convex shape
/// given without its hull's faces) keeps the older rule: up to two more vertices within the margin,
/// farther than 0.3·rbound from the first contact, from all vertices when the mesh has no graph, else
/// from the graph neighbours of the index the support search recorded.
template <class T>
int plane_convex(const ConvexPose<T>& plane, const ConvexShape<T>& s, const ConvexPose<T>& X, T margin, ConvexContact<T>* con) {
  T normal[3], dir[3], sup[3];
  column(normal, plane.R, 2);
  scl3(dir, normal, T(-1));
  int meshindex = -1, vbest = -1;
  ccd_support_plane(sup, meshindex, s, X, dir, &vbest);
  T dif[3];
  sub3(dif, sup, plane.p);
  const T d0 = dot3(normal, dif);
  if (d0 > margin) return 0;
  plane_contact(con[0], sup, normal, d0);
  int count = 1;
  if (s.kind != ConvexKind::Mesh) return count;
  T locdir[3];
  mul_mat_t_vec3(locdir, X.R, dir);

  if (s.polygons && vbest >= 0) {
    const HullPolygons<T>& h = *s.polygons;
    // the polygon through the deepest vertex most aligned with −normal (planted: the least aligned)
    const bool least = ACH_BUG(ContactPlaneMeshLeastAligned);
    int poly = -1;
    T best = 0;
    for (int k = 0; k < h.mapnum[vbest]; ++k) {
      const int p = h.map[h.mapadr[vbest] + k];
      const T a = dot3(h.normal + 3 * p, locdir);
      if (poly < 0 || (least ? a < best : a > best)) poly = p, best = a;
    }
    if (poly < 0) return count;
    const int adr = h.vertadr[poly], nv = h.vertnum[poly];
    int start = 0;
    while (start < nv && h.vert[adr + start] != vbest) ++start;
    if (start == nv) return count;
    int ids[4], nids = 0;
    if (nv > 4) { // polygonQuad from the deepest vertex: 4 of the polygon's vertices
      T loc[3 * kMaxPolygonVerts];
      for (int j = 0; j < nv; ++j) copy3(loc + 3 * j, s.vert + 3 * h.vert[adr + (start + j) % nv]);
      int quad[4];
      clip_detail::largest_quad(quad, loc, nv, 1);
      for (int j = 0; j < 4; ++j) ids[nids++] = h.vert[adr + (start + quad[j]) % nv];
    } else {
      for (int j = 0; j < nv; ++j) ids[nids++] = h.vert[adr + (start + j) % nv];
    }
    for (int j = 1; j < nids && count < 4; ++j) {
      T pnt[3];
      mul_mat_vec3(pnt, X.R, s.vert + 3 * ids[j]);
      pnt[0] += X.p[0], pnt[1] += X.p[1], pnt[2] += X.p[2];
      sub3(dif, pnt, plane.p);
      const T d = dot3(normal, dif);
      if (d > margin) continue;
      T up[3]; // above the mesh frame's origin along the normal: not a contact (3.14's second test)
      sub3(up, pnt, X.p);
      if (dot3(normal, up) > T(0)) continue;
      plane_contact(con[count++], pnt, normal, d);
    }
    return count;
  }

  // no polygons: the older rule
  constexpr int max_plane_mesh = 3;
  const T tol_plane_mesh = T(0.3);
  sub3(dif, X.p, plane.p);
  const T threshold = dot3(normal, dif) - margin;
  const auto add = [&](const T* v) {
    T pnt[3];
    mul_mat_vec3(pnt, X.R, v);
    pnt[0] += X.p[0], pnt[1] += X.p[1], pnt[2] += X.p[2];
    T dd[3];
    sub3(dd, pnt, con[0].pos);
    if (norm3(dd) < tol_plane_mesh * s.rbound) return 0;
    sub3(dd, pnt, plane.p);
    plane_contact(con[count], pnt, normal, dot3(normal, dd));
    return 1;
  };
  if (!s.graph) {
    for (int i = 0; i < s.nvert && count < max_plane_mesh; ++i)
      if (dot3(locdir, s.vert + 3 * i) > threshold && i != meshindex) count += add(s.vert + 3 * i);
  } else if (meshindex >= 0) {
    const int numvert = s.graph[0];
    const int* vert_edgeadr = s.graph + 2;
    const int* vert_globalid = s.graph + 2 + numvert;
    const int* edge_localid = s.graph + 2 + 2 * numvert;
    if (!(s.nvert >= 10)) { // the exhaustive search recorded a global index: its graph id
      int loc = -1;
      for (int v = 0; v < numvert; ++v)
        if (vert_globalid[v] == meshindex) loc = v;
      if (loc < 0) return count;
      meshindex = loc;
    }
    for (int i = vert_edgeadr[meshindex], loc; (loc = edge_localid[i]) >= 0 && count < max_plane_mesh; ++i) {
      const T* v = s.vert + 3 * vert_globalid[loc];
      if (dot3(locdir, v) > threshold) count += add(v);
    }
  }
  return count;
}

} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
