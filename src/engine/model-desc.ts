// The compiled model: what a loaded scene hands to the native core.
//
// This is the one contract between the scene loaders (`src/model-files/scene/`), the native core
// (`native/`), the MJCF exporter and the validation references. Everything here is in SI
// units and in the engine's own coordinates, already checked: the native core trusts it
// only as far as its own invariant checks go (it re-checks shapes and counts).
//
// Frames (Drake-style monograms in comments):
//   W  world;  P  the parent body's frame;  J  body i's joint frame before motion
//   (placed in P by `pos`, `quat`);  B  body i's frame = J moved by the joint, X_PB = X_PJ · X_J(q).
// Quaternions are always [w, x, y, z] and unit.

import type { ControllerSpec } from './controller-spec.js';

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

export const JOINT_TYPES = ['revolute', 'prismatic', 'ball', 'free', 'planar', 'fixed'] as const;
export type JointType = (typeof JOINT_TYPES)[number];

/** Generalized coordinates (nq) and velocities (nv) of each joint type.
 *  revolute  q = [θ]                    v = [θ̇]                   axis a (unit, in J)
 *  prismatic q = [d]                    v = [ḋ]                   axis a (unit, in J)
 *  ball      q = [w,x,y,z] (R_JB)       v = ω_B (body frame)
 *  free      q = [x,y,z, w,x,y,z]       v = [v_W (world, of B's origin), ω_B (body frame)]   (MuJoCo's order)
 *            (a free joint sits at the root with pos = 0, quat = identity: q is then the world pose of B)
 *  planar    q = [x, y, θ]              v = [ẋ, ẏ, θ̇]              axis = plane normal n (unit, in J);
 *            X_J = Trans(x·u + y·w) · Rot(n, θ), with (u, w, n) the frame from `planarFrame(n)`
 *  fixed     q = []                     v = []
 */
export const JOINT_NQ: Record<JointType, number> = { revolute: 1, prismatic: 1, ball: 4, free: 7, planar: 3, fixed: 0 };
export const JOINT_NV: Record<JointType, number> = { revolute: 1, prismatic: 1, ball: 3, free: 6, planar: 3, fixed: 0 };

export interface SourceSpan {
  file: string;
  line: number; // 1-based
  column: number; // 1-based
}

export interface BodyDesc {
  /** Unique name (the joint's/link's name in the scene). */
  name: string;
  /** Index of the parent body in `ModelDesc.bodies`, -1 for the world. Always < own index. */
  parent: number;
  /** p_PJ: the joint frame's origin in the parent body frame. */
  pos: Vec3;
  /** R_PJ as a unit quaternion [w,x,y,z]. */
  quat: Quat;
  joint: JointType;
  /** Unit axis in J: hinge/slide axis, or the plane normal for planar. Ignored for ball/free/fixed ([0,0,1]). */
  axis: Vec3;
  /** Mass (kg), >= 0. 0: a massless link, allowed when the bodies below give its joint a positive
   *  effective inertia (checked at load: Model::check_effective_inertia in native/src/model.cpp). */
  mass: number;
  /** p_BoBcm_B: centre of mass in the body frame. */
  com: Vec3;
  /** Rotational inertia about the centre of mass, in body axes: [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]
   *  (matrix entries, so Ixy is the (0,1) entry). Positive definite, triangle inequality holds. */
  inertia: [number, number, number, number, number, number];
  /** Initial generalized position, length JOINT_NQ[joint] (quaternions unit). */
  q0: number[];
  /** Initial generalized velocity, length JOINT_NV[joint]. */
  v0: number[];
  /** Constant generalized force applied every step, length JOINT_NV[joint]. */
  tau: number[];
  /** Joint range, MuJoCo's `range` with `limited`: [lower, upper] in rad (revolute) or m (prismatic).
   *  Present = limited (a one-sided soft constraint row at each end, through the contact solver).
   *  Only revolute and prismatic joints take a range. */
  range?: [number, number];
  /** The limit rows' MuJoCo `solreflimit`, `solimplimit` and `margin` (defaults [0.02, 1],
   *  [0.9, 0.95, 0.001, 0.5, 2], 0). */
  limit?: { solref: Solref; solimp: Solimp; margin: number };
  /** Passive joint forces as MuJoCo defines them, per degree of freedom of this joint:
   *  damping (N·m·s/rad or N·s/m; implicit in semi-implicit Euler, as MuJoCo), stiffness about
   *  `springref` (revolute/prismatic only), armature (added to the joint-space inertia diagonal). */
  damping?: number;
  stiffness?: number;
  springref?: number;
  armature?: number;
  /** MuJoCo's `springdamper` = [timeconst, dampratio], both > 0 (revolute/prismatic only): the engine
   *  sets stiffness = m/(timeconst²·dampratio²) and damping = 2·m/timeconst, m = 1/dof_invweight0 (the
   *  joint's inertia at qpos0), replacing `stiffness` and `damping` (MuJoCo's AutoSpringDamper). */
  springdamper?: [number, number];
  /** MuJoCo's joint `ref` (revolute/prismatic only; default 0): the joint's reference position, its
   *  entry of MuJoCo's qpos0, where the constants MuJoCo's mj_setConst makes are made (the
   *  constraint rows' inverse weights, body_invweight0 / dof_invweight0 / tendon_invweight0, and the
   *  equality anchors and relposes left to be made at qpos0). q stays MuJoCo's qpos (q = ref there);
   *  the initial state is q0, which need not be ref. */
  ref?: number;
  /** Dry joint friction (MuJoCo's `frictionloss`, N·m or N): one constraint row per degree of
   *  freedom in the contact solver, with the joint's `solreffriction`/`solimpfriction` (MuJoCo's defaults). */
  frictionloss?: number;
  /** Optional drawing hint (box half-extents, RGB). Not used by the physics. */
  visual?: { halfExtents: Vec3; color: Vec3 };
  /** Where this body was declared, for error messages. */
  source?: SourceSpan;
}

