// Joint springdamper="timeconst dampratio" (MuJoCo's mjCModel::AutoSpringDamper): the import carries
// it (BodyDesc.springdamper), the engine makes stiffness m/(τ²ζ²) and damping 2m/τ at qpos0 with
// m = 1/dof_invweight0 (native actuators/springdamper.cpp), replacing the joint's own; the writers carry
// it. Fixture mjcf-springdamper.xml: two hinges (one from a default class, one with ref and springref
// in degrees) and a slide whose own stiffness and damping the springdamper replaces, a limited tendon.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { setImportBug } from '../src/model-files/import/bugs.js';
import { exportMjcf, loadScene } from '../src/model-files/scene/index.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { SceneError } from '../src/model-files/scene/index.js';
import { constrainedFixtureReference, constrainedRows } from '../src/validation/import/constrained.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';
import { expectSameAcrossLanesAndThreads } from './helpers/lanes.js';

const FIXTURE = join(FIXTURE_DIR, 'mjcf-springdamper.xml');
const PYTHON = process.env.ACHILLES_PYTHON || 'python3';
const dir = mkdtempSync(join(tmpdir(), 'achilles-springdamper-'));
const deg = Math.PI / 180;

/** The fixture with its <option> integrator replaced (a copy in the temporary folder). */
function withIntegrator(integrator: string): string {
  const f = join(dir, `springdamper-${integrator}.xml`);
  writeFileSync(
    f,
    readFileSync(FIXTURE, 'utf8').replace('<option timestep="0.002"', `<option integrator="${integrator}" timestep="0.002"`),
  );
  return f;
}

/** The constrained gates (per-state rows and q̈ with passive forces on, a 0.5 s run) against MuJoCo. */
async function gateFailures(
  path: string,
  name: string,
  bug?: 'import-springdamper-ratio',
): Promise<{ failures: string[]; worstQacc: number; worstTrajectory: number }> {
  const ref = (await constrainedFixtureReference(PYTHON, 3, { name, path, seconds: 0.5 }))!;
  expect(ref.perState && ref.trajectory).toBeTruthy();
  // the rows re-import the file: with the importer's planted bug when asked (MuJoCo's answers are the file's)
  if (bug) setImportBug(bug);
  try {
    return judged(ref);
  } finally {
    setImportBug('none');
  }
}

function judged(ref: Awaited<ReturnType<typeof constrainedFixtureReference>> & object) {
  const failures: string[] = [];
  let worstQacc = 0;
  let worstTrajectory = 0;
  for (const precision of ['f64', 'f32'] as const) {
    const rows = constrainedRows(ref, precision, engineAddon());
    failures.push(...rows.filter((r) => r.status === 'fail').map((r) => `${precision} ${r.field} ${r.state} ${r.error}`));
    if (precision === 'f64') {
      worstQacc = Math.max(...rows.filter((r) => r.field === 'qacc (constraints on)').map((r) => r.error));
      worstTrajectory = Math.max(...rows.filter((r) => r.field === 'trajectory q (constraints on)').map((r) => r.error));
    }
  }
  return { failures, worstQacc, worstTrajectory };
}

const fails = (xml: string): SceneError => {
  const f = join(dir, `bad${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(f, xml);
  try {
    importFile(f);
  } catch (e) {
    return e as SceneError;
  }
  throw new Error('imported');
};
const oneJoint = (joint: string) =>
  `<mujoco>\n  <worldbody>\n    <body>\n      <joint name="j" ${joint}/>\n      <geom size="0.1"/>\n    </body>\n  </worldbody>\n</mujoco>\n`;

describe('joint springdamper', () => {
  test('the import carries [timeconst, dampratio] and drops the stiffness and damping it replaces', () => {
    const m = importFile(FIXTURE).model;
    const by = (n: string) => m.bodies.find((b) => b.name === n)!;
    expect(by('shoulder').springdamper).toEqual([0.3, 0.4]); // from the default class
    expect(by('elbow').springdamper).toEqual([0.15, 1.7]);
    expect(by('elbow').springref).toBeCloseTo(-30 * deg, 15);
    expect(by('slide').springdamper).toEqual([0.1, 0.6]);
    for (const n of ['shoulder', 'elbow', 'slide']) {
      expect(by(n).stiffness).toBeUndefined();
      expect(by(n).damping).toBeUndefined();
    }
  });

  test('MuJoCo refuses one value <= 0 ("when defined, springdamper values must be positive"), so does the import, at its line', () => {
    for (const v of ['0 1', '0.1 0', '-0.1 1', '0.1 -1']) {
      const e = fails(oneJoint(`springdamper="${v}"`));
      expect(e).toBeInstanceOf(SceneError);
      expect(e.line).toBe(4);
      expect(e.message).toMatch(/springdamper/);
    }
    // "0 0" is MuJoCo's default: none
    const f = join(dir, 'none.xml');
    writeFileSync(f, oneJoint('springdamper="0 0" damping="2"'));
    expect(importFile(f).model.bodies[0]).toMatchObject({ damping: 2 });
    expect(importFile(f).model.bodies[0].springdamper).toBeUndefined();
  });

  test("a ball or free joint's springdamper is refused at its line (the engine's joint stiffness is on hinges and slides)", () => {
    for (const t of ['ball', 'free']) {
      const e = fails(oneJoint(`type="${t}" springdamper="0.1 1"`));
      expect(e).toBeInstanceOf(SceneError);
      expect(e.line).toBe(4);
      expect(e.message).toMatch(new RegExp(`springdamper on a ${t} joint`));
    }
  });

  test('the MJCF and .arow writers carry it (the exported model runs as the imported one)', () => {
    const m = importFile(FIXTURE).model;
    expect(exportMjcf(m)).toMatch(/springdamper="0\.15 1\.7"/);
    const arow = join(dir, 'springdamper.arow');
    writeFileSync(arow, writeArow(m, []));
    const back = loadScene(arow);
    expect(back.bodies.map((b) => b.springdamper)).toEqual(m.bodies.map((b) => b.springdamper));
  });

  test('per-state q̈ with passive forces and a run, against MuJoCo on the original XML (Euler, f64 and f32)', async () => {
    const r = await gateFailures(FIXTURE, 'import:mjcf-springdamper.xml');
    expect(r.failures).toEqual([]);
    expect(r.worstQacc).toBeLessThan(1e-11);
  }, 120_000);

  test.each(['implicitfast', 'RK4'])(
    'and with integrator %s',
    async (integrator) => {
      // the fixture's name: the same states and float32 twins as the Euler run (the rows do not depend on the integrator)
      const r = await gateFailures(withIntegrator(integrator), 'import:mjcf-springdamper.xml');
      expect(r.failures).toEqual([]);
      expect(r.worstTrajectory).toBeLessThan(1e-9);
    },
    120_000,
  );

  test('the planted importer bug import-springdamper-ratio (the damping ratio dropped) fails the gates', async () => {
    const r = await gateFailures(FIXTURE, 'import:mjcf-springdamper.xml', 'import-springdamper-ratio');
    expect(r.failures.some((f) => f.startsWith('f64 qacc (constraints on)'))).toBe(true);
  }, 120_000);

  test('bit-identical across lanes and threads', () => {
    const m = importFile(FIXTURE, { keyframe: '0' }).model;
    expectSameAcrossLanesAndThreads(m, (r) => ({
      q: m.bodies.flatMap((b) => b.q0.map((x) => x + 0.05 * r)),
      v: m.bodies.flatMap((b) => b.v0),
    }));
  });
});
