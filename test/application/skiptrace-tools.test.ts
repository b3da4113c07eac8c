import { describe, expect, it } from 'vitest';
import { everyone, testGateway } from '../support/gateway.js';

const g = testGateway();
const trace = (args: unknown, format: 'text' | 'json' = 'text') =>
  g.callTool('skiptrace_skipTraceProperty', args, { principal: everyone, format });

describe('skiptrace_skipTraceProperty in memory', () => {
  it('finds the owner by address and shows phones best first with their flags', async () => {
    const r = await trace({ street: '1011 Rosegold St', city: 'Franklin Square', state: 'ny', zip: '11010' });
    expect(r.status).toBe(200);
    const text = r.body.success ? String(r.body.data) : '';
    expect(text).toContain('## Skip trace: 1011 Rosegold St, Franklin Square, NY 11010');
    expect(text).toContain('### 1. Eleanor J Whitfield');
    expect(text.indexOf('5165550142')).toBeLessThan(text.indexOf('5165550178'));
    expect(text).toContain('eleanor.whitfield@example.com (tested)');
  });

  it('returns the BatchData-shaped result with format=json', async () => {
    const r = await trace({ apn: '504-33-221', county: 'Maricopa', state: 'AZ' }, 'json');
    const data = r.body.success ? (r.body.data as any) : undefined;
    expect(data.status).toEqual({ code: 200, text: 'OK' });
    expect(data.results.meta).toMatchObject({
      apiVersion: 'v1',
      results: { requestCount: 1, matchCount: 1, noMatchCount: 0, errorCount: 0 },
    });
    expect(data.results.meta.performance).toHaveProperty('totalRequestTime');
    expect(data.results.persons[0]).toMatchObject({
      name: { last: 'Ortega' },
      dnc: { tcpa: true },
      bankruptcy: { bankruptcy: true, filingDate: '2024-06-11' },
    });
  });

  it('says for each phone whether it may be called and why not, in the text and in JSON (issue 41)', async () => {
    const args = { street: '1011 Rosegold St', zip: '11010' };
    const text = String(((await trace(args)).body as any).data);
    const json = ((await trace(args, 'json')).body as any).data;
    const phones = json.results.persons[0].phoneNumbers as any[];
    const blocked = phones.find((p) => p.dnc);
    const fine = phones.find((p) => !p.dnc && !p.tcpa && p.reachable !== false);
    expect(blocked).toMatchObject({
      ok_to_call: false,
      do_not_call_reasons: ['the number is on the Do Not Call list'],
    });
    expect(fine).toMatchObject({ ok_to_call: true });
    expect(fine).not.toHaveProperty('do_not_call_reasons');
    expect(text).toContain(`| ${blocked.number} | no: the number is on the Do Not Call list |`);
    expect(text).toContain(`| ${fine.number} | yes |`);
  });

  it('warns about litigators and the deceased in the text', async () => {
    const r = await trace({ apn: '14-28-107-006', county_fips_code: '17167' });
    const text = r.body.success ? String(r.body.data) : '';
    expect(text).toContain('deceased');
    expect(text).toContain('known TCPA litigator');
  });

  it('reports no match with matched false and noMatchCount 1', async () => {
    const json = await trace({ street: '145 Adelaide St W', city: 'Toronto', state: 'ON', zip: 'M5H 4' }, 'json');
    const data = json.body.success ? (json.body.data as any) : undefined;
    expect(data.results.persons[0].meta).toEqual({ matched: false, error: false });
    expect(data.results.meta.results.noMatchCount).toBe(1);
    const text = await trace({ street: '145 Adelaide St W', city: 'Toronto', state: 'ON', zip: 'M5H 4' });
    expect(text.body.success && text.body.data).toContain('No owner found for this property (not billed).');
  });

  it('says what is needed when the property is not identified', async () => {
    for (const [args, parameter] of [
      [{}, 'street'],
      [{ city: 'Buckeye', state: 'AZ' }, 'street'],
      [{ street: '25866 W Globe Ave' }, 'zip'],
      [{ apn: '504-33-221' }, 'county'],
    ] as const) {
      const r = await trace(args);
      expect(r.status).toBe(400);
      expect(!r.body.success && r.body.error.details.parameter).toBe(parameter);
      expect(!r.body.success && r.body.error.message).toContain('Identify the property by address');
    }
  });

  it('wants a two-letter state code', async () => {
    const r = await trace({ street: '1011 Rosegold St', city: 'Franklin Square', state: 'New York' });
    expect(r.status).toBe(400);
    expect(!r.body.success && r.body.error.details).toEqual({ parameter: 'state', expected: 'two-letter code' });
  });
});
