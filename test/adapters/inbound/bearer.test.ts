import { describe, expect, it } from 'vitest';
import { authenticateBearer, bearerToken } from '../../../adapters/inbound/http/bearer.js';
import type { Authenticator, Principal } from '../../../ports/authenticator.js';
import { DEMO_TOKEN, request, testGateway } from '../../support/gateway.js';

// The one reader of `Authorization: Bearer <token>` (adapters/inbound/http/bearer.ts), and every surface
// that reads a bearer token agreeing with it: the same header forms accepted and refused everywhere.

const ACCEPTED: readonly [string, string][] = [
  ['Bearer abc', 'abc'],
  ['bearer abc', 'abc'],
  ['BEARER abc', 'abc'],
  ['Bearer \tabc', 'abc'],
  ['Bearer abc  ', 'abc'],
  ['Bearer abc\t', 'abc'],
  ['Bearer a.b-c_d~e+f/g=', 'a.b-c_d~e+f/g='],
];

const REFUSED: readonly string[] = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer  ',
  'Bearerabc',
  'Basic YWxhZGRpbjpvcGVuc2VzYW1l',
  'Bearer abc def',
  ' Bearer abc',
  'Token abc',
];

describe('bearerToken', () => {
  it.each(ACCEPTED)('reads %j as %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each(REFUSED)('finds no bearer token in %j', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });

  it('finds none without a header', () => {
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('authenticateBearer', () => {
  const alice: Principal = { id: 'key:alice', name: 'alice', permissions: new Set(['*']), tenant: 'default' };
  const asked: string[] = [];
  const sync: Authenticator = {
    authenticate: (token) => (asked.push(token), token === 'good' ? alice : { reason: 'unknown token' }),
  };
  const async: Authenticator = { authenticate: (token) => Promise.resolve(sync.authenticate(token)) };

  it('says missing without a header, malformed for another form, and asks the authenticator nothing', () => {
    asked.length = 0;
    expect(authenticateBearer(sync, undefined)).toEqual({ kind: 'missing' });
    expect(authenticateBearer(sync, 'Basic abc')).toEqual({ kind: 'malformed' });
    expect(authenticateBearer(sync, 'Bearer')).toEqual({ kind: 'malformed' });
    expect(asked).toEqual([]);
  });

  it('answers at once when the authenticator does (no promise), with the token', () => {
    expect(authenticateBearer(sync, 'Bearer good')).toEqual({ kind: 'principal', token: 'good', principal: alice });
    expect(authenticateBearer(sync, 'bearer bad')).toEqual({ kind: 'refused', token: 'bad', reason: 'unknown token' });
  });

  it('waits for an authenticator that answers later', async () => {
    const pending = authenticateBearer(async, 'Bearer good');
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ kind: 'principal', token: 'good', principal: alice });
    expect(await authenticateBearer(async, 'Bearer bad')).toMatchObject({ kind: 'refused', reason: 'unknown token' });
  });
});

describe('every surface reads the bearer token the same way', () => {
  const gateway = testGateway();
  const list = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: {},
  };
  /** The status each surface answers for one Authorization header. */
  const statuses = async (authorization: string | undefined) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const rest = await request(gateway, 'POST', '/v1/tools/crm/getContact', {
      token: null,
      headers: { ...headers, 'content-type': 'application/json' },
      rawBody: JSON.stringify({ contact_id: '101' }),
    });
    const callable = await request(gateway, 'GET', '/v1/tools?callable=true', { token: null, headers });
    const mcp = await request(gateway, 'POST', '/mcp', {
      token: null,
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      rawBody: JSON.stringify(list),
    });
    const connections = await request(gateway, 'GET', '/v1/connections', { token: null, headers });
    return { rest: rest.status, callable: callable.status, mcp: mcp.status, connections: connections.status };
  };

  it.each(ACCEPTED.map(([form, token]) => form.replace(token, DEMO_TOKEN)))(
    'accepts %j on REST, /docs sign-in, MCP and connections',
    async (form) => {
      expect(await statuses(form)).toEqual({
        rest: 200,
        callable: 200,
        mcp: 200,
        connections: 200,
      });
    },
  );

  it.each([undefined, 'Basic abc', `Bearer ${DEMO_TOKEN} extra`, `Bearer${DEMO_TOKEN}`, 'Bearer not-a-token'])(
    'refuses %j with 401 on every one of them',
    async (form) => {
      expect(await statuses(form)).toEqual({ rest: 401, callable: 401, mcp: 401, connections: 401 });
    },
  );
});
