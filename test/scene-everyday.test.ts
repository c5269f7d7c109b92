// Everyday dialect: the bundled scenes load with the documented values, and every kind of
// mistake is a SceneError at the offending node's line/column.
import { describe, expect, test } from 'vitest';
import { coordinateLayout } from '../src/engine/model-desc.js';
import { loadScene, SceneError } from '../src/model-files/scene/index.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';

const BASE = `scene: t
world: { gravity: [0, 0, -9.81] }
links:
  - name: a
    parent: world
    joint: { type: revolute, axis: [1, 0, 0] }
    mass: 1
    com: [0, 0.5, 0]
    inertia: [0.1, 0.001, 0.1]
  - name: b
    parent: a
    joint: { type: revolute, axis: [1, 0, 0] }
    pos: [0, 1, 0]
    mass: 1
    inertia: [0.1, 0.001, 0.1]
`;
/** BASE with 1-based line `n` replaced (or removed when text is null). */
function edit(...changes: [number, string | null][]): string {
  const lines = BASE.split('\n');
  for (const [n, t] of changes) lines[n - 1] = t ?? '\u0000';
  return lines.filter((l) => l !== '\u0000').join('\n');
}

describe('bundled scenes', () => {
  test('double-pendulum', () => {
    const m = loadScene('scenes/double-pendulum.arow');
    expect(m.name).toBe('double-pendulum');
    expect(m.world).toEqual({ gravity: [0, 0, -9.81], dt: 0.002, integrator: 'euler', duration: 10, substeps: 1 });
    expect(m.bodies.map((b) => [b.name, b.parent, b.joint])).toEqual([
      ['upper', -1, 'revolute'],
      ['lower', 0, 'revolute'],
    ]);
    for (const b of m.bodies) {
      expect(b.axis).toEqual([1, 0, 0]);
      expect(b.com).toEqual([0, 0.5, 0]);
      expect(b.mass).toBe(1);
      expect(b.inertia[0]).toBeCloseTo(1 / 12, 15);
      expect(b.q0).toEqual([0]);
    }
    expect(m.bodies[1].pos).toEqual([0, 1, 0]);
  });

  test('arm7: seven revolute links, alternating axes, tapering', () => {
    const m = loadScene('scenes/arm7.arow');
    expect(m.bodies).toHaveLength(7);
    expect(m.bodies.every((b) => b.joint === 'revolute')).toBe(true);
    expect(m.bodies.map((b) => b.axis[0] === 1)).toEqual([true, false, true, false, true, false, true]);
    for (let i = 1; i < 7; i++) {
      expect(m.bodies[i].mass).toBeLessThan(m.bodies[i - 1].mass);
      expect(m.bodies[i].parent).toBe(i - 1);
    }
  });

  test('humanoid-tree: branched, parents first, mixes ball and revolute', () => {
    const m = loadScene('scenes/humanoid-tree.arow');
    expect(m.bodies[0]).toMatchObject({ name: 'pedestal', joint: 'fixed', parent: -1 });
    expect(m.bodies[1]).toMatchObject({ name: 'torso', joint: 'ball', parent: 0 });
    const kids = m.bodies.filter((b) => b.parent === 1).map((b) => b.name);
    expect(kids).toEqual(['head', 'left_upper_arm', 'right_upper_arm', 'left_thigh', 'right_thigh']);
    m.bodies.forEach((b, i) => expect(b.parent).toBeLessThan(i));
    const torso = m.bodies[1];
    expect(torso.q0[0]).toBeCloseTo(Math.cos(0.05), 15);
    expect(torso.q0[1]).toBeCloseTo(Math.sin(0.05), 15);
    expect(coordinateLayout(m.bodies)).toMatchObject({ nq: 6 * 4 + 4, nv: 6 * 3 + 4 });
  });

  test('spinning-box: free body about its intermediate axis, no gravity', () => {
    const m = loadScene('scenes/spinning-box.arow');
    const [b] = m.bodies;
    expect(b.joint).toBe('free');
    expect(b.q0).toEqual([0, 0, 1, 1, 0, 0, 0]);
    expect(b.v0).toEqual([0, 0, 0, 0.01, 5, 0]);
    const [ixx, iyy, izz] = b.inertia;
    expect(izz < iyy && iyy < ixx).toBe(true); // spin axis Y is the intermediate one
    expect(m.world).toMatchObject({ gravity: [0, 0, 0], dt: 0.001, duration: 10 });
  });

  test('slider-ball: fixed, prismatic, ball, planar', () => {
    const m = loadScene('scenes/slider-ball.arow');
    expect(m.bodies.map((b) => b.joint)).toEqual(['fixed', 'prismatic', 'ball', 'planar']);
    expect(m.bodies[1].v0).toEqual([0.5]);
    expect(m.bodies[3].q0).toEqual([0.05, 0, 0]);
    expect(m.bodies[0].q0).toEqual([]);
  });
});

