// The error a mesh processor throws where MuJoCo's compiler refuses a mesh; the readers turn it into
// a SceneError at the <mesh> (or URDF filename) that named the mesh.

/** The mesh attribute a MeshError comes from, when one does (else the mesh's vertices or file). */
export type MeshAttr = 'scale' | 'refpos' | 'refquat' | 'vertex';

/** A mesh MuJoCo refuses, with its reason (MuJoCo's wording) and what would be accepted. */
export class MeshError extends Error {
  constructor(
    readonly found: string,
    readonly expected: string,
    readonly attr?: MeshAttr,
  ) {
    super(found);
  }
}
