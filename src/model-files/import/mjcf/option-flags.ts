// MJCF <option> settings the engine has no counterpart for, and <option><flag>, judged one by one
// (none is skipped wholesale): what cannot change the motion is skipped with the reason, what
// would change it and the engine cannot do is refused at its line. Flag defaults are MuJoCo's
// (mjtDisableBit: on unless disabled; mjtEnableBit: off unless enabled); a flag at its default is
// no change at all.

import type { DisableFlag, ImportNote, IrModel } from '../ir.js';
import { printable, quote, SceneError } from '../../common/errors.js';
import { CCD_DEFAULTS } from '../convex-pairs.js';
import type { Reader } from '../read-attrs.js';
import type { XmlAttr, XmlElement } from '../xml.js';

type Note = (k: ImportNote['kind'], at: XmlElement | XmlAttr, m: string) => void;

/** MuJoCo's default for every flag: 'enable' for the disable bits, 'disable' for the enable bits. */
const FLAG_DEFAULT: Record<string, 'enable' | 'disable'> = {
  constraint: 'enable',
  equality: 'enable',
  frictionloss: 'enable',
  limit: 'enable',
  contact: 'enable',
  spring: 'enable',
  damper: 'enable',
  gravity: 'enable',
  clampctrl: 'enable',
  warmstart: 'enable',
  filterparent: 'enable',
  actuation: 'enable',
  refsafe: 'enable',
  sensor: 'enable',
  midphase: 'enable',
  eulerdamp: 'enable',
  autoreset: 'enable',
  nativeccd: 'enable',
  island: 'enable',
  multiccd: 'enable',
  override: 'disable',
  energy: 'disable',
  fwdinv: 'disable',
  invdiscrete: 'disable',
  sleep: 'disable',
  diagexact: 'disable',
};

/** Flags whose setting cannot change the motion, with why. */
const FLAG_NO_MOTION: Record<string, string> = {
  sensor: 'MuJoCo then computes no sensordata (it stays zero, as mj_resetData leaves it); the engine likewise',
  energy: 'energy is computed for reporting only',
  fwdinv: 'it compares forward and inverse dynamics for reporting only',
  invdiscrete: 'it changes inverse dynamics only',
  autoreset: 'MuJoCo resets only after a non-finite state; Achilles stops the run with the step and robot instead',
  midphase: 'the midphase only prunes pairs (the same contacts are found)',
};

/** <option> attributes without a counterpart in the engine, and why they cannot change the motion
 *  (kind 'skipped') or how the engine differs (kind 'approximated'). */
const OPTION_OTHER: Record<string, [ImportNote['kind'], string]> = {
  ls_tolerance: [
    'approximated',
    "the engine's line search stops at MuJoCo's default ls_tolerance 0.01 under the elliptic cone (in float32 no tighter than 16 times its slope's rounding), and at its piece's exact minimum under the pyramid",
  ],
  ls_iterations: ['approximated', "the engine's line search has its own iteration cap"],
  sdf_iterations: ['skipped', 'sdf geoms are refused'],
  sdf_initpoints: ['skipped', 'sdf geoms are refused'],
  sleep_tolerance: ['skipped', 'sleeping is off (flag sleep)'],
  magnetic: ['skipped', 'only magnetometer sensors read it'],
  jacobian: ['skipped', 'dense and sparse Jacobians give the same numbers'],
  o_margin: ['skipped', 'o_ values apply only with flag override, which is off'],
  o_solref: ['skipped', 'o_ values apply only with flag override, which is off'],
  o_solimp: ['skipped', 'o_ values apply only with flag override, which is off'],
  o_friction: ['skipped', 'o_ values apply only with flag override, which is off'],
};

/** An <option> attribute readOption has no case for: noted with its reason, or refused. */
export function otherOption(r: Reader, k: string, a: XmlAttr, note: Note, ir: IrModel): void {
  // The engine's GJK/EPA runs at MuJoCo 3.14's defaults only: judged once the shapes are known (compile.ts)
  if (k in CCD_DEFAULTS) {
    if (r.num(a, `option ${k}`) !== CCD_DEFAULTS[k]) (ir.ccd ??= []).push({ key: k, value: a.value, source: r.span(a) });
    return;
  }
  if (k === 'actuatorgroupdisable') {
    if (a.value.trim() !== '')
      r.fail(a, 'option actuatorgroupdisable', quote(a.value), 'no disabled actuator groups (the engine drives every actuator)');
    return;
  }
  const why = OPTION_OTHER[k];
  if (!why)
    r.fail(a, `option ${k}`, 'an option the importer does not know', 'an attribute it reads (a new MuJoCo option: please report it)');
  note(why[0], a, `option ${k} is not used: ${why[1]}`);
}

