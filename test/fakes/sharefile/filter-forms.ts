import { tokenize } from '../../../domain/files/filter-tokens.js';
import { E } from '../../../domain/shared/fp.js';

// What the stand-in accepts as a $filter written the way ShareFile-NET's query builder writes one
// (src/ShareFile.Api.Client/Requests/Filters): `Prop eq|ne|gt|lt value`, `startswith(Prop, 'v') eq true|false`
// (endswith, substringof('v', Prop) likewise), isof('…'), `and`/`or` with no grouping parentheses, dates
// unquoted in .NET's "u" format. Anything else is recorded as a departure: no document or SDK builder shows
// ShareFile reading it.

const FUNCTIONS = new Set(['startswith', 'endswith', 'substringof']);
const CALLS = new Set([...FUNCTIONS, 'isof', 'date', 'time']);

export const filterFormProblems = (filter: string): string[] => {
  const tokens = tokenize(filter);
  if (E.isLeft(tokens)) return [`$filter does not tokenize: ${tokens.left}`];
  const problems = new Set<string>();
  const t = tokens.right;
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    const word = tok.kind === 'word' ? tok.text.toLowerCase() : '';
    if (['ge', 'le', 'not', 'datetime'].includes(word))
      problems.add(`$filter uses "${word}", which no ShareFile-NET filter class writes`);
    if (tok.kind === 'lparen') {
      const before = t[i - 1];
      if (!(before?.kind === 'word' && CALLS.has(before.text.toLowerCase())))
        problems.add('$filter groups with parentheses; ShareFile-NET writes and/or without them');
      depth++;
    }
    if (tok.kind === 'rparen') {
      depth--;
      const opener = findOpener(t, i);
      const fn = opener > 0 ? t[opener - 1]!.text.toLowerCase() : '';
      if (FUNCTIONS.has(fn)) {
        const [eq, bool] = [t[i + 1], t[i + 2]];
        if (!(eq?.text.toLowerCase() === 'eq' && ['true', 'false'].includes(bool?.text.toLowerCase() ?? '')))
          problems.add(`$filter uses ${fn}(…) without "eq true" or "eq false", unlike ShareFile-NET`);
      }
    }
  }
  if (depth !== 0) problems.add('$filter has unbalanced parentheses');
  return [...problems];
};

const findOpener = (t: readonly { kind: string }[], close: number): number => {
  let level = 0;
  for (let j = close; j >= 0; j--) {
    if (t[j]!.kind === 'rparen') level++;
    if (t[j]!.kind === 'lparen' && --level === 0) return j;
  }
  return -1;
};
