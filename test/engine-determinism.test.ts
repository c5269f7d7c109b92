// Determinism: a robot's trajectory is bit-identical whichever lane, batch size, lane width or
// thread count it runs in, and on every repeat.
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import type { LaneWidth, Precision } from '../src/engine/api.js';
import { withSolver, type IntegratorName, type ModelDesc } from '../src/engine/model-desc.js';
import { importFile } from '../src/model-files/import/index.js';
import { generalArm } from '../src/validation/general-actuators/models.js';
import { FIXTURES, servoChain, tumblingBody } from '../src/validation/implicitfast/models.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { join } from 'node:path';
import { root, rng, scene } from './helpers/engine.js';
import { cellTitle, laneCells } from './helpers/lanes.js';

const cells = laneCells();

/** Robot r's initial state: the scene's, with seeded perturbations of every velocity. */
function initialState(model: ModelDesc, r: number, nv: number): number[] {
  const g = rng(1000 + r);
  return Array.from({ length: nv }, () => (g() - 0.5) * 2);
}

/** Run `copies` robots; robot r starts from initialState(r). Returns each robot's q and v after `steps`. */
function run(
  model: ModelDesc,
  precision: Precision,
  lanes: LaneWidth,
  copies: number,
  integrator: IntegratorName,
  steps: number,
  threads = 1,
  robots: number[] = [...Array(copies).keys()],
) {
  const b = new Batch(model, { copies, precision, lanes, integrator, threads });
  for (let r = 0; r < copies; r++) b.setRobot(r, { v: initialState(model, robots[r] ?? r, b.nv) });
  b.step(steps);
  return Array.from({ length: copies }, (_, r) => {
    const s = b.getRobot(r);
    return [...s.q, ...s.v, ...s.qacc];
  });
}

describe('bit-identical results in every lane, batch size, lane width, thread count and repeat', () => {
  for (const name of ['arm7', 'humanoid-tree', 'spinning-box', 'slider-ball'])
    for (const precision of ['f32', 'f64'] as const) {
      const widths = cells.filter((c) => c.precision === precision && !c.skip).map((c) => c.lanes);
      it(`${name} ${precision} at lanes ${widths.join(', ')}`, () => {
        const model = loadScene(scene(name));
        const integrator = name === 'arm7' ? 'euler' : 'rk4';
        const steps = 150;
        // Reference: each robot alone in a batch of one, scalar lanes.
        const alone = [0, 5, 17].map((r) => run(model, precision, 1, 1, integrator, steps, 1, [r])[0]);
        for (const lanes of widths) {
          for (const copies of [18, 37]) {
            const all = run(model, precision, lanes, copies, integrator, steps, copies === 37 ? 2 : 1);
            [0, 5, 17].forEach((r, k) => expect(all[r], `lanes ${lanes} copies ${copies} robot ${r}`).toEqual(alone[k]));
          }
        }
        const again = [0, 5, 17].map((r) => run(model, precision, 1, 1, integrator, steps, 1, [r])[0]);
        expect(again).toEqual(alone);
      });
    }
  // implicitfast: every path of its solve (implicit.hpp): per-lane actuator terms (a ball joint's
  // multi-dof D too), a free body's block alone and with contacts, the damped tendon's Woodbury correction
  const implicitModels: [string, () => ModelDesc][] = [
    ['general-arm', generalArm],
    ['servo-chain', servoChain],
    ['tumbling-body', tumblingBody],
    ['mjcf-contact-drop', () => importFile(FIXTURES.contact).model],
    ['mjcf-tendon-coupling', () => importFile(FIXTURES.tendon).model],
  ];
  for (const [name, make] of implicitModels)
    for (const precision of ['f32', 'f64'] as const) {
      const widths = cells.filter((c) => c.precision === precision && !c.skip).map((c) => c.lanes);
      it(`implicitfast: ${name} ${precision} at lanes ${widths.join(', ')}`, () => {
        const model = make();
        const steps = 150;
        const alone = [0, 5, 17].map((r) => run(model, precision, 1, 1, 'implicitfast', steps, 1, [r])[0]);
        for (const lanes of widths)
          for (const copies of [18, 37]) {
            const all = run(model, precision, lanes, copies, 'implicitfast', steps, copies === 37 ? 2 : 1);
            [0, 5, 17].forEach((r, k) => expect(all[r], `lanes ${lanes} copies ${copies} robot ${r}`).toEqual(alone[k]));
          }
        expect(alone[0]).not.toEqual(alone[1]);
      });
    }
  // Newton on several trees whose contacts differ between the robots of a block: a contact that joins
  // two trees in one lane and not in another leaves one tree done in every lane (idle: its products
  // skipped) while the row joining it to a busy tree still adds its force. The mesh arm (an arm, a
  // free pebble and a turntable; damped Euler, so the step reads the solve's Jᵀf) and the box stack
  // under Newton, each robot from its own perturbed velocities.
  const newtonModels: [string, () => ModelDesc, IntegratorName][] = [
    ['mesh-arm', () => loadScene(join(root, 'scenes', 'mesh-arm', 'mesh-arm.xml')), 'euler'],
    ['box-stack (newton)', () => withSolver(loadScene(scene('box-stack')), 'newton', 1e-8, 100), 'euler'],
  ];
  for (const [name, make, integrator] of newtonModels)
    for (const precision of ['f32', 'f64'] as const) {
      const widths = cells.filter((c) => c.precision === precision && !c.skip).map((c) => c.lanes);
      it(`Newton, contacts that differ by lane: ${name} ${precision} at lanes ${widths.join(', ')}`, () => {
        const model = make();
        const steps = 150;
        const robots = [0, 5, 9, 17];
        const alone = robots.map((r) => run(model, precision, 1, 1, integrator, steps, 1, [r])[0]);
        for (const lanes of widths) {
          const all = run(model, precision, lanes, 18, integrator, steps);
          robots.forEach((r, k) => expect(all[r], `lanes ${lanes} robot ${r}`).toEqual(alone[k]));
        }
        expect(alone[0]).not.toEqual(alone[1]);
      });
    }
  for (const c of cells.filter((c) => c.skip)) it.skip(cellTitle(`${c.precision} × ${c.lanes} lanes`, c), () => {});

  it('a different start gives a different result (the comparison can fail)', () => {
    const model = loadScene(scene('arm7'));
    const a = run(model, 'f32', 1, 1, 'euler', 50, 1, [0])[0];
    const b = run(model, 'f32', 1, 1, 'euler', 50, 1, [1])[0];
    expect(a).not.toEqual(b);
  });
});
