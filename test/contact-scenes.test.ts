// The bundled contact scenes say what they are: the incline's bodies start touching the 30° slope
// with the frictions its comments state, the ball's physical stiffness becomes the direct solref
// [−k/m, −c/m], the box stack's boxes start 1 mm apart. Each runs its whole duration in
// scenes-stable.test.ts (every bundled scene), and against MuJoCo in the contact stages.
import { describe, expect, test } from 'vitest';
import { loadScene } from '../src/scene/index.js';
import { quatRotate } from '../src/scene/math.js';

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

  test('box-stack: five 0.2 m boxes, 1 mm apart, the lowest 0 mm above the ground', () => {
    const m = loadScene('scenes/box-stack.arow');
    const z = m.bodies.map((b) => b.q0[2]);
    expect(z[0]).toBeCloseTo(0.1, 12);
    for (let i = 1; i < 5; i++) expect(z[i] - z[i - 1]).toBeCloseTo(0.201, 12);
  });
});
