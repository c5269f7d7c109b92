// A mesh file's vertices and faces (STL or OBJ, chosen by extension as MuJoCo's decoders are), read
// only after its size is checked: a file over MESH_FILE_MAX_BYTES is refused before it is loaded.

import { readFileSync, statSync } from 'node:fs';
import { kindOf, unreadableWords } from '../../../util/file-words.js';
import { readObj } from './read-obj.js';
import { isBinaryStl, readAsciiStl, readBinaryStl, type MeshData } from './read-stl.js';

/** The largest mesh file read (a binary STL at MuJoCo's 200,000 triangles is 10 MB; the ASCII
 *  form of the same, about 50 MB). */
export const MESH_FILE_MAX_BYTES = 64 * 1024 * 1024;

export interface MeshFile extends Omit<MeshData, 'face'> {
  /** Undefined: an OBJ of vertices alone, whose faces are its convex hull's (as MuJoCo). */
  face?: number[];
  format: 'binary STL' | 'ASCII STL' | 'OBJ';
  /** OBJ: the line after which MuJoCo drops the faces (a second shape). */
  droppedAfterLine?: number;
}

/** The mesh in `path`, or why it cannot be opened (missing, unknown format, too large). Contents
 *  that are malformed throw a SceneError at the mesh file's line. */
export function readMeshFile(path: string): MeshFile | { problem: string } {
  const ext = path.toLowerCase().split('.').pop();
  if (ext !== 'stl' && ext !== 'obj') return { problem: `a .${ext} mesh (only STL and OBJ are read)` };
  let bytes: Buffer;
  try {
    const st = statSync(path);
    if (!st.isFile()) return { problem: `${kindOf(st)}, not a regular file` };
    if (st.size > MESH_FILE_MAX_BYTES) return { problem: `${st.size} bytes, over the ${MESH_FILE_MAX_BYTES}-byte limit for a mesh file` };
    bytes = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { problem: unreadableWords(code) ?? `a file that cannot be read (${code ?? (e as Error).message})` };
  }
  if (ext === 'obj') return { ...readObj(bytes.toString('utf8'), path), format: 'OBJ' };
  // binary unless the sizes disagree and the file reads as text ("solid ...")
  if (!isBinaryStl(bytes) && /^\s*solid\b/.test(bytes.subarray(0, 256).toString('latin1')))
    return { ...readAsciiStl(bytes.toString('latin1'), path), format: 'ASCII STL' };
  return { ...readBinaryStl(bytes, path), format: 'binary STL' };
}
