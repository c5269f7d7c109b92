#!/usr/bin/env python3
"""Writes the mesh arm: mesh-arm.xml and its link meshes (binary STL and OBJ), reproducibly
(numbers only: no randomness).  python3 scenes/mesh-arm/make.py

A four-joint arm on a fixed base (turntable z, shoulder y, elbow y, wrist y) whose links are meshes
like a real arm's (rounded shells of 34 to 242 vertices, jittered into general position), bent down so that its forearm and hand
rest on the floor among loose objects: three balls and two mesh pebbles. contype/conaffinity keep
apart the pairs the engine cannot collide as MuJoCo does yet (mesh with mesh): the links touch the
floor and the balls, the pebbles touch the floor and the balls, the balls touch everything.
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def rounded_tube(radius, half_length, segments, rings, squash=1.0):
    """A capsule-like shell along z: `rings` latitude rings per hemispherical end, `segments` around;
    squash scales y (an oval cross-section). Returns vertices and triangles (outward)."""
    verts = []
    lat = [(-half_length, -math.pi / 2 + math.pi / 2 * i / rings) for i in range(1, rings + 1)]
    lat += [(half_length, math.pi / 2 * i / rings) for i in range(0, rings)]
    verts.append((0.0, 0.0, -half_length - radius))
    for zc, phi in lat:
        for s in range(segments):
            t = 2 * math.pi * s / segments
            verts.append((radius * math.cos(phi) * math.cos(t), squash * radius * math.cos(phi) * math.sin(t), zc + radius * math.sin(phi)))
    verts.append((0.0, 0.0, half_length + radius))
    faces = []
    top = len(verts) - 1
    n = len(lat)
    ring = lambda r, s: 1 + r * segments + s % segments
    for s in range(segments):
        faces.append((0, ring(0, s + 1), ring(0, s)))
        faces.append((top, ring(n - 1, s), ring(n - 1, s + 1)))
    for r in range(n - 1):
        for s in range(segments):
            a, b, c, d = ring(r, s), ring(r, s + 1), ring(r + 1, s + 1), ring(r + 1, s)
            faces += [(a, b, c), (a, c, d)]
    return verts, faces


def jitter(verts, amount, seed):
    """Each vertex moved radially by up to ±amount (relative), from a fixed linear congruential stream:
    real link meshes are irregular, and a shell in general position has triangles for faces (no four
    coplanar corners) and no two vertices at exactly the same height in a symmetric pose."""
    state = seed
    out = []
    for x, y, z in verts:
        state = (1103515245 * state + 12345) % 2**31
        k = 1 + amount * (2 * state / 2**31 - 1)
        out.append((x * k, y * k, z * k))
    return out


def shift(verts, dz):
    return [(x, y, z + dz) for x, y, z in verts]


def write_stl(name, verts, faces):
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(b'mesh-arm link, written by make.py'.ljust(80, b' '))
        f.write(struct.pack('<I', len(faces)))
        for a, b, c in faces:
            f.write(struct.pack('<3f', 0, 0, 0))
            for i in (a, b, c):
                f.write(struct.pack('<3f', *verts[i]))
            f.write(b'\0\0')


def write_obj(name, verts, faces):
    with open(os.path.join(HERE, name), 'w') as f:
        f.write('# mesh-arm link, written by make.py\n')
        for v in verts:
            f.write('v %.6f %.6f %.6f\n' % v)
        for a, b, c in faces:
            f.write('f %d %d %d\n' % (a + 1, b + 1, c + 1))


# link meshes: turntable (STL, 24 around x 2 rings per end: 98 vertices), upper arm (STL, 20 x 6: 242),
# forearm (OBJ, 16 x 4: 130), hand (OBJ, 12 x 3, oval: 74), pebble (OBJ, 8 x 2, oval: 34)
base_v, base_f = rounded_tube(0.07, 0.02, 24, 2)
upper_v, upper_f = rounded_tube(0.045, 0.15, 20, 6)
fore_v, fore_f = rounded_tube(0.035, 0.12, 16, 4)
hand_v, hand_f = rounded_tube(0.03, 0.04, 12, 3, squash=0.6)
pebble_v, pebble_f = rounded_tube(0.025, 0.01, 8, 2, squash=0.8)
base_v, upper_v, fore_v, hand_v, pebble_v = (jitter(v, 0.03, k + 1) for k, v in enumerate((base_v, upper_v, fore_v, hand_v, pebble_v)))
write_stl('turntable.stl', shift(base_v, 0.0), base_f)
write_stl('upper.stl', shift(upper_v, 0.15), upper_f)  # from the shoulder along +z
write_obj('fore.obj', shift(fore_v, 0.12), fore_f)
write_obj('hand.obj', shift(hand_v, 0.04), hand_f)
write_obj('pebble.obj', pebble_v, pebble_f)

XML = '''<!-- An arm whose links are meshes (STL and OBJ, written by make.py beside this file), bent down at qpos0 (the
     bodies' euler) so that its hand rests on the floor among loose balls and mesh pebbles. Every mesh collides as its convex hull.
     contype/conaffinity: links 2/1, pebbles 4/1, floor and balls 1/7, so no two meshes are paired (mesh with mesh
     is a pair MuJoCo gives several contacts with normals of their own, which the engine does not collide yet). -->
<mujoco model="mesh-arm">
  <compiler angle="radian"/>
  <option timestep="0.002"/>
  <asset>
    <mesh name="turntable" file="turntable.stl"/>
    <mesh name="upper" file="upper.stl"/>
    <mesh name="fore" file="fore.obj"/>
    <mesh name="hand" file="hand.obj"/>
    <mesh name="pebble" file="pebble.obj"/>
  </asset>
  <default>
    <joint damping="0.5" armature="0.01"/>
    <geom friction="0.8" density="1200"/>
    <default class="link">
      <geom type="mesh" contype="2" conaffinity="1"/>
    </default>
    <default class="loose">
      <geom contype="1" conaffinity="7"/>
    </default>
    <motor ctrlrange="-1 1" ctrllimited="true"/>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1" contype="1" conaffinity="7"/>
    <body name="base" pos="0 0 0.1">
      <geom name="pedestal" type="cylinder" size="0.06 0.05" pos="0 0 -0.05" contype="0" conaffinity="0"/>
      <body name="turntable" pos="0 0 0.02">
        <joint name="turn" axis="0 0 1"/>
        <geom name="turntable" class="link" mesh="turntable"/>
        <body name="upper" pos="0 0 0.05" euler="0 1.2 0">
          <joint name="shoulder" axis="0 1 0"/>
          <geom name="upper" class="link" mesh="upper"/>
          <body name="fore" pos="0 0 0.3" euler="0 1.1 0">
            <joint name="elbow" axis="0 1 0"/>
            <geom name="fore" class="link" mesh="fore"/>
            <body name="hand" pos="0 0 0.24" euler="0 0.6 0">
              <joint name="wrist" axis="0 1 0"/>
              <geom name="hand" class="link" mesh="hand"/>
            </body>
          </body>
        </body>
      </body>
    </body>
    <body name="ball1" pos="0.42 0.09 0.03"><freejoint/><geom name="ball1" class="loose" type="sphere" size="0.03"/></body>
    <body name="ball2" pos="0.3 -0.12 0.025"><freejoint/><geom name="ball2" class="loose" type="sphere" size="0.025"/></body>
    <body name="ball3" pos="0.55 -0.05 0.035"><freejoint/><geom name="ball3" class="loose" type="sphere" size="0.035"/></body>
    <body name="pebble1" pos="0.38 -0.04 0.03" euler="1.5708 0 0.4">
      <freejoint/><geom name="pebble1" type="mesh" mesh="pebble" contype="4" conaffinity="1"/>
    </body>
    <body name="pebble2" pos="0.5 0.12 0.03" euler="1.5708 0 -0.7">
      <freejoint/><geom name="pebble2" type="mesh" mesh="pebble" contype="4" conaffinity="1"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="turn" joint="turn" gear="4"/>
    <motor name="shoulder" joint="shoulder" gear="8"/>
    <motor name="elbow" joint="elbow" gear="5"/>
    <motor name="wrist" joint="wrist" gear="2"/>
  </actuator>
</mujoco>
'''
with open(os.path.join(HERE, 'mesh-arm.xml'), 'w') as f:
    f.write(XML)
