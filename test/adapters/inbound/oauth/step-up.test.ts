import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, exchange, register, startHarness, type Harness, type Registered } from './oauth-harness.js';

// Step-up (issue 37): what a client registers in `scope` (usually the read scopes of the first 401 challenge)
// is what it asks for first, not the most it may ever hold. Later it asks for a write scope, and then a
// destructive one, and gets each once the person consents; the limits are the key's permissions and the
// consent page. For each way a client comes to be known: dynamic registration, a Client ID Metadata
// Document, and the operator's configuration.

const READ = 'crm:read files:read records:read';
const CALLBACK = 'http://127.0.0.1:9/callback';
const DOCUMENT = 'https://agent.example/oauth/reader.json';
const CONFIGURED = 'configured-reader';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    clients: [
      {
        client_id: CONFIGURED,
        client_name: 'Configured reader',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'crm:read',
      },
    ],
    clientIdMetadataDocuments: {
      fetch: () =>
        Promise.resolve(
          new Response(
            JSON.stringify({
              client_id: DOCUMENT,
              client_name: 'Document reader',
              redirect_uris: [CALLBACK],
              grant_types: ['authorization_code', 'refresh_token'],
              response_types: ['code'],
              token_endpoint_auth_method: 'none',
              scope: 'crm:read',
            }),
            { headers: { 'content-type': 'application/json' } },
          ),
        ),
    },
  });
});
afterAll(() => h.close());

/** Read, then write, then destructive: each a new authorization request with the scopes accumulated. */
const stepsUp = async (client: Registered) => {
  const steps = ['crm:read', 'crm:read crm:write', 'crm:read crm:write crm:destructive'];
  const granted: string[] = [];
  for (const scope of steps) {
    const t = await exchange(h, client, await authorize(h, client, { scope, key: 'admin-key-0123456789' }));
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    granted.push(t.body.scope as string);
    const who = await h.as.verifyAccessToken(t.body.access_token as string);
    expect('permissions' in who && [...who.permissions].sort()).toEqual(scope.split(' ').sort());
  }
  expect(granted).toEqual(steps);
};

describe('step-up past the scopes a client first asked for', () => {
  it('a dynamically registered client (registered with the read scopes) gets write, then destructive', async () => {
    const client = await register(h.base, { scope: READ });
    await stepsUp(client);
  });

  it('the registration answer lists every scope the client may ask for, and an unknown scope is still refused', async () => {
    const res = await fetch(`${h.base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', scope: READ }),
    });
    const body = (await res.json()) as { scope: string };
    expect(body.scope.split(' ')).toEqual(expect.arrayContaining(['crm:read', 'crm:write', 'crm:destructive']));
    const unknown = await fetch(`${h.base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', scope: 'crm:read admin' }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it('a client named by its metadata document (which says crm:read) steps up too', async () => {
    await stepsUp({ client_id: DOCUMENT, redirect_uris: [CALLBACK] });
  });

  it('a client from the configuration (scope crm:read) steps up too', async () => {
    await stepsUp({ client_id: CONFIGURED, redirect_uris: [CALLBACK] });
  });

  it("the key's permissions still bound what a step-up gets", async () => {
    const client = await register(h.base, { scope: 'crm:read' });
    // The reader key holds crm:read only: the write is withheld on the consent page, the read granted.
    const t = await exchange(
      h,
      client,
      await authorize(h, client, { scope: 'crm:read crm:write', key: 'reader-key-0123456789' }),
    );
    expect(t.status).toBe(200);
    expect(t.body.scope).toBe('crm:read');
  });
});
