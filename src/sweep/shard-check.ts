// What `achilles sweep merge` checks of each shard's CSV file before it puts a byte of it into the
// merged file:
//   * the file is a regular file (shard-files.ts reads it as the scene loader reads files) of at
//     most the bytes its shard can hold: its header, then one row per robot (results.csv) or per
//     traced robot and sample (traces.csv), each row at most its columns' widest cells;
//   * its header is whole, its column line is the sweep's, and it says the sweep, scene and version
//     its shard.json says;
//   * every row has the header's number of cells; results.csv holds each of the shard's robots
//     exactly once, in robot order, and no other; traces.csv only the shard's traced robots, in
//     (robot, step) order;
//   * its bytes hash to the sha256 the shard recorded in shard.json when it finished: a value
//     changed with the structure intact is caught there.
// A problem names the file, and the line where there is one (file:line).

import { createHash } from 'node:crypto';
import { constants as bufferConstants } from 'node:buffer';
import { MAX_SCENE_BYTES } from '../model-files/common/text-file.js';
import { readAtMost, readPrefix, RESULTS_CSV, sizeText, withRegularFile, type ShardRecord } from './shard-files.js';
import { shardName, shardRange, type Shard } from './shards.js';

export class SweepMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SweepMergeError';
  }
}

/** The widest cell a shard writes, with its comma: a float64 in shortest round-trip form is at
 *  most 24 characters (-2.2250738585072014e-308); a robot index, a step, true/false are shorter. */
export const CELL_BYTES = 25;
/** A row's slot for diverged_joint, a joint name (quoted, its quotes doubled): 4 KiB, which no name
 *  a person gives a joint comes near. The one cell whose width the header does not bound. */
export const JOINT_NAME_BYTES = 4096;
/** The largest header: its `# key: value` lines come from the sweep file (its name and draws, the
 *  file at most MAX_SCENE_BYTES) and fixed notes; its column line from the draws and the scene's
 *  coordinate names (the scene at most MAX_SCENE_BYTES); each is written at most twice. */
export const HEADER_MAX_BYTES = 4 * MAX_SCENE_BYTES + 64 * 1024;
/** The most characters a JavaScript string holds: a file beyond it cannot be merged as text. */
export const MAX_TEXT_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** A shard's CSV file, checked: its header (the `#` lines and the column line) and its rows. */
export interface ShardCsv {
  path: string;
  header: string;
  body: string;
}

interface CsvHeader {
  /** The `#` lines and the column line, as written. */
  text: string;
  columns: string[];
  /** The `# key: value` lines: each value and its line. */
  meta: Map<string, { value: string; line: number }>;
  /** The column line's number (1-based), and the line rows start on (the next, unless a quoted
   *  column name holds a line end). */
  columnLine: number;
  rowsFrom: number;
}

interface CsvRecord {
  /** The line it starts on. */
  line: number;
  /** How many cells it has. */
  count: number;
  /** Its first cells' values (as many as were asked for: a row's checks read two). */
  cells: string[];
  /** The offset and line just after it. */
  end: number;
  nextLine: number;
}

/** A problem at a line of the file (0: the file as a whole). */
class AtLine extends Error {
  constructor(
    readonly line: number,
    message: string,
    /** Something other than a regular file is in the way: the shard cannot be rerun over it. */
    readonly notRegular = false,
  ) {
    super(message);
  }
}

