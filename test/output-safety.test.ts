// Output is never lost or misplaced: refused places, an --out that cannot be made (said before any
// work), foreign files kept apart unless --force, an earlier run's files replaced as a set, no empty
// folders after a failure, a killed run's staging removed by the next run, raw system errors explained.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { deadStaging } from '../src/reports/atomic.js';
import { MANIFEST } from '../src/reports/output-dir.js';
import { explainSystemError } from '../src/reports/system-errors.js';
import { cli, SCENES, spawnCli, tempDir } from './helpers/cli.js';

const DP = join(SCENES, 'double-pendulum.arow');
const short = ['--duration', '0.02'];

describe('refused places', () => {
  const places: [string, RegExp][] = [
    ['/', /--out \/: \/ is a filesystem root/],
    ['/proc/achilles-x', /inside the system directory \/proc/],
    ['/usr/local/achilles-x', /inside the system directory \/usr/],
    ['/tmp', /\/tmp is a system directory/],
    [homedir(), /is your home directory/],
  ];
  for (const [out, msg] of places)
    test(`run --out ${out}`, async () => {
      const r = await cli('run', DP, ...short, '--out', out, '--force');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr).not.toContain('Ctrl-C stops'); // refused before simulating
    });
  test('validate, bench and export refuse them too, before any work', async () => {
    for (const args of [
      ['validate', '--stage', 'exact', '--out', '/'],
      ['bench', '--copies', '1', '--out', '/etc'],
      ['export', DP, '--mjcf', '--out', '/model.xml'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/filesystem root|system directory/);
    }
  });
});

describe('an --out that cannot be made is reported before simulating', () => {
  test('an existing file, or a path under one', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'f'), 'mine\n');
    let r = await cli('run', DP, '--duration', '1000', '--out', join(dir, 'f'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/f is a file, not a directory; choose another --out/);
    r = await cli('bench', '--copies', '1', '--out', join(dir, 'f', 'sub'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/f is a file, so no directory can be made under it/);
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('mine\n');
  });
});

describe('files achilles did not write', () => {
  test('are refused without --force, kept with it; an earlier run is replaced as a set', async () => {
    const out = join(tempDir(), 'mixed');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine\n');
    let r = await cli('run', DP, ...short, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds files achilles did not write \(notes\.txt\); choose a new or empty directory, or pass --force/);
    expect(readdirSync(out)).toEqual(['notes.txt']);
    r = await cli('run', DP, ...short, '--out', out, '--force');
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine\n');
    const manifest = JSON.parse(readFileSync(join(out, MANIFEST), 'utf8')) as { files: string[] };
    expect(manifest.files).toContain('trace.csv');
    expect(manifest.files).not.toContain('notes.txt');
    // A file an earlier run wrote and this one does not is removed, so two runs never mix.
    writeFileSync(join(out, 'old-chart.svg'), '<svg/>');
    writeFileSync(join(out, MANIFEST), JSON.stringify({ files: [...manifest.files, 'old-chart.svg'] }));
    r = await cli('run', DP, ...short, '--out', out, '--force');
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'old-chart.svg'))).toBe(false);
    expect(existsSync(join(out, 'notes.txt'))).toBe(true);
    // Without foreign files, a second run into the same directory needs no --force.
    const again = join(tempDir(), 'again');
    expect((await cli('run', DP, ...short, '--out', again)).code).toBe(0);
    expect((await cli('run', DP, ...short, '--out', again)).code).toBe(0);
  });

  test('export replaces an MJCF file but not another file unless --force', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    writeFileSync(join(dir, 'old.xml'), '<?xml version="1.0"?>\n<!-- hand-made -->\n<mujoco model="x"/>\n');
    expect((await cli('export', DP, '--mjcf', '--out', join(dir, 'old.xml'))).code).toBe(0);
    const r = await cli('export', DP, '--mjcf', '--out', join(dir, 'notes.txt'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exists and is not a file achilles writes; choose another name, or pass --force/);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect((await cli('export', DP, '--mjcf', '--out', join(dir, 'notes.txt'), '--force')).code).toBe(0);
    expect((await cli('export', DP, '--mjcf', '--out', dir)).stderr).toMatch(/is a directory; name the file to write/);
  });
});

describe('failures and kills leave nothing behind', () => {
  test('a diverging run leaves no empty parent folders', async () => {
    const dir = tempDir();
    const scene = join(dir, 'diverge.arow');
    writeFileSync(scene, readFileSync(DP, 'utf8').replace('dt: 0.002, integrator: euler', 'dt: 10, integrator: rk4'));
    const r = await cli('run', scene, '--duration', '1000', '--out', join(dir, 'a', 'b', 'c'));
    expect(r.code).toBe(1);
    expect(readdirSync(dir)).toEqual(['diverge.arow']);
  });

  test("a killed run's staging folder is recognised and removed by the next run", async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const child = spawnCli(['run', DP, '--duration', '1000000', '--out', out]);
    await new Promise<void>((resolve) => {
      let err = '';
      child.stderr!.on('data', (d) => {
        err += String(d);
        if (err.includes('Ctrl-C stops')) resolve();
      });
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const left = readdirSync(dir).filter((f) => f.includes('.staging-'));
    expect(left).toHaveLength(1); // SIGKILL runs no cleanup
    expect(deadStaging(out).map((p) => p.split('/').pop())).toEqual(left);
    expect((await cli('run', DP, ...short, '--out', out)).code).toBe(0);
    expect(readdirSync(dir)).toEqual(['out']);
  });
});

describe('raw system errors are explained', () => {
  const sysErr = (code: string, syscall: string, path: string, dest?: string) =>
    Object.assign(new Error(`${code}: raw, ${syscall} '${path}'`), { code, syscall, path, dest });
  test.each([
    [
      sysErr('EEXIST', 'mkdir', '/x/out'),
      /^cannot write \/x\/out: something that is not a directory is already there; remove it or choose another --out \(mkdir, EEXIST\)$/,
    ],
    [sysErr('EISDIR', 'rename', '/x/a', '/x/b'), /^cannot write \/x\/b: a directory is where a file must go/],
    [sysErr('EINVAL', 'mkdtemp', '/proc/.x.staging-'), /^cannot write \/proc\/\.x\.staging-: the filesystem does not allow this there/],
    [sysErr('ENOSPC', 'write', '/x/trace.csv'), /the disk is full/],
    [new Error('std::bad_alloc'), /^out of memory: .* use fewer --copies/],
  ])('%s', (e, msg) => expect(explainSystemError(e)).toMatch(msg));
  test('other errors pass through', () => expect(explainSystemError(new Error('scene trouble'))).toBeNull());
});
