// The model as the kernels read it: constants rounded once to the kernel's scalar type.
#pragma once

#include "isa_namespace.hpp"

#include <vector>

#include "bugs.hpp"
#include "lane_values.hpp"
#include "model.hpp"
#include "passive/fluid.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class T>
struct KJoint {
  JointType type;
  AxisKind axis_kind;
  int unit_axis; // 0..5 when S is one coordinate axis (hinge/slide along x, y or z), else −1
  bool fold_c;   // a root whose velocity-product acceleration c can be nonzero (free, planar)
  int parent, nq, nv, qoff, voff;
  bool R_PJ_identity;
  // 0..2 when X_PB's rotation turns about coordinate axis rot_axis of P (a hinge about x, y or z,
  // or no rotation at all: a slide or fixed joint, as a turn by 0 about x), with R_PJ = 1; else −1
  int rot_axis;
  // 0..2 when X_PB's origin lies on coordinate axis offset_axis of P whatever q (a hinge or fixed
  // joint whose p_PJ has at most that one component nonzero), else −1; used with rot_axis >= 0 only
  int offset_axis;
  T R_PJ[9], p_PJ[3], axis[3], u[3], w[3];
  // The body's mass, first moment, inertia about the joint frame's origin and centre of mass: the
  // kernels read them per lane (rigid_inertia, rows LaneSlots::mass/h/I_o/com); these are the batch's
  // model's, for tests of a zero mass (the same in every robot) and scalar code.
  T m, h[3], I_o[6], com[3];
  // Added to the ABA's D = Sᵀ·IA·S on the diagonal: the armature always (d_forward), and in a
  // semi-implicit Euler step also h·damping, MuJoCo's implicit damping (d_step; set_step). The
  // kernels read them per lane (KModel::lanes, rows LaneSlots::d_forward/d_step of this joint); these
  // scalars are the batch's model's, for scalar code that runs one model (contact/tree.hpp's M·x).
  bool has_d;
  T d_forward, d_step;
  // The backward sweep's start of IA = I + Σ children's shares: a joint with no child starts it
  // itself; otherwise its first child to be folded (the highest-numbered) writes I + its share.
  bool has_child, first_child;
};

template <class T>
struct KModel {
  std::vector<KJoint<T>> joints;
  int nq = 0, nv = 0, max_nv = 0;
  T gravity[3] = {0, 0, 0}; // the batch's model's; the kernels read gravity per lane (lanes)
  // The per-lane constants (lane_values.hpp) of the block being evaluated: own_lanes (the model's
  // values in every lane) unless a batch of different robots points it at a block's rows.
  const T* lanes = nullptr;
  LaneRows<T> own_lanes;
  // Whether `lanes` are a block's rows of robots that differ (KernelImpl::bind); false: own_lanes, every
  // lane the joints' own constants, which the hottest reads then broadcast instead (rigid_inertia).
  bool per_lane = false;

  template <class V>
  ACH_INLINE V lane(int slot) const {
    return lane_value<V>(lanes, slot);
  }

  // MuJoCo's fluid forces (passive/fluid.hpp), which every forward-dynamics evaluation applies
  KFluid<T> fluid;

  KModel(const KModel& o) { *this = o; }
  KModel& operator=(const KModel& o) {
    joints = o.joints;
    nq = o.nq, nv = o.nv, max_nv = o.max_nv;
    for (int k = 0; k < 3; ++k) gravity[k] = o.gravity[k];
    own_lanes = o.own_lanes;
    lanes = o.lanes == o.own_lanes.data() ? own_lanes.data() : o.lanes; // a copy reads its own rows
    per_lane = o.per_lane;
    damped_step = o.damped_step;
    fluid = o.fluid;
    return *this;
  }

