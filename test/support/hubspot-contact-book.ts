// The HubSpot contact book as its tests build it (test/adapters/outbound/hubspot-contact-book*.test.ts):
// against a HubSpot stand-in, at a fixed time, with a portal id for record links.
import { HubSpotContactBook } from '../../adapters/outbound/hubspot/hubspot-contact-book.js';
import { StaticAccessToken } from '../../adapters/outbound/hubspot/hubspot-tokens.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { HUBSPOT_TEST_TOKEN, type HubSpotServer } from '../fakes/hubspot-server.js';

/** The book's clock: 18:00 UTC, so a daily limit resets six hours later (in UTC). */
const NOW = new Date('2026-03-10T18:00:00.000Z');
/** A search with no filters or sorts, for the answers' mapping. */
export const search = { filterGroups: [], sorts: [], properties: ['email'], limit: 10 };

export const bookFor = (server: HubSpotServer, token = HUBSPOT_TEST_TOKEN, baseUrl = server.baseUrl) =>
  new HubSpotContactBook({
    baseUrl,
    objectsPath: '/crm/v3/objects',
    tokens: new StaticAccessToken(token),
    timeoutMs: 3_000,
    portalId: '4242',
    clock: new FixedClock(NOW),
  });

export const lastRequest = (server: HubSpotServer) => server.requests[server.requests.length - 1]!;
