// ModelDesc → MuJoCo MJCF that reproduces the model exactly: same bodies, frames, inertias and
// joint order, so MuJoCo's qpos/qvel layout equals the engine's q/v layout (per copy).
// Joint ranges become MuJoCo's limited ranges with their solreflimit, solimplimit and margin;
// shapes carry their solref, solimp and condim; the option block states the constraint solver
// (the model's cone, CG with the model's fixed iteration count: tolerance 0, impratio). Passive joint
// forces go on each joint as MuJoCo's damping, armature, stiffness/springref and frictionloss; actuators
// as <motor>, <position>, <velocity> on their joint with gear, ctrlrange and forcerange (MuJoCo's nu equals
// ours, in our order); fixed tendons as <tendon><fixed> with their limit, friction, spring and damper. Initial state goes in keyframe "initial"; the
// constant generalized forces in <custom><numeric name="achilles_tau"> (set them as
// data.qfrc_applied: MJCF has no static generalized force). One MuJoCo step = one engine substep.
// Fluid forces as MuJoCo's option density, viscosity and wind, each body's inertia box by its
// inertial's frame and each ellipsoid as a massless, non-colliding geom with fluidshape="ellipsoid".
//
// Collision shapes become geoms (sphere, capsule, box, plane; static shapes under <worldbody>),
// excludes become <contact><exclude>. Contacts are disabled unless `contacts: true` (the
// validation suite compares dynamics without contacts). A rounded box has no MuJoCo geom: it is an
// error unless `approximateRounded`, which writes the same solid as a union of 3 boxes and up to
// 12 capsules (see roundedBoxPieces). Several trees are several bodies under <worldbody>.

import {
  DEFAULT_SOLIMP,
  DEFAULT_ROLLING_FRICTION,
  DEFAULT_SOLREF,
  DEFAULT_TORSIONAL_FRICTION,
  planarFrame,
  solverRun,
  type ActuatorDesc,
  type GeneralActuatorDesc,
  type IntegratorName,
  type BodyDesc,
  type FluidBodyDesc,
  type ModelDesc,
  type ShapeDesc,
  type Vec3,
} from '../../engine/model-desc.js';
import { DEFAULT_SOLVER } from './contact-settings.js';
import { jointRefs, polycoefAbout } from './equality.js';
import { quatMul, quatRotate } from '../../engine/math.js';

export type MjIntegrator = 'Euler' | 'RK4' | 'implicit' | 'implicitfast';
/** MuJoCo's name of each engine integrator MuJoCo has. */
const MJ_INTEGRATOR: Partial<Record<IntegratorName, MjIntegrator>> = { euler: 'Euler', rk4: 'RK4', implicitfast: 'implicitfast' };

export interface MjcfOptions {
  /** Default: the scene's integrator, RK4 for rk4 and implicitfast for implicitfast; Euler otherwise (MuJoCo has no verlet/midpoint). */
  integrator?: MjIntegrator;
  /** Replicate the robot N times under worldbody (robot-major qpos/qvel); names get `_k`. Default 1.
   *  Static world shapes are written once (the copies share the world). */
  copies?: number;
  /** Leave MuJoCo's contacts on (default false: `<flag contact="disable"/>`, as validation needs). */
  contacts?: boolean;
  /** Write each rounded box as the union of boxes and capsules that is the same solid (default: error). */
  approximateRounded?: boolean;
  /** Receives one line for each setting MJCF cannot say and the export leaves out (an actuator's rate limit). */
  notes?: string[];
}

/** MuJoCo refuses a moving body whose mass or any principal inertia is below mjMINVAL = 1e-15
 *  (user_model.cc), even when the bodies below give its joint an inertia. A massless link is
 *  written with this mass at its origin and this inertia: 2e-15 kg and kg·m², which moves the
 *  dynamics by about 1e-15 of any body mass of order 1 kg (double round-off). */
export const MJ_MASSLESS = 2e-15;

export class MjcfExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MjcfExportError';
  }
}

