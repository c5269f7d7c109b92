// Planted bugs: plausible mistakes that `achilles validate` must catch, one gate at least each.
//
// They exist only in the separate bug build of the addon (compiled with ACHILLES_PLANTED_BUGS);
// in the normal build ACH_BUG(...) is the constant `false` and the code behind it is removed
// by the compiler, so no flag, environment variable or API call can turn one on by accident.
#pragma once

namespace ach {

enum class Bug : int {
  None = 0,
  HingeSign,                 // kinematics: a revolute joint rotates by −θ
  BodyAsWorldRotation,       // kinematics: R_WB = R_PB · R_WP (body-frame rotation used as world-frame)
  ParallelAxisDropped,       // mass matrix: inertia about the CoM used as inertia about the joint
  GyroSign,                  // bias: the gyroscopic term v ×* I v enters with the wrong sign
  CoriolisDropped,           // bias: the velocity-product acceleration v × S q̇ is left out
  GravitySign,               // forward dynamics: the base is accelerated by +g instead of −g
  Rk4Weight,                 // integrator: RK4 weights (1,2,2,1)/6 become (1,1,2,2)/6
  VerletStaleAccel,          // integrator: Verlet's second half-kick reuses the old acceleration
  FreeQuatWorldFrame,        // integrator: free/ball orientation integrated as if ω were in the world frame
  TorqueLate,                // trajectory: the torque written before step k acts on step k+1
  CollisionNormalFlipped,    // narrow phase: the contact normal points from b to a
  CollisionRadiusDropped,    // narrow phase: shape b's sweep radius is ignored
  CollisionBoxAxisSwapped,   // narrow phase: a box's x and y half-extents are swapped
  CollisionMarginIgnored,    // narrow phase: contacts only when dist < 0 (margin and gap ignored)
  CollisionManifoldClip,     // manifold: incident-face vertices are kept without the reference-face side test
  CollisionFilteredPairKept, // filtering: parent-child pairs (filterparent) are kept
  ContactEdgeSign,           // pyramid: the edge J_n − μJ_t2 is built as J_n + μJ_t2
  ContactRDropped,           // soft contact: the regulariser R is dropped (R = 1e-15, D = 1e15: hard rows)
  ArefDampingSign,           // reference acceleration: the damping term enters as +B·(J v)
  WarmStartOtherLane,        // warm start: lane i starts from lane i + 1's previous qacc (within a block)
  LimitSign,                 // joint limit: the upper side's row gets J = +1 instead of −1
  ContactTangentFrame,       // contact frame: t1 turned 45° about n from MuJoCo's mju_makeFrame
  EffortLate,                // actuators: the step reads the control half written before the previous step
  GearNotProjected,          // actuators: the scene's direction used as the gear without projecting it on the joint's axes
  DampingExplicit,           // passive: semi-implicit Euler leaves damping explicit (MuJoCo solves M + h·D)
  TendonLimitSign,           // tendon limit: the upper side's row gets J = +moment instead of −moment
  BallLimitAxisSign,         // ball cone limit: the row gets J = +u instead of −u (u the rotation's unit axis)
  NewtonHessianInactiveRows, // Newton: the Hessian takes D of every row that is on, violated or not (MuJoCo: quadratic state only)
  CollisionBroadPhaseFirstLane, // broad phase: a shape's box (swept) or a pair's overlap (listed) is the block's first lane's, not the union over the lanes
  FilterTimeConstOffByOne,        // general actuators: the filter's act_dot divides by τ + h instead of τ (time constant one step long)
  AffineBiasSign,                 // general actuators: the affine bias biasprm₀ + biasprm₁·ℓ + biasprm₂·ℓ̇ is subtracted
  EqualityConnectAnchorWrongBody, // connect: body 2's anchor placed with body 1's frame
  EqualityWeldOrientationSign,    // weld: the orientation error's sign flipped (J kept)
  EqualityJointPolycoefOrder,     // joint coupling: polycoef read in reverse order (a4 .. a0)
  ImplicitDerivativeDropped,      // implicitfast: the actuators' velocity derivative is left out of qDeriv (only damping stays implicit)
  ConvexEpaNormalSign,            // convex collider: an EPA contact's normal points from b to a
  ConvexBoxSupportCornerSign,     // convex collider: the box support function drops the sign of its z corner
  ContactImpratioIgnored,         // pyramid: the edges' R made without impratio (R1 = R0)
  ContactTorsionAxis,             // condim 4, 6: the torsional rows read the rotation about t1 instead of the normal
  ContactRollingCoefficient,      // condim 6: the rolling rows scaled by the torsional friction instead of the rolling one
  ConeMiddleDmFactor,             // elliptic cone: the middle zone's Dm = D0/μ² (without its 1 + μ²)
  ConeFrictionRImpratioIgnored,   // elliptic cone: the friction rows' R made without impratio (R1 = R0)
  PgsShuffleSkipped,              // PGS: the rows visited in their order every sweep (MuJoCo shuffles the blocks each sweep)
  ParamsNeighbourLane,            // per-robot parameters: a robot's constants written into the next lane (each lane runs its neighbour's)
  ParamsConstraintLaneZero,       // per-robot parameters: every lane's frictions and inverse weights read from lane 0's robot
  ContactPerturbedNormalShared,   // multiccd: a perturbed re-run's contact takes the first contact's normal instead of its own
  ContactMulticcdFlagIgnored,     // multiccd="disable" not heard: the convex collider still adds the perturbed re-runs' points
  LineSearchFloorSqrtEps,         // elliptic line search, float32: the slope's rounding floor taken with √ε for ε (its stop ~2900× too early)
  ContactClipSideSkipped,       // face clipping: the incident polygon is not clipped by the reference face's last side (points beyond that edge kept)
  ContactPlaneMeshLeastAligned, // plane–mesh: the further points from the polygon through the deepest vertex least aligned with the plane, not the most
  ContactCylinderCapPhase,      // face clipping: a cylinder's cap 16-gon turned by half a step (vertices at 2π(k + ½)/16)
  FluidAddedMassDropped,        // fluid, ellipsoid model: the added-mass forces and torques left out
  FluidKuttaLiftSign,           // fluid, ellipsoid model: the Kutta lift with its sign flipped
  FluidBoxWindIgnored,          // fluid, inertia-box model: the body's velocity taken relative to still air (wind ignored)
  NoslipSkipsFrictionRows,      // noslip: the contacts' friction rows left as the solver had them (only dry friction swept)
  ActuatorTendonMomentSign,     // tendon transmission: the force enters the tendon's last dof with the moment's sign flipped
  ContactPriorityIgnored,       // mj_contactParam: a pair's condim, frictions, solref and solimp mixed even when the geoms' priorities differ
  ContactGapRowKept,            // margin and gap: a contact inside the gap (margin <= dist < margin + gap) makes constraint rows
  MjcfGyroWorldFrame,           // MJCF sensors: gyro reads ω in the world frame, not the site's
  MjcfFramequatUnnormalised,   // MJCF sensors: xquat composed from the ball and free joints' qpos quaternions as stored (not normalised)
  MjcfCutoffIgnored,           // MJCF sensors: a real sensor's cutoff not applied
  MjcfSubtreecomOwnBody,       // MJCF sensors: subtreecom of the body's own mass only (its descendants left out)
  MjcfAccelerometerNoCoriolis, // MJCF sensors: the accelerometer reads the spatial acceleration (ω × v left out)
  AdhesionPushes,              // body transmission (adhesion): the moment +mean(J_n) instead of −, pushing the body off what it touches
  Count
};

inline const char* bug_name(Bug b) {
  switch (b) {
    case Bug::None:
      return "none";
    case Bug::HingeSign:
      return "hinge-sign";
    case Bug::BodyAsWorldRotation:
      return "body-as-world-rotation";
    case Bug::ParallelAxisDropped:
      return "parallel-axis-dropped";
    case Bug::GyroSign:
      return "gyroscopic-sign";
    case Bug::CoriolisDropped:
      return "coriolis-dropped";
    case Bug::GravitySign:
      return "gravity-sign";
    case Bug::Rk4Weight:
      return "rk4-weight";
    case Bug::VerletStaleAccel:
      return "verlet-stale-acceleration";
    case Bug::FreeQuatWorldFrame:
      return "free-quaternion-world-frame";
    case Bug::TorqueLate:
      return "torque-one-step-late";
    case Bug::CollisionNormalFlipped:
      return "collision-normal-flipped";
    case Bug::CollisionRadiusDropped:
      return "collision-radius-dropped";
    case Bug::CollisionBoxAxisSwapped:
      return "collision-box-axis-swapped";
    case Bug::CollisionMarginIgnored:
      return "collision-margin-ignored";
    case Bug::CollisionManifoldClip:
      return "collision-manifold-clip";
    case Bug::CollisionFilteredPairKept:
      return "collision-filtered-pair-kept";
    case Bug::ContactEdgeSign:
      return "contact-edge-sign";
    case Bug::ContactRDropped:
      return "contact-r-dropped";
    case Bug::ArefDampingSign:
      return "contact-aref-damping-sign";
    case Bug::WarmStartOtherLane:
      return "contact-warmstart-other-lane";
    case Bug::LimitSign:
      return "limit-sign";
    case Bug::ContactTangentFrame:
      return "contact-tangent-frame";
    case Bug::EffortLate:
      return "actuator-effort-one-step-late";
    case Bug::GearNotProjected:
      return "actuator-gear-not-projected";
    case Bug::DampingExplicit:
      return "damping-explicit-in-euler";
    case Bug::TendonLimitSign:
      return "tendon-limit-sign";
    case Bug::BallLimitAxisSign:
      return "ball-limit-axis-sign";
    case Bug::NewtonHessianInactiveRows:
      return "newton-hessian-inactive-rows";
    case Bug::CollisionBroadPhaseFirstLane:
      return "collision-broad-phase-first-lane";
    case Bug::FilterTimeConstOffByOne:
      return "actuator-filter-time-constant-off-by-one-step";
    case Bug::AffineBiasSign:
      return "actuator-affine-bias-sign";
    case Bug::EqualityConnectAnchorWrongBody:
      return "equality-connect-anchor-wrong-body";
    case Bug::EqualityWeldOrientationSign:
      return "equality-weld-orientation-sign";
    case Bug::EqualityJointPolycoefOrder:
      return "equality-joint-polycoef-order";
    case Bug::ImplicitDerivativeDropped:
      return "implicitfast-derivative-dropped";
    case Bug::ConvexEpaNormalSign:
      return "convex-epa-normal-sign";
    case Bug::ConvexBoxSupportCornerSign:
      return "convex-box-support-corner-sign";
    case Bug::ContactImpratioIgnored:
      return "contact-impratio-ignored";
    case Bug::ContactTorsionAxis:
      return "contact-torsion-axis";
    case Bug::ContactRollingCoefficient:
      return "contact-rolling-coefficient";
    case Bug::ConeMiddleDmFactor:
      return "cone-middle-dm-factor";
    case Bug::ConeFrictionRImpratioIgnored:
      return "cone-friction-r-impratio-ignored";
    case Bug::PgsShuffleSkipped:
      return "pgs-shuffle-skipped";
    case Bug::ParamsNeighbourLane:
      return "params-neighbour-lane";
    case Bug::ParamsConstraintLaneZero:
      return "params-constraint-lane-zero";
    case Bug::ContactPerturbedNormalShared:
      return "contact-perturbed-normal-shared";
    case Bug::ContactMulticcdFlagIgnored:
      return "contact-multiccd-flag-ignored";
    case Bug::LineSearchFloorSqrtEps:
      return "line-search-floor-sqrt-eps";
    case Bug::ContactClipSideSkipped:
      return "contact-clip-side-skipped";
    case Bug::ContactPlaneMeshLeastAligned:
      return "contact-plane-mesh-least-aligned";
    case Bug::ContactCylinderCapPhase:
      return "contact-cylinder-cap-phase";
    case Bug::FluidAddedMassDropped:
      return "fluid-added-mass-dropped";
    case Bug::FluidKuttaLiftSign:
      return "fluid-kutta-lift-sign";
    case Bug::FluidBoxWindIgnored:
      return "fluid-box-wind-ignored";
    case Bug::NoslipSkipsFrictionRows:
      return "noslip-skips-friction-rows";
    case Bug::ActuatorTendonMomentSign:
      return "actuator-tendon-moment-sign";
    case Bug::ContactPriorityIgnored:
      return "contact-priority-ignored";
    case Bug::ContactGapRowKept:
      return "contact-gap-row-kept";
    case Bug::MjcfGyroWorldFrame:
      return "mjcf-sensor-gyro-world-frame";
    case Bug::MjcfFramequatUnnormalised:
      return "mjcf-sensor-framequat-unnormalised";
    case Bug::MjcfCutoffIgnored:
      return "mjcf-sensor-cutoff-ignored";
    case Bug::MjcfSubtreecomOwnBody:
      return "mjcf-sensor-subtreecom-own-body";
    case Bug::MjcfAccelerometerNoCoriolis:
      return "mjcf-sensor-accelerometer-no-coriolis";
    case Bug::AdhesionPushes:
      return "adhesion-pushes";
    case Bug::Count:
      break;
  }
  return "?";
}

#ifdef ACHILLES_PLANTED_BUGS
inline Bug g_bug = Bug::None;
#define ACH_BUG(name) (::ach::g_bug == ::ach::Bug::name)
#else
#define ACH_BUG(name) false
#endif

} // namespace ach
