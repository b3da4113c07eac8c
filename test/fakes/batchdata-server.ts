import { randomUUID } from 'node:crypto';
import { listenOnLoopback, loopbackUrl } from './listen.js';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { demoProperties, type DemoProperty } from '../../adapters/outbound/memory/demo/skiptrace.js';
import { normaliseStreet, normaliseZip, US_STATES } from '../../domain/skiptrace/address.js';

// A local stand-in for BatchData's V1 `POST /api/v1/property/skip-trace`, over the demo properties.
// It is strict about what it is sent (and records every deviation) and answers in V1's shape: a miss
// looks exactly like BatchData's published non-US example (no `results.meta`).

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  /** The parsed JSON body, or undefined when it was not JSON. */
  readonly body: unknown;
}

interface CannedResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

type Json = Record<string, unknown>;

export const SKIP_TRACE_PATH = '/api/v1/property/skip-trace';
const MAX_ITEMS = 100;

const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);
const isText = (u: unknown): u is string => typeof u === 'string' && u.trim().length > 0;

/** Why one item of `requests` is not one of the documented forms, or undefined when it is. */
const itemProblem = (item: unknown, at: string): string | undefined => {
  if (!isObject(item)) return `${at} must be an object`;
  const keys = Object.keys(item);
  const unknownKeys = (allowed: readonly string[]) => keys.filter((k) => !allowed.includes(k));
  const nulls = keys.filter((k) => item[k] === null || item[k] === '');
  if (nulls.length) return `${at} has empty members: ${nulls.join(', ')}`;

  if ('propertyAddress' in item) {
    const extra = unknownKeys(['propertyAddress', 'name', 'mailingAddress', 'requestId']);
    if (extra.length) return `${at} has unknown members: ${extra.join(', ')}`;
    const a = item.propertyAddress;
    if (!isObject(a)) return `${at}.propertyAddress must be an object`;
    const extraA = Object.keys(a).filter((k) => !['street', 'city', 'state', 'zip'].includes(k));
    if (extraA.length) return `${at}.propertyAddress has unknown members: ${extraA.join(', ')}`;
    for (const k of Object.keys(a)) if (!isText(a[k])) return `${at}.propertyAddress.${k} must be a non-empty string`;
    if (!isText(a.street)) return `${at}.propertyAddress.street is required`;
    if (!(isText(a.zip) || (isText(a.city) && isText(a.state)))) {
      return `${at}.propertyAddress needs street with zip, or street with city and state`;
    }
    return undefined;
  }
  if ('apn' in item) {
    if (!isText(item.apn)) return `${at}.apn must be a non-empty string`;
    if ('countyFipsCode' in item) {
      const extra = unknownKeys(['apn', 'countyFipsCode', 'requestId']);
      if (extra.length) return `${at} has unknown members: ${extra.join(', ')}`;
      return typeof item.countyFipsCode === 'string' && /^\d{5}$/.test(item.countyFipsCode)
        ? undefined
        : `${at}.countyFipsCode must be five digits`;
    }
    const extra = unknownKeys(['apn', 'county', 'state', 'requestId']);
    if (extra.length) return `${at} has unknown members: ${extra.join(', ')}`;
    if (!isText(item.county)) return `${at}.county (or countyFipsCode) is required with apn`;
    if ('state' in item && !(typeof item.state === 'string' && /^[A-Z]{2}$/.test(item.state)))
      return `${at}.state must be a two-letter code`;
    return undefined;
  }
  return `${at} needs propertyAddress, or apn with county or countyFipsCode`;
};

const sameApn = (a: string, b: string): boolean =>
  a.replace(/[^0-9a-z]/gi, '').toLowerCase() === b.replace(/[^0-9a-z]/gi, '').toLowerCase();
const countyName = (c: string): string =>
  c
    .trim()
    .toLowerCase()
    .replace(/\s+county$/, '');

const findProperty = (properties: readonly DemoProperty[], item: Json): DemoProperty | undefined => {
  if (isObject(item.propertyAddress)) {
    const a = item.propertyAddress as { street: string; city?: string; state?: string; zip?: string };
    if (a.state && !US_STATES.has(a.state.toUpperCase())) return undefined;
    const street = normaliseStreet(a.street);
    return properties.find((p) => {
      if (normaliseStreet(p.address.street) !== street) return false;
      if (a.state && a.state.toUpperCase() !== p.address.state) return false;
      if (a.zip) return normaliseZip(a.zip) === p.address.zip;
      return a.city?.trim().toLowerCase() === p.address.city.toLowerCase();
    });
  }
  const apn = String(item.apn);
  return properties.find((p) => {
    if (!sameApn(p.apn, apn)) return false;
    if (typeof item.countyFipsCode === 'string') return p.countyFipsCode === item.countyFipsCode;
    if (typeof item.state === 'string' && item.state !== p.address.state) return false;
    return countyName(String(item.county)) === countyName(p.county);
  });
};

const statusBody = (code: number, text: string, message: string) => ({ status: { code, text, message } });

