// A link's mass, centre of mass and inertia from its shapes and a density, as MJCF's
// `inertiafromgeom` (uniform density, overlaps counted twice, as MuJoCo does).
//
// Cylinders and ellipsoids have their textbook moments, a convex shape its hull's (as MuJoCo weighs a
// mesh: shapeInertia). Every other kind is a sphere-swept box (core half-extents h, radius r), whose
// volume and second moments ∫x_k² dV have one exact closed form: the solid is the core box, 6 slabs of thickness r on
// its faces, 12 quarter cylinders on its edges and 8 ball octants on its corners (disjoint), and
// each piece's integral is elementary. Sphere (h = 0), capsule (h = [0, 0, ℓ/2]) and box (r = 0)
// are special cases, so the rounded box is exact too, not approximated.

import type { Quat, ShapeDesc, Vec3 } from '../../engine/model-desc.js';
import { quatRotate, type Inertia6 } from '../../engine/math.js';
import { inertiaAbout, volumeCom } from '../import/mesh/mass-properties.js';
import { convexHull } from '../../engine/quickhull.js';

/** Volume and ∫x_k² dV (k = x, y, z) of a sphere-swept box about its centre, in its own axes. */
export function sweptBoxMoments(h: Vec3, r: number): { volume: number; second: Vec3 } {
  const PI = Math.PI;
  let volume = 8 * h[0] * h[1] * h[2];
  const second: Vec3 = [0, 0, 0];
  // core box
  for (let k = 0; k < 3; k++) second[k] += (volume * h[k] * h[k]) / 3;
  for (let a = 0; a < 3; a++) {
    const b = (a + 1) % 3;
    const c = (a + 2) % 3;
    // two slabs on the faces normal to a: x_a ∈ ±[h_a, h_a + r], |x_b| <= h_b, |x_c| <= h_c
    const slabArea = 4 * h[b] * h[c];
    volume += 2 * r * slabArea;
    second[a] += ((2 * ((h[a] + r) ** 3 - h[a] ** 3)) / 3) * slabArea;
    second[b] += 2 * r * ((2 * h[b] ** 3) / 3) * 2 * h[c];
    second[c] += 2 * r * ((2 * h[c] ** 3) / 3) * 2 * h[b];
    // four quarter cylinders along a at (±h_b, ±h_c): together one disc of radius r in (b, c)
    const len = 2 * h[a];
    volume += len * PI * r * r;
    second[a] += ((2 * h[a] ** 3) / 3) * PI * r * r;
    for (const k of [b, c]) second[k] += len * (PI * r * r * h[k] * h[k] + 2 * h[k] * ((4 * r ** 3) / 3) + (PI * r ** 4) / 4);
  }
  // eight ball octants at (±h_x, ±h_y, ±h_z): together one ball of radius r
  volume += (4 / 3) * PI * r ** 3;
  for (let k = 0; k < 3; k++) second[k] += h[k] * h[k] * (4 / 3) * PI * r ** 3 + 2 * h[k] * ((PI * r ** 4) / 2) + (4 * PI * r ** 5) / 15;
  return { volume, second };
}

type MomentShape = Pick<ShapeDesc, 'kind' | 'halfExtents' | 'radius' | 'size' | 'vertices'> & { name?: string };

/** A shape's volume, centroid (shape frame) and inertia per unit density about its centroid (shape
 *  axes, products as tensor elements −∫xy): a cylinder (radius r, half-length ℓ along z: V = 2πr²ℓ,
 *  ∫x² = ∫y² = V r²/4, ∫z² = V ℓ²/3), an ellipsoid (semi-axes a_k: V = 4πabc/3, ∫x_k² = V a_k²/5),
 *  a convex shape (its hull's tetrahedra from the centroid, as MuJoCo weighs a mesh), or a
 *  sphere-swept box. */