describe('everyday semantics', () => {
  const dir = tempDir();
  test('base scene loads; links may come before their parent (stable topological order)', () => {
    const m = loadScene(write(dir, 'base.arow', BASE));
    expect(m.bodies.map((b) => b.name)).toEqual(['a', 'b']);
    const lines = BASE.split('\n');
    const swapped = [...lines.slice(0, 3), ...lines.slice(9, 15), ...lines.slice(3, 9)].join('\n');
    const rev = loadScene(write(dir, 'rev.arow', swapped));
    expect(rev.bodies.map((b) => [b.name, b.parent])).toEqual([
      ['a', -1],
      ['b', 0],
    ]);
  });

  test('rpy, axis normalisation, subspace escape hatch, thin-plate equality case', () => {
    const m = loadScene(
      write(
        dir,
        'misc.arow',
        edit(
          [6, '    joint: { type: prismatic, axis: [0, 3, 4] }'],
          [8, '    rpy: [0, 0, 1.5707963267948966]'],
          [9, '    inertia: [0.05, 0.05, 0.1]'],
          [12, '    joint: { subspace: [0, 0, 0, 0, 0, 1] }'],
        ),
      ),
    );
    expect(m.bodies[0].axis).toEqual([0, 0.6, 0.8]);
    expect(m.bodies[0].quat[0]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(m.bodies[0].quat[3]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(m.bodies[1]).toMatchObject({ joint: 'prismatic', axis: [0, 0, 1] });
  });
});

describe('everyday errors', () => {
  const dir = tempDir();
  const bad = (name: string, text: string): (() => unknown) => {
    const f = write(dir, name, text);
    return () => loadScene(f);
  };
  test('unknown key with did-you-mean', () => {
    expectSceneError(bad('k.arow', edit([7, '    mas: 1'])), 7, 5, 'unknown key `mas`', 'did you mean `mass`?');
  });
  test('wrong type', () => {
    expectSceneError(bad('t.arow', edit([7, '    mass: heavy'])), 7, 11, 'the string "heavy"', 'expected a number');
  });
  test('wrong count', () => {
    expectSceneError(bad('c.arow', edit([8, '    com: [0, 0.5]'])), 8, 10, 'found 2 numbers', 'expected a list of 3 numbers');
  });
  test('non-finite number', () => {
    expectSceneError(bad('n.arow', edit([8, '    com: [0, .nan, 0]'])), 8, 14, 'non-finite', 'a finite number');
  });
  test('parent does not exist', () => {
    expectSceneError(bad('p.arow', edit([11, '    parent: aa'])), 11, 13, 'parent `aa`, which does not exist', 'did you mean `a`?');
  });
  test('cycle', () => {
    const text = `${BASE}  - name: c\n    parent: d\n    joint: { type: ball }\n    mass: 1\n    inertia: [1, 1, 1]\n  - name: d\n    parent: c\n    joint: { type: ball }\n    mass: 1\n    inertia: [1, 1, 1]\n`;
    expectSceneError(bad('cyc.arow', text), 17, 13, 'parent cycle c → d → c');
  });
  test('no root at all', () => {
    expectSceneError(bad('r.arow', edit([5, '    parent: b'])), 5, 13, 'no root', 'at least one link attached to the world');
  });
  test('duplicate names', () => {
    expectSceneError(bad('d.arow', edit([10, '  - name: a'])), 10, 11, 'the name `a` again', 'a unique name');
  });
  test('mass < 0', () => {
    expectSceneError(bad('m.arow', edit([7, '    mass: -1'])), 7, 11, 'a mass >= 0');
  });
  test('a massless link with an inertia', () => {
    expectSceneError(bad('m0.arow', edit([7, '    mass: 0'])), 9, 5, '`inertia` on a massless link');
  });
  test('inertia not positive definite', () => {
    expectSceneError(bad('pd.arow', edit([9, '    inertia: [0.1, 0.1, 0.1, 0.2, 0, 0]'])), 9, 14, 'not positive definite');
  });
  test('triangle inequality broken', () => {
    expectSceneError(bad('tri.arow', edit([9, '    inertia: [0.1, 0.001, 0.2]'])), 9, 14, 'triangle inequality broken');
  });
  test('YAML syntax error at yaml position', () => {
    const e = expectSceneError(bad('y.arow', edit([8, '    com: [0, 0.5, 0'])), 9, 5, 'YAML syntax');
    expect(e.expected).toBe('valid YAML');
  });
  test('duplicate YAML key', () => {
    expectSceneError(bad('dk.arow', edit([8, '    mass: 2'])), 8, 5, 'Map keys must be unique');
  });
  test('missing required key', () => {
    expectSceneError(bad('req.arow', edit([9, null])), 4, 5, 'no `inertia` key');
  });
  test('empty link list', () => {
    expectSceneError(bad('empty.arow', 'scene: t\nlinks: []\n'), 2, 8, 'a list of 0 items', 'a non-empty list of links');
  });
  test('unknown joint type', () => {
    expectSceneError(
      bad('jt.arow', edit([6, '    joint: { type: revolut, axis: [1, 0, 0] }'])),
      6,
      20,
      '`revolut`',
      'did you mean `revolute`?',
    );
  });
  test('zero axis', () => {
    expectSceneError(bad('ax.arow', edit([6, '    joint: { type: revolute, axis: [0, 0, 0] }'])), 6, 36, 'a zero vector');
  });
  test('axis on a ball joint', () => {
    expectSceneError(bad('bax.arow', edit([6, '    joint: { type: ball, axis: [0, 0, 1] }'])), 6, 26, 'an axis on a ball joint');
  });
  test('unsupported subspace', () => {
    expectSceneError(bad('ss.arow', edit([12, '    joint: { subspace: [1, 0, 0, 0, 1, 0] }'])), 12, 24, 'screw', 'supported subspaces');
  });
  test('free joint on a link whose parent is not the world', () => {
    expectSceneError(
      bad('fr.arow', edit([12, '    joint: { type: free }'], [13, null])),
      12,
      12,
      'a free joint on a link whose parent is `a`, not the world',
      'parent: world',
    );
  });
  test('free joint with an offset', () => {
    expectSceneError(bad('fo.arow', edit([6, '    joint: { type: free }'], [8, '    pos: [1, 0, 0]'])), 8, 5, 'free joint with a nonzero');
  });
  test('both quat and rpy', () => {
    expectSceneError(bad('qr.arow', edit([8, '    quat: [1, 0, 0, 0]\n    rpy: [0, 0, 0]'])), 9, 5, 'both `quat` and `rpy`');
  });
  test('zero quaternion', () => {
    expectSceneError(bad('zq.arow', edit([8, '    quat: [0, 0, 0, 0]'])), 8, 11, 'a zero quaternion');
  });
  test('initial position count for a ball joint', () => {
    expectSceneError(
      bad('ib.arow', edit([6, '    joint: { type: ball }'], [8, '    initial: { position: [1, 0, 0, 0, 0] }'])),
      8,
      26,
      'found 5 numbers',
      'expected a list of 3 or 4 numbers',
    );
  });
  test('initial quaternion of zero length', () => {
    expectSceneError(
      bad('iq.arow', edit([6, '    joint: { type: ball }'], [8, '    initial: { position: [0, 0, 0, 0] }'])),
      8,
      26,
      'a zero quaternion',
    );
  });
  test('world: unknown integrator', () => {
    expectSceneError(bad('wi.arow', edit([2, 'world: { integrator: rk5 }'])), 2, 22, '`rk5`', 'did you mean `rk4`?');
  });
  test('not a scene at all', () => {
    expectSceneError(bad('none.arow', 'foo: 1\n'), 1, 1, 'an everyday scene');
  });
});
