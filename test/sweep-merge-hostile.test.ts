// `achilles sweep merge` given shards that are not what a shard writes (issue 56): a results.csv
// that is a link to /dev/zero, a FIFO, a directory or a huge file; rows with a cell too many, a
// robot missing, twice or out of the shard's range; a value changed; a file cut short; a shard.json
// that is not a record. Each is refused with exit 1 and a message naming the file (and its line),
// and nothing of the merged output is left behind. A shard's row checks are shown with shard.json's
// checksums made to match the changed file, so that they, not the checksum, catch it. The shards
// come from one child process; the merges that could block or blow memory on a reader that is not
// careful each run as their own process, killed after a few seconds.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inChild } from './helpers/in-child.js';
import { ROOT, SCENES, tempDir } from './helpers/cli.js';
import type * as Seq from './helpers/work/cli-sequence.js';

const dir = tempDir('achilles-sweep-merge-hostile-');
const sweep = join(dir, 'small.yaml');
// 6 robots in 3 shards of 2; shard 1 (robots 2 and 3) is the one spoiled. Robot 2 is traced.
writeFileSync(
  sweep,
  [
    'sweep: hostile',
    `scene: ${join(SCENES, 'quadruped.arow')}`,
    'robots: 6',
    'seed: 3',
    'duration: 0.05',
    'randomize: { initial: { q:torso.z: { uniform: [0.3, 0.6] } } }',
    'keep: { metrics: [fell, height], body: torso, fall_height: 0.2, traces: { robots: [1, 2, 4], every: 10 } }',
    '',
  ].join('\n'),
);
const base = join(dir, 'base');
const whole = join(dir, 'whole');
const SHARD = join('shards', 'shard-1-of-3');
const MERGED = ['results.csv', 'traces.csv', 'sweep.json', 'metrics.vl.json', 'metrics.svg', 'draws.vl.json', 'draws.svg'];

beforeAll(async () => {
  const r = await inChild<typeof Seq, 'runCliSequence'>(new URL('./helpers/work/cli-sequence.ts', import.meta.url), 'runCliSequence', [
    ...[0, 1, 2].map((i) => ({ args: ['sweep', sweep, '--out', base, '--shard', `${i}/3`] })),
    { args: ['sweep', sweep, '--out', whole, '--shards', '1'] },
  ]);
  r.forEach((x, i) => expect(x.code, `command ${i}: ${x.stderr}`).toBe(0));
}, 60_000);

// The copies hold a 1 GiB file (a hole, but a copy of it by a tool that fills holes would not be) and FIFOs.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the three finished shards, to spoil: its path and its shard 1's folder. */
function copyOfShards(name: string): { out: string; shard: string } {
  const out = join(dir, name);
  cpSync(base, out, { recursive: true });
  return { out, shard: join(out, SHARD) };
}

/** shard.json's sha256 and size of `file` made to match the file as it now is (a changed file
 *  whose structure then is all that can give it away). */
function rehash(shard: string, file: string): void {
  const recordPath = join(shard, 'shard.json');
  const record = JSON.parse(readFileSync(recordPath, 'utf8'));
  const bytes = readFileSync(join(shard, file));
  if (record.sha256) record.sha256[file] = createHash('sha256').update(bytes).digest('hex');
  if (record.bytes) record.bytes[file] = bytes.length;
  writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);
}

/** The 1-based line of `file` that starts with `prefix`. */
function lineStarting(file: string, prefix: string): number {
  const i = readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.startsWith(prefix));
  expect(i, `${file} has a line starting with ${prefix}`).toBeGreaterThanOrEqual(0);
  return i + 1;
}

/** `file`'s lines, changed by `edit`. */
function editLines(file: string, edit: (lines: string[]) => string[]): void {
  writeFileSync(file, edit(readFileSync(file, 'utf8').split('\n')).join('\n'));
}

/** Nothing merged in `out`, and no staging folder beside it. */
function expectNothingMerged(out: string): void {
  for (const f of MERGED) expect(existsSync(join(out, f)), `${f} in ${out}`).toBe(false);
  const staging = readdirSync(dirname(out)).filter((n) => n.startsWith(`.${basename(out)}.staging`));
  expect(staging).toEqual([]);
}

interface Merge {
  code: number | null;
  stderr: string;
  killed: boolean;
}

/** `achilles sweep merge OUT` as a process of its own, killed after `ms` (a merge that blocks on a
 *  FIFO or reads /dev/zero must not hold the test). */
function mergeProcess(out: string, ms = 15_000): Promise<Merge> {
  const entry = `import(${JSON.stringify(join(ROOT, 'src/cli/main.ts'))}).then((m) => m.main(['node', 'achilles', ...process.argv.slice(1)])).then((c) => { process.exitCode = c; })`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', entry, '--', 'sweep', 'merge', out], {
    cwd: ROOT,
    env: { ...process.env, CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, ms);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, killed });
    }),
  );
}

