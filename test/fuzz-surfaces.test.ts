// Fuzz harness for the surfaces added since the first campaign (issue 56, "bad input"; test/fuzz.test.ts
// fuzzes scenes and the importer's fixtures): seeded hostile input per surface, each case in its own
// process, classified as test/fuzz/run-case.ts and test/fuzz/run-cli.ts say. Only a clean error or a
// clean run passes, and for the CLI a clean error is exit 1 at FILE:LINE:COL or naming the argument,
// or exit 2 (a usage error) naming the flag; nothing another file holds is printed; what a command
// writes is written whole or not at all. The surfaces:
//
//   mjcf      <include>, <frame>, <replicate> and mesh files and attributes (test/fuzz/mutate-mjcf.ts),
//             loaded and stepped by test/fuzz/child.mjs
//   sweep     sweep files, run by `achilles sweep` (test/fuzz/sweep-child.mjs; a sweep larger than a
//             case may run is emitted instead); its --out is checked whole or never
//   params    `achilles compile MODEL --parameters JSON [--out FILE]`
//   emit      `achilles sweep FILE --emit slurm|k8s` with hostile names, paths, cwd and flags; the job
//             is checked as bash, sbatch and a YAML reader read it (test/fuzz/job-checks.ts)
//
// (The Python API's fuzz is python/tests/test_fuzz_api.py, run by pytest after the package is built.)
//
//   npm test                 a seeded sample per surface (every mutation class at least once)
//   npm run fuzz             ACHILLES_FUZZ_CASES cases per surface (2,000 by default; ACHILLES_FUZZ_SEED
//                            to change the seeds); each finding is kept in reports/fuzz/ with a repro.sh
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CANARY, type Foreign } from './fuzz/mutate.js';
import { MJCF_MUTATIONS, mjcfAssets, mjcfSources, mutateMjcf } from './fuzz/mutate-mjcf.js';
import { mutateEmit, mutateParameters, mutateSweep, PARAMETER_MODELS, SWEEP_MUTATIONS, type EmitCase } from './fuzz/mutate-cli.js';
import { pool, runCase } from './fuzz/run-case.js';
import {
  AT_FILE,
  classify,
  CLI,
  debris,
  errorMessage,
  listTree,
  runCli,
  sweepOutputProblems,
  type CliRun,
  type Verdict,
} from './fuzz/run-cli.js';
import { k8sProblems, slurmProblems } from './fuzz/job-checks.js';
import { ROOT, SCENES, tempDir } from './helpers/cli.js';
// The directive must say the job's name as one word: sbatchDirectives reads it as sbatch does (it blanks
// hetjob/packjob), so a name that sbatch would split fails the comparison.
import { printable } from '../src/model-files/common/errors.js';
import { jobName } from '../src/sweep/emit.js';

/** Cases per surface in `npm test`; ACHILLES_FUZZ_CASES gives every surface that many. */
const SAMPLE = { mjcf: 20, sweep: 12, params: 16, emit: 24 };
const asked = process.env.ACHILLES_FUZZ_CASES === undefined ? undefined : Number(process.env.ACHILLES_FUZZ_CASES);
const seed0 = Number(process.env.ACHILLES_FUZZ_SEED ?? 1);
const big = asked !== undefined && asked > SAMPLE.emit;
const count = (surface: keyof typeof SAMPLE): number => asked ?? SAMPLE[surface];
const TIMEOUT = big ? 24 * 3600_000 : 120_000;
const FIXTURES = join(ROOT, 'test', 'fixtures', 'import');
const SWEEP_CHILD = join(ROOT, 'test', 'fuzz', 'sweep-child.mjs');

/**
 * Known defects in code another change owns, kept out of the `npm test` sample (they run, and are
 * reported, in `npm run fuzz`). Each is matched against a case's description.
 */
const KNOWN: { surface: string; what: RegExp; why: string }[] = [];

/** The known defect a case of `surface` described by `what` meets, in the `npm test` sample. */
function knownDefect(surface: string, seed: number, what: string, skipped: string[]): boolean {
  const known = big ? undefined : KNOWN.find((k) => k.surface === surface && k.what.test(what));
  if (known) skipped.push(`seed ${seed} (${what.slice(0, 120)}): ${known.why}`);
  return known !== undefined;
}

