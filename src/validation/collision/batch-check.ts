// The batch path of detection (batch.collide(): shape poses from the state, broad phase, narrow
// phase into fixed slots) against the exact reference, on a pile of free bodies of every kind over
// a ground plane and a fixed box, at seeded random states. Every body is free, so each shape's world
// pose follows from q alone (X_WS = X_WB(q) · X_BS), computed here without the engine's kinematics.
// Per robot and candidate pair: detection (a slot is active iff the exact distance < the pair's
// summed margin + gap), the deepest active slot's distance, and the pair's normal where unique.

import { LANE_WIDTHS, type Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import type { BodyDesc, ModelDesc, ShapeDesc, ShapeKind, Vec3 } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { F32_FACTOR, F32_ILL_CONDITIONED } from '../metrics.js';
import { Rng, seedFor } from '../rng.js';
import type { CheckRow } from '../types.js';
import { exactContact, type ExactContact } from './exact.js';
import { add, angle, mulMV, rotation, shapeSize, type Pose, type V3 } from './geometry.js';
import type { ShapePairCase } from './pairs.js';
import { COLLISION_F64_BAR, pairFloors, type PairFloors } from './stage.js';

const KINDS: [ShapeKind, Vec3, number][] = [
  ['sphere', [0, 0, 0], 0.12],
  ['capsule', [0, 0, 0.12], 0.06],
  ['box', [0.1, 0.07, 0.05], 0],
  ['rounded-box', [0.08, 0, 0.05], 0.04],
  ['box', [0.04, 0.12, 0.08], 0],
];

/** Five free bodies (one shape each, offset and turned in the body frame), a ground plane and a
 *  box fixed to the world; margins on some shapes so separated pairs are reported too. */
export function pileModel(): ModelDesc {
  const bodies: BodyDesc[] = KINDS.map(([kind], i) => ({
    name: `${kind}${i}`,
    parent: -1,
    pos: [0, 0, 0],
    quat: [1, 0, 0, 0],
    joint: 'free',
    axis: [0, 0, 1],
    mass: 1,
    com: [0, 0, 0],
    inertia: [0.01, 0.01, 0.01, 0, 0, 0],
    q0: [0.3 * i, 0, 0.5, 1, 0, 0, 0],
    v0: [0, 0, 0, 0, 0, 0],
    tau: [0, 0, 0, 0, 0, 0],
  }));
  const c = Math.cos(0.3);
  const s = Math.sin(0.3);
  const shape = (
    name: string,
    body: number,
    kind: ShapeKind,
    halfExtents: Vec3,
    radius: number,
    pos: Vec3,
    quat: ShapeDesc['quat'],
    margin: number,
  ): ShapeDesc => ({
    name,
    body,
    kind,
    halfExtents,
    radius,
    pos,
    quat,
    friction: 1,
    contype: 1,
    conaffinity: 1,
    margin,
    gap: margin / 2,
  });
  const shapes = [
    shape('ground', -1, 'plane', [0, 0, 0], 0, [0, 0, 0], [1, 0, 0, 0], 0.01),
    shape('block', -1, 'box', [0.15, 0.1, 0.1], 0, [0.1, 0.1, 0.1], [c, 0, 0, s], 0),
    ...KINDS.map(([kind, h, r], i) => shape(`${kind}${i}/s`, i, kind, h, r, [0.02, -0.01, 0.03], [c, s, 0, 0], i % 2 ? 0.02 : 0)),
  ];
  return {
    name: 'pile',
    bodies,
    world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'euler', duration: 1, substeps: 1 },
    files: [],
    shapes,
  };
}

/** World pose of shape s when every body is free: X_WB from q, then X_BS. */
function shapePose(model: ModelDesc, s: ShapeDesc, q: readonly number[]): Pose {
  if (s.body < 0) return { pos: [...s.pos], quat: [...s.quat] };
  const o = 7 * s.body;
  const pB: V3 = [q[o], q[o + 1], q[o + 2]];
  const qB = [q[o + 3], q[o + 4], q[o + 5], q[o + 6]];
  const [w1, x1, y1, z1] = qB;
  const [w2, x2, y2, z2] = s.quat;
  return {
    pos: add(pB, mulMV(rotation(qB), s.pos)),
    quat: [
      w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
      w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
      w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
      w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ],
  };
}

export interface BatchCheckReference {
  model: ModelDesc;
  q: number[][];
  /** [robot][pair]: the pair as a standalone case, its exact contact and float32 floors. */
  cases: { pair: ShapePairCase; exact: ExactContact; floors: PairFloors }[][];
  pairs: readonly { a: number; b: number }[];
}

