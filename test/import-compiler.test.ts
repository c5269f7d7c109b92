// Compiler and option settings as MuJoCo's compiler applies them (issue 23): settotalmass scales
// every body's mass and inertia after they are computed (mj_setTotalmass), inertiagrouprange picks
// the geoms a body's inertia comes from, strippath drops a mesh file's folders, and every setting the
// importer lets pass with a "does not change" note is proven so against MuJoCo's compiled model: the
// two fixtures below, compiled by python mujoco, give the same masses, centres of mass, inertias,
// poses and free-space accelerations (the import stage's gates, IMPORT_BAR = 1e-12). Settings that
// would change the motion and the engine cannot follow are refused at their line.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { SceneError } from '../src/model-files/scene/index.js';
import { FIXTURE_DIR, importReference, importRows } from '../src/validation/import/stage.js';

const FIXTURES = ['mjcf-inert-settings.xml', 'mjcf-settotalmass.xml']; // the stage's (sorted) order

describe('compiler settotalmass, inertiagrouprange, strippath', () => {
  test('the half-cheetah-like fixture weighs 14 kg, as its settotalmass says', () => {
    const m = importFile(join(FIXTURE_DIR, 'mjcf-settotalmass.xml')).model;
    expect(m.bodies.reduce((s, b) => s + b.mass, 0)).toBeCloseTo(14, 12);
  });

  test("masses, inertias, poses and accelerations of both fixtures match MuJoCo's compiled model", async () => {
    const names = FIXTURES.map((f) => `import:${f}`);
    const ref = await importReference(process.env.ACHILLES_PYTHON || 'python3', 1, 3, new Set(names));
    expect(ref.fixtures.map((f) => f.name)).toEqual(names);
    const total = ref.fixtures.find((f) => f.name === 'import:mjcf-settotalmass.xml')!.mj.mass.reduce((s, x) => s + x, 0);
    expect(total).toBeCloseTo(14, 12); // MuJoCo scaled it too: the comparison below is not vacuous
    const rows = importRows(ref, engineAddon()).filter((r) => names.includes(r.model));
    for (const n of names)
      expect(rows.some((r) => r.model === n && r.field === 'mass') && rows.some((r) => r.model === n && r.field === 'qacc'), n).toBe(true);
    expect(rows.filter((r) => r.status !== 'pass').map((r) => `${r.model} ${r.field}[${r.state}] ${r.error} ${r.note}`)).toEqual([]);
  }, 120_000);

  test('every setting let pass says why, at its line', () => {
    const notes = importFile(join(FIXTURE_DIR, 'mjcf-inert-settings.xml')).notes.filter((n) => n.kind === 'skipped');
    expect(notes.length).toBeGreaterThan(20);
    for (const n of notes) expect(n.message, n.message).toMatch(/: |MuJoCo's default: no change/);
  });
});

describe('settings that would change the motion are refused at their line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'achilles-import-compiler-'));
  const model = (head: string, geom = '<geom size="0.1"/>'): string =>
    `<mujoco>\n  ${head}\n  <worldbody>\n    <body>\n      <joint/>\n      ${geom}\n    </body>\n  </worldbody>\n</mujoco>\n`;
  test.each([
    [
      'flag filterparent="disable"',
      model('<option><flag filterparent="disable"/></option>'),
      2,
      /flag filterparent: found "disable", which changes the motion/,
    ],
    ['flag eulerdamp="disable"', model('<option><flag eulerdamp="disable"/></option>'), 2, /flag eulerdamp/],
    ['flag override="enable"', model('<option><flag override="enable"/></option>'), 2, /flag override/],
    ['a flag value that is not enable/disable', model('<option><flag limit="off"/></option>'), 2, /one of enable, disable/],
    ['noslip_iterations < 0', model('<option noslip_iterations="-1"/>'), 2, /option noslip_iterations: .*whole number of noslip sweeps/],
    ['noslip_tolerance NaN', model('<option noslip_tolerance="nan"/>'), 2, /option noslip_tolerance/],
    ['noslip_tolerance < 0', model('<option noslip_tolerance="-1e-6"/>'), 2, /finite noslip tolerance >= 0/],
    ['actuatorgroupdisable', model('<option actuatorgroupdisable="1"/>'), 2, /no disabled actuator groups/],
    ['coordinate global', model('<compiler coordinate="global"/>'), 2, /global coordinates no longer supported/],
    [
      'a box fitted to a mesh',
      model('<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>', '<geom type="box" mesh="m"/>'),
      6,
      /fitting a primitive to a mesh is not supported/,
    ],
  ])('%s', (_, xml, line, what) => {
    const f = join(dir, `${line}-${Math.random().toString(36).slice(2)}.xml`);
    writeFileSync(f, xml);
    let e: unknown;
    try {
      importFile(f);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(SceneError);
    expect((e as SceneError).line).toBe(line);
    expect((e as SceneError).message).toMatch(what);
  });
});
