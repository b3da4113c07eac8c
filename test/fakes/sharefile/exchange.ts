import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { InMemoryItemStore } from '../../../adapters/outbound/memory/in-memory-item-store.js';
import type { InMemoryShareStore } from '../../../adapters/outbound/memory/in-memory-share-store.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import { exampleProblems } from './examples.js';

// What the ShareFile stand-in's routes share: the logged request, ShareFile's answers and error bodies, and
// the check of a request body against its published example.

export type Json = Record<string, unknown>;

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  /** The request target exactly as it came (the storage host's requests). */
  readonly raw?: string;
}

export interface Violation {
  readonly method: string;
  readonly path: string;
  readonly problems: readonly string[];
}

/** One API request on its way to a route: the path below /sf/v3, and the route's match of it. */
export interface Exchange {
  readonly res: ServerResponse;
  readonly logged: LoggedRequest;
  readonly body: unknown;
  readonly q: URLSearchParams;
  readonly match: RegExpExecArray;
}

/** One operation of the API: a method and a pattern over the path below /sf/v3. */
export interface SfRoute {
  readonly method: string;
  readonly path: RegExp;
  readonly handle: (ctx: StandInContext, x: Exchange) => void | Promise<void>;
}

/** The state and helpers the routes act on. */
export interface StandInContext {
  /** The stand-in's base address. */
  readonly url: string;
  /** The API base: {url}/sf/v3. */
  readonly api: string;
  readonly items: InMemoryItemStore;
  readonly shares: InMemoryShareStore;
  readonly flags: {
    readonly asyncTransfers: boolean;
    readonly redirectDownloads: boolean;
    /** Symbolic-link folders: folder id → the Location its `Children` answers 302 to. */
    readonly symlinks: ReadonlyMap<string, string>;
    /** Appended as it is to each upload ChunkUri's query (a storage host's own signed parameters). */
    readonly chunkUriSuffix: string;
    /** The name a copy is given in its target (ShareFile's renamed form); '' makes it not listed yet. */
    readonly copyLandsAs: string | undefined;
  };
  readonly resends: Json[];
  /** The current user's connected apps (`GET Apps`), and the ids revoked with `DELETE Apps(id)`. */
  readonly apps: { readonly connected: Json[]; readonly revoked: string[] };
  readonly reply: Responder;
}

export const bool = (v: string | null): boolean => v === 'true';

export class Responder {
  constructor(
    private readonly flags: { readonly odataErrors: boolean },
    private readonly violations: Violation[],
  ) {}

  send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, {
      ...(body !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      ...headers,
    });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  }

  /** ShareFile's error body: top-level, or as `{"odata.error": {...}}` when the stand-in is told so. */
  sfError(res: ServerResponse, status: number, code: string, message: string): void {
    this.send(
      res,
      status,
      this.flags.odataErrors
        ? { 'odata.error': { code, message: { lang: 'en-US', value: message } } }
        : { code, message: { lang: 'en-US', value: message }, reason: code },
    );
  }

  fromGateway(res: ServerResponse, e: GatewayError): void {
    const [status, code] =
      e._tag === 'NotFound'
        ? [404, 'NotFound']
        : e._tag === 'Conflict'
          ? [409, 'Conflict']
          : e._tag === 'Forbidden'
            ? [403, 'Forbidden']
            : [400, 'BadRequest'];
    this.sfError(res, status, code, e.message);
  }

  /** Runs an in-memory adapter call: its value through `ok`, its failure as ShareFile's error. */
  async run<A>(res: ServerResponse, task: () => Promise<E.Either<GatewayError, A>>, ok: (a: A) => void): Promise<void> {
    const r = await task();
    if (E.isLeft(r)) this.fromGateway(res, r.left);
    else ok(r.right);
  }

  /** Whether the body matches the published example; a departure is recorded. */
  /** Records a departure from what ShareFile documents. */
  violation(req: LoggedRequest, problem: string): void {
    this.violations.push({ method: req.method, path: req.path, problems: [problem] });
  }

  checked(req: LoggedRequest, exampleName: string): boolean {
    const problems = exampleProblems(req.body, exampleName);
    if (problems.length) this.violations.push({ method: req.method, path: req.path, problems });
    return problems.length === 0;
  }
}
