// The compiled model as one document for other programs (`achilles compile`, read by the Python
// package): the object the native reader takes (toNativeModel, as the Node engine hands it over),
// the world settings a batch defaults to, and the names and offsets that label its arrays.

import { toNativeModel } from './batch.js';
import { coordinateLayout, JOINT_NQ, JOINT_NV, type MjcfSensorDesc, type ModelDesc, type MujocoLayout } from './model-desc.js';

export const COMPILED_MODEL_FORMAT = 'achilles-compiled-model';
/** Raised when a reader of version 1 could misread the document. */
export const COMPILED_MODEL_VERSION = 1;

export interface CompiledModel {
  format: typeof COMPILED_MODEL_FORMAT;
  version: typeof COMPILED_MODEL_VERSION;
  /** The file as given to `achilles compile`. */
  source: string;
  name: string;
  /** The files the model was read from, the scene first (what a cache of the document depends on). */
  files: string[];
  /** What the native reader takes (native/binding/model_reader.hpp), key for key. */
  native: object;
  world: { dt: number; integrator: string; substeps: number; gravity: number[]; duration: number };
  names: {
    bodies: string[];
    /** Per body, its joint: coordinates q[qoff .. qoff + nq), velocities v[voff .. voff + nv). */
    joints: { name: string; type: string; qoff: number; voff: number; nq: number; nv: number }[];
    /** Per actuator, in ctrl order; ctrlrange null where the control is not clamped. */
    actuators: { name: string; ctrlrange: [number, number] | null }[];
    shapes: string[];
    /** An imported model's MuJoCo sensors in sensordata's order: each one's values are
     *  sensordata[adr .. adr + dim) (MuJoCo's sensor_adr, sensor_dim). */
    sensors?: { name: string; type: string; adr: number; dim: number; cutoff: number; noise: number }[];
  };
  /** Imported models (MJCF, URDF): MuJoCo's bodies and sites, where they are in the engine's links. */
  mujoco?: MujocoLayout;
  /** An imported model's MuJoCo sensors as the engine evaluates them (engine/mjcf-sensors.ts; the Python
   *  package's _sensors.py), and whether <flag sensor="disable"> switched them off. */
  mjcfSensors?: MjcfSensorDesc[];
  mjcfSensorsDisabled?: boolean;
}

export function compiledModel(model: ModelDesc, source: string): CompiledModel {
  const { qOffset, vOffset } = coordinateLayout(model.bodies);
  const w = model.world;
  return {
    format: COMPILED_MODEL_FORMAT,
    version: COMPILED_MODEL_VERSION,
    source,
    name: model.name,
    files: [...model.files],
    native: toNativeModel(model),
    world: { dt: w.dt, integrator: w.integrator, substeps: w.substeps, gravity: [...w.gravity], duration: w.duration },
    names: {
      bodies: model.bodies.map((b) => b.name),
      joints: model.bodies.map((b, i) => ({
        name: b.name,
        type: b.joint,
        qoff: qOffset[i],
        voff: vOffset[i],
        nq: JOINT_NQ[b.joint],
        nv: JOINT_NV[b.joint],
      })),
      actuators: (model.actuators ?? []).map((a) => ({ name: a.name, ctrlrange: a.ctrlrange ?? null })),
      shapes: (model.shapes ?? []).map((s) => s.name),
      ...(model.mjcfSensors?.length
        ? {
            sensors: model.mjcfSensors.map((s) => ({
              name: s.name,
              type: s.type,
              adr: s.adr,
              dim: s.dim,
              cutoff: s.cutoff,
              noise: s.noise,
            })),
          }
        : {}),
    },
    ...(model.mujoco ? { mujoco: model.mujoco } : {}),
    ...(model.mjcfSensors?.length ? { mjcfSensors: model.mjcfSensors.map(({ source: _, ...s }) => s) } : {}),
    ...(model.mjcfSensorsDisabled ? { mjcfSensorsDisabled: true } : {}),
  };
}
