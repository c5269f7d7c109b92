// <keyframe>: every <key>, in order (MuJoCo's key ids), as MuJoCo's mjXReader::Keyframe. Each key is
// kept as written; ../keyframe.ts checks its sizes against the model and applies the one chosen with
// --keyframe (without one, the model starts from qpos0).

import { quote } from '../../common/errors.js';
import { keyLabel } from '../keyframe.js';
import type { IrKey } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';
import { sections, type MjcfContext } from './context.js';

export function readKeyframes(ctx: MjcfContext): void {
  const keys = sections(ctx, 'keyframe').flatMap((k) => k.children.filter((c) => c.name === 'key'));
  if (keys.length) ctx.ir.keys = keys.map((k, i) => readKey(ctx.r, k, i));
}

/** One <key> as written; the sizes are checked against the model when it is applied. */
function readKey(r: Reader, el: XmlElement, index: number): IrKey {
  const name = el.attrs.get('name')?.value ?? '';
  const subject = `keyframe ${keyLabel(name, index)}`;
  const key: IrKey = { name, time: 0, source: r.span(el), at: {} };
  const time = el.attrs.get('time');
  if (time) {
    key.time = r.num(time, `${subject} time`);
    key.at.time = r.span(time);
  }
  for (const f of ['qpos', 'qvel', 'ctrl'] as const) {
    const a = el.attrs.get(f);
    if (!a) continue;
    key[f] = r.nums(a, `${subject} ${f}`, [0, 1e6]);
    key.at[f] = r.span(a);
  }
  // MuJoCo sizes act by na: general actuators with dynamics have activations, which a run starts at 0
  // (mj_resetData); a key's activations are accepted at 0 only, since the initial state has no act.
  const act = el.attrs.get('act');
  if (act && r.nums(act, `${subject} act`, [0, 1e6]).some((x) => x !== 0))
    r.fail(
      act,
      `${subject} act`,
      quote(act.value, 40),
      'activations of 0 (a run starts every activation at 0, as mj_resetData; a key cannot set them)',
    );
  // mocap bodies are refused, so nmocap = 0 and MuJoCo itself refuses any number here.
  for (const [f, what] of [
    ['mpos', 'mocap positions (the model has no mocap bodies)'],
    ['mquat', 'mocap quaternions (the model has no mocap bodies)'],
  ] as const) {
    const a = el.attrs.get(f);
    if (a && a.value.trim() !== '') r.fail(a, `${subject} ${f}`, `${a.value.trim().split(/\s+/).length} numbers`, `no ${what}`);
  }
  return key;
}
