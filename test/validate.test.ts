// achilles validate: the gates pass on the real engine, catch a planted bug, and build their
// float32 bars from the measured floor.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { validateCommand } from '../src/cli/validate-command.js';
import { engineAddon } from '../src/engine/native.js';
import { closedFormRun } from '../src/validation/exact.js';
import { judgeField } from '../src/validation/judge.js';
import { barFor, F32_FACTOR, F32_ILL_CONDITIONED, F64_BAR, fieldFloor, quatAngle } from '../src/validation/metrics.js';
import { suiteModels } from '../src/validation/models.js';
import { runSuite, summarize } from '../src/validation/suite.js';

describe('float32 bars follow the measured floor', () => {
  it('the field floor is the largest resolvable per-state floor, and the bar is 3× it', () => {
    const floors = [1e-8, 4e-7, 2e-8, 0.5 /* ill-conditioned: skipped, not part of the floor */];
    expect(fieldFloor(floors)).toBe(4e-7);
    expect(barFor('f32', floors)).toEqual({ floor: 4e-7, factor: F32_FACTOR, bar: F32_FACTOR * 4e-7 });
    expect(barFor('f32', [2e-7])).toEqual({ floor: 2e-7, factor: 3, bar: 6e-7 });
    expect(barFor('f64', floors)).toEqual({ floor: F64_BAR, factor: 1, bar: F64_BAR });
  });

  it('judges against that bar and reports ill-conditioned states as skipped', () => {
    const id = { stage: 'forward' as const, model: 'm', precision: 'f32' as const, field: 'qacc' };
    const rows = judgeField(id, [
      { state: 0, error: 5e-7, stateFloor: 2e-7 }, // bar 6e-7: pass
      { state: 1, error: 7e-7, stateFloor: 1e-8 }, // above 6e-7: fail
      { state: 2, error: 1, stateFloor: 2 * F32_ILL_CONDITIONED }, // skip
    ]);
    expect(rows.map((r) => r.status)).toEqual(['pass', 'fail', 'skip']);
    expect(rows[0].bar).toBeCloseTo(6e-7, 20);
  });

  it('orientation error ignores the quaternion sign', () => {
    const q = [0.5, 0.5, -0.5, 0.5];
    expect(quatAngle(q, q.map((x) => -x))).toBeLessThan(1e-12);
    expect(quatAngle([1, 0, 0, 0], [Math.cos(0.05), Math.sin(0.05), 0, 0])).toBeCloseTo(0.1, 12);
  });
});

describe('the double pendulum against its closed form at every state of a 10 s run', () => {
  const pendulum = suiteModels().find((m) => m.name === 'double-pendulum')!;
  it('f64: errors near 1e-12 or below, the gate passes', () => {
    const run = closedFormRun('double-pendulum', pendulum.model, 'f64', engineAddon())!;
    expect(run.t.length).toBe(5001);
    expect(Math.max(...run.error)).toBeLessThan(1e-12);
    expect(run.rows.every((r) => r.status === 'pass')).toBe(true);
  });
  it('f32: errors at float32 round-off (a few float32 ulps relative)', () => {
    const run = closedFormRun('double-pendulum', pendulum.model, 'f32', engineAddon())!;
    expect(run.t.length).toBe(5001);
    const worst = Math.max(...run.error);
    expect(worst).toBeGreaterThan(0); // really float32
    expect(worst).toBeLessThan(16 * 2 ** -24);
  });
});

describe('gates', () => {
  it('forward on two models: every gate passes on the real engine', async () => {
    const r = await runSuite({ stages: new Set(['forward']), models: new Set(['arm7', 'double-pendulum']), states: 64, bugStates: 16, seed: 1, python: 'python3', bugs: false });
    const gates = summarize(r);
    expect(gates.map((g) => `${g.model}/${g.precision}`).sort()).toEqual(['arm7/f32', 'arm7/f64', 'double-pendulum/f32', 'double-pendulum/f64']);
    for (const g of gates) expect(g.status, `${g.model} ${g.precision} worst ${g.worstRatio}`).toBe('PASS');
    expect(r.rows.filter((x) => x.field === 'qacc').length).toBe(2 * 2 * 64);
  });

  it('the planted hinge-sign bug makes the kinematics gate fail', async () => {
    const r = await runSuite({ stages: new Set(['kinematics']), models: new Set(['double-pendulum']), states: 16, bugStates: 16, seed: 1, python: 'python3', bugs: true });
    expect(summarize(r).every((g) => g.status === 'PASS')).toBe(true);
    const hinge = r.bugs.find((b) => b.name === 'hinge-sign')!;
    expect(hinge.failed).toContain('kinematics/double-pendulum/f64');
  });

  it('the command prints the JSON shape and writes the report', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'achilles-validate-')), 'report');
    let text = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((text += String(s)), true));
    let code: number;
    try {
      code = await validateCommand.run([], { stage: 'forward', model: ['arm7', 'double-pendulum'], states: 64, 'bug-states': 4, json: true, out });
    } finally {
      spy.mockRestore();
    }
    const j = JSON.parse(text) as { stages: Record<string, unknown>[]; pass: boolean };
    expect(Object.keys(j.stages[0]).sort()).toEqual(['bugsCaught', 'bugsPlanted', 'model', 'precision', 'stage', 'status', 'worstRatio']);
    expect(j.stages.every((s) => s.stage === 'forward' && s.status === 'PASS')).toBe(true);
    expect(j.stages[0].bugsPlanted).toBe(10);
    // forward alone cannot catch the integrator bugs: the run must not claim a pass.
    expect(j.pass).toBe(false);
    expect(code).toBe(1);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('| forward');
    expect(existsSync(join(out, 'forward.csv'))).toBe(true);
    expect(existsSync(join(out, 'forward-f32-error-vs-bar.svg'))).toBe(true);
  });
});
