import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_401, OFFICIAL_V1_NON_US_NO_MATCH } from '../../fakes/batchdata-examples.js';
import { BatchDataServer, SKIP_TRACE_PATH } from '../../fakes/batchdata-server.js';

// The BatchData stand-in refuses what BatchData documents as invalid and answers like the published examples.

describe('BatchData stand-in', () => {
  let server: BatchDataServer;
  beforeAll(async () => {
    server = await BatchDataServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    axios.post(`${server.baseUrl}${SKIP_TRACE_PATH}`, body, {
      validateStatus: () => true,
      headers: {
        Authorization: `Bearer ${server.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...headers,
      },
    });

  it.each([
    ['no requests', { requests: [] }],
    ['too many requests', { requests: Array.from({ length: 101 }, () => ({ apn: '1', countyFipsCode: '17167' })) }],
    ['a street without zip or city and state', { requests: [{ propertyAddress: { street: '1 Main St' } }] }],
    ['a null member', { requests: [{ propertyAddress: { street: '1 Main St', zip: '11010', city: null } }] }],
    ['an apn without county', { requests: [{ apn: '504-33-221' }] }],
    ['an unknown member', { requests: [{ apn: '504-33-221', county: 'Maricopa', fips: '04013' }] }],
  ])('answers 400 and records a violation for %s', async (_label, body) => {
    const before = server.requestViolations.length;
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ status: { code: 400, text: 'Bad Request' } });
    expect(server.requestViolations.length).toBe(before + 1);
  });

  it('answers 401 in the shape of the published example for a missing token', async () => {
    const res = await post({ requests: [{ apn: '504-33-221', county: 'Maricopa' }] }, { Authorization: '' });
    expect(res.status).toBe(401);
    expect(res.data).toEqual(OFFICIAL_401);
  });

  it('answers a miss exactly like the published V1 example', async () => {
    const res = await post({
      requests: [{ propertyAddress: OFFICIAL_V1_NON_US_NO_MATCH.results.persons[0]?.propertyAddress }],
    });
    expect(res.data).toEqual(OFFICIAL_V1_NON_US_NO_MATCH);
  });
});
