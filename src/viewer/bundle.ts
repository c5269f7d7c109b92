// Bundles the replay page (src/viewer/page/viewer.js + three.js) into one minified script with
// esbuild, once per process. The page source ships with the package (it is not compiled by tsc),
// so it is found relative to this module whether it runs from src/ (tests) or dist/ (the CLI).

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let cached: Promise<string> | undefined;

function pageEntry(): string {
  for (const rel of ['./page/viewer.js', '../../src/viewer/page/viewer.js']) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p) && !p.includes('/dist/')) return p;
  }
  throw new Error('the viewer page source src/viewer/page/viewer.js is missing from this installation');
}

export function viewerScript(): Promise<string> {
  cached ??= (async () => {
    const esbuild = await import('esbuild');
    const r = await esbuild.build({
      entryPoints: [pageEntry()],
      bundle: true,
      write: false,
      minify: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      legalComments: 'eof',
      logLevel: 'silent',
    });
    const js = r.outputFiles[0].text;
    // esbuild escapes "</script" in strings for inline use; make sure, since the page would break silently.
    if (/<\/script/i.test(js)) throw new Error('bundled viewer contains "</script": cannot inline it');
    return js;
  })();
  return cached;
}
