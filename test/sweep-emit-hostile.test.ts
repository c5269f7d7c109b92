// Hostile input to `achilles sweep` (issue 56): a sweep name, paths and flags written into the job
// that --emit prints must land as the values they are, never as commands or objects of their own,
// and a sweep far past the size limits is refused with its estimate unless --yes.
//
// The Slurm script is checked the way bash and sbatch read it: `bash -n`; then sourced by bash with
// `exec` replaced by a function that records its arguments (nothing runs, and a line that escaped
// its comment would run and leave a file behind); and its #SBATCH lines read by a port of sbatch's
// own directive parser. The Kubernetes manifest is parsed as YAML: one document, holding the values.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, test } from 'vitest';
import { checkClaimName, checkImage, emitJob } from '../src/sweep/emit.js';
import { checkSweepSize, estimateSweep, SWEEP_LIMITS, type SweepEstimate } from '../src/sweep/estimate.js';
import { planSweep } from '../src/sweep/plan.js';
import { readSweepFile } from '../src/sweep/sweep-file.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { sweepCommand } from '../src/cli/sweep-command.js';
import { cli, ROOT, SCENES, tempDir } from './helpers/cli.js';
import { sbatchDirectives } from './fuzz/job-checks.js';

const dir = tempDir('achilles-sweep-hostile-');
const QUADRUPED = join(SCENES, 'quadruped.arow');

/** The campaign's name: the newline ends a comment line, and bash would run the rest. */
const HOSTILE_NAME = 'x\ntouch PWNED; exit 0 #';
/** Every character bash or sbatch reads specially, and no control character: a valid file name. */
const NASTY = `a b'c"d$(touch PWNED)\`touch PWNED\`;e#f\\g*h&|>i`;

/** Every file under `d`, recursively (relative paths). */
function filesUnder(d: string): string[] {
  return readdirSync(d, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(d, f)).isFile());
}

/** Sources `script` in bash, in `cwd`, with `exec` a function that writes its arguments (NUL-separated)
 *  to a file: the command the script would run, and nothing run. (--norc: bash whose stdin is a
 *  socket, as Node's pipes are, reads ~/.bashrc as if started by sshd.) */
function sourceWithoutExec(script: string, cwd: string): { status: number | null; stderr: string; exec?: string[] } {
  const file = join(dir, `script-${Math.random().toString(36).slice(2)}.sbatch`);
  const argsFile = `${file}.args`;
  writeFileSync(file, script);
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', 'exec() { printf "%s\\0" "$@" > "$ARGS_FILE"; }; . "$1"', 'bash', file], {
    cwd,
    env: { PATH: process.env.PATH, ARGS_FILE: argsFile },
    encoding: 'utf8',
  });
  const exec = existsSync(argsFile) ? readFileSync(argsFile, 'utf8').split('\0').slice(0, -1) : undefined;
  return { status: r.status, stderr: r.stderr, ...(exec ? { exec } : {}) };
}

