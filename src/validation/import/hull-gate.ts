// A mesh hull's vertices against MuJoCo's (mesh_graph's vertices in mesh_vert): the same set, each
// of ours one-to-one with one of MuJoCo's, measured in float32 ulps of the hull's size because
// MuJoCo keeps mesh vertices as float32 (our frame agrees to ~1e-12, so a coordinate may round to
// the neighbouring float: 1 ulp).

/** Two float32 ulps of the hull's size: one for the rounding, one for margin. */
export const HULL_BAR_ULPS = 2;

/** The largest distance from one of `ours` to its partner in `theirs`, in float32 ulps of the
 *  largest |coordinate| of `theirs`; Infinity when the counts differ or a vertex has no partner
 *  within HULL_BAR_ULPS. O(n²): hulls of fixtures are small. */
export function hullUlps(ours: readonly number[], theirs: readonly number[]): number {
  if (ours.length !== theirs.length) return Infinity;
  let size = 0;
  for (const c of theirs) size = Math.max(size, Math.abs(c));
  const ulp = 2 ** -23 * Math.max(size, Number.MIN_VALUE);
  const used = new Uint8Array(theirs.length / 3);
  let worst = 0;
  for (let a = 0; a < ours.length; a += 3) {
    let best = Infinity;
    let at = -1;
    for (let c = 0; c < theirs.length; c += 3) {
      if (used[c / 3]) continue;
      const d = Math.max(Math.abs(ours[a] - theirs[c]), Math.abs(ours[a + 1] - theirs[c + 1]), Math.abs(ours[a + 2] - theirs[c + 2])) / ulp;
      if (d < best) [best, at] = [d, c];
    }
    if (at < 0 || best > HULL_BAR_ULPS) return Infinity;
    used[at / 3] = 1;
    worst = Math.max(worst, best);
  }
  return worst;
}
