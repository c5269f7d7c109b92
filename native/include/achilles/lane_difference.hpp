// Whether a robot's model may share a batch with the batch's model, one robot per lane: it must
// equal it in everything but the per-lane constants (lane_values.hpp), because everything else is
// read once for every lane of a block.
#pragma once

#include <string>

#include "model.hpp"

namespace ach {

/// "" when `robot` differs from `base` (both finalized) only in gravity, in its bodies' masses,
/// centres of mass and inertias, in the values of its joints' damping and armature, in its shapes'
/// frictions (sliding, torsional, rolling), in what load derives from masses and armatures for the
/// constraints (meaninertia and the inverse weights: contact/lane_constraints.hpp), and in its
/// actuators' kp, kv, control range, gainprm and biasprm; mass, damping, armature, kv, gainprm₂ and
/// biasprm₂ each zero where the base's is and nonzero where it is not (a zero drops its term for every
/// lane, which the kernels decide per model). Otherwise the first difference, named: "shape 'ground'
/// margin: 0 in the batch's model, 0.01 here".
std::string lane_difference(const Model& base, const Model& robot);

} // namespace ach
