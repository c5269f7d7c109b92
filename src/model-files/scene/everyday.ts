// The everyday `.arow` dialect (documented in docs/scene-format.md): `scene`, `world`, `links`.
// Friendly defaults, but every key is checked: unknown keys, wrong types/counts and
// non-physical values are errors at the offending node.

import {
  INTEGRATORS,
  JOINT_NV,
  JOINT_TYPES,
  type BodyDesc,
  type IntegratorName,
  type JointType,
  type Quat,
  type Vec3,
  type WorldSettings,
  type ModelDesc,
  coordinateLayout,
} from '../../engine/model-desc.js';
import { WORLD_LIMITS } from '../../engine/world-limits.js';
import { assemble, type Draft } from './assemble.js';
import { JOINT_LIMIT_KEYS, readJointLimit, readSolver } from './contact-settings.js';
import { inertiaProblem, norm3, rotateInertia, rotvecToQuat, type Inertia6 } from '../../engine/math.js';
import { massFromShapes } from './mass-from-shapes.js';
import { readOrientation } from './orientation.js';
import { readExcludes, readLinkShapes, readSceneShapes, resolveShapes, type ShapeDraft } from './shapes.js';
import { classifySubspace, SUPPORTED_SUBSPACES } from './subspace.js';
import {
  checkKeys,
  describe,
  entries,
  readEnum,
  readInt,
  readLimited,
  readNumber,
  readNumbers,
  readPositive,
  readString,
  readVec,
  type Ctx,
  type Entry,
  type ParsedFile,
  type YNode,
} from './yaml-read.js';
import { isSeq } from 'yaml';
import { readSensors } from './sensors.js';
import { readSceneRandomization, type SceneRandomization } from './randomize-read.js';
import { readTendons } from './tendons.js';
import { readEqualities } from './equality.js';
import { JOINT_FORCE_KEYS, readController, readJointForces, resolveActuators, type ActuatorDraft } from './actuation.js';

export const TOP_KEYS = [
  'scene',
  'world',
  'links',
  'shapes',
  'exclude',
  'tendons',
  'equality',
  'controller',
  'sensors',
  'randomize',
] as const;
export const WORLD_KEYS = ['gravity', 'dt', 'integrator', 'duration', 'substeps', 'solver', 'multiccd'] as const;
export const LINK_KEYS = [
  'name',
  'parent',
  'joint',
  'pos',
  'quat',
  'rpy',
  'mass',
  'com',
  'inertia',
  'inertia_frame',
  'initial',
  'torque',
  'visual',
  'shapes',
  'mass_from_shapes',
] as const;
export const JOINT_KEYS = ['type', 'axis', 'subspace', ...JOINT_FORCE_KEYS, ...JOINT_LIMIT_KEYS] as const;

export const DEFAULT_WORLD: WorldSettings = { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'euler', duration: 10, substeps: 1 };

