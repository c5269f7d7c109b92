// Raw (original-system) dialect: the shared scenes load unchanged with the README's values, and
// raw-specific mistakes (unknown fields, inconsistent fields, slot pitfall, archetype graph) fail.
import { describe, expect, test } from 'vitest';
import { loadScene, SceneError } from '../src/model-files/scene/index.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';

const SHARED = '../shared/achilles-arow';

const CONFIG = `${SHARED}/sim_config.yaml`;
const close = (a: number[], b: number[], tol = 1e-12): void => {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(Math.abs(x - b[i]), `${a} vs ${b}`).toBeLessThan(tol));
};

describe('shared scenes', () => {
  test('two_joint_arm: README table values', () => {
    const m = loadScene(`${SHARED}/two_joint_arm.arow`);
    expect(m.name).toBe('arm');
    expect(m.world.gravity).toEqual([0, 0, 0]); // no config: no gravity
    expect(m.world).toMatchObject({ dt: 0.002, integrator: 'euler', duration: 10, substeps: 1 });
    const [s, e] = m.bodies;
    expect([s.name, s.parent, e.name, e.parent]).toEqual(['shoulder', -1, 'elbow', 0]);
    expect([s.joint, e.joint]).toEqual(['revolute', 'revolute']);
    expect(s.axis).toEqual([1, 0, 0]);
    expect(e.pos).toEqual([0, 1, 0]);
    expect([s.mass, e.mass]).toEqual([1, 0.4]);
    close(s.com, [0, 0.3, 0]);
    close(e.com, [0, 0.375, 0]);
    close(s.inertia, [0.09083, 0.015, 0.09083, 0, 0, 0]);
    close(e.inertia, [0.01613, 0.00576, 0.01613, 0, 0, 0]);
    expect(s.visual).toEqual({ halfExtents: [0.15, 0.5, 0.15], color: [0.85, 0.3, 0.2] });
    expect(m.files).toEqual([`${SHARED}/two_joint_arm.arow`]);
  });

  test('with sim_config: gravity = −base_acceleration', () => {
    const m = loadScene(`${SHARED}/two_joint_arm.arow`, { config: CONFIG });
    expect(m.world.gravity).toEqual([0, 0, 9.8]);
    expect(m.files).toEqual([`${SHARED}/two_joint_arm.arow`, CONFIG]);
  });

  test('three_joint_arm', () => {
    const m = loadScene(`${SHARED}/three_joint_arm.arow`, { config: CONFIG });
    expect(m.bodies.map((b) => b.name)).toEqual(['shoulder', 'elbow', 'wrist']);
    expect(m.bodies.map((b) => b.parent)).toEqual([-1, 0, 1]);
    close(m.bodies[1].inertia, [0.08 - 0.4 * 0.375 ** 2, 0.006, 0.08 - 0.4 * 0.375 ** 2, 0, 0, 0]);
    close(m.bodies[2].com, [0, 0.15, 0]);
    close(m.bodies[2].inertia, [0.004, 0.0015, 0.004, 0, 0, 0]);
    close(m.bodies[2].pos, [0, 0.8, 0]);
  });

  test('asymmetric arm: Z elbow, slot-0 velocity', () => {
    const m = loadScene(`${SHARED}/asymmetric_two_joint_arm.arow`);
    expect(m.bodies[1].axis).toEqual([0, 0, 1]);
    expect(m.bodies[1].v0).toEqual([1.2]);
    expect(m.bodies[0].v0).toEqual([0]);
  });

  test('small swing: shoulder starts at +60°', () => {
    const m = loadScene(`${SHARED}/two_joint_arm_small_swing.arow`, { config: CONFIG });
    close(m.bodies[0].q0, [Math.PI / 3], 1e-15);
    expect(m.bodies[1].q0).toEqual([0]);
  });
});

// A minimal raw joint with overridable fields, for the bad-scene tests.
const S_X = '[1,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0]';
function joint(name: string, parent: string, extra = '', S = S_X, mask = 1): string {
  return `  - name: ${name}
    parent: ${parent}
    fields:
      joint_subspace: ${S}
      joint_activation_mask: [${mask}]
      fixed_joint_transform: {translation: [0, 1, 0], rotation: [1, 0, 0, 0]}
      rigid_body_inertia: [1.0, 0, 0.3, 0, 0.18083, 0.015, 0.18083, 0, 0, 0]
${extra}`;
}

