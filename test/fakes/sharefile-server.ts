import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { mountFileTransferRoutes } from '../../adapters/inbound/http/file-transfer-routes.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HmacLinkSigner } from '../../adapters/outbound/memory/hmac-link-signer.js';
import { InMemoryItemStore } from '../../adapters/outbound/memory/in-memory-item-store.js';
import { InMemoryShareStore } from '../../adapters/outbound/memory/in-memory-share-store.js';
import type { Clock } from '../../ports/clock.js';
import {
  Responder,
  type Json,
  type LoggedRequest,
  type SfRoute,
  type StandInContext,
  type Violation,
} from './sharefile/exchange.js';
import { childrenFeed, ITEM_ROUTES } from './sharefile/item-routes.js';
import { SHARE_ROUTES } from './sharefile/share-routes.js';
import { APP_ROUTES, defaultConnectedApps } from './sharefile/app-routes.js';
import { ShareFileAuth } from './sharefile/sharefile-auth.js';
import { TRANSFER_ROUTES } from './sharefile/transfer-routes.js';
import { standardUpload } from './sharefile/storage-host.js';
import { listenOnLoopback, loopbackUrl } from './listen.js';
import { StoredRefreshingToken } from '../../adapters/outbound/http/stored-refreshing-token.js';
import { environmentConnectionStore } from '../../adapters/outbound/http/scoped-token-store.js';
import { InMemoryTokenStore } from '../../adapters/outbound/memory/in-memory-token-store.js';
import { shareFileRefresher } from '../../adapters/outbound/sharefile/sharefile-connector.js';
import { ShareFileClient } from '../../adapters/outbound/sharefile/sharefile-client.js';
import { SHAREFILE_TEST_CLIENT } from './sharefile/sharefile-auth.js';

// A local stand-in for ShareFile's v3 OData API and its OAuth token endpoint. Its state lives in the
// in-memory adapters (so it behaves like the gateway's own fake), but it speaks ShareFile: paths such
// as /sf/v3/Items(id)/Children, `ShareFile.Api.Models.*` types, OData feeds with odata.count, and
// ShareFile's error bodies. Every JSON request body of an operation with a published example
// (test/fixtures/sharefile-examples) is checked against it: members must exist in the example
// (or in the SDK's documented extras) with the example's JSON type; departures are recorded in
// `violations` and answered 400. The routes live in sharefile/ (items, transfers, shares, auth).

export { EXAMPLES_DIR } from './sharefile/examples.js';
export type { LoggedRequest, Violation } from './sharefile/exchange.js';
export { SHAREFILE_TEST_CLIENT } from './sharefile/sharefile-auth.js';

/** A ShareFile API client against the stand-in, its tokens refreshed as production refreshes them. */
export const shareFileTestClient = (fake: { readonly apiBaseUrl: string; readonly url: string }, clock: Clock) =>
  new ShareFileClient({ apiBaseUrl: fake.apiBaseUrl, timeoutMs: 5000, tokens: shareFileTestTokens(fake.url, clock) });

/**
 * The access tokens a ShareFile client gets in production from SHAREFILE_REFRESH_TOKEN (composition/groups/
 * files-sharefile.ts): the stored-token refresher, against the stand-in's /oauth/token.
 */
export const shareFileTestTokens = (oauthBaseUrl: string, clock: Clock) =>
  new StoredRefreshingToken({
    vendor: 'ShareFile',
    store: environmentConnectionStore(
      new InMemoryTokenStore(),
      'sharefile',
      SHAREFILE_TEST_CLIENT.clientId,
      SHAREFILE_TEST_CLIENT.refreshToken,
    ),
    refresh: shareFileRefresher(
      { ...SHAREFILE_TEST_CLIENT, authorizeBaseUrl: oauthBaseUrl, timeoutMs: 5000, clock },
      oauthBaseUrl,
    ),
    clock,
    lockWaitMs: 5000,
  });

export interface ShareFileStandIn {
  readonly url: string;
  /** The API base the adapter is given: {url}/sf/v3. */
  readonly apiBaseUrl: string;
  readonly items: InMemoryItemStore;
  readonly shares: InMemoryShareStore;
  readonly requests: LoggedRequest[];
  readonly violations: Violation[];
  readonly resends: Json[];
  readonly issuedTokens: string[];
  /** The user's connected apps (`GET Apps`): the gateway's app, its id the test client id, and a sync app. */
  readonly connectedApps: Json[];
  /** The app ids revoked with `DELETE Apps(id)`. */
  readonly revokedApps: string[];
  /** A person approving the gateway's app at secure.sharefile.com: the code the redirect carries. */
  grantCode(): string;
  /** Answers the next API request with this status and body (ShareFile's error form by default). */
  failNext(status: number, body?: unknown, headers?: Record<string, string>): void;
  /** The next API request is carried out (a folder created) and then its connection reset instead of answered. */
  resetAfterNext: boolean;
  /** Appended as it is to each upload ChunkUri (e.g. `&h=a%20b:c/d=`): the storage host's own query. */
  chunkUriSuffix: string;
  /** The name a copy is given in its target (ShareFile's `<base> (n).<ext>`); '' makes it not listed yet. */
  copyLandsAs: string | undefined;
  /** Copies and moves answer with an AsyncOperation (as across storage zones). */
  asyncTransfers: boolean;
  /** Downloads answer 302 to the link even with redirect=false (a provider without DownloadSpecification). */
  redirectDownloads: boolean;
  /**
   * Symbolic-link folders: folder id → the Location its `Items(id)/Children` answers 302 to. The stand-in's
   * remote connector serves `/cifs/v3/Items(id)/Children` (ShareFile's provider for connectors) without a token.
   */
  readonly symlinks: Map<string, string>;
  /** Error bodies as `{"odata.error": {...}}` instead of the top-level form. */
  odataErrors: boolean;
  /** The storage host refuses Standard uploads with this message, at HTTP 200 (`ERROR: ...`, or JSON with fmt=json). */
  refuseUploads: string | undefined;
  close(): Promise<void>;
}

