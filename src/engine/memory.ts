// How much memory this process may still use (a batch's own need comes from the engine:
// `batchBytes` in batch.ts). A batch that does not fit is refused with both numbers instead of
// failing inside the allocator (std::bad_alloc) or swapping the machine to a halt.

import * as os from 'node:os';

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
