// <sensor>: the MuJoCo sensors whose values the engine computes as engine_sensor.c does (ir.ts
// SENSOR_TYPES), read as MuJoCo's mjXReader::Sensor reads them: the object by name, cutoff and noise
// (both ≥ 0, as MuJoCo's compiler requires). Any other sensor type, and any attribute not followed
// here (user data, delay buffers, ...), is refused at its line. MuJoCo refuses a cutoff on an axis or
// quaternion sensor; so does this reader.

import { SENSOR_TYPES, type IrSensor, type SensorObjType, type SensorType } from '../ir.js';
import type { XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { sections, type MjcfContext } from './context.js';

const OBJTYPES: readonly SensorObjType[] = ['body', 'xbody', 'geom', 'site'];
/** MuJoCo's mjDATATYPE_AXIS and mjDATATYPE_QUATERNION sensors: a cutoff is a compile error there. */
const NO_CUTOFF = new Set<SensorType>(['framequat', 'framexaxis', 'frameyaxis', 'framezaxis']);

/** The attribute naming the sensor's object, per type (frame sensors: objtype + objname). */
function objectAttr(type: SensorType): 'joint' | 'actuator' | 'body' | 'site' | null {
  switch (type) {
    case 'jointpos':
    case 'jointvel':
      return 'joint';
    case 'actuatorpos':
    case 'actuatorvel':
    case 'actuatorfrc':
      return 'actuator';
    case 'subtreecom':
      return 'body';
    case 'gyro':
    case 'velocimeter':
    case 'accelerometer':
    case 'force':
    case 'torque':
    case 'touch':
      return 'site';
    default:
      return null;
  }
}

export function readSensors(ctx: MjcfContext): void {
  for (const s of sections(ctx, 'sensor')) {
    for (const c of s.children) {
      if (!(SENSOR_TYPES as readonly string[]).includes(c.name))
        ctx.r.fail(
          c,
          `<sensor><${c.name}>`,
          `a ${c.name} sensor, which the importer does not compute`,
          `one of ${SENSOR_TYPES.join(', ')}`,
        );
      (ctx.ir.sensors ??= []).push(readSensor(ctx, c, c.name as SensorType));
    }
  }
}

function readSensor(ctx: MjcfContext, c: XmlElement, type: SensorType): IrSensor {
  const r: Reader = ctx.r;
  const name = c.attrs.get('name')?.value ?? '';
  const subject = name ? `sensor '${name}'` : `<${type}>`;
  const own = objectAttr(type);
  const followed = new Set(['name', 'cutoff', 'noise', ...(own ? [own] : ['objtype', 'objname', 'reftype', 'refname'])]);
  for (const [key, a] of c.attrs)
    if (!followed.has(key))
      r.fail(a, subject, `attribute ${key}`, `only ${[...followed].join(', ')} (the importer does not follow ${key} of a ${type} sensor)`);
  const nonNegative = (key: string): number => {
    const a = c.attrs.get(key);
    if (!a) return 0;
    const x = r.num(a, subject);
    if (x < 0) r.fail(a, subject, `${key} ${x}`, `a ${key} ≥ 0 (MuJoCo: "negative ${key} in sensor")`);
    return x;
  };
  const cutoff = nonNegative('cutoff');
  const noise = nonNegative('noise');
  const cut = c.attrs.get('cutoff');
  if (cut && cutoff > 0 && NO_CUTOFF.has(type))
    r.fail(cut, subject, `a cutoff on a ${type} sensor`, 'no cutoff (MuJoCo: "cutoff applied to axis or quaternion datatype in sensor")');
  if (own) {
    const a = c.attrs.get(own);
    if (!a) r.fail(c, subject, `no ${own} attribute`, `${own}="NAME" (the ${own} the sensor reads)`);
    return { type, name, objtype: own, objname: a.value, cutoff, noise, source: r.span(c), objSource: r.span(a) };
  }
  const objtype = c.attrs.get('objtype');
  const objname = c.attrs.get('objname');
  if (!objtype || !objname) r.fail(c, subject, 'no objtype or objname', `objtype="${OBJTYPES.join('|')}" objname="NAME"`);
  const sensor: IrSensor = {
    type,
    name,
    objtype: r.choice(objtype, subject, OBJTYPES),
    objname: objname.value,
    cutoff,
    noise,
    source: r.span(c),
    objSource: r.span(objname),
  };
  const reftype = c.attrs.get('reftype');
  const refname = c.attrs.get('refname');
  if (reftype || refname) {
    if (!reftype || !refname)
      r.fail(
        reftype ?? refname!,
        subject,
        'reftype or refname alone',
        "both reftype and refname (MuJoCo's schema: they must be specified together)",
      );
    sensor.ref = { type: r.choice(reftype, subject, OBJTYPES), name: refname.value, source: r.span(refname) };
  }
  return sensor;
}
