// Summary of one cell's repetitions: the median is what we report (robust to one slow
// repetition from a scheduler hiccup), min–max is the honest spread users can check.

export interface RepSummary {
  median: number;
  min: number;
  max: number;
  /** (max − min) / median; 0 for a single repetition. */
  spread: number;
  reps: number;
}

/** A cell whose repetitions disagree by more than this is marked noisy. */
export const NOISY_SPREAD = 0.1;

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function summarize(rates: readonly number[]): RepSummary {
  const med = median(rates);
  const min = Math.min(...rates);
  const max = Math.max(...rates);
  return { median: med, min, max, spread: rates.length > 1 && med > 0 ? (max - min) / med : 0, reps: rates.length };
}

export function isNoisy(s: RepSummary): boolean {
  return s.spread > NOISY_SPREAD;
}
