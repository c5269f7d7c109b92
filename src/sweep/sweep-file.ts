// SWEEP.yaml: what a sweep runs and keeps. Read with the scene reader's positioned YAML readers,
// so every mistake is FILE:LINE:COL with what was found and what was expected. Names that need
// the scene (coordinates, the body whose height is kept) are checked later, against the loaded
// model (resolve.ts), at the same positions.
//
//   sweep: quadruped-drop              name (of the output directory, the charts)
//   scene: ../quadruped.arow           relative to this file
//   robots: 64                         robots 0..63
//   seed: 7                            every draw is a hash of (seed, robot, parameter)
//   duration: 1.5                      s (default: the scene's); also dt, integrator, precision
//   shards: 4                          the split for --emit and local runs (default: one per batch)
//   batch: 1024                        at most this many robots stepped at once (memory)
//   randomize:
//     initial:                         per-robot initial coordinates (q:NAME) and velocities (v:NAME),
//       q:torso.z: { uniform: [0.3, 0.6] }      named as trace.csv names its columns
//       v:torso.vy: { normal: [0, 0.5] }        [mean, std]
//       v:torso.wz: { log_uniform: [0.01, 1] }  [low, high], low > 0
//     model:                           per-robot model parameters (src/params/names.ts), same distributions
//       mass_scale:torso: { uniform: [0.8, 1.2] }   mass and inertia times s
//       friction:ground: { uniform: [0.5, 1.2] }    a shape's sliding friction
//       gravity.z: { normal: [-9.81, 0.05] }
//   keep:
//     final: true                      every robot's final q and v
//     metrics: [fell, height, energy, contacts]   (default: all; fell only with fall_height)
//     body: torso                      whose height `height` and `fell` follow (default: the first link)
//     fall_height: 0.12                `fell`: the body went below this (m) at a sampled step
//     every: 10                        steps between metric samples (default: about 100 samples)
//     traces: { robots: [0, 1], every: 10 }

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { isScalar, isSeq } from 'yaml';
import { PRECISIONS, type Precision } from '../engine/api.js';
import { INTEGRATORS, type IntegratorName } from '../engine/model-desc.js';
import { WORLD_LIMITS } from '../engine/world-limits.js';
import {
  checkKeys,
  describe,
  entries,
  notAYamlFile,
  parseYamlFile,
  readEnum,
  readInt,
  readLimited,
  readNumber,
  readString,
  type Ctx,
  type YNode,
} from '../model-files/scene/yaml-read.js';
import { MAX_ROBOTS } from '../params/draws.js';
import { parseParameterName } from '../params/names.js';
import {
  readInitialDraws,
  readModelDraws,
  type At,
  type DeclaredModelDraw,
  type InitialDraw,
} from '../model-files/scene/randomize-read.js';
import { controlCharacter } from './one-line.js';
import { brief } from '../util/brief.js';

export const METRICS = ['fell', 'height', 'energy', 'contacts'] as const;
export type MetricName = (typeof METRICS)[number];

/** Where a name that needs the scene was written, to report it there once the scene is loaded. */
export type { At };

export interface Keep {
  final: boolean;
  metrics: MetricName[];
  body?: { name: string; at: At };
  fallHeight?: number;
  every?: number;
  traces?: { robots: number[]; every?: number; at: At };
}

export interface SweepFile {
  /** The path as given, and its name and sha256 (the provenance: where the results came from). */
  file: string;
  fileName: string;
  sha256: string;
  name: string;
  /** The scene, resolved against the sweep file's folder, and where the file names it. */
  scene: string;
  sceneAt: At;
  robots: number;
  seed: number;
  duration?: number;
  dt?: number;
  integrator?: IntegratorName;
  precision: Precision;
  shards?: number;
  batch: number;
  initial: InitialDraw[];
  /** Per-robot model parameters (src/params/names.ts), checked against the scene by planSweep. */
  model: DeclaredModelDraw[];
  keep: Keep;
  /** The root mapping's position, for errors about the file as a whole. */
  at: At;
}

