// MuJoCo's fluid forces (issue 52): the inertia-box and ellipsoid models (native passive/fluid.hpp,
// imported by src/model-files/import/fluid.ts) against live MuJoCo per state, on the import fixtures
// and on Gymnasium's Swimmer-v5; the same bits at every lane width and thread count; what the
// importer refuses. The import stage (validate --stage import) runs the same fixtures per state and
// over a short trajectory in f64 and f32, and catches the planted fluid bugs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import type { Precision } from '../src/engine/api.js';
import { Batch } from '../src/engine/batch.js';
import { coordinateLayout, type ModelDesc } from '../src/engine/model-desc.js';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf } from '../src/model-files/scene/mjcf-writer.js';
import { unwritten } from '../src/model-files/scene/arow-writer.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';
import { Rng } from '../src/validation/rng.js';
import { spawnAsync } from './helpers/spawn-async.js';
import { expectSameAcrossLanesAndThreads } from './helpers/lanes.js';

const RK4_FIXTURE = join(FIXTURE_DIR, 'mjcf-fluid.xml');
const EULER_FIXTURE = join(FIXTURE_DIR, 'mjcf-fluid-euler.xml');
const SWIMMER = join(
  execFileSync('python3', ['-c', 'import gymnasium, os; print(os.path.dirname(gymnasium.__file__))'], { encoding: 'utf8' }).trim(),
  'envs',
  'mujoco',
  'assets',
  'swimmer.xml',
);
const dir = mkdtempSync(join(tmpdir(), 'achilles-fluid-'));

interface State {
  qpos: number[];
  qvel: number[];
}
interface MjAnswer {
  qacc: number[];
  qM: number[][];
  qfrc_bias: number[];
  qfrc_fluid: number[];
  qacc_still: number[];
}

/** Random states in the model's layout: hinges and slides in ±2, free and ball joints at unit
 *  quaternions, velocities in ±3 (the fluid's quadratic terms well away from zero). */
function states(model: ModelDesc, n: number, seed: number): State[] {
  const rng = new Rng(seed);
  const u = (): number => 2 * rng.next() - 1;
  const quat = (): number[] => {
    const q = [u(), u(), u(), u()];
    const k = Math.hypot(...q);
    return q.map((x) => x / k);
  };
  const { nv } = coordinateLayout(model.bodies);
  return Array.from({ length: n }, () => ({
    qpos: model.bodies.flatMap((b) =>
      b.joint === 'revolute' || b.joint === 'prismatic'
        ? [2 * u()]
        : b.joint === 'ball'
          ? quat()
          : b.joint === 'free'
            ? [u(), u(), u(), ...quat()]
            : [],
    ),
    qvel: Array.from({ length: nv }, () => 3 * u()),
  }));
}

/** MuJoCo's mj_forward of the file at each state, constraints off (the engine's forwardUnconstrained):
 *  q̈, M, the bias and fluid forces, and q̈ with the fluid switched off (density = viscosity = 0). */
async function mujoco(path: string, ss: State[]): Promise<MjAnswer[]> {
  const script = `
import sys, json, mujoco, numpy as np
req = json.loads(sys.stdin.read())
m = mujoco.MjModel.from_xml_path(req['path'])
m.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_CONSTRAINT)
d = mujoco.MjData(m)
out = []
for s in req['states']:
    d.qpos[:] = s['qpos']; d.qvel[:] = s['qvel']; d.ctrl[:] = 0; d.act[:] = 0
    mujoco.mj_forward(m, d)
    M = np.zeros((m.nv, m.nv)); mujoco.mj_fullM(m, d, M)
    r = {'qacc': d.qacc.tolist(), 'qM': M.tolist(), 'qfrc_bias': d.qfrc_bias.tolist(), 'qfrc_fluid': d.qfrc_fluid.tolist()}
    rho, mu = m.opt.density, m.opt.viscosity
    m.opt.density = 0; m.opt.viscosity = 0
    mujoco.mj_forward(m, d)
    r['qacc_still'] = d.qacc.tolist()
    m.opt.density = rho; m.opt.viscosity = mu
    out.append(r)
print(json.dumps(out))
`;
  const py = await spawnAsync('python3', ['-c', script], { input: JSON.stringify({ path, states: ss }) });
  expect(py.status, py.stderr).toBe(0);
  return JSON.parse(py.stdout) as MjAnswer[];
}