export function loadEveryday(
  pf: ParsedFile,
  worldOverride: Partial<WorldSettings>,
  files: string[],
  randomize?: (r: SceneRandomization) => void,
): ModelDesc {
  const { ctx, root } = pf;
  const top = entries(ctx, root, 'scene file');
  checkKeys(ctx, root, top, 'scene file', TOP_KEYS, ['scene', 'links']);
  const name = readString(ctx, top.get('scene')?.value, 'scene');
  const world = { ...readWorld(ctx, top.get('world')?.value), ...worldOverride };
  const solverE = top.get('world')?.value ? entries(ctx, top.get('world')?.value, 'world').get('solver') : undefined;
  const linksNode = top.get('links')?.value;
  if (!isSeq(linksNode) || linksNode.items.length === 0)
    throw ctx.error(linksNode, 'links', describe(linksNode), 'a non-empty list of links');
  const links = linksNode.items.map((n, i) => (pf.onLink?.(i, linksNode.items.length), readLink(ctx, n as YNode, i)));
  const model = assemble(
    name,
    links.map((l) => l.draft),
    world,
    files,
  );
  const shapeDrafts = links.flatMap((l) => l.shapes);
  const sceneShapes = top.get('shapes');
  if (sceneShapes) shapeDrafts.push(...readSceneShapes(ctx, sceneShapes.value));
  if (shapeDrafts.length > 0) model.shapes = resolveShapes(shapeDrafts, model.bodies);
  const ex = top.get('exclude');
  if (ex) model.excludes = readExcludes(ctx, ex.value, model.bodies);
  if (solverE) model.solver = readSolver(ctx, solverE, 'world.solver', coordinateLayout(model.bodies).nv);
  const tendons = top.get('tendons'); // src/model-files/scene/tendons.ts
  if (tendons) model.tendons = readTendons(ctx, tendons.value, model.bodies);
  const equality = top.get('equality'); // src/model-files/scene/equality.ts
  if (equality) model.equalities = readEqualities(ctx, equality.value, model.bodies);
  const actuators = links.flatMap((l) => l.actuators);
  if (actuators.length > 0) model.actuators = resolveActuators(ctx, actuators, model.bodies);
  const ctl = top.get('controller');
  if (ctl) model.controller = readController(ctx, ctl.value, model.actuators ?? []);
  const sensors = top.get('sensors'); // read in ./sensors.ts
  if (sensors) model.sensors = readSensors(ctx, sensors.value, model.bodies, model.world.dt);
  const rand = top.get('randomize'); // per-robot draws: ./randomize-read.ts
  if (rand) {
    if (!randomize)
      throw ctx.error(
        rand.keyNode,
        'randomize',
        'a `randomize:` block (per-robot draws)',
        'a scene without one here',
        'per-robot draws are honoured by `achilles run` and `achilles sweep` only; this command would run every robot without them',
      );
    randomize(readSceneRandomization(ctx, rand.keyNode, rand.value, model));
  }
  return model;
}

function readWorld(ctx: Ctx, node: YNode): WorldSettings {
  const w: WorldSettings = { ...DEFAULT_WORLD, gravity: [...DEFAULT_WORLD.gravity] };
  if (node === undefined) return w;
  const m = entries(ctx, node, 'world');
  checkKeys(ctx, node, m, 'world', WORLD_KEYS);
  const g = m.get('gravity');
  if (g) w.gravity = readVec(ctx, g.value, 'world.gravity', 3) as Vec3;
  const dt = m.get('dt');
  if (dt) w.dt = readLimited(ctx, dt.value, 'world.dt', WORLD_LIMITS.dt);
  const it = m.get('integrator');
  if (it) w.integrator = readEnum<IntegratorName>(ctx, it.value, 'world.integrator', INTEGRATORS);
  const du = m.get('duration');
  if (du) w.duration = readLimited(ctx, du.value, 'world.duration', WORLD_LIMITS.duration);
  const ss = m.get('substeps');
  if (ss) w.substeps = readLimited(ctx, ss.value, 'world.substeps', WORLD_LIMITS.substeps);
  // MuJoCo's <flag multiccd>, in its words (enable: its default)
  const mc = m.get('multiccd');
  if (mc && readEnum(ctx, mc.value, 'world.multiccd', ['enable', 'disable'] as const) === 'disable') w.multiccd = false;
  return w;
}

