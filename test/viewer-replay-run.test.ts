// Issue 23, "what you see is what ran": `achilles run --html` samples the replay from the run
// itself, so a controlled run (a controller module with its camera sensor, a built-in PD
// controller) replays as it ran, frame by frame, and asking for the replay changes nothing the
// run writes. A replay re-simulated without the controller fails every comparison here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { normalFlip } from '../src/viewer/record.js';
import { QUAT_SCALE, unpackFrames, type ReplayFrames, type ReplayHeader } from '../src/viewer/replay-data.js';
import { cli, ROOT, SCENES, tempDir } from './helpers/cli.js';

interface Trace {
  cols: string[];
  /** Rows of robot 0 by step. */
  byStep: Map<number, number[]>;
}

function readTrace(dir: string): Trace {
  const lines = readFileSync(join(dir, 'trace.csv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  const cols = lines[0].split(',');
  const byStep = new Map<number, number[]>();
  for (const l of lines.slice(1)) {
    const row = l.split(',').map(Number);
    if (row[cols.indexOf('robot')] === 0) byStep.set(row[cols.indexOf('step')], row);
  }
  return { cols, byStep };
}

function readReplayDir(dir: string): { header: ReplayHeader; fr: ReplayFrames } {
  const header = JSON.parse(readFileSync(join(dir, 'replay.json'), 'utf8')) as ReplayHeader;
  return { header, fr: unpackFrames(new Uint8Array(readFileSync(join(dir, 'replay.bin'))), header.layout) };
}

/** Body i of robot slot 0 at frame f: position and quaternion [w, x, y, z]. */
function pose(h: ReplayHeader, fr: ReplayFrames, f: number, i: number): { p: number[]; q: number[] } {
  const o = (f * h.robots.length + 0) * h.nbody + i;
  return { p: [0, 1, 2].map((c) => fr.pos[o * 3 + c]), q: [0, 1, 2, 3].map((c) => fr.quat[o * 4 + c] / QUAT_SCALE) };
}

/** run.json without its wall-clock timings: the every-step energy maxima (drift, peak kinetic) stay in. */
function runJsonUntimed(dir: string): unknown {
  const j = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { summary: Record<string, unknown> };
  // Wall-clock fields: every *Seconds but the simulated time, and the throughput.
  const timed = Object.keys(j.summary).filter((k) => (k.endsWith('Seconds') && k !== 'simulatedSeconds') || k === 'robotStepsPerSecond');
  expect(timed).toContain('stepSeconds');
  for (const k of timed) delete j.summary[k];
  expect(j.summary).toHaveProperty('driftByRobot');
  return j;
}

/** Every frame's step, from its time (frames are taken at whole steps). */
const frameStep = (fr: ReplayFrames, f: number, dt: number): number => Math.round(fr.times[f] / dt);

afterEach(() => {
  vi.useRealTimers();
});

describe('run --html replays the run itself', () => {
  it("ball-on-plate with its controller module: every frame is the trace's state at that step (ball and plate), and the trace is byte-identical without --html", async () => {
    const base = tempDir('achilles-replay-run-');
    // A fixed clock: the trace's `# date:` line is then the same in both runs, so the files can be compared whole.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-02T03:04:05Z'));
    const args = [
      'run',
      join(SCENES, 'ball-on-plate.arow'),
      '--controller',
      join(SCENES, 'ball-on-plate.ctrl.ts'),
      '--duration',
      '1',
      '--record',
      '1',
    ];
    const withHtml = await cli(...args, '--html', '--fps', '30', '--out', join(base, 'html'));
    expect(withHtml.code, withHtml.stderr).toBe(0);
    const plain = await cli(...args, '--out', join(base, 'plain'));
    expect(plain.code, plain.stderr).toBe(0);
    for (const f of ['trace.csv', 'contacts.csv'])
      expect(readFileSync(join(base, 'html', f), 'utf8'), f).toBe(readFileSync(join(base, 'plain', f), 'utf8'));
    expect(runJsonUntimed(join(base, 'html'))).toEqual(runJsonUntimed(join(base, 'plain')));

    const { header, fr } = readReplayDir(join(base, 'html'));
    const t = readTrace(join(base, 'html'));
    expect(header.frames).toBe(31); // 1 s at 30 fps
    const ball = header.geometry.bodies.findIndex((b) => b.name === 'ball');
    const plate = header.geometry.bodies.findIndex((b) => b.name === 'plate');
    const col = (name: string) => t.cols.indexOf(name);
    for (let f = 0; f < header.frames; f++) {
      const row = t.byStep.get(frameStep(fr, f, 0.002))!;
      expect(row, `frame ${f}`).toBeDefined();
      // The free ball: its body origin is q's translation, stored as float32.
      const b = pose(header, fr, f, ball);
      for (const [c, n] of ['x', 'y', 'z'].entries()) expect(b.p[c], `frame ${f} ball.${n}`).toBe(Math.fround(row[col(`q:ball.${n}`)]));
      // The plate: roll α about x, then pitch β about y: R = Rx(α) Ry(β); its quaternion is
      // (cos α/2, sin α/2, 0, 0) ⊗ (cos β/2, 0, sin β/2, 0).
      const a = row[col('q:roll')] / 2;
      const be = row[col('q:plate')] / 2;
      const expected = [Math.cos(a) * Math.cos(be), Math.sin(a) * Math.cos(be), Math.cos(a) * Math.sin(be), Math.sin(a) * Math.sin(be)];
      const q = pose(header, fr, f, plate).q;
      const sign = Math.sign(q[0] * expected[0] + q[1] * expected[1] + q[2] * expected[2] + q[3] * expected[3]);
      for (let c = 0; c < 4; c++)
        expect(Math.abs(sign * q[c] - expected[c]), `frame ${f} plate quat[${c}]`).toBeLessThanOrEqual(1 / QUAT_SCALE);
    }
    // The last frame is the final state, which the controller kept on the plate.
    expect(frameStep(fr, header.frames - 1, 0.002)).toBe(500);
    expect(pose(header, fr, header.frames - 1, ball).p[2]).toBeGreaterThan(0.45);
    expect(withHtml.stderr).not.toMatch(/re-simulat/);
  });

  it("a PD-controlled arm (servo-arm): every frame is the trace's state at that step", async () => {
    const out = join(tempDir('achilles-replay-pd-'), 'run');
    const r = await cli(
      'run',
      join(ROOT, 'test', 'fixtures', 'control', 'servo-arm.arow'),
      '--duration',
      '0.5',
      '--record',
      '1',
      '--html',
      '--fps',
      '30',
      '--out',
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const { header, fr } = readReplayDir(out);
    const t = readTrace(out);
    const fore = header.geometry.bodies.findIndex((b) => b.name === 'fore');
    for (let f = 0; f < header.frames; f++) {
      const row = t.byStep.get(frameStep(fr, f, 0.002))!;
      // The forearm's joint sits 0.4 m along the upper link's y: (0, 0.4 cos θ, 0.4 sin θ) with θ = q:upper (axis x).
      const th = row[t.cols.indexOf('q:upper')];
      const p = pose(header, fr, f, fore).p;
      expect(p[0], `frame ${f}`).toBe(0);
      expect(p[1], `frame ${f}`).toBeCloseTo(0.4 * Math.cos(th), 6);
      expect(p[2], `frame ${f}`).toBeCloseTo(0.4 * Math.sin(th), 6);
    }
    expect(frameStep(fr, header.frames - 1, 0.002)).toBe(250);
  });
});

describe('contact normals in the replay', () => {
  it('point out of a world shape (the engine reports floor contacts with the floor as shape b, normal into it)', () => {
    const model = loadScene(join(SCENES, 'domino-amplifier.arow'));
    const batch = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    const ground = model.shapes!.findIndex((s) => s.name === 'ground');
    const flips = batch.pairs.map(({ a, b }) => normalFlip(model, a, b));
    batch.pairs.forEach(({ a, b }, p) => expect(flips[p], `pair ${p}`).toBe(b === ground));
    expect(flips.some((x) => x)).toBe(true);
  });

  it("the domino replay's floor contacts point up, out of the floor; its trace is byte-identical without --html (uncontrolled: whole slices, cut at frames)", async () => {
    const base = tempDir('achilles-replay-normals-');
    const out = join(base, 'run');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-02T03:04:05Z'));
    const args = ['run', join(SCENES, 'domino-amplifier.arow'), '--duration', '0.1', '--copies', '3', '--robots', '0,2', '--record', '7'];
    const r = await cli(...args, '--html', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const plain = await cli(...args, '--out', join(base, 'plain'));
    expect(plain.code, plain.stderr).toBe(0);
    for (const f of ['trace.csv', 'contacts.csv'])
      expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(join(base, 'plain', f), 'utf8'));
    expect(runJsonUntimed(out)).toEqual(runJsonUntimed(join(base, 'plain')));
    const { fr } = readReplayDir(out);
    const floor = [];
    for (let c = 0; c < fr.contacts.length / 8; c++) if (Math.abs(fr.contacts[c * 8 + 2]) < 1e-3) floor.push(fr.contacts[c * 8 + 5]);
    expect(floor.length).toBeGreaterThan(0);
    for (const nz of floor) expect(nz).toBe(1);
  });
});
