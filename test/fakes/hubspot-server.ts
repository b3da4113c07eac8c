import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SystemClock } from '../../adapters/outbound/system-clock.js';
import { E } from '../../domain/shared/fp.js';
import type { Clock } from '../../ports/clock.js';
import { listProperties, postCompany, putDefaultAssociation, searchCompanies } from './hubspot/company-routes.js';
import {
  deleteContact,
  getContact,
  listContacts,
  patchContact,
  postContact,
  searchContacts,
} from './hubspot/contact-routes.js';
import { CrmState } from './hubspot/crm-state.js';
import { errorBody, MISSING_CREDENTIALS } from './hubspot/hubspot-bodies.js';
import { HubSpotTokens, type IssuedToken, type OAuthAppSettings, type TokenOptions } from './hubspot/hubspot-tokens.js';
import {
  checkRequest,
  responseViolation,
  type Checked,
  type LoggedRequest,
  type Reply,
  type SpecViolation,
} from './hubspot/request-check.js';
import { specs, type Json, type Operation } from './hubspot/spec-catalogue.js';
import { listenOnLoopback, loopbackUrl } from './listen.js';

// A local stand-in for HubSpot's CRM contacts API (v3 and 2026-03 paths), companies search/create,
// property definitions and the OAuth v1 token endpoint. Every request is checked against HubSpot's
// own OpenAPI documents (test/fixtures/hubspot-openapi, unchanged copies of shared/vendor-specs/hubspot; or
// HUBSPOT_SPECS_DIR); a departure answers 400 and is recorded in `specViolations`. Answers of documented
// operations are checked against the documents too. The parts live in hubspot/: the documents
// (spec-catalogue), the checks (request-check), tokens, the CRM state and the contact and company routes.

export { rateLimitBody } from './hubspot/hubspot-bodies.js';
export { HUBSPOT_TEST_TOKEN, type IssuedToken, type OAuthAppSettings } from './hubspot/hubspot-tokens.js';
export type { LoggedRequest, SpecViolation } from './hubspot/request-check.js';
export { SPECS_DIR } from './hubspot/spec-catalogue.js';

export interface HubSpotServerOptions extends TokenOptions {
  readonly clock?: Clock;
}

interface Canned {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

export class HubSpotServer {
  /** Every request received, in order, with the status it was answered with. */
  readonly requests: LoggedRequest[] = [];
  /** Every request that departed from HubSpot's documents (or the hand-written checks); tests assert this stays empty. */
  readonly specViolations: SpecViolation[] = [];
  /** Every answer of a documented operation that departed from the documents' response schemas. */
  readonly responseViolations: SpecViolation[] = [];
  /** Every OAuth token pair the token endpoint issued. */
  readonly issuedTokens: IssuedToken[];
  readonly oauth: OAuthAppSettings;
  readonly hubId: number;
  /** What `GET /account-info/v3/details` answers besides the portal id; tests may change it. */
  account = { uiDomain: 'app.hubspot.com', timeZone: 'US/Eastern', dataHostingLocation: 'na1' };
  /**
   * Rate-limit headers HubSpot sends with every answer (X-HubSpot-RateLimit-Daily-Remaining and the like);
   * none unless a test sets them. A canned answer's own headers win.
   */
  rateLimitHeaders: Record<string, string> = {};

  readonly #server: Server;
  readonly #operations: Operation[];
  readonly #tokens: HubSpotTokens;
  readonly #crm: CrmState;
  #canned: Canned[] = [];
  #resets = 0;
  #resetsAfter = 0;

  private constructor(server: Server, options: HubSpotServerOptions) {
    this.#server = server;
    const clock = options.clock ?? new SystemClock();
    this.#operations = [...specs().operations, ...specs().handWritten()];
    this.#tokens = new HubSpotTokens(clock, options);
    this.#crm = new CrmState(clock);
    this.issuedTokens = this.#tokens.issued;
    this.oauth = this.#tokens.oauth;
    this.hubId = this.#tokens.hubId;
  }

