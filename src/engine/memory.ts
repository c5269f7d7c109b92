// How much memory a batch needs, computed before allocating it (mirrors make_storage in
// native/src/engine.cpp: nine fields, each padded to the lane width and to 64 bytes), and how much
// this process may still use. A batch that does not fit is refused with both numbers instead of
// failing inside the allocator (std::bad_alloc) or swapping the machine to a halt.

import * as os from 'node:os';
import type { LaneWidth, Precision } from './api.js';
import { JOINT_NQ, JOINT_NV, type ModelDesc } from './model-desc.js';

/** Bytes of the batch's state storage (q, v, tau, qacc, energies, body poses, previous tau). */
export function batchBytes(model: ModelDesc, copies: number, precision: Precision, lanes: LaneWidth): number {
  const nq = model.bodies.reduce((n, b) => n + JOINT_NQ[b.joint], 0);
  const nv = model.bodies.reduce((n, b) => n + JOINT_NV[b.joint], 0);
  const nb = model.bodies.length;
  const pad = Math.max(lanes, 16);
  const stride = Math.ceil(copies / pad) * pad;
  const elem = precision === 'f32' ? 4 : 8;
  const counts = [nq, nv, nv, nv, 1, 1, nb * 3, nb * 9, nv];
  return counts.reduce((sum, c) => sum + Math.ceil((c * stride * elem) / 64) * 64, 0);
}

/** Where the free memory is read from (tests swap it for a small machine). */
export const memoryProbe = { free: machineFreeBytes };

/** Bytes this process can still allocate. */
export const freeMemoryBytes = (): number => memoryProbe.free();

/** The machine's available memory, capped by a cgroup limit. */
function machineFreeBytes(): number {
  let free = os.freemem();
  const limit = (process as { constrainedMemory?: () => number | undefined }).constrainedMemory?.();
  // 0 or a huge number mean "no limit"; otherwise what is left under it.
  if (limit && limit < 2 ** 60) free = Math.min(free, Math.max(0, limit - process.memoryUsage().rss));
  return free;
}

export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let k = 0;
  while (n >= 1024 && k < units.length - 1) {
    n /= 1024;
    k++;
  }
  return `${k === 0 ? n : n.toPrecision(3)} ${units[k]}`;
}

/** Refuse work needing `need` bytes when less is free (what: what needs it, advice: what to change). */
export function ensureMemory(need: number, what: string, advice: string, free = freeMemoryBytes()): void {
  if (need > free) throw new Error(`${what} needs about ${formatBytes(need)}, but only ${formatBytes(free)} of memory is free; ${advice}`);
}
