// The contact and joint-limit settings of the everyday dialect (docs/scene-format.md, "Contact
// settings"), read with MuJoCo's meanings and MuJoCo's validity rules (engine_core_constraint.c
// getsolparam; a value MuJoCo would silently clamp or replace is an error here, at its node):
//   solref   [timeconst, dampratio], both > 0, or the direct form [−stiffness, −damping],
//            −stiffness < 0 and −damping <= 0 (MuJoCo replaces a mixed-sign solref by the default)
//   solimp   [dmin, dmax, width, midpoint, power]: dmin, dmax, midpoint in [1e-4, 0.9999]
//            (mjMINIMP, mjMAXIMP), width >= 0, power a whole number 1..16 (MuJoCo: any >= 1; the
//            engine's kernels raise to it without pow)
//   condim   1 (frictionless), 3 (sliding friction through the solver's cone), 4 (and torsional), 6 (and rolling)
//   solver   { iterations: integer 1..1000, impratio > 0, tolerance in [0, 1) (optional; 0 = every iteration),
//              method: cg | newton | pgs (optional; cg), cone: pyramidal | elliptic (optional; pyramidal;
//              pgs takes pyramidal only), noslipIterations: integer 0..1000 (optional; 0: MuJoCo's noslip
//              post-solve off), noslipTolerance: finite >= 0 (optional; 1e-6) }
//
// Physical contact stiffness and damping. A shape may give `contact: {stiffness: k N/m, damping:
// c N·s/m}` instead of a solref. MuJoCo's contact acts on accelerations, so the mapping needs a mass:
// m, the mass of the link the shape is on, and solref = [−k/m, −c/m] (the direct form). Why: with the
// direct form MuJoCo's K = k/(m·dmax²) and B = c/(m·dmax), and a contact row moves its body by
// a = (1 − d)·a₀ + d·a_ref, a_ref = −B·v − K·d·r (d the impedance, r the penetration as a negative
// distance). Once deeper than solimp's width d = dmax, so m·a = (1 − dmax)·m·a₀ − c·v − k·r: the spring
// k and damper c act on the mass m exactly, while the other forces on the body are scaled by
// (1 − dmax). The rest penetration under gravity is therefore (1 − dmax)·m·g/k, not m·g/k (set solimp's
// dmax near 1 for a pure spring, at the price of a stiffer solve). For a free body m is exactly the
// contact normal's effective mass; on a link inside a chain the effective mass differs and the
// spring is that much softer or stiffer. Static (world) shapes have no mass: give them a solref.

import { isSeq } from 'yaml';
import {
  DEFAULT_SOLIMP,
  DEFAULT_SOLREF,
  MJ_MAXIMP,
  MJ_MINIMP,
  SOLIMP_POWER_MAX,
  type BodyDesc,
  type Condim,
  type JointType,
  type Solimp,
  type Solref,
  FRICTION_CONES,
  SOLVER_METHODS,
  type SolverSettings,
  NEWTON_MAX_DOFS,
} from '../../engine/model-desc.js';
import { checkKeys, entries, readEnum, readNumber, readVec, type Ctx, type Entry, type YNode } from './yaml-read.js';

export const SOLVER_ITERATIONS_MAX = 1000;
export const DEFAULT_SOLVER: SolverSettings = { iterations: 20, impratio: 1 };

export function readSolref(ctx: Ctx, node: YNode, subject: string): Solref {
  const [a, b] = readVec(ctx, node, subject, 2);
  const standard = a > 0 && b > 0;
  const direct = a < 0 && b <= 0;
  if (!standard && !direct) {
    ctx.fail(
      node,
      subject,
      `[${a}, ${b}]`,
      'either [timeconst, dampratio] both > 0 (s, ratio), or the direct form [−stiffness, −damping] with −stiffness < 0 and −damping <= 0 (MuJoCo replaces a mixed-sign solref by its default)',
    );
  }
  return [a, b];
}

