// A sweep split into shards gives, once merged, the very bytes of the unsharded run; a retried
// shard reproduces its files exactly; merge names a shard that is missing; a restarted sweep skips
// the shards already done; a scheduler's index picks the shard. The commands run one after the
// other in one child process (test/helpers/work/cli-sequence.ts), so the stepping never holds this
// worker's event loop, and one node start-up serves them all.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, test } from 'vitest';
import { inChild } from './helpers/in-child.js';
import { SCENES, tempDir } from './helpers/cli.js';
import type * as Seq from './helpers/work/cli-sequence.js';
import { parseResults } from '../src/sweep/charts.js';

const dir = tempDir('achilles-sweep-shards-');
const sweep = join(dir, 'drop.yaml');
// 10 robots in 3 shards (3, 3, 4 robots: robots change lanes and batches), 100 steps, with contacts.
writeFileSync(
  sweep,
  [
    'sweep: drop-test',
    `scene: ${join(SCENES, 'quadruped.arow')}`,
    'robots: 10',
    'seed: 11',
    'duration: 0.2',
    'randomize:',
    '  initial:',
    '    q:torso.z: { uniform: [0.3, 0.6] }',
    '    v:torso.vy: { normal: [0, 1] }',
    '    v:torso.wx: { log_uniform: [0.1, 10] }',
    '    q:front_left_shin: { normal: [0, 0.3] }',
    'keep:',
    '  metrics: [fell, height, energy, contacts]',
    '  body: torso',
    '  fall_height: 0.2',
    '  every: 7',
    '  traces: { robots: [0, 4, 9], every: 9 }',
    '',
  ].join('\n'),
);
// The same sweep in f32 (16 lanes of AVX-512 where there are, against scalar lanes).
const sweep32 = join(dir, 'drop32.yaml');
writeFileSync(sweep32, readFileSync(sweep, 'utf8').replace('robots: 10', 'robots: 10\nprecision: f32'));
// Robots started at speeds up to 10⁴ rad/s: robots 2 and 3 (3093 and 9484 rad/s) overflow, at steps 10
// and 8; the other six run to the end.
const diverging = join(dir, 'diverging.yaml');
writeFileSync(
  diverging,
  `sweep: diverging\nscene: ${join(SCENES, 'double-pendulum.arow')}\nrobots: 8\nduration: 0.1\n` +
    'randomize: { initial: { v:upper: { log_uniform: [1, 1e4] } } }\nkeep: { traces: { robots: [2, 4], every: 3 } }\n',
);
const out = (name: string) => join(dir, name);

/** Every file under `d` (relative), except the shards (compared apart) and the manifest. */
function files(d: string, under = ''): string[] {
  return readdirSync(join(d, under), { withFileTypes: true }).flatMap((e) => {
    const rel = join(under, e.name);
    if (e.isDirectory()) return rel === 'shards' ? [] : files(d, rel);
    return e.name === '.achilles-files.json' ? [] : [rel];
  });
}
const bytes = (p: string) => readFileSync(p);

let r: Seq.StepResult[];

