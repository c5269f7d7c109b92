// Shared helpers for the scene tests: temporary scene files and the SceneError expectation.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SceneError } from '../../src/model-files/scene/index.js';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'achilles-scene-'));
}

export function write(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** Runs fn, expects a SceneError at line:column whose message matches every pattern. */
export function expectSceneError(fn: () => unknown, line: number, column: number, ...patterns: (string | RegExp)[]): SceneError {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(SceneError);
  const se = err as SceneError;
  expect(se.message.startsWith(`${se.file}:${line}:${column}: `), se.message).toBe(true);
  expect([se.line, se.column], se.message).toEqual([line, column]);
  for (const p of patterns) expect(se.message).toMatch(p);
  return se;
}
