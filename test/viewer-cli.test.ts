// `achilles run --html` and `achilles view RUN_DIR` end to end: the replay is part of the run's
// all-or-nothing file set, matches the trace's own final state, and `view` rebuilds it (and a
// filmstrip, where Chromium exists) or says clearly what is missing.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { findChromium } from '../src/viewer/headless.js';
import { unpackFrames, type ReplayHeader } from '../src/viewer/replay-data.js';
import { cli, SCENES, spawnCli, tempDir } from './helpers/cli.js';

describe('achilles run --html / achilles view', () => {
  const out = join(tempDir('achilles-view-'), 'run');
  let header: ReplayHeader;

  it('run --html writes replay.html, replay.json and replay.bin with the trace', async () => {
    const r = await cli(
      'run',
      join(SCENES, 'double-pendulum.arow'),
      '--duration',
      '0.5',
      '--copies',
      '3',
      '--robots',
      '0,2',
      '--spread',
      '0.002',
      '--html',
      '--fps',
      '30',
      '--out',
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['trace.csv', 'run.json', 'replay.html', 'replay.json', 'replay.bin']) expect(existsSync(join(out, f)), f).toBe(true);
    header = JSON.parse(readFileSync(join(out, 'replay.json'), 'utf8'));
    expect(header.fps).toBe(30);
    expect(header.frames).toBe(16); // 0.5 s at 30 fps: frames 0..15
    expect(header.robots).toEqual([0, 2]);
    expect(header.meta).toMatchObject({ integrator: 'euler', dt: 0.002, precision: 'f64', steps: 250, copies: 3, spread: 0.002 });
    const html = readFileSync(join(out, 'replay.html'), 'utf8');
    expect(html).toContain('<script id="replay-data" type="application/octet-stream">');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="(?!data:)/);
  });

  it("the last frame is the state the trace ends in (robot 2, through the trace's q)", () => {
    const fr = unpackFrames(new Uint8Array(readFileSync(join(out, 'replay.bin'))), header.layout);
    const csv = readFileSync(join(out, 'trace.csv'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    const cols = csv[0].split(',');
    const last = csv
      .filter((l) => l.split(',')[cols.indexOf('robot')] === '2')
      .at(-1)!
      .split(',')
      .map(Number);
    expect(last[cols.indexOf('time')]).toBeCloseTo(fr.times[header.frames - 1], 12);
    // Lower link origin = upper link tip: (0, cos θ1, sin θ1) for the double pendulum (axis x, links along +y).
    const th1 = last[cols.indexOf('q:upper')];
    const o = ((header.frames - 1) * 2 + 1) * 2 + 1; // frame F-1, robot slot 1 (= robot 2), body 1
    expect(fr.pos[o * 3 + 1]).toBeCloseTo(Math.cos(th1), 6);
    expect(fr.pos[o * 3 + 2]).toBeCloseTo(Math.sin(th1), 6);
  });

  it('view rebuilds replay.html from the run directory', async () => {
    const before = statSync(join(out, 'replay.html')).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    const r = await cli('view', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*replay\.html \(16 frames at 30 fps, 2 robot\(s\)\)/);
    expect(statSync(join(out, 'replay.html')).mtimeMs).toBeGreaterThan(before);
  });

  it('--fps without --html is a usage error', async () => {
    const r = await cli('run', join(SCENES, 'double-pendulum.arow'), '--fps', '30', '--out', join(tempDir(), 'x'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fps: sets the replay frame rate, so it needs --html');
  });

  it('view --help says the page is opened only with --open (its default is off)', async () => {
    const r = await cli('view', '--help');
    const text = (r.stdout + r.stderr).replace(/\s+/g, ' ');
    expect(text).toMatch(/--open Open the page .*\[default: false\]/);
    expect(text).toContain('with --open, also open the page in the desktop browser');
    expect(text).not.toMatch(/and open the page\./);
  });

  it('view says what is missing for a run without a replay', async () => {
    const bare = tempDir('achilles-view-bare-');
    const r = await cli('view', bare);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bare}: no replay.json here (run the scene with \`achilles run SCENE --html --out ${bare}\``);
  });

  it.skipIf(!findChromium())(
    "view --filmstrip 3 writes a PNG of three frames side by side (and lists it in the run's manifest, if any)",
    async () => {
      writeFileSync(join(out, '.achilles-files.json'), JSON.stringify({ written_by: 'achilles run', files: ['trace.csv', 'replay.html'] }));
      const r = await cli('view', out, '--filmstrip', '3');
      expect(JSON.parse(readFileSync(join(out, '.achilles-files.json'), 'utf8')).files).toEqual([
        'trace.csv',
        'replay.html',
        'replay-filmstrip.png',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const png = PNG.sync.read(readFileSync(join(out, 'replay-filmstrip.png')));
      expect(png.width).toBe(3 * 480);
      expect(png.height).toBe(400 + 28);
    },
  );
});

describe('Ctrl-C while the replay is being recorded', () => {
  it("exits 130 promptly and writes nothing (the replay belongs to the run's all-or-nothing set)", async () => {
    const out = join(tempDir('achilles-view-int-'), 'never');
    const child = spawnCli([
      'run',
      join(SCENES, 'double-pendulum.arow'),
      '--integrator',
      'rk4',
      '--duration',
      '2000',
      '--html',
      '--out',
      out,
    ]);
    let stderr = '';
    // The replay's frames are sampled while the run steps: once it has started, it is recording.
    const recording = new Promise<void>((resolve) =>
      child.stderr!.on('data', (d) => {
        stderr += String(d);
        if (stderr.includes('Ctrl-C stops without writing anything')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await Promise.race([recording, exited]);
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    const t0 = performance.now();
    expect(await exited, stderr).toBe(130);
    // Promptly: 1M rk4 steps take seconds, and the loop yields to the signal between slices.
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(stderr).toMatch(/interrupted \(SIGINT\).*nothing was written/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dirname(out))).toEqual([]);
  });
});
