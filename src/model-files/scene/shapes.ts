// Collision shapes in the everyday dialect (docs/scene-format.md, "Shapes"): a link's `shapes:`,
// the scene's top-level `shapes:` (each naming its `link`, `world` for static geometry) and
// `exclude:` pairs, read into ShapeDesc / ModelDesc.excludes (src/engine/model-desc.ts).
// Sphere, capsule, box and rounded-box are sphere-swept boxes (core half-extents h >= 0, radius
// r >= 0); cylinder, ellipsoid and convex are MuJoCo's (size, or the hull's vertices).

import { isMap, isSeq } from 'yaml';
import {
  DEFAULT_ROLLING_FRICTION,
  DEFAULT_TORSIONAL_FRICTION,
  SHAPE_KINDS,
  type BodyDesc,
  type Quat,
  type ShapeDesc,
  type ShapeKind,
  type Vec3,
} from '../../engine/model-desc.js';
import { readCondim, readPhysicalContact, readSolimp, readSolref, physicalSolref, type PhysicalContact } from './contact-settings.js';
import { didYouMean, printable } from '../common/errors.js';
import { norm3 } from '../../engine/math.js';
import { readOrientation } from './orientation.js';
import { checkKeys, describe, entries, readEnum, readNumber, readString, readVec, type Ctx, type Entry, type YNode } from './yaml-read.js';

/** Contact settings a shape may carry (MuJoCo's names; `contact` = physical stiffness/damping, see contact-settings.ts). */
export const SHAPE_CONTACT_KEYS = ['solref', 'solimp', 'condim', 'contact'] as const;
/** Keys every shape may carry, besides its size keys. */
export const SHAPE_COMMON_KEYS = [
  'type',
  'name',
  'pos',
  'quat',
  'rpy',
  'friction',
  'contype',
  'conaffinity',
  'margin',
  'gap',
  'color',
  ...SHAPE_CONTACT_KEYS,
] as const;
/** Size keys per kind (a capsule takes `length` or `from` + `to`; a box `size` or `half_extents`). */
export const SHAPE_SIZE_KEYS: Record<ShapeKind, readonly string[]> = {
  sphere: ['radius'],
  capsule: ['radius', 'length', 'from', 'to'],
  box: ['size', 'half_extents'],
  'rounded-box': ['half_extents', 'radius'],
  plane: [],
  cylinder: ['radius', 'length'],
  ellipsoid: ['radii'],
  convex: ['vertices'],
};
/** MuJoCo's filter bits are 32-bit unsigned integers. */
const MASK_LIMIT = 2 ** 32;

export interface ShapeDraft {
  shape: Omit<ShapeDesc, 'body' | 'name'> & { name?: string };
  /** Owner link's name, or null for the world. */
  link: string | null;
  ctx: Ctx;
  subject: string;
  node: YNode;
  /** The node to blame for an unknown link. */
  linkNode: YNode;
  /** `contact: {stiffness, damping}`, turned into a direct solref once the link's mass is known. */
  physical?: PhysicalContact;
}

/** A link's `shapes:` (one mapping or a list of them). */
export function readLinkShapes(ctx: Ctx, node: YNode, subject: string, link: string): ShapeDraft[] {
  return listOf(ctx, node, subject).map(({ n, s }) => {
    return readShape(ctx, n, entries(ctx, n, s), s, link, false);
  });
}

/** The scene's top-level `shapes:`: each names its `link` (`world` for static geometry). */
export function readSceneShapes(ctx: Ctx, node: YNode): ShapeDraft[] {
  return listOf(ctx, node, 'shapes').map(({ n, s }) => {
    const m = entries(ctx, n, s);
    const linkE = m.get('link');
    if (!linkE) ctx.fail(n, s, 'no `link` key', 'a required `link` key: the link the shape moves with, or `world` for static geometry');
    const link = readString(ctx, linkE.value, `${s}.link`);
    return readShape(ctx, n, m, s, link === 'world' ? null : link, true);
  });
}