/** Every API operation, in the order they are tried. */
const ROUTES: readonly SfRoute[] = [...ITEM_ROUTES, ...TRANSFER_ROUTES, ...SHARE_ROUTES, ...APP_ROUTES];

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });

export const startShareFileServer = async (options: {
  clock: Clock;
  maxUploadBytes?: number;
}): Promise<ShareFileStandIn> => {
  const requests: LoggedRequest[] = [];
  const violations: Violation[] = [];
  const resends: Json[] = [];
  const issuedTokens: string[] = [];
  let failure: { status: number; body: unknown; headers: Record<string, string> } | undefined;
  const server: Server = createServer();
  await listenOnLoopback(server);
  const url = loopbackUrl(server);
  const signer = new HmacLinkSigner(url, 'sharefile-stand-in-secret');
  const items = new InMemoryItemStore({
    clock: options.clock,
    signer,
    ...(options.maxUploadBytes ? { maxUploadBytes: options.maxUploadBytes } : {}),
  });
  // Share pages (and a share's download address) on the stand-in's storage host, as its data plane serves them.
  const shares = new InMemoryShareStore({ clock: options.clock, items, baseUrl: url });
  const api = `${url}/sf/v3`;

  const state: ShareFileStandIn = {
    url,
    apiBaseUrl: api,
    items,
    shares,
    requests,
    violations,
    resends,
    issuedTokens,
    connectedApps: defaultConnectedApps(SHAREFILE_TEST_CLIENT.clientId),
    revokedApps: [],
    grantCode: () => auth.grantCode(),
    failNext: (status, body, headers = {}) => {
      failure = {
        status,
        body: body ?? { code: 'InternalServerError', message: { lang: 'en-US', value: 'Injected failure' } },
        headers,
      };
    },
    resetAfterNext: false,
    chunkUriSuffix: '',
    copyLandsAs: undefined,
    asyncTransfers: false,
    redirectDownloads: false,
    symlinks: new Map(),
    odataErrors: false,
    refuseUploads: undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const reply = new Responder(state, violations);
  const auth = new ShareFileAuth(issuedTokens, violations, reply);
  const ctx: StandInContext = {
    url,
    api,
    items,
    shares,
    flags: state,
    resends,
    apps: { connected: state.connectedApps, revoked: state.revokedApps },
    reply,
  };

  // ShareFile's storage hosts: the signed download and upload addresses its answers name (served by the
  // gateway's own memory-mode data plane over the stand-in's store).
  const dataPlane = new Hono();
  mountFileTransferRoutes(dataPlane, {
    uploads: items,
    shares,
    signer,
    clock: options.clock,
    authenticator: { authenticate: () => ({ reason: 'the stand-in signs nobody in' }) },
    tenant: 'default',
  });
  const storage = getRequestListener(dataPlane.fetch);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const u = new URL(req.url ?? '/', url);
    if (u.pathname.startsWith('/files/transfer/') || u.pathname.startsWith('/files/shares/')) {
      requests.push({
        method: req.method ?? 'GET',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body: undefined,
        raw: req.url ?? '',
      });
      if (await standardUpload(req, res, u, { items, signer, clock: options.clock, flags: state })) return;
      return storage(req, res);
    }
    const text = await readBody(req);
    let body: unknown = text;
    if ((req.headers['content-type'] ?? '').includes('application/json')) {
      try {
        body = JSON.parse(text);
      } catch {
        return reply.sfError(res, 400, 'BadRequest', 'Malformed JSON');
      }
    }
    const logged: LoggedRequest = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(u.pathname),
      query: u.searchParams,
      headers: req.headers,
      body,
    };
    requests.push(logged);

    if (u.pathname === '/oauth/token') return auth.token(res, logged, text);
    const connector = /^\/cifs\/v3\/Items\(([^)]+)\)\/Children$/.exec(logged.path);
    if (connector && logged.method === 'GET') return childrenFeed(ctx, connector[1]!, u.searchParams, res);
    if (!u.pathname.startsWith('/sf/v3/')) return reply.sfError(res, 404, 'NotFound', `No such resource ${u.pathname}`);
    if (!auth.admit(res, req.headers)) return;
    if (failure) {
      const f = failure;
      failure = undefined;
      return reply.send(res, f.status, f.body, f.headers);
    }

    if (state.resetAfterNext) {
      // the route runs and writes its answer, which never leaves: the socket is destroyed instead
      state.resetAfterNext = false;
      res.writeHead = () => res;
      res.end = () => {
        req.socket.destroy();
        return res;
      };
    }
    const p = logged.path.slice('/sf/v3'.length);
    for (const route of ROUTES) {
      if (route.method !== logged.method) continue;
      const match = route.path.exec(p);
      if (match) return route.handle(ctx, { res, logged, body, q: u.searchParams, match });
    }
    return reply.sfError(res, 404, 'NotFound', `No route for ${logged.method} ${p}`);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`stand-in failure: ${String(e)}`);
    });
  });

  return state;
};
