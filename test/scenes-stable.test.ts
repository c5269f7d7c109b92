// Every bundled scene runs to completion under its own settings (integrator, dt, substeps, duration),
// in both precisions, with a batch of robots spread apart the way the README's examples do.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { applySpread } from '../src/run/spread.js';
import { loadScene } from '../src/scene/index.js';
import { root } from './helpers/engine.js';

const scenes = readdirSync(join(root, 'scenes')).filter((f) => f.endsWith('.arow'));

describe('bundled scenes are stable under their own defaults', () => {
  test('there are bundled scenes', () => expect(scenes.length).toBeGreaterThanOrEqual(5));
  for (const file of scenes)
    for (const precision of ['f32', 'f64'] as const)
      test(`${file} ${precision}: the whole duration, 16 copies spread by 0.01, stays finite`, () => {
        const model = loadScene(join(root, 'scenes', file));
        const b = new Batch(model, { copies: 16, precision });
        applySpread(b, 0.01);
        const steps = Math.round(model.world.duration / model.world.dt);
        const r = b.stepRaw(steps);
        expect(r.nonFinite, `${file} (${model.world.integrator}, dt ${model.world.dt}) diverged`).toBeNull();
      });
});