const INDEX = /^(0|[1-9]\d*)$/;
const STOP = /[,\n"]/g;

/** Where the cell starting at `i` ends (quoted as csv-stringify quotes), how many line ends a
 *  quoted one holds, and its value when `keep`. */
function readCell(text: string, i: number, line: number, keep: boolean): { cell: string; end: number; newlines: number } {
  if (text[i] !== '"') {
    STOP.lastIndex = i;
    const m = STOP.exec(text);
    const end = m ? m.index : text.length;
    if (m?.[0] === '"') throw new AtLine(line, 'a quote inside an unquoted cell (cells with quotes are written quoted)');
    return { cell: keep ? text.slice(i, end) : '', end, newlines: 0 };
  }
  let cell = '';
  let newlines = 0;
  for (let j = i + 1; ;) {
    const q = text.indexOf('"', j);
    if (q < 0) throw new AtLine(line, 'a quoted cell that is never closed (the file ends inside it: truncated?)');
    for (let k = text.indexOf('\n', j); k >= 0 && k < q; k = text.indexOf('\n', k + 1)) newlines++;
    if (keep) cell += text.slice(j, q);
    if (text[q + 1] !== '"') return { cell, end: q + 1, newlines };
    if (keep) cell += '"';
    j = q + 2;
  }
}

/** A line without quotes, from `i` to its line end `nl`: its cell count and first `keep` cells. */
function plainRecord(text: string, i: number, nl: number, keep: number): { count: number; cells: string[] } {
  const cells: string[] = [];
  let count = 1;
  for (let c = i; ; count++) {
    const comma = text.indexOf(',', c);
    const end = comma < 0 || comma > nl ? nl : comma;
    if (count <= keep) cells.push(text.slice(c, end));
    if (end === nl) return { count, cells };
    c = comma + 1;
  }
}

/** One record that holds a quote, starting at `i` on line `line`, cell by cell. */
function quotedRecord(text: string, i: number, line: number, keep: number): CsvRecord {
  const cells: string[] = [];
  let count = 0;
  let ln = line;
  for (;;) {
    const c = readCell(text, i, line, count < keep);
    if (count++ < keep) cells.push(c.cell);
    ln += c.newlines;
    i = c.end;
    if (text[i] === ',') i++;
    else if (text[i] === '\n') return { line, count, cells, end: i + 1, nextLine: ln + 1 };
    else if (i >= text.length) throw new AtLine(line, 'the last line is not whole (the file ends without a line end: truncated?)');
    else throw new AtLine(line, 'a quoted cell followed by more than a comma or a line end');
  }
}

/** The CSV records of `text` from offset `at` (on line `line`), the first `keep` cells of each
 *  kept (a row's checks read only the robot and the step: the rest are counted, not copied). Lines
 *  without a quote, nearly all of them, are split with indexOf alone. */
function* csvRecords(text: string, at: number, line: number, keep: number): Generator<CsvRecord> {
  let i = at;
  let ln = line;
  let quote = -1;
  while (i < text.length) {
    if (quote < i) quote = text.indexOf('"', i) >>> 0; // none: 2^32 - 1, past any text
    const nl = text.indexOf('\n', i);
    let r: CsvRecord;
    if (nl >= 0 && quote > nl) r = { line: ln, ...plainRecord(text, i, nl, keep), end: nl + 1, nextLine: ln + 1 };
    else if (nl < 0 && quote >= text.length)
      throw new AtLine(ln, 'the last line is not whole (the file ends without a line end: truncated?)');
    else r = quotedRecord(text, i, ln, keep);
    yield r;
    i = r.end;
    ln = r.nextLine;
  }
}

/** The header of a shard's CSV text: `# key: value` lines, then the column line. */
function parseHeader(text: string): CsvHeader {
  const meta = new Map<string, { value: string; line: number }>();
  let at = 0;
  let line = 1;
  while (text.startsWith('#', at)) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) throw new AtLine(line, 'the header ends inside a `#` line (truncated?)');
    const m = /^# ([^:\n]+): (.*)$/.exec(text.slice(at, nl));
    if (m) meta.set(m[1], { value: m[2], line });
    at = nl + 1;
    line++;
  }
  let first: CsvRecord | undefined;
  try {
    first = csvRecords(text, at, line, Infinity).next().value ?? undefined;
  } catch (e) {
    if (e instanceof AtLine) throw new AtLine(line, 'no whole column line after the `#` lines (truncated?)');
    throw e;
  }
  if (!first) throw new AtLine(line, 'no column line after the `#` lines (truncated?)');
  return { text: text.slice(0, first.end), columns: first.cells, meta, columnLine: line, rowsFrom: first.nextLine };
}

/** The header of the file's first bytes, or why there is none in them. */
function headerOfPrefix(prefix: Buffer): CsvHeader {
  try {
    return parseHeader(prefix.subarray(0, HEADER_MAX_BYTES).toString('utf8'));
  } catch (e) {
    if (e instanceof AtLine && prefix.length > HEADER_MAX_BYTES)
      throw new AtLine(e.line, `no column line within the first ${sizeText(HEADER_MAX_BYTES)} (the most a sweep's header holds)`);
    throw e;
  }
}

