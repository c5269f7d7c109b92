// URDF → the import IR, as MuJoCo's own URDF reader (xml_urdf.cc) compiles it by default:
// links become bodies in depth-first order from the root links (children in joint order), the
// joint's origin places the child, the root links are welded to the world, visual geometry is
// discarded, and bodies without joints (fixed joints, the roots) are fused into their parent
// (compiler fusestatic, on for URDF): their mass, inertia and collision geometry join the parent's,
// the root's join the world. A link without <inertial> gets its mass from its collision geometry
// at 1000 kg/m³, as in MuJoCo (plain URDF would make it massless): the import says so.
//
// One file per element, as the MJCF reader: links.ts (the tree), joint.ts, inertial.ts,
// collision.ts, fuse.ts (fusestatic); context.ts holds what they share.

import { emptyIrModel, type ImportNote, type IrModel } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';
import { readCollisions } from './collision.js';
import { newUrdfContext } from './context.js';
import { fuseStatic, type LinkBody } from './fuse.js';
import { inertiaFromCollision, readInertial } from './inertial.js';
import { readJoint } from './joint.js';
import { readLinkTree } from './links.js';

export { resolveMesh } from './collision.js';

export function readUrdf(r: Reader, root: XmlElement, notes: ImportNote[]): IrModel {
  const u = newUrdfContext(r, notes);
  const { links, order } = readLinkTree(u, root);
  // Every link as a MuJoCo body (before fusing): frame, joints, inertia, collision geoms.
  const bodies: LinkBody[] = [];
  const index = new Map<number, number>();
  for (const li of order) {
    const l = links[li];
    const subject = `link '${l.name}'`;
    const body: LinkBody = {
      link: li,
      name: l.name,
      parent: l.parent < 0 ? -1 : index.get(l.parent)!,
      pos: [0, 0, 0],
      quat: [1, 0, 0, 0],
      joints: [],
      mass: 0,
      ipos: [0, 0, 0],
      inertia: [0, 0, 0, 0, 0, 0],
      geoms: [],
      source: r.span(l.el),
    };
    index.set(li, bodies.length);
    if (l.joint) readJoint(u, body, l.joint);
    const explicit = readInertial(u, body, l.el, subject);
    readCollisions(u, body, l.el, l.name, explicit);
    if (!explicit) inertiaFromCollision(u, body, l.el, subject);
    bodies.push(body);
  }
  // MuJoCo's default options: a URDF has no <option>
  const ir = emptyIrModel(root.attrs.get('name')?.value ?? 'urdf-robot', 'urdf');
  fuseStatic(u, bodies, links, ir);
  return ir;
}
