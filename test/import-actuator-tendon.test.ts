// Actuators pulling fixed tendons (MuJoCo's tendon transmission, mjTRN_TENDON in mj_transmission):
// length ℓ = gear·L, moment gear·coef on each of the tendon's dofs, ℓ̇ = moment·q̇, qfrc_actuator =
// momentᵀ·force. Fixture mjcf-actuator-tendon.xml: a gripper whose motor, position servos (kp and kv, a
// class's dampratio), velocity servo, filtered general actuator with affine gain and bias, and
// intvelocity pull three fixed tendons, with gears other than 1. Against live MuJoCo on the same file:
// per state with controls and activations (actuator_force, act_dot, qacc), runs under Euler and RK4, the
// native planted bug actuator-tendon-moment-sign failing them, and lanes and threads bit-identical.
// implicitfast (whose qDeriv gets each velocity term as a rank-one term across the tendon's dofs) on
// mjcf-actuator-tendon-chain.xml, and refused where MuJoCo's qDeriv would drop cross terms.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf, SceneError } from '../src/model-files/scene/index.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { generalReference, generalRows, TENDON_FIXTURE } from '../src/validation/general-actuators/stage.js';
import { implicitReference, implicitRows } from '../src/validation/implicitfast/stage.js';
import type { CheckRow } from '../src/validation/types.js';
import { expectSameAcrossLanesAndThreads } from './helpers/lanes.js';
import { sceneError } from './helpers/scene-error.js';

const PYTHON = process.env.ACHILLES_PYTHON || 'python3';
const NAME = 'mjcf-actuator-tendon';
const dir = mkdtempSync(join(tmpdir(), 'achilles-actuator-tendon-'));
const failed = (rows: CheckRow[]) =>
  rows.filter((r) => r.status === 'fail').map((r) => `${r.precision} ${r.field} #${r.state} t=${r.t}: ${r.error} > ${r.bar}`);
const worst = (rows: CheckRow[], field: RegExp) => Math.max(...rows.filter((r) => field.test(r.field)).map((r) => r.error));

/** A model around one actuator element `act` and the tendon `t` (joints a and b). */
const gripper = (act: string, option = '') =>
  `<mujoco>\n  ${option}\n  <worldbody>\n    <body>\n      <joint name="a" type="slide" axis="1 0 0"/>\n      <geom size="0.1"/>\n      <body>\n        <joint name="b" axis="0 0 1"/>\n        <geom size="0.1"/>\n      </body>\n    </body>\n  </worldbody>\n  <tendon>\n    <fixed name="t">\n      <joint joint="a" coef="1"/>\n      <joint joint="b" coef="-0.5"/>\n    </fixed>\n  </tendon>\n  <actuator>\n    ${act}\n  </actuator>\n</mujoco>\n`;
