// The replay page: reads the inlined header and poses, builds a three.js scene (z up, like the
// engine's world W), and plays the frames. Everything it needs is in the page; it makes no
// network request. Bundled with three by src/viewer/bundle.ts.
//
// A small API on window.achillesViewer lets tests and the filmstrip drive it deterministically:
// setFrame(f), render(), camera matrices, visibility toggles.

import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { RoundedBoxGeometry } from 'three/examples/jsm/geometries/RoundedBoxGeometry.js';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';

const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4];
const BACKGROUND = 0x1d2026;

// ---- data -------------------------------------------------------------------------------

/** Base64 → bytes without atob's string limits mattering (chunks of 1 MB of text). */
function decodeBase64(text) {
  const clean = text.replace(/\s+/g, '');
  const bin = atob(clean);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function readReplay() {
  const header = JSON.parse(document.getElementById('replay-header').textContent);
  const bytes = decodeBase64(document.getElementById('replay-data').textContent);
  const buf = bytes.buffer;
  const L = header.layout;
  return {
    header,
    times: new Float64Array(buf, L.times.offset, L.times.length),
    pos: new Float32Array(buf, L.pos.offset, L.pos.length),
    quat: new Int16Array(buf, L.quat.offset, L.quat.length),
    contactStart: new Uint32Array(buf, L.contactStart.offset, L.contactStart.length),
    contacts: new Float32Array(buf, L.contacts.offset, L.contacts.length),
  };
}

// ---- geometry ---------------------------------------------------------------------------

/** A three.js mesh for one drawable (a ShapeDesc kind), in its own frame. */
function drawableMesh(d, material, planeSize) {
  const [hx, hy, hz] = d.halfExtents;
  const r = d.radius;
  let geom;
  switch (d.kind) {
    case 'sphere':
      geom = new THREE.SphereGeometry(Math.max(r, 1e-4), 24, 16);
      break;
    case 'capsule':
      geom = new THREE.CapsuleGeometry(Math.max(r, 1e-4), 2 * hz, 8, 16);
      geom.rotateX(Math.PI / 2); // three's capsule runs along y; ours along the shape's z
      break;
    case 'box':
      geom = new THREE.BoxGeometry(2 * hx || 1e-4, 2 * hy || 1e-4, 2 * hz || 1e-4);
      break;
    case 'rounded-box':
      geom = new RoundedBoxGeometry(2 * (hx + r), 2 * (hy + r), 2 * (hz + r), 3, r);
      break;
    case 'plane':
      geom = new THREE.PlaneGeometry(planeSize, planeSize);
      break;
    case 'cylinder':
      geom = new THREE.CylinderGeometry(d.size[0], d.size[0], 2 * d.size[1], 24);
      geom.rotateX(Math.PI / 2); // three's cylinder runs along y; MuJoCo's along the shape's z
      break;
    case 'ellipsoid':
      geom = new THREE.SphereGeometry(1, 24, 16);
      geom.scale(d.size[0], d.size[1], d.size[2]);
      break;
    case 'convex': {
      const v = d.vertices;
      geom = new ConvexGeometry(Array.from({ length: v.length / 3 }, (_, i) => new THREE.Vector3(v[3 * i], v[3 * i + 1], v[3 * i + 2])));
      break;
    }
    default:
      throw new Error(`unknown shape kind ${d.kind}`);
  }
  const mesh = new THREE.Mesh(geom, material);
  mesh.position.set(d.pos[0], d.pos[1], d.pos[2]);
  mesh.quaternion.set(d.quat[1], d.quat[2], d.quat[3], d.quat[0]);
  return mesh;
}

/** Where the default camera looks from (a unit vector from the target toward the camera): a
 *  three-quarter view from +x, a little to the side and above, unless that looks within 60° of
 *  the scene's long horizontal axis; then it is turned about z to 75° from it. Bodies
 *  spread out along a line (a row of dominoes along x) are so seen from the side of the line, and
 *  the nearest one does not hide the rest. The long axis is the principal axis of the body
 *  origins' horizontal positions over the replay (up to 200 frames), when clearly longer (2x the
 *  spread) than wide. */
function viewDirection(data) {
  const h = data.header;
  const per = h.robots.length * h.nbody;
  const every = Math.max(1, Math.floor(h.frames / 200));
  let sx = 0,
    sy = 0,
    sxx = 0,
    syy = 0,
    sxy = 0,
    m = 0;
  for (let f = 0; f < h.frames; f += every)
    for (let k = f * per; k < (f + 1) * per; k++) {
      const x = data.pos[k * 3];
      const y = data.pos[k * 3 + 1];
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      m++;
    }
  const base = new THREE.Vector3(1, -0.45, 0.4).normalize();
  if (m < 2) return base;
  const cxx = sxx / m - (sx / m) ** 2;
  const cyy = syy / m - (sy / m) ** 2;
  const cxy = sxy / m - (sx / m) * (sy / m);
  // Eigenvalues of the 2x2 covariance; the long axis only counts when clearly longer than wide.
  const mean = (cxx + cyy) / 2;
  const r = Math.hypot((cxx - cyy) / 2, cxy);
  if (!(mean + r > 0) || mean + r < 4 * (mean - r)) return base;
  const theta = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
  let ax = Math.cos(theta),
    ay = Math.sin(theta);
  const horiz = Math.hypot(base.x, base.y);
  const bx = base.x / horiz,
    by = base.y / horiz;
  // Seen at 60° or more from the long axis: the familiar view already shows the row across.
  const cosAxis = bx * ax + by * ay;
  if (Math.abs(cosAxis) <= 0.5) return base;
  // Else turn about z to 75° from the axis, on the default view's side of it: nearly across the
  // row, so one body hides little of the next, yet a little along it, so flat faces are not edges.
  if (cosAxis < 0) ((ax = -ax), (ay = -ay));
  let px = -ay,
    py = ax;
  if (px * bx + py * by < 0) ((px = -px), (py = -py));
  const along = Math.cos((75 * Math.PI) / 180);
  const hx = along * ax + Math.sqrt(1 - along * along) * px;
  const hy = along * ay + Math.sqrt(1 - along * along) * py;
  return new THREE.Vector3(hx * horiz, hy * horiz, base.z).normalize();
}

/** Distinct, evenly spaced hues for overlaid robots. */
function robotColor(j, n) {
  return new THREE.Color().setHSL((j / Math.max(n, 1)) * 0.85, 0.7, 0.55);
}

// ---- viewer -----------------------------------------------------------------------------

function main() {
  const data = readReplay();
  const h = data.header;
  const R = h.robots.length;
  const B = h.nbody;
  const F = h.frames;
  const geo = h.geometry;
  const reach = geo.reach;

  const canvas = document.getElementById('view');
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(BACKGROUND);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444455, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(3, -2, 5);
  scene.add(sun);

  const camera = new THREE.PerspectiveCamera(45, 1, reach / 100, reach * 200);
  camera.up.set(0, 0, 1);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false;

  // Side-by-side layout shifts robot j along x; overlaid keeps them where the engine put them.
  // Robots sit in a row across the initial line of sight (horizontal, perpendicular to VIEW_DIR).
  const VIEW_DIR = viewDirection(data);
  const across = new THREE.Vector3(-VIEW_DIR.y, VIEW_DIR.x, 0).normalize();
  const spacing = 2 * reach;
  let sideBySide = false;
  const shift = (j) => (sideBySide ? (j - (R - 1) / 2) * spacing : 0);

  // Ground: the world plane if the scene has one, else a grid just below the lowest body point.
  const planes = geo.statics.filter((s) => s.kind === 'plane');
  let groundZ;
  if (planes.length > 0) groundZ = planes[0].pos[2];
  else {
    let minZ = Infinity;
    for (let i = 2; i < data.pos.length; i += 3) minZ = Math.min(minZ, data.pos[i]);
    let ext = 0;
    for (const b of geo.bodies)
      for (const d of b.drawables) ext = Math.max(ext, Math.hypot(...d.pos) + Math.hypot(...d.halfExtents) + d.radius);
    groundZ = Math.min(0, minZ - ext);
  }
  const gridSize = Math.max(4, Math.ceil(reach * 6 + (R > 1 ? spacing * R : 0)));
  const grid = new THREE.GridHelper(gridSize, Math.min(200, Math.round(gridSize * 2)), 0x6a7080, 0x3a3f4a);
  grid.rotation.x = Math.PI / 2; // GridHelper lies in xz; ours lies in xy (z up)
  grid.position.z = groundZ;
  scene.add(grid);
  for (const s of geo.statics) {
    const mat = new THREE.MeshLambertMaterial({
      color: new THREE.Color(...s.color),
      transparent: s.kind === 'plane',
      opacity: s.kind === 'plane' ? 0.35 : 1,
      side: THREE.DoubleSide,
    });
    const m = drawableMesh(s, mat, gridSize);
    if (s.kind === 'plane') m.position.z -= 1e-3 * reach; // keep the grid lines visible on the plane
    scene.add(m);
  }

  // Robots: one group per body per robot.
  const robots = [];
  const frameSize = reach * 0.12;
  for (let j = 0; j < R; j++) {
    const tint = R > 1 ? robotColor(j, R) : null;
    const root = new THREE.Group();
    root.name = `robot ${h.robots[j]}`;
    scene.add(root);
    const bodies = geo.bodies.map((b) => {
      const g = new THREE.Group();
      for (const d of b.drawables) {
        const color = tint ?? new THREE.Color(...d.color);
        const mat = new THREE.MeshLambertMaterial({ color, transparent: d.role === 'inertia', opacity: d.role === 'inertia' ? 0.55 : 1 });
        g.add(drawableMesh(d, mat, reach));
      }
      const axes = new THREE.AxesHelper(frameSize);
      axes.name = 'joint-frame';
      axes.material.depthTest = false; // a joint frame sits inside its body: draw it on top
      axes.renderOrder = 2;
      g.add(axes);
      const com = new THREE.Mesh(
        new THREE.SphereGeometry(reach * 0.02, 12, 8),
        new THREE.MeshBasicMaterial({ color: 0xffee44, depthTest: false }),
      );
      com.position.set(...b.com);
      com.renderOrder = 2;
      com.name = 'com';
      g.add(com);
      root.add(g);
      return g;
    });
    robots.push({ root, bodies, visible: true });
  }

  // Contacts: a pool of points and normal arrows, refilled per frame.
  const contactGroup = new THREE.Group();
  scene.add(contactGroup);
  const contactPool = [];
  const contactMat = new THREE.MeshBasicMaterial({ color: 0xff3355, depthTest: false });
  const contactGeom = new THREE.SphereGeometry(reach * 0.015, 10, 8);
  function contactObject(k) {
    while (contactPool.length <= k) {
      const g = new THREE.Group();
      const dot = new THREE.Mesh(contactGeom, contactMat);
      dot.renderOrder = 3;
      const arrow = new THREE.ArrowHelper(
        new THREE.Vector3(0, 0, 1),
        new THREE.Vector3(),
        reach * 0.15,
        0xff3355,
        reach * 0.04,
        reach * 0.025,
      );
      // Drawn over everything: a normal usually points into one of the touching bodies.
      arrow.traverse((o) => {
        if (o.material) o.material.depthTest = false;
        o.renderOrder = 3;
      });
      g.add(dot, arrow);
      g.userData.arrow = arrow;
      contactGroup.add(g);
      contactPool.push(g);
    }
    return contactPool[k];
  }

  // Trail of one chosen body, per robot: its origin over frames 0..current.
  const trails = [];
  for (let j = 0; j < R; j++) {
    const geom = new THREE.BufferGeometry();
    geom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(F * 3), 3));
    const line = new THREE.Line(geom, new THREE.LineBasicMaterial({ color: R > 1 ? robotColor(j, R) : 0xffffff }));
    line.frustumCulled = false;
    scene.add(line);
    trails.push(line);
  }

  const state = {
    frame: 0,
    playing: false,
    speed: 1,
    simTime: data.times[0],
    contacts: h.hasContacts,
    frames: false,
    com: false,
    trail: false,
    trailBody: B - 1,
  };

  // ---- applying a frame ----------------------------------------------------------------
  const q = new THREE.Quaternion();
  const tq = new THREE.Quaternion();
  const tv = new THREE.Vector3();
  function applyFrame(f) {
    for (let j = 0; j < R; j++) {
      const rb = robots[j];
      rb.root.visible = rb.visible;
      rb.root.position.copy(across).multiplyScalar(shift(j));
      for (let i = 0; i < B; i++) {
        const o = (f * R + j) * B + i;
        const g = rb.bodies[i];
        g.position.set(data.pos[o * 3], data.pos[o * 3 + 1], data.pos[o * 3 + 2]);
        q.set(data.quat[o * 4 + 1], data.quat[o * 4 + 2], data.quat[o * 4 + 3], data.quat[o * 4]).normalize(); // int16 · QUAT_SCALE: the scale drops out
        g.quaternion.copy(q);
        for (const child of g.children) {
          if (child.name === 'joint-frame') child.visible = state.frames;
          if (child.name === 'com') child.visible = state.com;
        }
      }
    }
    // Contacts of this frame.
    const c0 = data.contactStart[f];
    const c1 = data.contactStart[f + 1];
    let used = 0;
    if (state.contacts) {
      for (let c = c0; c < c1; c++) {
        const row = data.contacts.subarray(c * 8, c * 8 + 8);
        const slot = row[7];
        if (!robots[slot].visible) continue;
        const g = contactObject(used++);
        g.visible = true;
        g.position.set(row[0], row[1], row[2]).addScaledVector(across, shift(slot));
        g.userData.arrow.setDirection(new THREE.Vector3(row[3], row[4], row[5]).normalize());
      }
    }
    for (let k = used; k < contactPool.length; k++) contactPool[k].visible = false;
    // Trails.
    for (let j = 0; j < R; j++) {
      const line = trails[j];
      line.visible = state.trail && robots[j].visible;
      if (!line.visible) continue;
      // The chosen body's centre of mass, p_WB + R_WB · com, over frames 0..f.
      const arr = line.geometry.attributes.position.array;
      const com = geo.bodies[state.trailBody].com;
      for (let g = 0; g <= f; g++) {
        const o = (g * R + j) * B + state.trailBody;
        tq.set(data.quat[o * 4 + 1], data.quat[o * 4 + 2], data.quat[o * 4 + 3], data.quat[o * 4]).normalize();
        tv.set(com[0], com[1], com[2]).applyQuaternion(tq);
        tv.x += data.pos[o * 3];
        tv.y += data.pos[o * 3 + 1];
        tv.z += data.pos[o * 3 + 2];
        tv.addScaledVector(across, shift(j));
        arr[g * 3] = tv.x;
        arr[g * 3 + 1] = tv.y;
        arr[g * 3 + 2] = tv.z;
      }
      line.geometry.setDrawRange(0, f + 1);
      line.geometry.attributes.position.needsUpdate = true;
    }
    state.frame = f;
    ui.slider.value = String(f);
    ui.clock.textContent = `t = ${data.times[f].toFixed(3)} s   frame ${f + 1} / ${F}`;
  }

  function render() {
    applyFrame(state.frame);
    renderer.render(scene, camera);
  }

  function setFrame(f) {
    state.frame = Math.max(0, Math.min(F - 1, Math.round(f)));
    state.simTime = data.times[state.frame];
    render();
  }

  // ---- camera ---------------------------------------------------------------------------
  function resetView() {
    // Frame the whole motion: the box bounding every drawable over (up to 200) sampled frames,
    // seen from VIEW_DIR, at the distance where all its corners are inside the field of view.
    const sample = [];
    for (let k = 0; k < Math.min(F, 200); k++) sample.push(Math.round((k * (F - 1)) / Math.max(1, Math.min(F, 200) - 1)));
    const box = new THREE.Box3();
    const bq = new THREE.Quaternion();
    const wv = new THREE.Vector3();
    const origin = new THREE.Vector3();
    const corner = new THREE.Vector3();
    const dq = new THREE.Quaternion();
    const grow = (p, r) => {
      box.expandByPoint(new THREE.Vector3(p.x - r, p.y - r, p.z - r));
      box.expandByPoint(new THREE.Vector3(p.x + r, p.y + r, p.z + r));
    };
    for (const f of sample)
      for (let j = 0; j < R; j++)
        for (let i = 0; i < B; i++) {
          const o = (f * R + j) * B + i;
          bq.set(data.quat[o * 4 + 1], data.quat[o * 4 + 2], data.quat[o * 4 + 3], data.quat[o * 4]).normalize();
          origin.set(data.pos[o * 3], data.pos[o * 3 + 1], data.pos[o * 3 + 2]);
          grow(origin, 0);
          for (const d of geo.bodies[i].drawables) {
            if (d.kind === 'plane') continue;
            // The corners of the drawable's core box (a segment for a capsule, a point for a
            // sphere) in W, each grown by the sweep radius: a tight bound for every kind.
            dq.set(d.quat[1], d.quat[2], d.quat[3], d.quat[0]).premultiply(bq);
            for (let k = 0; k < 8; k++) {
              wv.set(
                k & 1 ? d.halfExtents[0] : -d.halfExtents[0],
                k & 2 ? d.halfExtents[1] : -d.halfExtents[1],
                k & 4 ? d.halfExtents[2] : -d.halfExtents[2],
              );
              wv.applyQuaternion(dq)
                .add(corner.set(d.pos[0], d.pos[1], d.pos[2]).applyQuaternion(bq))
                .add(origin);
              grow(wv, d.radius);
            }
          }
        }
    // Side by side, the row of robots is centred on the overlaid position: widen the box along it.
    if (sideBySide && R > 1) {
      const half = (spacing * (R - 1)) / 2;
      const b0 = box.clone();
      box
        .union(b0.clone().translate(across.clone().multiplyScalar(half)))
        .union(b0.clone().translate(across.clone().multiplyScalar(-half)));
    }
    const c = box.getCenter(new THREE.Vector3());
    const minHalf = 0.05 * reach;
    box.expandByVector(
      new THREE.Vector3(minHalf, minHalf, minHalf).sub(box.getSize(new THREE.Vector3()).multiplyScalar(0.5)).max(new THREE.Vector3()),
    );
    // Camera axes for VIEW_DIR (z up): each corner at (x, y) across and up, z toward the camera,
    // fits when |x| ≤ (dist − z) tan(hfov) and |y| ≤ (dist − z) tan(vfov).
    const back = VIEW_DIR.clone();
    const right = new THREE.Vector3(0, 0, 1).cross(back).normalize();
    const up = back.clone().cross(right);
    const tanV = Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2);
    const tanH = tanV * camera.aspect;
    let dist = 0;
    for (let k = 0; k < 8; k++) {
      const p = new THREE.Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z).sub(c);
      const z = p.dot(back);
      dist = Math.max(dist, z + Math.abs(p.dot(right)) / tanH, z + Math.abs(p.dot(up)) / tanV);
    }
    dist *= 1.05;
    camera.position.copy(c).addScaledVector(VIEW_DIR, dist);
    controls.target.copy(c);
    controls.update();
    render();
  }

  function resize() {
    const w = canvas.clientWidth;
    const hh = canvas.clientHeight;
    renderer.setSize(w, hh, false);
    camera.aspect = w / hh;
    camera.updateProjectionMatrix();
    render();
  }

  // ---- UI -------------------------------------------------------------------------------
  const $ = (id) => document.getElementById(id);
  const ui = { slider: $('time'), clock: $('clock'), play: $('play'), speed: $('speed') };
  ui.slider.max = String(F - 1);

  const m = h.meta;
  const metaLines = [
    ['scene', m.model],
    ['file', String(m.scene).split('/').pop()],
    ['integrator', m.integrator],
    ['dt', `${m.dt} s${m.substeps > 1 ? ` / ${m.substeps} substeps` : ''}`],
    ['precision', m.precision],
    ['simulated', `${(m.steps * m.dt).toFixed(3)} s (${m.steps} steps)`],
    ['robots', `${h.robots.join(', ')} of ${m.copies}${m.spread ? `, spread ${m.spread}` : ''}`],
    ['replay', `${h.fps.toFixed(h.fps % 1 ? 2 : 0)} fps, ${F} frames`],
  ];
  $('meta').innerHTML = metaLines.map(([k, v]) => `<div><span class="k">${k}</span> ${escapeHtml(String(v))}</div>`).join('');
  if (h.downsampled) {
    const note = $('note');
    note.hidden = false;
    note.textContent = `Downsampled: ${h.downsampled.fromFps} fps → ${h.downsampled.toFps.toFixed(2)} fps (${h.downsampled.reason}).`;
  }
  if (!h.hasContacts) {
    $('show-contacts').disabled = true;
    $('show-contacts').checked = false;
    $('contacts-label').title = 'this run has no contact data (no collision shapes, or an engine without collision detection)';
  }

  const trailSelect = $('trail-body');
  geo.bodies.forEach((b, i) => {
    const opt = document.createElement('option');
    opt.value = String(i);
    opt.textContent = b.name;
    trailSelect.appendChild(opt);
  });
  trailSelect.value = String(state.trailBody);

  const robotBox = $('robots');
  h.robots.forEach((r, j) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = true;
    box.id = `robot-${j}`;
    box.addEventListener('change', () => {
      robots[j].visible = box.checked;
      render();
    });
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = R > 1 ? `#${robotColor(j, R).getHexString()}` : '#ccc';
    label.append(box, sw, ` robot ${r}`);
    robotBox.appendChild(label);
  });

  SPEEDS.forEach((s) => {
    const opt = document.createElement('option');
    opt.value = String(s);
    opt.textContent = `${s}×`;
    ui.speed.appendChild(opt);
  });
  ui.speed.value = '1';

  function setPlaying(p) {
    state.playing = p;
    ui.play.textContent = p ? 'Pause' : 'Play';
    if (p) {
      if (state.frame >= F - 1) setFrame(0);
      lastWall = performance.now();
      requestAnimationFrame(tick);
    }
  }

  let lastWall = 0;
  function tick(now) {
    if (!state.playing) return;
    state.simTime += ((now - lastWall) / 1000) * state.speed;
    lastWall = now;
    let f = state.frame;
    while (f + 1 < F && data.times[f + 1] <= state.simTime) f++;
    state.frame = f;
    render();
    if (f >= F - 1) setPlaying(false);
    else requestAnimationFrame(tick);
  }

  ui.play.addEventListener('click', () => setPlaying(!state.playing));
  $('prev').addEventListener('click', () => {
    setPlaying(false);
    setFrame(state.frame - 1);
  });
  $('next').addEventListener('click', () => {
    setPlaying(false);
    setFrame(state.frame + 1);
  });
  ui.slider.addEventListener('input', () => setFrame(Number(ui.slider.value)));
  ui.speed.addEventListener('change', () => (state.speed = Number(ui.speed.value)));
  $('reset').addEventListener('click', resetView);
  const toggle = (id, key) =>
    $(id).addEventListener('change', () => {
      state[key] = $(id).checked;
      render();
    });
  toggle('show-contacts', 'contacts');
  toggle('show-frames', 'frames');
  toggle('show-com', 'com');
  toggle('show-trail', 'trail');
  trailSelect.addEventListener('change', () => {
    state.trailBody = Number(trailSelect.value);
    render();
  });
  $('side-by-side').addEventListener('change', () => {
    sideBySide = $('side-by-side').checked;
    resetView();
  });
  if (R === 1) $('layout-label').hidden = true;
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type === 'range') return;
    if (e.key === ' ') {
      setPlaying(!state.playing);
      e.preventDefault();
    } else if (e.key === 'ArrowRight') setFrame(state.frame + 1);
    else if (e.key === 'ArrowLeft') setFrame(state.frame - 1);
  });
  controls.addEventListener('change', () => renderer.render(scene, camera));
  window.addEventListener('resize', resize);

  resize();
  resetView();
  setFrame(0);

  window.achillesViewer = {
    frames: F,
    times: Array.from(data.times),
    setFrame,
    getFrame: () => state.frame,
    render,
    resetView,
    setRobotVisible(j, v) {
      robots[j].visible = v;
      $(`robot-${j}`).checked = v;
      render();
    },
    /** Camera matrices (column-major, three's convention) and the canvas size in CSS pixels. */
    camera() {
      camera.updateMatrixWorld();
      return {
        view: camera.matrixWorldInverse.elements.slice(),
        projection: camera.projectionMatrix.elements.slice(),
        width: canvas.clientWidth,
        height: canvas.clientHeight,
      };
    },
    /** Render the given frames side by side, each labelled with its time, into one PNG (a data URL). */
    filmstrip(frames) {
      const w = canvas.width;
      const hh = canvas.height;
      const label = 28;
      const out = document.createElement('canvas');
      out.width = w * frames.length;
      out.height = hh + label;
      const ctx = out.getContext('2d');
      ctx.fillStyle = '#' + new THREE.Color(BACKGROUND).getHexString();
      ctx.fillRect(0, 0, out.width, out.height);
      ctx.font = '16px sans-serif';
      ctx.fillStyle = '#e8e8e8';
      frames.forEach((f, i) => {
        setFrame(f);
        ctx.drawImage(canvas, i * w, label);
        ctx.fillText(`t = ${data.times[state.frame].toFixed(2)} s`, i * w + 10, 20);
        if (i > 0) ctx.fillRect(i * w, 0, 1, out.height);
      });
      return out.toDataURL('image/png');
    },
    ready: true,
  };
  document.body.dataset.ready = 'true';
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

try {
  main();
} catch (e) {
  document.body.dataset.error = String(e && e.message ? e.message : e);
  const box = document.getElementById('note');
  box.hidden = false;
  box.textContent = `The replay could not be shown: ${e && e.message ? e.message : e}`;
  throw e;
}
