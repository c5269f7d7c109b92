// Seeded random shape pairs for the collision stage: every kind combination (plane–plane
// excluded; MuJoCo's cylinder, ellipsoid and convex hull with every kind the engine pairs them
// with), random sizes and poses, and a signed distance drawn uniformly from 0.35 overlapping
// to 0.3 apart in units of the pair's size, reached by sliding B along a random direction
// (sd is convex along a line through A, so bisection finds the unique crossing).

import { CONVEX_SHAPE_KINDS, SWEPT_SHAPE_KINDS } from '../../engine/model-desc.js';
import { convexPairProblem } from '../../model-files/import/convex-pairs.js';
import { Rng, seedFor } from '../rng.js';
import { exactContact, type ExactContact } from './exact.js';
import { add, dot, planeNormal, scale, shapeSize, unit, type Pose, type ShapeGeom, type V3 } from './geometry.js';
import { randomHull } from './hull-shapes.js';

export interface ShapePairCase {
  a: ShapeGeom;
  b: ShapeGeom;
  poseA: Pose;
  poseB: Pose;
  /** The pair's margin (both shapes' margins summed): a contact is reported when dist < margin. */
  margin: number;
  /** Length unit of the pair: the smaller non-plane shape's size (largest half-extent + radius). */
  size: number;
  /** "sphere/box" etc. (a's kind first). */
  combo: string;
}

export const OVERLAP_MIN = -0.35;
export const APART_MAX = 0.3;

/** The sphere-swept boxes and the plane (the stage's first 14 combinations, `randomPairs`), then
 *  MuJoCo's cylinder, ellipsoid and convex hull (their combinations with every kind: `convexPairs`). */
const SWEPT_KINDS = [...SWEPT_SHAPE_KINDS, 'plane'] as const;
const KINDS = [...SWEPT_KINDS, ...CONVEX_SHAPE_KINDS] as const;
type Kind = (typeof KINDS)[number];

/** Unordered pairs of `kinds`, plane–plane excluded. */
function combosOf(kinds: readonly Kind[], keep: (a: Kind, b: Kind) => boolean = () => true): [Kind, Kind][] {
  const out: [Kind, Kind][] = [];
  kinds.forEach((a, i) => kinds.slice(i).forEach((b) => (a === 'plane' && b === 'plane') || !keep(a, b) || out.push([a, b])));
  return out;
}
const isNew = (k: Kind) => (CONVEX_SHAPE_KINDS as readonly string[]).includes(k);

/** The 14 combinations of the sphere-swept kinds and the plane (`randomPairs`). */
export const sweptKindCombos = (): [Kind, Kind][] => combosOf(SWEPT_KINDS);
/** The 21 combinations with a cylinder, an ellipsoid or a convex hull, whether or not the engine
 *  collides them (convexPairProblem: a rounded box is none of MuJoCo's geoms). */
export const convexKindCombos = (): [Kind, Kind][] => combosOf(KINDS, (a, b) => isNew(a) || isNew(b));
/** Every combination, in the report's order. */
export const kindCombos = (): [Kind, Kind][] => [...sweptKindCombos(), ...convexKindCombos()];

/** Why the engine refuses the combination at the stage's margins (always > 0), or null. */
export const comboRefused = (a: Kind, b: Kind): string | null => convexPairProblem(a, b, true);

/** A shape of `kind` with size about s (no dimension below 0.2 s except a rounded box's core,
 *  whose half-extents may be 0: flat or needle-like cores are the degenerate polytopes). */
function randomShape(kind: Kind, s: number, rng: Rng): ShapeGeom {
  const u = (lo: number, hi: number) => rng.uniform(lo, hi) * s;
  switch (kind) {
    case 'sphere':
      return { kind, halfExtents: [0, 0, 0], radius: u(0.5, 1) };
    case 'capsule':
      return { kind, halfExtents: [0, 0, u(0.2, 1)], radius: u(0.2, 0.6) };
    case 'box':
      return { kind, halfExtents: [u(0.2, 1), u(0.2, 1), u(0.2, 1)], radius: 0 };
    case 'rounded-box':
      return { kind, halfExtents: [0, 1, 2].map(() => (rng.next() < 0.2 ? 0 : u(0.05, 0.8))) as V3, radius: u(0.1, 0.5) };
    case 'plane':
      return { kind, halfExtents: [0, 0, 0], radius: 0 };
    case 'cylinder': {
      const [r, l] = [u(0.2, 1), u(0.2, 1)];
      return { kind, halfExtents: [r, r, l], radius: 0, size: [r, l, 0] };
    }
    case 'ellipsoid': {
      const e: V3 = [u(0.2, 1), u(0.2, 1), u(0.2, 1)];
      return { kind, halfExtents: [...e], radius: 0, size: e };
    }
    case 'convex':
      return randomHull(s, rng);
  }
}

