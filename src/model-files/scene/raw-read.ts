// Reading raw (original-system) `.arow` files: archetypes, their joints and flattened fields,
// following `includes` (relative to the including file) and rejecting include cycles.

import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isMap, isScalar, isSeq } from 'yaml';
import {
  checkKeys,
  describe,
  entries,
  notAYamlFile,
  parseYamlFile,
  readInt,
  readString,
  type Ctx,
  type Entry,
  type ParsedFile,
  type YNode,
} from './yaml-read.js';

/** Known fields and their number counts (README section 2). */
export const RAW_FIELDS: Record<string, number> = {
  joint_subspace: 36,
  joint_activation_mask: 1,
  fixed_joint_transform: 7,
  joint_position: 7,
  rigid_body_inertia: 10,
  joint_velocity: 6,
  joint_torque: 6,
  visual_extents: 3,
  visual_color: 3,
};
export const RAW_FIELD_NAMES = Object.keys(RAW_FIELDS);
export const RAW_TOP_KEYS = ['archetype', 'joints', 'copies', 'attach', 'includes'] as const;

export interface RawField {
  values: number[];
  /** The node of each number, to point at a single bad element. */
  nodes: YNode[];
  node: YNode;
}

export interface RawJoint {
  name: string;
  parent: string | null;
  fields: Map<string, RawField>;
  node: YNode;
  nameNode: YNode;
  parentNode: YNode;
  fieldsNode: YNode;
  subject: string;
}

export interface RawArchetype {
  name: string;
  ctx: Ctx;
  nameNode: YNode;
  joints: RawJoint[];
  copies: number;
  copiesNode: YNode;
  attach?: { archetype: string; joint: string; node: YNode; archetypeNode: YNode; jointNode: YNode };
}

/** Loads `pf` and, depth-first, everything it includes. `files` collects every file read. */
export function readRawTree(pf: ParsedFile, file: string, files: string[]): RawArchetype[] {
  const out: RawArchetype[] = [];
  const loaded = new Set<string>([resolve(file)]);
  const visit = (p: ParsedFile, path: string, stack: string[]): void => {
    const { arch, includes } = readArchetype(p);
    out.push(arch);
    for (const inc of includes) {
      const shown = isAbsolute(inc.path) ? inc.path : join(dirname(path), inc.path); // relative to the including file
      const target = resolve(shown);
      if (stack.includes(target)) {
        p.ctx.fail(
          inc.node,
          'includes',
          `an include cycle ${[...stack, target].join(' → ')}`,
          'includes that do not lead back to an including file',
        );
      }
      if (loaded.has(target)) continue; // a diamond, not a cycle: load once
      loaded.add(target);
      files.push(shown);
      const child = parseYamlFile(shown, { ctx: p.ctx, node: inc.node, subject: 'includes' });
      // An include may name any file: one that is not an archetype is said to be so, at the
      // `includes` entry, without quoting it (describing its root would print its first characters).
      const notArchetype = notAYamlFile(child, 'archetype', ['archetype', 'joints'], 'a raw archetype file (`archetype:` and `joints:`)');
      if (notArchetype) p.ctx.fail(inc.node, 'includes', `\`${shown}\`: ${notArchetype.found}`, notArchetype.expected);
      visit(child, shown, [...stack, target]);
    }
  };
  visit(pf, file, [resolve(file)]);
  return out;
}

function readArchetype(pf: ParsedFile): { arch: RawArchetype; includes: { path: string; node: YNode }[] } {
  const { ctx, root } = pf;
  const top = entries(ctx, root, 'archetype file');
  checkKeys(ctx, root, top, 'archetype file', RAW_TOP_KEYS, ['archetype', 'joints']);
  const nameNode = top.get('archetype')?.value;
  const name = readString(ctx, nameNode, 'archetype');
  const copiesNode = top.get('copies')?.value;
  const copies = copiesNode === undefined ? 1 : readInt(ctx, copiesNode, 'copies', 1);
  const arch: RawArchetype = { name, ctx, nameNode, joints: [], copies, copiesNode };
  const at = top.get('attach');
  if (at) {
    const m = entries(ctx, at.value, 'attach');
    checkKeys(ctx, at.value, m, 'attach', ['archetype', 'joint'], ['archetype', 'joint']);
    const an = m.get('archetype')?.value;
    const jn = m.get('joint')?.value;
    arch.attach = {
      archetype: readString(ctx, an, 'attach.archetype'),
      joint: readString(ctx, jn, 'attach.joint'),
      node: at.keyNode,
      archetypeNode: an,
      jointNode: jn,
    };
  }
  const includes: { path: string; node: YNode }[] = [];
  const inc = top.get('includes');
  if (inc) {
    if (!isSeq(inc.value)) throw ctx.error(inc.value, 'includes', describe(inc.value), 'a list of file paths');
    inc.value.items.forEach((n, i) => includes.push({ path: readString(ctx, n as YNode, `includes[${i}]`), node: n as YNode }));
  }
  const jn = top.get('joints')?.value;
  if (!isSeq(jn) || jn.items.length === 0) throw ctx.error(jn, 'joints', describe(jn), 'a non-empty list of joints');
  arch.joints = jn.items.map((n, i) => readJoint(ctx, n as YNode, `archetype ${name}, joints[${i}]`));
  checkFieldConsistency(ctx, arch);
  return { arch, includes };
}

