// Load-time refusal of a model the native core refuses, named at the element's own line and column.
//
// The checks themselves live in the native core (model_reader.hpp reads the model object, Model::
// finalize and the finalize_* steps check it, native/src), so one definition guards both loading and
// the engine: among them, every moving joint needs mass in its subtree, and the ABA's D = Sᵀ·IA·S at
// the initial configuration, scaled by the locked-subtree inertia, must be positive definite with
// every Cholesky pivot above 1e-6. Loading builds the native model once (one lane, float64) and turns
// its complaint into a SceneError at the element it names.
//
// The readers refuse every value the native core would refuse at the attribute that gave it (test/
// native-messages-placed.test.ts walks each native check): what reaches this is what only the whole
// model shows (a singular tree), or a check a reader missed, which is then still placed at its
// element (a link, shape, actuator, tendon or equality), never a bare native message.

import type { ModelDesc, SourceSpan } from '../../engine/model-desc.js';
import { engineRefusal } from '../../params/engine-check.js';
import { SceneError } from '../common/errors.js';

export function checkEffectiveInertia(model: ModelDesc): void {
  const refused = engineRefusal(model);
  if (refused !== undefined) throw placedNativeError(model, refused) ?? new Error(refused);
}

/** The element a native message names, by name (`joint 'hip': …`, `shape 'foot': …`, `tendon 't'
 *  limit: …`) or by index (`model.shapes[3].size[0] …`): its kind, its entry in the model, what the
 *  message says of it. */
interface Named {
  kind: 'link' | 'shape' | 'actuator' | 'tendon' | 'equality';
  entry: { name: string; source?: SourceSpan } | undefined;
  says: string;
}

const BY_NAME: Record<string, Named['kind']> = {
  joint: 'link',
  shape: 'shape',
  actuator: 'actuator',
  tendon: 'tendon',
  equality: 'equality',
};
const BY_KEY: Record<string, Named['kind']> = {
  bodies: 'link',
  shapes: 'shape',
  actuators: 'actuator',
  tendons: 'tendon',
  equalities: 'equality',
};

function named(model: ModelDesc, message: string): Named | undefined {
  const lists: Record<Named['kind'], { name: string; source?: SourceSpan }[]> = {
    link: model.bodies,
    shape: model.shapes ?? [],
    actuator: model.actuators ?? [],
    tendon: model.tendons ?? [],
    equality: model.equalities ?? [],
  };
  const n = /^(joint|shape|actuator|tendon|equality) '(.*?)'(?: limit)?: (.*)$/s.exec(message);
  if (n) {
    const kind = BY_NAME[n[1]];
    return { kind, entry: lists[kind].find((x) => x.name === n[2]), says: n[3] };
  }
  const k = /^model\.(bodies|shapes|actuators|tendons|equalities)\[(\d+)\](?:: |\.)?(.*)$/s.exec(message);
  if (k) {
    const kind = BY_KEY[k[1]];
    return { kind, entry: lists[kind][Number(k[2])], says: k[3] };
  }
  return undefined;
}

/** The native message as a SceneError at the element it names; undefined when it names none with a
 *  place (the caller rethrows it as it is). */
export function placedNativeError(model: ModelDesc, message: string): SceneError | undefined {
  const n = named(model, message);
  const src = n?.entry?.source ?? (n?.kind === 'link' && n.entry ? { file: model.files[0], line: 1, column: 1 } : undefined);
  if (!n || !n.entry || !src) return undefined;
  const inertia = n.kind === 'link' && /singular|no inertia|massless/.test(n.says);
  const hint = inertia ? overflowHint(model, model.bodies.indexOf(n.entry as ModelDesc['bodies'][number])) : undefined;
  return new SceneError({
    file: src.file,
    line: src.line,
    column: src.column,
    subject: `${n.kind} ${n.entry.name}`,
    found: n.says,
    expected: inertia
      ? 'a joint with positive effective inertia (the model is refused at load, never at step time)'
      : `a ${n.kind} the engine accepts (the native core refuses it at load)`,
    ...(hint ? { hint } : {}),
  });
}

/** Past this, the load check's products of masses, inertias and squared distances overflow a double
 *  (its Cholesky scale multiplies two inertias: about 1.3e154 each). */
const LOAD_CHECK_RANGE = 1e150;

/** Why a link whose numbers are astronomically large reads as singular: the load check's arithmetic
 *  overflows before it can judge the inertia (undefined for ordinary numbers). */
function overflowHint(model: ModelDesc, link: number): string | undefined {
  // walked up iteratively and remembered: a chain of 100,000 links must not recurse, nor be walked per link
  const known = new Map<number, boolean>([[link, true]]);
  const inSubtree = (i: number): boolean => {
    const path: number[] = [];
    let j = i;
    while (j >= 0 && !known.has(j) && path.length <= model.bodies.length) {
      path.push(j);
      j = model.bodies[j].parent;
    }
    const answer = j >= 0 && known.get(j) === true;
    for (const k of path) known.set(k, answer);
    return answer;
  };
  let largest = 0;
  model.bodies.forEach((b, i) => {
    if (!inSubtree(i)) return;
    const r2 = b.pos.reduce((s, x) => s + x * x, 0) + b.com.reduce((s, x) => s + x * x, 0);
    for (const x of [b.mass, ...b.inertia, b.mass * r2]) largest = Math.max(largest, Math.abs(x));
  });
  return largest > LOAD_CHECK_RANGE
    ? `its subtree's masses, inertias or mass × squared distances reach ${largest.toPrecision(3)}: the load check's products of them overflow a double, so the engine cannot run it`
    : undefined;
}