const randomPos = (rng: Rng, s: number): V3 => [rng.uniform(-2, 2) * s, rng.uniform(-2, 2) * s, rng.uniform(-2, 2) * s];

/** `n` pairs spread evenly over the sphere-swept kind combinations (pair i has combination i mod 14). A fraction
 *  of pairs gets a margin below its distance (no contact expected); the rest a margin that
 *  captures every separated pair. */
export function randomPairs(n: number, seed: number): ShapePairCase[] {
  const combos = sweptKindCombos();
  return Array.from({ length: n }, (_, i) => randomPair(combos[i % combos.length], new Rng(seedFor(seed, 'collision-pair', String(i)))));
}

/** `perCombo` pairs of each combination with a cylinder, ellipsoid or convex hull that the engine
 *  collides (the refused ones: comboRefused), made as randomPairs makes its own, from their own seeds. */
export function convexPairs(perCombo: number, seed: number): ShapePairCase[] {
  const combos = convexKindCombos().filter(([a, b]) => !comboRefused(a, b));
  const out: ShapePairCase[] = [];
  for (let i = 0; i < perCombo * combos.length; i++)
    out.push(randomPair(combos[i % combos.length], new Rng(seedFor(seed, 'collision-convex-pair', String(i)))));
  return out;
}

function randomPair([ka, kb]: [Kind, Kind], rng: Rng): ShapePairCase {
  const s = Math.exp(rng.uniform(Math.log(0.05), Math.log(2)));
  const a = randomShape(ka, s * rng.uniform(0.5, 1.5), rng);
  const b = randomShape(kb, s * rng.uniform(0.5, 1.5), rng);
  const size = Math.min(...[a, b].filter((x) => x.kind !== 'plane').map(shapeSize));
  const poseA: Pose = { pos: randomPos(rng, s), quat: rng.unitQuat() };
  const quatB = rng.unitQuat();
  // Against a plane, B slides along the plane's normal (sd is then affine in t).
  const dir =
    ka === 'plane'
      ? planeNormal(poseA)
      : kb === 'plane'
        ? planeNormal({ pos: [0, 0, 0], quat: quatB })
        : unit([rng.normal(), rng.normal(), rng.normal()]);
  const target = rng.uniform(OVERLAP_MIN, APART_MAX) * size;
  const poseAt = (t: number): Pose => ({ pos: add(poseA.pos, scale(dir, t)), quat: quatB });
  const at = (t: number) => exactContact(a, poseA, b, poseAt(t));
  const sd = (t: number) => at(t).dist;
  let lo = 0;
  let hi = s;
  if (ka === 'plane' || kb === 'plane') {
    const base = sd(0);
    const slope = sd(1) - base; // ±1
    const t = (target - base) / slope;
    return finish(a, b, poseA, poseAt(t), size, `${ka}/${kb}`, rng, sd(t));
  }
  // Convex in t, ≤ 0 at t = 0 (both cores contain their centres' meeting point) and → ∞.
  // Newton from above the goal: on a convex increasing stretch it descends monotonically onto the
  // crossing (d sd/dt = n·dir); bisection takes over if a step leaves the bracket.
  const start = sd(0);
  const goal = Math.max(target, start + 0.02 * size);
  while (sd(hi) < goal) [lo, hi] = [hi, hi * 2];
  let t = hi;
  let c = at(t);
  for (let k = 0; k < 40 && Math.abs(c.dist - goal) > 1e-9 * size; k++) {
    if (c.dist > goal) hi = t;
    else lo = t;
    const slope = dot(c.normal, dir);
    const next = slope > 1e-6 ? t - (c.dist - goal) / slope : NaN;
    t = next > lo && next < hi ? next : (lo + hi) / 2;
    c = at(t);
  }
  return finish(a, b, poseA, poseAt(t), size, `${ka}/${kb}`, rng, c.dist);
}

function finish(a: ShapeGeom, b: ShapeGeom, poseA: Pose, poseB: Pose, size: number, combo: string, rng: Rng, dist: number): ShapePairCase {
  // 1 pair in 8 gets a margin short of its distance (when apart): it must report nothing.
  const short = dist > 0.05 * size && rng.next() < 0.125;
  const margin = short ? rng.uniform(0, dist - 0.02 * size) : (APART_MAX + 0.05) * size;
  return { a, b, poseA, poseB, margin, size, combo };
}

export type { ExactContact };
