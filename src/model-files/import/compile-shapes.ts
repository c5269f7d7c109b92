// An MJCF geom as the engine's collision shape.

import { DEFAULT_ROLLING_FRICTION, DEFAULT_TORSIONAL_FRICTION, type ShapeDesc, type Vec3 } from '../../engine/model-desc.js';
import { add3 } from '../../engine/math.js';
import { SceneError } from '../common/errors.js';
import { importBug } from './bugs.js';
import type { ImportNote, IrGeom } from './ir.js';

/** The geom as a shape (MuJoCo's own kinds; a mesh as its hull, the `convex` kind). */
export function shapeOf(g: IrGeom, body: number, offset: Vec3, notes: ImportNote[]): ShapeDesc | undefined {
  if (g.contype === 0 && g.conaffinity === 0) {
    notes.push({
      kind: 'skipped',
      source: g.source,
      message: `geom '${g.name}' collides with nothing (contype = conaffinity = 0): not a collision shape${g.mass > 0 ? ' (its mass still counts, as in MuJoCo)' : ''}`,
    });
    return undefined;
  }
  const s = g.size;
  let kind: ShapeDesc['kind'];
  let h: Vec3 = [0, 0, 0];
  let r = 0;
  let size: Vec3 | undefined;
  let vertices: number[] | undefined;
  switch (g.type) {
    case 'sphere':
      kind = 'sphere';
      r = s[0];
      break;
    case 'capsule':
      kind = 'capsule';
      r = s[0];
      h = [0, 0, s[1]];
      break;
    case 'box':
      kind = 'box';
      h = [...s];
      break;
    case 'plane':
      if (body >= 0)
        throw new SceneError({
          ...g.source,
          subject: `geom '${g.name}'`,
          found: 'a plane on a moving body',
          expected: 'planes only in <worldbody> (static)',
        });
      kind = 'plane';
      break;
    case 'cylinder':
      kind = 'cylinder';
      size = [s[0], s[1], 0];
      h = [s[0], s[0], s[1]];
      break;
    case 'ellipsoid':
      kind = 'ellipsoid';
      size = [s[0], s[1], s[2]];
      h = [s[0], s[1], s[2]];
      break;
    case 'mesh': {
      // The hull in MuJoCo's geom frame (the mesh's centre of mass and principal axes, which the
      // geom's pos and quat absorbed); mesh-hulls.ts turns it into its box where a pair needs that.
      const hull = g.hull;
      if (!hull) throw new Error(`mesh geom '${g.name}' reached the collision shapes without its hull`);
      kind = 'convex';
      vertices = [...hull.vert];
      for (let i = 0; i < vertices.length; i++) h[i % 3] = Math.max(h[i % 3], Math.abs(vertices[i]));
      break;
    }
  }
  const sh: ShapeDesc = {
    name: g.name,
    body,
    kind,
    halfExtents: h,
    radius: r,
    ...(size ? { size } : {}),
    ...(vertices ? { vertices } : {}),
    pos: add3(g.pos, offset),
    // (the planted bug: a mesh's hull placed without the geom's rotation, the mesh's principal axes)
    quat: vertices && importBug('import-mesh-hull-frame-dropped') ? [1, 0, 0, 0] : g.quat,
    friction: g.friction,
    contype: g.contype,
    conaffinity: g.conaffinity,
    margin: g.margin,
    gap: g.gap,
    condim: g.condim,
    source: g.source,
  };
  // the torsional and rolling parts when not MuJoCo's defaults (a pair takes the max of its two shapes', and reads them at condim 4, 6)
  if (g.torsionalFriction !== DEFAULT_TORSIONAL_FRICTION) sh.torsionalFriction = g.torsionalFriction;
  if (g.rollingFriction !== DEFAULT_ROLLING_FRICTION) sh.rollingFriction = g.rollingFriction;
  if (g.solref) sh.solref = g.solref;
  if (g.solimp) sh.solimp = g.solimp;
  // priority and solmix when not MuJoCo's defaults (a model without them stays as it was)
  if (g.priority !== 0) sh.priority = g.priority;
  if (g.solmix !== 1) sh.solmix = g.solmix;
  if (g.rgba) sh.color = [g.rgba[0], g.rgba[1], g.rgba[2]];
  return sh;
}

/** Shape names made unique in order (a repeated name gets _2, _3, ...). */
export function uniqueShapeNames(shapes: ShapeDesc[]): void {
  const taken = new Set<string>();
  for (const s of shapes) {
    let n = s.name;
    for (let k = 2; taken.has(n); k++) n = `${s.name}_${k}`;
    s.name = n;
    taken.add(n);
  }
}
