// Attributes MuJoCo's schema allows on the elements the importer reads, but that the importer does
// not follow: each is accepted only at a value where it changes nothing (MuJoCo's default, or a
// value that matters only to something refused elsewhere), and refused at its line otherwise, so
// a model never runs without a setting its file asks for (<geom adhesion>,
// an actuator's delay, ...). Attributes with no effect on the motion at all (group, user, material,
// lengthrange, ...) are not listed.

import { quote } from '../../common/errors.js';
import type { Reader } from '../read-attrs.js';
import type { XmlAttr } from '../xml.js';

type Kind = 'joint' | 'freejoint' | 'geom' | 'actuator';

/** Per attribute: whether a value changes nothing here, and what the attribute does. */
const UNREAD: Record<Kind, Record<string, [(v: string, nums: () => number[]) => boolean, string]>> = {
  joint: {
    solreffriction: [
      (_, n) => sameNums(n(), [0.02, 1]),
      "it sets the joint's dry-friction rows' solref (the engine uses MuJoCo's default)",
    ],
    solimpfriction: [
      (_, n) => sameNums(n(), [0.9, 0.95, 0.001, 0.5, 2]),
      "it sets the joint's dry-friction rows' solimp (the engine uses MuJoCo's default)",
    ],
    actuatorfrclimited: [(v) => v === 'false' || v === 'auto', 'it clamps the total actuator force on the joint'],
    actuatorfrcrange: [(_, n) => sameNums(n(), [0, 0]), 'it clamps the total actuator force on the joint (with actuatorfrclimited)'],
    actuatorgravcomp: [(v) => v === 'false', 'it applies gravity compensation through the actuators'],
  },
  freejoint: {
    align: [(v) => v === 'false' || v === 'auto', 'it aligns the free body with its inertia axes (alignfree)'],
  },
  geom: {
    shellinertia: [(v) => v === 'false', 'it computes the inertia of a hollow shell instead of a solid'],
    surfacevel: [(_, n) => n().every((x) => x === 0), 'it makes the surface move (a conveyor)'],
    adhesion: [(_, n) => sameNums(n(), [0]), 'it adds adhesion to contacts'],
  },
  actuator: {
    damping: [(_, n) => n().every((x) => x === 0), 'it adds damping to the joint the actuator drives'],
    armature: [(_, n) => n().every((x) => x === 0), 'it adds armature to the joint the actuator drives'],
    delay: [(_, n) => sameNums(n(), [0]), 'it delays the control'],
    inheritrange: [(_, n) => sameNums(n(), [0]), "it sets ctrlrange from the joint's range"],
    actdim: [(_, n) => sameNums(n(), [-1]), 'it sets the number of activation states'],
    input: [() => false, 'it selects the servo inputs'],
    velrange: [(_, n) => sameNums(n(), [0, 0]), 'it ranges a velocity input'],
    ffrange: [(_, n) => sameNums(n(), [0, 0]), 'it ranges a feed-forward input'],
  },
};

const sameNums = (v: number[], want: number[]): boolean => v.length <= want.length && v.every((x, k) => x === want[k]);

/** Refuses an attribute of `kind` the importer does not follow, at a value that would change the model. */
export function checkUnread(r: Reader, kind: Kind, get: (name: string) => XmlAttr | undefined, subject: string): void {
  for (const [name, [harmless, what]] of Object.entries(UNREAD[kind])) {
    const a = get(name);
    if (!a) continue;
    const nums = (): number[] => r.nums(a, `${subject} ${name}`, [1, 6]);
    if (!harmless(a.value.trim(), nums))
      r.fail(a, `${subject} ${name}`, quote(a.value), `no ${name}, or MuJoCo's default (not supported: ${what})`);
  }
}