function listOf(ctx: Ctx, node: YNode, subject: string): { n: YNode; s: string }[] {
  if (isMap(node)) return [{ n: node, s: subject }];
  if (!isSeq(node) || node.items.length === 0)
    ctx.fail(node, subject, describe(node), 'a shape (a mapping with `type`) or a non-empty list of shapes');
  return node.items.map((n, i) => ({ n: n as YNode, s: `${subject}[${i}]` }));
}

function readShape(ctx: Ctx, node: YNode, m: Map<string, Entry>, subject0: string, link: string | null, topLevel: boolean): ShapeDraft {
  const nameE = m.get('name');
  const name = nameE ? readString(ctx, nameE.value, `${subject0}.name`) : undefined;
  const subject = name ? `${subject0} (${name})` : subject0;
  if (!m.has('type'))
    ctx.fail(node, subject, 'no `type` key', `a required \`type\`: one of ${SHAPE_KINDS.map((k) => `\`${k}\``).join(', ')}`);
  const kind = readEnum<ShapeKind>(ctx, m.get('type')?.value, `${subject}.type`, SHAPE_KINDS);
  checkShapeKeys(ctx, m, subject, kind, topLevel);
  const r = shapeKeyReaders(ctx, node, m, subject, kind);
  if (m.has('quat') && m.has('rpy')) ctx.fail(m.get('rpy')?.keyNode, subject, 'both `quat` and `rpy`', 'at most one of them');
  const pose = {
    pos: m.has('pos') ? (readVec(ctx, m.get('pos')?.value, `${subject}.pos`, 3) as Vec3) : ([0, 0, 0] as Vec3),
    quat: readOrientation(ctx, m, subject) ?? ([1, 0, 0, 0] as Quat),
  };
  const g = readGeometry(ctx, node, m, subject, kind, link, r, pose);
  const f = readSurface(ctx, m, subject, r);
  // (the keys in the order the trace and the compiled document have always written them)
  const { halfExtents, radius, pos, quat } = g;
  const { friction, contype, conaffinity, margin, gap } = f;
  const shape: ShapeDraft['shape'] = { kind, halfExtents, radius, pos, quat, friction, contype, conaffinity, margin, gap };
  if (g.size) shape.size = g.size;
  if (g.vertices) shape.vertices = g.vertices;
  if (name !== undefined) shape.name = name;
  if (f.torsionalFriction !== undefined) shape.torsionalFriction = f.torsionalFriction;
  if (f.rollingFriction !== undefined) shape.rollingFriction = f.rollingFriction;
  if (f.color) shape.color = f.color;
  const physical = readShapeContact(ctx, m, subject, link, shape);
  const { line, column } = ctx.pos(node);
  shape.source = { file: ctx.file, line, column };
  return { shape, link, ctx, subject, node, linkNode: m.get('link')?.value ?? node, ...(physical ? { physical } : {}) };
}

/** Every key is one a shape of this kind takes; a size key of another kind says whose it is. */
function checkShapeKeys(ctx: Ctx, m: Map<string, Entry>, subject: string, kind: ShapeKind, topLevel: boolean): void {
  const allowed = [...SHAPE_COMMON_KEYS, ...SHAPE_SIZE_KEYS[kind], ...(topLevel ? ['link'] : [])];
  for (const e of m.values()) {
    if (allowed.includes(e.key)) continue;
    const other = SHAPE_KINDS.find((k) => SHAPE_SIZE_KEYS[k].includes(e.key));
    const hint = other
      ? `\`${e.key}\` belongs to a ${other}; a ${kind} takes ${SHAPE_SIZE_KEYS[kind].map((k) => `\`${k}\``).join(', ') || 'no size'}`
      : didYouMean(e.key, allowed);
    ctx.fail(e.keyNode, subject, `unknown key \`${e.key}\` for a ${kind}`, `one of ${allowed.map((a) => `\`${a}\``).join(', ')}`, hint);
  }
}

/** The checked readers of a shape's number keys. */
interface ShapeKeyReaders {
  nonNeg(key: string): number;
  positive(key: string): number;
  vecNonNeg(key: string, scale: number): Vec3;
}

function shapeKeyReaders(ctx: Ctx, node: YNode, m: Map<string, Entry>, subject: string, kind: ShapeKind): ShapeKeyReaders {
  return {
    nonNeg(key) {
      const e = m.get(key) as Entry;
      const v = readNumber(ctx, e.value, `${subject}.${key}`);
      if (!(v >= 0)) ctx.fail(e.value, `${subject}.${key}`, `${v}`, 'a number >= 0');
      return v;
    },
    positive(key) {
      const e = m.get(key);
      if (!e) ctx.fail(node, subject, `no \`${key}\` key`, `a required \`${key}\` for a ${kind}`);
      const v = readNumber(ctx, e.value, `${subject}.${key}`);
      if (!(v > 0)) ctx.fail(e.value, `${subject}.${key}`, `${v}`, 'a number > 0');
      return v;
    },
    vecNonNeg(key, scale) {
      const e = m.get(key) as Entry;
      const v = readVec(ctx, e.value, `${subject}.${key}`, 3);
      if (v.some((x) => !(x >= 0)))
        ctx.fail(e.value, `${subject}.${key}`, `[${v.join(', ')}]`, `${key === 'size' ? 'edge lengths' : 'half-extents'} >= 0`);
      return [v[0] * scale, v[1] * scale, v[2] * scale];
    },
  };
}