/** Each class in turn, by the seed itself (so a seed is one case whatever seed a run starts from). */
const byTurn = <T>(classes: readonly T[], seed: number): T => classes[(((seed - 1) % classes.length) + classes.length) % classes.length];

/** The message is placed in one of `files` (a path with a newline is printed escaped: printable()), or at
 *  FILE:LINE:COL on its first line. */
const placedIn =
  (files: string[]) =>
  (m: string): boolean =>
    AT_FILE.test(m) || files.map(printable).some((f) => m.startsWith(f) && /^:\d+:\d+: /.test(m.slice(f.length)));

/** The files no output may print, in `dir`. */
function plantForeign(dir: string): Foreign {
  const foreign: Foreign = { text: join(dir, 'secret.txt'), yaml: join(dir, 'secret.yaml'), up: `../${basename(dir)}/secret.txt` };
  writeFileSync(foreign.text, `${CANARY} this line must never appear in a message\nsecond ${CANARY}\n`);
  writeFileSync(foreign.yaml, `${CANARY}: 1\npassword: ${CANARY}\n`);
  return foreign;
}

interface Finding {
  surface: string;
  seed: number;
  kind: string;
  what: string;
  verdict: Verdict;
  /** The case's folder (copied into reports/fuzz/) and the command that reproduces it. */
  dir: string;
  repro: string;
}

const q = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The outcome counts of a surface's run; in a big run, each finding kept in reports/fuzz/SURFACE-.... */
function report(surface: string, verdicts: Verdict[], findings: Finding[], skipped: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of verdicts) counts[v.outcome] = (counts[v.outcome] ?? 0) + 1;
  if (big) {
    const keep = join(ROOT, 'reports', 'fuzz');
    for (const f of findings) {
      const to = join(keep, `${surface}-${f.verdict.outcome}-seed${f.seed}`);
      mkdirSync(to, { recursive: true });
      cpSync(f.dir, join(to, 'case'), { recursive: true });
      writeFileSync(join(to, 'repro.sh'), `#!/bin/bash\n# ${f.kind}: ${f.what}\n# ${f.verdict.outcome}: ${f.verdict.detail}\n${f.repro}\n`);
    }
    console.log(
      `fuzz ${surface}: ${verdicts.length} cases from seed ${seed0}: ${JSON.stringify(counts)}${findings.length ? `; findings kept in ${keep}` : ''}`,
    );
  }
  if (skipped.length) console.log(`fuzz ${surface}: known defects left out of the sample:\n  ${skipped.join('\n  ')}`);
  return counts;
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);
const line = (f: Finding): string =>
  `${f.verdict.outcome} (${f.kind}: ${cut(f.what, 200)}, seed ${f.seed}): ${cut(f.verdict.detail, 400)}\n    ${cut(f.repro, 400)}`;

// ---- MJCF <include>, <frame>, <replicate>, meshes --------------------------------------------------