/** Shortest round-trip decimal: exact when parsed back as a double. */
const num = (x: number): string => (Object.is(x, -0) ? '0' : String(x));
const nums = (xs: readonly number[]): string => xs.map(num).join(' ');
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function exportMjcf(model: ModelDesc, opts: MjcfOptions = {}): string {
  const copies = opts.copies ?? 1;
  if (!Number.isInteger(copies) || copies < 1) throw new RangeError(`copies must be an integer >= 1, got ${copies}`);
  const integrator = opts.integrator ?? MJ_INTEGRATOR[model.world.integrator] ?? 'Euler';
  const tree = depthFirstTree(model);
  const shapes = model.shapes ?? [];
  const rounded = shapes.find((sh) => sh.kind === 'rounded-box');
  if (rounded && !opts.approximateRounded) {
    throw new MjcfExportError(
      `shape '${rounded.name}' is a rounded box, which MuJoCo has no geom for; pass --approximate-rounded to write it as the union of boxes and capsules that is the same solid (MuJoCo then reports contacts per piece)`,
    );
  }
  const sites = equalitySites(model, copies);
  const out: string[] = [];
  out.push(`<mujoco model="${esc(model.name)}">`);
  out.push('  <compiler angle="radian" inertiafromgeom="false" autolimits="true"/>');
  out.push(...optionXml(model, integrator, opts));
  // Convex shapes as inline meshes (MuJoCo collides a mesh through its convex hull; it moves the
  // mesh frame to the hull's centroid and principal axes and composes the geom pose with that move,
  // so the geom stays where the vertices put it).
  const meshes = shapes.filter((sh) => sh.kind === 'convex');
  if (meshes.length > 0) {
    out.push('  <asset>');
    for (const sh of meshes) out.push(`    <mesh name="${esc(meshName(sh))}" vertex="${nums(sh.vertices ?? [])}"/>`);
    out.push('  </asset>');
  }
  out.push(...worldbodyXml(model, tree, sites, copies));
  out.push(...contactXml(model, copies), ...tendonXml(model, copies), ...equalityXml(model));
  const actuators = model.actuators ?? [];
  if (actuators.length > 0) {
    out.push('  <actuator>');
    for (let k = 0; k < copies; k++) for (const a of actuators) out.push(`    ${actuatorXml(model, a, copies === 1 ? '' : `_${k}`)}`);
    out.push('  </actuator>');
    for (const a of actuators)
      if (a.rateLimit !== undefined)
        opts.notes?.push(`actuator '${a.name}': rate_limit ${a.rateLimit} is not written (MuJoCo's actuators have no rate limit)`);
  }
  out.push(...initialStateXml(model, copies));
  out.push('</mujoco>');
  return out.join('\n') + '\n';
}

/** Each body's children, and the roots; MuJoCo numbers qpos body by body in depth-first order, so
 *  that must be the engine's body order. */
function depthFirstTree(model: ModelDesc): { children: number[][]; roots: number[] } {
  const children: number[][] = model.bodies.map(() => []);
  const roots: number[] = [];
  model.bodies.forEach((b, i) => (b.parent < 0 ? roots : children[b.parent]).push(i));
  const dfs: number[] = [];
  const visit = (i: number): void => {
    dfs.push(i);
    children[i].forEach(visit);
  };
  roots.forEach(visit);
  if (dfs.some((b, k) => b !== k))
    throw new MjcfExportError(
      `the bodies are not in depth-first order (${dfs.map((i) => model.bodies[i].name).join(', ')}), so MuJoCo's qpos layout would differ from the engine's`,
    );
  return { children, roots };
}

/** Equality constraints (issue 26): a site-semantic constraint (connect with anchor2, weld with
 *  quat2) gets two sites, one on each body (the world's in <worldbody>), named after it. */
function equalitySites(model: ModelDesc, copies: number): { sitesOf: string[][]; worldSites: string[] } {
  const equalities = model.equalities ?? [];
  const sitesOf: string[][] = model.bodies.map(() => []);
  const worldSites: string[] = [];
  const siteXml = (name: string, pos: readonly number[], quat: readonly number[] = [1, 0, 0, 0]): string =>
    `<site name="${esc(name)}" pos="${nums(pos)}" quat="${nums(quat)}"/>`;
  for (const e of equalities) {
    if (e.type === 'joint') continue;
    const site = e.type === 'connect' ? e.anchor2 !== undefined : e.quat2 !== undefined;
    if (!site) continue;
    const [p1, q1, p2, q2] =
      e.type === 'connect'
        ? [e.anchor ?? [0, 0, 0], [1, 0, 0, 0], e.anchor2 ?? [0, 0, 0], [1, 0, 0, 0]]
        : [e.relpose?.slice(0, 3) ?? [0, 0, 0], e.relpose?.slice(3) ?? [1, 0, 0, 0], e.anchor ?? [0, 0, 0], e.quat2 ?? [1, 0, 0, 0]];
    for (const [b, p, q, k] of [
      [e.body1 ?? -1, p1, q1, 1],
      [e.body2 ?? -1, p2, q2, 2],
    ] as const)
      (b < 0 ? worldSites : sitesOf[b]).push(siteXml(`${e.name}_site${k}`, p, q));
  }
  if (equalities.length > 0 && copies > 1) throw new MjcfExportError('equality constraints are written for one copy only (--copies 1)');
  return { sitesOf, worldSites };
}