/** Collision shape kinds. Sphere, capsule, box and rounded-box are sphere-swept boxes (a core box
 *  with half-extents h >= 0, swept by a ball of radius r >= 0): sphere h = 0; capsule h = [0, 0, ℓ/2]
 *  (axis = shape z); box r = 0; rounded-box both. A plane is the half-space z <= 0 of its shape frame
 *  (normal +z), allowed only on the world (static). Cylinder, ellipsoid and convex are MuJoCo's geoms
 *  of those types (convex: a mesh's convex hull), sized by `size` or `vertices`, collided as MuJoCo
 *  collides them. */
export const SWEPT_SHAPE_KINDS = ['sphere', 'capsule', 'box', 'rounded-box'] as const;
export const CONVEX_SHAPE_KINDS = ['cylinder', 'ellipsoid', 'convex'] as const;
export const SHAPE_KINDS = [...SWEPT_SHAPE_KINDS, 'plane', ...CONVEX_SHAPE_KINDS] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];
export type ConvexShapeKind = (typeof CONVEX_SHAPE_KINDS)[number];
export const isConvexKind = (k: ShapeKind): k is ConvexShapeKind => (CONVEX_SHAPE_KINDS as readonly string[]).includes(k);

export interface ShapeDesc {
  /** Unique among the model's shapes (default `<link>/<kind><k>` when the scene gives none). */
  name: string;
  /** Index of the body it moves with in `ModelDesc.bodies`, or -1 for static world geometry. */
  body: number;
  kind: ShapeKind;
  /** Core box half-extents in the shape frame (>= 0). Plane: [0, 0, 0]. Cylinder, ellipsoid, convex:
   *  a box about the shape origin that bounds the shape (for drawing and extents). */
  halfExtents: Vec3;
  /** Sweep radius (>= 0). Plane, cylinder, ellipsoid, convex: 0. */
  radius: number;
  /** MuJoCo's geom_size: cylinder [radius, half-length, 0] (axis = shape z); ellipsoid its radii. */
  size?: Vec3;
  /** Convex: the hull's vertices in the shape frame, x y z each (at least 4 points, not coplanar). */
  vertices?: number[];
  /** X_BS: the shape frame in the body frame (in the world frame when body = -1). */
  pos: Vec3;
  quat: Quat;
  /** Sliding friction coefficient (MuJoCo's friction[0]; default 1). A pair uses the max of its two. */
  friction: number;
  /** Torsional and rolling friction coefficients (MuJoCo's friction[1], friction[2]; defaults 0.005 and
   *  0.0001), read by condim 4 (torsion) and 6 (both); a pair uses the max of its two. */
  torsionalFriction?: number;
  rollingFriction?: number;
  /** MuJoCo's filter bits (default 1, 1): a and b may collide iff (a.contype & b.conaffinity) || (b.contype & a.conaffinity). */
  contype: number;
  conaffinity: number;
  /** MuJoCo's margin and gap (m, default 0; a pair sums both shapes'): detected when dist < margin + gap,
   *  force (contact issue) only when dist <= margin. */
  margin: number;
  gap: number;
  /** MuJoCo's `solref` and `solimp` (defaults [0.02, 1] and [0.9, 0.95, 0.001, 0.5, 2]); a pair
   *  mixes the two shapes' by their solmix weights (MuJoCo's mj_contactParam; native contact/contact_param.hpp). */
  solref?: Solref;
  solimp?: Solimp;
  /** MuJoCo's `condim`: 1 frictionless, 3 sliding friction (default 3), 4 and torsional friction, 6 and
   *  rolling friction (pyramidal cone: 2(condim − 1) rows per point; elliptic: condim); a pair takes the max. */
  condim?: Condim;
  /** MuJoCo's geom `priority` (an integer, default 0): a pair of shapes of different priorities takes
   *  the higher one's condim, frictions, solref and solimp whole (no max, no mix); margin and gap are
   *  summed all the same. */
  priority?: number;
  /** MuJoCo's geom `solmix` (>= 0, default 1): at equal priorities the pair's solref and solimp are
   *  mix·own + (1 − mix)·other's with mix = solmix/(solmix + other's solmix) (0.5 when both are below
   *  1e-15, all or nothing when one is). */
  solmix?: number;
  /** Display colour (RGB 0..1), for the viewer. */
  color?: Vec3;
  source?: SourceSpan;
}

