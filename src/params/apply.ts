// A robot's parameter values written into its model as constants: the model that robot runs. The
// native core derives everything else from it at load as MuJoCo's mj_setConst does (the parallel-axis
// inertias, body/dof/tendon invweight0 and the contact and limit rows' R made from them, the dampratio
// bias of position-like actuators), so each robot's derived constants are its own.

import { massOverflow } from '../engine/math.js';
import type { ActuatorDesc, BodyDesc, ModelDesc, ShapeDesc } from '../engine/model-desc.js';
import { parameterBug } from './bugs.js';
import type { ParameterValue } from './names.js';

/** `model` with `values` written in (in order; `model` itself is not changed). A value that makes a
 *  link's derived mass properties overflow (what the native core would refuse without a place) throws
 *  a ParameterError naming it; the readers check a distribution's whole reach before anything runs
 *  (extremes.ts), so this is their defence in depth. */
export function withParameters(model: ModelDesc, values: readonly ParameterValue[]): ModelDesc {
  const out = applyParameters(model, values);
  const over = derivedOverflow(out, values);
  if (over)
    throw new ParameterError(
      over.value,
      `${over.value.name ?? over.value.target.kind}: found ${over.value.value}, which gives link ${over.link} ${over.what}, expected a value whose mass properties stay finite`,
    );
  return out;
}

/** A parameter value the model cannot take, with the value that made it so. */
export class ParameterError extends Error {
  constructor(
    readonly value: ParameterValue,
    message: string,
  ) {
    super(message);
    this.name = 'ParameterError';
  }
}

/** The first link whose derived mass properties overflow once `values` are in `model` (massOverflow:
 *  the mass, centre, inertia, first moment and parallel-axis inertia the native core forms at load),
 *  with the value that touches it; undefined when none does. */
export function derivedOverflow(
  model: ModelDesc,
  values: readonly ParameterValue[],
): { value: ParameterValue; link: string; what: string } | undefined {
  for (const v of values) {
    const t = v.target;
    if (t.kind !== 'mass_scale' && t.kind !== 'com_offset') continue;
    const b = model.bodies[t.body];
    const what = massOverflow(b.mass, b.com, b.inertia);
    if (what) return { value: v, link: b.name, what };
  }
  return undefined;
}

/** `values` written into a copy of `model`, unchecked. */
export function applyParameters(model: ModelDesc, values: readonly ParameterValue[]): ModelDesc {
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
