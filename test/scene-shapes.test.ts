// Shapes in the everyday dialect: every kind read into ShapeDesc (sizes, poses, from-to capsules,
// defaults, filter bits), static world shapes, excludes, and each mistake a SceneError at its node.
import { describe, expect, test } from 'vitest';
import { loadScene } from '../src/model-files/scene/index.js';
import { quatRotate } from '../src/engine/math.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';

const dir = tempDir();
const HEAD = `scene: s
links:
  - name: a
    parent: world
    joint: { type: revolute, axis: [1, 0, 0] }
    mass: 1
    com: [0, 0, -0.5]
    inertia: [0.1, 0.1, 0.01]
`;
/** HEAD plus link `a`'s shapes (lines from 9 on) and then `tail` at top level. */
const scene = (shapes: string, tail = ''): string => `${HEAD}    shapes:\n${shapes}${tail}`;
const load = (name: string, text: string) => loadScene(write(dir, name, text));
const bad = (name: string, text: string) => () => load(name, text);

describe('shape kinds', () => {
  test('sphere, capsule (length), box (size and half_extents), rounded box; defaults', () => {
    const m = load(
      'kinds.arow',
      scene(
        `      - { type: sphere, radius: 0.1 }
      - { type: capsule, radius: 0.05, length: 0.4, pos: [0, 0, -0.5], rpy: [1.5707963267948966, 0, 0] }
      - { type: box, size: [0.2, 0.4, 0.6], name: slab, friction: 0.5, contype: 2, conaffinity: 3, margin: 0.01, gap: 0.002, color: [1, 0, 0] }
      - { type: box, half_extents: [0.1, 0.2, 0.3] }
      - { type: rounded-box, half_extents: [0.1, 0, 0.3], radius: 0.02 }
`,
      ),
    );
    const s = m.shapes ?? [];
    expect(s.map((x) => [x.name, x.body, x.kind])).toEqual([
      ['a/sphere0', 0, 'sphere'],
      ['a/capsule1', 0, 'capsule'],
      ['slab', 0, 'box'],
      ['a/box3', 0, 'box'],
      ['a/rounded-box4', 0, 'rounded-box'],
    ]);
    expect(s[0]).toMatchObject({
      halfExtents: [0, 0, 0],
      radius: 0.1,
      pos: [0, 0, 0],
      quat: [1, 0, 0, 0],
      friction: 1,
      contype: 1,
      conaffinity: 1,
      margin: 0,
      gap: 0,
    });
    expect(s[1]).toMatchObject({ halfExtents: [0, 0, 0.2], radius: 0.05, pos: [0, 0, -0.5] });
    expect(s[2]).toMatchObject({
      halfExtents: [0.1, 0.2, 0.3],
      radius: 0,
      friction: 0.5,
      contype: 2,
      conaffinity: 3,
      margin: 0.01,
      gap: 0.002,
      color: [1, 0, 0],
    });
    expect(s[3].halfExtents).toEqual([0.1, 0.2, 0.3]);
    expect(s[4]).toMatchObject({ halfExtents: [0.1, 0, 0.3], radius: 0.02 });
    expect(m.excludes).toBeUndefined();
  });

  test('capsule from-to: pose at the midpoint, shape z along to − from', () => {
    const m = load('ft.arow', scene('      - { type: capsule, radius: 0.03, from: [0, 0, 0], to: [0, 0.3, -0.4] }\n'));
    const c = (m.shapes ?? [])[0];
    expect(c.pos).toEqual([0, 0.15, -0.2]);
    expect(c.halfExtents[2]).toBeCloseTo(0.25, 15);
    const z = quatRotate(c.quat, [0, 0, 1]);
    [0, 0.6, -0.8].forEach((x, k) => expect(z[k]).toBeCloseTo(x, 15));
    const down = load('ft2.arow', scene('      - { type: capsule, radius: 0.03, from: [0, 0, 1], to: [0, 0, -1] }\n'));
    const zd = quatRotate((down.shapes ?? [])[0].quat, [0, 0, 1]);
    [0, 0, -1].forEach((x, k) => expect(zd[k]).toBeCloseTo(x, 15));
  });

  test('static world shapes (a plane, a wall) at top level with link: world, and excludes', () => {
    const m = load(
      'static.arow',
      `${HEAD}  - name: b\n    parent: a\n    joint: { type: ball }\n    mass: 1\n    inertia: [0.1, 0.1, 0.1]\nshapes:\n  - { link: world, type: plane, name: floor, pos: [0, 0, -2] }\n  - { link: world, type: box, size: [0.1, 4, 1], pos: [1, 0, 0] }\n  - { link: b, type: sphere, radius: 0.2 }\nexclude: [[a, b], [world, a]]\n`,
    );
    expect((m.shapes ?? []).map((x) => [x.name, x.body, x.kind])).toEqual([
      ['floor', -1, 'plane'],
      ['world/box1', -1, 'box'],
      ['b/sphere0', 1, 'sphere'],
    ]);
    expect(m.excludes).toEqual([
      [0, 1],
      [-1, 0],
    ]);
  });

  test('one shape may be given as a mapping instead of a list', () => {
    const m = load('one.arow', `${HEAD}    shapes: { type: sphere, radius: 0.1 }\n`);
    expect(m.shapes?.length).toBe(1);
  });
});

