// <compiler>: the settings that change how the rest of the file is read (angle units, euler
// sequence, mesh folder, autolimits, where inertia comes from), as MuJoCo's mjXReader::Compiler;
// and the compiler's last step that the import follows, mj_setTotalmass.

import type { Inertia6 } from '../../../engine/math.js';
import type { Vec3 } from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import { importBug } from '../bugs.js';
import type { IrBody } from '../ir.js';
import type { XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import type { MjcfContext } from './context.js';
import type { Compiler } from './compiler-settings.js';

/** Compiler settings that cannot change the compiled model, with why (checked against MuJoCo's
 *  compile of test/fixtures/import/mjcf-settotalmass.xml by test/import-compiler.test.ts). */
const COMPILER_NO_EFFECT: Record<string, string> = {
  texturedir: 'textures are not read',
  usethread: "threads change how fast MuJoCo's compiler runs, not its result",
  saveinertial: 'it changes only what MuJoCo writes when it saves the model',
  fitaabb: 'no geom is fitted to a mesh (a primitive geom with mesh= is refused)',
  conflict: 'it resolves name conflicts of <attach>, which is refused',
};

export function readCompiler(ctx: MjcfContext, c: XmlElement): void {
  const r: Reader = ctx.r;
  const { compiler } = ctx;
  for (const [k, a] of c.attrs) {
    switch (k) {
      case 'angle':
        compiler.degree = r.choice(a, 'compiler angle', ['degree', 'radian'] as const) === 'degree';
        break;
      case 'eulerseq':
        if (!/^[xyzXYZ]{3}$/.test(a.value))
          r.fail(
            a,
            'compiler eulerseq',
            quote(a.value),
            'three letters from x, y, z, X, Y, Z (lower case: moving axes, upper case: fixed axes)',
          );
        compiler.eulerseq = a.value;
        break;
      case 'meshdir':
      case 'assetdir':
        compiler.meshdir = a.value;
        break;
      case 'autolimits':
        compiler.autolimits = r.bool(a, 'compiler autolimits');
        break;
      case 'inertiafromgeom':
        compiler.inertiafromgeom = r.choice(a, 'compiler inertiafromgeom', ['true', 'false', 'auto'] as const);
        break;
      case 'discardvisual':
        compiler.discardvisual = r.bool(a, 'compiler discardvisual');
        break;
      case 'settotalmass':
        compiler.settotalmass = r.num(a, 'compiler settotalmass');
        break;
      case 'inertiagrouprange': {
        const g = r.nums(a, 'compiler inertiagrouprange', 2);
        if (!g.every(Number.isInteger)) r.fail(a, 'compiler inertiagrouprange', quote(a.value), 'two integer geom groups');
        compiler.inertiagrouprange = [g[0], g[1]];
        break;
      }
      case 'boundmass':
      case 'boundinertia':
        if (r.num(a, `compiler ${k}`) !== 0)
          r.fail(a, `compiler ${k}`, quote(a.value), `${k}="0" (bounding masses and inertias is not supported)`);
        break;
      case 'balanceinertia':
      case 'fusestatic':
      case 'alignfree':
        if (a.value === 'true') r.fail(a, `compiler ${k}`, 'true', `${k}="false" (not supported)`);
        break;
      case 'strippath':
        compiler.strippath = r.bool(a, 'compiler strippath');
        break;
      case 'coordinate':
        if (r.choice(a, 'compiler coordinate', ['local', 'global'] as const) === 'global')
          r.fail(a, 'compiler coordinate', '"global"', 'coordinate="local" (MuJoCo: "global coordinates no longer supported")');
        break;
      default: {
        const why = COMPILER_NO_EFFECT[k];
        if (!why)
          r.fail(
            a,
            `compiler ${k}`,
            'a compiler setting the importer does not know',
            'one it reads (a new MuJoCo setting: please report it)',
          );
        ctx.note('skipped', a, `compiler ${k} does not change the compiled model: ${why}`);
      }
    }
  }
}

/** An orientation angle (euler, axisangle) in radians, from compiler angle: x / 180 · π, in MuJoCo's
 *  order (user_objects.cc ResolveOrientation), which never overflows (x · π first would make 1e308
 *  infinite, where MuJoCo turns it into a finite angle). */
export const angle = (compiler: Compiler, x: number): number =>
  compiler.degree && !importBug('import-degrees-as-radians') ? (x / 180) * Math.PI : x;
/** A hinge's range, ref or springref in radians, from compiler angle: x · (π / 180), MuJoCo's
 *  `*= mjPI/180.0` (user_objects.cc mjCJoint::Compile), finite for every finite x. */
export const angleRange = (compiler: Compiler, x: number): number => (compiler.degree ? x * (Math.PI / 180) : x);

/** MuJoCo's mj_setTotalmass, run by the compiler after every body's mass is known: each body's mass
 *  and inertia times newmass / (sum of the body masses), both divisions kept off zero by mjMINVAL. */
export function setTotalMass(bodies: IrBody[], newmass: number): void {
  const MJ_MINVAL = 1e-15;
  const total = bodies.reduce((s, b) => s + b.mass, 0);
  const scale = Math.max(MJ_MINVAL, newmass / Math.max(MJ_MINVAL, total));
  for (const b of bodies) {
    b.mass *= scale;
    b.inertia = b.inertia.map((x) => x * scale) as Inertia6;
    if (b.principal) b.principal = { quat: b.principal.quat, inertia: b.principal.inertia.map((x) => x * scale) as Vec3 };
  }
}