beforeAll(async () => {
  const s = (...args: string[]): Seq.Step => ({ args: ['sweep', sweep, ...args] });
  r = await inChild<typeof Seq, 'runCliSequence'>(new URL('./helpers/work/cli-sequence.ts', import.meta.url), 'runCliSequence', [
    /* 0 */ s('--out', out('whole'), '--shards', '1'),
    // Shards with other batch sizes, lane widths and thread counts: none of it may show in the results.
    /* 1 */ s('--out', out('split'), '--shard', '0/3', '--batch', '2'),
    /* 2 */ s('--out', out('split'), '--shard', '1/3', '--lanes', '1'),
    /* 3 */ s('--out', out('split'), '--shard', '2/3', '--threads', '2', '--batch', '3'),
    /* 4 */ { args: ['sweep', 'merge', out('split')] },
    // A retry of shard 1, run differently, and a second run of it that finds it done.
    /* 5 */ s('--out', out('split'), '--shard', '1/3', '--redo', '--batch', '1'),
    /* 6 */ s('--out', out('split'), '--shard', '1/3'),
    // Schedulers: a Slurm array task and a Kubernetes completion index pick their shard.
    /* 7 */ { args: ['sweep', sweep, '--out', out('sched')], env: { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '3' } },
    /* 8 */ { args: ['sweep', sweep, '--out', out('sched'), '--shards', '3'], env: { JOB_COMPLETION_INDEX: '0' } },
    // Interrupted after shard 0 (here: only shard 0 was run), then restarted: shard 0 is skipped.
    /* 9 */ s('--out', out('restart'), '--shard', '0/3'),
    /* 10 */ s('--out', out('restart'), '--shards', '3'),
    /* 11 */ { args: ['sweep', sweep, '--emit', 'slurm', '--shards', '3', '--out', out('cluster'), '--threads', '2'] },
    /* 12 */ {
      args: ['sweep', 'drop.yaml', '--emit', 'k8s', '--shards', '3', '--out', 'results/drop', '--image', 'img:1', '--pvc', 'claim'],
      cwd: dir,
    },
    /* 13 */ { args: ['sweep', sweep, '--emit', 'k8s', '--shards', '3', '--image', 'img:1', '--pvc', 'claim'] },
    // Another split of the same sweep beside the first: merge asks which, and --shards (after merge) says it.
    /* 14 */ s('--out', out('restart'), '--shard', '0/2'),
    /* 15 */ s('--out', out('restart'), '--shard', '1/2'),
    /* 16 */ { args: ['sweep', 'merge', out('restart')] },
    /* 17 */ { args: ['sweep', 'merge', out('restart'), '--shards', '2'] },
    /* 18 */ { args: ['sweep', sweep32, '--out', out('whole32'), '--shards', '1', '--lanes', '1'] },
    /* 19 */ { args: ['sweep', sweep32, '--out', out('split32'), '--shards', '3', '--batch', '2'] },
    /* 20 */ { args: ['sweep', diverging, '--out', out('diverging')] },
    /* 21 */ { args: ['sweep', diverging, '--out', out('diverging-split'), '--shards', '3', '--batch', '1', '--lanes', '1'] },
  ]);
}, 120_000);

