// achilles validate: the gates pass on the real engine, catch a planted bug, and build their
// float32 bars from the measured floor.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SENSOR_BUGS } from '../src/sensors/planted-bugs.js';
import { PARAMETER_BUGS } from '../src/params/bugs.js';
import { describe, expect, it, vi } from 'vitest';
import { validateCommand } from '../src/cli/validate-command.js';
import { bugAddon, engineAddon } from '../src/engine/native.js';
import { closedFormRun } from '../src/validation/exact.js';
import { judgeField } from '../src/validation/judge.js';
import { barFor, F32_FACTOR, F32_ILL_CONDITIONED, F64_BAR, fieldFloor, quatAngle } from '../src/validation/metrics.js';
import { suiteModels } from '../src/validation/models.js';
import { bugVerdict, runPasses, runSuite, summarize, type BugOutcome } from '../src/validation/suite.js';
import { BUG_TARGETS } from '../src/validation/bug-targets.js';
import { doublePendulumAccel, type DoublePendulumParams } from '../src/validation/double-pendulum-exact.js';
import { perStateReference, perturbedParams, qaccFloors, type EquationsResult } from '../src/validation/per-state.js';
import { CLASSIC_INTEGRATORS as INTEGRATORS } from '../src/engine/model-desc.js';
import { seedFor } from '../src/validation/rng.js';
import { queryMujoco, type ExtraQuery } from '../src/validation/reference.js';
import type { DynamicsResult } from '../src/validation/mujoco-ref.js';
import { Rng } from '../src/validation/rng.js';
import { exportMjcf } from '../src/model-files/scene/index.js';
import { F32_PERTURBATIONS, perturbedModels, perturbState, randomStates, roundModel, roundState } from '../src/validation/states.js';
import { relErr } from '../src/validation/metrics.js';

