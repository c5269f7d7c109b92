// `sim_config.yaml` (the original system's run config) → world settings.
// The original fed `base_acceleration` to the articulated-body algorithm's base row, so
// gravity = −base_acceleration.linear. Base motion the engine cannot represent is refused.

import { WORLD_LIMITS } from '../../engine/world-limits.js';
import { INTEGRATORS, type IntegratorName, type WorldSettings } from '../../engine/model-desc.js';
import { checkKeys, entries, notAYamlFile, parseYamlFile, readEnum, readLimited, readVec, type Ctx, type YNode } from './yaml-read.js';

export const CONFIG_KEYS = [
  'base_acceleration',
  'world_base_transform',
  'base_velocity',
  'dt',
  'integrator',
  'duration',
  'substeps',
] as const;

export function loadSimConfig(file: string): Partial<WorldSettings> {
  // A --config may name any file: it is read as a foreign one (errors never quote its text), and
  // one that is not a config mapping is said to be so, without quoting it either.
  const pf = parseYamlFile(file, undefined, { foreign: true });
  const notConfig = notAYamlFile(
    pf,
    'sim config',
    CONFIG_KEYS,
    `a sim_config.yaml mapping of ${CONFIG_KEYS.map((k) => `\`${k}\``).join(', ')}`,
    true,
  );
  if (notConfig) throw notConfig;
  const { ctx, root } = pf;
  const top = entries(ctx, root, 'config');
  checkKeys(ctx, root, top, 'config', CONFIG_KEYS);
  const out: Partial<WorldSettings> = {};
  const ba = top.get('base_acceleration');
  if (ba) {
    const { angular, linear } = pairOf(ctx, ba.value, 'base_acceleration', ['angular', 'linear'], 3);
    if (angular && angular.v.some((x) => x !== 0)) {
      ctx.fail(
        angular.node,
        'base_acceleration.angular',
        `[${angular.v.join(', ')}]`,
        '[0, 0, 0]',
        'an angular base acceleration is not supported',
      );
    }
    const lin = linear?.v ?? [0, 0, 0];
    out.gravity = [-lin[0] || 0, -lin[1] || 0, -lin[2] || 0];
  }
  const wbt = top.get('world_base_transform');
  if (wbt) {
    const { translation, rotation } = pairOf(ctx, wbt.value, 'world_base_transform', ['translation', 'rotation'], [3, 4]);
    if (translation && translation.v.some((x) => x !== 0))
      ctx.fail(
        translation.node,
        'world_base_transform.translation',
        `[${translation.v.join(', ')}]`,
        '[0, 0, 0]',
        'a moved world base is not supported',
      );
    if (rotation && !(rotation.v[1] === 0 && rotation.v[2] === 0 && rotation.v[3] === 0 && rotation.v[0] > 0)) {
      ctx.fail(
        rotation.node,
        'world_base_transform.rotation',
        `[${rotation.v.join(', ')}]`,
        'the identity [1, 0, 0, 0]',
        'a rotated world base is not supported',
      );
    }
  }
  const bv = top.get('base_velocity');
  if (bv) {
    const parts = pairOf(ctx, bv.value, 'base_velocity', ['angular', 'linear'], 3);
    for (const k of ['angular', 'linear'] as const) {
      const p = parts[k];
      if (p && p.v.some((x) => x !== 0))
        ctx.fail(p.node, `base_velocity.${k}`, `[${p.v.join(', ')}]`, '[0, 0, 0]', 'a moving base is not supported');
    }
  }
  const dt = top.get('dt');
  if (dt) out.dt = readLimited(ctx, dt.value, 'dt', WORLD_LIMITS.dt);
  const duration = top.get('duration');
  if (duration) out.duration = readLimited(ctx, duration.value, 'duration', WORLD_LIMITS.duration);
  const substeps = top.get('substeps');
  if (substeps) out.substeps = readLimited(ctx, substeps.value, 'substeps', WORLD_LIMITS.substeps);
  const integ = top.get('integrator');
  if (integ) out.integrator = readEnum<IntegratorName>(ctx, integ.value, 'integrator', INTEGRATORS);
  return out;
}

type Part = { v: number[]; node: YNode } | undefined;

function pairOf(ctx: Ctx, node: YNode, subject: string, keys: [string, string], n: number | [number, number]): Record<string, Part> {
  const m = entries(ctx, node, subject);
  checkKeys(ctx, node, m, subject, keys);
  const out: Record<string, Part> = {};
  keys.forEach((k, i) => {
    const e = m.get(k);
    if (e) out[k] = { v: readVec(ctx, e.value, `${subject}.${k}`, typeof n === 'number' ? n : n[i]), node: e.value };
  });
  return out;
}