/** The option block: the engine's solver, the model's cone (absent: pyramidal), the model's method
 *  (CG unless it asks for Newton and runs it: solverRun), iteration count and tolerance (absent: 0, so
 *  MuJoCo never stops early, as the engine), impratio; fluid and noslip settings; the flags. The
 *  validation reference overrides the solver per query. */
function optionXml(model: ModelDesc, integrator: MjIntegrator, opts: MjcfOptions): string[] {
  const w = model.world;
  const fluid = model.fluid;
  const out: string[] = [];
  const solver = model.solver ?? DEFAULT_SOLVER;
  const MJCF_SOLVER = { cg: 'CG', newton: 'Newton', pgs: 'PGS' } as const;
  out.push(
    `  <option timestep="${num(w.dt / w.substeps)}" gravity="${nums(w.gravity)}" integrator="${integrator}" ` +
      `cone="${solver.cone ?? 'pyramidal'}" solver="${MJCF_SOLVER[solverRun(model).method]}" iterations="${solver.iterations}" tolerance="${num(solver.tolerance ?? 0)}" impratio="${num(solver.impratio)}"` +
      (fluid ? ` density="${num(fluid.density)}" viscosity="${num(fluid.viscosity)}" wind="${nums(fluid.wind)}"` : '') +
      `${solver.noslipIterations ? ` noslip_iterations="${solver.noslipIterations}" noslip_tolerance="${num(solver.noslipTolerance ?? 1e-6)}"` : ''}>`,
  );
  const flags = [...(opts.contacts ? [] : ['contact="disable"']), ...(w.multiccd === false ? ['multiccd="disable"'] : [])];
  if (flags.length) out.push(`    <flag ${flags.join(' ')}/>`);
  out.push('  </option>');
  return out;
}

/** <worldbody>: the static shapes and sites, then each copy's bodies with their inertials, joints,
 *  geoms, fluid geoms and sites. MuJoCo's fluid forces: each fluid body's model (fluidXml); every
 *  other body an ellipsoid of negligible size, since MuJoCo would give a written massless link
 *  (MJ_MASSLESS) an inertia box. */
function worldbodyXml(
  model: ModelDesc,
  { children, roots }: { children: number[][]; roots: number[] },
  { sitesOf, worldSites }: { sitesOf: string[][]; worldSites: string[] },
  copies: number,
): string[] {
  const fluid = model.fluid;
  const fluidOf = new Map((fluid?.bodies ?? []).map((f) => [f.body, f]));
  const shapesOf: ShapeDesc[][] = model.bodies.map(() => []);
  const statics: ShapeDesc[] = [];
  for (const sh of model.shapes ?? []) (sh.body < 0 ? statics : shapesOf[sh.body]).push(sh);
  const out: string[] = [];
  out.push('  <worldbody>');
  for (const sh of statics) for (const g of geomXml(sh, '')) out.push(`    ${g}`);
  for (const s of worldSites) out.push(`    ${s}`);
  for (let k = 0; k < copies; k++) {
    const sfx = copies === 1 ? '' : `_${k}`;
    const emit = (i: number, depth: number): void => {
      const b = model.bodies[i];
      const pad = '  '.repeat(depth);
      const f = mjBodyFrame(b);
      out.push(`${pad}<body name="${esc(b.name + sfx)}" pos="${nums(f.pos)}" quat="${nums(f.quat)}">`);
      const fb = fluidOf.get(i);
      if (fb?.box && b.mass > 0) out.push(`${pad}  ${boxInertialXml(b, fb.box.quat)}`);
      else if (b.mass > 0) out.push(`${pad}  <inertial pos="${nums(b.com)}" mass="${num(b.mass)}" fullinertia="${nums(b.inertia)}"/>`);
      else
        out.push(
          `${pad}  <inertial pos="0 0 0" mass="${num(MJ_MASSLESS)}" diaginertia="${nums([MJ_MASSLESS, MJ_MASSLESS, MJ_MASSLESS])}"/>`,
        );
      for (const j of jointXml(b, sfx)) out.push(`${pad}  ${j}`);
      if (b.visual && b.visual.halfExtents.every((h) => h > 0)) {
        out.push(
          `${pad}  <geom type="box" pos="${nums(b.com)}" size="${nums(b.visual.halfExtents)}" rgba="${nums(b.visual.color)} 1" contype="0" conaffinity="0" mass="0"/>`,
        );
      }
      for (const sh of shapesOf[i]) for (const g of geomXml(sh, sfx)) out.push(`${pad}  ${g}`);
      if (fluid) for (const g of fluidXml(fb)) out.push(`${pad}  ${g}`);
      for (const s of sitesOf[i]) out.push(`${pad}  ${s}`);
      for (const c of children[i]) emit(c, depth + 1);
      out.push(`${pad}</body>`);
    };
    for (const r of roots) emit(r, 2);
  }
  out.push('  </worldbody>');
  return out;
}

