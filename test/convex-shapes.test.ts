// MuJoCo's cylinders and ellipsoids as shapes (issue 27): imported as themselves (no stand-in), read
// from scenes with their textbook mass, written back to .arow and MJCF, run bit-identically at every
// lane width and thread count, multiccd's pairs kept, and so the faceted pairs at zero margin (MuJoCo
// 3.14's face clipping, a cylinder's cap as a 16-gon, its side as a segment). Their contacts against
// MuJoCo are the import stage's (validation/import, fixture mjcf-contact-convex.xml: per-state rows
// and q̈, and a trajectory), the contact stage's (models-cylinder.ts) and test/clip-contacts.test.ts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { importFile } from '../src/model-files/import/index.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { exportMjcf } from '../src/model-files/scene/mjcf-writer.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';
import { spawnAsync } from './helpers/spawn-async.js';
import { expectSameAcrossLanesAndThreads } from './helpers/lanes.js';

const FIXTURE = join(FIXTURE_DIR, 'mjcf-contact-convex.xml');
const dir = mkdtempSync(join(tmpdir(), 'achilles-convex-'));

const mjcf = (geoms: string): string => {
  const f = join(dir, `m${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(f, `<mujoco>\n  <worldbody>\n    <geom name="floor" type="plane" size="0 0 1"/>\n${geoms}\n  </worldbody>\n</mujoco>\n`);
  return f;
};

/** MuJoCo's compile of the model exported to MJCF with the links' inertia taken from their geoms
 *  (density 1000), read by a Python expression over m (MjModel) and R (body 1's inertial frame). */
async function mujocoFromGeoms(model: ModelDesc, expression: string): Promise<unknown> {
  const xml = exportMjcf(model)
    .replace('inertiafromgeom="false"', 'inertiafromgeom="true"')
    .replace(/<inertial [^>]*\/>/, '');
  const script =
    'import sys, json, mujoco, numpy as np; m = mujoco.MjModel.from_xml_string(sys.stdin.read()); d = mujoco.MjData(m); ' +
    `mujoco.mj_forward(m, d); R = d.ximat[1].reshape(3, 3); print(${expression})`;
  const py = await spawnAsync('python3', ['-c', script], { input: xml });
  expect(py.status, py.stderr).toBe(0);
  return JSON.parse(py.stdout);
}

describe('cylinders and ellipsoids', () => {
  test("import as MuJoCo's own geoms, sized as geom_size, with no approximation notes", () => {
    const imp = importFile(FIXTURE);
    const kinds = Object.fromEntries((imp.model.shapes ?? []).map((s) => [s.name, [s.kind, s.size]]));
    expect(kinds.drum).toEqual(['cylinder', [0.1, 0.15, 0]]);
    expect(kinds.egg).toEqual(['ellipsoid', [0.05, 0.07, 0.1]]);
    expect(imp.notes.filter((n) => n.kind === 'approximated')).toEqual([]);
  });

  test("multiccd's pairs are kept (cylinder–capsule; cylinder–box with a margin), and so are faceted pairs at zero margin (MuJoCo 3.14's face clipping, a cylinder's cap as a 16-gon)", () => {
    const can = `    <body pos="0 0 1"><freejoint/><geom name="can" type="cylinder" size="0.1 0.1"/><geom name="egg" type="ellipsoid" size="0.1 0.1 0.2" pos="0 0 0.3"/></body>\n`;
    const rod = `    <body pos="0 0 2"><freejoint/><geom name="rod" type="capsule" size="0.05 0.2"/></body>`;
    const kept = importFile(mjcf(can + rod));
    expect(kept.model.shapes!.map((s) => s.kind)).toEqual(['cylinder', 'ellipsoid', 'capsule', 'plane']);
    expect(kept.notes.filter((n) => n.kind === 'approximated')).toEqual([]);
    expect(() => new Batch(kept.model, { copies: 1 })).not.toThrow();
    // a box beside the can: at zero margin MuJoCo 3.14 clips the faces (the can's cap as a 16-gon), as the engine does: kept
    const block = (extra: string) => `    <body pos="0 0 2"><freejoint/><geom name="block" type="box" size="0.1 0.1 0.1"${extra}/></body>`;
    const imp = importFile(mjcf(can + block('')));
    expect(imp.model.shapes!.map((s) => s.kind)).toEqual(['cylinder', 'ellipsoid', 'box', 'plane']);
    expect(imp.notes.filter((n) => n.kind === 'approximated')).toEqual([]);
    expect(() => new Batch(imp.model, { copies: 1 })).not.toThrow();
    // with a margin on either shape MuJoCo runs multiccd instead: kept
    const margin = importFile(mjcf(can + block(' margin="0.001"')));
    expect(margin.model.shapes!.map((s) => s.kind)).toEqual(['cylinder', 'ellipsoid', 'box', 'plane']);
    expect(() => new Batch(margin.model, { copies: 1 })).not.toThrow();
    // a gap alone does it too (MuJoCo hands its colliders margin + gap)
    const gap = importFile(mjcf(can + block(' gap="0.001"')));
    expect(gap.model.shapes!.map((s) => s.kind)).toEqual(['cylinder', 'ellipsoid', 'box', 'plane']);
    expect(() => new Batch(gap.model, { copies: 1 })).not.toThrow();
  });

  test('a cylinder on a box and a box on a cylinder (face clipping at zero margin): bit-identical at every lane width and on two threads', () => {
    const f = mjcf(
      `    <body pos="0 0 0.1"><geom name="table" type="box" size="0.3 0.3 0.1"/></body>\n` +
        `    <body pos="0.1 0 0.3"><freejoint/><geom name="can" type="cylinder" size="0.05 0.1"/></body>\n` +
        `    <body pos="-0.1 0 0.25"><freejoint/><geom name="log" type="cylinder" size="0.04 0.1" euler="0 90 0"/></body>\n` +
        `    <body pos="0.1 0 0.43"><freejoint/><geom name="lid" type="box" size="0.03 0.03 0.03"/></body>`,
    );
    const model = importFile(f).model;
    expect(model.shapes!.filter((s) => s.kind === 'cylinder')).toHaveLength(2);
    const q0 = model.bodies.flatMap((b) => b.q0);
    expectSameAcrossLanesAndThreads(model, (r) => ({ q: q0.map((x, k) => (k % 7 === 2 ? x + 0.002 * Math.sin(r + k) : x)) }), 11, 150);
  });

  test('<flag multiccd="disable"/>: faceted pairs at zero margin are kept (MuJoCo gives them one GJK/EPA contact), and the flag travels to the engine, MJCF and .arow', () => {
    const can = `    <body pos="0 0 1"><freejoint/><geom name="can" type="cylinder" size="0.1 0.1"/></body>\n`;
    const block = `    <body pos="0 0 2"><freejoint/><geom name="block" type="box" size="0.1 0.1 0.1"/></body>`;
    const f = mjcf(can + block);
    writeFileSync(f, readFileSync(f, 'utf8').replace('<mujoco>', '<mujoco>\n  <option><flag multiccd="disable"/></option>'));
    const imp = importFile(f);
    expect(imp.model.shapes!.map((s) => s.kind)).toEqual(['cylinder', 'box', 'plane']);
    expect(imp.model.world.multiccd).toBe(false);
    expect(imp.notes.filter((n) => n.kind === 'approximated')).toEqual([]);
    expect(
      imp.notes.some(
        (n) => n.kind === 'as-mujoco' && /flag multiccd="disable": every pair MuJoCo collides with mjc_Convex/.test(n.message),
      ),
    ).toBe(true);
    expect(() => new Batch(imp.model, { copies: 1 })).not.toThrow();
    expect(exportMjcf(imp.model)).toMatch(/<flag contact="disable" multiccd="disable"\/>/);
    const arow = join(dir, 'multiccd-off.arow');
    writeFileSync(arow, writeArow(imp.model, []));
    expect(readFileSync(arow, 'utf8')).toMatch(/world: \{.*, multiccd: disable/);
    expect(loadScene(arow).world.multiccd).toBe(false);
    // the same model with multiccd on (an API user's) runs MuJoCo's face clipping instead
    const on = structuredClone(imp.model);
    delete on.world.multiccd;
    expect(() => new Batch(on, { copies: 1 })).not.toThrow();
  });

  test('GJK/EPA settings away from MuJoCo 3.14 defaults are refused at their line once a cylinder or ellipsoid is collided', () => {
    const f = mjcf('    <body pos="0 0 1"><freejoint/><geom type="ellipsoid" size="0.1 0.1 0.2"/></body>');
    writeFileSync(f, readFileSync(f, 'utf8').replace('<mujoco>', '<mujoco>\n  <option ccd_iterations="20"/>'));
    expect(() => importFile(f)).toThrow(/:2:11: option ccd_iterations: found "20", expected ccd_iterations="35" \(MuJoCo's default/);
  });

  test('bit-identical at every lane width and on two threads, robots started apart', () => {
    const model = importFile(FIXTURE).model;
    const q0 = model.bodies.flatMap((b) => b.q0);
    expectSameAcrossLanesAndThreads(model, (r) => ({ q: q0.map((x, k) => (k % 7 === 2 ? x + 0.002 * Math.sin(r + k) : x)) }), 11, 150);
  });

  test("multiccd's contacts (each with its own normal): bit-identical at every lane width and on two threads", () => {
    const model = importFile(join(FIXTURE_DIR, 'mjcf-contact-multiccd.xml'), { keyframe: '0' }).model;
    expect(model.shapes!.filter((s) => s.kind === 'cylinder')).toHaveLength(2);
    const q0 = model.bodies.flatMap((b) => b.q0);
    expectSameAcrossLanesAndThreads(model, (r) => ({ q: q0.map((x, k) => (k % 7 === 2 ? x + 0.0005 * Math.sin(r + k) : x)) }), 11, 150);
  });

  test('scenes: read with their textbook mass, written back to .arow and MJCF alike', async () => {
    const f = join(dir, 's.arow');
    writeFileSync(
      f,
      [
        'scene: wheel',
        'world: { gravity: [0, 0, -9.81], dt: 0.002 }',
        'links:',
        '  - name: wheel',
        '    parent: world',
        '    joint: { type: free }',
        '    initial: { position: [0, 0, 0.5, 0, 0, 0] }',
        '    mass_from_shapes: { density: 1000 }',
        '    shapes:',
        '      - { type: cylinder, radius: 0.1, length: 0.2 }',
        '      - { type: ellipsoid, radii: [0.05, 0.1, 0.2], pos: [0, 0, 0.3] }',
        'shapes:',
        '  - { link: world, type: plane }',
        '',
      ].join('\n'),
    );
    const model = loadScene(f);
    const [cyl, ell] = model.shapes!.filter((s) => s.body === 0);
    expect([cyl.kind, cyl.size, ell.kind, ell.size]).toEqual(['cylinder', [0.1, 0.1, 0], 'ellipsoid', [0.05, 0.1, 0.2]]);
    const mc = 1000 * Math.PI * 0.1 ** 2 * 0.2;
    const me = 1000 * (4 / 3) * Math.PI * 0.05 * 0.1 * 0.2;
    expect(model.bodies[0].mass).toBeCloseTo(mc + me, 12);
    // .arow round trip
    const back = join(dir, 'back.arow');
    writeFileSync(back, writeArow(model, ['round trip']));
    expect(loadScene(back).shapes).toEqual(model.shapes!.map((s) => ({ ...s, source: expect.anything() })));
    // MuJoCo compiles the exported geoms to the same sizes and (from its own geoms, density 1000) the same mass
    const [types, sizes, mass] = (await mujocoFromGeoms(
      model,
      'json.dumps([[int(t) for t in m.geom_type], m.geom_size.tolist(), float(m.body_mass[1])])',
    )) as [number[], number[][], number];
    expect(types).toEqual([0, 5, 4]);
    expect(sizes.slice(1)).toEqual([
      [0.1, 0.1, 0],
      [0.05, 0.1, 0.2],
    ]);
    expect(Math.abs(mass - model.bodies[0].mass) / mass).toBeLessThan(1e-12);
  });

  test('a convex shape: read from its points, weighed as MuJoCo weighs the mesh it exports to; flat points refused', async () => {
    const scene = (shape: string, mass: string) => {
      const f = join(dir, `c${Math.random().toString(36).slice(2)}.arow`);
      const lines = ['scene: c', 'world: { gravity: [0, 0, -9.81], dt: 0.002 }', 'links:', '  - name: rock', '    parent: world'];
      writeFileSync(f, [...lines, '    joint: { type: free }', `    ${mass}`, '    shapes:', `      - ${shape}`, ''].join('\n'));
      return f;
    };
    // an off-centre, turned cloud of 12 points, each coordinate a float32 (MuJoCo stores mesh vertices in float32)
    const pts = [
      [0, 0, 0],
      [0.125, 0, 0],
      [0, 0.125, 0],
      [0, 0, 0.0625],
      [0.125, 0.125, 0],
      [0.125, 0, 0.0625],
      [0.0625, 0.0625, 0.03125],
      [0.015625, 0.015625, 0.015625],
      [0.09375, 0.109375, 0.0078125],
      [0.03125, 0.0625, 0.109375],
      [0.140625, 0.0625, 0.046875],
      [0.0625, 0.0625, 0.0625],
    ];
    const rock = `{ type: convex, pos: [0.2, -0.1, 0.05], rpy: [0.3, -0.2, 0.5], vertices: ${JSON.stringify(pts)} }`;
    const model = loadScene(scene(rock, 'mass_from_shapes: { density: 1000 }'));
    expect(model.shapes![0]).toMatchObject({ kind: 'convex', vertices: pts.flat() });
    const [mass, ipos, I] = (await mujocoFromGeoms(
      model,
      'json.dumps([float(m.body_mass[1]), m.body_ipos[1].tolist(), (R @ np.diag(m.body_inertia[1]) @ R.T).tolist()])',
    )) as [number, number[], number[][]];
    const b = model.bodies[0];
    expect(Math.abs(b.mass - mass) / mass).toBeLessThan(1e-12);
    for (let k = 0; k < 3; k++) expect(Math.abs(b.com[k] - ipos[k])).toBeLessThan(1e-12);
    const ours = [
      [b.inertia[0], b.inertia[3], b.inertia[4]],
      [b.inertia[3], b.inertia[1], b.inertia[5]],
      [b.inertia[4], b.inertia[5], b.inertia[2]],
    ];
    // MuJoCo keeps the mesh, moved to its centroid, in float32, so its tensor is good to about a float32 rounding of
    // the vertices (relative 6e-8; measured here 4.9e-9 of the largest element)
    const scale = Math.max(...I.flat().map(Math.abs));
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) expect(Math.abs(ours[r][c] - I[r][c]) / scale).toBeLessThan(1e-7);
    const flat = '{ type: convex, vertices: [[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0.1, 0.1, 0]] }';
    expect(() => loadScene(scene(flat, 'mass: 1\n    inertia: [0.001, 0.001, 0.001]'))).toThrow(/points that lie in one plane/);
  });
});
