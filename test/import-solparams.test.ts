// MJCF solref/solimp as MuJoCo runs them (issue 23): out-of-range solimp is clamped as MuJoCo's
// getsolparam clamps it (so a model with dmin 0 imports, runs, and its written .arow loads), a
// mixed-sign solref becomes MuJoCo's default, and what the engine cannot run is refused at the
// attribute's FILE:LINE:COL instead of later in native code.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { importFile } from '../src/model-files/import/index.js';
import { loadScene, SceneError } from '../src/model-files/scene/index.js';

const dir = mkdtempSync(join(tmpdir(), 'achilles-import-sol-'));
let count = 0;
const write = (text: string): string => {
  const f = join(dir, `m${count++}.xml`);
  writeFileSync(f, text);
  return f;
};
const model = (geom: string, joint = ''): string =>
  `<mujoco>\n  <worldbody>\n    <geom type="plane" size="1 1 0.1"/>\n    <body name="a" pos="0 0 1">\n      <joint name="j" axis="0 1 0" ${joint}/>\n      <geom size="0.1" ${geom}/>\n    </body>\n  </worldbody>\n</mujoco>\n`;

describe('solref and solimp as MuJoCo uses them', () => {
  test('solimp dmin 0 and a width below 0 are clamped as MuJoCo clamps them; the .arow written loads back', () => {
    const f = write(model('solimp="0 1 -0.5"', 'range="-10 10" solimplimit="0.95 0.99 0.001 0 0.5"'));
    const imp = importFile(f);
    const shape = imp.model.shapes!.find((s) => s.body >= 0)!;
    expect(shape.solimp).toEqual([1e-4, 0.9999, 0, 0.5, 2]);
    expect(imp.model.bodies[0].limit!.solimp).toEqual([0.95, 0.99, 0.001, 1e-4, 1]);
    const notes = imp.notes.filter((n) => n.kind === 'as-mujoco' && /clamps/.test(n.message));
    expect(notes.map((n) => n.source.line).sort()).toEqual([5, 6]);
    const arow = join(dir, 'back.arow');
    writeFileSync(arow, writeArow(imp.model, ['test']));
    expect(loadScene(arow).shapes!.find((s) => s.body >= 0)!.solimp).toEqual([1e-4, 0.9999, 0, 0.5, 2]);
  });

  test("a mixed-sign solref becomes MuJoCo's default [0.02, 1], with a note at the attribute", () => {
    const imp = importFile(write(model('solref="0.05 -1"')));
    expect(imp.model.shapes!.find((s) => s.body >= 0)!.solref).toEqual([0.02, 1]);
    expect(imp.notes.some((n) => n.source.line === 6 && /mixed solref format/.test(n.message))).toBe(true);
  });

  test('what the engine cannot run is refused at the attribute: solref [0, 0], a fractional or huge power', () => {
    for (const [attr, col, what] of [
      ['solref="0 0"', 24, /solref: found "0 0"/],
      ['solimp="0.9 0.95 0.001 0.5 2.5"', 24, /solimp power: found 2\.5/],
      ['solimp="0.9 0.95 0.001 0.5 40"', 24, /solimp power: found 40/],
    ] as const) {
      let e: unknown;
      try {
        importFile(write(model(attr)));
      } catch (x) {
        e = x;
      }
      expect(e, attr).toBeInstanceOf(SceneError);
      const se = e as SceneError;
      expect([se.line, se.column], attr).toEqual([6, col]);
      expect(se.message, attr).toMatch(what);
    }
  });
});