export const SWEEP_KEYS = [
  'sweep',
  'scene',
  'robots',
  'seed',
  'duration',
  'dt',
  'integrator',
  'precision',
  'shards',
  'batch',
  'randomize',
  'keep',
] as const;
const RANDOMIZE_KEYS = ['initial', 'model'] as const;
const KEEP_KEYS = ['final', 'metrics', 'body', 'fall_height', 'every', 'traces'] as const;
const TRACE_KEYS = ['robots', 'every'] as const;

export const DEFAULT_BATCH = 1024;
const MAX_SHARDS = 100_000;

function readBool(ctx: Ctx, node: YNode, subject: string): boolean {
  if (!isScalar(node) || typeof node.value !== 'boolean') ctx.fail(node, subject, describe(node), 'true or false');
  return node.value as boolean;
}

function readMetrics(ctx: Ctx, node: YNode, subject: string): MetricName[] {
  if (!isSeq(node)) ctx.fail(node, subject, describe(node), `a list of metrics (${METRICS.join(', ')})`);
  const names = node.items.map((it, i) => readEnum(ctx, it as YNode, `${subject}[${i}]`, METRICS));
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) ctx.fail(node.items[names.lastIndexOf(dup)] as YNode, subject, `\`${dup}\` twice`, 'each metric once');
  return names;
}

function readKeep(ctx: Ctx, node: YNode): Keep {
  // Default: every metric (`fell` only with a fall_height to judge it by).
  const keep: Keep = { final: true, metrics: METRICS.filter((m) => m !== 'fell') };
  if (node == null) return keep;
  const m = entries(ctx, node, 'keep');
  checkKeys(ctx, node, m, 'keep', KEEP_KEYS);
  const final = m.get('final');
  if (final) keep.final = readBool(ctx, final.value, 'keep.final');
  const metrics = m.get('metrics');
  if (metrics) keep.metrics = readMetrics(ctx, metrics.value, 'keep.metrics');
  const body = m.get('body');
  if (body) keep.body = { name: readString(ctx, body.value, 'keep.body'), at: { ctx, node: body.value, subject: 'keep.body' } };
  const fall = m.get('fall_height');
  if (fall) keep.fallHeight = readNumber(ctx, fall.value, 'keep.fall_height');
  if (fall && !metrics) keep.metrics = [...METRICS];
  if (keep.metrics.includes('fell') && keep.fallHeight === undefined)
    ctx.fail(
      metrics?.value ?? node,
      'keep.metrics',
      '`fell` without `fall_height`',
      'keep.fall_height: the height (m) below which the body counts as fallen',
    );
  const every = m.get('every');
  if (every) keep.every = readInt(ctx, every.value, 'keep.every', 1);
  const traces = m.get('traces');
  if (traces) {
    const t = entries(ctx, traces.value, 'keep.traces');
    checkKeys(ctx, traces.value, t, 'keep.traces', TRACE_KEYS, ['robots']);
    const list = t.get('robots')!.value;
    if (!isSeq(list)) ctx.fail(list, 'keep.traces.robots', describe(list), 'a list of robot indices, e.g. [0, 1]');
    const robots = list.items.map((it, i) => readInt(ctx, it as YNode, `keep.traces.robots[${i}]`, 0));
    const te = t.get('every');
    keep.traces = {
      robots: [...new Set(robots)].sort((a, b) => a - b),
      ...(te ? { every: readInt(ctx, te.value, 'keep.traces.every', 1) } : {}),
      at: { ctx, node: list, subject: 'keep.traces.robots' },
    };
  }
  return keep;
}

/** The sweep's name: one line without control characters, since it is written into comment lines of
 *  the jobs --emit writes and of the CSV headers, where a newline would end the comment and what
 *  follows it would run as a command (or be read as data). */
function readName(ctx: Ctx, node: YNode): string {
  const name = readString(ctx, node, 'sweep');
  const c = controlCharacter(name);
  if (c)
    ctx.fail(
      node,
      'sweep',
      `a name holding ${c.what} at character ${c.at}`,
      'a name on one line, without control characters',
      'the name is written into the comment lines of the jobs --emit writes and of the CSV headers',
    );
  return name;
}

