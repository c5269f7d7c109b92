// The general-actuators validation stage against MuJoCo: actuator_force, act_dot and qacc per state
// and q and act along Euler and RK4 runs pass at the bars, and each planted general-actuator bug
// fails them.
import { describe, expect, it } from 'vitest';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { generalReference, generalRows } from '../src/validation/general-actuators/stage.js';
import type { CheckRow } from '../src/validation/types.js';

const worst = (rows: CheckRow[], field: RegExp) =>
  Math.max(...rows.filter((r) => field.test(r.field)).map((r) => r.error / (r.bar || 1e-300)));

describe('general-actuators stage vs MuJoCo', () => {
  it('passes on the engine; the planted filter and bias bugs fail it', async () => {
    const ref = await generalReference(process.env.ACHILLES_PYTHON || 'python3', 1);
    const [arm, fixture] = ref.models;
    expect(arm.runs.euler.act[0].length).toBe(4); // filter, filterexact, integrator and the actearly filter (one has no dynamics)
    expect(fixture.runs.rk4.act[0].length).toBe(5); // the fixture: two timeconst servos, a class-filtered position, an intvelocity, a filtered <general>
    for (const p of ['f32', 'f64'] as const) {
      const rows = generalRows(ref, p, engineAddon());
      expect(rows.filter((r) => r.status === 'fail').map((r) => `${r.field} #${r.state} t=${r.t}: ${r.error}`)).toEqual([]);
      expect(rows.some((r) => r.field === 'rk4.act')).toBe(true);
    }
    // act really evolves (and hits its ranges): the run is not a trivial one
    const acts = arm.runs.rk4.act.flat();
    expect(Math.max(...acts.map(Math.abs))).toBeGreaterThan(0.5);
    const bugs = bugAddon();
    try {
      bugs.setBug!('actuator-filter-time-constant-off-by-one-step');
      const late = generalRows(ref, 'f64', bugs);
      expect(worst(late, /^act_dot$/)).toBeGreaterThan(1e3);
      expect(worst(late, /^euler\.act$/)).toBeGreaterThan(1e3);
      bugs.setBug!('actuator-affine-bias-sign');
      const sign = generalRows(ref, 'f64', bugs);
      expect(worst(sign, /^actuator_force$/)).toBeGreaterThan(1e3);
      expect(worst(sign, /^rk4\.q$/)).toBeGreaterThan(1e3);
    } finally {
      bugs.setBug!('none');
    }
  });
});
