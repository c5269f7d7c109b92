// The `collision` stage: the engine's narrow phase (addon.collideShapePairs, the same code the
// batch runs) on seeded random shape pairs against the exact reference (exact.ts), field by field:
//   dist            the deepest point's distance against the exact signed distance
//   detection       a contact is reported iff the exact distance is below the pair's margin
//   points.depth    no point deeper than the exact distance, none at or beyond the margin
//   normal.separation  the separation along the engine's normal falls short of the exact distance
//                   by (every other direction separates less: a wrong normal shows here)
//   normal.angle    the angle to the exact normal, where the direction is unique
//   point.deepest   the deepest point p: p − n·d/2 lies on A's surface, p + n·d/2 on B's
//   point.patch     every other point of the manifold: p − n_k·d/2 not outside A, p + n_k·d/2 not
//                   outside B, n_k the point's own normal (on the contact patch; beyond the deepest
//                   point a witness may lie inside its shape: a tilted capsule's far end swept
//                   along n, a rounded corner)
//   engine-refuses  one skipped row per kind combination the engine refuses, naming why
// Errors are in units of the pair's size (angles in rad). Bars: f64 a documented constant;
// f32 F32_FACTOR × the field's measured float32 floor: the exact reference's own change when every
// input number (positions, quaternions, half-extents, radii, sizes, hull vertices) is multiplied by
// 1 + δ, |δ| ≤ 2⁻²⁴, its answer stored in float32, the largest over F32_PERTURBATIONS draws per pair.
// The pairs MuJoCo's convex collider answers (GJK/EPA, multiccd) are held to their own bars instead:
// its stopping rule plus MuJoCo's own error on their kind combination (ccdFloors).

import type { Precision } from '../../engine/api.js';
import { toNativeModel } from '../../engine/batch.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { F32_FACTOR, F32_ILL_CONDITIONED } from '../metrics.js';
import { Rng, seedFor } from '../rng.js';
import { F32_PERTURBATIONS, perturbed } from '../states.js';
import type { CheckRow } from '../types.js';
import { exactContact, separationAlong, type ExactContact } from './exact.js';
import { angle, scale, add, shapeSize, type Pose, type ShapeGeom, type V3 } from './geometry.js';
import { pointSignedDistance } from './signed-distance.js';
import { mujocoCandidatePairs } from './filter.js';
import { mujocoContacts, type MujocoPairResult } from './mujoco.js';
import { CCD_TOLERANCE, MULTICCD_TILT, mujocoApproximation, pairCollider } from './colliders.js';
import { comboRefused, convexKindCombos, convexPairs, randomPairs, type ShapePairCase } from './pairs.js';

/** f64 bar, in units of the pair's size (and rad for the normal's angle). The reference is exact
 *  to ~1e-15 of the size (Wolfe's point and the hull's planes are a few dot products of inputs of
 *  that size; it agrees with MuJoCo's analytic sphere/capsule/plane/box colliders to ≤ 4e-15),
 *  an f64 narrow phase carries ~1e-15 too; 1e-12 leaves 10³ of margin while a real mistake
 *  (a dropped radius, a swapped axis, a wrong feature) moves the answer by 1e-3 of the size or more. */
export const COLLISION_F64_BAR = 1e-12;
/** Random pairs in the stage (issue: at least 2000; 150 per kind combination). */
export const COLLISION_PAIRS = 2100;
/** Random pairs per combination with a cylinder, ellipsoid or convex hull (18 the engine collides). */
export const CONVEX_PAIRS_PER_COMBO = 60;

export interface EnginePairResult {
  count: number;
  normal: number[];
  points: number[][];
  dists: number[];
  /** Per point, its own normal (multiccd's points carry their re-run's); absent: `normal` for all. */
  normals?: number[][];
}
type CollideShapePairs = (pairs: object[], options: { precision: Precision }) => EnginePairResult[];

export interface PairFloors {
  dist: number;
  normalSeparation: number;
  normalAngle: number;
  point: number;
}

export interface CollisionReference {
  pairs: ShapePairCase[];
  exact: ExactContact[];
  floors: PairFloors[];
  mujoco: (MujocoPairResult | undefined)[];
  /** Kind combinations the engine refuses (convexPairProblem), with why: skipped by name. */
  refused?: { combo: string; why: string }[];
}

