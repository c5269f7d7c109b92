// Body motion for sensors: every body's spatial acceleration from the generalized accelerations,
// at the current state (after pass_velocity), whatever produced q̈ (ABA alone, or ABA plus
// constraint forces). The IMU reads ω from the body velocity and its accelerometer from this.
//
//   a_B = X_PB⁻¹ a_P + c + S q̈,   a_world = [0; −g]
//
// so a body at rest reads [0; −R_WBᵀ g]: what an accelerometer measures (proper acceleration).
#pragma once

#include "../isa_namespace.hpp"

#include "../aba.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Root → leaves: a_B of every body into W[i].acc, from q̈ (reads X, c and, off the unit-axis path, S of pass_velocity).
template <class V>
inline void pass_body_acceleration(const KModel<ScalarOf<V>>& M, JointWork<V>* W, const V* qdd) {
  using T = ScalarOf<V>;
  const V z(T(0));
  const Motion<V> a_world{
      {z, z, z},
      {-M.template lane<V>(LaneSlots::gravity(0)), -M.template lane<V>(LaneSlots::gravity(1)), -M.template lane<V>(LaneSlots::gravity(2))}};
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) {
    const KJoint<T>& J = M.joints[i];
    JointWork<V>& w = W[i];
    Motion<V> a = motion_to_child(J, w.X, J.parent < 0 ? a_world : W[J.parent].acc) + w.c;
    const V* qddi = qdd + J.voff;
    if (J.unit_axis >= 0) {
      auto unit = [&]<int K>() { add_comp<K>(a, qddi[0]); };
      on_unit_axis(J.unit_axis, unit);
    } else {
      for (int k = 0; k < J.nv; ++k) a = a + scale(qddi[k], w.S[k]);
    }
    w.acc = a;
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