function readLink(ctx: Ctx, node: YNode, i: number): { draft: Draft; shapes: ShapeDraft[]; actuators: ActuatorDraft[] } {
  let subject = `links[${i}]`;
  const m = entries(ctx, node, subject);
  const nameE = m.get('name');
  if (nameE) subject = `links[${i}] (${readString(ctx, nameE.value, `${subject}.name`)})`;
  checkKeys(ctx, node, m, subject, LINK_KEYS, ['name', 'parent', 'joint']);
  const name = readString(ctx, nameE?.value, `${subject}.name`);
  if (name === 'world') ctx.fail(nameE?.value, `${subject}.name`, '`world`', 'a name other than `world` (reserved for the fixed frame)');
  const parentE = m.get('parent');
  const parentName = readString(ctx, parentE?.value, `${subject}.parent`);
  const jointE = m.get('joint');
  const { joint, axis } = readJoint(ctx, jointE?.value, `${subject}.joint`);
  const forces = readJointForces(ctx, jointE?.value, `${subject}.joint`, name, joint, axis);
  const limits = readJointLimit(ctx, jointE?.value, `${subject}.joint`, joint);

  const pos = m.has('pos') ? (readVec(ctx, m.get('pos')?.value, `${subject}.pos`, 3) as Vec3) : ([0, 0, 0] as Vec3);
  const quat: Quat = readOrientation(ctx, m, subject) ?? [1, 0, 0, 0];
  if (joint === 'free') {
    const moved = pos.some((x) => x !== 0) || quat[1] !== 0 || quat[2] !== 0 || quat[3] !== 0;
    if (moved)
      ctx.fail(
        m.get('pos')?.keyNode ?? m.get('quat')?.keyNode ?? m.get('rpy')?.keyNode,
        subject,
        'a free joint with a nonzero `pos`/`quat`/`rpy`',
        'pos 0 and identity orientation (put the placement in `initial.position`)',
      );
  }

  const shapes = m.has('shapes') ? readLinkShapes(ctx, m.get('shapes')?.value, `${subject}.shapes`, name) : [];
  const { mass, com, inertia } = m.has('mass_from_shapes')
    ? readMassFromShapes(ctx, m, node, subject, shapes)
    : readMassProperties(ctx, m, node, subject);
  const { q0, v0 } = readInitial(ctx, m.get('initial')?.value, `${subject}.initial`, joint);
  const nv = JOINT_NV[joint];
  let tau = new Array<number>(nv).fill(0);
  const tE = m.get('torque');
  if (tE) {
    if (nv === 0) ctx.fail(tE.keyNode, `${subject}.torque`, 'a torque on a fixed joint', 'no `torque` (a fixed joint has no coordinates)');
    tau = readNumbers(ctx, tE.value, `${subject}.torque`, nv);
  }
  const visual = m.has('visual') ? readVisual(ctx, m.get('visual')?.value, `${subject}.visual`) : undefined;

  const { line, column } = ctx.pos(node);
  const body: Omit<BodyDesc, 'parent'> = {
    name,
    pos,
    quat,
    joint,
    axis,
    mass,
    com,
    inertia,
    q0,
    v0,
    tau,
    source: { file: ctx.file, line, column },
  };
  if (visual) body.visual = visual;
  Object.assign(body, forces.passive);
  Object.assign(body, limits);
  return {
    actuators: forces.actuators,
    draft: {
      body,
      parent: parentName === 'world' ? null : parentName,
      ctx,
      subject,
      nameNode: nameE?.value,
      parentNode: parentE?.value,
      jointNode: jointE?.value,
    },
    shapes,
  };
}

/** `mass_from_shapes: {density}` (kg/m³): mass, CoM and inertia of the link's shapes, as MJCF's inertiafromgeom. */
function readMassFromShapes(
  ctx: Ctx,
  m: Map<string, Entry>,
  node: YNode,
  subject: string,
  shapes: ShapeDraft[],
): { mass: number; com: Vec3; inertia: Inertia6 } {
  const e = m.get('mass_from_shapes') as Entry;
  for (const k of ['mass', 'com', 'inertia', 'inertia_frame']) {
    if (m.has(k))
      ctx.fail(
        m.get(k)?.keyNode,
        subject,
        `\`${k}\` together with \`mass_from_shapes\``,
        'either `mass_from_shapes` or `mass` (+ `com`, `inertia`), not both',
      );
  }
  const s = `${subject}.mass_from_shapes`;
  const d = entries(ctx, e.value, s);
  checkKeys(ctx, e.value, d, s, ['density'], ['density']);
  const density = readPositive(ctx, d.get('density')?.value, `${s}.density`);
  if (shapes.length === 0)
    ctx.fail(e.keyNode, subject, '`mass_from_shapes` on a link without shapes', 'a `shapes:` list on this link to take the mass from');
  return massFromShapes(
    shapes.map((sh) => sh.shape),
    density,
  );
}

