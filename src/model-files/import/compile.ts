// The imported model (MuJoCo's bodies, each with any number of joints) compiled into the engine's
// ModelDesc, where every link has exactly one joint:
//
//   a body with no joint            → one `fixed` link (MuJoCo welds it to its parent);
//   a body with joints j1 … jn      → a chain of n links, link k named after joint k; links 1 … n−1
//                                     are massless, link n carries the body's mass and geoms.
//
// MuJoCo moves a body by each of its joints in turn about the joint's anchor p_k (in the body frame):
// X_PB(q) = X_PB0 · Π_k Trans(p_k)·X_k(q_k)·Trans(−p_k), with X_k(q) = Rot(a_k, q − ref_k) for a hinge,
// Trans(a_k·(q − ref_k)) for a slide, Rot(quat q) for a ball (engine_core_smooth.c mj_kinematics).
// So link k's joint frame is J_1 = X_PB0·Trans(p_1), J_k = Trans(p_k − p_{k−1}) after link k−1's
// joint, each turned back by ref (Rot(a, −ref), or a shift −ref·a); the body frame is the last link's
// frame shifted by −p_n, so everything the body carries (CoM, geoms, child bodies) moves by −p_n.

import { type ModelDesc, type ShapeDesc, isConvexKind } from '../../engine/model-desc.js';
import { SceneError } from '../common/errors.js';
import { CCD_DEFAULTS, keepOrStandIn } from './convex-pairs.js';
import { actuatorsOf } from './compile-actuators.js';
import { equalityDesc } from './compile-equality.js';
import { chainExcludes, linksOf, type Links } from './compile-links.js';
import { tendonsOf } from './compile-tendons.js';
import { fluidDesc } from './fluid.js';
import { compileSensors } from './sensors.js';
import { keepHullsOrBoxes } from './mesh-hulls.js';
import type { ImportNote, IrModel } from './ir.js';

import type { BodyMap } from './ir.js';
export type { BodyMap } from './ir.js';

export interface Compiled {
  model: ModelDesc;
  bodyMap: BodyMap[];
}

export function compileIr(ir: IrModel, files: string[], notes: ImportNote[]): Compiled {
  const links = linksOf(ir, notes);
  const { bodies, bodyMap, shapes, jointLink } = links;
  const actuators = actuatorsOf(ir, links);
  const excludes = [...excludesOf(ir, links), ...chainExcludes(ir, links)];
  const tendons = tendonsOf(ir, links);
  const model: ModelDesc = {
    name: ir.name,
    bodies,
    world: {
      gravity: ir.option.gravity,
      dt: ir.option.timestep,
      integrator: ir.option.integrator,
      duration: 10,
      substeps: 1,
      ...(ir.multiccdDisabled ? { multiccd: false } : {}),
    },
    files,
    shapes,
    solver: {
      iterations: ir.option.iterations,
      impratio: ir.option.impratio,
      tolerance: ir.option.tolerance,
      method: ir.option.solver,
      ...(ir.option.cone === 'elliptic' ? { cone: 'elliptic' as const } : {}),
      ...(ir.option.noslipIterations > 0
        ? { noslipIterations: ir.option.noslipIterations, noslipTolerance: ir.option.noslipTolerance }
        : {}),
    },
  };
  if (actuators.length) model.actuators = actuators;
  if (excludes.length) model.excludes = excludes;
  if (tendons.length) model.tendons = tendons;
  const sensors = compileSensors(ir, bodies, bodyMap, jointLink, actuators, tendons);
  if (sensors.length) model.mjcfSensors = sensors;
  if (sensors.length && ir.sensorsDisabled) model.mjcfSensorsDisabled = true;
  const equalities = (ir.equalities ?? []).map((e) => equalityDesc(e, ir, bodies, bodyMap, jointLink));
  if (equalities.length) model.equalities = equalities;
  const fluid = fluidDesc(ir, bodyMap);
  if (fluid) model.fluid = fluid;
  keepHullsOrBoxes(model, new Set(shapes.filter((sh) => sh.kind === 'convex')), notes);
  keepOrStandIn(model, notes);
  checkCcdOptions(ir, shapes, notes);
  return { model, bodyMap };
}

/** The <contact><exclude> pairs as links (a body's last link). */
function excludesOf(ir: IrModel, { bodyMap }: Links): [number, number][] {
  return ir.excludes.map((e) => {
    const find = (n: string): number => {
      if (n === 'world') return -1;
      const i = ir.bodies.findIndex((b) => b.name === n);
      if (i < 0)
        throw new SceneError({
          ...e.source,
          subject: 'contact exclude',
          found: `body '${n}', which the model does not have`,
          expected: 'the names of two bodies',
        });
      return bodyMap[i].link;
    };
    return [find(e.body1), find(e.body2)];
  });
}

/** Options that tune MuJoCo's GJK/EPA (ccd_iterations, ccd_tolerance, ...): refused unless MuJoCo's
 *  default where the model has shapes it runs for, else said to be unused. */
function checkCcdOptions(ir: IrModel, shapes: readonly ShapeDesc[], notes: ImportNote[]): void {
  // GJK/EPA runs for a cylinder, an ellipsoid or a mesh hull against anything but a plane
  const gjk = shapes.some((sh) => isConvexKind(sh.kind));
  for (const c of ir.ccd ?? []) {
    if (gjk)
      throw new SceneError({
        ...c.source,
        subject: `option ${c.key}`,
        found: `"${c.value}"`,
        expected: `${c.key}="${CCD_DEFAULTS[c.key]}" (MuJoCo's default: the engine's GJK/EPA, which this model's cylinders, ellipsoids and mesh hulls use, runs with it only)`,
      });
    notes.push({
      kind: 'skipped',
      source: c.source,
      message: `option ${c.key} is not used: the engine collides no cylinder, ellipsoid or mesh hull of this model (where it would run MuJoCo's GJK/EPA)`,
    });
  }
}
