// The table of what `achilles run` writes (docs/outputs.md) names every file a run can write (issue 23: it
// lacked contacts, actuator forces, sensors and the controller's charts). The ball on a plate has all
// of them: shapes that touch, servos, a camera, and a controller module with a report(); --html adds
// the replay. Each file of that run must be named in the table's first column (a `.svg` by its
// `NAME.vl.json`, `.svg` row; a controller chart by its name).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { cli, ROOT, SCENES, tempDir } from './helpers/cli.js';

/** The backticked names in the first column of docs/outputs.md's "Outputs of `achilles run`" table. */
function tableNames(): Set<string> {
  const readme = readFileSync(join(ROOT, 'docs', 'outputs.md'), 'utf8');
  const start = readme.indexOf('## Outputs of `achilles run`');
  expect(start, 'docs/outputs.md has an "Outputs of `achilles run`" section').toBeGreaterThanOrEqual(0);
  const rows = readme
    .slice(start)
    .split('\n')
    .slice(1)
    .filter((l) => l.startsWith('| '));
  const names = new Set<string>();
  for (const row of rows) {
    const [first, second] = row.split(' | ');
    for (const m of `${first} ${second ?? ''}`.matchAll(/`([^`]+)`/g)) names.add(m[1]);
  }
  return names;
}

test('every file of a run with contacts, actuators, sensors, a controller report and --html is in the outputs table (docs/outputs.md)', async () => {
  const out = join(tempDir(), 'out');
  const r = await cli(
    'run',
    join(SCENES, 'ball-on-plate.arow'),
    '--controller',
    join(SCENES, 'ball-on-plate.ctrl.ts'),
    '--duration',
    '0.2',
    '--html',
    '--out',
    out,
  );
  expect(r.code, r.stderr).toBe(0);
  const files = readdirSync(out).filter((f) => !f.startsWith('.'));
  // the run wrote every kind the issue names
  for (const f of ['contacts.csv', 'actuator-forces.svg', 'sensors.svg', 'ball-path.svg', 'replay.html']) expect(files).toContain(f);
  const names = tableNames();
  const covered = (f: string) =>
    names.has(f) || (f.endsWith('.svg') && names.has(f.replace(/\.svg$/, '.vl.json'))) || names.has(f.replace(/(\.vl\.json|\.svg)$/, ''));
  expect(files.filter((f) => !covered(f))).toEqual([]);
}, 60_000);
