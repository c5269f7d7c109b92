// The actuators and passive validation stages against MuJoCo: the engine passes at the issue's
// bars, and each planted bug of the part fails them (effort one step late by orders of magnitude).
import { describe, expect, it } from 'vitest';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { actuatorReference, actuatorRows, RUN_BAR } from '../src/validation/actuators/stage.js';
import type { CheckRow } from '../src/validation/types.js';

const worst = (rows: CheckRow[], field: RegExp) =>
  Math.max(...rows.filter((r) => field.test(r.field)).map((r) => r.error / (r.bar || 1e-300)));

describe('actuators and passive stages vs MuJoCo', () => {
  it('pass on the engine; the planted actuator and damping bugs fail them', async () => {
    const ref = await actuatorReference(process.env.ACHILLES_PYTHON || 'python3', new Set(['actuators', 'passive']), 1);
    expect(ref.arm?.runs.euler.exact.qpos.length).toBe(400); // 20 s at 2 ms, sampled every 25 steps
    for (const p of ['f32', 'f64'] as const) {
      const rows = actuatorRows(ref, p, engineAddon());
      expect(rows.filter((r) => r.status === 'fail').map((r) => `${r.model} ${r.field} t=${r.t}`)).toEqual([]);
      expect(rows.filter((r) => r.stage === 'actuators' && /\.q$/.test(r.field)).every((r) => r.bar === RUN_BAR[p])).toBe(true);
    }
    const bugs = bugAddon();
    try {
      bugs.setBug!('actuator-effort-one-step-late');
      const late = actuatorRows({ arm: ref.arm, passive: [] }, 'f64', bugs);
      // a one-step delay in a stiff PD loop: errors many orders of magnitude over the bar
      expect(worst(late, /\.q$/)).toBeGreaterThan(1e4);
      bugs.setBug!('actuator-gear-not-projected');
      expect(worst(actuatorRows({ arm: ref.arm, passive: [] }, 'f64', bugs), /\.q$/)).toBeGreaterThan(1e4);
      bugs.setBug!('damping-explicit-in-euler');
      const explicit = actuatorRows({ passive: ref.passive }, 'f64', bugs);
      expect(worst(explicit, /^euler\./)).toBeGreaterThan(10);
      expect(worst(explicit, /^rk4\./)).toBeLessThanOrEqual(1); // RK4 is explicit in MuJoCo too
    } finally {
      bugs.setBug!('none');
    }
  });
});
