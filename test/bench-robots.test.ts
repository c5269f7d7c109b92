// `achilles bench` times robots that differ (issue 25): --spread starts and --ctrl random controls
// reach both engines identically. A fake MuJoCo records what the bench's MuJoCo runner passes; the
// real timing addon (when built) steps robot r from it and must land where the Achilles runner's
// robot r lands after its first step. Small budgets and copies only.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AchillesRunner } from '../src/bench/achilles-runner.js';
import { resolveConfig } from '../src/bench/config.js';
import { loadMujocoNative, mujocoAddonPath, type MujocoNative, type TimeStepsOptions } from '../src/bench/mujoco-native.js';
import { MujocoRunner } from '../src/bench/mujoco-runner.js';
import { BENCH_CTRL_SEED, MAX_CTRL_TABLE, controlRows, randomControls, robotStarts, robotsFor } from '../src/bench/robots.js';
import { benchTable } from '../src/bench/report.js';
import { runBench } from '../src/bench/run.js';
import { Batch } from '../src/engine/batch.js';
import { applySpread } from '../src/engine/spread.js';
import { RobotStreams } from '../src/sensors/rng.js';
import { loadScene } from '../src/model-files/scene/index.js';

const QUADRUPED = 'scenes/quadruped.arow';
const hasAddon = existsSync(mujocoAddonPath());

/** A MujocoNative that records timeSteps' options and reports every robot-step finite. */
function recordingMujoco(): { mj: MujocoNative; calls: TimeStepsOptions[] } {
  const calls: TimeStepsOptions[] = [];
  const mj = {
    timeSteps: (o: TimeStepsOptions) => {
      calls.push(o);
      return { seconds: 1e-3, robotSteps: o.steps * o.copies, nonFinite: 0, restartSeconds: 0, order: 'blocked' as const };
    },
    timeCollision: () => ({ seconds: 1e-3, robotSteps: 1, nonFinite: 0, contacts: 0 }),
    stepTrace: () => {
      throw new Error('not recorded');
    },
    info: () => ({ version: 'fake', lib: 'fake' }),
  };
  return { mj, calls };
}

