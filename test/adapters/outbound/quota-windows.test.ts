import { describe, expect, it } from 'vitest';
import { QuotaWindows } from '../../../adapters/outbound/http/quota.js';

// What one connection has left of each vendor quota window, read from the answers' headers (issue 14).

const RESERVE = () => 10;

describe('QuotaWindows', () => {
  const T = Date.parse('2026-11-25T10:00:00Z');

  it("blocks for Podio's hour once the remaining count is down to the reserve, and frees on a higher count", () => {
    const q = new QuotaWindows(RESERVE);
    q.observe({ 'x-rate-limit-remaining': '11' }, T);
    expect(q.blocked(T)).toBeUndefined();
    q.observe({ 'x-rate-limit-remaining': '9' }, T);
    expect(q.blocked(T + 1000)).toEqual({ window: 'hourly', remaining: 9, waitMs: 3_600_000 - 1000 });
    // a later low reading keeps the hour counted from the first one
    q.observe({ 'x-rate-limit-remaining': '4' }, T + 60_000);
    expect(q.blocked(T + 60_000)).toMatchObject({ remaining: 4, waitMs: 3_540_000 });
    expect(q.blocked(T + 3_600_000)).toBeUndefined();
    q.observe({ 'x-rate-limit-remaining': '3' }, T + 3_600_001);
    q.observe({ 'x-rate-limit-remaining': '900' }, T + 3_600_002);
    expect(q.blocked(T + 3_600_003)).toBeUndefined();
  });

  it("waits out HubSpot's ten-second interval at zero, until an answer without the count comes through", () => {
    const q = new QuotaWindows(RESERVE);
    q.observe({ 'x-hubspot-ratelimit-remaining': '0', 'x-hubspot-ratelimit-interval-milliseconds': '10000' }, T);
    expect(q.blocked(T + 4000)).toEqual({ window: 'ten-second', remaining: 0, waitMs: 6000 });
    q.observe({}, T + 5000);
    expect(q.blocked(T + 5000)).toBeUndefined();
  });

  it("blocks for HubSpot's day until midnight (UTC) at the reserve; a reserve of 0 turns it off", () => {
    let reserve = 10;
    const q = new QuotaWindows(() => reserve);
    q.observe({ 'x-hubspot-ratelimit-daily-remaining': '10', 'x-hubspot-ratelimit-remaining': '50' }, T);
    expect(q.blocked(T)).toEqual({ window: 'daily', remaining: 10, waitMs: 14 * 3_600_000 });
    reserve = 0;
    expect(q.blocked(T)).toBeUndefined();
  });
});

describe("QuotaWindows: HubSpot's day in the account's time zone (issue 31)", () => {
  // 09:48:13 UTC: 51,107 s to midnight UTC (the measured wrong Retry-After), 69,107 s to midnight in New York (EST)
  const T = Date.parse('2026-11-27T09:48:13Z');
  const low = { 'x-hubspot-ratelimit-daily-remaining': '3' };

  it('waits until midnight in the zone, not in UTC', () => {
    const q = new QuotaWindows(RESERVE, { timeZone: () => 'America/New_York' });
    q.observe(low, T);
    expect(q.blocked(T)).toEqual({ window: 'daily', remaining: 3, waitMs: 69_107_000 });
    expect(q.longLow(T)).toEqual({ window: 'daily', remaining: 3, until: Date.parse('2026-11-28T05:00:00Z') });
  });

  it('counts a 23-hour day at the spring DST change and a 25-hour one in autumn', () => {
    const q = new QuotaWindows(RESERVE, { timeZone: () => 'America/New_York' });
    const springMidnight = Date.parse('2026-03-08T05:00:00Z'); // 00:00 EST, the day clocks go forward
    q.observe(low, springMidnight);
    expect(q.blocked(springMidnight)!.waitMs).toBe(23 * 3_600_000);
    const r = new QuotaWindows(RESERVE, { timeZone: () => 'America/New_York' });
    const autumnMidnight = Date.parse('2026-11-01T04:00:00Z'); // 00:00 EDT, the day clocks go back
    r.observe(low, autumnMidnight);
    expect(r.blocked(autumnMidnight)!.waitMs).toBe(25 * 3_600_000);
  });

  it('counts in UTC while the zone is unknown, says so once, and follows the zone once it is learnt', () => {
    const account: { zone?: string } = {};
    let told = 0;
    const q = new QuotaWindows(RESERVE, { timeZone: () => account.zone, unknown: () => told++ });
    q.observe(low, T);
    q.observe({ 'x-hubspot-ratelimit-daily-remaining': '2' }, T + 1000);
    expect(told).toBe(1);
    expect(q.blocked(T)!.waitMs).toBe(51_107_000);
    account.zone = 'America/New_York';
    expect(q.blocked(T)).toEqual({ window: 'daily', remaining: 2, waitMs: 69_107_000 });
  });

  it('takes a zone Intl does not know as unknown (UTC)', () => {
    let told = 0;
    const q = new QuotaWindows(RESERVE, { timeZone: () => 'Nowhere/Atlantis', unknown: () => told++ });
    q.observe(low, T);
    expect(told).toBe(1);
    expect(q.blocked(T)!.waitMs).toBe(51_107_000);
  });
});
