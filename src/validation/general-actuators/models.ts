// The model of the `general-actuators` stage, built here: a five-joint arm, each joint driven by
// one of MuJoCo's general actuators, together covering every dyntype (none, integrator, filter,
// filterexact), gaintype (fixed, affine) and biastype (none, affine) the engine follows, with
// actearly, actrange, ctrlrange, forcerange, a gear and a dampratio (biasprm[2] > 0).

import type { ActuatorDesc, GeneralActuatorDesc, ModelDesc, Vec3 } from '../../engine/model-desc.js';
import { rod } from '../actuators/models.js';

const general = (g: Partial<GeneralActuatorDesc>): GeneralActuatorDesc => ({
  dyntype: 'none',
  gaintype: 'fixed',
  biastype: 'none',
  dynprm: [1, 0, 0],
  gainprm: [1, 0, 0],
  biasprm: [0, 0, 0],
  ...g,
});

/** What each actuator exercises (one per joint, in order). */
export const GENERAL_CASES: {
  what: string;
  gear: number;
  g: GeneralActuatorDesc;
  ctrlrange?: [number, number];
  forcerange?: [number, number];
}[] = [
  {
    what: 'filter, fixed gain, affine bias (a position servo with a filter), gear 2, ctrlrange',
    gear: 2,
    g: general({ dyntype: 'filter', dynprm: [0.04, 0, 0], gainprm: [40, 0, 0], biastype: 'affine', biasprm: [0, -40, -3] }),
    ctrlrange: [-1, 1],
  },
  {
    what: "filterexact with actrange (MuJoCo's position timeconst) and a dampratio 0.7",
    gear: 1,
    g: general({
      dyntype: 'filterexact',
      dynprm: [0.03, 0, 0],
      gainprm: [30, 0, 0],
      biastype: 'affine',
      biasprm: [0, -30, 0.7],
      actrange: [-0.8, 0.8],
    }),
  },
  {
    what: "integrator with actrange and ctrlrange (MuJoCo's intvelocity)",
    gear: 1,
    g: general({ dyntype: 'integrator', gainprm: [20, 0, 0], biastype: 'affine', biasprm: [0, -20, -1], actrange: [-1, 1] }),
    ctrlrange: [-2, 2],
  },
  {
    what: 'no dynamics, affine gain, no bias, forcerange',
    gear: 1,
    g: general({ gaintype: 'affine', gainprm: [5, 2, -0.5] }),
    forcerange: [-4, 4],
  },
  {
    what: 'filter with actearly, affine gain and affine bias, gear 1.5',
    gear: 1.5,
    g: general({
      dyntype: 'filter',
      dynprm: [0.05, 0, 0],
      gaintype: 'affine',
      gainprm: [6, 1, 0.3],
      biastype: 'affine',
      biasprm: [0.2, -6, -0.4],
      actearly: true,
    }),
  },
];

export function generalArm(): ModelDesc {
  const axes: Vec3[] = [
    [1, 0, 0],
    [0, 0, 1],
    [1, 0, 0],
    [0, 0, 1],
    [1, 0, 0],
  ];
  const mass = [1.2, 1.0, 0.8, 0.6, 0.4];
  const len = [0.4, 0.35, 0.3, 0.25, 0.2];
  const bodies = axes.map((axis, i) =>
    rod(`j${i + 1}`, i - 1, i === 0 ? [0, 0, 0] : [0, len[i - 1], 0], axis, mass[i], len[i], { damping: 0.05, armature: 0.01 }, 0.06),
  );
  const actuators: ActuatorDesc[] = GENERAL_CASES.map((c, i) => ({
    name: `g${i + 1}`,
    body: i,
    kind: 'general',
    general: c.g,
    gear: [c.gear],
    kp: 0,
    kv: 0,
    ...(c.ctrlrange ? { ctrlrange: c.ctrlrange } : {}),
    ...(c.forcerange ? { forcerange: c.forcerange } : {}),
  }));
  return {
    name: 'general-arm',
    bodies,
    actuators,
    files: [],
    world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'euler', duration: 2, substeps: 1 },
  };
}
