// The collision stage's part of summary.md: per kind combination, our worst distance error at
// each precision beside MuJoCo's own error against the same exact answer.

import { formatSig, markdownTable } from '../../reports/table.js';
import type { SuiteResult } from '../suite-result.js';
import { F32_FACTOR } from '../metrics.js';
import { kindCombos } from './pairs.js';
import { CCD_TOLERANCE, mujocoApproximation, pairCollider } from './colliders.js';
import { CCD_FACTOR, COLLISION_F64_BAR, COLLISION_PAIRS, CONVEX_PAIRS_PER_COMBO } from './stage.js';
import type { ShapeKind } from '../../engine/model-desc.js';

/** Errors of exactly 0 are drawn at this value on the log-scale error chart. */
export const ERROR_FLOOR_SHOWN = 1e-17;

/** A pair counts as "off" beyond this error (units of size): far above any round-off. */
const OFF = 1e-9;

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

export function collisionTable(r: SuiteResult): string[] {
  const c = r.collision;
  if (!c) return [];
  const order = kindCombos().map(([a, b]) => `${a}+${b}`);
  const combos = [...new Set(c.scatter.map((d) => d.combo))].sort((x, y) => order.indexOf(x) - order.indexOf(y));
  const sources = [...new Set(c.scatter.map((d) => d.source))];
  const rows = combos.map((combo) => {
    const cells = sources.map((src) => {
      const pts = c.scatter.filter((d) => d.combo === combo && d.source === src);
      if (!pts.length) return 'n/a';
      const missed = pts.filter((d) => !Number.isFinite(d.reported)).length;
      const errs = pts.filter((d) => Number.isFinite(d.reported)).map((d) => Math.abs(d.reported - d.exact));
      const off = errs.filter((e) => e > OFF).length;
      return `${formatSig(quantile(errs, 0.5), 2)} / ${formatSig(Math.max(0, ...errs), 2)}${off ? `, ${off} off` : ''}${missed ? `, ${missed} missed` : ''}`;
    });
    const [ka, kb] = combo.split('+') as [ShapeKind, ShapeKind];
    const collider = pairCollider(ka, kb) === 'ccd' ? 'GJK/EPA' : 'closed form';
    return [
      combo,
      String(c.scatter.filter((d) => d.combo === combo && d.source === sources[0]).length),
      collider,
      ...cells,
      mujocoApproximation(ka, kb) || 'no (exact to round-off)',
    ];
  });
  const refused = (c.refused ?? []).map((r) => `${r.combo} (${r.why})`);
  return [
    '## Collision: distance error against the exact reference',
    '',
    `${c.pairs} seeded random pairs over every kind combination the engine collides (${COLLISION_PAIRS / 14} per combination of sphere, capsule, box, rounded box and plane; ${CONVEX_PAIRS_PER_COMBO} per combination with MuJoCo's cylinder, ellipsoid or a convex hull of 8–40 random points made by the engine's quickhull), signed distances from 0.35 overlapping to 0.3 apart in units of the pair's size (the smaller shape's largest half-extent + radius), random poses; the exact reference is independent of the engine (cores and convex hulls as polytopes: Wolfe's minimum-norm point of the Minkowski difference when apart, its convex hull's nearest face when overlapping, minus both radii; a plane's lowest point and a sphere against a cylinder or ellipsoid in closed form; every other pair with a cylinder or an ellipsoid by the largest separation g(u) = −h_A(u) − h_B(−u) over directions u, from exact support functions: sampled, then Nelder–Mead to round-off in the distance, ~3e-8 rad in the normal). Each cell: median / worst |reported − exact| / size over the pairs with a contact expected (the deepest point's distance), how many pairs are off by more than ${OFF} of the size, and how many reported no contact. MuJoCo runs mj_collision on the same pairs (explicit pairs with the same margin); a rounded box has no MuJoCo geom, so those pairs have no MuJoCo column (n/a). MuJoCo is reported, not judged (the last column says where its own answer is approximate); ours is judged: closed-form pairs to f64 bar ${COLLISION_F64_BAR} of the size and f32 bar ${F32_FACTOR} × the measured float32 floor; GJK/EPA pairs (the engine runs MuJoCo's convex collider with its stopping rule, so it is as approximate as MuJoCo) to ${CCD_FACTOR} × (what ccd_tolerance ${CCD_TOLERANCE} m leaves, τ = ${CCD_TOLERANCE} m / size in distance and 2√τ rad in the normal, + MuJoCo's own worst error in that field over the combination's pairs): stage.ts ccdFloors; collision.csv notes each row's. Charts: collision-reported-vs-exact, collision-error-vs-exact.`,
    '',
    markdownTable(['kinds', 'pairs with a contact expected', 'collider', ...sources, 'MuJoCo approximate'], rows),
    ...(refused.length ? ['', `Skipped by name, the engine refuses them: ${refused.join('; ')}.`] : []),
  ];
}
