// A contact pair's parameters from its two geoms', as MuJoCo's mj_contactParam
// (engine_collision_driver.c, 3.14) makes them for a pair found by collision (no explicit <pair>):
//
//   priority_a ≠ priority_b:  condim, friction, solref, solimp all the higher-priority geom's
//   priority_a = priority_b:  condim   = max(condim_a, condim_b)
//                             friction = max(friction_a, friction_b)          element by element
//                             mix      = solmix_a/(solmix_a + solmix_b)      both >= mjMINVAL
//                                        0.5                                 both < mjMINVAL
//                                        0 (b's) or 1 (a's)                  only one of them tiny
//                             solref   = mix·solref_a + (1 − mix)·solref_b   both standard (solref[0] > 0)
//                                        min(solref_a, solref_b)             else (a direct one), element by element
//                             solimp   = mix·solimp_a + (1 − mix)·solimp_b
//
// margin and gap are not mixed here: MuJoCo's getMargin and getGap sum the two geoms' whatever the
// priorities (KConstraints::contact_pair, the narrow phase). A geom has no solreffriction (only an
// explicit <pair> does), so the pair's is MuJoCo's 0 (unused: the pyramid's rows).
#pragma once

#include "../isa_namespace.hpp"

#include <algorithm>
#include <cmath>

#include "../bugs.hpp"
#include "../collision/shape.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// What a contact pair's constants are made of, per shape (KConstraints::contact_pair).
struct ContactShape {
  int body;
  ShapeKind kind;
  int condim;
  int priority;
  double solmix;
  double friction, torsion, rolling, margin, solref[2], solimp[5];
};

/// Whose parameters a pair of geoms takes: +1 the first's (higher priority), −1 the second's, 0 both
/// mixed (equal priorities). The planted bug mixes them whatever the priorities.
inline int priority_side(int priority_a, int priority_b) {
  if (ACH_BUG(ContactPriorityIgnored)) return 0;
  return priority_a > priority_b ? 1 : priority_a < priority_b ? -1 : 0;
}

/// One friction coefficient of the pair (sliding, torsional or rolling): the winner's, or the max.
inline double side_friction(int side, double a, double b) { return side > 0 ? a : side < 0 ? b : std::fmax(a, b); }

/// The solmix weight of the first geom (MuJoCo's `mix`), with its tiny-weight cases.
inline double solmix_weight(double solmix_a, double solmix_b) {
  constexpr double kMinVal = 1e-15; // mjMINVAL
  const bool a_ok = solmix_a >= kMinVal, b_ok = solmix_b >= kMinVal;
  if (a_ok && b_ok) return solmix_a / (solmix_a + solmix_b);
  if (!a_ok && !b_ok) return 0.5;
  return a_ok ? 1.0 : 0.0;
}

/// The pair's condim, solref and solimp (its frictions: side_friction with the same side).
struct MixedSoft {
  int side;
  int condim;
  double solref[2], solimp[5];
};

inline MixedSoft mix_contact_param(const ContactShape& a, const ContactShape& b) {
  MixedSoft s{};
  s.side = priority_side(a.priority, b.priority);
  if (s.side != 0) {
    const ContactShape& w = s.side > 0 ? a : b;
    s.condim = w.condim;
    for (int e = 0; e < 2; ++e) s.solref[e] = w.solref[e];
    for (int e = 0; e < 5; ++e) s.solimp[e] = w.solimp[e];
    return s;
  }
  s.condim = std::max(a.condim, b.condim);
  const double mix = solmix_weight(a.solmix, b.solmix);
  if (a.solref[0] > 0 && b.solref[0] > 0)
    for (int e = 0; e < 2; ++e) s.solref[e] = mix * a.solref[e] + (1 - mix) * b.solref[e];
  else
    for (int e = 0; e < 2; ++e) s.solref[e] = std::fmin(a.solref[e], b.solref[e]);
  for (int e = 0; e < 5; ++e) s.solimp[e] = mix * a.solimp[e] + (1 - mix) * b.solimp[e];
  return s;
}

} // namespace ACH_ISA_NS
} // namespace ach
