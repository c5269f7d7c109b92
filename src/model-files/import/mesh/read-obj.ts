// Wavefront OBJ as MuJoCo's obj_decoder reads it (tinyobjloader, triangulating): every `v` line is a
// vertex (x y z; a w or an r g b after them is ignored), `f` lines index them from 1 (negative:
// back from the last vertex read so far) in the forms i, i/t, i//n, i/t/n. A quad becomes two
// triangles split along its shorter diagonal (tinyobjloader: (0,1,2),(0,2,3) when |p2−p0| < |p3−p1|,
// else (0,1,3),(1,2,3)); a larger polygon is fanned from its first corner, which is what
// tinyobjloader's ear clipping gives for a convex polygon (a non-convex one is refused). MuJoCo keeps
// only the first shape's faces: faces after an `o` or `g` line that follows faces are dropped, and
// the importer notes it. Normals and texture coordinates do not change the dynamics: skipped.

import { SceneError } from '../../common/errors.js';
import type { MeshData } from './read-stl.js';

/** Bounds on what one OBJ may hold (memory stays bounded whatever the file claims). */
export const OBJ_MAX_VERTICES = 1_000_000;
export const OBJ_MAX_TRIANGLES = 2_000_000;

export interface ObjData extends Omit<MeshData, 'face'> {
  /** Undefined when the file has no faces: MuJoCo takes the convex hull's. */
  face?: number[];
  /** Line of the `o`/`g` after which MuJoCo drops the faces (a second shape), if any had faces. */
  droppedAfterLine?: number;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INDEX = /^[+-]?\d+$/;

export function readObj(text: string, file: string): ObjData {
  // the vertex count first: a face may name a vertex defined further down
  let total = 0;
  for (const m of text.matchAll(/^[ \t]*v[ \t]/gm)) if (m) total++;
  if (total > OBJ_MAX_VERTICES)
    throw new SceneError({
      file,
      line: 1,
      column: 1,
      subject: 'OBJ',
      found: `${total} vertices`,
      expected: `at most ${OBJ_MAX_VERTICES} vertices`,
    });
  const vert: number[] = [];
  const face: number[] = [];
  let line = 0;
  let shapeEnded = 0;
  let droppedAfterLine: number | undefined;
  const pendingPolygons: { line: number; corners: number[]; at: number }[] = [];
  let firstLine: { line: number; column: number } | undefined;
  const fail = (column: number, subject: string, found: string, expected: string): never => {
    throw new SceneError({ file, line, column, subject, found, expected });
  };
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end).replace(/\r$/, '').replace(/#.*/, '');
    start = end + 1;
    line++;
    const words = [...raw.matchAll(/\S+/g)];
    if (words.length === 0) continue;
    const kw = words[0][0];
    if (kw === 'v') {
      if (words.length < 4 || words.length > 8)
        fail(words[0].index! + 1, 'OBJ vertex', `${words.length - 1} numbers`, '3 coordinates x y z (optionally w, or r g b)');
      for (const w of words.slice(1)) if (!NUMBER.test(w[0])) fail(w.index! + 1, 'OBJ vertex', `'${w[0].slice(0, 30)}'`, 'a number');
      for (const w of words.slice(1, 4)) {
        const x = Math.fround(Number(w[0]));
        if (!Number.isFinite(x)) fail(w.index! + 1, 'OBJ vertex', `'${w[0].slice(0, 30)}'`, 'a finite coordinate (within float32)');
        vert.push(x);
      }
    } else if (kw === 'l') {
      firstLine ??= { line, column: words[0].index! + 1 };
    } else if (kw === 'o' || kw === 'g') {
      if (face.length > 0 && !shapeEnded) shapeEnded = line;
    } else if (kw === 'f') {
      const corners = words.slice(1).map((w) => {
        const parts = w[0].split('/');
        if (parts.length > 3 || !INDEX.test(parts[0]) || parts.slice(1).some((p) => p !== '' && !INDEX.test(p)))
          fail(w.index! + 1, 'OBJ face', `'${w[0].slice(0, 30)}'`, 'a vertex index: i, i/t, i//n or i/t/n (integers)');
        const i = Number(parts[0]);
        const seen = vert.length / 3;
        const idx = i > 0 ? i - 1 : seen + i;
        if (i === 0 || idx < 0 || idx >= total)
          fail(
            w.index! + 1,
            'OBJ face',
            `vertex index ${parts[0]}${i < 0 ? ` (${seen} vertices read so far)` : ''}`,
            `an index from 1 to ${total}, or -1 to -${seen} counting back from the last vertex read`,
          );
        return idx;
      });
      if (corners.length < 3) fail(words[0].index! + 1, 'OBJ face', `${corners.length} vertices`, 'at least 3 vertices');
      if (shapeEnded) {
        droppedAfterLine ??= shapeEnded;
        continue;
      }
      if (face.length / 3 + corners.length - 2 > OBJ_MAX_TRIANGLES)
        fail(1, 'OBJ', `more than ${OBJ_MAX_TRIANGLES} triangles`, `at most ${OBJ_MAX_TRIANGLES} triangles`);
      // one value at a time: a spread of a 100,000-corner face's slots overflows the call stack
      if (corners.length === 3) face.push(corners[0], corners[1], corners[2]);
      else {
        pendingPolygons.push({ line, corners, at: face.length });
        for (let k = 3 * (corners.length - 2); k > 0; k--) face.push(-1);
      }
    }
  }
  // polygons are split once every vertex is known (a face may come before its vertices)
  for (const p of pendingPolygons) {
    line = p.line;
    const tris =
      splitPolygon(vert, p.corners) ??
      fail(1, 'OBJ face', `a non-convex polygon of ${p.corners.length} vertices`, 'triangles, quads or convex polygons');
    for (let k = 0; k < tris.length; k++) face[p.at + k] = tris[k]; // into its slots (no spread: a long polygon)
  }
  // MuJoCo makes line elements (l) degenerate faces, a mesh without surface; without any face
  // element, it takes the convex hull's faces
  if (face.length === 0 && firstLine)
    throw new SceneError({
      file,
      ...firstLine,
      subject: 'OBJ',
      found: 'line elements (l) and no faces',
      expected: 'faces (f), or vertices alone (MuJoCo then takes the faces of their convex hull)',
    });
  const faces = face.length > 0 ? face : undefined;
  return droppedAfterLine === undefined ? { vert, face: faces } : { vert, face: faces, droppedAfterLine };
}