export type Condim = 1 | 3 | 4 | 6;
/** MuJoCo's default torsional and rolling friction (mjs_defaultGeom's friction[1], friction[2]). */
export const DEFAULT_TORSIONAL_FRICTION = 0.005;
export const DEFAULT_ROLLING_FRICTION = 0.0001;

/** MuJoCo's solref: [timeconst, dampratio] when timeconst > 0, or [−stiffness, −damping] when both
 *  are negative (the "direct" form). */
export type Solref = [number, number];
/** MuJoCo's solimp: [dmin, dmax, width, midpoint, power]. */
export type Solimp = [number, number, number, number, number];
export const DEFAULT_SOLREF: Solref = [0.02, 1];
export const DEFAULT_SOLIMP: Solimp = [0.9, 0.95, 0.001, 0.5, 2];
/** MuJoCo's clamp range for dmin, dmax and midpoint (mjMINIMP, mjMAXIMP). */
export const MJ_MINIMP = 1e-4;
export const MJ_MAXIMP = 0.9999;
/** The largest solimp power the engine takes (a whole number: see src/model-files/scene/contact-settings.ts readSolimp). */
export const SOLIMP_POWER_MAX = 16;

/** The constraint solver's settings (MuJoCo's `option`): CG, Newton or PGS, a number of iterations
 *  and a tolerance; either friction cone (PGS takes the pyramid only). */
export type SolverMethod = 'cg' | 'newton' | 'pgs';
/** MuJoCo's `cone` option: the pyramid (2(condim − 1) edge rows per contact point) or the elliptic
 *  cone (condim rows: the normal and each friction direction, with its three-zone cost). */
export type FrictionCone = 'pyramidal' | 'elliptic';
export const FRICTION_CONES: readonly FrictionCone[] = ['pyramidal', 'elliptic'];
export const SOLVER_METHODS: readonly SolverMethod[] = ['cg', 'newton', 'pgs'];
/** The most dofs the Newton and PGS solvers take (native contact/tables.hpp kNewtonMaxDofs; a PGS
 *  model with more is refused at load). */
export const NEWTON_MAX_DOFS = 64;

export interface SolverSettings {
  /** Solver iterations per step (default 20). */
  iterations: number;
  /** MuJoCo's `impratio` (default 1): ratio of friction to normal impedance (the pyramid's edges, the cone's friction rows). */
  impratio: number;
  /** MuJoCo's `tolerance` (contact-solver addition; absent or 0: every lane runs exactly `iterations`).
   *  > 0: an island stops, as MuJoCo's CG does, once its scaled improvement or gradient is below it
   *  (MuJoCo's default is 1e-8); each lane stops on its own numbers, so results stay bit-identical. */
  tolerance?: number;
  /** MuJoCo's `solver` option (absent: 'cg'). 'newton': MuJoCo's Newton method, a dense Hessian
   *  M + JᵀDJ factored per lane, for models of at most NEWTON_MAX_DOFS dofs (a larger model runs CG,
   *  which reaches the same optimum; `solverNote` says so); converges in a few iterations where CG
   *  needs tens, so give it a tolerance (MuJoCo's default 1e-8). 'pgs': MuJoCo's projected
   *  Gauss–Seidel on the dual (native constraint/solver/pgs.hpp: shuffled sweeps, Nesterov momentum), whose
   *  answer after a few iterations is not the optimum CG and Newton reach; at most NEWTON_MAX_DOFS dofs. */
  method?: SolverMethod;
  /** MuJoCo's `cone` option (absent: 'pyramidal'). */
  cone?: FrictionCone;
  /** MuJoCo's `noslip_iterations` (absent or 0: none): after the solver, at most this many PGS sweeps
   *  over the friction rows without their regularisation (native constraint/solver/noslip.hpp), each island
   *  stopping once its scaled improvement is below `noslipTolerance`; at most NEWTON_MAX_DOFS dofs. */
  noslipIterations?: number;
  /** MuJoCo's `noslip_tolerance` (absent: its default 1e-6). */
  noslipTolerance?: number;
}

