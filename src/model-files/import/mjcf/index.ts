// MJCF (MuJoCo XML) → the import IR, following MuJoCo's compiler for everything that changes the
// dynamics: the body tree and every orientation form, inertials and inertia from geoms, joints,
// geoms, default classes and childclass, compiler and option settings, actuators and the first
// keyframe, fixed tendons, equality constraints (connect, weld, joint), fluid forces (option density, viscosity, wind; geom fluidshape, fluidcoef); the meta-elements <include> (include.ts), <frame> and <replicate>
// (frame.ts, replicate.ts). Elements that do not change the dynamics are skipped with a note; anything
// else that would (spatial tendons, tendon and flex equality constraints, flex, ...) is
// refused at its line.
//
// One reader per element, as MuJoCo's xml_native_reader.cc has one method per element, all sharing
// one context (context.ts). readMjcf reads the sections in the order each depends on the others:
// compiler and option first (angle units, autolimits), then defaults, assets, the body tree, and the
// elements that name bodies and joints (tendons, equality constraints, actuators, contact excludes,
// keyframes).

import { NEWTON_MAX_DOFS } from '../../../engine/model-desc.js';
import { inertiaOverflows } from '../geom-inertia.js';
import type { ImportNote, IrModel } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';
import { readActuators } from './actuator.js';
import { readAssets } from './asset.js';
import { readWorldbodies } from './body.js';
import { readCompiler, setTotalMass } from './compiler.js';
import { readContacts } from './contact.js';
import { readSensors } from './sensor.js';
import { newContext, sections, type MjcfContext } from './context.js';
import { readDefaults } from './defaults.js';
import { readEqualities } from './equality.js';
import { expandIncludes } from './include.js';
import { readKeyframes } from './keyframe.js';
import { readOption } from './option.js';
import { applyDisableFlags } from './option-flags.js';
import { checkMjcfSchema } from './schema-check.js';
import { checkReplicatedSize } from './model-size.js';
import { refuseReplicatedReferences } from './replicate.js';
import { readTendons } from './tendon.js';

/** Elements skipped because they do not change the motion, with why (checked against MuJoCo's
 *  compile of test/fixtures/import/mjcf-inert-settings.xml by test/import-compiler.test.ts). */
const INERT: Record<string, string> = {
  visual: 'it sets how MuJoCo draws the model',
  statistic: "it sets the viewer's extent and MuJoCo's solver tolerance scale (meaninertia), not the model's dynamics",
  size: "it sizes MuJoCo's memory and user arrays",
  custom: 'it holds user data that no simulation step reads',
};
/** Elements refused: they change the dynamics and are not supported. */
const REFUSED: Record<string, string> = {
  deformable: 'flex and skin (deformable bodies)',
  extension: 'plugins',
};
/** Top-level elements read below. */
const READ = ['compiler', 'option', 'default', 'asset', 'worldbody', 'tendon', 'equality', 'actuator', 'contact', 'sensor', 'keyframe'];

/** `allowLarge`: read a model that replicates past MODEL_LIMITS (the user's --yes; model-size.ts). */
export function readMjcf(r: Reader, root: XmlElement, notes: ImportNote[], allowLarge = false): IrModel {
  expandIncludes(r, root); // MuJoCo assembles the included files into one tree first (IncludeXML)
  checkMjcfSchema(r, root); // then refuses unknown elements and attributes before reading any
  checkReplicatedSize(r, root, allowLarge); // and a model that would replicate past its size, before any copy
  const ctx = newContext(r, root, notes);
  judgeTopLevel(ctx);
  for (const c of sections(ctx, 'compiler')) readCompiler(ctx, c);
  for (const o of sections(ctx, 'option')) readOption(ctx, o);
  readDefaults(ctx);
  readAssets(ctx);
  readWorldbodies(ctx);
  refuseReplicatedReferences(ctx);
  if (ctx.compiler.settotalmass > 0) applyTotalMass(ctx);
  refusePgsBeyondItsDofs(ctx);
  readTendons(ctx);
  readEqualities(ctx);
  readActuators(ctx);
  readContacts(ctx);
  readSensors(ctx);
  readKeyframes(ctx);
  applyDisableFlags(ctx.ir, notes);
  return ctx.ir;
}

