// Stable topological order of a parent forest: every parent before its children, and among the
// bodies that are ready, the one declared first goes first (so a file already in order is unchanged).

export interface TopoResult {
  order: number[];
  /** Indices that could not be placed (they sit on or below a parent cycle). */
  stuck: number[];
}

/** parents[i] = index of i's parent, or -1 for a root. */
export function stableTopoOrder(parents: readonly number[]): TopoResult {
  const n = parents.length;
  const children: number[][] = Array.from({ length: n }, () => []);
  const ready = new MinHeap();
  for (let i = 0; i < n; i++) {
    if (parents[i] < 0) ready.push(i);
    else children[parents[i]].push(i);
  }
  const order: number[] = [];
  const placed = new Uint8Array(n);
  while (ready.size > 0) {
    const i = ready.pop();
    order.push(i);
    placed[i] = 1;
    for (const c of children[i]) ready.push(c);
  }
  const stuck: number[] = [];
  for (let i = 0; i < n; i++) if (!placed[i]) stuck.push(i);
  return { order, stuck };
}

/** The parent cycle that index `start` is on or below, as indices in parent order. */
export function findCycle(parents: readonly number[], start: number): number[] {
  const seen = new Map<number, number>();
  const path: number[] = [];
  let i = start;
  while (i >= 0 && !seen.has(i)) {
    seen.set(i, path.length);
    path.push(i);
    i = parents[i];
  }
  return i < 0 ? [] : path.slice(seen.get(i));
}

class MinHeap {
  private a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  push(x: number): void {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= a[i]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): number {
    const a = this.a;
    const top = a[0];
    const last = a.pop() as number;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l] < a[m]) m = l;
        if (r < a.length && a[r] < a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
