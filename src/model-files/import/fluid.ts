// MuJoCo's fluid model compiled into ModelDesc.fluid (the engine's passive/fluid.hpp computes the
// forces): which bodies it acts on, each body's model and the constants MuJoCo's compiler makes.
//
// mj_fluid skips a body of mass below mjMINVAL; a body with a geom of fluidshape="ellipsoid" takes
// the ellipsoid model over those geoms, any other the inertia box, whose sides come from the body's
// principal inertia: box_i = sqrt(max(mjMINVAL, I_j + I_k − I_i) / m · 6) (mj_inertiaBoxFluidModel).
//
// An ellipsoid's added mass and inertia per unit density (mjCGeom::SetFluidCoefs), for semi-axes
// (d_x, d_y, d_z), volume V = 4/3 π d_x d_y d_z and κ_x = d_x d_y d_z ∫₀^∞ dl / ((d_x² + l)^{3/2}
// (d_y² + l)^{1/2} (d_z² + l)^{1/2}) (the others by permuting the axes):
//   m_a,x = V κ_x / max(mjEPS, 2 − κ_x)
//   I_a,x = V/5 · (d_y² − d_z²)² |κ_z − κ_y| / max(mjEPS, |2(d_y² − d_z²) + (d_y² + d_z²)(κ_y − κ_z)|)
// κ by MuJoCo's 15-point Gauss–Kronrod rule over l = x³/(1 − x)², x in [0, 1], with l scaled by
// (d_x³ d_y d_z)^{2/5} for conditioning (mjCGeom::GetAddedMassKappa): the same nodes and weights, so
// the same numbers.

import type { FluidBodyDesc, FluidDesc, FluidEllipsoidDesc, Vec3 } from '../../engine/model-desc.js';
import { principalOf } from './geom-inertia.js';
import type { BodyMap } from './ir.js';
import type { IrGeom, IrModel } from './ir.js';

/** MuJoCo's mjMINVAL and mjEPS. */
const MJ_MINVAL = 1e-15;
const MJ_EPS = 1e-14;

/** The fluid of an imported model, or undefined when MuJoCo computes none: no density and no
 *  viscosity, or both spring and damper disabled (mj_passive then skips every passive force). */
export function fluidDesc(ir: IrModel, bodyMap: readonly BodyMap[]): FluidDesc | undefined {
  const f = ir.fluid;
  if (!f || (f.density === 0 && f.viscosity === 0)) return undefined;
  const off = new Set((ir.disabled ?? []).map((d) => d.flag));
  if (off.has('spring') && off.has('damper')) return undefined;
  const bodies: FluidBodyDesc[] = [];
  ir.bodies.forEach((b, i) => {
    if (!(b.mass >= MJ_MINVAL)) return;
    const { link, offset } = bodyMap[i];
    const shaped = [...b.geoms, ...(b.fluidOnly ?? [])].filter((g) => g.fluid);
    if (shaped.length > 0) {
      bodies.push({ body: link, ellipsoids: shaped.map((g) => ellipsoidOf(g, offset)) });
      return;
    }
    const p = b.principal ?? principalOf(b.inertia);
    const I = p.inertia;
    const side = (k: number): number => Math.sqrt((Math.max(MJ_MINVAL, I[(k + 1) % 3] + I[(k + 2) % 3] - I[k]) / b.mass) * 6.0);
    bodies.push({ body: link, box: { quat: [...p.quat], size: [side(0), side(1), side(2)] } });
  });
  return { density: f.density, viscosity: f.viscosity, wind: [...f.wind], bodies, source: f.source };
}

/** MuJoCo's mju_geomSemiAxes. */
export function semiAxes(g: Pick<IrGeom, 'type' | 'size'>): Vec3 {
  const s = g.size;
  switch (g.type) {
    case 'sphere':
      return [s[0], s[0], s[0]];
    case 'capsule':
      return [s[0], s[0], s[1] + s[0]];
    case 'cylinder':
      return [s[0], s[0], s[1]];
    default:
      return [s[0], s[1], s[2]];
  }
}

