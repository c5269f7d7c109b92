// `achilles sweep merge DIR`: the shards of one split, put together. Every shard of a sweep writes
// the same header (provenance.ts) and its robots' rows in robot order, and shard i holds the robots
// just before shard i + 1's, so the merged file is the header once and the shards' rows in shard
// order: byte for byte the file the unsharded run writes. Shards that are missing are named, and
// nothing is written until they are all there. Every shard file is checked first (shard-check.ts:
// a regular file within what its shard can hold, its rows, the sha256 its shard recorded), and the
// merged files are written as one set (reports/atomic.ts): whole, or not at all.

import { join } from 'node:path';
import { openOutput } from '../reports/output-dir.js';
import { sidecarJson } from '../reports/csv.js';
import { writeChart } from '../reports/render.js';
import { parseResults, summarizeResults, sweepCharts } from './charts.js';
import { firstDifferentLine, MAX_TEXT_BYTES, readShardCsv, SweepMergeError, type ShardCsv } from './shard-check.js';
import { loadShardRecord, RESULTS_CSV, SHARD_JSON, shardDir, shardsOnDisk, SHARDS_DIR, sizeText, type ShardRecord } from './shard-files.js';
import { shardName, type Shard } from './shards.js';

export { SweepMergeError } from './shard-check.js';

const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

export interface MergeResult {
  dir: string;
  files: string[];
  summary: ReturnType<typeof summarizeResults>;
  count: number;
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

function missingError(dir: string, missing: Shard[], count: number): SweepMergeError {
  const list =
    missing.length > 10
      ? `${missing
          .slice(0, 10)
          .map((s) => s.index)
          .join(', ')}, … (${missing.length} in all)`
      : missing.map((s) => s.index).join(', ');
  return new SweepMergeError(
    `${missing.length} of ${count} shards ${missing.length === 1 ? 'is' : 'are'} missing in ${join(dir, SHARDS_DIR)}: shard ${list} (e.g. ${shardName(missing[0])}); run ${missing.length === 1 ? 'it' : 'them'} (achilles sweep SWEEP.yaml --shard ${missing[0].index}/${count} --out ${dir}) and merge again`,
  );
}

/** What to do about a shard whose files are broken. */
function redo(dir: string, s: Shard): string {
  return `run the shard again (achilles sweep SWEEP.yaml --shard ${s.index}/${s.count} --out ${dir} --redo) and merge again`;
}

/** Every shard's record; throws naming the shards that have none, or the shard.json that is broken. */
function loadRecords(dir: string, shards: Shard[]): ShardRecord[] {
  const records: (ShardRecord | null)[] = shards.map((s) => {
    const file = join(shardDir(dir, s), SHARD_JSON);
    const r = loadShardRecord(shardDir(dir, s));
    if ('record' in r) {
      if (r.record.shard.index !== s.index || r.record.shard.count !== s.count)
        throw new SweepMergeError(
          `${file}: records shard ${r.record.shard.index}/${r.record.shard.count}, not ${s.index}/${s.count} as its folder says; ${redo(dir, s)}`,
        );
      return r.record;
    }
    if (r.absent) return null;
    throw new SweepMergeError(`${file}: ${r.problem}; ${r.notRegular ? `remove it, then ${redo(dir, s)}` : redo(dir, s)}`);
  });
  const missing = shards.filter((_, i) => !records[i]);
  if (missing.length) throw missingError(dir, missing, shards.length);
  return records as ShardRecord[];
}

/** All shards were run from the same sweep file, scene and version, and wrote the same files. */
function checkSameSweep(recs: ShardRecord[], shards: Shard[]): void {
  const first = recs[0];
  recs.forEach((r, i) => {
    if (r.sweep_sha256 !== first.sweep_sha256 || r.scene_sha256 !== first.scene_sha256 || r.achilles !== first.achilles)
      throw new SweepMergeError(
        `${shardName(shards[i])} was run from another sweep file, scene or achilles version than ${shardName(shards[0])} (sweep ${r.sweep_sha256.slice(0, 12)} vs ${first.sweep_sha256.slice(0, 12)}, achilles ${r.achilles} vs ${first.achilles}); run it again`,
      );
    if (r.files.join() !== first.files.join())
      throw new SweepMergeError(
        `${shardName(shards[i])} wrote ${r.files.join(', ')} but ${shardName(shards[0])} wrote ${first.files.join(', ')}: not the same sweep; run it again`,
      );
  });
}

/** One merged file: the first shard's header, then each shard's rows, every shard checked first. */
function mergeFile(dir: string, file: string, recs: ShardRecord[], shards: Shard[]): string {
  const parts: ShardCsv[] = shards.map((s, i) => readShardCsv(join(shardDir(dir, s), file), file, recs[i], s, redo(dir, s)));
  const first = parts[0];
  let bytes = first.header.length;
  for (const p of parts) {
    if (p.header !== first.header) {
      const line = firstDifferentLine(p.header, first.header);
      throw new SweepMergeError(`${p.path}:${line}: the header differs from ${first.path}'s (at line ${line}): not the same sweep`);
    }
    bytes += p.body.length;
  }
  if (bytes > MAX_TEXT_BYTES)
    throw new SweepMergeError(
      `the merged ${file} would hold ${sizeText(bytes)}, more than the ${sizeText(MAX_TEXT_BYTES)} one text can hold here: too large to merge into one file`,
    );
  return first.header + parts.map((p) => p.body).join('');
}

export async function mergeSweep(dir: string, o: { shards?: number; force?: boolean }): Promise<MergeResult> {
  const count = chooseCount(dir, o.shards);
  const shards: Shard[] = Array.from({ length: count }, (_, index) => ({ index, count }));
  const recs = loadRecords(dir, shards);
  checkSameSweep(recs, shards);
  const first = recs[0];
  const merged = new Map<string, string>();
  for (const file of first.files) merged.set(file, mergeFile(dir, file, recs, shards));

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
