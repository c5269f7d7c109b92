// The replay page in a real browser (headless Chromium from the system, never downloaded):
// loads without errors or network requests, draws bodies where their poses project, changes
// only where bodies moved, responds to its controls, and matches golden screenshots.
// Skips with a message when Chromium is absent locally; CI (.ci/run) installs it, and under CI
// a missing Chromium is a failure, not a skip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchHeadless, type Headless } from '../src/viewer/headless.js';
import { packFrames, QUAT_SCALE } from '../src/viewer/replay-data.js';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import {
  ARTIFACTS,
  buildReplay,
  compareGolden,
  type Image,
  diffImages,
  openReplay,
  pixel,
  project,
  screenshotView,
  viewer,
  type BuiltReplay,
  type OpenPage,
} from './helpers/viewer-browser.js';
import { doublePendulum, shapesModel } from './helpers/viewer-models.js';
import { importFile } from '../src/model-files/import/index.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';

const chromium = findChromium();
if (!chromium)
  process.stderr.write(
    'viewer browser tests SKIPPED: no Chromium here (apt-get install -y chromium, or set ACHILLES_CHROMIUM); CI installs it and runs them\n',
  );

it.skipIf(process.env.UPDATE_GOLDEN === '1')(
  'a failing golden comparison says by how much and writes actual, expected and diff images',
  () => {
    const img = (v: number): Image => {
      const png = new PNG({ width: 20, height: 10 });
      png.data.fill(v);
      for (let i = 3; i < png.data.length; i += 4) png.data[i] = 255;
      return { width: 20, height: 10, data: new Uint8Array(png.data), png: PNG.sync.write(png) };
    };
    const name = 'selftest-golden';
    const golden = join('test', 'golden', `${name}.png`);
    writeFileSync(golden, img(100).png);
    try {
      expect(compareGolden(name, img(110)).ok).toBe(true); // within the tolerance of 24
      const bad = img(100);
      for (let i = 0; i < 40; i++) bad.data[i * 4] = 250; // 40 of 200 pixels far off
      bad.png = PNG.sync.write(Object.assign(new PNG({ width: 20, height: 10 }), { data: Buffer.from(bad.data) }));
      const r = compareGolden(name, bad);
      expect(r.ok).toBe(false);
      expect(r.message).toContain('20.00% of pixels differ by more than 24');
      for (const k of ['actual', 'expected', 'diff']) expect(existsSync(join(ARTIFACTS, `${name}.${k}.png`)), k).toBe(true);
    } finally {
      rmSync(golden, { force: true });
      for (const k of ['actual', 'expected', 'diff']) rmSync(join(ARTIFACTS, `${name}.${k}.png`), { force: true });
    }
  },
);

it.runIf(!!process.env.CI)('CI has a Chromium for the browser tests', () => {
  expect(chromium, 'CI must install chromium (.ci/run)').toBeDefined();
});

type V3 = [number, number, number];
/** World point p_WB + R_WB · p_B of body i of robot slot j at frame f, from the replay's own data. */
function worldPoint(r: BuiltReplay, f: number, j: number, i: number, pB: V3): V3 {
  const R = r.header.robots.length;
  const B = r.header.nbody;
  const o = (f * R + j) * B + i;
  const p = [0, 1, 2].map((c) => r.frames.pos[o * 3 + c]);
  const [w, x, y, z] = [0, 1, 2, 3].map((c) => r.frames.quat[o * 4 + c] / QUAT_SCALE);
  const n = Math.hypot(w, x, y, z);
  const [qw, qx, qy, qz] = [w / n, x / n, y / n, z / n];
  const M = [
    [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)],
    [2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)],
    [2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)],
  ];
  return [0, 1, 2].map((a) => p[a] + M[a][0] * pB[0] + M[a][1] * pB[1] + M[a][2] * pB[2]) as V3;
}

