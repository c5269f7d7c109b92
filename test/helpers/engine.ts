// Shared helpers for the engine tests: scene paths and small numeric tools.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { Rng } from '../../src/validation/rng.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const scene = (name: string) => join(root, 'scenes', `${name}.arow`);
export const sharedArow = (name: string) => join(root, '..', 'shared', 'achilles-arow', name);

/** A seeded uniform [0, 1) generator (the validation suite's), so every random state can be replayed. */
export function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}
