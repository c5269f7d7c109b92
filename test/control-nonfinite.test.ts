// Issue 56 (bad input): a bad control (NaN, ±Infinity, |u| > 1e10: MuJoCo's mju_isBad) written
// straight into Batch.ctrl stops step() before its first step, naming robot, actuator and step, and
// nothing advances. The ctrlrange clamp used to turn a NaN into the range's low end silently.
import { describe, expect, it, vi } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { ControlLoop } from '../src/control/controller.js';
import { NonFiniteControlError, isBadControl } from '../src/control/errors.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { gymnasiumAssets } from '../src/gym/gymnasium-assets.js';
import { makeVec } from '../src/gym/vec-env.js';
import { scene } from './helpers/engine.js';
import { cellTitle, laneCells } from './helpers/lanes.js';

const quadruped = loadScene(scene('quadruped')); // 8 motors, ctrlrange [-1, 1]
const knee = 1; // front_left_knee

/** What step() threw (undefined: nothing). */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** Every state array of the batch, copied (to see that nothing moved). */
function snapshot(b: Batch): number[][] {
  return [b.q, b.v, b.qacc, b.actuatorForce, b.ctrlTarget, b.act, b.qaccWarm].map((a) => Array.from(a));
}

describe('a bad control stops Batch.step before its first step', () => {
  for (const c of laneCells()) {
    const { precision, lanes } = c;
    it.skipIf(c.skip !== null)(cellTitle(`NaN, ±Infinity and 1e11 are refused at ${precision} × ${lanes} lanes`, c), () => {
      const b = new Batch(quadruped, { copies: 5, precision, lanes });
      b.step(2);
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e11]) {
        const before = snapshot(b);
        b.ctrl[knee * b.stride + 3] = bad;
        const e = thrown(() => b.step(1));
        expect(e).toBeInstanceOf(NonFiniteControlError);
        const err = e as NonFiniteControlError;
        expect([err.robot, err.actuator, err.step, err.controller]).toEqual([3, 'front_left_knee', 2, undefined]);
        expect(Object.is(err.value, precision === 'f32' ? Math.fround(bad) : bad)).toBe(true);
        expect(err.message).toMatch(
          /^robot 3's control of actuator 'front_left_knee' is \S+ at step 2 \(t = [\d.]+ s\); nothing was stepped/,
        );
        expect(b.steps).toBe(2);
        expect(snapshot(b)).toEqual(before); // nothing advanced
        b.ctrl[knee * b.stride + 3] = 0.5;
      }
      b.step(1); // a good control steps on
      expect(b.steps).toBe(3);
    });
  }

  it("1e10 (MuJoCo's mjMAXVAL) itself is a good control; the rule is isBadControl", () => {
    expect([Number.NaN, Infinity, -Infinity, 1e11, -1.0000001e10].map(isBadControl)).toEqual([true, true, true, true, true]);
    expect([0, -1, 1e10, -1e10, Number.MIN_VALUE].map(isBadControl)).toEqual([false, false, false, false, false]);
    const b = new Batch(quadruped, { copies: 2, precision: 'f64', lanes: 1 });
    b.ctrl[knee * b.stride + 1] = -1e10;
    b.step(1);
    expect(b.steps).toBe(1);
  });

  it('names the lowest robot, then its lowest actuator', () => {
    const b = new Batch(quadruped, { copies: 6, precision: 'f64', lanes: 1 });
    b.ctrl[5 * b.stride + 4] = Number.NaN; // actuator 5 of robot 4
    b.ctrl[6 * b.stride + 2] = Number.NaN; // actuator 6 of robot 2
    b.ctrl[7 * b.stride + 2] = Number.NaN; // actuator 7 of robot 2
    const e = thrown(() => b.step(1)) as NonFiniteControlError;
    expect([e.robot, e.actuator]).toEqual([2, quadruped.actuators![6].name]);
  });

  it('holdControls, stepRaw and stepMonitored refuse too (all k steps read the controls held)', () => {
    const b = new Batch(quadruped, { copies: 3, precision: 'f32', lanes: 4 });
    b.ctrl[0 * b.stride + 1] = Number.NaN;
    const before = snapshot(b);
    expect(thrown(() => b.step(5, { holdControls: true }))).toBeInstanceOf(NonFiniteControlError);
    expect(thrown(() => b.stepRaw(5))).toBeInstanceOf(NonFiniteControlError);
    b.monitorEnergyFromHere();
    expect(thrown(() => b.stepMonitored(5))).toBeInstanceOf(NonFiniteControlError);
    expect(b.steps).toBe(0);
    expect(snapshot(b)).toEqual(before);
  });

  it('only what a step reads is checked: the other control half (cleared before it is read) and padding lanes are not', () => {
    const b = new Batch(quadruped, { copies: 3, precision: 'f32', lanes: 4 }); // stride 4: lane 3 is padding
    const [h0, h1] = b.controlHalves();
    h1.fill(Number.NaN); // the half step 1 reads, cleared by step 0
    h0[knee * b.stride + 3] = Number.NaN; // the padding lane
    const ref = new Batch(quadruped, { copies: 3, precision: 'f32', lanes: 4 });
    b.step(3);
    ref.step(3);
    expect(Array.from(b.q.subarray(0, 3))).toEqual(Array.from(ref.q.subarray(0, 3)));
    for (let k = 0; k < b.nq; k++) for (let r = 0; r < 3; r++) expect(b.q[k * b.stride + r]).toBe(ref.q[k * ref.stride + r]);
  });

  it('a controller that writes 1e11 is stopped as one that writes NaN (one rule for every door)', () => {
    const b = new Batch(quadruped, { copies: 2, precision: 'f64', lanes: 1 });
    const loop = new ControlLoop(b, { name: 'huge', update: (io) => void (io.ctrl[io.stride + 1] = io.step >= 2 ? 1e11 : 0.5) });
    const e = thrown(() => {
      for (let k = 0; k < 5; k++) {
        loop.beforeStep();
        b.step(1);
      }
    });
    expect(e).toBeInstanceOf(NonFiniteControlError);
    expect((e as NonFiniteControlError).message).toMatch(
      /controller huge wrote 100000000000 into actuator 'front_left_knee' of robot 1 at step 2/,
    );
    expect(b.steps).toBe(2);
  });
});

