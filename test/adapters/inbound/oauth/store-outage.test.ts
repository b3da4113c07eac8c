import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded } from '../../../../adapters/outbound/persistence/databases.js';
import { sqlOAuthStore } from '../../../../adapters/outbound/persistence/oauth-store.js';
import { encryptionKey, newEncryptionKey, SecretBox } from '../../../../adapters/outbound/persistence/secret-box.js';
import { Browser, location, pkcePair, register, startHarness, type Harness, type Registered } from './oauth-harness.js';
import { switchableStore } from './switchable-store.js';

// Issue 37/38: while the authorization server's store is away, its endpoints answer 503 with Retry-After (JSON
// `temporarily_unavailable` for clients, a page for browsers), never oidc-provider's bare 500; they work again
// when it is back. The store here is one the test takes away; pg-faults-audit.test.ts cuts a real PostgreSQL.

const store = switchableStore();
let h: Harness;
let client: Registered;
beforeAll(async () => {
  h = await startHarness({ adapter: store.factory });
  client = await register(h.base);
});
afterAll(() => h.close());

const unavailable = async (res: Response, kind: 'json' | 'html') => {
  const body = await res.text();
  expect(res.status, body).toBe(503);
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  if (kind === 'json') expect(JSON.parse(body)).toMatchObject({ error: 'temporarily_unavailable' });
  else expect(body).toMatch(/<html|<!doctype/i);
};

describe('the authorization server while its store is away', () => {
  it('/register, /token, /authorize, /revoke and the sign-in page answer 503 with Retry-After', async () => {
    // A sign-in started while the store was there: its page is asked for after it went.
    const browser = new Browser();
    const { challenge } = pkcePair();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0]!,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
      resource: h.resource,
    });
    const interaction = location(await browser.go(`${h.base}/authorize?${query}`), h.base);

    store.down = true;
    try {
      await unavailable(
        await fetch(`${h.base}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
        }),
        'json',
      );
      const form = (fields: Record<string, string>) => ({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
      await unavailable(
        await fetch(
          `${h.base}/token`,
          form({ grant_type: 'refresh_token', refresh_token: 'r'.repeat(43), client_id: client.client_id }),
        ),
        'json',
      );
      await unavailable(
        await fetch(`${h.base}/revoke`, form({ token: 'r'.repeat(43), client_id: client.client_id })),
        'json',
      );
      await unavailable(await browser.go(interaction.href, { headers: { accept: 'text/html' } }), 'html');
      await unavailable(await browser.post(`${interaction.href}/login`, { api_key: 'ops-key-0123456789' }), 'html');
      await unavailable(await fetch(`${h.base}/authorize?${query}`, { headers: { accept: 'text/html' } }), 'html');
    } finally {
      store.down = false;
    }
    expect((await register(h.base)).client_id).toBeTruthy();
  });
});

describe('on the embedded SQLite store', () => {
  it('/register and /token answer 503 with Retry-After once its database is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oauth-outage-'));
    const open = await openEmbedded(dir);
    const sqlite = sqlOAuthStore({
      database: () => Promise.resolve(open),
      box: new SecretBox(encryptionKey(newEncryptionKey())),
    });
    const server = await startHarness({ adapter: sqlite.adapter });
    try {
      const registered = await register(server.base);
      await open.db.destroy(); // the file's database closed under the server: every query fails
      await unavailable(
        await fetch(`${server.base}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
        }),
        'json',
      );
      await unavailable(
        await fetch(`${server.base}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: 'r'.repeat(43),
            client_id: registered.client_id,
          }),
        }),
        'json',
      );
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