test(`fuzz mjcf: ${count('mjcf')} hostile includes, frames, replicates and meshes (seed ${seed0})`, { timeout: TIMEOUT }, async () => {
  const dir = tempDir('achilles-fuzz-mjcf-');
  // each case in its own folder beside the planted files (so `../secret.txt` reaches one), with the
  // fixtures' assets; generated when it runs (a mesh case may be tens of MB) and removed once clean
  const foreign = { ...plantForeign(dir), up: '../secret.txt' };
  const src = mjcfSources(FIXTURES);
  const skipped: string[] = [];
  const verdicts: Verdict[] = [];
  const seeds = Array.from({ length: count('mjcf') }, (_, i) => ({ seed: seed0 + i, kind: byTurn(MJCF_MUTATIONS, seed0 + i) }));
  const ran = await pool(seeds, 2, async ({ seed, kind }): Promise<Finding | 'clean' | 'known'> => {
    const c = mutateMjcf(seed, kind, src, foreign);
    if (knownDefect('mjcf', seed, `${c.kind}: ${c.what}`, skipped)) return 'known';
    const caseDir = join(dir, `case-${seed}`);
    for (const a of mjcfAssets(FIXTURES)) cpSync(join(FIXTURES, a), join(caseDir, a), { recursive: true });
    for (const [name, bytes] of c.files) writeFileSync(join(caseDir, name), bytes);
    const r = await runCase(join(caseDir, c.model));
    // an import error is placed in the file it is about
    const message = r.detail.replace(/^\(engine\) /, '');
    const verdict: Verdict =
      r.outcome === 'clean-error' && !AT_FILE.test(message)
        ? { outcome: 'unplaced', detail: r.detail }
        : { outcome: r.outcome, detail: r.detail };
    verdicts.push(verdict);
    if (verdict.outcome === 'clean-error' || verdict.outcome === 'clean-run') {
      rmSync(caseDir, { recursive: true, force: true });
      return 'clean';
    }
    const model = join(caseDir, c.model);
    return {
      surface: 'mjcf',
      seed,
      kind: c.kind,
      what: c.what,
      verdict,
      dir: caseDir,
      repro: `node test/fuzz/child.mjs ${q(model)}   # or: node bin/achilles.js compile ${q(model)}`,
    };
  });
  const findings = ran.filter((f): f is Finding => typeof f !== 'string');
  const counts = report('mjcf', verdicts, findings, skipped);
  expect(findings.map(line)).toEqual([]);
  expect(counts['clean-error'] ?? 0).toBeGreaterThan(0);
  if (verdicts.length >= 10) expect(counts['clean-run'] ?? 0).toBeGreaterThan(0);
});

// ---- sweep files ---------------------------------------------------------------------------------------

/** The bundled sweeps, their scene written as an absolute path (the case lives elsewhere). */
const SWEEPS = ['quadruped-drop.yaml', 'quadruped-params.yaml'].map((f) => ({
  name: f,
  text: readFileSync(join(SCENES, 'sweeps', f), 'utf8').replace(/^scene: .*$/m, `scene: ${JSON.stringify(join(SCENES, 'quadruped.arow'))}`),
}));

test(`fuzz sweep: ${count('sweep')} hostile sweep files run by achilles sweep (seed ${seed0})`, { timeout: TIMEOUT }, async () => {
  const dir = tempDir('achilles-fuzz-sweep-');
  const foreign = plantForeign(dir);
  const skipped: string[] = [];
  const plan = Array.from({ length: count('sweep') }, (_, i) => {
    const seed = seed0 + i;
    const kind = byTurn(SWEEP_MUTATIONS, seed);
    const base = SWEEPS[seed % SWEEPS.length];
    const caseDir = join(dir, `case-${seed}`);
    mkdirSync(caseDir);
    const file = join(caseDir, 'sweep.yaml');
    const m = mutateSweep(seed, kind, base.text, file, foreign);
    writeFileSync(file, Buffer.from(m.text, m.latin1 ? 'latin1' : 'utf8'));
    const what = `${m.what} (of ${base.name})`;
    // a scene path is named whole by the error about it
    const pathChars = m.scene?.length ?? 0;
    return { seed, kind, what, caseDir, file, pathChars, known: knownDefect('sweep', seed, `${kind}: ${what}`, skipped) };
  }).filter((p) => !p.known);
  const verdicts = await pool(plan, 2, async (p): Promise<Verdict> => {
    const out = join(p.caseDir, 'out');
    const modeFile = join(p.caseDir, 'mode.json');
    const run = await runCli({ argv: [SWEEP_CHILD, p.file, out, modeFile], cwd: p.caseDir });
    const mode = existsSync(modeFile) ? (JSON.parse(readFileSync(modeFile, 'utf8')) as { run: boolean; robots?: number }) : { run: true };
    const v = classify(run, placedIn([p.file]), 'sweep', p.pathChars);
    if (v.outcome !== 'clean-error' && v.outcome !== 'clean-run') return v;
    const problems = mode.run
      ? sweepOutputProblems(p.caseDir, out, run.code, mode.robots)
      : listTree(out).map((f) => `emitted, yet wrote ${f}`);
    return problems.length ? { outcome: 'half-written', detail: problems.join('; ') } : v;
  });
  const findings: Finding[] = plan
    .map((p, i) => ({
      surface: 'sweep',
      seed: p.seed,
      kind: p.kind,
      what: p.what,
      verdict: verdicts[i],
      dir: p.caseDir,
      repro: `node bin/achilles.js sweep ${q(p.file)} --out ${q(join(p.caseDir, 'out'))}`,
    }))
    .filter((f) => f.verdict.outcome !== 'clean-error' && f.verdict.outcome !== 'clean-run');
  for (const p of plan) if (!findings.some((f) => f.seed === p.seed)) rmSync(p.caseDir, { recursive: true, force: true });
  const counts = report('sweep', verdicts, findings, skipped);
  expect(findings.map(line)).toEqual([]);
  expect(counts['clean-error'] ?? 0).toBeGreaterThan(0);
});

