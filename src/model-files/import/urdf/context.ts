// What every part of the URDF reader shares: the file (Reader: FILE:LINE:COL errors), the notes, and
// the small readers of URDF's own idioms (a required attribute, an <origin>'s xyz and rpy).

import type { Quat, Vec3 } from '../../../engine/model-desc.js';
import { urdfRpyQuat } from '../frames.js';
import type { ImportNote } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { Pos, XmlAttr, XmlElement } from '../xml.js';

export interface UrdfContext {
  /** Readers copy it into a name typed Reader (`const r: Reader = u.r`) so TypeScript narrows after r.fail. */
  r: Reader;
  note(kind: ImportNote['kind'], at: Pos, message: string): void;
  /** The first child element named `name`. */
  child(el: XmlElement, name: string): XmlElement | undefined;
  /** The attribute `name`, or an error at the element. */
  need(el: XmlElement, name: string, subject: string): XmlAttr;
  /** Three numbers from an attribute, or the default when the element or attribute is absent. */
  num3(el: XmlElement | undefined, name: string, subject: string, dflt: Vec3): Vec3;
  /** An element's <origin>: xyz and rpy (URDF's fixed-axis roll, pitch, yaw) as a pose. */
  origin(el: XmlElement, subject: string): { pos: Vec3; quat: Quat };
}

export function newUrdfContext(r: Reader, notes: ImportNote[]): UrdfContext {
  const child = (el: XmlElement, name: string): XmlElement | undefined => el.children.find((c) => c.name === name);
  const num3 = (el: XmlElement | undefined, name: string, subject: string, dflt: Vec3): Vec3 => {
    const a = el?.attrs.get(name);
    return a ? (r.nums(a, subject, 3) as Vec3) : [...dflt];
  };
  return {
    r,
    note: (kind, at, message) => void notes.push({ kind, source: r.span(at), message }),
    child,
    need: (el, name, subject) => el.attrs.get(name) ?? r.fail(el, subject, `no ${name}`, `${name}="..."`),
    num3,
    origin(el, subject) {
      const o = child(el, 'origin');
      const rpy = num3(o, 'rpy', `${subject} origin rpy`, [0, 0, 0]);
      return { pos: num3(o, 'xyz', `${subject} origin xyz`, [0, 0, 0]), quat: rpy.some((x) => x !== 0) ? urdfRpyQuat(rpy) : [1, 0, 0, 0] };
    },
  };
}

export const addV = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
/** A number in a note: six significant digits. */
export const fmt = (x: number): string => String(Number(x.toPrecision(6)));