function ellipsoidOf(g: IrGeom, offset: Vec3): FluidEllipsoidDesc {
  const semiaxes = semiAxes(g);
  const { virtualMass, virtualInertia } = addedMass(semiaxes);
  return {
    pos: [g.pos[0] + offset[0], g.pos[1] + offset[1], g.pos[2] + offset[2]],
    quat: [...g.quat],
    semiaxes,
    coef: [...g.fluid!],
    virtualMass,
    virtualInertia,
  };
}

/** The added mass and inertia per unit density of an ellipsoid of semi-axes d (SetFluidCoefs). */
export function addedMass(d: Vec3): { virtualMass: Vec3; virtualInertia: Vec3 } {
  const [dx, dy, dz] = d;
  const volume = (4.0 / 3.0) * Math.PI * dx * dy * dz;
  // κ is symmetric in its last two arguments
  const kx = kappa(dx, dy, dz);
  const ky = kappa(dy, dz, dx);
  const kz = kappa(dz, dx, dy);
  const sq = (x: number): number => x * x;
  const fac = (a: number, b: number, ka: number, kb: number): number =>
    (sq(a * a - b * b) * Math.abs(kb - ka)) / Math.max(MJ_EPS, Math.abs(2 * (a * a - b * b) + (a * a + b * b) * (ka - kb)));
  const Ix = fac(dy, dz, ky, kz);
  const Iy = fac(dz, dx, kz, kx);
  const Iz = fac(dx, dy, kx, ky);
  return {
    virtualMass: [
      (volume * kx) / Math.max(MJ_EPS, 2 - kx),
      (volume * ky) / Math.max(MJ_EPS, 2 - ky),
      (volume * kz) / Math.max(MJ_EPS, 2 - kz),
    ],
    virtualInertia: [(volume * Ix) / 5, (volume * Iy) / 5, (volume * Iz) / 5],
  };
}

// The 15-point Gauss–Kronrod weights, the nodes mapped to l = x³/(1 − x)² and dl/dx there.
const KRONROD_W = [
  0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236, 0.09517529, 0.10221647, 0.10474107, 0.10221647, 0.09517529, 0.08450236,
  0.07032663, 0.05239501, 0.03154605, 0.01146766,
];
const KRONROD_L = [
  7.865151709349917e-8, 1.7347976913907274e-5, 0.0003548008144506193, 0.002846636252924549, 0.014094260903596077, 0.053063261727396636,
  0.17041978741317773, 0.5, 1.4036301548686991, 3.9353484827022642, 11.644841677041734, 39.53187807410903, 177.5711362220801,
  1429.4772912937397, 54087.416549217705,
];
const KRONROD_D = [
  5.538677720489877e-5, 0.002080868285293228, 0.016514126520723166, 0.07261900344370877, 0.23985243401862602, 0.6868318249020725,
  1.8551129519182894, 5.0, 14.060031152313941, 43.28941239611009, 156.58546376397112, 747.9826085305024, 5827.4042950027115,
  116754.0197944512, 25482945.327264845,
];

/** κ_x of semi-axes (dx, dy, dz), as GetAddedMassKappa: the integral in units of d²·scale. */
function kappa(dx: number, dy: number, dz: number): number {
  const invdx2 = 1.0 / (dx * dx);
  const invdy2 = 1.0 / (dy * dy);
  const invdz2 = 1.0 / (dz * dz);
  const scale = Math.pow(dx * dx * dx * dy * dz, 0.4);
  let k = 0.0;
  for (let i = 0; i < 15; ++i) {
    const lambda = scale * KRONROD_L[i];
    const denom = (1 + lambda * invdx2) * Math.sqrt((1 + lambda * invdx2) * (1 + lambda * invdy2) * (1 + lambda * invdz2));
    k += ((scale * KRONROD_D[i]) / denom) * KRONROD_W[i];
  }
  return k * invdx2;
}
