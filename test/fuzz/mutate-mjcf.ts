// Seeded hostile MJCF for the fuzz harness (test/fuzz-surfaces.test.ts): what the importer gained
// since the first campaign, <include>, <frame>, <replicate> and mesh assets (issue 26), each attacked
// where it reads: included files that are no model (another file, a device, a directory, itself, a
// cycle), absurd frame orientations (euler 1e308, xyaxes parallel or zero, a zero quaternion),
// replicate counts and offsets past every limit, mesh files with flipped bytes, huge counts, NaN or
// float32-overflowing vertices and degenerate faces, and mesh scale/refquat/refpos past any sense.
// A case is a set of files written into the case folder: the model and whatever it names.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { rng, type Foreign } from './mutate.js';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

export const MJCF_MUTATIONS = ['mjcf-include', 'mjcf-frame', 'mjcf-replicate', 'mesh-file', 'mesh-attr'] as const;
export type MjcfMutation = (typeof MJCF_MUTATIONS)[number];

/** One case: `files` to write into the case folder (name → bytes), the model among them. */
export interface MjcfCase {
  kind: MjcfMutation;
  model: string;
  files: Map<string, Buffer>;
  /** What was done, for the report line. */
  what: string;
}

/** The importer's fixtures (test/fixtures/import): the models each kind mutates, and their files. */
export interface MjcfSources {
  dir: string;
  text: (name: string) => string;
  bytes: (name: string) => Buffer;
}

export function mjcfSources(dir: string): MjcfSources {
  return {
    dir,
    text: (name) => readFileSync(join(dir, name), 'utf8'),
    bytes: (name) => readFileSync(join(dir, name)),
  };
}

/** The folders a case's model may name, copied beside every case: mjcf-include/ and the meshes. */
export function mjcfAssets(dir: string): string[] {
  return ['mjcf-include', ...readdirSync(dir).filter((f) => /\.(obj|stl)$/.test(f))];
}

// ---- attribute editing -------------------------------------------------------------------------

/** Sets `attr` of one `<tag ...>` element (picked by seed) to `value`, replacing or adding it, and
 *  removes the attributes `drop` from it. */
function setAttr(r: Rand, text: string, tag: string, attr: string, value: string, drop: readonly string[] = []): string {
  const opens = [...text.matchAll(new RegExp(`<${tag}\\b[^>]*?(/?)>`, 'g'))];
  if (opens.length === 0) return text;
  const m = pick(r, opens);
  const at = m.index ?? 0;
  let el = m[0];
  for (const d of drop) if (d !== attr) el = el.replace(new RegExp(`\\s${d}="[^"]*"`), '');
  const esc = value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const existing = new RegExp(`\\s${attr}="[^"]*"`);
  el = existing.test(el) ? el.replace(existing, ` ${attr}="${esc}"`) : el.replace(new RegExp(`^<${tag}`), `<${tag} ${attr}="${esc}"`);
  return text.slice(0, at) + el + text.slice(at + m[0].length);
}

// ---- <include> -----------------------------------------------------------------------------------

