// The bundled contact scenes say what they are: the incline's bodies start touching the 30° slope
// with the frictions its comments state, the ball's physical stiffness becomes the direct solref
// [−k/m, −c/m], the box stack's boxes start 1 mm apart; no contact scene starts with shapes inside
// each other; the crossing pendulums and the capsule arm strike when and as deep as their headers
// say. Each runs its whole duration in scenes-stable.test.ts (every bundled scene), against MuJoCo
// over its first contacts in scenes-mujoco.test.ts, and in the contact stages.
import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { quatRotate } from '../src/engine/math.js';

/** The deepest active contact (m; Infinity: none) at the batch's current state, and its pair's shapes. */
function deepest(b: Batch, names: readonly string[]): { dist: number; shapes: string } {
  b.collide();
  let best = { dist: Infinity, shapes: '' };
  const c = b.contacts(0);
  c.dist.forEach((d, k) => {
    if (d < best.dist) best = { dist: d, shapes: `${names[c.shapeA[k]]}|${names[c.shapeB[k]]}` };
  });
  return best;
}

/** Runs a scene for `seconds` (its integrator and dt, f64): the first contact (time, shapes) and the deepest. */
function strikes(scene: string, seconds: number) {
  const m = loadScene(`scenes/${scene}.arow`);
  const names = (m.shapes ?? []).map((s) => s.name);
  const b = new Batch(m, { copies: 1, precision: 'f64' });
  let first: { t: number; shapes: string } | null = null;
  let deep = Infinity;
  const steps = Math.round(seconds / m.world.dt);
  for (let k = 1; k <= steps; k++) {
    b.step(1);
    const d = deepest(b, names);
    if (d.dist < Infinity && !first) first = { t: k * m.world.dt, shapes: d.shapes };
    deep = Math.min(deep, d.dist);
  }
  return { first, deep };
}

describe('contact scenes', () => {
  test('incline: three bodies touching the 30° slope (friction 0.8 / 0.3 / 0.8, plane 0), at rest', () => {
    const m = loadScene('scenes/incline.arow');
    const plane = m.shapes!.find((s) => s.kind === 'plane')!;
    const n = quatRotate(plane.quat, [0, 0, 1]);
    expect(n[0]).toBeCloseTo(0.5, 12);
    expect(plane.friction).toBe(0);
    const half = [0.05, 0.05, 0.05];
    m.bodies.forEach((b, i) => {
      const c = b.q0.slice(0, 3);
      const above = c[0] * n[0] + c[1] * n[1] + c[2] * n[2];
      expect(Math.abs(above - half[i]), b.name).toBeLessThan(1e-8);
      expect(b.v0.every((x) => x === 0)).toBe(true);
    });
    expect(m.shapes!.filter((s) => s.body >= 0).map((s) => s.friction)).toEqual([0.8, 0.3, 0.8]);
  });

  test('ball-on-plane: 20000 N/m and 30 N·s/m on a 0.524 kg ball → solref [−k/m, −c/m]', () => {
    const m = loadScene('scenes/ball-on-plane.arow');
    const mass = m.bodies[0].mass;
    expect(mass).toBeCloseTo((4 / 3) * Math.PI * 0.05 ** 3 * 1000, 12);
    expect(m.shapes!.find((s) => s.kind === 'sphere')!.solref).toEqual([-20000 / mass, -30 / mass]);
  });

  test('box-stack: five 0.2 m boxes, 1 mm apart, the lowest 1 mm above the ground (not exactly on it, where round-off decides the first contact)', () => {
    const m = loadScene('scenes/box-stack.arow');
    const z = m.bodies.map((b) => b.q0[2]);
    expect(z[0]).toBeCloseTo(0.101, 12);
    for (let i = 1; i < 5; i++) expect(z[i] - z[i - 1]).toBeCloseTo(0.201, 12);
  });

  test('no bundled scene starts with shapes inside each other (deeper than the 1 µm its 6-digit start coordinates leave)', () => {
    const depths = readdirSync('scenes')
      .filter((f) => f.endsWith('.arow'))
      .map((f) => {
        const m = loadScene(`scenes/${f}`);
        const d = deepest(
          new Batch(m, { copies: 1, precision: 'f64' }),
          (m.shapes ?? []).map((s) => s.name),
        );
        return { scene: f, ...d };
      })
      .filter((d) => d.dist < -1e-6);
    expect(depths).toEqual([]);
  });

  test('crossing-pendulums: the lower rods strike first, at t = 0.54–0.55 s, and sink at most 1.2 cm (rods 6 cm thick) over the first 2.3 s', () => {
    const { first, deep } = strikes('crossing-pendulums', 2.3);
    expect(first?.shapes).toBe('left-lower/capsule0|right-lower/capsule0');
    expect(first!.t).toBeGreaterThanOrEqual(0.54);
    expect(first!.t).toBeLessThanOrEqual(0.55);
    expect(deep).toBeGreaterThan(-0.0125);
  }, 30_000);

  test('capsule-arm: the fist strikes the table first, at t = 0.32 s, and no contact sinks more than 6 mm over the first 2 s', () => {
    const { first, deep } = strikes('capsule-arm', 2);
    expect(first?.shapes).toBe('fist|table');
    expect(first!.t).toBeCloseTo(0.32, 2);
    expect(deep).toBeGreaterThan(-0.006);
  }, 30_000);
});