/** The model with its solver's method and tolerance replaced (other settings kept; `iterations`
 *  where the model has no solver settings). */
export function withSolver<M extends Pick<ModelDesc, 'solver'>>(model: M, method: SolverMethod, tolerance: number, iterations: number): M {
  return { ...model, solver: { iterations, impratio: 1, ...model.solver, tolerance, method } };
}

/** The solver a model runs, with the reason when it is not the one asked for. */
export function solverRun(model: Pick<ModelDesc, 'bodies' | 'solver'>): { method: SolverMethod; note?: string } {
  if (model.solver?.method === 'pgs') return { method: 'pgs' };
  if (model.solver?.method !== 'newton') return { method: 'cg' };
  const { nv } = coordinateLayout(model.bodies);
  if (nv <= NEWTON_MAX_DOFS) return { method: 'newton' };
  return {
    method: 'cg',
    note: `Newton asked for, CG runs: the model has ${nv} dofs and Newton's dense Hessian is used up to ${NEWTON_MAX_DOFS} (CG reaches the same optimum, in more iterations)`,
  };
}

/** An actuator on one joint, as MuJoCo users know them. `gear` is the direction in the joint's
 *  frame already projected onto the joint's free axes (length = the joint's nv), so the effort
 *  it applies is qfrc[joint dofs] += gear · force. force = motor: ctrl;
 *  position: kp·(ctrl − gear·q) − kv·(gear·q̇); velocity: kv·(ctrl − gear·q̇); then clamped to forcerange. */
export interface ActuatorDesc {
  name: string;
  /** Index into `ModelDesc.bodies` of the joint it drives; −1 when it pulls a tendon. */
  body: number;
  /** MuJoCo's tendon transmission: index into `ModelDesc.tendons` of the fixed tendon it pulls (then
   *  `body` is −1 and `gear` one number): length ℓ = gear·L, moment gear·coef on each of the tendon's
   *  dofs, velocity ℓ̇ = moment·q̇, and the force enters τ as momentᵀ·force (MuJoCo's mj_transmission). */
  tendon?: number;
  /** MuJoCo's body transmission (mjTRN_BODY, an `<adhesion>`): index into `ModelDesc.bodies` of the body
   *  whose contacts it pulls on (then `body` is −1 and `gear` unread, as MuJoCo's). Its moment is minus the
   *  mean of the normal Jacobians n·(J_b(p) − J_a(p)) over the contacts of the body's shapes detected at this
   *  state (within margin + gap), so a force ≥ 0 pulls the body onto what it touches; length 0. Kind
   *  'general' with dyntype none, gain fixed and bias none (the force gainprm₀·u, clamped). */
  bodyTransmission?: number;
  kind: 'motor' | 'position' | 'velocity' | 'general';
  /** kind 'general' only: MuJoCo's general actuator (kp and kv are 0). */
  general?: GeneralActuatorDesc;
  gear: number[];
  kp: number;
  kv: number;
  /** Clamp of the control (absent: unclamped). */
  ctrlrange?: [number, number];
  /** Clamp of the force (absent: unclamped). */
  forcerange?: [number, number];
  /** Servos only: the largest rate (units of ctrl per second) at which the effective target moves. */
  rateLimit?: number;
  /** The scene's direction before projection: [torque; force] in the joint frame J (6 numbers).
   *  Informational; the engine applies `gear` (the bug build's gear-not-projected reads this). */
  direction?: number[];
  source?: SourceSpan;
}

export const DYN_TYPES = ['none', 'integrator', 'filter', 'filterexact'] as const;
export const GAIN_TYPES = ['fixed', 'affine'] as const;
export const BIAS_TYPES = ['none', 'affine'] as const;

