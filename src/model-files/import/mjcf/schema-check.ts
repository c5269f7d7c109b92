// MJCF checked against MuJoCo's schema before anything is read, as MuJoCo's mjXSchema::Check does
// (src/xml/xml_util.cc): an element or attribute MuJoCo does not know is an error at its line, with
// the nearest known name when it looks like a typo. So `<joint axsi="1 0 0">` is refused, as MuJoCo
// refuses it, instead of importing a joint about the default axis. An attribute MuJoCo knows but
// the importer does not read is judged later, where the element is read.

import { closest, quote } from '../../common/errors.js';
import { BODY_ROW, FRAME_ROW, MJCF_SCHEMA, REPLICATE_ROW, type SchemaNode } from './schema.js';
import type { Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';

const attrSets = new Map<SchemaNode, string[]>();
const attrsOf = (s: SchemaNode): string[] => {
  let a = attrSets.get(s);
  if (!a) attrSets.set(s, (a = s.a ? s.a.split(' ') : []));
  return a;
};

/** mjXSchema::NameMatch: <worldbody>, <frame> and <replicate> are read by the <body> row. */
function nameMatch(s: SchemaNode, el: XmlElement, level: number): boolean {
  if (s.n === 'body') {
    return (
      (level === 1 && el.name === 'worldbody') ||
      (level !== 1 && el.name === 'body') ||
      (level >= 1 && (el.name === 'frame' || el.name === 'replicate'))
    );
  }
  return s.n === el.name;
}

/** Rows whose children are a body's: <body> (and <worldbody>), <frame>, <replicate>. */
const BODY_LIKE = new Set([BODY_ROW, FRAME_ROW, REPLICATE_ROW]);
const IN_BODY: Record<string, SchemaNode> = { body: BODY_ROW, frame: FRAME_ROW, replicate: REPLICATE_ROW };

/** The row of `el` inside a body-like parent at `level` (worldbody is level 1). */
function bodyChildRow(p: SchemaNode, el: XmlElement, level: number): SchemaNode | undefined {
  if (!BODY_LIKE.has(p)) return undefined;
  return (level >= 2 && Object.hasOwn(IN_BODY, el.name) ? IN_BODY[el.name] : undefined) ?? p.c?.find((x) => x.n === el.name);
}

interface Parent {
  el: XmlElement;
  s: SchemaNode;
  level: number;
  /** How many children matched each schema row so far (for rows allowed once). */
  seen: Map<SchemaNode, number>;
}

/** Throws a SceneError at the first element or attribute MuJoCo's schema does not allow, in
 *  document order (the tree is walked with an explicit stack: no recursion, whatever the depth). */
export function checkMjcfSchema(r: Reader, root: XmlElement): void {
  const stack: { el: XmlElement; parent?: Parent }[] = [{ el: root }];
  while (stack.length > 0) {
    const { el, parent } = stack.pop()!;
    const level = parent ? parent.level + 1 : 0;
    let s = MJCF_SCHEMA;
    if (parent) {
      const p = parent.s;
      let sub = BODY_LIKE.has(p) ? bodyChildRow(p, el, level) : p.c?.find((x) => nameMatch(x, el, level));
      if (!sub && p.r && nameMatch(p, el, level)) sub = p;
      if (!sub) {
        const names = BODY_LIKE.has(p)
          ? ['body', 'frame', 'replicate', ...(p.c ?? []).map((x) => x.n)]
          : (p.c ?? []).map((x) => x.n).concat(p.r ? [p.n] : []);
        const near = closest(el.name, names);
        r.fail(
          el,
          `<${parent.el.name}>`,
          `unrecognized element <${quote(el.name, 60, '')}>`,
          names.length
            ? `one of MuJoCo's elements in <${parent.el.name}>: ${names.join(', ')}`
            : `no child elements (MuJoCo's <${parent.el.name}> has none)`,
          near ? `did you mean <${near}>?` : undefined,
        );
      }
      if (sub !== p) {
        const n = (parent.seen.get(sub) ?? 0) + 1;
        parent.seen.set(sub, n);
        if (sub.one && n > 1)
          r.fail(
            el,
            `<${el.name}>`,
            `a second <${el.name}> in <${parent.el.name}>`,
            `at most one (MuJoCo: "unique element '${el.name}' found ${n} times")`,
          );
      }
      s = sub;
    }
    const allowed = attrsOf(s);
    for (const [name, a] of el.attrs) {
      if (allowed.includes(name)) continue;
      const near = closest(name, allowed);
      r.fail(
        a,
        `<${el.name}>`,
        `unrecognized attribute ${quote(name, 60, "'")}`,
        allowed.length ? `an attribute MuJoCo's schema allows on <${el.name}>` : `no attributes (MuJoCo's <${el.name}> has none)`,
        near ? `did you mean '${near}'?` : undefined,
      );
    }
    // MuJoCo: "World body cannot have attributes" (the schema reads it as a body, the reader refuses)
    if (el.name === 'worldbody' && level === 1) {
      const first = el.attrs.values().next().value;
      if (first)
        r.fail(first, '<worldbody>', 'an attribute on the world body', 'no attributes (MuJoCo: "World body cannot have attributes")');
    }
    const me: Parent = { el, s, level, seen: new Map() };
    for (let k = el.children.length - 1; k >= 0; k--) stack.push({ el: el.children[k], parent: me });
  }
}
