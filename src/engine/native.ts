// Loads the native addon (the engine, or its planted-bug twin for `achilles validate`).

import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface NativeStepResult {
  robotSteps: number;
  nonFinite: { step: number; robot: number; joint: string } | null;
}

export interface NativeBatch {
  step(k: number): NativeStepResult;
  forward(): void;
  observe(): void;
  reset(): void;
  field(name: 'q' | 'v' | 'tau' | 'qacc' | 'kinetic' | 'potential' | 'bodyPos' | 'bodyRot'): Float32Array | Float64Array;
  info(): { stride: number; nq: number; nv: number; isa: string; steps: number };
}

export interface CpuInfo {
  sse2: boolean;
  avx2: boolean;
  avx512: boolean;
  /** The widest f32 width; f64 packs half as many per register (use widestLanes() in lanes.ts per precision). */
  widestLanes: number;
  compiler: string;
}

export interface NativeAddon {
  NativeBatch: new (model: object, options: object) => NativeBatch;
  cpuInfo(): CpuInfo;
  isBugBuild: boolean;
  plantedBugs?: () => string[];
  setBug?: (name: string) => void;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The package root (this file is src/engine/native.ts or dist/engine/native.js). */
export const packageRoot = resolve(here, '..', '..');

const cache = new Map<string, NativeAddon>();

function load(name: 'achilles' | 'achilles_bugs'): NativeAddon {
  const hit = cache.get(name);
  if (hit) return hit;
  const path = join(packageRoot, 'build', 'native', 'Release', `${name}.node`);
  if (!existsSync(path)) {
    throw new Error(
      `the native engine is not built (${path} is missing). Build it with: npm run build:native ` +
        `(needs g++, cmake and libxsimd-dev: sudo apt-get install g++ cmake libxsimd-dev)`,
    );
  }
  const addon = createRequire(import.meta.url)(path) as NativeAddon;
  cache.set(name, addon);
  return addon;
}

/** The engine. */
export function engineAddon(): NativeAddon {
  return load('achilles');
}

/** The engine with planted bugs compiled in; only `achilles validate` uses it. */
export function bugAddon(): NativeAddon {
  return load('achilles_bugs');
}