type Geometry = Pick<ShapeDesc, 'halfExtents' | 'radius' | 'pos' | 'quat' | 'size' | 'vertices'>;

/** The shape's size (core half-extents and radius, or MuJoCo's size / hull vertices) and its pose
 *  (a capsule given `from`/`to` places itself). */
function readGeometry(
  ctx: Ctx,
  node: YNode,
  m: Map<string, Entry>,
  subject: string,
  kind: ShapeKind,
  link: string | null,
  r: ShapeKeyReaders,
  pose: { pos: Vec3; quat: Quat },
): Geometry {
  const g: Geometry = { halfExtents: [0, 0, 0], radius: 0, ...pose };
  switch (kind) {
    case 'sphere':
      g.radius = r.positive('radius');
      break;
    case 'capsule':
      g.radius = r.positive('radius');
      Object.assign(g, readCapsuleAxis(ctx, node, m, subject, r));
      break;
    case 'box':
      if (m.has('size') === m.has('half_extents'))
        ctx.fail(
          node,
          subject,
          m.has('size') ? 'both `size` and `half_extents`' : 'neither `size` nor `half_extents`',
          'exactly one: `size` (edge lengths) or `half_extents`',
        );
      g.halfExtents = m.has('size') ? r.vecNonNeg('size', 0.5) : r.vecNonNeg('half_extents', 1);
      if (!g.halfExtents.every((h) => h > 0))
        ctx.fail(
          m.get(m.has('size') ? 'size' : 'half_extents')?.value,
          subject,
          'a flat box (a zero extent)',
          'every extent > 0 (a flat plate is a rounded-box with a radius)',
        );
      break;
    case 'rounded-box':
      if (!m.has('half_extents'))
        ctx.fail(node, subject, 'no `half_extents` key', 'a required `half_extents` (the core box, before rounding)');
      if (!m.has('radius')) ctx.fail(node, subject, 'no `radius` key', 'a required `radius` (how far the core box is swept)');
      g.halfExtents = r.vecNonNeg('half_extents', 1);
      g.radius = r.nonNeg('radius');
      if (!(g.radius > 0 || g.halfExtents.every((h) => h > 0)))
        ctx.fail(
          m.get('radius')?.value,
          `${subject}.radius`,
          `radius 0 with a flat core [${g.halfExtents.join(', ')}]`,
          'a solid: radius > 0, or every half-extent > 0',
        );
      break;
    case 'cylinder': {
      const radius = r.positive('radius');
      const half = r.positive('length') / 2;
      g.size = [radius, half, 0];
      g.halfExtents = [radius, radius, half];
      break;
    }
    case 'ellipsoid': {
      if (!m.has('radii'))
        ctx.fail(node, subject, 'no `radii` key', 'a required `radii`: [a, b, c], the semi-axes along the shape x, y, z');
      const radii = readVec(ctx, m.get('radii')?.value, `${subject}.radii`, 3) as Vec3;
      if (!radii.every((x) => x > 0)) ctx.fail(m.get('radii')?.value, `${subject}.radii`, `[${radii.join(', ')}]`, 'three semi-axes > 0');
      g.size = radii;
      g.halfExtents = [...radii];
      break;
    }
    case 'convex': {
      const vertices = readConvexVertices(ctx, m, node, subject);
      for (let i = 0; i < vertices.length; i++) g.halfExtents[i % 3] = Math.max(g.halfExtents[i % 3], Math.abs(vertices[i]));
      g.vertices = vertices;
      break;
    }
    case 'plane':
      if (link !== null)
        ctx.fail(
          m.get('link')?.value ?? m.get('type')?.value,
          subject,
          `a plane on link \`${link}\`, which moves`,
          'a plane only as static world geometry (top-level `shapes:` with `link: world`)',
        );
      break;
  }
  return g;
}

