import { LRUCache } from 'lru-cache';
import { GROUPS, type Group } from './define-tool.js';
import type { JsonSchema } from './json-schema.js';
import type { RegisteredTool } from './registry.js';
import { DEFAULT_SEARCH_LIMIT, MAX_QUERY_CHARS } from './discovery.js';
import { toolError, type ToolError } from './tool-error.js';

// Tool search (issue 30): BM25F ranking of the tools a caller can see, by what a task asks for. Each tool is a
// document of weighted fields (its name split at `_` and camelCase, its title, its description, its
// parameters' names and their descriptions); words are lower-cased, stop words dropped and lightly stemmed,
// and a query word that agents use for a catalogue word (remove -> delete, person -> contact) also looks
// for that word, at a lower weight. An index is built once per distinct visible set and kept in a bounded cache.

/** Most distinct words of a query searched for (the rest are ignored). */
export const MAX_QUERY_TERMS = 24;

const STOP = new Set(
  (
    "a an and any are as at be by can could do does for from give has have how i i'd i'm in into is it its " +
    'let me my need of on or our please show some tell than that the their them then there these this those to ' +
    'us want we what whats where which whom why will with would you your all every just one about still also ' +
    'again already yet exactly instead'
  )
    .split(' ')
    .filter(Boolean),
);

/** Words the suffix rules would take for another word (news is not new). */
const UNSTEMMED = new Set(['news', 'series', 'always', 'perhaps', 'analysis']);

/** A light suffix stripper: enough that delete/deleted/deletion, share/shares/sharing meet at one stem. */
export const stem = (word: string): string => {
  let w = word;
  if (w.length <= 3 || /^\d/.test(w) || UNSTEMMED.has(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ation', 'ion', 'ing', 'ed', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  // a doubled final consonant left by -ing/-ed (dropped -> dropp) is one
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss)$/.test(w)) w = w.slice(0, -1);
  return w;
};

/** The words of a text: camelCase and `_` split, lower-cased, stop words dropped (unless `keep` them), stemmed. */
export const words = (text: string, keep: (stop: string) => boolean = () => false): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && ((!STOP.has(w) && !STOP.has(stem(w))) || keep(w)))
    .map(stem);

/**
 * Words agents use for what the catalogue names otherwise. `their words = ours`: the same meaning, searched
 * for as if the query said it; `their words: ours`: related words, searched for at RELATED_WEIGHT (at 1 when
 * the query's word is in none of the tools, as it then has no other meaning here). A word's related words
 * share its weight (each gets 1/sqrt(n) of it). General meanings only, no tool names, so that it helps
 * phrasings not yet seen. Stemmed when the module loads.
 */
const SYNONYM_TABLE = `
remove erase trash discard throw rid revoke purge wipe = delete
undo undelete recover = restore
add = create
edit modify alter = update
relationship = relation
lookup locate = search
duplicate clone = copy
relocate = move
properties = property
shared = share
cancel kick: delete end remove
new leave post: create
ask: request
make turn: update create
show display see: list get read
over above below under greater less more fewer: filter
set fix: update
change: update revision
rename: update name
extend prolong: update expiration
mark: update
promote demote: role update
look: search find
find: search
google online internet: search web
website article: web page
link: url share
browse: list folder
say says contents: text read
person people customer lead client prospect: contact
hubspot: crm contact
podio: record
directory: folder
doc document pdf spreadsheet video image photo memo report: file
put: move write
save store: write file
send: share email notification
remind resend: notification send email
table database: app
column attribute: field property
field: property
status stage: field record
row entry ticket deal task: record
import bulk many: batch create
total average sum: aggregate
count: aggregate count
history: revision
version: revision
note discussion: comment
workspace team: space
invite: member add
access: member
org company: organization
owner own: skip trace property
house home building: property
parcel: apn property
phone: owner phone
attach: upload file
linked: relation related
pick choose: value option
big large: size
modified when: date
recently recent latest: newest
private public: privacy
`;