export function readSolimp(ctx: Ctx, node: YNode, subject: string): Solimp {
  if (isSeq(node) && node.items.length === 3) {
    // MuJoCo accepts 3 numbers (midpoint and power default): refuse with the reason, our files list all five.
    ctx.fail(
      node,
      subject,
      '3 numbers',
      "all 5 numbers [dmin, dmax, width, midpoint, power] (MuJoCo's defaults are [0.9, 0.95, 0.001, 0.5, 2])",
    );
  }
  const v = readVec(ctx, node, subject, 5) as Solimp;
  const items = (isSeq(node) ? node.items : []) as YNode[];
  const names = ['dmin', 'dmax', 'width', 'midpoint', 'power'];
  for (const k of [0, 1, 3]) {
    if (!(v[k] >= MJ_MINIMP && v[k] <= MJ_MAXIMP))
      ctx.fail(items[k], `${subject}[${k}] (${names[k]})`, `${v[k]}`, `a number in [${MJ_MINIMP}, ${MJ_MAXIMP}] (MuJoCo clamps it there)`);
  }
  if (!(v[2] >= 0)) ctx.fail(items[2], `${subject}[2] (width)`, `${v[2]}`, 'a width >= 0 (m, or rad for a hinge limit)');
  if (!(Number.isInteger(v[4]) && v[4] >= 1 && v[4] <= SOLIMP_POWER_MAX)) {
    // MuJoCo takes any power >= 1; the engine evaluates the sigmoid without libm's pow (kernels must
    // not call it), so by repeated multiplication: whole powers only.
    ctx.fail(
      items[4],
      `${subject}[4] (power)`,
      `${v[4]}`,
      `a whole power from 1 to ${SOLIMP_POWER_MAX} (the engine raises to it by multiplication, without pow)`,
    );
  }
  return v;
}

export function readCondim(ctx: Ctx, node: YNode, subject: string): Condim {
  const v = readNumber(ctx, node, subject);
  if (v !== 1 && v !== 3 && v !== 4 && v !== 6)
    ctx.fail(node, subject, `${v}`, '1 (frictionless), 3 (sliding friction), 4 (and torsional) or 6 (and rolling)');
  return v;
}

/** `contact: {stiffness, damping}` of a shape (N/m, N·s/m), before the link's mass is known. */
export interface PhysicalContact {
  stiffness: number;
  damping: number;
  node: YNode;
  subject: string;
}

export function readPhysicalContact(ctx: Ctx, node: YNode, subject: string): PhysicalContact {
  const m = entries(ctx, node, subject);
  checkKeys(ctx, node, m, subject, ['stiffness', 'damping'], ['stiffness']);
  const k = readNumber(ctx, m.get('stiffness')?.value, `${subject}.stiffness`);
  if (!(k > 0)) ctx.fail(m.get('stiffness')?.value, `${subject}.stiffness`, `${k}`, 'a stiffness > 0 (N/m)');
  const dE = m.get('damping');
  const c = dE ? readNumber(ctx, dE.value, `${subject}.damping`) : 0;
  if (!(c >= 0)) ctx.fail(dE?.value, `${subject}.damping`, `${c}`, 'a damping >= 0 (N·s/m)');
  return { stiffness: k, damping: c, node, subject };
}

/** k (N/m) and c (N·s/m) on a body of mass m (kg) → MuJoCo's direct solref [−k/m, −c/m] (see the file comment). */
export function physicalSolref(stiffness: number, damping: number, mass: number): Solref {
  return [-stiffness / mass, damping === 0 ? 0 : -damping / mass];
}

/** The inverse, for documentation and tests: a direct solref on a body of mass m → [k N/m, c N·s/m]. */
export function solrefToPhysical(solref: Solref, mass: number): { stiffness: number; damping: number } {
  if (!(solref[0] < 0)) throw new RangeError('only a direct (negative) solref has a stiffness');
  return { stiffness: -solref[0] * mass, damping: -solref[1] * mass };
}

