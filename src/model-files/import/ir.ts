// The imported model as MuJoCo's compiler sees it (one body may carry several joints, each joint
// may sit at an anchor `pos` in its body), before it is compiled into the engine's one-joint links.

import type {
  Condim,
  FrictionCone,
  GeneralActuatorDesc,
  Quat,
  Solimp,
  Solref,
  SolverMethod,
  SourceSpan,
  Vec3,
} from '../../engine/model-desc.js';
import type { Inertia6 } from '../../engine/math.js';
import { printable } from '../common/errors.js';

export type IrJointType = 'hinge' | 'slide' | 'ball' | 'free';

export interface IrJoint {
  name: string;
  type: IrJointType;
  /** Anchor in the body frame (hinge/ball rotate about it). */
  pos: Vec3;
  /** Unit axis in the body frame (hinge/slide). */
  axis: Vec3;
  /** MuJoCo's `ref`: the coordinate value of the body's reference pose (hinge/slide). */
  ref: number;
  range?: [number, number];
  limit?: { solref: Solref; solimp: Solimp; margin: number };
  damping: number;
  stiffness: number;
  springref: number;
  armature: number;
  /** MuJoCo's springdamper [timeconst, dampratio] (both > 0; absent: none). */
  springdamper?: [number, number];
  frictionloss: number;
  source: SourceSpan;
}

export type IrGeomType = 'sphere' | 'capsule' | 'box' | 'cylinder' | 'ellipsoid' | 'plane' | 'mesh';

export interface IrGeom {
  name: string;
  type: IrGeomType;
  /** MuJoCo's size (half-extents, radius, half-length); a mesh: MuJoCo's, the largest |coordinate|
   *  of its vertices per axis of the mesh frame. */
  size: Vec3;
  /** In the body frame (a mesh: MuJoCo's geom frame, which has absorbed the mesh frame: the origin
   *  at the mesh's centre of mass, the axes its principal axes). */
  pos: Vec3;
  quat: Quat;
  /** Collides with nothing (contype = conaffinity = 0): skipped as a shape, still counted for mass. */
  contype: number;
  conaffinity: number;
  friction: number;
  /** MuJoCo's friction[1] and friction[2] (read by condim 4 and 6). */
  torsionalFriction: number;
  rollingFriction: number;
  solref?: Solref;
  solimp?: Solimp;
  condim: Condim;
  margin: number;
  gap: number;
  /** MuJoCo's priority and solmix (defaults 0 and 1): whose contact parameters a pair takes, and how
   *  two of equal priority mix their solref and solimp. */
  priority: number;
  solmix: number;
  /** The geom's own mass (MuJoCo's inference from mass/density), 0 when not inferred. */
  mass: number;
  /** Principal inertia in the geom frame (diagonal). */
  inertia: Vec3;
  rgba?: [number, number, number, number];
  /** A colliding mesh geom: its convex hull (MuJoCo's mesh_graph) in the geom frame: x y z per
   *  vertex, three vertex indices per triangle (counter-clockwise seen from outside). */
  hull?: { vert: number[]; face: number[] };
  /** fluidshape="ellipsoid": MuJoCo's fluidcoef (blunt drag, slender drag, angular drag, Kutta lift,
   *  Magnus lift); absent: fluidshape none. */
  fluid?: [number, number, number, number, number];
  /** A mesh geom: its mesh's volume (area when inertia="shell") and the half-sizes of the box of
   *  equal inertia (MuJoCo's boxsz), from which its mass and inertia follow. */
  meshInertia?: { volume: number; boxsz: Vec3 };
  source: SourceSpan;
}

export interface IrBody {
  name: string;
  /** IR index of the parent body, -1 for the world. */
  parent: number;
  pos: Vec3;
  quat: Quat;
  joints: IrJoint[];
  mass: number;
  /** Centre of mass in the body frame. */
  ipos: Vec3;
  /** Inertia about the CoM in body axes [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]. */
  inertia: Inertia6;
  /** MuJoCo's body_iquat (in the body frame) and body_inertia (the principal moments) as its compiler
   *  makes them (the inertial's quat, a single geom's frame, or mjuu_eig3 of the sum): the inertia
   *  box of the fluid model is turned by it. Absent: the principal axes of `inertia` (fluid.ts). */
  principal?: { quat: Quat; inertia: Vec3 };
  geoms: IrGeom[];
  /** Geoms of the fluid's ellipsoid model that are no longer collision geoms (flag contact="disable"
   *  left the body none): read by fluid.ts alone. */
  fluidOnly?: IrGeom[];
  /** Its sites (<site>, in file order; unnamed ones named ''): absent when it has none. */
  sites?: IrSite[];
  source: SourceSpan;
}