// ---- --parameters ----------------------------------------------------------------------------------------

test(`fuzz params: ${count('params')} hostile --parameters for achilles compile (seed ${seed0})`, { timeout: TIMEOUT }, async () => {
  const dir = tempDir('achilles-fuzz-params-');
  const foreign = plantForeign(dir);
  const skipped: string[] = [];
  const plan = Array.from({ length: count('params') }, (_, i) => {
    const seed = seed0 + i;
    const { model, names } = byTurn(PARAMETER_MODELS, seed);
    const m = mutateParameters(seed, names);
    const caseDir = join(dir, `case-${seed}`);
    mkdirSync(caseDir);
    writeFileSync(join(caseDir, 'parameters.json'), m.json);
    // --out: none (stdout), a new file, a file in folders not there yet, or another file (refused
    // without --force, and never printed)
    const outPick = seed % 4;
    const out =
      outPick === 0
        ? undefined
        : outPick === 1
          ? join(caseDir, 'model.json')
          : outPick === 2
            ? join(caseDir, 'a', 'b', 'model.json')
            : foreign.text;
    return { seed, model, m, caseDir, out, known: knownDefect('params', seed, m.what, skipped) };
  }).filter((p) => !p.known);
  const secret = readFileSync(foreign.text, 'utf8');
  const verdicts = await pool(plan, 2, async (p): Promise<Verdict> => {
    const args = ['compile', p.model, '--parameters', p.m.json, ...(p.out ? ['--out', p.out] : [])];
    const run = await runCli({ argv: [CLI, ...args], cwd: ROOT });
    // the argument, or the parameter it names
    const names = [...p.m.names, ...parameterNames(p.m.json)].filter((n) => n !== '');
    const placed = (msg: string): boolean =>
      msg.includes('--parameters') || names.some((n) => msg.startsWith(`achilles: ${n}`)) || AT_FILE.test(msg);
    const v = classify(run, placed, 'compile');
    if (v.outcome !== 'clean-error' && v.outcome !== 'clean-run') return v;
    return outputVerdict(v, run, p.caseDir, p.out, p.out === foreign.text ? secret : undefined);
  });
  const findings: Finding[] = plan
    .map((p, i) => ({
      surface: 'params',
      seed: p.seed,
      kind: 'parameters',
      what: `${p.model}: ${p.m.what}${p.out ? ` --out ${p.out}` : ''}`,
      verdict: verdicts[i],
      dir: p.caseDir,
      repro: `node bin/achilles.js compile ${p.model} --parameters "$(cat ${q(join(p.caseDir, 'parameters.json'))})"${p.out ? ` --out ${q(p.out)}` : ''}`,
    }))
    .filter((f) => f.verdict.outcome !== 'clean-error' && f.verdict.outcome !== 'clean-run');
  for (const p of plan) if (!findings.some((f) => f.seed === p.seed)) rmSync(p.caseDir, { recursive: true, force: true });
  const counts = report('params', verdicts, findings, skipped);
  expect(findings.map(line)).toEqual([]);
  expect(counts['clean-error'] ?? 0).toBeGreaterThan(0);
  expect(counts['clean-run'] ?? 0).toBeGreaterThan(0);
});

/** The names an --parameters argument gives (its objects' keys, or those of an array's objects). */
function parameterNames(json: string): string[] {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return [];
  }
  return (Array.isArray(v) ? v : [v]).flatMap((o) => (o !== null && typeof o === 'object' && !Array.isArray(o) ? Object.keys(o) : []));
}

