// Contact and limit settings of the everyday dialect (solref, solimp, condim, physical stiffness and
// damping on shapes; range and limit on joints; world.solver): read into ModelDesc, each mistake a
// SceneError at its node, and the MJCF export handing MuJoCo the same settings (read back from
// MuJoCo's compiled model).
import { describe, expect, test } from 'vitest';
import { spawnAsync } from './helpers/spawn-async.js';
import { exportMjcf, loadScene } from '../src/model-files/scene/index.js';
import { physicalSolref, solrefToPhysical } from '../src/model-files/scene/contact-settings.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';

const dir = tempDir();
const scene = (joint: string, shape: string, world = '') => `scene: s
world: { dt: 0.002${world} }
links:
  - name: a
    parent: world
    joint: { ${joint} }
    mass: 2
    inertia: [0.1, 0.1, 0.1]
    shapes: { type: sphere, radius: 0.1${shape} }
shapes:
  - { link: world, type: plane, name: floor, solref: [0.01, 0.8] }
`;
const load = (name: string, text: string) => loadScene(write(dir, name, text));
const bad = (name: string, text: string) => () => load(name, text);
const HINGE = 'type: revolute, axis: [0, 1, 0]';
/** Expects the scene error at the first occurrence of `at` in the text (1-based line and column). */
function check(name: string, text: string, at: string, ...patterns: string[]): void {
  const off = text.indexOf(at);
  expect(off, `'${at}' in the scene text`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, off).split('\n');
  expectSceneError(bad(name, text), before.length, before[before.length - 1].length + 1, ...patterns);
}

