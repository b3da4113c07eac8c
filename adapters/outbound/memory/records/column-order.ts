// Sorting rows by a column in sortRecords' order (domain/records/filters.ts), keeping only the rows a page needs.
import type { Column } from './column.js';

/** sortRecords' order: rows without a value last either way, ties in row (record_id) order. */
export const comparator = (col: Column, desc: boolean): ((a: number, b: number) => number) => {
  if (col.kind === 'number' || col.kind === 'date') {
    const { num, present, sortKey } = col;
    return (a, b) => {
      const pa = present[a] === 1;
      const pb = present[b] === 1;
      if (!pa || !pb) return !pa ? (!pb ? a - b : 1) : -1;
      let ka: number | string = num[a]!;
      let kb: number | string = num[b]!;
      if (ka !== ka || kb !== kb) {
        ka = ka !== ka ? (sortKey[a] ?? ka) : ka;
        kb = kb !== kb ? (sortKey[b] ?? kb) : kb;
      }
      const c = ka < kb ? -1 : ka > kb ? 1 : 0;
      return c === 0 ? a - b : desc ? -c : c;
    };
  }
  const keys = col.sortKey;
  return (a, b) => {
    const ka = keys[a];
    const kb = keys[b];
    if (ka === undefined || kb === undefined) return ka === undefined ? (kb === undefined ? a - b : 1) : -1;
    const c = ka < kb ? -1 : ka > kb ? 1 : 0;
    return c === 0 ? a - b : desc ? -c : c;
  };
};

/** The k smallest rows by cmp, sorted (a max-heap of size k). */
export const topK = (rows: readonly number[], k: number, cmp: (a: number, b: number) => number): number[] => {
  const heap: number[] = [];
  const down = (i: number) => {
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < n && cmp(heap[l]!, heap[top]!) > 0) top = l;
      if (r < n && cmp(heap[r]!, heap[top]!) > 0) top = r;
      if (top === i) return;
      const t = heap[i]!;
      heap[i] = heap[top]!;
      heap[top] = t;
      i = top;
    }
  };
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (heap.length < k) {
      heap.push(row);
      let j = heap.length - 1;
      while (j > 0) {
        const p = (j - 1) >> 1;
        if (cmp(heap[j]!, heap[p]!) <= 0) break;
        const t = heap[j]!;
        heap[j] = heap[p]!;
        heap[p] = t;
        j = p;
      }
    } else if (cmp(row, heap[0]!) < 0) {
      heap[0] = row;
      down(0);
    }
  }
  return heap.sort(cmp);
};
