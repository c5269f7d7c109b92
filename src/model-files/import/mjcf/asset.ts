// <asset>: meshes, as MuJoCo's mjXReader::Asset, kept as their (scaled) bounding boxes: a mesh geom
// becomes a box (geom.ts). Textures, materials, height fields and models are skipped with a note.

import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Vec3 } from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import { meshBounds } from '../mesh.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { sections, type MjcfContext } from './context.js';
import { checkClass } from './defaults.js';

export function readAssets(ctx: MjcfContext): void {
  for (const a of sections(ctx, 'asset')) {
    for (const c of a.children) {
      if (c.name === 'mesh') readMesh(ctx, c);
      else
        ctx.note(
          'skipped',
          c,
          `asset <${c.name}> does not change the dynamics: ${c.name === 'hfield' ? 'a height field counts only through a geom, and hfield geoms are refused' : c.name === 'model' ? 'it is read only by <attach>, which is refused' : 'it is for rendering'}`,
        );
    }
  }
}

function readMesh(ctx: MjcfContext, c: XmlElement): void {
  const r: Reader = ctx.r;
  const { compiler, defaults, meshes } = ctx;
  const name =
    c.attrs.get('name')?.value ??
    c.attrs
      .get('file')
      ?.value?.replace(/^.*[\\/]/, '')
      .replace(/\.[^.]*$/, '');
  const file = c.attrs.get('file');
  const vertex = c.attrs.get('vertex');
  // a mesh takes its class's <default><mesh> (MuJoCo's default scale: often 0.001 for mm files)
  const meshClass = c.attrs.get('class');
  if (meshClass) checkClass(ctx, meshClass, `mesh ${quote(name ?? '')} class`);
  const scaleA =
    c.attrs.get('scale') ??
    defaults
      .get(meshClass?.value ?? 'main')
      ?.get('mesh')
      ?.get('scale');
  for (const [f, none] of [
    ['refpos', [0, 0, 0]],
    ['refquat', [1, 0, 0, 0]],
  ] as const) {
    const a = c.attrs.get(f);
    if (a && !r.nums(a, `mesh ${quote(name ?? '')} ${f}`, none.length).every((x, k) => x === none[k]))
      r.fail(a, `mesh ${quote(name ?? '')} ${f}`, quote(a.value), `no ${f} (a mesh frame moved by ${f} is not supported)`);
  }
  const scale = (scaleA ? r.nums(scaleA, 'mesh scale', 3) : [1, 1, 1]) as Vec3;
  if (!file && vertex && name) {
    const v = r.nums(vertex, `mesh '${name}' vertex`, [3, 3e6]);
    if (v.length % 3 !== 0) r.fail(vertex, `mesh '${name}' vertex`, `${v.length} numbers`, 'a multiple of 3 (x y z per vertex)');
    const min: Vec3 = [Infinity, Infinity, Infinity];
    const max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < v.length; i += 3)
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k], v[i + k] * scale[k]);
        max[k] = Math.max(max[k], v[i + k] * scale[k]);
      }
    refuseFlat(ctx, name, vertex, { min, max });
    meshes.set(name, { min, max });
    return;
  }
  if (!file || !name) r.fail(c, '<mesh>', 'a mesh without a file or vertices', 'file="PATH.stl" (or .obj), or vertex="x y z ..."');
  const base = compiler.meshdir
    ? isAbsolute(compiler.meshdir)
      ? compiler.meshdir
      : join(dirname(r.file), compiler.meshdir)
    : dirname(r.file);
  // strippath: MuJoCo strips the folders after resolving, so the name always ends up under meshdir
  const path = compiler.strippath
    ? join(base, basename(file.value.replace(/\\/g, '/')))
    : meshPath(base, file.value, file.file ?? r.file, r.file);
  const b = meshBounds(path, scale);
  if ('problem' in b)
    r.fail(
      file,
      `mesh '${name}' file`,
      `${path}: ${b.problem}`,
      "a readable STL or OBJ mesh file (resolved against compiler meshdir and the model file's folder)",
    );
  refuseFlat(ctx, name, file, b);
  meshes.set(name, b);
}

/** Where MuJoCo finds a mesh file (ReadAttrFile → ResolveFilePath, then mjCMesh): under the mesh
 *  folder (compiler meshdir, relative to the main model's folder) first; failing that, for a
 *  <mesh> that an <include> brought in, relative to the included file's own folder (MuJoCo's
 *  "dir" of the nearest <include>, without meshdir). `elFile`: the file the <mesh> was read from. */
function meshPath(base: string, given: string, elFile: string, mainFile: string): string {
  if (isAbsolute(given)) return given;
  const inMeshDir = join(base, given);
  if (elFile === mainFile || existsSync(inMeshDir)) return inMeshDir;
  const besideIncluded = join(dirname(elFile), given);
  return existsSync(besideIncluded) ? besideIncluded : inMeshDir;
}

/** MuJoCo refuses a mesh whose vertices lie in one plane (it cannot build the convex hull); here
 *  the plane is one the bounding box shows (flat along an axis), which would make a flat box. */
function refuseFlat(ctx: MjcfContext, name: string, at: XmlAttr, b: { min: Vec3; max: Vec3 }): void {
  const size = [0, 1, 2].map((k) => b.max[k] - b.min[k]);
  if (!size.every((x) => x > 0))
    ctx.r.fail(
      at,
      `mesh ${quote(name)}`,
      `vertices that all lie in one plane (bounding box ${size.map((x) => String(Number(x.toPrecision(6)))).join(' x ')})`,
      'a mesh with volume (MuJoCo: "mesh has coplanar vertices, cannot compute convex hull"; a thin box geom models a plate)',
    );
}