function includeCase(r: Rand, seed: number, src: MjcfSources, f: Foreign): MjcfCase {
  const files = new Map<string, Buffer>();
  const model = `case-${seed}-include.xml`;
  let text = src.text('mjcf-include.xml');
  const op = Math.floor(r() * 5);
  let what: string;
  const includes = [...text.matchAll(/<include file="([^"]*)"\/>/g)];
  const target = pick(r, includes);
  const replaceTarget = (file: string): string =>
    text.replace(target[0], `<include file="${file.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"/>`);
  if (op === 0) {
    // a file that is no model, or is this one
    const file = pick(r, [
      f.text,
      f.yaml,
      f.up,
      '/etc/passwd',
      '/dev/zero',
      '/dev/null',
      '/proc/self/status',
      '.',
      '..',
      'mjcf-include',
      '',
      'no-such.xml',
      model,
      `${f.text}/x`,
      `mjcf-include/${'x'.repeat(5000)}.xml`,
      '../../../../../../../../etc/passwd',
    ]);
    text = replaceTarget(file);
    what = `include file="${file.slice(0, 80)}"`;
  } else if (op === 1) {
    // a cycle: a includes b includes a
    const a = `case-${seed}-a.xml`;
    const b = `case-${seed}-b.xml`;
    files.set(a, Buffer.from(`<mujoco>\n  <include file="${b}"/>\n</mujoco>\n`));
    files.set(b, Buffer.from(`<mujoco>\n  <include file="${a}"/>\n</mujoco>\n`));
    text = replaceTarget(a);
    what = 'include cycle';
  } else if (op === 2) {
    // an included file damaged: bytes flipped, truncated, or its numbers absurd
    const inc = pick(r, ['arm.xml', 'forearm.xml', 'settings.xml', 'assets.xml']);
    const orig = src.bytes(join('mjcf-include', inc));
    const name = `case-${seed}-${inc}`;
    const damage = Math.floor(r() * 3);
    let bytes: Buffer;
    if (damage === 0) {
      bytes = Buffer.from(orig);
      for (let k = 0; k < 1 + Math.floor(r() * 4); k++) bytes[Math.floor(r() * bytes.length)] ^= 1 << Math.floor(r() * 8);
    } else if (damage === 1) bytes = orig.subarray(0, Math.floor(r() * orig.length));
    else
      bytes = Buffer.from(
        orig.toString('utf8').replace(/-?\d+(\.\d+)?/g, (x) => (r() < 0.3 ? pick(r, ['1e308', '-1e308', 'nan', 'inf', '1e-320', '0']) : x)),
      );
    // forearm.xml is named by arm.xml relative to itself: the damaged copy is included directly
    // wherever the original was (asset or worldbody), so it lands in the same section
    const section =
      inc === 'assets.xml' ? 'mjcf-include/assets.xml' : inc === 'settings.xml' ? 'mjcf-include/settings.xml' : 'mjcf-include/arm.xml';
    files.set(name, bytes);
    text = text.replace(`<include file="${section}"/>`, `<include file="${name}"/>`);
    if (inc === 'forearm.xml') {
      // arm.xml names forearm.xml: a copy of arm.xml naming the damaged one instead
      const arm = `case-${seed}-arm.xml`;
      files.set(arm, Buffer.from(src.text(join('mjcf-include', 'arm.xml')).replace('file="forearm.xml"', `file="${name}"`)));
      text = text.replace(`<include file="${name}"/>`, `<include file="${arm}"/>`);
    }
    what = `${['flipped bytes in', 'truncated', 'absurd numbers in'][damage]} included ${inc}`;
  } else if (op === 3) {
    // an include with children, extra attributes, or included thousands of times
    const form = pick(r, ['children', 'attribute', 'many', 'nested']);
    if (form === 'children') text = text.replace(target[0], `<include file="${target[1]}"><body/></include>`);
    else if (form === 'attribute') text = text.replace(target[0], `<include file="${target[1]}" fuzz="1"/>`);
    else if (form === 'many') text = text.replace(target[0], target[0].repeat(pick(r, [2, 1000])));
    else {
      // a chain of includes 600 files deep (past the nesting limit of the XML reader)
      const depth = pick(r, [50, 600]);
      for (let i = 0; i < depth; i++)
        files.set(
          `case-${seed}-chain-${i}.xml`,
          Buffer.from(
            i + 1 < depth ? `<mujoco><include file="case-${seed}-chain-${i + 1}.xml"/></mujoco>` : '<mujoco><geom size="0.1"/></mujoco>',
          ),
        );
      text = text.replace('<geom name="floor"', `<include file="case-${seed}-chain-0.xml"/>\n    <geom name="floor"`);
    }
    what = `include ${form}`;
  } else {
    // an included document that is not one element of a model: empty, text only, several roots, a DOCTYPE
    const name = `case-${seed}-odd.xml`;
    const body = pick(r, [
      '',
      '<mujoco/>',
      'just text',
      '<a/><b/>',
      '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "/etc/passwd">]><mujoco><body name="&x;"/></mujoco>',
      `<!DOCTYPE m [<!ENTITY a "${'x'.repeat(100)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><mujoco><body name="&c;"/></mujoco>`,
      `<mujoco>${'<body>'.repeat(1000)}${'</body>'.repeat(1000)}</mujoco>`,
    ]);
    files.set(name, Buffer.from(body));
    text = replaceTarget(name);
    what = `included ${JSON.stringify(body.slice(0, 40))}`;
  }
  files.set(model, Buffer.from(text));
  return { kind: 'mjcf-include', model, files, what };
}

