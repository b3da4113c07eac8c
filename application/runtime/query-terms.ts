import { GROUPS, type Group } from './define-tool.js';
import { MAX_QUERY_CHARS } from './discovery.js';
import { toolError, type ToolError } from './tool-error.js';
import {
  asksToRead,
  capitalised,
  CHANGE_WORDS,
  DOMAIN,
  isPlural,
  knownWord,
  leadingVerb,
  PHRASES,
  QUESTION_OPENERS,
  stem,
  SYNONYMS,
  words,
  type Synonyms,
} from './search-words.js';
import { lexicalMeanings, type Lexicon } from './lexicon.js';
import { KIND_NOUNS, matchNames, objectOfVerb, wordsApart, type CompiledNames } from './name-terms.js';

// A tool search query's terms (issue 30, issue 41): the words of a task, what the word lists, the general
// lexicon and the tenant's names say they mean, and what its form says (a question, the verb of a command and
// what it acts on, an id quoted). Ranked by ToolIndex (tool-search.ts).

/** Most distinct words of a query searched for (the rest are ignored). */
export const MAX_QUERY_TERMS = 24;

/** How much a related word counts (see ToolIndex.weigh). */
export const RELATED_WEIGHT = 0.5;
/** A clause that says why ("…, so only members can find it"), to the end of the clause: its words count less. */
const ASIDE = /(?<!\bor )\bso (?:that )?([^.;!?]*)/g;
/**
 * What a text is to say ("a note saying call back Monday"), to the end of the clause: no words of the request
 * (not what people have been saying).
 */
const CONTENT =
  /(?<!\b(?:been|are|is|was|were|be|keep|kept|they|people) )\b(saying|that says|which says|that reads|with the text)\b[^.;!?]*/g;
/** A file's name as written in a task: a word, a dot and a common extension. */
const FILE_NAME = /\b[\w-]+\.(?:txt|md|csv|pdf|docx?|xlsx?|pptx?|rtf|odt|png|jpe?g|gif|heic|mp4|mov|zip|json|xml)\b/i;
/**
 * What a command's verb that nothing knows does, by the preposition after its object (issue 41, eighth round):
 * a thing put "on" another, or a thing brought "to" a state, changes it ("slap a description on the folder",
 * "bump these orders to high priority"), unless what is put on it is a thing of its own ("a note": a comment);
 * a thing put "into" a place adds it there, into the trash throws it away; one taken "off" or "out" of a place
 * removes it.
 */
