// Browser-test helpers: build a replay page on disk, open it in headless Chromium, screenshot
// the 3-D view, compare PNGs with a tolerance (writing the images when they differ).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { engineAddon } from '../../src/engine/native.js';
import type { ModelDesc } from '../../src/engine/model-desc.js';
import type { Headless } from '../../src/viewer/headless.js';
import { replayHtml } from '../../src/viewer/html.js';
import { Batch } from '../../src/engine/batch.js';
import type { LaneWidth, Precision } from '../../src/engine/api.js';
import type { IntegratorName } from '../../src/engine/model-desc.js';
import { simulate } from '../../src/run/simulate.js';
import { applySpread } from '../../src/run/spread.js';
import { ReplaySampler } from '../../src/viewer/record.js';
import { unpackFrames, type ReplayFrames, type ReplayHeader } from '../../src/viewer/replay-data.js';

export interface BuiltReplay {
  path: string;
  header: ReplayHeader;
  frames: ReplayFrames;
}

/** The run a test replay is sampled from (the settings `achilles run` would resolve). */
export interface ReplayRun {
  integrator: IntegratorName;
  dt: number;
  substeps: number;
  steps: number;
  copies: number;
  precision: Precision;
  lanes: LaneWidth;
  robots: number[];
  spread: number;
  scene: string;
}

/** Run `model` as `achilles run --html` does (simulate() with a replay sampler) and return the replay. */
export async function recordRun(
  model: ModelDesc,
  r: ReplayRun,
  fps = 60,
  maxPoseBytes?: number,
): Promise<{ header: ReplayHeader; bytes: Uint8Array }> {
  const batch = new Batch(
    model,
    { copies: r.copies, precision: r.precision, lanes: r.lanes, integrator: r.integrator, dt: r.dt, substeps: r.substeps, threads: 1 },
    engineAddon(),
  );
  applySpread(batch, r.spread);
  const sampler = new ReplaySampler(batch, r.robots, r.steps, fps, maxPoseBytes);
  await simulate(batch, { steps: r.steps, recordEvery: r.steps, robots: r.robots, shouldStop: () => false, frames: sampler });
  const meta = {
    scene: r.scene,
    model: model.name,
    integrator: r.integrator,
    dt: r.dt,
    substeps: r.substeps,
    precision: r.precision,
    copies: r.copies,
    spread: r.spread,
    duration: r.steps * r.dt,
    steps: r.steps,
  };
  return sampler.result(meta);
}

/** Write a replay page of `model`; `edit` may change the recorded data first (e.g. add contacts). */
export async function buildReplay(
  model: ModelDesc,
  run: Partial<ReplayRun>,
  fps = 60,
  o: { maxPoseBytes?: number; edit?: (h: ReplayHeader, f: ReplayFrames) => { header: ReplayHeader; bytes: Uint8Array } } = {},
): Promise<BuiltReplay> {
  const r: ReplayRun = {
    scene: 'test',
    integrator: model.world.integrator,
    dt: model.world.dt,
    substeps: 1,
    steps: Math.round(model.world.duration / model.world.dt),
    copies: 1,
    precision: 'f64',
    lanes: 1,
    robots: [0],
    spread: 0,
    ...run,
  };
  let { header, bytes } = await recordRun(model, r, fps, o.maxPoseBytes);
  if (o.edit) ({ header, bytes } = o.edit(header, unpackFrames(bytes, header.layout)));
  const dir = mkdtempSync(join(tmpdir(), 'achilles-viewer-'));
  const path = join(dir, 'replay.html');
  writeFileSync(path, await replayHtml(header, bytes));
  return { path, header, frames: unpackFrames(bytes, header.layout) };
}

export interface OpenPage {
  page: Page;
  errors: string[];
  requests: string[];
}

/** Open the page, collecting console errors, page errors and every request other than the page itself. */
export async function openReplay(h: Headless, path: string): Promise<OpenPage> {
  const page = await h.context.newPage();
  await page.setViewportSize({ width: 640, height: 528 }); // a 640 x 480 canvas above the 48 px bar
  const errors: string[] = [];
  const requests: string[] = [];
  const self = pathToFileURL(path).href;
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('request', (req) => {
    if (req.url() !== self) requests.push(req.url());
  });
  await page.goto(self);
  await page.waitForFunction(() => document.body.dataset.ready === 'true' || document.body.dataset.error !== undefined);
  return { page, errors, requests };
}

type Viewer = {
  frames: number;
  setFrame(f: number): void;
  getFrame(): number;
  setRobotVisible(j: number, v: boolean): void;
  camera(): { view: number[]; projection: number[]; width: number; height: number };
};
export const viewer = (page: Page) => ({
  setFrame: (f: number) => page.evaluate((f) => (window as unknown as { achillesViewer: Viewer }).achillesViewer.setFrame(f), f),
  getFrame: () => page.evaluate(() => (window as unknown as { achillesViewer: Viewer }).achillesViewer.getFrame()),
  setRobotVisible: (j: number, v: boolean) =>
    page.evaluate(([j, v]) => (window as unknown as { achillesViewer: Viewer }).achillesViewer.setRobotVisible(j as number, v as boolean), [
      j,
      v,
    ] as const),
  camera: () => page.evaluate(() => (window as unknown as { achillesViewer: Viewer }).achillesViewer.camera()),
});