/** Reads and checks a sweep file (everything that does not need the scene). */
export function readSweepFile(file: string): SweepFile {
  const pf = parseYamlFile(file);
  const notSweep = notAYamlFile(
    pf,
    'sweep file',
    ['sweep', 'scene', 'robots'],
    'a sweep file: a mapping with `sweep`, `scene` and `robots`',
  );
  if (notSweep) throw notSweep;
  const { ctx, root } = pf;
  const top = entries(ctx, root, 'sweep file');
  checkKeys(ctx, root, top, 'sweep file', SWEEP_KEYS, ['sweep', 'scene', 'robots']);
  const get = (k: (typeof SWEEP_KEYS)[number]): YNode => top.get(k)?.value;
  const name = readName(ctx, get('sweep'));
  const scene = resolve(dirname(file), readString(ctx, get('scene'), 'scene'));
  if (!isFile(scene))
    ctx.fail(
      get('scene'),
      'scene',
      `${brief(scene)}, which is not a file`,
      'a scene file (.arow, MJCF or URDF), relative to the sweep file',
    );
  const robots = readInt(ctx, get('robots'), 'robots', 1);
  if (robots > MAX_ROBOTS) ctx.fail(get('robots'), 'robots', `${robots}`, `at most ${MAX_ROBOTS}`);
  const seedNode = get('seed');
  const seed = seedNode === undefined ? 0 : readInt(ctx, seedNode, 'seed', 0);
  if (seed > 0xffffffff) ctx.fail(seedNode, 'seed', `${seed}`, 'an integer from 0 to 4294967295');
  const out: SweepFile = {
    file,
    fileName: basename(file),
    sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    name,
    scene,
    sceneAt: { ctx, node: get('scene'), subject: 'scene' },
    robots,
    seed,
    precision: top.has('precision') ? readEnum<Precision>(ctx, get('precision'), 'precision', PRECISIONS) : 'f64',
    batch: top.has('batch') ? readInt(ctx, get('batch'), 'batch', 1) : DEFAULT_BATCH,
    initial: [],
    model: [],
    keep: readKeep(ctx, get('keep')),
    at: { ctx, node: root, subject: 'sweep file' },
  };
  if (top.has('duration')) out.duration = readLimited(ctx, get('duration'), 'duration', WORLD_LIMITS.duration);
  if (top.has('dt')) out.dt = readLimited(ctx, get('dt'), 'dt', WORLD_LIMITS.dt);
  if (top.has('integrator')) out.integrator = readEnum<IntegratorName>(ctx, get('integrator'), 'integrator', INTEGRATORS);
  if (top.has('shards')) {
    out.shards = readInt(ctx, get('shards'), 'shards', 1);
    if (out.shards > MAX_SHARDS) ctx.fail(get('shards'), 'shards', `${out.shards}`, `at most ${MAX_SHARDS}`);
  }
  if (out.batch > 1 << 24) ctx.fail(get('batch'), 'batch', `${out.batch}`, `at most ${1 << 24} robots (one batch)`);
  const rand = top.get('randomize');
  if (rand && rand.value != null) {
    const r = entries(ctx, rand.value, 'randomize');
    for (const e of r.values()) {
      if (!(RANDOMIZE_KEYS as readonly string[]).includes(e.key) && !('found' in parseParameterName(e.key)))
        ctx.fail(
          e.keyNode,
          `randomize.${e.key}`,
          `the model parameter \`${e.key}\` directly under randomize`,
          'initial: or model:',
          `write it under randomize.model`,
        );
    }
    checkKeys(ctx, rand.value, r, 'randomize', RANDOMIZE_KEYS);
    const model = r.get('model');
    if (model) out.model = readModelDraws(ctx, model.value, 'randomize.model');
    const initial = r.get('initial');
    if (initial) out.initial = readInitialDraws(ctx, initial.value, 'randomize.initial');
  }
  return out;
}

/** A regular file at `path` (a path under a file, ENOTDIR, or too long, ENAMETOOLONG, is none). */
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}