/** A <site>: its frame in its body's coordinates (frames composed). */
export interface IrSite {
  name: string;
  pos: Vec3;
  quat: Quat;
  /** Its shape and size as MuJoCo compiles them (a touch sensor's zone; defaults sphere, 0.005 each). */
  type: 'sphere' | 'capsule' | 'cylinder' | 'ellipsoid' | 'box';
  size: Vec3;
  source: SourceSpan;
}

/** An MJCF <equality> constraint (connect, weld, joint), its references resolved against the bodies,
 *  sites and joints read (mjcf/equality.ts), in MuJoCo's terms (mjsEquality's data): compiled into
 *  the engine's EqualityDesc, with what MuJoCo computes at qpos0, by compile.ts. */
export interface IrEquality {
  name: string;
  type: 'connect' | 'weld' | 'joint';
  active: boolean;
  solref: Solref;
  solimp: Solimp;
  /** connect and weld: MuJoCo's objtype, bodies (body1 and anchor) or sites (site1 and site2). */
  semantic?: 'body' | 'site';
  /** connect, weld: IR body indices (-1: the world); with sites, the sites' bodies. */
  body1?: number;
  body2?: number;
  /** Body semantic: MuJoCo's anchor (connect: in body1's frame; weld: in body2's, default 0). */
  anchor?: Vec3;
  /** Weld, body semantic: relpose as given (a zero quaternion: made at qpos0). */
  relpose?: [number, number, number, number, number, number, number];
  /** Site semantic: the two sites' frames in their bodies' coordinates. */
  site1?: { pos: Vec3; quat: Quat };
  site2?: { pos: Vec3; quat: Quat };
  /** Weld: MuJoCo's torquescale (data[10], default 1). */
  torquescale?: number;
  /** Joint: joint names (joint2 absent: joint1 held at qpos0 + a0), polycoef a0..a4. */
  joint1?: string;
  joint2?: string;
  polycoef?: [number, number, number, number, number];
  source: SourceSpan;
}

export interface IrActuator {
  name: string;
  kind: 'motor' | 'position' | 'velocity' | 'general';
  /** kind 'general': MuJoCo's general actuator (mjcf/general-actuator.ts). */
  general?: GeneralActuatorDesc;
  /** Its transmission: the joint it drives, or the fixed tendon it pulls (exactly one). */
  joint?: string;
  tendon?: string;
  /** MuJoCo's body transmission (an <adhesion>): the body whose contacts it pulls on. */
  body?: string;
  gear: number;
  kp: number;
  kv: number;
  ctrlrange?: [number, number];
  forcerange?: [number, number];
  source: SourceSpan;
}

/** A fixed tendon (MJCF <tendon><fixed>): joints by name with their coefficients. */
export interface IrTendon {
  name: string;
  joints: { joint: string; coef: number; source: SourceSpan }[];
  range?: [number, number];
  limit?: { solref: Solref; solimp: Solimp; margin: number };
  frictionloss: number;
  stiffness: number;
  damping: number;
  /** [lower, upper]; absent: MuJoCo's −1, the length at the joints' spring references (qpos_spring). */
  springlength?: [number, number];
  source: SourceSpan;
}

/** Where each MuJoCo body (IR order, world excluded) landed (compile.ts): its last link, and the body frame's
 *  origin in that link's frame (X_LB = Trans(offset)). */
export interface BodyMap {
  name: string;
  link: number;
  offset: Vec3;
}

/** A model with nothing in it yet and MuJoCo's default <option> (mjModel's opt as mj_defaultOption
 *  sets it: the MJCF reader then reads the file's options over it; a URDF has none). */
export function emptyIrModel(name: string, format: IrModel['format']): IrModel {
  return {
    name,
    format,
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
  };
}

