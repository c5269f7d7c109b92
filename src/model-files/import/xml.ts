// A small element tree with source positions, read by saxes: every element and attribute keeps
// its 1-based line and column so that each import error and note points into the user's file.

import { closeSync, openSync, readSync } from 'node:fs';
import { SaxesParser } from 'saxes';
import { SceneError } from '../common/errors.js';
import { findXmlRoot, otherRootProblem } from '../common/xml-root.js';

export { findXmlRoot, xmlRootName, type XmlRoot } from '../common/xml-root.js';

/** tinyxml2 (MuJoCo's XML parser) refuses an element with content this deep (the root is level 1):
 *  its parse recursion stops at TINYXML2_MAX_ELEMENT_DEPTH = 500, the document itself counting one.
 *  Checked while parsing, so 10,000 nested elements are an error at the first one too deep, never a
 *  stack overflow in the recursive walks that read the tree. */
export const MAX_XML_DEPTH = 499;

export interface Pos {
  line: number;
  column: number;
  /** The file the element or attribute was read from: set by parseXml, so that an element an MJCF
   *  <include> brought in is reported in its own file (mjcf/include.ts). */
  file?: string;
}

export interface XmlAttr extends Pos {
  value: string;
}

export interface XmlElement extends Pos {
  name: string;
  attrs: Map<string, XmlAttr>;
  children: XmlElement[];
  parent?: XmlElement;
  /** Concatenated text content (for URDF-style elements that carry text; rarely used). */
  text: string;
}

/** Parses `text` (the content of `file`) or throws a SceneError at the first XML error. */
export function parseXml(file: string, text: string): XmlElement {
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let pendingAttrs = new Map<string, XmlAttr>();
  let tagStart: Pos = { line: 1, column: 1 };
  let error: SceneError | undefined;
  parser.on('error', (e) => {
    if (error) return;
    // saxes messages read "file:line:col: message."; keep the message (without its period, which
    // ", expected" follows), use our own position.
    const msg = saxesMessage(e.message);
    error = new SceneError({ file, line: parser.line, column: parser.column + 1, subject: 'XML', found: msg, expected: 'well-formed XML' });
  });
  parser.on('opentagstart', (tag) => {
    pendingAttrs = new Map();
    tagStart = { line: parser.line, column: Math.max(1, parser.column - tag.name.length - 1) };
  });
  parser.on('attribute', (a) => {
    // The parser sits just past the closing quote: step back over name="value" when on one line.
    const back = a.name.length + a.value.length + 3;
    pendingAttrs.set(a.name, { value: a.value, line: parser.line, column: Math.max(1, parser.column - back + 1), file });
  });
  parser.on('opentag', (tag) => {
    const el: XmlElement = {
      name: tag.name,
      attrs: pendingAttrs,
      children: [],
      line: tagStart.line,
      column: tagStart.column,
      file,
      text: '',
    };
    const parent = stack[stack.length - 1];
    if (parent) {
      el.parent = parent;
      parent.children.push(el);
    } else if (!root) root = el;
    stack.push(el);
    if (!tag.isSelfClosing && stack.length >= MAX_XML_DEPTH && !error) {
      error = new SceneError({
        file,
        line: el.line,
        column: el.column,
        subject: `<${el.name}>`,
        found: `elements nested ${stack.length} levels deep`,
        expected: `at most ${MAX_XML_DEPTH - 1} levels of elements with content (MuJoCo's XML parser, tinyxml2, stops there: "Element nesting is too deep")`,
      });
      throw error; // stop reading: the rest of a 10,000-level file only repeats the error
    }
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  try {
    parser.write(text).close();
  } catch (e) {
    if (!error)
      error = new SceneError({
        file,
        line: parser.line,
        column: parser.column + 1,
        subject: 'XML',
        found: saxesMessage((e as Error).message),
        expected: 'well-formed XML',
      });
  }
  if (error) throw error;
  if (!root)
    throw new SceneError({
      file,
      line: 1,
      column: 1,
      subject: 'XML',
      found: 'no root element',
      expected: 'an MJCF (<mujoco>) or URDF (<robot>) document',
    });
  return root;
}

/** A saxes message without its "file:line:col: " prefix and final period. */
const saxesMessage = (m: unknown): string =>
  String(m)
    .replace(/^(?:[^:]*:)?\d+:\d+: /, '')
    .replace(/\.$/, '');

/** MuJoCo hands tinyxml2 the file as a C string, so a NUL byte ends the document: bytes after it
 *  (padding some tools leave after `</robot>`) are never read. The same text, cut there. */
export function cutAtNul(text: string): string {
  const k = text.indexOf('\0');
  return k < 0 ? text : text.slice(0, k);
}

/** Why `file` (an existing file the format sniffer did not take for MJCF or URDF) is no model:
 *  XML of another kind at its root element (SDF, ...), or content that is not XML at 1:1. */
export function notAModelError(file: string): SceneError {
  let head = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(65536);
      head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    // unreadable: said below as content that is not a model
  }
  const root = findXmlRoot(head);
  if (root) return new SceneError({ file, line: root.line, column: root.column, subject: 'model file', ...otherRootProblem(root) });
  return new SceneError({
    file,
    line: 1,
    column: 1,
    subject: 'model file',
    found: 'content that is not an MJCF or URDF document',
    expected: 'XML with root <mujoco> (MJCF) or <robot> (URDF)',
  });
}
