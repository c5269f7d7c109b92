// Shared helpers for the engine tests: scene paths and small numeric tools.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const scene = (name: string) => join(root, 'scenes', `${name}.arow`);
export const sharedArow = (name: string) => join(root, '..', 'shared', 'achilles-arow', name);

/** A small seeded generator (mulberry32), so every random state can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
