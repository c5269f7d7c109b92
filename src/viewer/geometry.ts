// What the viewer draws for each body and for the world, in the body's own frame B (static
// geometry in W). A body with collision shapes is drawn from them. A body without shapes:
//   * in a model whose bodies have no shapes at all (a bare kinematic chain), a stand-in built
//     from its mass properties, so every recorded link is visible:
//       - a capsule from its joint (B's origin) to each child's joint (p_BJc = child.pos), and
//       - a box at its centre of mass whose uniform-density inertia equals the body's
//         (principal axes of the inertia matrix; full side a along axis 1 from
//         a² = 6 (I₂ + I₃ − I₁) / m, and likewise);
//   * in a model that has shapes, only the thin capsules to its children (the skeleton between
//     shaped links), nothing where it has none: there the shapes are what the scene looks like,
//     and an inertia box would be a solid that does not exist (ball-on-plate's roll gimbal, a
//     0.245 m cube over the plate). MuJoCo's viewer likewise draws nothing for a body without geoms.

import type { ModelDesc, Quat, ShapeKind, Vec3 } from '../engine/model-desc.js';
import { symmetricEigen } from '../engine/math.js';

export interface Drawable {
  kind: ShapeKind;
  /** Core half-extents (sphere-swept box), as in ShapeDesc (cylinder, ellipsoid, convex: a bounding box). */
  halfExtents: Vec3;
  radius: number;
  /** Cylinder and ellipsoid: MuJoCo's size; convex: the hull's vertices (x y z each). */
  size?: Vec3;
  vertices?: number[];
  /** X_BS (or X_WS for static geometry). */
  pos: Vec3;
  quat: Quat;
  color: Vec3;
  /** 'shape' = a collision shape; 'link' = the capsule stand-in; 'inertia' = the equivalent box. */
  role: 'shape' | 'link' | 'inertia';
}

export interface BodyGeometry {
  name: string;
  parent: number;
  /** p_BoBcm_B, for the centre-of-mass marker. */
  com: Vec3;
  drawables: Drawable[];
}

export interface SceneGeometry {
  bodies: BodyGeometry[];
  /** Shapes on the world (body -1): planes and fixed obstacles. */
  statics: Drawable[];
  /** Largest distance of any body point from the origin at rest, for camera and grid sizing. */
  reach: number;
}

const GREY: Vec3 = [0.72, 0.72, 0.75];

/** Unit quaternion [w,x,y,z] of a rotation matrix R (rows), Shepperd's method. */
export function quatFromMatrix(r: number[][]): Quat {
  const tr = r[0][0] + r[1][1] + r[2][2];
  let q: Quat;
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    q = [s / 4, (r[2][1] - r[1][2]) / s, (r[0][2] - r[2][0]) / s, (r[1][0] - r[0][1]) / s];
  } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
    const s = 2 * Math.sqrt(1 + r[0][0] - r[1][1] - r[2][2]);
    q = [(r[2][1] - r[1][2]) / s, s / 4, (r[0][1] + r[1][0]) / s, (r[0][2] + r[2][0]) / s];
  } else if (r[1][1] > r[2][2]) {
    const s = 2 * Math.sqrt(1 + r[1][1] - r[0][0] - r[2][2]);
    q = [(r[0][2] - r[2][0]) / s, (r[0][1] + r[1][0]) / s, s / 4, (r[1][2] + r[2][1]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + r[2][2] - r[0][0] - r[1][1]);
    q = [(r[1][0] - r[0][1]) / s, (r[0][2] + r[2][0]) / s, (r[1][2] + r[2][1]) / s, s / 4];
  }
  const n = Math.hypot(...q);
  return q.map((x) => x / n) as Quat;
}

/** The uniform box with the body's mass and inertia about its centre of mass (half-extents, orientation in B). */
export function inertiaBox(mass: number, inertia: [number, number, number, number, number, number]): { halfExtents: Vec3; quat: Quat } {
  const [ixx, iyy, izz, ixy, ixz, iyz] = inertia;
  const { values, vectors } = symmetricEigen([
    [ixx, ixy, ixz],
    [ixy, iyy, iyz],
    [ixz, iyz, izz],
  ]);
  const side = (i: number): number => {
    const [a, b, c] = [values[i], values[(i + 1) % 3], values[(i + 2) % 3]];
    return Math.sqrt(Math.max(0, (6 * (b + c - a)) / mass));
  };
  // Columns of `vectors` are the principal axes; make the frame right-handed.
  const r = vectors.map((row) => row.slice());
  const det =
    r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) -
    r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
    r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
  if (det < 0) for (let k = 0; k < 3; k++) r[k][2] = -r[k][2];
  return { halfExtents: [side(0) / 2, side(1) / 2, side(2) / 2], quat: quatFromMatrix(r) };
}