/** MuJoCo's general actuator on a revolute or prismatic joint (mj_fwdActuation, mj_nextActivation):
 *  ℓ = gear·q, ℓ̇ = gear·q̇, u the control clamped to ctrlrange;
 *  act_dot = u (integrator) or (u − act)/max(1e-15, dynprm[0]) (filter, filterexact);
 *  force = gain·input + bias, input = u (dyntype none) or act (actearly: act one step on),
 *  gain = gainprm[0] (+ gainprm[1]·ℓ + gainprm[2]·ℓ̇ when affine), bias = 0 or
 *  biasprm[0] + biasprm[1]·ℓ + biasprm[2]·ℓ̇; then clamped to forcerange. act advances as MuJoCo's
 *  Euler and RK4 advance it (filterexact exactly: act + act_dot·τ·(1 − e^(−h/τ))), clamped to
 *  actrange. As in MuJoCo, a position-like actuator (gainprm[0] = −biasprm[1]) with biasprm[2] > 0
 *  reads biasprm[2] as a damping ratio: the engine sets biasprm[2] = −ζ·2·√(kp·m) with m the
 *  joint's inertia at qpos0 over gear² (mj_setConst). */
export interface GeneralActuatorDesc {
  dyntype: (typeof DYN_TYPES)[number];
  gaintype: (typeof GAIN_TYPES)[number];
  biastype: (typeof BIAS_TYPES)[number];
  dynprm: [number, number, number];
  gainprm: [number, number, number];
  biasprm: [number, number, number];
  /** Clamp of the activation (MuJoCo's actlimited with actrange; absent: unclamped). */
  actrange?: [number, number];
  /** The force reads the next activation (MuJoCo's actearly). */
  actearly?: boolean;
}

/** Whether an actuator carries an activation state (MuJoCo's act): a general one with dynamics. */
export function hasActivation(a: ActuatorDesc): boolean {
  return a.kind === 'general' && a.general !== undefined && a.general.dyntype !== 'none';
}

/** The integrators the first validation stages (per-state, trajectory, energy) compare, each with its
 *  own emulation of the scheme: MuJoCo's Euler and RK4, and verlet and midpoint of Achilles' own. */
export type ClassicIntegrator = 'euler' | 'verlet' | 'midpoint' | 'rk4';
export const CLASSIC_INTEGRATORS: readonly ClassicIntegrator[] = ['euler', 'verlet', 'midpoint', 'rk4'];
/** Every integrator: the classic four and MuJoCo's implicitfast (validated by its own stage). */
export type IntegratorName = ClassicIntegrator | 'implicitfast';
export const INTEGRATORS: readonly IntegratorName[] = [...CLASSIC_INTEGRATORS, 'implicitfast'];

export interface WorldSettings {
  /** Gravity vector in W (m/s²). The engine seeds the base acceleration with −gravity. */
  gravity: Vec3;
  /** Time step (s). */
  dt: number;
  integrator: IntegratorName;
  /** Default duration of `achilles run` (s). */
  duration: number;
  /** Substeps per step (the step's dt is split evenly). */
  substeps: number;
  /** MuJoCo's <flag multiccd> (absent or true: on, its default). false: every pair MuJoCo's mjc_Convex
   *  collides (a cylinder, ellipsoid or mesh with anything but a plane) gets its first GJK/EPA contact
   *  only: no perturbed re-runs, and no face clipping for two of box, cylinder and mesh at zero margin. */
  multiccd?: boolean;
}

export interface ModelDesc {
  name: string;
  /** Bodies in topological order (every parent before its children). */
  bodies: BodyDesc[];
  world: WorldSettings;
  /** The files the model was read from (the scene first), for run metadata. */
  files: string[];
  /** Collision shapes (absent or empty: nothing collides). */
  shapes?: ShapeDesc[];
  /** Constraint solver settings (absent: the defaults). */
  solver?: SolverSettings;
  /** Actuators (absent or empty: none). */
  actuators?: ActuatorDesc[];
  /** Body pairs (indices into `bodies`, -1 = world) whose shapes never collide (MuJoCo's contact/exclude). */
  excludes?: [number, number][];
  /** The controller the scene names (a module or the built-in PD; ./controller-spec.ts). */
  controller?: ControllerSpec;
}

