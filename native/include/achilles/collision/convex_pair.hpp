// One lane's contacts of a pair with a cylinder, ellipsoid or convex shape, by the collider MuJoCo's
// table (engine_collision_driver.c) gives the pair: its analytic plane–cylinder, sphere–cylinder and
// plane–convex (ellipsoid, mesh), else its GJK/EPA (convex.hpp), in scalar T.
//
// Supported: every pair with a plane, sphere–cylinder, any pair with a sphere or an ellipsoid (GJK/EPA
// gives them one contact), and the pairs where MuJoCo adds multiccd's perturbed points (up to 5
// contacts, each with the normal of its own re-run: a Manifold carries a normal per point): a
// cylinder or mesh with a capsule, and two of cylinder, box and mesh at a positive margin; and two
// of box, cylinder and mesh (not box–box) at zero margin, MuJoCo's face clipping (gjk.c
// `multicontact`, up to 4 points: convex/multicontact.hpp; 3.14's cylinder features, its caps as
// 16-gons and its side as a segment along the axis: convex/cylinder_faces.hpp), which needs a mesh's
// polygons (made from its faces). Where the clipped polygon is a regular 16-gon (a cap lying wholly
// on a larger face) MuJoCo's 4 points are one of several equal-area quads, picked by its rounding:
// the engine may pick another (docs/collision-validation.md). With multiccd disabled (<flag
// multiccd="disable"/>) MuJoCo gives every such pair its first GJK/EPA contact only (maxContacts 1,
// no perturbed re-runs), which is what this runs.
#pragma once

#include "../isa_namespace.hpp"

#include <string>

#include "convex.hpp"
#include "convex/analytic.hpp"
#include "narrow.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Up to kPairPoints contacts of one pair in one lane, in MuJoCo's order, each with its normal (from a to b).
template <class T>
struct ConvexContacts {
  int count = 0;
  T normal[kPairPoints][3];
  T pos[kPairPoints][3];
  T dist[kPairPoints];
};

/// The collider's kind for a shape kind (pairs with a plane or a rounded box never get here).
inline convex::ConvexKind convex_kind_of(ShapeKind k) {
  switch (k) {
    case ShapeKind::Sphere:
      return convex::ConvexKind::Sphere;
    case ShapeKind::Capsule:
      return convex::ConvexKind::Capsule;
    case ShapeKind::Box:
      return convex::ConvexKind::Box;
    case ShapeKind::Cylinder:
      return convex::ConvexKind::Cylinder;
    case ShapeKind::Ellipsoid:
      return convex::ConvexKind::Ellipsoid;
    default:
      return convex::ConvexKind::Mesh;
  }
}

/// Why the pair (a, b) cannot be collided as MuJoCo does, or nullptr when it can. `positive_margin`:
/// the pair's margin + gap (both shapes' summed) is > 0: MuJoCo's driver hands its colliders margin +
/// gap, which is what its maxContacts reads (and what convex_collide gets as its margin).
/// `multiccd`: the model's flag (Model::multiccd).
inline const char* convex_pair_unsupported(ShapeKind a, ShapeKind b, bool positive_margin, bool multiccd) {
  if (!is_convex_kind(a) && !is_convex_kind(b)) return nullptr;
  if (a == ShapeKind::RoundedBox || b == ShapeKind::RoundedBox)
    return "a rounded box is not one of MuJoCo's geoms, so nothing says how it meets a cylinder, ellipsoid or mesh";
  if (a == ShapeKind::Plane || b == ShapeKind::Plane) return nullptr;
  if (!convex::convex_first_contact_only(convex_kind_of(a), convex_kind_of(b), positive_margin, multiccd)) return nullptr;
  return "at zero margin MuJoCo collides two boxes with its own box–box (up to 8 points), which the convex collider does not port";
}

/// Why a pair of these two shapes cannot be clipped as MuJoCo clips it, or nullptr: MuJoCo's face
/// clipping (box–mesh, mesh–mesh at zero margin) reads a mesh's polygons, made from its faces.
inline const char* convex_pair_missing_polygons(ShapeKind a, bool a_has_polygons, ShapeKind b, bool b_has_polygons, bool positive_margin,
                                                bool multiccd) {
  if (!is_convex_kind(a) && !is_convex_kind(b)) return nullptr;
  if (a == ShapeKind::Plane || b == ShapeKind::Plane || a == ShapeKind::RoundedBox || b == ShapeKind::RoundedBox) return nullptr;
  if (!convex::convex_clips_faces(convex_kind_of(a), convex_kind_of(b), positive_margin, multiccd)) return nullptr;
  if ((a != ShapeKind::Convex || a_has_polygons) && (b != ShapeKind::Convex || b_has_polygons)) return nullptr;
  return "at zero margin MuJoCo clips one face against the other (gjk.c multicontact), which reads the mesh's polygons, and a "
         "convex shape given without its hull's faces has none";
}