/** A whole number of the header's `# key: value` lines, or a problem naming the line. */
function metaCount(h: CsvHeader, key: string): number {
  const m = h.meta.get(key);
  if (m === undefined) throw new AtLine(h.columnLine, `its header has no \`# ${key}:\` line`);
  if (!INDEX.test(m.value)) throw new AtLine(m.line, `\`# ${key}:\` is not a whole number`);
  return Number(m.value);
}

/** The column line a shard writes: results.csv's starts with robot and has diverged_step and
 *  diverged_joint (run-robots.ts); traces.csv's starts with robot, step, time. */
function columnsProblem(name: string, columns: string[]): string | null {
  if (name === RESULTS_CSV)
    return columns[0] === 'robot' && columns.includes('diverged_step') && columns.includes('diverged_joint')
      ? null
      : "its column line is not a sweep result's (robot, the draws, diverged_step, diverged_joint, the metrics, the final state)";
  return columns[0] === 'robot' && columns[1] === 'step' && columns[2] === 'time'
    ? null
    : "its column line is not a sweep trace's (robot, step, time, then the state)";
}

/** The header agrees with shard.json: the same sweep, scene and version; and the sweep's robot
 *  count gives this shard the robots shard.json says (a shard of another split never slips in). */
function checkHeader(name: string, h: CsvHeader, record: ShardRecord, shard: Shard): void {
  const columns = columnsProblem(name, h.columns);
  if (columns) throw new AtLine(h.columnLine, columns);
  for (const [key, want] of [
    ['sweep_sha256', record.sweep_sha256],
    ['scene_sha256', record.scene_sha256],
    ['achilles', record.achilles],
  ] as const) {
    const m = h.meta.get(key);
    if (m?.value !== want) throw new AtLine(m?.line ?? h.columnLine, `the header's ${key} is not shard.json's (${want.slice(0, 12)})`);
  }
  const total = metaCount(h, 'robots');
  const want = shardRange(total, shard);
  if (record.robots.first !== want.first || record.robots.end !== want.end)
    throw new AtLine(
      h.meta.get('robots')!.line,
      `shard.json gives this shard robots ${record.robots.first}..${record.robots.end - 1}; shard ${shard.index}/${shard.count} of ${total} robots is robots ${want.first}..${want.end - 1}`,
    );
}

/** The robots of this shard that traces.csv traces (the header's `# traced_robots:`). */
function tracedHere(h: CsvHeader, range: { first: number; end: number }): Set<number> {
  const list = h.meta.get('traced_robots');
  if (list === undefined) throw new AtLine(h.columnLine, 'its header has no `# traced_robots:` line');
  return new Set(
    list.value
      .split(' ')
      .filter((x) => INDEX.test(x))
      .map(Number)
      .filter((r) => r >= range.first && r < range.end),
  );
}

/**
 * The most bytes the file can hold: its header, then results.csv one row per robot of the shard,
 * traces.csv one per traced robot and sample (step 0, every trace_every_steps, the last), each
 * row at most CELL_BYTES a column (and a joint name's slot in results.csv). Never above what a
 * string holds.
 */
function capOf(name: string, h: CsvHeader, record: ShardRecord): { bytes: number; why: string } {
  const header = Buffer.byteLength(h.text);
  const row = h.columns.length * CELL_BYTES + (name === RESULTS_CSV ? JOINT_NAME_BYTES : 0);
  let rows: number;
  let what: string;
  if (name === RESULTS_CSV) {
    rows = record.robots.end - record.robots.first;
    what = `${rows} robots`;
  } else {
    const traced = tracedHere(h, record.robots).size;
    const samples = Math.floor(metaCount(h, 'steps') / Math.max(1, metaCount(h, 'trace_every_steps'))) + 2;
    rows = traced * samples;
    what = `${traced} traced robots × ${samples} samples`;
  }
  const most = header + rows * row;
  const why = `the most a shard of ${what} holds (a ${sizeText(header)} header and ${rows} rows of at most ${row} bytes)`;
  if (most <= MAX_TEXT_BYTES) return { bytes: most, why };
  return { bytes: MAX_TEXT_BYTES, why: `the most one text holds here (${why} is more)` };
}

