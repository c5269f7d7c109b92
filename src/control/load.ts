// Loading a controller: a module (.ts transpiled by esbuild, or .js) or the scene's built-in PD.
//
// A module's default export (or its export `controller`) is either a function, called as the
// controller's update(io), or an object { rate?, init?(io), update(io) } (src/control/controller.ts).
//
// A module is code: it runs only when the caller asks for it. A scene's `controller: FILE` module is
// loaded only with `allowSceneModule` (the CLI's --allow-controller) or replaced by an explicit file
// (--controller FILE); otherwise resolveController refuses with ControllerNotAllowedError, so
// opening a downloaded scene never runs its code. The built-in PD controller is data and always runs.

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import type { SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModelDesc } from '../engine/model-desc.js';
import { SceneError } from '../model-files/common/errors.js';
import type { Controller } from './controller.js';
import { ControllerNotAllowedError } from './errors.js';
import { pdController } from './pd.js';
import { readControlFile } from '../model-files/common/control-file.js';
import { moduleFrame, type ModuleCode } from './stack.js';

export interface ControllerChoice {
  /** A controller module to run instead of the scene's controller (the CLI's --controller FILE). */
  file?: string;
  /** Run the scene's own `controller:` module (the CLI's --allow-controller). */
  allowSceneModule?: boolean;
}

/** What a run will use, decided before any code is loaded. */
export type ControllerPlan = { kind: 'none' } | { kind: 'pd'; name: string } | { kind: 'module'; path: string; from: 'option' | 'scene' };

/** The controller a run uses: `choice.file` if given, else the scene's (its module only when
 *  allowed), else none. Throws ControllerNotAllowedError for a scene module that is not allowed. */
export function planController(model: ModelDesc, choice: ControllerChoice = {}): ControllerPlan {
  if (choice.file !== undefined) return { kind: 'module', path: resolve(choice.file), from: 'option' };
  const spec = model.controller;
  if (!spec) return { kind: 'none' };
  if (spec.kind === 'pd') return { kind: 'pd', name: pdName(spec.terms.length) };
  if (!choice.allowSceneModule) throw new ControllerNotAllowedError(spec.path);
  return { kind: 'module', path: spec.path, from: 'scene' };
}

/** Loads what planController chose (a module's top-level code runs here). */
export async function loadPlannedController(model: ModelDesc, plan: ControllerPlan): Promise<Controller | undefined> {
  if (plan.kind === 'none') return undefined;
  if (plan.kind === 'module') return loadControllerModule(plan.path);
  const spec = model.controller;
  if (spec?.kind !== 'pd') throw new Error('internal: a PD plan for a scene without a PD controller');
  return { ...pdController(model, spec.terms, spec.rate), name: plan.name };
}

/** planController, then loadPlannedController. */
export async function resolveController(model: ModelDesc, choice: ControllerChoice = {}): Promise<Controller | undefined> {
  return loadPlannedController(model, planController(model, choice));
}

const pdName = (terms: number): string => `pd (${terms} term${terms === 1 ? '' : 's'})`;

/** The file names a controller module may have (as a scene's `controller:` accepts). */
export const MODULE_EXTENSION = /\.(ts|mts|js|mjs)$/;

/** Loads and runs a module's top-level code. Checked first like a scene file (a regular text file,
 *  bounded), and read once: esbuild gets the text, never the path, so a FIFO cannot block it. */
