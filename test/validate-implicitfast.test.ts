// The implicitfast validation stage against MuJoCo: one step per state and q, q̇ and act at every step
// of runs pass at the bars (measured from MuJoCo's own float64 and float32 sensitivity), and the
// planted bug that drops the actuators' velocity derivative from qDeriv fails them.
import { describe, expect, it } from 'vitest';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { implicitReference, implicitRows } from '../src/validation/implicitfast/stage.js';
import type { CheckRow } from '../src/validation/types.js';

const worst = (rows: CheckRow[], field: RegExp, model?: string) =>
  Math.max(...rows.filter((r) => field.test(r.field) && (!model || r.model === model)).map((r) => r.error / (r.bar || 1e-300)));

describe('implicitfast stage vs MuJoCo', () => {
  it('passes on the engine; the planted derivative bug fails it', async () => {
    const ref = await implicitReference(process.env.ACHILLES_PYTHON || 'python3', 1);
    expect(ref.models.map((m) => m.name)).toEqual([
      'general-arm',
      'servo-chain',
      'tumbling-body',
      'mjcf-general-servos',
      'mjcf-contact-drop',
      'mjcf-tendon-coupling',
      'mjcf-actuator-tendon-chain',
    ]);
    for (const p of ['f32', 'f64'] as const) {
      const rows = implicitRows(ref, p, engineAddon());
      expect(
        rows.filter((r) => r.status === 'fail').map((r) => `${r.model} ${r.field} #${r.state} t=${r.t}: ${r.error} > ${r.bar}`),
      ).toEqual([]);
      expect(rows.some((r) => r.field === 'run.act')).toBe(true);
    }
    // the runs move: the free bodies fall and land, the servos swing
    const drop = ref.models.find((m) => m.name === 'mjcf-contact-drop')!;
    expect(Math.abs(drop.run.qpos[999][2] - drop.q0[2])).toBeGreaterThan(0.1);
    // semi-implicit Euler (damping implicit, nothing else) fails where implicitfast adds more: the
    // actuators, the damped tendon and the tumbling free body's gyroscopic block
    const euler = implicitRows(ref, 'f64', engineAddon(), 'euler');
    for (const m of ['general-arm', 'servo-chain', 'tumbling-body', 'mjcf-tendon-coupling'])
      expect(worst(euler, /^run\.v$/, m), m).toBeGreaterThan(1e3);
    const bugs = bugAddon();
    try {
      bugs.setBug!('implicitfast-derivative-dropped');
      const dropped = implicitRows(ref, 'f64', bugs);
      expect(worst(dropped, /^step\.v$/, 'servo-chain')).toBeGreaterThan(1e3);
      expect(worst(dropped, /^run\.q$/, 'general-arm')).toBeGreaterThan(1e3);
      // damping alone stays implicit with the bug: the tendon model (no actuators) still passes
      expect(worst(dropped, /^run\./, 'mjcf-tendon-coupling')).toBeLessThanOrEqual(1);
    } finally {
      bugs.setBug!('none');
    }
  });
});
