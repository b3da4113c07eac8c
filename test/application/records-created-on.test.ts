import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEADS_APP } from '../../adapters/outbound/memory/demo/records.js';
import { podioSetup } from './records-podio-gateway.js';

// Issue 31, doubtful points: Podio's created_on filter is sent as a day, `{"from"|"to": "YYYY-MM-DD"}`, the
// form date filters take (developers.podio.com/doc/filters documents no datetime form for it). A bound with
// hours is cut to its day for Podio and the gateway filters the hours over Podio's answer; a bound on the
// day's first (from) or last (to) second is the same filter as the day, and stays one call.

describe('records filtered by created_on over Podio', () => {
  let s: Awaited<ReturnType<typeof podioSetup>>;
  let early: number;
  let late: number;
  beforeAll(async () => {
    s = await podioSetup();
    // 2026-11-21 10:00 and 14:00 UTC
    const a = await s.call('createRecord', { app_id: LEADS_APP, fields: { name: 'Created at ten' } });
    s.clock.advance(4 * 3_600_000);
    const b = await s.call('createRecord', { app_id: LEADS_APP, fields: { name: 'Created at two' } });
    s.clock.advance(3_600_000);
    early = a.data.record_id;
    late = b.data.record_id;
  });
  afterAll(() => s.close());

  const filtered = async (match: 'on_or_after' | 'on_or_before', value: string, limit = 20) => {
    const before = s.server.apiRequests().length;
    const r = await s.call('filterRecords', {
      app_id: LEADS_APP,
      filters: [{ field_type: 'created_on', match_type: match, values: [{ value }] }],
      limit,
    });
    expect(r.status).toBe(200);
    const filters = s.server
      .apiRequests()
      .slice(before)
      .filter((q) => q.path === `/item/app/${LEADS_APP}/filter/`)
      .map((q) => q.body as { filters: Record<string, unknown>; limit: number });
    return { ids: r.data.records.map((x: any) => x.record_id as number), records: r.data.records, filters };
  };

  it('on_or_after with hours: the day to Podio, the hours in the gateway', async () => {
    const { ids, records, filters } = await filtered('on_or_after', '2026-11-21 12:00:00');
    expect(filters[0]!.filters['created_on']).toEqual({ from: '2026-11-21' });
    expect(ids).toContain(late);
    expect(ids).not.toContain(early);
    expect(records.every((r: any) => r.created_on >= '2026-11-21 12:00:00')).toBe(true);
  });

  it('on_or_before with hours: the day to Podio, the hours in the gateway', async () => {
    // every record of the demo app was made before: read them all
    const { ids, records, filters } = await filtered('on_or_before', '2026-11-21 12:00:00', 500);
    expect(filters[0]!.filters['created_on']).toEqual({ to: '2026-11-21' });
    expect(ids).toContain(early);
    expect(ids).not.toContain(late);
    expect(records.every((r: any) => r.created_on <= '2026-11-21 12:00:00')).toBe(true);
  });

  it('a whole day is the same filter for Podio: one call with the caller page', async () => {
    const { ids, filters } = await filtered('on_or_after', '2026-11-21');
    expect(filters).toHaveLength(1);
    expect(filters[0]!.filters['created_on']).toEqual({ from: '2026-11-21' });
    expect(filters[0]!.limit).toBe(20);
    expect(ids).toEqual(expect.arrayContaining([early, late]));
    const to = await filtered('on_or_before', '2026-11-21 23:59:59');
    expect(to.filters).toHaveLength(1);
    expect(to.filters[0]!.filters['created_on']).toEqual({ to: '2026-11-21' });
  });
});
