// The imported model as MuJoCo's compiler sees it (one body may carry several joints, each joint
// may sit at an anchor `pos` in its body), before it is compiled into the engine's one-joint links.

import type { GeneralActuatorDesc, Quat, Solimp, Solref, SolverMethod, SourceSpan, Vec3 } from '../../engine/model-desc.js';
import type { Inertia6 } from '../../engine/math.js';

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
  frictionloss: number;
  source: SourceSpan;
}

export type IrGeomType = 'sphere' | 'capsule' | 'box' | 'cylinder' | 'ellipsoid' | 'plane' | 'mesh';

export interface IrGeom {
  name: string;
  type: IrGeomType;
  /** MuJoCo's size (half-extents, radius, half-length); a mesh: the half-extents of its bounding box. */
  size: Vec3;
  /** In the body frame (a mesh: the centre of its bounding box). */
  pos: Vec3;
  quat: Quat;
  /** Collides with nothing (contype = conaffinity = 0): skipped as a shape, still counted for mass. */
  contype: number;
  conaffinity: number;
  friction: number;
  solref?: Solref;
  solimp?: Solimp;
  condim: 1 | 3;
  margin: number;
  gap: number;
  /** The geom's own mass (MuJoCo's inference from mass/density), 0 when not inferred. */
  mass: number;
  /** Principal inertia in the geom frame (diagonal). */
  inertia: Vec3;
  rgba?: [number, number, number, number];
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
  geoms: IrGeom[];
  source: SourceSpan;
}

export interface IrActuator {
  name: string;
  kind: 'motor' | 'position' | 'velocity' | 'general';
  /** kind 'general': MuJoCo's general actuator (mjcf/general-actuator.ts). */
  general?: GeneralActuatorDesc;
  joint: string;
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
    /** MuJoCo's solver and tolerance (defaults Newton, 1e-8). */
    solver: SolverMethod;
    tolerance: number;
  };
  /** MJCF <flag>s that switch off a feature (contact, limit, ...), each with its attribute; applied
   *  to the model once it is read (mjcf/option-flags.ts applyDisableFlags). */
  disabled?: { flag: DisableFlag; source: SourceSpan }[];
  actuators: IrActuator[];
  /** Fixed tendons (absent: none). */
  tendons?: IrTendon[];
  /** Body-name pairs whose geoms never collide (MJCF contact/exclude). */
  excludes: { body1: string; body2: string; source: SourceSpan }[];
  /** The MJCF <keyframe><key> elements in order (absent: none). The model starts from qpos0 unless
   *  one is chosen (src/model-files/import/keyframe.ts). */
  keys?: IrKey[];
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

export type DisableFlag = 'constraint' | 'contact' | 'limit' | 'frictionloss' | 'spring' | 'damper';

export type NoteKind = 'approximated' | 'dropped' | 'skipped' | 'as-mujoco';

/** One thing the import approximated, dropped or changed, with where it came from. */
export interface ImportNote {
  kind: NoteKind;
  source: SourceSpan;
  message: string;
}

/** One line per note; a message longer than 400 characters (a huge name in it) is cut there. */
export const formatNote = (n: ImportNote): string =>
  `${n.source.file}:${n.source.line}:${n.source.column}: ${n.kind}: ${[...n.message].length > 400 ? `${[...n.message].slice(0, 400).join('')}… (${[...n.message].length} characters)` : n.message}`;
