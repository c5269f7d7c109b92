// The top stack frame of an error inside a controller module, as FILE:LINE:COL of the module's own
// source: a .ts module runs as esbuild's output in a temporary file, so its frames are mapped back
// through the bundle's source map (node:module SourceMap; no process-wide --enable-source-maps).

import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a module's code runs: the file node imported (the module itself, or the bundle), and the
 *  bundle's source map when it is one. */
export interface ModuleCode {
  /** The module as the user named it. */
  path: string;
  /** The file node ran, when it differs (a bundle), with its source map. */
  bundle?: { file: string; map: SourceMapPayload };
}

/** `at …` frames of a V8 stack: [function, file, line, column] with the file as a path. */
function frames(stack: string): { fn: string; file: string; line: number; column: number }[] {
  const out: { fn: string; file: string; line: number; column: number }[] = [];
  for (const l of stack.split('\n')) {
    const m = /^\s*at (?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/.exec(l);
    if (!m) continue;
    let file = m[2];
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(file);
      } catch {
        continue;
      }
    }
    out.push({ fn: m[1] ?? '', file, line: Number(m[3]), column: Number(m[4]) });
  }
  return out;
}

/** The first frame of `error` inside the module, as `fn (FILE:LINE:COL)`; undefined when none is. */
export function moduleFrame(error: unknown, code: ModuleCode): string | undefined {
  const stack = (error as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  const map = code.bundle ? new SourceMap(code.bundle.map) : undefined;
  for (const f of frames(stack)) {
    let where: string | undefined;
    if (f.file === code.path) where = `${f.file}:${f.line}:${f.column}`;
    else if (code.bundle && map && f.file === code.bundle.file) {
      // findEntry takes and gives 0-based lines and columns.
      const e = map.findEntry(f.line - 1, f.column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
      if (e.originalSource === undefined || e.originalLine === undefined || e.originalColumn === undefined) continue;
      const source = e.originalSource.startsWith('file://')
        ? fileURLToPath(e.originalSource)
        : resolve(dirname(code.bundle.file), e.originalSource);
      where = `${source}:${e.originalLine + 1}:${e.originalColumn + 1}`;
    }
    if (where) return f.fn ? `${f.fn} (${where})` : where;
  }
  return undefined;
}