/** Offsets of each body's coordinates in q and v (joint order = body order). */
export function coordinateLayout(bodies: Pick<BodyDesc, 'joint'>[]): { qOffset: number[]; vOffset: number[]; nq: number; nv: number } {
  const qOffset: number[] = [];
  const vOffset: number[] = [];
  let nq = 0;
  let nv = 0;
  for (const b of bodies) {
    qOffset.push(nq);
    vOffset.push(nv);
    nq += JOINT_NQ[b.joint];
    nv += JOINT_NV[b.joint];
  }
  return { qOffset, vOffset, nq, nv };
}

/** The in-plane axes (u, w) of a planar joint with unit normal n: u ⟂ n, w = n × u, so (u, w, n) is right-handed.
 *  u is the normalized projection of the coordinate axis least aligned with n (x first on ties). */
export function planarFrame(n: Vec3): { u: Vec3; w: Vec3 } {
  const ax = Math.abs(n[0]);
  const ay = Math.abs(n[1]);
  const az = Math.abs(n[2]);
  const e: Vec3 = ax <= ay && ax <= az ? [1, 0, 0] : ay <= az ? [0, 1, 0] : [0, 0, 1];
  const d = e[0] * n[0] + e[1] * n[1] + e[2] * n[2];
  const ur: Vec3 = [e[0] - d * n[0], e[1] - d * n[1], e[2] - d * n[2]];
  const len = Math.hypot(ur[0], ur[1], ur[2]);
  const u: Vec3 = [ur[0] / len, ur[1] / len, ur[2] / len];
  const w: Vec3 = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
  return { u, w };
}

// ---- sensors (branch `sensors`; read by src/sensors/) ------------------------------------------

/** A joint encoder on one coordinate of a joint: reading = Q((1 + scale)·q + drift + noise, filtered).
 *  noise: white, N(0, noise²) per sample; drift: first-order Gauss–Markov with stationary standard
 *  deviation `sigma` and correlation time `tau` (s); cutoff: first-order low-pass whose −3 dB
 *  frequency is `cutoff` (Hz) exactly; quantum: quantization step (round to nearest). */
export interface EncoderSensorDesc {
  kind: 'encoder';
  name: string;
  /** Index into `ModelDesc.bodies` of the joint read. */
  body: number;
  /** Which of the joint's position coordinates (0 for revolute/prismatic). */
  coordinate: number;
  noise: number;
  drift?: { sigma: number; tau: number };
  cutoff?: number;
  scale: number;
  quantum: number;
  source?: SourceSpan;
}

/** An IMU on a body at point `pos` (body frame, axes = body axes): gyro = ω_B, accelerometer =
 *  the point's linear acceleration minus gravity, in body axes (reads +g up at rest); white noise each. */
export interface ImuSensorDesc {
  kind: 'imu';
  name: string;
  body: number;
  pos: Vec3;
  gyroNoise: number;
  accelNoise: number;
  source?: SourceSpan;
}

/** A camera that reports the world position of point `pos` of a body: frames at `rate` Hz (frame n
 *  captured at the step nearest n/rate), each visible `latency` s later (rounded to whole steps),
 *  with white noise N(0, noise²) per axis. */
export interface CameraSensorDesc {
  kind: 'camera';
  name: string;
  body: number;
  pos: Vec3;
  rate: number;
  latency: number;
  noise: number;
  source?: SourceSpan;
}

export type SensorDesc = EncoderSensorDesc | ImuSensorDesc | CameraSensorDesc;

/** Sensors declared in the scene (absent or empty: none). Declaration merging keeps this addition
 *  to ModelDesc in its own block. */
export interface ModelDesc {
  sensors?: SensorDesc[];
}

// ---- fixed tendons (issue 12: MuJoCo's <tendon><fixed>; native/include/achilles/contact/tendon.hpp) ----

/** A fixed tendon: length L = Σ coef·q over scalar (revolute, prismatic) joints, its moment J the
 *  coefficients. A `range` makes two soft limit rows (MuJoCo's tendon limit: dist = L − lo with J,
 *  hi − L with −J), `frictionloss` one dry-friction row, and the passive force along it is
 *  −stiffness·x − damping·L̇ with x the distance of L outside [springlength₀, springlength₁]. */
export interface TendonDesc {
  name: string;
  /** The coupled joints: indices into `bodies` (revolute or prismatic) with their coefficients. */
  joints: { body: number; coef: number }[];
  /** [lower, upper] length (present = limited). */
  range?: [number, number];
  /** The limit's softness (MuJoCo's solreflimit, solimplimit, margin); absent: MuJoCo's defaults. */
  limit?: { solref: Solref; solimp: Solimp; margin: number };
  frictionloss?: number;
  stiffness?: number;
  damping?: number;
  /** The spring's rest length, or dead band [lower, upper] (absent with a stiffness: MuJoCo's
   *  default, the length at the joints' spring references). */
  springlength?: [number, number];
  source?: SourceSpan;
}

