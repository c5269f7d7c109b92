// MJCF <option> settings the engine has no counterpart for, and <option><flag>, judged one by one
// (none is skipped wholesale): what cannot change the motion is skipped with the reason, what
// would change it and the engine cannot do is refused at its line. Flag defaults are MuJoCo's
// (mjtDisableBit: on unless disabled; mjtEnableBit: off unless enabled); a flag at its default is
// no change at all.

import type { IrModel } from './ir.js';
import type { ImportNote } from './ir.js';
import { quote } from '../scene/errors.js';
import type { Reader } from './read-attrs.js';
import type { XmlAttr, XmlElement } from './xml.js';

type Note = (k: ImportNote['kind'], at: XmlElement | XmlAttr, m: string) => void;

/** MuJoCo's default for every flag: 'enable' for the disable bits, 'disable' for the enable bits. */
const FLAG_DEFAULT: Record<string, 'enable' | 'disable'> = {
  constraint: 'enable', equality: 'enable', frictionloss: 'enable', limit: 'enable', contact: 'enable', spring: 'enable', damper: 'enable',
  gravity: 'enable', clampctrl: 'enable', warmstart: 'enable', filterparent: 'enable', actuation: 'enable', refsafe: 'enable', sensor: 'enable',
  midphase: 'enable', eulerdamp: 'enable', autoreset: 'enable', nativeccd: 'enable', island: 'enable', multiccd: 'enable',
  override: 'disable', energy: 'disable', fwdinv: 'disable', invdiscrete: 'disable', sleep: 'disable', diagexact: 'disable',
};

/** Flags whose setting cannot change the motion, with why. */
const FLAG_NO_MOTION: Record<string, string> = {
  sensor: 'sensors are not imported',
  energy: 'energy is computed for reporting only',
  fwdinv: 'it compares forward and inverse dynamics for reporting only',
  invdiscrete: 'it changes inverse dynamics only',
  autoreset: 'MuJoCo resets only after a non-finite state; Achilles stops the run with the step and robot instead',
  midphase: 'the midphase only prunes pairs (the same contacts are found)',
};

/** <option> attributes without a counterpart in the engine, and why they cannot change the motion
 *  (kind 'skipped') or how the engine differs (kind 'approximated'). */
const OPTION_OTHER: Record<string, [ImportNote['kind'], string]> = {
  tolerance: ['approximated', "the engine's CG stops after `iterations` or at its own convergence test, not at MuJoCo's tolerance"],
  ls_tolerance: ['approximated', "the engine's line search has its own stopping rule"],
  ls_iterations: ['approximated', "the engine's line search has its own iteration cap"],
  noslip_tolerance: ['skipped', 'the noslip solver is off (noslip_iterations 0)'],
  ccd_tolerance: ['skipped', "MuJoCo's convex collision is used by mesh and cylinder pairs, which the import replaces by boxes and rounded boxes"],
  ccd_iterations: ['skipped', "MuJoCo's convex collision is used by mesh and cylinder pairs, which the import replaces by boxes and rounded boxes"],
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
export function otherOption(r: Reader, k: string, a: XmlAttr, note: Note): void {
  if (k === 'noslip_iterations') {
    if (r.num(a, 'option noslip_iterations') !== 0) r.fail(a, 'option noslip_iterations', quote(a.value), 'noslip_iterations="0" (the noslip post-solve changes the motion; the engine has none)');
    return;
  }
  if (k === 'actuatorgroupdisable') {
    if (a.value.trim() !== '') r.fail(a, 'option actuatorgroupdisable', quote(a.value), 'no disabled actuator groups (the engine drives every actuator)');
    return;
  }
  const why = OPTION_OTHER[k];
  if (!why) r.fail(a, `option ${k}`, 'an option the importer does not know', 'an attribute it reads (a new MuJoCo option: please report it)');
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
    } else if (FLAG_NO_MOTION[k]) {
      note('skipped', a, `flag ${k}="${v}" does not change the motion: ${FLAG_NO_MOTION[k]}`);
    } else {
      r.fail(a, `flag ${k}`, `"${v}", which changes the motion`, `${k}="${dflt}" (MuJoCo's default; the engine has no ${k}="${v}")`);
    }
  }
}