/** Rotation taking +z to the unit direction d (shortest arc). */
function quatZTo(d: Vec3): Quat {
  const [x, y, z] = d;
  if (z < -1 + 1e-12) return [0, 1, 0, 0];
  const q: Quat = [1 + z, -y, x, 0];
  const n = Math.hypot(...q);
  return q.map((c) => c / n) as Quat;
}

export function sceneGeometry(model: ModelDesc): SceneGeometry {
  const shapes = model.shapes ?? [];
  const shaped = shapes.some((s) => s.body >= 0);
  const bodies: BodyGeometry[] = model.bodies.map((b, i) => {
    const color = b.visual?.color ?? GREY;
    const own = shapes.filter((s) => s.body === i);
    const drawables: Drawable[] = own.map((s) => ({
      kind: s.kind,
      halfExtents: s.halfExtents,
      radius: s.radius,
      ...(s.size ? { size: s.size } : {}),
      ...(s.vertices ? { vertices: s.vertices } : {}),
      pos: s.pos,
      quat: s.quat,
      color: s.color ?? color,
      role: 'shape' as const,
    }));
    if (own.length === 0) {
      // A massless link (a gimbal, a frame) has no inertia to show: its capsules, or a small ball at its joint.
      const massive = b.mass > 0 && b.inertia[0] + b.inertia[1] + b.inertia[2] > 0;
      const box = massive ? inertiaBox(b.mass, b.inertia) : { halfExtents: [0.02, 0.02, 0.02] as Vec3, quat: [1, 0, 0, 0] as Quat };
      // Thin enough to read as a link next to the box: a fraction of the box's smallest side, capped.
      const linkRadius = Math.max(0.005, Math.min(0.03, 0.3 * Math.min(...box.halfExtents.filter((h) => h > 0), 0.1)));
      model.bodies.forEach((c) => {
        if (c.parent !== i) return;
        const len = Math.hypot(...c.pos);
        if (len < 1e-9) return;
        const d: Vec3 = [c.pos[0] / len, c.pos[1] / len, c.pos[2] / len];
        drawables.push({
          kind: 'capsule',
          halfExtents: [0, 0, len / 2],
          radius: linkRadius,
          pos: [c.pos[0] / 2, c.pos[1] / 2, c.pos[2] / 2],
          quat: quatZTo(d),
          color,
          role: 'link',
        });
      });
      if (shaped) return { name: b.name, parent: b.parent, com: b.com, drawables }; // the skeleton only (see the top)
      if (massive)
        drawables.push({ kind: 'box', halfExtents: box.halfExtents, radius: 0, pos: b.com, quat: box.quat, color, role: 'inertia' });
      else if (drawables.length === 0)
        drawables.push({ kind: 'sphere', halfExtents: [0, 0, 0], radius: 0.02, pos: [0, 0, 0], quat: [1, 0, 0, 0], color, role: 'link' });
    }
    return { name: b.name, parent: b.parent, com: b.com, drawables };
  });
  const statics: Drawable[] = shapes
    .filter((s) => s.body === -1)
    .map((s) => ({
      kind: s.kind,
      halfExtents: s.halfExtents,
      radius: s.radius,
      ...(s.size ? { size: s.size } : {}),
      ...(s.vertices ? { vertices: s.vertices } : {}),
      pos: s.pos,
      quat: s.quat,
      color: s.color ?? GREY,
      role: 'shape' as const,
    }));
  // Reach: chain lengths from the root plus each body's largest drawable extent (a loose bound).
  const depth: number[] = [];
  let reach = 0;
  model.bodies.forEach((b, i) => {
    depth[i] = (b.parent >= 0 ? depth[b.parent] : 0) + Math.hypot(...b.pos);
    const ext = Math.max(0, ...bodies[i].drawables.map((d) => Math.hypot(...d.pos) + Math.hypot(...d.halfExtents) + d.radius));
    reach = Math.max(reach, depth[i] + ext);
  });
  return { bodies, statics, reach: Math.max(reach, 0.5) };
}
