// `achilles view RUN_DIR`: rebuild replay.html from the run's replay.json + replay.bin (so a page
// made by an older viewer is refreshed), optionally render a filmstrip, optionally open the page.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../reports/atomic.js';
import { renderFilmstrip } from './filmstrip.js';
import { replayHtml } from './html.js';
import { readReplay } from './write.js';

export interface ViewOptions {
  filmstrip: number;
  open: boolean;
}

function openInBrowser(file: string): boolean {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  try {
    const child = spawn(cmd, [file], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** The run directory's list of files achilles wrote (kept by the hardened `run`, which refuses to
 *  write beside files it does not know). Files `view` adds are listed there too, so a later run into
 *  the same directory replaces them instead of refusing. Absent manifest: nothing to do. */
const MANIFEST = '.achilles-files.json';

async function listInManifest(dir: string, file: string): Promise<void> {
  const p = join(dir, MANIFEST);
  if (!existsSync(p)) return;
  let m: { files?: unknown };
  try {
    m = JSON.parse(readFileSync(p, 'utf8')) as { files?: unknown };
  } catch {
    return; // not ours to repair
  }
  if (!Array.isArray(m.files) || m.files.includes(file)) return;
  m.files.push(file);
  await writeFileAtomic(p, JSON.stringify(m, null, 2) + '\n');
}

export async function viewRun(dir: string, o: ViewOptions): Promise<number> {
  const { header, bytes } = await readReplay(dir);
  const htmlPath = resolve(join(dir, 'replay.html'));
  await writeFileAtomic(htmlPath, await replayHtml(header, bytes));
  process.stderr.write(
    `achilles view: wrote ${htmlPath} (${header.frames} frames at ${header.fps} fps, ${header.robots.length} robot(s))\n`,
  );
  if (header.downsampled)
    process.stderr.write(`achilles view: note: downsampled to ${header.downsampled.toFps} fps: ${header.downsampled.reason}\n`);
  if (o.filmstrip > 0) {
    const png = await renderFilmstrip(htmlPath, o.filmstrip);
    const pngPath = join(dir, 'replay-filmstrip.png');
    await writeFileAtomic(pngPath, png);
    await listInManifest(dir, 'replay-filmstrip.png');
    process.stderr.write(`achilles view: wrote ${pngPath}\n`);
  }
  if (o.open && !openInBrowser(htmlPath))
    process.stderr.write(`achilles view: no desktop browser to open it here; open ${htmlPath} yourself\n`);
  return 0;
}
