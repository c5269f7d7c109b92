// Fixed tendons (issue 12): MJCF parsing with default classes and autolimits, the errors for what is
// not supported, the .arow round trip, the engine against MuJoCo (constrained import gates, f64 and
// f32) with the planted native and importer bugs each failing a gate, and bit-identity across lanes.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { setImportBug } from '../src/model-files/import/bugs.js';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf, loadScene, SceneError } from '../src/model-files/scene/index.js';
import { constrainedFixtureReference, constrainedRows, TRAJECTORY_SECONDS } from '../src/validation/import/constrained.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';
import { expectSameAcrossLanesAndThreads } from './helpers/lanes.js';
import { sceneError } from './helpers/scene-error.js';

const COUPLING = join(FIXTURE_DIR, 'mjcf-tendon-coupling.xml');
const HIPKNEE = join(FIXTURE_DIR, 'mjcf-tendon-hipknee.xml');
const dir = mkdtempSync(join(tmpdir(), 'achilles-tendons-'));

function errorOf(xml: string, name: string): SceneError {
  const f = join(dir, name);
  writeFileSync(f, xml);
  return sceneError(() => importFile(f));
}

const ARM = (tendon: string, joint2 = '<joint name="b" axis="0 1 0"/>') =>
  `<mujoco>\n<worldbody><body name="u"><joint name="a" axis="0 1 0"/><geom size="0.1"/>\n<body name="l" pos="0.3 0 0">${joint2}<geom size="0.1"/></body></body></worldbody>\n${tendon}\n</mujoco>\n`;

