// MuJoCo's cylinders and ellipsoids: the engine collides them as MuJoCo does (its analytic colliders,
// GJK/EPA, multiccd's perturbed contacts, and the face clipping of two of box, cylinder and mesh at
// zero margin, a cylinder's caps as 16-gons and its side as a segment: native
// collision/convex_pair.hpp, convex/multicontact.hpp, convex/cylinder_faces.hpp). With
// <flag multiccd="disable"/> MuJoCo gives those pairs their first GJK/EPA contact only (maxContacts
// 1), which the engine does too. The rounded-box stand-ins of earlier versions remain for a pair the
// engine cannot collide as MuJoCo does (convexPairProblem: none among MuJoCo's own geoms today), with
// a note on each that names the pair.

import { mujocoCandidatePairs } from '../../engine/candidate-pairs.js';
import type { ModelDesc, ShapeDesc, ShapeKind, Vec3 } from '../../engine/model-desc.js';
import { isConvexKind } from '../../engine/model-desc.js';
import type { ImportNote } from './ir.js';

/** MuJoCo 3.14's GJK/EPA settings (<option> ccd_tolerance, ccd_iterations), the only ones the engine's
 *  convex collider runs with. */
export const CCD_DEFAULTS: Record<string, number> = { ccd_tolerance: 1e-6, ccd_iterations: 35 };

/** Why the engine cannot collide kinds a and b as MuJoCo does, or null (convex_pair_unsupported's
 *  rule); `_positiveMargin`: the two shapes' margins and gaps sum to more than 0 (MuJoCo's driver hands its
 *  colliders margin + gap, which its maxContacts reads); `_multiccd`: the model's flag (WorldSettings);
 *  neither refuses a pair today. */
export function convexPairProblem(a: ShapeKind, b: ShapeKind, _positiveMargin: boolean, _multiccd = true): string | null {
  if (!isConvexKind(a) && !isConvexKind(b)) return null;
  if (a === 'rounded-box' || b === 'rounded-box') return 'a rounded box is not one of MuJoCo’s geoms';
  // every other pair of MuJoCo's geoms is ported: its analytic colliders, GJK/EPA, multiccd's
  // perturbed re-runs (a positive margin) and its face clipping (zero margin, multiccd on: two of box,
  // cylinder and mesh, box–box being the engine's own box–box); the margin and flag only choose which
  return null;
}

/** convexPairProblem for two shapes of a model: MuJoCo hands its colliders the pair's margins and gaps summed. */
export function shapePairProblem(a: ShapeDesc, b: ShapeDesc, multiccd = true): string | null {
  return convexPairProblem(a.kind, b.kind, a.margin + b.margin + a.gap + b.gap > 0, multiccd);
}

const fmt = (x: number): string => String(Number(x.toPrecision(6)));

/** The rounded box standing in for a cylinder (the same height and cross-section area) or an
 *  ellipsoid (touching its six extreme points). */
function standIn(s: ShapeDesc): { h: Vec3; r: number; what: string } {
  const [a, b, c] = s.size ?? [0, 0, 0];
  if (s.kind === 'cylinder') {
    const rho = Math.min(a, b) / 2;
    const w = Math.sqrt(Math.PI * a * a + (4 - Math.PI) * rho * rho) / 2 - rho;
    return { h: [w, w, b - rho], r: rho, what: `cylinder geom '${s.name}' (radius ${fmt(a)}, half-length ${fmt(b)})` };
  }
  const r = Math.min(a, b, c);
  return { h: [a - r, b - r, c - r], r, what: `ellipsoid geom '${s.name}' (${[a, b, c].map(fmt).join(', ')})` };
}

/** Keeps the model's cylinders and ellipsoids when the engine can collide every pair they may form,
 *  else turns them into rounded boxes (one note each). Returns whether they were kept. */
export function keepOrStandIn(model: ModelDesc, notes: ImportNote[]): boolean {
  const shapes = model.shapes ?? [];
  if (!shapes.some((s) => s.kind === 'cylinder' || s.kind === 'ellipsoid')) return true;
  const multiccd = model.world.multiccd !== false;
  const bad = mujocoCandidatePairs(model).find(([a, b]) => shapePairProblem(shapes[a], shapes[b], multiccd) !== null);
  if (!bad) return true;
  const [a, b] = bad.map((i) => shapes[i]);
  const why = `the pair '${a.name}' (${a.kind}) – '${b.name}' (${b.kind}) can touch, and ${shapePairProblem(a, b, multiccd)}`;
  for (const s of shapes) {
    if (s.kind !== 'cylinder' && s.kind !== 'ellipsoid') continue;
    const { h, r, what } = standIn(s);
    notes.push({
      kind: 'approximated',
      source: s.source ?? { file: model.name, line: 0, column: 0 },
      message: `${what} → rounded box, half-extents [${h.map(fmt).join(', ')}] + radius ${fmt(r)}: ${why}, so every cylinder and ellipsoid of this model stands in as a rounded box`,
    });
    s.kind = 'rounded-box';
    s.halfExtents = h;
    s.radius = r;
    delete s.size;
  }
  return false;
}
