// MJCF keyframes (read by mjcf/keyframe.ts as MuJoCo's compiler reads <key>): one of them, when asked
// for, made the model's initial state. Without a choice the model starts from qpos0 at rest, as MuJoCo's
// mj_resetData does (the keyframes are MuJoCo's mj_resetDataKeyframe, which a user calls). A chosen
// key sets q and v as mj_resetDataKeyframe sets qpos and qvel: MuJoCo's compiler fills the numbers a
// key leaves out (qpos from qpos0, qvel and ctrl with zeros) and normalises its quaternions
// (user_model.cc: ExpandKeyframe, mjuu_normvec on each ball and free joint's quaternion).

import type { ModelDesc, SourceSpan } from '../../engine/model-desc.js';
import { SceneError } from '../common/errors.js';
import type { ImportNote, IrKey } from './ir.js';

/** `NAME` or `#INDEX (unnamed)`, as the messages list keyframes. */
export const keyLabel = (name: string, index: number): string => (name ? `'${name}'` : `#${index} (unnamed)`);

/** The key a `--keyframe` value names: a key's name first, else a 0-based index (MuJoCo's key id). */
export function chooseKey(keys: readonly IrKey[], want: string, model: SourceSpan): IrKey {
  const byName = keys.find((k) => k.name === want);
  if (byName) return byName;
  if (/^\d+$/.test(want) && Number(want) < keys.length) return keys[Number(want)];
  const at = keys[0]?.source ?? model;
  throw new SceneError({
    ...at,
    subject: '--keyframe',
    found: keys.length ? `'${want}', which is not one of the model's keyframes` : `'${want}', but the model has no <keyframe>`,
    expected: keys.length
      ? `a name or index: ${keys.map((k, i) => (k.name ? `${k.name} (${i})` : `${i} (unnamed)`)).join(', ')}`
      : 'no --keyframe (the model starts from qpos0)',
  });
}

/** Sets every link's q0 and v0 from the key, as mj_resetDataKeyframe sets qpos and qvel. */
export function applyKey(key: IrKey, index: number, model: ModelDesc, notes: ImportNote[]): void {
  const bodies = model.bodies;
  const qpos0 = bodies.flatMap((b) => b.q0);
  const nv = bodies.reduce((n, b) => n + b.v0.length, 0);
  const nu = model.actuators?.length ?? 0;
  const subject = `keyframe ${keyLabel(key.name, index)}`;
  const filled = (v: number[] | undefined, n: number, what: string, at: SourceSpan | undefined, fill: (i: number) => number): number[] => {
    const got = v ?? [];
    if (got.length > n)
      throw new SceneError({
        ...(at ?? key.source),
        subject: `${subject} ${what}`,
        found: `${got.length} numbers`,
        expected: `at most ${n} (the model's ${what === 'qpos' ? 'nq' : what === 'qvel' ? 'nv' : 'nu'}; MuJoCo fills the ones left out)`,
      });
    return Array.from({ length: n }, (_, i) => (i < got.length ? got[i] : fill(i)));
  };
  const qpos = filled(key.qpos, qpos0.length, 'qpos', key.at.qpos, (i) => qpos0[i]);
  const qvel = filled(key.qvel, nv, 'qvel', key.at.qvel, () => 0);
  const ctrl = filled(key.ctrl, nu, 'ctrl', key.at.ctrl, () => 0);
  let iq = 0;
  let iv = 0;
  for (const b of bodies) {
    const q = qpos.slice(iq, iq + b.q0.length);
    if (b.joint === 'ball') normalizeQuat(q, 0);
    if (b.joint === 'free') normalizeQuat(q, 3);
    b.q0 = q;
    b.v0 = qvel.slice(iv, iv + b.v0.length);
    iq += q.length;
    iv += b.v0.length;
  }
  notes.push({
    kind: 'as-mujoco',
    source: key.source,
    message: `${subject} is the initial state (--keyframe; MuJoCo's mj_resetDataKeyframe)`,
  });
  if (key.time !== 0)
    notes.push({
      kind: 'dropped',
      source: key.at.time ?? key.source,
      message: `${subject} time ${key.time}: the run's clock starts at 0 (MuJoCo's at the key's time)`,
    });
  if (ctrl.some((c) => c !== 0)) {
    notes.push({
      kind: 'dropped',
      source: key.at.ctrl ?? key.source,
      message: `${subject} ctrl [${ctrl.join(', ')}]: not applied (here a control acts for one step and a controller writes it; MuJoCo holds the key's ctrl until changed)`,
    });
  }
}

/** The note for a model that has keyframes but starts from qpos0, as MuJoCo does. */
export function unusedKeysNote(keys: readonly IrKey[]): ImportNote {
  const names = keys.map((k, i) => (k.name ? k.name : String(i))).join(', ');
  return {
    kind: 'as-mujoco',
    source: keys[0].source,
    message: `the initial state is qpos0 at rest (MuJoCo's mj_resetData); the keyframe${keys.length > 1 ? 's' : ''} (${names}) ${keys.length > 1 ? 'are' : 'is'} not loaded unless chosen with --keyframe NAME`,
  };
}

/** MuJoCo's mjuu_normvec: left as it is when its norm is below mjEPS² or within mjEPS of 1. */
function normalizeQuat(q: number[], at: number): void {
  const MJ_EPS = 1e-14;
  let n2 = 0;
  for (let k = 0; k < 4; k++) n2 += q[at + k] * q[at + k];
  if (n2 < MJ_EPS) return;
  const n = Math.sqrt(n2);
  if (Math.abs(n - 1) > MJ_EPS) for (let k = 0; k < 4; k++) q[at + k] /= n;
}