/** The pair with every input number multiplied by 1 + δ, |δ| ≤ 2⁻²⁴ (quaternions renormalised
 *  by the geometry; zeros stay zero). */
function perturbPair(p: ShapePairCase, rng: Rng): ShapePairCase {
  const shape = (s: ShapeGeom): ShapeGeom => ({
    kind: s.kind,
    halfExtents: perturbed(s.halfExtents, rng) as V3,
    radius: perturbed([s.radius], rng)[0],
    ...(s.size ? { size: perturbed(s.size, rng) as V3 } : {}),
    ...(s.vertices ? { vertices: perturbed(s.vertices, rng), faces: s.faces } : {}),
  });
  const pose = (X: Pose): Pose => ({ pos: perturbed(X.pos, rng) as V3, quat: perturbed(X.quat, rng) as Pose['quat'] });
  return { ...p, a: shape(p.a), poseA: pose(p.poseA), b: shape(p.b), poseB: pose(p.poseB) };
}

const onSurfaces = (p: ShapePairCase, pa: readonly number[], pb: readonly number[]) =>
  Math.max(Math.abs(pointSignedDistance(p.a, p.poseA, pa)), Math.abs(pointSignedDistance(p.b, p.poseB, pb))) / p.size;

const separation = (p: ShapePairCase, n: readonly number[]) => separationAlong(p.a, p.poseA, p.b, p.poseB, n);

/** The float32 floors of one pair (see the file comment). */
export function pairFloors(p: ShapePairCase, e: ExactContact, seed: number, i: number): PairFloors {
  const f: PairFloors = { dist: 0, normalSeparation: 0, normalAngle: 0, point: 0 };
  const plane = p.a.kind === 'plane' || p.b.kind === 'plane';
  for (let k = 0; k < F32_PERTURBATIONS; k++) {
    const q = perturbPair(p, new Rng(seedFor(seed, 'collision-f32', String(i), String(k))));
    const c = exactContact(q.a, q.poseA, q.b, q.poseB);
    const n = c.normal.map(Math.fround);
    f.dist = Math.max(f.dist, Math.abs(Math.fround(c.dist) - e.dist) / p.size);
    f.normalAngle = Math.max(f.normalAngle, angle(n, e.normal));
    if (!plane) f.normalSeparation = Math.max(f.normalSeparation, Math.max(0, e.dist - separation(p, n)) / p.size);
    // The perturbed pair's witnesses, stored in float32, on the pair's own surfaces.
    f.point = Math.max(f.point, onSurfaces(p, c.pointA.map(Math.fround), c.pointB.map(Math.fround)));
  }
  return f;
}

export async function collisionReference(
  python: string,
  seed: number,
  n = COLLISION_PAIRS,
  perConvexCombo = CONVEX_PAIRS_PER_COMBO,
): Promise<CollisionReference> {
  const pairs = [...randomPairs(n, seed), ...convexPairs(perConvexCombo, seed)];
  const mujoco = mujocoContacts(python, pairs);
  mujoco.catch(() => undefined); // awaited below
  const exact = pairs.map((p) => exactContact(p.a, p.poseA, p.b, p.poseB));
  const floors = pairs.map((p, i) => pairFloors(p, exact[i], seed, i));
  const refused = convexKindCombos().flatMap(([a, b]) => {
    const why = comboRefused(a, b);
    return why ? [{ combo: `${a}+${b}`, why }] : [];
  });
  return { pairs, exact, floors, mujoco: await mujoco, refused };
}

/** The engine's answers for every pair at one precision (the addon's collideShapePairs). */
export function engineContacts(addon: NativeAddon, pairs: readonly ShapePairCase[], precision: Precision): EnginePairResult[] {
  const collide = (addon as unknown as { collideShapePairs?: CollideShapePairs }).collideShapePairs;
  if (typeof collide !== 'function')
    throw new Error('the native engine has no collideShapePairs (the collision narrow phase is not built)');
  return collide(
    pairs.map((p) => ({ a: p.a, b: p.b, poseA: p.poseA, poseB: p.poseB, margin: p.margin })),
    { precision },
  );
}

interface Sample {
  state: number;
  error: number;
  floor: number;
  /** Why this sample is not compared (empty: compared). */
  skip: string;
  /** A pair held to its own bar (the convex collider's pairs: ccdBars): floor × factor, and why. */
  own?: { floor: number; factor: number; note: string };
}

