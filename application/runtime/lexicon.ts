import { onFirstUse } from '../../domain/shared/first-use.js';
import { capitalised, knownWord, stem } from './search-words.js';

// A general English lexicon for tool search (issue 41, sixth round): which of the catalogue's actions a verb
// the hand-made word list never saw means ("chuck", "whip up", "dump"), derived from WordNet by
// scripts/build-lexicon.ts into lexicon-data.ts. Nothing of it loads when the server starts: the first find
// loads it (a chunk of its own in the bundled server) and keeps it, about 2,500 entries.

/** A stemmed verb or phrasal verb ("whip up") -> the catalogue's words for what it means. */
export type Lexicon = ReadonlyMap<string, readonly string[]>;

/** The lexicon, read once per process on first use (a failed read is tried again on the next). */
export const loadLexicon: () => Promise<Lexicon> = onFirstUse(() =>
  import('./lexicon-data.js').then(({ LEXICON }) => parseLexicon(LEXICON)),
);

/** The generated table (`meaning=verb,verb,...` lines) as a map. */
export const parseLexicon = (text: string): Lexicon => {
  const lexicon = new Map<string, readonly string[]>();
  for (const line of text.split('\n')) {
    const [means = '', keys = ''] = line.split('=');
    // the meanings stemmed as the tools' words are
    const terms = means.split(' ').map(stem);
    for (const key of keys.split(',')) if (key) lexicon.set(key, terms);
  }
  return lexicon;
};

/** Words after which a word is a noun, not a verb. */
const NOUN_BEFORE: ReadonlySet<string> = new Set(
  (
    'a an the this that these those my our your their his her its of some any every each all no another ' +
    'in into on onto under over at from with by for about'
  ).split(' '),
);

/** How many words after a verb an "into" is read as its destination's. */
const INTO_WITHIN = 8;

/** The longest phrasal verb the lexicon knows at a word: three words, then two. */
const PHRASE_WORDS = [3, 2] as const;

/**
 * Words after which the next word may be a verb (issue 41, seventh round): a subject, a modal, "to", a
 * conjunction, a polite opener. Elsewhere a word the lexicon knows as a verb is most often a noun or part of a
 * name ("the leaking sink", "a deck rebuild", "cold call leads", "the shared drive", "one fell swoop").
 */
const VERB_AFTER: ReadonlySet<string> = new Set(
  (
    'i we you they he she im ill youll well weve ive can could would will should must may might shall to ' +
    'and then or but so please pls kindly just also gotta go lets now ok okay hey quickly'
  ).split(' '),
);

interface Token {
  readonly word: string;
  /** Where a verb can stand: a clause's first word, or after a word of VERB_AFTER. */
  readonly verbSlot: boolean;
}

/**
 * A text's words, each with whether it stands where a verb can. A word of a name as written (capitalised
 * inside a sentence: "Harbor Lending", "Franklin Square"), or of a token joined by punctuation (a file's name
 * "punch-list.txt", "do-not-call", a web address) is never in a verb's place.
 */
const tokensOf = (text: string, original: string): Token[] => {
  const named = capitalised(original);
  const tokens: Token[] = [];
  let clauseStart = true;
  for (const raw of text.toLowerCase().replace(/['’]/g, '').split(/\s+/)) {
    const parts = raw.split(/[^a-z]+/).filter(Boolean);
    const joined = parts.length > 1 || /[a-z][-./_@:][a-z0-9]/.test(raw);
    parts.forEach((word, k) => {
      const previous = tokens.at(-1)?.word ?? '';
      const slot = k === 0 && !joined && !named.has(word) && (clauseStart || VERB_AFTER.has(previous));
      tokens.push({ word, verbSlot: slot });
    });
    if (parts.length) clauseStart = /[,;:.!?)]$/.test(raw);
  }
  return tokens;
};

/**
 * What the verbs of a text mean by the lexicon, by their stems as the query's words have them: a phrasal verb
 * ("whip up a folder") speaks for its first word before that word alone does. It does not speak for words
 * the word lists know (search-words.ts), nor for those `known` says mean something already (the catalogue's),
 * nor for a word where no verb stands (see tokensOf; `original`: the text as written, for its capitals).
 */
export const lexicalMeanings = (
  text: string,
  lexicon: Lexicon | undefined,
  known: (word: string) => boolean,
  original: string = text,
): Map<string, readonly string[]> => {
  const found = new Map<string, readonly string[]>();
  if (!lexicon?.size) return found;
  const slots = tokensOf(text, original);
  const tokens = slots.map((t) => t.word);
  tokens.forEach((token, k) => {
    const first = stem(token);
    // a word after a determiner or a preposition is a noun ("under the sink"); a verb in -ed describes
    // ("a folder called Q3"), as it does for the word lists (asksToRead)
    if (found.has(first) || known(first) || knownWord(first) || knownWord(token)) return;
    if (NOUN_BEFORE.has(tokens[k - 1] ?? '') || !slots[k]!.verbSlot) return;
    if (token.endsWith('ed')) return;
    // "dump the rows into the app": the verb's sense of moving things
    const into = tokens.slice(k + 1, k + INTO_WITHIN + 1).some((t) => t === 'into' || t === 'onto');
    const moving = into ? lexicon.get(`${first} into`) : undefined;
    if (moving) return void found.set(first, moving);
    for (const n of PHRASE_WORDS) {
      const means = lexicon.get([first, ...tokens.slice(k + 1, k + n)].join(' '));
      if (means && k + n <= tokens.length) return void found.set(first, means);
    }
    const means = lexicon.get(first);
    if (means) found.set(first, means);
  });
  return found;
};
