// SWEEP.yaml: every mistake is reported at its file, line and column, a model parameter the scene
// lacks or that could draw an invalid model included.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadScene } from '../src/model-files/scene/index.js';
import { planSweep } from '../src/sweep/plan.js';
import { readSweepFile } from '../src/sweep/sweep-file.js';
import { emitJob, jobName, shellWord } from '../src/sweep/emit.js';
import { cli, ROOT, SCENES, tempDir } from './helpers/cli.js';

const dir = tempDir('achilles-sweep-file-');
const QUADRUPED = join(SCENES, 'quadruped.arow');

/** The sweep file with `body` after a valid head, its path, and its plan's error (or the plan). */
function sweepWith(body: string, name = 'sweep.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, `sweep: t\nscene: ${QUADRUPED}\nrobots: 4\n${body}`);
  return file;
}

function errorOf(body: string): string {
  const file = sweepWith(body);
  try {
    planSweep(readSweepFile(file), loadScene(QUADRUPED));
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('no error');
}

describe('sweep files', () => {
  test('a count no loop reaches, and a scene under a file, are refused at their line (fuzz findings, issue 56)', () => {
    expect(errorOf('keep:\n  traces: { robots: [0], every: 1e308 }\n')).toMatch(
      /sweep\.yaml:5:33: keep\.traces\.every: found 1e\+308, expected an integer from 1 to 2\^53 - 1/,
    );
    const plain = join(dir, 'plain.txt');
    writeFileSync(plain, 'hi');
    for (const scene of [`${plain}/x.arow`, `/${'x'.repeat(5000)}.arow`]) {
      const file = join(dir, 'under-a-file.yaml');
      writeFileSync(file, `sweep: t\nscene: ${scene}\nrobots: 4\n`);
      const err = (() => {
        try {
          readSweepFile(file);
        } catch (e) {
          return (e as Error).message;
        }
        throw new Error('no error');
      })();
      expect(err).toMatch(/under-a-file\.yaml:2:8: scene: found .*, which is not a file/);
      expect(err.length).toBeLessThan(1000);
    }
  });
  test('the bundled example reads and plans', () => {
    const s = readSweepFile(join(SCENES, 'sweeps', 'quadruped-drop.yaml'));
    const plan = planSweep(s, loadScene(s.scene));
    expect(plan.draws.map((d) => d.name)).toEqual(['q:torso.z', 'v:torso.vy', 'v:torso.wx']);
    expect(plan.steps).toBe(500);
    expect(s.shards).toBe(3);
  });

  test('a model parameter the scene lacks, or whose range could draw an invalid model, is refused at its line and column', () => {
    const at = (body: string): string => errorOf(`randomize:\n  model:\n    ${body}\n`);
    expect(at('mass:torso: { uniform: [10, 14] }')).toMatch(
      /sweep\.yaml:6:5: randomize\.model\.mass:torso: found the parameter `mass:torso`, expected mass_scale:LINK, /,
    );
    expect(at('mass_scale:tors: { uniform: [0.9, 1.1] }')).toMatch(
      /sweep\.yaml:6:5: randomize\.model\.mass_scale:tors: found no link `tors` in quadruped, expected one of torso, /,
    );
    expect(at('mass_scale:torso: { normal: [1, 0.1] }')).toMatch(
      /6:5: .*found a normal distribution, which can draw any value, expected a scale > 0 at every draw/,
    );
    expect(at('damping:front_left_shin: { uniform: [-0.1, 0.1] }')).toMatch(
      /6:5: .*found values in \[-0\.1, 0\.1\], expected a damping >= 0/,
    );
    expect(at('com_offset:torso.w: { uniform: [0, 0.1] }')).toMatch(/6:5: .*expected com_offset:NAME\.x\|y\|z/);
    expect(at('gain:front_left_hip: { uniform: [1, 2] }')).toMatch(/6:5: .*found the motor `front_left_hip`.*it has no gain of its own/);
    expect(at('ctrl_range:front_left_hip.high: { uniform: [-2, 0.5] }')).toMatch(/6:5: .*expected a high end above the low end \(-1\)/);
    expect(at('friction:front_left_thigh: { uniform: [0.5, 1] }\n    friction:front_left_thigh/capsule0: { uniform: [0.5, 1] }')).toMatch(
      /7:5: .*which changes what `friction:front_left_thigh` changes, expected each parameter once/,
    );
    // Written among the initial states, or straight under randomize: refused there, with where it goes.
    expect(errorOf('randomize:\n  initial:\n    friction:ground: { uniform: [0.5, 1] }\n')).toMatch(
      /sweep\.yaml:6:5: randomize\.initial\.friction:ground: found the model parameter .*write model parameters under randomize\.model/,
    );
    expect(errorOf('randomize:\n  gravity.z: { normal: [-9.81, 0.1] }\n')).toMatch(
      /sweep\.yaml:5:3: randomize\.gravity\.z: .*write it under randomize\.model/,
    );
    // An empty `model:` asks for nothing.
    expect(() => planSweep(readSweepFile(sweepWith('randomize:\n  model: {}\n')), loadScene(QUADRUPED))).not.toThrow();
  });

  test('a scene with a controller is refused at the scene line (sweeps do not run controllers yet)', () => {
    const file = join(dir, 'controlled.yaml');
    writeFileSync(file, `sweep: t\nscene: ${join(SCENES, 'ball-on-plate.arow')}\nrobots: 2\n`);
    const s = readSweepFile(file);
    expect(() => planSweep(s, loadScene(s.scene))).toThrow(
      /controlled\.yaml:2:8: scene: found a scene with a controller \(the module .*ball-on-plate\.ctrl\.ts\), expected a scene without a `controller:` \(sweeps do not run controllers yet/,
    );
  });

  test('coordinates are checked against the scene, at the line of their key', () => {
    expect(errorOf('randomize:\n  initial:\n    q:torso.zz: { uniform: [0, 1] }\n')).toMatch(
      /sweep\.yaml:6:5: randomize\.initial\.q:torso\.zz: found no coordinate `torso\.zz` in quadruped, expected one of q:torso\.x, .* \(did you mean `q:torso\.z`\?\)/,
    );
    expect(errorOf('randomize:\n  initial:\n    q:torso.qw: { uniform: [0, 1] }\n')).toMatch(
      /sweep\.yaml:6:5: .*orientation draws are not implemented yet/,
    );
    expect(errorOf('randomize:\n  initial:\n    torso.z: { uniform: [0, 1] }\n')).toMatch(
      /sweep\.yaml:6:5: .*expected q:COORDINATE or v:COORDINATE/,
    );
  });

  test('distributions: what each takes, said where it is wrong', () => {
    expect(errorOf('randomize:\n  initial:\n    v:torso.vx: { normal: [0, -1] }\n')).toMatch(
      /sweep\.yaml:6:31: .*found -1, expected a standard deviation > 0/,
    );
    expect(errorOf('randomize:\n  initial:\n    v:torso.vx: { log_uniform: [0, 1] }\n')).toMatch(
      /sweep\.yaml:6:33: .*expected a number > 0 \(a log-uniform range lies above 0\)/,
    );
    expect(errorOf('randomize:\n  initial:\n    v:torso.vx: { uniform: [1, 1] }\n')).toMatch(
      /sweep\.yaml:6:32: .*expected a number > low \(1\)/,
    );
    expect(errorOf('randomize:\n  initial:\n    v:torso.vx: { gauss: [0, 1] }\n')).toMatch(
      /sweep\.yaml:6:19: .*expected one of `uniform`, `normal`, `log_uniform`/,
    );
    expect(errorOf('randomize:\n  initial:\n    v:torso.vx: 0.5\n')).toMatch(
      /sweep\.yaml:6:17: .*found the number 0\.5, expected one of \{ uniform: \[low, high\] \}/,
    );
  });

  test('a name that is not one line (a newline would end the comment lines it is written into) is refused at its line', () => {
    const file = join(dir, 'name.yaml');
    writeFileSync(file, `sweep: "drop\\ntouch PWNED; exit 0 #"\nscene: ${QUADRUPED}\nrobots: 4\n`);
    expect(() => readSweepFile(file)).toThrow(
      /name\.yaml:1:8: sweep: found a name holding a newline \(\\n\) at character 5, expected a name on one line/,
    );
  });

  test('keys, metrics and traces', () => {
    expect(errorOf('robot: 3\n')).toMatch(/sweep\.yaml:4:1: sweep file: found unknown key `robot`.*did you mean `robots`\?/);
    expect(errorOf('keep: { metrics: [fell] }\n')).toMatch(/sweep\.yaml:4:18: keep\.metrics: found `fell` without `fall_height`/);
    expect(errorOf('keep: { metrics: [heigth] }\n')).toMatch(/sweep\.yaml:4:19: .*did you mean `height`\?/);
    expect(errorOf('keep: { metrics: [height], body: tors }\n')).toMatch(
      /sweep\.yaml:4:34: keep\.body: found no link `tors` in quadruped.*did you mean `torso`\?/,
    );
    expect(errorOf('keep: { metrics: [], traces: { robots: [1, 4] } }\n')).toMatch(
      /sweep\.yaml:4:40: keep\.traces\.robots: found robot 4, expected robots 0\.\.3/,
    );
  });

  test('the command reports the file, line and column, and exits 1; a bad flag says what is allowed', async () => {
    const file = sweepWith('randomize:\n  model:\n    mass:torso: { uniform: [10, 14] }\n', 'cli.yaml');
    const r = await cli('sweep', file, '--out', join(dir, 'out'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cli\.yaml:6:5: randomize\.model\.mass:torso: found the parameter `mass:torso`/);
    const bad = await cli('sweep', join(ROOT, 'scenes', 'sweeps', 'quadruped-drop.yaml'), '--emit', 'pbs');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--emit: 'pbs' is not one of slurm, k8s/);
    const shard = await cli('sweep', join(ROOT, 'scenes', 'sweeps', 'quadruped-drop.yaml'), '--shard', '3/3');
    expect(shard.code).toBe(2);
    expect(shard.stderr).toMatch(/--shard: 3\/3: the index must be 0\.\.2/);
  });

  test('--emit says what it needs: a shard count, and for Kubernetes an image, a claim and paths inside it', () => {
    const o = { sweepFile: 'a.yaml', sweepName: 'My Sweep!', out: 'out', threads: 1 };
    expect(() => emitJob('slurm', o, { robots: 8 })).toThrow(
      /--emit slurm: how many shards\? Pass --shards N or set `shards: N` in a\.yaml/,
    );
    expect(() => emitJob('slurm', o, { robots: 8, shards: 9 })).toThrow(/more shards than the sweep's 8 robots/);
    expect(emitJob('slurm', o, { robots: 8, fileShards: 4 })).toMatch(/^#SBATCH --array=0-3$/m);
    expect(() => emitJob('k8s', o, { robots: 8, shards: 2 })).toThrow(/needs --image IMAGE/);
    expect(() => emitJob('k8s', o, { robots: 8, shards: 2, image: 'i' })).toThrow(/needs --pvc CLAIM/);
    expect(() => emitJob('k8s', { ...o, out: '../out' }, { robots: 8, shards: 2, image: 'i', pvc: 'c' })).toThrow(
      /--out \.\.\/out must be a path inside the claim/,
    );
    // What no line of the job can carry, and what it can (test/sweep-emit-hostile.test.ts runs the script through bash).
    expect(() => emitJob('slurm', { ...o, out: 'out\nrm -rf ~' }, { robots: 8, shards: 2 })).toThrow(
      /^--out "out\\nrm -rf ~" holds a newline/,
    );
    expect(() => emitJob('k8s', o, { robots: 8, shards: 2, image: 'i', pvc: 'My_Claim' })).toThrow(
      /^--pvc: "My_Claim" is not a persistent volume claim name/,
    );
    expect(emitJob('slurm', { ...o, sweepName: 'a\nb' }, { robots: 8, shards: 2 })).toMatch(/^# The sweep a\\nb as a Slurm array job/m);
    // A sweep accepted past its size limits (--yes) is run by each task with --yes too.
    expect(emitJob('slurm', { ...o, yes: true }, { robots: 8, shards: 2 })).toMatch(/^exec .* --shards 2 --threads 1 --yes$/m);
    expect(emitJob('k8s', { ...o, yes: true }, { robots: 8, shards: 2, image: 'i', pvc: 'c' })).toMatch(/^\s+- --yes$/m);
    expect(jobName('My Sweep!')).toBe('achilles-sweep-my-sweep');
    expect(jobName('x hetjob -pdebug PackJob')).toBe('achilles-sweep-x-het-job-pdebug-pack-job'); // sbatch blanks hetjob/packjob
    expect(shellWord("it's here")).toBe(`'it'\\''s here'`);
    expect(shellWord('/plain/path-1.yaml')).toBe('/plain/path-1.yaml');
  });
});