export interface IrModel {
  name: string;
  format: 'mjcf' | 'urdf';
  bodies: IrBody[];
  /** Geoms of the world body (static). */
  worldGeoms: IrGeom[];
  option: {
    timestep: number;
    gravity: Vec3;
    integrator: 'euler' | 'rk4' | 'implicitfast';
    iterations: number;
    impratio: number;
    /** MuJoCo's friction cone (default pyramidal). */
    cone: FrictionCone;
    /** MuJoCo's solver and tolerance (defaults Newton, 1e-8). */
    solver: SolverMethod;
    tolerance: number;
    /** MuJoCo's noslip post-solve: its sweeps (default 0: none) and tolerance (default 1e-6). */
    noslipIterations: number;
    noslipTolerance: number;
  };
  /** MuJoCo's fluid: option density (kg/m³), viscosity (Pa·s) and wind (m/s, world), absent when no
   *  <option> names them (compiled into ModelDesc.fluid by fluid.ts when density or viscosity is nonzero). */
  fluid?: { density: number; viscosity: number; wind: Vec3; source: SourceSpan };
  /** MJCF <flag>s that switch off a feature (contact, limit, ...), each with its attribute; applied
   *  to the model once it is read (mjcf/option-flags.ts applyDisableFlags). */
  disabled?: { flag: DisableFlag; source: SourceSpan }[];
  /** <flag multiccd="disable"/>: where it was set (MuJoCo's mjc_Convex then gives one contact per pair). */
  multiccdDisabled?: SourceSpan;
  /** <option> ccd_tolerance / ccd_iterations away from MuJoCo's defaults: refused once the model is
   *  known to use MuJoCo's GJK/EPA (a kept cylinder or ellipsoid), else skipped (compile.ts). */
  ccd?: { key: string; value: string; source: SourceSpan }[];
  actuators: IrActuator[];
  /** Fixed tendons (absent: none). */
  tendons?: IrTendon[];
  /** Equality constraints (MJCF <equality>; absent: none). */
  equalities?: IrEquality[];
  /** Sites of the world body that an equality constraint names. */
  worldSites?: IrSite[];
  /** MJCF <sensor>s in file order (absent: none); mjcf/sensor.ts reads them, sensors.ts compiles them. */
  sensors?: IrSensor[];
  /** <flag sensor="disable">: where it was set (MuJoCo computes no sensordata). */
  sensorsDisabled?: SourceSpan;
  /** Body-name pairs whose geoms never collide (MJCF contact/exclude). */
  excludes: { body1: string; body2: string; source: SourceSpan }[];
  /** The MJCF <keyframe><key> elements in order (absent: none). The model starts from qpos0 unless
   *  one is chosen (src/model-files/import/keyframe.ts). */
  keys?: IrKey[];
}

/** The MuJoCo sensor types the importer follows (engine_sensor.c's position and velocity stages,
 *  and actuatorfrc, accelerometer, force, torque and touch of the acceleration stage). */
export const SENSOR_TYPES = [
  'jointpos',
  'jointvel',
  'actuatorpos',
  'actuatorvel',
  'actuatorfrc',
  'framepos',
  'framequat',
  'framexaxis',
  'frameyaxis',
  'framezaxis',
  'framelinvel',
  'frameangvel',
  'subtreecom',
  'gyro',
  'velocimeter',
  'accelerometer',
  'force',
  'torque',
  'touch',
] as const;
export type SensorType = (typeof SENSOR_TYPES)[number];
/** The objects a frame sensor (or its reference frame) may name: mjOBJ_BODY (its inertial frame),
 *  mjOBJ_XBODY (its own frame), mjOBJ_GEOM, mjOBJ_SITE. */
export type SensorObjType = 'body' | 'xbody' | 'geom' | 'site';

/** One MJCF sensor as written: the object it reads by name (a joint, actuator, body or site; a frame
 *  sensor's objtype and objname, with an optional reference frame), its cutoff and noise (MuJoCo
 *  keeps noise as metadata: mj_forward adds none). */
export interface IrSensor {
  type: SensorType;
  name: string;
  objtype: SensorObjType | 'joint' | 'actuator';
  objname: string;
  ref?: { type: SensorObjType; name: string; source: SourceSpan };
  cutoff: number;
  noise: number;
  source: SourceSpan;
  /** Where the object's name is written (errors about the name point there). */
  objSource: SourceSpan;
}

/** One MJCF <key> as written: MuJoCo's layout (qpos by joint, qvel by dof, ctrl by actuator); missing
 *  trailing numbers are filled when it is applied (qpos from qpos0, the rest with zeros). */
export interface IrKey {
  /** '' when unnamed (MuJoCo's key names are optional). */
  name: string;
  time: number;
  qpos?: number[];
  qvel?: number[];
  ctrl?: number[];
  source: SourceSpan;
  /** Where each given attribute is, for errors and notes. */
  at: { time?: SourceSpan; qpos?: SourceSpan; qvel?: SourceSpan; ctrl?: SourceSpan };
}

export type DisableFlag = 'constraint' | 'equality' | 'contact' | 'limit' | 'frictionloss' | 'spring' | 'damper';

export type NoteKind = 'approximated' | 'dropped' | 'skipped' | 'as-mujoco';

/** One thing the import approximated, dropped or changed, with where it came from. */
export interface ImportNote {
  kind: NoteKind;
  source: SourceSpan;
  message: string;
}

/** One line per note; a message longer than 400 characters (a huge name in it) is cut there. */
export const formatNote = (n: ImportNote): string =>
  `${printable(n.source.file)}:${n.source.line}:${n.source.column}: ${n.kind}: ${[...n.message].length > 400 ? `${[...n.message].slice(0, 400).join('')}… (${[...n.message].length} characters)` : n.message}`;
