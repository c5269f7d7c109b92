// The equality validation stage against MuJoCo: connect, weld and joint equality rows (dist, J, aref,
// R), the converged and one-Newton-step qacc per state, and the four-bar run pass at the bars; each
// planted equality bug fails them.
import { describe, expect, it } from 'vitest';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { equalityReference, equalityRows } from '../src/validation/equality/stage.js';
import type { CheckRow } from '../src/validation/types.js';

const worst = (rows: CheckRow[], model: string, field: RegExp) =>
  Math.max(0, ...rows.filter((r) => r.model === model && field.test(r.field)).map((r) => r.error / (r.bar || 1e-300)));

describe('equality stage vs MuJoCo', () => {
  it('passes on the engine; each planted equality bug fails it', { timeout: 600_000 }, async () => {
    const ref = await equalityReference(process.env.ACHILLES_PYTHON || 'python3', 1, 8);
    // every fixture's rows include its equality blocks (type 0), and the four-bar moves
    for (const s of ref.states) expect(s.mujoco[0].efc.type.filter((t) => t === 0).length).toBeGreaterThan(0);
    expect(Math.max(...ref.fourBar.ref.qpos.map((q) => Math.abs(q[0])))).toBeGreaterThan(0.3);
    const rows = equalityRows(ref, 'f64', engineAddon());
    expect(rows.filter((r) => r.status === 'fail').map((r) => `${r.model} ${r.field} #${r.state}: ${r.error} > ${r.bar}`)).toEqual([]);
    const bugs = bugAddon();
    try {
      bugs.setBug!('equality-connect-anchor-wrong-body');
      const connect = equalityRows(ref, 'f64', bugs);
      expect(worst(connect, 'four-bar', /^rows\.dist$/)).toBeGreaterThan(1e3);
      expect(worst(connect, 'four-bar', /^rollout\.q$/)).toBeGreaterThan(1e3);
      bugs.setBug!('equality-weld-orientation-sign');
      const weld = equalityRows(ref, 'f64', bugs);
      expect(worst(weld, 'weld', /^rows\.dist$/)).toBeGreaterThan(1e3);
      expect(worst(weld, 'weld', /^qacc$/)).toBeGreaterThan(1e3);
      bugs.setBug!('equality-joint-polycoef-order');
      const poly = equalityRows(ref, 'f64', bugs);
      expect(worst(poly, 'gripper', /^rows\.(dist|J)$/)).toBeGreaterThan(1e3);
    } finally {
      bugs.setBug!('none');
    }
  });
});
