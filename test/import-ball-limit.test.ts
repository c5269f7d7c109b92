// Ball-joint cone limits (issue 12): MJCF import (degrees, MuJoCo's "range[0] should be 0" rule), the
// .arow range on a ball joint and its errors, the MJCF export, bit-identity across lanes, and the
// import stage's constrained gates against MuJoCo (f64, f32) with the planted native bug failing them.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf, loadScene, SceneError } from '../src/model-files/scene/index.js';
import { constrainedFixtureReference, constrainedRows } from '../src/validation/import/constrained.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';
import { expectSameAcrossLanesAndThreads } from './helpers/lanes.js';

const BALL = join(FIXTURE_DIR, 'mjcf-ball-limit.xml');
const dir = mkdtempSync(join(tmpdir(), 'achilles-ball-limit-'));

describe('ball-joint cone limits: import, .arow, export', () => {
  test('MJCF: the range is converted from degrees, kept with its limit settings, and no longer dropped', () => {
    const imp = importFile(BALL);
    const [out, inn] = imp.model.bodies;
    expect(out.range).toEqual([0, (30 * Math.PI) / 180]);
    expect(inn.range).toEqual([0, (25 * Math.PI) / 180]);
    expect(inn.limit).toMatchObject({ solref: [0.01, 0.8], margin: 0.05 });
    expect(imp.notes.filter((n) => /range/.test(n.message))).toEqual([]);
  });

  test('MJCF: range[0] other than 0 on a ball joint is refused at its line, as MuJoCo refuses it', () => {
    const f = join(dir, 'bad.xml');
    writeFileSync(
      f,
      '<mujoco>\n<worldbody><body><joint name="b" type="ball" range="10 30"/><geom size="0.1"/></body></worldbody>\n</mujoco>\n',
    );
    expect(() => importFile(f)).toThrow(SceneError);
    expect(() => importFile(f)).toThrow(/bad\.xml:2:\d+: .*range.*range\[0\] should be 0 in ball joint/);
  });

  test('.arow: a ball joint takes range [0, max angle]; the import writes it and it loads back; [lo > 0, hi] is refused', () => {
    const imp = importFile(BALL);
    const f = join(dir, 'ball.arow');
    writeFileSync(f, writeArow(imp.model, ['test']));
    const back = loadScene(f);
    expect(back.bodies.map((b) => [b.range, b.limit])).toEqual(imp.model.bodies.map((b) => [b.range, b.limit]));
    const p = join(dir, 'bad.arow');
    writeFileSync(
      p,
      'scene: t\nlinks:\n  - { name: a, parent: world, joint: { type: ball, range: [0.1, 0.5] }, mass: 1, inertia: [1, 1, 1, 0, 0, 0] }\n',
    );
    expect(() => loadScene(p)).toThrow(/bad\.arow:3:\d+: .*range.*\[0, max angle\] on a ball joint/);
  });

  test('MJCF export writes the cone back (radians)', () => {
    const xml = exportMjcf(importFile(BALL).model, { contacts: true });
    expect(xml).toMatch(/type="ball" limited="true" range="0 0\.5235987755982988?" solreflimit="0\.02 1"/);
  });
});

describe('ball-joint cone limits: the engine', () => {
  test('bit-identical across lane widths and threads with the cone rows acting', () => {
    expectSameAcrossLanesAndThreads(importFile(BALL).model, (r) => {
      const a = 0.05 * r,
        s = Math.sin(a),
        c = Math.cos(a);
      return { q: [c, 0.6 * s, 0.8 * s, 0, 1, 0, 0, 0], v: [1 - 0.2 * r, 0.5, 0.1 * r, 2, -3 + 0.3 * r, 1], tau: [0, 0, 0, 0, 0, 0] };
    });
  });
});

describe("ball-joint cone limits against MuJoCo (the import stage's constrained gates)", () => {
  test('rows, q̈ and the trajectory pass in f64 and f32; ball-limit-axis-sign fails them', async () => {
    const ref = await constrainedFixtureReference(process.env.ACHILLES_PYTHON || 'python3', 1, {
      name: 'import:mjcf-ball-limit.xml',
      path: BALL,
    });
    expect(ref?.perState && ref.trajectory).toBeTruthy();
    // the cones are engaged: MuJoCo has joint limit rows (type 3) at most random states
    const types = ref!.perState!.ref.mujoco.flatMap((a) => a.efc.type);
    expect(types.filter((t) => t === 3).length).toBeGreaterThan(ref!.perState!.ref.states.length);
    for (const p of ['f64', 'f32'] as const) {
      const rows = constrainedRows(ref!, p, engineAddon());
      expect(rows.filter((r) => r.status === 'fail').map((r) => `${p} ${r.field} state ${r.state} ${r.error} > ${r.bar}`)).toEqual([]);
      expect(rows.some((r) => r.field === 'rows.J')).toBe(true);
    }
    const bugs = bugAddon();
    try {
      bugs.setBug!('ball-limit-axis-sign');
      const failed = new Set(
        constrainedRows(ref!, 'f64', bugs)
          .filter((r) => r.status === 'fail')
          .map((r) => r.field),
      );
      expect(failed.has('rows.structure') && failed.has('qacc (constraints on)') && failed.has('trajectory q (constraints on)')).toBe(true);
    } finally {
      bugs.setBug!('none');
    }
  }, 120_000);
});
