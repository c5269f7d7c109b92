// An XML model file's text, read as a scene is (a regular file, bounded, UTF-8), for the model
// itself (index.ts) and for each file an MJCF <include> brings in (mjcf/include.ts).

import { closeSync, openSync, readSync } from 'node:fs';
import { SceneError } from '../common/errors.js';
import { readBoundedText } from '../common/text-file.js';
import { cutAtNul, findXmlRoot } from './xml.js';

/** The file's text, bounded and checked as scenes are (regular file, size, UTF-8). */
export function readXmlText(path: string): string {
  const got = readBoundedText(path);
  if ('text' in got) {
    return got.text; // not XML at all: the XML parser says where
  }
  const p = got.problem;
  // readBoundedText names XML as "not a scene": here XML is what we want.
  if (/MJCF|URDF|XML/.test(p.found)) {
    return readRaw(path);
  }
  // A NUL byte ends the document for MuJoCo (tinyxml2 reads a C string): XML before it is read.
  if (p.found.startsWith('binary data (a NUL byte')) {
    const text = cutAtNul(readRaw(path));
    if (findXmlRoot(text)) return text;
  }
  throw new SceneError({
    file: path,
    line: p.at?.line ?? 1,
    column: p.at?.column ?? 1,
    subject: 'model file',
    found: p.found,
    expected: p.expected.replace('YAML', 'XML').replace('an Achilles scene (YAML .arow)', 'an MJCF or URDF file'),
    ...(p.hint ? { hint: p.hint } : {}),
  });
}

function readRaw(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    const buf = Buffer.alloc(1 << 20);
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null))
      chunks.push(Buffer.from(buf.subarray(0, n)));
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } finally {
    closeSync(fd);
  }
}
