// vitest globalSetup beside loop-watch.ts (only when ACHILLES_LOOP_WATCH names a file): empties the
// record before the run and, after it, prints the tests that held their worker's event loop longest,
// so a run that fails with "Timeout calling onTaskUpdate" (a loop held 60 s, issue 23) names the test.
import { existsSync, readFileSync, rmSync } from 'node:fs';

/** How many of the longest stalls the report lists. */
const SHOWN = 5;

interface Stall {
  file: string;
  test: string;
  longestBlockMs: number;
}

export function longestStalls(text: string, n = SHOWN): Stall[] {
  const rows = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Stall);
  return rows.sort((a, b) => b.longestBlockMs - a.longestBlockMs).slice(0, n);
}

export function formatStalls(stalls: Stall[]): string {
  const lines = stalls.map((s) => `  ${(s.longestBlockMs / 1000).toFixed(1).padStart(6)} s  ${s.file} > ${s.test}`);
  return `longest event-loop stalls (a worker's loop held 60 s fails the run):\n${lines.join('\n')}\n`;
}

export default function setup(): () => void {
  const out = process.env.ACHILLES_LOOP_WATCH!;
  rmSync(out, { force: true });
  return () => {
    if (existsSync(out)) process.stdout.write(formatStalls(longestStalls(readFileSync(out, 'utf8'))));
  };
}
