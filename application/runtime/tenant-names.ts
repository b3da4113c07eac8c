import { LRUCache } from 'lru-cache';
import { E } from '../../domain/shared/fp.js';
import type { Principal } from '../../ports/authenticator.js';
import type { Group, UseCase } from './define-tool.js';
import { compileNames, type CompiledNames, type NameKind, type TenantName } from './name-terms.js';

export type { NameKind, TenantName } from './name-terms.js';
import type { RegisteredTool } from './registry.js';

// The tenant's own names for tool search (issue 41): what its accounts call things (Podio apps and spaces,
// the folders at the top of its files, HubSpot's contact property labels) and the vendors' and products'
// names, so that "the Deals app" finds the records tools and "in hubspot" the crm tools. A caller's names
// are read through the tools' own use cases (so through the same ports and the same connection as its calls),
// once per caller and visible set, when it first searches; they are kept in a bounded cache with a time to
// live. A call that does not search never reads them.

/**
 * The vendors' and their products' names, the same for every tenant: each says which group a task is
 * about. A product is only listed here if the caller can see a tool of its group.
 */
export const VENDOR_NAMES: ReadonlyArray<readonly [string, Group]> = [
  ['hubspot', 'crm'],
  ['hub spot', 'crm'],
  ['sharefile', 'files'],
  ['share file', 'files'],
  ['citrix', 'files'],
  ['podio', 'records'],
  ['podio', 'workspaces'],
  ['batchdata', 'skiptrace'],
  ['batch data', 'skiptrace'],
  ['batch skip tracing', 'skiptrace'],
  // the kind of product, as people name it ("in the CRM", "skip trace this house")
  ['crm', 'crm'],
  ['skip trace', 'skiptrace'],
  ['skiptrace', 'skiptrace'],
  // the web as a place to look ("find out online", "google the going rate"), issue 41, seventh round
  ['online', 'web'],
  ['internet', 'web'],
  ['google', 'web'],
];

/** Most names kept per caller (a tenant with thousands of apps keeps the first ones), and their length. */
export const MAX_NAMES = 400;
const MAX_NAME_CHARS = 80;

/** A tool whose answer names things, the arguments it is read with, and how to take the names from it. */
interface Source {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly read: (result: unknown) => TenantName[];
}

const list = (value: unknown, key: string): unknown[] => {
  const v = (value as Record<string, unknown> | null)?.[key];
  return Array.isArray(v) ? v : [];
};
const str = (value: unknown, key: string): string | undefined => {
  const v = (value as Record<string, unknown> | null)?.[key];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};
const named = (texts: ReadonlyArray<string | undefined>, kind: NameKind): TenantName[] =>
  texts.filter((t): t is string => t !== undefined).map((text) => ({ text: text.slice(0, MAX_NAME_CHARS), kind }));

/** Words common to every kind of record: a label made only of them ("Record ID", "First Name") names nothing. */
const GENERIC =
  /^(id|record|object|date|time|name|first|last|full|email|e-mail|address|street|city|state|zip|postal|code|number|phone|mobile|fax|company|url|website|create|created|modified|last|of|the|and|or|by|at|in|on|to|additional|primary|associated)$/i;

/** A label of more than one word, not all of them generic ("Lifecycle Stage", "Job Title"). */
const manyWords = (label: string | undefined) =>
  label && /\S\s+\S/.test(label) && !label.split(/\s+/).every((w) => GENERIC.test(w)) ? label : undefined;

const SOURCES: readonly Source[] = [
  {
    tool: 'records_listApps',
    args: {},
    read: (r) =>
      named(
        list(r, 'apps').flatMap((a) => [str(a, 'name'), str(a, 'item_name')]),
        'app',
      ),
  },
  {
    tool: 'workspaces_getOrganizations',
    args: {},
    read: (r) =>
      list(r, 'organizations').flatMap((o) => [
        ...named([str(o, 'name')], 'organization'),
        ...named(
          list(o, 'spaces').map((s) => str(s, 'name')),
          'space',
        ),
      ]),
  },
  {
    tool: 'files_getTopLevelFolders',
    args: {},
    read: (r) =>
      named(
        list(r, 'folders').map((f) => str(f, 'Name')),
        'folder',
      ),
  },
  {
    tool: 'files_listChildren',
    args: { folder_id: 'home' },
    read: (r) =>
      named(
        list(r, 'items')
          .filter((i) => str(i, 'type')?.toLowerCase() === 'folder')
          .map((i) => str(i, 'Name')),
        'folder',
      ),
  },
  {
    tool: 'crm_getProperties',
    args: {},
    read: (r) =>
      named(
        list(r, 'properties').map((p) => manyWords(str(p, 'label'))),
        'property',
      ),
  },
];

