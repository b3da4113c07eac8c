import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SystemClock } from '../../adapters/outbound/system-clock.js';
import type { Clock } from '../../ports/clock.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { TaskEither } from '../../domain/shared/fp.js';
import { listenOnLoopback, loopbackUrl } from './listen.js';
import {
  podioError,
  TOKEN_PATH,
  type PodioIssuedToken,
  type PodioLoggedRequest,
  type PodioReply,
  type PodioRouteHandler,
  type PodioRouteRequest,
} from './podio/podio-protocol.js';
import { PodioTokens, type PodioTokenOptions } from './podio/podio-tokens.js';

// A local stand-in for Podio's API: the OAuth token endpoint (POST /oauth/token/v2, JSON body, the app,
// password and refresh_token grants; podio/podio-tokens.ts), `Authorization: OAuth2 <token>` on every other
// call (401 invalid_token / expired_token as Podio sends them), Podio's error body, and routes that tests (or
// the stand-ins of the records and workspaces endpoints) register with `route`. Requests the stand-in
// cannot place, or that break Podio's conventions, are recorded in `violations`; tests assert it empty.

export {
  podioError,
  type PodioIssuedToken,
  type PodioLoggedRequest,
  type PodioReply,
  type PodioRouteHandler,
  type PodioRouteRequest,
} from './podio/podio-protocol.js';

export interface PodioServerOptions extends PodioTokenOptions {
  readonly clock?: Clock;
}

interface Route {
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handler: PodioRouteHandler;
}

interface Canned extends PodioReply {
  readonly tokenEndpoint: boolean;
}

export class PodioServer {
  readonly requests: PodioLoggedRequest[] = [];
  readonly violations: string[] = [];
  readonly issuedTokens: PodioIssuedToken[];
  readonly clientId: string;
  readonly clientSecret: string;

  readonly #server: Server;
  readonly #clock: Clock;
  readonly #tokens: PodioTokens;
  /** A user approving the gateway's app at podio.com: the code the redirect carries. */
  readonly grantCode: (userId: number, redirectUri: string) => string;
  readonly #routes: Route[] = [];
  #canned: Canned[] = [];
  #resetsAfter = 0;

  private constructor(server: Server, options: PodioServerOptions) {
    this.#server = server;
    this.#clock = options.clock ?? new SystemClock();
    this.#tokens = new PodioTokens(this.#clock, options);
    this.grantCode = (userId, redirectUri) => this.#tokens.grantCode(userId, redirectUri);
    this.issuedTokens = this.#tokens.issued;
    this.clientId = this.#tokens.clientId;
    this.clientSecret = this.#tokens.clientSecret;
  }

  /** Seconds an access token issued from now on lives. */
  get expiresIn(): number {
    return this.#tokens.expiresIn;
  }

  set expiresIn(seconds: number) {
    this.#tokens.expiresIn = seconds;
  }

  /** Whether each refresh answers with a new refresh token (and forgets the old one). */
  get rotateRefreshToken(): boolean {
    return this.#tokens.rotateRefreshToken;
  }

  set rotateRefreshToken(rotate: boolean) {
    this.#tokens.rotateRefreshToken = rotate;
  }