/** Rows of one field of one kind combination: f64 bar the constant, f32 bar F32_FACTOR × the
 *  largest floor of the compared samples; `exactBar` fields (detection) must be exactly 0; a sample
 *  with its own bar (`own`) is held to that. */
function judge(model: string, precision: Precision, field: string, samples: readonly Sample[], exactBar = false): CheckRow[] {
  let floor = 0;
  for (const s of samples) if (!s.skip && !s.own && s.floor <= F32_ILL_CONDITIONED) floor = Math.max(floor, s.floor);
  const factor = exactBar ? 0 : precision === 'f64' ? 1 : F32_FACTOR;
  const barFloor = precision === 'f64' ? COLLISION_F64_BAR : floor;
  return samples.map((s) => {
    const [f, k] = s.own ? [s.own.floor, s.own.factor] : [barFloor, factor];
    const bar = f * k;
    return {
      stage: 'collision',
      model,
      precision,
      state: s.state,
      t: undefined,
      field,
      error: s.error,
      stateFloor: s.floor,
      floor: f,
      factor: k,
      bar,
      status: s.skip ? 'skip' : s.error <= bar ? 'pass' : 'fail',
      note: s.skip || s.own?.note || '',
    };
  });
}

/** Floors of the pairs the convex collider answers (colliders.ts), per pair in units of its size.
 *  The engine runs MuJoCo's collider (GJK, EPA, multiccd) with MuJoCo's stopping rule, so its
 *  answer is as far from the exact one as MuJoCo's own is on the same pair, not round-off: EPA and
 *  GJK stop once the distance's bounds are CCD_TOLERANCE (m) apart, τ = CCD_TOLERANCE / size, or
 *  after CCD_ITERATIONS; measured farther than τ too (up to 30 τ in distance on cylinder+ellipsoid,
 *  7.4 τ on box+ellipsoid), where MuJoCo's answers are the same. So each field's
 *  floor is the rule's share plus MuJoCo's own worst error in that field over the pairs of that kind
 *  combination (mj_collision's deepest contact against the exact answer). Per combination, not per
 *  pair: MuJoCo's mesh vertices are float32 and it climbs a mesh's hull graph where the engine
 *  searches every vertex, so on one pair its GJK/EPA steps need not be the engine's, while on a
 *  kind of pair the stopping rule leaves both equally far:
 *    dist, points.depth: τ + MuJoCo's distance error;
 *    normal.separation: τ (EPA's bounds, GJK's gap) + the shortfall of the separation along MuJoCo's normal;
 *    normal.angle: 2√τ (a normal whose separation is within τ of the best, on a surface of
 *      curvature ≥ 1/2 in units of the size) + MuJoCo's normal's angle to the exact one;
 *    point.deepest: τ + MuJoCo's deepest point's witnesses off the surfaces + the normal's floor
 *      times half the point's distance (p ∓ n·d/2 turn with n, as for the closed forms' floors);
 *    point.patch: that, plus multiccd's tilt, MULTICCD_TILT rad about the first contact, times the
 *      shapes' extent (2 sizes of the larger: its points come from tilted shapes), plus MuJoCo's own
 *      worst such point.
 *  The bar is CCD_FACTOR × the floor (room for a different last iteration), in f32 with the inputs'
 *  float32 floor added (the collider runs in double there too). */
export const CCD_FACTOR = 2;
export interface CcdFloors {
  dist: number;
  separation: number;
  angle: number;
  point: number;
  patch: number;
}
/** MuJoCo's own errors on one pair, field by field (0 where it found no contact). */
export function mujocoOwnErrors(p: ShapePairCase, e: ExactContact, mj: MujocoPairResult | undefined): CcdFloors {
  const own = { dist: 0, separation: 0, angle: 0, point: 0, patch: 0 };
  if (!mj || !(mj.count > 0)) return own;
  let k = 0;
  mj.dists.forEach((d, j) => (d < mj.dists[k] ? (k = j) : undefined));
  const w = (j: number) =>
    [add(mj.points[j], scale(mj.normals[j], -mj.dists[j] / 2)), add(mj.points[j], scale(mj.normals[j], mj.dists[j] / 2))] as const;
  own.dist = Math.abs(mj.dists[k] - e.dist) / p.size;
  own.separation = Math.max(0, e.dist - separation(p, mj.normals[k])) / p.size;
  own.angle = angle(mj.normals[k], e.normal);
  own.point = onSurfaces(p, ...w(k));
  for (let j = 0; j < mj.count; j++)
    if (j !== k) {
      const [wa, wb] = w(j);
      own.patch = Math.max(own.patch, Math.max(0, pointSignedDistance(p.a, p.poseA, wa), pointSignedDistance(p.b, p.poseB, wb)) / p.size);
    }
  return own;
}