/** Merges of several copies, one after the other in one child process. */
async function mergeAll(outs: string[]): Promise<Seq.StepResult[]> {
  return inChild<typeof Seq, 'runCliSequence'>(
    new URL('./helpers/work/cli-sequence.ts', import.meta.url),
    'runCliSequence',
    outs.map((out) => ({ args: ['sweep', 'merge', out] })),
  );
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function expectRefused(m: { code: number | null; stderr: string }, out: string, file: string, line?: number): void {
  expect(m.code, m.stderr).toBe(1);
  const where = join(out, SHARD, file) + (line === undefined ? ':' : `:${line}:`);
  expect(m.stderr).toMatch(new RegExp(`^achilles sweep merge: ${escape(where)} `));
  expectNothingMerged(out);
}

describe('sweep merge refuses shard files that are no regular file, without blocking or reading them', () => {
  test('results.csv a symbolic link to /dev/zero', async () => {
    const { out, shard } = copyOfShards('devzero');
    rmSync(join(shard, 'results.csv'));
    symlinkSync('/dev/zero', join(shard, 'results.csv'));
    const m = await mergeProcess(out);
    expect(m.killed, m.stderr).toBe(false);
    expectRefused(m, out, 'results.csv');
    expect(m.stderr).toMatch(
      /a character device \(a symbolic link to \/dev\/zero\), not a regular file; remove it, then run the shard again/,
    );
  }, 30_000);

  test('results.csv a FIFO, and shard.json a FIFO', async () => {
    const { out, shard } = copyOfShards('fifo');
    rmSync(join(shard, 'results.csv'));
    execFileSync('mkfifo', [join(shard, 'results.csv')]);
    const other = copyOfShards('fifo-record');
    rmSync(join(other.shard, 'shard.json'));
    execFileSync('mkfifo', [join(other.shard, 'shard.json')]);
    const [m, n] = await Promise.all([mergeProcess(out), mergeProcess(other.out)]);
    expect(m.killed, 'merge blocked on the FIFO results.csv').toBe(false);
    expectRefused(m, out, 'results.csv');
    expect(m.stderr).toMatch(/: a FIFO \(named pipe\), not a regular file; remove it/);
    expect(n.killed, 'merge blocked on the FIFO shard.json').toBe(false);
    expectRefused(n, other.out, 'shard.json');
    expect(n.stderr).toMatch(/: a FIFO \(named pipe\), not a regular file/);
  }, 30_000);

  test('a directory in place of results.csv', async () => {
    const { out, shard } = copyOfShards('directory');
    rmSync(join(shard, 'results.csv'));
    mkdirSync(join(shard, 'results.csv'));
    const m = await mergeProcess(out);
    expectRefused(m, out, 'results.csv');
    expect(m.stderr).toMatch(
      /: a directory, not a regular file; remove it, then run the shard again \(achilles sweep SWEEP\.yaml --shard 1\/3 /,
    );
  }, 30_000);

  test('results.csv of 1 GiB (its header, then a hole): more than 2 robots can hold, refused before it is read', async () => {
    const { out, shard } = copyOfShards('huge');
    const file = join(shard, 'results.csv');
    truncateSync(file, 1024 ** 3);
    const m = await mergeProcess(out);
    expectRefused(m, out, 'results.csv');
    expect(m.stderr).toMatch(
      /: 1\.0 GiB: more than the [\d.]+ KiB that is the most a shard of 2 robots holds \(a [\d.]+ KiB header and 2 rows of at most \d+ bytes\)/,
    );
  }, 30_000);
});

describe("sweep merge checks each shard's rows and its checksum", () => {
  const cases = {
    /** Robot 3's row with one cell more. */
    extraCell: () => {
      const { out, shard } = copyOfShards('extra-cell');
      const file = join(shard, 'results.csv');
      editLines(file, (ls) => ls.map((l) => (l.startsWith('3,') ? `${l},9` : l)));
      rehash(shard, 'results.csv');
      return { out, line: lineStarting(file, '3,') };
    },
    /** Robot 2's row gone: its place is robot 3's line. */
    missing: () => {
      const { out, shard } = copyOfShards('missing-robot');
      const file = join(shard, 'results.csv');
      editLines(file, (ls) => ls.filter((l) => !l.startsWith('2,')));
      rehash(shard, 'results.csv');
      return { out, line: lineStarting(file, '3,') };
    },
    /** Robot 3's row replaced by a second copy of robot 2's. */
    duplicate: () => {
      const { out, shard } = copyOfShards('duplicate-robot');
      const file = join(shard, 'results.csv');
      const two = readFileSync(file, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('2,'))!;
      editLines(file, (ls) => ls.map((l) => (l.startsWith('3,') ? two : l)));
      rehash(shard, 'results.csv');
      return { out, line: lineStarting(file, '2,') + 1 };
    },
    /** Robot 3's row says robot 7 (shard 1 of 3 holds robots 2 and 3). */
    outOfRange: () => {
      const { out, shard } = copyOfShards('out-of-range');
      const file = join(shard, 'results.csv');
      editLines(file, (ls) => ls.map((l) => (l.startsWith('3,') ? `7,${l.slice(2)}` : l)));
      rehash(shard, 'results.csv');
      return { out, line: lineStarting(file, '7,') };
    },
    /** One digit of robot 2's drawn height changed: every row still has its shape. */
    tampered: () => {
      const { out, shard } = copyOfShards('tampered');
      const file = join(shard, 'results.csv');
      editLines(file, (ls) => ls.map((l) => (l.startsWith('2,0.') ? `2,0.${l[4] === '9' ? '8' : '9'}${l.slice(5)}` : l)));
      return { out, line: undefined };
    },
    /** The file cut in the middle of its last row (robot 3's). */
    truncated: () => {
      const { out, shard } = copyOfShards('truncated');
      const file = join(shard, 'results.csv');
      const line = lineStarting(file, '3,');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.slice(0, text.length - 40));
      return { out, line };
    },
    /** A shard.json written before shards recorded their checksums. */
    noChecksum: () => {
      const { out, shard } = copyOfShards('no-checksum');
      const record = JSON.parse(readFileSync(join(shard, 'shard.json'), 'utf8'));
      delete record.sha256;
      writeFileSync(join(shard, 'shard.json'), JSON.stringify(record));
      return { out, line: undefined };
    },
    /** A shard.json that names a file of its own choosing to merge. */
    foreignFile: () => {
      const { out, shard } = copyOfShards('foreign-file');
      const record = JSON.parse(readFileSync(join(shard, 'shard.json'), 'utf8'));
      record.files = ['results.csv', '../../../../../etc/passwd'];
      writeFileSync(join(shard, 'shard.json'), JSON.stringify(record));
      return { out, line: undefined };
    },
  };
  const made = {} as Record<keyof typeof cases, { out: string; line: number | undefined }>;
  let merged: Record<keyof typeof cases, Seq.StepResult>;

  beforeAll(async () => {
    const names = Object.keys(cases) as (keyof typeof cases)[];
    for (const name of names) made[name] = cases[name]();
    const r = await mergeAll(names.map((n) => made[n].out));
    merged = Object.fromEntries(names.map((n, i) => [n, r[i]])) as typeof merged;
  }, 60_000);

  const refused = (name: keyof typeof cases, file = 'results.csv') => expectRefused(merged[name], made[name].out, file, made[name].line);

  test('a row with one cell more: its line, with the cell count (the checksum made to match)', () => {
    refused('extraCell');
    expect(merged.extraCell.stderr).toMatch(/: 38 cells; the header has 37 columns; run the shard again/);
  });

  test('a robot missing: where its row belongs', () => {
    refused('missing');
    expect(merged.missing.stderr).toMatch(/: no row for robot 2: the shard holds robots 2\.\.3, one row each/);
  });

  test('a robot twice: the second row, and where the first is', () => {
    refused('duplicate');
    expect(merged.duplicate.stderr).toMatch(/: robot 2 again \(its row is at line \d+\): each robot has one row/);
  });

  test("a robot outside the shard's range", () => {
    refused('outOfRange');
    expect(merged.outOfRange.stderr).toMatch(/: robot 7 is not one of this shard's robots \(2\.\.3\)/);
  });

  test('a value changed, the structure intact: the checksum the shard recorded catches it', () => {
    refused('tampered');
    expect(merged.tampered.stderr).toMatch(
      /results\.csv: changed since shard-1-of-3 wrote it \(its sha256 [0-9a-f]{12}… is not the [0-9a-f]{12}… its shard wrote\), though every row has the shape of one/,
    );
  });

  test('a file cut short: the line that is not whole, and that the file changed', () => {
    refused('truncated');
    expect(merged.truncated.stderr).toMatch(
      /: the last line is not whole \(the file ends without a line end: truncated\?\) \(the file changed since shard-1-of-3 wrote it: \d+ bytes where its shard wrote \d+\)/,
    );
  });

  test('a shard.json without checksums, or naming a file of its own: refused, the file never read', () => {
    refused('noChecksum', 'shard.json');
    expect(merged.noChecksum.stderr).toMatch(/shard\.json: it records no sha256 and size of results\.csv/);
    refused('foreignFile', 'shard.json');
    expect(merged.foreignFile.stderr).toMatch(/shard\.json: `files` is not \["results\.csv"\] or \["results\.csv", "traces\.csv"\]/);
  });
});

test('the shards untouched still merge to the bytes of the unsharded run', async () => {
  const { out } = copyOfShards('intact');
  const [m] = await mergeAll([out]);
  expect(m.code, m.stderr).toBe(0);
  for (const f of MERGED) expect(readFileSync(join(out, f)).equals(readFileSync(join(whole, f))), f).toBe(true);
  // Every shard recorded each of its files' sha256 and size.
  const record = JSON.parse(readFileSync(join(out, SHARD, 'shard.json'), 'utf8'));
  for (const f of ['results.csv', 'traces.csv']) {
    const bytes = readFileSync(join(out, SHARD, f));
    expect(record.sha256[f]).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(record.bytes[f]).toBe(bytes.length);
  }
}, 30_000);
