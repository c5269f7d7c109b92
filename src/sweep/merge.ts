// `achilles sweep merge DIR`: the shards of one split, put together. Every shard of a sweep writes
// the same header (provenance.ts) and its robots' rows in robot order, and shard i holds the robots
// just before shard i + 1's, so the merged file is the header once and the shards' rows in shard
// order: byte for byte the file the unsharded run writes. Shards that are missing are named, and
// nothing is written until they are all there.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openOutput } from '../reports/output-dir.js';
import { sidecarJson } from '../reports/csv.js';
import { writeChart } from '../reports/render.js';
import { parseResults, summarizeResults, sweepCharts } from './charts.js';
import { readShardRecord, RESULTS_CSV, shardDir, shardsOnDisk, SHARDS_DIR, type ShardRecord } from './shard-files.js';
import { shardName, shardRange, type Shard } from './shards.js';

const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

export class SweepMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SweepMergeError';
  }
}

export interface MergeResult {
  dir: string;
  files: string[];
  summary: ReturnType<typeof summarizeResults>;
  count: number;
}

/** The header (`#` lines and the column line) and the rows of a CSV text we wrote. */
function split(text: string, what: string): { header: string; body: string; rows: number } {
  let at = 0;
  while (text.startsWith('#', at)) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) throw new SweepMergeError(`${what} has no column line`);
    at = nl + 1;
  }
  const headEnd = text.indexOf('\n', at) + 1;
  if (headEnd <= 0) throw new SweepMergeError(`${what} has no column line`);
  const body = text.slice(headEnd);
  if (body !== '' && !body.endsWith('\n')) throw new SweepMergeError(`${what} does not end with a whole line`);
  return { header: text.slice(0, headEnd), body, rows: body === '' ? 0 : body.split('\n').length - 1 };
}

/** Which split to merge: the one asked for, or the only one there. */
function chooseCount(dir: string, asked: number | undefined): number {
  const onDisk = shardsOnDisk(dir);
  if (asked !== undefined) return asked;
  if (onDisk.size === 0) throw new SweepMergeError(`${dir} holds no finished shards (looked in ${join(dir, SHARDS_DIR)})`);
  if (onDisk.size > 1) {
    const counts = [...onDisk.keys()].sort((a, b) => a - b);
    throw new SweepMergeError(
      `${join(dir, SHARDS_DIR)} holds shards of ${counts.length} splits (into ${counts.join(', ')} shards); pass --shards N to say which to merge`,
    );
  }
  return [...onDisk.keys()][0];
}

export async function mergeSweep(dir: string, o: { shards?: number; force?: boolean }): Promise<MergeResult> {
  const count = chooseCount(dir, o.shards);
  const shards: Shard[] = Array.from({ length: count }, (_, index) => ({ index, count }));
  const records = shards.map((s) => readShardRecord(shardDir(dir, s)));
  const missing = shards.filter((_, i) => !records[i]);
  if (missing.length) {
    const list =
      missing.length > 10
        ? `${missing
            .slice(0, 10)
            .map((s) => s.index)
            .join(', ')}, … (${missing.length} in all)`
        : missing.map((s) => s.index).join(', ');
    throw new SweepMergeError(
      `${missing.length} of ${count} shards ${missing.length === 1 ? 'is' : 'are'} missing in ${join(dir, SHARDS_DIR)}: shard ${list} (e.g. ${shardName(missing[0])}); run ${missing.length === 1 ? 'it' : 'them'} (achilles sweep SWEEP.yaml --shard ${missing[0].index}/${count} --out ${dir}) and merge again`,
    );
  }
  const recs = records as ShardRecord[];
  const first = recs[0];
  for (const r of recs) {
    if (r.sweep_sha256 !== first.sweep_sha256 || r.scene_sha256 !== first.scene_sha256 || r.achilles !== first.achilles)
      throw new SweepMergeError(
        `${shardName(r.shard)} was run from another sweep file, scene or achilles version than ${shardName(first.shard)} (sweep ${r.sweep_sha256.slice(0, 12)} vs ${first.sweep_sha256.slice(0, 12)}, achilles ${r.achilles} vs ${first.achilles}); run it again`,
      );
  }
  const files = first.files;
  const merged = new Map<string, string>();
  for (const file of files) {
    let header: string | undefined;
    const parts: string[] = [];
    for (const r of recs) {
      const where = join(shardDir(dir, r.shard), file);
      const s = split(readFileSync(where, 'utf8'), where);
      header ??= s.header;
      if (s.header !== header)
        throw new SweepMergeError(`${where} has another header than ${shardName(first.shard)}'s ${file}: not the same sweep`);
      if (file === RESULTS_CSV) {
        // The robots of shard i of n follow from the sweep's robot count: check, so a shard of another size never slips in.
        const total = Number(/^# robots: (\d+)$/m.exec(header)?.[1]);
        const want = shardRange(total, r.shard);
        if (r.robots.first !== want.first || r.robots.end !== want.end || s.rows !== want.end - want.first)
          throw new SweepMergeError(
            `${where} holds ${s.rows} robots; shard ${r.shard.index}/${count} of ${total} robots is robots ${want.first}..${want.end - 1}`,
          );
      }
      parts.push(s.body);
    }
    merged.set(file, header + parts.join(''));
  }

  const set = await openOutput(dir, { command: 'sweep', force: o.force, managed: SHARDS_DIR });
  try {
    const written: string[] = [];
    for (const [file, text] of merged) written.push(await set.write(file, text));
    const table = parseResults(merged.get(RESULTS_CSV)!);
    const summary = summarizeResults(table);
    const results = merged.get(RESULTS_CSV)!;
    // The provenance header, with its numbers as numbers (they were written in round-trip form).
    const meta: Record<string, string | number> = {};
    for (const m of results.matchAll(/^# ([^:\n]+): (.*)$/gm)) meta[m[1]] = NUMBER.test(m[2]) ? Number(m[2]) : m[2];
    // Deterministic too: the same results give the same sweep.json (what ran where is in shards/*/shard.json).
    written.push(await set.write('sweep.json', sidecarJson({ ...meta, files: [...merged.keys()], summary })));
    const logUniform = new Set([...String(meta.draws ?? '').matchAll(/(\S+) ~ log_uniform\(/g)].map((m) => m[1]));
    for (const [name, spec] of Object.entries(sweepCharts(table, first.sweep, logUniform))) {
      const c = await writeChart(set, name, spec);
      written.push(c.specPath, c.svgPath);
    }
    await set.commit();
    return { dir, files: written, summary, count };
  } finally {
    if (set.status === 'open') set.abortSync();
  }
}