describe('raw dialect errors', () => {
  const dir = tempDir();

  test('unknown field name: error with did-you-mean (the original ignored it)', () => {
    const f = write(dir, 'typo.arow', `archetype: a\njoints:\n${joint('j', 'null', '      joint_velocty: [0,0,0,0,0,0]\n')}`);
    expectSceneError(() => loadScene(f), 10, 7, 'unknown key `joint_velocty`', 'did you mean `joint_velocity`?');
  });

  test('field on some joints only', () => {
    const f = write(
      dir,
      'inconsistent.arow',
      `archetype: a\njoints:\n${joint('j', 'null', '      joint_torque: [0,0,0,0,0,0]\n')}${joint('k', 'j')}`,
    );
    expectSceneError(() => loadScene(f), 14, 7, 'no `joint_torque`', 'every joint of archetype `a` or on none');
  });

  test('wrong count of numbers', () => {
    const f = write(dir, 'count.arow', `archetype: a\njoints:\n${joint('j', 'null', '      joint_velocity: [0, 0, 0]\n')}`);
    expectSceneError(() => loadScene(f), 10, 23, 'found 3 numbers', 'expected 6 numbers');
  });

  test('velocity in an inactive slot (the README pitfall)', () => {
    const f = write(dir, 'slot.arow', `archetype: a\njoints:\n${joint('j', 'null', '      joint_velocity: [0, 0, 1.2, 0, 0, 0]\n')}`);
    expectSceneError(() => loadScene(f), 10, 30, 'slot 2', 'columns of S, not spatial rows');
  });

  test('unsupported subspace (screw)', () => {
    const screw = '[1,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0.1,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0]';
    const f = write(dir, 'screw.arow', `archetype: a\njoints:\n${joint('j', 'null', '', screw)}`);
    expectSceneError(() => loadScene(f), 6, 23, 'screw', 'supported subspace', 'ball', 'prismatic');
  });

  test('revolute joint_position not about the axis', () => {
    const f = write(
      dir,
      'pos.arow',
      `archetype: a\njoints:\n${joint('j', 'null', '      joint_position: {translation: [0,0,0], rotation: [0.8660254037844387, 0, 0.5, 0]}\n')}`,
    );
    expectSceneError(() => loadScene(f), 10, 23, 'rotation about the joint axis');
  });

  test('swapped translation/rotation keys', () => {
    const f = write(
      dir,
      'swap.arow',
      `archetype: a\njoints:\n${joint('j', 'null', '      joint_position: {rotation: [1,0,0,0], translation: [0,0,0]}\n')}`,
    );
    expectSceneError(() => loadScene(f), 10, 23, '`translation: [x,y,z]` then `rotation');
  });

  test('first moment outside the body: non-physical I_com', () => {
    const bad = joint('j', 'null').replace('[1.0, 0, 0.3, 0, 0.18083', '[1.0, 0, 0.5, 0, 0.18083');
    const f = write(dir, 'inertia.arow', `archetype: a\njoints:\n${bad}`);
    expectSceneError(() => loadScene(f), 9, 27, 'not positive definite');
  });

  test('two local roots', () => {
    const f = write(dir, 'roots.arow', `archetype: a\njoints:\n${joint('j', 'null')}${joint('k', 'null')}`);
    expectSceneError(() => loadScene(f), 11, 13, 'second local root');
  });

  test('missing parent with did-you-mean', () => {
    const f = write(dir, 'parent.arow', `archetype: a\njoints:\n${joint('shoulder', 'null')}${joint('elbow', 'sholder')}`);
    expectSceneError(() => loadScene(f), 11, 13, 'parent `sholder`', 'did you mean `shoulder`?');
  });

  test('parent cycle', () => {
    const f = write(dir, 'cycle.arow', `archetype: a\njoints:\n${joint('r', 'null')}${joint('x', 'y')}${joint('y', 'x')}`);
    expectSceneError(() => loadScene(f), 11, 13, 'parent cycle', 'x → y → x');
  });

  test('missing required top-level key', () => {
    const f = write(dir, 'nojoints.arow', `archetype: a\ncopies: 1\n`);
    expectSceneError(() => loadScene(f), 1, 1, 'no `joints` key');
  });
});