describe('--emit slurm: hostile names and paths stay values', () => {
  const work = join(dir, 'slurm-work');
  const cwd = join(dir, `cwd ${NASTY}`);
  mkdirSync(work, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const sweepFile = join(dir, `${NASTY}.yaml`);
  const out = join(dir, `out ${NASTY}`);
  const script = emitJob('slurm', { sweepFile, sweepName: HOSTILE_NAME, out, threads: 1, cwd }, { robots: 8, shards: 2 });

  test('bash -n reads it, and sourced it runs nothing but the one command, with every argument exact', () => {
    const syntax = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    expect(syntax.status, syntax.stderr).toBe(0);
    const r = sourceWithoutExec(script, work);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(filesUnder(work)).toEqual([]);
    expect(filesUnder(dir).filter((f) => basename(f) === 'PWNED')).toEqual([]);
    expect(r.exec).toEqual([
      process.execPath,
      join(ROOT, 'bin', 'achilles.js'),
      'sweep',
      sweepFile,
      '--out',
      out,
      '--shards',
      '2',
      '--threads',
      '1',
    ]);
  });

  test('the header is comments, the name escaped in them; the directives are what sbatch reads back', () => {
    const lines = script.split('\n');
    const body = lines.indexOf('set -euo pipefail');
    expect(body).toBe(12);
    expect(lines.slice(1, body).every((l) => l.startsWith('#'))).toBe(true);
    expect(lines[1]).toContain('The sweep x\\ntouch PWNED; exit 0 # as a Slurm array job');
    expect(sbatchDirectives(script)).toEqual([
      '--job-name=achilles-sweep-x-touch-pwned-exit-0',
      '--array=0-1',
      '--ntasks=1',
      '--cpus-per-task=1',
      `--chdir=${cwd}`,
    ]);
  });

  test('the merge command in the comments is the same words, quoted for bash', () => {
    const merge = /^# {3}then: {4}(.*)$/m.exec(script)![1];
    const r = spawnSync('bash', ['--norc', '-c', `printf '%s\\0' ${merge}`], { encoding: 'utf8' });
    expect(r.stdout.split('\0').slice(0, -1)).toEqual([process.execPath, join(ROOT, 'bin', 'achilles.js'), 'sweep', 'merge', out]);
  });

  test('what no line can carry is refused, naming the flag or the path', () => {
    const o = { sweepFile: 'a.yaml', sweepName: 'ok', out: 'out', threads: 1, cwd: work };
    expect(() => emitJob('slurm', { ...o, out: 'a\nb' }, { robots: 8, shards: 2 })).toThrow(
      /^--out "a\\nb" holds a newline \(\\n\) at character 2: --emit slurm writes it into comments and commands/,
    );
    expect(() => emitJob('slurm', { ...o, sweepFile: 'a\rb.yaml' }, { robots: 8, shards: 2 })).toThrow(
      /^--emit slurm: the sweep file's path "a\\rb\.yaml" holds a carriage return \(\\r\) at character 2: .*rename the file/,
    );
    expect(() => emitJob('slurm', { ...o, cwd: '/tmp/x\ny' }, { robots: 8, shards: 2 })).toThrow(
      /^the current directory "\/tmp\/x\\ny" holds a newline \(\\n\) at character 7: an #SBATCH line ends at the newline/,
    );
    expect(() => emitJob('slurm', { ...o, cwd: '/tmp/my-hetjob' }, { robots: 8, shards: 2 })).toThrow(
      /the current directory "\/tmp\/my-hetjob" holds "hetjob", which sbatch blanks out of #SBATCH lines/,
    );
    expect(() => emitJob('slurm', { ...o, out: 'a\u001b[2Jb' }, { robots: 8, shards: 2 })).toThrow(/holds the control character U\+001B/);
  });
});

describe('--emit k8s: the manifest is one Job holding the values given', () => {
  const name = 'x\n---\napiVersion: v1\nkind: Pod\n#';
  const sweepFile = `sub dir/it's: #a "b".yaml`;
  const out = 'results: {x}/[y] #z';
  const image = `registry.example:5000/team/achilles-sim:0.1.0@sha256:${'a'.repeat(64)}`;
  const manifest = emitJob('k8s', { sweepFile, sweepName: name, out, threads: 2 }, { robots: 8, shards: 3, image, pvc: 'sweeps.v1' });

  test('parseAllDocuments finds one document, without errors, whose fields are the values', () => {
    const docs = parseAllDocuments(manifest);
    expect(docs.length).toBe(1);
    const doc = docs[0];
    expect(doc.errors).toEqual([]);
    expect(doc.warnings).toEqual([]);
    const job = doc.toJS();
    expect(job).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', spec: { completions: 3, parallelism: 3 } });
    const pod = job.spec.template.spec;
    expect(pod.containers[0].command).toEqual(['achilles', 'sweep', sweepFile, '--out', out, '--shards', '3', '--threads', '2']);
    expect(pod.containers[0].image).toBe(image);
    expect(pod.volumes[0].persistentVolumeClaim.claimName).toBe('sweeps.v1');
    expect(job.metadata.name).toBe('achilles-sweep-x-apiversion-v1-kind-pod');
  });

  test('its header is four comment lines, the name escaped', () => {
    const head = manifest.split('\n').slice(0, manifest.split('\n').indexOf('apiVersion: batch/v1'));
    expect(head).toHaveLength(4);
    expect(head.every((l) => l.startsWith('# '))).toBe(true);
    expect(head[0]).toContain('The sweep x\\n---\\napiVersion: v1\\nkind: Pod\\n# as a Kubernetes Indexed Job');
    expect(head[2]).toContain(`achilles sweep merge 'results: {x}/[y] #z'`);
  });

  test('--image and --pvc: a control character, or a value outside the grammar, is refused naming the flag and the rule', () => {
    const k8s = (image: string, pvc: string) => () =>
      emitJob('k8s', { sweepFile: 'a.yaml', sweepName: 'n', out: 'o', threads: 1 }, { robots: 8, shards: 2, image, pvc });
    expect(k8s('img:1\nkind: Pod', 'c')).toThrow(/^--image "img:1\\nkind: Pod" holds a newline \(\\n\) at character 6/);
    expect(k8s('img:1', 'c\nkind: Pod')).toThrow(/^--pvc "c\\nkind: Pod" holds a newline/);
    for (const bad of ['Registry.example/Achilles:1', 'img:has space', 'img:', '/img', 'img@sha256:abc', 'a'.repeat(256)])
      expect(() => checkImage(bad), bad).toThrow(
        /^--image: .* is not a container image reference: \[REGISTRY\[:PORT\]\/\]NAME\[:TAG\]\[@DIGEST\]/,
      );
    for (const ok of ['img', 'img:1', 'registry.example/achilles:0.1.0', 'localhost:5000/a/b_c', `[::1]:5000/x@sha256:${'0'.repeat(64)}`])
      expect(() => checkImage(ok), ok).not.toThrow();
    for (const bad of ['Claim', '-c', 'c-', 'a_b', 'a..b', 'a'.repeat(254)])
      expect(() => checkClaimName(bad), bad).toThrow(/^--pvc: .* is not a persistent volume claim name \(a DNS-1123 subdomain/);
    for (const ok of ['c', 'sweeps', 'a.b-c', '0', 'a'.repeat(253)]) expect(() => checkClaimName(ok), ok).not.toThrow();
  });

  test('the command exits 2 on such a flag and writes no manifest', async () => {
    const r = await cli('sweep', join(SCENES, 'sweeps', 'quadruped-drop.yaml'), '--emit', 'k8s', '--image', 'Bad Image', '--pvc', 'claim');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^achilles sweep: --image: "Bad Image" is not a container image reference/);
    expect(r.stdout).toBe('');
    const o = await cli('sweep', join(SCENES, 'sweeps', 'quadruped-drop.yaml'), '--emit', 'slurm', '--out', 'a\nb');
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/^achilles sweep: --out "a\\nb" holds a newline/);
    expect(o.stdout).toBe('');
  });
});