describe('bench robots: starts and controls', () => {
  const model = loadScene(QUADRUPED);

  it("the starts are achilles run --spread's: robot r of robotStarts equals robot r of a spread batch (f64)", () => {
    const copies = 5;
    const { qpos } = robotStarts(model, copies, 0.05);
    const b = new Batch(model, { copies, precision: 'f64', lanes: 1 });
    applySpread(b, 0.05);
    const nq = b.nq;
    for (let r = 0; r < copies; r++) expect(Array.from(qpos.subarray(r * nq, (r + 1) * nq))).toEqual(b.getRobot(r).q);
    expect(Array.from(qpos.subarray(nq, 2 * nq))).not.toEqual(Array.from(qpos.subarray(0, nq))); // it differs
  });

  it('random controls: each robot its own stream of (seed, robot), uniform in the ctrlrange, f32-exact, both layouts the same draws', () => {
    const copies = 3;
    const rows = 4;
    const { byRobot, byActuator, nu } = randomControls(model, copies, rows);
    expect(nu).toBe(8);
    const s = new RobotStreams(BENCH_CTRL_SEED, copies);
    for (let step = 0; step < rows; step++)
      for (let r = 0; r < copies; r++)
        for (let a = 0; a < nu; a++) {
          const [lo, hi] = model.actuators![a].ctrlrange!;
          const want = Math.fround(lo + (hi - lo) * s.uniform(r));
          expect(byRobot[(step * copies + r) * nu + a]).toBe(want);
          expect(byActuator[(step * nu + a) * copies + r]).toBe(want);
        }
    // A robot's draws do not depend on how many robots there are.
    const more = randomControls(model, copies + 4, rows).byRobot;
    for (let step = 0; step < rows; step++)
      for (let r = 0; r < copies; r++)
        for (let a = 0; a < nu; a++) expect(more[(step * (copies + 4) + r) * nu + a]).toBe(byRobot[(step * copies + r) * nu + a]);
  });

  it('random controls are refused, with the actuator named, where an actuator has no ctrlrange; by default such a scene gets zero ctrl and a note', () => {
    const open = { ...model, actuators: model.actuators!.map((a, k) => (k === 2 ? { ...a, ctrlrange: undefined } : a)) };
    expect(() => robotsFor(open, { ctrl: 'random' })).toThrow(/front_right_hip has none \(give it a ctrlrange, or use --ctrl zero\)/);
    const notes: string[] = [];
    expect(robotsFor(open, {}, (n) => notes.push(n))[0]).toEqual({ kind: 'differ', spread: 0.05, ctrl: 'zero' });
    expect(notes[0]).toMatch(/front_right_hip has no ctrlrange/);
  });

  it('defaults: contact or actuated scenes differ and lockstep; plain scenes lockstep; --spread/--ctrl alone: differ only; --lockstep chooses', () => {
    expect(robotsFor(model, {})).toEqual([
      { kind: 'differ', spread: 0.05, ctrl: 'random' },
      { kind: 'lockstep', spread: 0, ctrl: 'zero' },
    ]);
    expect(robotsFor(loadScene('scenes/double-pendulum.arow'), {})).toEqual([{ kind: 'lockstep', spread: 0, ctrl: 'zero' }]);
    expect(robotsFor(model, { spread: 0.2 })).toEqual([{ kind: 'differ', spread: 0.2, ctrl: 'random' }]);
    expect(robotsFor(model, resolveConfig({ lockstep: 'only' }).robots)).toEqual([{ kind: 'lockstep', spread: 0, ctrl: 'zero' }]);
    expect(robotsFor(model, resolveConfig({ lockstep: 'no', ctrl: 'zero' }).robots)).toEqual([
      { kind: 'differ', spread: 0.05, ctrl: 'zero' },
    ]);
    expect(() => resolveConfig({ ctrl: 'sine' })).toThrow(/--ctrl must be among random, zero/);
    expect(() => resolveConfig({ spread: -1 })).toThrow(/--spread/);
  });

  it('MuJoCo gets each robot its own start and the same control table, rows held for the substeps', () => {
    const copies = 4;
    const restartEvery = 3;
    const starts = robotStarts(model, copies, 0.05);
    const ctrl = randomControls(model, copies, restartEvery);
    const { mj, calls } = recordingMujoco();
    new MujocoRunner(mj, model, 'euler', 'per-robot', copies, restartEvery, 'newton', { starts, ctrl: ctrl.byRobot }).run(7);
    new MujocoRunner(mj, model, 'euler', 'merged', copies, restartEvery).run(7);
    expect(calls[0].qpos0).toBe(starts.qpos);
    expect(calls[0].qvel0).toBe(starts.qvel);
    expect(calls[0].ctrl).toBe(ctrl.byRobot);
    expect(calls[0].ctrlEvery).toBe(model.world.substeps);
    // Lockstep: the scene's one start, tiled by the addon; no controls.
    expect(calls[1].qpos0).toEqual(model.bodies.flatMap((b) => b.q0));
    expect(calls[1].ctrl).toBeUndefined();
  });

  it.skipIf(!hasAddon)("robot r's first step is the same state in both engines (f64): the starts and controls the runners pass", () => {
    const copies = 4;
    const restartEvery = 2;
    const starts = robotStarts(model, copies, 0.05);
    const ctrl = randomControls(model, copies, restartEvery);
    const { mj, calls } = recordingMujoco();
    new MujocoRunner(mj, model, 'euler', 'per-robot', copies, restartEvery, 'newton', { starts, ctrl: ctrl.byRobot }).run(1);
    const ours = new AchillesRunner({
      model,
      precision: 'f64',
      lanes: 1,
      copies,
      integrator: 'euler',
      threads: 1,
      restartEvery,
      starts,
      ctrl: ctrl.byActuator,
    });
    ours.run(1);
    const real = loadMujocoNative();
    const o = calls[0];
    const nq = ours.batch.nq;
    const nv = ours.batch.nv;
    const nu = ours.batch.nu;
    const qpos0 = o.qpos0 as Float64Array;
    const qvel0 = o.qvel0 as Float64Array;
    const firsts: number[][] = [];
    for (let r = 0; r < copies; r++) {
      const theirs = real.stepTrace({
        xml: o.xml,
        steps: 1,
        qpos0: qpos0.subarray(r * nq, (r + 1) * nq),
        qvel0: qvel0.subarray(r * nv, (r + 1) * nv),
        ctrl: o.ctrl!.subarray(r * nu, (r + 1) * nu),
      });
      const mine = ours.batch.getRobot(r);
      const q = Array.from(theirs.qpos);
      firsts.push(q);
      q.forEach((x, k) => expect(Math.abs(x - mine.q[k]), `robot ${r} q[${k}]`).toBeLessThan(1e-12));
      Array.from(theirs.qvel).forEach((x, k) => expect(Math.abs(x - mine.v[k]), `robot ${r} v[${k}]`).toBeLessThan(1e-10));
    }
    // The robots did differ after one step (else the comparison could not tell robots apart).
    expect(firsts[1]).not.toEqual(firsts[2]);
  });

  it.skipIf(!hasAddon)(
    "the timing addon runs robot r from its own start and with its own controls: one robot's NaN is that robot's steps only",
    () => {
      const real = loadMujocoNative();
      const copies = 4;
      const restartEvery = 5;
      const { mj, calls } = recordingMujoco();
      new MujocoRunner(mj, model, 'euler', 'per-robot', copies, restartEvery).run(1);
      const xml = calls[0].xml;
      const starts = robotStarts(model, copies, 0.05);
      const nq = starts.qpos.length / copies;
      const ctrl = randomControls(model, copies, restartEvery).byRobot;
      const base = { xml, mode: 'per-robot' as const, copies, steps: 10, restartEvery, qvel0: starts.qvel };
      expect(real.timeSteps({ ...base, qpos0: starts.qpos, ctrl }).nonFinite).toBe(0);
      const badStart = starts.qpos.slice();
      badStart[2 * nq + 7] = NaN; // robot 2's first hinge: each of its 10 steps non-finite, no other robot's
      expect(real.timeSteps({ ...base, qpos0: badStart, ctrl }).nonFinite).toBe(10);
      const badCtrl = ctrl.slice();
      badCtrl[(3 * copies + 1) * 8 + 4] = NaN; // robot 1, segment step 3: once in each of the 2 segments
      expect(real.timeSteps({ ...base, qpos0: starts.qpos, ctrl: badCtrl }).nonFinite).toBe(2);
      // A table shorter than a segment repeats: 2 rows, robot 1's row 1 bad: segment steps 1 and 3, twice.
      const short = ctrl.slice(0, 2 * copies * 8);
      short[(1 * copies + 1) * 8 + 4] = NaN;
      expect(real.timeSteps({ ...base, qpos0: starts.qpos, ctrl: short }).nonFinite).toBe(4);
      // Merged (all 4 robots in one mjData): robot 3's NaN start spoils its data's 4 robots, each step.
      const { mj: mj2, calls: c2 } = recordingMujoco();
      new MujocoRunner(mj2, model, 'euler', 'merged', copies, restartEvery).run(1);
      expect(c2[0].robotsPerModel).toBe(4);
      const mergedBad = starts.qpos.slice();
      mergedBad[3 * nq + 7] = NaN;
      const merged = { ...base, xml: c2[0].xml, mode: 'merged' as const, robotsPerModel: 4 };
      expect(real.timeSteps({ ...merged, qpos0: starts.qpos, ctrl }).nonFinite).toBe(0);
      expect(real.timeSteps({ ...merged, qpos0: mergedBad, ctrl }).nonFinite).toBe(40);
      expect(() => real.timeSteps({ ...base, qpos0: starts.qpos, ctrl: ctrl.subarray(8) })).toThrow(/ctrl has length/);
    },
  );

  it('a control table too big for memory is cut to fewer rows, and the Achilles runner repeats them as MuJoCo does', () => {
    expect(controlRows(500, 256, 8)).toBe(500);
    expect(controlRows(500, 4096, 17)).toBe(Math.floor(MAX_CTRL_TABLE / (4096 * 17)));
    expect(controlRows(500, 4096, 17)).toBeLessThan(500);
    // Achilles: 2 rows over a 5-step segment; step s reads row s mod 2 (f64, so the rows' effects differ).
    const copies = 2;
    const ctrl = randomControls(model, copies, 2).byActuator;
    const cell = { model, precision: 'f64' as const, lanes: 1 as const, copies, integrator: 'euler' as const, threads: 1, restartEvery: 5 };
    const cycled = new AchillesRunner({ ...cell, ctrl });
    cycled.run(3);
    const full = new AchillesRunner({ ...cell, ctrl: randomControls(model, copies, 5).byActuator.map((_, i) => ctrl[i % ctrl.length]) });
    full.run(3);
    expect(cycled.batch.getRobot(1).q).toEqual(full.batch.getRobot(1).q);
    const other = new AchillesRunner({ ...cell, ctrl: randomControls(model, copies, 5).byActuator });
    other.run(3);
    expect(other.batch.getRobot(1).q).not.toEqual(cycled.batch.getRobot(1).q); // row 2 is not row 0
    expect(() => new AchillesRunner({ ...cell, ctrl: ctrl.subarray(1) })).toThrow(/not a positive multiple of nu × copies = 16/);
  });
});