/** A joint's `range: [lo, hi]` (rad for revolute, m for prismatic), lo < hi. */
export function readRange(ctx: Ctx, node: YNode, subject: string, unit: string): [number, number] {
  const [lo, hi] = readVec(ctx, node, subject, 2);
  if (!(lo < hi)) ctx.fail(node, subject, `[${lo}, ${hi}]`, `[lower, upper] with lower < upper (${unit})`);
  return [lo, hi];
}

/** A joint's `limit: {solref, solimp, margin}` (MuJoCo's solreflimit, solimplimit, margin). */
export function readLimit(ctx: Ctx, node: YNode, subject: string): { solref?: Solref; solimp?: Solimp; margin?: number } {
  const m = entries(ctx, node, subject);
  checkKeys(ctx, node, m, subject, ['solref', 'solimp', 'margin']);
  const out: { solref?: Solref; solimp?: Solimp; margin?: number } = {};
  const r = m.get('solref');
  if (r) out.solref = readSolref(ctx, r.value, `${subject}.solref`);
  const i = m.get('solimp');
  if (i) out.solimp = readSolimp(ctx, i.value, `${subject}.solimp`);
  const g = m.get('margin');
  if (g) {
    const v = readNumber(ctx, g.value, `${subject}.margin`);
    if (!(v >= 0))
      ctx.fail(g.value, `${subject}.margin`, `${v}`, 'a margin >= 0 (the limit acts once the joint is within margin of its range end)');
    out.margin = v;
  }
  return out;
}

/** `solver: {iterations, impratio, tolerance, method, cone, noslipIterations, noslipTolerance}` (world
 *  settings); `nv`: the model's dofs, for the limit of the engine's PGS (NEWTON_MAX_DOFS). */
export function readSolver(ctx: Ctx, e: Entry, subject: string, nv: number): SolverSettings {
  const m = entries(ctx, e.value, subject);
  checkKeys(ctx, e.value, m, subject, ['iterations', 'impratio', 'tolerance', 'method', 'cone', 'noslipIterations', 'noslipTolerance']);
  const s: SolverSettings = { ...DEFAULT_SOLVER };
  const it = m.get('iterations');
  if (it) {
    const v = readNumber(ctx, it.value, `${subject}.iterations`);
    if (!Number.isInteger(v) || v < 1 || v > SOLVER_ITERATIONS_MAX)
      ctx.fail(it.value, `${subject}.iterations`, `${v}`, `an integer from 1 to ${SOLVER_ITERATIONS_MAX} (solver iterations per step)`);
    s.iterations = v;
  }
  const ir = m.get('impratio');
  if (ir) {
    const v = readNumber(ctx, ir.value, `${subject}.impratio`);
    if (!(v > 0)) ctx.fail(ir.value, `${subject}.impratio`, `${v}`, "a ratio > 0 (MuJoCo's impratio: friction-to-normal impedance)");
    s.impratio = v;
  }
  const tol = m.get('tolerance');
  if (tol) {
    const v = readNumber(ctx, tol.value, `${subject}.tolerance`);
    if (!(v >= 0 && v < 1))
      ctx.fail(
        tol.value,
        `${subject}.tolerance`,
        `${v}`,
        "a tolerance in [0, 1) (MuJoCo's: an island stops once its scaled improvement or gradient is below it; 0 runs every iteration)",
      );
    s.tolerance = v;
  }
  const me = m.get('method');
  if (me) s.method = readEnum(ctx, me.value, `${subject}.method`, SOLVER_METHODS);
  // MuJoCo's PGS has no bound; the engine's forms dense rows (J M⁻¹ Jᵀ per lane) up to NEWTON_MAX_DOFS
  if (me && s.method === 'pgs' && nv > NEWTON_MAX_DOFS)
    ctx.fail(
      me.value,
      `${subject}.method`,
      `pgs for a model of ${nv} dofs`,
      `cg or newton, or a model of at most ${NEWTON_MAX_DOFS} dofs (the engine's PGS forms dense rows, J M⁻¹ Jᵀ per lane, up to ${NEWTON_MAX_DOFS} dofs)`,
    );
  const co = m.get('cone');
  if (co) s.cone = readEnum(ctx, co.value, `${subject}.cone`, FRICTION_CONES);
  const ni = m.get('noslipIterations');
  if (ni) {
    const v = readNumber(ctx, ni.value, `${subject}.noslipIterations`);
    if (!Number.isInteger(v) || v < 0 || v > SOLVER_ITERATIONS_MAX)
      ctx.fail(
        ni.value,
        `${subject}.noslipIterations`,
        `${v}`,
        `an integer from 0 to ${SOLVER_ITERATIONS_MAX} (MuJoCo's noslip_iterations: sweeps over the friction rows after the solver; 0: none)`,
      );
    // as PGS, the engine's noslip forms dense rows up to NEWTON_MAX_DOFS
    if (v > 0 && nv > NEWTON_MAX_DOFS)
      ctx.fail(
        ni.value,
        `${subject}.noslipIterations`,
        `${v} for a model of ${nv} dofs`,
        `0, or a model of at most ${NEWTON_MAX_DOFS} dofs (the engine's noslip post-solve forms dense rows, J M⁻¹ Jᵀ per lane, up to ${NEWTON_MAX_DOFS} dofs)`,
      );
    s.noslipIterations = v;
  }
  const nt = m.get('noslipTolerance');
  if (nt) {
    const v = readNumber(ctx, nt.value, `${subject}.noslipTolerance`);
    if (!(v >= 0 && Number.isFinite(v)))
      ctx.fail(nt.value, `${subject}.noslipTolerance`, `${v}`, "a finite tolerance >= 0 (MuJoCo's noslip_tolerance, default 1e-6)");
    s.noslipTolerance = v;
  }
  if (co && s.cone === 'elliptic' && s.method === 'pgs')
    ctx.fail(co.value, `${subject}.cone`, 'elliptic', 'pyramidal with method pgs (PGS with the elliptic cone is not implemented)');
  return s;
}

