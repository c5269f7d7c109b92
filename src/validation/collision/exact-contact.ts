// The exact reference's answer for one shape pair (exact.ts computes it; direction-search.ts
// builds it for the pairs that need a search): its own module, so neither imports the other back.

import type { V3 } from './geometry.js';

export interface ExactContact {
  /** Exact signed distance between the surfaces (negative: penetration depth). */
  dist: number;
  /** Unit normal from A to B: the direction of least separation. */
  normal: V3;
  /** Witness points on A's and B's surfaces (B's = A's + normal · dist) and their midpoint. */
  pointA: V3;
  pointB: V3;
  pos: V3;
  /** How far the second-best direction's separation lies below the best (≥ 0); a gap of ~0 means
   *  the direction of least separation is not unique (face-face ties when penetrating).
   *  Infinity when separated or against a plane (then it is always unique). */
  gap: number;
}