/** Each top-level element: read below, skipped with a note (INERT), or refused at its line. */
function judgeTopLevel(ctx: MjcfContext): void {
  for (const c of ctx.root.children) {
    if (INERT[c.name]) ctx.note('skipped', c, `<${c.name}> does not change the dynamics: ${INERT[c.name]}`);
    else if (REFUSED[c.name])
      ctx.r.fail(
        c,
        `<${c.name}>`,
        REFUSED[c.name],
        'what the importer supports: worldbody (with frame and replicate), default, compiler, option, asset (meshes), tendon (fixed), equality (connect, weld, joint), actuator (motor, position, velocity), contact (exclude), sensor (position, velocity, acceleration and touch sensors), keyframe, include',
      );
    else if (!READ.includes(c.name)) {
      ctx.r.fail(
        c,
        `<${c.name}>`,
        'an element MJCF does not define at the top level',
        'compiler, option, size, visual, statistic, default, custom, asset, worldbody, contact, equality, tendon, actuator, sensor, keyframe',
      );
    }
  }
}

/** The attribute that decided a setting: the last of the `section` elements that set it (MuJoCo reads
 *  them in order, so the last one wins). */
function lastAttr(ctx: MjcfContext, section: string, name: string) {
  return sections(ctx, section)
    .map((s) => s.attrs.get(name))
    .filter((a) => a !== undefined)
    .pop()!;
}

/** compiler settotalmass, refused at its attribute where the scaled masses or inertias overflow. */
function applyTotalMass(ctx: MjcfContext): void {
  setTotalMass(ctx.ir.bodies, ctx.compiler.settotalmass);
  const over = ctx.ir.bodies.find(inertiaOverflows);
  if (!over) return;
  const at = lastAttr(ctx, 'compiler', 'settotalmass');
  ctx.r.fail(
    at,
    'compiler settotalmass',
    `${at.value.trim()}, which makes body '${over.name}''s mass ${over.mass} and inertia [${over.inertia.join(', ')}] overflow`,
    'a total mass whose bodies keep finite masses and inertias',
  );
}

/** The native core's PGS and noslip form dense rows up to NEWTON_MAX_DOFS dofs (MuJoCo's have no
 *  bound): a larger model with solver="PGS", or with noslip_iterations > 0, is refused at that attribute. */
function refusePgsBeyondItsDofs(ctx: MjcfContext): void {
  const pgs = ctx.ir.option.solver === 'pgs';
  const noslip = (ctx.ir.option.noslipIterations ?? 0) > 0;
  if (!pgs && !noslip) return;
  const DOFS = { hinge: 1, slide: 1, ball: 3, free: 6 };
  const nv = ctx.ir.bodies.reduce((n, b) => n + b.joints.reduce((k, j) => k + DOFS[j.type], 0), 0);
  if (nv <= NEWTON_MAX_DOFS) return;
  if (pgs) {
    const at = lastAttr(ctx, 'option', 'solver');
    ctx.r.fail(
      at,
      'option solver',
      `"PGS" for a model of ${nv} dofs`,
      `solver="CG" or "Newton", or a model of at most ${NEWTON_MAX_DOFS} dofs (the engine's PGS forms dense rows, J M⁻¹ Jᵀ per lane, up to ${NEWTON_MAX_DOFS} dofs)`,
    );
  }
  const at = lastAttr(ctx, 'option', 'noslip_iterations');
  ctx.r.fail(
    at,
    'option noslip_iterations',
    `${at.value.trim()} for a model of ${nv} dofs`,
    `noslip_iterations="0", or a model of at most ${NEWTON_MAX_DOFS} dofs (the engine's noslip post-solve forms dense rows, J M⁻¹ Jᵀ per lane, up to ${NEWTON_MAX_DOFS} dofs)`,
  );
}
