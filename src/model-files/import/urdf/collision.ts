// A link's collision geometry as MuJoCo geoms (its visual geometry is discarded, as MuJoCo's
// discardvisual default for URDF): box, cylinder, sphere, capsule and mesh (STL or OBJ, found as
// MuJoCo finds package:// and relative paths).

import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_ROLLING_FRICTION, DEFAULT_TORSIONAL_FRICTION, type Quat, type Vec3 } from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import { inferGeomMass } from '../geom-inertia.js';
import type { IrBody, IrGeom } from '../ir.js';
import { applyMesh } from '../mesh/geom.js';
import { readMeshFile } from '../mesh/load.js';
import { MeshError, processMesh } from '../mesh/process.js';
import type { Reader } from '../read-attrs.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { UrdfContext } from './context.js';

/** Link `el`'s <collision> elements into `body.geoms`, each with its mass at 1000 kg/m³ when the
 *  link has no <inertial> (`explicit` false), as MuJoCo infers it. */
export function readCollisions(u: UrdfContext, body: IrBody, el: XmlElement, name: string, explicit: boolean): void {
  let k = 0;
  for (const c of el.children) {
    if (c.name === 'visual') {
      u.note('skipped', c, `link '${name}': visual geometry discarded (as MuJoCo's URDF import)`);
      continue;
    }
    if (c.name !== 'collision') continue;
    const g = collisionGeom(u, c, `${name}/geom${k++}`, u.origin(c, `link '${name}' collision`));
    inferGeomMass(g, undefined, explicit ? 0 : 1000);
    body.geoms.push(g);
  }
}

/** One <collision>: its <geometry> as a MuJoCo geom at origin `o` (a mesh processed as MuJoCo's
 *  URDF reader makes it: an asset with the legacy inertia). */
function collisionGeom(u: UrdfContext, c: XmlElement, name: string, o: { pos: Vec3; quat: Quat }): IrGeom {
  const r: Reader = u.r;
  const geo =
    c.children.find((x) => x.name === 'geometry') ??
    r.fail(c, `collision '${name}'`, 'no <geometry>', '<geometry> with box, cylinder, sphere, capsule or mesh');
  const shape = geo.children[0] ?? r.fail(geo, `collision '${name}' geometry`, 'nothing', 'box, cylinder, sphere, capsule or mesh');
  const g: IrGeom = {
    name: c.attrs.get('name')?.value ?? name,
    type: 'box',
    size: [0, 0, 0],
    pos: o.pos,
    quat: o.quat,
    contype: 1,
    conaffinity: 1,
    friction: 1,
    torsionalFriction: DEFAULT_TORSIONAL_FRICTION,
    rollingFriction: DEFAULT_ROLLING_FRICTION,
    condim: 3,
    margin: 0,
    gap: 0,
    priority: 0,
    solmix: 1,
    mass: 0,
    inertia: [0, 0, 0],
    source: r.span(c),
  };
  const pos = (a: XmlAttr | undefined, subject: string): number => {
    if (!a) r.fail(shape, subject, 'a missing size', "the shape's size attributes");
    const x = r.num(a, subject);
    if (!(x > 0)) r.fail(a, subject, String(x), 'a positive size');
    return x;
  };
  switch (shape.name) {
    case 'box': {
      const a = shape.attrs.get('size') ?? r.fail(shape, 'box', 'no size', 'size="lx ly lz"');
      const s = r.nums(a, 'box size', 3);
      if (!s.every((x) => x > 0)) r.fail(a, 'box size', quote(a.value), 'three positive edge lengths');
      g.size = [s[0] / 2, s[1] / 2, s[2] / 2];
      break;
    }
    case 'cylinder':
    case 'capsule':
      g.type = shape.name;
      g.size = [pos(shape.attrs.get('radius'), `${shape.name} radius`), pos(shape.attrs.get('length'), `${shape.name} length`) / 2, 0];
      break;
    case 'sphere':
      g.type = 'sphere';
      g.size = [pos(shape.attrs.get('radius'), 'sphere radius'), 0, 0];
      break;
    case 'mesh': {
      const f = shape.attrs.get('filename') ?? r.fail(shape, 'mesh', 'no filename', 'filename="PATH"');
      const scaleA = shape.attrs.get('scale');
      const scale = (scaleA ? r.nums(scaleA, 'mesh scale', 3) : [1, 1, 1]) as Vec3;
      const path = resolveMesh(r.file, f.value);
      const read = readMeshFile(path);
      if ('problem' in read)
        r.fail(
          f,
          'mesh filename',
          `${path}: ${read.problem}`,
          "a readable STL or OBJ file (package://PKG/... is looked up in the folders above the URDF; relative paths from the URDF's folder)",
        );
      if (read.format === 'ASCII STL')
        u.note(
          'as-mujoco',
          f,
          `${path} is an ASCII STL, which MuJoCo's STL decoder refuses (binary only); its triangles are read and processed as MuJoCo processes the binary STL of them`,
        );
      if (read.droppedAfterLine !== undefined)
        u.note(
          'as-mujoco',
          f,
          `${path}:${read.droppedAfterLine} starts a second object; its faces are ignored, as MuJoCo reads only an OBJ's first shape`,
        );
      g.type = 'mesh';
      try {
        // MuJoCo's URDF reader makes each mesh an asset with the default (legacy) inertia
        const mesh = processMesh({
          vert: read.vert,
          face: read.face,
          scale,
          refpos: [0, 0, 0],
          refquat: [1, 0, 0, 0],
          inertia: 'legacy',
          needHull: true,
        });
        applyMesh(g, mesh, true);
      } catch (e) {
        // a scale that overflows the vertices is reported at scale=
        const at = e instanceof MeshError && e.attr === 'scale' ? scaleA : undefined;
        if (e instanceof MeshError) r.fail(at ?? f, at ? 'mesh scale' : 'mesh filename', e.found, e.expected);
        throw e;
      }
      // compile.ts notes the box once for every mesh geom, MJCF's and URDF's alike
      break;
    }
    default:
      r.fail(shape, `collision '${name}' geometry`, `<${shape.name}>`, 'box, cylinder, sphere, capsule or mesh');
  }
  return g;
}

/** package://PKG/rest → the first folder named PKG at or above the URDF's folder (or its parent's
 *  children); a relative path → from the URDF's folder. */
export function resolveMesh(urdf: string, name: string): string {
  const m = /^package:\/\/([^/]+)\/(.*)$/.exec(name);
  if (m) {
    let dir = resolve(dirname(urdf));
    for (;;) {
      for (const cand of [join(dir, m[1]), ...(dir.endsWith(`/${m[1]}`) ? [dir] : [])])
        if (existsSync(join(cand, m[2]))) return join(cand, m[2]);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    return join(dirname(urdf), m[2]);
  }
  const rel = name.replace(/^file:\/\//, '');
  return isAbsolute(rel) ? rel : join(dirname(urdf), rel);
}