function readJoint(ctx: Ctx, node: YNode, subject0: string): RawJoint {
  const m = entries(ctx, node, subject0);
  const nameNode = m.get('name')?.value;
  const subject = nameNode !== undefined && isScalar(nameNode) ? `${subject0} (${String(nameNode.value)})` : subject0;
  checkKeys(ctx, node, m, subject, ['name', 'parent', 'fields'], ['name', 'fields']);
  const name = readString(ctx, nameNode, `${subject}.name`);
  const parentNode = m.get('parent')?.value;
  const parent =
    parentNode == null || (isScalar(parentNode) && parentNode.value === null) ? null : readString(ctx, parentNode, `${subject}.parent`);
  const fieldsNode = m.get('fields')?.value;
  const fm = entries(ctx, fieldsNode, `${subject}.fields`);
  checkKeys(ctx, fieldsNode, fm, `${subject}.fields`, RAW_FIELD_NAMES);
  const fields = new Map<string, RawField>();
  for (const e of fm.values()) fields.set(e.key, readField(ctx, e, `${subject}.fields.${e.key}`));
  return { name, parent, fields, node, nameNode, parentNode: parentNode ?? m.get('parent')?.keyNode ?? nameNode, fieldsNode, subject };
}

/** Flattens a field depth-first (booleans → 1/0) and checks its count. Transform fields may be
 *  `{translation, rotation}`, in that order: the original flattened maps blindly, so swapped keys
 *  would silently swap the numbers. */
function readField(ctx: Ctx, e: Entry, subject: string): RawField {
  const values: number[] = [];
  const nodes: YNode[] = [];
  const isTransform = e.key === 'fixed_joint_transform' || e.key === 'joint_position';
  const walk = (n: YNode, path: string, depth: number): void => {
    if (isSeq(n)) n.items.forEach((it, i) => walk(it as YNode, `${path}[${i}]`, depth + 1));
    else if (isMap(n)) {
      const m = entries(ctx, n, path);
      const keys = [...m.keys()];
      if (!isTransform || depth > 0 || keys.join(',') !== 'translation,rotation') {
        ctx.fail(
          n,
          path,
          `a mapping with keys ${keys.map((k) => `\`${k}\``).join(', ') || '(none)'}`,
          isTransform ? '`translation: [x,y,z]` then `rotation: [w,x,y,z]`, or a list of 7 numbers' : 'a list of numbers',
        );
      }
      for (const k of keys) walk(m.get(k)?.value, `${path}.${k}`, depth + 1);
    } else if (isScalar(n) && (typeof n.value === 'number' || typeof n.value === 'boolean')) {
      const v = typeof n.value === 'boolean' ? (n.value ? 1 : 0) : n.value;
      if (!Number.isFinite(v)) ctx.fail(n, path, describe(n), 'a finite number');
      values.push(v);
      nodes.push(n);
    } else ctx.fail(n, path, describe(n), 'a number');
  };
  walk(e.value, subject, 0);
  const want = RAW_FIELDS[e.key];
  if (values.length !== want) ctx.fail(e.value, subject, `${values.length} number${values.length === 1 ? '' : 's'}`, `${want} numbers`);
  if (isTransform && isMap(e.value)) {
    // counts per part: translation 3, rotation 4
    const m = entries(ctx, e.value, subject);
    const t = m.get('translation')?.value;
    if (isSeq(t) && t.items.length !== 3) ctx.fail(t, `${subject}.translation`, `${t.items.length} numbers`, '3 numbers');
  }
  return { values, nodes, node: e.value };
}

/** The original requires each field on every joint of an archetype or on none, with one count. */
function checkFieldConsistency(ctx: Ctx, arch: RawArchetype): void {
  const all = new Set<string>();
  for (const j of arch.joints) for (const k of j.fields.keys()) all.add(k);
  for (const f of all) {
    const has = arch.joints.find((j) => j.fields.has(f)) as RawJoint;
    const lacks = arch.joints.find((j) => !j.fields.has(f));
    if (lacks)
      ctx.fail(
        lacks.fieldsNode,
        `${lacks.subject}.fields`,
        `no \`${f}\` (joint \`${has.name}\` has one)`,
        `\`${f}\` on every joint of archetype \`${arch.name}\` or on none`,
      );
  }
}
