// The CLI framework: every kind of bad flag gives its message and exit code 2, scene errors keep
// their FILE:LINE:COL form, help and docs come from the command table, README's reference is
// what `achilles docs` prints, and the README's API example really runs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnAsync } from './helpers/spawn-async.js';
import { isMissing, loadCommands } from '../src/cli/main.js';
import { extractReference, referenceMarkdown } from '../src/cli/docs.js';
import { cli, ROOT, SCENES, tempDir } from './helpers/cli.js';

const DP = join(SCENES, 'double-pendulum.arow');

describe('usage errors exit 2 with a message naming what is allowed', () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      'choice',
      ['run', DP, '--integrator', 'rk5'],
      /--integrator: 'rk5' is not one of euler, verlet, midpoint, rk4, implicitfast \(did you mean rk4\?\)/,
    ],
    ['choice without a near miss', ['run', DP, '--precision', 'double'], /--precision: 'double' is not one of f32, f64\n/],
    ['number out of range', ['run', DP, '--copies', '0'], /--copies: 0 is out of range \(expected an integer from 1 to 16777216\)/],
    [
      'number not an integer',
      ['run', DP, '--substeps', '2.5'],
      /--substeps: '2.5' is not an integer \(expected an integer from 1 to 1000000\)/,
    ],
    ['not a number', ['run', DP, '--dt', '1ms'], /--dt: '1ms' is not a number/],
    ['number that must be positive', ['run', DP, '--dt', '-0.1'], /--dt: -0.1 is out of range \(expected a number from 1e-9 to 1\)/],
    ['list with an empty item', ['run', DP, '--robots', '0,,1'], /--robots: '0,,1' has an empty item/],
    ['list item out of range', ['run', DP, '--robots', '0,-1'], /--robots: -1 is out of range \(expected an integer >= 0\)/],
    [
      'robot beyond --copies',
      ['run', DP, '--copies', '2', '--robots', '0,2'],
      /--robots: robot 2 does not exist \(robots are 0\.\.1; set --copies\)/,
    ],
    ['lanes choice', ['run', DP, '--lanes', '2'], /--lanes: '2' is not one of 1, 4, 8, 16/],
    ['unknown flag', ['run', DP, '--integrater', 'rk4'], /unknown option '--integrater' \(did you mean --integrator\?\)/],
    ['unknown command', ['rn', DP], /unknown command 'rn' \(did you mean run\?\)/],
    ['missing argument', ['run'], /missing required argument 'scene'/],
    ['flag without its value', ['run', DP, '--dt'], /option '--dt <S>' argument missing/],
    ['excess argument', ['run', DP, 'extra'], /too many arguments for 'run'/],
    ['export without a format', ['export', DP], /choose the output format: --mjcf/],
  ];
  for (const [kind, args, message] of cases) {
    test(kind, async () => {
      const r = await cli(...args);
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    });
  }

  test('a usage error points at the command help', async () => {
    const r = await cli('run', DP, '--integrator', 'rk5');
    expect(r.stderr).toMatch(/^achilles run: /);
    expect(r.stderr).toContain("Run 'achilles run --help' for usage.");
  });
});

describe('scene errors', () => {
  test('a missing scene file is reported as FILE:1:1 and exits 1', async () => {
    const missing = join(tempDir(), 'nope.arow');
    const r = await cli('run', missing);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${missing}:1:1: file: found no such file (ENOENT), expected a readable YAML file\n`);
  });

  test('a bad key is reported at its line and column, unprefixed', async () => {
    const file = join(tempDir(), 'bad.arow');
    writeFileSync(file, readFileSync(DP, 'utf8').replace('    mass: 1.0\n    com: [0, 0.5, 0]\n', '    mass: 1.0\n    cmo: [0, 0.5, 0]\n'));
    const line =
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('cmo:')) + 1;
    for (const cmd of ['run', 'export']) {
      const r = await cli(cmd, file, ...(cmd === 'export' ? ['--mjcf'] : []));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:5: .*cmo.*did you mean \`com\``));
    }
  });
});

