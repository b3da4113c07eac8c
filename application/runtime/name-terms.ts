import type { Group } from './define-tool.js';
import { stem, STOP, SYNONYMS, words } from './search-words.js';

// The tenant's names in a query (issue 41): "the Deals app", "Harbor Ops", "in hubspot". A name the query
// says stands for the catalogue words of what it names (an app's records, a space, a folder, a vendor's
// group); a name of more than one word replaces its words, whose own meaning would mislead ("Property
// Management" is a space, not a property).

/** What a name stands for, and so which catalogue words a query that says it searches for. */
export type NameKind = 'app' | 'space' | 'organization' | 'folder' | 'property' | 'vendor';

export interface TenantName {
  readonly text: string;
  readonly kind: NameKind;
  /** A vendor's or product's group. */
  readonly group?: Group;
}

/** A name as a sequence of query words, and the catalogue words it stands for. */
interface CompiledName {
  readonly words: readonly string[];
  readonly terms: readonly string[];
  /** The groups whose tools act on what it names (a vendor's, or the group of the kind of thing). */
  readonly groups: readonly Group[];
  /** The word that says what kind of thing it is ("app", "space", "folder"), right after the name. */
  readonly noun?: readonly string[];
  /** The kind of thing it names (none for a vendor). */
  readonly kind?: NameKind;
}

/** The names of one caller, longest first (a longer name wins over a shorter one inside it). */
export type CompiledNames = readonly CompiledName[];

const KIND_TERMS = {
  app: { terms: ['record'], noun: ['app', 'database', 'table'], group: 'records' },
  space: { terms: ['space'], noun: ['space', 'workspace', 'team'], group: 'workspaces' },
  organization: { terms: ['organization'], noun: ['organization', 'org', 'company'], group: 'workspaces' },
  folder: { terms: ['folder'], noun: ['folder', 'directory', 'dir'], group: 'files' },
  property: { terms: ['contact'], noun: ['property', 'field'], group: 'crm' },
} as const;

/** The kind a word that names a kind of thing says ("app", "folder", "workspace"), stemmed as queries are. */
export const KIND_NOUNS: ReadonlyMap<string, NameKind> = new Map(
  (Object.entries(KIND_TERMS) as Array<[keyof typeof KIND_TERMS, (typeof KIND_TERMS)[keyof typeof KIND_TERMS]]>)
    .filter(([kind]) => kind !== 'property')
    .flatMap(([kind, { noun }]) => noun.map((n) => [words(n)[0] ?? n, kind] as const)),
);

/** What a vendor's name stands for: its group's word and the main thing of the group. */
const VENDOR_TERMS: Record<Group, readonly string[]> = {
  crm: ['crm', 'contact'],
  files: ['file', 'folder'],
  records: ['record'],
  workspaces: ['space'],
  skiptrace: [...words('skiptrace'), 'skip', 'trace'],
  web: ['web'],
};

export const compileNames = (names: readonly TenantName[]): CompiledNames => {
  const seen = new Map<string, CompiledName>();
  for (const name of names) {
    const nameWords = words(name.text);
    const key = `${name.kind}:${nameWords.join(' ')}`;
    if (!nameWords.length || nameWords.length > 6) continue;
    const had = seen.get(key);
    if (name.kind === 'vendor') {
      // a vendor with more than one group (Podio: records, then workspaces) is about each, and stands for
      // the main thing of the first one listed
      const groups = name.group ? [name.group] : [];
      const terms = name.group ? VENDOR_TERMS[name.group].flatMap((t) => words(t)) : [];
      seen.set(key, {
        words: nameWords,
        terms: had?.terms ?? terms,
        groups: [...new Set([...(had?.groups ?? []), ...groups])],
      });
    } else if (!had) {
      const kind = KIND_TERMS[name.kind];
      seen.set(key, {
        words: nameWords,
        terms: kind.terms.flatMap((t) => words(t)),
        groups: [kind.group],
        kind: name.kind,
        noun: kind.noun.map((n) => words(n)[0] ?? n),
      });
    }
  }
  return [...seen.values()].sort((a, b) => b.words.length - a.words.length);
};

/** A catalogue word a name stands for; `via` is the one query word it came from, when only one. */
export interface NameTerm {
  readonly term: string;
  /** A one-word name not followed by its kind's noun: weaker when that word means something in the catalogue. */
  readonly via?: string;
}

/**
 * The names among a query's words: the words left (a name of more than one word taken out, a vendor's name
 * too), the catalogue words the names stand for, the groups they belong to, and the words left that are a
 * one-word name (`named`: in this tenant's world "lead" is a Leads app record before it is a CRM contact),
 * and by the position of a name's last word, the catalogue words it stands for (`meaning`).
 */
