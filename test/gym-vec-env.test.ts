// The TypeScript vector env (src/gym/vec-env.ts) against Gymnasium's own env, step for step, from the
// same states (f64): before each step env 0 is put in Gymnasium's state (setState, MuJoCo's qpos/qvel
// order) and both take the same float32 action; observation, reward and termination must agree
// within 1e-6 (issue 28's bar, as python/tests/test_gym_vs_gymnasium.py holds the Python env to).
// Also: next-step autoresets, info as Gymnasium's vector envs merge it, refusals by name, and seeded
// runs bit-identical across lane widths and threads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import { supportedLanes } from '../src/engine/lanes.js';
import { makeVec } from '../src/gym/vec-env.js';
import { spawnAsync } from './helpers/spawn-async.js';
import { GYM_TASKS } from './helpers/gym-tasks.js';

const SUPPORTED = GYM_TASKS;
const BAR = 1e-6;
const STEPS = 300;
const python = process.env.ACHILLES_PYTHON || 'python3';

type GymStep = {
  qpos: number[];
  qvel: number[];
  qacc_warmstart: number[];
  action: number[];
  obs: number[];
  reward: number;
  terminated: boolean;
  info: Record<string, number>;
};

// Every keyword argument of every task away from its default (test/gym-task.test.ts and the Python tests read it too)
const OTHER_KWARGS: Record<string, Record<string, unknown>> = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'gym', 'other-kwargs.json'), 'utf8'),
).kwargs;
const OTHER_STEPS = 100;

async function gymnasiumRuns(
  kwargs: Record<string, Record<string, unknown>> = {},
  steps = STEPS,
): Promise<Record<string, GymStep[]> | string> {
  const r = await spawnAsync(python, [join(import.meta.dirname, 'helpers', 'gymnasium_steps.py')], {
    input: JSON.stringify({ tasks: SUPPORTED, steps, seed: 5, kwargs }),
    timeout: 300_000,
  });
  if (r.status !== 0) return r.stderr || `exit ${r.status}`;
  return JSON.parse(r.stdout).runs;
}

const runs = await gymnasiumRuns();
const otherRuns = await gymnasiumRuns(OTHER_KWARGS, OTHER_STEPS);
const missing = typeof runs === 'string' ? runs.split('\n').filter(Boolean).slice(-1)[0] : null;
// CI installs gymnasium (.ci/run); elsewhere a machine without it skips these, saying why.
if (missing && process.env.CI) throw new Error(`gymnasium reference failed: ${missing}`);

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(1, Math.abs(b));