export interface ModelDesc {
  /** Fixed tendons (absent or empty: none). */
  tendons?: TendonDesc[];
}

// ---- equality constraints (issue 26: MuJoCo's <equality>; native/include/achilles/contact/equality_spec.hpp) ----

/** MuJoCo's equality constraints, as mj_instantiateEquality builds them (rows first in the solve,
 *  two-sided, soft by `solref`/`solimp`):
 *  - connect: the point `anchor` of body1 (its frame) held on body2 (world: -1). Body semantic: body2's
 *    point is where the anchor is at qpos0; with `anchor2` (site semantic: the two sites' points) it is
 *    given. 3 rows.
 *  - weld: body2's point `anchor` (its frame) held at body1's point `relpose[0..2]`, and the
 *    orientation of body2 in body1 held at `relpose[3..6]` (site semantic: site1's pose in relpose, site2's
 *    orientation in `quat2`); a relpose quaternion of zeros: both taken at qpos0. The rotation rows are
 *    scaled by `torquescale`. 6 rows.
 *  - joint: y − y0 = a0 + a1·(x − x0) + … + a4·(x − x0)⁴ with y = joint1, x = joint2 (absent: x = x0),
 *    y0, x0 their qpos0 (`ref`: 0 for a scene's joints). 1 row.
 *  Frames are the engine's body (link) frames. `active: false` (MuJoCo's eq_active0 = 0) makes no rows. */
export type EqualityType = 'connect' | 'weld' | 'joint';
export const EQUALITY_TYPES: readonly EqualityType[] = ['connect', 'weld', 'joint'];

export interface EqualityDesc {
  name: string;
  type: EqualityType;
  active: boolean;
  solref: Solref;
  solimp: Solimp;
  /** connect, weld: body indices (-1: the world). */
  body1?: number;
  body2?: number;
  /** connect: the point on body1 (body1 frame); weld: the point on body2 (body2 frame). */
  anchor?: Vec3;
  /** connect, site semantic: the point on body2 (its frame), given rather than made at qpos0. */
  anchor2?: Vec3;
  /** weld: [x, y, z, qw, qx, qy, qz], MuJoCo's relpose: body1's point and the orientation of body2 in
   *  body1 (a quaternion of zeros, the default: both from qpos0). Site semantic: site1's pose in body1. */
  relpose?: [number, number, number, number, number, number, number];
  /** weld, site semantic: site2's orientation in body2 (the error is then between the two site frames). */
  quat2?: Quat;
  /** weld: MuJoCo's torquescale (default 1). */
  torquescale?: number;
  /** joint: joint (body) indices; joint2 absent: the first joint is held at y0 + a0. */
  joint1?: number;
  joint2?: number;
  /** joint: a0 .. a4 (default [0, 1, 0, 0, 0]). */
  polycoef?: [number, number, number, number, number];
  /** joint: qpos0 of joint1 and joint2 (MuJoCo's y0, x0; default 0). */
  ref?: [number, number];
  source?: SourceSpan;
}

export interface ModelDesc {
  /** Equality constraints (absent or empty: none). */
  equalities?: EqualityDesc[];
}

// ---- MuJoCo's layout of an imported MJCF or URDF model (for tasks that read mjData by body and site) ----

/** Where MuJoCo's bodies and sites are in the engine's model (src/model-files/import/compile.ts). */
export interface MujocoLayout {
  /** MuJoCo's bodies in its order, the world excluded: the link whose frame carries the body (its
   *  last joint's link, or its own fixed link) and the body frame's origin in that link's frame
   *  (same orientation). */
  bodies: { name: string; link: number; offset: Vec3 }[];
  /** MuJoCo's sites in its order: `body` is MuJoCo's body index (0 the world, i + 1 bodies[i]);
   *  pos and quat in that body's frame. Unnamed sites are named ''. */
  sites: { name: string; body: number; pos: Vec3; quat: Quat }[];
}

export interface ModelDesc {
  /** Present for imported models (MJCF, URDF). */
  mujoco?: MujocoLayout;
}

// ---- MuJoCo's fluid forces (engine_passive.c mj_fluid; native/include/achilles/passive/fluid.hpp) ----

