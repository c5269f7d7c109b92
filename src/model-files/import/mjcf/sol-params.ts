// MJCF solref and solimp as MuJoCo uses them (engine_core_constraint.c getsolparam): MuJoCo takes
// any numbers and fixes them when it builds a constraint row: a mixed-sign solref is replaced by the
// default (with a warning), solimp's dmin, dmax and midpoint are clamped into [mjMINIMP, mjMAXIMP],
// its width to >= 0 and its power to >= 1. The import does the same once, at the attribute, with a
// note, so the model (and the .arow written from it) holds the values MuJoCo runs with. What the
// engine cannot run (solref [0, 0], a power that is not a whole number up to 16) is refused here,
// at FILE:LINE:COL, instead of later in native code without a place.

import {
  DEFAULT_SOLIMP,
  DEFAULT_SOLREF,
  MJ_MAXIMP,
  MJ_MINIMP,
  SOLIMP_POWER_MAX,
  type Solimp,
  type Solref,
} from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import type { ImportNote } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { XmlAttr } from '../xml.js';

export type NoteAt = (kind: ImportNote['kind'], at: XmlAttr, message: string) => void;

export function readSolref(r: Reader, a: XmlAttr, subject: string, note: NoteAt): Solref {
  const [t, d] = r.nums(a, subject, 2);
  if (t > 0 !== d > 0) {
    note(
      'as-mujoco',
      a,
      `${subject} ${quote(a.value)} mixes the standard [timeconst, dampratio] and direct [-stiffness, -damping] forms: MuJoCo replaces it by its default [${DEFAULT_SOLREF.join(', ')}] ("mixed solref format, replacing with default"), and so does the import`,
    );
    return [...DEFAULT_SOLREF];
  }
  if (!(t > 0) && !(t < 0))
    r.fail(
      a,
      subject,
      quote(a.value),
      'either [timeconst, dampratio] both > 0, or the direct form [-stiffness, -damping] with -stiffness < 0 (a zero stiffness makes no constraint the engine can solve)',
    );
  return [t, d];
}

export function readSolimp(r: Reader, a: XmlAttr, subject: string, note: NoteAt): Solimp {
  const given = r.nums(a, subject, [3, 5]);
  const v = given.concat(DEFAULT_SOLIMP.slice(given.length)) as Solimp;
  const clampImp = (x: number): number => Math.min(MJ_MAXIMP, Math.max(MJ_MINIMP, x));
  const out: Solimp = [clampImp(v[0]), clampImp(v[1]), Math.max(0, v[2]), clampImp(v[3]), Math.max(1, v[4])];
  if (out.some((x, k) => x !== v[k])) {
    note(
      'as-mujoco',
      a,
      `${subject} ${quote(a.value)} → [${out.join(', ')}]: MuJoCo clamps dmin, dmax and midpoint into [${MJ_MINIMP}, ${MJ_MAXIMP}], the width to >= 0 and the power to >= 1 when it builds a constraint, and so does the import`,
    );
  }
  if (!(Number.isInteger(out[4]) && out[4] <= SOLIMP_POWER_MAX)) {
    r.fail(
      a,
      `${subject} power`,
      String(v[4]),
      `a whole power from 1 to ${SOLIMP_POWER_MAX} (the engine raises to it by multiplication, without pow)`,
    );
  }
  return out;
}