function contactXml(model: ModelDesc, copies: number): string[] {
  const out: string[] = [];
  const excludes = model.excludes ?? [];
  if (excludes.length > 0) {
    out.push('  <contact>');
    for (let k = 0; k < copies; k++) {
      const sfx = copies === 1 ? '' : `_${k}`;
      const bn = (i: number): string => (i < 0 ? 'world' : esc(model.bodies[i].name + sfx));
      for (const [a, b] of excludes) out.push(`    <exclude body1="${bn(a)}" body2="${bn(b)}"/>`);
    }
    out.push('  </contact>');
  }
  return out;
}

/** Fixed tendons (issue 12): each joint's coefficient, limit, friction, spring and damper as MuJoCo's. */
function tendonXml(model: ModelDesc, copies: number): string[] {
  const out: string[] = [];
  const tendons = model.tendons ?? [];
  if (tendons.length > 0) {
    out.push('  <tendon>');
    for (let k = 0; k < copies; k++) {
      const sfx = copies === 1 ? '' : `_${k}`;
      for (const t of tendons) {
        let a = '';
        if (t.range) {
          const l = t.limit ?? { solref: DEFAULT_SOLREF, solimp: DEFAULT_SOLIMP, margin: 0 };
          a += ` limited="true" range="${nums(t.range)}" solreflimit="${nums(l.solref)}" solimplimit="${nums(l.solimp)}" margin="${num(l.margin)}"`;
        }
        if (t.frictionloss) a += ` frictionloss="${num(t.frictionloss)}"`;
        if (t.stiffness) a += ` stiffness="${num(t.stiffness)}"`;
        if (t.damping) a += ` damping="${num(t.damping)}"`;
        if (t.springlength) a += ` springlength="${nums(t.springlength)}"`;
        out.push(`    <fixed name="${esc(t.name + sfx)}"${a}>`);
        for (const j of t.joints) out.push(`      <joint joint="${esc(model.bodies[j.body].name + sfx)}" coef="${num(j.coef)}"/>`);
        out.push('    </fixed>');
      }
    }
    out.push('  </tendon>');
  }
  return out;
}

function equalityXml(model: ModelDesc): string[] {
  const equalities = model.equalities ?? [];
  const out: string[] = [];
  if (equalities.length > 0) {
    out.push('  <equality>');
    const bn = (i: number | undefined): string => (i === undefined || i < 0 ? 'world' : esc(model.bodies[i].name));
    for (const e of equalities) {
      const common = `name="${esc(e.name)}" active="${e.active}" solref="${nums(e.solref)}" solimp="${nums(e.solimp)}"`;
      if (e.type === 'joint') {
        const j2 = e.joint2 !== undefined && e.joint2 >= 0 ? ` joint2="${bn(e.joint2)}"` : '';
        out.push(`    <joint ${common} joint1="${bn(e.joint1)}"${j2} polycoef="${nums(polycoefAbout(e, jointRefs(e, model.bodies)))}"/>`);
      } else if (e.type === 'connect') {
        if (e.anchor2 !== undefined) out.push(`    <connect ${common} site1="${esc(e.name)}_site1" site2="${esc(e.name)}_site2"/>`);
        else out.push(`    <connect ${common} body1="${bn(e.body1)}" body2="${bn(e.body2)}" anchor="${nums(e.anchor ?? [0, 0, 0])}"/>`);
      } else {
        const ts = `torquescale="${num(e.torquescale ?? 1)}"`;
        if (e.quat2 !== undefined) out.push(`    <weld ${common} site1="${esc(e.name)}_site1" site2="${esc(e.name)}_site2" ${ts}/>`);
        else
          out.push(
            `    <weld ${common} body1="${bn(e.body1)}" body2="${bn(e.body2)}" anchor="${nums(e.anchor ?? [0, 0, 0])}" relpose="${nums(e.relpose ?? [0, 0, 0, 0, 0, 0, 0])}" ${ts}/>`,
          );
      }
    }
    out.push('  </equality>');
  }
  return out;
}

