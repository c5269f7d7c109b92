import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnAsync } from './helpers/spawn-async.js';
import { OutputAbortedError, OutputSet, installSignalCleanup, writeFileAtomic } from '../src/reports/atomic.js';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'achilles-atomic-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every file under `dir`, relative, sorted (hidden ones included, so temp debris shows up). */
function listAll(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath ?? (d as unknown as { path: string }).path, d.name)))
    .sort();
}

describe('writeFileAtomic', () => {
  it('creates parent directories, writes the content and leaves no temp file', async () => {
    const file = path.join(root, 'a', 'b', 'out.csv');
    await writeFileAtomic(file, 'x,y\n1,2\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('x,y\n1,2\n');
    expect(listAll(root)).toEqual([path.join('a', 'b', 'out.csv')]);
  });

  it('replaces an existing file whole (bytes too)', async () => {
    const file = path.join(root, 'out.bin');
    fs.writeFileSync(file, 'old content that is longer');
    await writeFileAtomic(file, new Uint8Array([1, 2, 3]));
    expect([...fs.readFileSync(file)]).toEqual([1, 2, 3]);
    expect(listAll(root)).toEqual(['out.bin']);
  });

  it('a failed write leaves no folders it created', async () => {
    // Data the file write rejects: the failure comes after the parent chain was made.
    await expect(writeFileAtomic(path.join(root, 'made', 'a', 'f.csv'), 123 as never)).rejects.toThrow();
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('cleans its temp file up when the rename fails', async () => {
    const target = path.join(root, 'isdir');
    fs.mkdirSync(path.join(target, 'child'), { recursive: true }); // rename onto a non-empty directory fails
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect(fs.readdirSync(root)).toEqual(['isdir']);
  });
});

describe('OutputSet', () => {
  it('commit puts every file in place and removes the staging directory', async () => {
    const target = path.join(root, 'run1');
    const set = await OutputSet.create(target);
    const p1 = await set.write('results.csv', 'a\n1\n');
    const p2 = await set.write('charts/err.svg', '<svg/>');
    expect(fs.existsSync(target)).toBe(false); // nothing visible before commit
    expect(p1).toBe(path.join(target, 'results.csv'));
    const committed = await set.commit();
    expect(committed).toEqual([p1, p2]);
    expect(fs.readFileSync(p1, 'utf8')).toBe('a\n1\n');
    expect(fs.readFileSync(p2, 'utf8')).toBe('<svg/>');
    expect(fs.readdirSync(root)).toEqual(['run1']); // no staging sibling left
    expect(listAll(target)).toEqual([path.join('charts', 'err.svg'), 'results.csv']);
  });

  it('abort leaves nothing at all, and later writes are refused', async () => {
    const target = path.join(root, 'run2');
    const set = await OutputSet.create(target);
    await set.write('results.csv', 'a\n1\n');
    await set.abort();
    expect(fs.readdirSync(root)).toEqual([]);
    await expect(set.write('more.csv', 'x')).rejects.toBeInstanceOf(OutputAbortedError);
    await expect(set.commit()).rejects.toThrow(/aborted/);
  });

  it('abort keeps files already in an existing target directory untouched', async () => {
    const target = path.join(root, 'run3');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'results.csv'), 'previous run\n');
    const set = await OutputSet.create(target);
    await set.write('results.csv', 'new run\n');
    await set.abort();
    expect(fs.readFileSync(path.join(target, 'results.csv'), 'utf8')).toBe('previous run\n');
    expect(fs.readdirSync(root)).toEqual(['run3']);
  });

  it('commit overwrites older files of the same name and keeps unrelated ones', async () => {
    const target = path.join(root, 'run4');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'results.csv'), 'previous\n');
    fs.writeFileSync(path.join(target, 'notes.txt'), 'mine\n');
    const set = await OutputSet.create(target);
    await set.write('results.csv', 'new\n');
    await set.commit();
    expect(fs.readFileSync(path.join(target, 'results.csv'), 'utf8')).toBe('new\n');
    expect(fs.readFileSync(path.join(target, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(fs.readdirSync(root)).toEqual(['run4']);
  });

  it('a commit that fails midway rolls back to the previous files', async () => {
    const target = path.join(root, 'run5');
    fs.mkdirSync(path.join(target, 'b.txt', 'blocker'), { recursive: true }); // a non-empty dir where a file must go
    fs.writeFileSync(path.join(target, 'a.txt'), 'old a\n');
    const set = await OutputSet.create(target);
    await set.write('a.txt', 'new a\n');
    await set.write('b.txt', 'new b\n');
    await expect(set.commit()).rejects.toThrow(/cannot replace directory/);
    expect(fs.readFileSync(path.join(target, 'a.txt'), 'utf8')).toBe('old a\n');
    expect(fs.statSync(path.join(target, 'b.txt')).isDirectory()).toBe(true);
    expect(fs.readdirSync(root)).toEqual(['run5']);
  });

  it('rejects paths that escape the output directory', async () => {
    const set = await OutputSet.create(path.join(root, 'run6'));
    await expect(set.write('../evil.txt', 'x')).rejects.toThrow(/relative/);
    await expect(set.write('/etc/evil.txt', 'x')).rejects.toThrow(/relative/);
    await set.abort();
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('a SIGINT with a CLI handler present aborts open sets but leaves exiting to the CLI', async () => {
    const target = path.join(root, 'run7');
    const set = await OutputSet.create(target);
    await set.write('results.csv', 'partial\n');
    let cliSawSignal = false;
    const cliHandler = () => {
      cliSawSignal = true;
    };
    process.on('SIGINT', cliHandler);
    const uninstall = installSignalCleanup(['SIGINT']);
    try {
      process.emit('SIGINT', 'SIGINT');
    } finally {
      uninstall();
      process.removeListener('SIGINT', cliHandler);
    }
    expect(cliSawSignal).toBe(true);
    expect(set.status).toBe('aborted');
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('a real SIGINT kills an uncommitted run and leaves no file behind', async () => {
    // Run atomic.ts (transpiled to plain JS: it only imports node builtins) in a child process.
    const src = fs.readFileSync(path.resolve('src/reports/atomic.ts'), 'utf8');
    const js = ts.transpileModule(src, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const modDir = fs.mkdtempSync(path.join(os.tmpdir(), 'achilles-atomic-mod-'));
    try {
      fs.writeFileSync(path.join(modDir, 'atomic.mjs'), js);
      const target = path.join(root, 'run8');
      const script = `
        import { OutputSet, installSignalCleanup } from ${JSON.stringify(path.join(modDir, 'atomic.mjs'))};
        installSignalCleanup();
        const set = await OutputSet.create(${JSON.stringify(target)});
        await set.write('results.csv', 'half a run\\n');
        await set.write('charts/a.svg', '<svg/>');
        process.kill(process.pid, 'SIGINT');
        setTimeout(() => { console.log('survived'); process.exit(3); }, 2000);
      `;
      const res = await spawnAsync(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 }); // awaited: the worker's loop keeps turning (issue 23)
      expect(res.stderr).toBe('');
      expect(res.signal).toBe('SIGINT');
      expect(fs.readdirSync(root)).toEqual([]);
    } finally {
      fs.rmSync(modDir, { recursive: true, force: true });
    }
  });

  it('an uncommitted set is cleaned up when the process exits normally', async () => {
    const src = fs.readFileSync(path.resolve('src/reports/atomic.ts'), 'utf8');
    const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const modDir = fs.mkdtempSync(path.join(os.tmpdir(), 'achilles-atomic-mod-'));
    try {
      fs.writeFileSync(path.join(modDir, 'atomic.mjs'), js);
      const script = `
        import { OutputSet } from ${JSON.stringify(path.join(modDir, 'atomic.mjs'))};
        const set = await OutputSet.create(${JSON.stringify(path.join(root, 'run9'))});
        await set.write('results.csv', 'x\\n');
        process.exit(1);
      `;
      const res = await spawnAsync(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 }); // awaited: the worker's loop keeps turning (issue 23)
      expect(res.status).toBe(1);
      expect(fs.readdirSync(root)).toEqual([]);
    } finally {
      fs.rmSync(modDir, { recursive: true, force: true });
    }
  });
});