describe.skipIf(!chromium)('replay page in headless Chromium', () => {
  let h: Headless;
  let pend: BuiltReplay;
  let shapes: BuiltReplay;
  let convex: BuiltReplay;
  let p: OpenPage;

  beforeAll(async () => {
    const model = doublePendulum();
    model.world.duration = 3;
    // The seed's eight double pendulums released 0.002 rad apart.
    pend = await buildReplay(model, { integrator: 'rk4', copies: 8, lanes: 4, robots: [0, 1, 2, 3, 4, 5, 6, 7], spread: 0.002 });
    // Contacts as the engine's collide() reports them (injected: the engine on this branch has no
    // collision detection yet): the sphere's lowest point at every frame, normal +z.
    shapes = await buildReplay(shapesModel(), {}, 60, {
      edit(header, f) {
        const F = header.frames;
        const contacts = new Float32Array(F * 8);
        for (let k = 0; k < F; k++) contacts.set([f.pos[k * 3], f.pos[k * 3 + 1], f.pos[k * 3 + 2] - 0.15, 0, 0, 1, -0.001, 0], k * 8);
        const packed = packFrames({ ...f, contactStart: Uint32Array.from({ length: F + 1 }, (_, k) => k), contacts });
        return { header: { ...header, hasContacts: true, layout: packed.layout, bytes: packed.bytes.byteLength }, bytes: packed.bytes };
      },
    });
    // MuJoCo's cylinders and ellipsoids (the import fixture), and a static convex shape (a tetrahedron)
    const cm = importFile(join(FIXTURE_DIR, 'mjcf-contact-convex.xml')).model;
    const tet = [0, 0, 0, 0.2, 0, 0, 0, 0.2, 0, 0, 0, 0.2];
    cm.shapes!.push({
      ...cm.shapes![0],
      name: 'tet',
      kind: 'convex',
      vertices: tet,
      halfExtents: [0.2, 0.2, 0.2],
      pos: [0, -0.5, 0],
      contype: 0,
      conaffinity: 0,
    });
    convex = await buildReplay(cm, {}, 20);
    h = await launchHeadless();
    p = await openReplay(h, pend.path);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('loads with no console error and no network request', async () => {
    expect(p.errors).toEqual([]);
    expect(p.requests).toEqual([]);
    expect(await p.page.locator('#meta').innerText()).toMatch(
      /integrator\s+rk4[\s\S]*dt\s+0\.002 s[\s\S]*precision\s+f64[\s\S]*simulated\s+3\.000 s/,
    );
    for (const r of [shapes, convex]) {
      const s = await openReplay(h, r.path);
      expect(s.errors).toEqual([]);
      expect(s.requests).toEqual([]);
      await s.page.close();
    }
  });

  it('changes only where bodies moved, and redraws a frame identically', async () => {
    const v = viewer(p.page);
    await v.setFrame(0);
    const a = await screenshotView(p.page);
    await v.setFrame(120);
    const b = await screenshotView(p.page);
    await v.setFrame(0);
    const a2 = await screenshotView(p.page);
    expect(diffImages(a, a2).count).toBe(0);
    const d = diffImages(a, b, 8);
    expect(d.count).toBeGreaterThan(2000);
    // Every changed pixel lies near a body at frame 0 or 120: the projected segments from each
    // body's joint through its centre of mass to its far end (2·com), widened by 20 px.
    const cam = await v.camera();
    const segs: [number, number][][] = [];
    for (const f of [0, 120])
      for (let j = 0; j < 8; j++)
        for (let i = 0; i < 2; i++) {
          const com = pend.header.geometry.bodies[i].com;
          segs.push([
            project(cam, worldPoint(pend, f, j, i, [0, 0, 0])),
            project(cam, worldPoint(pend, f, j, i, [2 * com[0], 2 * com[1], 2 * com[2]])),
          ]);
        }
    const near = (x: number, y: number) =>
      segs.some(([[x0, y0], [x1, y1]]) => {
        const L2 = (x1 - x0) ** 2 + (y1 - y0) ** 2;
        const t = L2 > 0 ? Math.max(0, Math.min(1, ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / L2)) : 0;
        return Math.hypot(x - x0 - t * (x1 - x0), y - y0 - t * (y1 - y0)) <= 20;
      });
    let outside = 0;
    for (let y = 0; y < a.height; y++) for (let x = 0; x < a.width; x++) if (d.mask[y * a.width + x] && !near(x, y)) outside++;
    expect(outside).toBe(0);
  });

  it('draws a body at the pixel its pose projects to', async () => {
    const v = viewer(p.page);
    for (let j = 1; j < 8; j++) await v.setRobotVisible(j, false);
    await v.setFrame(120);
    const cam = await v.camera();
    for (const i of [0, 1]) {
      const c = project(cam, worldPoint(pend, 120, 0, i, pend.header.geometry.bodies[i].com as V3));
      expect(c[0]).toBeGreaterThan(0);
      expect(c[0]).toBeLessThan(cam.width);
      const shown = pixel(await screenshotView(p.page), c[0], c[1]);
      await v.setRobotVisible(0, false);
      const hidden = pixel(await screenshotView(p.page), c[0], c[1]);
      await v.setRobotVisible(0, true);
      expect(
        Math.max(...shown.map((s, k) => Math.abs(s - hidden[k]))),
        `body ${i} at pixel ${c.map(Math.round)}: shown ${shown}, hidden ${hidden}`,
      ).toBeGreaterThan(40);
    }
    for (let j = 1; j < 8; j++) await v.setRobotVisible(j, true);
  });

  it('draws contacts with their normals when the toggle is on', async () => {
    const s = await openReplay(h, shapes.path);
    const v = viewer(s.page);
    await v.setFrame(20);
    const cam = await v.camera();
    const c = project(cam, [shapes.frames.pos[20 * 3], shapes.frames.pos[20 * 3 + 1], shapes.frames.pos[20 * 3 + 2] - 0.15]);
    const on = await screenshotView(s.page);
    await s.page.locator('#show-contacts').uncheck();
    const off = await screenshotView(s.page);
    const d = diffImages(on, off, 8);
    expect(d.count).toBeGreaterThan(30);
    // The contact dot is drawn at the contact point's pixel (a red marker over whatever was there).
    const [r, g, b] = pixel(on, c[0], c[1]);
    expect(r - Math.max(g, b), `contact pixel ${[r, g, b]}`).toBeGreaterThan(80);
    expect(s.errors).toEqual([]);
    await s.page.close();
  });

  it('shows a visible note when the replay was downsampled', async () => {
    const model = doublePendulum();
    model.world.duration = 2;
    const small = await buildReplay(model, {}, 60, { maxPoseBytes: 2000 });
    expect(small.header.downsampled?.toFps).toBeLessThan(60);
    const s = await openReplay(h, small.path);
    expect(await s.page.locator('#note').isVisible()).toBe(true);
    expect(await s.page.locator('#note').innerText()).toMatch(
      /^Downsampled: 60 fps → \d+\.\d\d fps \(1 robot x 2 bodies x 2\.000 s at 60 fps would take 0\.0 MB of poses \(limit 0\.0 MB\)\)\.$/,
    );
    expect(await (await openReplay(h, pend.path)).page.locator('#note').isVisible()).toBe(false);
    await s.page.close();
  });

  it('slider, step and play change the frame', async () => {
    const v = viewer(p.page);
    await p.page.locator('#time').fill('50');
    expect(await v.getFrame()).toBe(50);
    await p.page.locator('#next').click();
    expect(await v.getFrame()).toBe(51);
    await p.page.locator('#prev').click();
    await p.page.locator('#prev').click();
    expect(await v.getFrame()).toBe(49);
    expect(await p.page.locator('#clock').innerText()).toContain(`frame 50 / ${pend.header.frames}`);
    // At 0.25x the remaining 2.2 s of the run take 8.8 s, far longer than the wait even on a busy
    // machine, so the second click pauses (at the end, play stops by itself and a click restarts).
    await p.page.locator('#speed').selectOption('0.25');
    await p.page.locator('#play').click();
    expect(await p.page.locator('#play').innerText()).toBe('Pause');
    await p.page.waitForFunction(
      () => (window as unknown as { achillesViewer: { getFrame(): number } }).achillesViewer.getFrame() > 55,
      undefined,
      { timeout: 10_000 },
    );
    await p.page.locator('#play').click(); // pause
    expect(await p.page.locator('#play').innerText()).toBe('Play');
    const paused = await v.getFrame();
    expect(paused).toBeLessThan(pend.header.frames - 1);
    await p.page.waitForTimeout(300);
    expect(await v.getFrame()).toBe(paused);
    expect(Number(await p.page.locator('#time').inputValue())).toBe(paused);
  });

  it('orbits, pans and zooms with the mouse, and Reset view restores the camera', async () => {
    const v = viewer(p.page);
    const start = (await v.camera()).view;
    const box = (await p.page.locator('#view').boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    const moved = async (act: () => Promise<void>) => {
      await p.page.locator('#reset').click();
      await act();
      const view = (await v.camera()).view;
      return Math.max(...view.map((x, k) => Math.abs(x - start[k])));
    };
    const drag = (button: 'left' | 'right') => async () => {
      await p.page.mouse.move(cx, cy);
      await p.page.mouse.down({ button });
      await p.page.mouse.move(cx + 80, cy + 30, { steps: 5 });
      await p.page.mouse.up({ button });
    };
    expect(await moved(drag('left'))).toBeGreaterThan(0.05); // orbit
    expect(await moved(drag('right'))).toBeGreaterThan(0.05); // pan
    expect(
      await moved(async () => {
        await p.page.mouse.move(cx, cy);
        await p.page.mouse.wheel(0, -400);
        await p.page.waitForTimeout(50);
      }),
    ).toBeGreaterThan(0.05); // zoom
    await p.page.locator('#reset').click();
    const back = (await v.camera()).view;
    expect(Math.max(...back.map((x, k) => Math.abs(x - start[k])))).toBeLessThan(1e-9);
  });

  it('matches the golden screenshots (eight pendulums side by side; every shape kind with frames and CoM)', async () => {
    const v = viewer(p.page);
    await p.page.locator('#side-by-side').check();
    await v.setFrame(150);
    const g1 = compareGolden('viewer-pendulums-side-by-side', await screenshotView(p.page));
    await p.page.locator('#side-by-side').uncheck();
    const s = await openReplay(h, shapes.path);
    await s.page.locator('#show-frames').check();
    await s.page.locator('#show-com').check();
    await s.page.locator('#show-trail').check();
    await viewer(s.page).setFrame(40);
    const g2 = compareGolden('viewer-shapes', await screenshotView(s.page));
    await s.page.close();
    expect(g1.ok, g1.message).toBe(true);
    expect(g2.ok, g2.message).toBe(true);
  });
});