/** A convex-collider pair's floors (see CCD_FACTOR) from MuJoCo's worst errors on its combination. */
export function ccdFloors(p: ShapePairCase, mjWorst: CcdFloors): CcdFloors {
  const tau = CCD_TOLERANCE / p.size;
  const extent = (2 * Math.max(shapeSize(p.a), shapeSize(p.b))) / p.size;
  return {
    dist: tau + mjWorst.dist,
    separation: tau + mjWorst.separation,
    angle: 2 * Math.sqrt(tau) + mjWorst.angle,
    point: tau + mjWorst.point,
    patch: tau + mjWorst.point + MULTICCD_TILT * extent + mjWorst.patch,
  };
}

/** Every judged row of the stage at one precision, with `addon` as the engine. */
export function collisionRows(ref: CollisionReference, precision: Precision, addon: NativeAddon): CheckRow[] {
  let got: EnginePairResult[];
  try {
    got = engineContacts(addon, ref.pairs, precision);
  } catch (e) {
    // One failing row says why: an engine without a narrow phase fails the stage, it is never skipped.
    return judge('all', precision, 'collideShapePairs', [{ state: 0, error: Infinity, floor: 0, skip: '' }]).map((r) => ({
      ...r,
      note: (e as Error).message,
    }));
  }
  const fields = new Map<string, Map<string, Sample[]>>();
  const push = (combo: string, field: string, s: Sample) => {
    let m = fields.get(combo);
    if (!m) fields.set(combo, (m = new Map()));
    let l = m.get(field);
    if (!l) m.set(field, (l = []));
    l.push(s);
  };
  // MuJoCo's worst own error per convex-collider combination and field (CCD_FACTOR's comment).
  const mujocoWorst = new Map<string, CcdFloors>();
  ref.pairs.forEach((p, i) => {
    if (pairCollider(p.a.kind, p.b.kind) !== 'ccd') return;
    const combo = p.combo.replace('/', '+');
    const own = mujocoOwnErrors(p, ref.exact[i], ref.mujoco[i]);
    const w = mujocoWorst.get(combo) ?? { dist: 0, separation: 0, angle: 0, point: 0, patch: 0 };
    for (const k of Object.keys(w) as (keyof CcdFloors)[]) w[k] = Math.max(w[k], own[k]);
    mujocoWorst.set(combo, w);
  });
  ref.pairs.forEach((p, i) => {
    const e = ref.exact[i];
    const fl = ref.floors[i];
    const g = got[i];
    const combo = p.combo.replace('/', '+');
    const ccd = pairCollider(p.a.kind, p.b.kind) === 'ccd';
    const cb = ccdFloors(p, mujocoWorst.get(combo) ?? { dist: 0, separation: 0, angle: 0, point: 0, patch: 0 });
    const mj = mujocoApproximation(p.a.kind, p.b.kind);
    const why = `convex collider (GJK/EPA): floor ccd_tolerance ${CCD_TOLERANCE} m + MuJoCo's own worst error on the combination${mj ? `; MuJoCo approximate: ${mj}` : ''}`;
    // A convex-collider pair's own bar: the collider's stopping rule plus, in f32, the inputs' float32 floor.
    const own = (ccdFloor: number, f32Floor: number) =>
      ccd ? { floor: ccdFloor + (precision === 'f32' ? f32Floor : 0), factor: CCD_FACTOR, note: why } : undefined;
    const tol = ccd
      ? CCD_FACTOR * (cb.dist + (precision === 'f32' ? fl.dist : 0))
      : precision === 'f64'
        ? COLLISION_F64_BAR
        : F32_FACTOR * fl.dist;
    const count = g && Number.isInteger(g.count) ? g.count : -1;
    // Detection: expected iff the exact distance is below the margin (pairs within the bar of the
    // margin are a tie that neither answer can be faulted for).
    const expected = e.dist < p.margin;
    const tie = Math.abs(e.dist - p.margin) <= tol * p.size;
    push(combo, 'detection', {
      state: i,
      error: count > 0 === expected ? 0 : 1,
      floor: 0,
      skip: tie ? `exact distance within the bar of the margin (${e.dist} vs ${p.margin})` : '',
    });
    if (count <= 0 || !expected) return;
    const dists = g.dists.slice(0, count);
    const points = g.points.slice(0, count);
    let deepest = 0;
    dists.forEach((d, k) => (d < dists[deepest] ? (deepest = k) : undefined));
    push(combo, 'dist', {
      state: i,
      error: Math.abs(dists[deepest] - e.dist) / p.size,
      floor: fl.dist,
      skip: '',
      own: own(cb.dist, fl.dist),
    });
    // No point deeper than the exact distance; every reported point within the margin.
    const depth = Math.max(0, ...dists.map((d) => (d >= p.margin ? Infinity : Math.max(0, e.dist - d) / p.size)));
    push(combo, 'points.depth', { state: i, error: depth, floor: fl.dist, skip: '', own: own(cb.dist, fl.dist) });
    const n = g.normal;
    const plane = p.a.kind === 'plane' || p.b.kind === 'plane';
    if (!plane)
      push(combo, 'normal.separation', {
        state: i,
        error: Math.max(0, e.dist - separation(p, n)) / p.size,
        floor: fl.normalSeparation,
        skip: '',
        own: own(cb.separation, fl.normalSeparation),
      });
    const unique = fl.normalAngle <= F32_ILL_CONDITIONED;
    push(combo, 'normal.angle', {
      state: i,
      error: angle(n, e.normal),
      floor: fl.normalAngle,
      skip: unique
        ? ''
        : `direction of least separation not unique: a float32 half-ulp of the inputs turns it by ${fl.normalAngle.toExponential(2)} rad`,
      own: own(cb.angle, fl.normalAngle),
    });
    // Each point's own normal (multiccd's points carry their re-run's), else the pair's.
    const nk = (k: number) => g.normals?.[k] ?? n;
    const witnesses = (k: number) => [add(points[k], scale(nk(k), -dists[k] / 2)), add(points[k], scale(nk(k), dists[k] / 2))] as const;
    const surf = (k: number) => onSurfaces(p, ...witnesses(k));
    // Beyond the deepest point a witness may lie inside its shape (a capsule's far end swept along
    // n, a rounded corner), never outside it: outside means the point is off the contact patch.
    const notOutside = (k: number) => {
      const [wa, wb] = witnesses(k);
      return Math.max(0, pointSignedDistance(p.a, p.poseA, wa), pointSignedDistance(p.b, p.poseB, wb)) / p.size;
    };
    // A point's floor: the witnesses' own float32 floor plus the normal's turn over half the distance.
    const pointFloor = (k: number) => fl.point + (Math.abs(dists[k]) / 2 / p.size) * fl.normalAngle;
    // A convex-collider point's: its combination's floor plus the normal's floor turned over half the distance.
    const turn = (k: number) => (Math.abs(dists[k]) / 2 / p.size) * cb.angle;
    push(combo, 'point.deepest', {
      state: i,
      error: surf(deepest),
      floor: pointFloor(deepest),
      skip: '',
      own: own(cb.point + turn(deepest), pointFloor(deepest)),
    });
    for (let k = 0; k < count; k++)
      if (k !== deepest)
        push(combo, 'point.patch', {
          state: i,
          error: notOutside(k),
          floor: pointFloor(k),
          skip: '',
          own: own(cb.patch + turn(k), pointFloor(k)),
        });
  });
  // The combinations the engine refuses: one skipped row each, saying why.
  for (const { combo, why } of ref.refused ?? [])
    push(combo, 'engine-refuses', { state: 0, error: 0, floor: 0, skip: `the engine refuses this pair: ${why}` });
  const rows: CheckRow[] = [];
  for (const [combo, m] of fields)
    for (const [field, samples] of m) rows.push(...judge(combo, precision, field, samples, field === 'detection'));
  return rows;
}

