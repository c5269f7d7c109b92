// An element's frame orientation, read as MuJoCo's mjXReader::ReadAlternative (body, geom, inertial):
// at most one of quat, axisangle, euler, xyaxes and zaxis, with compiler angle and eulerseq applied.

import type { Quat } from '../../../engine/model-desc.js';
import { axisAngleQuat, eulerQuat, normalize4, xyaxesQuat, zaxisQuat } from '../frames.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { angle } from './compiler.js';
import type { MjcfContext } from './context.js';

/** The frame orientation of an element from quat / axisangle / euler / xyaxes / zaxis (at most one). */
export function orientation(ctx: MjcfContext, get: (n: string) => XmlAttr | undefined, subject: string, at: XmlElement): Quat {
  const r: Reader = ctx.r;
  const { compiler } = ctx;
  const forms = ['quat', 'axisangle', 'euler', 'xyaxes', 'zaxis'].filter((f) => get(f));
  if (forms.length > 1) r.fail(at, subject, `${forms.join(' and ')}`, 'at most one orientation (quat, axisangle, euler, xyaxes or zaxis)');
  const f = forms[0];
  if (!f) return [1, 0, 0, 0];
  const a = get(f)!;
  const tooSmall = (v: number[], n: number): void => {
    if (!(Math.hypot(...v.slice(0, n)) >= 1e-14)) r.fail(a, `${subject} ${f}`, 'a zero vector', 'a nonzero direction');
  };
  switch (f) {
    case 'quat': {
      const q = r.nums(a, `${subject} quat`, 4);
      tooSmall(q, 4);
      return normalize4(q);
    }
    case 'axisangle': {
      const v = r.nums(a, `${subject} axisangle`, 4);
      tooSmall(v, 3);
      return axisAngleQuat(v, angle(compiler, v[3]));
    }
    case 'euler':
      return eulerQuat(
        r.nums(a, `${subject} euler`, 3).map((x) => angle(compiler, x)),
        compiler.eulerseq,
      );
    case 'xyaxes': {
      const v = r.nums(a, `${subject} xyaxes`, 6);
      tooSmall(v, 3);
      return xyaxesQuat(v);
    }
    default: {
      const v = r.nums(a, `${subject} zaxis`, 3);
      tooSmall(v, 3);
      return zaxisQuat(v);
    }
  }
}
