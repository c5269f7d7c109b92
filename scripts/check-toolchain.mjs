#!/usr/bin/env node
// Run by scripts/install.mjs before a source build (never when the prebuilt engine loads): make
// sure the native core can be built before spending minutes getting there. A miss fails fast,
// naming what is missing and the one command that installs it, instead of a cmake error three
// screens deep. Skip with ACHILLES_SKIP_TOOLCHAIN_CHECK=1.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const INSTALL = 'sudo apt-get install -y cmake g++ libxsimd-dev';
const MIN_CMAKE = [3, 20];
const MIN_GXX = 11; // first g++ with the C++20 pieces the core uses
const MIN_CLANG = 14;

if (process.env.ACHILLES_SKIP_TOOLCHAIN_CHECK === '1') process.exit(0);

/** stdout of `cmd args`, or null when it cannot be run. */
function output(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 10_000 });
  return r.error || r.status !== 0 ? null : `${r.stdout}${r.stderr}`;
}

/** [major, minor] of the first x.y[.z] in text. */
function version(text) {
  const m = /(\d+)\.(\d+)(?:\.\d+)?/.exec(text ?? '');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

const atLeast = (v, min) => v[0] > min[0] || (v[0] === min[0] && v[1] >= min[1]);

function checkCmake() {
  const text = output('cmake', ['--version']);
  if (text === null) return { package: 'cmake', why: 'cmake is not installed' };
  const v = version(text);
  if (!v || !atLeast(v, MIN_CMAKE))
    return { package: 'cmake', why: `cmake ${v ? v.join('.') : '?'} is too old (need >= ${MIN_CMAKE.join('.')})` };
  return null;
}

function checkCompiler() {
  // cmake-js builds with $CXX if set, else the system's c++: check what will really be used.
  const candidates = process.env.CXX ? [process.env.CXX] : ['g++', 'clang++'];
  const found = [];
  for (const cxx of candidates) {
    const text = output(cxx, ['--version']);
    if (text === null) continue;
    const isClang = /clang/i.test(text);
    const v = version(isClang ? /clang version ([\d.]+)/i.exec(text)?.[1] : (output(cxx, ['-dumpfullversion']) ?? text));
    const min = isClang ? MIN_CLANG : MIN_GXX;
    if (v && v[0] >= min) return null;
    found.push(`${cxx} ${v ? v.join('.') : '?'} (need ${isClang ? 'clang++' : 'g++'} >= ${min})`);
  }
  return {
    package: 'g++',
    why: found.length ? `no C++20 compiler: found ${found.join(', ')}` : `no C++ compiler (${candidates.join(' or ')}) is installed`,
  };
}

function checkXsimd() {
  const dirs = [
    process.env.XSIMD_INCLUDE_DIR,
    ...(process.env.CPATH ?? '').split(delimiter),
    ...(process.env.CPLUS_INCLUDE_PATH ?? '').split(delimiter),
    '/usr/include',
    '/usr/local/include',
  ];
  if (dirs.some((d) => d && existsSync(join(d, 'xsimd', 'xsimd.hpp')))) return null;
  return {
    package: 'libxsimd-dev',
    why: 'the xsimd headers (xsimd/xsimd.hpp) are not in /usr/include, /usr/local/include, $CPATH or $XSIMD_INCLUDE_DIR',
  };
}

const misses = [checkCmake(), checkCompiler(), checkXsimd()].filter(Boolean);
if (misses.length) {
  process.stderr.write(
    'achilles: cannot build the native engine:\n' +
      misses.map((m) => `  - ${m.why}\n`).join('') +
      `Install what is missing (Debian/Ubuntu) with:\n  ${INSTALL}\n` +
      'then run npm install again. (ACHILLES_SKIP_TOOLCHAIN_CHECK=1 skips this check.)\n',
  );
  process.exit(1);
}
