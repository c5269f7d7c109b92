// Worlds: several trees, free joints on any root, massless links (refused at load when singular,
// with the link named), inertia in a rotated frame, quaternion initial orientations.
import { describe, expect, test } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { rotateInertia, rpyToQuat } from '../src/engine/math.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';
import { inChild } from './helpers/in-child.js';
import type * as SceneWork from './helpers/work/scenes.js';

const dir = tempDir();
const link = (name: string, parent: string, joint: string, extra = ''): string =>
  `  - name: ${name}\n    parent: ${parent}\n    joint: ${joint}\n${extra}`;
const mass = '    mass: 1\n    com: [0, 0, -0.5]\n    inertia: [0.1, 0.1, 0.01]\n';

describe('several trees', () => {
  test('two roots, each with a free body or a chain, load as one model and step', () => {
    const f = write(
      dir,
      'two.arow',
      `scene: two\nlinks:\n${link('p1', 'world', '{ type: revolute, axis: [1, 0, 0] }', mass)}${link('p2', 'p1', '{ type: revolute, axis: [1, 0, 0] }', `    pos: [0, 0, -1]\n${mass}`)}${link('box', 'world', '{ type: free }', '    mass: 2\n    inertia: [0.1, 0.2, 0.3]\n    initial: { position: [0, 0, 3, 0.7071067811865476, 0, 0.7071067811865476, 0] }\n')}`,
    );
    const m = loadScene(f);
    expect(m.bodies.map((b) => [b.name, b.parent])).toEqual([
      ['p1', -1],
      ['p2', 0],
      ['box', -1],
    ]);
    const want = [0, 0, 3, Math.SQRT1_2, 0, Math.SQRT1_2, 0];
    m.bodies[2].q0.forEach((x, k) => expect(x).toBeCloseTo(want[k], 15));
    const batch = new Batch(m, { copies: 1, precision: 'f64', lanes: 1 });
    batch.step(10);
    expect(Number.isFinite(batch.q[0])).toBe(true);
  });
});

describe('massless links', () => {
  const universal = (axis2: string, comB = '[0.1, 0.2, -0.5]'): string =>
    `scene: u\nlinks:\n${link('cross', 'world', '{ type: revolute, axis: [1, 0, 0] }', '    mass: 0\n')}${link('arm', 'cross', `{ type: revolute, axis: ${axis2} }`, `    mass: 1\n    com: ${comB}\n    inertia: [0.1, 0.1, 0.01]\n`)}`;

  test('two hinges at one point make a universal joint without a dummy mass', () => {
    const m = loadScene(write(dir, 'uni.arow', universal('[0, 1, 0]')));
    expect(m.bodies[0].mass).toBe(0);
    const b = new Batch(m, { copies: 1, precision: 'f64', lanes: 1 });
    b.step(100);
    expect(Number.isFinite(b.q[0]) && Number.isFinite(b.q[1])).toBe(true);
  });
  test('parallel hinges through a massless point are singular: refused at load, link named', () => {
    expectSceneError(
      () => loadScene(write(dir, 'par.arow', universal('[1, 0, 0]'))),
      3,
      5,
      'link cross',
      'singular model',
      'effective inertia',
    );
  });
  test('a massless leaf has no inertia at all', () => {
    const f = write(
      dir,
      'leaf.arow',
      `scene: l\nlinks:\n${link('a', 'world', '{ type: revolute, axis: [1, 0, 0] }', mass)}${link('tip', 'a', '{ type: ball }', '    mass: 0\n')}`,
    );
    expectSceneError(() => loadScene(f), 9, 5, 'link tip', 'massless');
  });
  test('a massless link under a ball joint whose child mass sits on the joint centre is singular', () => {
    const f = write(
      dir,
      'ballc.arow',
      `scene: l\nlinks:\n${link('a', 'world', '{ type: revolute, axis: [1, 0, 0] }', '    mass: 0\n')}${link('b', 'a', '{ type: ball }', '    mass: 1\n    inertia: [0.1, 0.1, 0.1]\n')}`,
    );
    expectSceneError(() => loadScene(f), 3, 5, 'link a', 'singular');
  });
});