/** `mass` (>= 0), `com`, `inertia` (about the CoM, 3 or 6 numbers) and `inertia_frame` (the axes the
 *  inertia is given in, as `quat` or `rpy` in the link frame, like MJCF's inertial quat / URDF's rpy).
 *  A massless link (`mass: 0`) has no inertia: its joint must get one from the links below (checked at load). */
function readMassProperties(ctx: Ctx, m: Map<string, Entry>, node: YNode, subject: string): { mass: number; com: Vec3; inertia: Inertia6 } {
  if (!m.has('mass')) ctx.fail(node, subject, 'no `mass` key', 'a required `mass` (or `mass_from_shapes: {density}`)');
  const massNode = m.get('mass')?.value;
  const mass = readNumber(ctx, massNode, `${subject}.mass`);
  if (!(mass >= 0)) ctx.fail(massNode, `${subject}.mass`, `${mass}`, 'a mass >= 0 (0: a massless link)');
  const com = m.has('com') ? (readVec(ctx, m.get('com')?.value, `${subject}.com`, 3) as Vec3) : ([0, 0, 0] as Vec3);
  const inNode = m.get('inertia')?.value;
  if (mass === 0) {
    for (const k of ['inertia', 'inertia_frame']) {
      if (m.has(k))
        ctx.fail(m.get(k)?.keyNode, subject, `\`${k}\` on a massless link`, 'no inertia when `mass: 0` (a massless link has none)');
    }
    return { mass, com, inertia: [0, 0, 0, 0, 0, 0] };
  }
  if (inNode === undefined) ctx.fail(node, subject, 'no `inertia` key', 'a required `inertia` (about the CoM) when the mass is > 0');
  const iv = readVec(ctx, inNode, `${subject}.inertia`, [3, 6]);
  let inertia: Inertia6 = iv.length === 3 ? [iv[0], iv[1], iv[2], 0, 0, 0] : (iv as Inertia6);
  const bad = inertiaProblem(inertia);
  if (bad)
    ctx.fail(
      inNode,
      `${subject}.inertia`,
      bad,
      'a physical inertia about the CoM (positive definite, each principal moment <= the sum of the other two)',
    );
  const fE = m.get('inertia_frame');
  if (fE) {
    const fs = `${subject}.inertia_frame`;
    const f = entries(ctx, fE.value, fs);
    checkKeys(ctx, fE.value, f, fs, ['quat', 'rpy']);
    if (f.size !== 1)
      ctx.fail(
        fE.value,
        fs,
        f.size === 0 ? 'no orientation' : 'both `quat` and `rpy`',
        'exactly one of `quat: [w, x, y, z]` or `rpy: [r, p, y]` (the inertia axes in the link frame)',
      );
    inertia = rotateInertia(inertia, readOrientation(ctx, f, fs) as Quat); // exactly one is given (checked above)
  }
  return { mass, com, inertia };
}

function readJoint(ctx: Ctx, node: YNode, subject: string): { joint: JointType; axis: Vec3 } {
  const m = entries(ctx, node, subject);
  checkKeys(ctx, node, m, subject, JOINT_KEYS);
  if (m.has('subspace')) {
    if (m.has('type') || m.has('axis'))
      ctx.fail(node, subject, '`subspace` together with `type`/`axis`', 'either `subspace` alone or `type` (+ `axis`)');
    const sn = m.get('subspace')?.value;
    const s = readVec(ctx, sn, `${subject}.subspace`, 6);
    const r = classifySubspace([s]);
    if ('error' in r)
      ctx.fail(
        sn,
        `${subject}.subspace`,
        r.error,
        'a unit angular [ωx,ωy,ωz,0,0,0] (revolute) or unit linear [0,0,0,vx,vy,vz] (prismatic) column',
        `supported subspaces: ${SUPPORTED_SUBSPACES}`,
      );
    return r;
  }
  if (!m.has('type')) ctx.fail(node, subject, 'no `type` key', 'a required `type` key (or `subspace`)');
  const joint = readEnum<JointType>(ctx, m.get('type')?.value, `${subject}.type`, JOINT_TYPES);
  const needsAxis = joint === 'revolute' || joint === 'prismatic' || joint === 'planar';
  const axE = m.get('axis');
  if (!needsAxis) {
    if (axE)
      ctx.fail(
        axE.keyNode,
        `${subject}.axis`,
        `an axis on a ${joint} joint`,
        'no `axis` (only revolute, prismatic and planar joints have one)',
      );
    return { joint, axis: [0, 0, 1] };
  }
  if (!axE) ctx.fail(node, subject, 'no `axis` key', `a required \`axis\` for a ${joint} joint`);
  const a = readVec(ctx, axE.value, `${subject}.axis`, 3);
  const n = norm3(a);
  if (!(n > 1e-12)) ctx.fail(axE.value, `${subject}.axis`, 'a zero vector', 'a nonzero axis (it is normalised)');
  return { joint, axis: [a[0] / n, a[1] / n, a[2] / n] };
}

