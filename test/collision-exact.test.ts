import { describe, expect, it } from 'vitest';
import { exactContact, separationAlong } from '../src/validation/collision/exact.js';
import {
  coreVertices,
  cross,
  dot,
  norm,
  rotation,
  sub,
  unit,
  type Pose,
  type ShapeGeom,
  type V3,
} from '../src/validation/collision/geometry.js';
import { pointSignedDistance } from '../src/validation/collision/signed-distance.js';
import { minNormPoint } from '../src/validation/collision/min-norm.js';
import { Rng } from '../src/validation/rng.js';
import { at, axisAngle, box, capsule, plane, rbox, sphere } from './helpers/collision-shapes.js';

/** Every exact answer must be self-consistent: witnesses on both surfaces, B's = A's + n·dist,
 *  and the separation along its normal equal to its distance. */
function consistent(a: ShapeGeom, Xa: Pose, b: ShapeGeom, Xb: Pose, tol = 1e-12) {
  const c = exactContact(a, Xa, b, Xb);
  expect(Math.abs(norm(c.normal) - 1)).toBeLessThan(tol);
  expect(Math.abs(pointSignedDistance(a, Xa, c.pointA))).toBeLessThan(tol);
  expect(Math.abs(pointSignedDistance(b, Xb, c.pointB))).toBeLessThan(tol);
  expect(
    norm(
      sub(
        sub(c.pointB, c.pointA),
        c.normal.map((x) => x * c.dist),
      ),
    ),
  ).toBeLessThan(tol);
  if (a.kind !== 'plane' && b.kind !== 'plane') expect(Math.abs(separationAlong(a, Xa, b, Xb, c.normal) - c.dist)).toBeLessThan(tol);
  return c;
}

/** Box–box penetration by the 15 separating axes (an independent second method, valid when the
 *  boxes overlap: then the largest separation over the axes is the exact signed distance). */
function satDepth(ha: V3, Xa: Pose, hb: V3, Xb: Pose): number {
  const Ra = rotation(Xa.quat);
  const Rb = rotation(Xb.quat);
  const axA = [0, 1, 2].map((k) => [Ra[k], Ra[3 + k], Ra[6 + k]] as V3);
  const axB = [0, 1, 2].map((k) => [Rb[k], Rb[3 + k], Rb[6 + k]] as V3);
  const axes = [...axA, ...axB];
  for (const u of axA) for (const v of axB) if (norm(cross(u, v)) > 1e-9) axes.push(unit(cross(u, v)));
  const A = box(ha);
  const B = box(hb);
  let best = -Infinity;
  for (const n of axes)
    best = Math.max(
      best,
      separationAlong(A, Xa, B, Xb, n),
      separationAlong(
        A,
        Xa,
        B,
        Xb,
        n.map((x) => -x),
      ),
    );
  return best;
}

