// Per-robot model parameters: the model constants that may differ from robot to robot of one batch
// (gravity, each body's mass, centre of mass and inertia, each joint's damping and armature, each
// actuator's gains, bias and control range, and what load derives from them), held per block as
// one row of kLaneStride values per constant, lane l of the row being robot b·W + l's value.
//
// A kernel reads such a constant as a vector load of its row (lane_value), never as a broadcast of
// one scalar: a batch whose robots all share the model has every row filled with one value, and the
// load gives the very bits the broadcast gave, so nothing changes for identical robots. A batch of
// different robots points the kernel at each block's own rows (KModel::lanes, KForces::lanes) before
// it steps the block; the rows are written once per robot (write_lane), from the robot's Model in
// double exactly as load derives the single-model constant, then rounded once.
//
// Which constants are rows (LaneSlots) is decided by what may differ: native/src/lane_difference.cpp
// refuses a robot whose model differs from the batch's in anything else.
#pragma once

#include "isa_namespace.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#include "bugs.hpp"
#include "model.hpp"
#include "simd.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Values per row: the widest pack (16 lanes), so any lane width reads its W values from the row's start.
constexpr int kLaneStride = 16;

/// The rows of one block, in this order: gravity x, y, z, then per joint i (kJointSlots rows from
/// 3 + kJointSlots·i) its ABA D additions (d_forward: the armature; d_step: the step's armature +
/// h·damping), its passive damping and armature (KPassive's), its body's mass, first moment h = m·c,
/// inertia about the joint frame's origin I_o (parallel-axis, made at load), centre of mass and
/// inertia about it; then per actuator a (after all joints) kActuatorSlots rows from
/// actuator(joints, a): kp, kv, ctrlrange low and high, gainprm₀..₂, biasprm₀..₂ (a dampratio's
/// biasprm₂ as load resolved it for that robot).
struct LaneSlots {
  static constexpr int kJointSlots = 23;
  static constexpr int kActuatorSlots = 10;
  enum ActuatorRow { Kp = 0, Kv = 1, CtrlLo = 2, CtrlHi = 3, Gain = 4, Bias = 7 };
  static constexpr int gravity(int k) { return k; }
  static constexpr int joint(int j) { return 3 + kJointSlots * j; }
  static constexpr int d_forward(int j) { return joint(j); }
  static constexpr int d_step(int j) { return joint(j) + 1; }
  static constexpr int damping(int j) { return joint(j) + 2; }
  static constexpr int armature(int j) { return joint(j) + 3; }
  static constexpr int mass(int j) { return joint(j) + 4; }
  static constexpr int h(int j, int k) { return joint(j) + 5 + k; }
  static constexpr int I_o(int j, int k) { return joint(j) + 8 + k; }
  static constexpr int com(int j, int k) { return joint(j) + 14 + k; }
  static constexpr int I_com(int j, int k) { return joint(j) + 17 + k; }
  /// The first row of actuator a of a model with `joints` joints.
  static int actuator(std::size_t joints, int a) { return joint(static_cast<int>(joints)) + kActuatorSlots * a; }
  static int count(std::size_t joints, std::size_t actuators) { return actuator(joints, static_cast<int>(actuators)); }
  static int count(const Model& m) { return count(m.joints.size(), m.actuators.size()); }
};

/// Allocates 64-byte aligned memory, so a row of 16 floats (or its first 8 doubles) is one cache line.
template <class T>
struct AlignedAlloc {
  using value_type = T;
  AlignedAlloc() = default;
  template <class U>
  AlignedAlloc(const AlignedAlloc<U>&) {}
  T* allocate(std::size_t n) {
    const std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, bytes ? bytes : 64);
    if (!p) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) { std::free(p); }
  template <class U>
  bool operator==(const AlignedAlloc<U>&) const {
    return true;
  }
  template <class U>
  bool operator!=(const AlignedAlloc<U>&) const {
    return false;
  }
};
template <class T>
using LaneRows = std::vector<T, AlignedAlloc<T>>;

/// Robot `m`'s constants written into lane `lane` of one block's rows (`block`: LaneSlots::count rows).
/// `h`, `implicit_damping`: the step's size and whether its damping is implicit (KModel::set_step),
/// which d_step is made from exactly as set_step makes the single model's.
template <class T>
inline void write_lane(T* block, int lane, const Model& m, double h, bool implicit_damping) {
  auto row = [&](int slot) -> T& { return block[static_cast<std::size_t>(slot) * kLaneStride + lane]; };
  for (int k = 0; k < 3; ++k) row(LaneSlots::gravity(k)) = T(m.gravity[k]);
  // The planted bug: damping left explicit where MuJoCo's Euler treats it implicitly.
  const bool implicit = implicit_damping && !ACH_BUG(DampingExplicit);
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    const int n = static_cast<int>(i);
    row(LaneSlots::d_forward(n)) = T(j.armature);
    row(LaneSlots::d_step(n)) = T(implicit ? j.armature + h * j.damping : j.armature);
    row(LaneSlots::damping(n)) = T(j.damping);
    row(LaneSlots::armature(n)) = T(j.armature);
    row(LaneSlots::mass(n)) = T(j.mass);
    // The V2 bug (as KModel's constructor): the inertia about the CoM taken for the inertia about the joint.
    const double* I = ACH_BUG(ParallelAxisDropped) ? j.I_com : j.I_o;
    for (int k = 0; k < 3; ++k) {
      row(LaneSlots::h(n, k)) = T(j.h[k]);
      row(LaneSlots::com(n, k)) = T(j.com[k]);
    }
    for (int k = 0; k < 6; ++k) {
      row(LaneSlots::I_o(n, k)) = T(I[k]);
      row(LaneSlots::I_com(n, k)) = T(j.I_com[k]);
    }
  }
  for (std::size_t a = 0; a < m.actuators.size(); ++a) {
    const Actuator& A = m.actuators[a];
    const int first = LaneSlots::actuator(m.joints.size(), static_cast<int>(a));
    row(first + LaneSlots::Kp) = T(A.kp);
    row(first + LaneSlots::Kv) = T(A.kv);
    row(first + LaneSlots::CtrlLo) = T(A.ctrl_lo);
    row(first + LaneSlots::CtrlHi) = T(A.ctrl_hi);
    for (int k = 0; k < 3; ++k) {
      row(first + LaneSlots::Gain + k) = T(A.gainprm[k]);
      row(first + LaneSlots::Bias + k) = T(A.biasprm[k]);
    }
  }
}

/// Every lane of one block's rows at model `m`'s values (a batch of identical robots).
template <class T>
inline LaneRows<T> uniform_lanes(const Model& m, double h, bool implicit_damping) {
  LaneRows<T> rows(static_cast<std::size_t>(LaneSlots::count(m)) * kLaneStride);
  for (int l = 0; l < kLaneStride; ++l) write_lane(rows.data(), l, m, h, implicit_damping);
  return rows;
}

/// The pack of one row: each lane its robot's value of the constant.
template <class V>
ACH_INLINE V lane_value(const ScalarOf<V>* lanes, int slot) {
  return load<V>(lanes + static_cast<std::size_t>(slot) * kLaneStride);
}

} // namespace ACH_ISA_NS
} // namespace ach
