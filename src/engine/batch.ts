// Batch: the TypeScript face of the native engine (see api.ts for the contract).

import type { BatchApi, BatchOptions, LaneWidth, NonFiniteInfo, Precision, Real } from './api.js';
import { LANE_WIDTHS, PRECISIONS } from './api.js';
import {
  INTEGRATORS,
  JOINT_NQ,
  JOINT_NV,
  planarFrame,
  type BodyDesc,
  type EqualityDesc,
  type IntegratorName,
  type ModelDesc,
} from './model-desc.js';
import {
  engineAddon,
  type ConstraintState,
  type ContactPoints,
  type NativeAddon,
  type NativeBatch,
  type NativeFieldName,
  type NativeStepResult,
} from './native.js';
import { laneProblem, registerLanes } from './lanes.js';
import { WORLD_LIMITS } from './world-limits.js';
import { ensureMemory } from './memory.js';
import { hullFaces } from './hull-faces.js';
import { NonFiniteControlError } from './control-errors.js';
import { mjcfSensorData, needsContacts, needsContactWrenches, sensorDataSize, type SensorInputs } from './mjcf-sensors.js';

/** A state turned NaN or infinite: where and when. */
export class NonFiniteStateError extends Error implements NonFiniteInfo {
  readonly step: number;
  readonly robot: number;
  readonly joint: string;
  constructor(info: NonFiniteInfo, time: number) {
    super(
      `the state became non-finite at step ${info.step} (t = ${time.toFixed(6)} s), robot ${info.robot}, joint '${info.joint}'` +
        ' (the motion diverged: try a smaller --dt, more --substeps or another --integrator)',
    );
    this.name = 'NonFiniteStateError';
    this.step = info.step;
    this.robot = info.robot;
    this.joint = info.joint;
  }
}

/** An equality constraint as the addon reads it (native/binding/model_from_js.cpp equalities_from_js):
 *  anchor1 on body1, anchor2 on body2; the one left out is made at qpos0 natively (MuJoCo's mj_setConst). */
function nativeEquality(e: EqualityDesc): object {
  const base = { name: e.name, type: e.type, active: e.active, solref: e.solref, solimp: e.solimp };
  if (e.type === 'joint') {
    return {
      ...base,
      joint1: e.joint1 ?? -1,
      joint2: e.joint2 ?? -1,
      polycoef: e.polycoef ?? [0, 1, 0, 0, 0],
      ref1: e.ref?.[0] ?? 0,
      ref2: e.ref?.[1] ?? 0,
    };
  }
  const bodies = { body1: e.body1 ?? -1, body2: e.body2 ?? -1 };
  const anchor = e.anchor ?? [0, 0, 0];
  if (e.type === 'connect') return { ...base, ...bodies, anchor1: anchor, ...(e.anchor2 ? { anchor2: e.anchor2 } : {}) };
  const rp = e.relpose;
  const relQuat = rp && (rp[3] !== 0 || rp[4] !== 0 || rp[5] !== 0 || rp[6] !== 0);
  return {
    ...base,
    ...bodies,
    anchor2: anchor,
    ...(relQuat ? { anchor1: [rp[0], rp[1], rp[2]], quat1: [rp[3], rp[4], rp[5], rp[6]] } : {}),
    ...(e.quat2 ? { quat2: e.quat2 } : {}),
    torquescale: e.torquescale ?? 1,
  };
}

/** The plain object the addon's model converter reads (explicit numbers only). Shapes keep their
 *  model order (pair indices refer to it); the native side checks them and filters the pairs. */
