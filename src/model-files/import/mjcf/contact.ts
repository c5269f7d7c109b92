// <contact>: <exclude> body pairs, as MuJoCo's mjXReader::Contact; explicit <pair>s are refused.

import type { Reader } from '../read-attrs.js';
import { sections, type MjcfContext } from './context.js';

export function readContacts(ctx: MjcfContext): void {
  const r: Reader = ctx.r;
  const { ir } = ctx;
  for (const s of sections(ctx, 'contact')) {
    for (const c of s.children) {
      if (c.name !== 'exclude')
        r.fail(c, `<contact><${c.name}>`, `an explicit contact ${c.name}`, '<exclude body1 body2> only (explicit pairs are not supported)');
      const b1 = c.attrs.get('body1');
      const b2 = c.attrs.get('body2');
      if (!b1 || !b2) r.fail(c, '<exclude>', 'a missing body1 or body2', 'body1="A" body2="B"');
      ir.excludes.push({ body1: b1.value, body2: b2.value, source: r.span(c) });
    }
  }
}
