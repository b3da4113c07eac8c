// Adding a vendor: a vendor is an adapter for the ports its tools use. Here an "Acme CRM" adapter implements
// the ContactBook port (ports/contact-book.ts) that every crm tool runs on, and the gateway is built with it
// in place of the configured one. A real vendor adapter lives in adapters/outbound/<vendor>/ (its client over
// createVendorHttp, its codecs, its error mapping), passes the port's contract suite
// (test/ports/contact-book.contract.ts), and is bound by its group module (composition/groups/crm.ts) from
// a connection; passing it as an override, as here, is how tests and embedding services swap one in.
// CI type-checks and runs this file (`npx tsx docs/examples/add-a-vendor.ts`).
import type { Contact, ContactId } from '../../domain/crm/contact.js';
import { notFound, type GatewayError } from '../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../domain/shared/fp.js';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { SystemClock } from '../../adapters/outbound/system-clock.js';
import { createGateway, principal } from '../../composition/library.js';
import type { ContactBook } from '../../ports/contact-book.js';

/** What Acme's API would answer for one contact (stands in for its HTTP client). */
const ACME: Record<string, { readonly first: string; readonly last: string; readonly email: string }> = {
  '7007': { first: 'Ada', last: 'Quill', email: 'ada@acme.example' },
};

/**
 * The Acme adapter: `get` maps Acme's record to the domain's Contact and an unknown id to NOT_FOUND; the
 * other methods are delegated to the memory book here only to keep the example short.
 */
class AcmeContactBook implements ContactBook {
  readonly #rest = new InMemoryContactBook({ clock: new SystemClock() });

  get(id: ContactId, properties: readonly string[]): TaskEither<GatewayError, Contact> {
    const row = ACME[String(id)];
    if (!row) return TE.left(notFound('contact', String(id), `Acme has no contact ${String(id)}.`));
    const all: Record<string, string> = { firstname: row.first, lastname: row.last, email: row.email };
    const wanted = properties.length ? properties : Object.keys(all);
    return TE.right({
      id,
      properties: Object.fromEntries(wanted.filter((p) => p in all).map((p) => [p, all[p]!])),
      createdAt: '2026-01-05T09:00:00.000Z',
      updatedAt: '2026-01-05T09:00:00.000Z',
      archived: false,
      url: `https://crm.acme.example/contacts/${String(id)}`,
    });
  }
  create: ContactBook['create'] = (...a) => this.#rest.create(...a);
  update: ContactBook['update'] = (...a) => this.#rest.update(...a);
  archive: ContactBook['archive'] = (...a) => this.#rest.archive(...a);
  search: ContactBook['search'] = (...a) => this.#rest.search(...a);
  properties: ContactBook['properties'] = (...a) => this.#rest.properties(...a);
}

const gateway = createGateway({
  env: { LOG_LEVEL: 'silent' },
  overrides: { contactBook: new AcmeContactBook() },
});
const reader = principal('acme-reader', ['crm:read']);
const ada = await gateway.callTool('crm_getContact', { contact_id: '7007' }, { principal: reader, format: 'json' });
const missing = await gateway.callTool('crm_getContact', { contact_id: '7008' }, { principal: reader });
await gateway.close();

const checks: [string, boolean][] = [
  ['the crm tool answers from the Acme adapter', ada.status === 200 && JSON.stringify(ada.body).includes('Ada')],
  ["the adapter's NOT_FOUND reaches the caller as 404", missing.status === 404],
];
for (const [what, ok] of checks) process.stdout.write(`${ok ? 'ok' : 'FAILED'}  ${what}\n`);
if (checks.some(([, ok]) => !ok)) process.exit(1);
