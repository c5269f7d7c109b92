// The mesh models of test/import-mesh.test.ts: one body per case (each mesh reader, scale, refpos
// and refquat, every inertia mode, inline vertices with and without faces, geom mass and density,
// two meshes in one body), written beside the fixtures in test/fixtures/mesh/.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MESH_FIXTURES = fileURLToPath(new URL('../fixtures/mesh/', import.meta.url));

/** Points of an irregular solid given inline (no faces: MuJoCo takes the hull's), one inside. */
const INLINE = '0.1 0 0  0.4 0.05 0.02  0.2 0.3 -0.05  0.15 0.1 0.35  0.3 0.25 0.3  0.22 0.14 0.12';
const TETRA = '0 0 0  0.3 0 0  0 0.2 0  0 0 0.4';

/** The model; `stl`: the file the STL bodies read (wedge.stl, or its ASCII twin for the importer). */
export function meshModel(stl = 'wedge.stl'): string {
  const body = (name: string, geom: string, pos = '0 0 1'): string => `    <body name="${name}" pos="${pos}"><freejoint/>${geom}</body>\n`;
  return `<mujoco model="meshes">
  <compiler meshdir="${MESH_FIXTURES}"/>
  <asset>
    <mesh name="wedge" file="${stl}"/>
    <mesh name="wedge_scaled" file="${stl}" scale="0.5 2 1.5"/>
    <mesh name="wedge_mirror" file="${stl}" scale="-1 1 1"/>
    <mesh name="l_legacy" file="lshape.obj"/>
    <mesh name="l_convex" file="lshape.obj" inertia="convex"/>
    <mesh name="l_exact" file="lshape.obj" inertia="exact"/>
    <mesh name="l_shell" file="lshape.obj" inertia="shell"/>
    <mesh name="inline" vertex="${INLINE}"/>
    <mesh name="tetra" vertex="${TETRA}" face="0 2 1  0 1 3  0 3 2  1 2 3" inertia="exact"/>
  </asset>
  <worldbody>
${[
  body('stl', '<geom name="stl" type="mesh" mesh="wedge" pos="0.1 0.2 0.3" euler="10 20 30"/>'),
  body('stl_scaled', '<geom name="stl_scaled" type="mesh" mesh="wedge_scaled" quat="0.5 0.5 0.5 0.5"/>'),
  body('stl_mirror', '<geom name="stl_mirror" type="mesh" mesh="wedge_mirror"/>'),
  body('l_legacy', '<geom name="l_legacy" type="mesh" mesh="l_legacy" pos="-0.2 0 0"/>'),
  body('l_convex', '<geom name="l_convex" type="mesh" mesh="l_convex"/>'),
  body('l_exact', '<geom name="l_exact" type="mesh" mesh="l_exact" euler="0 0 45"/>'),
  body('l_shell', '<geom name="l_shell" type="mesh" mesh="l_shell"/>'),
  body('inline', '<geom name="inline" type="mesh" mesh="inline" mass="2"/>'),
  body('tetra', '<geom name="tetra" type="mesh" mesh="tetra" density="500" pos="0 0 0.1"/>'),
  body(
    'two',
    '<geom name="two_a" type="mesh" mesh="wedge" euler="0 90 0"/><geom name="two_b" type="mesh" mesh="l_exact" pos="0.3 -0.1 0"/>',
  ),
].join('')}  </worldbody>
</mujoco>
`;
}

/** A mesh moved by refpos and refquat, alone: MuJoCo's mesh cache keys a file by its scale and
 *  inertia but not by refpos/refquat, so a process that read lshape.obj before without them
 *  reuses that result (MuJoCo must compile this model in a fresh process). */
export const meshRefModel = (): string => `<mujoco model="mesh-ref">
  <compiler meshdir="${MESH_FIXTURES}"/>
  <asset><mesh name="l_ref" file="lshape.obj" refpos="0.1 0.2 0" refquat="0.9 0.1 0.3 0.2"/></asset>
  <worldbody><body name="l_ref" pos="0 0 1"><freejoint/><geom name="l_ref" type="mesh" mesh="l_ref" pos="0.05 0 0"/></body></worldbody>
</mujoco>
`;

export const meshFixture = (name: string): string => join(MESH_FIXTURES, name);
