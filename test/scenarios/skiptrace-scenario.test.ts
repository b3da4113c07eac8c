import { describe, expect, it } from 'vitest';
import { post, testGateway } from '../support/gateway.js';

// "Skip-trace the top lead's property", from the tools alone, in memory mode: the demo skip tracer knows
// the owner of every property of the demo Properties app, by the address the app holds.

const field = (record: any, externalId: string) => record.fields.find((f: any) => f.external_id === externalId)?.value;

describe('skip-tracing a lead’s property', () => {
  it('goes from the best-scored lead to its property’s owner, with numbers marked OK to call or not', async () => {
    const g = testGateway();
    const leads = await post(g, '/v1/tools/records/filterRecords?format=json', {
      app_id: 3001,
      filters: [{ field_id: 'property', match_type: 'not_empty', values: [] }],
      sort_by: 'score',
      sort_desc: true,
      limit: 1,
    });
    const lead = leads.body.data.records[0];
    const propertyId = field(lead, 'property')[0].record_id ?? field(lead, 'property')[0].id;
    expect(propertyId).toBeGreaterThan(0);

    const property = (await post(g, '/v1/tools/records/getRecord?format=json', { record_id: propertyId })).body.data;
    const street = field(property, 'address');
    const location = String(field(property, 'location')?.value ?? field(property, 'location'));
    const zip = /\b(\d{5})$/.exec(location)?.[1];
    expect(zip, location).toBeDefined();

    const traced = await post(g, '/v1/tools/skiptrace/skipTraceProperty', { street, zip });
    expect(traced.status).toBe(200);
    expect(traced.body.data).toContain(street);
    expect(traced.body.data).toMatch(/\| phone \| OK to call \|/);
    expect(traced.body.data).not.toContain('matched: false');
  });

  it('knows every demo property, and its flags make some numbers not OK to call', async () => {
    // every property in one JSON page: a budget out of the way
    const g = testGateway({}, { GATEWAY_OUTPUT_BUDGET_CHARS: '10000000' });
    const page = await post(g, '/v1/tools/records/listRecords?format=json', { app_id: 3002, limit: 100 });
    const properties = page.body.data.records;
    expect(properties.length).toBe(24);
    let notOk = 0;
    let ok = 0;
    for (const p of properties) {
      const location = String(field(p, 'location')?.value ?? field(p, 'location'));
      const zip = /\b(\d{5})$/.exec(location)?.[1];
      const r = await post(g, '/v1/tools/skiptrace/skipTraceProperty?format=json', {
        street: field(p, 'address'),
        zip,
      });
      expect(r.status, location).toBe(200);
      const person = r.body.data.results.persons[0];
      expect(person.meta.matched, location).toBe(true);
      for (const phone of person.phoneNumbers) {
        const blocked =
          phone.dnc || phone.tcpa || phone.reachable === false || person.litigator || person.death.deceased;
        if (blocked) notOk++;
        else ok++;
      }
    }
    expect(ok).toBeGreaterThan(0);
    expect(notOk).toBeGreaterThan(0);
  });
});