describe('float32 bars follow the measured floor', () => {
  it('the field floor is the largest resolvable per-state floor, and the bar is 3× it', () => {
    const floors = [1e-8, 4e-7, 2e-8, 0.5 /* ill-conditioned: skipped, not part of the floor */];
    expect(fieldFloor(floors)).toBe(4e-7);
    expect(barFor('f32', floors)).toEqual({ floor: 4e-7, factor: F32_FACTOR, bar: F32_FACTOR * 4e-7 });
    expect(barFor('f32', [2e-7])).toEqual({ floor: 2e-7, factor: 3, bar: 6e-7 });
    expect(barFor('f64', floors)).toEqual({ floor: F64_BAR, factor: 1, bar: F64_BAR });
  });

  it('judges against that bar and reports ill-conditioned states as skipped', () => {
    const id = { stage: 'forward' as const, model: 'm', precision: 'f32' as const, field: 'qacc' };
    const rows = judgeField(id, [
      { state: 0, error: 5e-7, stateFloor: 2e-7 }, // bar 6e-7: pass
      { state: 1, error: 7e-7, stateFloor: 1e-8 }, // above 6e-7: fail
      { state: 2, error: 1, stateFloor: 2 * F32_ILL_CONDITIONED }, // skip
    ]);
    expect(rows.map((r) => r.status)).toEqual(['pass', 'fail', 'skip']);
    expect(rows[0].bar).toBeCloseTo(6e-7, 20);
  });

  it('perturbing by a float32 half-ulp moves exactly representable inputs that rounding leaves alone (closed form)', () => {
    // Every parameter and state number exactly representable in float32: rounding moves nothing.
    const p: DoublePendulumParams = { m1: 1, r1: 0.5, I1: 0.375, m2: 0.5, r2: 0.25, I2: 0.0625, l1: 1, gy: 0, gz: 8 };
    const twins = perturbedParams(p, F32_PERTURBATIONS, 7);
    let round = 0;
    let pert = 0;
    for (let i = 0; i < 32; i++) {
      const s = {
        phi: Math.fround(0.1 * i - 1.5),
        psi: Math.fround(2.75 - 0.17 * i),
        phiDot: Math.fround(1.25 - 0.1 * i),
        psiDot: Math.fround(0.05 * i),
      };
      const exact = doublePendulumAccel(p, s);
      round = Math.max(round, relErr(doublePendulumAccel(p, s).map(Math.fround), exact));
      for (const pk of twins) pert = Math.max(pert, relErr(doublePendulumAccel(pk, s).map(Math.fround), exact));
    }
    expect(pert).toBeGreaterThan(round);
    expect(pert).toBeLessThan(1e-5);
  });

  it('the perturbation floor is >= the rounding floor on a model with exactly representable inputs (MuJoCo)', async () => {
    const model = suiteModels().find((m) => m.name === 'slider-ball')!.model; // masses 5, 1, 0.5, 0.1; lengths 0.5
    const states = randomStates(model, 16, 3, 1).map(roundState); // states exactly representable too
    const twins = perturbedModels(model, F32_PERTURBATIONS, 3);
    const models: Record<string, string> = { exact: exportMjcf(model), r: exportMjcf(roundModel(model)) };
    twins.forEach((t, k) => (models[`p${k}`] = exportMjcf(t)));
    const qs: ExtraQuery[] = states.flatMap((s, i) => [
      { model: 'exact', kind: 'dynamics' as const, qpos: s.q, qvel: s.v, tau: s.tau },
      { model: 'r', kind: 'dynamics' as const, qpos: s.q, qvel: s.v, tau: s.tau },
      ...twins.map((_, k) => {
        const x = perturbState(model, s, new Rng(1000 * i + k));
        return { model: `p${k}`, kind: 'dynamics' as const, qpos: x.q, qvel: x.v, tau: x.tau };
      }),
    ]);
    const res = (await queryMujoco('python3', models, qs)) as DynamicsResult[];
    const per = 2 + twins.length;
    let round = 0;
    let pert = 0;
    states.forEach((_, i) => {
      const exact = res[per * i].qacc;
      round = Math.max(round, relErr(res[per * i + 1].qacc.map(Math.fround), exact));
      for (let k = 0; k < twins.length; k++) pert = Math.max(pert, relErr(res[per * i + 2 + k].qacc.map(Math.fround), exact));
    });
    expect(pert).toBeGreaterThanOrEqual(round);
    expect(pert).toBeLessThan(F32_ILL_CONDITIONED);
  });

  it('on slider-ball the floor includes storing the equations of motion in float32, and is >= the inputs-only floor', async () => {
    const model = suiteModels().find((m) => m.name === 'slider-ball')!.model; // κ(M) large: q̈ ~4e3 at the puck, ~15 elsewhere
    const ref = await perStateReference('python3', 'slider-ball', model, 16, 1);
    // The unperturbed solve of MuJoCo's own M q̈ = τ − b is MuJoCo's q̈.
    ref.states.forEach((_, i) => expect(relErr(ref.eq[i].base.qacc, ref.dyn[i].qacc)).toBeLessThan(1e-9));
    const floors = ref.states.map((_, i) => qaccFloors(ref, i));
    const old = fieldFloor(floors.map((f) => f.inputs));
    const now = fieldFloor(floors.map((f) => Math.max(f.inputs, f.equations)));
    expect(now).toBeGreaterThanOrEqual(old);
    // Perturbing the inputs never excites the ill-conditioned directions of M; perturbing M does.
    expect(fieldFloor(floors.map((f) => f.equations))).toBeGreaterThan(2 * old);
    expect(now).toBeLessThan(F32_ILL_CONDITIONED);
  });

  it('the step floor with the integrator intermediates perturbed is >= the floor from M and b alone', async () => {
    const name = 'double-pendulum';
    const model = suiteModels().find((m) => m.name === name)!.model;
    const ref = await perStateReference('python3', name, model, 16, 1);
    const h = model.world.dt / model.world.substeps;
    // The same solves with the intermediates left unperturbed (stages: false): the earlier floor.
    const qs: ExtraQuery[] = ref.states.map((s, i) => ({
      model: 'exact',
      kind: 'equations' as const,
      qpos: s.q,
      qvel: s.v,
      tau: s.tau,
      h,
      integrators: [...INTEGRATORS],
      seed: seedFor(1, name, 'f32-equations', String(i)),
      k: F32_PERTURBATIONS,
      stages: false,
    }));
    const old = (await queryMujoco('python3', { exact: exportMjcf(model) }, qs)) as unknown as EquationsResult[];
    const max = (xs: number[]) => Math.max(0, ...xs);
    for (const g of INTEGRATORS) {
      const floorOf = (eq: (i: number) => EquationsResult) =>
        fieldFloor(
          ref.states.map((_, i) => {
            const R = ref.step[g][i].qvel;
            const inputs = max(ref.step32[g][i].map((r) => relErr(r.qvel, R)));
            const base = eq(i).base.step[g].qvel;
            const equations = max(eq(i).perturbed.map((r) => relErr(r.step[g].qvel.map(Math.fround), base, max(R.map(Math.abs)))));
            return Math.max(inputs, equations);
          }),
        );
      const before = floorOf((i) => old[i]);
      const now = floorOf((i) => ref.eq[i]);
      expect(now, `${g}.v`).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThan(F32_ILL_CONDITIONED);
      // midpoint's v' = 2·vm − v doubles vm's storage error: the intermediates raise its floor.
      if (g === 'midpoint') expect(now).toBeGreaterThan(1.5 * before);
    }
  });

  it('orientation error ignores the quaternion sign', () => {
    const q = [0.5, 0.5, -0.5, 0.5];
    expect(
      quatAngle(
        q,
        q.map((x) => -x),
      ),
    ).toBeLessThan(1e-12);
    expect(quatAngle([1, 0, 0, 0], [Math.cos(0.05), Math.sin(0.05), 0, 0])).toBeCloseTo(0.1, 12);
  });
});