/** The engine's q̈ at each state (forward dynamics, constraints off). */
function engineQacc(model: ModelDesc, ss: State[], precision: Precision): number[][] {
  const b = new Batch(model, { copies: ss.length, precision }, undefined);
  ss.forEach((s, r) => b.setRobot(r, { q: s.qpos, v: s.qvel }));
  b.forwardUnconstrained();
  return ss.map((_, r) => Array.from({ length: b.nv }, (_, k) => b.qacc[k * b.stride + r]));
}

/** ‖M (q̈ − q̈_MuJoCo)‖∞ over the forces that make q̈ (‖M q̈_MuJoCo‖∞, ‖bias‖∞, ‖qfrc_fluid‖∞): the
 *  import stage's force residual, at round-off for a right model whatever M's conditioning. */
function residual(qacc: number[], mj: MjAnswer, reference = mj.qacc): number {
  let err = 0;
  let scale = 1e-300;
  qacc.forEach((_, i) => {
    let d = 0;
    let f = 0;
    mj.qM[i].forEach((Mij, j) => {
      d += Mij * (qacc[j] - reference[j]);
      f += Mij * reference[j];
    });
    err = Math.max(err, Math.abs(d));
    scale = Math.max(scale, Math.abs(f), Math.abs(mj.qfrc_bias[i]), Math.abs(mj.qfrc_fluid[i]));
  });
  return err / scale;
}

const MODELS = [
  { name: 'mjcf-fluid.xml (RK4: boxes, ellipsoids, wind)', path: RK4_FIXTURE },
  { name: 'mjcf-fluid-euler.xml (Euler: a damped swimming chain)', path: EULER_FIXTURE },
  { name: "Gymnasium's swimmer.xml (Swimmer-v5)", path: SWIMMER },
];

describe('fluid forces against MuJoCo', () => {
  for (const m of MODELS) {
    test(`per-state q̈ of ${m.name}: f64 to round-off, f32 to its precision, and the fluid is a large part of it`, async () => {
      const model = importFile(m.path).model;
      expect(model.fluid?.bodies.length ?? 0).toBeGreaterThan(0);
      const ss = states(model, 16, 52);
      const mj = await mujoco(m.path, ss);
      const f64 = engineQacc(model, ss, 'f64').map((q, i) => residual(q, mj[i]));
      const f32 = engineQacc(model, ss, 'f32').map((q, i) => residual(q, mj[i]));
      // how much the fluid changes q̈ (in the same force measure): far above both bars
      const share = ss.map((_, i) => residual(mj[i].qacc_still, mj[i]));
      console.log(
        `${m.name}: f64 max ${Math.max(...f64).toExponential(2)}, f32 max ${Math.max(...f32).toExponential(2)}, fluid share min ${Math.min(...share).toExponential(2)}`,
      );
      expect(Math.max(...f64)).toBeLessThan(1e-12);
      expect(Math.max(...f32)).toBeLessThan(1e-4);
      expect(Math.min(...share)).toBeGreaterThan(1e-3);
    });
  }

  test("a thin plate moving slowly: no mjMINVAL floor on the projection sums (MuJoCo 3.14's Kutta lift and projected area), none below |v| = 1e-15", async () => {
    // Σ s⁴v² of this plate is ~1e-13 v²: the 3.12 source's floor (1e-15) changed its Kutta lift by 100 % at 0.1 m/s
    const path = join(dir, 'plate.xml');
    writeFileSync(
      path,
      '<mujoco><option density="1000" viscosity="0.001"/><worldbody><body><freejoint/>' +
        '<geom type="ellipsoid" size="0.02 0.002 0.03" fluidshape="ellipsoid" fluidcoef="0.5 0.25 1.5 2 1"/></body></worldbody></mujoco>',
    );
    const model = importFile(path).model;
    const ss = states(model, 12, 11).map((s, i) => ({ qpos: s.qpos, qvel: s.qvel.map((x) => x * 10 ** -(i % 6)) }));
    const mj = await mujoco(path, ss);
    const err = engineQacc(model, ss, 'f64').map((q, i) => residual(q, mj[i]));
    expect(Math.max(...err)).toBeLessThan(1e-12);
  });

  test('the same bits at every lane width and thread count (f32, f64)', () => {
    for (const path of [RK4_FIXTURE, EULER_FIXTURE]) {
      const model = importFile(path, { keyframe: '0' }).model;
      const ss = states(model, 11, 7);
      expectSameAcrossLanesAndThreads(model, (r) => ({ q: ss[r].qpos, v: ss[r].qvel }), 11, 100);
    }
  });
});

