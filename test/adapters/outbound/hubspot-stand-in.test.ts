import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../../fakes/hubspot-server.js';

// The HubSpot stand-in (test/fakes/hubspot-server.ts) that the contact book's tests run against holds the
// requests it gets to HubSpot's OpenAPI documents, so a request HubSpot would refuse fails the tests there.

describe("the stand-in holds requests to HubSpot's OpenAPI documents", () => {
  let server: HubSpotServer;
  const auth = { Authorization: `Bearer ${HUBSPOT_TEST_TOKEN}` };
  beforeAll(async () => {
    server = await HubSpotServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('rejects and records a body member the document does not declare', async () => {
    const res = await axios.post(
      `${server.baseUrl}/crm/v3/objects/contacts`,
      { properties: { email: 'stray@example.com' }, associations: [], idProperty: 'email' },
      { headers: auth, validateStatus: () => true },
    );
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(server.specViolations).toHaveLength(1);
    expect(server.specViolations[0]!.problems.join()).toContain('"idProperty"');
  });

  it('rejects object sorts, a numeric cursor, and `properties[]` query names', async () => {
    const before = server.specViolations.length;
    const body = {
      filterGroups: [],
      sorts: [{ propertyName: 'email', direction: 'ASCENDING' }],
      properties: [],
      limit: 10,
      after: 0,
    };
    const search = await axios.post(`${server.baseUrl}/crm/objects/2026-03/contacts/search`, body, {
      headers: auth,
      validateStatus: () => true,
    });
    expect(search.status).toBe(400);
    const read = await axios.get(`${server.baseUrl}/crm/v3/objects/contacts/51?properties[]=email`, {
      headers: auth,
      validateStatus: () => true,
    });
    expect(read.status).toBe(400);
    const problems = server.specViolations.slice(before).flatMap((v) => v.problems);
    expect(problems).toEqual(expect.arrayContaining(['body/sorts/0 must be string', 'body/after must be string']));
    expect(problems.some((p) => p.includes('"properties[]" is not declared'))).toBe(true);
  });

  it('rejects the documentation example that sends the association id as a number', async () => {
    const before = server.specViolations.length;
    const company = await axios.post(
      `${server.baseUrl}/crm/v3/objects/companies`,
      { properties: { name: 'Numeric Id Co' }, associations: [] },
      { headers: auth },
    );
    const body = {
      properties: { email: 'numeric@example.com' },
      associations: [
        {
          to: { id: Number(company.data.id) },
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }],
        },
      ],
    };
    const res = await axios.post(`${server.baseUrl}/crm/v3/objects/contacts`, body, {
      headers: auth,
      validateStatus: () => true,
    });
    expect(res.status).toBe(400);
    expect(server.specViolations.slice(before).flatMap((v) => v.problems)).toEqual([
      'body/associations/0/to/id must be string',
    ]);
  });

  it('rejects a request without a bearer token', async () => {
    const res = await axios.get(`${server.baseUrl}/crm/v3/objects/contacts/51`, { validateStatus: () => true });
    expect(res.status).toBe(401);
    expect(server.specViolations[server.specViolations.length - 1]!.problems[0]).toContain('Authorization');
  });
});
