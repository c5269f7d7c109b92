// SIMD width for a run. The instruction set a width needs depends on the precision (the engine
// packs f64 in one register: 4 f64 lanes need AVX2, 4 f32 lanes only SSE2), so both the default
// and the "does this CPU support it" check are per precision.
//
// Default: one vector should hold all the robots if it can (copies 3 → 4 lanes); wider only
// pads with idle lanes; and the CPU caps the width.

import { LANE_WIDTHS, type LaneWidth, type Precision } from '../engine/api.js';
import type { CpuInfo } from '../engine/native.js';

type Isa = 'scalar' | 'SSE2' | 'AVX2' | 'AVX-512';

/** The instruction set the engine uses for `lanes` lanes of `precision` (mirrors native isa_for). */
export function isaFor(precision: Precision, lanes: LaneWidth): Isa {
  if (lanes === 1) return 'scalar';
  if (lanes === 16) return 'AVX-512';
  if (precision === 'f32') return lanes === 4 ? 'SSE2' : 'AVX2';
  return lanes === 4 ? 'AVX2' : 'AVX-512';
}

export function cpuHas(cpu: Pick<CpuInfo, 'sse2' | 'avx2' | 'avx512'>, isa: Isa): boolean {
  if (isa === 'scalar') return true;
  if (isa === 'SSE2') return cpu.sse2;
  if (isa === 'AVX2') return cpu.avx2;
  return cpu.avx512;
}

/** The widest width this CPU runs at this precision. */
export function widestLanes(cpu: Pick<CpuInfo, 'sse2' | 'avx2' | 'avx512'>, precision: Precision): LaneWidth {
  let best: LaneWidth = 1;
  for (const w of LANE_WIDTHS) if (cpuHas(cpu, isaFor(precision, w))) best = w;
  return best;
}

export function defaultLanes(copies: number, widest: LaneWidth): LaneWidth {
  for (const w of LANE_WIDTHS) if (w <= widest && w >= copies) return w;
  return widest;
}