/** Phrases that mean one catalogue word, replaced before the words are split. */
const PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bset up\b/g, 'create'],
  [/\blook up\b/g, 'search'],
  [/\bget rid of\b/g, 'delete'],
  [/\bhow many\b/g, 'count'],
  [/\bsign up\b/g, 'create'],
];

interface Synonyms {
  readonly same: readonly string[];
  readonly related: readonly string[];
}

const SYNONYMS: ReadonlyMap<string, Synonyms> = (() => {
  const table = new Map<string, { same: Set<string>; related: Set<string> }>();
  for (const line of SYNONYM_TABLE.trim().split('\n')) {
    const same = line.includes('=');
    const [theirs = '', ours = ''] = line.split(same ? '=' : ':');
    const targets = ours.trim().split(/\s+/).map(stem);
    for (const w of theirs.trim().split(/\s+/)) {
      const key = stem(w);
      const entry = table.get(key) ?? { same: new Set<string>(), related: new Set<string>() };
      for (const t of targets) if (t !== key) entry[same ? 'same' : 'related'].add(t);
      table.set(key, entry);
    }
  }
  return new Map([...table].map(([k, v]) => [k, { same: [...v.same], related: [...v.related] }]));
})();
const RELATED_WEIGHT = 0.5;
const MAX_TERM_WEIGHT = 1.5;

/** A field of a tool's document, and how much a word in it counts (BM25F weight and length normalisation). */
const FIELDS = {
  group: { weight: 1, b: 0 },
  name: { weight: 3, b: 0.3 },
  title: { weight: 2, b: 0.3 },
  description: { weight: 1, b: 0.75 },
  parameters: { weight: 0.7, b: 0.5 },
  parameterText: { weight: 0.25, b: 0.75 },
} as const;
type Field = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as Field[];
const K1 = 1.2;

interface Doc {
  readonly tool: RegisteredTool;
  readonly group: Group;
  readonly tf: Record<Field, Map<string, number>>;
  readonly length: Record<Field, number>;
}

const counts = (list: readonly string[]): Map<string, number> => {
  const m = new Map<string, number>();
  for (const w of list) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
};

/** Another tool's name inside a description (`crm_getContact`) says where to go next, not what this tool does. */
const TOOL_REFERENCE = new RegExp(`\\b(?:${GROUPS.join('|')})_[A-Za-z]+\\b`, 'g');

const parameterWords = (schema: JsonSchema) => {
  const names: string[] = [];
  const text: string[] = [];
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if (name === 'dry_run' || name === 'confirm_token') continue; // the gateway's own, on every Destructive tool
    names.push(...words(name));
    text.push(...words((p.description ?? '').replace(TOOL_REFERENCE, ' ')));
  }
  return { names, text };
};

const documentOf = (tool: RegisteredTool): Doc => {
  const d = tool.declaration;
  const params = parameterWords(tool.inputSchema);
  const fields: Record<Field, string[]> = {
    group: words(d.group),
    name: words(d.name),
    title: words(d.title),
    description: words(d.description.replace(TOOL_REFERENCE, ' ')),
    parameters: params.names,
    parameterText: params.text,
  };
  const tf = {} as Record<Field, Map<string, number>>;
  const length = {} as Record<Field, number>;
  for (const f of FIELD_NAMES) {
    tf[f] = counts(fields[f]);
    length[f] = fields[f].length;
  }
  return { tool, group: d.group, tf, length };
};

/** The ranked search over one visible set of tools. */
export class ToolIndex {
  private readonly docs: readonly Doc[];
  private readonly idf = new Map<string, number>();
  private readonly avg = {} as Record<Field, number>;

  constructor(tools: readonly RegisteredTool[]) {
    this.docs = tools.map(documentOf);
    const n = this.docs.length;
    for (const f of FIELD_NAMES) this.avg[f] = this.docs.reduce((s, d) => s + d.length[f], 0) / Math.max(1, n) || 1;
    const df = new Map<string, number>();
    for (const doc of this.docs) {
      const seen = new Set(FIELD_NAMES.flatMap((f) => [...doc.tf[f].keys()]));
      for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
    }
    for (const [w, k] of df) this.idf.set(w, Math.log(1 + (n - k + 0.5) / (k + 0.5)));
  }