/** compile's output, whole or never: after exit 0 the JSON (stdout or --out) parses, and --out holds
 *  it; after a failure --out is not there, or holds what it held (`held`); no temp file is left. */
function outputVerdict(v: Verdict, run: CliRun, caseDir: string, out: string | undefined, held: string | undefined): Verdict {
  const problems = debris(caseDir).map((f) => `left behind: ${f}`);
  // beside --out, only its own temp files (other cases write in their folders meanwhile)
  if (out !== undefined && existsSync(dirname(out)))
    problems.push(
      ...readdirSync(dirname(out))
        .filter((f) => f.startsWith(`.${basename(out)}.`) && f.endsWith('.tmp'))
        .map((f) => `left behind: ${f}`),
    );
  const json = (text: string, where: string): void => {
    try {
      JSON.parse(text);
    } catch (e) {
      problems.push(`${where} is not JSON: ${(e as Error).message}`);
    }
  };
  if (run.code === 0) {
    if (out === undefined) json(run.stdout, 'stdout');
    else if (!existsSync(out)) problems.push('exit 0 without --out');
    else json(readFileSync(out, 'utf8'), '--out');
  } else if (out !== undefined) {
    if (held !== undefined && readFileSync(out, 'utf8') !== held) problems.push(`the failed command changed ${out}`);
    if (held === undefined && existsSync(out)) problems.push(`the failed command wrote ${out}`);
  }
  return problems.length ? { outcome: run.code === 0 ? 'bad-output' : 'half-written', detail: problems.join('; ') } : v;
}

// ---- --emit slurm / k8s ---------------------------------------------------------------------------------

/** The flags and paths a usage error of --emit may name. */
const EMIT_FLAG = /--(out|image|pvc|shards|threads|emit|yes)\b|sweep file's path|current directory/;
const safeName = (name: string): string => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || 'scene';

