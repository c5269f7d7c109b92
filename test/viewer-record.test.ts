// The replay's data, without a browser: frame schedule, size limit and downsampling, geometry
// stand-ins, and that the poses sampled inside simulate() are the run's own (bit-identical to
// stepping the same batch, --spread included).
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { engineAddon, type ContactPoints } from '../src/engine/native.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { applySpread } from '../src/run/spread.js';
import { inertiaBox, quatFromMatrix, sceneGeometry } from '../src/viewer/geometry.js';
import { replayHtml } from '../src/viewer/html.js';
import { chooseFps, frameSteps, MAX_POSE_BYTES, robotContacts, type CollidingBatch } from '../src/viewer/record.js';
import { packFrames, poseBytesPerFrame, QUAT_SCALE, unpackFrames, type ReplayHeader } from '../src/viewer/replay-data.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { doublePendulum, shapesModel } from './helpers/viewer-models.js';
import { recordRun, type ReplayRun } from './helpers/viewer-browser.js';

const addon = engineAddon();
const run = (over: Partial<ReplayRun> = {}): ReplayRun => ({
  scene: 'scenes/double-pendulum.arow',
  integrator: 'rk4',
  dt: 0.002,
  substeps: 1,
  steps: 500,
  copies: 8,
  precision: 'f64',
  lanes: 4,
  robots: [0, 3, 7],
  spread: 0.002,
  ...over,
});

