// What every element reader of the MJCF reader shares, as MuJoCo's mjXReader shares its mjSpec:
// the file (Reader: FILE:LINE:COL errors), the notes, the compiler settings read so far, the default
// classes, the meshes, and the model being built. One context per file; the readers take it first.

import type { Vec3 } from '../../../engine/model-desc.js';
import type { ImportNote, IrGeom, IrModel } from '../ir.js';
import type { ProcessedMesh } from '../mesh/process.js';
import type { Reader } from '../read-attrs.js';
import type { Pos, XmlAttr, XmlElement } from '../xml.js';
import { defaultCompiler, type Compiler } from './compiler.js';
import type { Defaults } from './defaults.js';

/** What a geom says about its mass, kept until its body knows whether its inertia comes from geoms. */
export interface GeomMassSpec {
  mass: number | undefined;
  density: number;
  group: number;
  el: XmlElement;
  /** The geom's attributes as its class gives them (to report a mass that overflows at its source). */
  get: (n: string) => XmlAttr | undefined;
}

export interface MjcfContext {
  /** Readers copy it into a name typed Reader (`const r: Reader = ctx.r`): TypeScript narrows after a
   *  call to r.fail (it returns never) only when the callee's name has a declared type. */
  r: Reader;
  root: XmlElement;
  notes: ImportNote[];
  compiler: Compiler;
  defaults: Defaults;
  /** Each <asset><mesh> processed as MuJoCo's compiler does, by name. */
  meshes: Map<string, ProcessedMesh>;
  massSpec: Map<IrGeom, GeomMassSpec>;
  ir: IrModel;
  /** The first <replicate> read, and each body or joint a replicate copied, by its name before the
   *  suffix → that replicate (replicate.ts refuses what MuJoCo would copy along with them). */
  replicates: { first?: XmlElement; names: Map<string, XmlElement> };
  /** The site names the <equality> section names (site1, site2): the body reader keeps those sites. */
  equalitySites: Set<string>;
  /** Adds a note at an element or attribute of the file (once: a <replicate> reads its children
   *  once per copy, and one note per line says it). */
  note: Note;
}

export type Note = (kind: ImportNote['kind'], at: Pos, message: string) => void;

/** The context for reading `root` (the <mujoco> element): MuJoCo's defaults until the file says otherwise. */
export function newContext(r: Reader, root: XmlElement, notes: ImportNote[]): MjcfContext {
  const noted = new Set<string>();
  return {
    r,
    root,
    notes,
    note: (kind, at, message) => {
      const source = r.span(at);
      const key = `${kind}\0${source.file}\0${source.line}\0${source.column}\0${message}`;
      if (noted.has(key)) return;
      noted.add(key);
      notes.push({ kind, source, message });
    },
    replicates: { names: new Map() },
    equalitySites: new Set(
      root.children
        .filter((c) => c.name === 'equality')
        .flatMap((s) => s.children.flatMap((e) => ['site1', 'site2'].map((n) => e.attrs.get(n)?.value)))
        .filter((n): n is string => n !== undefined),
    ),
    compiler: defaultCompiler(),
    defaults: new Map(),
    meshes: new Map(),
    massSpec: new Map(),
    ir: {
      name: root.attrs.get('model')?.value ?? 'mjcf-model',
      format: 'mjcf',
      bodies: [],
      worldGeoms: [],
      option: {
        timestep: 0.002,
        gravity: [0, 0, -9.81],
        integrator: 'euler',
        iterations: 100,
        impratio: 1,
        cone: 'pyramidal',
        solver: 'newton',
        tolerance: 1e-8,
        noslipIterations: 0,
        noslipTolerance: 1e-6,
      },
      actuators: [],
      excludes: [],
    },
  };
}

/** The top-level elements of one kind, in file order. */
export const sections = (ctx: MjcfContext, name: string): XmlElement[] => ctx.root.children.filter((c) => c.name === name);

export const vec3 = (ctx: MjcfContext, a: XmlAttr | undefined, subject: string, dflt: Vec3): Vec3 =>
  a ? (ctx.r.nums(a, subject, 3) as Vec3) : [...dflt];
export const numOr = (ctx: MjcfContext, a: XmlAttr | undefined, subject: string, dflt: number): number =>
  a ? ctx.r.num(a, subject) : dflt;

/** A number the engine needs >= 0 (damping, armature, frictionloss, margin, friction, gains): MuJoCo's
 *  compiler takes a negative one as written, the native core refuses the model at load without a
 *  place, so it is refused here, at its attribute. */
export function nonNegativeOr(ctx: MjcfContext, a: XmlAttr | undefined, subject: string, dflt: number): number {
  const x = numOr(ctx, a, subject, dflt);
  if (a && !(x >= 0))
    ctx.r.fail(a, subject, a.value.trim(), 'a number >= 0 (MuJoCo takes a negative one as written; the engine cannot run it)');
  return x;
}
