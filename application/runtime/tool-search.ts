import { LRUCache } from 'lru-cache';
import { GROUPS, type Group } from './define-tool.js';
import type { JsonSchema } from './json-schema.js';
import type { RegisteredTool } from './registry.js';
import { DEFAULT_SEARCH_LIMIT } from './discovery.js';
import { pluralsOf, words } from './search-words.js';
import { ID_PARAMETERS, RELATED_WEIGHT, type Query } from './query-terms.js';

export { stem, words } from './search-words.js';
export { MAX_QUERY_TERMS, queryTerms, type Query } from './query-terms.js';

// Tool search (issue 30): BM25F ranking of the tools a caller can see, by what a task asks for. Each tool is a
// document of weighted fields (its name split at `_` and camelCase, its title, its description, its
// parameters' names and their descriptions); words are lower-cased, stop words dropped and lightly stemmed,
// and a query word that agents use for a catalogue word (remove -> delete, person -> contact) also looks
// for that word, at a lower weight; a verb neither the catalogue nor that word list knows ("whip up") means
// what a general lexicon derived from WordNet says (lexicon.ts, issue 41). An index is built once per distinct
// visible set and kept in a bounded cache.

/** How much a word counts that the query says only in a clause of purpose ("…, so anyone can join"). */
const ASIDE_WEIGHT = 0.5;
const MAX_TERM_WEIGHT = 1.5;
/** How much a tool that changes data counts when the query is a question (issue 41: questions read first). */
const QUESTION_CHANGE_FACTOR = 0.45;
/**
 * How much a tool outside the groups the query's names belong to counts (issue 41: "in hubspot", "the Deals
 * app", "Harbor Ops" say which vendor's tools the task is about).
 */
const OTHER_GROUP_FACTOR = 0.6;
/** How much a tool that needs the id of one thing counts when the query gives no id (no word with a digit). */
const NO_ID_FACTOR = 0.85;
/**
 * How much more a tool counts that takes the id of the kind of thing a task quotes one of ("contact 310":
 * contact_id; "deal 3", a record of the tenant's Deals app: record_id).
 */
const ID_MATCH_FACTOR = 1.3;
/**
 * How much more a tool counts whose name starts with the verb a command starts with ("read the lease in
 * Contracts": files_readFile, though the folder's name speaks for the folder tools).
 */
const VERB_FACTOR = 1.3;
/**
 * How much more a tool counts whose name ends with the kind of thing a task quotes the id of ("open deal 31":
 * records_getRecord before records_listRecordComments, which takes the same id for something else).
 */
const OBJECT_FACTOR = 1.15;
/** Parameters that name one thing by an id a task would quote ("contact 310", "record 4411", "fo123"). */
const THING_ID = /^(record_ids?|contact_id|comment_id|share_id|item_id|batch_id|revision_(from|to))$/;

/** Groups whose Write tools change nothing of the tenant's (a skip trace is Write for what it costs). */
const WRITES_THAT_READ: ReadonlySet<Group> = new Set(['skiptrace']);

/** A field of a tool's document, and how much a word in it counts (BM25F weight and length normalisation). */
const FIELDS = {
  group: { weight: 1, b: 0 },
  name: { weight: 3, b: 0.3 },
  title: { weight: 2, b: 0.3 },
  description: { weight: 1, b: 0.75 },
  parameters: { weight: 0.7, b: 0.5 },
  parameterText: { weight: 0.25, b: 0.75 },
  plural: { weight: 2, b: 0 },
} as const;
type Field = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as Field[];
const K1 = 1.2;

interface Doc {
  readonly tool: RegisteredTool;
  readonly group: Group;
  /** Whether it needs the id of one thing (THING_ID). */
  readonly needsId: boolean;
  /** The first and the last word of its name after the group (`files_readFile`: read, file), stemmed. */
  readonly verb: string;
  readonly object: string;
  /** Whether it acts on many things at once (a batch tool). */
  readonly many: boolean;
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
    plural: pluralsOf(d.name),
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
  const own = words(d.name.slice(d.name.indexOf('_') + 1));
  return {
    tool,
    group: d.group,
    tf,
    length,
    needsId: tool.requiredParameters.some((p) => THING_ID.test(p)),
    // a batch tool's verb is the one after "batch" (batchUpdateRecords: update, of many records)
    verb: own.find((w) => w !== 'batch') ?? '',
    object: own.at(-1) ?? '',
    many: own[0] === 'batch',
  };
};

/** The ranked search over one visible set of tools. */
export class ToolIndex {
  private readonly docs: readonly Doc[];
  private readonly idf = new Map<string, number>();
  private readonly avg = {} as Record<Field, number>;
  /** The verbs the tools' names start with. */
  private readonly verbs: ReadonlySet<string>;
  /** The words of the tools' names, titles and parameters' names (see knows). */
  private readonly named: ReadonlySet<string>;

