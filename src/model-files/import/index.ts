// MJCF and URDF import: the file is recognised by its content (root <mujoco> or <robot>), read into
// MuJoCo's own model of bodies and joints (mjcf/, urdf.ts), then compiled into the engine's
// ModelDesc (compile.ts), with one note for everything approximated, dropped or not yet honoured.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { ModelDesc, SourceSpan } from '../../engine/model-desc.js';
import { SceneError } from '../common/errors.js';
import { compileIr } from './compile.js';
import type { BodyMap } from './ir.js';
import type { ImportNote } from './ir.js';
import { applyKey, chooseKey, unusedKeysNote } from './keyframe.js';
import { readMjcf } from './mjcf/index.js';
import { Reader } from './read-attrs.js';
import { readUrdf } from './urdf/index.js';
import { parseXml, xmlRootName } from './xml.js';
import { readXmlText } from './xml-file.js';

export { formatNote, type ImportNote } from './ir.js';
export type { BodyMap } from './ir.js';

export type ImportFormat = 'mjcf' | 'urdf';

export interface Imported {
  format: ImportFormat;
  model: ModelDesc;
  notes: ImportNote[];
  /** Each MuJoCo body (world excluded, MuJoCo's order) → its link in `model` (see compile.ts). */
  bodyMap: BodyMap[];
  /** The MJCF keyframes in order (name '' when unnamed); empty for URDF. */
  keyframes: { name: string; source: SourceSpan }[];
  /** The index of the keyframe the model starts from (--keyframe); absent: qpos0, as MuJoCo. */
  keyframe?: number;
  /** Each colliding mesh geom's convex hull (MuJoCo's mesh_graph) in its geom frame, world geoms
   *  first, then body by body (`body`: 0 the world, else MuJoCo's body index): the engine collides
   *  such a geom as the hull's box for now (compile.ts), the convex collider will take the hull. */
  hulls: { geom: string; body: number; vert: number[]; face: number[] }[];
}

/** 'mjcf' or 'urdf' when the file's content is that XML (a cheap look at its start), else undefined. */
export function sniffFormat(path: string): ImportFormat | undefined {
  let fd: number;
  try {
    // Non-blocking, and regular files only: a FIFO or device must reach the scene reader, which names it.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(65536); // a DOCTYPE's internal subset may come before the root
    const n = readSync(fd, buf, 0, buf.length, 0);
    const root = xmlRootName(buf.subarray(0, n).toString('utf8'));
    return root === 'mujoco' ? 'mjcf' : root === 'robot' ? 'urdf' : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export interface ImportOptions {
  /** Start from this MJCF keyframe (its name, or its 0-based index) instead of qpos0 (keyframe.ts). */
  keyframe?: string;
  /** Read an MJCF model that replicates past MODEL_LIMITS (mjcf/model-size.ts): the user's --yes. */
  allowLarge?: boolean;
}

/** Imports an MJCF or URDF file. Every problem is a SceneError at FILE:LINE:COL. */
export function importFile(path: string, opts: ImportOptions = {}): Imported {
  const got = readXmlText(path);
  const root = parseXml(path, got);
  const r = new Reader(path);
  const notes: ImportNote[] = [];
  let format: ImportFormat;
  let ir;
  if (root.name === 'mujoco') {
    format = 'mjcf';
    ir = readMjcf(r, root, notes, opts.allowLarge === true);
  } else if (root.name === 'robot') {
    format = 'urdf';
    ir = readUrdf(r, root, notes);
  } else {
    throw new SceneError({
      file: path,
      line: root.line,
      column: root.column,
      subject: 'root element',
      found: `<${root.name}>`,
      expected: 'an MJCF model (<mujoco>) or a URDF robot (<robot>)',
    });
  }
  const { model, bodyMap } = compileIr(ir, [path], notes);
  model.mujoco = {
    bodies: bodyMap.map((b) => ({ name: b.name, link: b.link, offset: b.offset })),
    sites: [
      ...(ir.worldSites ?? []).map((s) => ({ name: s.name, body: 0, pos: s.pos, quat: s.quat })),
      ...ir.bodies.flatMap((b, i) => (b.sites ?? []).map((s) => ({ name: s.name, body: i + 1, pos: s.pos, quat: s.quat }))),
    ],
  };
  if (model.bodies.length === 0) {
    throw new SceneError({
      file: path,
      line: root.line,
      column: root.column,
      subject: format === 'mjcf' ? '<worldbody>' : '<robot>',
      found:
        format === 'mjcf' ? 'no bodies' : 'no link that moves (the root links are fixed to the world and fused into it, as MuJoCo does)',
      expected: format === 'mjcf' ? 'at least one <body>' : 'at least one joint other than fixed',
    });
  }
  // As MuJoCo: qpos0 at rest (mj_resetData), or the chosen key (mj_resetDataKeyframe).
  const keys = ir.keys ?? [];
  const hulls = [ir.worldGeoms, ...ir.bodies.map((b) => b.geoms)].flatMap((gs, body) =>
    gs.flatMap((g) => (g.hull ? [{ geom: g.name, body, vert: g.hull.vert, face: g.hull.face }] : [])),
  );
  const imported: Imported = {
    format,
    model,
    notes,
    bodyMap,
    keyframes: keys.map((k) => ({ name: k.name, source: k.source })),
    hulls,
  };
  if (opts.keyframe !== undefined) {
    const key = chooseKey(keys, opts.keyframe, r.span(root));
    imported.keyframe = keys.indexOf(key);
    applyKey(key, imported.keyframe, model, notes);
  } else if (keys.length) notes.push(unusedKeysNote(keys));
  return imported;
}
