// An MJCF model that replicates into more than MODEL_LIMITS.bodies bodies is refused before any
// copy is made, at the <replicate> that makes the most of them, with the estimate of what reading it
// costs; --yes (allowLarge) reads it (src/model-files/import/mjcf/model-size.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importFile } from '../src/model-files/import/index.js';
import { MODEL_LIMITS, readingCost, replicatedSize } from '../src/model-files/import/mjcf/model-size.js';
import { parseXml } from '../src/model-files/import/xml.js';
import { cli, tempDir } from './helpers/cli.js';

const scene = (body: string): string => `<mujoco>\n  <worldbody>\n    ${body}\n  </worldbody>\n</mujoco>\n`;
/** A free body with a hinged child: two bodies per copy. */
const PAIR = '<body><freejoint/><geom size="0.1"/><body pos="0 0 1"><joint/><geom size="0.1"/></body></body>';
const sizeOf = (xml: string) => replicatedSize(parseXml('m.xml', xml));

describe('the bodies a model makes', () => {
  test('each body times the counts of the replicates around it; frames are transparent', () => {
    expect(sizeOf(scene(PAIR)).bodies).toBe(2);
    expect(sizeOf(scene(`<replicate count="7">${PAIR}</replicate>`)).bodies).toBe(14);
    const nested = sizeOf(
      scene(`<body>${PAIR}<frame><replicate count="3"><replicate count="5">${PAIR}</replicate></replicate></frame></body>`),
    );
    expect(nested.bodies).toBe(1 + 2 + 3 * 5 * 2);
    expect(nested.largest?.bodies).toBe(30);
    // the replicate that makes the most is the one named
    const two = sizeOf(scene(`<replicate count="2">${PAIR}</replicate><replicate count="9">${PAIR}</replicate>`));
    expect(two.largest?.replicate.attrs.get('count')?.value).toBe('9');
  });

  test('the cost is said in the unit that reads best', () => {
    expect(readingCost(100_000)).toBe('about 35 s and 3.6 GB to read');
    expect(readingCost(20_000)).toBe('about 7 s and 720 MB to read');
    expect(readingCost(20_000_600)).toBe('about 1.9 h and 720 GB to read');
  });
});

describe('a model past the limit', () => {
  const dir = tempDir('achilles-model-size-');
  const copies = Math.floor(MODEL_LIMITS.bodies / 2) + 1; // one pair past the limit
  const big = join(dir, 'big.xml');
  writeFileSync(big, scene(`<replicate count="${copies}" offset="1 0 0">\n      ${PAIR}\n    </replicate>`));

  test('is refused at its replicate count, before any copy is made, with the estimate', () => {
    const t0 = performance.now();
    expect(() => importFile(big)).toThrow(
      new RegExp(
        `big\\.xml:3:16: <replicate> count: found "${copies}", which makes 10,002 bodies: a model of 10,002 bodies in all \\(about 3\\.5 s and 360 MB to read\\), expected a model of at most 10,000 bodies, or --yes`,
      ),
    );
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  test('a replicate in an included file is placed in that file', () => {
    const sub = join(dir, 'parts');
    mkdirSync(sub, { recursive: true });
    writeFileSync(
      join(sub, 'many.xml'),
      `<mujoco>\n  <worldbody>\n    <replicate count="20000">${PAIR}</replicate>\n  </worldbody>\n</mujoco>\n`,
    );
    const top = join(dir, 'top.xml');
    writeFileSync(top, '<mujoco>\n  <include file="parts/many.xml"/>\n</mujoco>\n');
    expect(() => importFile(top)).toThrow(/many\.xml:3:16: <replicate> count: found "20000", which makes 40,000 bodies/);
  });

  test('the CLI commands that read models refuse it and say --yes; with --yes it is read', { timeout: 60_000 }, async () => {
    for (const command of ['compile', 'import', 'run', 'export'] as const) {
      const r = await cli(command, big, ...(command === 'export' ? ['--mjcf', '--out', join(dir, 'x.xml')] : []));
      expect(r.code, command).toBe(1);
      expect(r.stderr, command).toMatch(/<replicate> count: .* or --yes to read it anyway/);
    }
    const out = join(dir, 'big.json');
    const ok = await cli('compile', big, '--yes', '--out', out);
    expect(ok.stderr).toContain(`wrote ${out} (${2 * copies} links)`);
    expect(ok.code).toBe(0);
  });
});