describe('frame schedule', () => {
  it('takes frames at f/fps rounded to a step, independent of dt, ending at the last step', () => {
    expect(frameSteps(500, 0.002, 60)).toHaveLength(61);
    expect(frameSteps(500, 0.002, 60).slice(0, 4)).toEqual([0, 8, 17, 25]);
    expect(frameSteps(500, 0.002, 60).at(-1)).toBe(500);
    // dt coarser than a frame: one frame per step, no duplicates.
    expect(frameSteps(10, 0.1, 60)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // A duration that is not a whole number of frames still ends on the final state.
    expect(frameSteps(1001, 0.001, 60).at(-1)).toBe(1001);
  });

  it('keeps 60 s of a 30-body robot at 60 fps under the limit and downsamples longer runs with a reason', () => {
    const sixty = { steps: 60000, dt: 0.001 };
    expect(chooseFps(sixty, 1, 30, 60)).toEqual({ fps: 60 });
    expect(frameSteps(60000, 0.001, 60).length * poseBytesPerFrame(1, 30)).toBeLessThan(MAX_POSE_BYTES);
    const ten = chooseFps({ steps: 600000, dt: 0.001 }, 1, 30, 60);
    expect(ten.fps).toBeLessThan(60);
    expect(ten.reason).toMatch(/1 robot x 30 bodies x 600\.000 s at 60 fps would take 2\d\.\d MB/);
    expect(frameSteps(600000, 0.001, ten.fps).length * poseBytesPerFrame(1, 30)).toBeLessThanOrEqual(MAX_POSE_BYTES);
  });
});

describe('geometry', () => {
  it('sizes the inertia box so a uniform box of that size has the body inertia (rotated inertia included)', () => {
    // A 0.2 x 0.4 x 1.0 box of 3 kg.
    const m = 3;
    const [a, b, c] = [0.2, 0.4, 1.0];
    const I = [(m * (b * b + c * c)) / 12, (m * (a * a + c * c)) / 12, (m * (a * a + b * b)) / 12];
    expect(inertiaBox(m, [I[0], I[1], I[2], 0, 0, 0]).halfExtents.map((h) => h * 2)).toEqual([
      expect.closeTo(a, 12),
      expect.closeTo(b, 12),
      expect.closeTo(c, 12),
    ]);
    // Rotated 90° about z: Ixx and Iyy swap; a 30° rotation gives off-diagonal terms, same sides.
    const t = Math.PI / 6;
    const R = [
      [Math.cos(t), -Math.sin(t), 0],
      [Math.sin(t), Math.cos(t), 0],
      [0, 0, 1],
    ];
    const D = [I[0], I[1], I[2]];
    const J = (i: number, j: number) => R[i][0] * D[0] * R[j][0] + R[i][1] * D[1] * R[j][1] + R[i][2] * D[2] * R[j][2];
    const box = inertiaBox(m, [J(0, 0), J(1, 1), J(2, 2), J(0, 1), J(0, 2), J(1, 2)]);
    expect([...box.halfExtents].map((h) => h * 2).sort()).toEqual([expect.closeTo(a, 10), expect.closeTo(b, 10), expect.closeTo(c, 10)]);
    expect(Math.hypot(...box.quat)).toBeCloseTo(1, 12);
  });

  it('draws a shapeless link as capsules to its children plus its inertia box, and shapes as given', () => {
    const g = sceneGeometry(doublePendulum());
    expect(g.bodies[0].drawables.map((d) => d.role)).toEqual(['link', 'inertia']);
    expect(g.bodies[0].drawables[0].halfExtents[2]).toBeCloseTo(0.5, 12); // 1 m to the child's joint
    expect(g.bodies[1].drawables.map((d) => d.role)).toEqual(['inertia']); // a leaf has no child joint
    const s = sceneGeometry(shapesModel());
    expect(s.bodies[0].drawables.map((d) => d.kind)).toEqual(['sphere', 'capsule', 'box', 'rounded-box']);
    expect(s.statics.map((d) => d.kind)).toEqual(['plane']);
  });

  it("in a model with shapes, draws a shapeless link only as thin capsules to its children (ball-on-plate's roll gimbal: no 0.245 m cube)", () => {
    const model = loadScene('scenes/ball-on-plate.arow');
    const g = sceneGeometry(model);
    const roll = g.bodies[model.bodies.findIndex((b) => b.name === 'roll')];
    expect(roll.drawables).toEqual([]); // its child, the plate, hinges at its own origin: no capsule either
    // An arm whose hand alone has a shape: the shapeless links are the skeleton between joints.
    const arm = doublePendulum();
    arm.shapes = [{ ...shapesModel().shapes![0], body: 1 }];
    const a = sceneGeometry(arm);
    expect(a.bodies[0].drawables.map((d) => d.role)).toEqual(['link']);
    expect(a.bodies[0].drawables[0].radius).toBeLessThanOrEqual(0.03);
    expect(a.bodies[1].drawables.map((d) => d.role)).toEqual(['shape']);
  });

  it('draws a massless link (gimbal) as a small ball at its joint, without NaN sizes', () => {
    const m = doublePendulum();
    m.bodies[0] = { ...m.bodies[0], mass: 0, inertia: [0, 0, 0, 0, 0, 0] };
    m.bodies[1] = { ...m.bodies[1], pos: [0, 0, 0] }; // child at the same point: no capsule either
    const g = sceneGeometry(m);
    expect(g.bodies[0].drawables).toEqual([expect.objectContaining({ kind: 'sphere', radius: 0.02, role: 'link' })]);
    expect(Number.isFinite(g.reach)).toBe(true);
  });

  it('converts rotation matrices to unit quaternions on every branch', () => {
    for (const [w, x, y, z] of [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
      [0.5, -0.5, 0.5, 0.5],
    ]) {
      const m = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
      ];
      const q = quatFromMatrix(m);
      const s = Math.sign(q[0] * w + q[1] * x + q[2] * y + q[3] * z);
      expect(q.map((c) => c * s)).toEqual([expect.closeTo(w, 12), expect.closeTo(x, 12), expect.closeTo(y, 12), expect.closeTo(z, 12)]);
    }
  });
});

describe('contacts from a batch with collide()', () => {
  it("reads each robot's list: pos, normal (turned out of a world shape), dist, slot", () => {
    const model = { shapes: [{ body: -1 }, { body: 0 }, { body: 1 }] } as unknown as ModelDesc;
    const list = (a: number[], b: number[]): ContactPoints => ({
      shapeA: Int32Array.from(a),
      shapeB: Int32Array.from(b),
      point: Int32Array.from(a.map(() => 2)),
      dist: Float64Array.from(a.map(() => -0.25)),
      pos: Float64Array.from(a.flatMap(() => [7, 8, 9])),
      normal: Float64Array.from(a.flatMap(() => [0, 0.6, 0.8])),
      force: Float64Array.from(a.flatMap(() => [0, 0, 0])),
    });
    const lists = [list([], []), list([1, 2], [2, 0])];
    const c: CollidingBatch = { collide() {}, contacts: (r) => lists[r] };
    const out: number[] = [];
    robotContacts(c, model, 0, 0, out);
    expect(out).toEqual([]);
    robotContacts(c, model, 1, 5, out);
    // two moving shapes keep a → b; the world shape as shape b is turned to point out of it
    expect(out).toEqual([7, 8, 9, 0, 0.6, 0.8, -0.25, 5, 7, 8, 9, -0, -0.6, -0.8, -0.25, 5]);
  });
});

