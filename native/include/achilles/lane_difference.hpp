// Whether a robot's model may share a batch with the batch's model, one robot per lane: it must
// equal it in everything but the per-lane constants (lane_values.hpp), because everything else is
// read once for every lane of a block.
#pragma once

#include <string>

#include "model.hpp"

namespace ach {

/// "" when `robot` differs from `base` (both finalized) only in gravity, in the values of its joints'
/// damping and armature and in its actuators' kp, kv, control range, gainprm and biasprm; damping,
/// armature, kv, gainprm₂ and biasprm₂ each zero where the base's is and nonzero where it is not (a
/// zero drops its term for every lane, which the kernels decide per model). Otherwise the first
/// difference, named: "joint 'shin' mass: 1.2 in the batch's model, 1.5 here". An armature in a model
/// with constraints shows up as a difference in the inverse weights derived from it at load
/// (dof_invweight0), which are not per lane: such robots need batches of their own.
std::string lane_difference(const Model& base, const Model& robot);

} // namespace ach
