import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HmacLinkSigner } from '../../adapters/outbound/memory/hmac-link-signer.js';
import { InMemoryItemStore } from '../../adapters/outbound/memory/in-memory-item-store.js';
import { InMemoryShareStore } from '../../adapters/outbound/memory/in-memory-share-store.js';
import type { Item } from '../../domain/files/item.js';
import { parseFilter, parseOrderBy } from '../../domain/files/query.js';
import type { Share } from '../../domain/files/share.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { E } from '../../domain/shared/fp.js';
import type { Clock } from '../../ports/clock.js';
import { listenOnLoopback, loopbackUrl } from './listen.js';

// A local stand-in for ShareFile's v3 OData API and its OAuth token endpoint. Its state lives in the
// in-memory adapters (so it behaves like the gateway's own fake), but it speaks ShareFile: paths such
// as /sf/v3/Items(id)/Children, `ShareFile.Api.Models.*` types, OData feeds with odata.count, and
// ShareFile's error bodies. Every JSON request body of an operation with a published example
// (test/files/fixtures/sharefile-examples) is checked against it: members must exist in the example
// (or in the SDK's documented extras) with the example's JSON type; departures are recorded in
// `violations` and answered 400.

type Json = Record<string, unknown>;

export const EXAMPLES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../files/fixtures/sharefile-examples',
);
export const SHAREFILE_TEST_CLIENT = {
  clientId: 'sf-client-id',
  clientSecret: 'sf-client-secret',
  refreshToken: 'sf-refresh-token-1',
};

const example = (name: string): Json => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, name), 'utf8')) as Json;

/** Request-body members the SDK documents beyond the example (vendors.md section 1.2). */
const EXTRAS: Record<string, Json> = {
  'itemsUpload2.request.json': {
    BatchId: '',
    BatchLast: false,
    CanResume: false,
    StartOver: false,
    Unzip: false,
    Overwrite: false,
    Title: '',
    Details: '',
    IsSend: false,
    SendGuid: '',
    Notify: false,
    ThreadCount: 0,
    ClientCreatedDate: '',
    ClientModifiedDate: '',
    BaseFileId: '',
  },
  'createShare-send.request.json': { IsViewOnly: false },
  'updateShare.request.json': { MaxDownloads: 0, RequireUserInfo: false, IsViewOnly: false },
};

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export interface Violation {
  readonly method: string;
  readonly path: string;
  readonly problems: readonly string[];
}

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
  /** Answers the next API request with this status and body (ShareFile's error form by default). */
  failNext(status: number, body?: unknown, headers?: Record<string, string>): void;
  /** Copies and moves answer with an AsyncOperation (as across storage zones). */
  asyncTransfers: boolean;
  /** Error bodies as `{"odata.error": {...}}` instead of the top-level form. */
  odataErrors: boolean;
  close(): Promise<void>;
}

const typeOfJson = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

const checkAgainst = (body: unknown, shape: unknown, at: string, problems: string[]): void => {
  if (typeOfJson(body) !== typeOfJson(shape)) {
    problems.push(`${at || 'body'}: ${typeOfJson(body)} where the example has ${typeOfJson(shape)}`);
    return;
  }
  if (Array.isArray(body) && Array.isArray(shape) && shape.length) {
    body.forEach((b, i) => checkAgainst(b, shape[0], `${at}[${i}]`, problems));
    return;
  }
  if (typeOfJson(body) === 'object') {
    for (const [k, v] of Object.entries(body as Json)) {
      if (!(k in (shape as Json))) problems.push(`${at ? `${at}.` : ''}${k}: not a member of the documented request`);
      else checkAgainst(v, (shape as Json)[k], `${at ? `${at}.` : ''}${k}`, problems);
    }
  }
};

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });

const bool = (v: string | null): boolean => v === 'true';

