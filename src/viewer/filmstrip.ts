// A still for reports: a few frames of the replay side by side in one PNG, rendered by headless
// Chromium from the very page a person would open.

import { pathToFileURL } from 'node:url';
import { launchHeadless } from './headless.js';

/** Frame indices spread evenly over the replay, first and last included. */
export function filmstripFrames(frames: number, count: number): number[] {
  const n = Math.max(1, Math.min(count, frames));
  if (n === 1) return [frames - 1];
  return Array.from({ length: n }, (_, i) => Math.round((i * (frames - 1)) / (n - 1)));
}

/** Render `count` frames of the replay page at `htmlPath` into PNG bytes. */
export async function renderFilmstrip(htmlPath: string, count = 5, size = { width: 480, height: 400 }): Promise<Uint8Array> {
  const h = await launchHeadless();
  try {
    const page = await h.context.newPage();
    // The canvas takes the viewport minus the 48 px control bar.
    await page.setViewportSize({ width: size.width, height: size.height + 48 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(htmlPath).href);
    await page.waitForFunction(() => document.body.dataset.ready === 'true' || document.body.dataset.error !== undefined);
    if (errors.length > 0) throw new Error(`the replay page failed in the browser: ${errors.join('; ')}`);
    const frames = await page.evaluate(() => (window as unknown as { achillesViewer: { frames: number } }).achillesViewer.frames);
    const pick = filmstripFrames(frames, count);
    const url = await page.evaluate(
      (p) => (window as unknown as { achillesViewer: { filmstrip(f: number[]): string } }).achillesViewer.filmstrip(p),
      pick,
    );
    return new Uint8Array(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
  } finally {
    await h.close();
  }
}
