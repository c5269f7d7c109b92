// A small element tree with source positions, read by saxes: every element and attribute keeps
// its 1-based line and column so that each import error and note points into the user's file.

import { SaxesParser } from 'saxes';
import { SceneError } from '../scene/errors.js';

export interface Pos {
  line: number;
  column: number;
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
    // saxes messages read "file:line:col: message"; keep the message, use our own position.
    const msg = String(e.message).replace(/^(?:[^:]*:)?\d+:\d+: /, '');
    error = new SceneError({ file, line: parser.line, column: parser.column + 1, subject: 'XML', found: msg, expected: 'well-formed XML' });
  });
  parser.on('opentagstart', (tag) => {
    pendingAttrs = new Map();
    tagStart = { line: parser.line, column: Math.max(1, parser.column - tag.name.length - 1) };
  });
  parser.on('attribute', (a) => {
    // The parser sits just past the closing quote: step back over name="value" when on one line.
    const back = a.name.length + a.value.length + 3;
    pendingAttrs.set(a.name, { value: a.value, line: parser.line, column: Math.max(1, parser.column - back + 1) });
  });
  parser.on('opentag', (tag) => {
    const el: XmlElement = { name: tag.name, attrs: pendingAttrs, children: [], line: tagStart.line, column: tagStart.column, text: '' };
    const parent = stack[stack.length - 1];
    if (parent) {
      el.parent = parent;
      parent.children.push(el);
    } else if (!root) root = el;
    stack.push(el);
    if (tag.isSelfClosing) return;
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  try {
    parser.write(text).close();
  } catch (e) {
    if (!error) error = new SceneError({ file, line: parser.line, column: parser.column + 1, subject: 'XML', found: (e as Error).message.replace(/^[^:]*:\d+:\d+: /, ''), expected: 'well-formed XML' });
  }
  if (error) throw error;
  if (!root) throw new SceneError({ file, line: 1, column: 1, subject: 'XML', found: 'no root element', expected: 'an MJCF (<mujoco>) or URDF (<robot>) document' });
  return root;
}

/** The root element's name when `text` looks like XML (cheap: no full parse), else undefined. */
export function xmlRootName(text: string): string | undefined {
  let s = text.replace(/^\uFEFF/, '').trimStart();
  if (!s.startsWith('<')) return undefined;
  for (;;) {
    s = s.trimStart();
    const skip = /^(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)/i.exec(s);
    if (!skip) break;
    s = s.slice(skip[0].length);
  }
  const m = /^<([A-Za-z_][\w:.-]*)/.exec(s);
  return m ? m[1] : '';
}
