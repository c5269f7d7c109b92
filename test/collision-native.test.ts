// The native collision room: closed-form contacts for every kind pair through the standalone
// narrow phase, MuJoCo's filtering rules, and the batch's contact fields (bit-identical across
// lane widths, batch sizes and threads).
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import type { ModelDesc, Quat, ShapeDesc, Vec3 } from '../src/engine/model-desc.js';
import { bugAddon, engineAddon, type PairContacts, type PairQuery, type ShapeQuery } from '../src/engine/native.js';
import { collisionScene as scene, shapeDesc } from './helpers/collision-scene.js';
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
    const c = one({
      a: shape('sphere', [0, 0, 0], 0.5),
      b: shape('sphere', [0, 0, 0], 0.25),
      poseA: pose([0, 0, 0]),
      poseB: pose([0.7, 0, 0]),
      margin: 0,
    });
    expect(c.count).toBe(1);
    close(c.dists[0], -0.05);
    closeV(c.normal, [1, 0, 0]);
    closeV(c.points[0], [0.475, 0, 0]);
  });
  it('sphere–capsule: point to segment', () => {
    const c = one({
      a: shape('sphere', [0, 0, 0], 0.2),
      b: shape('capsule', [0, 0, 0.5], 0.1),
      poseA: pose([0.25, 0, 0.6]),
      poseB: pose([0, 0, 0]),
      margin: 0,
    });
    expect(c.count).toBe(1);
    close(c.dists[0], Math.hypot(0.25, 0.1) - 0.3);
    closeV(c.normal, [-0.25 / Math.hypot(0.25, 0.1), 0, -0.1 / Math.hypot(0.25, 0.1)]);
  });
  it('capsule–capsule, parallel: two points at the ends of the overlap', () => {
    const c = one({
      a: shape('capsule', [0, 0, 0.5], 0.1),
      b: shape('capsule', [0, 0, 0.5], 0.1),
      poseA: pose([0, 0, 0]),
      poseB: pose([0.15, 0, 0.2]),
      margin: 0,
    });
    expect(c.count).toBe(2);
    c.dists.forEach((d) => close(d, -0.05));
    closeV(c.normal, [1, 0, 0]);
    expect(c.points.map((p) => p[2]).sort((x, y) => x - y)).toEqual([-0.3, 0.5].map((z) => expect.closeTo(z, 12)));
  });
  it('capsule–capsule, crossed: one point, normal perpendicular to both', () => {
    const c = one({
      a: shape('capsule', [0, 0, 0.5], 0.1),
      b: shape('capsule', [0, 0, 0.5], 0.1),
      poseA: pose([0, 0, 0]),
      poseB: pose([0.15, 0, 0.1], axisAngle([1, 0, 0], Math.PI / 2)),
      margin: 0,
    });
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
    const c = one({
      a: shape('box', [0.5, 0.5, 0.5]),
      b: shape('box', [0.5, 0.5, 0.5]),
      poseA: pose([0, 0, 0]),
      poseB: pose([0.2, 0.1, 0.99]),
      margin: 0,
    });
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
    const c = one({
      a: shape('box', [0.5, 0.5, 0.5]),
      b: shape('box', [0.5, 0.5, 0.5]),
      poseA: pose([0, 0, 0]),
      poseB: pose([1.2, 1.2, 1.2]),
      margin: 1,
    });
    expect(c.count).toBe(1);
    close(c.dists[0], 0.2 * Math.sqrt(3));
  });
  it('rounded boxes with separated cores but overlapping surfaces', () => {
    const c = one({
      a: shape('rounded-box', [0.5, 0.5, 0.5], 0.1),
      b: shape('rounded-box', [0.5, 0.5, 0.5], 0.1),
      poseA: pose([0, 0, 0]),
      poseB: pose([1.05, 1.05, 0]),
      margin: 0,
    });
    expect(c.count).toBe(1);
    close(c.dists[0], Math.SQRT2 * 0.05 - 0.2);
  });
  it('capsule lying on a box: 2 points', () => {
    const c = one({
      a: shape('capsule', [0, 0, 0.5], 0.1),
      b: shape('box', [0.5, 0.5, 0.5]),
      poseA: pose([0, 0, 0.55], axisAngle([1, 0, 0], Math.PI / 2)),
      poseB: pose([0, 0, 0]),
      margin: 0,
    });
    expect(c.count).toBe(2);
    c.dists.forEach((d) => close(d, -0.05));
  });
  it('sphere on a box edge and deep inside a box', () => {
    const e = one({
      a: shape('sphere', [0, 0, 0], 0.25),
      b: shape('box', [0.5, 0.5, 0.5]),
      poseA: pose([0.6, 0.6, 0]),
      poseB: pose([0, 0, 0]),
      margin: 0,
    });
    close(e.dists[0], Math.hypot(0.1, 0.1) - 0.25);
    const d = one({
      a: shape('sphere', [0, 0, 0], 0.1),
      b: shape('box', [0.5, 0.5, 0.5]),
      poseA: pose([0.1, 0.3, 0]),
      poseB: pose([0, 0, 0]),
      margin: 0,
    });
    close(d.dists[0], -0.2 - 0.1);
    closeV(d.normal, [0, -1, 0]); // from the sphere to the box: the box pushes it out through +y
  });
  it('deep penetration of two boxes: depth of the least-overlap axis', () => {
    const c = one({
      a: shape('box', [0.5, 0.5, 0.5]),
      b: shape('box', [0.3, 0.3, 0.3]),
      poseA: pose([0, 0, 0]),
      poseB: pose([0.1, 0, 0.05]),
      margin: 0,
    });
    close(c.dists[0], -(0.5 + 0.3 - 0.1));
  });
  it('capsule lying on a plane: 2 points; rounded box on a plane: 4 points at its core corners', () => {
    const c = one({
      a: shape('plane'),
      b: shape('capsule', [0, 0, 0.4], 0.1),
      poseA: pose([0, 0, 0]),
      poseB: pose([0, 0, 0.08], axisAngle([0, 1, 0], Math.PI / 2)),
      margin: 0,
    });
    expect(c.count).toBe(2);
    c.dists.forEach((d) => close(d, -0.02));
    closeV(
      c.points.map((p) => Math.abs(p[0])),
      [0.4, 0.4],
    );
    c.points.forEach((p) => close(p[2], -0.01));
    const r = one({
      a: shape('rounded-box', [0.3, 0.2, 0.1], 0.05),
      b: shape('plane'),
      poseA: pose([0, 0, 0.14]),
      poseB: pose([0, 0, 0]),
      margin: 0,
    });
    expect(r.count).toBe(4);
    r.dists.forEach((d) => close(d, -0.01));
    closeV(r.normal, [0, 0, -1]);
  });
  it('sphere against a rounded box face and capsule end against a rounded box', () => {
    const s = one({
      a: shape('rounded-box', [0.3, 0.3, 0.3], 0.1),
      b: shape('sphere', [0, 0, 0], 0.2),
      poseA: pose([0, 0, 0]),
      poseB: pose([0.1, 0, 0.55]),
      margin: 0,
    });
    close(s.dists[0], 0.55 - 0.3 - 0.1 - 0.2);
    closeV(s.normal, [0, 0, 1]);
    const c = one({
      a: shape('capsule', [0, 0, 0.25], 0.05),
      b: shape('rounded-box', [0.3, 0.3, 0.3], 0.1),
      poseA: pose([0, 0, 0.67]),
      poseB: pose([0, 0, 0]),
      margin: 0,
    });
    expect(c.count).toBe(1);
    close(c.dists[0], 0.67 - 0.25 - 0.3 - 0.05 - 0.1);
    closeV(c.normal, [0, 0, -1]);
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

describe('filtering (MuJoCo rules, asked by the broad phase)', () => {
  const pairsOf = (m: ModelDesc) =>
    new Batch(m, { copies: 1, lanes: 1, precision: 'f64' }).pairs.map((p) => `${m.shapes![p.a].name}-${m.shapes![p.b].name}`);
  it('drops same-weld-body and parent–child pairs, keeps world geometry against links hinged to the world', () => {
    expect(pairsOf(scene())).toEqual([
      'ground-box',
      'ground-upper',
      'ground-lower',
      'ground-hand',
      'ground-bracket',
      'box-upper',
      'box-lower',
      'box-hand',
      'box-bracket',
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

// ---- exactness on random pairs ------------------------------------------------------------
//
// For convex A, B: sd(A, B) = max over unit n of s(n), s(n) = −h_A(n) − h_B(−n), with the support
// function of a sphere-swept box h(n) = n·p + Σ_k h_k |n·a_k| + r. So (1) the reported normal must
// attain the reported distance, s(n) = dist, and (2) no direction may do better: a dense search of
// s over the sphere (samples, then a shrinking local search) stays ≤ dist. (1) and (2) together pin
// dist to the exact signed distance, by a method that shares nothing with the engine's.

type Geo = { h: Vec3; r: number; p: Vec3; R: number[] };
const quatToR = (q: Quat) => {
  const [w, x, y, z] = q;
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - w * z),
    2 * (x * z + w * y),
    2 * (x * y + w * z),
    1 - 2 * (x * x + z * z),
    2 * (y * z - w * x),
    2 * (x * z - w * y),
    2 * (y * z + w * x),
    1 - 2 * (x * x + y * y),
  ];
};
const support = (g: Geo, n: number[]) => {
  let s = n[0] * g.p[0] + n[1] * g.p[1] + n[2] * g.p[2] + g.r;
  for (let k = 0; k < 3; k++) s += g.h[k] * Math.abs(n[0] * g.R[k] + n[1] * g.R[3 + k] + n[2] * g.R[6 + k]);
  return s;
};
const sep = (A: Geo, B: Geo, n: number[]) =>
  -support(A, n) -
  support(
    B,
    n.map((x) => -x),
  );
function bestSeparation(A: Geo, B: Geo, rand: () => number): number {
  let best = -Infinity;
  let bn = [0, 0, 1];
  const unit = (v: number[]) => {
    const l = Math.hypot(v[0], v[1], v[2]);
    return v.map((x) => x / l);
  };
  for (let i = 0; i < 800; i++) {
    const n = unit([rand() - 0.5, rand() - 0.5, rand() - 0.5]);
    const s = sep(A, B, n);
    if (s > best) {
      best = s;
      bn = n;
    }
  }
  for (let step = 0.1; step > 1e-13; step *= 0.7) {
    for (let it = 0; it < 12; it++) {
      const n = unit([bn[0] + step * (rand() - 0.5), bn[1] + step * (rand() - 0.5), bn[2] + step * (rand() - 0.5)]);
      const s = sep(A, B, n);
      if (s > best) {
        best = s;
        bn = n;
      }
    }
  }
  return best;
}
const randQuat = (rand: () => number): Quat => {
  const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
  const l = Math.hypot(...q);
  return q.map((x) => x / l) as Quat;
};
function randomShape(kind: ShapeQuery['kind'], rand: () => number): ShapeQuery {
  const u = () => 0.1 + 0.9 * rand();
  switch (kind) {
    case 'sphere':
      return shape('sphere', [0, 0, 0], u());
    case 'capsule':
      return shape('capsule', [0, 0, u()], 0.5 * u());
    case 'box':
      return shape('box', [u(), u(), u()], 0);
    default:
      return shape('rounded-box', [u(), u(), u()], 0.3 * u());
  }
}

describe('narrow phase: exact signed distance on random pairs (support-function reference)', () => {
  const kinds: ShapeQuery['kind'][] = ['sphere', 'capsule', 'box', 'rounded-box'];
  for (const ka of kinds)
    for (const kb of kinds) {
      it(`${ka}–${kb}`, () => {
        const rand = rng(1000 + kinds.indexOf(ka) * 7 + kinds.indexOf(kb));
        let worst = 0;
        for (let t = 0; t < Number(process.env.COLLISION_PAIRS ?? 25); t++) {
          const a = randomShape(ka, rand);
          const b = randomShape(kb, rand);
          const qa = randQuat(rand);
          const qb = randQuat(rand);
          const dir = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
          const dl = Math.hypot(...dir);
          const reach = 0.5 + rand() * 2;
          const pb: Vec3 = [(dir[0] / dl) * reach, (dir[1] / dl) * reach, (dir[2] / dl) * reach];
          const A: Geo = { h: a.halfExtents, r: a.radius, p: [0, 0, 0], R: quatToR(qa) };
          const B: Geo = { h: b.halfExtents, r: b.radius, p: pb, R: quatToR(qb) };
          const c = one({ a, b, poseA: pose([0, 0, 0], qa), poseB: pose(pb, qb), margin: 1e9 });
          expect(c.count).toBeGreaterThanOrEqual(1);
          const d = c.dists[0];
          const size = Math.max(...a.halfExtents, ...b.halfExtents, a.radius, b.radius);
          // (1) the normal attains the distance; (2) no direction separates more
          const attained = Math.abs(sep(A, B, c.normal) - d) / size;
          const beaten = Math.max(0, bestSeparation(A, B, rand) - d) / size;
          worst = Math.max(worst, attained, beaten);
          expect(attained, `pair ${t}: s(normal) ${sep(A, B, c.normal)} vs dist ${d}`).toBeLessThan(1e-12);
          expect(beaten, `pair ${t}: a direction separates by ${bestSeparation(A, B, rand)} > dist ${d}`).toBeLessThan(1e-12);
          for (const k of c.dists.keys()) expect(c.dists[k]).toBeGreaterThanOrEqual(d - 1e-12 * size); // point 0 is the deepest
        }
        expect(worst).toBeLessThan(1e-12);
      });
    }
});

describe('batch collide(): the contact list', () => {
  /** Random states (the free box near the ground, the arm swinging) for `copies` robots. */
  function randomStates(copies: number, seed: number): number[][] {
    const rand = rng(seed);
    const qs: number[][] = [];
    for (let r = 0; r < copies; r++) {
      const q = randQuat(rand);
      qs.push([rand() - 0.5, rand() - 0.5, 0.05 + 0.3 * rand(), ...q, 3 * (rand() - 0.5), 3 * (rand() - 0.5)]);
    }
    return qs;
  }
  function contacts(precision: 'f32' | 'f64', lanes: 1 | 4 | 8, copies: number, threads: number) {
    const b = new Batch(scene(), { copies, lanes, precision, threads });
    randomStates(copies, 7).forEach((q, r) => b.setRobot(r, { q }));
    b.collide();
    const per = Array.from({ length: copies }, (_, r) => b.contacts(r));
    const list = (f: 'shapeA' | 'shapeB' | 'point' | 'dist' | 'pos' | 'normal') => per.map((c) => Array.from(c[f]));
    return {
      per,
      shapeA: list('shapeA'),
      shapeB: list('shapeB'),
      point: list('point'),
      dist: list('dist'),
      pos: list('pos'),
      normal: list('normal'),
    };
  }
  it('bit-identical across lane widths, batch sizes and threads (every width this CPU runs)', () => {
    const widest = addon.cpuInfo().widestLanes;
    for (const precision of ['f32', 'f64'] as const) {
      const ref = contacts(precision, 1, 37, 1);
      const widths = ([1, 4, 8] as const).filter((w) => w <= widest && !(precision === 'f64' && w === 8 && widest < 16));
      for (const lanes of widths)
        for (const [copies, threads] of [
          [37, 1],
          [37, 2],
          [40, 3],
        ]) {
          const got = contacts(precision, lanes, copies, threads);
          for (const f of ['shapeA', 'shapeB', 'point', 'dist', 'pos', 'normal'] as const)
            expect(got[f].slice(0, 37), `${precision} lanes ${lanes} copies ${copies} threads ${threads}: ${f}`).toEqual(ref[f]);
        }
      const nActive = ref.dist.flat().length;
      expect(nActive).toBeGreaterThan(37); // the states do touch (the ground under box and arm)
    }
  });
  it('matches the standalone narrow phase robot by robot, and slots follow the rule', () => {
    const m = scene();
    const b = new Batch(m, { copies: 5, lanes: 1, precision: 'f64' });
    randomStates(5, 11).forEach((q, r) => b.setRobot(r, { q }));
    b.collide();
    const { pos: bodyPos, rot: bodyRot } = b.kinematics();
    for (let r = 0; r < 5; r++) {
      const worldPose = (s: ShapeDesc) => {
        if (s.body < 0) return pose(s.pos, s.quat);
        const R = Array.from({ length: 9 }, (_, k) => bodyRot[(s.body * 9 + k) * b.stride + r]);
        const p = [0, 1, 2].map((k) => bodyPos[(s.body * 3 + k) * b.stride + r]);
        const Rs = quatToR(s.quat);
        const Rw = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => R[i * 3] * Rs[j] + R[i * 3 + 1] * Rs[3 + j] + R[i * 3 + 2] * Rs[6 + j]));
        const pw = [0, 1, 2].map((i) => p[i] + R[i * 3] * s.pos[0] + R[i * 3 + 1] * s.pos[1] + R[i * 3 + 2] * s.pos[2]);
        // rotation matrix → quaternion (Shepperd), precise enough for a 1e-9 comparison
        const t = Rw[0] + Rw[4] + Rw[8];
        let q: number[];
        if (t > 0) {
          const S = Math.sqrt(t + 1) * 2;
          q = [0.25 * S, (Rw[7] - Rw[5]) / S, (Rw[2] - Rw[6]) / S, (Rw[3] - Rw[1]) / S];
        } else if (Rw[0] > Rw[4] && Rw[0] > Rw[8]) {
          const S = Math.sqrt(1 + Rw[0] - Rw[4] - Rw[8]) * 2;
          q = [(Rw[7] - Rw[5]) / S, 0.25 * S, (Rw[1] + Rw[3]) / S, (Rw[2] + Rw[6]) / S];
        } else if (Rw[4] > Rw[8]) {
          const S = Math.sqrt(1 + Rw[4] - Rw[0] - Rw[8]) * 2;
          q = [(Rw[2] - Rw[6]) / S, (Rw[1] + Rw[3]) / S, 0.25 * S, (Rw[5] + Rw[7]) / S];
        } else {
          const S = Math.sqrt(1 + Rw[8] - Rw[0] - Rw[4]) * 2;
          q = [(Rw[3] - Rw[1]) / S, (Rw[2] + Rw[6]) / S, (Rw[5] + Rw[7]) / S, 0.25 * S];
        }
        return pose(pw as Vec3, q as Quat);
      };
      const listed = b.contacts(r);
      b.pairs.forEach((pr, p) => {
        const sa = m.shapes![pr.a];
        const sb = m.shapes![pr.b];
        const c = one({
          a: shape(sa.kind, sa.halfExtents, sa.radius),
          b: shape(sb.kind, sb.halfExtents, sb.radius),
          poseA: worldPose(sa),
          poseB: worldPose(sb),
          margin: sa.margin + sb.margin + sa.gap + sb.gap,
        });
        const act = [...listed.dist.keys()].filter((k) => listed.shapeA[k] === pr.a && listed.shapeB[k] === pr.b);
        expect(act.length, `robot ${r} pair ${p}`).toBe(c.count);
        // same set of points (a rectangle's two off-diagonal corners tie, so the pose's last-bit
        // round trip through a quaternion may swap slots 2 and 3)
        const got = act.map((k) => listed.dist[k]).sort((x, y) => x - y);
        closeV(
          got,
          [...c.dists].sort((x, y) => x - y),
          1e-9,
        );
        if (c.count)
          closeV(
            [0, 1, 2].map((k) => listed.normal[3 * act[0] + k]),
            c.normal,
            1e-9,
          );
      });
    }
  });
});

describe('planted collision bugs (bug build) each change what the engine reports', () => {
  const bugs = bugAddon();
  const cases: Record<string, () => unknown> = {
    'collision-normal-flipped': () =>
      bugs.collideShapePairs([
        {
          a: shape('sphere', [0, 0, 0], 0.5),
          b: shape('sphere', [0, 0, 0], 0.5),
          poseA: pose([0, 0, 0]),
          poseB: pose([0.9, 0, 0]),
          margin: 0,
        },
      ])[0].normal,
    'collision-radius-dropped': () =>
      bugs.collideShapePairs([
        {
          a: shape('box', [0.5, 0.5, 0.5]),
          b: shape('rounded-box', [0.2, 0.2, 0.2], 0.1),
          poseA: pose([0, 0, 0]),
          poseB: pose([0, 0, 0.75]),
          margin: 0,
        },
      ])[0].dists,
    'collision-box-axis-swapped': () =>
      bugs.collideShapePairs([
        {
          a: shape('box', [0.5, 0.2, 0.3]),
          b: shape('sphere', [0, 0, 0], 0.1),
          poseA: pose([0, 0, 0]),
          poseB: pose([0.55, 0, 0]),
          margin: 0,
        },
      ])[0].dists,
    'collision-margin-ignored': () =>
      bugs.collideShapePairs([
        { a: shape('plane'), b: shape('sphere', [0, 0, 0], 0.1), poseA: pose([0, 0, 0]), poseB: pose([0, 0, 0.12]), margin: 0.05 },
      ])[0].count,
    // a small box (a: the reference face on ties) resting on a large one: the incident face overhangs
    'collision-manifold-clip': () =>
      bugs.collideShapePairs([
        { a: shape('box', [0.1, 0.1, 0.1]), b: shape('box', [1, 1, 0.1]), poseA: pose([0, 0, 0.19]), poseB: pose([0, 0, 0]), margin: 0 },
      ])[0].points,
    'collision-filtered-pair-kept': () => new Batch(scene(), { copies: 1, lanes: 1, precision: 'f64' }, bugs).pairs,
  };
  it('the bug build lists each of them', () => {
    for (const name of Object.keys(cases)) expect(bugs.plantedBugs!()).toContain(name);
  });
  for (const [name, run] of Object.entries(cases))
    it(name, () => {
      try {
        bugs.setBug!('none');
        const clean = run();
        bugs.setBug!(name);
        const planted = run();
        expect(planted).not.toEqual(clean);
      } finally {
        bugs.setBug!('none');
      }
    });
});

describe('C++ collision checks (native/tests/collision_tests.cpp)', () => {
  it('collide() allocates nothing; closed forms; f32 within float32 rounding of f64', async () => {
    const { execFileAsync } = await import('./helpers/spawn-async.js'); // awaited: the worker's loop keeps turning (issue 23)
    const { root } = await import('./helpers/engine.js');
    const out = await execFileAsync(`${root}/build/native/achilles_collision_tests`);
    expect(out).toMatch(/\b\d+ passed, 0 failed/);
  });
});

describe("MuJoCo's conventions (mj_collision on the same pairs)", () => {
  // Normal from a to b, dist per point, pos midway between the surfaces, the same points: checked on
  // pairs where MuJoCo's colliders are exact (its box pairs scatter elsewhere; the validate stage
  // measures that).
  const py = String.raw`
import mujoco, json, sys
out = []
for c in json.loads(sys.stdin.read()):
    def geom(s, pose, name):
        k, h, r = s['kind'], s['halfExtents'], s['radius']
        q = ' '.join(map(repr, pose['quat'])); p = ' '.join(map(repr, pose['pos']))
        t = {'sphere': f'type="sphere" size="{r}"', 'capsule': f'type="capsule" size="{r} {h[2]}"',
             'box': f'type="box" size="{h[0]} {h[1]} {h[2]}"', 'plane': 'type="plane" size="0 0 1"'}[k]
        g = f'<geom name="{name}" {t} pos="{p}" quat="{q}"/>'
        return (g, '') if k == 'plane' else ('', f'<body><freejoint/>{g}</body>')
    wa, ba = geom(c['a'], c['poseA'], 'a'); wb, bb = geom(c['b'], c['poseB'], 'b')
    m = mujoco.MjModel.from_xml_string(f'<mujoco><worldbody>{wa}{wb}{ba}{bb}</worldbody></mujoco>')
    d = mujoco.MjData(m); mujoco.mj_kinematics(m, d); mujoco.mj_collision(m, d)
    ga = m.geom('a').id
    out.append([{'dist': float(x.dist), 'pos': x.pos.tolist(), 'normal': (x.frame[:3] if x.geom[0] == ga else -x.frame[:3]).tolist()} for x in d.contact[:d.ncon]])
print(json.dumps(out))
`;
  it('sphere, capsule, box and plane pairs: same normal, distances and points as MuJoCo', async () => {
    const { spawnAsync } = await import('./helpers/spawn-async.js');
    const s = Math.SQRT1_2;
    const cases: PairQuery[] = [
      {
        a: shape('sphere', [0, 0, 0], 0.5),
        b: shape('sphere', [0, 0, 0], 0.25),
        poseA: pose([0, 0, 0]),
        poseB: pose([0.7, 0.1, 0]),
        margin: 0,
      },
      { a: shape('plane'), b: shape('sphere', [0, 0, 0], 0.25), poseA: pose([0, 0, 0]), poseB: pose([0, 0, 0.2]), margin: 0 },
      { a: shape('sphere', [0, 0, 0], 0.25), b: shape('plane'), poseA: pose([0, 0, 0.2]), poseB: pose([0, 0, 0]), margin: 0 },
      { a: shape('box', [0.5, 0.4, 0.3]), b: shape('plane'), poseA: pose([0, 0, 0.29]), poseB: pose([0, 0, 0]), margin: 0 },
      {
        a: shape('box', [0.5, 0.5, 0.5]),
        b: shape('box', [0.5, 0.5, 0.5]),
        poseA: pose([0, 0, 0]),
        poseB: pose([0.2, 0.1, 0.99]),
        margin: 0,
      },
      {
        a: shape('capsule', [0, 0, 0.5], 0.1),
        b: shape('box', [0.5, 0.5, 0.5]),
        poseA: pose([0, 0, 0.55], [s, s, 0, 0]),
        poseB: pose([0, 0, 0]),
        margin: 0,
      },
      {
        a: shape('sphere', [0, 0, 0], 0.25),
        b: shape('box', [0.5, 0.5, 0.5]),
        poseA: pose([0.6, 0.6, 0]),
        poseB: pose([0, 0, 0]),
        margin: 0,
      },
      {
        a: shape('capsule', [0, 0, 0.5], 0.1),
        b: shape('capsule', [0, 0, 0.5], 0.1),
        poseA: pose([0, 0, 0]),
        poseB: pose([0.15, 0, 0.2]),
        margin: 0,
      },
      {
        a: shape('box', [0.5, 0.5, 0.5]),
        b: shape('capsule', [0, 0, 0.5], 0.1),
        poseA: pose([0, 0, 0]),
        poseB: pose([0.3, 0, 0.55], [s, 0, s, 0]),
        margin: 0,
      },
    ];
    const r = await spawnAsync('python3', ['-c', py], { input: JSON.stringify(cases) });
    expect(r.stderr).toBe('');
    const mj = JSON.parse(r.stdout) as { dist: number; pos: number[]; normal: number[] }[][];
    const ours = addon.collideShapePairs(cases);
    const key = (p: number[]) => p.map((x) => x.toFixed(9)).join(',');
    cases.forEach((c, i) => {
      const what = `${c.a.kind}–${c.b.kind}`;
      expect(ours[i].count, what).toBe(mj[i].length);
      for (const m of mj[i]) closeV(ours[i].normal, m.normal, 1e-9);
      expect(ours[i].points.map(key).sort(), what).toEqual(mj[i].map((m) => key(m.pos)).sort());
      expect(ours[i].dists.map((d) => d.toFixed(9)).sort(), what).toEqual(mj[i].map((m) => m.dist.toFixed(9)).sort());
    });
  });
});

describe('narrow phase in f32: within float32 rounding of f64', () => {
  it('every kind pair, plane included: |d32 − d64| ≤ 8 float32 epsilons of the pair scale', () => {
    const kinds: ShapeQuery['kind'][] = ['sphere', 'capsule', 'box', 'rounded-box', 'plane'];
    const rand = rng(77);
    const eps32 = 2 ** -23;
    let worst = 0;
    for (const ka of kinds)
      for (const kb of kinds) {
        if (ka === 'plane' && kb === 'plane') continue;
        const pairs: PairQuery[] = [];
        for (let t = 0; t < 40; t++) {
          const a = ka === 'plane' ? shape('plane') : randomShape(ka, rand);
          const b = kb === 'plane' ? shape('plane') : randomShape(kb, rand);
          const dir = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
          const dl = Math.hypot(...dir);
          const reach = 0.3 + rand() * 1.5;
          pairs.push({
            a,
            b,
            poseA: pose([0, 0, 0], randQuat(rand)),
            poseB: pose([(dir[0] / dl) * reach, (dir[1] / dl) * reach, (dir[2] / dl) * reach], randQuat(rand)),
            margin: 1e9,
          });
        }
        const d64 = addon.collideShapePairs(pairs, { precision: 'f64' });
        const d32 = addon.collideShapePairs(pairs, { precision: 'f32' });
        pairs.forEach((p, i) => {
          const scale = Math.max(...p.a.halfExtents, ...p.b.halfExtents, p.a.radius, p.b.radius, ...p.poseB.pos.map(Math.abs));
          const err = Math.abs(d32[i].dists[0] - d64[i].dists[0]) / scale / eps32;
          worst = Math.max(worst, err);
          expect(err, `${ka}–${kb} pair ${i}`).toBeLessThanOrEqual(8);
        });
      }
    if (process.env.SHOW) console.log(`f32 worst: ${worst.toFixed(2)} float32 eps`);
    expect(worst).toBeGreaterThan(0); // f32 really ran in f32
  });
});

describe("collideShapePairs with MuJoCo's cylinder, ellipsoid and convex shapes", () => {
  const cube: ShapeQuery = {
    kind: 'convex',
    halfExtents: [0.3, 0.3, 0.3],
    radius: 0,
    vertices: [-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1, 1].map((x) => 0.3 * x),
    faces: [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5],
  };
  const cylinder: ShapeQuery = { kind: 'cylinder', halfExtents: [0.3, 0.3, 0.5], radius: 0, size: [0.3, 0.5, 0] };
  it('a cylinder tilted by θ above a plane: its rim point ρ sin θ + ℓ cos θ below the centre', () => {
    const th = 0.4;
    const c = one({
      a: shape('plane'),
      b: cylinder,
      poseA: pose([0, 0, 0]),
      poseB: pose([0, 0, 0.2], axisAngle([1, 0, 0], th)),
      margin: 0.01,
    });
    expect(c.count).toBeGreaterThan(0);
    close(Math.min(...c.dists), 0.2 - 0.3 * Math.sin(th) - 0.5 * Math.cos(th));
    expect(c.normals.length).toBe(c.count);
  });
  it('a sphere above a cube given as a hull: the distance to its top face (GJK, to its tolerance)', () => {
    const c = one({ a: cube, b: shape('sphere', [0, 0, 0], 0.1), poseA: pose([0, 0, 0]), poseB: pose([0.05, -0.02, 0.45]), margin: 0.1 });
    expect(c.count).toBe(1);
    close(c.dists[0], 0.05, 1e-6);
    closeV(c.normal, [0, 0, 1], 1e-6);
  });
  it('refuses what the batch refuses: a rounded box with a cylinder', () => {
    expect(() =>
      one({ a: shape('rounded-box', [0.1, 0.1, 0.1], 0.05), b: cylinder, poseA: pose([0, 0, 0]), poseB: pose([0, 0, 1]), margin: 0.1 }),
    ).toThrow(/rounded box/);
  });
});
