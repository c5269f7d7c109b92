// The native collision room: closed-form contacts for every kind pair through the standalone
// narrow phase, MuJoCo's filtering rules, and the batch's contact fields (bit-identical across
// lane widths, batch sizes and threads).
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import type { BodyDesc, ModelDesc, Quat, ShapeDesc, Vec3 } from '../src/engine/model-desc.js';
import { engineAddon, type PairContacts, type PairQuery, type ShapeQuery } from '../src/engine/native.js';
import { rng } from './helpers/engine.js';

const addon = engineAddon();
const I: Quat = [1, 0, 0, 0];
const shape = (kind: ShapeQuery['kind'], h: Vec3 = [0, 0, 0], r = 0): ShapeQuery => ({ kind, halfExtents: h, radius: r });
const pose = (pos: Vec3, quat: Quat = I) => ({ pos, quat });
const axisAngle = (ax: Vec3, ang: number): Quat => {
  const n = Math.hypot(...ax);
  const s = Math.sin(ang / 2) / n;
  return [Math.cos(ang / 2), ax[0] * s, ax[1] * s, ax[2] * s];
};
function one(p: PairQuery, precision: 'f32' | 'f64' = 'f64'): PairContacts {
  return addon.collideShapePairs([p], { precision })[0];
}
const close = (a: number, b: number, tol = 1e-12) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);
const closeV = (a: number[], b: number[], tol = 1e-12) => a.forEach((x, k) => close(x, b[k], tol));