/** The robot index in a row's first cell. */
function robotOf(r: CsvRecord): number {
  if (!INDEX.test(r.cells[0])) throw new AtLine(r.line, `the robot cell '${r.cells[0].slice(0, 20)}' is not a robot index`);
  return Number(r.cells[0]);
}

function checkCellCount(r: CsvRecord, h: CsvHeader): void {
  if (r.count !== h.columns.length) throw new AtLine(r.line, `${r.count} cells; the header has ${h.columns.length} columns`);
}

/** The line of each robot's row, by its offset in the shard's range (0: none yet). An array when
 *  the file is long enough to hold a row per robot; otherwise (robots must then be missing) only
 *  the rows there are, so a record claiming billions of robots allocates nothing for them. */
interface RowLines {
  get(k: number): number;
  set(k: number, line: number): void;
  /** The first offset without a row, or -1. */
  firstMissing(): number;
  /** The line of the first row of a robot after offset `k`, or 0. */
  nextAfter(k: number): number;
  filled: number;
}

function rowLines(robots: number, mostRows: number): RowLines {
  if (robots <= mostRows) {
    const a = new Int32Array(robots);
    return {
      get: (k) => a[k],
      set: (k, line) => void (a[k] = line),
      firstMissing: () => a.indexOf(0),
      nextAfter: (k) => a.subarray(k + 1).find((l) => l !== 0) ?? 0,
      filled: 0,
    };
  }
  const m = new Map<number, number>();
  return {
    get: (k) => m.get(k) ?? 0,
    set: (k, line) => void m.set(k, line),
    firstMissing: () => {
      let k = 0;
      while (m.has(k)) k++;
      return k < robots ? k : -1;
    },
    nextAfter: (k) => {
      let best = -1;
      for (const x of m.keys()) if (x > k && (best < 0 || x < best)) best = x;
      return best < 0 ? 0 : m.get(best)!;
    },
    filled: 0,
  };
}

/** results.csv's rows: each of the shard's robots once, in robot order, and no other. */
function checkResultRows(text: string, h: CsvHeader, range: { first: number; end: number }): void {
  const robots = range.end - range.first;
  // A row is at least its commas and its line end.
  const lines = rowLines(robots, Math.floor((text.length - h.text.length) / h.columns.length));
  let last = h.rowsFrom - 1;
  let prev: CsvRecord | undefined;
  let disorder: AtLine | undefined;
  for (const r of csvRecords(text, h.text.length, h.rowsFrom, 2)) {
    last = r.line;
    checkCellCount(r, h);
    const robot = robotOf(r);
    if (robot < range.first || robot >= range.end)
      throw new AtLine(r.line, `robot ${robot} is not one of this shard's robots (${range.first}..${range.end - 1})`);
    const seen = lines.get(robot - range.first);
    if (seen) throw new AtLine(r.line, `robot ${robot} again (its row is at line ${seen}): each robot has one row`);
    lines.set(robot - range.first, r.line);
    lines.filled++;
    if (prev && robot < Number(prev.cells[0]))
      disorder ??= new AtLine(r.line, `robot ${robot} after robot ${prev.cells[0]}: rows go in robot order`);
    prev = r;
  }
  const missing = lines.firstMissing();
  if (missing >= 0) {
    const count = robots - lines.filled;
    // Where its row belongs: at the next robot's row, or at the end of the file.
    const next = lines.nextAfter(missing);
    const robot = range.first + missing;
    const others = count > 1 ? ` (nor for ${count - 1} more of its robots)` : '';
    const holds = `the shard holds robots ${range.first}..${range.end - 1}, one row each`;
    throw new AtLine(
      next || last + 1,
      next
        ? `no row for robot ${robot}${others}: ${holds}`
        : `the file ends without a row for robot ${robot}${others} (truncated?): ${holds}`,
    );
  }
  if (disorder) throw disorder;
}

