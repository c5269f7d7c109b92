// Layers only point down (docs/architecture.md, "TypeScript layers"): every import in src/ goes
// from a room (a top-level folder of src/) to its own room or to a room of a LOWER layer. Rooms of
// one layer are peers and never import each other, so no two rooms can form a cycle. A new room
// must be placed in LAYERS before anything may import it.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Bottom to top. `(root)` is src/index.ts, the package's public entry point. */
export const LAYERS: readonly (readonly string[])[] = [
  ['util'], // UsageError, the version, the CLI option shapes
  ['engine', 'reports'], // the batched engine and its model description; output formats (CSV, charts, tables)
  ['model-files/common', 'params'], // params: per-robot draws and model parameters (domain randomization); what every model-file reader shares: SceneError at file:line:col, bounded reads, XML roots
  ['model-files/import'], // MJCF and URDF readers
  ['model-files/scene'], // the .arow reader and writer, loadScene (picks a reader by content), the MJCF writer
  ['sensors'], // sensors at run time
  ['control'], // controllers, PD, RlEnv
  ['viewer', 'gym'], // replays and the HTML viewer; Gymnasium's tasks from their files (tasks/gymnasium)
  ['run', 'bench', 'validation'], // the commands' work
  ['sweep'], // studies over many robots, sharded across machines (builds on run's scene loading)
  ['cli'], // argument parsing and the commands
  ['(root)'],
];

const SRC = join(import.meta.dirname, '..', 'src');