describe('the sweep file: a name that is not one line is refused at its line and column', () => {
  const file = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  test('a newline, a carriage return, an escape or a line separator in `sweep:`', () => {
    const at = (yamlName: string): string => {
      const p = file('named.yaml', `seed: 1\nsweep: ${yamlName}\nscene: ${QUADRUPED}\nrobots: 4\n`);
      try {
        readSweepFile(p);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(at('"x\\ntouch PWNED; exit 0 #"')).toMatch(
      /named\.yaml:2:8: sweep: found a name holding a newline \(\\n\) at character 2, expected a name on one line, without control characters/,
    );
    expect(at('|\n  x\n  touch PWNED')).toMatch(/named\.yaml:2:8: sweep: found a name holding a newline/);
    expect(at('"x\\ry"')).toMatch(/named\.yaml:2:8: .*a carriage return \(\\r\) at character 2/);
    expect(at('"x\\e[2J"')).toMatch(/named\.yaml:2:8: .*the control character U\+001B at character 2/);
    expect(at('"x\\Ly"')).toMatch(/named\.yaml:2:8: .*the control character U\+2028 at character 2/);
    expect(at('"drop test #2 (it\'s fine)"')).toBe('accepted');
  });

  test('the command reports it at FILE:LINE:COL, exits 1 and emits nothing', async () => {
    const p = file('hostile.yaml', `scene: ${QUADRUPED}\nrobots: 4\nshards: 2\nsweep: "x\\ntouch PWNED; exit 0 #"\n`);
    const r = await cli('sweep', p, '--emit', 'slurm');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/hostile\.yaml:4:8: sweep: found a name holding a newline/);
    expect(r.stdout).toBe('');
  });
});

describe('size: estimated before a sweep runs or is emitted, refused past the limits without --yes', () => {
  const huge = join(dir, 'huge.yaml');
  writeFileSync(huge, `sweep: huge\nscene: ${QUADRUPED}\nrobots: 1000000000\nduration: 1\n`);
  // Short: 5 steps a robot, so one shard of it runs at once.
  const wide = join(dir, 'wide.yaml');
  writeFileSync(wide, `sweep: wide\nscene: ${QUADRUPED}\nrobots: 1000000000\nduration: 0.01\n`);

  test('robots: 1000000000 is refused with the estimate, and nothing is written', async () => {
    const out = join(dir, 'huge-out');
    const r = await cli('sweep', huge, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^achilles sweep: this sweep is larger than achilles runs without asking \(docs\/sweep-format\.md, "Size"\):$/m,
    );
    expect(r.stderr).toMatch(/^ {2}work: 1e9 robots × 500 steps = 5e11 robot-steps: past the limit of 1e10$/m);
    expect(r.stderr).toMatch(
      /^ {2}disk: about 1\.\d\d TiB \(results\.csv rows of \d+ bytes, in 976,563 shards, then merged\): past the limit of 10\.0 GiB$/m,
    );
    expect(r.stderr).toMatch(/^ {2}memory: about [\d.]+ MiB while a shard of 1,024 robots runs .*\(limit 4\.00 GiB\)$/m);
    expect(r.stderr).toMatch(/^ {2}string: the merged results\.csv would be one string of about [\d.e]+ characters, past Node's longest/m);
    expect(r.stderr).toMatch(/^Pass --yes to run it as it is, or make it smaller/m);
    expect(existsSync(out)).toBe(false);
  });

  test('--yes accepts it: the run goes on to its next check (here a --out that is a file, so nothing runs)', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory\n');
    const r = await cli('sweep', huge, '--out', file, '--yes');
    expect(r.stderr).not.toMatch(/larger than/);
    expect(r.stderr).toMatch(/a-file is a file, not a directory/);
  });

  test('--emit estimates the whole sweep; with --yes each task runs with --yes', async () => {
    const refused = await cli('sweep', huge, '--emit', 'slurm', '--shards', '1000');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/larger than achilles emits without asking/);
    expect(refused.stderr).toMatch(/memory: about 1\.\d\d GiB while a shard of 1,000,000 robots runs/);
    expect(refused.stderr).toMatch(/string: a shard's results would be one string .*more shards \(--shards N\)/);
    expect(refused.stderr).toMatch(/Pass --yes to emit it as it is \(its tasks then run with --yes too\)/);
    expect(refused.stdout).toBe('');
    const accepted = await cli('sweep', huge, '--emit', 'slurm', '--shards', '1000', '--yes');
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/^exec .* --shards 1000 --threads 1 --yes$/m);
  });

  test('one shard of it is estimated alone, and runs without --yes', async () => {
    const out = join(dir, 'wide-out');
    expect((await cli('sweep', wide, '--out', out)).stderr).toMatch(/past the limit of 10\.0 GiB/);
    const r = await cli('sweep', wide, '--out', out, '--shard', '7/1000000');
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(out, 'shards'))).toEqual(['shard-0000007-of-1000000']);
  });

  test("the estimate is the run's: within 10% of the bytes the bundled sweep writes", async () => {
    const bundled = join(SCENES, 'sweeps', 'quadruped-drop.yaml');
    const out = join(dir, 'bundled');
    expect((await cli('sweep', bundled, '--out', out)).code).toBe(0);
    const written = filesUnder(out).reduce((n, f) => n + statSync(join(out, f)).size, 0);
    const s = readSweepFile(bundled);
    const e = estimateSweep(planSweep(s, loadScene(s.scene)), { count: s.shards!, batch: s.batch });
    expect(e.robotSteps).toBe(24 * 500);
    expect(Math.abs(e.diskBytes / written - 1), `${e.diskBytes} estimated, ${written} written in ${relative(dir, out)}`).toBeLessThan(0.1);
  });

  test('the limits are the ones --yes names, and --yes lets any estimate through', () => {
    const yes = sweepCommand.options.find((o) => o.name === 'yes')!;
    expect(yes.description).toContain(
      `more than 1e10 robot-steps, ${SWEEP_LIMITS.diskBytes / 2 ** 30} GiB written, or ${SWEEP_LIMITS.memoryBytes / 2 ** 30} GiB`,
    );
    expect(SWEEP_LIMITS.robotSteps).toBe(1e10);
    const e: SweepEstimate = {
      robots: 1,
      steps: 1,
      robotSteps: 2e10,
      shards: 1,
      resultRowBytes: 1,
      diskBytes: 1,
      merged: false,
      largestShard: 1,
      batchRobots: 1,
      engineBytes: 1,
      rowTextBytes: 1,
      memoryBytes: 1,
      strings: [],
    };
    expect(() => checkSweepSize(e, { yes: false, emit: false })).toThrow(/2e10 robot-steps: past the limit of 1e10/);
    expect(() => checkSweepSize(e, { yes: true, emit: false })).not.toThrow();
    expect(() => checkSweepSize({ ...e, robotSteps: 1e10 }, { yes: false, emit: false })).not.toThrow();
  });
});