  get size(): number {
    return this.docs.length;
  }

  /** A query's words as weighted search terms (see SYNONYM_TABLE). */
  weigh(query: Query): Map<string, number> {
    const terms = new Map<string, number>();
    // words that mean one term add up (a query that says "row" and "deal" asks for records), to a limit
    const add = (term: string, weight: number) =>
      terms.set(term, Math.min(MAX_TERM_WEIGHT, (terms.get(term) ?? 0) + weight));
    for (const { word, same, related } of query) {
      add(word, 1);
      for (const s of same) add(s, 1);
      // a number in a task is most often an id ("record 4411")
      if (/^\d+$/.test(word)) add('id', RELATED_WEIGHT);
      const weight = (this.idf.has(word) ? RELATED_WEIGHT : 1) / Math.sqrt(related.length || 1);
      for (const s of related) add(s, weight);
    }
    return terms;
  }

  /** The tools that match, best first (ties in catalogue order); only tools with a positive score. */
  search(query: Query, groups?: readonly Group[], limit = DEFAULT_SEARCH_LIMIT): RegisteredTool[] {
    return this.ranked(query, groups, limit).map((s) => s.tool);
  }

  /** `search` with each tool's score. */
  ranked(
    query: Query,
    groups?: readonly Group[],
    limit = DEFAULT_SEARCH_LIMIT,
  ): Array<{ tool: RegisteredTool; score: number }> {
    const terms = this.weigh(query);
    const scored: Array<{ tool: RegisteredTool; score: number; at: number }> = [];
    this.docs.forEach((doc, at) => {
      if (groups && !groups.includes(doc.group)) return;
      let score = 0;
      for (const [term, weight] of terms) {
        const idf = this.idf.get(term);
        if (idf === undefined) continue;
        let tf = 0;
        for (const f of FIELD_NAMES) {
          const k = doc.tf[f].get(term);
          if (k === undefined) continue;
          const { weight: w, b } = FIELDS[f];
          tf += (w * k) / (1 - b + (b * doc.length[f]) / this.avg[f]);
        }
        if (tf > 0) score += weight * idf * ((tf * (K1 + 1)) / (K1 + tf));
      }
      if (score > 0) scored.push({ tool: doc.tool, score, at });
    });
    scored.sort((a, b) => b.score - a.score || a.at - b.at);
    return scored.slice(0, limit);
  }
}

/** A query's words, each with the catalogue's words for it (SYNONYM_TABLE). */
export type Query = ReadonlyArray<{ readonly word: string } & Synonyms>;

/**
 * A query's words: at most MAX_QUERY_TERMS distinct ones (the rest are ignored). A query over
 * MAX_QUERY_CHARS is refused before it is read.
 */
export const queryTerms = (query: string): Query | ToolError => {
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
    .map((t) => (/^https?:\/\//.test(t) ? 'web url' : t.includes('@') ? 'email' : t))
    .join(' ');
  const phrased = PHRASES.reduce((text, [phrase, word]) => text.replace(phrase, word), plain);
  // a stop word that stands for catalogue words ("show": list, get) is kept for its synonyms
  const distinct = [...new Set(words(phrased, (w) => SYNONYMS.has(stem(w))))].slice(0, MAX_QUERY_TERMS);
  return distinct.map((word) => ({ word, ...(SYNONYMS.get(word) ?? { same: [], related: [] }) }));
};

/** Indexes by visible set (the tools' names in catalogue order), each built once; at most `max` kept. */
export class ToolIndexes {
  private readonly cache: LRUCache<string, ToolIndex>;
  /** How many indexes were built (for tests and the bench: one per distinct visible set). */
  built = 0;

  constructor(max = 512) {
    this.cache = new LRUCache({ max });
  }

  of(tools: readonly RegisteredTool[]): ToolIndex {
    const key = tools.map((t) => t.name).join(',');
    let index = this.cache.get(key);
    if (!index) {
      this.cache.set(key, (index = new ToolIndex(tools)));
      this.built++;
    }
    return index;
  }
}