test(
  `fuzz emit: ${count('emit')} hostile names, paths and flags for achilles sweep --emit (seed ${seed0})`,
  { timeout: TIMEOUT },
  async () => {
    const dir = tempDir('achilles-fuzz-emit-');
    const scratch = tempDir('achilles-fuzz-emit-scratch-');
    const drop = SWEEPS[0].text;
    const plan = Array.from({ length: count('emit') }, (_, i) => {
      const seed = seed0 + i;
      const c = mutateEmit(seed, byTurn(['slurm', 'k8s'] as const, seed));
      const caseDir = join(dir, `case-${seed}`);
      const cwd = join(caseDir, c.cwdDir);
      const rel = join(c.fileDir, c.fileName);
      const file = join(cwd, rel);
      mkdirSync(dirname(file), { recursive: true });
      const text = drop.replace(/^sweep: .*$/m, `sweep: ${JSON.stringify(c.name)}`).replace(/^shards: .*$/m, `shards: ${c.fileShards}`);
      writeFileSync(file, text);
      return { seed, c, caseDir, cwd, arg: c.absolute ? file : rel, file };
    });
    const verdicts = await pool(plan, 2, async (p): Promise<Verdict> => {
      const c = p.c;
      const flags = [
        ...(c.out !== undefined ? ['--out', c.out] : []),
        ...(c.shards !== undefined ? ['--shards', c.shards] : []),
        ...(c.threads !== undefined ? ['--threads', c.threads] : []),
        ...(c.image !== undefined ? ['--image', c.image] : []),
        ...(c.pvc !== undefined ? ['--pvc', c.pvc] : []),
        ...(c.yes ? ['--yes'] : []),
      ];
      const run = await runCli({ argv: [CLI, 'sweep', p.arg, '--emit', c.kind, ...flags], cwd: p.cwd });
      const v = classify(run, placedIn([p.arg, p.file]), 'sweep');
      if (v.outcome !== 'clean-error' && v.outcome !== 'clean-run') return v;
      if (run.code === 2 && !EMIT_FLAG.test(errorMessage(run.stderr)) && !/larger than achilles emits/.test(run.stderr))
        return { outcome: 'unplaced', detail: `a usage error naming no flag: ${errorMessage(run.stderr).slice(0, 300)}` };
      if (run.code !== 0)
        return run.stdout === '' ? v : { outcome: 'half-written', detail: `exit ${run.code}, yet printed ${run.stdout.slice(0, 200)}` };
      const shards = c.shards !== undefined ? Number(c.shards) : c.fileShards!;
      const threads = c.threads !== undefined ? Number(c.threads) : 1;
      const out = c.out ?? join('reports', 'sweep', safeName(c.name));
      const tail = ['--shards', String(shards), '--threads', String(threads), ...(c.yes ? ['--yes'] : [])];
      const problems =
        c.kind === 'slurm'
          ? slurmProblems(
              run.stdout,
              {
                exec: [process.execPath, resolve(CLI), 'sweep', resolve(p.cwd, p.arg), '--out', resolve(p.cwd, out), ...tail],
                directives: [
                  `--job-name=${jobName(c.name)}`,
                  `--array=0-${shards - 1}`,
                  '--ntasks=1',
                  `--cpus-per-task=${threads}`,
                  `--chdir=${p.cwd}`,
                ],
              },
              join(scratch, `case-${p.seed}`),
              p.caseDir,
            )
          : k8sProblems(run.stdout, {
              command: ['achilles', 'sweep', p.arg, '--out', out, ...tail],
              image: c.image!,
              claim: c.pvc!,
              shards,
            });
      return problems.length ? { outcome: 'bad-output', detail: problems.join('; ') } : v;
    });
    const findings: Finding[] = plan
      .map((p, i) => ({
        surface: 'emit',
        seed: p.seed,
        kind: `emit-${p.c.kind}`,
        what: p.c.what,
        verdict: verdicts[i],
        dir: p.caseDir,
        repro: `(cd ${q(p.cwd)} && node ${q(CLI)} sweep ${q(p.arg)} --emit ${p.c.kind}${[
          ['--out', p.c.out],
          ['--shards', p.c.shards],
          ['--threads', p.c.threads],
          ['--image', p.c.image],
          ['--pvc', p.c.pvc],
        ]
          .filter(([, x]) => x !== undefined)
          .map(([f, x]) => ` ${f} ${q(x!)}`)
          .join('')}${p.c.yes ? ' --yes' : ''})`,
      }))
      .filter((f) => f.verdict.outcome !== 'clean-error' && f.verdict.outcome !== 'clean-run');
    for (const p of plan) if (!findings.some((f) => f.seed === p.seed)) rmSync(p.caseDir, { recursive: true, force: true });
    const counts = report('emit', verdicts, findings, []);
    expect(findings.map(line)).toEqual([]);
    expect(counts['clean-error'] ?? 0).toBeGreaterThan(0);
    expect(counts['clean-run'] ?? 0).toBeGreaterThan(0);
  },
);

// ---- the checks themselves can fail ---------------------------------------------------------------------

