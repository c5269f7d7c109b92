// Per-robot parameters in the engine's lanes (native/include/achilles/lane_values.hpp,
// native/include/achilles/contact/lane_constraints.hpp, src/params/lanes.ts): robots whose models
// differ in gravity, masses, damping, armature, frictions or gains step together in one batch, each
// robot bit for bit as its constants scene run alone, at every lane width and thread count, in models
// with and without constraints (every kind of row: contacts on both cones, limits, dry friction,
// equalities, PGS); a model that differs in anything else is refused naming the difference; the
// planted params-neighbour-lane and params-constraint-lane-zero bugs are caught.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LANE_WIDTHS } from '../src/engine/api.js';
import { Batch, laneDifference } from '../src/engine/batch.js';
import { withSolver, type ModelDesc } from '../src/engine/model-desc.js';
import { supportedLanes } from '../src/engine/lanes.js';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { withParameters } from '../src/params/apply.js';
import { laneSharingProblem, setNamedParameters, setRobotModels } from '../src/params/lanes.js';
import { withNamedParameters } from '../src/params/named.js';
import { robotParameters } from '../src/params/robot-values.js';
import { planSweep } from '../src/sweep/plan.js';
import { runRobots } from '../src/sweep/run-robots.js';
import { readSweepFile } from '../src/sweep/sweep-file.js';
import { generalArm } from '../src/validation/general-actuators/models.js';
import { FIXTURES, tumblingBody } from '../src/validation/implicitfast/models.js';
import { LANE_SCENARIOS } from '../src/validation/params/constants.js';
import { LANE_CHECKED, LANE_ROBOTS, laneRows } from '../src/validation/params/lanes.js';
import { batchTraces, gateDraws } from '../src/validation/params/trace.js';
import { cli, SCENES, tempDir } from './helpers/cli.js';

const scene = (name: string) => loadScene(join(SCENES, `${name}.arow`));
/** Bit for bit (NaN payloads and the sign of zero included). */
const same = (a: Float64Array, b: Float64Array) => Buffer.compare(Buffer.from(a.buffer), Buffer.from(b.buffer)) === 0;
const widths = (precision: 'f32' | 'f64') => LANE_WIDTHS.filter((w) => supportedLanes(engineAddon().cpuInfo(), precision).includes(w));

afterEach(() => bugAddon().setBug?.('none'));

/** Every robot of a scenario's mixed batch: its traces at (lanes, threads). */
function mixedTraces(scenario: number, precision: 'f32' | 'f64', lanes: 1 | 4 | 8 | 16, threads: number): Float64Array[] {
  const s = LANE_SCENARIOS[scenario];
  const model = scene(s.scene);
  const draws = gateDraws(model, s);
  const models = Array.from({ length: LANE_ROBOTS }, (_, r) => withParameters(model, robotParameters(draws, 1, r, 1)));
  const batch = new Batch(models[0], { copies: LANE_ROBOTS, precision, lanes, threads });
  setRobotModels(batch, models);
  return batchTraces(
    batch,
    s.ctrl,
    Array.from({ length: LANE_ROBOTS }, (_, r) => r),
  );
}