describe('help and docs come from the command table', () => {
  test('--help lists every option of run with its allowed values and exits 0', async () => {
    const r = await cli('run', '--help');
    expect(r.code).toBe(0);
    const specs = await loadCommands();
    const run = specs.find((s) => s.name === 'run')!;
    for (const o of run.options) expect(r.stdout).toContain(`--${o.name}`);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('(euler | verlet | midpoint | rk4 | implicitfast)'); // wrapped at 80 columns
    expect(r.stdout).toContain('achilles run scenes/double-pendulum.arow');
  });

  test('run, export and docs are always registered, in order', async () => {
    const names = (await loadCommands()).map((s) => s.name);
    expect(names[0]).toBe('run');
    expect(names.slice(-2)).toEqual(['export', 'docs']);
    // The optional commands are registered exactly when their module exists.
    expect(names.includes('validate')).toBe(existsSync(join(ROOT, 'src/cli/validate-command.ts')));
    expect(names.includes('bench')).toBe(existsSync(join(ROOT, 'src/cli/bench-command.ts')));
  });

  test('only "that very module is missing" is swallowed', () => {
    const url = new URL('file:///x/dist/cli/validate-command.js');
    expect(isMissing({ code: 'ERR_MODULE_NOT_FOUND', url: url.href }, url)).toBe(true);
    expect(isMissing({ code: 'ERR_MODULE_NOT_FOUND', url: 'file:///x/dist/validation/judge.js' }, url)).toBe(false);
    expect(
      isMissing(
        { code: 'ERR_MODULE_NOT_FOUND', message: "Cannot find module '/dist/cli/validate-command.js' imported from /x/dist/cli/main.js" },
        url,
      ),
    ).toBe(true);
    expect(
      isMissing({ code: 'ERR_MODULE_NOT_FOUND', message: "Cannot find package 'vega' imported from /x/dist/cli/validate-command.js" }, url),
    ).toBe(false);
    expect(isMissing(new SyntaxError('Unexpected token'), url)).toBe(false);
  });

  test('`achilles docs` prints the reference and docs/cli.md holds exactly it', async () => {
    const r = await cli('docs');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(referenceMarkdown(await loadCommands()));
    for (const name of (await loadCommands()).map((s) => s.name)) expect(r.stdout).toContain(`### \`achilles ${name}\``);
    const reference = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    // On failure: run `npm run docs` to regenerate docs/cli.md.
    expect(extractReference(reference)).toBe(r.stdout);
  });

  test('docs --write replaces only the text between the markers', async () => {
    const file = join(tempDir(), 'R.md');
    writeFileSync(file, 'before\n<!-- cli-reference:start -->\nstale\n<!-- cli-reference:end -->\nafter\n');
    const r = await cli('docs', '--write', file);
    expect(r.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('before\n<!-- cli-reference:start -->\n### `achilles run`')).toBe(true);
    expect(text.endsWith('<!-- cli-reference:end -->\nafter\n')).toBe(true);
    expect(text).not.toContain('stale');
  });
});

describe('export --mjcf', () => {
  test('to stdout: an MJCF document', async () => {
    const r = await cli('export', DP, '--mjcf');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^<mujoco model="double-pendulum">/);
    expect(r.stdout.trimEnd().endsWith('</mujoco>')).toBe(true);
  });

  test('to a file: MuJoCo loads it, with every copy', async () => {
    const out = join(tempDir(), 'sub', 'dp.xml');
    const r = await cli('export', DP, '--mjcf', '--copies', '3', '--out', out);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<mujoco');
    const py = await spawnAsync('python3', [
      '-c',
      'import sys, mujoco; m = mujoco.MjModel.from_xml_path(sys.argv[1]); print(m.nq, m.nv, m.nbody)',
      out,
    ]);
    expect(py.stderr).toBe('');
    expect(py.stdout.trim()).toBe('6 6 7'); // 3 copies x 2 hinges; world + 6 bodies
  });
});

describe('the README and the docs', () => {
  test('the TypeScript API example (docs/typescript.md) runs and prints one line per robot', async () => {
    const page = readFileSync(join(ROOT, 'docs', 'typescript.md'), 'utf8');
    const block = /## TypeScript API[\s\S]*?```ts\n([\s\S]*?)```/.exec(page)?.[1];
    expect(block).toBeDefined();
    const dir = tempDir();
    const file = join(dir, 'example.ts');
    // The example imports the package's entry point; point it at the sources here.
    expect(block).toContain("from 'achilles-sim';");
    writeFileSync(file, block!.replaceAll("from 'achilles-sim';", `from '${ROOT}/src/index.js';`));
    const r = await spawnAsync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT });
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[0]).toMatch(/^robot 0: t = 1 s, q = -?\d/);
  });

  test('its set-up command is one line that installs the toolchain and runs a bundled scene', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const setup = /## Set up and run[\s\S]*?```sh\n([^\n]*)\n```/.exec(readme)?.[1] ?? '';
    expect(setup).toContain('apt-get install -y cmake g++ libxsimd-dev');
    expect(setup).toContain('npm ci');
    expect(setup).toMatch(/npx achilles run scenes\/[\w-]+\.arow$/);
    const scene = /npx achilles run (scenes\/[\w-]+\.arow)$/.exec(setup)![1];
    expect(existsSync(join(ROOT, scene))).toBe(true);
  });
});

describe('the installed command: bin/achilles.js over dist/ (built by npm run build:ts, which npm ci runs)', () => {
  const bin = join(ROOT, 'bin', 'achilles.js');
  // Awaited child processes, not spawnSync: the worker's event loop keeps turning meanwhile (issue 23).
  const node = (args: string[], input?: string) => spawnAsync(process.execPath, [bin, ...args], { cwd: ROOT, input });

  test('dist/ is built', () => {
    // If this fails: npm run build:ts
    expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js'))).toBe(true);
  });

  test('--version prints the package version', async () => {
    const r = await node(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  test('a usage error exits 2 and a missing scene 1, with their messages', async () => {
    const u = await node(['run', join(SCENES, 'double-pendulum.arow'), '--integrator', 'rk5']);
    expect(u.status).toBe(2);
    expect(u.stderr).toContain("--integrator: 'rk5' is not one of euler, verlet, midpoint, rk4, implicitfast");
    const m = await node(['export', 'no-such.arow', '--mjcf']);
    expect(m.status).toBe(1);
    expect(m.stderr).toBe('no-such.arow:1:1: file: found no such file (ENOENT), expected a readable YAML file\n');
  });

  test('a reader closing the pipe early is not a crash', async () => {
    // Far more than a pipe buffer (64 KiB), so the writer really meets the closed pipe.
    const cmd = `set -o pipefail; "${process.execPath}" "${bin}" export scenes/double-pendulum.arow --mjcf --copies 5000 | head -1`;
    const r = await spawnAsync('bash', ['-c', cmd], { cwd: ROOT });
    expect(r.stdout).toBe('<mujoco model="double-pendulum">\n');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
