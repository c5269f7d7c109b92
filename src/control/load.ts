// Loading a controller: a module (.ts transpiled by esbuild, or .js) or the scene's built-in PD.
//
// A module's default export (or its export `controller`) is either a function, called as the
// controller's update(io), or an object { rate?, init?(io), update(io) } (src/control/controller.ts).

import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModelDesc } from '../engine/model-desc.js';
import type { Controller } from './controller.js';
import { pdController } from './pd.js';

/** The controller a run uses: `--controller PATH` if given, else the scene's, else none. */
export async function resolveController(model: ModelDesc, flag: string | undefined): Promise<Controller | undefined> {
  if (flag !== undefined) return loadControllerModule(resolve(flag));
  const spec = model.controller;
  if (!spec) return undefined;
  if (spec.kind === 'module') return loadControllerModule(spec.path);
  return pdController(model, spec.terms, spec.rate);
}

export async function loadControllerModule(path: string): Promise<Controller> {
  if (!existsSync(path)) throw new Error(`controller ${path}: no such file`);
  let mod: Record<string, unknown>;
  if (/\.(ts|mts)$/.test(path)) {
    const { build } = await import('esbuild');
    let out;
    try {
      out = await build({ entryPoints: [path], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'silent', packages: 'external' });
    } catch (e) {
      const errs = (e as { errors?: { text: string; location?: { file: string; line: number; column: number } }[] }).errors ?? [];
      const first = errs[0];
      const loc = first?.location;
      const file = loc ? resolve(loc.file) : path;
      throw new Error(loc ? `${file}:${loc.line}:${loc.column + 1}: controller: ${first?.text}` : `controller ${path}: ${first?.text ?? (e as Error).message}`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'achilles-ctrl-'));
    const file = join(dir, 'controller.mjs');
    try {
      writeFileSync(file, out.outputFiles[0].text);
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  }
  const c = asController(mod.default ?? mod.controller, path);
  // A module may also export report(trace): its own charts of the run (e.g. a demo's path vs its reference).
  if (typeof mod.report === 'function' && !c.report) return { ...c, report: mod.report as Controller['report'] };
  return c;
}

function asController(x: unknown, path: string): Controller {
  if (typeof x === 'function') return { update: x as Controller['update'] };
  if (x && typeof x === 'object' && typeof (x as Controller).update === 'function') return x as Controller;
  throw new Error(`controller ${path}: found ${x === undefined ? 'no default export' : `a default export of type ${typeof x}`}, expected a function (io) => void or an object { rate?, init?(io), update(io) }`);
}
