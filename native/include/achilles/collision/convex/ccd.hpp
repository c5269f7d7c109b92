// One GJK/EPA query and its contact (MuJoCo's mjc_ccd and mjc_penetration, nativeccd).
//
// Each geom is inflated by margin/2, so a contact exists when the inflated shapes overlap and
//     dist = margin + d_ccd,   d_ccd < 0 the (inflated) signed distance.
// Spheres and capsules take a shortcut first: GJK on their centre point / segment, asked for the
// distance up to r + margin/2 each; when that core distance exceeds the tolerance the answer is
// the core distance minus both inflations (the witness points moved out along the line between
// them). Otherwise (deeper) GJK + EPA run on the full shapes. Without a sphere or capsule, GJK
// only decides overlap and EPA gives the depth. The contact: pos midway between the witness
// points x1 (on a) and x2 (on b), normal = (x1 − x2)/|x1 − x2| (from a to b: on overlap x1 lies
// beyond x2 along the normal).
#pragma once

#include "multicontact.hpp"

namespace ach {
inline namespace ACH_ISA_NS {
namespace convex {

/// mjc_ccd with dist_cutoff = 0 (no distance for separated geoms); returns d_ccd (negative: the
/// inflated shapes overlap) with the witness points in st. With `clip` (MuJoCo's max_contacts 4:
/// two of box, cylinder and mesh but box–box, at zero margin) EPA's final face goes on to the face clipping,
/// whose points (clip->n > 0) replace st's one pair; the answer is then their deepest.
template <class T>
T ccd(const CcdOptions<T>& opt, CcdStatus<T>& st, CcdObject<T>& a, CcdObject<T>& b, ClipContacts<T>* clip = nullptr) {
  if (clip) clip->n = 0, clip->swapped = false;
  copy3(st.x1, a.p);
  copy3(st.x2, b.p);
  st.gjk_iterations = 0;
  st.epa_iterations = 0;
  st.epa_ran = false;
  st.tolerance = opt.tolerance;
  st.max_iterations = opt.iterations;
  st.dist_cutoff = 0;
  st.nx = 0;

  const auto reducible = [](const CcdObject<T>& o) { return o.shape->kind == ConvexKind::Sphere || o.shape->kind == ConvexKind::Capsule; };
  if (reducible(a) || reducible(b)) {
    const T margin_a = a.margin, margin_b = b.margin;
    T full_a = 0, full_b = 0;
    if (reducible(a)) {
      full_a = a.shape->size[0] + T(0.5) * margin_a;
      a.mode = a.shape->kind == ConvexKind::Sphere ? SupportMode::Point : SupportMode::Line;
      a.margin = 0;
    }
    if (reducible(b)) {
      full_b = b.shape->size[0] + T(0.5) * margin_b;
      b.mode = b.shape->kind == ConvexKind::Sphere ? SupportMode::Point : SupportMode::Line;
      b.margin = 0;
    }
    st.dist_cutoff += full_a + full_b;
    gjk(st, a, b);
    st.dist_cutoff = 0;
    a.margin = margin_a, b.margin = margin_b;
    a.mode = SupportMode::Full, b.mode = SupportMode::Full;
    if (st.dist > st.tolerance) { // shallow: inflate the core distance
      T n[3];
      sub3(n, st.x2, st.x1);
      normalize3(n);
      if (full_a != 0) st.x1[0] += full_a * n[0], st.x1[1] += full_a * n[1], st.x1[2] += full_a * n[2];
      if (full_b != 0) st.x2[0] -= full_b * n[0], st.x2[1] -= full_b * n[1], st.x2[2] -= full_b * n[2];
      st.dist -= full_a + full_b;
      if (st.dist > st.dist_cutoff) st.dist = Limits<T>::max_limit;
      return st.dist;
    }
    // deep: start again on the full shapes
    st.gjk_iterations = 0;
    copy3(st.x1, a.p);
    copy3(st.x2, b.p);
  }
  gjk(st, a, b);
  if (st.dist <= opt.tolerance && st.nsimplex > 1 && !st.separated) {
    st.dist = 0; // touching unless EPA finds depth
    Polytope<T> pt;
    pt.maxfaces = 6 * opt.iterations;
    EpaStatus ret;
    if (st.nsimplex == 2)
      ret = polytope2(pt, st, a, b);
    else if (st.nsimplex == 3)
      ret = polytope3(pt, st, a, b);
    else
      ret = polytope4(pt, st, a, b);
    if (ret == EpaStatus::Success) {
      const EpaFace<T>* face = epa(st, pt, a, b);
      st.epa_ran = true;
      if (clip && face) {
        const auto clippable = [](const ConvexShape<T>& s) {
          return s.kind == ConvexKind::Box || s.kind == ConvexKind::Cylinder || (s.kind == ConvexKind::Mesh && s.polygons && s.polygons->npoly > 0);
        };
        if (clippable(*a.shape) && clippable(*b.shape)) multicontact(pt, *face, st.x1, st.x2, a, b, *clip);
      }
    }
  }
  if (clip && clip->swapped) { // MuJoCo's swap with nothing clipped: EPA's pair turned round
    T tmp[3];
    copy3(tmp, st.x1), copy3(st.x1, st.x2), copy3(st.x2, tmp);
  }
  if (clip && clip->n > 0) {
    T min_dist = clip->dist[0];
    for (int i = 1; i < clip->n; ++i) min_dist = std::fmin(min_dist, clip->dist[i]);
    return min_dist;
  }
  return st.dist;
}

/// One contact from witness points x1 (on a) and x2 (on b) at ccd distance d: mjc_penetration's
/// dist = margin + d, pos midway, normal (x1 − x2)/|x1 − x2|. `epa`: the points came from EPA.
template <class T>
void witness_contact(ConvexContact<T>& con, const T x1[3], const T x2[3], T d, T margin, bool epa) {
  con.dist = margin + d;
  add3(con.pos, x1, x2);
  scl3(con.pos, con.pos, T(0.5));
  if (epa && ACH_BUG(ConvexEpaNormalSign))
    sub3(con.normal, x2, x1); // the planted bug: from b to a
  else
    sub3(con.normal, x1, x2);
  normalize3(con.normal);
}

/// mjc_penetration with max_contacts 4 (two of box, cylinder and mesh but box–box, at zero margin): the face
/// clipping's points, or EPA's one contact where it clips nothing. `con` holds kMaxClipContacts.
template <class T>
int penetration_clipped(const CcdOptions<T>& opt, CcdObject<T>& a, CcdObject<T>& b, T margin, ConvexContact<T>* con) {
  CcdStatus<T> st;
  ClipContacts<T> clip;
  if (!(ccd(opt, st, a, b, &clip) < 0) || st.nx < 1) return 0;
  if (clip.n == 0) return witness_contact(con[0], st.x1, st.x2, st.dist, margin, st.epa_ran), 1;
  for (int i = 0; i < clip.n; ++i) witness_contact(con[i], clip.x1 + 3 * i, clip.x2 + 3 * i, clip.dist[i], margin, false);
  return clip.n;
}

/// mjc_penetration: at most one contact from one ccd query.
template <class T>
int penetration(const CcdOptions<T>& opt, CcdObject<T>& a, CcdObject<T>& b, T margin, ConvexContact<T>& con) {
  CcdStatus<T> st;
  if (!(ccd(opt, st, a, b) < 0) || st.nx < 1) return 0;
  witness_contact(con, st.x1, st.x2, st.dist, margin, st.epa_ran);
  return 1;
}

} // namespace convex
} // namespace ACH_ISA_NS
} // namespace ach
