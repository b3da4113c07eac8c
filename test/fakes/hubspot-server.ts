import { randomUUID } from 'node:crypto';
import { listenOnLoopback, loopbackUrl } from './listen.js';
import { existsSync, readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { companyPropertyDefinitions, contactPropertyDefinitions } from '../../adapters/outbound/memory/demo/crm.js';
import { SystemClock } from '../../adapters/outbound/system-clock.js';
import {
  archiveContact,
  newContact,
  PRIMARY_COMPANY_PROPERTY,
  projectContact,
  READ_ONLY_PROPERTIES,
  updateContact,
  type Company,
  type Contact,
  type PropertyValues,
} from '../../domain/crm/contact.js';
import { validatePropertyValues, type PropertyDefinition } from '../../domain/crm/property.js';
import {
  compareContacts,
  matchesFilterGroups,
  matchesQuery,
  SEARCH_LIMITS,
  validateSearch,
  type ContactSearch,
  type FilterGroup,
  type Sort,
} from '../../domain/crm/search.js';
import { E } from '../../domain/shared/fp.js';
import type { Clock } from '../../ports/clock.js';

// A local stand-in for HubSpot's CRM contacts API (v3 and 2026-03 paths), companies search/create,
// property definitions and the OAuth v1 token endpoint. Every request is checked against HubSpot's
// own OpenAPI documents (test/fixtures/hubspot-openapi, unchanged copies of shared/vendor-specs/hubspot; or HUBSPOT_SPECS_DIR); a departure answers 400 and is recorded
// in `specViolations`. Answers of documented operations are checked against the documents too.

type Json = Record<string, unknown>;
type Schema = Json;

export const SPECS_DIR =
  process.env['HUBSPOT_SPECS_DIR'] ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/hubspot-openapi');

/** The private-app token the stand-in accepts unless told otherwise. */
export const HUBSPOT_TEST_TOKEN = 'pat-na1-11111111-2222-3333-4444-555555555555';

const SPEC_FILES = [
  { id: 'crm-contacts-v3', file: 'crm-contacts-v3/contacts.json' },
  { id: 'crm-contacts-2026-03', file: 'crm-contacts-2026-03/contacts.json' },
  { id: 'crm-associations-v4', file: 'crm-associations-v4/associations.json' },
  { id: 'auth-oauth-v1', file: 'auth-oauth-v1/oauth.json' },
] as const;

const OBJECT_PREFIXES: Record<string, string> = {
  '/crm/v3/objects': 'crm-contacts-v3',
  '/crm/objects/2026-03': 'crm-contacts-2026-03',
};

export interface SpecViolation {
  readonly method: string;
  readonly path: string;
  /** The document and path template the request was checked against, when one matched. */
  readonly operation?: string;
  readonly problems: readonly string[];
}

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, readonly string[]>>;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  status: number;
}

export interface IssuedToken {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
  readonly issuedAt: Date;
}

export interface OAuthAppSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Refresh tokens the stand-in accepts at first. */
  readonly refreshTokens: readonly string[];
  /** Seconds an issued access token lives (HubSpot: 1800). */
  readonly expiresIn: number;
  /** Answer each refresh with a new refresh token (and forget the old one). */
  readonly rotateRefreshToken: boolean;
}

export interface HubSpotServerOptions {
  readonly clock?: Clock;
  /** Private-app tokens accepted for as long as the server runs. */
  readonly accessTokens?: readonly string[];
  readonly oauth?: Partial<OAuthAppSettings>;
  /** Scopes every token holds; every scope when absent. */
  readonly grantedScopes?: readonly string[];
  readonly hubId?: number;
}

interface Canned {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** An operation a request was matched to: from a document, or hand-written for endpoints none of the copied documents hold. */
interface Operation {
  readonly key: string;
  readonly docId: string;
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly pathParams: readonly string[];
  readonly parameters: readonly Json[];
  readonly requestBody?: Json;
  readonly responses: Json;
  /** Alternatives, each a list of OAuth scopes that together suffice; empty when no token is needed. */
  readonly scopes: readonly (readonly string[])[];
  readonly authenticated: boolean;
  readonly handWritten: boolean;
}

interface Checked {
  readonly op: Operation;
  readonly params: Record<string, string>;
  readonly query: Record<string, string[]>;
  readonly body: unknown;
}

const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);

const byName = (defs: readonly PropertyDefinition[]) => new Map(defs.map((d) => [d.name, d]));