describe('recorded poses', () => {
  it('are the poses of the run itself: each frame equals the batch the run steps (8 copies, spread), to f32/int16 storage', async () => {
    const model = doublePendulum();
    const { header, bytes } = await recordRun(model, run(), 60);
    const fr = unpackFrames(bytes, header.layout);
    expect(header.frames).toBe(61);
    const batch = new Batch(model, { copies: 8, precision: 'f64', lanes: 4, integrator: 'rk4', dt: 0.002, substeps: 1 }, addon);
    applySpread(batch, 0.002);
    const S = batch.stride;
    let checked = 0;
    for (const f of [0, 30, 60]) {
      batch.step(frameSteps(500, 0.002, 60)[f] - batch.steps);
      expect(fr.times[f]).toBe(batch.time);
      const k = batch.kinematics();
      header.robots.forEach((r, j) => {
        for (let i = 0; i < 2; i++) {
          const o = (f * 3 + j) * 2 + i;
          for (let c = 0; c < 3; c++) expect(fr.pos[o * 3 + c]).toBe(Math.fround(k.pos[(i * 3 + c) * S + r]));
          const R = [0, 1, 2].map((a) => [0, 1, 2].map((b) => k.rot[(i * 9 + a * 3 + b) * S + r]));
          const q = quatFromMatrix(R);
          for (let c = 0; c < 4; c++)
            expect(Math.abs(fr.quat[o * 4 + c] / QUAT_SCALE - q[c])).toBeLessThanOrEqual(0.5 / QUAT_SCALE + 1e-12);
          checked++;
        }
      });
    }
    expect(checked).toBe(18);
    // The robots really differ (spread): robot 7's lower link is elsewhere than robot 0's by the end.
    const end = (j: number) => (60 * 3 + j) * 2 + 1;
    expect(Math.abs(fr.pos[end(2) * 3 + 1] - fr.pos[end(0) * 3 + 1])).toBeGreaterThan(1e-5);
  });

  it('packs and unpacks every section', () => {
    const f = {
      times: new Float64Array([0, 0.5]),
      pos: new Float32Array([1, 2, 3, 4, 5, 6]),
      quat: new Int16Array([QUAT_SCALE, 0, 0, 0, 0, QUAT_SCALE, 0, 0]),
      contactStart: new Uint32Array([0, 0, 1]),
      contacts: new Float32Array([0, 0, 0, 0, 0, 1, -0.01, 0]),
    };
    const { bytes, layout } = packFrames(f);
    const back = unpackFrames(bytes.slice(), layout);
    for (const k of Object.keys(f) as (keyof typeof f)[]) expect(Array.from(back[k])).toEqual(Array.from(f[k]));
  });

  it('a 60 s, 30-body, 60 fps replay page stays under 5 MB', async () => {
    const frames = frameSteps(60000, 0.001, 60).length;
    const bodies = 30;
    const f = {
      times: new Float64Array(frames),
      pos: new Float32Array(frames * bodies * 3).map((_, i) => Math.sin(i)),
      quat: new Int16Array(frames * bodies * 4).map((_, i) => (i * 7919) % 32768),
      contactStart: new Uint32Array(frames + 1),
      contacts: new Float32Array(0),
    };
    const { bytes, layout } = packFrames(f);
    const { header } = await recordRun(doublePendulum(), run({ steps: 5, robots: [0] }), 60);
    const html = await replayHtml({ ...header, frames, nbody: bodies, layout, bytes: bytes.byteLength } as ReplayHeader, bytes);
    const mb = Buffer.byteLength(html) / 1e6;
    expect(mb).toBeLessThan(5);
    expect(mb).toBeGreaterThan(3); // the poses really are in it
    expect(html).not.toMatch(/<script[^>]+src=|https?:\/\/(?!www\.w3\.org)/); // nothing fetched from elsewhere
  });
});
