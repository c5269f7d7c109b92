// Fixed tendons (MuJoCo's mjTNDN_FIXED: a linear coupling of scalar joint coordinates,
// engine_core_smooth.c mj_tendon with mjWRAP_JOINT):
//
//   length    L = Σ_k coef_k · q[qposadr_k]          (hinge and slide joints only)
//   moment    J = Σ_k coef_k · e_{dofadr_k}          (constant: the row of every tendon constraint)
//   velocity  L̇ = J·q̇
//
// What acts along a tendon: its limit (two soft rows, lower dist = L − lo with J, upper dist = hi − L
// with −J; mj_instantiateLimit), its dry friction (one row, mj_instantiateFriction), and the passive
// spring-damper of mj_passive: f = −k·x − b·L̇ with x the distance outside [springlength₀,
// springlength₁] (0 inside: the dead band), applied as Jᵀ·f. tendon_armature is not supported (it adds
// Jᵀ·a·J to M, which the O(n) tree products cannot express): the importer refuses it.
#pragma once

#include <string>
#include <vector>

#include "limit_spec.hpp"

namespace ach {

struct Tendon {
  std::string name;
  std::vector<int> joints;   // joint indices (revolute or prismatic), in the source's order
  std::vector<double> coefs; // one per joint
  LimitSpec limit;
  double frictionloss = 0;
  double stiffness = 0, damping = 0;
  double springlength[2] = {0, 0}; // the dead band [lower, upper] (MuJoCo's tendon_lengthspring)
};

} // namespace ach