/** Per pair, for the scatter chart and the MuJoCo table: exact and reported distances (units of size). */
export type ScatterPoint = {
  combo: string;
  exact: number;
  source: string;
  reported: number;
  /** MuJoCo's points: why its answer is approximate ('' where its collider is exact to round-off). */
  note?: string;
};

export function scatterPoints(ref: CollisionReference, ours: Partial<Record<Precision, EnginePairResult[]>>): ScatterPoint[] {
  const out: ScatterPoint[] = [];
  ref.pairs.forEach((p, i) => {
    const e = ref.exact[i].dist / p.size;
    if (!(ref.exact[i].dist < p.margin)) return;
    const combo = p.combo.replace('/', '+');
    const deepest = (ds: number[], count: number) => (count > 0 ? Math.min(...ds.slice(0, count)) / p.size : NaN);
    for (const [prec, res] of Object.entries(ours))
      if (res?.[i]) out.push({ combo, exact: e, source: `achilles ${prec}`, reported: deepest(res[i].dists, res[i].count) });
    const mj = ref.mujoco[i];
    if (mj) {
      const note = mujocoApproximation(p.a.kind, p.b.kind);
      out.push({ combo, exact: e, source: 'MuJoCo mj_collision', reported: deepest(mj.dists, mj.count), note });
      out.push({ combo, exact: e, source: 'MuJoCo mj_geomDistance', reported: mj.geomDistance / p.size, note });
    }
  });
  return out;
}

