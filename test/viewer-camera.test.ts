// The replay page's first view (issue 23): it frames the whole motion and looks across a scene's
// long axis, so a row of dominoes is seen from the side, every domino in sight at t = 0, instead
// of from the end where the 1.9 m domino hid the cascade until 5.7 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScene } from '../src/model-files/scene/index.js';
import { findChromium, launchHeadless, type Headless } from '../src/viewer/headless.js';
import { buildReplay, openReplay, pixel, project, screenshotView, viewer, type BuiltReplay } from './helpers/viewer-browser.js';

const chromium = findChromium();
if (!chromium)
  process.stderr.write('viewer camera tests SKIPPED: no Chromium here (apt-get install -y chromium, or set ACHILLES_CHROMIUM)\n');

describe.skipIf(!chromium)('default camera of the domino replay', () => {
  let h: Headless;
  let dom: BuiltReplay;

  beforeAll(async () => {
    const model = loadScene('scenes/domino-amplifier.arow');
    model.world.duration = 0.2; // the row standing; the view is chosen from the motion, so keep it short
    dom = await buildReplay(model, {}, 30);
    h = await launchHeadless();
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('shows every domino at t = 0, left to right across the view, none hidden behind the tall one', async () => {
    const p = await openReplay(h, dom.path);
    expect(p.errors).toEqual([]);
    const v = viewer(p.page);
    await v.setFrame(0);
    const cam = await v.camera();
    const img = await screenshotView(p.page);
    const B = dom.header.nbody;
    const at = (i: number) => project(cam, [dom.frames.pos[i * 3], dom.frames.pos[i * 3 + 1], dom.frames.pos[i * 3 + 2]]);
    const xs = Array.from({ length: B }, (_, i) => at(i)[0]);
    // Seen across the row: the dominoes' centres spread over the picture in their order along it.
    for (let i = 1; i < B; i++)
      expect(xs[i], `domino ${i} right of domino ${i - 1} (x: ${xs.map(Math.round)})`).toBeGreaterThan(xs[i - 1] + 1);
    expect(xs[B - 1] - xs[0]).toBeGreaterThan(cam.width / 3);
    for (let i = 0; i < B; i++) {
      const [x, y] = at(i);
      expect(x > 0 && x < cam.width && y > 0 && y < cam.height, `domino ${i} at pixel ${[x, y].map(Math.round)} is in the picture`).toBe(
        true,
      );
      // Dominoes 1-3 are reddish (the tall one is blue, the floor grey, the sky blue-grey): their
      // own colour at their centre's pixel means nothing stands in front of them.
      if (i >= 1 && i <= 3) {
        const [r, g, b] = pixel(img, x, y);
        expect(r - Math.max(g, b), `domino ${i} at pixel ${[x, y].map(Math.round)}: rgb ${[r, g, b]}`).toBeGreaterThan(20);
      }
    }
    await p.page.close();
  });
});