/** <option><flag>: gravity="disable" zeroes gravity; other flags are checked against MuJoCo's defaults. */
export function readFlags(r: Reader, f: XmlElement, ir: IrModel, note: Note): void {
  for (const [k, a] of f.attrs) {
    const v = r.choice(a, `flag ${k}`, ['enable', 'disable'] as const);
    const dflt = FLAG_DEFAULT[k];
    if (!dflt) r.fail(a, `flag ${k}`, 'a flag the importer does not know', 'a flag it reads (a new MuJoCo flag: please report it)');
    if (v === dflt) {
      note('skipped', a, `flag ${k}="${v}" is MuJoCo's default: no change`);
    } else if (k === 'gravity') {
      ir.option.gravity = [0, 0, 0];
    } else if (k in DISABLES) {
      (ir.disabled ??= []).push({ flag: k as DisableFlag, source: r.span(a) });
    } else if (k === 'multiccd') {
      // v is 'disable' here (the default returned above): the engine's convex collider has the same switch
      ir.multiccdDisabled = r.span(a);
      note(
        'as-mujoco',
        a,
        'flag multiccd="disable": every pair MuJoCo collides with mjc_Convex (a cylinder, ellipsoid or mesh with anything but a plane) gets its first GJK/EPA contact only (no perturbed re-runs, no face clipping), as MuJoCo runs it',
      );
    } else if (FLAG_NO_MOTION[k]) {
      if (k === 'sensor') ir.sensorsDisabled = r.span(a);
      note('skipped', a, `flag ${k}="${v}" does not change the motion: ${FLAG_NO_MOTION[k]}`);
    } else {
      r.fail(a, `flag ${k}`, `"${v}", which changes the motion`, `${k}="${dflt}" (MuJoCo's default; the engine has no ${k}="${v}")`);
    }
  }
}

/** What each disable flag switches off, as MuJoCo's step does: equality, contact, limit and
 *  frictionloss rows are never made (constraint: all four), spring and damper passive
 *  forces are not applied (with damper off, Euler's implicit damping too: engine_forward.c). The same
 *  model without those features is what MuJoCo runs, so that is what the import builds. */
const DISABLES: Record<DisableFlag, string> = {
  constraint: 'no constraint rows: no equality constraints, contacts, joint and tendon limits or dry friction',
  equality: 'no equality constraint rows (the constraints are left out)',
  contact: 'no contacts: the geoms count for mass only',
  limit: 'no joint or tendon limits',
  frictionloss: 'no joint or tendon dry friction',
  spring: 'no joint or tendon stiffness',
  damper: 'no joint or tendon damping',
};

/** Applies the disable flags to the read model (bodies, geoms, tendons), with one note each. */
export function applyDisableFlags(ir: IrModel, notes: ImportNote[]): void {
  for (const { flag, source } of ir.disabled ?? []) {
    const off = (f: DisableFlag): boolean =>
      flag === f || (flag === 'constraint' && (f === 'equality' || f === 'contact' || f === 'limit' || f === 'frictionloss'));
    if (off('equality')) delete ir.equalities;
    for (const b of ir.bodies) {
      // the geoms of the fluid's ellipsoid model stay for the fluid alone (contact off leaves mj_passive)
      if (off('contact')) {
        const fluid = [...(b.fluidOnly ?? []), ...b.geoms.filter((g) => g.fluid)];
        if (fluid.length) b.fluidOnly = fluid;
        b.geoms = [];
      }
      for (const j of b.joints) {
        if (off('limit')) {
          delete j.range;
          delete j.limit;
        }
        if (off('frictionloss')) j.frictionloss = 0;
        // MuJoCo resolves a springdamper into both stiffness and damping at compile time and its step then
        // drops the disabled one; the engine resolves it when the model is made, into both
        if (j.springdamper && (off('spring') || off('damper')))
          throw new SceneError({
            ...source,
            subject: `flag ${flag}`,
            found: `"disable" with the springdamper of joint '${j.name}' (at ${printable(j.source.file)}:${j.source.line}:${j.source.column})`,
            expected: `a model without one of them: the engine resolves a springdamper into both stiffness and damping and cannot drop one (remove the flag, or give the joint stiffness and damping)`,
          });
        if (off('spring')) j.stiffness = 0;
        if (off('damper')) j.damping = 0;
      }
    }
    if (off('contact')) ir.worldGeoms = [];
    for (const t of ir.tendons ?? []) {
      if (off('limit')) {
        delete t.range;
        delete t.limit;
      }
      if (off('frictionloss')) t.frictionloss = 0;
      if (off('spring')) t.stiffness = 0;
      if (off('damper')) t.damping = 0;
    }
    notes.push({ kind: 'as-mujoco', source, message: `flag ${flag}="disable": ${DISABLES[flag]}, as MuJoCo runs it` });
  }
}
