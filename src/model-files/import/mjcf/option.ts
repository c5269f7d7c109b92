// <option> and its <flag>, as MuJoCo's mjXReader::Option: the time step, gravity, integrator,
// solver settings and fluid (density, viscosity, wind) the engine follows; the rest is judged one by
// one in option-flags.ts.

import type { Vec3 } from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import type { XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import type { MjcfContext } from './context.js';
import { otherOption, readFlags } from './option-flags.js';

/** The most solver iterations the native core takes (model_reader.hpp read_solver, invweight.cpp). */
const MAX_SOLVER_ITERATIONS = 100_000;

export function readOption(ctx: MjcfContext, o: XmlElement): void {
  const r: Reader = ctx.r;
  const { ir, note } = ctx;
  for (const [k, a] of o.attrs) {
    switch (k) {
      case 'timestep': {
        const h = r.num(a, 'option timestep');
        if (!(h >= 1e-9 && h <= 1)) r.fail(a, 'option timestep', quote(a.value), 'a time step from 1e-9 to 1 s');
        ir.option.timestep = h;
        break;
      }
      case 'gravity':
        ir.option.gravity = r.nums(a, 'option gravity', 3) as Vec3;
        break;
      case 'integrator': {
        const v = r.choice(a, 'option integrator', ['Euler', 'RK4', 'implicit', 'implicitfast'] as const);
        ir.option.integrator = v === 'RK4' ? 'rk4' : v === 'Euler' ? 'euler' : 'implicitfast';
        if (v === 'implicit')
          note(
            'approximated',
            a,
            "integrator implicit → implicitfast (MuJoCo's implicit without the derivative of the Coriolis and centrifugal forces)",
          );
        break;
      }
      case 'cone':
        ir.option.cone = r.choice(a, 'option cone', ['pyramidal', 'elliptic'] as const);
        break;
      case 'solver': {
        const v = r.choice(a, 'option solver', ['PGS', 'CG', 'Newton'] as const);
        ir.option.solver = v === 'Newton' ? 'newton' : v === 'PGS' ? 'pgs' : 'cg';
        break;
      }
      case 'tolerance': {
        const v = r.num(a, 'option tolerance');
        if (!(v >= 0 && v < 1)) r.fail(a, 'option tolerance', quote(a.value), 'a tolerance in [0, 1)');
        ir.option.tolerance = v;
        break;
      }
      case 'iterations': {
        // MuJoCo reads an int and takes any; the engine's solver runs 0 to 100000 iterations
        const n = r.num(a, 'option iterations');
        if (!(Number.isInteger(n) && n >= 0 && n <= MAX_SOLVER_ITERATIONS))
          r.fail(a, 'option iterations', quote(a.value), `a whole number of iterations from 0 to ${MAX_SOLVER_ITERATIONS}`);
        ir.option.iterations = n;
        break;
      }
      case 'noslip_iterations': {
        // MuJoCo reads an int and takes any (≤ 0: no noslip); a negative count is refused here as a mistake
        const n = r.num(a, 'option noslip_iterations');
        if (!(Number.isInteger(n) && n >= 0 && n <= MAX_SOLVER_ITERATIONS))
          r.fail(a, 'option noslip_iterations', quote(a.value), `a whole number of noslip sweeps from 0 to ${MAX_SOLVER_ITERATIONS}`);
        ir.option.noslipIterations = n;
        break;
      }
      case 'noslip_tolerance': {
        // MuJoCo takes any, NaN included (then no sweep's improvement is below it); refused here
        const v = r.num(a, 'option noslip_tolerance');
        if (!(v >= 0 && Number.isFinite(v))) r.fail(a, 'option noslip_tolerance', quote(a.value), 'a finite noslip tolerance >= 0');
        ir.option.noslipTolerance = v;
        break;
      }
      case 'impratio': {
        // MuJoCo takes any; the engine divides the friction rows' regularisation by it
        const x = r.num(a, 'option impratio');
        if (!(x > 0)) r.fail(a, 'option impratio', quote(a.value), 'an impratio > 0 (the ratio of frictional to normal impedance)');
        ir.option.impratio = x;
        break;
      }
      case 'density':
      case 'viscosity': {
        // MuJoCo takes any number (a negative density flips the ellipsoid model's drag and is
        // ignored by the inertia box's); the engine takes the physical ones
        const x = r.num(a, `option ${k}`);
        if (!(x >= 0)) r.fail(a, `option ${k}`, quote(a.value), `a ${k} >= 0 (${k === 'density' ? 'kg/m³' : 'Pa·s'})`);
        fluidOf(ctx, o)[k] = x;
        break;
      }
      case 'wind':
        fluidOf(ctx, o).wind = r.nums(a, 'option wind', 3) as Vec3;
        break;
      default:
        otherOption(r, k, a, note, ctx.ir);
    }
  }
  if (!o.attrs.has('iterations')) note('as-mujoco', o, "solver iterations 100 (MuJoCo's default)");
  for (const f of o.children) {
    if (f.name !== 'flag') r.fail(f, `<option><${f.name}>`, f.name, '<flag>');
    readFlags(r, f, ir, note);
  }
  if (!o.attrs.has('solver')) note('as-mujoco', o, "solver Newton (MuJoCo's default)");
  const cone = o.attrs.get('cone');
  if (ir.option.solver === 'pgs' && cone?.value === 'elliptic')
    r.fail(cone, 'option cone', quote(cone.value), 'cone="pyramidal" with solver="PGS" (PGS with the elliptic cone is not implemented)');
  if (!o.attrs.has('tolerance')) note('as-mujoco', o, "solver tolerance 1e-8 (MuJoCo's default)");
  const fl = ir.fluid;
  const integ = o.attrs.get('integrator');
  if (fl && (fl.density !== 0 || fl.viscosity !== 0) && integ && ir.option.integrator === 'implicitfast')
    r.fail(
      integ,
      'option integrator',
      `${quote(integ.value)} with fluid forces (density or viscosity)`,
      "integrator Euler or RK4 (MuJoCo's implicit integrators add the fluid forces' velocity derivatives to qDeriv, which the engine does not implement)",
    );
}

/** The model's fluid settings, made at MuJoCo's defaults (no density, viscosity or wind) the first
 *  time an <option> names one. */
function fluidOf(ctx: MjcfContext, o: XmlElement): NonNullable<MjcfContext['ir']['fluid']> {
  ctx.ir.fluid ??= { density: 0, viscosity: 0, wind: [0, 0, 0], source: ctx.r.span(o) };
  return ctx.ir.fluid;
}
