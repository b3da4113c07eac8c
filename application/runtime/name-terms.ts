import type { Group } from './define-tool.js';
import { words } from './search-words.js';

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
  /** The word that says what kind of thing it is ("app", "space", "folder"), right after the name. */
  readonly noun?: readonly string[];
}

/** The names of one caller, longest first (a longer name wins over a shorter one inside it). */
export type CompiledNames = readonly CompiledName[];

const KIND_TERMS = {
  app: { terms: ['record'], noun: ['app', 'database', 'table'] },
  space: { terms: ['space'], noun: ['space', 'workspace', 'team'] },
  organization: { terms: ['organization'], noun: ['organization', 'org', 'company'] },
  folder: { terms: ['folder'], noun: ['folder', 'directory', 'dir'] },
  property: { terms: ['contact'], noun: ['property', 'field'] },
} as const;

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
  const seen = new Set<string>();
  const out: CompiledName[] = [];
  for (const name of names) {
    const nameWords = words(name.text);
    const key = `${name.kind}:${nameWords.join(' ')}`;
    if (!nameWords.length || nameWords.length > 6 || seen.has(key)) continue;
    seen.add(key);
    if (name.kind === 'vendor') {
      out.push({ words: nameWords, terms: name.group ? VENDOR_TERMS[name.group] : [] });
    } else {
      const kind = KIND_TERMS[name.kind];
      out.push({ words: nameWords, terms: kind.terms, noun: kind.noun.map((n) => words(n)[0] ?? n) });
    }
  }
  return out.sort((a, b) => b.words.length - a.words.length);
};

/** A catalogue word a name stands for; `via` is the one query word it came from, when only one. */
export interface NameTerm {
  readonly term: string;
  /** A one-word name not followed by its kind's noun: weaker when that word means something in the catalogue. */
  readonly via?: string;
}

/**
 * The names among a query's words: the words left (a name of more than one word taken out, a vendor's name
 * too) and the catalogue words the names stand for.
 */
export const matchNames = (query: readonly string[], names: CompiledNames): { rest: string[]; terms: NameTerm[] } => {
  const used = new Array<boolean>(query.length).fill(false);
  const drop = new Array<boolean>(query.length).fill(false);
  const terms: NameTerm[] = [];
  for (const name of names) {
    const n = name.words.length;
    for (let i = 0; i + n <= query.length; i++) {
      if (used.slice(i, i + n).some(Boolean) || name.words.some((w, k) => query[i + k] !== w)) continue;
      for (let k = i; k < i + n; k++) used[k] = true;
      const vendor = name.noun === undefined;
      const named = query[i + n] !== undefined && (name.noun ?? []).includes(query[i + n]!);
      // a name of more words, a vendor's, or one followed by its noun ("the Deals app") is a name, not its meaning
      if (n > 1 || vendor || named) for (let k = i; k < i + n; k++) drop[k] = true;
      for (const term of name.terms) terms.push(n > 1 || vendor || named ? { term } : { term, via: query[i]! });
    }
  }
  return { rest: query.filter((_, k) => !drop[k]), terms };
};