describe('narrow phase: closed forms (f64 to 1e-12)', () => {
  it('sphere–sphere: distance of centres minus radii, point midway between surfaces', () => {
    const c = one({ a: shape('sphere', [0, 0, 0], 0.5), b: shape('sphere', [0, 0, 0], 0.25), poseA: pose([0, 0, 0]), poseB: pose([0.7, 0, 0]), margin: 0 });
    expect(c.count).toBe(1);
    close(c.dists[0], -0.05);
    closeV(c.normal, [1, 0, 0]);
    closeV(c.points[0], [0.475, 0, 0]);
  });
  it('sphere–capsule: point to segment', () => {
    const c = one({ a: shape('sphere', [0, 0, 0], 0.2), b: shape('capsule', [0, 0, 0.5], 0.1), poseA: pose([0.25, 0, 0.6]), poseB: pose([0, 0, 0]), margin: 0 });
    expect(c.count).toBe(1);
    close(c.dists[0], Math.hypot(0.25, 0.1) - 0.3);
    closeV(c.normal, [-0.25 / Math.hypot(0.25, 0.1), 0, -0.1 / Math.hypot(0.25, 0.1)]);
  });
  it('capsule–capsule, parallel: two points at the ends of the overlap', () => {
    const c = one({ a: shape('capsule', [0, 0, 0.5], 0.1), b: shape('capsule', [0, 0, 0.5], 0.1), poseA: pose([0, 0, 0]), poseB: pose([0.15, 0, 0.2]), margin: 0 });
    expect(c.count).toBe(2);
    c.dists.forEach((d) => close(d, -0.05));
    closeV(c.normal, [1, 0, 0]);
    expect(c.points.map((p) => p[2]).sort((x, y) => x - y)).toEqual([-0.3, 0.5].map((z) => expect.closeTo(z, 12)));
  });
  it('capsule–capsule, crossed: one point, normal perpendicular to both', () => {
    const c = one({ a: shape('capsule', [0, 0, 0.5], 0.1), b: shape('capsule', [0, 0, 0.5], 0.1), poseA: pose([0, 0, 0]), poseB: pose([0.15, 0, 0.1], axisAngle([1, 0, 0], Math.PI / 2)), margin: 0 });
    expect(c.count).toBe(1);
    close(c.dists[0], -0.05);
    closeV(c.normal, [1, 0, 0]);
  });
  it('box resting on a plane: 4 points, normal from box to plane', () => {
    const c = one({ a: shape('box', [0.5, 0.4, 0.3]), b: shape('plane'), poseA: pose([1, 2, 0.29]), poseB: pose([0, 0, 0]), margin: 0 });
    expect(c.count).toBe(4);
    closeV(c.normal, [0, 0, -1]);
    c.dists.forEach((d) => close(d, -0.01));
  });
  it('box face on box face: 4 points on the overlap rectangle', () => {
    const c = one({ a: shape('box', [0.5, 0.5, 0.5]), b: shape('box', [0.5, 0.5, 0.5]), poseA: pose([0, 0, 0]), poseB: pose([0.2, 0.1, 0.99]), margin: 0 });
    expect(c.count).toBe(4);
    closeV(c.normal, [0, 0, 1]);
    c.dists.forEach((d) => close(d, -0.01));
    const xs = c.points.map((p) => p[0]).sort((a, b) => a - b);
    const ys = c.points.map((p) => p[1]).sort((a, b) => a - b);
    closeV(xs, [-0.3, -0.3, 0.5, 0.5]);
    closeV(ys, [-0.4, -0.4, 0.5, 0.5]);
  });
  it('box edge on box edge (crossed at 90°): one point, MuJoCo closed form', () => {
    // B rotated 45° about x then lowered so its edge crosses A's top edge rotated 45° about y
    const a = shape('box', [0.5, 0.5, 0.5]);
    const qa = axisAngle([0, 1, 0], Math.PI / 4);
    const qb = axisAngle([1, 0, 0], Math.PI / 4);
    const gap = 0.02; // edges' centres 2·0.5·√2 − 0.02 apart
    const c = one({ a, b: a, poseA: pose([0, 0, 0], qa), poseB: pose([0, 0, Math.SQRT2 - gap], qb), margin: 0 });
    expect(c.count).toBe(1);
    close(c.dists[0], -gap);
    closeV(c.normal, [0, 0, 1]);
  });
  it('separated boxes: the true closest-feature distance, not the separating-axis bound', () => {
    const c = one({ a: shape('box', [0.5, 0.5, 0.5]), b: shape('box', [0.5, 0.5, 0.5]), poseA: pose([0, 0, 0]), poseB: pose([1.2, 1.2, 1.2]), margin: 1 });
    expect(c.count).toBe(1);
    close(c.dists[0], 0.2 * Math.sqrt(3));
  });
  it('rounded boxes with separated cores but overlapping surfaces', () => {
    const c = one({ a: shape('rounded-box', [0.5, 0.5, 0.5], 0.1), b: shape('rounded-box', [0.5, 0.5, 0.5], 0.1), poseA: pose([0, 0, 0]), poseB: pose([1.05, 1.05, 0]), margin: 0 });
    expect(c.count).toBe(1);
    close(c.dists[0], Math.SQRT2 * 0.05 - 0.2);
  });
  it('capsule lying on a box: 2 points', () => {
    const c = one({ a: shape('capsule', [0, 0, 0.5], 0.1), b: shape('box', [0.5, 0.5, 0.5]), poseA: pose([0, 0, 0.55], axisAngle([1, 0, 0], Math.PI / 2)), poseB: pose([0, 0, 0]), margin: 0 });
    expect(c.count).toBe(2);
    c.dists.forEach((d) => close(d, -0.05));
  });
  it('sphere on a box edge and deep inside a box', () => {
    const e = one({ a: shape('sphere', [0, 0, 0], 0.25), b: shape('box', [0.5, 0.5, 0.5]), poseA: pose([0.6, 0.6, 0]), poseB: pose([0, 0, 0]), margin: 0 });
    close(e.dists[0], Math.hypot(0.1, 0.1) - 0.25);
    const d = one({ a: shape('sphere', [0, 0, 0], 0.1), b: shape('box', [0.5, 0.5, 0.5]), poseA: pose([0.1, 0.3, 0]), poseB: pose([0, 0, 0]), margin: 0 });
    close(d.dists[0], -0.2 - 0.1);
    closeV(d.normal, [0, -1, 0]); // from the sphere to the box: the box pushes it out through +y
  });
  it('deep penetration of two boxes: depth of the least-overlap axis', () => {
    const c = one({ a: shape('box', [0.5, 0.5, 0.5]), b: shape('box', [0.3, 0.3, 0.3]), poseA: pose([0, 0, 0]), poseB: pose([0.1, 0, 0.05]), margin: 0 });
    close(c.dists[0], -(0.5 + 0.3 - 0.1));
  });
  it('contacts within the margin are reported before touching; plane may be b or a', () => {
    const p = { a: shape('plane'), b: shape('sphere', [0, 0, 0], 0.1), poseA: pose([0, 0, 0]), poseB: pose([0, 0, 0.15]), margin: 0.06 };
    const c = one(p);
    expect(c.count).toBe(1);
    close(c.dists[0], 0.05);
    expect(one({ ...p, margin: 0.04 }).count).toBe(0);
    const s = one({ a: p.b, b: p.a, poseA: p.poseB, poseB: p.poseA, margin: 0.06 });
    closeV(s.normal, [0, 0, -1]);
    close(s.dists[0], 0.05);
  });
});