export interface Image {
  width: number;
  height: number;
  data: Uint8Array; // RGBA
  png: Buffer;
}

/** The 3-D view's own pixels (the canvas keeps its drawing buffer), without the overlaid panels. */
export async function screenshotView(page: Page): Promise<Image> {
  const url = await page.evaluate(() => (document.getElementById('view') as HTMLCanvasElement).toDataURL('image/png'));
  const png = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
  const img = PNG.sync.read(png);
  return { width: img.width, height: img.height, data: new Uint8Array(img.data), png };
}

export function pixel(img: Image, x: number, y: number): [number, number, number] {
  const o = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.data[o], img.data[o + 1], img.data[o + 2]];
}

/** Per-pixel largest channel difference; the mask marks pixels differing by more than `tol`. */
export function diffImages(a: Image, b: Image, tol = 0): { count: number; mask: Uint8Array; maxDelta: number } {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`image sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  const mask = new Uint8Array(a.width * a.height);
  let count = 0;
  let maxDelta = 0;
  for (let i = 0; i < mask.length; i++) {
    const d = Math.max(
      Math.abs(a.data[i * 4] - b.data[i * 4]),
      Math.abs(a.data[i * 4 + 1] - b.data[i * 4 + 1]),
      Math.abs(a.data[i * 4 + 2] - b.data[i * 4 + 2]),
    );
    maxDelta = Math.max(maxDelta, d);
    if (d > tol) {
      mask[i] = 1;
      count++;
    }
  }
  return { count, mask, maxDelta };
}

/** Where failing comparisons leave their pictures for a person to look at. */
export const ARTIFACTS = join('reports', 'viewer-test');

function writeDiffPng(a: Image, mask: Uint8Array, file: string): void {
  const out = new PNG({ width: a.width, height: a.height });
  for (let i = 0; i < mask.length; i++) {
    const grey = (a.data[i * 4] + a.data[i * 4 + 1] + a.data[i * 4 + 2]) / 12;
    out.data[i * 4] = mask[i] ? 255 : grey;
    out.data[i * 4 + 1] = mask[i] ? 0 : grey;
    out.data[i * 4 + 2] = mask[i] ? 255 : grey;
    out.data[i * 4 + 3] = 255;
  }
  writeFileSync(file, PNG.sync.write(out));
}

/**
 * Compare a screenshot with test/golden/NAME.png: at most `maxFraction` of the pixels may differ
 * by more than `tol` in a channel. A missing golden is written when UPDATE_GOLDEN=1 (and is a
 * failure otherwise). On failure, the actual, expected and diff images go to reports/viewer-test/.
 */
export function compareGolden(name: string, actual: Image, tol = 24, maxFraction = 0.002): { ok: boolean; message: string } {
  const golden = join('test', 'golden', `${name}.png`);
  if (!existsSync(golden) || process.env.UPDATE_GOLDEN === '1') {
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(join('test', 'golden'), { recursive: true });
      writeFileSync(golden, actual.png);
      return { ok: true, message: `wrote ${golden}` };
    }
    return { ok: false, message: `${golden} is missing (run the test with UPDATE_GOLDEN=1 to create it, then look at it)` };
  }
  const g = PNG.sync.read(readFileSync(golden));
  const expected: Image = { width: g.width, height: g.height, data: new Uint8Array(g.data), png: readFileSync(golden) };
  const sizeOk = expected.width === actual.width && expected.height === actual.height;
  const d = sizeOk ? diffImages(actual, expected, tol) : undefined;
  const fraction = d ? d.count / (actual.width * actual.height) : 1;
  if (d && fraction <= maxFraction) return { ok: true, message: `${d.count} pixels differ by more than ${tol}` };
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${name}.actual.png`), actual.png);
  writeFileSync(join(ARTIFACTS, `${name}.expected.png`), expected.png);
  if (d) writeDiffPng(actual, d.mask, join(ARTIFACTS, `${name}.diff.png`));
  return {
    ok: false,
    message: sizeOk
      ? `${name}: ${(fraction * 100).toFixed(2)}% of pixels differ by more than ${tol} (allowed ${(maxFraction * 100).toFixed(2)}%); see ${ARTIFACTS}/${name}.{actual,expected,diff}.png`
      : `${name}: size ${actual.width}x${actual.height}, golden ${expected.width}x${expected.height}; see ${ARTIFACTS}/`,
  };
}

/** Project a world point with the page's camera (three's column-major matrices) to canvas pixels. */
export function project(
  cam: { view: number[]; projection: number[]; width: number; height: number },
  p: [number, number, number],
): [number, number] {
  const mul = (m: number[], v: number[]) => [0, 1, 2, 3].map((r) => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3]);
  const clip = mul(cam.projection, mul(cam.view, [...p, 1]));
  const nx = clip[0] / clip[3];
  const ny = clip[1] / clip[3];
  return [((nx + 1) / 2) * cam.width, ((1 - ny) / 2) * cam.height];
}