/** `initial.position` in natural units → q0 (see docs/scene-format.md), `initial.velocity` → v0. */
function readInitial(ctx: Ctx, node: YNode, subject: string, joint: JointType): { q0: number[]; v0: number[] } {
  const nv = JOINT_NV[joint];
  const zeroQ: Record<JointType, number[]> = {
    revolute: [0],
    prismatic: [0],
    ball: [1, 0, 0, 0],
    free: [0, 0, 0, 1, 0, 0, 0],
    planar: [0, 0, 0],
    fixed: [],
  };
  let q0 = zeroQ[joint];
  let v0 = new Array<number>(nv).fill(0);
  if (node === undefined) return { q0, v0 };
  const m = entries(ctx, node, subject);
  checkKeys(ctx, node, m, subject, ['position', 'velocity']);
  if (joint === 'fixed' && m.size > 0)
    ctx.fail(node, subject, 'an initial state on a fixed joint', 'no `initial` (a fixed joint has no coordinates)');
  const pE = m.get('position');
  if (pE) {
    const s = `${subject}.position`;
    if (joint === 'revolute' || joint === 'prismatic') q0 = readNumbers(ctx, pE.value, s, 1);
    else if (joint === 'planar') q0 = readVec(ctx, pE.value, s, 3);
    else if (joint === 'ball') q0 = orientation(ctx, pE.value, s, readVec(ctx, pE.value, s, [3, 4]));
    else if (joint === 'free') {
      const p = readVec(ctx, pE.value, s, [6, 7]);
      q0 = [p[0], p[1], p[2], ...orientation(ctx, pE.value, s, p.slice(3))];
    }
  }
  const vE = m.get('velocity');
  if (vE) v0 = readNumbers(ctx, vE.value, `${subject}.velocity`, nv);
  return { q0, v0 };
}

/** A rotation vector (3 numbers) or a quaternion [w, x, y, z] (4 numbers, normalised) → unit quaternion. */
function orientation(ctx: Ctx, node: YNode, subject: string, r: number[]): Quat {
  if (r.length === 3) return rotvecToQuat(r);
  const n = Math.hypot(...r);
  if (!(n > 1e-12))
    ctx.fail(node, subject, 'a zero quaternion', 'a nonzero quaternion [w, x, y, z] (it is normalised) or a rotation vector [rx, ry, rz]');
  return r.map((x) => x / n) as Quat;
}

function readVisual(ctx: Ctx, node: YNode, subject: string): { halfExtents: Vec3; color: Vec3 } {
  const m = entries(ctx, node, subject);
  checkKeys(ctx, node, m, subject, ['box', 'color'], ['box']);
  const boxNode = m.get('box')?.value;
  const box = readVec(ctx, boxNode, `${subject}.box`, 3) as Vec3;
  if (box.some((x) => x < 0)) ctx.fail(boxNode, `${subject}.box`, `[${box.join(', ')}]`, 'half-extents >= 0');
  let color: Vec3 = [0.7, 0.7, 0.7];
  const cE = m.get('color');
  if (cE) {
    color = readVec(ctx, cE.value, `${subject}.color`, 3) as Vec3;
    if (color.some((x) => x < 0 || x > 1)) ctx.fail(cE.value, `${subject}.color`, `[${color.join(', ')}]`, 'RGB components in 0..1');
  }
  return { halfExtents: box, color };
}
