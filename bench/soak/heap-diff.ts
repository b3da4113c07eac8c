// What grew between two heap snapshots (V8 .heapsnapshot files, e.g. from SOAK_SNAPSHOTS): the self size and
// count of objects per constructor or kind, the 25 largest growths first.
//
//   npx tsx bench/soak/heap-diff.ts before.heapsnapshot after.heapsnapshot
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

const tally = (file: string) => {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const types = s.snapshot.meta.node_types[0];
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]!]!;
    const name = type === 'object' || type === 'closure' ? s.strings[s.nodes[i + nameAt]!]! : `(${type})`;
    const key = `${type === 'closure' ? 'closure ' : ''}${name}`.slice(0, 80);
    const t = out.get(key) ?? { count: 0, bytes: 0 };
    t.count++;
    t.bytes += s.nodes[i + sizeAt]!;
    out.set(key, t);
  }
  return out;
};

const [a, b] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: heap-diff.ts before.heapsnapshot after.heapsnapshot');
const before = tally(a);
const after = tally(b);
const rows = [...after].map(([k, v]) => {
  const was = before.get(k) ?? { count: 0, bytes: 0 };
  return { k, count: v.count - was.count, bytes: v.bytes - was.bytes, total: v.bytes };
});
rows.sort((x, y) => y.bytes - x.bytes);
for (const r of rows.slice(0, 25))
  console.log(
    `${(r.bytes / 2 ** 20).toFixed(2).padStart(8)} MB ${String(r.count).padStart(9)} objects  ${r.k}  (now ${(r.total / 2 ** 20).toFixed(1)} MB)`,
  );
