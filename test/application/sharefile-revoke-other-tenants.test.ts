import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../adapters/outbound/http/resilience.js';
import { openEmbedded } from '../../adapters/outbound/persistence/databases.js';
import { encryptionKey, newEncryptionKey, SecretBox } from '../../adapters/outbound/persistence/secret-box.js';
import { SqlConnectionStore } from '../../adapters/outbound/persistence/sql-connection-store.js';
import { shareFileRevoker } from '../../adapters/outbound/sharefile/sharefile-revoke.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { revokeAtVendor } from '../../application/connections/revoke-at-vendor.js';
import type { Connection } from '../../ports/connection-store.js';
import type { VendorConnector } from '../../ports/vendor-connector.js';
import { SHAREFILE_TEST_CLIENT, startShareFileServer, type ShareFileStandIn } from '../fakes/sharefile-server.js';

// Issue 42: DELETE Apps(id) ends the gateway app's grant for the whole ShareFile user, so deleting one
// connection skips the revoke (and says so) while a stored connection of another tenant belongs to the same
// ShareFile user; the store is asked across tenants (withDetail), not only the tenant's own list.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('ShareFile revoke and the same user in another tenant', () => {
  const clock = new FixedClock(new Date('2026-11-28T10:00:00.000Z'));
  const dir = mkdtempSync(join(tmpdir(), 'gateway-revoke-'));
  let fake: ShareFileStandIn;
  let store: SqlConnectionStore;
  const connector = (): VendorConnector => ({
    vendor: 'sharefile',
    label: 'ShareFile',
    revoke: shareFileRevoker({
      ...SHAREFILE_TEST_CLIENT,
      authorizeBaseUrl: fake.url,
      oauthBaseUrl: fake.url,
      apiBaseUrl: fake.apiBaseUrl,
      timeoutMs: 5000,
      clock,
    }),
  });
  const sharefile = (tenant: string, user: string): Connection => ({
    tenant,
    vendor: 'sharefile',
    owner: '',
    kind: 'oauth',
    status: 'connected',
    label: 'acme.sharefile.com',
    details: { app_id: SHAREFILE_TEST_CLIENT.clientId, user_id: user },
    secret: { accessToken: 'sf-static-token', expiresAt: Date.parse('2026-11-28T18:00:00.000Z') },
    connectedAt: new Date('2026-11-25T10:00:00.000Z'),
  });
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    store = new SqlConnectionStore((await openEmbedded(dir)).db, new SecretBox(encryptionKey(newEncryptionKey())));
  });
  afterAll(async () => {
    await store.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const gatewayApp = (user: string) => {
    fake.connectedApps.splice(0, fake.connectedApps.length, {
      Id: SHAREFILE_TEST_CLIENT.clientId,
      Name: 'Tool Gateway',
      Active: true,
      UserId: user,
    });
    fake.revokedApps.splice(0);
  };

  it("skips the revoke while another tenant's connection belongs to the same ShareFile user", async () => {
    gatewayApp('u-shared');
    const mine = sharefile('tenant-a', 'u-shared');
    await store.save(mine);
    await store.save(sharefile('tenant-b', 'u-shared'));
    const said = await revokeAtVendor(connector(), store, mine);
    expect(fake.revokedApps).toEqual([]);
    expect(said).toContain('1 other connection of the gateway uses the same ShareFile user');
  });

  it("revokes when the other tenant's connection is another user's, or gone", async () => {
    gatewayApp('u-alone');
    const mine = sharefile('tenant-c', 'u-alone');
    await store.save(mine);
    await store.save(sharefile('tenant-d', 'u-someone-else'));
    expect(await revokeAtVendor(connector(), store, mine)).toContain('was revoked');
    expect(fake.revokedApps).toEqual([SHAREFILE_TEST_CLIENT.clientId]);

    gatewayApp('u-shared');
    await store.remove('tenant-b', 'sharefile', '');
    expect(await revokeAtVendor(connector(), store, sharefile('tenant-a', 'u-shared'))).toContain('was revoked');
  });
});
