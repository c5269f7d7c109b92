// A sweep stopped by Ctrl-C keeps the shards it has finished (each written whole) and writes nothing
// of the shard it was in; run again, it skips the finished shards and ends with the results an
// uninterrupted run gives. The sweep runs as a child process (a real SIGINT), awaited.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { inChild } from './helpers/in-child.js';
import { SCENES, spawnCli, tempDir } from './helpers/cli.js';
import type * as Seq from './helpers/work/cli-sequence.js';

const dir = tempDir('achilles-sweep-interrupt-');
const sweep = join(dir, 'long.yaml');
// Three shards of 200 robots, 500 steps each: a few tenths of a second per shard.
writeFileSync(
  sweep,
  [
    'sweep: interrupt-test',
    `scene: ${join(SCENES, 'quadruped.arow')}`,
    'robots: 600',
    'shards: 3',
    'duration: 1',
    'randomize: { initial: { q:torso.z: { uniform: [0.3, 0.6] } } }',
    'keep: { metrics: [height], final: false }',
    '',
  ].join('\n'),
);

test('Ctrl-C keeps the finished shards; the restart skips them and ends with the uninterrupted results', async () => {
  const out = join(dir, 'out');
  const child = spawnCli(['sweep', sweep, '--out', out]);
  let stderr = '';
  let sent = false;
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    // The first shard is written: stop the sweep in the second.
    if (!sent && /shard-0-of-3: robots/.test(stderr)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  expect(sent, stderr).toBe(true);
  expect(code, stderr).toBe(130);
  expect(stderr).toMatch(/interrupted \(SIGINT\) in shard-[12]-of-3; nothing was written for it\. The shards already done are kept/);
  const shards = readdirSync(join(out, 'shards')).filter((n) => !n.startsWith('.'));
  expect(shards).toContain('shard-0-of-3');
  expect(shards.length).toBeLessThan(3);
  expect(existsSync(join(out, 'results.csv'))).toBe(false);

  const [again, whole] = await inChild<typeof Seq, 'runCliSequence'>(
    new URL('./helpers/work/cli-sequence.ts', import.meta.url),
    'runCliSequence',
    [{ args: ['sweep', sweep, '--out', out] }, { args: ['sweep', sweep, '--out', join(dir, 'whole'), '--shards', '1'] }],
  );
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toMatch(/shard-0-of-3 is already done/);
  expect(whole.code, whole.stderr).toBe(0);
  expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(readFileSync(join(dir, 'whole', 'results.csv'), 'utf8'));
}, 60_000);
