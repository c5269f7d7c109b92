// A box resting on a plane where both have friction 0 (issue 23): MuJoCo clamps every contact's
// friction to mjMINMU = 1e-5 (mj_assignFriction), so its pyramid edges keep R = 2μ²R0/impratio > 0.
// Unclamped, R was 0 here: qacc was NaN from the first solve and the state non-finite by step ~134.
import { describe, expect, test } from 'vitest';
import { Batch, toNativeModel } from '../src/engine/batch.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { tempDir, write } from './helpers/scene.js';

const SCENE = `scene: f0
world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: euler, duration: 1 }
shapes:
  - { link: world, type: plane, name: ground, friction: 0 }
links:
  - name: box
    parent: world
    joint: { type: free }
    mass_from_shapes: { density: 100 }
    shapes: { type: box, size: [0.2, 0.2, 0.2], friction: 0 }
    initial: { position: [0, 0, 0.1, 0, 0, 0] }
`;

/** MuJoCo 3.14 on \`achilles export --mjcf\` of SCENE, reset to its keyframe: qpos z after n steps
 *  (mj_step, Euler, pyramidal cone, CG 20 iterations). */
const MUJOCO_Z: [number, number][] = [
  [1, 0.09996076000000001],
  [134, 0.09999993661327565],
  [144, 0.09999996711990078],
  [250, 0.0999999999687165],
  [500, 0.09999999999999445],
];

describe('friction 0 is MuJoCo’s mjMINMU', () => {
  test('the scene and the native model keep the 0 written (export writes it); the native contact tables raise it', () => {
    const model = loadScene(write(tempDir(), 'f0.arow', SCENE));
    expect(model.shapes?.map((s) => s.friction)).toEqual([0, 0]);
    const native = toNativeModel(model) as { shapes: { friction: number }[] };
    expect(native.shapes.map((s) => s.friction)).toEqual([0, 0]);
  });

  test('a box on a friction-0 plane rests, finite, on MuJoCo’s trajectory', () => {
    const model = loadScene(write(tempDir(), 'f0.arow', SCENE));
    const batch = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    batch.constrain();
    expect(Array.from(batch.qacc.slice(0, batch.nv * batch.stride)).every(Number.isFinite)).toBe(true);
    let done = 0;
    for (const [n, z] of MUJOCO_Z) {
      const r = batch.stepRaw(n - done);
      done = n;
      expect(r.nonFinite, `step ${n}`).toBeNull();
      expect(batch.getRobot(0).q[2], `z at step ${n}`).toBeCloseTo(z, 12);
    }
  });
});