export function toNativeModel(model: ModelDesc): object {
  return {
    shapes: (model.shapes ?? []).map((s) => ({
      name: s.name,
      body: s.body,
      kind: s.kind,
      halfExtents: s.halfExtents,
      radius: s.radius,
      ...(s.size ? { size: s.size } : {}),
      ...(s.vertices ? { vertices: s.vertices } : {}),
      ...(hullFaces(s) ? { faces: hullFaces(s) } : {}),
      pos: s.pos,
      quat: s.quat,
      // raised to MuJoCo's mjMINMU per contact in the native contact tables (contact/tables.hpp)
      friction: s.friction,
      ...(s.torsionalFriction !== undefined ? { torsionalFriction: s.torsionalFriction } : {}),
      ...(s.rollingFriction !== undefined ? { rollingFriction: s.rollingFriction } : {}),
      contype: s.contype,
      conaffinity: s.conaffinity,
      margin: s.margin,
      gap: s.gap,
      // contact softness (contact-solver): absent keys take MuJoCo's defaults natively
      ...(s.solref ? { solref: s.solref } : {}),
      ...(s.solimp ? { solimp: s.solimp } : {}),
      ...(s.condim !== undefined ? { condim: s.condim } : {}),
      ...(s.priority !== undefined ? { priority: s.priority } : {}),
      ...(s.solmix !== undefined ? { solmix: s.solmix } : {}),
    })),
    ...(model.solver
      ? {
          solver: {
            iterations: model.solver.iterations,
            impratio: model.solver.impratio,
            ...(model.solver.tolerance !== undefined ? { tolerance: model.solver.tolerance } : {}),
            ...(model.solver.method !== undefined ? { method: model.solver.method } : {}),
            ...(model.solver.cone !== undefined ? { cone: model.solver.cone } : {}),
            ...(model.solver.noslipIterations !== undefined ? { noslipIterations: model.solver.noslipIterations } : {}),
            ...(model.solver.noslipTolerance !== undefined ? { noslipTolerance: model.solver.noslipTolerance } : {}),
          },
        }
      : {}),
    excludes: model.excludes ?? [],
    ...(model.world.multiccd === false ? { multiccd: false } : {}),
    // MuJoCo's fluid forces (passive/fluid.hpp)
    ...(model.fluid
      ? { fluid: { density: model.fluid.density, viscosity: model.fluid.viscosity, wind: model.fluid.wind, bodies: model.fluid.bodies } }
      : {}),
    gravity: model.world.gravity,
    // an MJCF model's sensors (native sensors/mjcf_sensors.hpp evaluates them in sense())
    ...(model.mjcfSensors?.length
      ? {
          mjcfSensors: model.mjcfSensors.map((s) => ({
            type: s.type,
            adr: s.adr,
            dim: s.dim,
            datatype: s.datatype,
            cutoff: s.cutoff,
            ...(s.terms ? { terms: s.terms } : {}),
            ...(s.actuator !== undefined ? { actuator: s.actuator } : {}),
            ...(s.obj ? { obj: s.obj } : {}),
            ...(s.ref ? { ref: s.ref } : {}),
            ...(s.links ? { links: s.links } : {}),
          })),
          ...(model.mjcfSensorsDisabled ? { mjcfSensorsDisabled: true } : {}),
        }
      : {}),
    bodies: model.bodies.map((b) => {
      const { u, w } = b.joint === 'planar' ? planarFrame(b.axis) : { u: [1, 0, 0], w: [0, 1, 0] };
      return {
        name: b.name,
        parent: b.parent,
        joint: b.joint,
        pos: b.pos,
        quat: b.quat,
        axis: b.axis,
        u,
        w,
        mass: b.mass,
        com: b.com,
        inertia: b.inertia,
        q0: b.q0,
        v0: b.v0,
        tau: b.tau,
        // joint limit and dry friction (contact-solver)
        ...(b.range ? { range: b.range } : {}),
        ...(b.limit ? { limit: { solref: b.limit.solref, solimp: b.limit.solimp, margin: b.limit.margin } } : {}),
        ...(b.frictionloss !== undefined ? { frictionloss: b.frictionloss } : {}),
        // passive joint forces (actuators branch)
        damping: b.damping ?? 0,
        stiffness: b.stiffness ?? 0,
        springref: b.springref ?? 0,
        armature: b.armature ?? 0,
        ...(b.springdamper ? { springdamper: b.springdamper } : {}),
        // MuJoCo's qpos0 of a hinge or slide (the inverse weights are made there)
        ...(b.ref ? { ref: b.ref } : {}),
      };
    }),
    // fixed tendons (issue 12 import: contact/tendon.hpp)
    tendons: (model.tendons ?? []).map((t) => ({
      name: t.name,
      joints: t.joints.map((j) => j.body),
      coefs: t.joints.map((j) => j.coef),
      ...(t.range ? { range: t.range } : {}),
      ...(t.limit ? { limit: { solref: t.limit.solref, solimp: t.limit.solimp, margin: t.limit.margin } } : {}),
      frictionloss: t.frictionloss ?? 0,
      stiffness: t.stiffness ?? 0,
      damping: t.damping ?? 0,
      springlength: t.springlength ?? [0, 0],
    })),
    // equality constraints (issue 26: contact/equality_spec.hpp)
    equalities: (model.equalities ?? []).map((e) => nativeEquality(e)),
    // actuators (actuators branch)
    actuators: (model.actuators ?? []).map((a) => ({
      name: a.name,
      ...(a.tendon !== undefined
        ? { tendon: a.tendon }
        : a.bodyTransmission !== undefined
          ? { bodyTransmission: a.bodyTransmission }
          : { body: a.body }),
      kind: a.kind,
      gear: a.gear,
      direction: a.direction,
      kp: a.kp,
      kv: a.kv,
      ctrlrange: a.ctrlrange,
      forcerange: a.forcerange,
      rateLimit: a.rateLimit ?? 0,
      ...(a.general ? { general: a.general } : {}),
    })),
  };
}