  explicit KModel(const Model& model)
      : nq(model.nq), nv(model.nv), max_nv(model.max_nv), own_lanes(uniform_lanes<T>(model, 0, false)), fluid(model.fluid) {
    lanes = own_lanes.data();
    for (int k = 0; k < 3; ++k) gravity[k] = T(model.gravity[k]);
    joints.reserve(model.joints.size());
    for (const Joint& j : model.joints) {
      KJoint<T> k{};
      k.type = j.type;
      k.axis_kind = j.axis_kind;
      const bool one_dof = j.type == JointType::Revolute || j.type == JointType::Prismatic;
      k.fold_c = j.parent < 0 && (j.type == JointType::Free || j.type == JointType::Planar);
      k.unit_axis = one_dof && j.axis_kind != AxisKind::General ? static_cast<int>(j.axis_kind) : -1;
      k.parent = j.parent;
      k.nq = j.nq;
      k.nv = j.nv;
      k.qoff = j.qoff;
      k.voff = j.voff;
      k.R_PJ_identity = true;
      for (int e = 0; e < 9; ++e) {
        k.R_PJ[e] = T(j.R_PJ[e]);
        if (j.R_PJ[e] != ((e % 4 == 0) ? 1.0 : 0.0)) k.R_PJ_identity = false;
      }
      const bool unrotated = j.type == JointType::Prismatic || j.type == JointType::Fixed;
      const bool coord_hinge = j.type == JointType::Revolute && j.axis_kind <= AxisKind::C2;
      k.rot_axis = !k.R_PJ_identity ? -1 : coord_hinge ? static_cast<int>(j.axis_kind) : unrotated ? 0 : -1;
      k.offset_axis = -1;
      if (j.type == JointType::Revolute || j.type == JointType::Fixed)
        for (int a = 0; a < 3 && k.offset_axis < 0; ++a)
          if (T(j.p_PJ[(a + 1) % 3]) == T(0) && T(j.p_PJ[(a + 2) % 3]) == T(0)) k.offset_axis = a;
      for (int e = 0; e < 3; ++e) {
        k.p_PJ[e] = T(j.p_PJ[e]);
        k.axis[e] = T(j.axis[e]);
        k.u[e] = T(j.u[e]);
        k.w[e] = T(j.w[e]);
        k.h[e] = T(j.h[e]);
        k.com[e] = T(j.com[e]);
      }
      k.m = T(j.mass);
      // The V2 bug: the inertia about the CoM taken for the inertia about the joint.
      const double* I = ACH_BUG(ParallelAxisDropped) ? j.I_com : j.I_o;
      for (int e = 0; e < 6; ++e) k.I_o[e] = T(I[e]);
      k.has_d = j.armature != 0 || j.damping != 0;
      k.d_forward = T(j.armature);
      k.d_step = T(j.armature);
      joints.push_back(k);
    }
    for (int i = static_cast<int>(joints.size()) - 1; i >= 0; --i) {
      const int p = joints[i].parent;
      if (p < 0) continue;
      joints[i].first_child = !joints[p].has_child;
      joints[p].has_child = true;
    }
  }

  /// No gravity and no fluid, in every lane: load's computations at rest (inverse weights, dampratio),
  /// which take M⁻¹ columns from the ABA (a wind would push a body at rest).
  void without_gravity() {
    fluid = KFluid<T>();
    for (int k = 0; k < 3; ++k) {
      gravity[k] = 0;
      for (int l = 0; l < kLaneStride; ++l) own_lanes[static_cast<std::size_t>(LaneSlots::gravity(k)) * kLaneStride + l] = 0;
    }
  }

  /// The step's D addition: MuJoCo's Euler solves (M + h·diag(damping))·q̈ = f, which the ABA
  /// does by adding h·damping to each damped joint's D (the damping force −d·q̇ stays in f).
  void set_step(const Model& model, double h, bool implicit_damping) {
    damped_step = false;
    for (std::size_t i = 0; i < joints.size(); ++i) {
      const Joint& j = model.joints[i];
      // The planted bug: damping left explicit where MuJoCo's Euler treats it implicitly.
      const bool implicit = implicit_damping && !ACH_BUG(DampingExplicit);
      joints[i].d_step = T(implicit ? j.armature + h * j.damping : j.armature);
      if (implicit && j.damping != 0) damped_step = true;
    }
    own_lanes = uniform_lanes<T>(model, h, implicit_damping);
    lanes = own_lanes.data();
  }
  /// Whether a step's D differs from M's (implicit damping): then a constrained step solves the
  /// constraints with M and only its final q̈ with M + h·D (MuJoCo's mj_EulerSkip).
  bool damped_step = false;
};

} // namespace ACH_ISA_NS
} // namespace ach
