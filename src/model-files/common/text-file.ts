// Reading a scene (or include, or sim_config) file as bounded text before any YAML parsing:
// it must be a regular file (a FIFO would block forever, /dev/zero would grow without end),
// at most MAX_SCENE_BYTES, and text (UTF-8, no NUL or control bytes). XML is recognised and
// named (MJCF/URDF), since that is the most likely wrong file to hand us. Problems never echo
// the file's bytes: at most one byte's hex code.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { kindOf, unreadableWords } from '../../util/file-words.js';
import { findXmlRoot, otherRootProblem, type XmlRoot } from './xml-root.js';

/** Largest file read, in bytes: an everyday scene spends about 110 bytes a link, so this holds
 *  some 18,000 links, while a malformed file this large still reports its first error in seconds. */
export const MAX_SCENE_BYTES = 2 * 1024 * 1024;

export interface FileProblem {
  found: string;
  expected: string;
  hint?: string;
  /** Character offset in the decoded text the problem points at (default: the start). */
  at?: { line: number; column: number };
}

export type TextOrProblem = { text: string } | { problem: FileProblem };

/** Reads `file` as scene text, or says why it is not one. */
export function readBoundedText(file: string): TextOrProblem {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return { problem: unreadable(e as NodeJS.ErrnoException) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { problem: { found: `${kindOf(st)}, not a regular file`, expected: 'a regular file' } };
    if (st.size > MAX_SCENE_BYTES) return { problem: tooLarge(`${mib(st.size)}`) };
    // Read to the cap + 1 whatever stat said: /proc files report size 0, and a file may grow.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 << 20, MAX_SCENE_BYTES + 1 - total));
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        return { problem: unreadable(e as NodeJS.ErrnoException) };
      }
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > MAX_SCENE_BYTES) return { problem: tooLarge(`more than ${mib(MAX_SCENE_BYTES)}`) };
    }
    return checkText(Buffer.concat(chunks, total));
  } finally {
    closeSync(fd);
  }
}

/** Decodes bytes as scene text, or names what they are instead. */
export function checkText(bytes: Buffer): TextOrProblem {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { problem: { found: 'UTF-16 text', expected: 'a UTF-8 text scene', hint: 'save the file as UTF-8' } };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { problem: binary(`a NUL byte at byte ${nul}`) };
  const text = bytes.toString('utf8');
  const bad = text.indexOf('\uFFFD');
  if (bad >= 0 && !bytes.includes(Buffer.from('\uFFFD', 'utf8'))) {
    return { problem: { ...binary('bytes that are not UTF-8'), at: lineCol(text, bad) } };
  }
  // C0 controls other than tab, LF and CR (and DEL) are not text; YAML forbids them too.
  const ctl = text.search(/[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]/);
  if (ctl >= 0) {
    const code = text.charCodeAt(ctl).toString(16).padStart(2, '0');
    return { problem: { ...binary(`the control byte 0x${code}`), at: lineCol(text, ctl) } };
  }
  const xml = findXmlRoot(text);
  if (xml !== undefined) return { problem: xmlProblem(xml) };
  return { text };
}

/** 1-based line and column of a character offset. */
export function lineCol(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Why XML is not a scene: a model to import (when the sniffer missed it: an XML file given as
 *  an include) or XML that is no model at all, at its root element. */
function xmlProblem(root: XmlRoot): FileProblem {
  const at = { line: root.line, column: root.column };
  if (root.name === 'mujoco' || root.name === 'robot') {
    const what = root.name === 'mujoco' ? 'an MJCF model (MuJoCo XML, root `<mujoco>`)' : 'a URDF model (XML, root `<robot>`)';
    return {
      found: what,
      expected: 'an Achilles scene (YAML .arow)',
      hint: 'give the model file itself to `achilles run` or `achilles import` (an .arow include must be YAML)',
      at,
    };
  }
  return { ...otherRootProblem(root), at };
}

function binary(what: string): FileProblem {
  return { found: `binary data (${what})`, expected: 'a text scene (UTF-8 YAML)', hint: 'this is not a text scene' };
}

function tooLarge(size: string): FileProblem {
  return {
    found: `a file of ${size}`,
    expected: `at most ${mib(MAX_SCENE_BYTES)}`,
    hint: 'a scene this large is almost certainly not a scene; raw scenes can repeat an archetype with `copies`',
  };
}

function unreadable(e: NodeJS.ErrnoException): FileProblem {
  const words = unreadableWords(e.code);
  return { found: words ? `${words} (${e.code})` : `an unreadable file (${e.code ?? e.message})`, expected: 'a readable YAML file' };
}

function mib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}