describe('the double pendulum against its closed form at every state of a 10 s run', () => {
  const pendulum = suiteModels().find((m) => m.name === 'double-pendulum')!;
  it('f64: errors near 1e-12 or below, the gate passes', () => {
    const run = closedFormRun('double-pendulum', pendulum.model, 'f64', engineAddon())!;
    expect(run.t.length).toBe(5001);
    expect(Math.max(...run.error)).toBeLessThan(1e-12);
    expect(run.rows.every((r) => r.status === 'pass')).toBe(true);
  });
  it('f32: errors at float32 round-off (a few float32 ulps relative)', () => {
    const run = closedFormRun('double-pendulum', pendulum.model, 'f32', engineAddon())!;
    expect(run.t.length).toBe(5001);
    const worst = Math.max(...run.error);
    expect(worst).toBeGreaterThan(0); // really float32
    expect(worst).toBeLessThan(16 * 2 ** -24);
  });
});

describe('gates', () => {
  it('forward on two models: every gate passes on the real engine', async () => {
    const r = await runSuite({
      stages: new Set(['forward']),
      models: new Set(['arm7', 'double-pendulum']),
      states: 64,
      bugStates: 16,
      seed: 1,
      python: 'python3',
      bugs: false,
    });
    const gates = summarize(r);
    expect(gates.map((g) => `${g.model}/${g.precision}`).sort()).toEqual([
      'arm7/f32',
      'arm7/f64',
      'double-pendulum/f32',
      'double-pendulum/f64',
    ]);
    for (const g of gates) expect(g.status, `${g.model} ${g.precision} worst ${g.worstRatio}`).toBe('PASS');
    expect(r.rows.filter((x) => x.field === 'qacc').length).toBe(2 * 2 * 64);
  });

  it('the planted hinge-sign bug makes the kinematics gate fail', async () => {
    const r = await runSuite({
      stages: new Set(['kinematics']),
      models: new Set(['double-pendulum']),
      states: 16,
      bugStates: 16,
      seed: 1,
      python: 'python3',
      bugs: true,
    });
    expect(summarize(r).every((g) => g.status === 'PASS')).toBe(true);
    const hinge = r.bugs.find((b) => b.name === 'hinge-sign')!;
    expect(hinge.failed).toContain('kinematics/double-pendulum/f64');
  });

  it('a subset fails on a judged bug no gate caught, says why the others are not judged, and cannot pass when it judges none', () => {
    const base = { rows: [], energy: {}, closedForm: [], tauScale: {}, seconds: 0, timings: [], options: {} as never };
    const judged = (bugs: BugOutcome[]) => ({ pass: runPasses({ ...base, bugs }), line: bugVerdict({ ...base, bugs }) });
    expect(
      judged([
        { name: 'a', failed: ['forward/m/f64'], reached: true, targeted: true },
        { name: 'b', failed: [], reached: false, targeted: false },
        { name: 'c', failed: [], reached: false, targeted: false },
      ]),
    ).toEqual({
      pass: true,
      line: expect.stringMatching(/^planted bugs: 1\/1 caught \(2 others target stages not run; not judged/),
    });
    expect(
      judged([
        { name: 'a', failed: ['forward/m/f64'], reached: true, targeted: true },
        { name: 'h', failed: [], reached: false, targeted: true },
      ]).line,
    ).toContain('1 not reached by the chosen models: h');
    expect(
      judged([
        { name: 'a', failed: [], reached: true, targeted: true },
        { name: 'b', failed: [], reached: false, targeted: false },
      ]),
    ).toMatchObject({ pass: false, line: expect.stringContaining('NOT caught: a') });
    expect(judged([{ name: 'b', failed: [], reached: false, targeted: false }])).toMatchObject({
      pass: false,
      line: expect.stringContaining('none judged, so the run cannot pass'),
    });
    expect(judged([])).toMatchObject({ pass: false });
  });

  it('--stage collision alone is judged on the bugs its gates target, catches them all and passes', async () => {
    // Dynamics bugs move the poses that the collision stage and its exact reference share, so they
    // changed values this stage compares; they are not judged here (their stages did not run).
    const r = await runSuite({ stages: new Set(['collision']), states: 4, bugStates: 4, seed: 1, python: 'python3', bugs: true });
    const collisionBugs = Object.entries(BUG_TARGETS)
      .filter(([, s]) => s.includes('collision'))
      .map(([b]) => b);
    expect(
      r.bugs
        .filter((b) => b.reached)
        .map((b) => b.name)
        .sort(),
    ).toEqual([...collisionBugs].sort());
    for (const b of r.bugs.filter((x) => x.reached))
      expect(
        b.failed.some((k) => k.startsWith('collision/')),
        b.name,
      ).toBe(true);
    for (const name of ['hinge-sign', 'gravity-sign', 'free-quaternion-world-frame'])
      expect(r.bugs.find((b) => b.name === name)).toMatchObject({ reached: false, targeted: false });
    expect(runPasses(r)).toBe(true);
    const others = r.bugs.length - collisionBugs.length;
    expect(bugVerdict(r)).toMatch(
      new RegExp(`^planted bugs: ${collisionBugs.length}/${collisionBugs.length} caught \\(${others} others target stages not run`),
    );
    expect(summarize(r).every((g) => g.bugsJudged === collisionBugs.length)).toBe(true);
  }, 600_000);

  it('an unknown --model is a usage error listing the models', async () => {
    await expect(validateCommand.run([], { model: ['nope', 'arm7'] })).rejects.toThrow(
      /--model: 'nope' is not a model of the suite \(models: arm7, .*double-pendulum, humanoid-tree/,
    );
  });

  it('the command prints the JSON shape and writes the report', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'achilles-validate-')), 'report');
    let text = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((text += String(s)), true));
    let code: number;
    try {
      code = await validateCommand.run([], {
        stage: 'forward',
        model: ['arm7', 'double-pendulum'],
        states: 64,
        'bug-states': 4,
        json: true,
        out,
      });
    } finally {
      spy.mockRestore();
    }
    const j = JSON.parse(text) as {
      stages: Record<string, unknown>[];
      bugs: { name: string; caught: boolean; stages: string[] }[];
      pass: boolean;
    };
    expect(Object.keys(j.stages[0]).sort()).toEqual([
      'bugsCaught',
      'bugsJudged',
      'bugsPlanted',
      'compared',
      'model',
      'precision',
      'skipped',
      'stage',
      'status',
      'worstRatio',
    ]);
    expect(Number(j.stages[0].compared) + Number(j.stages[0].skipped)).toBe(64); // arm7 f32: 64 states of qacc
    // Every planted bug is listed with whether it was caught and by which stages.
    expect(j.bugs.length).toBe(j.stages[0].bugsPlanted);
    for (const b of j.bugs) expect(b.caught).toBe(b.stages.length > 0);
    expect(j.bugs.filter((b) => b.caught).every((b) => b.stages.every((s) => s === 'forward'))).toBe(true);
    expect(j.stages.every((s) => s.stage === 'forward' && s.status === 'PASS')).toBe(true);
    const planted = bugAddon().plantedBugs!().length + SENSOR_BUGS.length + PARAMETER_BUGS.length; // native + TypeScript (sensors, parameters)
    expect(j.stages[0].bugsPlanted).toBe(planted);
    // forward alone never runs the integrators: the subset is judged on the bugs its stage targets, and says which it is not.
    const bugs = (
      j as unknown as { bugSummary: { planted: number; reached: number; caught: number; notReached: string[]; notTargeted: string[] } }
    ).bugSummary;
    expect(bugs.notReached).toEqual(expect.arrayContaining(['rk4-weight', 'verlet-stale-acceleration', 'torque-one-step-late']));
    expect(bugs.notTargeted).toEqual(expect.arrayContaining(['rk4-weight', 'verlet-stale-acceleration', 'torque-one-step-late']));
    expect(bugs.notReached).not.toContain('gravity-sign');
    expect(bugs.reached + bugs.notReached.length).toBe(planted);
    expect(bugs.caught).toBe(bugs.reached);
    expect(j.stages.every((s) => s.bugsJudged === bugs.reached)).toBe(true);
    expect(j.pass).toBe(true);
    expect(code).toBe(0);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/rk4-weight +\| not judged: its target stages did not run/);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('| forward');
    expect(existsSync(join(out, 'forward.csv'))).toBe(true);
    expect(existsSync(join(out, 'forward-f32-error-vs-bar.svg'))).toBe(true);
  });
});