export const startShareFileServer = async (options: {
  clock: Clock;
  maxUploadBytes?: number;
}): Promise<ShareFileStandIn> => {
  const requests: LoggedRequest[] = [];
  const violations: Violation[] = [];
  const resends: Json[] = [];
  const issuedTokens: string[] = [];
  let failure: { status: number; body: unknown; headers: Record<string, string> } | undefined;
  let tokenCounter = 0;
  let refreshToken = SHAREFILE_TEST_CLIENT.refreshToken;
  const server: Server = createServer();
  await listenOnLoopback(server);
  const url = loopbackUrl(server);
  const signer = new HmacLinkSigner(url, 'sharefile-stand-in-secret');
  const items = new InMemoryItemStore({
    clock: options.clock,
    signer,
    ...(options.maxUploadBytes ? { maxUploadBytes: options.maxUploadBytes } : {}),
  });
  const shares = new InMemoryShareStore({ clock: options.clock, items, baseUrl: `${url}/share` });
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
    failNext: (status, body, headers = {}) => {
      failure = {
        status,
        body: body ?? { code: 'InternalServerError', message: { lang: 'en-US', value: 'Injected failure' } },
        headers,
      };
    },
    asyncTransfers: false,
    odataErrors: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const sfItem = (i: Item): Json => ({
    'odata.metadata': `${api}/$metadata#Items/ShareFile.Api.Models.${i.type}@Element`,
    'odata.type': `ShareFile.Api.Models.${i.type}`,
    Id: i.Id,
    url: `${api}/Items(${i.Id})`,
    Name: i.Name,
    FileName: i.FileName,
    CreationDate: i.CreationDate,
    ProgenyEditDate: i.ProgenyEditDate,
    Description: i.Description ?? '',
    ExpirationDate: i.ExpirationDate ?? '9999-12-31T23:59:59.9999999Z',
    Path: i.Path,
    FileSizeBytes: i.FileSizeBytes,
    ...(i.type === 'Folder'
      ? { FileCount: i.FileCount, Info: { 'odata.type': 'ShareFile.Api.Models.ItemInfo', ...i.Info } }
      : { Hash: i.MD5, HasMultipleVersions: (i.VersionCount ?? 1) > 1 }),
    StreamID: i.StreamID,
    Creator: { Id: i.CreatorId, FirstName: i.CreatorFirstName, LastName: i.CreatorLastName },
    ...(i.Parent
      ? { Parent: { 'odata.type': 'ShareFile.Api.Models.Item', Id: i.Parent.Id, url: `${api}/Items(${i.Parent.Id})` } }
      : {}),
    ...(i.Children ? { Children: i.Children.map(sfItem) } : {}),
  });

  const sfShare = (s: Share, expand: string[]): Json => ({
    'odata.type': 'ShareFile.Api.Models.Share',
    Id: s.Id,
    AliasID: s.Id,
    url: `${api}/Shares(${s.Id})`,
    ShareType: s.ShareType,
    Title: s.Title,
    HasSentMessage: s.HasSentMessage,
    RequireLogin: s.RequireLogin,
    RequireUserInfo: s.RequireUserInfo,
    IsViewOnly: s.IsViewOnly,
    IsArchived: false,
    UsesStreamIDs: false,
    ShareAccessLevel: s.ShareAccessLevel,
    ShareSubType: 'None',
    CreationDate: s.CreationDate,
    ExpirationDate: s.ExpirationDate,
    MaxDownloads: s.MaxDownloads,
    TotalDownloads: s.TotalDownloads,
    Uri: s.Uri,
    ...(s.ParentId ? { Parent: { Id: s.ParentId } } : {}),
    ...(expand.includes('Items') ? { Items: (s.Items ?? []).map(sfItem) } : {}),
    ...(expand.includes('Recipients')
      ? { Recipients: (s.Recipients ?? []).map((r) => ({ User: { Email: r.email } })) }
      : {}),
  });

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      ...(body !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      ...headers,
    });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const sfError = (res: ServerResponse, status: number, code: string, message: string) =>
    send(
      res,
      status,
      state.odataErrors
        ? { 'odata.error': { code, message: { lang: 'en-US', value: message } } }
        : { code, message: { lang: 'en-US', value: message }, reason: code },
    );
  const fromGateway = (res: ServerResponse, e: GatewayError) => {
    const [status, code] =
      e._tag === 'NotFound'
        ? [404, 'NotFound']
        : e._tag === 'Conflict'
          ? [409, 'Conflict']
          : e._tag === 'Forbidden'
            ? [403, 'Forbidden']
            : [400, 'BadRequest'];
    sfError(res, status, code, e.message);
  };
  const run = async <A>(res: ServerResponse, task: () => Promise<E.Either<GatewayError, A>>, ok: (a: A) => void) => {
    const r = await task();
    if (E.isLeft(r)) fromGateway(res, r.left);
    else ok(r.right);
  };

  const checked = (req: LoggedRequest, exampleName: string): boolean => {
    const problems: string[] = [];
    checkAgainst(req.body, { ...example(exampleName), ...(EXTRAS[exampleName] ?? {}) }, '', problems);
    if (problems.length) violations.push({ method: req.method, path: req.path, problems });
    return problems.length === 0;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const u = new URL(req.url ?? '/', url);
    const text = await readBody(req);
    let body: unknown = text;
    if ((req.headers['content-type'] ?? '').includes('application/json')) {
      try {
        body = JSON.parse(text);
      } catch {
        return sfError(res, 400, 'BadRequest', 'Malformed JSON');
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

    if (u.pathname === '/oauth/token') {
      const problems: string[] = [];
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
        problems.push('the token request must be form-encoded');
      const form = new URLSearchParams(text);
      const keys = [...form.keys()].sort();
      if (keys.join(',') !== 'client_id,client_secret,grant_type,refresh_token')
        problems.push(`form fields ${keys.join(',')}`);
      if (problems.length) {
        violations.push({ method: logged.method, path: logged.path, problems });
        return send(res, 400, { error: 'invalid_request', error_description: problems.join('; ') });
      }
      if (
        form.get('grant_type') !== 'refresh_token' ||
        form.get('refresh_token') !== refreshToken ||
        form.get('client_id') !== SHAREFILE_TEST_CLIENT.clientId ||
        form.get('client_secret') !== SHAREFILE_TEST_CLIENT.clientSecret
      ) {
        return send(res, 400, {
          error: 'invalid_grant',
          error_description: 'The refresh token is invalid or expired.',
        });
      }
      const token = `sf-access-${++tokenCounter}`;
      issuedTokens.push(token);
      refreshToken = `sf-refresh-token-${tokenCounter + 1}`;
      return send(res, 200, {
        access_token: token,
        refresh_token: refreshToken,
        token_type: 'bearer',
        expires_in: 28800,
        subdomain: 'harborline',
        apicp: 'sf-api.com',
        appcp: 'sharefile.com',
      });
    }

    if (!u.pathname.startsWith('/sf/v3/')) return sfError(res, 404, 'NotFound', `No such resource ${u.pathname}`);
    const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (!auth || !(issuedTokens.includes(auth[1]!) || auth[1] === 'sf-static-token')) {
      return send(
        res,
        401,
        { code: 'Unauthorized', message: { lang: 'en-US', value: 'Authorization failed' } },
        { 'www-authenticate': 'Bearer' },
      );
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return send(res, f.status, f.body, f.headers);
    }

    const p = logged.path.slice('/sf/v3'.length);
    const q = u.searchParams;
    const m = (re: RegExp) => re.exec(p);
    let match: RegExpExecArray | null;

    // Items
    if (logged.method === 'GET' && (match = m(/^\/Items\(([^)]+)\)$/))) {
      return run(
        res,
        items.get(match[1]!, {
          includeDeleted: bool(q.get('includeDeleted')),
          includeChildren: (q.get('$expand') ?? '').includes('Children'),
        }),
        (i) => send(res, 200, sfItem(i)),
      );
    }
    if (logged.method === 'GET' && (match = m(/^\/Items\(([^)]+)\)\/Children$/))) {
      const id = match[1]!;
      if (id === 'top')
        return run(res, items.topLevel(), (list) =>
          send(res, 200, { 'odata.count': list.length, value: list.map(sfItem) }),
        );
      const filter = q.get('$filter') ? parseFilter(q.get('$filter')!) : E.right(undefined);
      const order = q.get('$orderby') ? parseOrderBy(q.get('$orderby')!) : E.right([]);
      if (E.isLeft(filter) || E.isLeft(order))
        return sfError(res, 400, 'BadRequest', 'The OData expression is not supported.');
      const top = Number(q.get('$top') ?? '100');
      const skip = Number(q.get('$skip') ?? '0');
      return run(
        res,
        items.children(id, {
          top,
          skip,
          includeDeleted: bool(q.get('includeDeleted')),
          orderBy: order.right,
          ...(filter.right ? { filter: filter.right } : {}),
        }),
        (page) =>
          send(res, 200, {
            'odata.metadata': `${api}/$metadata#Items`,
            'odata.count': page.totalCount,
            value: page.items.map(sfItem),
            ...(skip + page.items.length < page.totalCount
              ? { 'odata.nextLink': `${api}/Items(${id})/Children?$skip=${skip + page.items.length}&$top=${top}` }
              : {}),
          }),
      );
    }
    if (logged.method === 'POST' && (match = m(/^\/Items(?:\(([^)]+)\))?\/Folder$/))) {
      if (!checked(logged, 'createFolder.request.json'))
        return sfError(res, 400, 'BadRequest', 'Request body does not match Folder');
      const b = body as Json;
      return run(
        res,
        items.createFolder(match[1] ?? 'allshared', {
          name: String(b['Name'] ?? ''),
          ...(typeof b['Description'] === 'string' ? { description: b['Description'] } : {}),
          overwrite: bool(q.get('overwrite')),
        }),
        (i) => send(res, 200, sfItem(i)),
      );
    }
    if (logged.method === 'PATCH' && (match = m(/^\/Items\(([^)]+)\)$/))) {
      if (!checked(logged, 'updateItem.request.json'))
        return sfError(res, 400, 'BadRequest', 'Request body does not match Item');
      const b = body as Json;
      const id = match[1]!;
      const parent = (b['Parent'] as Json | undefined)?.['Id'];
      if (typeof parent === 'string') {
        if (state.asyncTransfers)
          return send(res, 202, {
            'odata.type': 'ShareFile.Api.Models.AsyncOperation',
            Id: 'aop-1',
            Operation: 'Move',
            State: 'Scheduled',
            Source: { Id: id },
            Target: { Id: parent },
          });
        return run(res, items.move(id, parent, bool(q.get('overwrite'))), (o) =>
          o.kind === 'done' ? send(res, 200, sfItem(o.item)) : send(res, 202, {}),
        );
      }
      return run(
        res,
        items.update(id, {
          ...(typeof b['Name'] === 'string' ? { name: b['Name'] } : {}),
          ...(typeof b['Description'] === 'string' ? { description: b['Description'] } : {}),
          ...(typeof b['ExpirationDate'] === 'string' ? { expirationDate: b['ExpirationDate'] } : {}),
        }),
        (i) => send(res, 200, sfItem(i)),
      );
    }
    if (logged.method === 'DELETE' && (match = m(/^\/Items\(([^)]+)\)$/))) {
      return run(
        res,
        items.delete(match[1]!, { singleVersion: bool(q.get('singleversion')), forceSync: bool(q.get('forceSync')) }),
        () => send(res, 204),
      );
    }
    if (logged.method === 'POST' && (match = m(/^\/Items\(([^)]+)\)\/Copy$/))) {
      const target = q.get('targetid') ?? '';
      if (state.asyncTransfers)
        return send(res, 202, {
          'odata.type': 'ShareFile.Api.Models.AsyncOperation',
          Id: 'aop-2',
          Operation: 'Copy',
          State: 'Scheduled',
          Source: { Id: match[1] },
          Target: { Id: target },
        });
      return run(res, items.copy(match[1]!, target, bool(q.get('overwrite'))), (o) =>
        o.kind === 'done' ? send(res, 200, sfItem(o.item)) : send(res, 202, {}),
      );
    }
    if (logged.method === 'POST' && p === '/Items/AdvancedSimpleSearch') {
      if (!checked(logged, 'advancedSimpleSearch.request.json'))
        return sfError(res, 400, 'BadRequest', 'Request body does not match SimpleSearchQuery');
      const b = body as { Query: Json; Paging: Json };
      const parent = String(b.Query['ParentID'] ?? '');
      const type = String(b.Query['ItemType'] ?? '');
      return run(
        res,
        items.search({
          query: String(b.Query['SearchQuery'] ?? ''),
          scope: parent === 'home' ? 'personal' : parent === 'allshared' ? 'shared' : 'all',
          ...(parent && parent !== 'home' && parent !== 'allshared' ? { folderId: parent } : {}),
          ...(type ? { itemTypes: [type === 'Folder' ? 'Folder' : 'File'] } : {}),
          ...(b.Query['CreatorID'] ? { creatorId: String(b.Query['CreatorID']) } : {}),
          ...(b.Query['CreateStartDate'] ? { createdFrom: String(b.Query['CreateStartDate']) } : {}),
          ...(b.Query['CreateEndDate'] ? { createdTo: String(b.Query['CreateEndDate']) } : {}),
          namesOnly: b.Query['ItemNameOnly'] === true,
          top: Number(b.Paging['Count'] ?? 50),
        }),
        (r) =>
          send(res, 200, {
            'odata.type': 'ShareFile.Api.Models.SearchResults',
            PartialResults: r.partialResults,
            TimedOut: r.timedOut,
            Results: r.results.map((x) => ({
              ...x,
              ItemID: x.Id,
              ItemType: x.ItemType === 'file' ? 'File' : 'Folder',
              'odata.type': 'ShareFile.Api.Models.SearchResult',
              MatchedIn: undefined,
            })),
          }),
      );
    }
    if (logged.method === 'GET' && (match = m(/^\/Items\(([^)]+)\)\/Download$/))) {
      if (q.get('redirect') !== 'false') return send(res, 302, undefined, { location: `${url}/download/${match[1]}` });
      return run(res, items.downloadLink(match[1]!, { includeAllVersions: bool(q.get('includeAllVersions')) }), (d) =>
        send(res, 200, {
          'odata.type': 'ShareFile.Api.Models.DownloadSpecification',
          DownloadToken: d.DownloadToken,
          DownloadUrl: d.DownloadUrl,
        }),
      );
    }
    if (logged.method === 'POST' && (match = m(/^\/Items\(([^)]+)\)\/Upload2$/))) {
      if (!checked(logged, 'itemsUpload2.request.json'))
        return sfError(res, 400, 'BadRequest', 'Request body does not match UploadRequestParams');
      const b = body as Json;
      return run(
        res,
        items.uploadLink(match[1]!, {
          fileName: String(b['FileName'] ?? ''),
          ...(typeof b['FileSize'] === 'number' ? { fileSize: b['FileSize'] } : {}),
          canResume: b['CanResume'] !== false,
          startOver: b['StartOver'] === true,
          overwrite: b['Overwrite'] === true,
          notify: b['Notify'] === true,
        }),
        (s) =>
          send(res, 200, {
            'odata.type': 'ShareFile.Api.Models.UploadSpecification',
            ...s,
            ExpiresAt: undefined,
            ChunkSizeBytes: undefined,
          }),
      );
    }

    // Shares
    const expand = (q.get('$expand') ?? '').split(',').filter(Boolean);
    if (logged.method === 'GET' && (match = m(/^\/Shares\(([^)]+)\)$/))) {
      return run(
        res,
        shares.get(match[1]!, {
          includeItems: expand.includes('Items'),
          includeRecipients: expand.includes('Recipients'),
        }),
        (s) => send(res, 200, sfShare(s, expand)),
      );
    }
    if (logged.method === 'GET' && p === '/Shares') {
      const typeFilter = /^ShareType eq '(Send|Request)'$/.exec(q.get('$filter') ?? '');
      if (q.get('$filter') && !typeFilter) return sfError(res, 400, 'BadRequest', 'Unsupported $filter');
      return run(
        res,
        shares.list({
          ...(typeFilter ? { shareType: typeFilter[1] as 'Send' | 'Request' } : {}),
          top: Number(q.get('$top') ?? '50'),
          skip: Number(q.get('$skip') ?? '0'),
          includeExpired: bool(q.get('includeExpired')),
        }),
        (page) => send(res, 200, { 'odata.count': page.totalCount, value: page.shares.map((s) => sfShare(s, [])) }),
      );
    }
    if (logged.method === 'POST' && p === '/Shares') {
      const b = body as Json;
      const name = b['ShareType'] === 'Request' ? 'createShare-request.request.json' : 'createShare-send.request.json';
      if (!checked(logged, name)) return sfError(res, 400, 'BadRequest', 'Request body does not match Share');
      return run(
        res,
        shares.create({
          shareType: b['ShareType'] === 'Request' ? 'Request' : 'Send',
          itemIds: ((b['Items'] as Json[] | undefined) ?? []).map((i) => String(i['Id'])),
          ...((b['Parent'] as Json | undefined)?.['Id'] ? { parentId: String((b['Parent'] as Json)['Id']) } : {}),
          ...(typeof b['Title'] === 'string' ? { title: b['Title'] } : {}),
          ...(typeof b['ExpirationDate'] === 'string' ? { expirationDate: b['ExpirationDate'] } : {}),
          maxDownloads: typeof b['MaxDownloads'] === 'number' ? b['MaxDownloads'] : -1,
          requireLogin: b['RequireLogin'] === true,
          requireUserInfo: b['RequireUserInfo'] === true,
          isViewOnly: b['IsViewOnly'] === true,
          notifyOnDownload: false,
          notifyOnUpload: false,
          recipients: [],
        }),
        (s) => send(res, 200, sfShare(s, [])),
      );
    }
    if (logged.method === 'PATCH' && (match = m(/^\/Shares\(([^)]+)\)$/))) {
      if (!checked(logged, 'updateShare.request.json'))
        return sfError(res, 400, 'BadRequest', 'Request body does not match Share');
      const b = body as Json;
      return run(
        res,
        shares.update(match[1]!, {
          ...(typeof b['Title'] === 'string' ? { title: b['Title'] } : {}),
          ...(typeof b['ExpirationDate'] === 'string' ? { expirationDate: b['ExpirationDate'] } : {}),
          ...(typeof b['MaxDownloads'] === 'number' ? { maxDownloads: b['MaxDownloads'] } : {}),
          ...(typeof b['RequireLogin'] === 'boolean' ? { requireLogin: b['RequireLogin'] } : {}),
          ...(typeof b['RequireUserInfo'] === 'boolean' ? { requireUserInfo: b['RequireUserInfo'] } : {}),
          ...(typeof b['IsViewOnly'] === 'boolean' ? { isViewOnly: b['IsViewOnly'] } : {}),
        }),
        (s) => send(res, 200, sfShare(s, [])),
      );
    }
    if (logged.method === 'DELETE' && (match = m(/^\/Shares\(([^)]+)\)$/))) {
      return run(res, shares.delete(match[1]!), () => send(res, 204));
    }
    if (logged.method === 'POST' && p === '/Shares/Resend') {
      if (!checked(logged, 'sharesResend.request.json'))
        return sfError(res, 400, 'BadRequest', 'Request body does not match ShareResendParams');
      const b = body as Json;
      return run(res, shares.get(String(b['ShareId']), { includeItems: false, includeRecipients: false }), (s) => {
        resends.push(b);
        shares.markSent(s.Id, (b['Recipients'] as string[]) ?? []);
        send(res, 200, sfShare({ ...s, HasSentMessage: true }, []));
      });
    }
    return sfError(res, 404, 'NotFound', `No route for ${logged.method} ${p}`);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`stand-in failure: ${String(e)}`);
    });
  });

  return state;
};