/** The constant generalized forces (<custom>) and the initial state (keyframe "initial"). */
function initialStateXml(model: ModelDesc, copies: number): string[] {
  const out: string[] = [];
  const rep = (f: (b: BodyDesc) => number[]): string => nums(Array.from({ length: copies }, () => model.bodies.flatMap(f)).flat());
  // Only when some torque is non-zero: MuJoCo caps a numeric's length, and a zero torque
  // needs no record (qfrc_applied starts at zero).
  const tau = rep((b) => b.tau);
  if (model.bodies.some((b) => b.tau.some((x) => x !== 0))) {
    out.push('  <custom>');
    out.push(`    <numeric name="achilles_tau" data="${tau}"/>`);
    out.push('  </custom>');
  }
  const qpos = rep((b) => b.q0);
  const qvel = rep((b) => b.v0);
  if (qpos.length > 0) {
    out.push('  <keyframe>');
    out.push(`    <key name="initial" qpos="${qpos}" qvel="${qvel}"/>`);
    out.push('  </keyframe>');
  }
  return out;
}

/** An actuator on its joint or fixed tendon, as MuJoCo reads it: force = gear·(motor: ctrl; position: kp·(ctrl − ℓ) − kv·ℓ̇;
 *  velocity: kv·(ctrl − ℓ̇)), ℓ = gear·q, with ctrlrange and forcerange as clamps (limited only when given).
 *  The gear is ours, already projected onto the joint's dofs: MuJoCo's gear on a hinge or slide, its
 *  torque on a ball, [force; torque] on a free joint (the same dof order as ours). */
function actuatorXml(model: ModelDesc, a: ActuatorDesc, sfx: string): string {
  // a tendon transmission: MuJoCo's tendon="" with gear[0] (length gear·L, moment gear·coef)
  const tendon = a.tendon !== undefined ? model.tendons![a.tendon] : undefined;
  // a body transmission (an adhesion): <general body=""> with the same gain, bias and ranges (MuJoCo reads no gear there)
  const onBody = a.bodyTransmission !== undefined ? model.bodies[a.bodyTransmission] : undefined;
  if (onBody) {
    let attrs = ` name="${esc(a.name + sfx)}" body="${esc(onBody.name + sfx)}"${a.general ? generalAttrs(a.general) : ''}`;
    attrs += a.ctrlrange ? ` ctrllimited="true" ctrlrange="${nums(a.ctrlrange)}"` : ' ctrllimited="false"';
    attrs += a.forcerange ? ` forcelimited="true" forcerange="${nums(a.forcerange)}"` : ' forcelimited="false"';
    return `<general${attrs}/>`;
  }
  const target = tendon ? ` tendon="${esc(tendon.name + sfx)}"` : ` joint="${esc(model.bodies[a.body].name + sfx)}"`;
  if (!tendon && model.bodies[a.body].joint === 'planar')
    throw new MjcfExportError(
      `actuator '${a.name}' drives planar joint '${model.bodies[a.body].name}', which MJCF writes as three joints: one MuJoCo actuator cannot drive them`,
    );
  let attrs = ` name="${esc(a.name + sfx)}"${target} gear="${nums(a.gear)}"`;
  if (a.kind === 'position') attrs += ` kp="${num(a.kp)}" kv="${num(a.kv)}"`;
  if (a.kind === 'velocity') attrs += ` kv="${num(a.kv)}"`;
  if (a.kind === 'general' && a.general) attrs += generalAttrs(a.general);
  attrs += a.ctrlrange ? ` ctrllimited="true" ctrlrange="${nums(a.ctrlrange)}"` : ' ctrllimited="false"';
  attrs += a.forcerange ? ` forcelimited="true" forcerange="${nums(a.forcerange)}"` : ' forcelimited="false"';
  return `<${a.kind}${attrs}/>`;
}

/** A general actuator's MuJoCo parameters as <general> states them (a dampratio stays biasprm[2] > 0,
 *  which MuJoCo's mj_setConst resolves as the engine does). */
