// MJCF (MuJoCo XML) → the import IR, following MuJoCo's compiler for everything that changes the
// dynamics: the body tree and every orientation form, inertials and inertia from geoms, joints,
// geoms, default classes and childclass, compiler and option settings, actuators and the first
// keyframe, fixed tendons. Elements that do not change the dynamics are skipped with a note; anything
// else that would (spatial tendons, equality constraints, fluid forces, flex, ...) is refused at its line.

import { basename, dirname, isAbsolute, join } from 'node:path';
import { DEFAULT_SOLIMP, DEFAULT_SOLREF, type Quat, type Solimp, type Solref, type Vec3 } from '../engine/model-desc.js';
import { inertiaProblem, quatRotate, rotateInertia, type Inertia6 } from '../scene/math.js';
import { importBug } from './bugs.js';
import { axisAngleQuat, eulerQuat, normalize4, xyaxesQuat, zaxisQuat } from './frames.js';
import { inertiaFromGeoms, inferGeomMass } from './geom-inertia.js';
import type { ImportNote, IrActuator, IrBody, IrGeom, IrGeomType, IrJoint, IrModel, IrTendon } from './ir.js';
import { readKey } from './keyframe.js';
import { meshBounds } from './mesh.js';
import { applyDisableFlags, otherOption, readFlags } from './mjcf-flags.js';
import { readSolimp, readSolref } from './sol-params.js';
import { checkMjcfSchema } from './mjcf-strict.js';
import { checkUnread } from './mjcf-unread.js';
import { Reader, describeEl } from './read-attrs.js';
import { quote } from '../scene/errors.js';
import type { Pos, XmlAttr, XmlElement } from './xml.js';

type Defaults = Map<string, Map<string, Map<string, XmlAttr>>>; // class → element → attribute

interface Compiler {
  degree: boolean;
  eulerseq: string;
  meshdir: string;
  autolimits: boolean;
  inertiafromgeom: 'true' | 'false' | 'auto';
  discardvisual: boolean;
  /** Geom groups whose geoms make up a body's inertia (MuJoCo's default: all six, 0 to 5). */
  inertiagrouprange: [number, number];
  /** When > 0: every body's mass and inertia scaled so that they sum to it (mj_setTotalmass). */
  settotalmass: number;
  /** Mesh file names lose their folders (then resolved against meshdir, as MuJoCo does). */
  strippath: boolean;
}

/** Compiler settings that cannot change the compiled model, with why (checked against MuJoCo's
 *  compile of test/fixtures/import/mjcf-settotalmass.xml by test/import-compiler.test.ts). */
const COMPILER_NO_EFFECT: Record<string, string> = {
  texturedir: 'textures are not read',
  usethread: "threads change how fast MuJoCo's compiler runs, not its result",
  saveinertial: 'it changes only what MuJoCo writes when it saves the model',
  fitaabb: 'no geom is fitted to a mesh (a primitive geom with mesh= is refused)',
  conflict: 'it resolves name conflicts of <attach>, which is refused',
};

/** Elements skipped because they do not change the motion, with why (checked against MuJoCo's
 *  compile of test/fixtures/import/mjcf-inert-settings.xml by test/import-compiler.test.ts). */
const INERT: Record<string, string> = {
  visual: 'it sets how MuJoCo draws the model',
  statistic: "it sets the viewer's extent and MuJoCo's solver tolerance scale (meaninertia), not the model's dynamics",
  size: "it sizes MuJoCo's memory and user arrays",
  custom: 'it holds user data that no simulation step reads',
  sensor: 'sensors read the state without changing it (they are not imported)',
};
/** Elements refused: they change the dynamics and are not supported. */
const REFUSED: Record<string, string> = {
  equality: 'equality constraints',
  deformable: 'flex and skin (deformable bodies)',
  extension: 'plugins',
  include: '<include> (inline the included file)',
};