/** A capsule's axis: `length` along the shape's z, or `from` + `to` (its end points in the link
 *  frame, which then give its pos and quat). */
function readCapsuleAxis(
  ctx: Ctx,
  node: YNode,
  m: Map<string, Entry>,
  subject: string,
  r: ShapeKeyReaders,
): Pick<ShapeDesc, 'halfExtents'> & Partial<Pick<ShapeDesc, 'pos' | 'quat'>> {
  const ft = m.has('from') || m.has('to');
  if (ft && m.has('length'))
    ctx.fail(
      m.get('length')?.keyNode,
      subject,
      'both `length` and `from`/`to`',
      'either `length` (along the shape z axis) or `from` + `to`',
    );
  if (!ft) return { halfExtents: [0, 0, r.positive('length') / 2] };
  for (const k of ['from', 'to'])
    if (!m.has(k))
      ctx.fail(node, subject, `no \`${k}\` key`, 'both `from` and `to` (the end points of the capsule axis, in the link frame)');
  for (const k of ['pos', 'quat', 'rpy'])
    if (m.has(k))
      ctx.fail(m.get(k)?.keyNode, subject, `\`${k}\` together with \`from\`/\`to\``, 'no pose keys: `from` and `to` place the capsule');
  const a = readVec(ctx, m.get('from')?.value, `${subject}.from`, 3);
  const b = readVec(ctx, m.get('to')?.value, `${subject}.to`, 3);
  const d: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const len = norm3(d);
  if (!(len > 0))
    ctx.fail(
      m.get('to')?.value,
      `${subject}.to`,
      `the same point as \`from\` [${a.join(', ')}]`,
      'a capsule axis of nonzero length (use a sphere for a point)',
    );
  return {
    pos: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2],
    quat: quatFromZ([d[0] / len, d[1] / len, d[2] / len]),
    halfExtents: [0, 0, len / 2],
  };
}

type Surface = Pick<
  ShapeDesc,
  'friction' | 'contype' | 'conaffinity' | 'margin' | 'gap' | 'torsionalFriction' | 'rollingFriction' | 'color'
>;

/** Friction (the sliding coefficient, or MuJoCo's three [sliding, torsional, rolling]), collision
 *  masks, margin and gap, and color. */
function readSurface(ctx: Ctx, m: Map<string, Entry>, subject: string, r: ShapeKeyReaders): Surface {
  let friction = 1;
  let spinRoll: number[] | undefined;
  if (m.has('friction')) {
    const e = m.get('friction') as Entry;
    if (isSeq(e.value)) {
      const f = readVec(ctx, e.value, `${subject}.friction`, 3);
      if (f.some((x) => !(x >= 0)))
        ctx.fail(e.value, `${subject}.friction`, `[${f.join(', ')}]`, 'three numbers >= 0 (sliding, torsional, rolling)');
      friction = f[0];
      spinRoll = f.slice(1);
    } else friction = r.nonNeg('friction');
  }
  const mask = (key: string): number => {
    if (!m.has(key)) return 1;
    const e = m.get(key) as Entry;
    const v = readNumber(ctx, e.value, `${subject}.${key}`);
    if (!Number.isInteger(v) || v < 0 || v >= MASK_LIMIT)
      ctx.fail(e.value, `${subject}.${key}`, `${v}`, 'an integer bit mask from 0 to 4294967295 (2^32 - 1)');
    return v;
  };
  const contype = mask('contype');
  const conaffinity = mask('conaffinity');
  const margin = m.has('margin') ? r.nonNeg('margin') : 0;
  const gap = m.has('gap') ? r.nonNeg('gap') : 0;
  const surface: Surface = { friction, contype, conaffinity, margin, gap };
  // kept when not MuJoCo's defaults (absent means the default, as written back by arow-writer)
  if (spinRoll && spinRoll[0] !== DEFAULT_TORSIONAL_FRICTION) surface.torsionalFriction = spinRoll[0];
  if (spinRoll && spinRoll[1] !== DEFAULT_ROLLING_FRICTION) surface.rollingFriction = spinRoll[1];
  if (m.has('color')) {
    const cE = m.get('color') as Entry;
    const c = readVec(ctx, cE.value, `${subject}.color`, 3) as Vec3;
    if (c.some((x) => x < 0 || x > 1)) ctx.fail(cE.value, `${subject}.color`, `[${c.join(', ')}]`, 'RGB components in 0..1');
    surface.color = c;
  }
  return surface;
}

