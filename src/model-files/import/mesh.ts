// The axis-aligned box bounding a mesh's vertices (STL, binary or ASCII, and OBJ), in the mesh's own
// frame after scaling: all the import needs to stand a box in for a mesh geom.

import { readFileSync, statSync } from 'node:fs';
import type { Vec3 } from '../../engine/model-desc.js';

export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** Reads the mesh file's vertex bounds, or returns why it cannot (missing, unknown format, empty). */
export function meshBounds(path: string, scale: Vec3 = [1, 1, 1]): Bounds | { problem: string } {
  let bytes: Buffer;
  try {
    if (!statSync(path).isFile()) return { problem: 'not a regular file' };
    bytes = readFileSync(path);
  } catch (e) {
    return { problem: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String((e as Error).message) };
  }
  const ext = path.toLowerCase().split('.').pop();
  let pts: number[] = [];
  if (ext === 'stl') pts = stlVertices(bytes);
  else if (ext === 'obj') pts = objVertices(bytes.toString('utf8'));
  else return { problem: `a .${ext} mesh (only STL and OBJ are read)` };
  if (pts.length < 3) return { problem: 'a mesh without vertices' };
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < pts.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const x = pts[i + k] * scale[k];
      if (x < min[k]) min[k] = x;
      if (x > max[k]) max[k] = x;
    }
  }
  if (![...min, ...max].every(Number.isFinite)) return { problem: 'non-finite vertex coordinates' };
  return { min, max };
}

function stlVertices(b: Buffer): number[] {
  const out: number[] = [];
  if (b.length >= 84) {
    const n = b.readUInt32LE(80);
    if (84 + 50 * n === b.length) {
      for (let t = 0; t < n; t++) {
        const o = 84 + 50 * t + 12;
        for (let k = 0; k < 9; k++) out.push(b.readFloatLE(o + 4 * k));
      }
      return out;
    }
  }
  const re = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/g;
  const text = b.toString('latin1');
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(Number(m[1]), Number(m[2]), Number(m[3]));
  return out;
}

function objVertices(text: string): number[] {
  const out: number[] = [];
  for (const line of text.split('\n')) {
    const m = /^v\s+(\S+)\s+(\S+)\s+(\S+)/.exec(line);
    if (m) out.push(Number(m[1]), Number(m[2]), Number(m[3]));
  }
  return out;
}
