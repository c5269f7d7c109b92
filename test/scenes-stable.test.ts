// Every bundled scene runs to completion under its own settings (integrator, dt, substeps, duration),
// in both precisions, with a batch of robots spread apart the way the README's examples do.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadScene } from '../src/model-files/scene/index.js';
import { root } from './helpers/engine.js';
import { inChild } from './helpers/in-child.js';
import type * as SceneWork from './helpers/work/scenes.js';

const scenes = readdirSync(join(root, 'scenes')).filter((f) => f.endsWith('.arow'));
const SCENE_WORK = new URL('./helpers/work/scenes.ts', import.meta.url);

describe('bundled scenes are stable under their own defaults', () => {
  test('there are bundled scenes', () => expect(scenes.length).toBeGreaterThanOrEqual(5));
  for (const file of scenes)
    for (const precision of ['f32', 'f64'] as const)
      test(`${file} ${precision}: the whole duration, 16 copies spread by 0.01, stays finite`, async () => {
        const model = loadScene(join(root, 'scenes', file));
        // Seconds of stepping (a collision scene): in a child process, so this worker's event loop keeps turning (issue 23).
        const r = await inChild<typeof SceneWork, 'stepRawWholeDurationSpread'>(
          SCENE_WORK,
          'stepRawWholeDurationSpread',
          join(root, 'scenes', file),
          { copies: 16, precision },
          0.01,
        );
        expect(r.nonFinite, `${file} (${model.world.integrator}, dt ${model.world.dt}) diverged`).toBeNull();
      });
});