describe('fluid settings in and out', () => {
  const file = (option: string, geom = ''): string => {
    const f = join(dir, `m${Math.random().toString(36).slice(2)}.xml`);
    writeFileSync(
      f,
      `<mujoco>\n  <option ${option}/>\n  <worldbody>\n    <body>\n      <freejoint/>\n      <geom size="0.1" ${geom}/>\n    </body>\n  </worldbody>\n</mujoco>\n`,
    );
    return f;
  };
  const error = (f: string): string => {
    try {
      importFile(f);
    } catch (e) {
      return (e as Error).message;
    }
    return '(no error)';
  };

  test('a negative density or viscosity is refused at its attribute (MuJoCo takes it silently)', () => {
    expect(error(file('density="-1"'))).toMatch(/:2:11: .*option density.*-1.*a density >= 0/s);
    expect(error(file('viscosity="-0.5"'))).toMatch(/:2:11: .*option viscosity.*a viscosity >= 0/s);
    expect(error(file('wind="1 nan 0"'))).toMatch(/:2:11: .*option wind/s);
  });

  test('fluidshape takes none or ellipsoid, fluidcoef 1 to 5 finite numbers (over the defaults, as MuJoCo)', () => {
    expect(error(file('density="1"', 'fluidshape="box"'))).toMatch(/fluidshape/);
    expect(error(file('density="1"', 'fluidshape="ellipsoid" fluidcoef="1 nan"'))).toMatch(/fluidcoef.*a finite number/s);
    expect(error(file('density="1"', 'fluidshape="ellipsoid" fluidcoef="1 2 3 4 5 6"'))).toMatch(/fluidcoef.*1 to 5 numbers/s);
    const m = importFile(file('density="1"', 'fluidshape="ellipsoid" fluidcoef="1 2"')).model;
    expect(m.fluid!.bodies[0].ellipsoids![0].coef).toEqual([1, 2, 1.5, 1, 1]);
  });

  test('implicit and implicitfast with fluid forces are refused at the integrator (their qDeriv would need the fluid derivatives)', () => {
    expect(error(file('density="1" integrator="implicitfast"'))).toMatch(/:2:23: .*option integrator.*Euler or RK4/s);
    expect(error(file('viscosity="1" integrator="implicit"'))).toMatch(/option integrator/);
    // the engine refuses it too (a model whose integrator is changed after import)
    const m = importFile(file('density="1"')).model;
    expect(() => new Batch({ ...m, world: { ...m.world, integrator: 'implicitfast' } }, { copies: 1 })).toThrow(
      /fluid forces.*euler or rk4/,
    );
  });

  test('no density and no viscosity, or spring and damper both disabled: no fluid (as mj_passive)', () => {
    expect(importFile(file('wind="1 0 0"')).model.fluid).toBeUndefined();
    const f = join(dir, 'off.xml');
    writeFileSync(
      f,
      '<mujoco><option density="1"><flag spring="disable" damper="disable"/></option><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>',
    );
    expect(importFile(f).model.fluid).toBeUndefined();
  });

  test('the MJCF writer writes the fluid (MuJoCo reads back the same q̈); the .arow writer lists it as not written', async () => {
    const model = importFile(RK4_FIXTURE).model;
    const xml = join(dir, 'exported.xml');
    writeFileSync(xml, exportMjcf(model, { contacts: true }));
    const ss = states(model, 6, 3);
    const mj = await mujoco(xml, ss);
    const ours = engineQacc(model, ss, 'f64');
    expect(Math.max(...ours.map((q, i) => residual(q, mj[i])))).toBeLessThan(1e-12);
    expect(unwritten(model).map((n) => n.message)).toContainEqual(expect.stringMatching(/fluid forces .* not written to the \.arow/));
  });
});