describe('bench report: differ and lockstep side by side', () => {
  it('a contact scene is timed both ways by default, each row labelled, ratios within its own kind', async () => {
    const cfg = resolveConfig({
      scene: [QUADRUPED],
      copies: [2],
      lanes: [1],
      precision: ['f64'],
      budget: 0.002,
      reps: 1,
      'restart-every': 4,
    });
    const rep = await runBench(cfg, { progress: () => ({ tick: () => undefined, finish: () => undefined }) });
    const kinds = rep.results.map((r) => `${r.robots}/${r.measure ?? 'step'}/${r.ctrl}/${r.startSpread}`);
    expect(kinds).toEqual([
      'differ/step/random/0.05',
      'differ/detect/random/0.05',
      'differ/step+detect/random/0.05',
      'lockstep/step/zero/0',
      'lockstep/detect/zero/0',
      'lockstep/step+detect/zero/0',
    ]);
    const table = benchTable(rep);
    expect(table.split('\n')[0]).toMatch(/\brobots\b/);
    expect(table).toMatch(/quadruped\s+euler\s+differ\s+achilles/);
    expect(table).toMatch(/quadruped\s+euler\s+lockstep\s+achilles/);
    expect(rep.notes.join('\n')).toMatch(/differ \(spread 0.05, random ctrl\)/);
  }, 30_000);
});