export interface ImportEdge {
  file: string; // relative to src/, with '/'
  line: number;
  target: string; // relative to src/, with '/'
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Every relative import of a file: static `import`/`export … from`, side-effect `import '…'`,
 *  and dynamic `import('…')`, with the line it starts on. Comments are skipped. */
export function importsOf(text: string): { spec: string; line: number }[] {
  const found: { spec: string; line: number }[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
  const patterns = [
    /\b(?:import|export)\s[^;'"`]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) {
    for (const m of code.matchAll(re)) {
      const line = code.slice(0, m.index).split('\n').length;
      found.push({ spec: m[1], line });
    }
  }
  return found;
}

/** The rooms nested in one folder: `model-files/` holds every model-file room (common pieces, the
 *  foreign readers, the .arow reader and the writers), each a room of its own in LAYERS. */
const NESTED_ROOMS = ['model-files'];

export function roomOf(fileFromSrc: string): string {
  const parts = fileFromSrc.split('/');
  if (parts.length > 2 && NESTED_ROOMS.includes(parts[0])) return `${parts[0]}/${parts[1]}`;
  return parts.length > 1 ? parts[0] : '(root)';
}

function edges(): ImportEdge[] {
  return tsFiles(SRC).flatMap((abs) => {
    const file = relative(SRC, abs).split(sep).join('/');
    return importsOf(readFileSync(abs, 'utf8'))
      .filter((i) => i.spec.startsWith('.'))
      .map((i) => ({
        file,
        line: i.line,
        target: relative(SRC, normalize(join(dirname(abs), i.spec)))
          .split(sep)
          .join('/'),
      }));
  });
}

/** The imports that break the order: to a higher layer, to a peer, or to a room not in LAYERS. */
export function violations(all: readonly ImportEdge[], layers = LAYERS): string[] {
  const layerOf = new Map<string, number>();
  layers.forEach((rooms, i) => rooms.forEach((r) => layerOf.set(r, i)));
  const out: string[] = [];
  for (const e of all) {
    const from = roomOf(e.file);
    const to = roomOf(e.target);
    if (from === to) continue;
    const a = layerOf.get(from);
    const b = layerOf.get(to);
    const where = `src/${e.file}:${e.line}: imports ${e.target}`;
    if (a === undefined) out.push(`${where}: room '${from}' is not in LAYERS`);
    else if (b === undefined) out.push(`${where}: room '${to}' is not in LAYERS`);
    else if (b > a) out.push(`${where}: ${from} (layer ${a}) points UP to ${to} (layer ${b})`);
    else if (b === a) out.push(`${where}: ${from} and ${to} are peers (layer ${a}) and must not import each other`);
  }
  return out;
}

/** The cycles of a graph (each as 'a → b → … → a'), depth first from each node in sorted order. */
function cyclesOf(next: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (r: string): void => {
    state.set(r, 'open');
    path.push(r);
    for (const n of [...(next.get(r) ?? [])].sort()) {
      if (state.get(n) === 'open') cycles.push([...path.slice(path.indexOf(n)), n].join(' → '));
      else if (!state.has(n)) visit(n);
    }
    path.pop();
    state.set(r, 'done');
  };
  for (const r of [...next.keys()].sort()) if (!state.has(r)) visit(r);
  return cycles;
}

/** The graph of `all` with each end mapped by `node`, edges within one node left out. */
function graphOf(all: readonly ImportEdge[], node: (file: string) => string): Map<string, Set<string>> {
  const next = new Map<string, Set<string>>();
  for (const e of all) {
    const a = node(e.file);
    const b = node(e.target);
    if (a !== b) (next.get(a) ?? next.set(a, new Set()).get(a)!).add(b);
  }
  return next;
}

/** Cycles between rooms (each as 'a → b → … → a'), found on the room graph whatever the layers say. */
export const roomCycles = (all: readonly ImportEdge[]): string[] => cyclesOf(graphOf(all, roomOf));

/** Cycles between files, type-only imports included (a module and its helper that import each
 *  other are one module in two files: the shared part belongs in a third). */
export const fileCycles = (all: readonly ImportEdge[]): string[] => cyclesOf(graphOf(all, (f) => f.replace(/\.js$/, '.ts')));

describe('TypeScript layers', () => {
  const all = edges();

  it('reads the imports of src/ (the parser finds what is there)', () => {
    expect(all.length).toBeGreaterThan(300);
    expect(all).toContainEqual(expect.objectContaining({ file: 'cli/main.ts' }));
    expect(
      importsOf(
        "import a from './x.js';\nexport { b } from \"../y.js\";\nimport type {\n  C,\n} from './z.js';\nconst m = await import('./w.js');\n// import q from './comment.js';\n/* import r from './block.js'; */",
      ),
    ).toEqual([
      { spec: './x.js', line: 1 },
      { spec: '../y.js', line: 2 },
      { spec: './z.js', line: 3 },
      { spec: './w.js', line: 6 },
    ]);
  });

  it('flags an import that points up, between peers, or to an unplaced room, and a cycle', () => {
    const up = { file: 'engine/batch.ts', line: 3, target: 'control/spec.js' };
    const peer = { file: 'run/index.ts', line: 4, target: 'bench/run.js' };
    const stray = { file: 'cli/main.ts', line: 5, target: 'nowhere/x.js' };
    const down = { file: 'control/pd.ts', line: 6, target: 'engine/batch.js' };
    expect(violations([up, peer, stray, down])).toEqual([
      'src/engine/batch.ts:3: imports control/spec.js: engine (layer 1) points UP to control (layer 6)',
      'src/run/index.ts:4: imports bench/run.js: run and bench are peers (layer 8) and must not import each other',
      "src/cli/main.ts:5: imports nowhere/x.js: room 'nowhere' is not in LAYERS",
    ]);
    expect(roomCycles([up, down])).toEqual(['control → engine → control']);
    expect(roomCycles([down])).toEqual([]);
    const a = { file: 'validation/a.ts', line: 1, target: 'validation/b.js' };
    const b = { file: 'validation/b.ts', line: 2, target: 'validation/c.js' };
    const c = { file: 'validation/c.ts', line: 3, target: 'validation/a.js' };
    expect(fileCycles([a, b, c])).toEqual(['validation/a.ts → validation/b.ts → validation/c.ts → validation/a.ts']);
    expect(fileCycles([a, b])).toEqual([]);
  });

  it('every room of src/ has a layer', () => {
    const folders = (dir: string): string[] =>
      readdirSync(join(SRC, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => (dir ? `${dir}/${e.name}` : e.name));
    const rooms = new Set(folders('').flatMap((f) => (NESTED_ROOMS.includes(f) ? folders(f) : [f])));
    const placed = new Set(LAYERS.flat());
    expect([...rooms].filter((r) => !placed.has(r))).toEqual([]);
  });

  it('docs/architecture.md states the same order (its "TypeScript layers" table)', () => {
    const doc = readFileSync(join(SRC, '..', 'docs', 'architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## TypeScript layers'));
    const rows = section.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    const documented: string[][] = [];
    for (const row of rows) {
      const [layer, rooms] = row.split('|').slice(1, 3);
      const names = [...rooms.matchAll(/`([^`]+)`/g)].map((m) => (m[1] === 'src/index.ts' ? '(root)' : m[1].replace(/\/$/, '')));
      (documented[Number(layer)] ??= []).push(...names);
    }
    expect(documented).toEqual(LAYERS);
  });

  it('no import points up the order or sideways to a peer', () => {
    expect(violations(all)).toEqual([]);
  });

  it('no two rooms import each other, directly or round a loop', () => {
    expect(roomCycles(all)).toEqual([]);
  });

  it('no two files import each other, directly or round a loop (type imports too)', () => {
    expect(fileCycles(all)).toEqual([]);
  });
});
