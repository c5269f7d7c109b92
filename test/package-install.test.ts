// The npm package's install decision and addon loading (issue 29), in a scratch copy of the install
// scripts: a prebuild that loads is used with nothing compiled; a missing or broken one falls back
// to the source build, saying why; cmake-js is found where npm hoists it for a dependency. The
// whole tarball round trip (pack, install, run, import) is scripts/check-package.sh, run by CI.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SOURCE_BUILD_DIR, loadFirst } from '../src/engine/native.js';

const execFileAsync = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const engine = join(SOURCE_BUILD_DIR, 'achilles.node');
const platform = `${process.platform}-${process.arch}`;
const SCRIPTS = ['install.mjs', 'cmake-js.mjs', 'prebuild-path.mjs', 'check-toolchain.mjs', 'build-native.mjs', 'find-mujoco.mjs'];

const scratch = mkdtempSync(join(tmpdir(), 'achilles-package-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Every tool a source build would call, as a stub that records the call and fails.
const stubs = join(scratch, 'stubs');
const calls = join(scratch, 'calls.log');
mkdirSync(stubs);
for (const tool of ['cmake', 'g++', 'gcc', 'c++', 'cc', 'clang++', 'make', 'ninja']) {
  writeFileSync(join(stubs, tool), `#!/bin/sh\necho "${tool} $*" >> ${calls}\nexit 1\n`);
  chmodSync(join(stubs, tool), 0o755);
}

let n = 0;
/** A package directory with the install scripts and `prebuilds` (file name -> contents or a path to copy). */
function makePackage(prebuilds: Record<string, string | { copy: string }> | null): string {
  const dir = join(scratch, `pkg${n++}`);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "achilles-sim", "version": "0.0.0" }');
  for (const s of SCRIPTS) copyFileSync(join(root, 'scripts', s), join(dir, 'scripts', s));
  if (prebuilds) mkdirSync(join(dir, 'prebuilds'));
  for (const [rel, content] of Object.entries(prebuilds ?? {})) {
    mkdirSync(dirname(join(dir, 'prebuilds', rel)), { recursive: true });
    if (typeof content === 'string') writeFileSync(join(dir, 'prebuilds', rel), content);
    else copyFileSync(content.copy, join(dir, 'prebuilds', rel));
  }
  return dir;
}

/** Runs the package's `install` script with the toolchain stubbed out. */
async function install(dir: string, env: Record<string, string> = {}): Promise<{ code: number; stderr: string; calls: string }> {
  rmSync(calls, { force: true });
  const opts = { cwd: dir, env: { ...process.env, PATH: `${stubs}:${process.env.PATH}`, ACHILLES_BUILD_FROM_SOURCE: '', ...env } };
  let code = 0;
  let stderr: string;
  try {
    stderr = (await execFileAsync(process.execPath, ['scripts/install.mjs'], opts)).stderr;
  } catch (e) {
    const err = e as { code: number; stderr: string };
    code = err.code;
    stderr = err.stderr;
  }
  return { code, stderr, calls: existsSync(calls) ? readFileSync(calls, 'utf8') : '' };
}

describe('install script', () => {
  it.skipIf(!existsSync(engine))('uses a prebuild that loads: exits 0 at once, no compiler or cmake called, nothing built', async () => {
    const dir = makePackage({ [`${platform}/achilles.node`]: { copy: engine } });
    const r = await install(dir);
    expect(r.stderr).toContain(`using the prebuilt engine (prebuilds/${platform}/achilles.node); nothing to compile`);
    expect(r.code).toBe(0);
    expect(r.calls).toBe('');
    expect(existsSync(join(dir, 'build'))).toBe(false);
  });

  it('a prebuild that does not load: says so with the loader error, then goes to the source build', async () => {
    const dir = makePackage({ [`${platform}/achilles.node`]: 'not an ELF file' });
    const r = await install(dir);
    expect(r.stderr).toMatch(
      new RegExp(
        `building the native engine from source: the prebuilt engine prebuilds/${platform}/achilles.node does not load on this machine \\(Error: .*(invalid ELF header|too short)`,
      ),
    );
    // The source build's first step ran and stopped at the missing toolchain, naming it.
    expect(r.stderr).toContain('cannot build the native engine');
    expect(r.code).toBe(1);
  });

  it('no prebuild for this platform: names the platform, then goes to the source build', async () => {
    const dir = makePackage({ 'other-arch/achilles.node': 'x' });
    const r = await install(dir);
    expect(r.stderr).toContain(`building the native engine from source: this package has no prebuilt engine for ${platform}`);
    expect(r.stderr).toContain('cannot build the native engine');
    expect(r.code).toBe(1);
  });

  it('a package without prebuilds/ builds from source', async () => {
    const r = await install(makePackage(null));
    expect(r.stderr).toContain('building the native engine from source: this package has no prebuilt engine (no prebuilds/)');
    expect(r.code).toBe(1);
  });

  it.skipIf(!existsSync(engine))(
    'a development checkout builds from source as before, even beside a prebuilds/ an aborted `npm pack` left',
    async () => {
      const dir = makePackage({ [`${platform}/achilles.node`]: { copy: engine } });
      writeFileSync(join(dir, 'tsconfig.json'), '{}');
      const r = await install(dir);
      expect(r.stderr).toContain('building the native engine from source: a development checkout builds its own engine');
      expect(r.code).toBe(1);
    },
  );

  it.skipIf(!existsSync(engine))('ACHILLES_BUILD_FROM_SOURCE=1 builds from source even with a good prebuild', async () => {
    const dir = makePackage({ [`${platform}/achilles.node`]: { copy: engine } });
    const r = await install(dir, { ACHILLES_BUILD_FROM_SOURCE: '1' });
    expect(r.stderr).toContain('building the native engine from source: ACHILLES_BUILD_FROM_SOURCE=1 asks for it');
    expect(r.code).toBe(1);
  });
});

describe('cmake-js for a source build', () => {
  it('is found where npm hoists it when the package is a dependency (beside it, not inside it)', async () => {
    const project = join(scratch, 'project');
    const pkg = join(project, 'node_modules', 'achilles-sim');
    mkdirSync(join(pkg, 'scripts'), { recursive: true });
    for (const s of SCRIPTS) copyFileSync(join(root, 'scripts', s), join(pkg, 'scripts', s));
    writeFileSync(join(pkg, 'package.json'), '{ "name": "achilles-sim" }');
    mkdirSync(join(project, 'node_modules', 'cmake-js', 'bin'), { recursive: true });
    writeFileSync(
      join(project, 'node_modules', 'cmake-js', 'package.json'),
      '{ "name": "cmake-js", "bin": { "cmake-js": "./bin/cmake-js" } }',
    );
    const code = `import('${join(pkg, 'scripts', 'cmake-js.mjs')}').then((m) => console.log(m.cmakeJsBin()))`;
    const { stdout } = await execFileAsync(process.execPath, ['-e', code]);
    expect(stdout.trim()).toBe(join(project, 'node_modules', 'cmake-js', 'bin', 'cmake-js'));
  });

  it('missing: says what to install', async () => {
    const pkg = makePackage(null);
    const code = `import('${join(pkg, 'scripts', 'cmake-js.mjs')}').then((m) => m.cmakeJsBin())`;
    await expect(execFileAsync(process.execPath, ['-e', code])).rejects.toMatchObject({
      stderr: expect.stringContaining('install cmake-js and a C++ toolchain to build from source'),
    });
  });
});

describe('addon loader', () => {
  const garbage = join(scratch, 'garbage.node');
  writeFileSync(garbage, 'not an ELF file');
  const missing = join(scratch, 'missing.node');

  it.skipIf(!existsSync(engine))('takes the first candidate that loads, and says which when an earlier one failed', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const addon = loadFirst<{ cpuInfo(): unknown }>('achilles.node', 'native engine', [missing, garbage, engine]);
      expect(typeof addon.cpuInfo).toBe('function');
      expect(String(write.mock.calls[0]?.[0])).toContain(`${garbage} does not load`);
      expect(String(write.mock.calls[0]?.[0])).toContain(`using ${engine}`);
    } finally {
      write.mockRestore();
    }
  });

  it('none present: names the source build and the prebuild it looked for, and how to build', () => {
    expect(() => loadFirst('x.node', 'native engine', [missing, join(scratch, 'prebuilds', 'x.node')])).toThrow(
      new RegExp(
        `the native engine is not built: no source build \\(${missing}\\) and no prebuilt one for ${platform}.*npm run build:native`,
      ),
    );
  });

  it('present but unloadable: gives each path with its error', () => {
    expect(() => loadFirst('x.node', 'native engine', [garbage, missing])).toThrow(
      /the native engine cannot be loaded: .*garbage\.node does not load: .*(invalid ELF header|too short)/,
    );
  });
});
