// A shard's files on disk: OUT/shards/shard-I-of-N/ holds results.csv, traces.csv (when robots are
// traced) and shard.json, written as one set (all or nothing), so a shard whose shard.json is there
// is complete. shard.json says which sweep (its hash), which robots, and what ran it where.

import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { openOutput } from '../reports/output-dir.js';
import { csvHeader, sidecarJson, type MetaValue } from '../reports/csv.js';
import { achillesVersion } from '../util/version.js';
import { parseShardName, shardName, type Shard } from './shards.js';

export const SHARDS_DIR = 'shards';
export const SHARD_JSON = 'shard.json';
export const RESULTS_CSV = 'results.csv';
export const TRACES_CSV = 'traces.csv';

export interface ShardRecord {
  sweep: string;
  sweep_sha256: string;
  scene_sha256: string;
  achilles: string;
  shard: Shard;
  robots: { first: number; end: number };
  files: string[];
  /** What ran it (never part of the results: they do not depend on it). */
  ran: { host: string; date: string; node: string; lanes: number; isa: string; threads: number; batch: number; seconds: number };
}

export function shardDir(out: string, s: Shard): string {
  return join(out, SHARDS_DIR, shardName(s));
}

/** The shard's record, or null when it has none (never run, or not finished). */
export function readShardRecord(dir: string): ShardRecord | null {
  try {
    const r = JSON.parse(readFileSync(join(dir, SHARD_JSON), 'utf8')) as ShardRecord;
    return typeof r.sweep_sha256 === 'string' && r.shard && r.robots ? r : null;
  } catch {
    return null;
  }
}

/** Whether shard `s` of this very sweep (same sweep and scene files, same version) is done in `out`. */
export function shardState(out: string, s: Shard, sweepSha: string, sceneSha: string): 'done' | 'absent' | 'other' {
  const r = readShardRecord(shardDir(out, s));
  if (!r) return 'absent';
  return r.sweep_sha256 === sweepSha && r.scene_sha256 === sceneSha && r.achilles === achillesVersion() ? 'done' : 'other';
}

/** The shards with a record in `out`, by shard count. */
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
    if (!s || !readShardRecord(join(out, SHARDS_DIR, name))) continue;
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

/** Writes the shard's files as one set into OUT/shards/shard-I-of-N/ (replacing an earlier run of it). */
export async function writeShard(out: string, o: ShardOutput, force: boolean): Promise<string> {
  const dir = shardDir(out, o.shard);
  const set = await openOutput(dir, { command: 'sweep', force });
  try {
    const files = [RESULTS_CSV];
    await set.write(RESULTS_CSV, csvHeader(o.resultColumns, o.meta) + o.results);
    if (o.traceColumns) {
      files.push(TRACES_CSV);
      await set.write(TRACES_CSV, csvHeader(o.traceColumns, o.meta) + (o.traces ?? ''));
    }
    const record: ShardRecord = {
      sweep: o.sweepName,
      sweep_sha256: o.sweepSha256,
      scene_sha256: o.sceneSha256,
      achilles: achillesVersion(),
      shard: o.shard,
      robots: o.robots,
      files,
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
