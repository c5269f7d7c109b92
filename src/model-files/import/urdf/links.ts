// The link tree: every <link> by name, each <joint> joining a parent link to a child, and the order
// MuJoCo's URDF reader adds them in (depth first from the root links, children in joint order:
// AddToTree). A second parent, a cycle, an unknown link or a mimic joint is refused at its element.

import { quote } from '../../common/errors.js';
import type { Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';
import type { UrdfContext } from './context.js';

export interface Link {
  el: XmlElement;
  name: string;
  parent: number;
  joint?: XmlElement;
  children: number[];
}

/** The links and the order they become bodies in. */
export function readLinkTree(u: UrdfContext, root: XmlElement): { links: Link[]; order: number[] } {
  const r: Reader = u.r;
  const links: Link[] = [];
  const byName = new Map<string, number>();
  for (const c of root.children) {
    if (c.name === 'link') {
      const name = u.need(c, 'name', '<link>').value;
      if (byName.has(name)) r.fail(c, `link '${name}'`, 'a second link of this name', 'unique link names');
      byName.set(name, links.length);
      links.push({ el: c, name, parent: -1, children: [] });
    } else if (c.name === 'joint') continue;
    else if (c.name === 'mujoco') u.note('skipped', c, 'the <mujoco> extension is not read (compiler and option keep their defaults)');
    else if (['material', 'gazebo', 'transmission'].includes(c.name)) u.note('skipped', c, `<${c.name}> does not change the dynamics`);
    // MuJoCo's URDF reader looks only for the elements it knows and ignores the rest (ros2_control,
    // extensions of other tools): so does the import, with a note
    else u.note('skipped', c, `<${quote(c.name, 60, '')}> is not URDF's; MuJoCo's URDF reader ignores it, and so does the import`);
  }
  if (links.length === 0) r.fail(root, '<robot>', 'no links', 'at least one <link>');
  for (const j of root.children.filter((c) => c.name === 'joint')) joinLinks(u, j, links, byName);
  return { links, order: depthFirst(u, links) };
}

/** A <joint>: its child link gets the parent and the joint. */
function joinLinks(u: UrdfContext, j: XmlElement, links: Link[], byName: Map<string, number>): void {
  const r: Reader = u.r;
  const name = u.need(j, 'name', '<joint>').value;
  const p = u.child(j, 'parent');
  const ch = u.child(j, 'child');
  if (!p || !ch) r.fail(j, `joint '${name}'`, 'a missing <parent> or <child>', '<parent link="A"/> and <child link="B"/>');
  const pi = byName.get(u.need(p, 'link', `joint '${name}' parent`).value);
  const ci = byName.get(u.need(ch, 'link', `joint '${name}' child`).value);
  if (pi === undefined || ci === undefined)
    r.fail(
      pi === undefined ? p : ch,
      `joint '${name}'`,
      `link '${(pi === undefined ? p : ch).attrs.get('link')!.value}', which the robot does not have`,
      `one of ${[...byName.keys()].slice(0, 8).join(', ')}`,
    );
  if (links[ci].parent >= 0)
    r.fail(ch, `joint '${name}'`, `a second parent for link '${links[ci].name}'`, 'a tree (each link has one parent joint)');
  if (u.child(j, 'mimic'))
    r.fail(
      u.child(j, 'mimic')!,
      `joint '${name}' mimic`,
      'a mimic joint',
      'independent joints (a mimic couples two joints, which the URDF import does not read; in MJCF the coupling is an <equality><joint> constraint, which it does)',
    );
  links[ci].parent = pi;
  links[ci].joint = j;
  links[pi].children.push(ci);
}

/** Depth-first from the roots, in link order (MuJoCo's AddToTree); a link not reached is in a cycle. */
function depthFirst(u: UrdfContext, links: Link[]): number[] {
  const order: number[] = [];
  const seen = new Set<number>();
  const dfs = (i: number): void => {
    seen.add(i);
    order.push(i);
    for (const c of links[i].children) dfs(c);
  };
  links.forEach((l, i) => l.parent < 0 && dfs(i));
  if (order.length !== links.length) {
    const bad = links.find((_, i) => !seen.has(i))!;
    u.r.fail(bad.joint ?? bad.el, `link '${bad.name}'`, 'a cycle of joints', 'a tree');
  }
  return order;
}
