// <site>, as MuJoCo's mjXReader::OneSite and mjCSite::Compile, for the sites an equality constraint
// names (connect and weld between two sites) and the sites sensors read: the frame (pos and
// orientation, or fromto), and the type and size a touch sensor's zone is (fromto sets the
// half-length), with the site's default class. A site marks a point and changes nothing else.

import type { Quat, Vec3 } from '../../../engine/model-desc.js';
import { zaxisQuat } from '../frames.js';
import type { IrSite } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import { vec3, type MjcfContext } from './context.js';
import { attrOf } from './defaults.js';
import { orientation } from './orientation.js';

/** The site's frame in the coordinates of the element holding it (the placement's frame is composed
 *  on by the caller). */
export function readSite(ctx: MjcfContext, el: XmlElement, cls: string, name: string): IrSite {
  const r: Reader = ctx.r;
  const get = (n: string): XmlAttr | undefined => attrOf(ctx, el, 'site', cls, n);
  const subject = name === '' ? 'an unnamed site' : `site '${name}'`;
  const typeA = get('type');
  const type = typeA
    ? r.choice(typeA, `${subject} type`, ['sphere', 'capsule', 'cylinder', 'ellipsoid', 'box', 'mesh', 'hfield', 'plane', 'sdf'] as const)
    : 'sphere';
  if (type === 'mesh' || type === 'hfield' || type === 'plane' || type === 'sdf')
    r.fail(
      typeA!,
      `${subject} type`,
      type,
      'sphere, capsule, cylinder, ellipsoid or box (MuJoCo: "meshes, hfields and planes not allowed in site")',
    );
  let pos: Vec3 = vec3(ctx, get('pos'), `${subject} pos`, [0, 0, 0]);
  // mjCSite: the numbers given, the rest MuJoCo's default 0.005
  const size: Vec3 = [0.005, 0.005, 0.005];
  const sizeA = get('size');
  if (sizeA) r.nums(sizeA, `${subject} size`, [1, 3]).forEach((x, k) => (size[k] = x));
  let quat: Quat;
  const fromto = get('fromto');
  if (fromto) {
    // mjCSite::Compile: pos is the midpoint, z from the second point to the first
    if (type === 'sphere')
      r.fail(
        fromto,
        `${subject} fromto`,
        'fromto on a sphere site',
        'fromto only on capsule, cylinder, box or ellipsoid sites (as MuJoCo)',
      );
    if (pos.some((x) => x !== 0))
      r.fail(fromto, `${subject} fromto`, 'both pos and fromto', 'one of them (MuJoCo: "both pos and fromto defined")');
    const f = r.nums(fromto, `${subject} fromto`, 6);
    const v: Vec3 = [f[0] - f[3], f[1] - f[4], f[2] - f[5]];
    if (!(Math.hypot(...v) / 2 >= 1e-14)) r.fail(fromto, `${subject} fromto`, 'two coincident points', 'distinct end points');
    pos = [(f[0] + f[3]) / 2, (f[1] + f[4]) / 2, (f[2] + f[5]) / 2];
    quat = zaxisQuat(v);
    // the half-length along z: size[1] of a capsule or cylinder; a box or ellipsoid takes size[2], its y size[0]
    const half = Math.hypot(...v) / 2;
    if (type === 'capsule' || type === 'cylinder') size[1] = half;
    else {
      size[1] = size[0];
      size[2] = half;
    }
  } else quat = orientation(ctx, get, subject, el);
  return { name, pos, quat, type, size, source: r.span(el) };
}