/** solref, solimp and condim into the shape; `contact: {stiffness, damping}` returned, to become a
 *  direct solref once the link's mass is known. */
function readShapeContact(
  ctx: Ctx,
  m: Map<string, Entry>,
  subject: string,
  link: string | null,
  shape: ShapeDraft['shape'],
): PhysicalContact | undefined {
  if (m.has('solref') && m.has('contact'))
    ctx.fail(
      m.get('contact')?.keyNode,
      subject,
      'both `solref` and `contact`',
      "either `solref` (MuJoCo's form) or `contact: {stiffness, damping}` (N/m, N·s/m), not both",
    );
  if (m.has('solref')) shape.solref = readSolref(ctx, m.get('solref')?.value, `${subject}.solref`);
  if (m.has('solimp')) shape.solimp = readSolimp(ctx, m.get('solimp')?.value, `${subject}.solimp`);
  if (m.has('condim')) shape.condim = readCondim(ctx, m.get('condim')?.value, `${subject}.condim`);
  if (!m.has('contact')) return undefined;
  const cE = m.get('contact') as Entry;
  if (link === null)
    ctx.fail(
      cE.keyNode,
      subject,
      "`contact: {stiffness, damping}` on a static (world) shape, which has no mass to turn N/m into MuJoCo's units",
      'a `solref` on static shapes (the direct form [−k/m, −c/m] for a body of mass m)',
    );
  return readPhysicalContact(ctx, cE.value, `${subject}.contact`);
}

/** Most points a convex shape may list (its support function visits every one). */
export const CONVEX_MAX_POINTS = 10000;

/** A convex shape's `vertices`: [[x, y, z], ...] in the shape frame, at least 4 points spanning a volume
 *  (the shape is their convex hull). */
function readConvexVertices(ctx: Ctx, m: Map<string, Entry>, node: YNode, subject: string): number[] {
  const e = m.get('vertices');
  if (!e)
    ctx.fail(node, subject, 'no `vertices` key', 'a required `vertices`: [[x, y, z], ...], the points whose convex hull is the shape');
  if (!isSeq(e.value) || e.value.items.length < 4 || e.value.items.length > CONVEX_MAX_POINTS)
    ctx.fail(e.value, `${subject}.vertices`, describe(e.value), `a list of 4 to ${CONVEX_MAX_POINTS} points [x, y, z]`);
  const pts = e.value.items.map((it, i) => readVec(ctx, it as YNode, `${subject}.vertices[${i}]`, 3));
  if (!spansVolume(pts))
    ctx.fail(
      e.value,
      `${subject}.vertices`,
      'points that lie in one plane',
      'points whose convex hull has a volume (not all in one plane)',
    );
  return pts.flat();
}

