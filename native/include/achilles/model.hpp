// The model: everything static about one robot, built once at load and never changed after.
// Joints are stored in topological order (parent before child), which is also depth order
// for every root-to-leaf path, so one forward sweep and one backward sweep visit the tree.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "actuators/actuator.hpp"
#include "collision/shape.hpp"
#include "contact/equality_spec.hpp"
#include "contact/limit_spec.hpp"
#include "contact/tendon.hpp"
#include "sensors/mjcf_sensor_spec.hpp"
#include "passive/fluid_spec.hpp"

namespace ach {

enum class JointType : std::uint8_t { Revolute, Prismatic, Ball, Free, Planar, Fixed };

/// Which spatial component a one-degree-of-freedom joint moves along, when it is a coordinate
/// axis (0..5: ωx ωy ωz vx vy vz), or General. Lets the hot 1-DOF kernels skip the zeros of S.
enum class AxisKind : std::uint8_t { C0, C1, C2, C3, C4, C5, General };

inline int joint_nq(JointType t) {
  switch (t) {
    case JointType::Revolute:
    case JointType::Prismatic:
      return 1;
    case JointType::Ball:
      return 4;
    case JointType::Free:
      return 7;
    case JointType::Planar:
      return 3;
    case JointType::Fixed:
      return 0;
  }
  return 0;
}
inline int joint_nv(JointType t) {
  switch (t) {
    case JointType::Revolute:
    case JointType::Prismatic:
      return 1;
    case JointType::Ball:
      return 3;
    case JointType::Free:
      return 6;
    case JointType::Planar:
      return 3;
    case JointType::Fixed:
      return 0;
  }
  return 0;
}

struct Joint {
  std::string name;
  JointType type = JointType::Fixed;
  AxisKind axis_kind = AxisKind::General;
  int parent = -1; // -1: the world
  int nq = 0, nv = 0, qoff = 0, voff = 0;
  double R_PJ[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}; // joint frame in parent frame (row-major)
  double quat_PJ[4] = {1, 0, 0, 0};             // the same rotation as a unit quaternion (MJCF sensors' xquat)
  double p_PJ[3] = {0, 0, 0};
  double axis[3] = {0, 0, 1};                // hinge/slide axis or plane normal, in J
  double u[3] = {1, 0, 0}, w[3] = {0, 1, 0}; // planar in-plane axes
  double mass = 0;
  double com[3] = {0, 0, 0};
  double I_com[6] = {0, 0, 0, 0, 0, 0}; // xx yy zz xy xz yz about the CoM, body axes
  // Derived: first moment and rotational inertia about the body origin (parallel-axis theorem).
  double h[3] = {0, 0, 0};
  double I_o[6] = {0, 0, 0, 0, 0, 0};
  // Constraints (contact/ room): the limit (revolute, prismatic and ball joints take one) and MuJoCo's
  // dof_frictionloss.
  LimitSpec limit;
  double frictionloss = 0;
  // Passive joint forces (actuators/actuator.hpp): per dof, MuJoCo's definitions.
  double damping = 0, stiffness = 0, springref = 0, armature = 0;
  // MuJoCo's springdamper = [timeconst, dampratio] (revolute and prismatic joints): both > 0, or both 0
  // (none). Given, finalize replaces stiffness and damping by the values they make at qpos0
  // (actuators/springdamper.cpp, MuJoCo's mjCModel::AutoSpringDamper).
  double springdamper[2] = {0, 0};
  // MuJoCo's reference position (qpos0) of a revolute or prismatic joint: the constants mj_setConst
  // makes at qpos0 (the inverse weights, equality anchors) are made with the joint at ref (0: q = 0).
  double ref = 0;
};

struct Model {
  std::vector<Joint> joints;
  int nq = 0, nv = 0;
  int max_nv = 0;
  double gravity[3] = {0, 0, 0};
  std::vector<double> q0, v0, tau0;
  // Collision (see collision/shape.hpp): shapes, body pairs whose shapes never collide (-1 =
  // world), and whether any two shapes may touch under MuJoCo's filtering rules
  // (collision/pair_filter.hpp; the broad phase asks the filter of each overlapping pair).
  std::vector<Shape> shapes;
  std::vector<std::pair<int, int>> excludes;
  bool has_pairs = false;
  // MuJoCo's <flag multiccd> (mjDSBL_MULTICCD; on by default): off, every pair its mjc_Convex collides
  // gets the first GJK/EPA contact only (no perturbed re-runs, no face clipping: convex.hpp)
  bool multiccd = true;
  // Constraint solver (contact/ room): MuJoCo's option iterations (fixed here) and impratio, and the
  // inverse weights MuJoCo's mj_setConst derives at qpos0 (body_invweight0: translation, rotation per
  // joint's body; dof_invweight0 per dof), filled by finalize when anything constrains the model.
  int solver_iterations = 20;
  double impratio = 1;
  // MuJoCo's option cone: false the pyramid (2(condim − 1) edge rows per point), true the elliptic
  // cone (condim rows per point: normal, then the friction directions; contact/cone.hpp)
  bool cone_elliptic = false;
  double solver_tolerance = 0; // MuJoCo's option tolerance; 0: always `solver_iterations` iterations
  // MuJoCo's option solver: Newton (constraint/solver/newton.hpp, a dense Hessian, for models of at most
  // kNewtonMaxDofs dofs) or CG (constraint/solver/cg.hpp). KConstraints::method says which one runs
  // (contact/tables.hpp solver_method, the one place it is chosen).
  bool solver_newton = false;
  // MuJoCo's PGS (constraint/solver/pgs.hpp, the dual problem per lane; at most kNewtonMaxDofs dofs), which
  // stops when its improvement, scaled by 1/(meaninertia·nv), falls below the tolerance:
  // meaninertia is MuJoCo's stat.meaninertia, the mean of diag(M) at qpos0 (filled by finalize).
  bool solver_pgs = false;
  double meaninertia = 1;
  // MuJoCo's option noslip_iterations and noslip_tolerance (constraint/solver/noslip.hpp): after the solver,
  // at most that many PGS sweeps over the friction rows without their regularisation (0: none;
  // forms the rows' dense J and AR as PGS does, so at most kNewtonMaxDofs dofs)
  int noslip_iterations = 0;
  double noslip_tolerance = 1e-6;
  std::vector<double> body_invweight0;
  std::vector<double> dof_invweight0;
  /// True when the model has contact pairs, joint or tendon limits, frictionloss or active equality constraints: the step runs detection and the solver.
  bool constrained() const;
  // Fixed tendons (contact/tendon.hpp) and MuJoCo's tendon_invweight0 (J M⁻¹ Jᵀ at qpos0, filled by
  // finalize when anything constrains the model).
  std::vector<Tendon> tendons;
  std::vector<double> tendon_invweight0;
  // Equality constraints (contact/equality_spec.hpp), in the source's order.
  std::vector<Equality> equalities;
  // Actuators (actuators/actuator.hpp), each driving one joint.
  std::vector<Actuator> actuators;
  // MuJoCo's fluid forces (passive/fluid_spec.hpp; off unless density or viscosity is nonzero).
  FluidSpec fluid;
  // An imported model's MuJoCo sensors (sensors/mjcf_sensors.hpp), in sensordata's order; their
  // values fill nsensordata rows (sensordata stays 0 with <flag sensor="disable">).
  std::vector<MjcfSensor> mjcf_sensors;
  int nsensordata = 0;
  bool mjcf_sensors_disabled = false;

  /// Fill offsets, derived inertias and axis kinds, and check every invariant the kernels rely
  /// on. Throws std::invalid_argument with a message naming the joint.
  void finalize();

  /// A massless link is allowed when the links below it give its joint a positive effective
  /// inertia: checked at q0 as the ABA's D = Sᵀ·IA·S, scaled by the locked-subtree Sᵀ·Ic·S, whose
  /// Cholesky pivots must all exceed kSingularShare (see model.cpp). Throws naming the joint.
  void check_effective_inertia() const;
  /// The fluid settings are finite and in range (throws naming what is wrong).
  void check_fluid() const;
  static const double kSingularShare;
};

/// Check the shapes and find whether any pair may touch (collision/filter.cpp); called by Model::finalize.
void finalize_collision(Model& model);
/// Check the constraint settings and derive the inverse weights (contact/invweight.cpp); called last
/// by Model::finalize.
void finalize_constraints(Model& model);

} // namespace ach
