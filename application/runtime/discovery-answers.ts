import {
  CALL_TOOL,
  checkDescribeArgs,
  checkFindArgs,
  DESCRIBE_TOOL,
  metaToolListings,
  notAvailable,
  type MetaToolListing,
} from './discovery.js';
import type { JsonSchema } from './json-schema.js';
import type { RegisteredTool } from './registry.js';
import type { ToolError } from './tool-error.js';
import { queryTerms, ToolIndexes } from './tool-search.js';
import { loadLexicon, type Lexicon } from './lexicon.js';
import { EXAMPLES, idSource, MAX_RELATED, relatedEntry, relatedText, relatedTools } from './discovery-hints.js';
import type { CompiledNames } from './name-terms.js';
import type { ToolRegistry } from './registry.js';

// The answers of gateway_findTools and gateway_describeTool (issue 30), whatever the surface: MCP makes a
// CallToolResult of them, REST an envelope. Both see only the caller's visible set (the tools it may call,
// within its toolsets), so a caller never finds or describes a tool it cannot call.

/** A meta tool's answer: the text a model reads and the structured payload (`format=json`, structuredContent). */
export interface DiscoveryAnswer {
  readonly text: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A tool as the surface's describe gives it (MCP: its tools/list form in the caller's output-schema form). */
export type ToolShape = (tool: RegisteredTool | MetaToolListing) => unknown;

/** A parameter's type as a model reads it in one line: `string`, `integer`, `one of a|b`, `string|null`. */
const typeOf = (s: JsonSchema): string => {
  if (s.enum) return s.enum.length <= 6 ? `one of ${s.enum.join('|')}` : `${s.type ?? 'string'} (enum)`;
  if (s.anyOf) return [...new Set(s.anyOf.map(typeOf))].join('|');
  if (s.type === 'array') return s.items ? `array of ${typeOf(s.items)}` : 'array';
  return s.type ?? 'any';
};

/** The first sentence of a description, at most 200 characters. */
const purposeOf = (description: string): string => {
  const end = description.search(/[.!?](\s|$)/);
  const first = end > 0 ? description.slice(0, end + 1) : description;
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
};

const MAX_OPTIONAL_NAMES = 8;

const foundTool = (t: RegisteredTool, visible: ReadonlyMap<string, RegisteredTool>) => {
  const properties = t.inputSchema.properties ?? {};
  const required = t.requiredParameters.map((name) => {
    const from = idSource(t, name, visible);
    return { name, type: typeOf(properties[name] ?? {}), ...(from ? { from } : {}) };
  });
  const example = EXAMPLES[t.name];
  const optional = Object.keys(properties).filter(
    (p) => !t.requiredParameters.includes(p) && p !== 'dry_run' && p !== 'confirm_token',
  );
  return {
    name: t.name,
    title: t.declaration.title,
    kind: t.declaration.annotations.kind,
    purpose: purposeOf(t.declaration.description),
    required,
    optional,
    ...(example ? { example } : {}),
  };
};

const foundText = (
  query: string,
  found: ReturnType<typeof foundTool>[],
  searched: number,
  related: readonly RegisteredTool[],
): string => {
  const shown = query.length > 80 ? `${query.slice(0, 79)}…` : query;
  if (!found.length) {
    return (
      `No tool matched "${shown}" among the ${searched} tools of this connection. ` +
      `Try other words for what should happen to which thing ("list the files in a folder", "update a contact").`
    );
  }
  const lines = found.map((t, i) => {
    const needs = t.required.length
      ? t.required.map((p) => `${p.name} (${p.type}${'from' in p ? `; from ${p.from}` : ''})`).join(', ')
      : 'nothing';
    const more = t.optional.length > MAX_OPTIONAL_NAMES ? ', …' : '';
    const optional = t.optional.length
      ? ` Optional: ${t.optional.slice(0, MAX_OPTIONAL_NAMES).join(', ')}${more}.`
      : '';
    const example = t.example ? `\n   e.g. ${JSON.stringify(t.example)}` : '';
    return `${i + 1}. **${t.name}** (${t.kind}): ${t.purpose}\n   Needs: ${needs}.${optional}${example}`;
  });
  const first = found[0]!.name;
  return (
    `## ${found.length} tool${found.length === 1 ? '' : 's'} for "${shown}"\n\n${lines.join('\n')}\n\n` +
    (related.length ? `Also in ${related[0]!.declaration.group}: ${related.map(relatedText).join('; ')}.\n\n` : '') +
    `Call one with ${CALL_TOOL} {"name": "${first}", "arguments": {...}} (or by its name); ` +
    `${DESCRIBE_TOOL} {"name": "${first}"} gives its whole input schema.` +
    (found.some((t) => t.example) ? " Examples use the demo account's ids: put in your own." : '')
  );
};

