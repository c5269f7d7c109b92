// <asset>: meshes, as MuJoCo's mjXReader::Asset and mjCMesh::Compile: read (STL, OBJ, or inline
// vertex/face), then processed as MuJoCo's compiler does (mesh/process.ts: volume, centre of mass,
// inertia, the mesh frame, the convex hull). Textures, materials, height fields and models are
// skipped with a note.

import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Quat, Vec3 } from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import { readMeshFile } from '../mesh/load.js';
import { MeshError, processMesh, type MeshInertia, type ProcessedMesh } from '../mesh/process.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { sections, type MjcfContext } from './context.js';
import { attrOf, checkClass } from './defaults.js';

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
  const { meshes } = ctx;
  const name =
    c.attrs.get('name')?.value ??
    c.attrs
      .get('file')
      ?.value?.replace(/^.*[\\/]/, '')
      .replace(/\.[^.]*$/, '');
  const subject = `mesh ${quote(name ?? '')}`;
  // a mesh takes its class's <default><mesh> (MuJoCo's default scale: often 0.001 for mm files)
  const meshClass = c.attrs.get('class');
  if (meshClass) checkClass(ctx, meshClass, `${subject} class`);
  const get = (n: string): XmlAttr | undefined => attrOf(ctx, c, 'mesh', meshClass?.value ?? 'main', n);
  const file = c.attrs.get('file');
  const vertex = c.attrs.get('vertex');
  const faceA = c.attrs.get('face');
  const scale = (get('scale') ? r.nums(get('scale')!, `${subject} scale`, 3) : [1, 1, 1]) as Vec3;
  const refpos = (c.attrs.get('refpos') ? r.nums(c.attrs.get('refpos')!, `${subject} refpos`, 3) : [0, 0, 0]) as Vec3;
  const refquat = (c.attrs.get('refquat') ? r.nums(c.attrs.get('refquat')!, `${subject} refquat`, 4) : [1, 0, 0, 0]) as Quat;
  const inertiaA = get('inertia');
  const inertia: MeshInertia = inertiaA
    ? r.choice(inertiaA, `${subject} inertia`, ['convex', 'exact', 'legacy', 'shell'] as const)
    : 'legacy';
  const hullA = get('maxhullvert');
  if (hullA && r.num(hullA, `${subject} maxhullvert`) !== -1)
    r.fail(hullA, `${subject} maxhullvert`, quote(hullA.value), 'maxhullvert="-1" (a hull limited to fewer vertices is not supported)');
  const builtin = c.attrs.get('builtin');
  if (builtin && builtin.value !== 'none')
    r.fail(builtin, `${subject} builtin`, quote(builtin.value), 'a mesh from a file or vertex= (builtin meshes are not supported)');
  const plugin = c.children.find((x) => x.name === 'plugin');
  if (plugin) r.fail(plugin, subject, 'a mesh plugin', 'a mesh from a file or vertex= (mesh plugins are not supported)');
  if (!name || (!file && !vertex))
    r.fail(c, '<mesh>', 'a mesh without a file or vertices', 'file="PATH.stl" (or .obj), or name= and vertex="x y z ..."');
  if (file && (vertex || faceA))
    r.fail(
      (vertex ?? faceA)!,
      subject,
      `both file= and ${vertex ? 'vertex=' : 'face='}`,
      'one of them (MuJoCo: "repeated vertex specification")',
    );

  let vert: number[];
  let face: number[] | undefined;
  let at: XmlAttr;
  if (vertex) {
    at = vertex;
    const v = r.nums(vertex, `${subject} vertex`, [3, 3e6]);
    if (v.length % 3 !== 0) r.fail(vertex, `${subject} vertex`, `${v.length} numbers`, 'a multiple of 3 (x y z per vertex)');
    // MuJoCo keeps a mesh's vertices as float32
    vert = v.map(Math.fround);
    if (faceA) {
      face = r.nums(faceA, `${subject} face`, [3, 6e6]);
      if (face.length % 3 !== 0 || !face.every(Number.isInteger))
        r.fail(faceA, `${subject} face`, `${face.length} numbers`, 'whole vertex indices, three per triangle');
    }
  } else {
    at = file!;
    const path = meshFilePath(ctx, file!);
    // MuJoCo picks the decoder by content_type when given: only the one the extension names is read
    const ct = c.attrs.get('content_type');
    const byExt = /\.stl$/i.test(path) ? 'model/stl' : /\.obj$/i.test(path) ? 'model/obj' : undefined;
    if (ct && ct.value !== byExt)
      r.fail(ct, `${subject} content_type`, quote(ct.value), `${byExt ?? 'model/stl or model/obj'} (the type the file's extension names)`);
    const read = readMeshFile(path);
    if ('problem' in read)
      r.fail(
        file!,
        `${subject} file`,
        `${path}: ${read.problem}`,
        "a readable STL or OBJ mesh file (resolved against compiler meshdir and the model file's folder)",
      );
    if (read.format === 'ASCII STL')
      ctx.note(
        'as-mujoco',
        file!,
        `${subject}: ${path} is an ASCII STL, which MuJoCo's STL decoder refuses (binary only); its triangles are read and processed as MuJoCo processes the binary STL of them`,
      );
    if (read.droppedAfterLine !== undefined)
      ctx.note(
        'as-mujoco',
        file!,
        `${subject}: ${path}:${read.droppedAfterLine} starts a second object; its faces are ignored, as MuJoCo reads only an OBJ's first shape`,
      );
    vert = read.vert;
    face = read.face;
  }
  let mesh: ProcessedMesh;
  try {
    mesh = processMesh({ vert, face, scale, refpos, refquat, inertia });
  } catch (e) {
    // an error of one transform attribute (scale, refpos, refquat) is reported at it
    const own = e instanceof MeshError && e.attr ? (e.attr === 'scale' ? get('scale') : c.attrs.get(e.attr)) : undefined;
    if (e instanceof MeshError) r.fail(own ?? at, own ? `${subject} ${e.attr}` : subject, e.found, e.expected);
    throw e;
  }
  // MuJoCo makes the hull for convex inertia (made above) or for a colliding geom (geom.ts, later):
  // a hull that cannot be made is reported here, at the mesh
  const hull = mesh.hull;
  mesh.hull = () => {
    try {
      return hull();
    } catch (e) {
      if (e instanceof MeshError) r.fail(at, subject, e.found, e.expected);
      throw e;
    }
  };
  meshes.set(name, mesh);
}

function meshFilePath(ctx: MjcfContext, file: XmlAttr): string {
  const { compiler, r } = ctx;
  const base = compiler.meshdir
    ? isAbsolute(compiler.meshdir)
      ? compiler.meshdir
      : join(dirname(r.file), compiler.meshdir)
    : dirname(r.file);
  // strippath: MuJoCo strips the folders after resolving, so the name always ends up under meshdir
  return compiler.strippath
    ? join(base, basename(file.value.replace(/\\/g, '/')))
    : meshPath(base, file.value, file.file ?? r.file, r.file);
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