export interface BatchDataServerOptions {
  /** The API token the stand-in accepts. */
  readonly token?: string;
  readonly properties?: readonly DemoProperty[];
}

export class BatchDataServer {
  /** Every request received, in order. */
  readonly requests: LoggedRequest[] = [];
  /** Every way a request departed from what BatchData documents; tests assert this stays empty. */
  readonly requestViolations: string[] = [];
  readonly token: string;
  #canned: CannedResponse[] = [];
  readonly #properties: readonly DemoProperty[];
  readonly #server: Server;

  private constructor(server: Server, options: BatchDataServerOptions) {
    this.#server = server;
    this.token = options.token ?? 'bd-test-token';
    this.#properties = options.properties ?? demoProperties;
  }

  static async start(options: BatchDataServerOptions = {}): Promise<BatchDataServer> {
    const server = createServer();
    const fake = new BatchDataServer(server, options);
    server.on('request', (req, res) => fake.#handle(req, res));
    await listenOnLoopback(server);
    return fake;
  }

  get baseUrl(): string {
    return loopbackUrl(this.#server);
  }

  /** The next request gets this answer instead (a string body is sent as is, as text/html unless headers say otherwise). */
  failNext(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.#canned.push({ status, body, headers });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.#server.close((e) => (e ? reject(e) : resolve())));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      this.requests.push({ method: req.method ?? '', path, headers: req.headers, rawBody, body });
      const [status, answer, headers] = this.#answer(req, path, rawBody, body);
      const canned = this.#canned.shift();
      if (canned) {
        const text = typeof canned.body === 'string' ? canned.body : JSON.stringify(canned.body);
        const type = typeof canned.body === 'string' ? 'text/html; charset=utf-8' : 'application/json';
        res.writeHead(canned.status, { 'Content-Type': type, ...canned.headers });
        res.end(text);
        return;
      }
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(answer));
    });
  }

  #violation(message: string): string {
    this.requestViolations.push(message);
    return message;
  }

  #answer(
    req: IncomingMessage,
    path: string,
    rawBody: string,
    body: unknown,
  ): [number, unknown, Record<string, string>?] {
    if (req.method !== 'POST' || path !== SKIP_TRACE_PATH) {
      this.#violation(`${req.method} ${path}: only POST ${SKIP_TRACE_PATH} is served`);
      return [404, statusBody(404, 'Not Found', 'Route not found.')];
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      this.#violation(
        req.headers.authorization ? 'Authorization carries the wrong token' : 'Authorization header missing',
      );
      return [401, statusBody(401, 'Unauthorized', 'Invalid token.')];
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      this.#violation(`Content-Type is "${req.headers['content-type'] ?? ''}", not application/json`);
    if (!/application\/json/i.test(req.headers.accept ?? ''))
      this.#violation(`Accept is "${req.headers.accept ?? ''}", not application/json`);

    const bad = (message: string): [number, unknown] => [400, statusBody(400, 'Bad Request', this.#violation(message))];
    if (body === undefined) return bad(rawBody ? 'Body is not valid JSON' : 'Body is empty');
    if (!isObject(body)) return bad('Body must be a JSON object');
    const extra = Object.keys(body).filter((k) => k !== 'requests' && k !== 'options');
    if (extra.length) return bad(`Body has unknown members: ${extra.join(', ')}`);
    if ('options' in body && !isObject(body.options)) return bad('options must be an object');
    const items = body.requests;
    if (!Array.isArray(items)) return bad('requests must be an array');
    if (items.length < 1 || items.length > MAX_ITEMS)
      return bad(`requests must hold 1 to ${MAX_ITEMS} items, not ${items.length}`);
    for (const [i, item] of items.entries()) {
      const problem = itemProblem(item, `requests[${i}]`);
      if (problem) return bad(problem);
    }
    return [200, this.#skipTrace(items as Json[])];
  }

  #skipTrace(items: readonly Json[]): unknown {
    const startTime = new Date();
    let matched = 0;
    const persons = items.flatMap((item) => {
      const echo = 'requestId' in item ? { requestId: item.requestId } : {};
      const property = findProperty(this.#properties, item);
      if (!property) {
        return [
          {
            ...(isObject(item.propertyAddress) ? { propertyAddress: item.propertyAddress } : {}),
            ...echo,
            meta: { matched: false, error: false },
          },
        ];
      }
      matched += 1;
      return property.owners.slice(0, 1).map((o) => ({
        ...o,
        propertyAddress: { ...property.address },
        ...echo,
        meta: { matched: true, error: false },
      }));
    });
    if (matched === 0) return { status: { code: 200, text: 'OK' }, results: { persons } };
    const endTime = new Date();
    return {
      status: { code: 200, text: 'OK' },
      results: {
        persons,
        meta: {
          apiVersion: 'v1',
          requestId: randomUUID(),
          performance: {
            startTime: startTime.toISOString(),
            endTime: endTime.toISOString(),
            totalRequestTime: endTime.getTime() - startTime.getTime(),
          },
          results: {
            requestCount: items.length,
            matchCount: matched,
            noMatchCount: items.length - matched,
            errorCount: 0,
          },
        },
      },
    };
  }
}