  static async start(options: PodioServerOptions = {}): Promise<PodioServer> {
    const server = createServer();
    const fake = new PodioServer(server, options);
    server.on('request', (req, res) => fake.#receive(req, res));
    await listenOnLoopback(server);
    return fake;
  }

  get baseUrl(): string {
    return loopbackUrl(this.#server);
  }

  /** Answers `method` on a path template (`/space/:space_id/member/`); the trailing slash counts, as Podio documents the paths. */
  route(method: string, template: string, handler: PodioRouteHandler): this {
    const names: string[] = [];
    const source = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-z_]+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    this.#routes.push({ method, template, pattern: new RegExp(`^${source}$`), names, handler });
    return this;
  }

  /** The next API call (not the token endpoint) is answered with this instead; a string body is sent as it is. */
  failNext(status: number, body?: unknown, headers: Record<string, string> = {}): void {
    this.#canned.push({ status, body, headers, tokenEndpoint: false });
  }

  /** The next API call is carried out (an item created) and then its connection reset instead of answered. */
  resetAfterNext(): void {
    this.#resetsAfter++;
  }

  /** The next token request is answered with this instead. */
  failNextToken(status: number, body?: unknown, headers: Record<string, string> = {}): void {
    this.#canned.push({ status, body, headers, tokenEndpoint: true });
  }

  /** Every access token issued so far expires now (the next call gets 401 invalid_token / expired_token). */
  expireAccessTokens(): void {
    this.#tokens.expireAll();
  }

  revokeRefreshToken(refreshToken: string): void {
    this.#tokens.revokeRefreshToken(refreshToken);
  }

  /** An access token for a user, without the token endpoint (for adapter tests that use a static token). */
  issueToken(userId: number): string {
    return this.#tokens.issue('test', { type: 'user', id: userId }, undefined).access_token as string;
  }

  tokenRequests(): PodioLoggedRequest[] {
    return this.requests.filter((r) => r.path === TOKEN_PATH);
  }

  apiRequests(): PodioLoggedRequest[] {
    return this.requests.filter((r) => r.path !== TOKEN_PATH);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.#server.close((e) => (e ? reject(e) : resolve())));
  }

  #receive(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.#reply(req, res, chunks).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`stand-in failure: ${String(e)}`);
      });
    });
  }

  async #reply(req: IncomingMessage, res: ServerResponse, chunks: Buffer[]): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    const bytes = Buffer.concat(chunks);
    const raw = bytes.toString('utf8');
    const entry: PodioLoggedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      headers: req.headers,
      body: raw,
      status: 0,
    };
    this.requests.push(entry);
    let reply: PodioReply;
    try {
      reply = await this.#answer(entry, raw, bytes);
    } catch (error) {
      this.violations.push(`${entry.method} ${entry.path}: the stand-in threw ${String(error)}`);
      reply = { status: 500, body: podioError('server_error', 'The stand-in failed', entry) };
    }
    entry.status = reply.status;
    if (this.#resetsAfter > 0 && entry.path !== TOKEN_PATH) {
      this.#resetsAfter--;
      req.socket.destroy();
      return;
    }
    const headers: Record<string, string> = { ...(reply.headers ?? {}) };
    let payload = '';
    if (reply.body !== undefined && reply.status !== 204) {
      payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      headers['content-type'] ??= typeof reply.body === 'string' ? 'text/html' : 'application/json; charset=utf-8';
    }
    res.writeHead(reply.status, headers);
    res.end(payload);
  }

  #answer(entry: PodioLoggedRequest, raw: string, bytes: Buffer): PodioReply | Promise<PodioReply> {
    let body: unknown;
    // Multipart bodies (file uploads) reach the route as { multipart: <Content-Type>, bytes }.
    const multipart = String(entry.headers['content-type'] ?? '').startsWith('multipart/form-data');
    if (multipart) body = { multipart: String(entry.headers['content-type']), bytes };
    else if (raw !== '') {
      if (!String(entry.headers['content-type'] ?? '').includes('application/json'))
        this.violations.push(`${entry.method} ${entry.path}: a body without Content-Type application/json`);
      try {
        body = JSON.parse(raw);
      } catch {
        this.violations.push(`${entry.method} ${entry.path}: a body that is not JSON`);
        return { status: 400, body: podioError('invalid_value', 'The body is not valid JSON', entry) };
      }
    }
    (entry as { body: unknown }).body = body;
    if (entry.path === TOKEN_PATH && entry.method === 'POST') {
      const canned = this.#takeCanned(true);
      return canned ?? this.#tokens.token(body, this.violations);
    }

    const auth = String(entry.headers['authorization'] ?? '');
    const m = /^OAuth2 (\S+)$/.exec(auth);
    if (!m) {
      this.violations.push(
        `${entry.method} ${entry.path}: Authorization must be "OAuth2 <token>", got "${auth.split(' ')[0] ?? ''}"`,
      );
      return { status: 401, body: podioError('unauthorized', 'No authentication provided', entry) };
    }
    const issued = this.#tokens.access(m[1]!);
    if (!issued) return { status: 401, body: podioError('invalid_token', 'invalid_token', entry) };
    if (this.#clock.now().getTime() >= issued.expiresAt)
      return { status: 401, body: podioError('invalid_token', 'expired_token', entry) };

    const route = this.#routes.find((r) => r.method === entry.method && r.pattern.test(entry.path));
    if (!route) {
      this.violations.push(`${entry.method} ${entry.path}: no such operation in the stand-in`);
      return { status: 404, body: podioError('not_found', 'No matching operation could be found.', entry) };
    }
    const canned = this.#takeCanned(false);
    if (canned) return canned;
    const match = route.pattern.exec(entry.path)!;
    const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(match[i + 1] ?? '')]));
    return route.handler({ method: entry.method, path: entry.path, params, query: entry.query, body, as: issued.ref });
  }

  #takeCanned(tokenEndpoint: boolean): PodioReply | undefined {
    const i = this.#canned.findIndex((c) => c.tokenEndpoint === tokenEndpoint);
    if (i < 0) return undefined;
    const [c] = this.#canned.splice(i, 1);
    return { status: c!.status, body: c!.body, headers: c!.headers };
  }
}

const ERROR_STATUS: Record<GatewayError['_tag'], [number, string]> = {
  InvalidInput: [400, 'invalid_value'],
  NotFound: [404, 'not_found'],
  Conflict: [409, 'conflict'],
  Forbidden: [403, 'forbidden'],
  RateLimited: [420, 'rate_limit'],
  UpstreamFailure: [500, 'unavailable'],
  NotConnected: [401, 'invalid_grant'],
  Unavailable: [503, 'unavailable'],
  TooComplex: [400, 'invalid_value'],
};

/** Runs an in-memory adapter call for a route: its value through `ok`, its failure as Podio's error body. */
export const answerWith = async <A>(
  req: PodioRouteRequest,
  te: TaskEither<GatewayError, A>,
  ok: (a: A) => PodioReply | Promise<PodioReply>,
): Promise<PodioReply> => {
  const r = await te();
  if (r._tag === 'Right') return ok(r.right);
  const [status, error] = ERROR_STATUS[r.left._tag];
  return { status, body: podioError(error, r.left.message, req) };
};

/** Records a request that departs from Podio's documentation and answers it with Podio's 400. */
export const refuse = (server: PodioServer, req: PodioRouteRequest, problem: string): PodioReply => {
  server.violations.push(`${req.method} ${req.path}: ${problem}`);
  return { status: 400, body: podioError('invalid_value', problem, req) };
};