// ---- models -------------------------------------------------------------------------------

const body = (name: string, parent: number, joint: BodyDesc['joint'], pos: Vec3, q0: number[], nv: number): BodyDesc => ({
  name, parent, pos, quat: I, joint, axis: joint === 'revolute' ? [0, 1, 0] : [0, 0, 1], mass: 1, com: [0, 0, 0],
  inertia: [0.01, 0.01, 0.01, 0, 0, 0], q0, v0: new Array(nv).fill(0), tau: new Array(nv).fill(0),
});
const shapeDesc = (name: string, b: number, kind: ShapeDesc['kind'], h: Vec3, r: number, pos: Vec3 = [0, 0, 0], quat: Quat = I, extra: Partial<ShapeDesc> = {}): ShapeDesc => ({
  name, body: b, kind, halfExtents: h, radius: r, pos, quat, friction: 1, contype: 1, conaffinity: 1, margin: 0, gap: 0, ...extra,
});
const world = { gravity: [0, 0, -9.81] as Vec3, dt: 0.002, integrator: 'euler' as const, duration: 1, substeps: 1 };

/** Ground; a free box dropping on it; a two-link arm hinged to the world with capsules and a
 *  sphere; a welded (fixed) box on the arm's first link. */
function scene(): ModelDesc {
  const bodies = [
    body('box', -1, 'free', [0, 0, 0], [0.3, 0.1, 0.19, 1, 0, 0, 0], 6),
    body('upper', -1, 'revolute', [0, 0, 1], [0.3], 1),
    body('lower', 1, 'revolute', [0, 0, -0.5], [-0.6], 1),
    body('bracket', 1, 'fixed', [0.1, 0, -0.2], [], 0),
  ];
  const shapes = [
    shapeDesc('ground', -1, 'plane', [0, 0, 0], 0),
    shapeDesc('box', 0, 'rounded-box', [0.15, 0.1, 0.15], 0.05, [0, 0, 0], I, { margin: 0.01 }),
    shapeDesc('upper', 1, 'capsule', [0, 0, 0.25], 0.05, [0, 0, -0.25]),
    shapeDesc('lower', 2, 'capsule', [0, 0, 0.25], 0.05, [0, 0, -0.25]),
    shapeDesc('hand', 2, 'sphere', [0, 0, 0], 0.12, [0, 0, -0.55]),
    shapeDesc('bracket', 3, 'box', [0.05, 0.05, 0.05], 0, [0, 0, 0], I, { gap: 0.02 }),
  ];
  return { name: 'collision-scene', bodies, world, files: [], shapes, excludes: [] };
}

describe('filtering (MuJoCo rules, at load)', () => {
  const pairsOf = (m: ModelDesc) => new Batch(m, { copies: 1, lanes: 1, precision: 'f64' }).pairs.map((p) => `${m.shapes![p.a].name}-${m.shapes![p.b].name}`);
  it('drops same-weld-body and parent–child pairs, keeps world geometry against links hinged to the world', () => {
    expect(pairsOf(scene())).toEqual([
      'ground-box', 'ground-upper', 'ground-lower', 'ground-hand', 'ground-bracket',
      'box-upper', 'box-lower', 'box-hand', 'box-bracket',
      // upper–lower, upper–hand: parent–child; upper–bracket: one weld body; lower–bracket, hand–bracket: bracket welds to upper = lower's parent
    ]);
  });
  it('contype/conaffinity and excludes', () => {
    const m = scene();
    m.shapes![1] = { ...m.shapes![1], contype: 2, conaffinity: 2 }; // the box now touches nothing of type 1
    m.excludes = [[-1, 2]]; // world vs lower
    expect(pairsOf(m)).toEqual(['ground-upper', 'ground-bracket']); // lower and hand (both on body 2) excluded from the world
  });
  it('refuses a plane on a moving link and negative sizes, naming the shape', () => {
    const m = scene();
    m.shapes!.push(shapeDesc('tray', 2, 'plane', [0, 0, 0], 0));
    expect(() => new Batch(m, { copies: 1, lanes: 1 })).toThrow(/shape 'tray': a plane must be static/);
    const n = scene();
    n.shapes![2] = { ...n.shapes![2], radius: -1 };
    expect(() => new Batch(n, { copies: 1, lanes: 1 })).toThrow(/shape 'upper': radius must be finite and >= 0/);
  });
});