export const matchNames = (
  query: readonly string[],
  names: CompiledNames,
  apart: ReadonlySet<number> = new Set(),
): {
  rest: string[];
  terms: NameTerm[];
  groups: Set<Group>;
  named: Set<string>;
  meaning: Map<number, readonly string[]>;
} => {
  const used = new Array<boolean>(query.length).fill(false);
  const drop = new Array<boolean>(query.length).fill(false);
  const terms: NameTerm[] = [];
  const groups = new Set<Group>();
  const meaning = new Map<number, readonly string[]>();
  for (const name of names) {
    const n = name.words.length;
    for (let i = 0; i + n <= query.length; i++) {
      if (used.slice(i, i + n).some(Boolean) || name.words.some((w, k) => query[i + k] !== w)) continue;
      // a name's words are written together ("which leads have the status Open" says no "Lead Status")
      if (name.words.some((_, k) => k > 0 && apart.has(i + k))) continue;
      // "the Projects app" when Projects is a folder: a name of another kind, not this one
      const next = KIND_NOUNS.get(query[i + n] ?? '');
      if (name.kind !== undefined && next !== undefined && next !== name.kind) continue;
      for (let k = i; k < i + n; k++) used[k] = true;
      for (const g of name.groups) groups.add(g);
      meaning.set(i + n - 1, name.terms);
      const vendor = name.noun === undefined;
      const named = query[i + n] !== undefined && (name.noun ?? []).includes(query[i + n]!);
      // a name of more words, a vendor's, or one followed by its noun ("the Deals app") is a name, not its meaning
      if (n > 1 || vendor || named) for (let k = i; k < i + n; k++) drop[k] = true;
      for (const term of name.terms) terms.push(n > 1 || vendor || named ? { term } : { term, via: query[i]! });
    }
  }
  const named = new Set(query.filter((_, k) => used[k] && !drop[k]));
  return { rest: query.filter((_, k) => !drop[k]), terms, groups, named, meaning };
};

/** Words that stand between two words of a sentence, never inside a name ("leads have the status"). */
const BETWEEN = new Set('the a an this that these those have has had is are was were be been'.split(' '));

/**
 * The positions of a text's words (as `words(text, keep)` gives them) that a word of BETWEEN separates from the
 * word before (issue 41, eighth round): a name of several words cannot span them.
 */
export const wordsApart = (text: string, keep: (stop: string) => boolean): Set<number> => {
  const apart = new Set<number>();
  let at = 0;
  let gap = false;
  for (const w of text
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)) {
    if (w.length > 1 && ((!STOP.has(w) && !STOP.has(stem(w))) || keep(w))) {
      if (gap) apart.add(at);
      at++;
      gap = false;
    } else if (BETWEEN.has(w)) gap = true;
  }
  return apart;
};

/** Words between a verb and its object that say nothing of what the object is ("add a new lead"). */
const BEFORE_OBJECT = new Set(['new', 'old', 'anoth', 'few', 'couple', 'each', 'more', 'extra', 'fresh', 'blank']);

/** Words that count or quantify many things. */
const MANY =
  /\b(?:all|every|these|those|many|several|multiple|dozens?|hundreds?|(?:[2-9]|\d\d+)|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fifty)\b/;

/** Words that end the words naming a verb's object ("remove James from the Acquisitions space"). */
const OBJECT_ENDS =
  /\b(?:to|from|into|onto|in|inside|on|off|at|for|with|of|out|under|over|as|by|so|that|which|who|where|when|and|then|saying|about)\b|[,;:.!?]/;

/**
 * What the object of a command's verb is (issue 41, seventh round): the words of the thing named right after
 * the verb, before any preposition, as the catalogue says them ("add a new work order": a record of the Work
 * Orders app; "make a folder": folder; not "remove James from the Acquisitions space"). `text`: the query as
 * phrased; `list`: its words (stop words out, stemmed); `verb`: the leading verb's stem; `meaning`: the
 * tenant's names by the position of their last word (matchNames); `synonyms`: what agents mean by a word.
 * None when the verb is not among the words or names nothing.
 */
export const objectOfVerb = (
  text: string,
  list: readonly string[],
  verb: string | undefined,
  meaning: ReadonlyMap<number, readonly string[]>,
  synonyms: (word: string) => readonly string[],
  names: ReadonlySet<string> = new Set(),
): { object: string[]; many: boolean; person?: boolean } => {
  const at = verb === undefined ? -1 : list.indexOf(verb);
  if (at < 0) return { object: [], many: false };
  // the words after the verb up to the first preposition, as positions in `list`
  const tokens = text.split(/\s+/);
  const after = tokens.findIndex((w) => words(w, (s) => SYNONYMS.has(stem(s)))[0] === verb);
  const rest = tokens.slice(after + 1).join(' ');
  const written = rest.split(OBJECT_ENDS)[0] ?? '';
  const span = words(written, (s) => SYNONYMS.has(stem(s))).length;
  const phrase = list.slice(at + 1, at + 1 + span);
  // many things: counted, all of them, or these ("all 30", "these 40 properties", "every deal")
  const many = MANY.test(written);
  // a tenant's name ending within the object's words
  for (let k = at + 1; k <= at + span; k++) {
    const terms = meaning.get(k);
    if (terms) return { object: [...terms], many };
  }
  // a name no catalogue or tenant knows, written with capitals ("take Omar Haddad out of …"): a person
  const said = written.split(/[^a-z]+/).filter(Boolean);
  if (said.length && said.every((w) => names.has(w))) return { object: [], many, person: true };
  const noun = phrase.find((w) => !BEFORE_OBJECT.has(w) && !/\d/.test(w));
  return { object: noun === undefined ? [] : [noun, ...synonyms(noun)], many };
};
