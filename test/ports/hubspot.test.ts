import { afterAll, describe, expect, it } from 'vitest';
import { HubSpotContactBook } from '../../adapters/outbound/hubspot/hubspot-contact-book.js';
import { StaticAccessToken } from '../../adapters/outbound/hubspot/hubspot-tokens.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../fakes/hubspot-server.js';
import { contactBookContract } from './contact-book.contract.js';

const servers: HubSpotServer[] = [];

for (const objectsPath of ['/crm/v3/objects', '/crm/objects/2026-03']) {
  contactBookContract(`HubSpot (local stand-in) at ${objectsPath}`, async () => {
    const server = await HubSpotServer.start();
    servers.push(server);
    return {
      book: new HubSpotContactBook({
        baseUrl: server.baseUrl,
        objectsPath,
        tokens: new StaticAccessToken(HUBSPOT_TEST_TOKEN),
        timeoutMs: 5_000,
        portalId: '4242',
      }),
      // the server stays readable for the checks below; it is closed after them
      close: async () => {},
    };
  });
}

describe("HubSpot (local stand-in): every request the adapter sent matched HubSpot's OpenAPI documents", () => {
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('served both API versions', () => {
    expect(servers).toHaveLength(2);
    for (const s of servers) expect(s.requests.length).toBeGreaterThan(20);
    expect(servers[0]!.requests.some((r) => r.path.startsWith('/crm/v3/objects/contacts'))).toBe(true);
    expect(servers[1]!.requests.some((r) => r.path.startsWith('/crm/objects/2026-03/contacts'))).toBe(true);
  });

  it('checked the v3 companies and properties requests against their own official documents', () => {
    const ops = new Set(servers[0]!.requests.map((r) => r.operation));
    expect(ops).toContain('crm-companies-v3 POST /crm/v3/objects/companies/search');
    expect(ops).toContain('crm-companies-v3 POST /crm/v3/objects/companies');
    expect(ops).toContain('crm-properties-v3 GET /crm/v3/properties/{objectType}');
    expect([...ops].filter((o) => o?.startsWith('hand-written /crm/v3'))).toEqual([]);
  });

  it('recorded no request that departs from the documents', () => {
    expect(servers.flatMap((s) => s.specViolations)).toEqual([]);
  });

  it("answered only in the documents' response shapes", () => {
    expect(servers.flatMap((s) => s.responseViolations)).toEqual([]);
  });
});
