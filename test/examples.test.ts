// Every example the user is shown, in the README and in each command's --help, runs as shown: the
// installed command (bin/achilles.js) in a fresh directory holding the bundled scenes, so default
// output paths land in that directory. Shortened only where the example is long: run durations,
// bench budgets (and bench's default copy list, whose 4096-robot MuJoCo model alone takes seconds to
// compile), validate's state counts. The full `achilles validate` is CI's own step (.ci/run).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCommands } from '../src/cli/main.js';
import { ROOT } from './helpers/cli.js';
import { spawnAsync } from './helpers/spawn-async.js';

/** The README and the pages its reference moved to (docs/). */
const USER_PAGES = ['README.md', ...['overview', 'cli', 'typescript', 'python', 'sweeps', 'outputs', 'testing'].map((p) => `docs/${p}.md`)];
const readme = USER_PAGES.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');

/** `achilles ...` lines of the README's and docs' sh blocks (and the `npx achilles ...` that ends the set-up line). */
function readmeExamples(): string[] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks
    .flatMap((b) => b.split('\n'))
    .flatMap((line) => {
      const at = line.indexOf('npx achilles ');
      if (at >= 0) return [line.slice(at + 4)];
      return line.startsWith('achilles ') ? [line] : [];
    });
}

/** The example as the test runs it: shortened where it is long, or null when CI runs it itself. */
function shortened(cmd: string): string | null {
  const [, command] = cmd.split(' ');
  if (command === 'run') return `${cmd} --duration 0.2`;
  if (command === 'bench') return `${cmd} --budget 0.001 --reps 1${cmd.includes('--copies') ? '' : ' --copies 1,16'}`;
  if (command === 'validate') return cmd === 'achilles validate' ? null : `${cmd} --states 4 --bug-states 2`;
  // `view` replays an earlier `run --html` (its documented workflow): record one there first.
  if (command === 'view') return `achilles run scenes/double-pendulum.arow --html --duration 0.2 --out ${cmd.split(' ')[2]} && ${cmd}`;
  return cmd;
}

const specs = await loadCommands();
const helpExamples = specs.flatMap((s) => s.examples);
const all = [...new Set([...helpExamples, ...readmeExamples()])];

describe('every documented example runs as shown', () => {
  test('the README and docs show the --help examples and the set-up run', () => {
    const shown = readmeExamples();
    for (const e of helpExamples) expect(shown).toContain(e);
    expect(shown.some((e) => e.startsWith('achilles run scenes/'))).toBe(true);
  });

  for (const example of all) {
    const cmd = shortened(example);
    test.skipIf(cmd === null)(cmd === null ? `${example} — run in full by CI (.ci/run), not here` : example, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'achilles-example-'));
      symlinkSync(join(ROOT, 'scenes'), join(dir, 'scenes'));
      symlinkSync(join(ROOT, 'test'), join(dir, 'test')); // the import fixtures the import examples read
      mkdirSync(join(dir, 'docs'));
      copyFileSync(join(ROOT, 'docs', 'cli.md'), join(dir, 'docs', 'cli.md')); // `docs --write docs/cli.md`
      const line = cmd!.replace(/(^|&& )achilles /g, `$1"${process.execPath}" "${join(ROOT, 'bin', 'achilles.js')}" `);
      // Awaited, not spawnSync: some examples run for many seconds, and the worker's event loop must keep turning (issue 23).
      const r = await spawnAsync('bash', ['-c', `set -o pipefail; ${line}`], { cwd: dir, env: { ...process.env, CI: '1' } });
      expect(r.status, `${cmd}\n${r.stderr}`).toBe(0);
      if (cmd!.includes('--json')) {
        const j = JSON.parse(r.stdout) as { pass?: boolean };
        if (cmd!.includes('validate')) expect(j.pass).toBe(true);
      }
      const out = /--out (\S+)/.exec(cmd!)?.[1] ?? /> (\S+)$/.exec(cmd!)?.[1];
      if (out) expect(existsSync(join(dir, out)), `${out} was written`).toBe(true);
    });
  }
});
