// What the page knows: the tool listing from GET /v1/tools, the caller's token and what it may call,
// and the tool on show. The token is kept in sessionStorage under TOKEN_KEY (this browser tab only).
import type { JsonSchema } from './schema.js';

/** The parts of a tool in GET /v1/tools that the page reads. */
export interface Tool {
  readonly name: string;
  readonly group: string;
  readonly title: string;
  readonly description: string;
  readonly permission: string;
  /** Read | Write | Destructive, then Idempotent. */
  readonly annotations?: readonly string[];
  readonly readOnlyHint?: boolean;
  readonly inputSchema: JsonSchema;
}

export const TOKEN_KEY = 'tool-gateway.token';

export const state = {
  tools: [] as Tool[],
  byName: new Map<string, Tool>(),
  groups: [] as string[],
  token: null as string | null,
  /** The tools the token may call; null before GET /v1/tools?callable=true answers. */
  callable: null as Set<string> | null,
  current: null as string | null,
  busy: false,
  /** The bodies "Try it" starts with (GET docs/try-examples.json): calls that work on the demo data. */
  examples: {} as Readonly<Record<string, unknown>>,
  /** Tools whose id only an earlier call gives, and that call. */
  needsEarlierCall: {} as Readonly<Record<string, string>>,
};

/** The gateway's API lives beside the page, so the page also works behind a path prefix. */
const apiBase = new URL('.', document.baseURI);

export const api = (path: string): string => new URL(path, apiBase).toString();

export const shortName = (tool: Tool): string => tool.name.slice(tool.group.length + 1);

export const kindOf = (tool: Tool): string =>
  (tool.annotations && tool.annotations[0]) || (tool.readOnlyHint ? 'Read' : 'Write');

export const mayCall = (tool: Tool): boolean => !state.callable || state.callable.has(tool.name);