/** One geom of MuJoCo's ellipsoid fluid model (fluidshape="ellipsoid"), in its link's frame. */
export interface FluidEllipsoidDesc {
  /** X_BG: the geom's frame in the link frame. */
  pos: Vec3;
  quat: Quat;
  /** MuJoCo's mju_geomSemiAxes of the geom's size (sphere r r r; capsule r r r+h; cylinder r r h; else the size). */
  semiaxes: Vec3;
  /** MuJoCo's fluidcoef: blunt drag, slender drag, angular drag, Kutta lift, Magnus lift. */
  coef: [number, number, number, number, number];
  /** The added mass and inertia per unit fluid density (mjCGeom::SetFluidCoefs), geom axes. */
  virtualMass: Vec3;
  virtualInertia: Vec3;
}

/** One MuJoCo body with mass in the fluid: the inertia-box model (`box`) or the ellipsoid model. */
export interface FluidBodyDesc {
  /** The link that carries the body (index into `bodies`). */
  body: number;
  /** The inertia box: centred at the link's centre of mass, turned by MuJoCo's body_iquat (in the
   *  link frame), sides sqrt(max(1e-15, I_j + I_k − I_i) / m · 6) from body_mass and body_inertia. */
  box?: { quat: Quat; size: Vec3 };
  /** The body's geoms with fluidshape="ellipsoid" (then the box model is off for the body). */
  ellipsoids?: FluidEllipsoidDesc[];
}

/** MuJoCo's option density, viscosity and wind and the bodies they act on (absent: no fluid). */
export interface FluidDesc {
  density: number;
  viscosity: number;
  wind: Vec3;
  bodies: FluidBodyDesc[];
  /** Where the source file sets them (its <option>), for notes. */
  source?: SourceSpan;
}

export interface ModelDesc {
  /** MuJoCo's fluid forces (absent: none). */
  fluid?: FluidDesc;
}

// ---- MuJoCo's sensors of an imported MJCF model (engine_sensor.c; evaluated by ./mjcf-sensors.ts) ----

/** A frame a MuJoCo sensor reads: its origin `pos` and orientation `quat` in the frame of engine link
 *  `link` (−1: the world), the link whose pose carries the MuJoCo body. */
export interface SensorFrameDesc {
  link: number;
  pos: Vec3;
  quat: Quat;
}

/** One MuJoCo sensor: its values are sensordata[adr .. adr + dim) (MuJoCo's sensor_adr, sensor_dim,
 *  in MuJoCo's order). `datatype`: MuJoCo's sensor_datatype (a cutoff clamps a 'real' sensor to
 *  [−cutoff, cutoff], a 'positive' one to at most cutoff; 'axis' and 'quaternion' sensors take none). `noise`: MuJoCo's sensor_noise,
 *  metadata only (MuJoCo 3.14's mj_forward adds no noise; neither does the engine). */
export interface MjcfSensorDesc {
  name: string;
  type: string;
  adr: number;
  dim: number;
  datatype: 'real' | 'positive' | 'axis' | 'quaternion';
  cutoff: number;
  noise: number;
  /** jointpos, actuatorpos: Σ coef·qpos[index]; jointvel, actuatorvel: Σ coef·qvel[index]
   *  (MuJoCo's actuator_length = gear·qpos, gear·Σ coef·qpos of a fixed tendon; the velocity likewise). */
  terms?: { index: number; coef: number }[];
  /** actuatorfrc: the actuator (index into `actuators`); its actuator_force. */
  actuator?: number;
  /** Frame sensors, gyro, velocimeter: the object's frame; frame sensors may have a reference frame. */
  obj?: SensorFrameDesc;
  ref?: SensorFrameDesc;
  /** subtreecom, force, torque: the links whose masses make the subtree (the body and its descendants). */
  links?: number[];
  /** touch: the site's zone (MuJoCo's site_type and site_size). */
  zone?: { type: 'sphere' | 'capsule' | 'cylinder' | 'ellipsoid' | 'box'; size: Vec3 };
  /** force, torque: the links of the body's whole tree (whose centre of mass the contact wrenches are about). */
  treeLinks?: number[];
  source?: SourceSpan;
}

export interface ModelDesc {
  /** MuJoCo's sensors of an imported MJCF model, in MuJoCo's order (absent: none). */
  mjcfSensors?: MjcfSensorDesc[];
  /** MJCF <flag sensor="disable">: sensordata stays zero (MuJoCo's mjDSBL_SENSOR). */
  mjcfSensorsDisabled?: boolean;
}
