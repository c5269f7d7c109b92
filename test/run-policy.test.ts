// `achilles run MODEL --policy FILE.onnx --task ENV`: a policy as the run's controller, scored as the
// task says. Fixtures (test/fixtures/policy/make_linear_policy.py): an LQR state feedback for
// Gymnasium's InvertedPendulum-v5, which balances it, and the same graph with zero gains, which lets
// it fall; the model is Gymnasium's own file from the installed package.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, tempDir } from './helpers/cli.js';

const FIX = join(ROOT, 'test', 'fixtures', 'policy');
const python = process.env.ACHILLES_PYTHON || 'python3';
const assets = spawnSync(
  python,
  ['-c', 'import gymnasium.envs.mujoco as m, os; print(os.path.join(os.path.dirname(m.__file__), "assets"))'],
  {
    encoding: 'utf8',
  },
).stdout.trim();
const hasOrt = (() => {
  try {
    createRequire(import.meta.url).resolve('onnxruntime-node');
    return true;
  } catch {
    return false;
  }
})();
const ready = assets !== '' && existsSync(join(assets, 'inverted_pendulum.xml')) && hasOrt;
// CI installs gymnasium and onnxruntime-node (.ci/run); elsewhere their absence skips, by name.
if (!ready && process.env.CI)
  throw new Error(`run --policy tests need gymnasium (found: ${assets !== ''}) and onnxruntime-node (found: ${hasOrt})`);
const PENDULUM = join(assets, 'inverted_pendulum.xml');

function lines(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l.startsWith('policy '));
}

describe.skipIf(!ready)('run --policy --task', () => {
  it('a balancing policy keeps every pendulum up for the whole episode; zero gains let them fall', async () => {
    const common = ['--task', 'InvertedPendulum-v5', '--copies', '4', '--robots', '0,1,2,3', '--spread', '0.05'];
    const out = join(tempDir(), 'good');
    const good = await cli('run', PENDULUM, '--policy', join(FIX, 'linear-policy.onnx'), ...common, '--out', out);
    expect(good.code, good.stderr).toBe(0);
    expect(lines(good.stdout)).toEqual(
      [0, 1, 2, 3].map((r) => `policy InvertedPendulum-v5: robot ${r} return 1000 over 1000 env steps, never terminated`),
    );
    const meta = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    const m = meta.metadata ?? meta;
    expect(JSON.stringify(m)).toContain('"policy_terminated_at":"0:never 1:never 2:never 3:never"');
    expect(good.stderr).toMatch(/controller policy .*linear-policy\.onnx \(InvertedPendulum-v5\), called every 2 steps/);

    const bad = await cli('run', PENDULUM, '--policy', join(FIX, 'zero-policy.onnx'), ...common, '--out', join(tempDir(), 'bad'));
    expect(bad.code, bad.stderr).toBe(0);
    const fell = lines(bad.stdout).map((l) => /return (\d+) over 1000 env steps, terminated at env step (\d+)/.exec(l));
    expect(fell.every((x) => x !== null && Number(x[1]) === Number(x[2]) - 1 && Number(x[2]) < 100)).toBe(true);
  });

  it('refuses what cannot run, naming why', async () => {
    const policy = join(FIX, 'linear-policy.onnx');
    const noTask = await cli('run', PENDULUM, '--policy', policy);
    expect(noTask.code).toBe(2);
    expect(noTask.stderr).toMatch(/--policy FILE and --task ENV go together/);
    const unknown = await cli('run', PENDULUM, '--policy', policy, '--task', 'Pendulum-v9');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--task Pendulum-v9: unknown task \(the tasks are .*InvertedPendulum-v5/);
    const missing = await cli('run', PENDULUM, '--policy', join(FIX, 'nope.onnx'), '--task', 'InvertedPendulum-v5');
    expect(missing.stderr).toMatch(/--policy .*nope\.onnx: no such file/);
    const lacks = await cli(
      'run',
      join(assets, 'inverted_double_pendulum.xml'),
      '--policy',
      policy,
      '--task',
      'InvertedDoublePendulum-v5',
      '--out',
      join(tempDir(), 'x'),
    );
    expect(lacks.code).not.toBe(0);
    expect(lacks.stderr).toMatch(/the task reads .*site_xpos.*which the engine does not compute yet/);
    const wrongDim = await cli(
      'run',
      join(assets, 'hopper.xml'),
      '--policy',
      policy,
      '--task',
      'Hopper-v5',
      '--duration',
      '0.1',
      '--out',
      join(tempDir(), 'y'),
    );
    expect(wrongDim.code).not.toBe(0);
    expect(wrongDim.stderr).toMatch(/the policy did not run on 1 observations of 11 \(Hopper-v5's\)/);
  });
});
