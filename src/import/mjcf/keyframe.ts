// <keyframe>: every <key>, in order (MuJoCo's key ids), as MuJoCo's mjXReader::Keyframe. Each is read
// by ../keyframe.ts, which also applies the one chosen with --keyframe; the model starts from qpos0.

import { readKey } from '../keyframe.js';
import { sections, type MjcfContext } from './context.js';

export function readKeyframes(ctx: MjcfContext): void {
  const keys = sections(ctx, 'keyframe').flatMap((k) => k.children.filter((c) => c.name === 'key'));
  if (keys.length) ctx.ir.keys = keys.map((k, i) => readKey(ctx.r, k, i));
}
