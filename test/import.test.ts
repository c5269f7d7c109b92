// MJCF and URDF import: every fixture imports, errors point at FILE:LINE:COL, the .arow written by
// `achilles import` loads back to the same model, and the import stage (against MuJoCo compiling the
// same files) passes and catches every planted importer bug.

import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { IMPORT_BUGS } from '../src/model-files/import/bugs.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { formatNote, importFile, sniffFormat } from '../src/model-files/import/index.js';
import { resolveMesh } from '../src/model-files/import/urdf/index.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { FIXTURE_DIR, importFixtures, importReference } from '../src/validation/import/stage.js';
import { inChild } from './helpers/in-child.js';
import { sceneError } from './helpers/scene-error.js';
import type * as ImportStageWork from './helpers/work/import-stage.js';

const ERR_DIR = join(FIXTURE_DIR, '..', 'import-errors');

describe('import', () => {
  test('every fixture is recognised by content and imports; notes carry the source line', () => {
    for (const { path } of importFixtures()) {
      expect(sniffFormat(path)).toBe(path.endsWith('.urdf') ? 'urdf' : 'mjcf');
      const imp = importFile(path);
      expect(imp.model.bodies.length).toBeGreaterThan(0);
      for (const n of imp.notes) expect(formatNote(n)).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
    }
  });

  test('a body with several joints becomes a chain of links named after its joints', () => {
    const m = importFile(join(FIXTURE_DIR, 'mjcf-multijoint.xml')).model;
    expect(m.bodies.map((b) => [b.name, b.joint, b.mass > 0])).toEqual([
      ['shoulder_x', 'revolute', false],
      ['shoulder_y', 'revolute', false],
      ['slide', 'prismatic', true],
      ['wrist', 'ball', true],
    ]);
    // ref="10" (degrees) is the initial coordinate, as MuJoCo's qpos0.
    expect(m.bodies[0].q0[0]).toBeCloseTo((10 * Math.PI) / 180, 15);
  });

  test('URDF: fixed links fused and the root welded to the world (as MuJoCo), visual geometry discarded, planar as three joints', () => {
    const arm = importFile(join(FIXTURE_DIR, 'urdf-arm.urdf'));
    expect(arm.model.bodies.map((b) => b.name)).toEqual(['shoulder', 'elbow', 'slide']);
    expect(arm.notes.some((n) => /fused into 'fore'/.test(n.message))).toBe(true);
    expect(arm.notes.some((n) => /visual geometry discarded/.test(n.message))).toBe(true);
    expect(arm.model.bodies[0].range).toEqual([-1.5, 1.5]);
    expect(arm.model.bodies[0].damping).toBe(0.3);
    expect(arm.model.bodies[0].frictionloss).toBe(0.05);
    const fl = importFile(join(FIXTURE_DIR, 'urdf-floating.urdf')).model;
    expect(fl.bodies.map((b) => `${b.name}:${b.joint}`)).toEqual([
      'float:free',
      'neck:ball',
      'table_TX:prismatic',
      'table_TY:prismatic',
      'table_RZ:revolute',
    ]);
  });

  test('MJCF features reach the model: limits, passive forces, option, actuators, keyframe, contact parameters', () => {
    const jp = importFile(join(FIXTURE_DIR, 'mjcf-joint-params.xml')).model.bodies[0];
    expect(jp.range![0]).toBeCloseTo(-Math.PI / 4, 15);
    expect(jp.limit).toEqual({ solref: [0.01, 0.8], solimp: [0.8, 0.9, 0.002, 0.5, 2], margin: 0.01 });
    expect([jp.damping, jp.armature, jp.stiffness, jp.frictionloss]).toEqual([0.5, 0.01, 2, 0.1]);
    const oa = importFile(join(FIXTURE_DIR, 'mjcf-option-actuators.xml')).model;
    expect(oa.world).toMatchObject({ dt: 0.001, gravity: [0, -9.81, 0], integrator: 'rk4' });
    expect(oa.solver?.iterations).toBe(30);
    expect(oa.actuators?.map((a) => [a.name, a.kind, a.gear[0], a.kp, a.kv])).toEqual([
      ['m1', 'motor', 2, 0, 0],
      ['p2', 'position', 1, 20, 1],
      ['v3', 'velocity', 1, 0, 3],
    ]);
    // MuJoCo starts from qpos0 (mj_resetData), not from the keyframe; --keyframe loads it (import-roundtrip.test.ts)
    expect(oa.bodies.map((b) => b.q0[0])).toEqual([0, 0, 0]);
    expect(
      importFile(join(FIXTURE_DIR, 'mjcf-option-actuators.xml'), { keyframe: '0' }).model.bodies.map((b) => [b.q0[0], b.v0[0]]),
    ).toEqual([
      [0.3, 0],
      [-0.2, 1],
      [0.05, 0],
    ]);
    const cp = importFile(join(FIXTURE_DIR, 'mjcf-contact-params.xml')).model;
    const ball = cp.shapes!.find((s) => s.name === 'ball')!;
    expect([ball.contype, ball.conaffinity, ball.condim, ball.margin, ball.gap]).toEqual([2, 3, 1, 0.01, 0.005]);
    expect(cp.shapes!.find((s) => s.name === 'floor')).toMatchObject({ kind: 'plane', body: -1, friction: 0.8, solref: [0.01, 1] });
    expect(cp.excludes).toEqual([[0, 1]]);
  });

  test("meshes collide as their hulls in MuJoCo's geom frame (STL and OBJ), with no note", () => {
    const imp = importFile(join(FIXTURE_DIR, 'mjcf-mesh.xml'));
    const [stl, obj] = imp.model.shapes!;
    expect([stl.kind, obj.kind]).toEqual(['convex', 'convex']);
    // the files' boxes (0.4 x 0.2 x 0.2, the OBJ scaled 1 2 1) about the meshes' centres of mass, in
    // their principal axes; the geoms stand where the meshes' centres do: (0.1, 0.05, 0.1), and the
    // OBJ's turned 90° about y and lowered 0.3 to (0.1, 0.1, -0.4)
    expect([...stl.halfExtents].sort((a, b) => a - b)).toEqual([0.1, 0.1, 0.2].map((x) => expect.closeTo(x, 6)));
    expect([...obj.halfExtents].sort((a, b) => a - b)).toEqual([0.1, 0.2, 0.2].map((x) => expect.closeTo(x, 6)));
    expect(stl.pos).toEqual([0.1, 0.05, 0.1].map((x) => expect.closeTo(x, 6)));
    expect(obj.pos).toEqual([0.1, 0.1, -0.4].map((x) => expect.closeTo(x, 6)));
    expect(stl.vertices).toEqual(imp.hulls[0].vert);
    expect(obj.vertices).toEqual(imp.hulls[1].vert);
    expect(imp.notes.filter((n) => n.kind === 'approximated' && /mesh/.test(n.message))).toEqual([]);
    expect(imp.hulls.map((h) => h.vert.length / 3)).toEqual([8, 8]);
  });

  test('URDF mesh paths: package://PKG/... found in a folder named PKG above the URDF, relative paths from its folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'achilles-import-'));
    mkdirSync(join(dir, 'my_robot', 'meshes'), { recursive: true });
    mkdirSync(join(dir, 'my_robot', 'urdf'));
    copyFileSync(join(FIXTURE_DIR, 'part.stl'), join(dir, 'my_robot', 'meshes', 'part.stl'));
    const urdf = join(dir, 'my_robot', 'urdf', 'r.urdf');
    expect(resolveMesh(urdf, 'package://my_robot/meshes/part.stl')).toBe(join(dir, 'my_robot', 'meshes', 'part.stl'));
    expect(resolveMesh(urdf, '../meshes/part.stl')).toBe(join(dir, 'my_robot', 'meshes', 'part.stl'));
    writeFileSync(
      urdf,
      '<robot name="r"><link name="base"/><link name="l"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial><collision><geometry><mesh filename="package://my_robot/meshes/part.stl"/></geometry></collision></link><joint name="j" type="revolute"><parent link="base"/><child link="l"/></joint></robot>',
    );
    const sh = importFile(urdf).model.shapes![0];
    expect([...sh.halfExtents].sort((a, b) => a - b)).toEqual([0.1, 0.1, 0.2].map((x) => expect.closeTo(x, 6)));
  });

  test('malformed files fail at FILE:LINE:COL with what was expected', () => {
    const cases: [string, number, RegExp][] = [
      ['unknown-joint.xml', 4, /type: found "screw", expected one of hinge, slide, ball, free/],
      ['unknown-joint.urdf', 4, /expected one of revolute, continuous/],
      ['massless.xml', 3, /found joints but no mass/],
      ['missing-mesh.xml', 3, /no such file, expected a readable STL or OBJ/],
      ['missing-mesh.urdf', 3, /no such file/],
      ['mimic.urdf', 6, /mimic joint/],
      ['spatial-tendon.xml', 8, /a spatial tendon, expected fixed tendons only/],
    ];
    for (const [f, line, re] of cases) {
      const e = sceneError(() => loadScene(join(ERR_DIR, f)));
      expect(e.line, f).toBe(line);
      expect(e.message, f).toMatch(re);
      expect(e.message.startsWith(join(ERR_DIR, f))).toBe(true);
    }
    // Not XML at all: not recognised as a model, so the scene reader says what it found, at 1:1.
    const notXml = sceneError(() => loadScene(join(ERR_DIR, 'not-xml.xml')));
    expect([notXml.line, notXml.column]).toEqual([1, 1]);
    const dir = mkdtempSync(join(tmpdir(), 'achilles-import-'));
    const broken = join(dir, 'broken.xml');
    writeFileSync(broken, '<mujoco>\n  <worldbody>\n    <body name="a">\n');
    expect(sceneError(() => loadScene(broken)).message).toMatch(
      /broken\.xml:4:\d+: XML: found unclosed tag: body, expected well-formed XML/,
    );
  });

  test('the .arow that `achilles import` writes loads back to the same model (the loader renormalises quaternions and axes: 1 ulp)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'achilles-import-'));
    const close = (a: unknown, b: unknown, what: string): void => {
      const fa = [a].flat(2) as unknown[];
      const fb = [b].flat(2) as unknown[];
      expect(fa.length, what).toBe(fb.length);
      fa.forEach((x, k) =>
        typeof x === 'number' ? expect(Math.abs(x - (fb[k] as number)), what).toBeLessThanOrEqual(1e-15) : expect(x, what).toBe(fb[k]),
      );
    };
    for (const { path } of importFixtures()) {
      const m = importFile(path).model;
      const f = join(dir, 'back.arow');
      // an actuator on a tendon or a body (an adhesion) has no place in the dialect yet: the writer refuses it at its line
      if ((m.actuators ?? []).some((a) => a.tendon !== undefined || a.bodyTransmission !== undefined)) {
        expect(() => writeArow(m, ['test']), path).toThrow(/cannot write yet/);
        continue;
      }
      writeFileSync(f, writeArow(m, ['test']));
      const back = loadScene(f);
      expect(back.bodies.length).toBe(m.bodies.length);
      m.bodies.forEach((b, i) => {
        const c = back.bodies[i];
        for (const k of ['name', 'parent', 'joint', 'pos', 'quat', 'axis', 'mass', 'q0', 'v0'] as const)
          close(c[k], b[k], `${path} ${b.name}.${k}`);
        for (const k of ['range', 'limit', 'damping', 'stiffness', 'springref', 'armature', 'springdamper'] as const)
          expect(c[k] || undefined, `${path} ${b.name}.${k}`).toEqual(b[k] || undefined);
        if (b.mass > 0) for (const k of ['com', 'inertia'] as const) close(c[k], b[k], `${path} ${b.name}.${k}`);
      });
      expect((back.shapes ?? []).length).toBe((m.shapes ?? []).length);
      (m.shapes ?? []).forEach((s, i) => {
        const c = back.shapes![i];
        for (const k of [
          'name',
          'kind',
          'body',
          'halfExtents',
          'radius',
          'pos',
          'quat',
          'friction',
          'contype',
          'conaffinity',
          'margin',
          'gap',
        ] as const)
          close(c[k], s[k], `${path} ${s.name}.${k}`);
        for (const k of ['solref', 'solimp', 'condim', 'torsionalFriction', 'rollingFriction'] as const)
          expect(c[k], `${path} ${s.name}.${k}`).toEqual(s[k]);
      });
      expect(back.solver, `${path} solver`).toEqual(m.solver);
      expect(back.tendons, `${path} tendons`).toEqual(m.tendons?.map(({ source: _s, ...t }) => t));
      const acts = (x: typeof m) =>
        x.actuators?.map((a) => ({
          name: a.name,
          body: a.body,
          kind: a.kind,
          gear: a.gear,
          kp: a.kp,
          kv: a.kv,
          ctrlrange: a.ctrlrange,
          forcerange: a.forcerange,
        }));
      expect(acts(back), `${path} actuators`).toEqual(acts(m));
    }
  });

  test('a 30-body model imports (the CLI reports the time; see the status notes)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'achilles-import-'));
    let xml = '<mujoco model="chain30"><worldbody>';
    for (let i = 0; i < 30; i++)
      xml += `<body name="b${i}" pos="0 0 -0.1" euler="5 10 15"><joint name="j${i}" axis="0 1 0" range="-30 30" damping="0.1"/><geom type="capsule" fromto="0 0 0 0 0 -0.1" size="0.02"/>`;
    xml += '</body>'.repeat(30) + '</worldbody></mujoco>';
    const f = join(dir, 'chain30.xml');
    writeFileSync(f, xml);
    expect(importFile(f).model.bodies.length).toBe(30);
  });
});

describe('import stage against MuJoCo', () => {
  test('every fixture matches MuJoCo to 1e-12, and every planted importer bug fails a gate', async () => {
    const ref = await importReference(process.env.ACHILLES_PYTHON || 'python3', 1, 4);
    expect(ref.fixtures.length).toBe(readdirSync(FIXTURE_DIR).filter((f) => /\.(xml|urdf)$/.test(f)).length);
    // Tens of seconds of gates, run in a child process so this worker's event loop keeps turning
    // (issue 23); the planted bugs are set there, never here.
    const work = new URL('./helpers/work/import-stage.ts', import.meta.url);
    const { clean: rows, withBug } = await inChild<typeof ImportStageWork, 'importRowsPerBug'>(work, 'importRowsPerBug', ref, IMPORT_BUGS);
    expect(rows.filter((r) => r.status === 'fail').map((r) => `${r.model} ${r.field} ${r.error}`)).toEqual([]);
    IMPORT_BUGS.forEach((bug, i) =>
      expect(
        withBug[i].some((r) => r.status === 'fail'),
        bug,
      ).toBe(true),
    );
  }, 300_000); // 33 fixtures, their MuJoCo references and one import per planted importer bug
});