function generalAttrs(g: GeneralActuatorDesc): string {
  let s = ` dyntype="${g.dyntype}" gaintype="${g.gaintype}" biastype="${g.biastype}"`;
  s += ` dynprm="${nums(g.dynprm)}" gainprm="${nums(g.gainprm)}" biasprm="${nums(g.biasprm)}"`;
  s += g.actrange ? ` actlimited="true" actrange="${nums(g.actrange)}"` : ' actlimited="false"';
  if (g.actearly) s += ' actearly="true"';
  return s;
}

/** A limited joint's range and limit settings (MuJoCo's range, solreflimit, solimplimit, margin). */
function limitXml(b: BodyDesc): string {
  if (!b.range) return '';
  const l = b.limit ?? { solref: DEFAULT_SOLREF, solimp: DEFAULT_SOLIMP, margin: 0 };
  return ` limited="true" range="${nums(b.range)}" solreflimit="${nums(l.solref)}" solimplimit="${nums(l.solimp)}" margin="${num(l.margin)}"`;
}

/** A joint's passive forces, per degree of freedom as in MuJoCo (damping, armature, frictionloss;
 *  stiffness and springref on hinges and slides only, as the scene allows them). */
function passiveXml(b: BodyDesc): string {
  const a: string[] = [];
  if (b.damping) a.push(` damping="${num(b.damping)}"`);
  if (b.armature) a.push(` armature="${num(b.armature)}"`);
  if (b.frictionloss) a.push(` frictionloss="${num(b.frictionloss)}"`);
  if (b.stiffness) a.push(` stiffness="${num(b.stiffness)}" springref="${num(b.springref ?? 0)}"`);
  // MuJoCo makes the stiffness and damping from it at its own qpos0, as the engine does
  if (b.springdamper) a.push(` springdamper="${nums(b.springdamper)}"${b.stiffness ? '' : ` springref="${num(b.springref ?? 0)}"`}`);
  return a.join('');
}

/** The MJCF body frame of a link: MuJoCo moves a body by Rot(axis, q − ref) (a hinge) or a shift
 *  axis·(q − ref) (a slide) from it, the engine its link by Rot(axis, q) or axis·q, so a joint with a
 *  ref sits in a body frame turned by Rot(axis, ref) (shifted by axis·ref): both give the same frame
 *  at every q, and the joint's axis (on which that turn acts as the identity) keeps its coordinates. */
function mjBodyFrame(b: BodyDesc): { pos: Vec3; quat: BodyDesc['quat'] } {
  const r = b.ref ?? 0;
  if (r === 0) return { pos: b.pos, quat: b.quat };
  const n = Math.hypot(...b.axis);
  if (b.joint === 'revolute') {
    const s = Math.sin(r / 2) / n;
    return { pos: b.pos, quat: quatMul(b.quat, [Math.cos(r / 2), b.axis[0] * s, b.axis[1] * s, b.axis[2] * s]) };
  }
  if (b.joint === 'prismatic') {
    const d = quatRotate(b.quat, [(b.axis[0] / n) * r, (b.axis[1] / n) * r, (b.axis[2] / n) * r]);
    return { pos: [b.pos[0] + d[0], b.pos[1] + d[1], b.pos[2] + d[2]], quat: b.quat };
  }
  return { pos: b.pos, quat: b.quat };
}

/** A hinge's or slide's ref (MuJoCo's qpos0 for it), only when not 0. */
function refXml(b: BodyDesc): string {
  return b.ref ? ` ref="${num(b.ref)}"` : '';
}

/** Joint elements in the engine's coordinate order for this body. */
function jointXml(b: BodyDesc, sfx: string): string[] {
  const n = esc(b.name + sfx);
  const p = passiveXml(b);
  switch (b.joint) {
    case 'revolute':
      return [`<joint name="${n}" type="hinge" axis="${nums(b.axis)}"${refXml(b)}${limitXml(b)}${p}/>`];
    case 'prismatic':
      return [`<joint name="${n}" type="slide" axis="${nums(b.axis)}"${refXml(b)}${limitXml(b)}${p}/>`];
    case 'ball':
      return [`<joint name="${n}" type="ball"${limitXml(b)}${p}/>`];
    case 'free':
      return [p ? `<joint name="${n}" type="free"${p}/>` : `<freejoint name="${n}"/>`];
    case 'planar': {
      // X_J = Trans(x·u + y·w)·Rot(n, θ): MuJoCo applies a body's joints in order, slides before the hinge.
      const { u, w } = planarFrame(b.axis as Vec3);
      return [
        `<joint name="${n}_x" type="slide" axis="${nums(u)}"${p}/>`,
        `<joint name="${n}_y" type="slide" axis="${nums(w)}"${p}/>`,
        `<joint name="${n}_theta" type="hinge" axis="${nums(b.axis)}"${p}/>`,
      ];
    }
    case 'fixed':
      return [];
  }
}