describe('shape errors', () => {
  test('negative radius', () => {
    expectSceneError(bad('r.arow', scene('      - { type: sphere, radius: -0.1 }\n')), 10, 33, 'radius', '-0.1', 'a number > 0');
  });
  test('negative extents', () => {
    expectSceneError(bad('e.arow', scene('      - { type: box, half_extents: [0.1, -0.2, 0.3] }\n')), 10, 36, 'half-extents >= 0');
    expectSceneError(
      bad('e2.arow', scene('      - { type: rounded-box, half_extents: [0.1, 0.2, 0.3], radius: -1 }\n')),
      10,
      69,
      'a number >= 0',
    );
  });
  test('a shape on a link that does not exist', () => {
    expectSceneError(
      bad('l.arow', `${HEAD}shapes:\n  - { link: aa, type: sphere, radius: 0.1 }\n`),
      10,
      13,
      '`aa`, which is not a link',
      'did you mean `a`?',
    );
  });
  test('a plane attached to a moving link', () => {
    expectSceneError(
      bad('p.arow', scene('      - { type: plane }\n')),
      10,
      17,
      'a plane on link `a`, which moves',
      'static world geometry',
    );
    expectSceneError(bad('p2.arow', `${HEAD}shapes:\n  - { link: a, type: plane }\n`), 10, 13, 'a plane on link `a`');
  });
  test('a mask that is not an integer (or out of range)', () => {
    expectSceneError(
      bad('m.arow', scene('      - { type: sphere, radius: 0.1, contype: 1.5 }\n')),
      10,
      47,
      'contype',
      '1.5',
      'an integer bit mask',
    );
    expectSceneError(
      bad('m2.arow', scene('      - { type: sphere, radius: 0.1, conaffinity: 4294967296 }\n')),
      10,
      51,
      'an integer bit mask',
    );
    expectSceneError(bad('m3.arow', scene('      - { type: sphere, radius: 0.1, conaffinity: -1 }\n')), 10, 51, 'an integer bit mask');
  });
  test('unknown shape keys: did-you-mean, or the kind the key belongs to', () => {
    expectSceneError(
      bad('k.arow', scene('      - { type: sphere, radius: 0.1, frction: 1 }\n')),
      10,
      38,
      'unknown key `frction`',
      'did you mean `friction`?',
    );
    expectSceneError(
      bad('k2.arow', scene('      - { type: sphere, radius: 0.1, size: [1, 1, 1] }\n')),
      10,
      38,
      'unknown key `size` for a sphere',
      'belongs to a box',
    );
    expectSceneError(bad('k3.arow', scene('      - { type: sphear, radius: 0.1 }\n')), 10, 17, '`sphear`', 'did you mean `sphere`?');
  });
  test('missing or conflicting sizes', () => {
    expectSceneError(bad('s1.arow', scene('      - { type: capsule, radius: 0.1 }\n')), 10, 9, 'no `length` key');
    expectSceneError(
      bad('s2.arow', scene('      - { type: box, size: [1, 1, 1], half_extents: [1, 1, 1] }\n')),
      10,
      9,
      'both `size` and `half_extents`',
    );
    expectSceneError(
      bad('s3.arow', scene('      - { type: capsule, radius: 0.1, from: [0, 0, 0], to: [0, 0, 0] }\n')),
      10,
      60,
      'the same point as `from`',
    );
    expectSceneError(
      bad('s4.arow', scene('      - { type: capsule, radius: 0.1, from: [0, 0, 0], to: [0, 0, 1], pos: [0, 0, 0] }\n')),
      10,
      71,
      '`pos` together with `from`/`to`',
    );
  });
  test('duplicate shape names; top-level shape without link', () => {
    expectSceneError(
      bad('d.arow', scene('      - { type: sphere, radius: 0.1, name: x }\n      - { type: sphere, radius: 0.1, name: x }\n')),
      11,
      9,
      'the shape name `x` again',
    );
    expectSceneError(bad('nl.arow', `${HEAD}shapes:\n  - { type: sphere, radius: 0.1 }\n`), 10, 5, 'no `link` key');
  });
  test('exclude of an unknown link, or of a link with itself', () => {
    expectSceneError(bad('x.arow', `${HEAD}exclude: [[a, b]]\n`), 9, 15, '`b`, which is not a link');
    expectSceneError(bad('x2.arow', `${HEAD}exclude: [[a, a]]\n`), 9, 11, 'paired with itself');
  });
});

