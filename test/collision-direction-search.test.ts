// The exact reference for MuJoCo's cylinder, ellipsoid and convex hull (collision stage): closed
// forms against hand-made answers, and the direction search (direction-search.ts) against the
// closed forms and the polytope method on the same pairs. These numbers are the reference's
// accuracy the stage's bars rest on (docs/collision-validation.md).

import { describe, expect, it } from 'vitest';
import { directionSearchContact } from '../src/validation/collision/direction-search.js';
import { exactContact } from '../src/validation/collision/exact.js';
import { add, angle, norm, scale, sub, type Pose, type ShapeGeom, type V3 } from '../src/validation/collision/geometry.js';
import { pointSignedDistance } from '../src/validation/collision/signed-distance.js';
import { hullPointDistance, randomHull } from '../src/validation/collision/hull-shapes.js';
import { ellipsoidPoint } from '../src/validation/collision/smooth-shapes.js';
import { Rng } from '../src/validation/rng.js';
import { at, box, cylinder, ellipsoid, plane, sphere } from './helpers/collision-shapes.js';

describe('exact reference: closed forms', () => {
  it('sphere–ellipsoid on an axis, apart and overlapping: sd = x − e_x − r', () => {
    const e = ellipsoid([0.7, 0.4, 0.3]);
    for (const x of [1.5, 1.0, 0.9]) {
      const c = exactContact(e, at([0, 0, 0]), sphere(0.25), at([x, 0, 0]));
      expect(Math.abs(c.dist - (x - 0.7 - 0.25))).toBeLessThan(1e-15);
      expect(angle(c.normal, [1, 0, 0])).toBeLessThan(1e-15);
    }
  });

  it('ellipsoid nearest point from its centre: the end of its shortest axis', () => {
    const c = ellipsoidPoint([0.7, 0.3, 0.5], [0, 0, 0]);
    expect(c.sd).toBe(-0.3);
    expect(Math.abs(c.n[1])).toBe(1);
  });

  it('ellipsoid nearest point: on the surface, the normal through the point', () => {
    const rng = new Rng(3);
    for (let k = 0; k < 200; k++) {
      const e: V3 = [rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)];
      const y: V3 = [rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)];
      const { sd, q, n } = ellipsoidPoint(e, y);
      expect(Math.abs((q[0] / e[0]) ** 2 + (q[1] / e[1]) ** 2 + (q[2] / e[2]) ** 2 - 1)).toBeLessThan(1e-14);
      const back: V3 = [q[0] + n[0] * sd, q[1] + n[1] * sd, q[2] + n[2] * sd];
      expect(Math.hypot(back[0] - y[0], back[1] - y[1], back[2] - y[2])).toBeLessThan(1e-14);
    }
  });

  it('cylinder on a plane, tilted by θ: the rim point at ρ sin θ + ℓ cos θ below the centre', () => {
    const th = 0.4;
    const quat: Pose['quat'] = [Math.cos(th / 2), Math.sin(th / 2), 0, 0];
    const c = exactContact(plane, at([0, 0, 0]), cylinder(0.3, 0.5), at([0, 0, 0.2], quat));
    expect(Math.abs(c.dist - (0.2 - 0.3 * Math.sin(th) - 0.5 * Math.cos(th)))).toBeLessThan(1e-15);
  });

  it('sphere–cylinder beside its side, beyond its cap and beyond its rim', () => {
    const cyl = cylinder(0.3, 0.5);
    expect(Math.abs(exactContact(cyl, at([0, 0, 0]), sphere(0.1), at([0.6, 0, 0.2])).dist - 0.2)).toBeLessThan(1e-15);
    expect(Math.abs(exactContact(cyl, at([0, 0, 0]), sphere(0.1), at([0, 0.1, 0.9])).dist - 0.3)).toBeLessThan(1e-15);
    expect(Math.abs(exactContact(cyl, at([0, 0, 0]), sphere(0.1), at([0.6, 0, 0.9])).dist - (0.5 - 0.1))).toBeLessThan(1e-15);
  });

  it('a point inside a hull is as deep as its nearest face; outside, as far as the nearest point', () => {
    const h = randomHull(1, new Rng(5));
    expect(hullPointDistance(h, [0, 0, 0])).toBeLessThan(0);
    const far = 10;
    const v = h.vertices!;
    const top = Math.max(...v.filter((_, i) => i % 3 === 2));
    expect(Math.abs(hullPointDistance(h, [0, 0, far]) - (far - top))).toBeLessThan(far * 1e-3); // a vertex is nearest, nearly straight below
  });
});

describe('exact reference: the direction search', () => {
  // Pairs both methods answer: the polytope method (or a closed form) is the truth here.
  const rng = new Rng(7);
  const cases: [string, () => [ShapeGeom, ShapeGeom]][] = [
    [
      'box–box',
      () => [
        box([rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)]),
        box([rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)]),
      ],
    ],
    ['hull–hull', () => [randomHull(1, rng), randomHull(1, rng)]],
    ['hull–box', () => [randomHull(1, rng), box([rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)])]],
    ['ellipsoid–sphere', () => [ellipsoid([rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)]), sphere(rng.uniform(0.2, 1))]],
    ['cylinder–sphere', () => [cylinder(rng.uniform(0.2, 1), rng.uniform(0.2, 1)), sphere(rng.uniform(0.2, 1))]],
  ];
  for (const [name, make] of cases)
    it(`${name}: the same distance to 1e-14, overlapping and apart`, () => {
      let worst = 0;
      let worstAngle = 0;
      for (let k = 0; k < 20; k++) {
        const [a, b] = make();
        const Xa = at([0, 0, 0], rng.unitQuat());
        const Xb = at([rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)], rng.unitQuat());
        const e = exactContact(a, Xa, b, Xb);
        const d = directionSearchContact(a, Xa, b, Xb);
        worst = Math.max(worst, Math.abs(e.dist - d.dist));
        if (e.gap > 1e-6) worstAngle = Math.max(worstAngle, angle(e.normal, d.normal));
      }
      expect(worst).toBeLessThan(1e-14);
      expect(worstAngle).toBeLessThan(1e-6);
    });
});

describe('exact reference: the direction search on curved pairs', () => {
  it("witnesses on both surfaces, B's = A's + n·dist (faces, sides and smooth points alike)", () => {
    const rng = new Rng(11);
    const shapes = () => [
      box([rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)]),
      cylinder(rng.uniform(0.2, 1), rng.uniform(0.2, 1)),
      ellipsoid([rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)]),
      randomHull(1, rng),
      { kind: 'capsule', halfExtents: [0, 0, rng.uniform(0.2, 1)], radius: rng.uniform(0.2, 0.6) } as ShapeGeom,
    ];
    let onSurface = 0;
    let aligned = 0;
    for (let k = 0; k < 40; k++) {
      const [a, b] = [shapes()[1 + (k % 2)], shapes()[k % 5]];
      const Xa = at([0, 0, 0], rng.unitQuat());
      const Xb = at([rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)], rng.unitQuat());
      const c = directionSearchContact(a, Xa, b, Xb);
      onSurface = Math.max(onSurface, Math.abs(pointSignedDistance(a, Xa, c.pointA)), Math.abs(pointSignedDistance(b, Xb, c.pointB)));
      aligned = Math.max(aligned, norm(sub(c.pointB, add(c.pointA, scale(c.normal, c.dist)))));
    }
    expect(onSurface).toBeLessThan(1e-6);
    expect(aligned).toBeLessThan(1e-6);
  });
});
