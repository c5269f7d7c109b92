// The passes a step is made of, each declaring the fields it reads and writes: documentation of the
// step's data flow, checked by the compiler, not code that runs the step.
//
// No code walks these tables: the kernel (kernel_impl.hpp, kernel/constrain.hpp) calls the pass
// functions (pass_velocity, pass_aba_backward, …, build_contact_rows, solve_constraints) directly,
// in the order the pipelines below list them. What the tables buy is the static_asserts at the end:
// every field a pass reads is
// either state (q, v, tau) or written by an earlier pass of the same pipeline, so a new pass
// (contact forces, actuators) states its reads and writes and the compiler checks where it may slot
// in. The names also label `bench --flops`' breakdown (FlopPass, kFlopPassNames).
#pragma once

namespace ach {

enum Field : unsigned {
  F_q = 1u << 0,           // generalized positions (state)
  F_v = 1u << 1,           // generalized velocities (state)
  F_tau = 1u << 2,         // generalized forces (state, written by the user/controllers)
  F_placement = 1u << 3,   // X_PB of every body
  F_velocity = 1u << 4,    // spatial velocity of every body, in B
  F_bias_acc = 1u << 5,    // velocity-product acceleration c = S̊q̇ + v × Sq̇
  F_art_inertia = 1u << 6, // articulated-body inertia IA
  F_art_bias = 1u << 7,    // articulated bias force pA
  F_dof = 1u << 8,         // U = IA·S, D⁻¹, u = τ − Sᵀ pA
  F_qacc = 1u << 9,        // generalized accelerations
  F_body_acc = 1u << 10,   // spatial acceleration of every body, in B
  F_pose = 1u << 11,       // X_WB of every body
  F_energy = 1u << 12,     // kinetic and potential energy
  F_shape_pose = 1u << 13, // X_WS of every collision shape
  F_broad = 1u << 14,      // the block's pairs whose inflated world AABBs overlap in some lane (collision/broad_phase.hpp)
  F_contacts = 1u << 15,   // each pair's points: active, dist, pos, normal (the block's contact list, contact_store.hpp)
  F_tendon = 1u << 17,     // fixed tendons: length L = Σ coef·q and velocity L̇ = J·q̇ (contact/tendon.hpp)
  F_rows =
      1u << 16, // constraint rows: J (per contact point and body: point, n, μt1, μt2 in the body frame; ±e_dof), dist, R, D, a_ref, on-mask per lane
  // actuators (actuators/forces.hpp); high bits, clear of the others' additions
  F_ctrl = 1u << 24,    // the step's controls u: the double buffer's read half, clamped, rate-limited (input)
  F_efforts = 1u << 25, // τ_eff = τ + passive (damping, springs) + Σ gear·actuator force, per evaluation
  F_act = 1u << 26,     // activations of general actuators (MuJoCo's act: state; an RK4 stage's own)
  F_act_dot = 1u << 27, // their rates act_dot, per evaluation (actuators/general.hpp)
  F_qderiv = 1u << 28,  // implicitfast: −h·qDeriv's per-lane additions to the ABA's D (implicit.hpp)
};

struct PassInfo {
  const char* name;
  unsigned reads;
  unsigned writes;
};

constexpr unsigned kStateFields = F_q | F_v | F_tau;

// Forward dynamics (the Articulated Body Algorithm, Featherstone's three sweeps).
constexpr PassInfo kPassVelocity{"kinematics+velocity (root→leaves)", F_q | F_v, F_placement | F_velocity | F_bias_acc | F_art_inertia | F_art_bias};
constexpr PassInfo kPassAbaBackward{"articulated inertia (leaves→root)", F_tau | F_placement | F_bias_acc | F_art_inertia | F_art_bias,
                                    F_art_inertia | F_art_bias | F_dof};
constexpr PassInfo kPassAbaForward{"accelerations (root→leaves)", F_placement | F_bias_acc | F_dof, F_qacc | F_body_acc};
// MuJoCo's fluid forces (passive/fluid.hpp), where the model has them: each body's wrench from its
// velocity (and the wind in its axes, from the placements), subtracted from its bias pA before the
// backward sweep folds it.
constexpr PassInfo kPassFluid{"fluid forces (each body's pA −= its fluid wrench)", F_placement | F_velocity | F_art_bias, F_art_bias};
// Outputs that are not needed to step: world poses and energy.
constexpr PassInfo kPassPose{"world poses (root→leaves)", F_placement, F_pose};
constexpr PassInfo kPassEnergy{"energy", F_velocity | F_pose, F_energy};

// Collision detection (collision/collide.hpp), run by collide() at the current state: positions
// only, so it starts from the joint placements rather than the full velocity pass.
constexpr PassInfo kPassPlacement{"joint placements X_PB (positions only)", F_q, F_placement};
constexpr PassInfo kPassShapePoses{"shape poses X_WS = X_WB·X_BS", F_pose, F_shape_pose};
constexpr PassInfo kPassBroadPhase{"broad phase (inflated AABB overlap per candidate pair)", F_shape_pose, F_broad};
constexpr PassInfo kPassNarrowPhase{"narrow phase (manifolds where any lane overlaps)", F_shape_pose | F_broad, F_contacts};

// Constraints (contact/): where the model has contact pairs or joint limits, every acceleration
// evaluation of every integrator runs forward dynamics, then detection, rows and the solve.
constexpr PassInfo kPassTendons{"fixed tendons (L = Σ coef·q, L̇ = J·q̇; J = the coefs, constant)", F_q | F_v, F_tendon};
constexpr PassInfo kPassConstraintRows{"constraint rows (dry friction, joint and tendon limits, contacts: J, R, D, a_ref)",
                                       F_q | F_v | F_tendon | F_pose | F_velocity | F_contacts, F_rows};
constexpr PassInfo kPassConstraintSolve{"constraint solve (CG on MuJoCo's primal cost, M·x and M⁻¹·x through the tree)",
                                        F_rows | F_qacc | F_placement | F_dof, F_qacc};
// Joint forces (actuators/forces.hpp): before each dynamics evaluation, at its (q, q̇). The backward
// sweep then reads τ_eff in place of τ (and D gets the armature, plus h·damping in Euler).
constexpr PassInfo kPassJointForces{"joint forces τ_eff = τ + passive (joints, tendons: Jᵀ·f) + actuators; act_dot",
                                    F_q | F_v | F_tau | F_ctrl | F_act, F_efforts | F_act_dot};
// Activations (integrators.hpp): after the evaluations of a step, act ← mj_nextActivation(act, act_dot)
// (Euler: the step's act_dot; RK4: the stages' weighted sum).
constexpr PassInfo kPassActivations{"activations act ← next(act, act_dot), clamped to actrange", F_act | F_act_dot, F_act};
constexpr PassInfo kPassAbaBackwardEfforts{"articulated inertia (leaves→root), τ_eff",
                                           F_efforts | F_placement | F_bias_acc | F_art_inertia | F_art_bias, F_art_inertia | F_art_bias | F_dof};

// implicitfast (implicit.hpp): the stepping evaluation's D gets −h·qDeriv (the actuators' velocity
// derivative per lane, standalone free bodies' blocks) from the forces' evaluation, then the ABA runs
// on M − h·qDeriv (damped tendons: a Woodbury correction through the same factors).
constexpr PassInfo kPassImplicitTerms{"implicitfast: −h·qDeriv (actuators' ∂force/∂ℓ̇ unless clamped, free bodies' bias derivative)",
                                      F_q | F_v | F_ctrl | F_act | F_act_dot | F_efforts, F_qderiv};
constexpr PassInfo kPassAbaBackwardImplicit{"articulated inertia (leaves→root), τ_eff, D − h·qDeriv",
                                            F_efforts | F_qderiv | F_placement | F_bias_acc | F_art_inertia | F_art_bias,
                                            F_art_inertia | F_art_bias | F_dof};

constexpr PassInfo kForwardDynamics[] = {kPassVelocity, kPassFluid, kPassAbaBackward, kPassAbaForward};
constexpr PassInfo kForwardDynamicsActuated[] = {kPassJointForces, kPassVelocity, kPassFluid, kPassAbaBackwardEfforts, kPassAbaForward};
constexpr PassInfo kActuatedStep[] = {kPassJointForces, kPassVelocity, kPassFluid, kPassAbaBackwardEfforts, kPassAbaForward, kPassActivations};
constexpr PassInfo kImplicitFastStep[] = {kPassJointForces,         kPassImplicitTerms, kPassVelocity,
                                          kPassAbaBackwardImplicit, kPassAbaForward,    kPassActivations};
constexpr PassInfo kObservation[] = {kPassVelocity, kPassPose, kPassEnergy};
constexpr PassInfo kCollision[] = {kPassPlacement, kPassPose, kPassShapePoses, kPassBroadPhase, kPassNarrowPhase};
constexpr PassInfo kConstrainedDynamics[] = {kPassVelocity, kPassFluid,          kPassAbaBackward,    kPassAbaForward,
                                             kPassPose,     kPassShapePoses,     kPassBroadPhase,     kPassNarrowPhase,
                                             kPassTendons,  kPassConstraintRows, kPassConstraintSolve};

/// Which pass the arithmetic being done belongs to, so `bench --flops` can break a step's count down
/// by pass: a pass opens a FlopScope, which does nothing except on the counting scalar (counted.hpp).
enum class FlopPass : unsigned char { Other, Velocity, AbaBackward, AbaForward, Positions, Count };
inline constexpr const char* kFlopPassNames[] = {"integrator sums and the rest", kPassVelocity.name, kPassAbaBackward.name, kPassAbaForward.name,
                                                 "position update q ⊕ h·v"};
static_assert(sizeof(kFlopPassNames) / sizeof(kFlopPassNames[0]) == static_cast<unsigned>(FlopPass::Count));
template <class V>
struct FlopScope {
  constexpr explicit FlopScope(FlopPass) {}
};

template <unsigned N>
constexpr bool pipeline_ordered(const PassInfo (&passes)[N], unsigned inputs = kStateFields) {
  unsigned available = inputs;
  for (unsigned i = 0; i < N; ++i) {
    if ((passes[i].reads & ~available) != 0) return false;
    available |= passes[i].writes;
  }
  return true;
}
static_assert(pipeline_ordered(kForwardDynamics), "forward dynamics: a pass reads a field no earlier pass writes");
static_assert(pipeline_ordered(kForwardDynamicsActuated, kStateFields | F_ctrl | F_act),
              "actuated forward dynamics: a pass reads a field no earlier pass writes");
static_assert(pipeline_ordered(kActuatedStep, kStateFields | F_ctrl | F_act), "actuated step: a pass reads a field no earlier pass writes");
static_assert(pipeline_ordered(kImplicitFastStep, kStateFields | F_ctrl | F_act), "implicitfast step: a pass reads a field no earlier pass writes");
static_assert(pipeline_ordered(kObservation), "observation: a pass reads a field no earlier pass writes");
static_assert(pipeline_ordered(kCollision), "collision: a pass reads a field no earlier pass writes");
static_assert(pipeline_ordered(kConstrainedDynamics), "constrained dynamics: a pass reads a field no earlier pass writes");

} // namespace ach
