// `achilles run` on the MJCF fixture with general position servos: trace.csv gains `act:<actuator>`
// for each activation (after the `force:` columns), the import to .arow and back runs the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, tempDir } from './helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'import', 'mjcf-general-servos.xml');
const table = (file: string) => {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  return { header: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',').map(Number)) };
};

describe('achilles run with general actuators', () => {
  it('records act per activation; the imported .arow runs to the same trace (to rounding)', async () => {
    const dir = tempDir();
    const r = await cli('run', FIXTURE, '--duration', '0.2', '--out', join(dir, 'xml'));
    expect(r.code, r.stderr).toBe(0);
    const t = table(join(dir, 'xml', 'trace.csv'));
    const acts = t.header.filter((c) => c.startsWith('act:'));
    expect(acts).toEqual(['act:shoulder_servo', 'act:shoulder_filtered', 'act:elbow_servo', 'act:wrist_servo', 'act:finger_servo']);
    expect(t.header.indexOf(acts[0])).toBeGreaterThan(t.header.lastIndexOf('force:finger_servo'));
    const i = await cli('import', FIXTURE, '-o', join(dir, 'servos.arow'));
    expect(i.code, i.stderr).toBe(0);
    expect(readFileSync(join(dir, 'servos.arow'), 'utf8')).toMatch(/kind: general, dyntype: filterexact/);
    const again = await cli('run', join(dir, 'servos.arow'), '--duration', '0.2', '--out', join(dir, 'arow'));
    expect(again.code, again.stderr).toBe(0);
    const u = table(join(dir, 'arow', 'trace.csv'));
    expect(u.header.filter((c) => c.startsWith('act:'))).toEqual(acts);
    expect(u.rows.length).toBe(t.rows.length);
    // the .arow loader renormalises axes and quaternions (an ulp), so the runs agree to rounding
    const worst = Math.max(...u.rows.flatMap((row, k) => row.map((x, c) => Math.abs(x - t.rows[k][c]))));
    expect(worst).toBeLessThan(1e-9);
  });
});
