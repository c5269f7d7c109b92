// MuJoCo's noslip post-solve (option noslip_iterations, native constraint/solver/noslip.hpp) against MuJoCo 3.14 per
// state: the constrained q̈ and every row's force after each solver (Newton, CG, PGS) under the pyramid and
// after Newton and CG under the elliptic cone, on the import fixtures mjcf-noslip.xml and
// mjcf-noslip-elliptic.xml at states where their bodies rest on the tilted plane and on each other (sliding
// and sticking: src/validation/import/resting-states.ts); the planted bug caught; bit-identical results in
// every lane width and thread count.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Precision } from '../src/engine/api.js';
import { Batch } from '../src/engine/batch.js';
import { withSolver, type ModelDesc, type SolverMethod } from '../src/engine/model-desc.js';
import { bugAddon, type ConstraintRow, type NativeAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { restingStates } from '../src/validation/import/resting-states.js';
import type { TestState } from '../src/validation/states.js';
import { expectSameAcrossLanesAndThreads } from './helpers/lanes.js';
import { execFileAsync } from './helpers/spawn-async.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/import/${name}`, import.meta.url));
const PYRAMID = fixture('mjcf-noslip.xml');
const ELLIPTIC = fixture('mjcf-noslip-elliptic.xml');
const STATES = 12;

interface Run {
  solver: SolverMethod;
  iterations: number;
  tolerance: number;
}
/** Newton to convergence and PGS at 20 sweeps and MuJoCo's tolerance: the same iterates on both sides. CG:
 *  under the pyramid run to convergence (tolerance 0) against MuJoCo's converged Newton (the engine's line
 *  search stops at its piece's exact minimum where MuJoCo's stops at ls_tolerance, so their CG iterates
 *  differ while the optimum is the same: 2.2e-6 apart after 100 iterations); under the elliptic cone, whose
 *  optimum CG approaches slowly in both engines (stalling ~1e-6 short, at different points), 100 iterations
 *  against MuJoCo's 100 (the same line search there: 6.7e-14 apart). */
const NEWTON: Run = { solver: 'newton', iterations: 200, tolerance: 1e-14 };
const CG_CONVERGED: Run = { solver: 'cg', iterations: 5000, tolerance: 0 };
const CG: Run = { solver: 'cg', iterations: 100, tolerance: 0 };
const PGS: Run = { solver: 'pgs', iterations: 20, tolerance: 1e-8 };

interface MjAnswer {
  qacc: number[];
  force: number[];
  J: number[][];
  /** each row's constraint (efc_type:efc_id): a contact's rows share it */
  block: string[];
  qacc_plain: number[];
}

/** Rows grouped into blocks of consecutive rows with the same key: [first row, count]. */
function blocks(keys: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  keys.forEach((k, i) => (i > 0 && k === keys[i - 1] ? out[out.length - 1][1]++ : out.push([i, 1])));
  return out;
}

/** max |Δf| / max(1, |f|) over the rows, a contact point's rows compared as a block in order, the blocks
 *  matched by their first row's J (a point's torsional rows share one J: matched alone they are ambiguous). */
function forceError(ours: readonly ConstraintRow[], mj: MjAnswer): number {
  const key = (r: ConstraintRow) => (r.kind === 'contact' ? `c${r.id}:${r.point}` : `${r.kind}${r.id}:${r.side ?? r.dof ?? r.row ?? 0}`);
  const mjBlocks = blocks(mj.block);
  const free = new Set(mjBlocks.map((_, i) => i));
  let worst = 0;
  for (const [at, n] of blocks(ours.map(key))) {
    let best = -1;
    let err = Infinity;
    for (const i of free) {
      if (mjBlocks[i][1] !== n) continue;
      const e = Math.max(...mj.J[mjBlocks[i][0]].map((x, c) => Math.abs(x - ours[at].J[c])));
      if (e < err) ((err = e), (best = i));
    }
    if (best < 0) return Infinity;
    free.delete(best);
    for (let k = 0; k < n; k++) {
      const f = mj.force[mjBlocks[best][0] + k];
      worst = Math.max(worst, Math.abs(f - ours[at + k].force) / Math.max(1, Math.abs(f)));
    }
  }
  return worst;
}

async function mujocoNoslip(path: string, states: readonly TestState[], runs: readonly Run[]): Promise<MjAnswer[][]> {
  const script = fileURLToPath(new URL('./helpers/noslip_ref.py', import.meta.url));
  const req = { xml: path, states: states.map((s) => ({ qpos: s.q, qvel: s.v, tau: s.tau })), runs };
  return (JSON.parse(await execFileAsync('python3', [script], { input: JSON.stringify(req) })) as { states: MjAnswer[][] }).states;
}

interface Worst {
  /** max |Δq̈| / max(1, |q̈|) over the states */
  qacc: number;
  /** max |Δf| / max(1, |f|) over the rows (matched by J) and states */
  force: number;
  /** how much noslip moved MuJoCo's q̈ (the same measure): the check is only as good as this is large */
  effect: number;
}

/** Our answer with `run` (noslip after it) against MuJoCo's `ref` (one answer per state). */
function compare(
  model: ModelDesc,
  states: readonly TestState[],
  ref: readonly MjAnswer[],
  run: Run,
  precision: Precision = 'f64',
  addon?: NativeAddon,
): Worst {
  const b = new Batch(withSolver(model, run.solver, run.tolerance, run.iterations), { copies: states.length, precision }, addon);
  states.forEach((s, r) => b.setRobot(r, s));
  const w: Worst = { qacc: 0, force: 0, effect: 0 };
  states.forEach((_, r) => {
    const mj = ref[r];
    const ours = b.constraints(r, { iterations: run.iterations, warm: false });
    const scale = Math.max(1, ...mj.qacc.map(Math.abs));
    mj.qacc.forEach((x, k) => {
      w.qacc = Math.max(w.qacc, Math.abs(x - ours.qacc[k]) / scale || (Number.isNaN(ours.qacc[k]) ? Infinity : 0));
      w.effect = Math.max(w.effect, Math.abs(x - mj.qacc_plain[k]) / scale);
    });
    if (ours.rows.length !== mj.J.length) throw new Error(`state ${r}: ${ours.rows.length} rows, MuJoCo ${mj.J.length}`);
    w.force = Math.max(w.force, forceError(ours.rows, mj));
  });
  return w;
}

/** f64 bars, a few times the worst measured over the cases (q̈ 1.2e-13 relative, forces 6.1e-11, both from the pyramid
 *  after converged CG): round-off through the solve and noslip's sweeps. */
const F64 = { qacc: 1e-12, force: 1e-9 };
/** MuJoCo's q̈ must move by at least this much under noslip at the states (else the check proves nothing). */
const EFFECT = 1e-3;

/** Per fixture MuJoCo's runs and ours, each ours with the index of its MuJoCo run (PGS takes the pyramid only). */
const cases: { name: string; path: string; runs: Run[]; ours: [Run, number][] }[] = [
  {
    name: 'pyramid',
    path: PYRAMID,
    runs: [NEWTON, PGS],
    ours: [
      [NEWTON, 0],
      [CG_CONVERGED, 0],
      [PGS, 1],
    ],
  },
  {
    name: 'elliptic cone',
    path: ELLIPTIC,
    runs: [NEWTON, CG],
    ours: [
      [NEWTON, 0],
      [CG, 1],
    ],
  },
];

const model = (path: string) => importFile(path, { keyframe: '0' }).model;

describe('noslip after each solver vs MuJoCo (per state, f64)', () => {
  const refs: MjAnswer[][][] = [];
  const models = cases.map((c) => model(c.path));
  const states = models.map((m, k) => restingStates(m, STATES, 17 + k));
  beforeAll(async () => {
    refs.push(...(await Promise.all(cases.map((c, k) => mujocoNoslip(c.path, states[k], c.runs)))));
  }, 120_000);

  cases.forEach((c, k) =>
    c.ours.forEach(([run, at]) =>
      it(`${c.name}, ${run.solver} then noslip: q̈ and row forces as MuJoCo's`, () => {
        const w = compare(
          models[k],
          states[k],
          refs[k].map((s) => s[at]),
          run,
        );
        console.log(`noslip ${c.name} ${run.solver} (f64)`, JSON.stringify(w));
        expect(w.effect).toBeGreaterThan(EFFECT);
        expect(w.qacc).toBeLessThan(F64.qacc);
        expect(w.force).toBeLessThan(F64.force);
      }),
    ),
  );

  it('the planted bug noslip-skips-friction-rows (bug build) fails the bars', () => {
    const bugs = bugAddon();
    try {
      bugs.setBug!('noslip-skips-friction-rows');
      const w = compare(
        models[0],
        states[0],
        refs[0].map((s) => s[0]),
        NEWTON,
        'f64',
        bugs,
      );
      console.log('noslip-skips-friction-rows (f64)', JSON.stringify(w));
      expect(w.qacc).toBeGreaterThan(F64.qacc);
    } finally {
      bugs.setBug!('none');
    }
    // and without the bug the bug build passes
    const w = compare(
      models[0],
      states[0],
      refs[0].map((s) => s[0]),
      NEWTON,
      'f64',
      bugs,
    );
    expect(w.qacc).toBeLessThan(F64.qacc);
  });
});

describe('noslip: bit-identical in every lane width and thread count', () => {
  for (const [name, path, method] of [
    ['pyramid, Newton', PYRAMID, 'newton'],
    ['pyramid, PGS', PYRAMID, 'pgs'],
    ['elliptic cone, CG', ELLIPTIC, 'cg'],
  ] as const) {
    it(`${name}: 11 robots from different resting states, 150 steps, f32 and f64`, () => {
      const m = model(path);
      const s = withSolver(m, method, 1e-8, 30);
      const starts = restingStates(m, 11, 99);
      expectSameAcrossLanesAndThreads(s, (r) => starts[r], 11, 150);
    });
  }
});
