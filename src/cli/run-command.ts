// `achilles run`: the flag table. The work lives in src/run/ and is imported only when the
// command runs, so `--help` and `docs` don't pay for loading the engine and the chart renderer.

import { largeModelOption } from './large-model-option.js';
import { LANE_WIDTHS, PRECISIONS, type LaneWidth, type Precision } from '../engine/api.js';
import { INTEGRATORS, type IntegratorName } from '../engine/model-desc.js';
import { WORLD_LIMITS } from '../engine/world-limits.js';
import type { CommandSpec } from '../util/command-spec.js';
import { UsageError } from '../util/usage-error.js';

export const runCommand: CommandSpec = {
  name: 'run',
  summary:
    "Simulate a scene headless and record the chosen robots: trace.csv (time, every coordinate's position, velocity and acceleration, energies), run.json, and charts of joint positions and energy drift.",
  positionals: [
    { name: 'scene', description: 'the scene file: .arow, or an MJCF (.xml) or URDF model (recognised by content)', required: true },
  ],
  options: [
    {
      name: 'config',
      arg: 'FILE',
      kind: { type: 'string' },
      description: 'A sim_config.yaml whose settings override the scene world settings.',
    },
    {
      name: 'integrator',
      arg: 'NAME',
      kind: { type: 'choice', choices: INTEGRATORS },
      defaultText: "the scene's",
      description: 'Integration scheme.',
    },
    {
      name: 'dt',
      arg: 'S',
      kind: { type: 'number', ...WORLD_LIMITS.dt },
      defaultText: "the scene's",
      description: 'Time step in seconds.',
    },
    {
      name: 'duration',
      arg: 'S',
      kind: { type: 'number', ...WORLD_LIMITS.duration },
      defaultText: "the scene's",
      description: 'Simulated time in seconds, rounded to a whole number of steps.',
    },
    {
      name: 'substeps',
      arg: 'N',
      kind: { type: 'number', ...WORLD_LIMITS.substeps },
      defaultText: "the scene's",
      description: 'Split each step into N equal substeps.',
    },
    {
      name: 'copies',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 1, max: 16777216 },
      default: 1,
      description: 'Number of robots stepped together, one per SIMD lane.',
    },
    {
      name: 'precision',
      arg: 'P',
      kind: { type: 'choice', choices: PRECISIONS },
      default: 'f64',
      description: 'Floating-point precision of the state (f64 by default: a trace is for reading, not for speed).',
    },
    {
      name: 'lanes',
      arg: 'W',
      kind: { type: 'choice', choices: LANE_WIDTHS.map(String) },
      defaultText: 'smallest width >= copies, at most one register of the CPU (16 in f32 and 8 in f64 with AVX-512)',
      description:
        'SIMD width: 1 is scalar; 4, 8, 16 need SSE2, AVX2, AVX-512 in f32 and AVX2, AVX-512, AVX-512 in f64. Results are bit-identical for every width; wider than the number of copies only adds idle lanes.',
    },
    {
      name: 'threads',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 1, max: 256 },
      default: 1,
      description: 'Worker threads (each steps whole SIMD blocks; results do not depend on it).',
    },
    {
      name: 'robots',
      arg: 'LIST',
      kind: { type: 'list-number', integer: true, min: 0 },
      default: [0],
      description: 'Robots to record, e.g. 0,3 (0-based, each < copies).',
    },
    {
      name: 'out',
      arg: 'DIR',
      kind: { type: 'string' },
      defaultText: 'reports/run/SCENE-INTEGRATOR-PRECISION',
      description: 'Output directory (files appear together at the end, or not at all).',
    },
    {
      name: 'force',
      kind: { type: 'boolean' },
      description:
        'Write into an --out directory that holds files achilles did not write (they are left as they are). Without it such a directory is refused.',
    },
    {
      name: 'record',
      arg: 'EVERY',
      kind: { type: 'number', integer: true, min: 1 },
      defaultText: 'about 1000 records per run',
      description: 'Record every EVERY steps (the first and last states are always recorded).',
    },
    {
      name: 'spread',
      arg: 'RAD',
      kind: { type: 'number', min: 0 },
      default: 0,
      description:
        'Offset the revolute/prismatic coordinates of robots 1.. by a fixed pseudo-random amount in [-RAD, RAD) (robot 0 stays exact).',
    },
    {
      name: 'html',
      kind: { type: 'boolean' },
      default: false,
      description:
        'Also write replay.html, a self-contained 3-D replay of the recorded robots (opens offline in any browser), with its data (replay.json, replay.bin) for `achilles view`.',
    },
    {
      name: 'controller',
      arg: 'FILE',
      kind: { type: 'string' },
      defaultText: "the scene's built-in PD `controller:`, if any",
      description:
        "A controller module (.ts or .js) called before every step (or at its `rate`) with views of the whole batch (time, q, v, sensor readings) that writes every robot's controls; replaces the scene's controller. The module's code runs in this process.",
    },
    {
      name: 'allow-controller',
      kind: { type: 'boolean' },
      description:
        "Run the scene's own `controller:` module (.ts or .js: code, run in this process). Without it a scene that names a module is refused, so opening a scene never runs its code (achilles' own bundled scenes excepted); a built-in PD controller (data) runs either way.",
    },
    {
      name: 'policy',
      arg: 'FILE',
      kind: { type: 'string' },
      description:
        "A trained policy (.onnx, run by onnxruntime-node) as the controller, with --task: every env step it observes each robot as the task does and its actions are held for the task's frame skip; the run reports each robot's return and whether the task terminated (examples/ppo.py exports one).",
    },
    {
      name: 'task',
      arg: 'ENV',
      kind: { type: 'string' },
      description:
        'With --policy: the Gymnasium task (tasks/gymnasium/ENV.json: InvertedPendulum-v5, Hopper-v5, ...) whose observation the policy reads and whose reward and termination the run reports; the duration defaults to its episode (max_episode_steps env steps: 1000; 50 for Reacher-v5, 100 for Pusher-v5).',
    },
    {
      name: 'fps',
      arg: 'N',
      kind: { type: 'number', min: 1, max: 1000 },
      defaultText: '60',
      description:
        'With --html: frames per second of the replay (independent of dt; lowered, with a note in the page, when the poses would pass about 3 MB).',
    },
    {
      name: 'keyframe',
      arg: 'NAME',
      kind: { type: 'string' },
      defaultText: "qpos0, as MuJoCo's mj_resetData",
      description:
        "Start an MJCF model from its keyframe NAME (or 0-based index), as MuJoCo's mj_resetDataKeyframe: qpos and qvel (time and ctrl are listed as not applied).",
    },
    {
      name: 'seed',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 0, max: 4294967295 },
      default: 0,
      description:
        "Seed of the scene's sensor noise: robot r draws from its own stream of (seed, r), so a run is reproducible from it whatever --copies, --lanes or --threads.",
    },
    largeModelOption,
  ],
  examples: [
    'achilles run scenes/double-pendulum.arow',
    'achilles run scenes/double-pendulum.arow --integrator rk4 --dt 0.001 --duration 5',
    'achilles run scenes/double-pendulum.arow --copies 8 --robots 0,1,2,3,4,5,6,7 --spread 0.002 --html',
    'achilles run scenes/arm7.arow --copies 64 --robots 0,1,2 --spread 0.01 --precision f32 --out reports/arm7',
    'achilles run test/fixtures/import/urdf-arm.urdf --duration 2   # MJCF and URDF run directly',
    'achilles run scenes/ball-on-plate.arow --allow-controller --html',
  ],
  async run([scene], opts) {
    if (opts.fps !== undefined && opts.html !== true) throw new UsageError('--fps: sets the replay frame rate, so it needs --html', 'run');
    const { runScene } = await import('../run/index.js');
    return runScene(scene, {
      config: opts.config as string | undefined,
      integrator: opts.integrator as IntegratorName | undefined,
      dt: opts.dt as number | undefined,
      duration: opts.duration as number | undefined,
      substeps: opts.substeps as number | undefined,
      copies: opts.copies as number | undefined,
      precision: opts.precision as Precision | undefined,
      lanes: opts.lanes === undefined ? undefined : (Number(opts.lanes) as LaneWidth),
      threads: opts.threads as number | undefined,
      robots: opts.robots as number[] | undefined,
      out: opts.out as string | undefined,
      force: opts.force === true,
      record: opts.record as number | undefined,
      spread: opts.spread as number | undefined,
      html: opts.html as boolean | undefined,
      fps: opts.fps as number | undefined,
      seed: opts.seed as number | undefined,
      controller: opts.controller as string | undefined,
      allowController: opts['allow-controller'] === true,
      keyframe: opts.keyframe as string | undefined,
      policy: opts.policy as string | undefined,
      task: opts.task as string | undefined,
      yes: opts.yes === true,
    });
  },
};