export function readMjcf(r: Reader, root: XmlElement, notes: ImportNote[]): IrModel {
  checkMjcfSchema(r, root); // MuJoCo refuses unknown elements and attributes before reading any
  const note = (kind: ImportNote['kind'], at: Pos, message: string): void => void notes.push({ kind, source: r.span(at), message });
  const compiler: Compiler = { degree: true, eulerseq: 'xyz', meshdir: '', autolimits: true, inertiafromgeom: 'auto', discardvisual: false, inertiagrouprange: [0, 5], settotalmass: 0, strippath: false };
  const ir: IrModel = {
    name: root.attrs.get('model')?.value ?? 'mjcf-model',
    format: 'mjcf',
    bodies: [],
    worldGeoms: [],
    option: { timestep: 0.002, gravity: [0, 0, -9.81], integrator: 'euler', iterations: 100, impratio: 1 },
    actuators: [],
    excludes: [],
  };
  const sections = (name: string): XmlElement[] => root.children.filter((c) => c.name === name);
  for (const c of root.children) {
    if (INERT[c.name]) note('skipped', c, `<${c.name}> does not change the dynamics: ${INERT[c.name]}`);
    else if (REFUSED[c.name]) r.fail(c, `<${c.name}>`, REFUSED[c.name], 'what the importer supports: worldbody, default, compiler, option, asset (meshes), tendon (fixed), actuator (motor, position, velocity), contact (exclude), keyframe');
    else if (!['compiler', 'option', 'default', 'asset', 'worldbody', 'tendon', 'actuator', 'contact', 'keyframe'].includes(c.name)) {
      r.fail(c, `<${c.name}>`, 'an element MJCF does not define at the top level', 'compiler, option, size, visual, statistic, default, custom, asset, worldbody, contact, equality, tendon, actuator, sensor, keyframe');
    }
  }
  for (const c of sections('compiler')) readCompiler(r, c, compiler, note);
  for (const o of sections('option')) readOption(r, o, ir, note);

  // Default classes: `main` at the top, nested classes inherit from their parent.
  const defaults: Defaults = new Map();
  const readDefault = (el: XmlElement, parent: Map<string, Map<string, XmlAttr>> | undefined, top: boolean): void => {
    const cls = el.attrs.get('class')?.value ?? (top ? 'main' : r.fail(el, '<default>', 'a nested default without a class name', 'class="NAME"'));
    if (defaults.has(cls) && !(top && cls === 'main' && defaults.get(cls)!.size === 0)) r.fail(el, `default class '${cls}'`, 'a second definition', 'unique class names');
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
    for (const c of el.children) if (c.name === 'default') readDefault(c, own, false);
  };
  for (const d of sections('default')) readDefault(d, undefined, true);
  if (!defaults.has('main')) defaults.set('main', new Map());

  const meshes = new Map<string, { min: Vec3; max: Vec3 }>();
  /** MuJoCo refuses a mesh whose vertices lie in one plane (it cannot build the convex hull); here
   *  the plane is one the bounding box shows (flat along an axis), which would make a flat box. */
  const flatMesh = (name: string, at: XmlAttr, b: { min: Vec3; max: Vec3 }): void => {
    const size = [0, 1, 2].map((k) => b.max[k] - b.min[k]);
    if (!size.every((x) => x > 0)) r.fail(at, `mesh ${quote(name)}`, `vertices that all lie in one plane (bounding box ${size.map((x) => String(Number(x.toPrecision(6)))).join(' x ')})`, 'a mesh with volume (MuJoCo: "mesh has coplanar vertices, cannot compute convex hull"; a thin box geom models a plate)');
  };
  for (const a of sections('asset')) {
    for (const c of a.children) {
      if (c.name === 'mesh') {
        const name = c.attrs.get('name')?.value ?? c.attrs.get('file')?.value?.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
        const file = c.attrs.get('file');
        const vertex = c.attrs.get('vertex');
        // a mesh takes its class's <default><mesh> (MuJoCo's default scale: often 0.001 for mm files)
        const meshClass = c.attrs.get('class');
        if (meshClass && !defaults.has(meshClass.value)) r.fail(meshClass, `mesh ${quote(name ?? '')} class`, `${quote(meshClass.value, 60, "'")}, which no <default> defines`, `one of ${[...defaults.keys()].join(', ')}`);
        const scaleA = c.attrs.get('scale') ?? defaults.get(meshClass?.value ?? 'main')?.get('mesh')?.get('scale');
        for (const [f, none] of [['refpos', [0, 0, 0]], ['refquat', [1, 0, 0, 0]]] as const) {
          const a = c.attrs.get(f);
          if (a && !r.nums(a, `mesh ${quote(name ?? '')} ${f}`, none.length).every((x, k) => x === none[k])) r.fail(a, `mesh ${quote(name ?? '')} ${f}`, quote(a.value), `no ${f} (a mesh frame moved by ${f} is not supported)`);
        }
        const scale = (scaleA ? r.nums(scaleA, 'mesh scale', 3) : [1, 1, 1]) as Vec3;
        if (!file && vertex && name) {
          const v = r.nums(vertex, `mesh '${name}' vertex`, [3, 3e6]);
          if (v.length % 3 !== 0) r.fail(vertex, `mesh '${name}' vertex`, `${v.length} numbers`, 'a multiple of 3 (x y z per vertex)');
          const min: Vec3 = [Infinity, Infinity, Infinity];
          const max: Vec3 = [-Infinity, -Infinity, -Infinity];
          for (let i = 0; i < v.length; i += 3) for (let k = 0; k < 3; k++) {
            min[k] = Math.min(min[k], v[i + k] * scale[k]);
            max[k] = Math.max(max[k], v[i + k] * scale[k]);
          }
          flatMesh(name, vertex, { min, max });
          meshes.set(name, { min, max });
          continue;
        }
        if (!file || !name) r.fail(c, '<mesh>', 'a mesh without a file or vertices', 'file="PATH.stl" (or .obj), or vertex="x y z ..."');
        const base = compiler.meshdir ? (isAbsolute(compiler.meshdir) ? compiler.meshdir : join(dirname(r.file), compiler.meshdir)) : dirname(r.file);
        const given = compiler.strippath ? basename(file.value.replace(/\\/g, '/')) : file.value;
        const path = isAbsolute(given) ? given : join(base, given);
        const b = meshBounds(path, scale);
        if ('problem' in b) r.fail(file, `mesh '${name}' file`, `${path}: ${b.problem}`, 'a readable STL or OBJ mesh file (resolved against compiler meshdir and the model file\'s folder)');
        flatMesh(name, file, b);
        meshes.set(name, b);
      } else note('skipped', c, `asset <${c.name}> does not change the dynamics: ${c.name === 'hfield' ? 'a height field counts only through a geom, and hfield geoms are refused' : c.name === 'model' ? 'it is read only by <attach>, which is refused' : 'it is for rendering'}`);
    }
  }

  const attrOf = (el: XmlElement, kind: string, cls: string, name: string): XmlAttr | undefined => el.attrs.get(name) ?? defaults.get(cls)?.get(kind)?.get(name);
  const classOf = (el: XmlElement, inherited: string): string => {
    const c = el.attrs.get('class');
    if (c && !defaults.has(c.value)) r.fail(c, `${describeEl(el)} class`, `${quote(c.value, 60, "'")}, which no <default> defines`, `one of ${[...defaults.keys()].join(', ')}`);
    return c?.value ?? inherited;
  };
  const angle = (x: number): number => (compiler.degree && !importBug('import-degrees-as-radians') ? (x * Math.PI) / 180 : x);
  const angleRange = (x: number): number => (compiler.degree ? (x * Math.PI) / 180 : x);

  /** The frame orientation of an element from quat / axisangle / euler / xyaxes / zaxis (at most one). */
  const orientation = (get: (n: string) => XmlAttr | undefined, subject: string, at: XmlElement): Quat => {
    const forms = ['quat', 'axisangle', 'euler', 'xyaxes', 'zaxis'].filter((f) => get(f));
    if (forms.length > 1) r.fail(at, subject, `${forms.join(' and ')}`, 'at most one orientation (quat, axisangle, euler, xyaxes or zaxis)');
    const f = forms[0];
    if (!f) return [1, 0, 0, 0];
    const a = get(f)!;
    const tooSmall = (v: number[], n: number): void => {
      if (!(Math.hypot(...v.slice(0, n)) >= 1e-14)) r.fail(a, `${subject} ${f}`, 'a zero vector', 'a nonzero direction');
    };
    switch (f) {
      case 'quat': {
        const q = r.nums(a, `${subject} quat`, 4);
        tooSmall(q, 4);
        return normalize4(q);
      }
      case 'axisangle': {
        const v = r.nums(a, `${subject} axisangle`, 4);
        tooSmall(v, 3);
        return axisAngleQuat(v, angle(v[3]));
      }
      case 'euler':
        return eulerQuat(r.nums(a, `${subject} euler`, 3).map(angle), compiler.eulerseq);
      case 'xyaxes': {
        const v = r.nums(a, `${subject} xyaxes`, 6);
        tooSmall(v, 3);
        return xyaxesQuat(v);
      }
      default: {
        const v = r.nums(a, `${subject} zaxis`, 3);
        tooSmall(v, 3);
        return zaxisQuat(v);
      }
    }
  };
  const vec3 = (a: XmlAttr | undefined, subject: string, dflt: Vec3): Vec3 => (a ? (r.nums(a, subject, 3) as Vec3) : [...dflt]);
  const numOr = (a: XmlAttr | undefined, subject: string, dflt: number): number => (a ? r.num(a, subject) : dflt);

  const massSpec = new Map<IrGeom, { mass: number | undefined; density: number; group: number; el: XmlElement }>();
  const geomOf = (el: XmlElement, cls: string, owner: string, k: number, isWorld: boolean): IrGeom | undefined => {
    const get = (n: string): XmlAttr | undefined => attrOf(el, 'geom', cls, n);
    const name = el.attrs.get('name')?.value ?? `${owner}/geom${k}`;
    const subject = `geom '${name}'`;
    const typeA = get('type');
    const type = typeA ? r.choice(typeA, `${subject} type`, ['sphere', 'capsule', 'box', 'cylinder', 'ellipsoid', 'plane', 'mesh', 'hfield', 'sdf'] as const) : 'sphere';
    if (type === 'hfield' || type === 'sdf') r.fail(typeA!, `${subject} type`, type, 'sphere, capsule, box, cylinder, ellipsoid, plane or mesh');
    for (const f of ['fluidshape']) if (get(f) && get(f)!.value !== 'none') r.fail(get(f)!, subject, 'fluid forces (fluidshape)', 'no fluid model (not supported)');
    const contype = numOr(get('contype'), `${subject} contype`, 1);
    const conaffinity = numOr(get('conaffinity'), `${subject} conaffinity`, 1);
    if (compiler.discardvisual && contype === 0 && conaffinity === 0) {
      note('skipped', el, `${subject}: visual geom discarded (compiler discardvisual)`);
      return undefined;
    }
    checkUnread(r, 'geom', get, subject);
    const condimA = get('condim');
    const condim = condimA ? r.num(condimA, `${subject} condim`) : 3;
    if (condim !== 1 && condim !== 3) r.fail(condimA!, `${subject} condim`, String(condim), 'condim 1 (frictionless) or 3 (sliding friction); torsional and rolling friction are not supported');
    const size = [0, 0, 0] as Vec3;
    const sz = get('size');
    if (sz) r.nums(sz, `${subject} size`, [1, 3]).forEach((x, i) => (size[i] = x));
    let pos = vec3(get('pos'), `${subject} pos`, [0, 0, 0]);
    let quat: Quat;
    const fromto = get('fromto');
    if (fromto && type !== 'mesh' && type !== 'plane' && type !== 'sphere') {
      const f = r.nums(fromto, `${subject} fromto`, 6);
      const v: Vec3 = [f[0] - f[3], f[1] - f[4], f[2] - f[5]];
      const len = Math.hypot(...v);
      if (!(len / 2 >= 1e-14)) r.fail(fromto, `${subject} fromto`, 'two coincident points', 'distinct end points');
      size[1] = importBug('import-fromto-length') ? len : len / 2;
      if (type === 'box' || type === 'ellipsoid') {
        size[2] = size[1];
        size[1] = size[0];
      }
      pos = [(f[0] + f[3]) / 2, (f[1] + f[4]) / 2, (f[2] + f[5]) / 2];
      quat = zaxisQuat(v);
    } else {
      if (fromto) r.fail(fromto, `${subject} fromto`, `fromto on a ${type}`, 'fromto only on capsule, cylinder, box or ellipsoid');
      quat = orientation(get, subject, el);
    }
    if (type === 'mesh') {
      const m = get('mesh');
      if (!m) r.fail(el, subject, 'a mesh geom without mesh=', 'mesh="NAME" of an <asset><mesh>');
      const b = meshes.get(m.value);
      if (!b) r.fail(m, `${subject} mesh`, `${quote(m.value, 60, "'")}, which no <asset><mesh> defines`, `one of ${[...meshes.keys()].join(', ') || '(no meshes)'}`);
      const c: Vec3 = [(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2];
      const rq = quatRotate(quat, c);
      pos = [pos[0] + rq[0], pos[1] + rq[1], pos[2] + rq[2]];
      for (let i = 0; i < 3; i++) size[i] = (b.max[i] - b.min[i]) / 2;
    } else {
      const fit = get('mesh');
      if (fit) r.fail(fit, `${subject} mesh`, `a ${type} fitted to mesh ${quote(fit.value)}`, 'type="mesh" with mesh=, or a primitive without mesh= (fitting a primitive to a mesh is not supported)');
      const need = { sphere: 1, capsule: 2, cylinder: 2, box: 3, ellipsoid: 3, plane: 0 }[type];
      for (let i = 0; i < need; i++) if (!(size[i] > 0)) r.fail(sz ?? el, `${subject} size`, sz ? quote3(size) : 'no size', `${need} positive number${need > 1 ? 's' : ''} for a ${type}`);
    }
    if (type === 'plane' && !isWorld) r.fail(el, subject, 'a plane in a body', 'planes only directly in <worldbody> (static)');
    const fr = get('friction');
    const g: IrGeom = {
      name,
      type: type as IrGeomType,
      size,
      pos,
      quat,
      contype,
      conaffinity,
      friction: fr ? r.nums(fr, `${subject} friction`, [1, 3])[0] : 1,
      condim: condim as 1 | 3,
      margin: numOr(get('margin'), `${subject} margin`, 0),
      gap: numOr(get('gap'), `${subject} gap`, 0),
      mass: 0,
      inertia: [0, 0, 0],
      source: r.span(el),
    };
    const sr = get('solref');
    if (sr) g.solref = readSolref(r, sr, `${subject} solref`, note);
    const si = get('solimp');
    if (si) g.solimp = readSolimp(r, si, `${subject} solimp`, note);
    const rgba = get('rgba');
    if (rgba) g.rgba = r.nums(rgba, `${subject} rgba`, 4) as [number, number, number, number];
    const massA = get('mass');
    const groupA = get('group');
    const group = groupA ? r.num(groupA, `${subject} group`) : 0;
    if (groupA && !Number.isInteger(group)) r.fail(groupA, `${subject} group`, quote(groupA.value), 'an integer group');
    massSpec.set(g, { mass: massA ? r.num(massA, `${subject} mass`) : undefined, density: numOr(get('density'), `${subject} density`, 1000), group, el });
    return g;
  };

  const jointOf = (el: XmlElement, cls: string, body: string, k: number): IrJoint => {
    const free = el.name === 'freejoint';
    const get = (n: string): XmlAttr | undefined => (free ? el.attrs.get(n) : attrOf(el, 'joint', cls, n));
    const name = el.attrs.get('name')?.value ?? (k === 0 ? body : `${body}_joint${k}`);
    const subject = `joint '${name}'`;
    const typeA = get('type');
    const type = free ? 'free' : typeA ? r.choice(typeA, `${subject} type`, ['hinge', 'slide', 'ball', 'free'] as const) : 'hinge';
    checkUnread(r, free ? 'freejoint' : 'joint', get, subject);
    const axisRaw = vec3(get('axis'), `${subject} axis`, [0, 0, 1]);
    const an = Math.hypot(...axisRaw);
    if ((type === 'hinge' || type === 'slide') && !(an >= 1e-14)) r.fail(get('axis') ?? el, `${subject} axis`, 'a zero axis', 'a nonzero direction');
    const isAngle = type === 'hinge';
    const conv = (x: number): number => (isAngle ? angleRange(x) : x);
    const j: IrJoint = {
      name,
      type,
      pos: vec3(get('pos'), `${subject} pos`, [0, 0, 0]),
      axis: an > 0 ? [axisRaw[0] / an, axisRaw[1] / an, axisRaw[2] / an] : [0, 0, 1],
      ref: conv(numOr(get('ref'), `${subject} ref`, 0)),
      damping: numOr(get('damping'), `${subject} damping`, 0),
      stiffness: numOr(get('stiffness'), `${subject} stiffness`, 0),
      springref: conv(numOr(get('springref'), `${subject} springref`, 0)),
      armature: numOr(get('armature'), `${subject} armature`, 0),
      frictionloss: numOr(get('frictionloss'), `${subject} frictionloss`, 0),
      source: r.span(el),
    };
    const rangeA = get('range');
    const limA = get('limited');
    const limited = limA ? r.choice(limA, `${subject} limited`, ['true', 'false', 'auto'] as const) : 'auto';
    const isLimited = limited === 'true' || (limited === 'auto' && compiler.autolimits && rangeA !== undefined);
    if (limited === 'auto' && !compiler.autolimits && rangeA) r.fail(rangeA, `${subject} range`, 'a range without limited="true" while compiler autolimits="false"', 'limited="true", or autolimits="true" (as MuJoCo requires)');
    if (isLimited) {
      const rg = rangeA ? r.nums(rangeA, `${subject} range`, 2) : [0, 0];
      if (type === 'hinge' || type === 'slide') {
        if (!(rg[0] < rg[1])) r.fail(rangeA ?? el, `${subject} range`, `[${rg.join(', ')}]`, 'lower < upper');
      }
      // MuJoCo's compiler: "range[0] should be 0 in ball joint" (the cone limit is max(range) on the angle)
      if (type === 'ball' && (rg[0] !== 0 || !(rg[1] > 0))) r.fail(rangeA ?? el, `${subject} range`, `[${rg.join(', ')}]`, '[0, max angle] with max angle > 0 (range[0] should be 0 in ball joint, as MuJoCo requires)');
      j.range = type === 'ball' ? [angleRange(rg[0]), angleRange(rg[1])] : [conv(rg[0]), conv(rg[1])]; // a ball's cone is an angle too
      const sr = get('solreflimit');
      const si = get('solimplimit');
      j.limit = {
        solref: sr ? readSolref(r, sr, `${subject} solreflimit`, note) : [...DEFAULT_SOLREF],
        solimp: si ? readSolimp(r, si, `${subject} solimplimit`, note) : [...DEFAULT_SOLIMP],
        margin: numOr(get('margin'), `${subject} margin`, 0),
      };
    }
    return j;
  };

  // The body tree, depth first (MuJoCo's body order).
  const worldbody = sections('worldbody');
  if (worldbody.length === 0) r.fail(root, '<mujoco>', 'no <worldbody>', 'a <worldbody> with the robot\'s bodies');
  const visit = (el: XmlElement, parent: number, inherited: string): void => {
    const isWorld = parent === -2;
    let bi = -1;
    let ownClass = inherited;
    if (!isWorld) {
      const cc = el.attrs.get('childclass');
      if (cc && !defaults.has(cc.value)) r.fail(cc, `${describeEl(el)} childclass`, `${quote(cc.value, 60, "'")}, which no <default> defines`, `one of ${[...defaults.keys()].join(', ')}`);
      ownClass = cc?.value ?? inherited;
      const name = el.attrs.get('name')?.value ?? `body${ir.bodies.length + 1}`;
      for (const f of ['mocap', 'gravcomp']) {
        const a = el.attrs.get(f);
        if (a && a.value !== 'false' && a.value !== '0') r.fail(a, `body '${name}' ${f}`, quote(a.value), `no ${f} (not supported)`);
      }
      const body: IrBody = {
        name,
        parent,
        pos: vec3(el.attrs.get('pos'), `body '${name}' pos`, [0, 0, 0]),
        quat: orientation((n) => el.attrs.get(n), `body '${name}'`, el),
        joints: [],
        mass: 0,
        ipos: [0, 0, 0],
        inertia: [0, 0, 0, 0, 0, 0],
        geoms: [],
        source: r.span(el),
      };
      bi = ir.bodies.length;
      ir.bodies.push(body);
    }
    const bodyName = isWorld ? 'world' : ir.bodies[bi].name;
    let explicit: XmlElement | undefined;
    const geoms: IrGeom[] = [];
    for (const c of el.children) {
      switch (c.name) {
        case 'body':
          break;
        case 'inertial':
          if (isWorld) r.fail(c, '<inertial>', 'an inertial in <worldbody>', 'inertials only in bodies');
          explicit = c;
          break;
        case 'joint':
        case 'freejoint':
          if (isWorld) r.fail(c, `<${c.name}>`, 'a joint in <worldbody>', 'joints only in bodies');
          ir.bodies[bi].joints.push(jointOf(c, classOf(c, ownClass), bodyName, ir.bodies[bi].joints.length));
          break;
        case 'geom': {
          const g = geomOf(c, classOf(c, ownClass), bodyName, geoms.length, isWorld);
          if (g) geoms.push(g);
          break;
        }
        case 'site':
        case 'camera':
        case 'light':
          note('skipped', c, `<${c.name}> does not change the dynamics: ${c.name === 'site' ? 'a site only marks a point (for sensors and spatial tendons, which are not imported)' : 'it is for rendering'}`);
          break;
        case 'frame':
        case 'replicate':
        case 'composite':
        case 'flexcomp':
        case 'plugin':
        case 'attach':
          r.fail(c, `<${c.name}>`, `<${c.name}> in a body`, 'body, inertial, joint, freejoint, geom, site, camera, light (inline frames and replicates are not supported)');
          break;
        default:
          r.fail(c, `<${c.name}>`, 'an element MJCF does not define in a body', 'body, inertial, joint, freejoint, geom, site, camera, light');
      }
    }
    if (isWorld) ir.worldGeoms.push(...geoms);
    else {
      const b = ir.bodies[bi];
      b.geoms = geoms;
      const fromGeoms = compiler.inertiafromgeom === 'true' || (compiler.inertiafromgeom === 'auto' && !explicit);
      if (explicit && !fromGeoms) readInertial(explicit, b);
      else if (fromGeoms) {
        // MuJoCo infers the geoms' masses only for a body whose inertia comes from them.
        for (const g of geoms) {
          const ms = massSpec.get(g)!;
          inferGeomMass(g, ms.mass, ms.density);
          if (g.type === 'mesh' && g.mass > 0) note('approximated', ms.el, `geom '${g.name}': mass and inertia from the mesh's bounding box (MuJoCo integrates the mesh itself); give the body an <inertial> to match MuJoCo exactly`);
        }
        // only geoms in compiler inertiagrouprange count (mjCBody::InertiaFromGeom)
        const [glo, ghi] = compiler.inertiagrouprange;
        const gi = inertiaFromGeoms(geoms.filter((g) => massSpec.get(g)!.group >= glo && massSpec.get(g)!.group <= ghi));
        if (gi) {
          b.mass = gi.mass;
          b.ipos = gi.ipos;
          b.inertia = gi.inertia;
        }
      }
    }
    for (const c of el.children) if (c.name === 'body') visit(c, isWorld ? -1 : bi, ownClass);
  };
  const readInertial = (el: XmlElement, b: IrBody): void => {
    const subject = `body '${b.name}' inertial`;
    const massA = el.attrs.get('mass');
    if (!massA) r.fail(el, subject, 'no mass', 'mass="M"');
    const mass = r.num(massA, `${subject} mass`);
    if (!(mass >= 0)) r.fail(massA, `${subject} mass`, String(mass), 'a mass >= 0');
    const ipos = vec3(el.attrs.get('pos'), `${subject} pos`, [0, 0, 0]);
    if (!el.attrs.get('pos')) r.fail(el, subject, 'no pos', 'pos="x y z" (MuJoCo requires it)');
    const diag = el.attrs.get('diaginertia');
    const full = el.attrs.get('fullinertia');
    let I: Inertia6;
    if (diag && full) r.fail(full, subject, 'both diaginertia and fullinertia', 'one of them');
    if (full) {
      if (['quat', 'axisangle', 'euler', 'xyaxes', 'zaxis'].some((f) => el.attrs.get(f))) r.fail(full, subject, 'fullinertia with an orientation', 'fullinertia alone (it is given in the body axes)');
      I = r.nums(full, `${subject} fullinertia`, 6) as Inertia6;
    } else if (diag) {
      const d = r.nums(diag, `${subject} diaginertia`, 3);
      const q = orientation((n) => el.attrs.get(n), subject, el);
      I = importBug('import-inertial-quat-ignored') ? [d[0], d[1], d[2], 0, 0, 0] : rotateInertia([d[0], d[1], d[2], 0, 0, 0], q);
    } else r.fail(el, subject, 'no inertia', 'diaginertia="Ixx Iyy Izz" or fullinertia="Ixx Iyy Izz Ixy Ixz Iyz"');
    if (mass > 0) {
      const bad = inertiaProblem(I);
      if (bad) r.fail(full ?? diag ?? el, `${subject} inertia`, bad, 'a physical inertia (positive definite, A + B >= C)');
    }
    b.mass = mass;
    b.ipos = ipos;
    b.inertia = I;
  };
  for (const wb of worldbody) visit(wb, -2, 'main');
  if (compiler.settotalmass > 0) setTotalMass(ir.bodies, compiler.settotalmass);

  // Fixed tendons (MuJoCo's <tendon><fixed>): attributes from the tendon's class (<default><tendon>).
  // A fixed tendon's range is a length (Σ coef·q, q in radians): compiler angle does not convert it.
  const jointTypes = new Map<string, IrJoint['type']>();
  for (const b of ir.bodies) for (const j of b.joints) jointTypes.set(j.name, j.type);
  for (const t of sections('tendon')) {
    for (const c of t.children) {
      if (c.name === 'spatial') r.fail(c, '<spatial>', 'a spatial tendon', 'fixed tendons only: <fixed> with <joint joint="NAME" coef="C"/> children (spatial tendons route through sites and wrap geoms, which the engine does not model)');
      if (c.name !== 'fixed') r.fail(c, `<${c.name}>`, 'an element <tendon> does not define', '<fixed> (fixed tendons; spatial tendons are not supported)');
      ir.tendons ??= [];
      const cls = classOf(c, 'main');
      const get = (n: string): XmlAttr | undefined => attrOf(c, 'tendon', cls, n);
      const name = c.attrs.get('name')?.value ?? `tendon${ir.tendons.length}`;
      const subject = `tendon '${name}'`;
      const arm = get('armature');
      if (arm && r.num(arm, `${subject} armature`) !== 0) r.fail(arm, `${subject} armature`, quote(arm.value), 'no tendon armature (it adds Jᵀ·a·J to the mass matrix, which the engine\'s O(n) tree products cannot express)');
      for (const f of ['solreffriction', 'solimpfriction', 'actuatorfrcrange', 'actuatorfrclimited', 'damping_poly', 'stiffness_poly']) {
        const a = get(f);
        if (a) r.fail(a, `${subject} ${f}`, quote(a.value), `no ${f} on a tendon (not supported; frictionloss rows use MuJoCo's default solreffriction/solimpfriction)`);
      }
      const tendon: IrTendon = {
        name,
        joints: [],
        frictionloss: numOr(get('frictionloss'), `${subject} frictionloss`, 0),
        stiffness: numOr(get('stiffness'), `${subject} stiffness`, 0),
        damping: numOr(get('damping'), `${subject} damping`, 0),
        source: r.span(c),
      };
      for (const [f, v] of [['frictionloss', tendon.frictionloss], ['stiffness', tendon.stiffness], ['damping', tendon.damping]] as const) {
        if (!(v >= 0)) r.fail(get(f)!, `${subject} ${f}`, String(v), `a ${f} >= 0`);
      }
      const sl = get('springlength');
      if (sl) {
        const v = r.nums(sl, `${subject} springlength`, [1, 2]);
        const band: [number, number] = v.length === 1 ? [v[0], v[0]] : [v[0], v[1]];
        if (!(band[0] <= band[1])) r.fail(sl, `${subject} springlength`, `[${band.join(', ')}]`, 'one rest length, or a dead band [lower, upper] with lower <= upper');
        // MuJoCo's −1 (one value, or both −1) means: the length at the joints' spring references
        if (!(band[0] === -1 && band[1] === -1)) tendon.springlength = band;
      }
      const rangeA = get('range');
      const limA = get('limited');
      const limited = limA ? r.choice(limA, `${subject} limited`, ['true', 'false', 'auto'] as const) : 'auto';
      if (limited === 'auto' && !compiler.autolimits && rangeA) r.fail(rangeA, `${subject} range`, 'a range without limited="true" while compiler autolimits="false"', 'limited="true", or autolimits="true" (as MuJoCo requires)');
      if (limited === 'true' || (limited === 'auto' && compiler.autolimits && rangeA)) {
        const rg = rangeA ? r.nums(rangeA, `${subject} range`, 2) : [0, 0];
        if (!(rg[0] < rg[1])) r.fail(rangeA ?? c, `${subject} range`, `[${rg.join(', ')}]`, 'lower < upper (a length: Σ coef·q)');
        tendon.range = [rg[0], rg[1]];
        const sr = get('solreflimit');
        const si = get('solimplimit');
        tendon.limit = {
          solref: sr ? readSolref(r, sr, `${subject} solreflimit`, note) : [...DEFAULT_SOLREF],
          solimp: si ? readSolimp(r, si, `${subject} solimplimit`, note) : [...DEFAULT_SOLIMP],
          margin: numOr(get('margin'), `${subject} margin`, 0),
        };
      }
      for (const j of c.children) {
        if (j.name !== 'joint') r.fail(j, `${subject} <${j.name}>`, `a <${j.name}> in a fixed tendon`, '<joint joint="NAME" coef="C"/>');
        const ja = j.attrs.get('joint');
        if (!ja) r.fail(j, `${subject} <joint>`, 'no joint', 'joint="NAME" of a hinge or slide joint');
        const type = jointTypes.get(ja.value);
        if (!type) r.fail(ja, `${subject} joint`, `${quote(ja.value, 60, "'")}, which the model does not have`, 'the name of a hinge or slide joint');
        if (type !== 'hinge' && type !== 'slide') r.fail(ja, `${subject} joint`, `${quote(ja.value, 60, "'")}, a ${type} joint`, 'a hinge or slide joint (a fixed tendon couples scalar joint coordinates)');
        const coef = numOr(j.attrs.get('coef'), `${subject} coef`, 1);
        tendon.joints.push({ joint: ja.value, coef: importBug('import-tendon-coef-sign') ? Math.abs(coef) : coef, source: r.span(j) });
      }
      if (tendon.joints.length === 0) r.fail(c, subject, 'a fixed tendon without joints', 'at least one <joint joint="NAME" coef="C"/>');
      ir.tendons.push(tendon);
    }
  }

  for (const a of sections('actuator')) {
    for (const c of a.children) {
      if (!['motor', 'position', 'velocity'].includes(c.name)) r.fail(c, `<${c.name}>`, `a ${c.name} actuator`, 'motor, position or velocity (on a joint)');
      const cls = classOf(c, 'main');
      const get = (n: string): XmlAttr | undefined => attrOf(c, c.name, cls, n);
      const name = c.attrs.get('name')?.value ?? `${c.name}${ir.actuators.length}`;
      const subject = `actuator '${name}'`;
      checkUnread(r, 'actuator', get, subject);
      for (const t of ['tendon', 'site', 'body', 'jointinparent', 'cranksite']) if (get(t)) r.fail(get(t)!, subject, `a transmission through ${t}`, 'joint="NAME" (joint transmission only; an actuator along a tendon is not supported yet)');
      const joint = get('joint');
      if (!joint) r.fail(c, subject, 'no joint', 'joint="NAME"');
      const gearA = get('gear');
      const gear = gearA ? r.nums(gearA, `${subject} gear`, [1, 6]) : [1];
      if (gear.slice(1).some((x) => x !== 0)) note('dropped', gearA!, `${subject}: gear components 2..6 apply to ball/free joints only; gear ${gear[0]} kept`);
      const range = (n: string, lim: string): [number, number] | undefined => {
        const ra = get(n);
        const la = get(lim);
        const l = la ? r.choice(la, `${subject} ${lim}`, ['true', 'false', 'auto'] as const) : 'auto';
        if (!(l === 'true' || (l === 'auto' && compiler.autolimits && ra))) return undefined;
        const v = ra ? r.nums(ra, `${subject} ${n}`, 2) : [0, 0];
        if (!(v[0] < v[1])) r.fail(ra ?? c, `${subject} ${n}`, `[${v.join(', ')}]`, 'lower < upper');
        return [v[0], v[1]];
      };
      const act: IrActuator = {
        name,
        kind: c.name as IrActuator['kind'],
        joint: joint.value,
        gear: gear[0],
        kp: c.name === 'position' ? numOr(get('kp'), `${subject} kp`, 1) : 0,
        kv: c.name === 'velocity' ? numOr(get('kv'), `${subject} kv`, 1) : c.name === 'position' ? numOr(get('kv'), `${subject} kv`, 0) : 0,
        source: r.span(c),
      };
      const cr = range('ctrlrange', 'ctrllimited');
      if (cr) act.ctrlrange = cr;
      const fr = range('forcerange', 'forcelimited');
      if (fr) act.forcerange = fr;
      ir.actuators.push(act);
    }
  }
  for (const s of sections('contact')) {
    for (const c of s.children) {
      if (c.name !== 'exclude') r.fail(c, `<contact><${c.name}>`, `an explicit contact ${c.name}`, '<exclude body1 body2> only (explicit pairs are not supported)');
      const b1 = c.attrs.get('body1');
      const b2 = c.attrs.get('body2');
      if (!b1 || !b2) r.fail(c, '<exclude>', 'a missing body1 or body2', 'body1="A" body2="B"');
      ir.excludes.push({ body1: b1.value, body2: b2.value, source: r.span(c) });
    }
  }
  // Every key, in order (MuJoCo's key ids); the model starts from qpos0 unless one is chosen (keyframe.ts).
  const keys = sections('keyframe').flatMap((k) => k.children.filter((c) => c.name === 'key'));
  if (keys.length) ir.keys = keys.map((k, i) => readKey(r, k, i));
  applyDisableFlags(ir, notes);
  return ir;
}

function readCompiler(r: Reader, c: XmlElement, compiler: Compiler, note: (k: ImportNote['kind'], at: XmlElement | XmlAttr, m: string) => void): void {
  for (const [k, a] of c.attrs) {
    switch (k) {
      case 'angle':
        compiler.degree = r.choice(a, 'compiler angle', ['degree', 'radian'] as const) === 'degree';
        break;
      case 'eulerseq':
        if (!/^[xyzXYZ]{3}$/.test(a.value)) r.fail(a, 'compiler eulerseq', quote(a.value), 'three letters from x, y, z, X, Y, Z (lower case: moving axes, upper case: fixed axes)');
        compiler.eulerseq = a.value;
        break;
      case 'meshdir':
      case 'assetdir':
        compiler.meshdir = a.value;
        break;
      case 'autolimits':
        compiler.autolimits = r.bool(a, 'compiler autolimits');
        break;
      case 'inertiafromgeom':
        compiler.inertiafromgeom = r.choice(a, 'compiler inertiafromgeom', ['true', 'false', 'auto'] as const);
        break;
      case 'discardvisual':
        compiler.discardvisual = r.bool(a, 'compiler discardvisual');
        break;
      case 'settotalmass':
        compiler.settotalmass = r.num(a, 'compiler settotalmass');
        break;
      case 'inertiagrouprange': {
        const g = r.nums(a, 'compiler inertiagrouprange', 2);
        if (!g.every(Number.isInteger)) r.fail(a, 'compiler inertiagrouprange', quote(a.value), 'two integer geom groups');
        compiler.inertiagrouprange = [g[0], g[1]];
        break;
      }
      case 'boundmass':
      case 'boundinertia':
        if (r.num(a, `compiler ${k}`) !== 0) r.fail(a, `compiler ${k}`, quote(a.value), `${k}="0" (bounding masses and inertias is not supported)`);
        break;
      case 'balanceinertia':
      case 'fusestatic':
      case 'alignfree':
        if (a.value === 'true') r.fail(a, `compiler ${k}`, 'true', `${k}="false" (not supported)`);
        break;
      case 'strippath':
        compiler.strippath = r.bool(a, 'compiler strippath');
        break;
      case 'coordinate':
        if (r.choice(a, 'compiler coordinate', ['local', 'global'] as const) === 'global') r.fail(a, 'compiler coordinate', '"global"', 'coordinate="local" (MuJoCo: "global coordinates no longer supported")');
        break;
      default: {
        const why = COMPILER_NO_EFFECT[k];
        if (!why) r.fail(a, `compiler ${k}`, 'a compiler setting the importer does not know', 'one it reads (a new MuJoCo setting: please report it)');
        note('skipped', a, `compiler ${k} does not change the compiled model: ${why}`);
      }
    }
  }
}

function readOption(r: Reader, o: XmlElement, ir: IrModel, note: (k: ImportNote['kind'], at: XmlElement | XmlAttr, m: string) => void): void {
  for (const [k, a] of o.attrs) {
    switch (k) {
      case 'timestep': {
        const h = r.num(a, 'option timestep');
        if (!(h >= 1e-9 && h <= 1)) r.fail(a, 'option timestep', quote(a.value), 'a time step from 1e-9 to 1 s');
        ir.option.timestep = h;
        break;
      }
      case 'gravity':
        ir.option.gravity = r.nums(a, 'option gravity', 3) as Vec3;
        break;
      case 'integrator': {
        const v = r.choice(a, 'option integrator', ['Euler', 'RK4', 'implicit', 'implicitfast'] as const);
        ir.option.integrator = v === 'RK4' ? 'rk4' : 'euler';
        if (v === 'implicit' || v === 'implicitfast') note('approximated', a, `integrator ${v} → semi-implicit Euler (with damping implicit, as MuJoCo's Euler)`);
        break;
      }
      case 'cone':
        if (r.choice(a, 'option cone', ['pyramidal', 'elliptic'] as const) === 'elliptic') note('approximated', a, 'elliptic friction cone → pyramidal (the only cone the solver has)');
        break;
      case 'solver':
        if (r.choice(a, 'option solver', ['PGS', 'CG', 'Newton'] as const) !== 'CG') note('approximated', a, `solver ${a.value} → CG (the only solver; same optimum, different convergence per iteration)`);
        break;
      case 'iterations':
        ir.option.iterations = r.num(a, 'option iterations');
        break;
      case 'impratio':
        ir.option.impratio = r.num(a, 'option impratio');
        break;
      case 'density':
      case 'viscosity':
        if (r.num(a, `option ${k}`) !== 0) r.fail(a, `option ${k}`, quote(a.value), `${k}="0" (fluid forces are not supported)`);
        break;
      case 'wind':
        if (r.nums(a, 'option wind', 3).some((x) => x !== 0)) r.fail(a, 'option wind', quote(a.value), 'no wind (fluid forces are not supported)');
        break;
      default:
        otherOption(r, k, a, note);
    }
  }
  if (!o.attrs.has('iterations')) note('as-mujoco', o, 'solver iterations 100 (MuJoCo\'s default)');
  for (const f of o.children) {
    if (f.name !== 'flag') r.fail(f, `<option><${f.name}>`, f.name, '<flag>');
    readFlags(r, f, ir, note);
  }
  if (!o.attrs.has('solver')) note('approximated', o, 'MuJoCo\'s default solver is Newton; Achilles uses CG (same optimum)');
}

/** MuJoCo's mj_setTotalmass, run by the compiler after every body's mass is known: each body's mass
 *  and inertia times newmass / (sum of the body masses), both divisions kept off zero by mjMINVAL. */
function setTotalMass(bodies: IrBody[], newmass: number): void {
  const MJ_MINVAL = 1e-15;
  const total = bodies.reduce((s, b) => s + b.mass, 0);
  const scale = Math.max(MJ_MINVAL, newmass / Math.max(MJ_MINVAL, total));
  for (const b of bodies) {
    b.mass *= scale;
    b.inertia = b.inertia.map((x) => x * scale) as Inertia6;
  }
}

const quote3 = (v: readonly number[]): string => `[${v.join(', ')}]`;