/** Deep copy with every `#/components/...` reference made absolute to the document's `$id`. */
const absoluteRefs = (node: unknown, docId: string): unknown => {
  if (Array.isArray(node)) return node.map((n) => absoluteRefs(n, docId));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node))
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${docId}${v}` : absoluteRefs(v, docId);
  return out;
};

/**
 * Deep copy in which every object schema that lists `properties` and says nothing about other
 * members refuses them: HubSpot rejects unknown JSON members ("Unrecognized field ..."), the
 * documents just do not say so.
 */
const closeObjects = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node))
    out[k] =
      k === 'properties' && isObject(v)
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, closeObjects(s)]))
        : closeObjects(v);
  const composed = 'oneOf' in node || 'anyOf' in node || 'allOf' in node;
  if (isObject(node['properties']) && !('additionalProperties' in node) && !composed)
    out['additionalProperties'] = false;
  return out;
};

/** HubSpot answers null for requested properties that are unset; the documents type them as plain strings. */
const nullableStrings = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(nullableStrings);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = nullableStrings(v);
  if (out['type'] === 'string') out['nullable'] = true;
  return out;
};

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

const newAjv = (options: ConstructorParameters<typeof Ajv>[0] = {}): Ajv => {
  const ajv = new Ajv({ strict: false, allErrors: true, ...options });
  addFormats(ajv);
  return ajv;
};

/** Ajv's errors in words; `wrapped` drops the `/v` of a value checked as `{ v: value }`. */
const describe = (errors: ValidateFunction['errors'], where: string, wrapped = false): string[] =>
  (errors ?? []).map((e) => {
    const at = `${where}${wrapped ? e.instancePath.replace(/^\/v/, '') : e.instancePath}`;
    if (e.keyword === 'additionalProperties')
      return `${at} has a member the document does not declare: "${String(e.params['additionalProperty'])}"`;
    return `${at} ${e.message ?? 'is invalid'}${e.keyword === 'enum' ? ` (${JSON.stringify(e.params['allowedValues'])})` : ''}`;
  });

/** The documents, their operations and compiled validators; built once and shared by every server. */
class SpecCatalogue {
  readonly operations: Operation[] = [];
  readonly docs = new Map<string, Json>();
  readonly #requests = newAjv();
  readonly #values = newAjv({ coerceTypes: 'array' });
  readonly #responses = newAjv();
  readonly #cache = new Map<string, ValidateFunction>();

  constructor(dir: string) {
    for (const { id, file } of SPEC_FILES) {
      const where = path.join(dir, file);
      if (!existsSync(where))
        throw new Error(
          `HubSpot's OpenAPI document ${where} is missing: the stand-in validates against it. Set HUBSPOT_SPECS_DIR to the vendor-specs/hubspot folder.`,
        );
      const doc = JSON.parse(readFileSync(where, 'utf8')) as Json;
      this.docs.set(id, doc);
      const schemas = (doc['components'] as Json | undefined)?.['schemas'] ?? {};
      this.#requests.addSchema({
        $id: `${id}.json`,
        components: { schemas: closeObjects(absoluteRefs(schemas, `${id}.json`)) },
      });
      this.#responses.addSchema({
        $id: `${id}.json`,
        components: { schemas: nullableStrings(absoluteRefs(schemas, `${id}.json`)) },
      });
      for (const [template, item] of Object.entries(doc['paths'] as Record<string, Json>)) {
        for (const [method, raw] of Object.entries(item)) {
          if (!isObject(raw) || method === 'parameters') continue;
          this.operations.push(this.#operation(id, method.toUpperCase(), template, raw, false));
        }
      }
    }
    // Literal path templates win over templated ones (`/contacts/search` over `/contacts/{contactId}`).
    this.operations.sort((a, b) => a.pathParams.length - b.pathParams.length);
  }

  /**
   * Operations whose official documents are not in vendor-specs (companies search and create, the
   * properties API): a minimal hand-written check. The companies endpoints are assumed to take the
   * same request schemas as the contacts ones (HubSpot generates every CRM object API from one template).
   */
  handWritten(): Operation[] {
    const ops: Operation[] = [];
    for (const [prefix, docId] of Object.entries(OBJECT_PREFIXES)) {
      const ref = (name: string) => ({
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
      });
      const created = {
        '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/SimplePublicObject' } } } },
      };
      const found = {
        '200': {
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/CollectionResponseWithTotalSimplePublicObject' },
            },
          },
        },
      };
      ops.push(
        this.#operation(
          docId,
          'POST',
          `${prefix}/companies/search`,
          {
            requestBody: ref('PublicObjectSearchRequest'),
            responses: found,
            security: [{ oauth2: ['crm.objects.companies.read'] }],
          },
          true,
        ),
        this.#operation(
          docId,
          'POST',
          `${prefix}/companies`,
          {
            requestBody: ref('SimplePublicObjectInputForCreate'),
            responses: created,
            security: [{ oauth2: ['crm.objects.companies.write'] }],
          },
          true,
        ),
      );
    }
    const query = (name: string, schema: Json) => ({ name, in: 'query', required: false, schema });
    ops.push(
      this.#operation(
        'crm-contacts-v3',
        'GET',
        '/crm/v3/properties/{objectType}',
        {
          parameters: [
            {
              name: 'objectType',
              in: 'path',
              required: true,
              schema: { type: 'string', enum: ['contacts', 'companies', '0-1', '0-2'] },
            },
            query('archived', { type: 'boolean' }),
            query('properties', { type: 'string' }),
            query('dataSensitivity', { type: 'string' }),
            query('locale', { type: 'string' }),
          ],
          responses: {},
          security: [{ oauth2: ['crm.schemas.contacts.read'] }],
        },
        true,
      ),
    );
    return ops;
  }

  #operation(docId: string, method: string, template: string, raw: Json, handWritten: boolean): Operation {
    const pathParams: string[] = [];
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
        pathParams.push(name);
        return '([^/]+)';
      })}$`,
    );
    const security = Array.isArray(raw['security']) ? (raw['security'] as Json[]) : [];
    const scopes = security.map((s) => (Array.isArray(s['oauth2']) ? (s['oauth2'] as string[]) : []));
    return {
      key: `${docId} ${method} ${template}`,
      docId,
      method,
      template,
      pattern,
      pathParams,
      parameters: Array.isArray(raw['parameters']) ? (raw['parameters'] as Json[]) : [],
      requestBody: isObject(raw['requestBody']) ? raw['requestBody'] : undefined,
      responses: isObject(raw['responses']) ? raw['responses'] : {},
      scopes,
      authenticated: security.length > 0,
      handWritten,
    };
  }

  validator(kind: 'request' | 'response' | 'value', docId: string, schema: Json): ValidateFunction {
    const key = `${kind} ${docId} ${JSON.stringify(schema)}`;
    let v = this.#cache.get(key);
    if (!v) {
      const absolute = absoluteRefs(schema, `${docId}.json`) as Schema;
      v =
        kind === 'request'
          ? this.#requests.compile(closeObjects(absolute) as Schema)
          : kind === 'response'
            ? this.#responses.compile(nullableStrings(absolute) as Schema)
            : this.#values.compile({ type: 'object', properties: { v: absolute } });
      this.#cache.set(key, v);
    }
    return v;
  }
}

let catalogue: SpecCatalogue | undefined;
const specs = (): SpecCatalogue => (catalogue ??= new SpecCatalogue(SPECS_DIR));

const contactDefs = byName(contactPropertyDefinitions);
const companyDefs = byName(companyPropertyDefinitions);
const DEFAULT_CONTACT_READ = ['firstname', 'lastname', 'email'];
const DEFAULT_COMPANY_READ = ['name', 'domain'];
const COMPANY_ALWAYS = ['createdate', 'hs_lastmodifieddate', 'hs_object_id'];
const CONTACT_TO_COMPANY_TYPES = new Set([1, 279]);

const errorBody = (message: string, category: string, extra: Json = {}): Json => ({
  status: 'error',
  message,
  correlationId: randomUUID(),
  category,
  ...extra,
});

/** HubSpot's 429 body, member for member as its usage guidelines quote it (examples/rate-limit-429.daily.example.json). */
export const rateLimitBody = (policyName: 'DAILY' | 'TEN_SECONDLY_ROLLING' | 'SECONDLY' = 'DAILY'): Json => ({
  status: 'error',
  message:
    policyName === 'DAILY' ? 'You have reached your daily limit.' : 'You have reached your ten_secondly_rolling limit.',
  errorType: 'RATE_LIMIT',
  correlationId: randomUUID(),
  policyName,
  requestId: randomUUID(),
});

/** A property error as HubSpot's v3 object APIs word it: the per-property results as JSON inside `message`. */
const propertyError = (name: string, code: string, message: string): Json =>
  errorBody(
    `Property values were not valid: ${JSON.stringify([{ isValid: false, message, error: code, name, localizedErrorMessage: message }])}`,
    'VALIDATION_ERROR',
  );

const propertyProblem = (defs: ReadonlyMap<string, PropertyDefinition>, values: PropertyValues): Json | undefined => {
  const checked = validatePropertyValues(defs, values);
  if (E.isRight(checked)) return undefined;
  const name = (checked.left.parameter ?? '').replace(/^values\./, '');
  const def = defs.get(name);
  const value = values[name] ?? '';
  if (!def) return propertyError(name, 'PROPERTY_DOESNT_EXIST', `Property "${name}" does not exist`);
  if (def.readOnly || READ_ONLY_PROPERTIES.has(name))
    return propertyError(name, 'READ_ONLY_VALUE', `"${name}" is a read only property; its value cannot be set.`);
  switch (def.type) {
    case 'enumeration': {
      const allowed = (def.options ?? []).map((o) => `label: "${o.label}" value: "${o.value}"`).join(', ');
      return propertyError(name, 'INVALID_OPTION', `${value} was not one of the allowed options: [${allowed}]`);
    }
    case 'number':
      return propertyError(name, 'INVALID_INTEGER', `${value} is not a valid number`);
    case 'bool':
      return propertyError(name, 'INVALID_BOOLEAN', `${value} is not a valid boolean; use "true" or "false"`);
    default:
      return propertyError(name, 'INVALID_DATE', `${value} is not a valid date or timestamp`);
  }
};

/** A property list answer member, as HubSpot's properties API shapes it. */
const propertyBody = (d: PropertyDefinition, i: number): Json => ({
  name: d.name,
  label: d.label,
  type: d.type,
  fieldType: d.fieldType,
  description: d.description ?? '',
  groupName: d.groupName ?? 'contactinformation',
  options: (d.options ?? []).map((o, j) => ({ label: o.label, value: o.value, displayOrder: j, hidden: false })),
  displayOrder: i,
  calculated: false,
  externalOptions: false,
  hasUniqueValue: d.name === 'email',
  hidden: false,
  formField: !d.readOnly,
  modificationMetadata: {
    archivable: !d.readOnly,
    readOnlyDefinition: true,
    readOnlyValue: Boolean(d.readOnly) || READ_ONLY_PROPERTIES.has(d.name),
  },
  createdAt: '2020-01-01T00:00:00.000Z',
  updatedAt: '2020-01-01T00:00:00.000Z',
});

export class HubSpotServer {
  /** Every request received, in order, with the status it was answered with. */
  readonly requests: LoggedRequest[] = [];
  /** Every request that departed from HubSpot's documents (or the hand-written checks); tests assert this stays empty. */
  readonly specViolations: SpecViolation[] = [];
  /** Every answer of a documented operation that departed from the documents' response schemas. */
  readonly responseViolations: SpecViolation[] = [];
  /** Every OAuth token pair the token endpoint issued. */
  readonly issuedTokens: IssuedToken[] = [];
  readonly oauth: OAuthAppSettings;
  readonly hubId: number;

  readonly #server: Server;
  readonly #clock: Clock;
  readonly #operations: Operation[];
  readonly #staticTokens: Set<string>;
  readonly #granted: ReadonlySet<string> | undefined;
  readonly #accessTokens = new Map<string, number>();
  readonly #refreshTokens: Set<string>;
  #canned: Canned[] = [];
  readonly #contacts = new Map<string, Contact>();
  readonly #companies = new Map<string, Company & { archived: boolean; updatedAt: string }>();
  readonly #associations = new Map<string, Map<string, Set<number>>>();
  #nextContactId = 51;
  #nextCompanyId = 7001;

  private constructor(server: Server, options: HubSpotServerOptions) {
    this.#server = server;
    this.#clock = options.clock ?? new SystemClock();
    this.#operations = [...specs().operations, ...specs().handWritten()];
    this.#staticTokens = new Set(options.accessTokens ?? [HUBSPOT_TEST_TOKEN]);
    this.#granted = options.grantedScopes ? new Set(options.grantedScopes) : undefined;
    this.oauth = {
      clientId: 'local-client-id',
      clientSecret: 'local-client-secret',
      refreshTokens: ['local-refresh-token'],
      expiresIn: 1800,
      rotateRefreshToken: false,
      ...options.oauth,
    };
    this.#refreshTokens = new Set(this.oauth.refreshTokens);
    this.hubId = options.hubId ?? 4242;
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

  /** Forgets a refresh token, as HubSpot does when the app is uninstalled. */
  revokeRefreshToken(token: string): void {
    this.#refreshTokens.delete(token);
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
      const reply = this.#answer(entry, raw);
      entry.status = reply.status;
      const headers: Record<string, string> = { ...(reply.headers ?? {}) };
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
          ? errorBody(
              'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
              'INVALID_AUTHENTICATION',
            )
          : status === 404
            ? errorBody(`No operation at ${entry.method} ${entry.path}.`, 'OBJECT_NOT_FOUND')
            : errorBody(`Invalid input: ${problems.join('; ')}`, 'VALIDATION_ERROR', {
                errors: problems.map((message) => ({ message })),
              });
      return { status, body };
    };

    const op = this.#operations.find((o) => o.method === entry.method && o.pattern.test(entry.path));
    if (!op) return violation([`no operation ${entry.method} ${entry.path} in HubSpot's documents`], undefined, 404);

    const checked = this.#check(op, entry, raw);
    if (E.isLeft(checked)) {
      const auth = checked.left.some((p) => p.startsWith('Authorization'));
      return violation(checked.left, op, auth ? 401 : 400);
    }
    (entry as { body: unknown }).body = checked.right.body;

    const canned = this.#canned.shift();
    if (canned) return { status: canned.status, body: canned.body, headers: canned.headers };

    if (op.authenticated) {
      const refused = this.#authorise(op, entry.headers['authorization'] ?? '');
      if (refused) return refused;
    }
    const reply = this.#route(checked.right);
    if (reply.status >= 200 && reply.status < 300 && Object.keys(op.responses).length)
      this.#checkResponse(op, entry, reply);
    return reply;
  }

  #check(op: Operation, entry: LoggedRequest, raw: string): E.Either<string[], Checked> {
    const problems: string[] = [];
    const cat = specs();

    if (op.authenticated && !/^Bearer \S+$/.test(String(entry.headers['authorization'] ?? ''))) {
      problems.push('Authorization header must be "Bearer <token>" (the documents\' oauth2 / private-app security)');
    }

    const params: Record<string, string> = {};
    const match = op.pattern.exec(entry.path);
    op.pathParams.forEach((name, i) => {
      params[name] = decodeURIComponent(match?.[i + 1] ?? '');
    });
    for (const p of op.parameters) {
      const name = String(p['name']);
      const schema = isObject(p['schema']) ? p['schema'] : {};
      if (p['in'] === 'path') {
        const v = cat.validator('value', op.docId, schema);
        if (!v({ v: params[name] })) problems.push(...describe(v.errors, `path parameter ${name}`, true));
      }
      if (p['in'] === 'query') {
        const values = entry.query[name];
        if (!values) {
          if (p['required'] === true) problems.push(`query parameter ${name} is required`);
          continue;
        }
        const isArray = schema['type'] === 'array';
        if (!isArray && values.length > 1)
          problems.push(`query parameter ${name} is not an array but was given ${values.length} times`);
        const v = cat.validator('value', op.docId, schema);
        const data = { v: isArray ? [...values] : values[0] };
        if (!v(data)) problems.push(...describe(v.errors, `query parameter ${name}`, true));
      }
    }
    const declared = new Set(op.parameters.filter((p) => p['in'] === 'query').map((p) => String(p['name'])));
    for (const name of Object.keys(entry.query)) {
      if (!declared.has(name))
        problems.push(`query parameter "${name}" is not declared (declared: ${[...declared].join(', ') || 'none'})`);
    }

    let body: unknown;
    const contentType = String(entry.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const content = isObject(op.requestBody?.['content'])
      ? (op.requestBody['content'] as Record<string, Json>)
      : undefined;
    if (!content) {
      if (raw.length) problems.push('a body was sent but the operation declares none');
    } else if (!raw.length) {
      if (op.requestBody?.['required'] === true) problems.push('the request body is required');
    } else {
      const media = content[contentType];
      if (!media) {
        problems.push(
          `Content-Type "${contentType || '(none)'}" is not one the operation declares (${Object.keys(content).join(', ')})`,
        );
      } else {
        if (contentType === 'application/json') {
          try {
            body = JSON.parse(raw);
          } catch {
            problems.push('Invalid input JSON: the body is not JSON');
          }
        } else if (contentType === 'application/x-www-form-urlencoded') {
          const form = new URLSearchParams(raw);
          const fields: Json = {};
          for (const [k, v] of form) {
            if (k in fields) problems.push(`form field ${k} is given more than once`);
            fields[k] = v;
          }
          body = fields;
        }
        if (body !== undefined && isObject(media['schema'])) {
          const v = cat.validator('request', op.docId, media['schema']);
          if (!v(body)) problems.push(...describe(v.errors, 'body'));
        }
      }
    }
    return problems.length
      ? E.left(problems)
      : E.right({ op, params, query: entry.query as Record<string, string[]>, body });
  }

  #checkResponse(op: Operation, entry: LoggedRequest, reply: Reply): void {
    const declared = op.responses[String(reply.status)];
    if (!isObject(declared)) {
      this.responseViolations.push({
        method: entry.method,
        path: entry.path,
        operation: op.key,
        problems: [`status ${reply.status} is not documented`],
      });
      return;
    }
    const schema = ((declared['content'] as Json | undefined)?.['application/json'] as Json | undefined)?.['schema'];
    if (!isObject(schema)) return;
    const v = specs().validator('response', op.docId, schema);
    if (!v(reply.body))
      this.responseViolations.push({
        method: entry.method,
        path: entry.path,
        operation: op.key,
        problems: describe(v.errors, 'response'),
      });
  }

  #authorise(op: Operation, header: string): Reply | undefined {
    const token = header.replace(/^Bearer /, '');
    if (!this.#staticTokens.has(token)) {
      const expiresAt = this.#accessTokens.get(token);
      if (expiresAt === undefined) {
        return {
          status: 401,
          body: errorBody(
            'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
            'INVALID_AUTHENTICATION',
          ),
        };
      }
      const now = this.#clock.now().getTime();
      if (now >= expiresAt) {
        return {
          status: 401,
          body: errorBody(
            `The OAuth token used to make this call expired ${Math.ceil((now - expiresAt) / 1000)} second(s) ago.`,
            'EXPIRED_AUTHENTICATION',
          ),
        };
      }
    }
    const granted = this.#granted;
    if (!granted || op.scopes.length === 0 || op.scopes.some((alt) => alt.every((s) => granted.has(s))))
      return undefined;
    return {
      status: 403,
      body: errorBody(
        "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
        'MISSING_SCOPES',
        {
          errors: [
            {
              message: 'One or more of the following scopes are required.',
              context: { requiredGranularScopes: [...(op.scopes[0] ?? [])] },
            },
          ],
          links: { scopes: 'https://developers.hubspot.com/scopes' },
        },
      ),
    };
  }

  #route(c: Checked): Reply {
    const { op, params } = c;
    const t = op.template.replace(/^\/crm\/v3\/objects|^\/crm\/objects\/2026-03/, '{objects}');
    switch (`${op.method} ${t}`) {
      case 'POST /oauth/v1/token':
        return this.#token(c.body as Record<string, string>);
      case 'POST {objects}/contacts':
        return this.#createContact(c.body as Json);
      case 'POST {objects}/contacts/search':
        return this.#searchContacts(c.body as Json);
      case 'GET {objects}/contacts/{contactId}':
        return this.#getContact(params['contactId']!, c.query);
      case 'PATCH {objects}/contacts/{contactId}':
        return this.#updateContact(params['contactId']!, c.query, c.body as Json);
      case 'DELETE {objects}/contacts/{contactId}':
        return this.#archiveContact(params['contactId']!);
      case 'POST {objects}/companies':
        return this.#createCompany(c.body as Json);
      case 'POST {objects}/companies/search':
        return this.#searchCompanies(c.body as Json);
      case 'GET /crm/v3/properties/{objectType}':
        return this.#properties(params['objectType']!);
      case 'PUT /crm/v4/objects/{fromObjectType}/{fromObjectId}/associations/default/{toObjectType}/{toObjectId}':
      case 'PUT {objects}/{fromObjectType}/{fromObjectId}/associations/default/{toObjectType}/{toObjectId}':
        return this.#associateDefault(params);
      default:
        return {
          status: 501,
          body: errorBody(`The local HubSpot stand-in does not implement ${op.key}.`, 'NOT_IMPLEMENTED'),
        };
    }
  }

  // ---- OAuth ----

  #token(form: Record<string, string>): Reply {
    const bad = (status: string, message: string): Reply => ({
      status: 400,
      body: { status, message, correlationId: randomUUID(), requestId: randomUUID() },
    });
    if (form['grant_type'] !== 'refresh_token')
      return bad('BAD_GRANT_TYPE', 'the local stand-in supports only grant_type=refresh_token');
    if (form['client_id'] !== this.oauth.clientId) return bad('BAD_CLIENT_ID', 'missing or unknown client id');
    if (form['client_secret'] !== this.oauth.clientSecret)
      return bad('BAD_CLIENT_SECRET', 'missing or invalid client secret');
    const presented = form['refresh_token'] ?? '';
    if (!this.#refreshTokens.has(presented)) return bad('BAD_REFRESH_TOKEN', 'missing or unknown refresh token');
    let refreshToken = presented;
    if (this.oauth.rotateRefreshToken) {
      refreshToken = `local-refresh-${randomUUID()}`;
      this.#refreshTokens.delete(presented);
      this.#refreshTokens.add(refreshToken);
    }
    const issuedAt = this.#clock.now();
    const accessToken = `local-access-${randomUUID()}`;
    this.#accessTokens.set(accessToken, issuedAt.getTime() + this.oauth.expiresIn * 1000);
    this.issuedTokens.push({ accessToken, refreshToken, expiresIn: this.oauth.expiresIn, issuedAt });
    return {
      status: 200,
      body: {
        token_type: 'bearer',
        refresh_token: refreshToken,
        access_token: accessToken,
        expires_in: this.oauth.expiresIn,
        hub_id: this.hubId,
        user_id: 1,
        token_use: 'access_token',
      },
    };
  }

  // ---- contacts ----

  #createContact(body: Json): Reply {
    const values = Object.fromEntries(
      Object.entries(body['properties'] as Record<string, string>).filter(([, v]) => v !== ''),
    );
    const invalid = propertyProblem(contactDefs, values);
    if (invalid) return { status: 400, body: invalid };
    const duplicate = this.#emailOwner(values['email']);
    if (duplicate)
      return { status: 409, body: errorBody(`Contact already exists. Existing ID: ${duplicate.id}`, 'CONFLICT') };
    const links = new Map<string, Set<number>>();
    for (const a of body['associations'] as {
      to: { id: string };
      types: { associationCategory: string; associationTypeId: number }[];
    }[]) {
      if (!this.#activeCompany(a.to.id))
        return {
          status: 400,
          body: errorBody(`One or more associations are invalid: no company with id ${a.to.id}.`, 'VALIDATION_ERROR'),
        };
      for (const type of a.types) {
        if (type.associationCategory !== 'HUBSPOT_DEFINED' || !CONTACT_TO_COMPANY_TYPES.has(type.associationTypeId)) {
          return {
            status: 400,
            body: errorBody(
              `${type.associationCategory} association type ${type.associationTypeId} is not valid between contacts and companies.`,
              'VALIDATION_ERROR',
            ),
          };
        }
        const set = links.get(a.to.id) ?? new Set<number>();
        set.add(type.associationTypeId).add(1);
        links.set(a.to.id, set);
      }
    }
    const primary = [...links].find(([, types]) => types.has(279))?.[0];
    const id = String(this.#nextContactId++);
    const contact = newContact(
      id,
      { ...values, ...(primary ? { [PRIMARY_COMPANY_PROPERTY]: primary } : {}) },
      this.#clock.now(),
    );
    this.#contacts.set(id, contact);
    this.#associations.set(id, links);
    return { status: 201, body: this.#objectBody(projectContact(contact, Object.keys(values), () => false)) };
  }

  #getContact(idOrValue: string, query: Record<string, string[]>): Reply {
    const archived = query['archived']?.[0] === 'true';
    const contact = this.#lookup(idOrValue, query['idProperty']?.[0]);
    if (!contact || contact.archived !== archived) return this.#notFound();
    const requested = (query['properties'] ?? []).flatMap((p) => p.split(',')).filter(Boolean);
    return {
      status: 200,
      body: this.#objectBody(
        projectContact(contact, requested.length ? requested : DEFAULT_CONTACT_READ, (n) => contactDefs.has(n)),
      ),
    };
  }

  #updateContact(idOrValue: string, query: Record<string, string[]>, body: Json): Reply {
    const contact = this.#lookup(idOrValue, query['idProperty']?.[0]);
    if (!contact || contact.archived) return this.#notFound();
    const values = body['properties'] as Record<string, string>;
    const invalid = propertyProblem(contactDefs, values);
    if (invalid) return { status: 400, body: invalid };
    const duplicate = this.#emailOwner(values['email'], contact.id);
    if (duplicate)
      return { status: 409, body: errorBody(`Contact already exists. Existing ID: ${duplicate.id}`, 'CONFLICT') };
    const updated = updateContact(contact, values, this.#clock.now());
    if (E.isLeft(updated)) return this.#notFound();
    const properties = Object.fromEntries(
      Object.entries(updated.right.properties).filter(([, v]) => v !== '' && v !== null),
    );
    const stored = { ...updated.right, properties };
    this.#contacts.set(stored.id, stored);
    return { status: 200, body: this.#objectBody(projectContact(stored, Object.keys(values), () => false)) };
  }

  /** HubSpot answers 204 whether or not the id exists (UNVERIFIED; the adapter does not rely on it). */
  #archiveContact(id: string): Reply {
    const contact = this.#contacts.get(id);
    if (contact) this.#contacts.set(id, archiveContact(contact, this.#clock.now()));
    return { status: 204 };
  }

  #searchContacts(body: Json): Reply {
    const parsed = this.#search(body);
    if (E.isLeft(parsed)) return parsed.left;
    const { search, offset } = parsed.right;
    const matching = [...this.#contacts.values()]
      .filter(
        (c) =>
          !c.archived &&
          matchesFilterGroups(c.properties, search.filterGroups) &&
          matchesQuery(c.properties, search.query),
      )
      .sort(compareContacts(search.sorts));
    const requested = search.properties.length ? search.properties : DEFAULT_CONTACT_READ;
    return this.#page(matching, offset, search.limit, (c) =>
      this.#objectBody(projectContact(c, requested, (n) => contactDefs.has(n))),
    );
  }

  // ---- companies ----

  #createCompany(body: Json): Reply {
    const values = Object.fromEntries(
      Object.entries(body['properties'] as Record<string, string>).filter(([, v]) => v !== ''),
    );
    const invalid = propertyProblem(companyDefs, values);
    if (invalid) return { status: 400, body: invalid };
    const at = this.#clock.now().toISOString();
    const id = String(this.#nextCompanyId++);
    const company = {
      id,
      name: values['name'] ?? '',
      properties: { ...values, createdate: at, hs_lastmodifieddate: at, hs_object_id: id },
      createdAt: at,
      updatedAt: at,
      archived: false,
    };
    this.#companies.set(id, company);
    return { status: 201, body: this.#companyBody(company, Object.keys(values)) };
  }

  #searchCompanies(body: Json): Reply {
    const parsed = this.#search(body);
    if (E.isLeft(parsed)) return parsed.left;
    const { search, offset } = parsed.right;
    const asContact = (c: Company & { updatedAt: string }): Contact => ({
      id: c.id,
      properties: c.properties,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      archived: false,
    });
    const matching = [...this.#companies.values()]
      .filter(
        (c) =>
          !c.archived &&
          matchesFilterGroups(c.properties, search.filterGroups) &&
          matchesQuery({ company: c.properties['name'] ?? null }, search.query),
      )
      .sort((a, b) => compareContacts(search.sorts)(asContact(a), asContact(b)));
    const requested = search.properties.length ? search.properties : DEFAULT_COMPANY_READ;
    return this.#page(matching, offset, search.limit, (c) => this.#companyBody(c, requested));
  }

  // ---- associations and properties ----

  #associateDefault(params: Record<string, string>): Reply {
    const from = params['fromObjectType'];
    const to = params['toObjectType'];
    if (!['contacts', '0-1'].includes(from ?? '') || !['companies', '0-2'].includes(to ?? '')) {
      return {
        status: 400,
        body: errorBody('The local HubSpot stand-in associates contacts to companies only.', 'VALIDATION_ERROR'),
      };
    }
    const contact = this.#contacts.get(params['fromObjectId'] ?? '');
    const company = this.#activeCompany(params['toObjectId'] ?? '');
    if (!contact || contact.archived || !company) return this.#notFound();
    const links = this.#associations.get(contact.id) ?? new Map<string, Set<number>>();
    links.set(company.id, (links.get(company.id) ?? new Set<number>()).add(1));
    this.#associations.set(contact.id, links);
    if (!contact.properties[PRIMARY_COMPANY_PROPERTY]) {
      links.get(company.id)!.add(279);
      this.#contacts.set(contact.id, {
        ...contact,
        properties: { ...contact.properties, [PRIMARY_COMPANY_PROPERTY]: company.id },
      });
    }
    const at = this.#clock.now().toISOString();
    return {
      status: 200,
      body: {
        status: 'COMPLETE',
        results: [
          {
            from: { id: contact.id },
            to: { id: company.id },
            associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 },
          },
        ],
        startedAt: at,
        completedAt: at,
      },
    };
  }

  #properties(objectType: string): Reply {
    const defs =
      objectType === 'contacts' || objectType === '0-1' ? contactPropertyDefinitions : companyPropertyDefinitions;
    return { status: 200, body: { results: defs.map(propertyBody) } };
  }

  // ---- helpers ----

  /** A search body (already checked against PublicObjectSearchRequest) as the domain's search, or HubSpot's 400. */
  #search(body: Json): E.Either<Reply, { search: ContactSearch; offset: number }> {
    const invalid = (message: string): E.Either<Reply, never> =>
      E.left({ status: 400, body: errorBody(message, 'VALIDATION_ERROR') });
    const limit = body['limit'] as number;
    if (limit < 1 || limit > 200) return invalid(`limit must be between 1 and 200; got ${limit}.`);
    const after = body['after'] as string;
    if (!/^\d+$/.test(after)) return invalid(`after must be a paging cursor from a previous page; got "${after}".`);
    const offset = Number(after);
    if (offset >= SEARCH_LIMITS.maxResults)
      return invalid(`Search results are limited to ${SEARCH_LIMITS.maxResults}.`);
    const sorts: Sort[] = (body['sorts'] as string[]).map((s) =>
      s.startsWith('-')
        ? { propertyName: s.slice(1), direction: 'DESCENDING' }
        : { propertyName: s, direction: 'ASCENDING' },
    );
    const search: ContactSearch = {
      filterGroups: body['filterGroups'] as FilterGroup[],
      sorts,
      ...(typeof body['query'] === 'string' ? { query: body['query'] } : {}),
      properties: body['properties'] as string[],
      limit,
    };
    const checked = validateSearch({ ...search, limit: Math.min(limit, SEARCH_LIMITS.maxLimit) });
    if (E.isLeft(checked)) return invalid(checked.left.message);
    return E.right({ search, offset });
  }

  #page<T>(matching: readonly T[], offset: number, limit: number, render: (item: T) => Json): Reply {
    const page = matching.slice(offset, offset + limit);
    const end = offset + page.length;
    const more = end < matching.length && end < SEARCH_LIMITS.maxResults;
    return {
      status: 200,
      body: {
        total: matching.length,
        results: page.map(render),
        ...(more ? { paging: { next: { after: String(end), link: `?after=${end}` } } } : {}),
      },
    };
  }

  #objectBody(c: Contact): Json {
    return {
      id: c.id,
      properties: c.properties,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      archived: c.archived,
      ...(c.archivedAt ? { archivedAt: c.archivedAt } : {}),
    };
  }

  #companyBody(c: Company & { updatedAt: string }, requested: readonly string[]): Json {
    const properties: Record<string, string | null> = {};
    for (const name of [...requested, ...COMPANY_ALWAYS]) {
      if (name in c.properties) properties[name] = c.properties[name] ?? null;
      else if (companyDefs.has(name)) properties[name] = null;
    }
    return { id: c.id, properties, createdAt: c.createdAt, updatedAt: c.updatedAt, archived: false };
  }

  #lookup(idOrValue: string, idProperty: string | undefined): Contact | undefined {
    if (!idProperty || idProperty === 'hs_object_id') return this.#contacts.get(idOrValue);
    const lower = idOrValue.toLowerCase();
    return [...this.#contacts.values()].find((c) => !c.archived && c.properties[idProperty]?.toLowerCase() === lower);
  }

  #emailOwner(email: string | undefined, self?: string): Contact | undefined {
    if (!email) return undefined;
    const lower = email.toLowerCase();
    return [...this.#contacts.values()].find(
      (c) => !c.archived && c.id !== self && c.properties['email']?.toLowerCase() === lower,
    );
  }

  #activeCompany(id: string) {
    const c = this.#companies.get(id);
    return c && !c.archived ? c : undefined;
  }

  #notFound(): Reply {
    return { status: 404, body: errorBody('resource not found', 'OBJECT_NOT_FOUND') };
  }
}