// ---- <frame> -------------------------------------------------------------------------------------

const POSITIONS = ['1e308 0 0', '-1e308 1e308 0', 'nan 0 0', 'inf 0 0', '1e200 1e200 1e200', '1e39 0 0', '1e-320 0 0', '1 2'];
const ORIENTATIONS: Record<string, string[]> = {
  euler: ['1e308 0 0', '-1e308 1e308 1e308', 'nan 0 0', '0 0 inf', '1e20 1e20 1e20', '5e-324 0 0', '1 2'],
  xyaxes: [
    '1 0 0 1 0 0',
    '0 0 0 0 0 0',
    '1e308 0 0 0 1e308 0',
    'nan 0 0 0 1 0',
    '1 0 0 1e-300 1 0',
    '1e-320 0 0 0 1 0',
    '1 0 0 -1 1e-17 0',
    '1 0 0 0 1',
  ],
  zaxis: ['0 0 0', '1e308 1e308 1e308', 'nan nan nan', '1e-320 0 0', '0 0 -1', '1e-200 1e-200 0'],
  axisangle: ['0 0 0 90', '1 0 0 1e308', 'nan 0 0 1', '1e308 0 0 1', '1e-320 0 0 1', '1 0 0 -inf'],
  quat: ['0 0 0 0', '1e308 0 0 0', 'nan 0 0 0', '1e-200 0 0 0', '1e-8 0 0 0', '-1 0 0 0', '1e308 1e308 1e308 1e308'],
};

function frameCase(r: Rand, seed: number, src: MjcfSources): MjcfCase {
  const model = `case-${seed}-frame.xml`;
  let text = src.text('mjcf-frame.xml');
  const parts: string[] = [];
  for (let k = 0; k < 1 + Math.floor(r() * 2); k++) {
    const tag = pick(r, ['frame', 'frame', 'body', 'geom', 'inertial']);
    if (r() < 0.3) {
      const v = pick(r, POSITIONS);
      text = setAttr(r, text, tag, 'pos', v);
      parts.push(`${tag} pos="${v}"`);
    } else {
      const attr = pick(r, Object.keys(ORIENTATIONS));
      const v = pick(r, ORIENTATIONS[attr]);
      // the element's own orientation replaced (two at once are refused before the value is read)
      text = setAttr(r, text, tag, attr, v, r() < 0.9 ? Object.keys(ORIENTATIONS) : []);
      parts.push(`${tag} ${attr}="${v}"`);
    }
  }
  if (r() < 0.2) {
    // angles in radians instead (a degree value is then 57 times larger), or another euler sequence
    text = text.replace('eulerseq="xyz"', `eulerseq="${pick(r, ['XYZ', 'zyx', 'xxx', 'xy', 'abc'])}"`);
    text = text.replace('angle="degree"', `angle="${pick(r, ['radian', 'degree', 'grad'])}"`);
    parts.push('compiler changed');
  }
  return { kind: 'mjcf-frame', model, files: files1(model, text), what: parts.join(', ') };
}

function files1(name: string, text: string): Map<string, Buffer> {
  return new Map([[name, Buffer.from(text)]]);
}

// ---- <replicate> ---------------------------------------------------------------------------------