/** A fluid body's inertial with MuJoCo's principal frame written as given (body_iquat, which the box
 *  model turns by; a fullinertia would be re-diagonalised, its frame free where moments are equal):
 *  the moments are diag(Rᵀ I R), R = R(quat). */
function boxInertialXml(b: BodyDesc, quat: readonly [number, number, number, number]): string {
  const [xx, yy, zz, xy, xz, yz] = b.inertia;
  const I = [
    [xx, xy, xz],
    [xy, yy, yz],
    [xz, yz, zz],
  ];
  const axis = (k: number): Vec3 => quatRotate([quat[0], quat[1], quat[2], quat[3]], [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0]);
  const moment = (k: number): number => {
    const a = axis(k);
    let m = 0;
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m += a[r] * I[r][c] * a[c];
    return m;
  };
  return `<inertial pos="${nums(b.com)}" quat="${nums(quat)}" mass="${num(b.mass)}" diaginertia="${nums([moment(0), moment(1), moment(2)])}"/>`;
}

/** The geoms that carry a body's fluid model: its ellipsoids (fluidshape="ellipsoid", colliding with
 *  nothing, massless), or for a body the fluid leaves alone an ellipsoid of semi-axes 1e-15 whose
 *  forces are 1e-15 of a unit body's (its drag ~ μ·1e-15·v, its added mass ~ 1e-45). */
function fluidXml(fb: FluidBodyDesc | undefined): string[] {
  const off = 'contype="0" conaffinity="0" mass="0" fluidshape="ellipsoid"';
  if (!fb) return [`<geom type="sphere" size="1e-15" ${off} fluidcoef="0 0 0 0 0"/>`];
  return (fb.ellipsoids ?? []).map(
    (e) =>
      `<geom type="ellipsoid" size="${nums(e.semiaxes)}" pos="${nums(e.pos)}" quat="${nums(e.quat)}" ${off} fluidcoef="${nums(e.coef)}"/>`,
  );
}

/** A shape's geoms. Margin and gap mean the same in both engines (MuJoCo >= 3.9, measured on 3.14:
 *  a pair is detected when dist < margin + gap and acts when dist < margin, both summed over the pair's
 *  two geoms), so they are written as they are. Friction's torsional and rolling parts are the shape's
 *  (MuJoCo's defaults when it has none). solref, solimp and condim are written always (ours or MuJoCo's defaults, the same), so
 *  the pair rules (the higher priority's parameters; at equal priorities condim max, friction max,
 *  solref/solimp mixed by solmix, a direct solref by the element-wise min) are MuJoCo's own; priority
 *  and solmix are written when the shape has them. contype and conaffinity are written as MuJoCo's 32-bit int
 *  reads them back (`| 0`: the bit 2^31 as a negative number, which MuJoCo would call too large). */
