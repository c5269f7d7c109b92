// The collision stage's checks, seen to pass on right answers and to fail on each kind of planted
// mistake. The "engine" here is the exact reference itself (one point per pair), then mutated the
// way the planted native bugs mutate the real one; the real engine runs in validate.test.ts.

import { describe, expect, it } from 'vitest';
import { bugAddon, engineAddon, type NativeAddon } from '../src/engine/native.js';
import { exactContact } from '../src/validation/collision/exact.js';
import { add, scale } from '../src/validation/collision/geometry.js';
import {
  comboRefused,
  convexKindCombos,
  convexPairs,
  kindCombos,
  randomPairs,
  sweptKindCombos,
  type ShapePairCase,
} from '../src/validation/collision/pairs.js';
import { batchCheckReference, batchCheckRows } from '../src/validation/collision/batch-check.js';
import { filterRulesModel, mujocoCandidatePairs } from '../src/validation/collision/filter.js';
import {
  collisionReference,
  collisionRows,
  filterRows,
  pairFloors,
  type CollisionReference,
  type EnginePairResult,
} from '../src/validation/collision/stage.js';

const N = 280;
const pairs = randomPairs(N, 3);
const exact = pairs.map((p) => exactContact(p.a, p.poseA, p.b, p.poseB));
const ref: CollisionReference = {
  pairs,
  exact,
  floors: pairs.map((p, i) => pairFloors(p, exact[i], 3, i)),
  mujoco: pairs.map(() => undefined),
};

type Mutate = (p: ShapePairCase) => ShapePairCase;
type Answer = (p: ShapePairCase, margin: number) => EnginePairResult;

/** A fake addon answering with the exact contact of a (possibly mutated) pair. */
function fake(
  opts: { mutate?: Mutate; answer?: (r: EnginePairResult, p: ShapePairCase) => EnginePairResult; ignoreMargin?: boolean } = {},
): NativeAddon {
  const answer: Answer = (p0, margin) => {
    const p = opts.mutate ? opts.mutate(p0) : p0;
    const c = exactContact(p.a, p.poseA, p.b, p.poseB);
    const hit = opts.ignoreMargin ? c.dist < 0 : c.dist < margin;
    const r: EnginePairResult = hit
      ? { count: 1, normal: c.normal, points: [c.pos], dists: [c.dist] }
      : { count: 0, normal: [0, 0, 0], points: [], dists: [] };
    return opts.answer && hit ? opts.answer(r, p0) : r;
  };
  return {
    collideShapePairs: (ps: ShapePairCase[]) => ps.map((p) => answer(p, p.margin)),
  } as unknown as NativeAddon;
}

const failed = (addon: NativeAddon) => {
  const rows = collisionRows(ref, 'f64', addon);
  return [...new Set(rows.filter((r) => r.status === 'fail').map((r) => r.field))].sort();
};