describe('fixed tendons: import', () => {
  test('MJCF: coefficients, range (a length, never converted from degrees), default classes, autolimits, springlength', () => {
    const m = importFile(COUPLING).model;
    const t = m.tendons![0];
    expect(t.name).toBe('couple');
    expect(t.joints.map((j) => [m.bodies[j.body].name, j.coef])).toEqual([
      ['shoulder', 1],
      ['elbow', -0.5],
    ]);
    expect(t.range).toEqual([-0.6, 0.4]); // the file's angles are degrees; a tendon range is not
    expect(t.limit).toEqual({ solref: [0.01, 1], solimp: [0.8, 0.95, 0.01, 0.5, 2], margin: 0.02 }); // main class + class "soft"
    expect([t.frictionloss, t.stiffness, t.damping, t.springlength]).toEqual([0.05, 3, 0.2, [-0.1, 0.1]]);
    const h = importFile(HIPKNEE).model.tendons!;
    expect(h.map((x) => x.range)).toEqual([
      [-0.3, 1.2],
      [-0.3, 1.2],
    ]); // limited and range from <default><tendon>
    // MuJoCo's default rest length: the length at the joints' springref (−1·(−20°) + 1·(−40°))
    expect(h[1].springlength![0]).toBeCloseTo((-20 * Math.PI) / 180, 15);
  });

  test('refused with FILE:LINE:COL and what is supported: spatial tendons, tendon armature, ball joints, unknown joints, actuators on tendons', () => {
    const spatial = errorOf(ARM('<tendon><spatial name="s"><site site="x"/></spatial></tendon>'), 'spatial.xml');
    expect(spatial.message).toMatch(/spatial\.xml:4:9: .*spatial tendon.*fixed tendons only/);
    expect(errorOf(ARM('<tendon><fixed name="t" armature="0.1"><joint joint="a" coef="1"/></fixed></tendon>'), 'arm.xml').message).toMatch(
      /arm\.xml:4:\d+: tendon 't' armature.*no tendon armature/,
    );
    expect(
      errorOf(ARM('<tendon><fixed name="t"><joint joint="b" coef="1"/></fixed></tendon>', '<joint name="b" type="ball"/>'), 'ball.xml')
        .message,
    ).toMatch(/ball\.xml:4:\d+: .*'b', a ball joint.*hinge or slide/);
    expect(errorOf(ARM('<tendon><fixed name="t"><joint joint="nope" coef="1"/></fixed></tendon>'), 'unknown.xml').message).toMatch(
      /unknown\.xml:4:\d+: .*'nope', which the model does not have/,
    );
    expect(errorOf(ARM('<tendon><fixed name="t" range="0.2 0.1"><joint joint="a"/></fixed></tendon>'), 'range.xml').message).toMatch(
      /range\.xml:4:\d+: tendon 't' range.*lower < upper/,
    );
    const three = `<mujoco>\n<worldbody><body name="p"><joint name="a"/><geom size="0.1"/></body><body name="q"><joint name="b"/><geom size="0.1"/></body><body name="r"><joint name="c"/><geom size="0.1"/></body></worldbody>\n<tendon><fixed name="t"><joint joint="a"/><joint joint="b"/><joint joint="c"/></fixed></tendon>\n</mujoco>\n`;
    expect(errorOf(three, 'three.xml').message).toMatch(
      /three\.xml:3:9: tendon 't': found joints in 3 separate kinematic trees, expected joints of at most two trees/,
    );
    // an actuator along a tendon is read (test/import-actuator-tendon.test.ts); through a site it is refused
    const act = errorOf(
      ARM('<tendon><fixed name="t"><joint joint="a"/></fixed></tendon><actuator><motor site="s"/></actuator>'),
      'act.xml',
    );
    expect(act.message).toMatch(/act\.xml:4:\d+: .*transmission through site.*not supported yet/);
  });

  test('.arow: `achilles import` writes the tendons, and the scene loads back to the same tendons; its errors point at the node', () => {
    const imp = importFile(COUPLING);
    const f = join(dir, 'coupling.arow');
    writeFileSync(f, writeArow(imp.model, ['test']));
    const back = loadScene(f);
    expect(back.tendons).toEqual(imp.model.tendons!.map(({ source: _s, ...t }) => t));
    const bad = (body: string, name: string) => {
      const p = join(dir, name);
      writeFileSync(
        p,
        `scene: t\nlinks:\n  - { name: a, parent: world, joint: { type: revolute, axis: [0, 1, 0] }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] }\n  - { name: f, parent: a, joint: { type: ball }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] }\ntendons:\n${body}`,
      );
      try {
        loadScene(p);
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('expected an error');
    };
    expect(bad('  - { name: t, joints: [{ link: b, coef: 1 }] }\n', 'e1.arow')).toMatch(/e1\.arow:6:\d+: .*`b`, which is not a link/);
    expect(bad('  - { name: t, joints: [{ link: f, coef: 1 }] }\n', 'e2.arow')).toMatch(
      /e2\.arow:6:\d+: .*a ball joint.*revolute or prismatic/,
    );
    expect(bad('  - { name: t, joints: [{ link: a, coef: 1 }], range: [1, 0] }\n', 'e3.arow')).toMatch(
      /e3\.arow:6:\d+: .*range.*lower < upper/,
    );
    expect(bad('  - { name: t, joints: [{ link: a, coef: 1 }], limit: { margin: 0.1 } }\n', 'e4.arow')).toMatch(
      /e4\.arow:6:\d+: .*`limit` without `range`/,
    );
  });

  test('MJCF export writes the tendons back, and MuJoCo compiles them to the same values', () => {
    const xml = exportMjcf(importFile(COUPLING).model, { contacts: true });
    expect(xml).toMatch(
      /<fixed name="couple" limited="true" range="-0.6 0.4" solreflimit="0.01 1" solimplimit="0.8 0.95 0.01 0.5 2" margin="0.02" frictionloss="0.05" stiffness="3" damping="0.2" springlength="-0.1 0.1">/,
    );
    expect(xml).toMatch(/<joint joint="elbow" coef="-0.5"\/>/);
  });
});

describe('fixed tendons: the engine', () => {
  test('bit-identical across lane widths and threads with the tendon limit, friction and spring acting', () => {
    expectSameAcrossLanesAndThreads(importFile(COUPLING).model, (r) => ({
      q: [0.1 * r - 0.5, 0.2 - 0.05 * r],
      v: [2 - 0.3 * r, -1 + 0.1 * r],
      tau: [0, 0],
    }));
  });
});

describe("fixed tendons against MuJoCo (the import stage's constrained gates)", () => {
  test('rows, tendons and the trajectory pass in f64 and f32; tendon-limit-sign (native) and import-tendon-coef-sign (importer) each fail a gate', async () => {
    const ref = await constrainedFixtureReference(process.env.ACHILLES_PYTHON || 'python3', 1, {
      name: 'import:mjcf-tendon-coupling.xml',
      path: COUPLING,
    });
    expect(ref).toBeDefined();
    // the tendon limit is engaged: MuJoCo has tendon limit rows (type 4) at some states, and a tendon friction row (type 2) at all
    const types = ref!.perState!.ref.mujoco.flatMap((a) => a.efc.type);
    expect(types.filter((t) => t === 4).length).toBeGreaterThan(3);
    expect(types.filter((t) => t === 2).length).toBe(ref!.perState!.ref.states.length);
    for (const p of ['f64', 'f32'] as const) {
      const rows = constrainedRows(ref!, p, engineAddon());
      expect(rows.filter((r) => r.status === 'fail').map((r) => `${p} ${r.field} state ${r.state} ${r.error} > ${r.bar}`)).toEqual([]);
      expect(rows.some((r) => r.field === 'trajectory q (constraints on)')).toBe(true);
    }
    const bugs = bugAddon();
    try {
      bugs.setBug!('tendon-limit-sign');
      const failed = new Set(
        constrainedRows(ref!, 'f64', bugs)
          .filter((r) => r.status === 'fail')
          .map((r) => r.field),
      );
      expect(failed.has('rows.structure') && failed.has('qacc (constraints on)') && failed.has('trajectory q (constraints on)')).toBe(true); // the upper row's J sign: no MuJoCo row matches it
    } finally {
      bugs.setBug!('none');
    }
    try {
      setImportBug('import-tendon-coef-sign');
      const failed = new Set(
        constrainedRows(ref!, 'f64', engineAddon())
          .filter((r) => r.status === 'fail')
          .map((r) => r.field),
      );
      expect(failed.has('tendon.moment') && failed.has('tendon.length')).toBe(true);
    } finally {
      setImportBug('none');
    }
  }, 120_000);
});

describe("a tendon joining two kinematic trees (one island, as MuJoCo's mj_island)", () => {
  test('rows, q̈ and a 0.4 s run match MuJoCo in f64', async () => {
    const f = join(dir, 'two-trees.xml');
    writeFileSync(
      f,
      `<mujoco><option iterations="40"/><worldbody>
        <body name="p1" pos="0 0 1"><joint name="a" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/></body>
        <body name="p2" pos="0 0.5 1"><joint name="b" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.05"/></body>
      </worldbody>
      <tendon><fixed name="couple" range="-0.2 0.2" frictionloss="0.02"><joint joint="a" coef="1"/><joint joint="b" coef="1"/></fixed></tendon>
      <keyframe><key qpos="0.1 -0.1" qvel="3 1"/></keyframe></mujoco>\n`,
    );
    TRAJECTORY_SECONDS['two-trees'] = 0.4;
    try {
      const ref = await constrainedFixtureReference(process.env.ACHILLES_PYTHON || 'python3', 2, { name: 'two-trees', path: f });
      expect(ref!.trajectory!.mujoco.qpos.length).toBe(200);
      const rows = constrainedRows(ref!, 'f64', engineAddon());
      expect(rows.filter((r) => r.status === 'fail').map((r) => `${r.field} ${r.state} ${r.t ?? ''} ${r.error}`)).toEqual([]);
    } finally {
      delete TRAJECTORY_SECONDS['two-trees'];
    }
  }, 60_000);
});