/**
 * Find and describe over a caller's visible set, with the search indexes (one per distinct visible set, in
 * an LRU). One per surface; the arguments are checked here (discovery.ts), so both surfaces bound alike.
 */
export const createToolFinder = (indexes: ToolIndexes = new ToolIndexes()) => {
  /**
   * The tools a name that is no tool most likely meant: by meaning (its words and the argument names given,
   * through the same search as find) and by spelling (the registry's nearest names), visible ones only.
   */
  const suggest = (
    visible: readonly RegisteredTool[],
    name: string,
    args: Record<string, unknown> = {},
    registry?: ToolRegistry,
    lexicon?: Lexicon,
  ): string[] => {
    const names = new Set(visible.map((t) => t.name));
    // the name's own words first, as a command reads ("crm_junkContact": "junk contact crm"), so that its verb
    // stands where a verb does (the general lexicon speaks for it there, issue 41)
    const cut = name.indexOf('_');
    const own = name.slice(cut + 1).replace(/([a-z0-9])([A-Z])/g, '$1 $2');
    const words = `${own} ${cut > 0 ? name.slice(0, cut) : ''} ${Object.keys(args).slice(0, 8).join(' ')}`;
    const index = indexes.of(visible);
    const terms = queryTerms(words.slice(0, 400), [], lexicon, (w) => index.knows(w));
    const byMeaning = 'status' in terms ? [] : index.search(terms, undefined, 3).map((t) => t.name);
    const bySpelling = ((registry?.unknownName(name).details?.['did_you_mean'] as string[] | undefined) ?? []).filter(
      (n) => names.has(n),
    );
    return [...new Set([...bySpelling, ...byMeaning])].slice(0, 3);
  };

  const find = (
    visible: readonly RegisteredTool[],
    args: Record<string, unknown>,
    names?: CompiledNames,
    lexicon?: Lexicon,
  ): DiscoveryAnswer | ToolError => {
    const checked = checkFindArgs(args);
    if ('status' in checked) return checked;
    const index = indexes.of(visible);
    const terms = queryTerms(checked.query, names, lexicon, (w) => index.knows(w));
    if ('status' in terms) return terms;
    const byName = new Map(visible.map((t) => [t.name, t]));
    const ranked = index.search(terms, checked.groups, checked.limit + MAX_RELATED);
    const hits = ranked.slice(0, checked.limit);
    const found = hits.map((t) => foundTool(t, byName));
    const related = relatedTools(hits, ranked.slice(checked.limit), visible);
    return {
      text: foundText(checked.query, found, visible.length, related),
      payload: {
        query: checked.query,
        count: found.length,
        tools: found,
        ...(related.length ? { related: related.map(relatedEntry) } : {}),
      },
    };
  };

  const describe = (
    visible: readonly RegisteredTool[],
    args: Record<string, unknown>,
    shape: ToolShape,
    registry?: ToolRegistry,
    lexicon?: Lexicon,
  ): DiscoveryAnswer | ToolError => {
    const name = checkDescribeArgs(args);
    if (typeof name !== 'string') return name;
    const found: RegisteredTool | MetaToolListing | undefined =
      visible.find((t) => t.name === name) ?? metaToolListings(visible).find((t) => t.name === name);
    if (!found) return notAvailable(name, suggest(visible, name, {}, registry, lexicon));
    const tool = shape(found);
    return { text: `## ${name}\n\n${JSON.stringify(tool)}`, payload: { tool } };
  };

  /**
   * describe, with the general lexicon read (on first use, loadLexicon) only when the name is no tool here,
   * for the suggestions by meaning.
   */
  const describeLoading = async (
    visible: readonly RegisteredTool[],
    args: Record<string, unknown>,
    shape: ToolShape,
    registry?: ToolRegistry,
  ): Promise<DiscoveryAnswer | ToolError> => {
    const answer = describe(visible, args, shape, registry);
    if (!('status' in answer) || answer.code !== 'NOT_FOUND') return answer;
    return describe(visible, args, shape, registry, await loadLexicon());
  };

  /** suggest, with the general lexicon (read on first use). */
  const suggestLoading = async (
    visible: readonly RegisteredTool[],
    name: string,
    args: Record<string, unknown> = {},
    registry?: ToolRegistry,
  ): Promise<string[]> => suggest(visible, name, args, registry, await loadLexicon());

  return { find, describe, suggest, describeLoading, suggestLoading, indexes };
};

export type ToolFinder = ReturnType<typeof createToolFinder>;