describe('every check of the harness sees what it is there to see', () => {
  const run = (o: Partial<CliRun>): CliRun => ({
    code: 1,
    signal: null,
    stdout: '',
    stderr: '',
    ms: 10,
    timedOut: false,
    peakRssMB: 50,
    ...o,
  });
  const atFile = (m: string): boolean => AT_FILE.test(m);

  test.each<[string, Partial<CliRun>]>([
    ['crash', { code: 134, stderr: 'Aborted (core dumped)\n' }],
    ['crash', { code: null, signal: 'SIGSEGV' }],
    [
      'crash',
      {
        code: 1,
        stderr:
          "achilles: Cannot read properties of undefined (reading 'x')\nTypeError: Cannot read properties of undefined (reading 'x')\n    at f (x.js:1:1)\n",
      },
    ],
    ['crash', { code: 1, stderr: 'achilles: f.yaml:1:1: x\nRangeError: Maximum call stack size exceeded\n    at f (x.js:1:1)\n' }],
    ['hang', { code: null, signal: 'SIGKILL', timedOut: true }],
    ['memory', { code: 134, stderr: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n' }],
    ['memory', { code: 0, peakRssMB: 4096 }],
    ['leak', { code: 1, stderr: `f.yaml:1:1: found ${CANARY}\n` }],
    ['leak', { code: 0, stdout: '#!/bin/bash\nroot:x:0:0:root:/root:/bin/bash\n' }],
    ['long-message', { code: 1, stderr: `f.yaml:1:1: ${'v'.repeat(6000)}\n` }],
    ['unplaced', { code: 1, stderr: 'achilles: something went wrong\nError: something went wrong\n    at f (x.js:1:1)\n' }],
    ['unplaced', { code: 1, stderr: '' }],
    ['wrong-exit', { code: 2, stderr: 'f.yaml:1:1: this is no usage error\n' }],
    ['clean-error', { code: 1, stderr: 'f.yaml:3:7: robots: found -1, expected a whole number from 1\n' }],
    ['clean-error', { code: 2, stderr: 'achilles sweep: --out "a\\nb" holds a newline\nRun \'achilles sweep --help\' for usage.\n' }],
    ['clean-run', { code: 0, stdout: 'ok\n' }],
  ])('classify calls it %s: %j', (outcome, r) => {
    expect(classify(run(r), atFile, 'sweep').outcome).toBe(outcome);
  });

  test('an error is placed at FILE:LINE:COL, the file matched whole (escaped) when its path holds a newline', () => {
    const file = '/tmp/d&\n%YAML/s.yaml';
    expect(placedIn([file])('/tmp/d&\\n%YAML/s.yaml:2:8: sweep: found a name holding U+0085')).toBe(true);
    expect(placedIn([file])(`${file}:2:8: sweep: found a name holding U+0085`)).toBe(false);
    expect(placedIn([file])('achilles: /tmp/d&\n%YAML/s.yaml: no such file')).toBe(false);
    expect(placedIn([])('f.yaml:3:7: robots: found -1')).toBe(true);
    expect(placedIn([])('achilles: f.yaml: cannot read')).toBe(false);
  });

  test('a sweep output directory half-written, or left with staging debris, is seen', () => {
    const d = tempDir('achilles-fuzz-check-');
    const out = join(d, 'out');
    const shard = (n: string, files: Record<string, string>): void => {
      mkdirSync(join(out, 'shards', n), { recursive: true });
      for (const [f, t] of Object.entries(files)) writeFileSync(join(out, 'shards', n, f), t);
    };
    const rows = (n: number): string => `# sweep: x\nrobot,q\n${Array.from({ length: n }, (_, i) => `${i},0`).join('\n')}\n`;
    shard('shard-0-of-2', { 'results.csv': rows(2), 'shard.json': '{}' });
    expect(sweepOutputProblems(d, out, 1, 4)).toEqual([]);
    shard('shard-1-of-2', { 'results.csv': rows(2) }); // no shard.json
    expect(sweepOutputProblems(d, out, 1, 4)).toEqual(['out: shard-1-of-2 holds results.csv, not results.csv and shard.json together']);
    shard('shard-1-of-2', { 'results.csv': rows(1), 'shard.json': '{}' }); // a row short
    expect(sweepOutputProblems(d, out, 1, 4)).toEqual(['out: shard-1-of-2/results.csv has 1 rows, expected 2']);
    shard('shard-1-of-2', { 'results.csv': rows(2) });
    expect(sweepOutputProblems(d, out, 0, 4)).toEqual(['out: exit 0 without results.csv']);
    writeFileSync(join(out, 'results.csv'), rows(3));
    expect(sweepOutputProblems(d, out, 0, 4)).toEqual(['out: results.csv has 3 rows for 4 robots']);
    writeFileSync(join(out, 'results.csv'), rows(4));
    writeFileSync(join(d, '.out.123.abcdef.tmp'), 'half');
    mkdirSync(join(d, '.out.staging-123-x'));
    expect(sweepOutputProblems(d, out, 0, 4)).toEqual([
      'out: staging left behind: .out.123.abcdef.tmp',
      'out: staging left behind: .out.staging-123-x/',
    ]);
    const failed = join(tempDir('achilles-fuzz-check-'), 'out');
    mkdirSync(failed);
    writeFileSync(join(failed, 'x'), '');
    expect(sweepOutputProblems(dirname(failed), failed, 1, undefined)).toEqual([
      expect.stringMatching(/1 files written by a failed sweep/),
    ]);
  });

  test('compile output: a failed command that wrote or changed --out, or a stdout that is not JSON, is seen', () => {
    const d = tempDir('achilles-fuzz-check-');
    const ok: Verdict = { outcome: 'clean-run', detail: '' };
    expect(outputVerdict(ok, run({ code: 0, stdout: '{"a":1}' }), d, undefined, undefined)).toEqual(ok);
    expect(outputVerdict(ok, run({ code: 0, stdout: '{"a":' }), d, undefined, undefined).outcome).toBe('bad-output');
    const out = join(d, 'm.json');
    writeFileSync(out, '{"a"');
    expect(outputVerdict(ok, run({ code: 1 }), d, out, undefined).outcome).toBe('half-written');
    expect(outputVerdict(ok, run({ code: 1 }), d, out, 'secret').outcome).toBe('half-written');
    expect(outputVerdict(ok, run({ code: 0 }), d, out, undefined).outcome).toBe('bad-output');
  });

  test('a Slurm script that runs something, runs another command, fails bash -n or says other directives is seen', () => {
    const d = tempDir('achilles-fuzz-check-');
    const want = { exec: ['node', 'achilles', 'sweep', 'a.yaml'], directives: ['--job-name=x', '--chdir=/tmp'] };
    const head = '#!/bin/bash\n#SBATCH --job-name=x\n#SBATCH --chdir=/tmp\nset -euo pipefail\n';
    expect(slurmProblems(`${head}exec node achilles sweep a.yaml\n`, want, join(d, 's'), d)).toEqual([]);
    // a name whose newline ended its comment line: the rest runs
    expect(
      slurmProblems(
        `#!/bin/bash\n# The sweep x\ntouch PWNED; #\n${head.slice(12)}exec node achilles sweep a.yaml\n`,
        want,
        join(d, 's'),
        d,
      ),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/creates PWNED/)]));
    expect(slurmProblems(`${head}exec node achilles sweep $(echo a.yaml b)\n`, want, join(d, 's'), d)).toEqual([
      expect.stringMatching(/would run \["node","achilles","sweep","a.yaml","b"\]/),
    ]);
    expect(slurmProblems(`${head}exec node achilles sweep 'a.yaml\n`, want, join(d, 's'), d)[0]).toMatch(/^bash -n: /);
    expect(
      slurmProblems(`${head.replace('--chdir=/tmp', '--chdir=/tmp/a b')}exec node achilles sweep a.yaml\n`, want, join(d, 's'), d),
    ).toEqual([expect.stringMatching(/sbatch reads the directives \["--job-name=x","--chdir=\/tmp\/a","b"\]/)]);
    expect(slurmProblems(`${head}echo hi\nexec node achilles sweep a.yaml\n`, want, join(d, 's'), d)).toEqual(['sourced, it prints: hi']);
  });

  test('a manifest of two documents, another command, a bad name or a header that is not comments is seen', () => {
    const want = { command: ['achilles', 'sweep', 'a.yaml'], image: 'img', claim: 'c', shards: 2 };
    const job = (name: string, command: string): string =>
      `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: ${name}\nspec:\n  completions: 2\n  parallelism: 2\n  template:\n    spec:\n      containers:\n        - image: img\n          command: ${command}\n      volumes:\n        - persistentVolumeClaim:\n            claimName: c\n`;
    const good = job('achilles-sweep-x', '[achilles, sweep, a.yaml]');
    expect(k8sProblems(`# head\n${good}`, want)).toEqual([]);
    expect(k8sProblems(`# head\n${good}---\napiVersion: v1\nkind: Pod\n`, want)).toEqual(['parseAllDocuments finds 2 documents']);
    expect(k8sProblems(`# head\n${job('achilles-sweep-x', '[achilles, sweep, a.yaml, --yes]')}`, want)[0]).toMatch(/the pod runs/);
    expect(k8sProblems(`# head\n${job('Achilles_X', '[achilles, sweep, a.yaml]')}`, want)[0]).toMatch(/is no DNS-1123 label/);
    expect(k8sProblems(`head: 1\n${good}`, want)).toEqual(['the header is not comment lines only']);
    expect(k8sProblems(`# head\n${good.replace('claimName: c', 'claimName: [c')}`, want)[0]).toMatch(/^YAML errors/);
  });
});
