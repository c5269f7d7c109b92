// A shard's files on disk: OUT/shards/shard-I-of-N/ holds results.csv, traces.csv (when robots are
// traced) and shard.json, written as one set (all or nothing), so a shard whose shard.json is there
// is complete. shard.json says which sweep (its hash), which robots, what ran it where, and each
// file's sha256 and size as the shard wrote it, so merge can tell a file changed since.
//
// Shard files are read as the scene loader reads files (model-files/common/text-file.ts): opened
// without blocking and checked with fstat to be regular files (a FIFO would block forever,
// /dev/zero would grow without end), and never read past a cap. Symbolic links are followed, as
// the scene loader follows them: shards copied or linked in from a cluster's scratch space are an
// everyday layout, and what a link points at is judged for itself (a regular file, within the
// cap, whose bytes hash to what the shard recorded), so a link to a device or a FIFO is refused
// for what it is.

import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { openOutput } from '../reports/output-dir.js';
import { csvHeader, sidecarJson, type MetaValue } from '../reports/csv.js';
import { MAX_SCENE_BYTES } from '../model-files/common/text-file.js';
import { kindOf, unreadableText } from '../util/file-words.js';
import { achillesVersion } from '../util/version.js';
import { parseShardName, shardName, type Shard } from './shards.js';

export const SHARDS_DIR = 'shards';
export const SHARD_JSON = 'shard.json';
export const RESULTS_CSV = 'results.csv';
export const TRACES_CSV = 'traces.csv';

/** The largest shard.json read. Its fields are fixed; its strings are the sweep's name (from the
 *  sweep file, itself at most MAX_SCENE_BYTES), hashes, a version, a host name (at most 255 bytes),
 *  a date and file names; JSON writes a character in at most 6 bytes (\u0001). */
export const SHARD_JSON_MAX_BYTES = 6 * MAX_SCENE_BYTES + 64 * 1024;

export interface ShardRecord {
  sweep: string;
  sweep_sha256: string;
  scene_sha256: string;
  achilles: string;
  shard: Shard;
  robots: { first: number; end: number };
  files: string[];
  /** Each file's sha256 (hex) and size, as the shard wrote it: merge refuses a file changed since. */
  sha256: Record<string, string>;
  bytes: Record<string, number>;
  /** What ran it (never part of the results: they do not depend on it). */
  ran: { host: string; date: string; node: string; lanes: number; isa: string; threads: number; batch: number; seconds: number };
}

export function shardDir(out: string, s: Shard): string {
  return join(out, SHARDS_DIR, shardName(s));
}

/** Why a file cannot be read; `absent` when there is simply nothing at the path. */
export interface FileProblem {
  problem: string;
  absent?: boolean;
  /** Something other than a regular file is there (a directory, a FIFO, a device): to remove. */
  notRegular?: boolean;
}

/** A file opened by withRegularFile: its descriptor and the size fstat gave (0 for /proc files). */
export interface OpenFile {
  fd: number;
  size: number;
}

function unreadable(e: NodeJS.ErrnoException): FileProblem {
  return { problem: unreadableText(e), ...(e.code === 'ENOENT' ? { absent: true } : {}) };
}

/** " (a symbolic link to /dev/zero)" when `file` is a link, else "". */
function linkedFrom(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? ` (a symbolic link to ${readlinkSync(file)})` : '';
  } catch {
    return '';
  }
}

/**
 * Opens `file` as the scene loader opens files (symbolic links followed; O_NONBLOCK, so a FIFO
 * with no writer does not wait for one), checks with fstat that it is a regular file, and hands it
 * to `use`; closes it after. A problem says why the file is not one to read.
 */
export function withRegularFile<T extends object>(file: string, use: (f: OpenFile) => T | FileProblem): T | FileProblem {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return unreadable(e as NodeJS.ErrnoException);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { problem: `${kindOf(st)}${linkedFrom(file)}, not a regular file`, notRegular: true };
    return use({ fd, size: st.size });
  } catch (e) {
    // A read that fails (EIO) is the file's problem; anything else is `use`'s own to pass on.
    if (typeof (e as NodeJS.ErrnoException).code === 'string' && (e as NodeJS.ErrnoException).syscall)
      return unreadable(e as NodeJS.ErrnoException);
    throw e;
  } finally {
    closeSync(fd);
  }
}