describe('per-robot parameters in the lanes of one batch', () => {
  it('each robot of a mixed batch is bit-identical to its constants scene (every per-lane kind; f32 and f64; every lane width; threads 1 and 2)', () => {
    for (const precision of ['f64', 'f32'] as const) {
      const rows = laneRows(precision, engineAddon(), 1);
      expect(rows.length).toBe(LANE_SCENARIOS.length * LANE_CHECKED.length * widths(precision).length * 2);
      expect(rows.filter((r) => r.status !== 'pass')).toEqual([]);
    }
    // every per-lane kind is drawn, on hinges and on a ball joint, with and without constraints
    const kinds = new Set(LANE_SCENARIOS.flatMap((s) => s.parameters.map((p) => p.name.split(/[:.]/)[0])));
    expect([...kinds].sort()).toEqual(['armature', 'com_offset', 'ctrl_range', 'damping', 'friction', 'gain', 'gravity', 'mass_scale']);
  });

  it('the robots of a mixed batch do differ, and each runs the same at every lane width and thread count', () => {
    const ref = mixedTraces(0, 'f64', 1, 1);
    expect(same(ref[0], ref[5])).toBe(false); // drawn gravity and damping move the robots apart
    for (const w of widths('f64'))
      for (const threads of [1, 2]) {
        if (w === 1 && threads === 1) continue;
        const got = mixedTraces(0, 'f64', w, threads);
        got.forEach((t, r) => expect(same(t, ref[r]), `robot ${r} lanes ${w} threads ${threads}`).toBe(true));
      }
  });

  it("identical robots set in their lanes run exactly as the batch's own constants (a vector load of equal values is the broadcast)", () => {
    const model = withNamedParameters(scene('humanoid-tree'), { 'damping:head': 0.1, 'armature:torso': 0.02 });
    const w = widths('f32').at(-1)!;
    const plain = new Batch(model, { copies: 20, precision: 'f32', lanes: w });
    const laned = new Batch(model, { copies: 20, precision: 'f32', lanes: w });
    setRobotModels(
      laned,
      Array.from({ length: 20 }, () => model),
    );
    const robots = Array.from({ length: 20 }, (_, r) => r);
    const a = batchTraces(plain, [], robots);
    const b = batchTraces(laned, [], robots);
    a.forEach((t, r) => expect(same(b[r], t), `robot ${r}`).toBe(true));
  });

  it("general actuators' gains (a dampratio's damping derived per robot) and control ranges, per lane, bit for bit", () => {
    const arm = generalArm();
    const values = (r: number) => ({
      'gain:g1': 30 + 5 * r,
      'gain:g2': 20 + 3 * r, // position-like with a dampratio: biasprm₁ and the damping follow kp
      'gain:g4': 4 + r,
      'ctrl_range:g1.high': 0.4 + 0.1 * r,
      'ctrl_range:g3.low': -1.5 + 0.2 * r,
    });
    const models = Array.from({ length: 6 }, (_, r) => withNamedParameters(arm, values(r)));
    const ctrl = arm.actuators!.map((_, a) => 0.8 - 0.35 * a);
    for (const w of widths('f64')) {
      const batch = new Batch(models[0], { copies: 6, precision: 'f64', lanes: w, threads: 2 });
      setRobotModels(batch, models);
      const got = batchTraces(batch, ctrl, [0, 1, 2, 3, 4, 5]);
      models.forEach((m, r) => {
        const alone = batchTraces(new Batch(m, { copies: 1, precision: 'f64', lanes: 1 }), ctrl, [0])[0];
        expect(same(got[r], alone), `robot ${r} lanes ${w}`).toBe(true);
      });
      expect(same(got[0], got[3])).toBe(false);
    }
  });

  it("a free body's mass, centre of mass and inertia per lane under implicitfast (its gyroscopic derivative), bit for bit", () => {
    const body = tumblingBody();
    const models = Array.from({ length: 5 }, (_, r) =>
      withNamedParameters(body, { 'mass_scale:body': 0.6 + 0.2 * r, 'com_offset:body.x': 0.01 * r - 0.02, 'gravity.y': 0.1 * r }),
    );
    for (const w of widths('f64')) {
      const batch = new Batch(models[0], { copies: 5, precision: 'f64', lanes: w });
      setRobotModels(batch, models);
      const got = batchTraces(batch, [], [0, 1, 2, 3, 4]);
      models.forEach((m, r) => {
        const alone = batchTraces(new Batch(m, { copies: 1, precision: 'f64', lanes: 1 }), [], [0])[0];
        expect(same(got[r], alone), `robot ${r} lanes ${w}`).toBe(true);
      });
    }
  });

  it('frictions and inverse weights per lane in every kind of row (condim 4/6, equalities, tendon friction and limits, PGS), bit for bit', () => {
    // condim 4 and 6: each robot's torsional and rolling coefficients (set as whole models: no parameter name draws them)
    const condim = importFile(join(FIXTURES.tendon, '..', 'mjcf-condim.xml')).model;
    const condimRobot = (r: number): ModelDesc => ({
      ...condim,
      shapes: condim.shapes!.map((sh) =>
        sh.name.endsWith('_foot') || sh.name === 'floor'
          ? { ...sh, torsionalFriction: 0.01 + 0.01 * r, rollingFriction: 0.001 + 0.002 * r, friction: 0.6 + 0.1 * r }
          : sh,
      ),
    });
    const cases: { name: string; model: ModelDesc; values?: (r: number) => Record<string, number>; robot?: (r: number) => ModelDesc }[] = [
      { name: 'mjcf-condim', model: condim, robot: condimRobot },
      {
        // a connect inside a four-bar and to the world, a weld, a joint coupling: their R from body and dof invweight0
        name: 'mjcf-equality',
        model: importFile(join(FIXTURES.tendon, '..', 'mjcf-equality.xml')).model,
        values: (r) => ({
          'mass_scale:coupler': 0.8 + 0.1 * r,
          'mass_scale:finger_left': 1.2 - 0.1 * r,
          'mass_scale:block': 0.7 + 0.15 * r,
          'mass_scale:ball': 1 + 0.1 * r,
          'armature:crank': 0.001 + 0.002 * r,
        }),
      },
      {
        // a tendon's dry friction and limit: R from tendon_invweight0
        name: 'mjcf-tendon-coupling',
        model: importFile(FIXTURES.tendon).model,
        values: (r) => ({ 'mass_scale:shoulder': 0.8 + 0.1 * r, 'mass_scale:elbow': 1.3 - 0.1 * r }),
      },
      {
        // PGS: its stop scaled by each robot's meaninertia; contacts' μ and R, the knees' limits
        name: 'quadruped on PGS',
        model: withSolver(scene('quadruped'), 'pgs', 1e-8, 100),
        values: (r) => ({
          'mass_scale:torso': 0.8 + 0.1 * r,
          'friction:ground': 0.4 + 0.15 * r,
          'armature:front_left_thigh': 0.001 + 0.003 * r,
        }),
      },
    ];
    for (const c of cases) {
      const models = Array.from({ length: 6 }, (_, r) => (c.robot ? c.robot(r) : withNamedParameters(c.model, c.values!(r))));
      const ctrl = (c.model.actuators ?? []).map((_, a) => 0.3 - 0.1 * a);
      for (const precision of ['f64', 'f32'] as const) {
        const alone = models.map((m) => batchTraces(new Batch(m, { copies: 1, precision, lanes: 1 }), ctrl, [0])[0]);
        expect(same(alone[0], alone[3]), `${c.name}: the robots differ`).toBe(false);
        for (const w of widths(precision)) {
          const batch = new Batch(models[0], { copies: 6, precision, lanes: w, threads: 2 });
          setRobotModels(batch, models);
          const got = batchTraces(batch, ctrl, [0, 1, 2, 3, 4, 5]);
          got.forEach((t, r) => expect(same(t, alone[r]), `${c.name} ${precision} robot ${r} lanes ${w}`).toBe(true));
        }
      }
    }
  });

  it('the TypeScript API sets one robot by name; the others keep the batch model', () => {
    const model = scene('double-pendulum');
    const batch = new Batch(model, { copies: 3, precision: 'f64', lanes: 1 });
    setNamedParameters(batch, 1, { 'gravity.z': -3 });
    const [r0, r1, r2] = batchTraces(batch, [], [0, 1, 2]);
    expect(same(r2, r0)).toBe(true);
    expect(same(r1, r0)).toBe(false);
    const alone = new Batch(withNamedParameters(model, { 'gravity.z': -3 }), { copies: 1, precision: 'f64', lanes: 1 });
    expect(same(batchTraces(alone, [], [0])[0], r1)).toBe(true);
  });

  it('refuses a robot model that differs in more than its per-lane parameters, naming the first difference', () => {
    const q = withNamedParameters(scene('quadruped'), { 'damping:back_left_shin': 0.3 });
    const named = (values: Record<string, number>) => withNamedParameters(q, values);
    expect(laneDifference(q, named({ 'gravity.x': 0.3, 'damping:back_left_shin': 0.1 }))).toBe('');
    // the quadruped has contacts: its masses, armatures and frictions are per lane too (the inverse weights and μ)
    expect(laneDifference(q, named({ 'mass_scale:torso': 1.1, 'friction:ground': 0.5, 'com_offset:torso.x': 0.02 }))).toBe('');
    const pendulum = scene('double-pendulum');
    expect(laneDifference(pendulum, withNamedParameters(pendulum, { 'mass_scale:upper': 1.3, 'com_offset:lower.y': 0.01 }))).toBe('');
    const massless = {
      ...pendulum,
      bodies: pendulum.bodies.map((b, i) => (i === 0 ? { ...b, mass: 0, inertia: [0, 0, 0, 0, 0, 0] as typeof b.inertia } : b)),
    };
    expect(laneDifference(pendulum, massless)).toMatch(/^joint 'upper' mass: nonzero in the batch's model, 0 here/);
    const margin = { ...q, shapes: q.shapes!.map((sh) => (sh.name === 'ground' ? { ...sh, margin: 0.01 } : sh)) };
    expect(laneDifference(q, margin)).toMatch(/^shape 'ground' margin: 0 in the batch's model, 0.01 here$/);
    expect(laneDifference(q, named({ 'damping:back_left_shin': 0 }))).toMatch(
      /joint 'back_left_shin' damping: nonzero in the batch's model, 0 here \(a per-robot value must be zero in every robot or in none\)/,
    );
    expect(laneDifference(q, named({ 'armature:front_right_thigh': 0.01 }))).toMatch(/armature: 0 in the batch's model, nonzero here/);
    const a1 = named({ 'armature:front_right_thigh': 0.01 });
    expect(laneDifference(a1, withNamedParameters(a1, { 'armature:front_right_thigh': 0.02 }))).toBe('');
    expect(laneDifference(q, scene('double-pendulum'))).toMatch(/^nq: /);
    const plate = scene('ball-on-plate');
    expect(laneDifference(plate, withNamedParameters(plate, { 'gain:tilt-x': 10, 'ctrl_range:tilt-y.high': 0.2 }))).toBe('');
    const noKv = { ...plate, actuators: plate.actuators!.map((a, i) => (i === 0 ? { ...a, kv: 0 } : a)) };
    expect(laneDifference(plate, noKv)).toMatch(/^actuator 'tilt-x' kv: nonzero in the batch's model, 0 here/);
    const batch = new Batch(q, { copies: 2, precision: 'f64', lanes: 1 });
    expect(() => batch.setRobotModel(1, margin)).toThrow(
      /robot 1's model differs from the batch's in more than its per-robot parameters \(gravity, masses, .*frictions.*\): shape 'ground' margin/,
    );
    expect(() => batch.setRobotModel(2, q)).toThrow(/robot 2 is out of range/);
    expect(laneSharingProblem([q, named({ 'friction:ground': 0.5 })], ['friction'])).toBeUndefined();
    expect(laneSharingProblem([q, named({ 'damping:back_left_shin': 0 })], ['damping'])).toMatch(
      /^robot 1's model differs from robot 0's in more than its per-lane parameters: joint 'back_left_shin' damping/,
    );
  });

  it('catches the planted params-neighbour-lane bug, at lane widths above 1 only', () => {
    const bugs = bugAddon();
    bugs.setBug!('params-neighbour-lane');
    const failed = laneRows('f64', bugs, 1).filter((r) => r.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => !r.field.startsWith('q,v lanes 1 '))).toBe(true);
    // every scenario's robots run with their neighbours' values
    expect(new Set(failed.map((r) => r.model))).toEqual(new Set(LANE_SCENARIOS.map((s) => s.scene)));
    bugs.setBug!('none');
    expect(laneRows('f64', bugs, 1).filter((r) => r.status === 'fail')).toEqual([]);
  });
});

describe('the planted params-constraint-lane-zero bug', () => {
  it("is caught by the gate's lanes rows, at lane widths above 1 only, in the scenarios with constraints", () => {
    const bugs = bugAddon();
    bugs.setBug!('params-constraint-lane-zero');
    const failed = laneRows('f64', bugs, 1).filter((r) => r.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => !r.field.startsWith('q,v lanes 1 '))).toBe(true);
    expect(new Set(failed.map((r) => r.model))).toEqual(new Set(['quadruped', 'quadruped-elliptic', 'ball-on-plate']));
    bugs.setBug!('none');
  });
});

describe('the commands share batches between robots with per-lane draws', () => {
  const dir = tempDir('achilles-lanes-');

  it('achilles run: drawn gravity and damping with --copies 3, each robot its own model', async () => {
    const file = join(dir, 'lanes.arow');
    const block =
      'randomize:\n  seed: 5\n  model:\n    gravity.x: { uniform: [-1, 1] }\n    damping:back_left_shin: { uniform: [0.1, 0.5] }\nlinks:';
    writeFileSync(file, readFileSync(join(SCENES, 'quadruped.arow'), 'utf8').replace(/^links:/m, block));
    const out = join(dir, 'out');
    const r = await cli('run', file, '--duration', '0.02', '--copies', '3', '--robots', '0,1,2', '--precision', 'f64', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(join(out, 'trace.csv'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    const head = lines[0].split(',');
    const last = (robot: number) => lines.filter((l) => l.split(',')[head.indexOf('robot')] === String(robot)).at(-1)!;
    expect(new Set([last(0), last(1), last(2)].map((l) => l.split(',').slice(2).join())).size).toBe(3);
  });

  it('achilles sweep: per-lane draws give the same rows in batches of 64 as in batches of one', async () => {
    const file = join(dir, 'sweep.yaml');
    writeFileSync(
      file,
      `sweep: t\nscene: ${join(SCENES, 'quadruped.arow')}\nrobots: 6\nseed: 2\nduration: 0.04\nrandomize:\n  model:\n    gravity.z: { uniform: [-10, -9] }\n    damping:front_left_shin: { uniform: [0.1, 0.5] }\nkeep:\n  metrics: [height]\n  body: torso\n  traces: { robots: [0, 5], every: 5 }\n`,
    );
    const s = readSweepFile(file);
    const plan = planSweep(s, loadScene(s.scene));
    const run = (batchSize: number, lanes: 1 | 8, threads: number) =>
      runRobots(plan, { first: 0, end: 6, batchSize, lanes, threads, shouldStop: () => false });
    const one = await run(1, 1, 1);
    const shared = await run(64, widths(plan.precision).includes(8) ? 8 : 1, 2);
    expect(shared.results).toBe(one.results);
    expect(shared.traces).toBe(one.traces);
  });
});