  static async start(options: HubSpotServerOptions = {}): Promise<HubSpotServer> {
    const server = createServer();
    const fake = new HubSpotServer(server, options);
    server.on('request', (req, res) => fake.#receive(req, res));
    await listenOnLoopback(server);
    return fake;
  }

  get baseUrl(): string {
    return loopbackUrl(this.#server);
  }

  /** The next request that passes the document check gets this answer instead (a string body is sent as it is). */
  failNext(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.#canned.push({ status, body, headers });
  }

  /** The next request is read and then its connection reset, with no answer (what a client sees as ECONNRESET). */
  resetNext(): void {
    this.#resets++;
  }

  /**
   * The next request is carried out (a contact created) and then its connection reset instead of answered:
   * what a client sees as ECONNRESET after its write was made.
   */
  resetAfterNext(): void {
    this.#resetsAfter++;
  }

  /** Drops the canned answers not used yet. */
  clearFailures(): void {
    this.#canned = [];
  }

  /** Forgets a refresh token, as HubSpot does when the app is uninstalled. */
  revokeRefreshToken(token: string): void {
    this.#tokens.revokeRefreshToken(token);
  }

  /** A person approving the app on app.hubspot.com: the code the authorize page would redirect with. */
  grantCode(p: { redirectUri: string; codeChallenge?: string }): string {
    return this.#tokens.grantCode(p);
  }

  isLiveRefreshToken(token: string): boolean {
    return this.#tokens.isLiveRefreshToken(token);
  }

  /** Changes the OAuth settings for later refreshes. */
  configureOAuth(settings: Partial<Pick<OAuthAppSettings, 'expiresIn' | 'rotateRefreshToken'>>): void {
    Object.assign(this.oauth, settings);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.#server.close((e) => (e ? reject(e) : resolve())));
  }

  #receive(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const query: Record<string, string[]> = {};
      for (const [k, v] of url.searchParams) (query[k] ??= []).push(v);
      const raw = Buffer.concat(chunks).toString('utf8');
      const entry: LoggedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query,
        headers: req.headers,
        body: raw,
        status: 0,
      };
      this.requests.push(entry);
      if (this.#resets > 0) {
        this.#resets--;
        req.socket.destroy();
        return;
      }
      const reply = this.#answer(entry, raw);
      entry.status = reply.status;
      if (this.#resetsAfter > 0) {
        this.#resetsAfter--;
        req.socket.destroy();
        return;
      }
      const headers: Record<string, string> = { ...this.rateLimitHeaders, ...(reply.headers ?? {}) };
      let payload = '';
      if (reply.body !== undefined && reply.status !== 204) {
        payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        headers['content-type'] ??= typeof reply.body === 'string' ? 'text/html' : 'application/json;charset=utf-8';
      }
      res.writeHead(reply.status, headers);
      res.end(payload);
    });
  }

  #answer(entry: LoggedRequest, raw: string): Reply {
    const violation = (problems: string[], op?: Operation, status = 400): Reply => {
      this.specViolations.push({ method: entry.method, path: entry.path, operation: op?.key, problems });
      const body =
        status === 401
          ? errorBody(MISSING_CREDENTIALS, 'INVALID_AUTHENTICATION')
          : status === 404
            ? errorBody(`No operation at ${entry.method} ${entry.path}.`, 'OBJECT_NOT_FOUND')
            : errorBody(`Invalid input: ${problems.join('; ')}`, 'VALIDATION_ERROR', {
                errors: problems.map((message) => ({ message })),
              });
      return { status, body };
    };

    const op = this.#operations.find((o) => o.method === entry.method && o.pattern.test(entry.path));
    if (!op) return violation([`no operation ${entry.method} ${entry.path} in HubSpot's documents`], undefined, 404);
    entry.operation = op.handWritten ? `hand-written ${op.template}` : op.key;

    const checked = checkRequest(op, entry, raw);
    if (E.isLeft(checked)) {
      const auth = checked.left.some((p) => p.startsWith('Authorization'));
      return violation(checked.left, op, auth ? 401 : 400);
    }
    (entry as { body: unknown }).body = checked.right.body;

    const canned = this.#canned.shift();
    if (canned) return { status: canned.status, body: canned.body, headers: canned.headers };

    if (op.authenticated) {
      const refused = this.#tokens.authorise(op, entry.headers['authorization'] ?? '');
      if (refused) return refused;
    }
    const reply = this.#route(checked.right);
    if (reply.status >= 200 && reply.status < 300 && Object.keys(op.responses).length) {
      const departed = responseViolation(op, entry, reply);
      if (departed) this.responseViolations.push(departed);
    }
    return reply;
  }

  #route(c: Checked): Reply {
    const { op, params } = c;
    const crm = this.#crm;
    const t = op.template.replace(/^\/crm\/v3\/objects|^\/crm\/objects\/2026-03/, '{objects}');
    switch (`${op.method} ${t}`) {
      case 'POST /oauth/v1/token':
      case 'POST /oauth/2026-03/token':
        return this.#tokens.token(c.body as Record<string, string>);
      case 'GET /account-info/v3/details':
        return {
          status: 200,
          body: {
            portalId: this.hubId,
            accountType: 'STANDARD',
            companyCurrency: 'USD',
            additionalCurrencies: [],
            utcOffset: '-05:00',
            utcOffsetMilliseconds: -18_000_000,
            ...this.account,
          },
        };
      case 'POST /oauth/2026-03/token/revoke':
        return this.#tokens.revoke(c.body as Record<string, string>);
      case 'POST {objects}/contacts':
        return postContact(crm, c.body as Json);
      case 'POST {objects}/contacts/search':
        return searchContacts(crm, c.body as Json);
      case 'GET {objects}/contacts':
        return listContacts(crm, c.query);
      case 'GET {objects}/contacts/{contactId}':
        return getContact(crm, params['contactId']!, c.query);
      case 'PATCH {objects}/contacts/{contactId}':
        return patchContact(crm, params['contactId']!, c.query, c.body as Json);
      case 'DELETE {objects}/contacts/{contactId}':
        return deleteContact(crm, params['contactId']!);
      case 'POST {objects}/companies':
        return postCompany(crm, c.body as Json);
      case 'POST {objects}/companies/search':
        return searchCompanies(crm, c.body as Json);
      case 'GET /crm/v3/properties/{objectType}':
        return listProperties(params['objectType']!);
      case 'PUT /crm/v4/objects/{fromObjectType}/{fromObjectId}/associations/default/{toObjectType}/{toObjectId}':
      case 'PUT {objects}/{fromObjectType}/{fromObjectId}/associations/default/{toObjectType}/{toObjectId}':
        return putDefaultAssociation(crm, params);
      default:
        return {
          status: 501,
          body: errorBody(`The local HubSpot stand-in does not implement ${op.key}.`, 'NOT_IMPLEMENTED'),
        };
    }
  }
}
