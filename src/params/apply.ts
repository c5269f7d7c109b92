// A robot's parameter values written into its model as constants: the model that robot runs. The
// native core derives everything else from it at load as MuJoCo's mj_setConst does (the parallel-axis
// inertias, body/dof/tendon invweight0 and the contact and limit rows' R made from them, the dampratio
// bias of position-like actuators), so each robot's derived constants are its own.

import type { ActuatorDesc, BodyDesc, ModelDesc, ShapeDesc } from '../engine/model-desc.js';
import { parameterBug } from './bugs.js';
import type { ParameterValue } from './names.js';

/** `model` with `values` written in (in order; `model` itself is not changed). */
export function withParameters(model: ModelDesc, values: readonly ParameterValue[]): ModelDesc {
  if (values.length === 0) return model;
  const bodies: BodyDesc[] = model.bodies.map((b) => ({ ...b, com: [...b.com], inertia: [...b.inertia] }));
  const shapes: ShapeDesc[] | undefined = model.shapes?.map((s) => ({ ...s }));
  const actuators: ActuatorDesc[] | undefined = model.actuators?.map((a) => ({
    ...a,
    ...(a.ctrlrange ? { ctrlrange: [...a.ctrlrange] as [number, number] } : {}),
    ...(a.general ? { general: { ...a.general, gainprm: [...a.general.gainprm], biasprm: [...a.general.biasprm] } } : {}),
  }));
  const gravity: [number, number, number] = [...model.world.gravity];
  for (const { target: t, value } of values) {
    switch (t.kind) {
      case 'mass_scale': {
        // m·s and I_com·s: the whole body scaled, its first moment m·c with it (c unchanged).
        const b = bodies[t.body];
        b.mass *= value;
        if (!parameterBug('params-mass-without-inertia')) b.inertia = b.inertia.map((x) => x * value) as BodyDesc['inertia'];
        break;
      }
      case 'com_offset':
        bodies[t.body].com[t.axis] += value;
        break;
      case 'friction':
        for (const s of t.shapes) shapes![s].friction = value;
        break;
      case 'damping':
        bodies[t.body].damping = value;
        break;
      case 'armature':
        bodies[t.body].armature = value;
        break;
      case 'gain': {
        const a = actuators![t.actuator];
        if (a.kind === 'position') a.kp = value;
        else if (a.kind === 'velocity') a.kv = value;
        else if (a.general) {
          // MuJoCo's <position> is gainprm[0] = kp, biasprm[1] = −kp: a position-like general
          // actuator keeps the two tied.
          if (a.general.biasprm[1] === -a.general.gainprm[0] && a.general.gainprm[0] !== 0) a.general.biasprm[1] = -value;
          a.general.gainprm[0] = value;
        }
        break;
      }
      case 'ctrl_range':
        actuators![t.actuator].ctrlrange![t.end] = value;
        break;
      case 'gravity':
        gravity[t.axis] = value;
        break;
    }
  }
  return {
    ...model,
    bodies,
    world: { ...model.world, gravity },
    ...(shapes ? { shapes } : {}),
    ...(actuators ? { actuators } : {}),
  };
}
