import type * as t from 'io-ts';
import type { ServiceIdentifier } from 'inversify';
import type { TaskEither } from '../../domain/shared/fp.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { Principal } from '../../ports/authenticator.js';
import type { ItemLedger } from '../../ports/job-queue.js';
import { withoutDefaults } from './codecs.js';
import { renderPage, type Presentation } from './markdown.js';

export const GROUPS = ['files', 'records', 'workspaces', 'crm', 'skiptrace', 'web'] as const;
export type Group = (typeof GROUPS)[number];

/** Read, Write or Destructive, plus Idempotent: what the tool does to its target, and the permission it needs. */
export type ToolKind = 'Read' | 'Write' | 'Destructive';

export interface ToolAnnotations {
  readonly kind: ToolKind;
  readonly idempotent: boolean;
  /** The tool reaches a system outside the gateway (every vendor-backed tool does). Default true. */
  readonly openWorld?: boolean;
}

/** What a use case knows of the call besides its parameters. */
export interface CallContext {
  readonly principal: Principal;
  readonly requestId: string;
  /** The most characters the answer's text may have (the output budget and any max_chars), when known. */
  readonly budget?: number;
  /**
   * When the call's time runs out (epoch ms; the executor's time limit): work that can be stopped, such as
   * reading a document in the parser pool, stops then instead of running on after the caller got 504.
   */
  readonly deadline?: number;
  /** Set when the call runs as a long job (issue 40): its items' marks, progress, pacing and cancel. */
  readonly items?: ItemLedger;
}

export interface UseCase<P, R> {
  execute(params: P, context: CallContext): TaskEither<GatewayError, R>;
}

// The registry holds declarations of every parameter and result type; `any` lets a ToolDeclaration<X, Y>
// stand where the registry's element type is expected (function parameters are contravariant).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ToolDeclaration<P = any, R = any> {
  readonly group: Group;
  readonly name: string;
  readonly title: string;
  /** Written for a model: what it does, when to use it, what follows. */
  readonly description: string;
  readonly annotations: ToolAnnotations;
  readonly params: t.Type<P, unknown, unknown>;
  readonly useCase: ServiceIdentifier<UseCase<P, R>>;
  /**
   * What a model reads by default: a list presenter's Page (the text around a table and its rows, which the
   * output budget cuts at whole rows) or markdown.
   */
  readonly present: (result: R, params: P) => Presentation;
  /** The same as markdown (a Page rendered whole). */
  readonly text: (result: R, params: P) => string;
  /** The structured payload for `format=json`, when it differs from the use case's result. */
  readonly json?: (result: R, params: P) => unknown;
  /**
   * The structured payload's shape (what `json` returns, or the result itself), as an io-ts codec: the MCP
   * `outputSchema` and the OpenAPI response schema are derived from it, and tests check every payload
   * against it. An object, as MCP's structuredContent must be.
   */
  readonly result?: t.Mixed;
  /**
   * For list tools: the arguments of the call that fetches the rows after the first `shownRows` of this
   * answer, used when the output budget cuts the text table.
   */
  readonly continuation?: (params: P, result: R, shownRows: number) => Record<string, unknown> | undefined;
  /**
   * The tool `continuation` calls, when it is another tool (a list inside an answer that another tool
   * pages through, in the same order): its qualified name, such as `files_listChildren`.
   */
  readonly continuesWith?: string;
  /**
   * For list tools: the payload member that holds the rows `continuation` pages through, and the members
   * to set when a budget keeps only the first `shown` of them (counts, `has_more`). The structured answer is
   * then cut to the same rows as the text.
   */
  readonly rows?: {
    readonly key: string;
    readonly whenCut?: (shown: number) => Readonly<Record<string, unknown>>;
    /**
     * The payload member that pages, named as the parameter it feeds (`cursor`, `after`): on a cut page it
     * holds the continuation's value, the rows after those shown, so that following it alone loses no row.
     */
    readonly cursor?: string;
  };
}

/**
 * A tool as its module declares it: a ToolDeclaration whose text presenter may return a list as a Page
 * (markdown.ts: the text around a table and the table's rows) instead of markdown, so that the output
 * budget cuts whole rows and never parses text.
 */
export interface ToolSpec<P, R> extends Omit<ToolDeclaration<P, R>, 'text' | 'present'> {
  readonly text: (result: R, params: P) => Presentation;
}

/** A presentation as markdown: a Page rendered whole, or the text itself. */
export const markdownOf = (presentation: Presentation): string =>
  typeof presentation === 'string' ? presentation : renderPage(presentation);

/**
 * Declares a tool; everything else (routes, listing, schemas) is derived from this object. A continuation
 * leaves out the members that only repeat a declared default.
 */
export const defineTool = <P, R>(spec: ToolSpec<P, R>): ToolDeclaration<P, R> => {
  const present = spec.text;
  const declaration: ToolDeclaration<P, R> = {
    ...spec,
    present,
    text: (result, params) => markdownOf(present(result, params)),
  };
  const { continuation, params } = declaration;
  // another tool's arguments are not this tool's to trim
  if (!continuation || declaration.continuesWith || !hasDefaults(params)) return declaration;
  return {
    ...declaration,
    continuation: (p, result, shownRows) => {
      const next = continuation(p, result, shownRows);
      return next && withoutDefaults(params, next);
    },
  };
};

/**
 * The continuation of an answer paged by `offset`: the same call from the first row it did not show, while
 * rows remain of `total`.
 */
export const nextOffset = <A extends object>(args: A, offset: number, shown: number, total: number) =>
  offset + shown < total ? { ...args, offset: offset + shown } : undefined;

const hasDefaults = (codec: object): codec is { readonly defaults: Readonly<Record<string, unknown>> } =>
  'defaults' in codec && typeof codec.defaults === 'object' && codec.defaults !== null;

export const qualifiedName = (tool: Pick<ToolDeclaration, 'group' | 'name'>): string => `${tool.group}_${tool.name}`;

/** The permission a tool needs: `<group>:read`, `<group>:write` or `<group>:destructive`. */
export const requiredPermission = (tool: Pick<ToolDeclaration, 'group' | 'annotations'>): string =>
  `${tool.group}:${tool.annotations.kind.toLowerCase()}`;

export const isAllowed = (principal: Principal, permission: string): boolean => {
  const p = principal.permissions;
  if (p.has('*') || p.has(permission)) return true;
  const group = permission.slice(0, permission.indexOf(':'));
  return p.has(`${group}:*`);
};