function replicateCase(r: Rand, seed: number, src: MjcfSources): MjcfCase {
  const model = `case-${seed}-replicate.xml`;
  let text = src.text('mjcf-replicate.xml');
  const op = Math.floor(r() * 4);
  let what: string;
  if (op === 0) {
    const v = pick(r, ['0', '-1', '100000', '100001', '1e3', '2.5', '4294967297', ' 7 ', '99999999999999999999', 'abc', '', '0x10', '+3']);
    text = setAttr(r, text, 'replicate', 'count', v);
    what = `count="${v}"`;
  } else if (op === 1) {
    const attr = pick(r, ['offset', 'euler']);
    const v = pick(r, attr === 'offset' ? POSITIONS : ORIENTATIONS.euler);
    text = setAttr(r, text, 'replicate', attr, v);
    what = `${attr}="${v}"`;
  } else if (op === 2) {
    const v = pick(r, ['', '/', ' ', '_'.repeat(10_000), '&lt;', 'é', '\t']);
    text = setAttr(r, text, 'replicate', 'sep', v);
    what = `sep of ${v.length} characters`;
  } else {
    // copies of copies: nested replicates whose product passes the limit, or nests 300 deep
    const form = pick(r, ['product', 'deep']);
    if (form === 'product') {
      const outer = pick(r, [1000, 50_000, 100_000]);
      text = text.replace(/(<replicate count="3")/, `<replicate count="${outer}">$1`).replace(/(<\/replicate>)/, '$1</replicate>');
      what = `replicate count=${outer} around one of count 3`;
    } else {
      const depth = pick(r, [17, 300]);
      text = text.replace(/(<replicate count="3"[^>]*>)/, `${'<replicate count="2">'.repeat(depth)}$1`);
      text = text.replace(/(<\/replicate>)/, `$1${'</replicate>'.repeat(depth)}`);
      what = `${depth} replicates of count 2 nested`;
    }
  }
  return { kind: 'mjcf-replicate', model, files: files1(model, text), what };
}

// ---- mesh files ----------------------------------------------------------------------------------

const BAD_COORDS = ['nan', 'NaN', 'inf', '-inf', '1e39', '-1e39', '1e308', '3.5e38', '1e-320', '', '1e', '--1', '0x10', '1,5'];

function mutateObj(r: Rand, obj: string): { text: string; what: string } {
  const lines = obj.split('\n');
  const vs = lines.map((l, i) => (l.startsWith('v ') ? i : -1)).filter((i) => i >= 0);
  const fs = lines.map((l, i) => (l.startsWith('f ') ? i : -1)).filter((i) => i >= 0);
  const op = pick(r, [
    'coord',
    'collapse',
    'plane',
    'index',
    'polygon',
    'many-faces',
    'many-vertices',
    'no-faces',
    'no-vertices',
    'truncate',
  ]);
  if (op === 'coord') {
    const i = pick(r, vs);
    const w = lines[i].split(' ');
    const c = pick(r, BAD_COORDS);
    w[1 + Math.floor(r() * 3)] = c;
    lines[i] = w.join(' ');
    return { text: lines.join('\n'), what: `vertex coordinate "${c}"` };
  }
  if (op === 'collapse')
    return { text: lines.map((l) => (l.startsWith('v ') ? 'v 0.1 0.1 0.1' : l)).join('\n'), what: 'every vertex the same' };
  if (op === 'plane')
    return { text: lines.map((l) => (l.startsWith('v ') ? l.replace(/ [^ ]+$/, ' 0') : l)).join('\n'), what: 'every vertex in one plane' };
  if (op === 'index') {
    const i = pick(r, fs);
    const idx = pick(r, ['0', '-1', '-100', '1000000000', '4294967297', '1.5', 'x', '9007199254740993', '1/2/3', '1//']);
    lines[i] = `f ${idx} 2 3`;
    return { text: lines.join('\n'), what: `face index ${idx}` };
  }
  if (op === 'polygon') {
    const n = pick(r, [3, 100_000]);
    lines.push(`f ${Array.from({ length: n }, (_, k) => 1 + (k % vs.length)).join(' ')}`);
    return { text: lines.join('\n'), what: `a face of ${n} vertices` };
  }
  if (op === 'many-faces') {
    const n = pick(r, [300_000, 2_000_001]);
    return { text: `${lines.join('\n')}\n${'f 1 2 3\n'.repeat(n)}`, what: `${n} more (degenerate) faces` };
  }
  if (op === 'many-vertices') {
    const n = pick(r, [100_000, 1_000_001]);
    const rr = rng(n);
    const extra = Array.from({ length: n }, () => `v ${rr().toFixed(4)} ${rr().toFixed(4)} ${rr().toFixed(4)}`).join('\n');
    return { text: `${lines.join('\n')}\n${extra}\n`, what: `${n} more vertices` };
  }
  if (op === 'no-faces') return { text: lines.filter((l) => !l.startsWith('f ')).join('\n'), what: 'no faces' };
  if (op === 'no-vertices') return { text: lines.filter((l) => !l.startsWith('v ')).join('\n'), what: 'no vertices' };
  return { text: obj.slice(0, Math.floor(r() * obj.length)), what: 'truncated' };
}