/** Whether the points span 3-D: a tetrahedron of them has a volume above 1e-12 of their extent cubed. */
function spansVolume(p: number[][]): boolean {
  const d = (a: number[], b: number[]) => [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const far = (from: number[], score: (q: number[]) => number) => p.reduce((best, q) => (score(q) > score(best) ? q : best), from);
  const a = p[0];
  const b = far(a, (q) => norm3(d(a, q) as Vec3));
  const ab = d(a, b);
  const L = norm3(ab as Vec3);
  if (!(L > 0)) return false;
  const cross = (u: number[], v: number[]) => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const c = far(a, (q) => norm3(cross(ab, d(a, q)) as Vec3));
  const n = cross(ab, d(a, c));
  const dist = (q: number[]) => Math.abs(n[0] * (q[0] - a[0]) + n[1] * (q[1] - a[1]) + n[2] * (q[2] - a[2]));
  return dist(far(a, dist)) > 1e-12 * L ** 3;
}

/** The unit quaternion of the shortest rotation taking +z to the unit vector d. */
export function quatFromZ(d: Vec3): Quat {
  // q = normalise([1 + z·d, z × d]); antiparallel: a half turn about x.
  const w = 1 + d[2];
  if (w < 1e-12) return [0, 1, 0, 0];
  const q: Quat = [w, -d[1], d[0], 0];
  const n = Math.hypot(...q);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** Resolves link names to body indices and gives unnamed shapes `<link>/<kind><k>` names. */
export function resolveShapes(drafts: ShapeDraft[], bodies: BodyDesc[]): ShapeDesc[] {
  const index = new Map(bodies.map((b, i) => [b.name, i]));
  const names = bodies.map((b) => b.name);
  const perOwner = new Map<string, number>();
  const seen = new Map<string, ShapeDraft>();
  return drafts.map((d) => {
    let body = -1;
    if (d.link !== null) {
      const i = index.get(d.link);
      if (i === undefined)
        throw d.ctx.error(
          d.linkNode,
          `${d.subject}.link`,
          `\`${d.link}\`, which is not a link of this scene`,
          'the name of a link, or `world` for static geometry',
          didYouMean(d.link, names),
        );
      body = i;
    }
    const owner = d.link ?? 'world';
    const k = perOwner.get(owner) ?? 0;
    perOwner.set(owner, k + 1);
    const { name: given, ...rest } = d.shape;
    const name = given ?? `${owner}/${d.shape.kind}${k}`;
    const prev = seen.get(name);
    if (prev) {
      const at = prev.shape.source
        ? `${printable(prev.shape.source.file)}:${prev.shape.source.line}:${prev.shape.source.column}`
        : 'earlier';
      d.ctx.fail(d.node, d.subject, `the shape name \`${name}\` again (first used at ${at})`, 'shape names unique in the scene');
    }
    seen.set(name, d);
    if (d.physical) {
      const mass = bodies[body].mass;
      if (!(mass > 0))
        d.ctx.fail(
          d.physical.node,
          d.physical.subject,
          `a physical stiffness on the massless link \`${d.link}\``,
          "a link with mass > 0 (the mapping to MuJoCo's solref divides by the link's mass), or a `solref`",
        );
      rest.solref = physicalSolref(d.physical.stiffness, d.physical.damping, mass);
    }
    return { name, body, ...rest };
  });
}

/** `exclude: [[linkA, linkB], ...]` → body index pairs (-1 = world). */
export function readExcludes(ctx: Ctx, node: YNode, bodies: BodyDesc[]): [number, number][] {
  if (!isSeq(node)) ctx.fail(node, 'exclude', describe(node), 'a list of link-name pairs, e.g. [[upper, lower]]');
  const index = new Map(bodies.map((b, i) => [b.name, i]));
  const names = ['world', ...bodies.map((b) => b.name)];
  return node.items.map((pn, i) => {
    const s = `exclude[${i}]`;
    if (!isSeq(pn) || pn.items.length !== 2) ctx.fail(pn as YNode, s, describe(pn as YNode), 'a pair of link names [a, b]');
    const pair = pn.items.map((n, k) => {
      const name = readString(ctx, n as YNode, `${s}[${k}]`);
      if (name === 'world') return -1;
      const b = index.get(name);
      if (b === undefined)
        throw ctx.error(
          n as YNode,
          `${s}[${k}]`,
          `\`${name}\`, which is not a link of this scene`,
          'the name of a link or `world`',
          didYouMean(name, names),
        );
      return b;
    }) as [number, number];
    if (pair[0] === pair[1])
      ctx.fail(pn, s, `the link \`${names[pair[0] + 1]}\` paired with itself`, "two different links (a link's own shapes never collide)");
    return pair;
  });
}