describe('collision stage', () => {
  it('pairs cover every kind combination, from 0.35 overlapping to 0.3 apart', () => {
    expect(sweptKindCombos().length).toBe(14);
    expect(convexKindCombos().length).toBe(21);
    expect(kindCombos().length).toBe(35);
    const d = pairs.map((p, i) => exact[i].dist / p.size);
    expect(Math.min(...d)).toBeGreaterThanOrEqual(-0.35 - 1e-6);
    expect(Math.max(...d)).toBeLessThanOrEqual(0.3 + 1e-6);
    expect(new Set(pairs.map((p) => p.combo)).size).toBe(14);
    expect(pairs.some((p, i) => exact[i].dist >= p.margin)).toBe(true); // some must report nothing
  });

  it('right answers pass every field, in f64 and f32 (f32 bars from the measured floors)', () => {
    for (const prec of ['f64', 'f32'] as const) {
      const rows = collisionRows(ref, prec, fake());
      expect(rows.filter((r) => r.status === 'fail')).toEqual([]);
      const fields = new Set(rows.map((r) => r.field));
      for (const f of ['dist', 'detection', 'points.depth', 'normal.separation', 'normal.angle', 'point.deepest'])
        expect(fields).toContain(f);
    }
    const f32 = collisionRows(ref, 'f32', fake()).filter((r) => r.field === 'dist');
    expect(f32[0].bar).toBeGreaterThan(1e-9); // a float32 floor, measured
    expect(f32[0].bar).toBeLessThan(1e-5);
  });

  it('an engine without a narrow phase fails the stage (never skipped)', () => {
    const rows = collisionRows(ref, 'f64', {} as NativeAddon);
    expect(rows.length).toBe(1);
    expect(rows[0].status).toBe('fail');
    expect(rows[0].note).toContain('collideShapePairs');
  });

  it('catches a flipped normal, a dropped radius, swapped box axes, an ignored margin, a point off the patch', () => {
    expect(failed(fake({ answer: (r) => ({ ...r, normal: scale(r.normal, -1) }) }))).toEqual(
      expect.arrayContaining(['normal.separation', 'normal.angle']),
    );
    expect(failed(fake({ mutate: (p) => ({ ...p, b: { ...p.b, radius: 0 } }) }))).toContain('dist');
    const swap: Mutate = (p) =>
      p.a.kind === 'box' ? { ...p, a: { ...p.a, halfExtents: [p.a.halfExtents[1], p.a.halfExtents[0], p.a.halfExtents[2]] } } : p;
    expect(failed(fake({ mutate: swap }))).toContain('dist');
    expect(failed(fake({ ignoreMargin: true }))).toContain('detection');
    // A second manifold point pushed out of the patch: its witnesses a full size away from both shapes.
    const offPatch = (r: EnginePairResult, p: ShapePairCase): EnginePairResult => {
      const side = Math.abs(r.normal[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
      const far = add(r.points[0], scale(side, 10 * p.size));
      return { ...r, count: 2, points: [r.points[0], far], dists: [r.dists[0], r.dists[0] + 1e-3 * p.size] };
    };
    expect(failed(fake({ answer: offPatch }))).toContain('point.patch');
  });
});

describe('collision stage: cylinders, ellipsoids and convex hulls', () => {
  const cp = convexPairs(2, 4);
  const ce = cp.map((p) => exactContact(p.a, p.poseA, p.b, p.poseB));
  it('pairs of every combination the engine collides, from 0.35 overlapping to 0.3 apart; the refused ones named', () => {
    const supported = convexKindCombos().filter(([a, b]) => !comboRefused(a, b));
    expect(supported.length).toBe(18);
    expect(new Set(cp.map((p) => p.combo))).toEqual(new Set(supported.map(([a, b]) => `${a}/${b}`)));
    const d = cp.map((p, i) => ce[i].dist / p.size);
    expect(Math.min(...d)).toBeGreaterThanOrEqual(-0.35 - 1e-6);
    expect(Math.max(...d)).toBeLessThanOrEqual(0.3 + 1e-6);
    expect(
      convexKindCombos()
        .filter(([a, b]) => comboRefused(a, b))
        .map(([a, b]) => `${a}+${b}`),
    ).toEqual(['rounded-box+cylinder', 'rounded-box+ellipsoid', 'rounded-box+convex']);
    for (const p of cp.filter((q) => q.a.kind === 'convex' || q.b.kind === 'convex')) {
      const h = p.a.kind === 'convex' ? p.a : p.b;
      expect(h.vertices!.length / 3).toBeGreaterThanOrEqual(4);
      expect(h.vertices!.length / 3).toBeLessThanOrEqual(40);
    }
  });

  it('right answers pass; a flipped normal and a distance off by 10 ccd_tolerance are caught', () => {
    const r: CollisionReference = {
      pairs: cp,
      exact: ce,
      floors: cp.map((p, i) => pairFloors(p, ce[i], 4, i)),
      mujoco: cp.map(() => undefined),
      refused: [{ combo: 'rounded-box+convex', why: 'none of MuJoCo’s geoms' }],
    };
    const rows = collisionRows(r, 'f64', fake());
    expect(rows.filter((x) => x.status === 'fail')).toEqual([]);
    expect(rows.find((x) => x.field === 'engine-refuses')?.status).toBe('skip');
    const flipped = collisionRows(r, 'f64', fake({ answer: (x) => ({ ...x, normal: scale(x.normal, -1) }) }));
    expect(flipped.some((x) => x.status === 'fail' && x.field === 'normal.angle' && x.model.includes('ellipsoid'))).toBe(true);
    const off = collisionRows(r, 'f64', fake({ answer: (x) => ({ ...x, dists: x.dists.map((d) => d + 1e-5) }) }));
    expect(off.some((x) => x.status === 'fail' && x.field === 'dist' && x.model === 'box+ellipsoid')).toBe(true);
  });
});

describe('collision stage: pair filtering', () => {
  const model = filterRulesModel();
  const right = mujocoCandidatePairs(model);
  const addonWith = (pairs: [number, number][]) =>
    ({
      NativeBatch: class {
        candidatePairs() {
          return pairs.map(([a, b]) => ({ a, b }));
        }
      },
    }) as unknown as NativeAddon;
  const fails = (pairs: [number, number][]) =>
    filterRows([{ name: 'filter-rules', model }], 'f64', addonWith(pairs)).filter((r) => r.status === 'fail');

  it("passes MuJoCo's pairs in order; catches a kept, a dropped and a misordered pair", () => {
    expect(right.length).toBeGreaterThan(5);
    expect(fails(right)).toEqual([]);
    const kept = fails([...right, [2, 3]].sort((x, y) => x[0] - y[0] || x[1] - y[1]) as [number, number][]);
    expect(kept.map((r) => r.field)).toEqual(['candidate-pairs']);
    expect(kept[0].note).toContain('kept by the engine, dropped by MuJoCo');
    expect(fails(right.slice(1)).length).toBe(1);
    expect(fails([...right].reverse()).map((r) => r.field)).toEqual(['pair-order']);
  });

  it('an engine that lists no pairs fails', () => {
    const rows = filterRows([{ name: 'filter-rules', model }], 'f64', {
      NativeBatch: class {
        info() {
          return {};
        }
      },
    } as unknown as NativeAddon);
    expect(rows.map((r) => r.status)).toEqual(['fail']);
  });
});

describe('collision stage on the real engine', () => {
  it('f64: every gate passes; each planted collision bug fails a collision gate', async () => {
    const real = await collisionReference(process.env.ACHILLES_PYTHON || 'python3', 1, 280);
    const models = [{ name: 'filter-rules', model: filterRulesModel() }];
    const batch = batchCheckReference(5, 8);
    const gates = (addon: NativeAddon) => [
      ...collisionRows(real, 'f64', addon),
      ...filterRows(models, 'f64', addon),
      ...batchCheckRows(batch, 'f64', addon),
    ];
    const clean = gates(engineAddon());
    expect(clean.filter((r) => r.status === 'fail').map((r) => `${r.model} ${r.field} ${r.state} ${r.error}`)).toEqual([]);
    expect(clean.length).toBeGreaterThan(280 * 4);
    const bugs = bugAddon();
    const names = bugs.plantedBugs!().filter((n) => n.startsWith('collision-'));
    expect(names.length).toBe(7);
    try {
      for (const name of names) {
        bugs.setBug!(name);
        expect(
          gates(bugs).some((r) => r.status === 'fail'),
          name,
        ).toBe(true);
      }
    } finally {
      bugs.setBug!('none');
    }
    // MuJoCo answered every pair it can model (rounded boxes have no MuJoCo geom).
    expect(real.mujoco.filter(Boolean).length).toBe(
      real.pairs.filter((p) => p.a.kind !== 'rounded-box' && p.b.kind !== 'rounded-box').length,
    );
  });
});

describe('collision stage: the batch path', () => {
  it('batch.collide() at random states of the pile matches the exact reference in f64; an ignored margin is caught', () => {
    const ref = batchCheckReference(5, 8);
    const rows = batchCheckRows(ref, 'f64', engineAddon());
    expect(rows.filter((r) => r.status === 'fail')).toEqual([]);
    expect(rows.filter((r) => r.field === 'batch.dist').length).toBeGreaterThan(20);
    const bugs = bugAddon();
    try {
      bugs.setBug!('collision-margin-ignored');
      expect(batchCheckRows(ref, 'f64', bugs).some((r) => r.status === 'fail' && r.field === 'batch.detection')).toBe(true);
    } finally {
      bugs.setBug!('none');
    }
  });
});
