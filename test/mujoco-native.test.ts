// The native MuJoCo timing addon: builds (here, if needed), times both modes, counts bad steps,
// surfaces MuJoCo errors as exceptions, and steps bit-identically to the pip Python reference.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileAsync } from './helpers/spawn-async.js';
import { loadMujocoNative, mujocoAddonPath, type MujocoNative } from '../src/bench/mujoco-native.js';
import { MujocoReference } from '../src/validation/mujoco-ref.js';

const model = (name: string) => readFileSync(new URL(`../native/mujoco/models/${name}.xml`, import.meta.url), 'utf8');
const PENDULUM = model('double_pendulum');

/** n copies of the robot in one MJCF (names suffixed), the layout exportMjcf({copies}) will have. */
function replicate(xml: string, n: number): string {
  const m = /<worldbody>([\s\S]*)<\/worldbody>/.exec(xml);
  if (!m) throw new Error('no worldbody');
  const bodies = Array.from({ length: n }, (_, k) => m[1].replace(/name="([^"]+)"/g, `name="$1_${k}"`));
  return xml.replace(m[0], `<worldbody>${bodies.join('')}</worldbody>`);
}

let mj: MujocoNative;
beforeAll(async () => {
  if (!existsSync(mujocoAddonPath())) {
    // Same command as `npm run build:mujoco` (cmake-js against the pip wheel's libmujoco).
    const root = fileURLToPath(new URL('..', import.meta.url));
    // A build of minutes: awaited, so the worker's event loop keeps turning (issue 23).
    await execFileAsync(process.execPath, ['scripts/find-mujoco.mjs', '--build'], { cwd: root, stdio: 'inherit' });
  }
  mj = loadMujocoNative();
}, 300_000);

describe('native MuJoCo harness', () => {
  it('links the pip wheel libmujoco 3.14', () => {
    const info = mj.info();
    expect(info.version).toBe('3.14.0');
    expect(info.lib).toMatch(/libmujoco\.so\.3\.14/);
  });

  for (const order of ['blocked', 'interleaved'] as const) {
    it(`times per-robot mode (${order}): copies×steps finite robot-steps`, () => {
      const r = mj.timeSteps({ xml: PENDULUM, mode: 'per-robot', copies: 6, steps: 250, restartEvery: 100, qpos0: [0.3, -0.2], order });
      expect(r.seconds).toBeGreaterThan(0);
      expect(r.robotSteps).toBe(6 * 250);
      expect(r.nonFinite).toBe(0);
      expect(r.order).toBe(order);
    });
  }

  it('times merged mode: one mjData holding all copies, per-robot qpos0 tiled', () => {
    const r = mj.timeSteps({ xml: replicate(PENDULUM, 5), mode: 'merged', copies: 5, steps: 300, restartEvery: 128, qpos0: [0.3, -0.2] });
    expect(r.seconds).toBeGreaterThan(0);
    expect(r.robotSteps).toBe(5 * 300);
    expect(r.nonFinite).toBe(0);
    // two mjData of 5 robots each
    const r2 = mj.timeSteps({ xml: replicate(PENDULUM, 5), mode: 'merged', copies: 10, robotsPerModel: 5, steps: 40, restartEvery: 40 });
    expect(r2.robotSteps).toBe(400);
  });

  it('counts steps MuJoCo rejects (|qvel| > 1e10) as non-finite, not as robot-steps', () => {
    const r = mj.timeSteps({ xml: PENDULUM, mode: 'per-robot', copies: 3, steps: 20, restartEvery: 10, qvel0: [1e11, 0] });
    expect(r.nonFinite).toBe(60);
    expect(r.robotSteps).toBe(0);
  });

  it('turns compile errors and mju_error into JS exceptions and keeps working', () => {
    expect(() => mj.timeSteps({ xml: '<mujoco><bogus/></mujoco>', mode: 'per-robot', copies: 1, steps: 1, restartEvery: 1 })).toThrow(
      /compile/,
    );
    // Arena sized for Euler (compiles: the compiler test-steps with the xml's integrator) but
    // too small for RK4's extra stack: mj_step itself raises mju_error mid-step.
    const tight = model('arm7').replace('<worldbody>', '<size memory="1000"/><worldbody>');
    expect(mj.stepTrace({ xml: tight, steps: 3 }).qpos).toHaveLength(21);
    expect(() => mj.stepTrace({ xml: tight, steps: 3, integrator: 'rk4' })).toThrow(/MuJoCo error: .*stack/);
    expect(() => mj.timeSteps({ xml: PENDULUM, mode: 'merged', copies: 4, robotsPerModel: 3, steps: 1, restartEvery: 1 })).toThrow(
      /multiple/,
    );
    expect(mj.stepTrace({ xml: PENDULUM, steps: 1 }).qpos).toHaveLength(2);
  });

  it('stepTrace equals the Python reference trajectory bit for bit (euler and rk4, with tau)', async () => {
    const ref = MujocoReference.open();
    const base = { qpos: [0.4, -0.3], qvel: [0.8, 1.1], tau: [0.5, -0.2] };
    const steps = 400;
    const [eu, rk] = await ref.query(PENDULUM, [
      { kind: 'trajectory', integrator: 'euler', steps, ...base },
      { kind: 'trajectory', integrator: 'rk4', steps, ...base },
    ]);
    for (const [integrator, py] of [
      ['euler', eu],
      ['rk4', rk],
    ] as const) {
      const t = mj.stepTrace({ xml: PENDULUM, steps, qpos0: base.qpos, qvel0: base.qvel, tau: base.tau, integrator });
      expect(t.qpos).toHaveLength(steps * 2);
      let worst = 0;
      for (let k = 0; k < steps; k++)
        for (let i = 0; i < 2; i++) {
          worst = Math.max(worst, Math.abs(t.qpos[2 * k + i] - py.qpos[k][i]), Math.abs(t.qvel[2 * k + i] - py.qvel[k][i]));
        }
      expect(worst).toBe(0);
    }
  });
});