function geomXml(sh: ShapeDesc, sfx: string): string[] {
  const common =
    `friction="${num(sh.friction)} ${num(sh.torsionalFriction ?? DEFAULT_TORSIONAL_FRICTION)} ${num(sh.rollingFriction ?? DEFAULT_ROLLING_FRICTION)}" contype="${sh.contype | 0}" conaffinity="${sh.conaffinity | 0}" ` +
    `margin="${num(sh.margin)}" gap="${num(sh.gap)}" ` +
    `solref="${nums(sh.solref ?? DEFAULT_SOLREF)}" solimp="${nums(sh.solimp ?? DEFAULT_SOLIMP)}" condim="${sh.condim ?? 3}"` +
    (sh.priority !== undefined ? ` priority="${sh.priority}"` : '') +
    (sh.solmix !== undefined ? ` solmix="${num(sh.solmix)}"` : '') +
    (sh.color ? ` rgba="${nums(sh.color)} 1"` : '');
  const pose = (pos: readonly number[]): string => `pos="${nums(pos)}" quat="${nums(sh.quat)}"`;
  const name = esc(sh.name + sfx);
  const [hx, hy, hz] = sh.halfExtents;
  switch (sh.kind) {
    case 'sphere':
      return [`<geom name="${name}" type="sphere" size="${num(sh.radius)}" ${pose(sh.pos)} ${common}/>`];
    case 'capsule':
      return [`<geom name="${name}" type="capsule" size="${num(sh.radius)} ${num(hz)}" ${pose(sh.pos)} ${common}/>`];
    case 'box':
      return [`<geom name="${name}" type="box" size="${nums(sh.halfExtents)}" ${pose(sh.pos)} ${common}/>`];
    case 'plane':
      return [`<geom name="${name}" type="plane" size="0 0 1" ${pose(sh.pos)} ${common}/>`];
    case 'cylinder':
    case 'ellipsoid':
      return [
        `<geom name="${name}" type="${sh.kind}" size="${nums(shapeSize(sh).slice(0, sh.kind === 'cylinder' ? 2 : 3))}" ${pose(sh.pos)} ${common}/>`,
      ];
    case 'convex':
      return [`<geom name="${name}" type="mesh" mesh="${esc(meshName(sh))}" ${pose(sh.pos)} ${common}/>`];
    case 'rounded-box':
      return roundedBoxPieces([hx, hy, hz], sh.radius).map((p, k) => {
        const at = add(sh.pos, rotate(sh.quat, p.center));
        const q = p.axis === undefined ? sh.quat : mulQuat(sh.quat, AXIS_QUAT[p.axis]);
        const size = p.kind === 'box' ? nums(p.size) : p.kind === 'capsule' ? `${num(sh.radius)} ${num(p.size[0])}` : num(sh.radius);
        return `<geom name="${name}_${k}" type="${p.kind}" size="${size}" pos="${nums(at)}" quat="${nums(q)}" ${common}/>`;
      });
  }
}

/** A cylinder's or ellipsoid's MuJoCo size (the ModelDesc requires it for those kinds). */
function shapeSize(sh: ShapeDesc): Vec3 {
  if (!sh.size) throw new MjcfExportError(`shape '${sh.name}' (${sh.kind}) has no size`);
  return sh.size;
}
const meshName = (sh: ShapeDesc): string => `${sh.name}_hull`;

interface Piece {
  kind: 'box' | 'capsule' | 'sphere';
  center: Vec3;
  /** box: half-extents; capsule: [half length]. */
  size: number[];
  /** capsule: the box axis it runs along (0 x, 1 y, 2 z). */
  axis?: 0 | 1 | 2;
}
/** Quaternions taking the capsule's z axis onto x, y, z. */
const AXIS_QUAT: [number, number, number, number][] = [
  [Math.SQRT1_2, 0, Math.SQRT1_2, 0],
  [Math.SQRT1_2, -Math.SQRT1_2, 0, 0],
  [1, 0, 0, 0],
];

/** The sphere-swept box {x : dist(x, core box h) <= r} as a union that is exactly the same solid:
 *  the core grown by r along each axis (3 boxes) plus a capsule of radius r along each of the 12
 *  core edges (their end caps are the 8 corner balls). Degenerate pieces (a zero-thickness box, a
 *  zero-length edge) are dropped: the remaining pieces still cover them (a point core is a sphere). */
export function roundedBoxPieces(h: Vec3, r: number): Piece[] {
  const out: Piece[] = [];
  if (r === 0) return [{ kind: 'box', center: [0, 0, 0], size: [...h] }];
  if (h.every((x) => x === 0)) return [{ kind: 'sphere', center: [0, 0, 0], size: [] }];
  for (let a = 0; a < 3; a++) {
    const size = [...h];
    size[a] += r;
    if (size.every((x) => x > 0)) out.push({ kind: 'box', center: [0, 0, 0], size });
  }
  const seen = new Set<string>();
  for (let a = 0; a < 3; a++) {
    const b = (a + 1) % 3;
    const c = (a + 2) % 3;
    for (const sb of [-1, 1]) {
      for (const sc of [-1, 1]) {
        const center: Vec3 = [0, 0, 0];
        center[b] = sb * h[b];
        center[c] = sc * h[c];
        const key = `${a}:${center.join(',')}`;
        if (seen.has(key)) continue; // a zero extent makes two edges coincide
        seen.add(key);
        if (h[a] > 0) out.push({ kind: 'capsule', center, size: [h[a]], axis: a as 0 | 1 | 2 });
      }
    }
  }
  return out;
}

function rotate(q: readonly number[], v: Vec3): Vec3 {
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}
const add = (a: readonly number[], b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
function mulQuat(a: readonly number[], b: readonly number[]): number[] {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}
