// The encoder's first-order low-pass filter, designed so its −3 dB frequency is the configured
// cutoff exactly at the step dt (not only in the continuous-time limit).
//
//   y_k = y_{k−1} + α (x_k − y_{k−1}) = α x_k + p y_{k−1},   p = 1 − α,   H(z) = α / (1 − p z⁻¹)
//   |H(e^{jθ})|² = α² / (1 − 2p cos θ + p²),   θ = 2π f dt
//   |H|² = 1/2 at θ_c = 2π f_c dt  ⇔  p² − 2(2 − cos θ_c) p + 1 = 0  ⇒  p = c − √(c² − 1),  c = 2 − cos θ_c
// (the root inside the unit circle). It needs f_c < 1/(2 dt) (below Nyquist).

/** The pole p of the filter whose −3 dB frequency is `cutoff` Hz at step `dt` s. */
export function lowPassPole(cutoff: number, dt: number): number {
  const theta = 2 * Math.PI * cutoff * dt;
  if (!(cutoff > 0) || !(theta < Math.PI))
    throw new Error(`a low-pass cutoff of ${cutoff} Hz needs 0 < cutoff < ${1 / (2 * dt)} Hz (half the step rate at dt ${dt} s)`);
  const c = 2 - Math.cos(theta);
  return c - Math.sqrt(c * c - 1);
}

/** |H(f)| of the filter with pole p at step dt. */
export function lowPassGain(p: number, f: number, dt: number): number {
  const a = 1 - p;
  return a / Math.sqrt(1 - 2 * p * Math.cos(2 * Math.PI * f * dt) + p * p);
}

/** The −3 dB frequency (Hz) of the filter with pole p at step dt: the inverse of lowPassPole. */
export function cutoffOfPole(p: number, dt: number): number {
  // 1 − 2p cos θ + p² = 2(1 − p)²  ⇒  cos θ = (1 + p² − 2(1 − p)²) / (2p)
  const cos = (1 + p * p - 2 * (1 - p) * (1 - p)) / (2 * p);
  return Math.acos(Math.max(-1, Math.min(1, cos))) / (2 * Math.PI * dt);
}