describe('copies, attach, includes', () => {
  const dir = tempDir();
  const world = `archetype: bench_world
joints:
  - name: origin
    parent: null
    fields:
      joint_subspace: [${new Array(36).fill(0).join(', ')}]
      joint_activation_mask: [0]
      fixed_joint_transform: {translation: [0, 0, 0], rotation: [1, 0, 0, 0]}
      rigid_body_inertia: [1.0, 0,0,0, 1.0,1.0,1.0, 0,0,0]
`;
  write(dir, 'bench_world.arow', world);

  test('bench batching: copies attached to a 1-copy root, flattened with [k] names', () => {
    const f = write(
      dir,
      'arm.arow',
      `archetype: arm\ncopies: 3\nincludes: [bench_world.arow]\nattach: {archetype: bench_world, joint: origin}\njoints:\n${joint('shoulder', 'null')}${joint('elbow', 'shoulder')}`,
    );
    const m = loadScene(f);
    expect(m.name).toBe('bench_world');
    expect(m.bodies.map((b) => b.name)).toEqual([
      'origin',
      'arm[0]/shoulder',
      'arm[0]/elbow',
      'arm[1]/shoulder',
      'arm[1]/elbow',
      'arm[2]/shoulder',
      'arm[2]/elbow',
    ]);
    expect(m.bodies.map((b) => b.parent)).toEqual([-1, 0, 1, 0, 3, 0, 5]);
    expect(m.bodies[0].joint).toBe('fixed');
    expect(m.files).toEqual([f, `${dir}/bench_world.arow`]);
  });

  test('1:1 copies follow their target copy', () => {
    write(dir, 'hand.arow', `archetype: hand\ncopies: 2\nattach: {archetype: arm, joint: elbow}\njoints:\n${joint('palm', 'null')}`);
    const f = write(
      dir,
      'arm2.arow',
      `archetype: arm\ncopies: 2\nincludes: [bench_world.arow, hand.arow]\nattach: {archetype: bench_world, joint: origin}\njoints:\n${joint('shoulder', 'null')}${joint('elbow', 'shoulder')}`,
    );
    const m = loadScene(f);
    const idx = (n: string): number => m.bodies.findIndex((b) => b.name === n);
    expect(m.bodies[idx('hand[1]/palm')].parent).toBe(idx('arm[1]/elbow'));
    expect(m.bodies[idx('hand[0]/palm')].parent).toBe(idx('arm[0]/elbow'));
    m.bodies.forEach((b) => expect(b.parent).toBeLessThan(m.bodies.indexOf(b)));
  });

  test('copies mismatch', () => {
    write(dir, 'hand3.arow', `archetype: hand\ncopies: 3\nattach: {archetype: arm, joint: elbow}\njoints:\n${joint('palm', 'null')}`);
    const f = write(
      dir,
      'arm3.arow',
      `archetype: arm\ncopies: 2\nincludes: [bench_world.arow, hand3.arow]\nattach: {archetype: bench_world, joint: origin}\njoints:\n${joint('shoulder', 'null')}${joint('elbow', 'shoulder')}`,
    );
    expectSceneError(() => loadScene(f), 2, 9, '3 copies attached to `arm` with 2');
  });

  test('root archetype with copies > 1', () => {
    const f = write(dir, 'rootcopies.arow', `archetype: arm\ncopies: 2\njoints:\n${joint('shoulder', 'null')}`);
    expectSceneError(() => loadScene(f), 2, 9, 'copies: 1 on the root');
  });

  test('two root archetypes', () => {
    const f = write(dir, 'tworoots.arow', `archetype: arm\nincludes: [bench_world.arow]\njoints:\n${joint('shoulder', 'null')}`);
    expectSceneError(() => loadScene(f), 1, 12, 'second root archetype');
  });

  test('attach to a missing joint', () => {
    const f = write(
      dir,
      'badjoint.arow',
      `archetype: arm\nincludes: [bench_world.arow]\nattach: {archetype: bench_world, joint: orign}\njoints:\n${joint('shoulder', 'null')}`,
    );
    expectSceneError(() => loadScene(f), 3, 41, '`orign`', 'did you mean `origin`?');
  });

  test('include cycle', () => {
    write(dir, 'cyc-b.arow', `archetype: b\nincludes: [cyc-a.arow]\nattach: {archetype: a, joint: j}\njoints:\n${joint('j', 'null')}`);
    const f = write(dir, 'cyc-a.arow', `archetype: a\nincludes: [cyc-b.arow]\njoints:\n${joint('j', 'null')}`);
    const e = expectSceneError(() => loadScene(f), 2, 12, 'include cycle');
    expect(e.file).toBe(`${dir}/cyc-b.arow`);
  });

  test('missing include file', () => {
    const f = write(dir, 'noinc.arow', `archetype: a\nincludes: [nowhere.arow]\njoints:\n${joint('j', 'null')}`);
    expectSceneError(() => loadScene(f), 2, 12, 'nowhere.arow', 'no such file (ENOENT)');
  });
});

