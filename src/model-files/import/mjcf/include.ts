// MJCF <include file="..."/>, as MuJoCo assembles included files before reading anything
// (src/xml/xml.cc IncludeXML; XML reference, "include"): the included file is any well-formed XML
// with one top-level element (MuJoCo does not check its name); that element is dropped and its
// child elements take the place of the <include>, wherever an element may stand (a section, in
// <worldbody>, a <body>, <default>, <asset>, <actuator>, ...). The assembled tree is then read as
// one model, so an included element obeys the rules of where it lands.
//
// MuJoCo's rules followed here:
// - the file is looked for relative to the main model's folder first, then (for an include inside
//   an included file) relative to the including file's folder (ResolveFilePath: "we first look in
//   the base model directory ... to remain backwards compatible");
// - a file may be included once in the whole model ("File '...' already included"), so an include
//   cycle is an error too;
// - an <include> has no children ("Include element cannot have children") and needs `file`;
// - the included document must have at least one child element ("Empty include file").
// Beyond MuJoCo, an included file must lie in the main model's folder tree (a model is imported
// with its folder, never with files from elsewhere), and an <include> takes no other attribute.
//
// Every element keeps the file it was read from (xml.ts), so errors and notes inside an included
// file name that file, its line and its column.

import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { quote, printable } from '../../common/errors.js';
import type { Reader } from '../read-attrs.js';
import { readXmlText } from '../xml-file.js';
import { MAX_XML_DEPTH, parseXml, type XmlElement } from '../xml.js';

/** Replaces every <include> under `root` (the main file's <mujoco>) by the elements of its file. */
export function expandIncludes(r: Reader, root: XmlElement): void {
  const mainFile = realpathSync(r.file);
  const state: IncludeState = {
    r,
    mainDir: dirname(r.file),
    realMainDir: dirname(mainFile),
    included: new Map([[mainFile, r.file]]),
  };
  expandChildren(state, root, [mainFile], 1);
}

interface IncludeState {
  r: Reader;
  /** The main model's folder, as the model's path names it (so errors name files the same way):
   *  MuJoCo looks for every included file here first. */
  mainDir: string;
  /** Its real path: every included file must lie below it. */
  realMainDir: string;
  /** Each file read so far (real path) → the name it was included by, for "already included". */
  included: Map<string, string>;
}

/** Expands the includes among `parent`'s children (`parent` at nesting `depth`, the root being 1),
 *  in document order, and the includes inside them. `chain`: the files being read, outermost first. */
function expandChildren(s: IncludeState, parent: XmlElement, chain: string[], depth: number): void {
  for (let k = 0; k < parent.children.length; k++) {
    const c = parent.children[k];
    if (c.name !== 'include') {
      expandChildren(s, c, chain, depth + 1);
      continue;
    }
    const { path, docRoot } = readIncluded(s, c, chain, depth + 1);
    // The included root stands where `parent` stands: its children (includes among them) take
    // the place of the <include>, one level below.
    expandChildren(s, docRoot, [...chain, path], depth);
    const elements = docRoot.children;
    for (const e of elements) e.parent = parent;
    parent.children.splice(k, 1, ...elements);
    k += elements.length - 1;
  }
}

/** The document `inc` names (its root's children are what is included), and that file's real path. */
function readIncluded(s: IncludeState, inc: XmlElement, chain: string[], depth: number): { path: string; docRoot: XmlElement } {
  const r: Reader = s.r;
  for (const [name, a] of inc.attrs)
    if (name !== 'file')
      r.fail(a, '<include>', `the attribute ${quote(name, 60, "'")}`, 'only file="PATH" (MuJoCo reads no other attribute of <include>)');
  const fileA = inc.attrs.get('file');
  if (!fileA) r.fail(inc, '<include>', 'no file attribute', 'file="PATH" (MuJoCo: "Include element missing file attribute")');
  if (inc.children.length > 0 || inc.text.trim() !== '')
    r.fail(
      inc.children[0] ?? inc,
      '<include>',
      'content inside <include>',
      'an empty <include/> (MuJoCo: "Include element cannot have children")',
    );
  const given = fileA.value;
  // MuJoCo's order: the main model's folder, then the folder of the file that holds this <include>.
  const tried = isAbsolute(given) ? [given] : [join(s.mainDir, given)];
  const includingDir = dirname(inc.file ?? r.file);
  if (!isAbsolute(given) && resolve(includingDir) !== resolve(s.mainDir)) tried.push(join(includingDir, given));
  const found = tried.find((p) => existsSync(p));
  if (!found)
    r.fail(
      fileA,
      '<include> file',
      `no file ${quote(given)} (looked for ${tried.map((p) => quote(p)).join(' and ')})`,
      "an XML file, relative to the model file's folder",
    );
  const real = realpathSync(found);
  const rel = relative(s.realMainDir, real);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    r.fail(
      fileA,
      '<include> file',
      `${quote(given)}, which lies outside the model's folder ${quote(s.mainDir)}`,
      "a file in the model file's folder or below it",
    );
  if (chain.includes(real))
    r.fail(
      fileA,
      '<include> file',
      `${quote(given)}, which closes a cycle of includes (${[...chain, real].map((p) => quote(relative(s.realMainDir, p))).join(' → ')})`,
      'includes without a cycle (MuJoCo: "File ... already included")',
    );
  const before = s.included.get(real);
  if (before !== undefined)
    r.fail(
      fileA,
      '<include> file',
      `${quote(given)}, already included as ${quote(before)}`,
      'each file included at most once (MuJoCo: "File ... already included")',
    );
  s.included.set(real, given);
  const docRoot = parseXml(found, readXmlText(found));
  const elements = docRoot.children;
  if (elements.length === 0)
    r.fail(
      docRoot,
      `<${docRoot.name}>`,
      'a top-level element with no child elements',
      `at least one element to include in place of ${printable(r.span(inc).file)}:${inc.line}:${inc.column} (MuJoCo: "Empty include file")`,
    );
  refuseTooDeep(r, docRoot, depth);
  return { path: real, docRoot };
}

/** The elements of an included document, now at nesting `depth`, may go no deeper than one file
 *  may (MAX_XML_DEPTH): MuJoCo's parser bounds each file, and the readers walk the assembled tree. */
function refuseTooDeep(r: Reader, docRoot: XmlElement, depth: number): void {
  const stack: [XmlElement, number][] = docRoot.children.map((c) => [c, depth]);
  while (stack.length > 0) {
    const [el, d] = stack.pop()!;
    if (d >= MAX_XML_DEPTH && el.children.length > 0)
      r.fail(
        el,
        `<${el.name}>`,
        `elements nested ${d} levels deep once included`,
        `at most ${MAX_XML_DEPTH - 1} levels of elements with content in the assembled model`,
      );
    for (const c of el.children) stack.push([c, d + 1]);
  }
}