/// A shape as the convex colliders read it, in double (they run in double for f32 robots too:
/// narrow_convex.hpp): its kind for the dispatch, MuJoCo's geom_size, the hull's vertices and rbound as
/// MuJoCo's compiler makes it. Made once per pair and evaluation, not per lane (rbound walks the hull).
struct ConvexGeom {
  ShapeKind kind;
  convex::ConvexShape<double> s;
  convex::HullPolygons<double> poly; // a mesh's polygons (s.polygons points here once the geom is in place: shape())
  bool has_poly = false;
  /// The collider's shape with its polygons (taken where the geom lives, not where it was made).
  convex::ConvexShape<double> shape() const {
    convex::ConvexShape<double> r = s;
    r.polygons = has_poly ? &poly : nullptr;
    return r;
  }
};

template <class T>
inline ConvexGeom convex_geom(const ShapeGeom<T>& g) {
  ConvexGeom c{g.kind, {}, {}, false};
  convex::ConvexShape<double>& s = c.s;
  switch (g.kind) {
    case ShapeKind::Sphere:
      s.kind = convex::ConvexKind::Sphere, s.size[0] = double(g.r);
      break;
    case ShapeKind::Capsule:
      s.kind = convex::ConvexKind::Capsule, s.size[0] = double(g.r), s.size[1] = double(g.h[2]);
      break;
    case ShapeKind::Box:
      s.kind = convex::ConvexKind::Box;
      for (int k = 0; k < 3; ++k) s.size[k] = double(g.h[k]);
      break;
    case ShapeKind::Cylinder:
      s.kind = convex::ConvexKind::Cylinder;
      for (int k = 0; k < 3; ++k) s.size[k] = double(g.size[k]);
      break;
    case ShapeKind::Ellipsoid:
      s.kind = convex::ConvexKind::Ellipsoid;
      for (int k = 0; k < 3; ++k) s.size[k] = double(g.size[k]);
      break;
    case ShapeKind::Convex:
      s.kind = convex::ConvexKind::Mesh, s.vert = g.vert, s.nvert = g.nvert, s.graph = g.graph, s.extrema = g.extrema;
      if (g.polygons) {
        const HullPolygonData& h = *g.polygons;
        c.poly = {h.npoly(), h.vertadr.data(), h.vertnum.data(), h.vert.data(), h.normal.data(), h.mapadr.data(), h.mapnum.data(), h.map.data()};
        c.has_poly = true;
      }
      break;
    case ShapeKind::Plane:
    case ShapeKind::RoundedBox:
      break; // planes go to the analytic colliders; rounded boxes are refused
  }
  // a mesh's rbound walks its whole hull: KCollision makes it once at load (g.rbound), the same
  // function on the same numbers
  s.rbound = g.rbound > 0 ? g.rbound : convex::default_rbound(s);
  return c;
}

/// Contacts of a at pa and b at pb (one lane) within thr, normal from a to b; `multiccd`: the model's flag.
inline void convex_pair_contacts(const ConvexGeom& a, const convex::ConvexPose<double>& pa, const ConvexGeom& b, const convex::ConvexPose<double>& pb,
                                 double thr, bool multiccd, ConvexContacts<double>& out) {
  using convex::ConvexContact;
  ConvexContact<double> con[convex::kMaxConvexContacts];
  int n = 0;
  bool flip = false; // the collider's geom a is our b
  if (a.kind == ShapeKind::Plane || b.kind == ShapeKind::Plane) {
    flip = b.kind == ShapeKind::Plane;
    const ConvexGeom& g = flip ? a : b;
    const convex::ConvexPose<double>& plane = flip ? pb : pa;
    const convex::ConvexPose<double>& X = flip ? pa : pb;
    const convex::ConvexShape<double> sg = g.shape(); // a mesh with its polygons (plane_convex's further points)
    n = g.kind == ShapeKind::Cylinder ? convex::plane_cylinder(plane, sg, X, thr, con) : convex::plane_convex(plane, sg, X, thr, con);
  } else if ((a.kind == ShapeKind::Sphere && b.kind == ShapeKind::Cylinder) || (b.kind == ShapeKind::Sphere && a.kind == ShapeKind::Cylinder)) {
    flip = b.kind == ShapeKind::Sphere;
    n = flip ? convex::sphere_cylinder(b.s, pb, a.s, pa, thr, con) : convex::sphere_cylinder(a.s, pa, b.s, pb, thr, con);
  } else {
    convex::CcdOptions<double> opt;
    opt.multiccd = multiccd || ACH_BUG(ContactMulticcdFlagIgnored); // planted: the model's multiccd="disable" is not heard
    const convex::ConvexShape<double> sa = a.shape(), sb = b.shape();
    n = convex::convex_collide(sa, pa, sb, pb, thr, opt, con);
  }
  // At most kPairPoints contacts: plane–cylinder 4, plane–mesh 4, multiccd 5, the others 1 (a pair
  // refused at load, or admitted by a planted filter bug, could get more: the rest are dropped)
  out.count = 0;
  for (int i = 0; i < n && out.count < kPairPoints; ++i) {
    if (!(con[i].dist < thr)) continue; // the driver keeps dist < margin (the colliders report dist <= margin)
    const int k = out.count++;
    out.dist[k] = con[i].dist;
    for (int e = 0; e < 3; ++e) out.pos[k][e] = con[i].pos[e];
    const bool own = k == 0 || !ACH_BUG(ContactPerturbedNormalShared); // planted: a perturbed point takes the first one's normal
    for (int e = 0; e < 3; ++e) out.normal[k][e] = flip ? -con[own ? i : 0].normal[e] : con[own ? i : 0].normal[e];
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