describe('rotated inertia and quaternion orientations', () => {
  test('inertia_frame quat and rpy give the body-axes tensor R·I·Rᵀ', () => {
    const body = (frame: string): string =>
      `scene: r\nlinks:\n${link('a', 'world', '{ type: ball }', `    mass: 1\n    inertia: [0.1, 0.2, 0.3]\n    inertia_frame: ${frame}\n`)}`;
    const q = rpyToQuat([0.3, -0.2, 1.1]);
    const a = loadScene(write(dir, 'rq.arow', body(`{ quat: [${q.join(', ')}] }`))).bodies[0].inertia;
    const b = loadScene(write(dir, 'rr.arow', body('{ rpy: [0.3, -0.2, 1.1] }'))).bodies[0].inertia;
    const want = rotateInertia([0.1, 0.2, 0.3, 0, 0, 0], q);
    for (let k = 0; k < 6; k++) {
      expect(a[k]).toBeCloseTo(want[k], 14);
      expect(b[k]).toBeCloseTo(want[k], 14);
    }
    // a quarter turn about z swaps Ixx and Iyy exactly
    const z = loadScene(write(dir, 'rz.arow', body('{ rpy: [0, 0, 1.5707963267948966] }'))).bodies[0].inertia;
    expect(z[0]).toBeCloseTo(0.2, 15);
    expect(z[1]).toBeCloseTo(0.1, 15);
    expect(z[3]).toBeCloseTo(0, 15);
  });
  test('inertia_frame needs exactly one of quat / rpy', () => {
    const f = write(
      dir,
      'rb.arow',
      `scene: r\nlinks:\n${link('a', 'world', '{ type: ball }', '    mass: 1\n    inertia: [0.1, 0.2, 0.3]\n    inertia_frame: { quat: [1, 0, 0, 0], rpy: [0, 0, 0] }\n')}`,
    );
    expectSceneError(() => loadScene(f), 8, 20, 'both `quat` and `rpy`');
  });
  test('ball initial as a quaternion equals the same rotation as a rotation vector', () => {
    const body = (p: string): string =>
      `scene: r\nlinks:\n${link('a', 'world', '{ type: ball }', `    mass: 1\n    inertia: [0.1, 0.2, 0.3]\n    initial: { position: ${p} }\n`)}`;
    const a = loadScene(write(dir, 'bq.arow', body('[2, 0, 0, 2]'))).bodies[0].q0;
    const b = loadScene(write(dir, 'bv.arow', body('[0, 0, 1.5707963267948966]'))).bodies[0].q0;
    for (let k = 0; k < 4; k++) expect(a[k]).toBeCloseTo(b[k], 15);
  });
});

describe('bundled collision scenes', () => {
  const SCENE_WORK = new URL('./helpers/work/scenes.ts', import.meta.url);
  const cases: [string, number, number][] = [
    ['crossing-pendulums', 4, 4],
    ['domino-amplifier', 10, 11],
    ['capsule-arm', 4, 7],
  ];
  for (const [name, nbody, nshape] of cases) {
    test(`${name}: loads and runs its default duration without diverging (f32 and f64)`, async () => {
      const m = loadScene(`scenes/${name}.arow`);
      expect([m.bodies.length, m.shapes?.length]).toEqual([nbody, nshape]);
      for (const precision of ['f32', 'f64'] as const) {
        // Seconds of stepping: in a child process, so this worker's event loop keeps turning (issue 23).
        // Batch.step there throws NonFiniteStateError on divergence, rethrown here.
        const q = await inChild<typeof SceneWork, 'qAfterWholeDuration'>(SCENE_WORK, 'qAfterWholeDuration', `scenes/${name}.arow`, {
          copies: 2,
          precision,
          lanes: 1,
        });
        expect(q.every(Number.isFinite)).toBe(true);
      }
    });
  }
  test('domino-amplifier: ten free dominoes, each 1.5x the last, the last taller than a person, the first tipped', () => {
    const m = loadScene('scenes/domino-amplifier.arow');
    const h = (m.shapes ?? []).filter((s) => s.body >= 0).map((s) => 2 * s.halfExtents[2]);
    for (let i = 1; i < 10; i++) expect(h[i] / h[i - 1]).toBeCloseTo(1.5, 4);
    expect(h[9]).toBeGreaterThan(1.9);
    expect(m.bodies.every((b) => b.joint === 'free' && b.parent === -1)).toBe(true);
    expect((2 * Math.asin(m.bodies[0].q0[5]) * 180) / Math.PI).toBeCloseTo(7, 4); // tipped 7° about y
    expect(m.bodies.slice(1).every((b) => b.q0[3] === 1)).toBe(true);
  });
});

describe('validation torques per tree', () => {
  test('a single tree keeps weight 1 everywhere; several trees are weighted by tree mass over the heaviest', async () => {
    const { treeWeights } = await import('../src/validation/states.js');
    expect(treeWeights(loadScene('scenes/humanoid-tree.arow')).every((w) => w === 1)).toBe(true);
    const d = loadScene('scenes/domino-amplifier.arow');
    const w = treeWeights(d);
    expect(w).toHaveLength(60);
    const heaviest = d.bodies[9].mass;
    d.bodies.forEach((b, i) => w.slice(6 * i, 6 * i + 6).forEach((x) => expect(x).toBe(b.mass / heaviest)));
    const p = treeWeights(loadScene('scenes/crossing-pendulums.arow'));
    expect(p).toEqual([1, 1, 1, 1]); // two trees of equal mass
  });
});