/** Keys of a joint mapping that belong to its limit. */
export const JOINT_LIMIT_KEYS = ['range', 'limit'] as const;

/** A joint's `range` and `limit` → BodyDesc.range / .limit (MuJoCo's defaults fill what `limit` omits). */
export function readJointLimit(ctx: Ctx, node: YNode, subject: string, joint: JointType): Pick<BodyDesc, 'range' | 'limit'> {
  if (node == null) return {};
  const m = entries(ctx, node, subject);
  const rE = m.get('range');
  const lE = m.get('limit');
  if (!rE) {
    if (lE)
      ctx.fail(
        lE.keyNode,
        `${subject}.limit`,
        '`limit` without `range`',
        'a `range: [lower, upper]` on the joint (the limit settings apply to its ends)',
      );
    return {};
  }
  if (joint !== 'revolute' && joint !== 'prismatic' && joint !== 'ball')
    ctx.fail(
      rE.keyNode,
      `${subject}.range`,
      `a range on a ${joint} joint`,
      'a range only on revolute (rad), prismatic (m) and ball (cone: [0, max angle] rad) joints',
    );
  const range = readRange(ctx, rE.value, `${subject}.range`, joint === 'prismatic' ? 'm' : 'rad');
  // a ball's range is its cone (MuJoCo's: range[0] should be 0 in ball joint; the angle is limited by range[1])
  if (joint === 'ball' && range[0] !== 0)
    ctx.fail(
      rE.value,
      `${subject}.range`,
      `[${range[0]}, ${range[1]}]`,
      '[0, max angle] on a ball joint (a cone limit on the rotation angle, rad)',
    );
  const l = lE ? readLimit(ctx, lE.value, `${subject}.limit`) : {};
  return { range, limit: { solref: l.solref ?? [...DEFAULT_SOLREF], solimp: l.solimp ?? [...DEFAULT_SOLIMP], margin: l.margin ?? 0 } };
}
