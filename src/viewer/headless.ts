// A headless Chromium for the filmstrip and the browser tests: the system's own browser
// (Debian's `chromium`), never a downloaded one, started with a fresh profile and everything
// that would reach the network switched off.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The browser executable: $ACHILLES_CHROMIUM, else the first system Chromium found; undefined if none. */
export function findChromium(): string | undefined {
  const env = process.env.ACHILLES_CHROMIUM;
  if (env) return existsSync(env) ? env : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Software WebGL (SwiftShader) so pictures are the same on every run of this machine.
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--force-color-profile=srgb',
  '--font-render-hinting=none',
];

export interface Headless {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launch headless Chromium with a fresh --user-data-dir; throws a clear error when none is installed. */
export async function launchHeadless(): Promise<Headless> {
  const executablePath = findChromium();
  if (!executablePath)
    throw new Error('no Chromium found (install it: apt-get install -y chromium, or set ACHILLES_CHROMIUM to a Chromium executable)');
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'achilles-chromium-'));
  // launchPersistentContext is how playwright takes a --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 800, height: 600 },
    deviceScaleFactor: 1,
    offline: true,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
