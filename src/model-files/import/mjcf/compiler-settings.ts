// The <compiler> settings the rest of the file is read with, and MuJoCo's defaults for them: data
// alone, kept apart from their reader (compiler.ts) so the shared context (context.ts) can hold
// them without importing the reader back.

export interface Compiler {
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

/** MuJoCo's compiler defaults. */
export const defaultCompiler = (): Compiler => ({
  degree: true,
  eulerseq: 'xyz',
  meshdir: '',
  autolimits: true,
  inertiafromgeom: 'auto',
  discardvisual: false,
  inertiagrouprange: [0, 5],
  settotalmass: 0,
  strippath: false,
});