function mutateStl(r: Rand, stl: Buffer): { bytes: Buffer; what: string } {
  const b = Buffer.from(stl);
  const n = b.readUInt32LE(80);
  const op = pick(r, ['count', 'float', 'degenerate', 'truncate', 'bytes', 'ascii', 'empty']);
  if (op === 'count') {
    const c = pick(r, [0, n + 1, 200_001, 0x7fffffff, 0xffffffff]);
    b.writeUInt32LE(c, 80);
    return { bytes: b, what: `triangle count ${c} (file has ${n})` };
  }
  if (op === 'float') {
    const t = Math.floor(r() * n);
    const at = 84 + t * 50 + 12 + 4 * Math.floor(r() * 9);
    const x = pick(r, [NaN, Infinity, -Infinity, 3.4e38, 2 ** 31, -(2 ** 40), 1e-45]);
    b.writeFloatLE(x, at);
    return { bytes: b, what: `vertex coordinate ${x}` };
  }
  if (op === 'degenerate') {
    for (let t = 0; t < n; t++) for (let v = 1; v < 3; v++) b.copy(b, 84 + t * 50 + 12 + v * 12, 84 + t * 50 + 12, 84 + t * 50 + 24);
    return { bytes: b, what: 'every triangle a point' };
  }
  if (op === 'truncate') return { bytes: b.subarray(0, Math.floor(r() * b.length)), what: 'truncated' };
  if (op === 'bytes') {
    for (let k = 0; k < 1 + Math.floor(r() * 6); k++) b[Math.floor(r() * b.length)] ^= 1 << Math.floor(r() * 8);
    return { bytes: b, what: 'flipped bytes' };
  }
  if (op === 'ascii') {
    const body = pick(r, [
      'solid x\nfacet normal 0 0 1\nouter loop\nvertex nan 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n',
      'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 0 0 0\nvertex 0 0 0\nendloop\nendfacet\nendsolid x\n',
      'solid x\nfacet normal 0 0 1\nouter loop\nvertex 1e39 0 0\nvertex 1 0 0\nendloop\nendfacet\n',
      'solid x\n' + 'facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n'.repeat(3) + 'endsolid',
    ]);
    // binary with an ASCII-looking header, or ASCII text
    if (r() < 0.5) {
      b.write('solid fuzz', 0, 'latin1');
      return { bytes: b, what: 'binary STL whose header starts "solid"' };
    }
    return { bytes: Buffer.from(body), what: `ASCII STL ${JSON.stringify(body.slice(20, 60))}` };
  }
  return { bytes: Buffer.alloc(0), what: 'empty file' };
}