describe('reading', () => {
  test('defaults: no range, no solver, shapes without solref/solimp/condim (MuJoCo defaults apply)', () => {
    const m = load('d.arow', scene(HINGE, ''));
    expect(m.bodies[0].range).toBeUndefined();
    expect(m.bodies[0].limit).toBeUndefined();
    expect(m.solver).toBeUndefined();
    expect(m.shapes?.[0].solref).toBeUndefined();
    expect(m.shapes?.[0].condim).toBeUndefined();
    expect(m.shapes?.[1].solref).toEqual([0.01, 0.8]);
  });

  test('solref, solimp, condim; range with default and given limit settings; solver', () => {
    const m = load(
      'all.arow',
      scene(
        `${HINGE}, range: [-0.5, 1.25], limit: { solref: [0.03, 0.7], margin: 0.01 }`,
        ', solref: [-5000, -40], solimp: [0.8, 0.99, 0.002, 0.4, 3], condim: 1',
        ', solver: { iterations: 50, impratio: 2 }',
      ),
    );
    expect(m.shapes?.[0]).toMatchObject({ solref: [-5000, -40], solimp: [0.8, 0.99, 0.002, 0.4, 3], condim: 1 });
    expect(m.bodies[0].range).toEqual([-0.5, 1.25]);
    expect(m.bodies[0].limit).toEqual({ solref: [0.03, 0.7], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0.01 });
    expect(m.solver).toEqual({ iterations: 50, impratio: 2 });
    expect(load('t.arow', scene(HINGE, '', ', solver: { tolerance: 1e-8 }')).solver).toEqual({
      iterations: 20,
      impratio: 1,
      tolerance: 1e-8,
    });
    expect(load('c.arow', scene(HINGE, '', ', solver: { cone: elliptic }')).solver).toEqual({
      iterations: 20,
      impratio: 1,
      cone: 'elliptic',
    });
    const p = load('p.arow', scene('type: prismatic, axis: [0, 0, 1], range: [0, 0.3]', ''));
    expect(p.bodies[0].limit).toEqual({ solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 });
  });

  test('physical stiffness (N/m) and damping (N·s/m) → direct solref [−k/m, −c/m] with the link mass (2 kg)', () => {
    const m = load('k.arow', scene(HINGE, ', contact: { stiffness: 20000, damping: 100 }'));
    expect(m.shapes?.[0].solref).toEqual([-10000, -50]);
    expect(solrefToPhysical(m.shapes![0].solref!, 2)).toEqual({ stiffness: 20000, damping: 100 });
    expect(physicalSolref(300, 0, 3)).toEqual([-100, 0]);
  });

  test('each mistake at its node', () => {
    check('r1.arow', scene(HINGE, ', solref: [0.02, -1]'), '[0.02, -1]', 'solref', '[0.02, -1]', 'mixed-sign');
    check('r2.arow', scene(HINGE, ', solref: [0.02]'), '[0.02]', '1 number', 'a list of 2 numbers');
    check('i1.arow', scene(HINGE, ', solimp: [0.9, 1.2, 0.001, 0.5, 2]'), '1.2', 'dmax', '1.2', '0.9999');
    check('i2.arow', scene(HINGE, ', solimp: [0.9, 0.95, 0.001, 0.5, 0.5]'), '0.5]', 'power', 'a whole power from 1 to 16');
    check('i4.arow', scene(HINGE, ', solimp: [0.9, 0.95, 0.001, 0.5, 2.5]'), '2.5]', 'power', 'without pow');
    check('i3.arow', scene(HINGE, ', solimp: [0.9, 0.95, 0.001]'), '[0.9, 0.95, 0.001]', '3 numbers', 'all 5 numbers');
    check('c.arow', scene(HINGE, ', condim: 5'), '5 }', 'condim', '5', '1 (frictionless), 3 (sliding friction), 4 (and torsional) or 6');
    check(
      'f1.arow',
      scene(HINGE, ', friction: [1, -0.1, 0]'),
      '[1, -0.1, 0]',
      'friction',
      'three numbers >= 0 (sliding, torsional, rolling)',
    );
    check('f2.arow', scene(HINGE, ', friction: [1, 0.1]'), '[1, 0.1]', 'friction', 'a list of 3 numbers');
    check('k1.arow', scene(HINGE, ', contact: { stiffness: 0 }'), '0 }', 'stiffness', 'a stiffness > 0 (N/m)');
    check('k2.arow', scene(HINGE, ', contact: { stiffness: 10, damping: 1 }, solref: [0.02, 1]'), 'contact', 'both `solref` and `contact`');
    check('k3.arow', scene(HINGE, ', contact: { stifness: 10 }'), 'stifness', 'unknown key `stifness`', 'did you mean `stiffness`');
    check('rg1.arow', scene(`${HINGE}, range: [1, -1]`, ''), '[1, -1]', 'range', 'lower < upper (rad)');
    check('rg2.arow', scene('type: free, range: [0, 1]', ''), 'range', 'a range on a free joint');
    check('rg6.arow', scene('type: ball, range: [0.2, 1]', ''), '[0.2, 1]', 'range', '[0, max angle] on a ball joint');
    check('rg3.arow', scene(`${HINGE}, limit: { margin: 0.1 }`, ''), 'limit', '`limit` without `range`');
    check('rg4.arow', scene(`${HINGE}, range: [0, 1], limit: { margin: -1 }`, ''), '-1 }', 'margin', 'a margin >= 0');
    check('rg5.arow', scene(`${HINGE}, range: [0, 1], limit: { solref: [-1, 1] }`, ''), '[-1, 1]', 'mixed-sign');
    check('s1.arow', scene(HINGE, '', ', solver: { iterations: 0 }'), '0 }', 'iterations', 'an integer from 1 to 1000');
    check('s2.arow', scene(HINGE, '', ', solver: { impratio: -1 }'), '-1 }', 'impratio', 'a ratio > 0');
    check('s3.arow', scene(HINGE, '', ', solver: { tolerance: 1 }'), '1 }', 'tolerance', 'a tolerance in [0, 1)');
    check('s4.arow', scene(HINGE, '', ', solver: { iteration: 5 }'), 'iteration:', 'unknown key `iteration`', 'did you mean `iterations`');
    check('s5.arow', scene(HINGE, '', ', solver: { cone: round }'), 'round', 'cone', 'pyramidal', 'elliptic');
    check('s6.arow', scene(HINGE, '', ', solver: { method: pgs, cone: elliptic }'), 'elliptic', 'cone', 'pyramidal with method pgs');
    // the engine's PGS stops at NEWTON_MAX_DOFS: said at the method, not by the native core unplaced
    const free = (i: number) => `  - { name: f${i}, parent: world, joint: { type: free }, mass: 1, inertia: [0.1, 0.1, 0.1] }\n`;
    const text = scene(HINGE, '', ', solver: { method: pgs }').replace(
      'shapes:\n',
      Array.from({ length: 11 }, (_, i) => free(i)).join('') + 'shapes:\n',
    );
    check('s7.arow', text, 'pgs', 'world.solver.method', 'pgs for a model of 67 dofs', 'cg or newton, or a model of at most 64 dofs');
    expect(load('s8.arow', scene(HINGE, '', ', solver: { method: pgs }')).solver?.method).toBe('pgs');
    // so does its noslip post-solve
    const noslip = scene(HINGE, '', ', solver: { noslipIterations: 2 }').replace(
      'shapes:\n',
      Array.from({ length: 11 }, (_, i) => free(i)).join('') + 'shapes:\n',
    );
    check('s9.arow', noslip, '2 } }', 'world.solver.noslipIterations', '2 for a model of 67 dofs', '0, or a model of at most 64 dofs');
  });

  test('physical stiffness needs a mass: refused on static shapes', () => {
    const text = scene(HINGE, '').replace('solref: [0.01, 0.8]', 'contact: { stiffness: 100 }');
    check('w.arow', text, 'contact', 'static (world) shape', 'a `solref` on static shapes');
  });
});

