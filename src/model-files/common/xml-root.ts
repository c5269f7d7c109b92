// The one XML-root detector: which element a file's XML opens with, and where, read cheaply from
// its start (no full parse). The scene reader (files/text-file.ts), the import format sniffer
// (import/index.ts) and `achilles import` all ask it, so a file one of them calls MJCF is MJCF to
// all of them. No dependencies: the scene reader imports it.

export interface XmlRoot {
  /** The root element's name as written (cut to 40 characters). */
  name: string;
  /** 1-based position of its `<`. */
  line: number;
  column: number;
}

/** What may stand before the root: blanks, `<?xml ...?>` and other processing instructions,
 *  comments, and a DOCTYPE, whose internal subset `[...]` may itself hold `>` (tinyxml2, and so
 *  MuJoCo, reads such a file; it must not be taken for "not XML"). */
const PROLOG_ITEM = /^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^>[]|\[(?:[^\]"']|"[^"]*"|'[^']*')*\])*>)/i;

/** The root element of `text` when it is XML (after a BOM and the prolog), else undefined; a
 *  file that is XML but whose root cannot be read (cut off in the prolog) gives name ''. */
export function findXmlRoot(withBom: string): XmlRoot | undefined {
  const text = withBom.charCodeAt(0) === 0xfeff ? withBom.slice(1) : withBom;
  let i = 0;
  const lead = /^\s*/.exec(text.slice(0, 4096))![0].length;
  if (text[lead] !== '<') return undefined;
  for (;;) {
    const m = PROLOG_ITEM.exec(text.slice(i, i + 65536));
    if (!m) break;
    i += m[0].length;
  }
  const m = /^<([A-Za-z_][\w:.-]*)/.exec(text.slice(i, i + 200));
  const { line, column } = position(text, i);
  return { name: m ? m[1].slice(0, 40) : '', line, column };
}

/** The root element's name when `text` looks like XML, else undefined. */
export function xmlRootName(text: string): string | undefined {
  return findXmlRoot(text)?.name;
}

/** Why an XML file whose root is neither <mujoco> nor <robot> is not a model Achilles reads. */
export function otherRootProblem(root: XmlRoot): { found: string; expected: string } {
  const expected = 'an MJCF <mujoco> or URDF <robot> root';
  if (root.name === 'sdf') return { found: '<sdf> is SDF, which achilles does not read', expected };
  if (root.name === '') return { found: 'XML whose root element cannot be read', expected };
  return { found: `<${root.name}>, an XML root that is neither MJCF nor URDF`, expected };
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    start = k + 1;
  }
  return { line, column: offset - start + 1 };
}
