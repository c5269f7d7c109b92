// STL as MuJoCo's stl_decoder reads it (plugin/stl_decoder, 3.14): binary STL, 1 to 200,000
// triangles, coordinates within 2^30; vertices merged when their float32 bits are equal, numbered
// in order of first appearance. ASCII STL, which MuJoCo does not read, is read into the same
// triangles (numbers rounded to float32) and the importer notes it.

import { SceneError } from '../../common/errors.js';

export interface MeshData {
  /** x y z per vertex, float32 values. */
  vert: number[];
  /** Three vertex indices per triangle. */
  face: number[];
}

/** MuJoCo's stl_decoder limits. */
export const STL_MAX_TRIANGLES = 200_000;
const STL_MAX_COORD = 2 ** 30;

/** A binary STL: an 80-byte header, a uint32 triangle count, then 50 bytes per triangle. */
export const isBinaryStl = (b: Buffer): boolean => b.length >= 84 && 84 + 50 * b.readUInt32LE(80) === b.length;

export function readBinaryStl(b: Buffer, file: string): MeshData {
  const fail = (found: string, expected: string): never => {
    throw new SceneError({ file, line: 1, column: 1, subject: 'binary STL', found, expected });
  };
  if (b.length < 84) fail(`${b.length} bytes`, 'an 80-byte header and a triangle count (at least 84 bytes)');
  const n = b.readUInt32LE(80);
  if (n < 1 || n > STL_MAX_TRIANGLES)
    fail(`a triangle count of ${n}`, `1 to ${STL_MAX_TRIANGLES} triangles (MuJoCo's limit for an STL file)`);
  if (84 + 50 * n !== b.length)
    fail(
      `${b.length} bytes for ${n} triangles (${b.length < 84 + 50 * n ? 'truncated' : 'trailing bytes'})`,
      `84 + 50 x ${n} = ${84 + 50 * n} bytes`,
    );
  const merge = new VertexMerger(n);
  for (let t = 0; t < n; t++)
    for (let j = 0; j < 3; j++) {
      const at = 84 + 50 * t + 12 * (j + 1);
      const x = b.readFloatLE(at);
      const y = b.readFloatLE(at + 4);
      const z = b.readFloatLE(at + 8);
      const bad = [x, y, z].find((c) => !(Math.abs(c) <= STL_MAX_COORD));
      if (bad !== undefined) fail(`coordinate ${bad} in triangle ${t + 1} (byte ${at})`, `finite coordinates within 2^30`);
      merge.add(x, y, z, b.readUInt32LE(at), b.readUInt32LE(at + 4), b.readUInt32LE(at + 8));
    }
  return merge.result();
}

/** Vertices merged by their float32 bit patterns (as MuJoCo's std::map of the raw bits). */
class VertexMerger {
  private readonly index = new Map<string, number>();
  readonly vert: number[] = [];
  readonly face: number[] = [];
  constructor(readonly triangles: number) {}
  add(x: number, y: number, z: number, bx: number, by: number, bz: number): void {
    const key = `${bx},${by},${bz}`;
    let id = this.index.get(key);
    if (id === undefined) {
      id = this.vert.length / 3;
      this.index.set(key, id);
      this.vert.push(x, y, z);
    }
    this.face.push(id);
  }
  result(): MeshData {
    return { vert: this.vert, face: this.face };
  }
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** ASCII STL: solid / facet normal / outer loop / vertex x y z (three) / endloop / endfacet ... */
export function readAsciiStl(text: string, file: string): MeshData {
  const merge = new VertexMerger(0);
  let line = 0;
  let state: 'solid' | 'facet' | 'loop' | 'endloop' | 'endfacet' | 'done' = 'solid';
  let inLoop = 0;
  let triangles = 0;
  const fail = (column: number, found: string, expected: string): never => {
    throw new SceneError({ file, line, column, subject: 'ASCII STL', found, expected });
  };
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    line++;
    const words = [...raw.matchAll(/\S+/g)];
    if (words.length === 0) continue;
    const kw = words[0][0].toLowerCase();
    const col = words[0].index! + 1;
    const expect = (want: string): never => fail(col, `'${words[0][0]}'`, want);
    switch (state) {
      case 'solid':
        if (kw !== 'solid') expect("'solid NAME' (an ASCII STL's first line)");
        state = 'facet';
        break;
      case 'facet':
        if (kw === 'endsolid') {
          state = 'done';
          break;
        }
        if (kw !== 'facet') expect("'facet normal nx ny nz' or 'endsolid'");
        if (++triangles > STL_MAX_TRIANGLES)
          fail(col, `more than ${STL_MAX_TRIANGLES} triangles`, `at most ${STL_MAX_TRIANGLES} (MuJoCo's limit for an STL file)`);
        state = 'loop';
        break;
      case 'loop':
        if (kw !== 'outer' || words[1]?.[0].toLowerCase() !== 'loop') expect("'outer loop'");
        state = 'endloop';
        inLoop = 0;
        break;
      case 'endloop':
        if (kw === 'endloop') {
          if (inLoop !== 3) fail(col, `${inLoop} vertices in a facet`, '3 vertices per facet');
          state = 'endfacet';
          break;
        }
        if (kw !== 'vertex') expect(`'vertex x y z' (vertex ${inLoop + 1} of 3) or 'endloop'`);
        if (inLoop === 3) fail(col, 'a fourth vertex in a facet', "'endloop' after 3 vertices");
        if (words.length !== 4) fail(col, `${words.length - 1} numbers after 'vertex'`, '3 coordinates x y z');
        {
          const c = words.slice(1).map((w) => {
            if (!NUMBER.test(w[0])) fail(w.index! + 1, `'${w[0].slice(0, 30)}'`, 'a number');
            const x = Math.fround(Number(w[0]));
            if (!(Math.abs(x) <= STL_MAX_COORD)) fail(w.index! + 1, `'${w[0].slice(0, 30)}'`, 'a finite coordinate within 2^30');
            f32[0] = x;
            return [x, u32[0]];
          });
          merge.add(c[0][0], c[1][0], c[2][0], c[0][1], c[1][1], c[2][1]);
        }
        inLoop++;
        break;
      case 'endfacet':
        if (kw !== 'endfacet') expect("'endfacet'");
        state = 'facet';
        break;
      case 'done':
        fail(col, `'${words[0][0]}' after 'endsolid'`, 'the end of the file');
    }
  }
  if (state !== 'done') fail(1, `the end of the file inside ${state === 'solid' ? 'nothing' : 'a solid'}`, "'endsolid'");
  if (triangles === 0) fail(1, 'no facets', 'at least one facet');
  return merge.result();
}