const importXml = (xml: string) => {
  const f = join(dir, `m${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(f, xml);
  return importFile(f);
};
/** The SceneError importing `xml` throws (test/helpers/scene-error.ts). */
const refusal = (xml: string): SceneError => sceneError(() => importXml(xml));

describe('actuators on fixed tendons', () => {
  test('the import: each actuator names its tendon (body −1), with its gear, class defaults and ranges', () => {
    const m = importFile(TENDON_FIXTURE).model;
    const acts = m.actuators!;
    const tendon = (n: string) => m.tendons![acts.find((a) => a.name === n)!.tendon!].name;
    expect(acts.map((a) => a.name)).toEqual(['squeeze', 'spread', 'turn', 'turn_damp', 'grip_filter', 'split_int']);
    expect(acts.every((a) => a.body === -1)).toBe(true);
    expect(['squeeze', 'spread', 'turn', 'turn_damp', 'grip_filter', 'split_int'].map(tendon)).toEqual([
      'grip',
      'split',
      'twist',
      'twist',
      'grip',
      'split',
    ]);
    expect(acts.map((a) => a.gear)).toEqual([[2], [0.5], [-1.5], [1], [1], [1]]);
    const spread = acts[1];
    // the class's kp, dampratio (biasprm[2] > 0: resolved natively from the tendon's reflected inertia) and ctrlrange
    expect(spread.general?.gainprm[0]).toBe(40);
    expect(spread.general?.biasprm).toEqual([0, -40, 0.7]);
    expect(spread.ctrlrange).toEqual([-0.05, 0.05]);
    expect(acts[2].forcerange).toEqual([-3, 3]);
  });

  test('refused at the line: two transmissions, an unknown tendon, site transmissions; the .arow writer says it cannot write one', () => {
    const both = refusal(gripper('<motor joint="a" tendon="t"/>'));
    expect(both).toBeInstanceOf(SceneError);
    expect(both.message).toMatch(/both a joint and a tendon/);
    const unknown = refusal(gripper('<motor tendon="nope"/>'));
    expect(unknown).toBeInstanceOf(SceneError);
    expect(unknown.line).toBe(20);
    expect(unknown.message).toMatch(/tendon 'nope'/);
    const site = refusal(gripper('<motor site="s"/>'));
    expect(site.message).toMatch(/transmission through site/);
    const m = importFile(TENDON_FIXTURE).model;
    expect(() => writeArow(m, [])).toThrow(/tendon 'grip'.*cannot write/);
    // the MJCF writer names the tendon
    expect(exportMjcf(m)).toMatch(/<motor name="squeeze" tendon="grip" gear="2"/);
  });

  test('per state (actuator_force, act_dot, qacc with controls) and along Euler and RK4 runs, f64 and f32, against MuJoCo; the moment-sign bug fails', async () => {
    const ref = await generalReference(PYTHON, 1, new Set([NAME]));
    expect(ref.models.map((m) => m.name)).toEqual([NAME]);
    // the controls and activations are not zero: every actuator pulls
    const s0 = ref.models[0].states[0];
    expect(s0.ctrl.every((u) => u !== 0)).toBe(true);
    expect(s0.force.every((f) => f !== 0)).toBe(true);
    for (const p of ['f64', 'f32'] as const) {
      const rows = generalRows(ref, p, engineAddon());
      expect(failed(rows)).toEqual([]);
      if (p === 'f64') {
        expect(worst(rows, /^actuator_force$/)).toBeLessThan(1e-12);
        expect(worst(rows, /^qacc$/)).toBeLessThan(1e-12);
      }
    }
    const bugs = bugAddon();
    try {
      bugs.setBug!('actuator-tendon-moment-sign');
      const rows = generalRows(ref, 'f64', bugs);
      expect(worst(rows, /^qacc$/)).toBeGreaterThan(1e-3);
      expect(failed(rows).length).toBeGreaterThan(0);
    } finally {
      bugs.setBug!('none');
    }
  }, 180_000);

  test('implicitfast (mjcf-actuator-tendon-chain.xml): one step per state and runs against MuJoCo, the velocity terms rank-one across each tendon', async () => {
    const ref = await implicitReference(PYTHON, 1, new Set(['mjcf-actuator-tendon-chain']));
    expect(ref.models.length).toBe(1);
    for (const p of ['f64', 'f32'] as const) expect(failed(implicitRows(ref, p, engineAddon()))).toEqual([]);
    // semi-implicit Euler, which leaves those terms explicit, is far off MuJoCo's implicitfast
    expect(Math.max(...implicitRows(ref, 'f64', engineAddon(), 'euler').map((r) => r.error / r.bar))).toBeGreaterThan(1e3);
    const bugs = bugAddon();
    try {
      bugs.setBug!('implicitfast-derivative-dropped');
      expect(failed(implicitRows(ref, 'f64', bugs)).length).toBeGreaterThan(0);
    } finally {
      bugs.setBug!('none');
    }
  }, 180_000);

  test("implicitfast with a velocity-dependent actuator on a tendon across two branches (MuJoCo's qDeriv drops the cross term) is refused: at the line, and by the engine", () => {
    const xml = readFileSync(TENDON_FIXTURE, 'utf8').replace('integrator="RK4"', 'integrator="implicitfast"');
    const e = refusal(xml);
    expect(e).toBeInstanceOf(SceneError);
    expect(e.message).toMatch(/actuator 'spread'.*tendon 'split'.*different branches/);
    expect(e.line).toBe(xml.split('\n').findIndex((l) => l.includes('name="spread"')) + 1);
    // a model run with implicitfast whatever its file says: the engine refuses it by name
    const m = importFile(TENDON_FIXTURE).model;
    expect(() => new Batch(m, { copies: 1, precision: 'f64', integrator: 'implicitfast' }, engineAddon())).toThrow(
      /actuator 'spread'.*different branches/,
    );
    // a motor (no velocity term) across the branches is fine
    expect(
      () =>
        new Batch(
          { ...m, actuators: m.actuators!.slice(0, 1) },
          { copies: 1, precision: 'f64', integrator: 'implicitfast' },
          engineAddon(),
        ),
    ).not.toThrow();
  });

  test('bit-identical across lanes and threads', () => {
    const m = importFile(TENDON_FIXTURE).model;
    expectSameAcrossLanesAndThreads(m, (r) => ({
      q: m.bodies.flatMap((b) => b.q0.map((x, k) => x + 0.02 * (r + k))),
      v: m.bodies.flatMap((b) => b.v0),
    }));
  });
});
