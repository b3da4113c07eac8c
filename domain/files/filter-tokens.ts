import { E, type Either } from '../shared/fp.js';

// The tokenizer of the OData filter subset (see query.ts): one pass, no backtracking, no copies.

export type Token = { kind: 'word' | 'string' | 'number' | 'lparen' | 'rparen' | 'comma'; text: string };

// Sticky, so each token is matched where it starts without copying the rest of the source.
const NUMBER_TOKEN = /(-?\d+(?:\.\d+)?(?![\w:-]))/y;
const WORD_TOKEN = /[A-Za-z0-9_.:+-]+/y;

export const tokenize = (src: string): Either<string, Token[]> => {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(') {
      tokens.push({ kind: 'lparen', text: c });
      i++;
      continue;
    }
    if (c === ')') {
      tokens.push({ kind: 'rparen', text: c });
      i++;
      continue;
    }
    if (c === ',') {
      tokens.push({ kind: 'comma', text: c });
      i++;
      continue;
    }
    if (c === "'") {
      let out = '';
      i++;
      for (;;) {
        if (i >= src.length) return E.left('a quoted string is not closed');
        if (src[i] === "'") {
          if (src[i + 1] === "'") {
            out += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        out += src[i];
        i++;
      }
      tokens.push({ kind: 'string', text: out });
      continue;
    }
    NUMBER_TOKEN.lastIndex = i;
    const m = NUMBER_TOKEN.exec(src);
    if (m) {
      tokens.push({ kind: 'number', text: m[1]! });
      i += m[1]!.length;
      continue;
    }
    WORD_TOKEN.lastIndex = i;
    const w = WORD_TOKEN.exec(src);
    if (w) {
      tokens.push({ kind: 'word', text: w[0] });
      i += w[0].length;
      continue;
    }
    return E.left(`unexpected character "${c}"`);
  }
  return E.right(tokens);
};