/** traces.csv's rows: only the shard's traced robots, in (robot, step) order, each once. */
function checkTraceRows(text: string, h: CsvHeader, range: { first: number; end: number }): void {
  const traced = tracedHere(h, range);
  let prev: { robot: number; step: number } | undefined;
  for (const r of csvRecords(text, h.text.length, h.rowsFrom, 2)) {
    checkCellCount(r, h);
    const robot = robotOf(r);
    if (!traced.has(robot))
      throw new AtLine(r.line, `robot ${robot} is not a traced robot of this shard (${[...traced].join(', ') || 'none'})`);
    if (!INDEX.test(r.cells[1])) throw new AtLine(r.line, `the step cell '${r.cells[1].slice(0, 20)}' is not a step`);
    const step = Number(r.cells[1]);
    if (prev && (robot < prev.robot || (robot === prev.robot && step <= prev.step)))
      throw new AtLine(
        r.line,
        `robot ${robot} step ${step} after robot ${prev.robot} step ${prev.step}: rows go in (robot, step) order, once each`,
      );
    prev = { robot, step };
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The file's bytes, bounded by what its shard can hold. */
function readBounded(path: string, name: string, record: ShardRecord, shard: Shard): Buffer {
  const read = withRegularFile<{ bytes: Buffer }>(path, (f) => {
    const head = headerOfPrefix(readPrefix(f, HEADER_MAX_BYTES + 1));
    checkHeader(name, head, record, shard);
    const cap = capOf(name, head, record);
    const bytes = f.size > cap.bytes ? null : readAtMost(f, cap.bytes);
    if (bytes) return { bytes };
    const size = f.size > cap.bytes ? sizeText(f.size) : `more than ${sizeText(cap.bytes)} (it grew while read)`;
    return { problem: `${size}: more than the ${sizeText(cap.bytes)} that is ${cap.why}` };
  });
  if ('problem' in read) throw new AtLine(0, read.problem, read.notRegular);
  return read.bytes;
}

/** Why the bytes are not the ones the shard wrote (shard.json's sha256 and size), or null. */
function changedSince(bytes: Buffer, name: string, record: ShardRecord): string | null {
  if (bytes.length !== record.bytes[name]) return `${bytes.length} bytes where its shard wrote ${record.bytes[name]}`;
  const sha = createHash('sha256').update(bytes).digest('hex');
  return sha === record.sha256[name]
    ? null
    : `its sha256 ${sha.slice(0, 12)}… is not the ${record.sha256[name].slice(0, 12)}… its shard wrote`;
}

/** The file's text, split at its header, or the first problem with it (at its line). */
function checkedText(bytes: Buffer, name: string, record: ShardRecord): { header: string; body: string } | AtLine {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return new AtLine(0, 'not UTF-8 text');
  }
  try {
    const h = parseHeader(text);
    (name === RESULTS_CSV ? checkResultRows : checkTraceRows)(text, h, record.robots);
    return { header: h.text, body: text.slice(h.text.length) };
  } catch (e) {
    if (e instanceof AtLine) return e;
    throw e;
  }
}

const at = (path: string, line: number): string => (line > 0 ? `${path}:${line}` : path);

/**
 * Reads and checks `name` (results.csv or traces.csv) of `shard`, whose record is `record`, at
 * `path`. Throws a SweepMergeError naming the file (and its line) at the first problem, and saying
 * whether the file is still the one its shard wrote; `redo` says what to do about it.
 */
export function readShardCsv(path: string, name: string, record: ShardRecord, shard: Shard, redo: string): ShardCsv {
  let bytes: Buffer;
  try {
    bytes = readBounded(path, name, record, shard);
  } catch (e) {
    if (!(e instanceof AtLine)) throw e;
    throw new SweepMergeError(`${at(path, e.line)}: ${e.message}; ${e.notRegular ? `remove it, then ${redo}` : redo}`);
  }
  const changed = changedSince(bytes, name, record);
  const checked = checkedText(bytes, name, record);
  if (checked instanceof AtLine)
    throw new SweepMergeError(
      `${at(path, checked.line)}: ${checked.message}${changed ? ` (the file changed since ${shardName(shard)} wrote it: ${changed})` : ''}; ${redo}`,
    );
  if (changed)
    throw new SweepMergeError(
      `${path}: changed since ${shardName(shard)} wrote it (${changed}), though every row has the shape of one: a value was changed; ${redo}`,
    );
  return { path, ...checked };
}

/** The first line (1-based) where two headers differ. */
export function firstDifferentLine(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i + 1;
}
