// <default> classes, as MuJoCo's mjXReader::Default: `main` at the top, each nested class starts
// from a copy of its parent's attributes; an element takes an attribute from its own tag first,
// then from its class (its class= or the childclass it inherits).

import { quote } from '../../common/errors.js';
import { importBug } from '../bugs.js';
import { describeEl, type Reader } from '../read-attrs.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import { sections, type MjcfContext } from './context.js';

/** Every top-level <default> (and the classes nested in it); `main` exists afterwards, empty if not given. */
export function readDefaults(ctx: MjcfContext): void {
  for (const d of sections(ctx, 'default')) readDefault(ctx, d, undefined, true);
  if (!ctx.defaults.has('main')) ctx.defaults.set('main', new Map());
}

function readDefault(ctx: MjcfContext, el: XmlElement, parent: Map<string, Map<string, XmlAttr>> | undefined, top: boolean): void {
  const r: Reader = ctx.r;
  const { defaults } = ctx;
  const cls =
    el.attrs.get('class')?.value ?? (top ? 'main' : r.fail(el, '<default>', 'a nested default without a class name', 'class="NAME"'));
  if (defaults.has(cls) && !(top && cls === 'main' && defaults.get(cls)!.size === 0))
    r.fail(el, `default class '${cls}'`, 'a second definition', 'unique class names');
  const own = new Map<string, Map<string, XmlAttr>>();
  const inherit = parent && !(importBug('import-default-not-inherited') && !top);
  if (inherit) for (const [k, v] of parent) own.set(k, new Map(v));
  for (const c of el.children) {
    if (c.name === 'default') continue;
    const m = own.get(c.name) ?? new Map<string, XmlAttr>();
    for (const [k, v] of c.attrs) m.set(k, v);
    own.set(c.name, m);
  }
  defaults.set(cls, own);
  for (const c of el.children) if (c.name === 'default') readDefault(ctx, c, own, false);
}

/** Refuses a class name (class=, childclass=) that no <default> defines. */
export function checkClass(ctx: MjcfContext, a: XmlAttr, subject: string): void {
  if (!ctx.defaults.has(a.value))
    ctx.r.fail(a, subject, `${quote(a.value, 60, "'")}, which no <default> defines`, `one of ${[...ctx.defaults.keys()].join(', ')}`);
}

/** The class an element reads its defaults from: its own class=, else the one it inherits. */
export function classOf(ctx: MjcfContext, el: XmlElement, inherited: string): string {
  const c = el.attrs.get('class');
  if (c) checkClass(ctx, c, `${describeEl(el)} class`);
  return c?.value ?? inherited;
}

/** An attribute of `el` (a `kind` element: geom, joint, ...) from the element, else from class `cls`. */
export const attrOf = (ctx: MjcfContext, el: XmlElement, kind: string, cls: string, name: string): XmlAttr | undefined =>
  el.attrs.get(name) ?? ctx.defaults.get(cls)?.get(kind)?.get(name);
