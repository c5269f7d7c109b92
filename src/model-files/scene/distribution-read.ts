// A distribution as a sweep or a scene writes it: { uniform: [low, high] }, { normal: [mean, std] } or
// { log_uniform: [low, high] }, read at its position (errors FILE:LINE:COL).

import { isMap, isSeq } from 'yaml';
import { describe, entries, readEnum, readNumber, type Ctx, type YNode } from './yaml-read.js';
import { DISTRIBUTIONS, type Distribution } from '../../params/draws.js';
import { NORMAL_REACH } from '../../params/extremes.js';

export function readDistribution(ctx: Ctx, node: YNode, subject: string): Distribution {
  const expected = `one of { uniform: [low, high] }, { normal: [mean, std] }, { log_uniform: [low, high] }`;
  if (!isMap(node) || node.items.length !== 1) ctx.fail(node, subject, describe(node), expected);
  const m = entries(ctx, node, subject);
  const [e] = m.values();
  const kind = readEnum(ctx, e.keyNode, subject, DISTRIBUTIONS);
  const sub = `${subject}.${kind}`;
  if (!isSeq(e.value) || e.value.items.length !== 2)
    ctx.fail(e.value, sub, describe(e.value), kind === 'normal' ? 'a list [mean, std]' : 'a list [low, high]');
  const [n0, n1] = e.value.items as YNode[];
  const a = readNumber(ctx, n0, `${sub}[0]`);
  const b = readNumber(ctx, n1, `${sub}[1]`);
  if (kind === 'normal') {
    if (!(b > 0)) ctx.fail(n1, `${sub} std`, `${b}`, 'a standard deviation > 0');
    // the farthest draws, mean ± NORMAL_REACH·std, must be numbers (a std near 1e308 draws infinities)
    if (!Number.isFinite(a - NORMAL_REACH * b) || !Number.isFinite(a + NORMAL_REACH * b))
      ctx.fail(
        n1,
        `${sub} std`,
        `${b}`,
        `a standard deviation whose draws stay finite (a draw lies within mean ± ${NORMAL_REACH.toFixed(2)}·std)`,
      );
    return { kind, mean: a, std: b };
  }
  if (kind === 'log_uniform' && !(a > 0)) ctx.fail(n0, `${sub} low`, `${a}`, 'a number > 0 (a log-uniform range lies above 0)');
  if (!(b > a)) ctx.fail(n1, `${sub} high`, `${b}`, `a number > low (${a})`);
  // A range whose width overflows (e.g. [-1e308, 1e308]) would draw infinities.
  if (!Number.isFinite(b - a)) ctx.fail(n1, `${sub} high`, `${b}`, 'a range narrower than 1.7e308');
  return { kind, low: a, high: b };
}