describe('sim_config', () => {
  const dir = tempDir();
  test('angular base acceleration is refused', () => {
    const c = write(dir, 'c1.yaml', 'base_acceleration: {angular: [0, 1, 0], linear: [0, 0, -9.8]}\n');
    expectSceneError(() => loadScene(`${SHARED}/two_joint_arm.arow`, { config: c }), 1, 30, 'angular base acceleration is not supported');
  });
  test('moved world base is refused', () => {
    const c = write(dir, 'c2.yaml', 'world_base_transform:\n  translation: [0, 0, 1]\n  rotation: [1, 0, 0, 0]\n');
    expectSceneError(() => loadScene(`${SHARED}/two_joint_arm.arow`, { config: c }), 2, 16, 'not supported');
  });
  test('moving base is refused; unknown keys get did-you-mean; dt etc. apply', () => {
    const c = write(dir, 'c3.yaml', 'base_velocity: {angular: [0, 0, 0], linear: [1, 0, 0]}\n');
    expectSceneError(() => loadScene(`${SHARED}/two_joint_arm.arow`, { config: c }), 1, 45, 'moving base is not supported');
    const c4 = write(dir, 'c4.yaml', 'base_acceleraton: {linear: [0, 0, -9.8]}\n');
    expectSceneError(() => loadScene(`${SHARED}/two_joint_arm.arow`, { config: c4 }), 1, 1, 'did you mean `base_acceleration`?');
    const c5 = write(dir, 'c5.yaml', 'dt: 0.001\nintegrator: rk4\nsubsteps: 2\nduration: 3\n');
    expect(loadScene(`${SHARED}/two_joint_arm.arow`, { config: c5 }).world).toEqual({
      gravity: [0, 0, 0],
      dt: 0.001,
      integrator: 'rk4',
      substeps: 2,
      duration: 3,
    });
  });
});

describe('raw ball and free joints', () => {
  const dir = tempDir();
  const id6 = Array.from({ length: 36 }, (_, i) => (i % 7 === 0 ? 1 : 0)).join(', ');
  const ball3 = Array.from({ length: 36 }, (_, i) => (i === 0 || i === 7 || i === 14 ? 1 : 0)).join(', ');

  test('free root: velocity [ω_B; v_B] → [R·v_B; ω_B], ball child keeps its quaternion', () => {
    const c = Math.SQRT1_2;
    const text = `archetype: floater
joints:
  - name: base
    fields:
      joint_subspace: [${id6}]
      joint_activation_mask: [63]
      fixed_joint_transform: {translation: [0, 0, 0], rotation: [1, 0, 0, 0]}
      rigid_body_inertia: [2.0, 0, 0, 0, 0.1, 0.2, 0.25, 0, 0, 0]
      joint_position: {translation: [1, 2, 3], rotation: [${c}, 0, 0, ${c}]}
      joint_velocity: [0.1, 0.2, 0.3, 1, 0, 0]
  - name: head
    parent: base
    fields:
      joint_subspace: [${ball3}]
      joint_activation_mask: [7]
      fixed_joint_transform: {translation: [0, 0, 0.5], rotation: [1, 0, 0, 0]}
      rigid_body_inertia: [1.0, 0, 0, 0, 0.1, 0.1, 0.1, 0, 0, 0]
      joint_position: {translation: [0, 0, 0], rotation: [0, 1, 0, 0]}
      joint_velocity: [0, 0, 0.5, 0, 0, 0]
`;
    const m = loadScene(write(dir, 'free.arow', text));
    const [b, h] = m.bodies;
    expect(b.joint).toBe('free');
    close(b.q0, [1, 2, 3, c, 0, 0, c], 1e-15);
    // 90° about Z takes body x to world y
    close(b.v0, [0, 1, 0, 0.1, 0.2, 0.3], 1e-15);
    expect(h.joint).toBe('ball');
    expect(h.q0).toEqual([0, 1, 0, 0]);
    expect(h.v0).toEqual([0, 0, 0.5]);
  });

  test('ball columns that are not the angular identity are refused', () => {
    const swapped = Array.from({ length: 36 }, (_, i) => (i === 1 || i === 6 || i === 14 ? 1 : 0)).join(', ');
    const f = write(dir, 'ball-bad.arow', `archetype: a\njoints:\n${joint('j', 'null', '', `[${swapped}]`, 7)}`);
    expectSceneError(() => loadScene(f), 6, 23, '3 active columns that are not the angular identity');
  });
});

describe('eigenvalue check used for inertia', () => {
  test('rotated box inertia: same principal moments', async () => {
    const { symEigenvalues } = await import('../src/engine/math.js');
    // R·diag(1,2,3)·Rᵀ for a rotation of 0.3 rad about Z
    const cz = Math.cos(0.3);
    const sz = Math.sin(0.3);
    const I: [number, number, number, number, number, number] = [cz * cz + 2 * sz * sz, sz * sz + 2 * cz * cz, 3, cz * sz * (1 - 2), 0, 0];
    const ev = symEigenvalues(I);
    close(ev, [1, 2, 3], 1e-12);
    close(symEigenvalues([2, 2, 2, 1, 1, 1]), [1, 1, 4], 1e-12);
  });
});
