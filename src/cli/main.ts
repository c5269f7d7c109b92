// The `achilles` entry point: assembles the command table, parses argv, maps every outcome to an
// exit code (0 ok, 1 failure, 2 usage error, 130 interrupted) and prints errors in one format.

import { fileURLToPath } from 'node:url';
import { SceneError } from '../model-files/common/errors.js';
import { buildProgram, CommanderError, commanderUsageError, type Io } from './commander-adapter.js';
import { compileCommand } from './compile-command.js';
import { makeDocsCommand } from './docs.js';
import { exportCommand } from './export-command.js';
import { importCommand } from './import-command.js';
import { runCommand } from './run-command.js';
import { sweepCommand } from './sweep-command.js';
import { viewCommand } from './view-command.js';
import type { CommandSpec } from '../util/command-spec.js';
import { explainSystemError } from '../reports/system-errors.js';
import { UsageError } from '../util/usage-error.js';
import { achillesVersion } from '../util/version.js';

const stdio: Io = {
  out: (s) => void process.stdout.write(s),
  err: (s) => void process.stderr.write(s),
};

/**
 * Import an optional command module (written separately; absent in some checkouts).
 * Only "this very file does not exist" is swallowed: a missing import *inside* the module, or
 * any other load error, is a real bug and must surface.
 */
async function optionalCommand(file: string, exportName: string): Promise<CommandSpec | undefined> {
  const url = new URL(file, import.meta.url);
  let mod: Record<string, unknown>;
  try {
    // A variable specifier: tsc must not insist that the file exists at compile time.
    const specifier: string = file;
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (e) {
    if (isMissing(e, url)) return undefined;
    throw e;
  }
  const spec = mod[exportName] as CommandSpec | undefined;
  if (!spec) throw new Error(`${file} does not export ${exportName}`);
  return spec;
}

export function isMissing(e: unknown, url: URL): boolean {
  const err = e as { code?: string; url?: string; message?: string };
  if (err?.code !== 'ERR_MODULE_NOT_FOUND') return false;
  if (err.url !== undefined) return err.url === url.href;
  // Without `url` (e.g. under vitest) the message names the missing module: compare the file part.
  const named = /Cannot find (?:module|package) '([^']+)'/.exec(err.message ?? '')?.[1];
  const path = fileURLToPath(url);
  return named !== undefined && (named === path || path.endsWith(named));
}

/** Every command, in the order help and docs list them. */
export async function loadCommands(): Promise<CommandSpec[]> {
  const specs: CommandSpec[] = [runCommand];
  for (const [file, name] of [
    ['./validate-command.js', 'validateCommand'],
    ['./bench-command.js', 'benchCommand'],
  ] as const) {
    const spec = await optionalCommand(file, name);
    if (spec) specs.push(spec);
  }
  specs.push(sweepCommand);
  specs.push(viewCommand);
  specs.push(importCommand);
  specs.push(compileCommand);
  specs.push(exportCommand);
  specs.push(makeDocsCommand(() => specs));
  return specs;
}

/** Print an error and return its exit code. */
export function reportError(e: unknown, command: string | undefined, io: Io = stdio): number {
  if (e instanceof UsageError) {
    const cmd = e.command ?? command;
    const where = cmd ? `achilles ${cmd}` : 'achilles';
    io.err(`${where}: ${e.message}\nRun '${where} --help' for usage.\n`);
    return 2;
  }
  if (e instanceof SceneError) {
    // Already FILE:LINE:COL: ...; a prefix would break editors' jump-to-location.
    io.err(`${e.message}\n`);
    return 1;
  }
  const err = e as Error;
  io.err(`achilles: ${explainSystemError(e) ?? err?.message ?? String(e)}\n`);
  if (process.env.ACHILLES_DEBUG && err?.stack) io.err(`${err.stack}\n`);
  return 1;
}

/** Run the CLI on `argv` (as process.argv: node, script, args...) and return the exit code. */
export async function main(argv: string[]): Promise<number> {
  const active: { name?: string } = {};
  const result: { code?: number } = {};
  try {
    const specs = await loadCommands();
    const program = buildProgram(specs, achillesVersion(), stdio, result, active);
    await program.parseAsync(argv, { from: 'node' });
    return result.code ?? 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
      // `achilles` alone: commander has printed the help to stderr.
      if (e.code === 'commander.help') return 2;
      return reportError(commanderUsageError(e, active.name), active.name);
    }
    return reportError(e, active.name);
  }
}