describe.skipIf(missing !== null)(`makeVec against Gymnasium ${missing ?? ''}`, () => {
  // makeVec(id) with keyword arguments `kwargs`, put in each of Gymnasium's states in turn, against its steps
  const stepForStep = (id: string, steps: GymStep[], kwargs: Record<string, unknown> = {}): void => {
    const env = makeVec(id, 3, { precision: 'f64', kwargs });
    env.reset({ seed: 5 });
    let worstObs = 0;
    let worstReward = 0;
    let worstInfo = 0;
    let terminations = 0;
    const actions = new Float32Array(3 * env.nu);
    steps.forEach((g, s) => {
      env.setState(0, g.qpos, g.qvel);
      // MuJoCo's warm start too (mjSTATE_WARMSTART): Gymnasium's reset zeroes it where our env 0 goes on,
      // and PGS (Humanoid) stops short of the optimum, so its answer depends on where it starts
      g.qacc_warmstart.forEach((x, k) => (env.batch.qaccWarm[k * env.batch.stride] = x));
      actions.set(g.action, 0);
      for (let k = env.nu; k < actions.length; k++) actions[k] = Math.sin(s + k); // the other envs do their own thing
      const out = env.step(actions);
      expect(out.obs.length).toBe(3 * g.obs.length);
      g.obs.forEach((x, k) => (worstObs = Math.max(worstObs, rel(out.obs[k], x))));
      worstReward = Math.max(worstReward, rel(out.reward[0], g.reward));
      expect(out.terminated[0] === 1, `step ${s}: terminated`).toBe(g.terminated);
      // every info entry the task gives, each Gymnasium's too (not given: Humanoid's tendon arrays, docs/python.md)
      for (const k of env.task.info) {
        expect(out.info[`_${k}`][0], `step ${s}: info ${k} for env 0`).toBe(1);
        worstInfo = Math.max(worstInfo, rel(out.info[k][0], g.info[k]));
      }
      if (g.terminated) terminations++;
    });
    console.log(
      `${id} f64${Object.keys(kwargs).length ? ', other keyword arguments' : ''}: worst relative obs ${worstObs.toExponential(2)}, reward ${worstReward.toExponential(2)}, info ${worstInfo.toExponential(2)}, ${terminations} terminations`,
    );
    expect(worstObs).toBeLessThanOrEqual(BAR);
    expect(worstReward).toBeLessThanOrEqual(BAR);
    expect(worstInfo).toBeLessThanOrEqual(BAR);
  };
  for (const id of SUPPORTED) {
    it(`${id}: observation, reward and termination as Gymnasium's, step for step (f64)`, () => {
      stepForStep(id, (runs as Record<string, GymStep[]>)[id]);
    });
    it(`${id}: the same with every keyword argument away from its default (frame skip, observation switches, ...)`, () => {
      expect(typeof otherRuns === 'string' ? otherRuns : '').toBe('');
      stepForStep(id, (otherRuns as Record<string, GymStep[]>)[id], OTHER_KWARGS[id]);
    });
  }

  it("reset observations are Gymnasium's at the reset states (f64)", async () => {
    const envs = Object.fromEntries(SUPPORTED.map((id) => [id, makeVec(id, 3, { precision: 'f64' })]));
    const ours: Record<string, Float64Array> = {};
    const states: Record<string, [number[], number[]][]> = {};
    for (const [id, env] of Object.entries(envs)) {
      ours[id] = env.reset({ seed: 7 }).obs;
      const b = env.batch;
      const column = (x: ArrayLike<number>, n: number, e: number): number[] => Array.from({ length: n }, (_, k) => x[k * b.stride + e]);
      states[id] = [0, 1, 2].map((e) => [column(b.q, b.nq, e), column(b.v, b.nv, e)]);
    }
    const r = await spawnAsync(python, [join(import.meta.dirname, 'helpers', 'gymnasium_steps.py')], {
      input: JSON.stringify({ reset_states: states }),
      timeout: 300_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const ref: Record<string, number[][]> = JSON.parse(r.stdout).obs;
    for (const id of SUPPORTED) {
      const dim = envs[id].obsDim;
      ref[id].forEach((o, e) =>
        o.forEach((x, k) => expect(rel(ours[id][e * dim + k], x), `${id} env ${e} obs[${k}]`).toBeLessThanOrEqual(BAR)),
      );
    }
  });

  it("Reacher's goal and Pusher's cylinder are rejection-sampled per env, as Gymnasium's reset_model draws them", () => {
    // 64 envs: were a rejected candidate kept, some goal would lie outside the disc (each does with
    // probability 21%, so all 64 inside by chance: 3e-7)
    const n = 64;
    const state = (env: ReturnType<typeof makeVec>, e: number) => {
      const b = env.batch;
      const col = (x: ArrayLike<number>, m: number) => Array.from({ length: m }, (_, k) => x[k * b.stride + e]);
      return { qpos: col(b.q, b.nq), qvel: col(b.v, b.nv) };
    };
    const reacher = makeVec('Reacher-v5', n, { precision: 'f64' });
    reacher.reset({ seed: 3 });
    for (let e = 0; e < n; e++) {
      const { qpos, qvel } = state(reacher, e);
      expect(Math.hypot(qpos[2], qpos[3]), `env ${e} goal`).toBeLessThan(0.2);
      for (const k of [0, 1]) expect(Math.abs(qpos[k])).toBeLessThanOrEqual(0.1);
      expect(qvel.slice(2)).toEqual([0, 0]);
      for (const k of [0, 1]) expect(Math.abs(qvel[k])).toBeLessThanOrEqual(0.005);
    }
    const pusher = makeVec('Pusher-v5', n, { precision: 'f64' });
    pusher.reset({ seed: 3 });
    const init = pusher.batch.nq;
    for (let e = 0; e < n; e++) {
      const { qpos, qvel } = state(pusher, e);
      const [x, y] = qpos.slice(init - 4, init - 2);
      expect(Math.hypot(x, y), `env ${e} cylinder`).toBeGreaterThan(0.17);
      expect(x).toBeGreaterThanOrEqual(-0.3);
      expect(x).toBeLessThanOrEqual(0);
      expect(Math.abs(y)).toBeLessThanOrEqual(0.2);
      expect(qpos.slice(0, init - 4)).toEqual(Array(init - 4).fill(0)); // the arm at init_qpos
      expect(qpos.slice(init - 2)).toEqual([0, 0]); // the goal
      expect(qvel.slice(-4)).toEqual([0, 0, 0, 0]);
    }
  });

  it('next-step autoreset: a terminated env returns its last observation, then restarts with reward 0', () => {
    const env = makeVec('InvertedPendulum-v5', 4, { precision: 'f64' });
    env.reset({ seed: 0 });
    const push = new Float32Array(4).fill(1);
    let ended: number[] = [];
    for (let s = 0; s < 200 && ended.length === 0; s++) {
      const out = env.step(push);
      ended = [0, 1, 2, 3].filter((e) => out.terminated[e]);
      if (ended.length) for (const e of ended) expect(Math.abs(out.obs[e * env.obsDim + 1])).toBeGreaterThan(0.2); // fallen
    }
    expect(ended.length).toBeGreaterThan(0);
    const next = env.step(new Float32Array(4));
    for (const e of ended) {
      expect(next.reward[e]).toBe(0);
      expect(next.terminated[e] + next.truncated[e]).toBe(0);
      for (let k = 0; k < env.obsDim; k++) expect(Math.abs(next.obs[e * env.obsDim + k])).toBeLessThanOrEqual(0.011); // within the reset noise
    }
  });

  it("info holds the stepped envs' terms and the reset envs' reset info side by side, each with its mask", () => {
    const env = makeVec('Hopper-v5', 3, { precision: 'f64' });
    env.reset({ seed: 1 });
    const fall = new Float32Array([1, -1, -1, 0, 0, 0, 0, 0, 0]); // env 0 falls early, the others stand longer
    let due: number[] = [];
    for (let s = 0; s < 300 && due.length === 0; s++) {
      const out = env.step(fall);
      due = [0, 1, 2].filter((e) => out.terminated[e] || out.truncated[e]);
    }
    expect(due.length).toBeGreaterThan(0);
    expect(due.length).toBeLessThan(3);
    const out = env.step(fall);
    for (let e = 0; e < 3; e++) {
      expect(out.info._x_position[e]).toBe(1); // both a step term and a reset-info entry
      expect(out.info._x_velocity[e]).toBe(due.includes(e) ? 0 : 1); // a step term only
      expect(out.info.x_position[e]).toBe(env.batch.q[e]); // qpos[0] of env e now
    }
  });

  it('refuses by name what it cannot run as Gymnasium does', () => {
    expect(() => makeVec('Hopper-v5', 2, { kwargs: { healthy_rewrd: 1 } })).toThrow(/unexpected keyword argument 'healthy_rewrd'/);
    expect(() => makeVec('Hopper-v4', 2)).toThrow(/unknown task 'Hopper-v4'/);
    const env = makeVec('Hopper-v5', 2);
    expect(() => env.step(new Float32Array(5))).toThrow(/numEnvs × nu = 2 × 3 = 6/);
    expect(() => env.setState(2, [], [])).toThrow(/out of range 0..1/);
  });

  it("keyword arguments change the task as Gymnasium's do", () => {
    const plain = makeVec('Hopper-v5', 1, { precision: 'f64' });
    const costly = makeVec('Hopper-v5', 1, { precision: 'f64', kwargs: { ctrl_cost_weight: 1, healthy_reward: 0 } });
    const a = new Float32Array([0.5, -0.5, 0.5]);
    const r0 = plain.step(a).reward[0];
    const r1 = costly.step(a).reward[0];
    // same state and action: the rewards differ by the healthy reward (1) and 0.999 × Σa² (0.75)
    expect(r0 - r1).toBeCloseTo(1 + 0.999 * Math.fround(0.75), 6);
  });

  it.each(['Hopper-v5', 'Ant-v5', 'Humanoid-v5', 'Pusher-v5', 'Swimmer-v5'])(
    '%s: seeded runs are bit-identical across lane widths and threads (f32)',
    (id) => {
      const run = (threads: number, lanes: 1 | 8 | 16): Float64Array[] => {
        const env = makeVec(id, 20, { precision: 'f32', threads, lanes });
        const out = [env.reset({ seed: 11 }).obs];
        for (let s = 0; s < 50; s++) {
          const r = env.step(Float32Array.from({ length: 20 * env.nu }, (_, k) => Math.sin(1.7 * k + s)));
          out.push(r.obs, r.reward);
        }
        return out;
      };
      const lanes = supportedLanes(engineAddon().cpuInfo(), 'f32');
      const first = run(1, 1);
      for (const [threads, width] of [
        [2, 1],
        [1, 8],
        [2, 16],
      ] as const) {
        if (!lanes.includes(width)) continue; // a width this CPU lacks
        const other = run(threads, width);
        other.forEach((a, i) =>
          expect(Buffer.from(a.buffer).equals(Buffer.from(first[i].buffer)), `threads ${threads} lanes ${width} array ${i}`).toBe(true),
        );
      }
    },
  );
});