describe('mass_from_shapes', () => {
  const withDensity = (shapes: string, density = 1000): string =>
    `scene: m\nlinks:\n  - name: a\n    parent: world\n    joint: { type: ball }\n    mass_from_shapes: { density: ${density} }\n    shapes:\n${shapes}`;
  test('sphere, box and capsule match the textbook formulas', () => {
    const r = 0.1;
    const sp = load('ms.arow', withDensity('      - { type: sphere, radius: 0.1 }\n')).bodies[0];
    const ms = 1000 * (4 / 3) * Math.PI * r ** 3;
    expect(sp.mass).toBeCloseTo(ms, 12);
    [0.4 * ms * r * r, 0.4 * ms * r * r, 0.4 * ms * r * r, 0, 0, 0].forEach((x, k) => expect(sp.inertia[k]).toBeCloseTo(x, 14));

    const bx = load('mb.arow', withDensity('      - { type: box, size: [0.2, 0.4, 0.6], pos: [1, 0, 0] }\n')).bodies[0];
    const mb = 1000 * 0.2 * 0.4 * 0.6;
    expect(bx.mass).toBeCloseTo(mb, 12);
    expect(bx.com).toEqual([1, 0, 0]);
    [(mb / 12) * (0.16 + 0.36), (mb / 12) * (0.04 + 0.36), (mb / 12) * (0.04 + 0.16)].forEach((x, k) =>
      expect(bx.inertia[k]).toBeCloseTo(x, 12),
    );

    // capsule along y (from-to): cylinder + two hemispheres, I⊥ = m_c(r²/4 + L²/12) + m_h(2r²/5 + l² + 3lr/4)
    const cp = load('mc.arow', withDensity('      - { type: capsule, radius: 0.05, from: [0, 0, 0], to: [0, 0.6, 0] }\n')).bodies[0];
    const rc = 0.05;
    const l = 0.3;
    const mc = 1000 * Math.PI * rc * rc * 2 * l;
    const mh = 1000 * (4 / 3) * Math.PI * rc ** 3;
    expect(cp.mass).toBeCloseTo(mc + mh, 12);
    [0, 0.3, 0].forEach((x, k) => expect(cp.com[k]).toBeCloseTo(x, 15));
    const perp = mc * ((rc * rc) / 4 + (2 * l) ** 2 / 12) + mh * ((2 * rc * rc) / 5 + l * l + (3 * l * rc) / 4);
    const axial = (mc * rc * rc) / 2 + (mh * (2 * rc * rc)) / 5;
    [perp, axial, perp].forEach((x, k) => expect(cp.inertia[k]).toBeCloseTo(x, 13));
  });

  test('rounded box: exact closed form agrees with a midpoint-rule integration of the solid', () => {
    const h = [0.3, 0.2, 0.1];
    const r = 0.05;
    const b = load('mr.arow', withDensity(`      - { type: rounded-box, half_extents: [${h.join(', ')}], radius: ${r} }\n`, 1)).bodies[0];
    const N = 120;
    const ext = h.map((x) => x + r);
    let vol = 0;
    const s2 = [0, 0, 0];
    const cell = (8 * ext[0] * ext[1] * ext[2]) / N ** 3;
    for (let i = 0; i < N; i++)
      for (let j = 0; j < N; j++)
        for (let k = 0; k < N; k++) {
          const p = [((i + 0.5) / N) * 2 - 1, ((j + 0.5) / N) * 2 - 1, ((k + 0.5) / N) * 2 - 1].map((u, a) => u * ext[a]);
          const d2 = p.reduce((acc, x, a) => acc + Math.max(Math.abs(x) - h[a], 0) ** 2, 0);
          if (d2 <= r * r) {
            vol += cell;
            for (let a = 0; a < 3; a++) s2[a] += cell * p[a] * p[a];
          }
        }
    expect(Math.abs(b.mass - vol) / vol).toBeLessThan(2e-3);
    const Iq = [s2[1] + s2[2], s2[0] + s2[2], s2[0] + s2[1]];
    for (let a = 0; a < 3; a++) expect(Math.abs(b.inertia[a] - Iq[a]) / Iq[a]).toBeLessThan(3e-3);
  });

  test('mass_from_shapes together with mass, or without shapes, is an error', () => {
    expectSceneError(
      bad('mm.arow', withDensity('      - { type: sphere, radius: 0.1 }\n').replace('    mass_from', '    mass: 1\n    mass_from')),
      6,
      5,
      '`mass` together with `mass_from_shapes`',
    );
    expectSceneError(
      bad('mn.arow', `scene: m\nlinks:\n  - name: a\n    parent: world\n    joint: { type: ball }\n    mass_from_shapes: { density: 1 }\n`),
      6,
      5,
      'without shapes',
    );
    expectSceneError(bad('md.arow', withDensity('      - { type: sphere, radius: 0.1 }\n', -1)), 6, 34, 'a number > 0');
  });
});

describe('achilles export --mjcf with shapes', () => {
  const rounded = `${HEAD}    shapes: { type: rounded-box, half_extents: [0.1, 0.1, 0.1], radius: 0.02 }\n`;
  test('a rounded box: an error naming the flag; --approximate-rounded writes the pieces; --contacts off disables', async () => {
    const { cli } = await import('./helpers/cli.js');
    const f = write(dir, 'cli-rb.arow', rounded);
    const bad = await cli('export', f, '--mjcf');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/shape 'a\/rounded-box0' is a rounded box, which MuJoCo has no geom for; pass --approximate-rounded/);
    const ok = await cli('export', f, '--mjcf', '--approximate-rounded');
    expect(ok.code).toBe(0);
    expect(ok.stdout.match(/<geom name="a\/rounded-box0_\d+"/g)?.length).toBe(15);
    expect(ok.stdout).not.toMatch(/contact="disable"/);
    const off = await cli('export', f, '--mjcf', '--approximate-rounded', '--contacts', 'off');
    expect(off.stdout).toMatch(/<flag contact="disable"\/>/);
  });
});