/** tinyobjloader's triangulation of a quad; a fan for a larger convex polygon (undefined if not convex). */
function splitPolygon(v: number[], c: number[]): number[] | undefined {
  const d2 = (a: number, b: number): number =>
    (v[3 * a] - v[3 * b]) ** 2 + (v[3 * a + 1] - v[3 * b + 1]) ** 2 + (v[3 * a + 2] - v[3 * b + 2]) ** 2;
  if (c.length === 4) return d2(c[0], c[2]) < d2(c[1], c[3]) ? [c[0], c[1], c[2], c[0], c[2], c[3]] : [c[0], c[1], c[3], c[1], c[2], c[3]];
  // convex: every corner turns the same way about the polygon's (Newell) normal
  const n = [0, 0, 0];
  for (let i = 0; i < c.length; i++) {
    const a = c[i];
    const b = c[(i + 1) % c.length];
    n[0] += (v[3 * a + 1] - v[3 * b + 1]) * (v[3 * a + 2] + v[3 * b + 2]);
    n[1] += (v[3 * a + 2] - v[3 * b + 2]) * (v[3 * a] + v[3 * b]);
    n[2] += (v[3 * a] - v[3 * b]) * (v[3 * a + 1] + v[3 * b + 1]);
  }
  for (let i = 0; i < c.length; i++) {
    const [a, b, d] = [c[i], c[(i + 1) % c.length], c[(i + 2) % c.length]];
    const e = [v[3 * b] - v[3 * a], v[3 * b + 1] - v[3 * a + 1], v[3 * b + 2] - v[3 * a + 2]];
    const f = [v[3 * d] - v[3 * b], v[3 * d + 1] - v[3 * b + 1], v[3 * d + 2] - v[3 * b + 2]];
    const turn = n[0] * (e[1] * f[2] - e[2] * f[1]) + n[1] * (e[2] * f[0] - e[0] * f[2]) + n[2] * (e[0] * f[1] - e[1] * f[0]);
    if (turn < 0) return undefined;
  }
  const out: number[] = [];
  for (let i = 1; i + 1 < c.length; i++) out.push(c[0], c[i], c[i + 1]);
  return out;
}
