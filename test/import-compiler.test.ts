// Compiler settings as MuJoCo's compiler applies them (issue 23): settotalmass scales every body's
// mass and inertia after they are computed (mj_setTotalmass), inertiagrouprange picks the geoms a
// body's inertia comes from, and the compiler settings the importer lets pass without effect are
// proven so against MuJoCo's compiled model: the fixture below, compiled by python mujoco, gives
// the same masses, centres of mass, inertias, poses and free-space accelerations (the import stage's
// gates, IMPORT_BAR = 1e-12).

import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/import/index.js';
import { FIXTURE_DIR, importReference, importRows } from '../src/validation/import/stage.js';

const FIXTURE = 'mjcf-settotalmass.xml';

describe('compiler settotalmass and inertiagrouprange', () => {
  test('the half-cheetah-like fixture weighs 14 kg, as its settotalmass says', () => {
    const m = importFile(join(FIXTURE_DIR, FIXTURE)).model;
    expect(m.bodies.reduce((s, b) => s + b.mass, 0)).toBeCloseTo(14, 12);
  });

  test('masses, inertias, poses and accelerations match MuJoCo\'s compiled model', async () => {
    const ref = await importReference(process.env.ACHILLES_PYTHON || 'python3', 1, 3, new Set([`import:${FIXTURE}`]));
    expect(ref.fixtures.length).toBe(1);
    const total = ref.fixtures[0].mj.mass.reduce((s, x) => s + x, 0);
    expect(total).toBeCloseTo(14, 12); // MuJoCo scaled it too: the comparison below is not vacuous
    const rows = importRows(ref, engineAddon()).filter((r) => r.model === `import:${FIXTURE}`);
    expect(rows.some((r) => r.field === 'mass')).toBe(true);
    expect(rows.filter((r) => r.status !== 'pass').map((r) => `${r.field}[${r.state}] ${r.error} ${r.note}`)).toEqual([]);
  }, 120_000);
});