const BY_PREPOSITION: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:on|onto|to)$/, stem('update')],
  [/^into$/, stem('create')],
  [/^(?:off|out)$/, stem('delete')],
];
/** A place named by what is kept in it: "in our documents", "across all my files". */
const PLACE = /\b(?:in|among|across|through|from) (?:all (?:of )?)?(?:our|my|the team's|the company's) (\w+)/g;
/** A name written with capitals in the possessive ("Maria Gonzalez's"). */
const POSSESSIVE = /\b([A-Z][a-z]+(?: [A-Z][a-z]+)*)['’]s\b/g;
/** Where things thrown away go. */
const BIN = /^(?:(?:the|a|my|our) )?(?:trash|bin|garbage|rubbish|recycle|recycling|wastebasket)\b/;
/** How the object of a verb starts: a determiner, a quantity, a pronoun. */
const OBJECT_STARTS =
  /^(?:a|an|the|this|that|these|those|my|our|your|his|her|their|its|all|every|each|some|any|it|them|him|\d[\d,]*)$/;
/** The catalogue's words for people, which a command on a person's name is about. */
const PEOPLE = ['member', 'membership', 'contact'];
/** The kinds of things a task quotes by id, and the parameters that take their ids. */
export const ID_PARAMETERS: ReadonlyMap<string, RegExp> = new Map(
  (
    [
      ['record', /^record_ids?$/],
      ['contact', /^contact_id$/],
      ['comment', /^comment_id$/],
      ['share', /^share_id$/],
      ['item', /^item_ids?$/],
      ['file', /^item_ids?$/],
      ['folder', /^(item|folder)_id$/],
      ['space', /^space_id$/],
      ['batch', /^batch_id$/],
      ['revision', /^revision_(from|to)$/],
      ['app', /^app_id$/],
    ] as const
  ).map(([noun, parameter]) => [stem(noun), parameter]),
);
/**
 * A query's words, each with the catalogue's words for it (SYNONYM_TABLE), and the catalogue words the
 * tenant's names in it stand for (`via`: the one word such a term came from, see name-terms.ts). `question`:
 * it asks to read (no word of change, or put as a question), so Read tools rank first.
 */
export type Query = ReadonlyArray<
  {
    readonly word: string;
    readonly via?: string | undefined;
    readonly lexical?: readonly string[];
    /** A term the query's form implies, at this weight. */
    readonly implied?: number;
    /** Whether it is only in a clause of purpose (see ASIDE_WEIGHT). */
    readonly aside?: boolean;
  } & Synonyms
> & {
  readonly question?: boolean;
  /** Whether it names one thing (a word with a digit, an e-mail address). */
  readonly givesId?: boolean;
  /** The groups of the tenant's and vendors' names it says (tools of other groups rank lower). */
  readonly groups?: ReadonlySet<Group>;
  /** The kinds of things it quotes an id of (ID_PARAMETERS' keys): "contact 310", "deal 3". */
  readonly idOf?: readonly string[];
  /** The verb a command starts with, and the catalogue's words for it ("trash": delete). */
  readonly verb?: readonly string[];
  /** Its related words (see ToolIndex.onlyVerbAmong). */
  readonly verbRelated?: readonly string[];
  /** What the thing named after that verb is, in the catalogue's words, and whether it is many (objectOfVerb). */
  readonly object?: readonly string[];
  readonly many?: boolean;
};

const NO_SYNONYMS: Synonyms = { same: [], related: [] };

/**
 * A query's words: at most MAX_QUERY_TERMS distinct ones (the rest are ignored). A query over
 * MAX_QUERY_CHARS is refused before it is read.
 */
export const queryTerms = (
  query: string,
  names: CompiledNames = [],
  lexicon?: Lexicon,
  knows: (word: string) => boolean = () => false,
): Query | ToolError => {
  if (query.length > MAX_QUERY_CHARS) {
    return toolError(
      400,
      'INVALID_PARAMETER',
      `"query" is ${query.length} characters; it may have at most ${MAX_QUERY_CHARS}. Describe the task in a sentence.`,
      { parameter: 'query', expected: `a string of at most ${MAX_QUERY_CHARS} characters` },
    );
  }
  // an address in a task says what kind of thing it is about (a web page, an e-mail), not what its parts spell
  const plain = query
    .toLowerCase()
    .split(/\s+/)
    .map((t) => (/^https?:\/\//.test(t) ? 'web page url' : t.includes('@') || DOMAIN.test(t) ? 'email' : t))
    .join(' ');
  const phrased = PHRASES.reduce((text, [phrase, word]) => text.replace(phrase, word), plain).replace(CONTENT, '$1');
  // the lexicon speaks only for verbs the catalogue and the word lists do not know ("chuck", "whip up")
  const lexical = lexicalMeanings(phrased, lexicon, knows, query);
  // a stop word that stands for catalogue words ("show": list, get) is kept for its synonyms
  const list = words(phrased, (w) => SYNONYMS.has(stem(w)));
  const {
    rest,
    terms: named,
    groups,
    named: oneWord,
    meaning,
  } = matchNames(
    list,
    names,
    wordsApart(phrased, (w) => SYNONYMS.has(stem(w))),
  );
  // a noun before an id ("deal 3", "share s123") says what the id is of: its meaning as a tenant's name
  // first, then what agents mean by it
  const nameMeaning = new Map([...meaning].map(([k, terms]) => [list[k], terms]));
  const idOf = [...phrased.matchAll(/\b([a-z]+) #?([a-z]*\d[\w-]*)/g)].flatMap(([, noun]) => {
    const w = stem(noun!);
    const s = SYNONYMS.get(w) ?? NO_SYNONYMS;
    const kind = [...(nameMeaning.get(w) ?? []), ...s.same, ...s.related, w].find((c) => ID_PARAMETERS.has(c));
    return kind ? [kind] : [];
  });
  const distinct = [...new Set(rest)].slice(0, MAX_QUERY_TERMS);
  // a word before the noun of a kind of thing is a name even when the tenant has no such name ("the contacts
  // app" is an app), so neither its plural nor what agents mean by it elsewhere counts
  // (next in the query as written: "columns [Deals] app" does not make "columns" a name)
  const beforeKind = new Set(
    list.filter(
      (w, k) => KIND_NOUNS.has(list[k + 1] ?? '') && !CHANGE_WORDS.has(w) && !QUESTION_OPENERS.has(w) && !/\d/.test(w),
    ),
  );
  // a word that is one of the tenant's names means that name, not what agents mean by it elsewhere ("lead")
  const synonyms = (word: string): Synonyms => {
    const s = SYNONYMS.get(word) ?? NO_SYNONYMS;
    return oneWord.has(word) || beforeKind.has(word) ? { same: s.same, related: [] } : s;
  };
  // a plural noun as written, for the tools whose names say it in the plural (see pluralsOf)
  const kept = new Set(rest);
  const plurals = [...new Set(phrased.replace(/['’]/g, '').split(/[^a-z]+/))]
    .filter((w) => isPlural(w) && kept.has(stem(w)) && !beforeKind.has(stem(w)))
    .map((w) => `=${w}`);
  // the words said only after "so (that)", up to the end of the clause
  const purpose = [...phrased.matchAll(ASIDE)].flatMap(([, said]) => words(said!, (w) => SYNONYMS.has(stem(w))));
  const main = new Set(words(phrased.replace(ASIDE, ' '), (w) => SYNONYMS.has(stem(w))));
  const aside = new Set(purpose.filter((w) => !main.has(w)));
  const terms: Array<Query[number]> = [
    ...distinct.map((word) => ({
      word,
      aside: aside.has(word),
      ...synonyms(word),
      // and not for the tenant's names
      ...(oneWord.has(word) || beforeKind.has(word) ? {} : { lexical: lexical.get(word) }),
    })),
    ...plurals.map((word) => ({ word, aside: aside.has(stem(word.slice(1))), ...NO_SYNONYMS })),
    ...named.map(({ term, via }) => ({ word: term, via: via ?? '', ...NO_SYNONYMS })),
  ];
  const leading = leadingVerb(phrased, lexical);
  const { object, many, person } = objectOfVerb(
    phrased,
    list,
    leading.verb[0],
    meaning,
    (w) => [...synonyms(w).same, ...synonyms(w).related],
    capitalised(query),
  );
  const verb = fallBack(phrased, leading, object, (w) => knows(w) || knownWord(w), capitalised(query));
  // a command on a person is about the tools of people: members, memberships, contacts
  // and so is one on what a person has ("Maria Gonzalez's profile id"): a name written with capitals, in the
  // possessive, that no name of the tenant's is (issue 41, eighth round)
  const owner = [...query.matchAll(POSSESSIVE)].some(([, name]) => {
    const said = words(name!);
    return said.length > 0 && said.every((w) => kept.has(w) && !oneWord.has(w) && !QUESTION_OPENERS.has(w));
  });
  if (person || owner) for (const word of PEOPLE) terms.push({ word, implied: RELATED_WEIGHT, ...NO_SYNONYMS });
  // a place the things of a group are kept in ("anything in our documents": the files) names that group when
  // no name does (issue 41, eighth round)
  if (!groups.size)
    for (const [, noun] of phrased.matchAll(PLACE)) {
      const w = stem(noun!);
      const s = synonyms(w);
      const group = GROUPS.find((g) => [w, ...s.same, ...s.related].includes(stem(g)));
      if (group) groups.add(group);
    }
  const question = asksToRead(phrased, lexical) && !verb.byPreposition;
  // what a verb nothing knows does, by its preposition, as the lexicon's meaning of a verb counts
  if (verb.byPreposition) for (const word of verb.verbRelated) terms.push({ word, implied: 1, ...NO_SYNONYMS });
  // a request to read a thing by its e-mail address, with no id, is a search by that address
  const byAddress = question && /\S@\S/.test(query) && !/\d/.test(plain.replace(/\S+@\S+/g, ''));
  if (byAddress) terms.push({ word: 'search', implied: RELATED_WEIGHT, ...NO_SYNONYMS });
  // a name with a file's extension ("budget.csv", "scope-of-work.md") is a file's
  if (FILE_NAME.test(query)) terms.push({ word: 'file', implied: RELATED_WEIGHT, ...NO_SYNONYMS });
  return Object.assign(terms, {
    question,
    // an e-mail address or a web address describes a thing, it is not the id a tool takes
    givesId: /\d/.test(plain.replace(/\bweb page url\b/g, '')),
    groups,
    idOf,
    verb: verb.verb,
    verbRelated: verb.verbRelated,
    object,
    many,
  });
};

/**
 * A command whose verb neither the word lists, the lexicon nor the catalogue know ("slap", "bump"): what the
 * first preposition after its object says it does (BY_PREPOSITION), as that verb's related word; the command
 * is then a change, not a question.
 */
const fallBack = (
  phrased: string,
  verb: { verb: string[]; verbRelated: readonly string[] },
  object: readonly string[],
  known: (word: string) => boolean,
  names: ReadonlySet<string>,
): { verb: string[]; verbRelated: readonly string[]; byPreposition?: boolean } => {
  const [first] = verb.verb;
  if (first === undefined || verb.verb.length > 1 || verb.verbRelated.length || known(first)) return verb;
  // the verb's own clause; it stands before its object, which starts as a thing named does ("slap a …",
  // "bump all 30 …", "yank Omar …": a name written with capitals), not before another verb ("gotta push …")
  // nor after a subject ("Priya moved …")
  const clause = phrased
    .split(/[;:!?]|[,.](?:\s|$)/)
    .find((c) => c.split(/[^a-z0-9']+/).some((t) => t && stem(t) === first));
  const tokens = (clause ?? '').split(/[^a-z0-9'@.-]+/).filter(Boolean);
  const at = tokens.findIndex((t) => stem(t) === first);
  const next = tokens[at + 1] ?? '';
  if (at < 0 || /'/.test(tokens[at]!) || !(OBJECT_STARTS.test(next) || names.has(next))) return verb;
  // the first preposition after the verb; not one of a participle ("the orders assigned to Priya")
  for (const [k, token] of tokens.slice(at + 1, at + 9).entries()) {
    // "into the trash" throws it away
    const bin = token === 'into' && BIN.test(tokens.slice(at + k + 2, at + k + 4).join(' '));
    // a thing of the catalogue's kinds put "on" another is a new one ("stick a note on deal 12": a comment)
    const thing = /^(?:on|onto)$/.test(token) && object.some((w) => ID_PARAMETERS.has(w));
    // a thing brought "to" a person is sent ("shoot the lease over to Grace", "… to her", "… to an address")
    const next = tokens[at + k + 2] ?? '';
    const sent = token === 'to' && (names.has(next) || /^(?:him|her|them|email)$/.test(next));
    const means = bin
      ? stem('delete')
      : thing
        ? stem('create')
        : sent
          ? stem('send')
          : BY_PREPOSITION.find(([preposition]) => preposition.test(token))?.[1];
    if (means) return { verb: verb.verb, verbRelated: [means], byPreposition: true };
    if (/^(?:in|from|for|with|at|by|about|so|and|then|that|which|who)$|ed$/.test(token)) break;
  }
  return verb;
};