/** The use case of a tool for a tenant (the executor's resolver). */
export type UseCaseOf = (tool: RegisteredTool, principal: Principal) => UseCase<unknown, unknown>;

/** How long a caller's names are kept, how many callers, and how long one read may take. */
export interface NamesLimits {
  readonly max: number;
  readonly ttlMs: number;
  /** A read that failed (a vendor down, not connected) is tried again after this long. */
  readonly failedTtlMs: number;
  readonly timeoutMs: number;
}
export const DEFAULT_NAMES_LIMITS: NamesLimits = {
  max: 2_000,
  ttlMs: 10 * 60_000,
  failedTtlMs: 60_000,
  timeoutMs: 3_000,
};

const within = <A>(p: Promise<A>, ms: number, fallback: A): Promise<A> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    timer.unref?.();
    p.then(
      (a) => {
        clearTimeout(timer);
        resolve(a);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });

/**
 * Each caller's names, read once per caller (principal and visible set) and kept `ttlMs`; at most `max`
 * callers (the least recently used dropped first). Only the sources among the caller's visible tools are
 * read, so a caller never searches by names of a group it may not read.
 */
export class TenantNamesCache {
  private readonly cache: LRUCache<string, { names: Promise<CompiledNames> }>;
  /** How many times names were read (for tests: once per caller, not once per search). */
  reads = 0;

  constructor(
    private readonly useCaseOf: UseCaseOf,
    private readonly limits: NamesLimits = DEFAULT_NAMES_LIMITS,
  ) {
    this.cache = new LRUCache({ max: limits.max, ttl: limits.ttlMs, ttlAutopurge: false });
  }

  of(principal: Principal, visible: readonly RegisteredTool[]): Promise<CompiledNames> {
    const sources = SOURCES.flatMap((s) => {
      const tool = visible.find((t) => t.name === s.tool);
      return tool ? [{ source: s, tool }] : [];
    });
    const groups = new Set(visible.map((t) => t.declaration.group));
    const vendors: TenantName[] = VENDOR_NAMES.filter(([, group]) => groups.has(group)).map(([text, group]) => ({
      text,
      kind: 'vendor',
      group,
    }));
    const key = [principal.tenant, principal.id, [...groups].join(','), sources.map((s) => s.tool.name).join(',')].join(
      '\u0000',
    );
    let held = this.cache.get(key);
    if (!held) {
      this.reads++;
      const read = Promise.all(sources.map(({ source, tool }) => this.read(source, tool, principal))).then((lists) =>
        lists.flat().slice(0, MAX_NAMES),
      );
      const entry = { names: read.then((names) => compileNames([...names, ...vendors])) };
      held = entry;
      this.cache.set(key, entry);
      // a read that found nothing (a vendor down, a timeout) is tried again sooner
      void read.then((names) => {
        if (!names.length && sources.length && this.cache.get(key) === entry)
          this.cache.set(key, entry, { ttl: this.limits.failedTtlMs });
      });
    }
    return held.names;
  }

  private read(source: Source, tool: RegisteredTool, principal: Principal): Promise<TenantName[]> {
    const decoded = tool.declaration.params.decode(source.args);
    if (E.isLeft(decoded)) return Promise.resolve([]);
    const run = async () => {
      const outcome = await this.useCaseOf(tool, principal).execute(decoded.right, {
        principal,
        requestId: 'tool-search-names',
      })();
      return E.isLeft(outcome) ? [] : source.read(outcome.right);
    };
    return within(run(), this.limits.timeoutMs, []);
  }
}