  constructor(tools: readonly RegisteredTool[]) {
    this.docs = tools.map(documentOf);
    this.verbs = new Set(this.docs.map((d) => d.verb));
    this.named = new Set(
      this.docs.flatMap((d) => (['name', 'title', 'parameters'] as const).flatMap((f) => [...d.tf[f].keys()])),
    );
    const n = this.docs.length;
    for (const f of FIELD_NAMES) this.avg[f] = this.docs.reduce((s, d) => s + d.length[f], 0) / Math.max(1, n) || 1;
    const df = new Map<string, number>();
    for (const doc of this.docs) {
      const seen = new Set(FIELD_NAMES.flatMap((f) => [...doc.tf[f].keys()]));
      for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
    }
    for (const [w, k] of df) this.idf.set(w, Math.log(1 + (n - k + 0.5) / (k + 0.5)));
  }

  /**
   * The one tool verb among a command verb's related words ("rename": update and name, so update), or
   * undefined when there are none or several ("open": list, get, read).
   */
  private onlyVerbAmong(related: readonly string[] | undefined): string | undefined {
    const found = (related ?? []).filter((w) => this.verbs.has(w));
    return found.length === 1 ? found[0] : undefined;
  }

  /** Whether a word (stemmed) names something of the catalogue: in a tool's name, title or parameters' names. */
  knows(word: string): boolean {
    return this.named.has(word);
  }

  get size(): number {
    return this.docs.length;
  }

  /** A query's words as weighted search terms (see SYNONYM_TABLE). */
  weigh(query: Query): Map<string, number> {
    const terms = new Map<string, number>();
    // words that mean one term add up (a query that says "row" and "deal" asks for records), to a limit
    const sum = (term: string, weight: number) =>
      terms.set(term, Math.min(MAX_TERM_WEIGHT, (terms.get(term) ?? 0) + weight));
    for (const { word, same, related, via, lexical = [], implied, aside } of query) {
      // a word only of a clause that says why ("so only members can find it") counts less
      const add = (term: string, weight: number) => sum(term, aside ? weight * ASIDE_WEIGHT : weight);
      if (implied !== undefined) {
        add(word, implied);
        continue;
      }
      if (via !== undefined) {
        // a catalogue word a tenant's name stands for: weaker when the name's own word means something here
        add(word, this.idf.has(via) ? RELATED_WEIGHT : 1);
        continue;
      }
      add(word, 1);
      for (const s of same) add(s, 1);
      // a number in a task is most often an id ("record 4411")
      if (/^\d+$/.test(word)) add('id', RELATED_WEIGHT);
      const weight = (this.idf.has(word) ? RELATED_WEIGHT : 1) / Math.sqrt(related.length || 1);
      for (const s of related) add(s, weight);
      // what the lexicon says a verb nothing else knows means, as related words
      for (const s of lexical) add(s, 1 / Math.sqrt(lexical.length));
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
    const givesId = query.givesId ?? query.some(({ word }) => /\d/.test(word));
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
      const { kind } = doc.tool.declaration.annotations;
      if (query.question && kind !== 'Read' && !WRITES_THAT_READ.has(doc.group)) score *= QUESTION_CHANGE_FACTOR;
      if (!givesId && doc.needsId) score *= NO_ID_FACTOR;
      if (query.groups?.size && !query.groups.has(doc.group)) score *= OTHER_GROUP_FACTOR;
      if (query.idOf?.some((kind) => doc.tool.requiredParameters.some((p) => ID_PARAMETERS.get(kind)!.test(p))))
        score *= ID_MATCH_FACTOR;
      // a batch tool's verb speaks for it only when the command is about many things
      const verbs =
        (query.verb?.includes(doc.verb) || this.onlyVerbAmong(query.verbRelated) === doc.verb) &&
        (!doc.many || query.many === true);
      if (verbs) score *= VERB_FACTOR;
      // the thing an id is quoted of, or the one a command's verb acts on ("add a new work order": createRecord)
      // (issue 41, eighth round) or a thing the tool's name says besides its verb, whatever the verb
      // ("set up the upload": getUploadUrl), so that what the object points to fills the places after the first
      if (
        query.idOf?.includes(doc.object) ||
        (verbs && !query.question && query.object?.includes(doc.object)) ||
        (!query.question && query.object?.some((w) => w !== doc.verb && doc.tf.name.has(w) && !doc.tf.group.has(w)))
      )
        score *= OBJECT_FACTOR;
      // a command on many things ("mark all 30 of these deals as closed") is a batch tool's
      if (query.many && !query.question && doc.many) score *= OBJECT_FACTOR;
      if (score > 0) scored.push({ tool: doc.tool, score, at });
    });
    scored.sort((a, b) => b.score - a.score || a.at - b.at);
    return scored.slice(0, limit);
  }
}

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
