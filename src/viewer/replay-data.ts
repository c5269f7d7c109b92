// The replay's data: a JSON header (geometry, run metadata, frame layout) and one binary blob of
// poses (and contacts), small enough to inline as base64 in a single HTML file.
//
// Binary layout (little-endian, every section 8-byte aligned, offsets in `header.layout`):
//   times     f64 [F]                 simulated time of each frame (s)
//   pos       f32 [F][R][B][3]        p_WB: world position of body B of recorded robot R
//   quat      i16 [F][R][B][4]        R_WB as a unit quaternion [w,x,y,z] scaled by 32767
//   contactStart u32 [F+1]            contacts of frame f are rows contactStart[f] .. contactStart[f+1]-1
//   contacts  f32 [N][8]              pos(3) normal(3) dist robot-slot  (world frame)
// 20 bytes per body-frame: 60 s at 60 fps of a 30-body robot is 2.2 MB (2.9 MB as base64).

import type { Vec3 } from '../engine/model-desc.js';
import type { SceneGeometry } from './geometry.js';

export const REPLAY_VERSION = 1;
export const QUAT_SCALE = 32767;

export interface Contact {
  pos: Vec3;
  normal: Vec3;
  dist: number;
}

export interface ReplayMeta {
  scene: string;
  model: string;
  integrator: string;
  dt: number;
  substeps: number;
  precision: string;
  copies: number;
  spread: number;
  /** Simulated time of the run (s). */
  duration: number;
  steps: number;
  isa?: string;
  date?: string;
}

export interface Section {
  offset: number;
  length: number;
}

export interface ReplayHeader {
  version: number;
  meta: ReplayMeta;
  /** Frames per second of the replay (after any downsampling). */
  fps: number;
  requestedFps: number;
  /** Present when the replay holds fewer frames than asked for; shown in the page. */
  downsampled?: { fromFps: number; toFps: number; reason: string };
  frames: number;
  /** Robot indices in the batch, one colour each. */
  robots: number[];
  nbody: number;
  gravity: Vec3;
  geometry: SceneGeometry;
  /** Whether the run reported contacts (the engine has collision detection). */
  hasContacts: boolean;
  layout: { times: Section; pos: Section; quat: Section; contactStart: Section; contacts: Section };
  bytes: number;
}

export interface ReplayFrames {
  times: Float64Array;
  pos: Float32Array;
  quat: Int16Array;
  contactStart: Uint32Array;
  contacts: Float32Array;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** Lay the frame arrays out in one buffer; returns the buffer and the section table. */
export function packFrames(f: ReplayFrames): { bytes: Uint8Array; layout: ReplayHeader['layout'] } {
  const parts: [keyof ReplayFrames, ArrayBufferView & { length: number }][] = [
    ['times', f.times],
    ['pos', f.pos],
    ['quat', f.quat],
    ['contactStart', f.contactStart],
    ['contacts', f.contacts],
  ];
  let offset = 0;
  const layout = {} as ReplayHeader['layout'];
  for (const [name, arr] of parts) {
    layout[name] = { offset, length: arr.length };
    offset = align8(offset + arr.byteLength);
  }
  const bytes = new Uint8Array(offset);
  for (const [name, arr] of parts) bytes.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), layout[name].offset);
  return { bytes, layout };
}

/** The inverse of packFrames (copies, so the views are aligned whatever the input's offset). */
export function unpackFrames(bytes: Uint8Array, layout: ReplayHeader['layout']): ReplayFrames {
  const buf = new Uint8Array(bytes).buffer;
  return {
    times: new Float64Array(buf, layout.times.offset, layout.times.length),
    pos: new Float32Array(buf, layout.pos.offset, layout.pos.length),
    quat: new Int16Array(buf, layout.quat.offset, layout.quat.length),
    contactStart: new Uint32Array(buf, layout.contactStart.offset, layout.contactStart.length),
    contacts: new Float32Array(buf, layout.contacts.offset, layout.contacts.length),
  };
}

/** Bytes per frame of poses for R robots of B bodies. */
export function poseBytesPerFrame(robots: number, bodies: number): number {
  return robots * bodies * (3 * 4 + 4 * 2) + 8 + 4;
}
