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
  const forms = ['quat', 'axisangle', 'euler', 'xyaxes', 'zaxis'].filter((f) => get(f));
  if (forms.length > 1)
    ctx.r.fail(at, subject, `${forms.join(' and ')}`, 'at most one orientation (quat, axisangle, euler, xyaxes or zaxis)');
  const f = forms[0];
  if (!f) return [1, 0, 0, 0];
  const q = orientationOf(ctx, f, get(f)!, subject);
  // The native core refuses a quaternion that is not finite and non-zero ("quaternion must be
  // non-zero and finite", without a place): whatever the form computed, it is refused here, at it.
  if (!q.every(Number.isFinite) || !(Math.abs(Math.hypot(...q) - 1) < 1e-6))
    ctx.r.fail(get(f)!, `${subject} ${f}`, `an orientation that computes to [${q.join(', ')}]`, 'a finite rotation');
  return q;
}

/** The unit quaternion of form `f` given by `a`. */
function orientationOf(ctx: MjcfContext, f: string, a: XmlAttr, subject: string): Quat {
  const r: Reader = ctx.r;
  const { compiler } = ctx;
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
      if (yAxisTooSmall(v))
        r.fail(a, `${subject} xyaxes`, 'a y axis parallel to the x axis', 'a y axis off the x axis (MuJoCo: "yaxis too small")');
      return xyaxesQuat(v);
    }
    default: {
      const v = r.nums(a, `${subject} zaxis`, 3);
      tooSmall(v, 3);
      return zaxisQuat(v);
    }
  }
}

/** MuJoCo's ResolveOrientation: y made orthogonal to the (normalised) x, then refused when its
 *  squared length is below mjEPS = 1e-14 (mjuu_normvec's bar), as "yaxis too small". */
function yAxisTooSmall(v: readonly number[]): boolean {
  const n = Math.hypot(v[0], v[1], v[2]);
  const x = [v[0] / n, v[1] / n, v[2] / n];
  const d = x[0] * v[3] + x[1] * v[4] + x[2] * v[5];
  const y = [v[3] - x[0] * d, v[4] - x[1] * d, v[5] - x[2] * d];
  return !(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] >= 1e-14);
}