/** Why Gymnasium's model files cannot be read here, or null. */
function gymnasiumMissing(): string | null {
  try {
    gymnasiumAssets();
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
const missing = gymnasiumMissing();

describe.skipIf(missing !== null)(`the TypeScript Gym env steps a bad action as MuJoCo does ${missing ?? ''}`, () => {
  /** Env e's observation in a step's result. */
  const obsOf = (out: { obs: Float64Array }, dim: number, e: number): number[] => Array.from(out.obs.subarray(e * dim, (e + 1) * dim));

  it('an env with a NaN control steps with all its controls at 0, counted in info.bad_ctrl, with one warning', () => {
    const env = makeVec('Hopper-v5', 4, { precision: 'f64' });
    env.reset({ seed: 3 });
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      // envs 0 and 1 start from one state: 0 takes NaN in one control, 1 all zeros; 2 takes +Infinity
      // (MuJoCo clamps it to the range's top first: good), 3 the range's top itself
      const b = env.batch;
      for (let k = 0; k < b.nq; k++) b.q[k * b.stride + 1] = b.q[k * b.stride];
      for (let k = 0; k < b.nv; k++) b.v[k * b.stride + 1] = b.v[k * b.stride];
      for (let k = 0; k < b.nq; k++) b.q[k * b.stride + 3] = b.q[k * b.stride + 2];
      for (let k = 0; k < b.nv; k++) b.v[k * b.stride + 3] = b.v[k * b.stride + 2];
      const actions = Float32Array.from([0.5, Number.NaN, -0.5, 0, 0, 0, 0.3, Infinity, -0.2, 0.3, 1, -0.2]);
      const out = env.step(actions);
      expect(Array.from(out.info.bad_ctrl)).toEqual([1, 0, 0, 0]);
      expect(Array.from(out.info._bad_ctrl)).toEqual([1, 0, 0, 0]);
      expect(obsOf(out, env.obsDim, 0)).toEqual(obsOf(out, env.obsDim, 1));
      expect(obsOf(out, env.obsDim, 2)).toEqual(obsOf(out, env.obsDim, 3));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/the actions of envs \[0\] hold a control MuJoCo calls bad .*all its controls at 0/);
      const good = env.step(new Float32Array(4 * env.nu).fill(0.1));
      expect(good.info.bad_ctrl).toBeUndefined(); // present only in a step with a bad control
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});