export async function loadControllerModule(path: string): Promise<Controller> {
  const r = readControlFile(path, 'a .ts or .js controller module');
  if ('problem' in r) throw new Error(`controller ${path}: found ${r.problem.found}, expected ${r.problem.expected}`);
  const ts = /\.(ts|mts)$/.test(path);
  let mod: Record<string, unknown>;
  let code: ModuleCode;
  if (ts) {
    const dir = mkdtempSync(join(tmpdir(), 'achilles-ctrl-'));
    const file = join(dir, 'controller.mjs');
    try {
      const out = await bundle(path, r.text, file);
      writeFileSync(file, out.js);
      code = { path, bundle: { file, map: out.map } };
      mod = await runTopLevel(file, code);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    // Node runs (and its frames name) the file at its real path, symlinks resolved.
    code = { path: realpathSync(path) };
    try {
      mod = await runTopLevel(path, code);
    } catch (e) {
      // Node's SyntaxError for an ES module names no line; esbuild's parser does. (Asked on any
      // failure: a loader in between, vitest's say, may report the syntax error in its own words.)
      throw (await syntaxErrorAt(path, r.text)) ?? e;
    }
  }
  const c = asController(mod.default ?? mod.controller, path);
  // Bound to the module's own object (a class instance keeps its methods and `this`).
  const report =
    typeof c.report === 'function' ? c.report.bind(c) : typeof mod.report === 'function' ? (mod.report as Controller['report']) : undefined;
  return {
    name: path,
    rate: c.rate,
    ...(c.init ? { init: c.init.bind(c) } : {}),
    update: c.update.bind(c),
    ...(report ? { report } : {}),
    where: (e: unknown) => moduleFrame(e, code),
  };
}

/** Imports the module (its top-level code runs); what it throws names the module and the line. */
async function runTopLevel(file: string, code: ModuleCode): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    const frame = moduleFrame(e, code);
    if (!frame) throw e;
    const what = e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
    throw new Error(`controller ${code.path}: its top-level code threw: ${what}\n    at ${frame}`, { cause: e });
  }
}

interface EsbuildMessage {
  text: string;
  location?: { file: string; line: number; column: number } | null;
}

/** A syntax (or type-stripping) error of esbuild as FILE:LINE:COL. */
function locatedError(path: string, e: unknown): Error {
  const first = ((e as { errors?: EsbuildMessage[] }).errors ?? [])[0];
  const loc = first?.location;
  if (!loc) return new Error(`controller ${path}: ${first?.text ?? (e as Error).message}`);
  const file = loc.file === '<stdin>' ? path : resolve(dirname(path), loc.file);
  return new SceneError({
    file: resolve(file),
    line: loc.line,
    column: loc.column + 1,
    subject: 'controller module',
    found: `a syntax error (${first.text})`,
    expected: `a module that parses as ${/\.(ts|mts)$/.test(path) ? 'TypeScript' : 'JavaScript'}`,
  });
}

async function bundle(path: string, text: string, outfile: string): Promise<{ js: string; map: SourceMapPayload }> {
  const { build } = await import('esbuild');
  let out;
  try {
    out = await build({
      stdin: { contents: text, sourcefile: path, resolveDir: dirname(path), loader: 'ts' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      logLevel: 'silent',
      packages: 'external',
      sourcemap: 'external',
      outfile,
    });
  } catch (e) {
    throw locatedError(path, e);
  }
  const js = out.outputFiles.find((f) => f.path.endsWith('.mjs'));
  const map = out.outputFiles.find((f) => f.path.endsWith('.map'));
  if (!js || !map) throw new Error(`controller ${path}: esbuild wrote no bundle`);
  return { js: js.text, map: JSON.parse(map.text) as SourceMapPayload };
}

async function syntaxErrorAt(path: string, text: string): Promise<Error | undefined> {
  const { transform } = await import('esbuild');
  try {
    await transform(text, { loader: 'js', sourcefile: path, logLevel: 'silent' });
  } catch (e) {
    return locatedError(path, e);
  }
  return undefined;
}

function asController(x: unknown, path: string): Controller {
  if (typeof x === 'function') return { update: x as Controller['update'] };
  if (x && typeof x === 'object' && typeof (x as Controller).update === 'function') return x as Controller;
  throw new Error(
    `controller ${path}: found ${x === undefined ? 'no default export' : `a default export of type ${typeof x}`}, expected a function (io) => void or an object { rate?, init?(io), update(io) }`,
  );
}
