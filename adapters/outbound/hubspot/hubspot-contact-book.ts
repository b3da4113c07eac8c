import type { AxiosInstance, AxiosResponse } from 'axios';
import * as t from 'io-ts';
import { projectContact, type CompanyLink, type Contact, type ContactId, type CrmObjectType, type PropertyValues } from '../../../domain/crm/contact.js';
import type { PropertyDefinition, PropertyType } from '../../../domain/crm/property.js';
import type { ContactPage, ContactSearch } from '../../../domain/crm/search.js';
import { conflict, invalidInput, notFound, rateLimited, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { ContactBook, CreatedContact } from '../../../ports/contact-book.js';
import { createVendorHttp, retryAfterSeconds, transportFailure } from '../http/vendor-http.js';
import {
  decodeOrUnexpected,
  ErrorBody,
  PropertiesResponse,
  SearchResponse,
  SimplePublicObject,
  type PropertyDefinitionBody,
} from './hubspot-codecs.js';
import type { AccessTokenProvider } from './hubspot-tokens.js';

const VENDOR = 'HubSpot';
/** HubSpot-defined association type "contact to company, primary". */
const CONTACT_TO_PRIMARY_COMPANY = 279;
const MAX_DAILY_WAIT_SECONDS = 86_400;
const SHORT_POLICY_WAIT_SECONDS = 10;

export interface HubSpotContactBookOptions {
  readonly baseUrl: string;
  /** `/crm/v3/objects` or a date-versioned `/crm/objects/2026-03`. */
  readonly objectsPath: string;
  readonly tokens: AccessTokenProvider;
  readonly timeoutMs: number;
  /** The HubSpot account id, to build a contact's web address when HubSpot sends none. */
  readonly portalId?: string;
  /** For Retry-After dates and daily-limit resets; the system clock by default. */
  readonly clock?: Clock;
}

/** What a call does, for error messages, and the OAuth scope HubSpot requires for it. */
interface Operation {
  readonly what: string;
  readonly scope: string;
  readonly resource: string;
  /** Set when the call writes property values, so a property error names `values.<name>`. */
  readonly writesValues?: boolean;
}

const OP = {
  createContact: { what: 'create a contact', scope: 'crm.objects.contacts.write', resource: 'contact', writesValues: true },
  readContact: { what: 'read a contact', scope: 'crm.objects.contacts.read', resource: 'contact' },
  updateContact: { what: 'update a contact', scope: 'crm.objects.contacts.write', resource: 'contact', writesValues: true },
  archiveContact: { what: 'archive a contact', scope: 'crm.objects.contacts.write', resource: 'contact' },
  searchContacts: { what: 'search contacts', scope: 'crm.objects.contacts.read', resource: 'contact' },
  searchCompanies: { what: 'find a company by name', scope: 'crm.objects.companies.read', resource: 'company' },
  createCompany: { what: 'create a company', scope: 'crm.objects.companies.write', resource: 'company' },
  contactProperties: { what: 'list contact properties', scope: 'crm.schemas.contacts.read', resource: 'property' },
  companyProperties: { what: 'list company properties', scope: 'crm.schemas.companies.read', resource: 'property' },
} as const satisfies Record<string, Operation>;

interface Sent {
  readonly res: AxiosResponse;
  readonly token: string;
}

interface ErrorContext {
  readonly id?: string;
  readonly values?: PropertyValues;
}

const PROPERTY_TYPES: ReadonlySet<string> = new Set<PropertyType>(['string', 'number', 'date', 'datetime', 'enumeration', 'bool', 'phone_number']);

const unique = (names: readonly string[]): string[] => [...new Set(names)];

/** HubSpot returns its default properties when none are named; asking for the id alone keeps reads minimal. */
const propertyParams = (names: readonly string[], extra: Record<string, string> = {}): URLSearchParams => {
  const params = new URLSearchParams(extra);
  for (const name of names.length ? unique(names) : ['hs_object_id']) params.append('properties', name);
  return params;
};

const redact = (text: string, token: string): string => (token ? text.split(token).join('[redacted]') : text);

const clip = (text: string, max = 400): string => (text.length > max ? `${text.slice(0, max)}…` : text);

const stringsIn = (u: unknown): string[] => (Array.isArray(u) ? u.filter((x): x is string => typeof x === 'string') : typeof u === 'string' ? [u] : []);

interface PropertyProblem {
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
}

/** The property errors HubSpot reports: in `errors[]` (code, context.propertyName) or as JSON inside `message`. */
const propertyProblems = (body: ErrorBody): PropertyProblem[] => {
  const found: PropertyProblem[] = [];
  for (const e of body.errors ?? []) {
    const ctx = e.context ?? {};
    const name = stringsIn(ctx['propertyName'])[0] ?? stringsIn(ctx['name'])[0] ?? quotedProperty(e.message);
    found.push({ name, code: e.code, message: e.message });
  }
  const message = body.message ?? '';
  const json = message.indexOf('[');
  if (/not valid/i.test(message) && json >= 0) {
    try {
      const parsed: unknown = JSON.parse(message.slice(json));
      if (Array.isArray(parsed)) {
        for (const p of parsed) {
          if (typeof p !== 'object' || p === null) continue;
          const r = p as Record<string, unknown>;
          found.push({
            name: typeof r['name'] === 'string' ? r['name'] : undefined,
            code: typeof r['error'] === 'string' ? r['error'] : undefined,
            message: typeof r['message'] === 'string' ? r['message'] : undefined,
          });
        }
      }
    } catch {
      // not JSON after all: the message is used as it is
    }
  }
  if (!found.some((p) => p.name)) {
    const name = quotedProperty(message);
    if (name) found.unshift({ name, message });
  }
  return found;
};

const quotedProperty = (message: string | undefined): string | undefined =>
  message?.match(/propert(?:y|ies)\s+["'`]([A-Za-z0-9_.-]+)["'`]/i)?.[1] ?? message?.match(/["'`]([A-Za-z0-9_.-]+)["'`]\s+is a read[ -]only property/i)?.[1];

const secondsUntilUtcMidnight = (now: Date): number => {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((midnight - now.getTime()) / 1000);
};

const inWords = (seconds: number): string =>
  seconds < 120 ? `${seconds} seconds` : seconds < 7200 ? `${Math.ceil(seconds / 60)} minutes` : `${Math.round(seconds / 360) / 10} hours`;

/**
 * The ContactBook on HubSpot's CRM API (v3 or a date-versioned path): contacts, primary-company
 * matching by name, search, and property definitions. HubSpot's answers are decoded with io-ts and
 * its errors turned into the gateway's, with messages that say what to do next.
 */
export class HubSpotContactBook implements ContactBook {
  readonly #http: AxiosInstance;
  readonly #tokens: AccessTokenProvider;
  readonly #objects: string;
  readonly #portalId: string | undefined;
  readonly #clock: Clock;

  constructor(options: HubSpotContactBookOptions) {
    this.#http = createVendorHttp({ vendor: VENDOR, baseURL: options.baseUrl, timeoutMs: options.timeoutMs });
    this.#tokens = options.tokens;
    this.#objects = options.objectsPath.replace(/\/+$/, '');
    this.#portalId = options.portalId;
    this.#clock = options.clock ?? { now: () => new Date() };
  }

  create(values: PropertyValues, returnProperties: readonly string[]): TaskEither<GatewayError, CreatedContact> {
    return () => this.#create(values, returnProperties);
  }

  get(id: ContactId, properties: readonly string[]): TaskEither<GatewayError, Contact> {
    return async () => {
      const sent = await this.#send({ method: 'GET', url: this.#contactUrl(id), params: propertyParams(properties) });
      if (E.isLeft(sent)) return sent;
      const { res, token } = sent.right;
      if (res.status === 404) return E.left(await this.#missing(id));
      if (res.status !== 200) return E.left(this.#failure(OP.readContact, sent.right.res, token, { id }));
      return E.map((o: SimplePublicObject) => this.#toContact(o))(this.#decodeObject(res));
    };
  }

  update(id: ContactId, values: PropertyValues): TaskEither<GatewayError, Contact> {
    return async () => {
      const properties = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ?? '']));
      const sent = await this.#send({ method: 'PATCH', url: this.#contactUrl(id), data: { properties } });
      if (E.isLeft(sent)) return sent;
      const { res, token } = sent.right;
      if (res.status === 404) return E.left(await this.#missing(id));
      if (res.status !== 200) return E.left(this.#failure(OP.updateContact, res, token, { id, values }));
      // a property HubSpot leaves out of the answer was just cleared: it reads as null, as elsewhere
      return E.map((o: SimplePublicObject) => projectContact(this.#toContact(o), Object.keys(values)))(this.#decodeObject(res));
    };
  }

  archive(id: ContactId): TaskEither<GatewayError, void> {
    return async () => {
      // HubSpot's DELETE is not relied on to tell an unknown id apart: the contact is read first.
      const read = await this.#send({ method: 'GET', url: this.#contactUrl(id), params: propertyParams([]) });
      if (E.isLeft(read)) return read;
      if (read.right.res.status === 404) {
        return (await this.#isArchived(id)) ? E.right(undefined) : E.left(this.#unknown(id));
      }
      if (read.right.res.status !== 200) return E.left(this.#failure(OP.readContact, read.right.res, read.right.token, { id }));
      const sent = await this.#send({ method: 'DELETE', url: this.#contactUrl(id) });
      if (E.isLeft(sent)) return sent;
      const { res, token } = sent.right;
      if (res.status === 204 || res.status === 200) return E.right(undefined);
      if (res.status === 404) return E.left(this.#unknown(id));
      return E.left(this.#failure(OP.archiveContact, res, token, { id }));
    };
  }

  search(search: ContactSearch): TaskEither<GatewayError, ContactPage> {
    return async () => {
      // The documents type `sorts` as strings: "name" ascending, "-name" descending.
      const body = {
        filterGroups: search.filterGroups,
        sorts: search.sorts.map((s) => (s.direction === 'DESCENDING' ? `-${s.propertyName}` : s.propertyName)),
        ...(search.query !== undefined ? { query: search.query } : {}),
        properties: search.properties.length ? unique(search.properties) : ['hs_object_id'],
        limit: search.limit,
        after: search.after ?? '0',
      };
      const sent = await this.#send({ method: 'POST', url: `${this.#objects}/contacts/search`, data: body });
      if (E.isLeft(sent)) return sent;
      const { res, token } = sent.right;
      if (res.status !== 200) return E.left(this.#failure(OP.searchContacts, res, token, {}));
      const decoded = decodeOrUnexpected(SearchResponse, res.data, res.status, 'a search answer needs "total" and "results" of objects with "id" and "properties"');
      if (E.isLeft(decoded)) return decoded;
      const after = decoded.right.paging?.next?.after;
      return E.right({
        total: decoded.right.total,
        results: decoded.right.results.map((o) => this.#toContact(o)),
        ...(after ? { after } : {}),
      });
    };
  }

  properties(objectType: CrmObjectType): TaskEither<GatewayError, readonly PropertyDefinition[]> {
    return async () => {
      const op = objectType === 'contacts' ? OP.contactProperties : OP.companyProperties;
      const sent = await this.#send({ method: 'GET', url: `/crm/v3/properties/${objectType}` });
      if (E.isLeft(sent)) return sent;
      const { res, token } = sent.right;
      if (res.status !== 200) return E.left(this.#failure(op, res, token, {}));
      const decoded = decodeOrUnexpected(PropertiesResponse, res.data, res.status, 'a property list needs "results" with "name", "label", "type" and "fieldType"');
      return E.map((body: t.TypeOf<typeof PropertiesResponse>) => body.results.map(toDefinition))(decoded);
    };
  }

  async #create(values: PropertyValues, returnProperties: readonly string[]): Promise<Either<GatewayError, CreatedContact>> {
    const companyName = values['company']?.trim();
    let company: CompanyLink | undefined;
    if (companyName) {
      const found = await this.#matchOrCreateCompany(companyName);
      if (E.isLeft(found)) return found;
      company = found.right;
    }
    const properties = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== null));
    const associations = company
      ? [{ to: { id: company.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: CONTACT_TO_PRIMARY_COMPANY }] }]
      : [];
    const sent = await this.#send({ method: 'POST', url: `${this.#objects}/contacts`, data: { properties, associations } });
    if (E.isLeft(sent)) return sent;
    const { res, token } = sent.right;
    if (res.status !== 201 && res.status !== 200) return E.left(this.#failure(OP.createContact, res, token, { values }));
    const decoded = this.#decodeObject(res);
    if (E.isLeft(decoded)) return decoded;
    const created = this.#toContact(decoded.right);
    const wanted = unique([...returnProperties, ...Object.keys(values)]);
    let contact = projectContact(created, wanted, () => false);
    if (returnProperties.some((name) => !(name in created.properties))) {
      const read = await this.get(created.id, wanted)();
      // the contact exists either way; a failed re-read only leaves out what the create answer lacked
      if (E.isRight(read)) contact = read.right;
    }
    return E.right(company ? { contact, company } : { contact });
  }

  async #matchOrCreateCompany(name: string): Promise<Either<GatewayError, CompanyLink>> {
    const search = await this.#send({
      method: 'POST',
      url: `${this.#objects}/companies/search`,
      data: {
        filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQ', value: name }] }],
        sorts: ['createdate'],
        properties: ['name'],
        limit: 1,
        after: '0',
      },
    });
    if (E.isLeft(search)) return search;
    if (search.right.res.status !== 200) return E.left(this.#failure(OP.searchCompanies, search.right.res, search.right.token, {}));
    const found = decodeOrUnexpected(SearchResponse, search.right.res.data, 200, 'a company search answer needs "total" and "results"');
    if (E.isLeft(found)) return found;
    const match = found.right.results[0];
    if (match) return E.right({ id: match.id, name: match.properties['name'] ?? name, created: false });

    const sent = await this.#send({ method: 'POST', url: `${this.#objects}/companies`, data: { properties: { name }, associations: [] } });
    if (E.isLeft(sent)) return sent;
    const { res, token } = sent.right;
    if (res.status !== 201 && res.status !== 200) return E.left(this.#failure(OP.createCompany, res, token, {}));
    return E.map((o: SimplePublicObject) => ({ id: o.id, name: o.properties['name'] ?? name, created: true }))(this.#decodeObject(res));
  }

  /** NotFound for an id HubSpot does not serve as active: worded for the recycling bin when it is archived. */
  async #missing(id: ContactId): Promise<GatewayError> {
    return (await this.#isArchived(id))
      ? notFound('contact', id, `Contact ${id} is archived (in HubSpot's recycling bin), so it cannot be read or changed here. crm_searchContacts finds active contacts.`)
      : this.#unknown(id);
  }

  async #isArchived(id: ContactId): Promise<boolean> {
    const sent = await this.#send({ method: 'GET', url: this.#contactUrl(id), params: propertyParams([], { archived: 'true' }) });
    return E.isRight(sent) && sent.right.res.status === 200;
  }

  #unknown(id: ContactId): GatewayError {
    return notFound('contact', id, `No contact with id ${id}. crm_searchContacts finds contact ids.`);
  }

  #contactUrl(id: ContactId): string {
    return `${this.#objects}/contacts/${encodeURIComponent(id)}`;
  }

  #decodeObject(res: AxiosResponse): Either<GatewayError, SimplePublicObject> {
    return decodeOrUnexpected(SimplePublicObject, res.data, res.status, 'an object needs "id", "properties", "createdAt", "updatedAt" and "archived"');
  }

  #toContact(o: SimplePublicObject): Contact {
    const url = o.url ?? (this.#portalId ? `https://app.hubspot.com/contacts/${encodeURIComponent(this.#portalId)}/record/0-1/${encodeURIComponent(o.id)}` : undefined);
    return {
      id: o.id,
      properties: o.properties,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
      archived: o.archived,
      ...(o.archivedAt ? { archivedAt: o.archivedAt } : {}),
      ...(url ? { url } : {}),
    };
  }

  async #send(
    request: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; params?: URLSearchParams; data?: unknown },
  ): Promise<Either<GatewayError, Sent>> {
    const token = await this.#tokens.accessToken();
    if (E.isLeft(token)) return token;
    try {
      const res = await this.#http.request({
        method: request.method,
        url: request.url,
        params: request.params,
        data: request.data,
        headers: {
          Authorization: `Bearer ${token.right}`,
          ...(request.data !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
      });
      return E.right({ res, token: token.right });
    } catch (error) {
      return E.left(transportFailure(VENDOR, error));
    }
  }

  /** A HubSpot error answer as the gateway's error. */
  #failure(op: Operation, res: AxiosResponse, token: string, ctx: ErrorContext): GatewayError {
    const status = res.status;
    const decodedBody = ErrorBody.decode(res.data);
    const body: ErrorBody = E.isRight(decodedBody) ? decodedBody.right : {};
    const said = body.message ? clip(redact(body.message, token)) : undefined;
    const ref = body.correlationId ? ` (HubSpot correlation id ${body.correlationId})` : '';

    if (status === 400 || status === 422) return this.#invalid(op, body, said, token);
    if (status === 401) {
      this.#tokens.invalidate?.();
      return upstreamFailure(
        VENDOR,
        `HubSpot rejected the gateway's credentials (HTTP 401${body.category ? `, ${body.category}` : ''}). The gateway's HubSpot connection must be re-authorised by an operator; retrying will not help.`,
        { retryable: false, reauthorize: true, status },
      );
    }
    if (status === 403) {
      const scopes = unique([
        ...(body.errors ?? []).flatMap((e) => [...stringsIn(e.context?.['requiredGranularScopes']), ...stringsIn(e.context?.['requiredScopes'])]),
        ...stringsIn(body.context?.['missingScopes']),
        ...stringsIn(body.context?.['requiredScopes']),
      ]);
      const needed = scopes.length ? scopes : [op.scope];
      return upstreamFailure(
        VENDOR,
        `HubSpot refused to ${op.what} (HTTP 403): the gateway's HubSpot connection lacks the scope ${needed.join(' or ')}. The connection must be re-authorised with that scope granted (private app: add the scope; OAuth app: reinstall it with the scope); retrying will not help.`,
        { retryable: false, reauthorize: true, status },
      );
    }
    if (status === 404) {
      return notFound(op.resource, ctx.id ?? '', `HubSpot has no such ${op.resource}${ctx.id ? ` (id ${ctx.id})` : ''}.`);
    }
    if (status === 409) {
      const existing = said?.match(/Existing ID:\s*(\d+)/i)?.[1];
      const email = ctx.values?.['email'];
      const who = email && op.resource === 'contact' ? `A contact with email ${email}` : `A ${op.resource} with the same unique value`;
      return conflict(
        existing ? `${who} already exists (id ${existing}). Update that contact instead.` : `${who} already exists in HubSpot${said ? `: ${said}` : '.'}`,
        { ...(existing ? { existing_id: existing } : {}), ...(body.correlationId ? { correlation_id: body.correlationId } : {}) },
      );
    }
    if (status === 429) {
      const now = this.#clock.now();
      const header = retryAfterSeconds(res.headers['retry-after'], now);
      const daily = (body.policyName ?? '').toUpperCase() === 'DAILY';
      const seconds = header ?? (daily ? Math.min(MAX_DAILY_WAIT_SECONDS, Math.max(60, secondsUntilUtcMidnight(now))) : SHORT_POLICY_WAIT_SECONDS);
      const at = new Date(now.getTime() + seconds * 1000).toISOString();
      return rateLimited(
        daily
          ? `HubSpot's daily API call limit for this account is used up (it resets at midnight in the account's time zone). Retry in about ${inWords(seconds)}, after ${at}.`
          : `HubSpot's rate limit was reached${body.policyName ? ` (${body.policyName})` : ''}. Retry in ${inWords(seconds)}.`,
        seconds,
      );
    }
    if (status >= 500) {
      return upstreamFailure(VENDOR, `HubSpot failed with HTTP ${status}${ref}. Try again shortly.`, { retryable: true, status });
    }
    return upstreamFailure(VENDOR, `HubSpot answered HTTP ${status} when asked to ${op.what}${said ? `: ${said}` : ''}${ref}.`, { retryable: false, status });
  }

  #invalid(op: Operation, body: ErrorBody, said: string | undefined, token: string): GatewayError {
    const details = {
      ...(body.category ? { hubspot_category: body.category } : {}),
      ...(body.correlationId ? { correlation_id: body.correlationId } : {}),
    };
    const problems = propertyProblems(body);
    const problem = problems.find((p) => p.name) ?? problems[0];
    const name = problem?.name;
    const theirs = problem?.message ? clip(redact(problem.message, token)) : said;
    const parameter = name && op.writesValues ? `values.${name}` : undefined;
    switch (problem?.code) {
      case 'PROPERTY_DOESNT_EXIST':
        return invalidInput(
          `Property "${name}" does not exist in HubSpot. crm_getProperties lists the properties that exist.`,
          parameter,
          'name of an existing property',
          { ...details, hubspot_code: problem.code },
        );
      case 'INVALID_OPTION':
        return invalidInput(
          `Property "${name}" does not accept that value: HubSpot takes the internal value of one of its options, not the label. crm_getProperties lists the options.${theirs ? ` HubSpot said: ${theirs}` : ''}`,
          parameter,
          'internal value of one of the options',
          { ...details, hubspot_code: problem.code },
        );
      case 'READ_ONLY_VALUE':
        return invalidInput(`Property "${name}" is read-only and set by HubSpot itself; leave it out.`, parameter, 'writable property', { ...details, hubspot_code: problem.code });
      default:
        if (name) {
          return invalidInput(
            `HubSpot rejected the value of property "${name}"${theirs ? `: ${theirs}` : '.'} crm_getProperties describes the property's type and options.`,
            parameter,
            undefined,
            { ...details, ...(problem?.code ? { hubspot_code: problem.code } : {}) },
          );
        }
        return invalidInput(`HubSpot rejected the request to ${op.what}${said ? `: ${said}` : '.'}`, undefined, undefined, details);
    }
  }
}

const toDefinition = (p: PropertyDefinitionBody): PropertyDefinition => ({
  name: p.name,
  label: p.label,
  type: PROPERTY_TYPES.has(p.type) ? (p.type as PropertyType) : 'string',
  fieldType: p.fieldType,
  ...(p.description ? { description: p.description } : {}),
  ...(p.options && p.options.length ? { options: p.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
  ...(p.modificationMetadata?.readOnlyValue ? { readOnly: true } : {}),
  ...(p.groupName ? { groupName: p.groupName } : {}),
});