function meshFileCase(r: Rand, seed: number, src: MjcfSources): MjcfCase {
  const base = pick(r, ['part.obj', 'part.stl', 'wheel']);
  if (base === 'wheel') {
    // the STL found beside the included assets.xml: a damaged copy beside it, named by a copy of assets.xml
    const m = mutateStl(r, src.bytes(join('mjcf-include', 'wheel.stl')));
    const model = `case-${seed}-include.xml`;
    const assets = `case-${seed}-assets.xml`;
    const mesh = `case-${seed}-wheel.stl`;
    return {
      kind: 'mesh-file',
      model,
      files: new Map([
        [model, Buffer.from(src.text('mjcf-include.xml').replace('mjcf-include/assets.xml', assets))],
        [assets, Buffer.from(src.text(join('mjcf-include', 'assets.xml')).replace('wheel.stl', mesh))],
        [mesh, m.bytes],
      ]),
      what: `wheel.stl: ${m.what}`,
    };
  }
  const model = `case-${seed}-mesh.xml`;
  const mesh = `case-${seed}-${base}`;
  const m = base.endsWith('.obj') ? mutateObj(r, src.text(base)) : undefined;
  const s = base.endsWith('.stl') ? mutateStl(r, src.bytes(base)) : undefined;
  return {
    kind: 'mesh-file',
    model,
    files: new Map([
      [model, Buffer.from(src.text('mjcf-mesh.xml').replace(`file="${base}"`, `file="${mesh}"`))],
      [mesh, m ? Buffer.from(m.text) : s!.bytes],
    ]),
    what: `${base}: ${(m ?? s)!.what}`,
  };
}

// ---- mesh attributes -----------------------------------------------------------------------------

const MESH_ATTRS: Record<string, string[]> = {
  scale: ['0 0 0', '1e308 1e308 1e308', '-1 1 1', 'nan 1 1', '1e-300 1e-300 1e-300', '1e20 1 1', '1e-20 1 1', '1 2', 'inf 1 1'],
  refquat: ['0 0 0 0', '1e-8 0 0 0', 'nan 0 0 0', '1e308 0 0 0', '1 1e308 0 0', '-1 0 0 0', '1e-160 0 0 0'],
  refpos: ['1e308 0 0', 'nan 0 0', '1e39 0 0', '-1e20 0 0', '3.4e38 0 0', '0.1 0.1'],
  maxhullvert: ['-1', '0', '3', '4', '1e9', 'x'],
  inertia: ['shell', 'legacy', 'convex', 'exact', 'fuzz'],
  file: ['', '.', '/dev/zero', '/etc/passwd', 'no-such.stl', 'mjcf-include'],
};

function meshAttrCase(r: Rand, seed: number, src: MjcfSources, f: Foreign): MjcfCase {
  const model = `case-${seed}-mesh.xml`;
  let text = src.text('mjcf-mesh.xml');
  const parts: string[] = [];
  for (let k = 0; k < 1 + Math.floor(r() * 3); k++) {
    const attr = pick(r, Object.keys(MESH_ATTRS));
    const v = attr === 'file' && r() < 0.4 ? pick(r, [f.text, f.yaml, f.up]) : pick(r, MESH_ATTRS[attr]);
    text = setAttr(r, text, 'mesh', attr, v);
    parts.push(`mesh ${attr}="${v}"`);
  }
  if (r() < 0.3) {
    // the geom placing the mesh, absurd too
    const attr = pick(r, ['pos', 'euler', 'quat', 'size', 'density', 'mass']);
    const v = attr === 'pos' ? pick(r, POSITIONS) : pick(r, ['1e308', '-1', 'nan', '0', '1e-320 0 0 0', '0 0 0 0']);
    text = setAttr(r, text, 'geom', attr, v);
    parts.push(`geom ${attr}="${v}"`);
  }
  return { kind: 'mesh-attr', model, files: files1(model, text), what: parts.join(', ') };
}

/** One hostile MJCF case of `kind`, reproducible from (seed, kind). */
export function mutateMjcf(seed: number, kind: MjcfMutation, src: MjcfSources, foreign: Foreign): MjcfCase {
  const r = rng(seed);
  if (kind === 'mjcf-include') return includeCase(r, seed, src, foreign);
  if (kind === 'mjcf-frame') return frameCase(r, seed, src);
  if (kind === 'mjcf-replicate') return replicateCase(r, seed, src);
  if (kind === 'mesh-file') return meshFileCase(r, seed, src);
  return meshAttrCase(r, seed, src, foreign);
}
