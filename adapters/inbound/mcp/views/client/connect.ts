import { facts, h, replace } from './dom.js';
import { startView, textOf } from './shell.js';

// The connection view: for a vendor-backed tool with no view of its own. NOT_CONNECTED (and an approval
// ask) is the shell's card; any other answer is a short summary for the person: "Done", how many items
// each list holds, and a few of the answer's plain values (one level deep). The model reads the full text.

const MAX_FACTS = 8;
const MAX_VALUE = 200;

const plain = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

const summary = (data: Record<string, unknown>): { counts: string[]; pairs: [string, string][] } => {
  const counts: string[] = [];
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value)) counts.push(`${value.length} ${key}`);
    else if (plain(value)) pairs.push([key, String(value).slice(0, MAX_VALUE)]);
    else if (typeof value === 'object' && value !== null)
      for (const [inner, v] of Object.entries(value)) if (plain(v)) pairs.push([inner, String(v).slice(0, MAX_VALUE)]);
  }
  return { counts, pairs: pairs.slice(0, MAX_FACTS) };
};

startView('connect', (answer, ctx) => {
  const { counts, pairs } = summary(answer.structuredContent ?? {});
  const firstLine = textOf(answer)
    .split('\n')
    .find((line) => line.trim());
  replace(
    ctx.root,
    h(
      'section',
      { 'aria-labelledby': 'result-title' },
      h('h1', { id: 'result-title' }, 'Done'),
      counts.length > 0 && h('p', {}, counts.join(', ')),
      pairs.length > 0 ? facts(pairs) : !!firstLine && h('p', {}, firstLine.slice(0, 300)),
    ),
  );
});
