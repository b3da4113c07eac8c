import {
  archiveContact,
  newContact,
  PRIMARY_COMPANY_PROPERTY,
  projectContact,
  updateContact,
  type Company,
  type CompanyLink,
  type Contact,
  type ContactId,
  type CrmObjectType,
  type PropertyValues,
} from '../../../domain/crm/contact.js';
import { validatePropertyValues, type PropertyDefinition } from '../../../domain/crm/property.js';
import {
  compareContacts,
  matchesFilterGroups,
  matchesQuery,
  SEARCH_LIMITS,
  type ContactPage,
  type ContactSearch,
} from '../../../domain/crm/search.js';
import { conflict, invalidInput, notFound, type GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { ContactBook, CreatedContact } from '../../../ports/contact-book.js';
import { companyPropertyDefinitions, contactPropertyDefinitions, demoCompanies, demoContacts } from './demo/crm.js';
import { DEFAULT_DEMO_LIMITS, roomFor, type DemoLimits } from './demo-limits.js';

export interface InMemoryContactBookOptions {
  readonly clock: Clock;
  readonly contactProperties?: readonly PropertyDefinition[];
  readonly companyProperties?: readonly PropertyDefinition[];
  /** The web address of a contact; the demo uses a `memory://` address, since nothing serves it. */
  readonly contactUrl?: (id: ContactId) => string;
  /** How many contacts and companies it holds at most (archived contacts count). */
  readonly limits?: Pick<DemoLimits, 'contacts' | 'companies'>;
}

const byName = (defs: readonly PropertyDefinition[]) => new Map(defs.map((d) => [d.name, d]));

/**
 * A CRM held in memory that behaves like HubSpot where the tools can tell: property validation,
 * unique emails, archive instead of delete, company matching, search semantics and cursors.
 */
export class InMemoryContactBook implements ContactBook {
  private readonly contacts = new Map<ContactId, Contact>();
  private readonly companies = new Map<string, Company>();
  private readonly contactDefs: Map<string, PropertyDefinition>;
  private readonly companyDefs: Map<string, PropertyDefinition>;
  private nextContactId = 101;
  private nextCompanyId = 9001;
  private readonly clock: Clock;
  private readonly contactUrl: (id: ContactId) => string;
  private readonly limits: Pick<DemoLimits, 'contacts' | 'companies'>;

  constructor(options: InMemoryContactBookOptions) {
    this.clock = options.clock;
    this.limits = options.limits ?? DEFAULT_DEMO_LIMITS;
    this.contactDefs = byName(options.contactProperties ?? contactPropertyDefinitions);
    this.companyDefs = byName(options.companyProperties ?? companyPropertyDefinitions);
    this.contactUrl = options.contactUrl ?? ((id) => `memory://crm/contacts/${id}`);
  }

  /** A contact book holding the demo companies and contacts (ids from 101), created one day apart from 2026-01-05. */
  static withDemoData(options: InMemoryContactBookOptions): InMemoryContactBook {
    const book = new InMemoryContactBook(options);
    const base = Date.UTC(2026, 0, 5, 9, 0, 0);
    for (const c of demoCompanies)
      book.addCompany(c.name, { domain: c.domain, city: c.city, state: c.state, industry: c.industry }, new Date(base));
    demoContacts.forEach((values, i) => {
      const created = book.insert(values, new Date(base + i * 86_400_000));
      if (E.isLeft(created)) throw new Error(`demo contact ${i}: ${created.left.message}`);
    });
    return book;
  }

  create(values: PropertyValues, returnProperties: readonly string[]): TaskEither<GatewayError, CreatedContact> {
    return pipe(
      TE.fromEither(this.insert(values, this.clock.now())),
      TE.map(({ contact, company }) => ({
        contact: this.project(contact, [...returnProperties, ...Object.keys(values)]),
        company,
      })),
    );
  }

  get(id: ContactId, properties: readonly string[]): TaskEither<GatewayError, Contact> {
    const found = this.active(id);
    return () => Promise.resolve(E.isRight(found) ? E.right(this.project(found.right, properties)) : found);
  }

  update(id: ContactId, values: PropertyValues): TaskEither<GatewayError, Contact> {
    return TE.fromEither(
      pipe(
        this.active(id),
        E.chainFirstW(() => validatePropertyValues(this.contactDefs, values)),
        E.chainFirstW((c) => this.emailIsFree(values['email'], c.id)),
        E.chainW((c) => updateContact(c, values, this.clock.now())),
        E.map((c) => {
          this.contacts.set(c.id, c);
          return this.project(c, Object.keys(values));
        }),
      ),
    );
  }

  archive(id: ContactId): TaskEither<GatewayError, void> {
    const contact = this.contacts.get(id);
    if (!contact) return TE.left(this.missing(id));
    this.contacts.set(id, archiveContact(contact, this.clock.now()));
    return TE.right(undefined);
  }

  search(search: ContactSearch): TaskEither<GatewayError, ContactPage> {
    const offset = search.after === undefined ? 0 : Number(search.after);
    if (!Number.isSafeInteger(offset) || offset < 0 || !/^\d+$/.test(search.after ?? '0')) {
      return TE.left(
        invalidInput(
          `"after" must be a cursor returned by a previous page; got "${search.after}".`,
          'after',
          'cursor string',
        ),
      );
    }
    if (offset >= SEARCH_LIMITS.maxResults) {
      return TE.left(
        invalidInput(
          `A search can page through at most ${SEARCH_LIMITS.maxResults} results; narrow the filters.`,
          'after',
          'cursor string',
        ),
      );
    }
    const matching = [...this.contacts.values()]
      .filter(
        (c) =>
          !c.archived &&
          matchesFilterGroups(c.properties, search.filterGroups) &&
          matchesQuery(c.properties, search.query),
      )
      .sort(compareContacts(search.sorts));
    const page = matching.slice(offset, offset + search.limit);
    const end = offset + page.length;
    return TE.right({
      total: matching.length,
      results: page.map((c) => this.project(c, search.properties)),
      ...(end < matching.length && end < SEARCH_LIMITS.maxResults ? { after: String(end) } : {}),
    });
  }

  properties(objectType: CrmObjectType): TaskEither<GatewayError, readonly PropertyDefinition[]> {
    return TE.right([...(objectType === 'contacts' ? this.contactDefs : this.companyDefs).values()]);
  }

  /** Every company, for tests and the demo (not part of the port). */
  listCompanies(): readonly Company[] {
    return [...this.companies.values()];
  }

  private insert(values: PropertyValues, now: Date): Either<GatewayError, { contact: Contact; company?: CompanyLink }> {
    return pipe(
      validatePropertyValues(this.contactDefs, values),
      E.chainW(() => this.emailIsFree(values['email'])),
      E.chainW(() => roomFor('contacts', this.contacts.size, this.limits.contacts)),
      E.chainW(() => roomFor('companies', this.companies.size, this.limits.companies)),
      E.map(() => {
        const id = String(this.nextContactId++);
        const companyName = values['company']?.trim();
        const company = companyName ? this.matchOrCreateCompany(companyName, now) : undefined;
        const contact = newContact(
          id,
          { ...values, ...(company ? { [PRIMARY_COMPANY_PROPERTY]: company.id } : {}) },
          now,
          this.contactUrl(id),
        );
        this.contacts.set(id, contact);
        return { contact, company };
      }),
    );
  }

  private matchOrCreateCompany(name: string, now: Date): CompanyLink {
    const existing = [...this.companies.values()].find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (existing) return { id: existing.id, name: existing.name, created: false };
    const created = this.addCompany(name, {}, now);
    return { id: created.id, name: created.name, created: true };
  }

  private addCompany(name: string, properties: Record<string, string>, now: Date): Company {
    const id = String(this.nextCompanyId++);
    const company: Company = {
      id,
      name,
      properties: { ...properties, name, createdate: now.toISOString(), hs_object_id: id },
      createdAt: now.toISOString(),
    };
    this.companies.set(id, company);
    return company;
  }

  private emailIsFree(email: string | null | undefined, self?: ContactId): Either<GatewayError, void> {
    if (!email) return E.right(undefined);
    const lower = email.toLowerCase();
    const taken = [...this.contacts.values()].find(
      (c) => !c.archived && c.id !== self && c.properties['email']?.toLowerCase() === lower,
    );
    return taken
      ? E.left(
          conflict(`A contact with email ${email} already exists (id ${taken.id}). Update that contact instead.`, {
            existing_id: taken.id,
          }),
        )
      : E.right(undefined);
  }

  private active(id: ContactId): Either<GatewayError, Contact> {
    const c = this.contacts.get(id);
    if (!c) return E.left(this.missing(id));
    if (c.archived) {
      return E.left(
        notFound(
          'contact',
          id,
          `Contact ${id} is archived (in the recycling bin), so it cannot be read or changed here. crm_searchContacts finds active contacts.`,
        ),
      );
    }
    return E.right(c);
  }

  private missing(id: ContactId): GatewayError {
    return notFound('contact', id, `No contact with id ${id}. crm_searchContacts finds contact ids.`);
  }

  private project(c: Contact, properties: readonly string[]): Contact {
    return projectContact(c, properties, (name) => this.contactDefs.has(name));
  }
}
