import type { AxiosResponse } from 'axios';
import { LRUCache } from 'lru-cache';
import type * as t from 'io-ts';
import {
  projectContact,
  type CompanyLink,
  type Contact,
  type ContactId,
  type CrmObjectType,
  type PropertyValues,
} from '../../../domain/crm/contact.js';
import type { PropertyDefinition } from '../../../domain/crm/property.js';
import type { ContactPage, ContactSearch } from '../../../domain/crm/search.js';
import { invalidInput, notFound, type GatewayError } from '../../../domain/shared/errors.js';
import { E, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { ContactBook, CreatedContact } from '../../../ports/contact-book.js';
import { HubSpotAccount } from './hubspot-account.js';
import { HubSpotClient, type Sent } from './hubspot-client.js';
import { decodeOrUnexpected, PropertiesResponse, SearchResponse, SimplePublicObject } from './hubspot-codecs.js';
import { OP, type ErrorContext, type Operation } from './hubspot-errors.js';
import { propertyParams, toContact, toDefinition, toSearchRequest, unique } from './hubspot-mapping.js';
import type { AccessTokenProvider } from './hubspot-tokens.js';
import type { Resilience } from '../http/resilience.js';

/**
 * HubSpot-defined association type 1, "Primary" contact-to-company (279 is the unlabeled link, which HubSpot
 * adds by itself): developers.hubspot.com/docs/api/crm/associations, "Contact to company" type ids.
 */
const CONTACT_TO_PRIMARY_COMPANY = 1;

export interface HubSpotContactBookOptions {
  readonly baseUrl: string;
  /** `/crm/v3/objects` or a date-versioned `/crm/objects/2026-03`. */
  readonly objectsPath: string;
  readonly tokens: AccessTokenProvider;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  /** The HubSpot account id, to build a contact's web address when HubSpot sends none. */
  readonly portalId?: string;
  /** For Retry-After dates and daily-limit resets; the system clock by default. */
  readonly clock?: Clock;
  /** How long property definitions are kept (default 600 s; 0 reads them every time). */
  readonly propertyCacheSeconds?: number;
  /** Warnings (the daily quota counted in UTC for want of the account's time zone). */
  readonly warn?: (fields: Record<string, unknown>, message: string) => void;
}

/**
 * The ContactBook on HubSpot's CRM API (v3 or a date-versioned path): contacts, primary-company
 * matching by name, search, and property definitions. HubSpot's answers are decoded with io-ts and
 * its errors turned into the gateway's, with messages that say what to do next.
 */
export class HubSpotContactBook implements ContactBook {
  readonly #client: HubSpotClient;
  readonly #objects: string;
  readonly #portalId: string | undefined;
  readonly #clock: Clock;
  /** The account's id, web host and time zone, read once (`GET /account-info/v3/details`). */
  readonly #account: HubSpotAccount;
  /** Property definitions by object type (two entries at most), each for `propertyCacheSeconds`. */
  readonly #propertyCache: LRUCache<CrmObjectType, readonly PropertyDefinition[]>;

  constructor(options: HubSpotContactBookOptions) {
    this.#client = new HubSpotClient({
      baseUrl: options.baseUrl,
      tokens: options.tokens,
      timeoutMs: options.timeoutMs,
      resilience: options.resilience,
      clock: options.clock ?? { now: () => new Date() },
      ...(options.warn ? { warn: options.warn } : {}),
    });
    this.#clock = options.clock ?? { now: () => new Date() };
    this.#account = new HubSpotAccount(this.#client, this.#clock);
    this.#propertyCache = new LRUCache({ max: 2, ttl: (options.propertyCacheSeconds ?? 600) * 1000 || 1 });
    this.#objects = options.objectsPath.replace(/\/+$/, '');
    this.#portalId = options.portalId;
  }

  create(values: PropertyValues, returnProperties: readonly string[]): TaskEither<GatewayError, CreatedContact> {
    return () => this.#create(values, returnProperties);
  }

  get(id: ContactId, properties: readonly string[]): TaskEither<GatewayError, Contact> {
    return async () => {
      const sent = await this.#client.send({
        method: 'GET',
        url: this.#contactUrl(id),
        params: propertyParams(properties),
      });
      if (E.isLeft(sent)) return sent;
      const { res } = sent.right;
      if (res.status === 404) return E.left(await this.#missing(id));
      if (res.status !== 200) return E.left(this.#client.failure(OP.readContact, sent.right, { id }));
      const decoded = this.#decodeObject(res);
      if (E.isRight(decoded) && decoded.right.url === undefined) await this.#account.read();
      return E.map((o: SimplePublicObject) => this.#toContact(o))(decoded);
    };
  }

  update(id: ContactId, values: PropertyValues): TaskEither<GatewayError, Contact> {
    return async () => {
      const properties = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ?? '']));
      const sent = await this.#client.send({ method: 'PATCH', url: this.#contactUrl(id), data: { properties } });
      if (E.isLeft(sent)) return sent;
      const { res } = sent.right;
      if (res.status === 404) return E.left(await this.#missing(id));
      if (res.status !== 200) return E.left(this.#writeFailure(OP.updateContact, sent.right, { id, values }));
      // a property HubSpot leaves out of the answer was just cleared: it reads as null, as elsewhere
      return E.map((o: SimplePublicObject) => projectContact(this.#toContact(o), Object.keys(values)))(
        this.#decodeObject(res),
      );
    };
  }

  archive(id: ContactId): TaskEither<GatewayError, void> {
    return async () => {
      // HubSpot's DELETE is not relied on to tell an unknown id apart: the contact is read first.
      const read = await this.#client.send({ method: 'GET', url: this.#contactUrl(id), params: propertyParams([]) });
      if (E.isLeft(read)) return read;
      if (read.right.res.status === 404) {
        return (await this.#isArchived(id)) ? E.right(undefined) : E.left(this.#unknown(id));
      }
      if (read.right.res.status !== 200) return E.left(this.#client.failure(OP.readContact, read.right, { id }));
      const sent = await this.#client.send({ method: 'DELETE', url: this.#contactUrl(id) });
      if (E.isLeft(sent)) return sent;
      const { res } = sent.right;
      if (res.status === 204 || res.status === 200) return E.right(undefined);
      if (res.status === 404) return E.left(this.#unknown(id));
      return E.left(this.#client.failure(OP.archiveContact, sent.right, { id }));
    };
  }

  search(search: ContactSearch): TaskEither<GatewayError, ContactPage> {
    // HubSpot's search takes one sort (developers.hubspot.com/docs/api/crm/search: "only one sorting rule
    // can be applied to any search"); a second is refused here rather than dropped.
    if (search.sorts.length > 1)
      return TE.left(
        invalidInput(
          `HubSpot sorts a search by one property; ${search.sorts.length} were given. Keep the one that matters most, e.g. [{"propertyName":"${search.sorts[0]!.propertyName}","direction":"${search.sorts[0]!.direction ?? 'ASCENDING'}"}].`,
          'sorts',
          'at most one sort with HubSpot',
        ),
      );
    return async () => {
      const body = toSearchRequest(search);
      const sent = await this.#client.send({
        method: 'POST',
        url: `${this.#objects}/contacts/search`,
        data: body,
        idempotent: true,
      });
      if (E.isLeft(sent)) return sent;
      const { res } = sent.right;
      if (res.status !== 200) return E.left(this.#writeFailure(OP.searchContacts, sent.right, {}));
      const decoded = decodeOrUnexpected(
        SearchResponse,
        res.data,
        res.status,
        'a search answer needs "total" and "results" of objects with "id" and "properties"',
      );
      if (E.isLeft(decoded)) return decoded;
      const after = decoded.right.paging?.next?.after;
      return E.right({
        total: decoded.right.total,
        results: decoded.right.results.map((o) => this.#toContact(o)),
        ...(after ? { after } : {}),
      });
    };
  }

  /**
   * The property definitions, kept for `propertyCacheSeconds` (10 minutes by default) per object type; an answer
   * of HubSpot's naming a property that does not exist (PROPERTY_DOESNT_EXIST) drops them, as a property may
   * just have been deleted or renamed.
   */
  properties(objectType: CrmObjectType): TaskEither<GatewayError, readonly PropertyDefinition[]> {
    return async () => {
      const cached = this.#propertyCache.get(objectType);
      if (cached) return E.right(cached);
      const read = await this.#readProperties(objectType);
      if (E.isRight(read)) this.#propertyCache.set(objectType, read.right);
      return read;
    };
  }

  /** A failed write or search; one naming a property that does not exist drops the cached definitions. */
  #writeFailure(op: Operation, sent: Sent, ctx: ErrorContext): GatewayError {
    const error = this.#client.failure(op, sent, ctx);
    if (error._tag === 'InvalidInput' && error.details?.['hubspot_code'] === 'PROPERTY_DOESNT_EXIST')
      this.#propertyCache.clear();
    return error;
  }

  #readProperties(objectType: CrmObjectType): Promise<Either<GatewayError, readonly PropertyDefinition[]>> {
    return (async () => {
      const op = objectType === 'contacts' ? OP.contactProperties : OP.companyProperties;
      const sent = await this.#client.send({ method: 'GET', url: `/crm/v3/properties/${objectType}` });
      if (E.isLeft(sent)) return sent;
      const { res } = sent.right;
      if (res.status !== 200) return E.left(this.#client.failure(op, sent.right, {}));
      const decoded = decodeOrUnexpected(
        PropertiesResponse,
        res.data,
        res.status,
        'a property list needs "results" with "name", "label", "type" and "fieldType"',
      );
      return E.map((body: t.TypeOf<typeof PropertiesResponse>) => body.results.map(toDefinition))(decoded);
    })();
  }

  async #create(
    values: PropertyValues,
    returnProperties: readonly string[],
  ): Promise<Either<GatewayError, CreatedContact>> {
    const companyName = values['company']?.trim();
    let company: CompanyLink | undefined;
    if (companyName) {
      const found = await this.#matchOrCreateCompany(companyName);
      if (E.isLeft(found)) return found;
      company = found.right;
    }
    const properties = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== null));
    const associations = company
      ? [
          {
            to: { id: company.id },
            types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: CONTACT_TO_PRIMARY_COMPANY }],
          },
        ]
      : [];
    const sent = await this.#client.send({
      method: 'POST',
      url: `${this.#objects}/contacts`,
      data: { properties, associations },
    });
    if (E.isLeft(sent)) return sent;
    const { res } = sent.right;
    if (res.status !== 201 && res.status !== 200)
      return E.left(this.#writeFailure(OP.createContact, sent.right, { values }));
    const decoded = this.#decodeObject(res);
    if (E.isLeft(decoded)) return decoded;
    if (decoded.right.url === undefined) await this.#account.read();
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
    const search = await this.#client.send({
      method: 'POST',
      url: `${this.#objects}/companies/search`,
      idempotent: true,
      data: {
        filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQ', value: name }] }],
        sorts: ['createdate'],
        properties: ['name'],
        limit: 1,
        after: '0',
      },
    });
    if (E.isLeft(search)) return search;
    if (search.right.res.status !== 200) return E.left(this.#client.failure(OP.searchCompanies, search.right, {}));
    const found = decodeOrUnexpected(
      SearchResponse,
      search.right.res.data,
      200,
      'a company search answer needs "total" and "results"',
    );
    if (E.isLeft(found)) return found;
    const match = found.right.results[0];
    if (match) return E.right({ id: match.id, name: match.properties['name'] ?? name, created: false });

    const sent = await this.#client.send({
      method: 'POST',
      url: `${this.#objects}/companies`,
      data: { properties: { name }, associations: [] },
    });
    if (E.isLeft(sent)) return sent;
    const { res } = sent.right;
    if (res.status !== 201 && res.status !== 200) return E.left(this.#client.failure(OP.createCompany, sent.right, {}));
    return E.map((o: SimplePublicObject) => ({ id: o.id, name: o.properties['name'] ?? name, created: true }))(
      this.#decodeObject(res),
    );
  }

  /** NotFound for an id HubSpot does not serve as active: worded for the recycling bin when it is archived. */
  async #missing(id: ContactId): Promise<GatewayError> {
    return (await this.#isArchived(id))
      ? notFound(
          'contact',
          id,
          `Contact ${id} is archived (in HubSpot's recycling bin), so it cannot be read or changed here. crm_searchContacts finds active contacts.`,
        )
      : this.#unknown(id);
  }

  async #isArchived(id: ContactId): Promise<boolean> {
    const sent = await this.#client.send({
      method: 'GET',
      url: this.#contactUrl(id),
      params: propertyParams([], { archived: 'true' }),
    });
    return E.isRight(sent) && sent.right.res.status === 200;
  }

  #unknown(id: ContactId): GatewayError {
    return notFound('contact', id, `No contact with id ${id}. crm_searchContacts finds contact ids.`);
  }

  #contactUrl(id: ContactId): string {
    return `${this.#objects}/contacts/${encodeURIComponent(id)}`;
  }

  #decodeObject(res: AxiosResponse): Either<GatewayError, SimplePublicObject> {
    return decodeOrUnexpected(
      SimplePublicObject,
      res.data,
      res.status,
      'an object needs "id", "properties", "createdAt", "updatedAt" and "archived"',
    );
  }

  #toContact(o: SimplePublicObject): Contact {
    const portalId =
      this.#portalId ??
      (this.#account.details?.portalId !== undefined ? String(this.#account.details.portalId) : undefined);
    return toContact(o, {
      ...(portalId ? { portalId } : {}),
      ...(this.#account.details?.uiDomain ? { uiDomain: this.#account.details.uiDomain } : {}),
    });
  }
}
