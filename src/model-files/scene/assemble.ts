// Shared last stage of both dialects: checks the link graph (unique names, parents exist, no cycle,
// free joints only on links attached to the world) and emits bodies in stable topological order.
// A scene may hold several trees: every link with the world as parent is a root.

import type { BodyDesc, ModelDesc, WorldSettings } from '../../engine/model-desc.js';
import { didYouMean, printable } from '../common/errors.js';
import { findCycle, stableTopoOrder } from './topo.js';
import type { Ctx, YNode } from './yaml-read.js';

export interface Draft {
  /** The body without `parent` (resolved here). */
  body: Omit<BodyDesc, 'parent'>;
  /** Parent's name, or null for the world. */
  parent: string | null;
  ctx: Ctx;
  subject: string;
  nameNode: YNode;
  parentNode: YNode;
  jointNode: YNode;
}

export function assemble(name: string, drafts: Draft[], world: WorldSettings, files: string[]): ModelDesc {
  const index = new Map<string, number>();
  drafts.forEach((d, i) => {
    const prev = index.get(d.body.name);
    if (prev !== undefined) {
      const p = drafts[prev];
      const at = p.body.source ? `${printable(p.body.source.file)}:${p.body.source.line}:${p.body.source.column}` : 'earlier';
      d.ctx.fail(d.nameNode, d.subject, `the name \`${d.body.name}\` again (first used at ${at})`, 'a unique name');
    }
    index.set(d.body.name, i);
  });
  const names = [...index.keys()];
  let roots = 0;
  const parents = drafts.map((d, i) => {
    if (d.parent === null) {
      roots++;
      return -1;
    }
    const p = index.get(d.parent);
    if (p === undefined)
      throw d.ctx.error(
        d.parentNode,
        d.subject,
        `parent \`${d.parent}\`, which does not exist`,
        'the name of another link or joint (or the world)',
        didYouMean(d.parent, names),
      );
    if (p === i) d.ctx.fail(d.parentNode, d.subject, `itself as parent`, 'another link as parent');
    return p;
  });
  if (roots === 0 && drafts.length > 0) {
    const d = drafts[0];
    d.ctx.fail(
      d.parentNode,
      d.subject,
      'no root (every link has a parent, so they form a cycle)',
      'at least one link attached to the world',
    );
  }
  const { order, stuck } = stableTopoOrder(parents);
  if (stuck.length > 0) {
    const cyc = findCycle(parents, stuck[0]);
    const d = drafts[cyc[0] ?? stuck[0]];
    const loop = [...cyc, cyc[0]].map((i) => drafts[i].body.name).join(' → ');
    d.ctx.fail(d.parentNode, d.subject, `a parent cycle ${loop}`, 'a tree (no link may be its own ancestor)');
  }
  for (const d of drafts) {
    if (d.body.joint === 'free' && d.parent !== null)
      d.ctx.fail(
        d.jointNode,
        d.subject,
        `a free joint on a link whose parent is \`${d.parent}\`, not the world`,
        'free joints only on links attached to the world (`parent: world`)',
      );
  }
  const newIndex = new Map<number, number>();
  order.forEach((old, k) => newIndex.set(old, k));
  const bodies: BodyDesc[] = order.map((old) => {
    const { name: bodyName, ...rest } = drafts[old].body;
    return { name: bodyName, parent: parents[old] < 0 ? -1 : (newIndex.get(parents[old]) as number), ...rest };
  });
  return { name, bodies, world, files };
}
