// MJCF <option integrator>: Euler, RK4 and implicitfast are read as the engine's integrators of the
// same name (implicit becomes implicitfast, with a note), and the MJCF export writes them back.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf } from '../src/model-files/scene/index.js';

const dir = mkdtempSync(join(tmpdir(), 'achilles-import-integrator-'));
const file = (integrator: string | null): string => {
  const path = join(dir, `${integrator ?? 'default'}.xml`);
  const option = integrator === null ? '' : `<option integrator="${integrator}"/>`;
  writeFileSync(
    path,
    `<mujoco>${option}<worldbody><body><joint axis="1 0 0" damping="0.1"/><geom type="sphere" size="0.1" pos="0 0.3 0"/></body></worldbody></mujoco>`,
  );
  return path;
};

describe('MJCF integrator option', () => {
  it('reads Euler, RK4, implicitfast and implicit, and writes them back', () => {
    const cases: [string | null, string, string][] = [
      [null, 'euler', 'Euler'],
      ['Euler', 'euler', 'Euler'],
      ['RK4', 'rk4', 'RK4'],
      ['implicitfast', 'implicitfast', 'implicitfast'],
      ['implicit', 'implicitfast', 'implicitfast'],
    ];
    for (const [option, engine, back] of cases) {
      const got = importFile(file(option));
      expect(got.model.world.integrator, String(option)).toBe(engine);
      const noted = got.notes.filter((n) => /integrator/.test(n.message)).map((n) => n.message);
      expect(noted, String(option)).toEqual(option === 'implicit' ? [expect.stringContaining('implicit → implicitfast')] : []);
      expect(exportMjcf(got.model)).toContain(`integrator="${back}"`);
    }
  });
});
