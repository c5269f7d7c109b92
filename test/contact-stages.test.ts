// The contact stages' own logic, on MuJoCo's data (no solver needed): row blocks matched by owner
// and point whatever their order; an engine that answers exactly like MuJoCo passes every gate, in
// float32 too (MuJoCo's answers stored in float32 stay within the measured floors); and each
// planted-bug-like mistake (a tangent frame that differs, R dropped, a_ref's damping sign, a
// limit's sign, a missing contact, a first Newton step elsewhere, PGS's sweeps elsewhere) fails the gate it must.
import { describe, expect, test } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import type { EngineConstraintAnswer, RowBlock } from '../src/validation/contact/engine.js';
import {
  contactStateReferences,
  contactStateRows,
  matchBlocks,
  mujocoBlocks,
  type ContactStateReference,
} from '../src/validation/contact/per-state.js';
import { distanceToRange, dominoTwinStarts, nudgeUlps, tipTimes } from '../src/validation/contact/trajectory.js';
import { sceneModel } from '../src/validation/contact/exact.js';
import { mujocoRollout } from '../src/validation/contact/mujoco.js';

const PY = process.env.ACHILLES_PYTHON || 'python3';
let refs: ContactStateReference[] = [];

/** An "engine" that returns MuJoCo's own answers, changed by `mutate`. */
const fake =
  (ref: ContactStateReference, mutate: (b: RowBlock) => RowBlock = (b) => b, f32 = false) =>
  (): EngineConstraintAnswer[] =>
    ref.mujoco.map((a) => {
      const r = (x: number) => (f32 ? Math.fround(x) : x);
      const blocks = mujocoBlocks(a)
        .reverse()
        .map(mutate)
        .map((b) => ({ ...b, dist: b.dist.map(r), J: b.J.map((row) => row.map(r)), aref: b.aref.map(r), R: b.R.map(r) }));
      return {
        blocks,
        qacc: a.cg.qacc.map(r),
        qaccConverged: a.newton.qacc.map(r),
        qaccNewton1: a.newton1.qacc.map(r),
        qaccPgs: a.pgs.qacc.map(r),
      };
    });

const run = (ref: ContactStateReference, precision: 'f32' | 'f64', engine: ReturnType<typeof fake>) =>
  contactStateRows(ref, precision, engineAddon(), ref.states.length, engine).rows;
const failed = (rows: ReturnType<typeof run>) => [...new Set(rows.filter((r) => r.status === 'fail').map((r) => r.field))].sort();

describe('contact stage on MuJoCo data', () => {
  test('references: the models have rows of every kind (limits, pyramid and frictionless contacts)', async () => {
    refs = await contactStateReferences(PY, 1, 8);
    const types = new Set(refs.flatMap((r) => r.mujoco.flatMap((a) => a.efc.type)));
    expect([...types].sort()).toEqual([3, 5, 6]);
    for (const r of refs) expect(r.twins.every((t) => t.length === 4)).toBe(true);
  }, 60_000);

  test('blocks are matched by owner and point, whatever the order', () => {
    const blocks = mujocoBlocks(refs[0].mujoco[0]);
    expect(blocks.length).toBeGreaterThan(2);
    const m = matchBlocks(blocks, [...blocks].reverse());
    expect(m.unmatched).toBe(0);
    m.pairs.forEach(([a, b]) => expect(a).toBe(b));
    expect(matchBlocks(blocks, blocks.slice(1)).unmatched).toBe(1);
  });

  test("MuJoCo's own answers pass every gate, in f64 and stored in float32", () => {
    for (const ref of refs) {
      expect(failed(run(ref, 'f64', fake(ref)))).toEqual([]);
      expect(failed(run(ref, 'f32', fake(ref, undefined, true)))).toEqual([]);
    }
  });

  test('each mistake fails its gate', () => {
    const [balls, arm] = ['contact-balls', 'contact-arm'].map((n) => refs.find((r) => r.model.name === n)!);
    // a tangent frame turned by 90° about the normal: the sliding edges' J change (torsional and rolling edges kept)
    const turned = (b: RowBlock): RowBlock => (b.type === 6 ? { ...b, J: [b.J[2], b.J[3], b.J[1], b.J[0], ...b.J.slice(4)] } : b);
    expect(failed(run(balls, 'f64', fake(balls, turned)))).toContain('rows.J');
    const noR = (b: RowBlock): RowBlock => ({ ...b, R: b.R.map(() => 1e-15) });
    expect(failed(run(balls, 'f64', fake(balls, noR)))).toContain('rows.R');
    const damping = (b: RowBlock): RowBlock => ({ ...b, aref: b.aref.map((x) => -x) });
    expect(failed(run(balls, 'f64', fake(balls, damping)))).toContain('rows.aref');
    const limitSign = (b: RowBlock): RowBlock => (b.type === 3 ? { ...b, J: b.J.map((r) => r.map((x) => -x)) } : b);
    expect(failed(run(arm, 'f64', fake(arm, limitSign)))).toContain('rows.structure');
    const dropContacts = (b: RowBlock): RowBlock => (b.type === 6 ? { ...b, name: 'nothing' } : b);
    expect(failed(run(balls, 'f64', fake(balls, dropContacts)))).toContain('rows.structure');
    // a first Newton step that lands elsewhere (here: on the converged answer, as a Newton step with a
    // wrong Hessian still gets there in the end): qacc.newton1 tells it, qacc does not
    const converged = () => fake(balls)().map((a) => ({ ...a, qaccNewton1: a.qaccConverged }));
    expect(failed(run(balls, 'f64', converged))).toEqual(['qacc.newton1']);
    // PGS's 20 sweeps taken to the optimum instead (a sweep in another order lands elsewhere too): qacc.pgs tells it
    const pgsConverged = () => fake(balls)().map((a) => ({ ...a, qaccPgs: a.qaccConverged }));
    expect(failed(run(balls, 'f64', pgsConverged))).toEqual(['qacc.pgs']);
  });

  test('an engine without constraint rows fails the stage with the reason', () => {
    const none = () => {
      throw new Error('the native engine exposes no constraint rows');
    };
    const rows = contactStateRows(refs[0], 'f64', engineAddon(), 8, none).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('fail');
    expect(rows[0].note).toMatch(/constraint rows/);
  });

  test("the engine's own rows and converged accelerations pass in f64 (Batch.constraints)", () => {
    for (const ref of refs) expect(failed(contactStateRows(ref, 'f64', engineAddon()).rows)).toEqual([]);
  });
});

