import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../../../adapters/inbound/oauth/guarded-fetch.js';
import { E } from '../../../../domain/shared/fp.js';
import type { FetchLimits, GuardedFetcher } from '../../../../ports/url-fetcher.js';
import { authorize, exchange, location, pkcePair, startHarness, type Harness } from './oauth-harness.js';

// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25 and later): a
// client names itself by an https URL, the server fetches the document there and holds the client to its
// redirect_uris. The documents are served by a stand-in `fetch`; the last test uses oidc-provider's own,
// which refuses private addresses.

const CLIENT = 'https://agent.example/oauth/client.json';
const documents: Record<string, unknown> = {
  [CLIENT]: {
    client_id: CLIENT,
    client_name: 'Example Agent',
    redirect_uris: ['http://127.0.0.1:9/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  },
  'https://agent.example/oauth/secret.json': {
    client_id: 'https://agent.example/oauth/secret.json',
    redirect_uris: ['http://127.0.0.1:9/callback'],
    token_endpoint_auth_method: 'client_secret_basic',
  },
};
const fetched: string[] = [];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    clientIdMetadataDocuments: {
      allowFetch: (url) => new URL(url).hostname !== 'blocked.example',
      fetch: (input) => {
        const url = String(input instanceof Request ? input.url : input);
        fetched.push(url);
        const doc = documents[url];
        return Promise.resolve(
          doc
            ? new Response(JSON.stringify(doc), {
                headers: { 'content-type': 'application/json', 'cache-control': 'max-age=300' },
              })
            : new Response('not found', { status: 404 }),
        );
      },
    },
  });
});
afterAll(() => h.close());

const authorizeUrl = (clientId: string, redirectUri = 'http://127.0.0.1:9/callback') =>
  `${h.base}/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    scope: 'crm:read',
  })}`;

describe('Client ID Metadata Documents', () => {
  it('are advertised in the metadata', async () => {
    const m = (await (await fetch(`${h.base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(m['client_id_metadata_document_supported']).toBe(true);
  });

  it('a client named by its document URL signs in, consents and gets tokens, with no registration', async () => {
    const client = { client_id: CLIENT, redirect_uris: ['http://127.0.0.1:9/callback'] };
    const a = await authorize(h, client, { scope: 'crm:read' });
    const t = await exchange(h, client, a);
    expect(t.status).toBe(200);
    expect(t.body.scope).toBe('crm:read');
    expect(await h.as.verifyAccessToken(t.body.access_token)).toMatchObject({ clientId: CLIENT });
    expect(fetched).toContain(CLIENT);
  });

  it("the sign-in page names the document's client", async () => {
    const res = await fetch(authorizeUrl(CLIENT), { redirect: 'manual' });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = await fetch(location(res, h.base), { headers: { cookie } });
    expect(await page.text()).toContain('Example Agent');
  });

  it('a redirect_uri not in the document gets an error page, never a redirect', async () => {
    const res = await fetch(authorizeUrl(CLIENT, 'https://attacker.example/callback'), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('a document URL the policy refuses is never fetched', async () => {
    const url = 'https://blocked.example/client.json';
    const res = await fetch(authorizeUrl(url), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(fetched).not.toContain(url);
  });

  it('a document that is missing, or asks for a shared secret, is refused', async () => {
    for (const url of ['https://agent.example/oauth/missing.json', 'https://agent.example/oauth/secret.json']) {
      const res = await fetch(authorizeUrl(url), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('with the library fetch, a document URL on a private address is refused', async () => {
    const own = await startHarness({ clientIdMetadataDocuments: {} });
    try {
      for (const url of ['https://127.0.0.1/client.json', 'https://10.1.2.3/client.json']) {
        const res = await fetch(
          `${own.base}/authorize?${new URLSearchParams({
            response_type: 'code',
            client_id: url,
            redirect_uri: 'http://127.0.0.1:9/callback',
            code_challenge: pkcePair().challenge,
            code_challenge_method: 'S256',
          })}`,
          { redirect: 'manual' },
        );
        expect(res.status).toBe(400);
        expect(await res.text()).toContain('invalid_client');
      }
    } finally {
      await own.close();
    }
  });
});

describe('guardedFetch (the URL guard as the fetch of Client ID Metadata Documents)', () => {
  const doc = documents[CLIENT];
  const asked: { url: string; limits?: FetchLimits }[] = [];
  const guard: GuardedFetcher = {
    get: (url, limits) => () => {
      asked.push({ url, limits });
      if (url.includes('10.0.0.1'))
        return Promise.resolve(
          E.left({ _tag: 'InvalidInput', message: 'the address is not public', parameter: 'url' }),
        );
      return Promise.resolve(
        E.right({
          status: 200,
          url,
          headers: { 'content-type': 'application/json', 'cache-control': 'max-age=60' },
          body: new TextEncoder().encode(JSON.stringify(doc)),
        }),
      );
    },
  };

  it('answers what the guard fetched, within a size limit', async () => {
    const res = await guardedFetch(guard)(CLIENT, { method: 'GET', headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('max-age=60');
    expect(await res.json()).toEqual(doc);
    expect(asked.at(-1)).toEqual({ url: CLIENT, limits: { maxBytes: 65536, accept: 'application/json' } });
  });

  it('fails like fetch when the guard refuses, and never sends anything but GET', async () => {
    await expect(guardedFetch(guard)('https://10.0.0.1/client.json')).rejects.toThrow(/not public/);
    await expect(guardedFetch(guard)(CLIENT, { method: 'POST' })).rejects.toThrow(/only GET/);
  });

  it('serves an authorization server end to end', async () => {
    const guarded = await startHarness({ clientIdMetadataDocuments: { fetch: guardedFetch(guard) } });
    try {
      const client = { client_id: CLIENT, redirect_uris: ['http://127.0.0.1:9/callback'] };
      const t = await exchange(guarded, client, await authorize(guarded, client, { scope: 'crm:read' }));
      expect(t.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