describe('achilles sweep: shards', () => {
  test('every command ran', () => {
    r.forEach((x, i) => expect(x.code, `command ${i}: ${x.stderr}`).toBe(i === 13 ? 2 : i === 16 ? 1 : 0));
  });

  test('3 shards merged are byte-identical to the unsharded run (results, traces, summary, charts)', () => {
    const whole = files(out('whole')).sort();
    expect(whole).toEqual(['draws.svg', 'draws.vl.json', 'metrics.svg', 'metrics.vl.json', 'results.csv', 'sweep.json', 'traces.csv']);
    expect(files(out('split')).sort()).toEqual(whole);
    for (const f of whole) expect(bytes(join(out('split'), f)).equals(bytes(join(out('whole'), f))), f).toBe(true);
    const csv = readFileSync(join(out('whole'), 'results.csv'), 'utf8');
    expect(csv).toMatch(/^# sweep: drop-test\n# sweep_file: drop\.yaml\n# sweep_sha256: [0-9a-f]{64}\n/);
    expect(csv).toMatch(/^# draws: q:torso\.z ~ uniform\(0\.3, 0\.6\); v:torso\.vy ~ normal\(0, 1\); /m);
    const rows = csv.split('\n').filter((l) => /^\d/.test(l));
    expect(rows.map((l) => Number(l.split(',')[0]))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The robots differ (their draws did), and something happened to them.
    expect(new Set(rows.map((l) => l.split(',')[1])).size).toBe(10);
    const traces = readFileSync(join(out('whole'), 'traces.csv'), 'utf8')
      .split('\n')
      .filter((l) => /^\d/.test(l));
    expect(new Set(traces.map((l) => l.split(',')[0]))).toEqual(new Set(['0', '4', '9']));
    // 0, 9, ..., 99 and the last step (100): 13 rows per traced robot.
    expect(traces.length).toBe(3 * 13);
  });

  test('the shards hold their robots, and say what ran them', () => {
    const shards = readdirSync(join(out('split'), 'shards')).filter((n) => !n.startsWith('.'));
    expect(shards.sort()).toEqual(['shard-0-of-3', 'shard-1-of-3', 'shard-2-of-3']);
    const rec = JSON.parse(readFileSync(join(out('split'), 'shards', 'shard-2-of-3', 'shard.json'), 'utf8'));
    expect(rec.robots).toEqual({ first: 6, end: 10 });
    expect(rec.ran).toMatchObject({ threads: 2, batch: 3 });
  });

  test('a retried shard reproduces its files exactly; a shard already done is skipped', () => {
    expect(r[5].stderr).toMatch(/shard-1-of-3: robots 3\.\.5/);
    const retried = join(out('split'), 'shards', 'shard-1-of-3');
    const rec = JSON.parse(readFileSync(join(retried, 'shard.json'), 'utf8'));
    expect(rec.ran.batch).toBe(1); // the retry's own files, not the first run's
    // The retry's files against the first run's, through the merged files they built (merge 4 ran before the retry).
    const merged = readFileSync(join(out('split'), 'results.csv'), 'utf8');
    const shard = readFileSync(join(retried, 'results.csv'), 'utf8');
    const body = (t: string) => t.split('\n').filter((l) => /^\d/.test(l));
    expect(body(shard)).toEqual(body(merged).slice(3, 6));
    expect(shard.slice(0, shard.indexOf('\nrobot,'))).toBe(merged.slice(0, merged.indexOf('\nrobot,')));
    expect(r[6].stderr).toMatch(/shard-1-of-3 is already done .*skipped \(--redo runs it again\)/);
  });

  test("a scheduler's index picks the shard: Slurm array task 2 of 3, Kubernetes completion index 0", () => {
    expect(r[7].stderr).toMatch(/shard 2\/3 \(from Slurm array task 2 \(of 0-2\)\)/);
    expect(r[8].stderr).toMatch(/shard 0\/3 \(from Kubernetes completion index 0\)/);
    expect(readdirSync(join(out('sched'), 'shards')).sort()).toEqual(['shard-0-of-3', 'shard-2-of-3']);
    for (const s of ['shard-0-of-3', 'shard-2-of-3'])
      for (const f of ['results.csv', 'traces.csv'])
        expect(bytes(join(out('sched'), 'shards', s, f)).equals(bytes(join(out('split'), 'shards', s, f))), `${s}/${f}`).toBe(true);
  });

  test('a restarted sweep skips the shards already done and ends with the same results', () => {
    expect(r[10].stderr).toMatch(/shard-0-of-3 is already done/);
    expect(r[10].stderr).not.toMatch(/shard-0-of-3: robots/);
    expect(r[10].stderr).toMatch(/shard-1-of-3: robots 3\.\.5/);
    expect(bytes(join(out('restart'), 'results.csv')).equals(bytes(join(out('whole'), 'results.csv')))).toBe(true);
    expect(r[10].stdout).toMatch(/sweep merged from 3 shards into .*\n {2}robots: 10\n {2}fell: \d+ of 10\n/);
  });

  test('two splits of one sweep merge to the same bytes; merge asks which split when there are two', () => {
    expect(r[16].stderr).toMatch(/holds shards of 2 splits \(into 2, 3 shards\); pass --shards N to say which to merge/);
    expect(r[17].stdout).toMatch(/sweep merged from 2 shards/);
    for (const f of ['results.csv', 'traces.csv', 'metrics.svg'])
      expect(bytes(join(out('restart'), f)).equals(bytes(join(out('whole'), f))), f).toBe(true);
  });

  test('in f32 too: scalar lanes in one batch, and 3 shards of batches of 2, give the same bytes', () => {
    for (const f of ['results.csv', 'traces.csv'])
      expect(bytes(join(out('split32'), f)).equals(bytes(join(out('whole32'), f))), f).toBe(true);
    expect(readFileSync(join(out('whole32'), 'results.csv'), 'utf8')).toMatch(/^# precision: f32$/m);
  });

  test('a robot whose state overflows gets a row with its step and joint; the others run on, as in any split', () => {
    const rows = parseResults(readFileSync(join(out('diverging'), 'results.csv'), 'utf8'));
    const at = (name: string) => rows.columns.indexOf(name);
    expect(rows.rows.map((x) => [x[at('robot')], x[at('diverged_step')], x[at('diverged_joint')]])).toEqual([
      ['0', '', ''],
      ['1', '', ''],
      ['2', '10', 'upper'],
      ['3', '8', 'upper'],
      ['4', '', ''],
      ['5', '', ''],
      ['6', '', ''],
      ['7', '', ''],
    ]);
    // a diverged robot has its draw but no metrics and no final state; the others have them all
    for (const x of rows.rows) {
      const diverged = x[at('diverged_step')] !== '';
      expect(x[at('init:v:upper')]).not.toBe('');
      for (const c of ['height', 'total', 'q:upper', 'v:lower']) expect(x[at(c)] === '', `${x[at('robot')]} ${c}`).toBe(diverged);
    }
    // robot 2's trace up to its divergence (samples 0, 3, 6, 9), robot 4's to the end
    const traces = parseResults(readFileSync(join(out('diverging'), 'traces.csv'), 'utf8'));
    const steps = (robot: string) => traces.rows.filter((x) => x[0] === robot).map((x) => Number(x[1]));
    expect(steps('2')).toEqual([0, 3, 6, 9]);
    expect(steps('4')).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 50]);
    // one batch holding both (rerun twice without them) and batches of one robot give the same bytes
    for (const f of ['results.csv', 'traces.csv'])
      expect(bytes(join(out('diverging-split'), f)).equals(bytes(join(out('diverging'), f))), f).toBe(true);
    expect(r[20].stderr).toMatch(/shard-0-of-1: 2 robots diverged \(robots 2, 3\): their rows give the step/);
    expect(r[20].stdout).toMatch(/diverged: 2 of 8 \(no metrics for them\)/);
  });

  test('merge names the shards that are missing, and writes nothing', async () => {
    const copy = out('missing');
    cpSync(out('split'), copy, { recursive: true });
    rmSync(join(copy, 'shards', 'shard-1-of-3'), { recursive: true });
    const before = statSync(join(copy, 'results.csv')).mtimeMs;
    const [m] = await inChild<typeof Seq, 'runCliSequence'>(new URL('./helpers/work/cli-sequence.ts', import.meta.url), 'runCliSequence', [
      { args: ['sweep', 'merge', copy] },
    ]);
    expect(m.code).toBe(1);
    expect(m.stderr).toMatch(
      /1 of 3 shards is missing in .*shards: shard 1 \(e\.g\. shard-1-of-3\); run it \(achilles sweep SWEEP\.yaml --shard 1\/3 --out /,
    );
    expect(statSync(join(copy, 'results.csv')).mtimeMs).toBe(before);
  });

  test('--emit slurm writes an array job of one task per shard; --emit k8s an Indexed Job', () => {
    const script = r[11].stdout;
    expect(script).toMatch(/^#!\/bin\/bash\n/);
    expect(script).toMatch(/^#SBATCH --array=0-2$/m);
    expect(script).toMatch(/^#SBATCH --cpus-per-task=2$/m);
    expect(script).toMatch(
      new RegExp(`^exec \\S+ \\S+achilles\\.js sweep ${sweep.replace(/[.]/g, '\\.')} --out ${out('cluster')} --shards 3 --threads 2$`, 'm'),
    );
  });

  test('--emit k8s: completionMode Indexed, completions = shards, the claim mounted at /sweep, paths inside it', () => {
    const job = parse(r[12].stdout);
    expect(job).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', spec: { completionMode: 'Indexed', completions: 3, parallelism: 3 } });
    const pod = job.spec.template.spec;
    expect(pod.containers[0].command).toEqual([
      'achilles',
      'sweep',
      'drop.yaml',
      '--out',
      'results/drop',
      '--shards',
      '3',
      '--threads',
      '1',
    ]);
    expect(pod.containers[0]).toMatchObject({
      image: 'img:1',
      workingDir: '/sweep',
      volumeMounts: [{ name: 'sweep', mountPath: '/sweep' }],
    });
    expect(pod.volumes[0].persistentVolumeClaim.claimName).toBe('claim');
    // An absolute sweep file is not a path inside the claim.
    expect(r[13].stderr).toMatch(/--emit k8s: the sweep file \S+ must be a path inside the claim/);
  });
});