// MuJoCo's compiled model of the export: the same settings arrive.
const PY = `
import json, sys, mujoco
m = mujoco.MjModel.from_xml_path(sys.argv[1])
print(json.dumps(dict(
  geom_solref=m.geom_solref.tolist(), geom_solimp=m.geom_solimp.tolist(), geom_condim=m.geom_condim.tolist(),
  geom_friction=m.geom_friction.tolist(),
  jnt_limited=m.jnt_limited.tolist(), jnt_range=m.jnt_range.tolist(), jnt_solref=m.jnt_solref.tolist(),
  jnt_solimp=m.jnt_solimp.tolist(), jnt_margin=m.jnt_margin.tolist(), cone=int(m.opt.cone), solver=int(m.opt.solver),
  iterations=int(m.opt.iterations), tolerance=float(m.opt.tolerance), impratio=float(m.opt.impratio))))
`;

describe('MJCF export', () => {
  test('MuJoCo compiles the same solref, solimp, condim, range, limit settings and solver options', async () => {
    const m = load(
      'x.arow',
      scene(
        `${HINGE}, range: [-0.5, 1.25], limit: { solref: [0.03, 0.7], solimp: [0.8, 0.9, 0.01, 0.3, 2], margin: 0.01 }`,
        ', solref: [-5000, -40], solimp: [0.8, 0.99, 0.002, 0.4, 3], condim: 1',
        ', solver: { iterations: 50, impratio: 2, cone: elliptic }',
      ),
    );
    const xml = write(dir, 'x.xml', exportMjcf(m, { contacts: true }));
    // awaited, not synchronous: the worker's event loop keeps turning meanwhile (issue 23)
    const r = await spawnAsync(process.env.ACHILLES_PYTHON || 'python3', ['-c', PY, xml]);
    expect(r.status, r.stderr).toBe(0);
    const mj = JSON.parse(r.stdout);
    // geoms: the world plane first (static shapes under worldbody), then the link's sphere
    expect(mj.geom_solref).toEqual([
      [0.01, 0.8],
      [-5000, -40],
    ]);
    expect(mj.geom_solimp).toEqual([
      [0.9, 0.95, 0.001, 0.5, 2],
      [0.8, 0.99, 0.002, 0.4, 3],
    ]);
    expect(mj.geom_condim).toEqual([3, 1]);
    expect(mj.jnt_limited).toEqual([true]);
    expect(mj.jnt_range).toEqual([[-0.5, 1.25]]);
    expect(mj.jnt_solref).toEqual([[0.03, 0.7]]);
    expect(mj.jnt_solimp).toEqual([[0.8, 0.9, 0.01, 0.3, 2]]);
    expect(mj.jnt_margin).toEqual([0.01]);
    expect(mj).toMatchObject({ cone: 1, solver: 1, iterations: 50, tolerance: 0, impratio: 2 }); // mjCONE_ELLIPTIC
  });

  test('condim 6 and friction [sliding, torsional, rolling] reach MuJoCo as geom_condim and geom_friction', async () => {
    const m = load('f.arow', scene(HINGE, ', condim: 6, friction: [0.8, 0.02, 0.001]'));
    expect(m.shapes?.[0]).toMatchObject({ condim: 6, friction: 0.8, torsionalFriction: 0.02, rollingFriction: 0.001 });
    const xml = write(dir, 'f.xml', exportMjcf(m, { contacts: true }));
    const r = await spawnAsync(process.env.ACHILLES_PYTHON || 'python3', ['-c', PY, xml]);
    expect(r.status, r.stderr).toBe(0);
    const mj = JSON.parse(r.stdout);
    expect(mj.geom_condim).toEqual([3, 6]);
    // the plane keeps MuJoCo's default torsional and rolling parts
    expect(mj.geom_friction).toEqual([
      [1, 0.005, 0.0001],
      [0.8, 0.02, 0.001],
    ]);
  });
});
