// Small models for the viewer tests.
import { loadScene } from '../../src/model-files/scene/index.js';
import type { ModelDesc } from '../../src/engine/model-desc.js';

export function doublePendulum(): ModelDesc {
  return loadScene('scenes/double-pendulum.arow');
}

/** One hinged body carrying one shape of every movable kind, above a world plane. */
export function shapesModel(): ModelDesc {
  const base = {
    friction: 1,
    contype: 1,
    conaffinity: 1,
    margin: 0,
    gap: 0,
    quat: [1, 0, 0, 0] as [number, number, number, number],
  };
  return {
    name: 'shapes',
    files: [],
    world: { gravity: [0, 0, -9.81], dt: 0.01, integrator: 'rk4', duration: 1, substeps: 1 },
    bodies: [
      {
        name: 'arm',
        parent: -1,
        pos: [0, 0, 0],
        quat: [1, 0, 0, 0],
        joint: 'revolute',
        axis: [1, 0, 0],
        mass: 1,
        com: [0, 0.5, 0],
        inertia: [0.1, 0.01, 0.1, 0, 0, 0],
        q0: [0],
        v0: [0],
        tau: [0],
      },
    ],
    shapes: [
      { ...base, name: 's', body: 0, kind: 'sphere', halfExtents: [0, 0, 0], radius: 0.15, pos: [0, 0, 0], color: [0.9, 0.3, 0.2] },
      {
        ...base,
        name: 'c',
        body: 0,
        kind: 'capsule',
        halfExtents: [0, 0, 0.3],
        radius: 0.05,
        pos: [0, 0.4, 0],
        quat: [Math.SQRT1_2, Math.SQRT1_2, 0, 0],
        color: [0.2, 0.8, 0.3],
      },
      { ...base, name: 'b', body: 0, kind: 'box', halfExtents: [0.1, 0.1, 0.1], radius: 0, pos: [0, 0.8, 0], color: [0.2, 0.4, 0.9] },
      {
        ...base,
        name: 'r',
        body: 0,
        kind: 'rounded-box',
        halfExtents: [0.08, 0.08, 0.08],
        radius: 0.04,
        pos: [0, 1.1, 0],
        color: [0.9, 0.8, 0.2],
      },
      { ...base, name: 'floor', body: -1, kind: 'plane', halfExtents: [0, 0, 0], radius: 0, pos: [0, 0, -1.4], color: [0.5, 0.5, 0.55] },
    ],
  } as ModelDesc;
}