/** Seeded random states of the pile: bodies in a 0.8 × 0.8 × 0.45 m region above the ground. */
export function batchCheckReference(seed: number, robots = 32, addon?: NativeAddon): BatchCheckReference {
  const model = pileModel();
  const q = Array.from({ length: robots }, (_, r) => {
    const rng = new Rng(seedFor(seed, 'pile', String(r)));
    return model.bodies.flatMap(() => [rng.uniform(-0.25, 0.25), rng.uniform(-0.25, 0.25), rng.uniform(0, 0.35), ...rng.unitQuat()]);
  });
  const pairs = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 }, addon).pairs;
  const shapes = model.shapes!;
  const cases = q.map((qr, r) =>
    pairs.map(({ a, b }, p) => {
      const sa = shapes[a];
      const sb = shapes[b];
      const size = Math.min(...[sa, sb].filter((x) => x.kind !== 'plane').map(shapeSize));
      const pair: ShapePairCase = {
        a: { kind: sa.kind, halfExtents: sa.halfExtents, radius: sa.radius },
        b: { kind: sb.kind, halfExtents: sb.halfExtents, radius: sb.radius },
        poseA: shapePose(model, sa, qr),
        poseB: shapePose(model, sb, qr),
        margin: sa.margin + sb.margin + sa.gap + sb.gap,
        size,
        combo: `${sa.kind}/${sb.kind}`,
      };
      const exact = exactContact(pair.a, pair.poseA, pair.b, pair.poseB);
      return { pair, exact, floors: pairFloors(pair, exact, seed, r * 1000 + p) };
    }),
  );
  return { model, q, cases, pairs };
}

/** A batch at the widest lane width this CPU runs at this precision (the SIMD path is the one to check). */
function widestBatch(model: ModelDesc, copies: number, precision: Precision, addon: NativeAddon): Batch {
  let last: unknown;
  for (const lanes of [...LANE_WIDTHS].sort((x, y) => y - x)) {
    try {
      return new Batch(model, { copies, precision, lanes }, addon);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

/** The batch's contacts at every state against the exact reference (model 'batch:pile'). */
export function batchCheckRows(ref: BatchCheckReference, precision: Precision, addon: NativeAddon): CheckRow[] {
  const b = widestBatch(ref.model, ref.q.length, precision, addon);
  ref.q.forEach((q, r) => q.forEach((x, k) => (b.q[k * b.stride + r] = x)));
  b.collide();
  const points = ref.q.map((_, r) => b.contacts(r));
  const samples: Record<'detection' | 'dist' | 'normal.angle', { state: number; error: number; floor: number; skip: string }[]> = {
    detection: [],
    dist: [],
    'normal.angle': [],
  };
  ref.cases.forEach((row, r) =>
    row.forEach(({ pair, exact, floors }, p) => {
      const state = r * ref.pairs.length + p;
      const { a, b: sb } = ref.pairs[p];
      const slots = [...points[r].dist.keys()].filter((k) => points[r].shapeA[k] === a && points[r].shapeB[k] === sb);
      const tol = precision === 'f64' ? COLLISION_F64_BAR : F32_FACTOR * floors.dist;
      const expected = exact.dist < pair.margin;
      const tie = Math.abs(exact.dist - pair.margin) <= tol * pair.size;
      samples.detection.push({
        state,
        error: slots.length > 0 === expected ? 0 : 1,
        floor: 0,
        skip: tie ? 'exact distance within the bar of the margin' : '',
      });
      if (!slots.length || !expected) return;
      const d = Math.min(...slots.map((k) => points[r].dist[k]));
      samples.dist.push({ state, error: Math.abs(d - exact.dist) / pair.size, floor: floors.dist, skip: '' });
      const n = [0, 1, 2].map((c) => points[r].normal[3 * slots[0] + c]);
      samples['normal.angle'].push({
        state,
        error: angle(n, exact.normal),
        floor: floors.normalAngle,
        skip: floors.normalAngle <= F32_ILL_CONDITIONED ? '' : 'direction of least separation not unique',
      });
    }),
  );
  const rows: CheckRow[] = [];
  for (const [field, ss] of Object.entries(samples)) {
    const exactBar = field === 'detection';
    let floor = 0;
    for (const s of ss) if (!s.skip) floor = Math.max(floor, s.floor);
    const factor = exactBar ? 0 : precision === 'f64' ? 1 : F32_FACTOR;
    const barFloor = precision === 'f64' ? COLLISION_F64_BAR : floor;
    for (const s of ss)
      rows.push({
        stage: 'collision',
        model: 'batch:pile',
        precision,
        state: s.state,
        t: undefined,
        field: `batch.${field}`,
        error: s.error,
        stateFloor: s.floor,
        floor: barFloor,
        factor,
        bar: factor * barFloor,
        status: s.skip ? 'skip' : s.error <= factor * barFloor ? 'pass' : 'fail',
        note: s.skip,
      });
  }
  return rows;
}
