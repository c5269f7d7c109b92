// `achilles run MODEL --policy FILE.onnx --task ENV`: a policy as the run's controller, scored as the
// task says. Fixtures (test/fixtures/policy/make_linear_policy.py): an LQR state feedback for
// Gymnasium's InvertedPendulum-v5, which balances it, and the same graph with zero gains, which lets
// it fall; the model is Gymnasium's own file from the installed package.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONNXRUNTIME_NODE_VERSION } from '../src/gym/policy.js';
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
    // Humanoid-v5's observation (cinert, cvel, qfrc_actuator, xipos, ...) is computed: the policy meets its 348 numbers
    const humanoid = await cli(
      'run',
      join(assets, 'humanoid.xml'),
      '--policy',
      policy,
      '--task',
      'Humanoid-v5',
      '--duration',
      '0.1',
      '--out',
      join(tempDir(), 'x'),
    );
    expect(humanoid.code).not.toBe(0);
    expect(humanoid.stderr).toMatch(/the policy did not run on 1 observations of 348 \(Humanoid-v5's\)/);
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

  // Tasks that read mjData's post-step fields (site_xpos, xpos, cfrc_ext, qfrc_constraint: those of the
  // step's last evaluation, kept by a record: true batch). A constant policy (ONNX, written here) and
  // Gymnasium's own env from the same start with the same actions: the returns agree.
  it.each([
    ['InvertedDoublePendulum-v5', 'inverted_double_pendulum.xml', 9, 1, 0.3, 1.0],
    ['Ant-v5', 'ant.xml', 105, 8, 0.2, 2.0],
    // body('fingertip') and body('target'): the model's body names reach the policy's task
    ['Reacher-v5', 'reacher.xml', 10, 2, 0.3, 1.0],
    ['HumanoidStandup-v5', 'humanoidstandup.xml', 348, 17, 0.2, 0.3],
    // RK4 with fluid forces (option density, viscosity): 100 env steps of a curling, drifting swimmer
    ['Swimmer-v5', 'swimmer.xml', 8, 2, 0.5, 4.0],
  ])("%s: the return equals Gymnasium's under the same constant actions", async (task, xml, obsDim, nu, action, duration) => {
    const dir = tempDir();
    const policy = join(dir, 'constant.onnx');
    const make = spawnSync(python, ['-c', CONSTANT_POLICY, policy, String(obsDim), String(nu), String(action)], { encoding: 'utf8' });
    expect(make.status, make.stderr).toBe(0);
    const out = join(dir, 'run');
    const args = ['--task', task, '--precision', 'f64', '--duration', String(duration), '--out', out];
    const run = await cli('run', join(assets, xml), '--policy', policy, ...args);
    expect(run.code, run.stderr).toBe(0);
    const meta = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    const m = meta.metadata ?? meta;
    const ours = Number(/^0:(\S+)$/.exec(m.policy_returns)![1]);
    const envSteps = Number(m.policy_env_steps);
    const ref = spawnSync(python, ['-c', GYMNASIUM_RETURN, task, String(action), String(envSteps)], { encoding: 'utf8' });
    expect(ref.status, ref.stderr).toBe(0);
    const [theirs, contact] = ref.stdout.trim().split(' ').map(Number);
    expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(theirs)));
    if (task === 'Ant-v5') expect(contact).toBeGreaterThan(1); // the contact cost took part
  });
});

describe('run --policy: what is wrong with the file, or with the runtime', () => {
  const policyRun = (policy: string) =>
    cli('run', join(ROOT, 'scenes', 'quadruped.arow'), '--policy', policy, '--task', 'InvertedPendulum-v5', '--out', join(tempDir(), 'o'));

  it('a directory or a FIFO named .onnx is said to be one, not "no such file"', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'folder.onnx'));
    const folder = await policyRun(join(dir, 'folder.onnx'));
    expect(folder.code).not.toBe(0);
    expect(folder.stderr).toMatch(/--policy .*folder\.onnx: is a directory, expected an ONNX model file/);
    if (process.platform !== 'win32') {
      expect(spawnSync('mkfifo', [join(dir, 'pipe.onnx')]).status).toBe(0);
      const fifo = await policyRun(join(dir, 'pipe.onnx'));
      expect(fifo.stderr).toMatch(/--policy .*pipe\.onnx: is a FIFO \(named pipe\), not a regular file, expected an ONNX model file/);
    }
    expect((await policyRun(join(dir, 'absent.onnx'))).stderr).toMatch(/absent\.onnx: no such file/);
  });

  it.skipIf(assets === '')('without onnxruntime-node: the command that installs it, the one CI runs', () => {
    const ci = /onnxruntime-node@(\S+)/.exec(readFileSync(join(ROOT, '.ci', 'run'), 'utf8'));
    expect(ci?.[1]).toBe(ONNXRUNTIME_NODE_VERSION);
    const entry = `import(${JSON.stringify(join(ROOT, 'src/cli/main.ts'))}).then((m) => m.main(['node', 'achilles', ...process.argv.slice(1)])).then((c) => { process.exitCode = c; })`;
    const args = ['run', PENDULUM, '--policy', join(FIX, 'linear-policy.onnx'), '--task', 'InvertedPendulum-v5', '--duration', '0.01'];
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', './test/helpers/hide-package.mjs', '-e', entry, '--', ...args, '--out', join(tempDir(), 'o')],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ACHILLES_HIDE_PACKAGE: 'onnxruntime-node' } },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('onnxruntime-node, which is not installed here');
    expect(run.stderr).toContain(
      `install it where achilles finds it with: ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix ${ROOT} --no-save --ignore-scripts onnxruntime-node@${ONNXRUNTIME_NODE_VERSION}`,
    );
  });
});

/** Writes a Gemm policy with zero gains and a constant bias: action = bias for every observation. */
const CONSTANT_POLICY = `
import sys, numpy as np, onnx
from onnx import TensorProto, helper, numpy_helper
path, n, nu, a = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
g = helper.make_graph([helper.make_node("Gemm", ["obs", "K", "b"], ["action"], transB=1)], "constant",
    [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", n])],
    [helper.make_tensor_value_info("action", TensorProto.FLOAT, ["batch", nu])],
    [numpy_helper.from_array(np.zeros((nu, n), np.float32), "K"), numpy_helper.from_array(np.full(nu, a, np.float32), "b")])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8), path)
`;

/** Gymnasium's return over N env steps of a constant action from the model's initial state (as
 *  achilles run starts it: no reset noise), and the largest |cfrc_ext| seen. */
const GYMNASIUM_RETURN = `
import sys, numpy as np, gymnasium
task, a, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
env = gymnasium.make(task).unwrapped
env.reset(seed=0)
env.set_state(env.init_qpos, env.init_qvel)
env.data.cfrc_ext[:] = 0
total, contact, done = 0.0, 0.0, False
for _ in range(n):
    _, r, term, _, _ = env.step(np.full(env.action_space.shape, a, dtype=np.float32))
    contact = max(contact, float(np.abs(env.data.cfrc_ext).max()))
    if not done:
        total += r
    done = done or term
print(repr(float(total)), contact)
`;