export function shapeInertia(s: MomentShape): { volume: number; centroid: Vec3; I: Inertia6 } {
  if (s.kind === 'convex') {
    const v = s.vertices ?? [];
    const hull = convexHull(v);
    const n = v.length / 3;
    const apex: Vec3 = [0, 1, 2].map((k) => v.filter((_, i) => i % 3 === k).reduce((a, b) => a + b, 0) / n) as Vec3;
    const centroid: Vec3 = [0, 0, 0];
    const volume = volumeCom(v, hull.face, apex, centroid, 'convex');
    const { inert } = inertiaAbout(v, hull.face, centroid, 'convex');
    return { volume, centroid, I: inert as Inertia6 };
  }
  let m: { volume: number; second: Vec3 };
  if (s.kind === 'cylinder') {
    const [r, l] = s.size ?? [0, 0, 0];
    const volume = 2 * Math.PI * r * r * l;
    m = { volume, second: [(volume * r * r) / 4, (volume * r * r) / 4, (volume * l * l) / 3] };
  } else if (s.kind === 'ellipsoid') {
    const a = s.size ?? [0, 0, 0];
    const volume = (4 / 3) * Math.PI * a[0] * a[1] * a[2];
    m = { volume, second: [(volume * a[0] ** 2) / 5, (volume * a[1] ** 2) / 5, (volume * a[2] ** 2) / 5] };
  } else {
    m = sweptBoxMoments(s.halfExtents, s.radius);
  }
  const [sx, sy, sz] = m.second;
  return { volume: m.volume, centroid: [0, 0, 0], I: [sy + sz, sx + sz, sx + sy, 0, 0, 0] };
}

/** Mass, CoM (link frame) and inertia about the CoM (link axes) of the shapes at this density. */
export function massFromShapes(
  shapes: (MomentShape & Pick<ShapeDesc, 'pos' | 'quat'>)[],
  density: number,
): { mass: number; com: Vec3; inertia: Inertia6 } {
  let mass = 0;
  const first: Vec3 = [0, 0, 0];
  const parts: { m: number; p: Vec3; I: Inertia6 }[] = [];
  for (const s of shapes) {
    const { volume, centroid, I: I0 } = shapeInertia(s);
    const m = density * volume;
    const I = rotate(I0.map((x) => density * x) as Inertia6, s.quat);
    const c = quatRotate(s.quat, centroid);
    const p: Vec3 = [s.pos[0] + c[0], s.pos[1] + c[1], s.pos[2] + c[2]];
    parts.push({ m, p, I });
    mass += m;
    for (let k = 0; k < 3; k++) first[k] += m * p[k];
  }
  const com: Vec3 = [first[0] / mass, first[1] / mass, first[2] / mass];
  const inertia: Inertia6 = [0, 0, 0, 0, 0, 0];
  for (const { m, p, I } of parts) {
    const d: Vec3 = [p[0] - com[0], p[1] - com[1], p[2] - com[2]];
    const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    inertia[0] += I[0] + m * (dd - d[0] * d[0]);
    inertia[1] += I[1] + m * (dd - d[1] * d[1]);
    inertia[2] += I[2] + m * (dd - d[2] * d[2]);
    inertia[3] += I[3] - m * d[0] * d[1];
    inertia[4] += I[4] - m * d[0] * d[2];
    inertia[5] += I[5] - m * d[1] * d[2];
  }
  return { mass, com, inertia };
}

/** R·I·Rᵀ for a tensor given in the shape frame (R's columns: the shape axes in the link frame). */
function rotate(I: Inertia6, q: Quat): Inertia6 {
  const c = [quatRotate(q, [1, 0, 0]), quatRotate(q, [0, 1, 0]), quatRotate(q, [0, 0, 1])];
  const T = [
    [I[0], I[3], I[4]],
    [I[3], I[1], I[5]],
    [I[4], I[5], I[2]],
  ];
  const at = (r: number, s: number): number => {
    let x = 0;
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) x += c[a][r] * T[a][b] * c[b][s];
    return x;
  };
  return [at(0, 0), at(1, 1), at(2, 2), at(0, 1), at(0, 2), at(1, 2)];
}