/** Bytes of a batch's state storage, computed by the engine from the same layout it allocates
 *  (candidate shape pairs included) without allocating it. */
export function batchBytes(
  model: ModelDesc,
  copies: number,
  precision: Precision,
  lanes: LaneWidth,
  addon: NativeAddon = engineAddon(),
): number {
  return addon.storageBytes(toNativeModel(model), {
    precision,
    lanes,
    copies,
    integrator: 'euler',
    dt: 0.002,
    substeps: 1,
    midpointIterations: 4,
    threads: 1,
  });
}

/** '' when `robot` may run in a lane of a batch made with `model` (Batch.setRobotModel accepts it),
 *  else the first difference, e.g. "joint 'shin' mass: 1.2 in the batch's model, 1.5 here". */
export function laneDifference(model: ModelDesc, robot: ModelDesc, addon: NativeAddon = engineAddon()): string {
  return addon.laneDifference(toNativeModel(model), toNativeModel(robot));
}

function choose<T>(what: string, value: T, allowed: readonly T[]): T {
  if (!allowed.includes(value)) throw new Error(`${what} must be one of ${allowed.join(', ')} (got ${String(value)})`);
  return value;
}

function positiveInteger(what: string, value: number, max = 1e9): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${what} must be an integer from 1 to ${max} (got ${value})`);
  return value;
}

export class Batch implements BatchApi {
  readonly model: ModelDesc;
  readonly copies: number;
  readonly stride: number;
  readonly lanes: LaneWidth;
  readonly precision: Precision;
  readonly integrator: IntegratorName;
  readonly dt: number;
  readonly nq: number;
  readonly nv: number;
  readonly nbody: number;
  readonly isa: string;
  /** Whether the batch keeps mjData's post-step fields (BatchOptions.record; lastEvaluation()). */
  readonly record: boolean;
  readonly q: Real;
  readonly v: Real;
  readonly tau: Real;
  readonly qacc: Real;
  /** Some two shapes may touch (MuJoCo's contact filter admits a pair): detection runs. */
  readonly hasPairs: boolean;
  private readonly native: NativeBatch;
  private candidates?: readonly { a: number; b: number }[];
  private stepCount = 0;
  // Actuators (actuators branch): nu controls per robot, double-buffered (see `ctrl`).
  readonly nu: number;
  private readonly ctrlHalves: [Real, Real];
  /** Each actuator's force at the last step's start: actuatorForce[a * stride + r]. */
  readonly actuatorForce: Real;
  /** Each servo's rate-limited target (state): ctrlTarget[a * stride + r]. */
  readonly ctrlTarget: Real;
  /** Activation states (MuJoCo's act): one per general actuator with dynamics, in actuator order
   *  (`na` of them); act[i * stride + r], 0 at reset. */
  readonly na: number;
  readonly act: Real;
  /** The constraint solver's warm start (MuJoCo's qacc_warmstart): [k * stride + r]; empty for a
   *  model without constraints. */
  readonly qaccWarm: Real;

  constructor(model: ModelDesc, opts: BatchOptions, addon: NativeAddon = engineAddon()) {
    this.model = model;
    this.copies = positiveInteger('copies', opts.copies, 1 << 24);
    this.precision = choose('precision', opts.precision ?? 'f32', PRECISIONS);
    // Default: the widest that fits one register of this CPU (lanes.ts registerLanes).
    const cpu = addon.cpuInfo();
    this.lanes = choose('lanes', opts.lanes ?? registerLanes(cpu, this.precision), LANE_WIDTHS);
    const problem = laneProblem(cpu, this.precision, this.lanes);
    if (problem) throw new Error(`lanes: ${problem}`);
    this.integrator = choose('integrator', opts.integrator ?? model.world.integrator, INTEGRATORS);
    this.dt = opts.dt ?? model.world.dt;
    if (!(this.dt > 0) || !Number.isFinite(this.dt)) throw new Error(`dt must be a positive number of seconds (got ${this.dt})`);
    const substeps = positiveInteger('substeps', opts.substeps ?? model.world.substeps, WORLD_LIMITS.substeps.max);
    const midpointIterations = positiveInteger('midpoint iterations', opts.midpointIterations ?? 4, 1000);
    const threads = positiveInteger('threads', opts.threads ?? 1, 256);
    // Before allocating: a batch that does not fit is refused with the estimate and the free memory.
    ensureMemory(
      batchBytes(model, this.copies, this.precision, this.lanes, addon),
      `a batch of ${this.copies} ${model.name} robots in ${this.precision}`,
      'use fewer copies',
    );
    this.native = new addon.NativeBatch(toNativeModel(model), {
      precision: this.precision,
      lanes: this.lanes,
      copies: this.copies,
      integrator: this.integrator,
      dt: this.dt,
      substeps,
      midpointIterations,
      threads,
      record: opts.record === true,
    });
    this.record = opts.record === true;
    const info = this.native.info();
    this.stride = info.stride;
    this.nq = info.nq;
    this.nv = info.nv;
    this.isa = info.isa;
    this.hasPairs = info.hasPairs;
    this.nbody = model.bodies.length;
    this.q = this.native.field('q');
    this.v = this.native.field('v');
    this.tau = this.native.field('tau');
    this.qacc = this.native.field('qacc');
    this.nu = info.nu;
    const ctrl = this.native.field('ctrl');
    const half = this.nu * this.stride;
    this.ctrlHalves = [ctrl.subarray(0, half), ctrl.subarray(half, 2 * half)];
    this.actuatorForce = this.native.field('actuatorForce');
    this.ctrlTarget = this.native.field('ctrlTarget');
    this.na = info.na;
    this.act = this.native.field('act');
    this.qaccWarm = this.native.field('qaccWarm');
  }

  /** With `record`: what MuJoCo's mjData holds after mj_step, from the last acceleration evaluation of
   *  the last step() call (RK4: its fourth stage; Euler: the state the step started from) or of
   *  constrain() (as mj_forward). Views, [k * stride + r]: bodyPos (3 per body), bodyRot (9, row-major),
   *  cfrcExt (6 per body: [torque; force] of the contacts, world-oriented, about the subtree centre of
   *  mass of the body's tree, as mj_rnePostConstraint), qfrcConstraint (nv), bodyVel (6 per body: [ω; v]
   *  in the body's axes, v its frame origin's), qfrcActuator (nv), and MuJoCo's com-based quantities of
   *  each body: xipos (3: its centre of mass), cinert (10: mj_comPos's) and cvel (6: mj_comVel's). */
  lastEvaluation(): Record<
    'bodyPos' | 'bodyRot' | 'bodyVel' | 'cfrcExt' | 'qfrcConstraint' | 'qfrcActuator' | 'xipos' | 'cinert' | 'cvel',
    Real
  > {
    if (!this.record) throw new Error('lastEvaluation() needs a batch made with record: true');
    const f = (name: NativeFieldName): Real => this.native.field(name);
    return {
      bodyPos: f('recordBodyPos'),
      bodyRot: f('recordBodyRot'),
      bodyVel: f('recordBodyVel'),
      cfrcExt: f('cfrcExt'),
      qfrcConstraint: f('qfrcConstraint'),
      qfrcActuator: f('qfrcActuator'),
      xipos: f('recordXipos'),
      cinert: f('recordCinert'),
      cvel: f('recordCvel'),
    };
  }

  /** MuJoCo's actuator_force and act_dot at the current state (as mj_forward gives them), written by
   *  forward() and forwardUnconstrained(): force[a * stride + r], actDot[i * stride + r]. */
  actuatorsNow(): { force: Real; actDot: Real } {
    return { force: this.native.field('actuatorForceNow'), actDot: this.native.field('actDotNow') };
  }

  /** The controls the next step reads: ctrl[a * stride + r] for actuator a of robot r (a view, no
   *  copy). The halves swap at the start of every step and the step clears the half it does not
   *  read, so a control written now acts over exactly the next step and reads 0 after it: take
   *  this view again after every step (it alternates between the two halves). */
  get ctrl(): Real {
    return this.ctrlHalves[this.stepCount % 2];
  }

  /** Both control halves (the step with index s reads half s % 2), e.g. to clear a robot's controls. */
  controlHalves(): readonly [Real, Real] {
    return this.ctrlHalves;
  }

  get steps(): number {
    return this.stepCount;
  }

  get time(): number {
    return this.stepCount * this.dt;
  }

  /** Advance k steps. `holdControls`: the controls written before the call act over all k steps (a
   *  frame skip, MuJoCo's mj_step with nstep = k), the batch left as k single steps with those
   *  controls written before each would leave it; otherwise they act over the first step only.
   *  Throws NonFiniteControlError, nothing stepped, when a robot's control is NaN, ±Infinity or
   *  |u| > 1e10 (the ctrlrange clamp would hide a NaN), NonFiniteStateError when a state turns
   *  non-finite. */
  step(k = 1, opts: { holdControls?: boolean } = {}): void {
    const r = this.stepRaw(k, opts);
    if (r.nonFinite) throw new NonFiniteStateError(r.nonFinite, r.nonFinite.step * this.dt);
  }

  /** Step without throwing on a non-finite state: how many robot-steps stayed finite, and the first
   *  non-finite state. A bad control still throws NonFiniteControlError (nothing stepped): it is the
   *  caller's input, not an outcome of the motion. */
  stepRaw(k = 1, opts: { holdControls?: boolean } = {}): { robotSteps: number; nonFinite: NonFiniteInfo | null } {
    return this.advanced(this.native.step(k, false, opts.holdControls === true), k);
  }

  /** Count the k steps a native call took, or throw the bad control that stopped it before any. */
  private advanced(r: NativeStepResult, k: number): NativeStepResult {
    const bad = r.nonFiniteControl;
    if (bad) throw new NonFiniteControlError(undefined, bad.actuator, bad.robot, bad.value, { step: bad.step, time: bad.step * this.dt });
    this.stepCount += k;
    return r;
  }

  /** Start tracking every robot's energy at each step from the current state: E(now) becomes the
   *  reference, and the largest |E − E(now)| and kinetic energy so far start at 0 and KE(now). */
  monitorEnergyFromHere(): void {
    this.native.observe();
    const ke = this.native.field('kinetic');
    const pe = this.native.field('potential');
    const ref = this.native.field('energyRef');
    const peak = this.native.field('kineticPeak');
    this.native.field('driftMax').fill(0);
    // In the batch's precision, as the engine sums them (a Float32Array rounds the sum on store).
    for (let r = 0; r < ref.length; r++) {
      ref[r] = ke[r] + pe[r];
      peak[r] = ke[r];
    }
  }

  /** Like stepRaw, and every step also updates the tracked energy maxima (monitorEnergyFromHere). */
  stepMonitored(k = 1): { robotSteps: number; nonFinite: NonFiniteInfo | null } {
    return this.advanced(this.native.step(k, true), k);
  }

  /** Each robot's largest |E − E(ref)| and largest kinetic energy over the monitored steps (views, no copy). */
  energyMaxima(): { maxAbsDrift: Real; peakKinetic: Real } {
    return { maxAbsDrift: this.native.field('driftMax'), peakKinetic: this.native.field('kineticPeak') };
  }

  /** What the step integrates (see api.ts): the native constrain() pass, which for a model
   *  without constraints runs exactly the unconstrained forward dynamics. */
  forward(): void {
    this.native.constrain();
  }

  /** MuJoCo's qacc_smooth: forward dynamics alone (what the smooth-dynamics validation compares). */
  forwardUnconstrained(): void {
    this.native.forward();
  }

  energy(): { kinetic: Real; potential: Real; total: Real } {
    this.native.observe();
    const kinetic = this.native.field('kinetic').slice(0, this.copies);
    const potential = this.native.field('potential').slice(0, this.copies);
    const total = kinetic.slice();
    for (let r = 0; r < this.copies; r++) total[r] = kinetic[r] + potential[r];
    return { kinetic, potential, total };
  }

  /** Kinetic and potential energy of every lane at the current state, as views on engine memory
   *  (no copy; valid until the next call). For per-step monitoring, where energy() would allocate. */
  energyViews(): { kinetic: Real; potential: Real } {
    this.native.observe();
    return { kinetic: this.native.field('kinetic'), potential: this.native.field('potential') };
  }

  kinematics(): { pos: Real; rot: Real } {
    this.native.observe();
    return { pos: this.native.field('bodyPos'), rot: this.native.field('bodyRot') };
  }

  collide(): void {
    this.native.collide();
  }

  /** Detection and the constraint solve at the current state, as the next step will start it (warm
   *  start included; what forward() runs): fills qacc and the contacts `contacts(r)` lists, with
   *  each point's force (normal, then friction along t1, t2: MuJoCo's mju_decodePyramid, in the
   *  frame `constraints()` reports). With `record` (a record: true batch), lastEvaluation() then holds
   *  this evaluation's fields, as mj_forward leaves mjData. With `robots`, only the blocks of lanes that
   *  hold them are evaluated (the other blocks keep their qacc, contacts and record). */
  constrain(opts: { record?: boolean; robots?: number[] } = {}): void {
    this.native.constrain(opts.record === true, opts.robots);
  }

  /** Robot r's active contact points from the last collide(), constrain() or forward(). */
  contacts(robot: number): ContactPoints {
    this.checkRobot(robot);
    return this.native.contacts(robot);
  }

  /** Every pair of shapes the contact filter admits, a < b, in contact-row order (listed on first
   *  use: quadratic in the shapes, for inspection; stepping never lists them). */
  get pairs(): readonly { a: number; b: number }[] {
    this.candidates ??= this.native.candidatePairs();
    return this.candidates;
  }

  /** One robot's constraint rows (MuJoCo's efc_*: dist, J, aref, R, D, force), qacc_smooth and the
   *  constrained qacc at the current state. `iterations` (default the model's solver iterations,
   *  20): CG iterations; a large count (e.g. 2000 in f64) runs it to convergence, to compare with
   *  MuJoCo's Newton solver. `warm`: start from the stored warm start (as a step would) instead of
   *  qacc_smooth (MuJoCo with warmstart disabled). Nothing in the batch changes. */
  constraints(robot: number, opts: { iterations?: number; warm?: boolean } = {}): ConstraintState {
    this.checkRobot(robot);
    const iterations = opts.iterations ?? this.model.solver?.iterations ?? 20;
    if (!Number.isInteger(iterations) || iterations < 0 || iterations > 1_000_000)
      throw new Error(`iterations must be an integer from 0 to 1000000 (got ${iterations})`);
    return this.native.constraints(robot, iterations, opts.warm ?? false);
  }
  /** What sensors read at the current state (views on engine memory, valid until the next call):
   *  per body, spatial velocity and acceleration in body axes ([ω; v], [α; a], 6 each, gravity
   *  entered as a base acceleration −g), world position and R_WB; qacc is refreshed too. */
  sense(): { vel: Real; acc: Real; pos: Real; rot: Real } {
    this.native.sense();
    this.sensed ??= {
      vel: this.native.field('bodyVel'),
      acc: this.native.field('bodyAcc'),
      pos: this.native.field('bodyPos'),
      rot: this.native.field('bodyRot'),
    };
    return this.sensed;
  }
  private sensed: { vel: Real; acc: Real; pos: Real; rot: Real } | undefined;

  /** What MuJoCo's sensors of an imported MJCF model read at the current state (./mjcf-sensors.ts):
   *  sense()'s link poses and velocities (the constraint solve included, the next step unchanged),
   *  each link's centre of mass x + R·com, q, v and the actuator forces of that evaluation. */
  sensorInputs(): SensorInputs {
    const { vel, acc, pos, rot } = this.sense();
    let cfrcExt: Real | undefined;
    if (needsContactWrenches(this.model)) {
      if (!this.record)
        throw new Error('force and torque sensors need a batch made with record: true (the contact wrenches of mj_rnePostConstraint)');
      this.constrain({ record: true }); // after sense(): the same warm start, so the same solve
      cfrcExt = this.lastEvaluation().cfrcExt;
    } else if (needsContacts(this.model)) this.constrain(); // the contact points with their forces, the same solve
    const contacts = needsContacts(this.model) ? (r: number) => this.contacts(r) : undefined;
    const S = this.stride;
    const xipos = new Float64Array(this.nbody * 3 * S);
    this.model.bodies.forEach((_, l) => {
      for (let r = 0; r < this.copies; r++)
        for (let i = 0; i < 3; i++) {
          const b = this.robotBodies?.[r]?.[l] ?? this.model.bodies[l];
          const R = (e: number): number => rot[(l * 9 + 3 * i + e) * S + r];
          xipos[(l * 3 + i) * S + r] = pos[(l * 3 + i) * S + r] + R(0) * b.com[0] + R(1) * b.com[1] + R(2) * b.com[2];
        }
    });
    const actuatorForce = this.actuatorsNow().force;
    return {
      stride: S,
      q: this.q,
      v: this.v,
      bodyPos: pos,
      bodyRot: rot,
      bodyVel: vel,
      bodyAcc: acc,
      xipos,
      actuatorForce,
      cfrcExt,
      contacts,
      native: this.native.field('mjcfSensorData'),
    };
  }

  /** MuJoCo's sensordata of an imported MJCF model at the current state, as mj_forward leaves it:
   *  robot r's values at [r * nsensordata + k], in MuJoCo's order (ModelDesc.mjcfSensors: each
   *  sensor's name, type, adr and dim). Empty for a model without MJCF sensors. */
  sensordata(): Float64Array {
    const n = sensorDataSize(this.model);
    const out = new Float64Array(this.copies * n);
    if (n === 0) return out;
    const inputs = this.sensorInputs();
    for (let r = 0; r < this.copies; r++) mjcfSensorData(this.robotModel(r), inputs, r, out.subarray(r * n, (r + 1) * n));
    return out;
  }

  reset(): void {
    this.native.reset();
    this.stepCount = 0;
  }

  getRobot(r: number): { q: number[]; v: number[]; tau: number[]; qacc: number[] } {
    this.checkRobot(r);
    const col = (a: Real, n: number) => Array.from({ length: n }, (_, k) => a[k * this.stride + r]);
    return { q: col(this.q, this.nq), v: col(this.v, this.nv), tau: col(this.tau, this.nv), qacc: col(this.qacc, this.nv) };
  }

  setRobot(r: number, s: { q?: ArrayLike<number>; v?: ArrayLike<number>; tau?: ArrayLike<number> }): void {
    this.checkRobot(r);
    const put = (a: Real, x: ArrayLike<number> | undefined, n: number, what: string) => {
      if (!x) return;
      if (x.length !== n) throw new Error(`${what} has ${x.length} numbers, the model has ${n}`);
      for (let k = 0; k < n; k++) a[k * this.stride + r] = x[k];
    };
    put(this.q, s.q, this.nq, 'q');
    put(this.v, s.v, this.nv, 'v');
    put(this.tau, s.tau, this.nv, 'tau');
  }

  /** Robot `r` runs from now on with `model`'s per-robot parameters: gravity, each body's mass, centre
   *  of mass and inertia, each joint's damping and armature, each actuator's kp, kv, control range,
   *  gainprm and biasprm, held in its lane of the engine's structure-of-arrays constants, so robots that
   *  differ in them still step together in SIMD. `model` must equal the batch's model in everything
   *  else (a mass, damping, armature or kv zero in one is zero in both; masses, centres of mass and
   *  armatures of a model with constraints cannot differ, its inverse weights are made from them at
   *  load): otherwise this throws naming the
   *  first difference (see laneDifference). The robot's state is kept; set it before stepping to run
   *  the robot with its parameters from the start. src/params/lanes.ts writes drawn values this way. */
  setRobotModel(r: number, model: ModelDesc): void {
    this.checkRobot(r);
    this.native.setRobotModel(r, toNativeModel(model));
    (this.robotBodies ??= [])[r] = model.bodies;
  }

  /** Robot r's model as the sensors read it: the batch's, with the bodies (masses, centres of mass,
   *  inertias) setRobotModel gave it. */
  robotModel(r: number): ModelDesc {
    const bodies = this.robotBodies?.[r];
    return bodies ? { ...this.model, bodies } : this.model;
  }
  private robotBodies: BodyDesc[][] | undefined;

  private checkRobot(r: number): void {
    if (!Number.isInteger(r) || r < 0 || r >= this.copies) throw new Error(`robot ${r} is out of range 0..${this.copies - 1}`);
  }
}

/** Names and offsets of each joint's coordinates, for labelling traces. */
export function coordinateNames(model: ModelDesc): { q: string[]; v: string[] } {
  const q: string[] = [];
  const v: string[] = [];
  const qSuffix: Record<string, string[]> = {
    ball: ['qw', 'qx', 'qy', 'qz'],
    free: ['x', 'y', 'z', 'qw', 'qx', 'qy', 'qz'],
    planar: ['x', 'y', 'theta'],
  };
  const vSuffix: Record<string, string[]> = {
    ball: ['wx', 'wy', 'wz'],
    free: ['vx', 'vy', 'vz', 'wx', 'wy', 'wz'],
    planar: ['vx', 'vy', 'wz'],
  };
  for (const b of model.bodies) {
    const nq = JOINT_NQ[b.joint];
    const nv = JOINT_NV[b.joint];
    for (let k = 0; k < nq; k++) q.push(nq === 1 ? b.name : `${b.name}.${qSuffix[b.joint][k]}`);
    for (let k = 0; k < nv; k++) v.push(nv === 1 ? b.name : `${b.name}.${vSuffix[b.joint][k]}`);
  }
  return { q, v };
}
