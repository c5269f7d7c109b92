// Shared helpers for the CLI tests: run `main()` in-process with stdout/stderr captured, or the
// CLI as a child process (for signals), both on the TypeScript sources.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const SCENES = join(ROOT, 'scenes');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `achilles ...args` in-process. */
export async function cli(...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(['node', 'achilles', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

export function tempDir(prefix = 'achilles-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** `achilles ...args` as a child process (TypeScript sources through tsx). */
/** cwd is the repository root so `--import tsx` resolves. */
export function spawnCli(args: string[]): ChildProcess {
  const entry = `import(${JSON.stringify(join(ROOT, 'src/cli/main.ts'))}).then((m) => m.main(['node', 'achilles', ...process.argv.slice(1)])).then((c) => { process.exitCode = c; })`;
  return spawn(process.execPath, ['--import', 'tsx', '-e', entry, '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
