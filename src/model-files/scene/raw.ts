// The raw (original-system) dialect: archetypes with copies/attach/includes, flattened into one
// tree. Naming of the flattened bodies (documented in docs/scene-format.md):
//   root archetype:                 `joint`            (unchanged, so the shared scenes keep their names)
//   other archetype, copies = 1:    `archetype/joint`
//   other archetype, copies = N>1:  `archetype[k]/joint`, k = 0..N-1
// Raw scenes carry no world settings: gravity 0 unless a sim_config gives one.

import type { ModelDesc, WorldSettings } from '../../engine/model-desc.js';
import { SCENE_LINKS } from '../../engine/world-limits.js';
import { assemble, type Draft } from './assemble.js';
import { didYouMean } from '../common/errors.js';
import { rawJointToBody } from './raw-joint.js';
import { readRawTree, type RawArchetype } from './raw-read.js';
import type { ParsedFile } from './yaml-read.js';

export const RAW_DEFAULT_WORLD: WorldSettings = { gravity: [0, 0, 0], dt: 0.002, integrator: 'euler', duration: 10, substeps: 1 };

export function loadRaw(pf: ParsedFile, file: string, worldOverride: Partial<WorldSettings>, files: string[]): ModelDesc {
  const archs = readRawTree(pf, file, files);
  const byName = new Map<string, RawArchetype>();
  for (const a of archs) {
    if (byName.has(a.name))
      a.ctx.fail(
        a.nameNode,
        'archetype',
        `the name \`${a.name}\` again (also in ${byName.get(a.name)?.ctx.file})`,
        'archetype names unique across all included files',
      );
    byName.set(a.name, a);
  }
  const roots = archs.filter((a) => !a.attach);
  if (roots.length === 0) {
    const a = archs[0];
    a.ctx.fail(a.attach?.node, 'attach', 'every archetype attached to another', 'exactly one root archetype without `attach`');
  }
  if (roots.length > 1)
    roots[1].ctx.fail(
      roots[1].nameNode,
      'archetype',
      `a second root archetype \`${roots[1].name}\` (\`${roots[0].name}\` has no \`attach\` either)`,
      'exactly one archetype without `attach`',
    );
  const root = roots[0];
  if (root.copies !== 1)
    root.ctx.fail(
      root.copiesNode,
      'copies',
      `${root.copies} copies of the root archetype`,
      'copies: 1 on the root (attach copies under another archetype instead)',
    );

  for (const a of archs) checkLocalTree(a);
  for (const a of archs) {
    if (!a.attach) continue;
    const t = byName.get(a.attach.archetype);
    if (!t)
      throw a.ctx.error(
        a.attach.archetypeNode,
        'attach.archetype',
        `\`${a.attach.archetype}\`, which is not loaded`,
        'an archetype from this file or its includes',
        didYouMean(a.attach.archetype, [...byName.keys()]),
      );
    if (!t.joints.some((j) => j.name === a.attach?.joint)) {
      a.ctx.fail(
        a.attach.jointNode,
        'attach.joint',
        `\`${a.attach.joint}\`, which archetype \`${t.name}\` does not have`,
        `one of ${t.joints.map((j) => `\`${j.name}\``).join(', ')}`,
        didYouMean(
          a.attach.joint,
          t.joints.map((j) => j.name),
        ),
      );
    }
    if (a.copies !== t.copies && t.copies !== 1)
      a.ctx.fail(
        a.copiesNode ?? a.attach.node,
        'copies',
        `${a.copies} copies attached to \`${t.name}\` with ${t.copies}`,
        `${t.copies} (one per target copy) or a target with 1 copy`,
      );
    // the attach chain must reach the root: otherwise it is a cycle
    const seen = new Set<string>([a.name]);
    for (let c: RawArchetype | undefined = t; c && c !== root; c = c.attach ? byName.get(c.attach.archetype) : undefined) {
      if (seen.has(c.name))
        a.ctx.fail(
          a.attach.node,
          'attach',
          `an attach cycle through \`${c.name}\``,
          `a chain of attaches that ends at the root archetype \`${root.name}\``,
        );
      seen.add(c.name);
    }
  }

  // copies multiply: count before building anything (`copies: 1e9` must not allocate forever)
  const total = archs.reduce((n, a) => n + a.copies * a.joints.length, 0);
  if (total > SCENE_LINKS.max) {
    const big = archs.reduce((x, a) => (a.copies * a.joints.length > x.copies * x.joints.length ? a : x));
    big.ctx.fail(
      big.copiesNode ?? big.nameNode,
      'copies',
      `${total} links in all (archetype \`${big.name}\`: ${big.copies} × ${big.joints.length})`,
      `at most ${SCENE_LINKS.max} links`,
    );
  }
  const full = (a: RawArchetype, k: number, joint: string): string =>
    a === root ? joint : a.copies === 1 ? `${a.name}/${joint}` : `${a.name}[${k}]/${joint}`;
  const drafts: Draft[] = [];
  for (const a of [root, ...archs.filter((x) => x !== root)]) {
    const bodies = a.joints.map((j) => rawJointToBody(a.ctx, j)); // converted once, shared by copies
    for (let k = 0; k < a.copies; k++) {
      pf.onLink?.(drafts.length, total);
      a.joints.forEach((j, i) => {
        let parent: string | null = null;
        if (j.parent !== null) parent = full(a, k, j.parent);
        else if (a.attach) {
          const t = byName.get(a.attach.archetype) as RawArchetype;
          parent = full(t, t.copies === 1 ? 0 : k, a.attach.joint);
        }
        const { line, column } = a.ctx.pos(j.node);
        const b = bodies[i];
        drafts.push({
          body: {
            ...b,
            name: full(a, k, j.name),
            q0: [...b.q0],
            v0: [...b.v0],
            tau: [...b.tau],
            source: { file: a.ctx.file, line, column },
          },
          parent,
          ctx: a.ctx,
          subject: j.subject,
          nameNode: j.nameNode,
          parentNode: j.parentNode,
          jointNode: j.fieldsNode,
        });
      });
    }
  }
  return assemble(root.name, drafts, { ...RAW_DEFAULT_WORLD, ...worldOverride }, files);
}

/** Each archetype is one tree with exactly one local root, parents inside the archetype. */
function checkLocalTree(a: RawArchetype): void {
  const names = a.joints.map((j) => j.name);
  let localRoot: string | undefined;
  for (const j of a.joints) {
    if (j.parent === null) {
      if (localRoot !== undefined)
        a.ctx.fail(
          j.parentNode,
          j.subject,
          `a second local root (\`${localRoot}\` has no parent either)`,
          `exactly one joint without a parent in archetype \`${a.name}\``,
        );
      localRoot = j.name;
    } else if (!names.includes(j.parent)) {
      a.ctx.fail(
        j.parentNode,
        j.subject,
        `parent \`${j.parent}\`, which archetype \`${a.name}\` does not have`,
        'a joint of the same archetype (or null for the local root)',
        didYouMean(j.parent, names),
      );
    }
  }
  if (localRoot === undefined)
    a.ctx.fail(a.nameNode, `archetype ${a.name}`, 'no joint without a parent (a cycle)', 'exactly one local root joint');
}
