// Which SIMD widths this CPU runs, per precision. The instruction set a width needs depends on the
// precision (the engine packs f64 in one register: 4 f64 lanes need AVX2, 4 f32 lanes only SSE2),
// so every default and every "does this CPU support it" check is per precision. Mirrors the native
// isa_for/cpu_supports (native/src/engine.cpp).

import { LANE_WIDTHS, type LaneWidth, type Precision } from './api.js';

export type Isa = 'scalar' | 'SSE2' | 'AVX2' | 'AVX-512';
export type CpuFeatures = { sse2: boolean; avx2: boolean; avx512: boolean };

/** The instruction set the engine uses for `lanes` lanes of `precision` (mirrors native isa_for). */
export function isaFor(precision: Precision, lanes: LaneWidth): Isa {
  if (lanes === 1) return 'scalar';
  if (lanes === 16) return 'AVX-512';
  if (precision === 'f32') return lanes === 4 ? 'SSE2' : 'AVX2';
  return lanes === 4 ? 'AVX2' : 'AVX-512';
}

export function cpuHas(cpu: CpuFeatures, isa: Isa): boolean {
  if (isa === 'scalar') return true;
  if (isa === 'SSE2') return cpu.sse2;
  if (isa === 'AVX2') return cpu.avx2;
  return cpu.avx512;
}

/** The widths this CPU runs at this precision, narrowest first (always includes 1). */
export function supportedLanes(cpu: CpuFeatures, precision: Precision): LaneWidth[] {
  return LANE_WIDTHS.filter((w) => cpuHas(cpu, isaFor(precision, w)));
}

/** The widest width this CPU runs at this precision. */
export function widestLanes(cpu: CpuFeatures, precision: Precision): LaneWidth {
  const s = supportedLanes(cpu, precision);
  return s[s.length - 1];
}

/**
 * The default width: the widest whose robots fit one vector register of this CPU. That is the widest
 * width, except f64 × 16 on AVX-512, which packs two registers per value; measured on an AVX-512 Xeon,
 * 256 differing robots, one core (bench/RESULTS.md, "f64 lane width"), f64 × 8 stepped 1.19× (quadruped),
 * 1.05× (box stack) and 1.10× (dominoes) as fast as f64 × 16. Results are bit-identical at every width.
 */
export function registerLanes(cpu: CpuFeatures, precision: Precision): LaneWidth {
  const w = widestLanes(cpu, precision);
  return precision === 'f64' && w === 16 ? 8 : w;
}

/** Why this CPU cannot run `lanes` lanes of `precision`, or null when it can. */
export function laneProblem(cpu: CpuFeatures, precision: Precision, lanes: LaneWidth): string | null {
  const isa = isaFor(precision, lanes);
  if (cpuHas(cpu, isa)) return null;
  return `${lanes} lanes of ${precision} need ${isa}, which this CPU lacks (it runs ${precision} at lanes ${supportedLanes(cpu, precision).join(', ')})`;
}