describe('exact collision reference', () => {
  it('Wolfe finds the nearest point of a triangle and of a square', () => {
    const t = minNormPoint([
      [1, -1, 1],
      [1, 1, 1],
      [1, 0, -2],
    ]);
    expect(norm(sub(t.x, [1, 0, 0]))).toBeLessThan(1e-15);
    const s = minNormPoint([
      [-1, -1, 2],
      [1, -1, 2],
      [1, 1, 2],
      [-1, 1, 2],
      [-1, -1, 2],
    ]);
    expect(norm(sub(s.x, [0, 0, 2]))).toBeLessThan(1e-15);
  });

  it('sphere–sphere: centre distance minus both radii, apart and overlapping', () => {
    for (const d of [3, 1.5, 0.9]) {
      const c = consistent(sphere(0.5), at([0.1, 0.2, 0.3]), sphere(0.75), at([0.1 + d * 0.6, 0.2, 0.3 + d * 0.8]));
      expect(Math.abs(c.dist - (d - 1.25))).toBeLessThan(1e-14);
      expect(norm(sub(c.normal, [0.6, 0, 0.8]))).toBeLessThan(1e-14);
    }
  });

  it('box edge on box edge: crossed edges give the closed form apart and overlapping', () => {
    const h = 0.5;
    for (const z of [1.6, 2 * h * Math.SQRT2, 1.38]) {
      const c = consistent(
        box([h, h, h]),
        at([0, 0, 0], axisAngle([1, 0, 0], Math.PI / 4)),
        box([h, h, h]),
        at([0, 0, z], axisAngle([0, 1, 0], Math.PI / 4)),
      );
      expect(Math.abs(c.dist - (z - 2 * h * Math.SQRT2))).toBeLessThan(1e-14);
      if (Math.abs(c.dist) > 1e-9) expect(norm(sub(c.normal, [0, 0, 1]))).toBeLessThan(1e-12);
    }
  });

  it('offset cubes: corner–corner and edge–edge distances (where the face axes give only a lower bound)', () => {
    const c = consistent(box([0.5, 0.5, 0.5]), at([0, 0, 0]), box([0.5, 0.5, 0.5]), at([1.2, 1.2, 1.2]));
    expect(Math.abs(c.dist - 0.2 * Math.sqrt(3))).toBeLessThan(1e-14);
    expect(norm(sub(c.normal, unit([1, 1, 1])))).toBeLessThan(1e-14);
    const e = consistent(box([0.5, 0.5, 0.5]), at([0, 0, 0]), box([0.5, 0.5, 0.5]), at([1.2, 1.2, 0.3]));
    expect(Math.abs(e.dist - 0.2 * Math.SQRT2)).toBeLessThan(1e-14);
  });

  it('rounded boxes with cores apart but surfaces overlapping: core distance minus both radii', () => {
    const c = consistent(rbox([0.5, 0.5, 0.5], 0.2), at([0, 0, 0]), rbox([0.5, 0.5, 0.5], 0.2), at([1.2, 1.2, 1.2]));
    expect(Math.abs(c.dist - (0.2 * Math.sqrt(3) - 0.4))).toBeLessThan(1e-14);
    expect(c.dist).toBeLessThan(0);
    // The separating-axis value would say −0.2 here: a lower bound, not the distance.
    expect(
      separationAlong(rbox([0.5, 0.5, 0.5], 0.2), at([0, 0, 0]), rbox([0.5, 0.5, 0.5], 0.2), at([1.2, 1.2, 1.2]), [1, 0, 0]),
    ).toBeCloseTo(-0.2, 14);
  });

  it('deep overlap of aligned boxes: the smallest axis overlap, its normal', () => {
    const c = consistent(box([1, 0.5, 0.3]), at([0, 0, 0]), box([0.4, 0.4, 0.4]), at([0.2, 0.1, 0.05]));
    expect(Math.abs(c.dist - -0.65)).toBeLessThan(1e-14);
    expect(norm(sub(c.normal, [0, 0, 1]))).toBeLessThan(1e-14);
  });

  it('capsules crossing at right angles; capsule parallel to a box face', () => {
    const c = consistent(capsule(0.1, 1), at([0, 0, 0]), capsule(0.2, 1), at([0.5, 0, 0.2], axisAngle([1, 0, 0], Math.PI / 2)));
    expect(Math.abs(c.dist - (0.5 - 0.3))).toBeLessThan(1e-14);
    const d = consistent(capsule(0.1, 0.4), at([0, 0, 0.75], axisAngle([0, 1, 0], Math.PI / 2)), box([1, 1, 0.5]), at([0, 0, 0]));
    expect(Math.abs(d.dist - 0.15)).toBeLessThan(1e-14);
    expect(norm(sub(d.normal, [0, 0, -1]))).toBeLessThan(1e-14);
    expect(d.gap).toBe(Infinity);
  });

  it('plane against a tilted box and a capsule, the plane on either side', () => {
    const q = axisAngle([1, 1, 0], 0.3);
    const b = box([0.2, 0.3, 0.4]);
    const low = Math.min(...coreVertices(b, at([0, 0, 0.5], q)).map((v) => v[2]));
    const c = consistent(plane, at([0, 0, 0]), b, at([0, 0, 0.5], q));
    expect(Math.abs(c.dist - low)).toBeLessThan(1e-15);
    expect(c.normal).toEqual([0, 0, 1]);
    const f = consistent(capsule(0.1, 0.5), at([0, 0, 0.3]), plane, at([0, 0, 0.5], axisAngle([1, 0, 0], Math.PI)));
    expect(Math.abs(f.dist - -0.4)).toBeLessThan(1e-15);
    expect(norm(sub(f.normal, [0, 0, 1]))).toBeLessThan(1e-15);
  });

  it('random overlapping box pairs: hull depth equals the 15-axis depth; separated pairs beat every axis', () => {
    const rng = new Rng(7);
    let overlapped = 0;
    for (let k = 0; k < 300; k++) {
      const ha: V3 = [rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(0.1, 1)];
      const hb: V3 = [rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(0.1, 1)];
      const Xa = at([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)], rng.unitQuat());
      const Xb = at([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)], rng.unitQuat());
      const c = consistent(box(ha), Xa, box(hb), Xb, 1e-11);
      const sat = satDepth(ha, Xa, hb, Xb);
      if (c.dist < 0) {
        overlapped++;
        expect(Math.abs(c.dist - sat)).toBeLessThan(1e-12);
      } else expect(c.dist).toBeGreaterThanOrEqual(sat - 1e-12);
    }
    expect(overlapped).toBeGreaterThan(50);
  });

  it('random pairs of every kind: no direction separates them more than the exact normal', () => {
    const rng = new Rng(11);
    const kinds = [sphere(0.4), capsule(0.2, 0.5), box([0.3, 0.5, 0.2]), rbox([0.3, 0, 0.2], 0.15)];
    for (let k = 0; k < 200; k++) {
      const a = kinds[k % 4];
      const b = kinds[Math.floor(k / 4) % 4];
      const Xa = at([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6)], rng.unitQuat());
      const Xb = at([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6)], rng.unitQuat());
      const c = consistent(a, Xa, b, Xb, 1e-11);
      for (let j = 0; j < 50; j++) {
        const n = unit([rng.normal(), rng.normal(), rng.normal()]);
        expect(separationAlong(a, Xa, b, Xb, n)).toBeLessThanOrEqual(c.dist + 1e-12);
      }
      expect(dot(c.normal, c.normal)).toBeCloseTo(1, 14);
    }
  });
});