/** The file's bytes from the start, at most `max` of them (fewer when it is shorter). */
export function readPrefix(f: OpenFile, max: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < max) {
    const buf = Buffer.allocUnsafe(Math.min(1 << 20, max - total));
    const n = readSync(f.fd, buf, 0, buf.length, total);
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/** The whole file, or null when it holds more than `cap` bytes. Read to the cap + 1 whatever fstat
 *  said: /proc files report size 0, and a file may grow while it is read. */
export function readAtMost(f: OpenFile, cap: number): Buffer | null {
  const bytes = readPrefix(f, cap + 1);
  return bytes.length > cap ? null : bytes;
}

/** "3.4 MiB", "512 bytes". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

/** Why a parsed shard.json is not a record this version writes, or null. `files` must be what a
 *  shard writes (never a path of its own choosing), each with its sha256 and size. */
function recordProblem(r: unknown): string | null {
  if (!isObject(r)) return 'not a JSON object';
  if (typeof r.sweep !== 'string' || typeof r.achilles !== 'string') return '`sweep` or `achilles` is not a string';
  for (const k of ['sweep_sha256', 'scene_sha256']) if (!SHA256_HEX.test(String(r[k]))) return `\`${k}\` is not a sha256`;
  const s = r.shard;
  if (!isObject(s) || !isCount(s.index) || !isCount(s.count) || s.index >= s.count) return '`shard` is not {index, count}';
  const robots = r.robots;
  if (!isObject(robots) || !isCount(robots.first) || !isCount(robots.end) || robots.first >= robots.end)
    return '`robots` is not {first, end} with first < end';
  const files = r.files;
  if (!Array.isArray(files) || files[0] !== RESULTS_CSV || files.length > 2 || (files.length === 2 && files[1] !== TRACES_CSV))
    return `\`files\` is not ["${RESULTS_CSV}"] or ["${RESULTS_CSV}", "${TRACES_CSV}"]`;
  for (const f of files as string[]) {
    if (!isObject(r.sha256) || !SHA256_HEX.test(String(r.sha256[f])) || !isObject(r.bytes) || !isCount(r.bytes[f]))
      return `it records no sha256 and size of ${f} (written by an achilles that did not record them, or edited)`;
  }
  return null;
}

/** The shard's record; `absent` when it has none (never run, or not finished); a problem when its
 *  shard.json is there but is no file to read or no record this version writes. */
export function loadShardRecord(dir: string): { record: ShardRecord } | FileProblem {
  const file = join(dir, SHARD_JSON);
  const read = withRegularFile<{ bytes: Buffer }>(file, (f) => {
    if (f.size > SHARD_JSON_MAX_BYTES) return { problem: `${sizeText(f.size)}, more than a shard record holds` };
    const bytes = readAtMost(f, SHARD_JSON_MAX_BYTES);
    return bytes ? { bytes } : { problem: `more than ${sizeText(SHARD_JSON_MAX_BYTES)}, more than a shard record holds` };
  });
  if ('problem' in read) return read;
  let r: unknown;
  try {
    r = JSON.parse(read.bytes.toString('utf8'));
  } catch (e) {
    return { problem: `not JSON (${(e as Error).message})` };
  }
  const problem = recordProblem(r);
  return problem ? { problem } : { record: r as ShardRecord };
}

/** The shard's record, or null when it has none (never run, not finished, or unreadable: then
 *  the shard is run again). */
export function readShardRecord(dir: string): ShardRecord | null {
  const r = loadShardRecord(dir);
  return 'record' in r ? r.record : null;
}

/** Whether shard `s` of this very sweep (same sweep and scene files, same version) is done in `out`. */
export function shardState(out: string, s: Shard, sweepSha: string, sceneSha: string): 'done' | 'absent' | 'other' {
  const r = readShardRecord(shardDir(out, s));
  if (!r) return 'absent';
  return r.sweep_sha256 === sweepSha && r.scene_sha256 === sceneSha && r.achilles === achillesVersion() ? 'done' : 'other';
}

/** The shards with a shard.json in `out`, by shard count: finished ones, and records merge will
 *  name as broken (only looked at here, never opened: a FIFO there must not block the listing). */
export function shardsOnDisk(out: string): Map<number, Shard[]> {
  const byCount = new Map<number, Shard[]>();
  let names: string[];
  try {
    names = readdirSync(join(out, SHARDS_DIR));
  } catch {
    return byCount;
  }
  for (const name of names.sort()) {
    const s = parseShardName(name);
    if (!s || !lstatSync(join(out, SHARDS_DIR, name, SHARD_JSON), { throwIfNoEntry: false })) continue;
    (byCount.get(s.count) ?? byCount.set(s.count, []).get(s.count)!).push(s);
  }
  return byCount;
}

export interface ShardOutput {
  shard: Shard;
  robots: { first: number; end: number };
  meta: Record<string, MetaValue>;
  resultColumns: string[];
  /** The rows as CSV text (run-robots.ts), written under the header. */
  results: string;
  traceColumns?: string[];
  traces?: string;
  sweepName: string;
  sweepSha256: string;
  sceneSha256: string;
  ran: ShardRecord['ran'];
}

/** Each file's sha256 and size, for shard.json. */
function digests(files: Map<string, Buffer>): Pick<ShardRecord, 'sha256' | 'bytes'> {
  const sha256: Record<string, string> = {};
  const bytes: Record<string, number> = {};
  for (const [name, data] of files) {
    sha256[name] = createHash('sha256').update(data).digest('hex');
    bytes[name] = data.length;
  }
  return { sha256, bytes };
}

/** Writes the shard's files as one set into OUT/shards/shard-I-of-N/ (replacing an earlier run of it). */
export async function writeShard(out: string, o: ShardOutput, force: boolean): Promise<string> {
  const dir = shardDir(out, o.shard);
  const set = await openOutput(dir, { command: 'sweep', force });
  try {
    // The very bytes written are the ones hashed.
    const files = new Map<string, Buffer>([[RESULTS_CSV, Buffer.from(csvHeader(o.resultColumns, o.meta) + o.results, 'utf8')]]);
    if (o.traceColumns) files.set(TRACES_CSV, Buffer.from(csvHeader(o.traceColumns, o.meta) + (o.traces ?? ''), 'utf8'));
    for (const [name, data] of files) await set.write(name, data);
    const record: ShardRecord = {
      sweep: o.sweepName,
      sweep_sha256: o.sweepSha256,
      scene_sha256: o.sceneSha256,
      achilles: achillesVersion(),
      shard: o.shard,
      robots: o.robots,
      files: [...files.keys()],
      ...digests(files),
      ran: o.ran,
    };
    // Last: a shard.json means the shard is whole (the set commits every file together anyway).
    await set.write(SHARD_JSON, sidecarJson(record));
    await set.commit();
  } finally {
    if (set.status === 'open') set.abortSync();
  }
  return dir;
}

export function runInfo(lanes: number, isa: string, threads: number, batch: number, seconds: number): ShardRecord['ran'] {
  return { host: hostname(), date: new Date().toISOString(), node: process.version, lanes, isa, threads, batch, seconds };
}
