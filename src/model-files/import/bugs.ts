// Planted importer bugs: each is a plausible mistake in reading MJCF or URDF, switched on by name so
// that `achilles validate` can show the import stage catching every one (the TypeScript twin of the
// native planted bugs in native/include/achilles/bugs.hpp, which live only in achilles_bugs.node).
// Off unless the validation's bug sweep sets one; the normal import never reads any other value.

export const IMPORT_BUGS = [
  /** MJCF euler angles composed in the reverse order (moving axes treated as fixed). */
  'import-euler-order',
  /** MJCF <inertial quat> ignored: diaginertia taken in the body axes. */
  'import-inertial-quat-ignored',
  /** MJCF geom fromto: half-length taken as the full distance between the points. */
  'import-fromto-length',
  /** MJCF compiler angle="degree": euler and axisangle angles used as radians. */
  'import-degrees-as-radians',
  /** URDF rpy composed as Rx·Ry·Rz instead of Rz·Ry·Rx. */
  'import-urdf-rpy-order',
  /** MJCF nested default class: the parent class's attributes not inherited. */
  'import-default-not-inherited',
  /** MJCF fixed tendon: a joint's coef read without its sign (|coef|). */
  'import-tendon-coef-sign',
  /** Mesh convex hull: one hull vertex dropped. */
  'import-mesh-hull-drops-vertex',
  /** Mesh inertia taken about the mesh file's origin instead of the mesh's centre of mass. */
  'import-mesh-inertia-about-origin',
  /** Mesh hull collided without the geom's rotation (the mesh's principal axes): the shape's quat
   *  taken as the identity. */
  'import-mesh-hull-frame-dropped',
  /** MJCF joint springdamper: the damping ratio dropped (read as 1), so the stiffness is m/timeconst². */
  'import-springdamper-ratio',
] as const;
export type ImportBug = (typeof IMPORT_BUGS)[number];

let active: ImportBug | 'none' = 'none';

/** Selects one planted importer bug, or 'none' (the validation sweep only). */
export function setImportBug(name: ImportBug | 'none'): void {
  if (name !== 'none' && !(IMPORT_BUGS as readonly string[]).includes(name))
    throw new Error(`unknown importer bug '${name}' (${IMPORT_BUGS.join(', ')})`);
  active = name;
}

export const importBug = (name: ImportBug): boolean => active === name;