describe("the domino scene's stated MuJoCo tip times", () => {
  test('every domino tips, in order, at the times the scene file states', async () => {
    const m = sceneModel('domino-amplifier');
    const steps = Math.round(m.world.duration / m.world.dt);
    const r = await mujocoRollout(PY, m, { steps });
    const { tip, rest } = tipTimes(
      r.qpos,
      r.qpos.map((_, k) => (k + 1) * m.world.dt),
      10,
    );
    const stated = [0.4, 0.69, 1.04, 1.47, 2.0, 2.65, 3.4, 4.43, 5.66, 6.05];
    tip.forEach((t, b) => expect(Math.abs(t - stated[b])).toBeLessThan(0.006));
    rest.slice(0, 9).forEach((a) => expect(Math.abs(a - 78)).toBeLessThan(1));
    expect(rest[9]).toBeCloseTo(90, 1);
  }, 60_000);
});

describe("the domino gates' range from MuJoCo's round-off twins", () => {
  test('a nudge is one unit in the last place, of a double or a float, either sign', () => {
    for (const x of [0.005314, -0.25, 1.5]) {
      expect(nudgeUlps(x, 1)).toBeGreaterThan(x);
      expect(nudgeUlps(nudgeUlps(x, 1), -1)).toBe(x);
      expect(nudgeUlps(x, 1) - x).toBeLessThan(Math.abs(x) * 2.3e-16);
      const f = Math.fround(x);
      const up = nudgeUlps(f, 1, true);
      expect(up).toBe(Math.fround(up)); // still a float
      expect(up - f).toBeGreaterThan(0);
      expect(up - f).toBeLessThan(Math.abs(f) * 1.2e-7);
    }
  });
  test('twins differ from the start in one coordinate each, and from each other', () => {
    const m = sceneModel('domino-amplifier');
    const starts = dominoTwinStarts(m, 12);
    expect(starts).toHaveLength(13);
    const keys = new Set(starts.map((s) => s.qpos.join(',')));
    expect(keys.size).toBe(13);
    for (const s of starts.slice(1)) expect(s.qpos.filter((x, k) => x !== starts[0].qpos[k])).toHaveLength(1);
    const f32 = dominoTwinStarts(m, 4, true);
    for (const s of f32) expect(s.qpos.every((x) => x === Math.fround(x))).toBe(true);
  });
  test('the distance to the range is 0 inside it and grows outside; a run that never tips agrees only with one that never does', () => {
    expect(distanceToRange(5.5, [5.4, 5.7, 5.6])).toBe(0);
    expect(distanceToRange(5.3, [5.4, 5.7])).toBeCloseTo(0.1, 12);
    expect(distanceToRange(5.9, [5.4, 5.7])).toBeCloseTo(0.2, 12);
    expect(distanceToRange(Infinity, [5.4, 5.7])).toBe(Infinity);
    expect(distanceToRange(Infinity, [5.4, Infinity])).toBe(0);
    expect(distanceToRange(6, [Infinity])).toBe(Infinity);
  });
});