/** The pairs the engine's contact filter admits (its broad phase asks the same filter), as [a, b] shape indices. */
export function enginePairs(model: ModelDesc, addon: NativeAddon): [number, number][] {
  const native = new addon.NativeBatch(toNativeModel(model), {
    precision: 'f64',
    lanes: 1,
    copies: 1,
    integrator: model.world.integrator,
    dt: model.world.dt,
    substeps: model.world.substeps,
    midpointIterations: 4,
    threads: 1,
  });
  const pairs = (native as { candidatePairs?: () => { a: number; b: number }[] }).candidatePairs?.();
  if (!Array.isArray(pairs)) throw new Error('the native batch lists no candidate pairs (candidatePairs())');
  return pairs.map((p) => [p.a, p.b]);
}

/** Pair filtering: the engine's candidate pairs against MuJoCo's rules (filter.ts), per model,
 *  one row per pair either side keeps (error 1 where they disagree, which must never happen). */
export function filterRows(models: readonly { name: string; model: ModelDesc }[], precision: Precision, addon: NativeAddon): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const { name, model } of models) {
    let ours: [number, number][];
    try {
      ours = enginePairs(model, addon);
    } catch (e) {
      rows.push(
        ...judge(name, precision, 'candidate-pairs', [{ state: 0, error: Infinity, floor: 0, skip: '' }], true).map((r) => ({
          ...r,
          note: (e as Error).message,
        })),
      );
      continue;
    }
    const key = ([a, b]: [number, number]) => `${a},${b}`;
    const theirs = new Set(mujocoCandidatePairs(model).map(key));
    const mine = new Set(ours.map(key));
    const all = [...new Set([...theirs, ...mine])].sort();
    const shapes = model.shapes ?? [];
    const samples = all.map((k, i) => {
      const [a, b] = k.split(',').map(Number);
      const agree = theirs.has(k) === mine.has(k);
      return {
        state: i,
        error: agree ? 0 : 1,
        floor: 0,
        skip: '',
        note: `${shapes[a]?.name} – ${shapes[b]?.name}: ${mine.has(k) ? 'kept' : 'dropped'} by the engine, ${theirs.has(k) ? 'kept' : 'dropped'} by MuJoCo's rules`,
      };
    });
    // Order matters too (pair index, then point): the engine's list must be sorted by (a, b).
    const sorted = ours.every((p, i) => i === 0 || ours[i - 1][0] < p[0] || (ours[i - 1][0] === p[0] && ours[i - 1][1] < p[1]));
    const judged = judge(
      name,
      precision,
      'candidate-pairs',
      samples.length ? samples : [{ state: 0, error: 0, floor: 0, skip: '', note: 'no pairs either side' }],
      true,
    );
    rows.push(...judged.map((r, i) => ({ ...r, note: samples[i]?.note ?? '' })));
    rows.push(...judge(name, precision, 'pair-order', [{ state: 0, error: sorted ? 0 : 1, floor: 0, skip: '' }], true));
  }
  return rows;
}
