// How big an MJCF model becomes once its <replicate>s are expanded, before any copy is made: a
// few lines of XML can ask for hundreds of thousands of bodies (`<replicate count="100000">`),
// which takes minutes and gigabytes to read and then runs one robot's worth of memory per lane.
// Past MODEL_LIMITS.bodies that is more often a slip than a plan, so the model is refused with the
// estimate at the replicate's count unless the user says --yes (`allowLarge`); MAX_REPLICAS
// (replicate.ts) stays a hard stop either way.
//
// The estimate counts the <body> elements the expansion makes: each body times the counts of the
// replicates around it (a replicate inside a replicate multiplies). What reading costs per body was
// measured with `achilles compile` on a replicated free body with a hinged child, a geom each
// (AMD EPYC Zen 5): 20,000 bodies 6.3 s and 0.8 GB, 100,000 bodies 35 s and 3.7 GB, so about
// 0.35 ms and 36 KB per body, the process's own 0.1 GB aside.

import { quote } from '../../common/errors.js';
import type { Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';

export const MODEL_LIMITS = {
  /** Bodies after expansion without --yes: about 3.5 s and 0.4 GB to read, beyond any robot
   *  published as MJCF (the seed's fly has 68 bodies, MuJoCo's humanoid 17). */
  bodies: 10_000,
};
/** What reading one body costs (measured, see above). */
const SECONDS_PER_BODY = 0.35e-3;
const BYTES_PER_BODY = 36e3;

export interface ReplicatedSize {
  /** Bodies after expansion (the world not counted). */
  bodies: number;
  /** The replicate whose copies make the most bodies (outermost first among equals), if any. */
  largest?: { replicate: XmlElement; bodies: number };
}

/** The replicate's count as the reader will take it, or 1 where the reader will refuse it. */
function countOf(el: XmlElement): number {
  const v = el.attrs.get('count')?.value;
  return v !== undefined && /^\s*\+?\d+\s*$/.test(v) ? Math.max(1, Number(v)) : 1;
}

/** Counts the bodies `el`'s children make, each replicate's subtree times its count. */
function bodiesUnder(el: XmlElement, size: ReplicatedSize): number {
  let n = 0;
  for (const c of el.children) {
    if (c.name === 'body') n += 1 + bodiesUnder(c, size);
    else if (c.name === 'frame') n += bodiesUnder(c, size);
    else if (c.name === 'replicate') {
      const made = countOf(c) * bodiesUnder(c, size);
      if (made > (size.largest?.bodies ?? 0)) size.largest = { replicate: c, bodies: made };
      n += made;
    }
  }
  return n;
}

/** The size of the model `root` (an assembled MJCF tree: includes spliced in) makes. */
export function replicatedSize(root: XmlElement): ReplicatedSize {
  const size: ReplicatedSize = { bodies: 0 };
  for (const w of root.children) if (w.name === 'worldbody') size.bodies += bodiesUnder(w, size);
  return size;
}

/** Two significant digits, written out ("35", "720", "7,200"). */
const twoDigits = (x: number): string => Number(x.toPrecision(2)).toLocaleString('en-US');

/** "about 35 s and 3.6 GB to read" for `bodies`. */
export function readingCost(bodies: number): string {
  const s = bodies * SECONDS_PER_BODY;
  const gb = (bodies * BYTES_PER_BODY) / 1e9;
  const time = s < 60 ? `${twoDigits(s)} s` : s < 3600 ? `${twoDigits(s / 60)} min` : `${twoDigits(s / 3600)} h`;
  const memory = gb < 1 ? `${twoDigits(gb * 1000)} MB` : gb < 1000 ? `${twoDigits(gb)} GB` : `${twoDigits(gb / 1000)} TB`;
  return `about ${time} and ${memory} to read`;
}

/** Refuses, at the count of the replicate that makes the most bodies, a model that expands past
 *  MODEL_LIMITS.bodies, unless `allowLarge` (the user's --yes). */
export function checkReplicatedSize(r: Reader, root: XmlElement, allowLarge: boolean): void {
  const size = replicatedSize(root);
  if (allowLarge || size.bodies <= MODEL_LIMITS.bodies || !size.largest) return;
  const rep = size.largest.replicate;
  const at = rep.attrs.get('count') ?? rep;
  r.fail(
    at,
    '<replicate> count',
    `${quote((rep.attrs.get('count')?.value ?? '').trim())}, which makes ${size.largest.bodies.toLocaleString('en-US')} bodies: a model of ${size.bodies.toLocaleString('en-US')} bodies in all (${readingCost(size.bodies)})`,
    `a model of at most ${MODEL_LIMITS.bodies.toLocaleString('en-US')} bodies, or --yes to read it anyway (Python: compile_model(path, yes=True))`,
  );
}
