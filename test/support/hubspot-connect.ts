import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import pino from 'pino';
import type { FixedClock } from '../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { HubSpotServer } from '../fakes/hubspot-server.js';
import { finishInBrowser, openConnectLink } from './connect-flow.js';

// The world of the connect-in-the-conversation tests (issue 43): a gateway whose CRM is the HubSpot stand-in,
// reached by OAuth through the gateway's own connect page, and the person who follows a connect URL.

/** The settings of a gateway on the HubSpot stand-in with OAuth (callback at https://gateway.example). */
export const hubspotOAuthEnv = (hubspot: HubSpotServer): Record<string, string> => ({
  CRM_BACKEND: 'hubspot',
  HUBSPOT_BASE_URL: hubspot.baseUrl,
  HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
  HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
  PUBLIC_BASE_URL: 'https://gateway.example',
});

/**
 * The person: opens a connect URL on `g`, signs in to the gateway with `key` (the caller's), approves at the
 * HubSpot stand-in's OAuth page and lands on the callback. The callback's status.
 */
export const connectAsPerson = async (g: Gateway, hubspot: HubSpotServer, url: string, key: string) => {
  const flow = await openConnectLink(g, url, key);
  const code = hubspot.grantCode({
    redirectUri: 'https://gateway.example/oauth/callback',
    codeChallenge: flow.authorize.searchParams.get('code_challenge')!,
  });
  const done = await finishInBrowser(
    g,
    flow,
    `code=${encodeURIComponent(code)}&state=${encodeURIComponent(flow.state)}`,
  );
  return done.status;
};

export interface HubSpotConnectWorld {
  readonly hubspot: HubSpotServer;
  readonly g: Gateway;
  /** The gateway's loopback address when `listen` was asked for, else ''. */
  readonly base: string;
  close(): Promise<void>;
}

/**
 * A HubSpot stand-in and one gateway on it with a data folder of its own (`prefix` names it), the API keys
 * given and a rate limit out of the way; served on a loopback port when `listen`.
 */
export const startHubSpotConnect = async (options: {
  readonly prefix: string;
  readonly clock: FixedClock;
  readonly keys: ReadonlyArray<{ name: string; token: string; permissions: string[]; tenant: string }>;
  readonly env?: (hubspot: HubSpotServer) => Record<string, string>;
  readonly listen?: boolean;
}): Promise<HubSpotConnectWorld> => {
  const hubspot = await HubSpotServer.start({ clock: options.clock });
  const dataDir = mkdtempSync(join(tmpdir(), `gateway-${options.prefix}-`));
  const g = createGateway({
    env: {
      ...hubspotOAuthEnv(hubspot),
      GATEWAY_DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '100000',
      GATEWAY_API_KEYS: JSON.stringify(options.keys),
      ...options.env?.(hubspot),
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock: options.clock },
  });
  let server: ServerType | undefined;
  let base = '';
  if (options.listen) {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: g.http.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
        resolve(),
      );
    });
    base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }
  return {
    hubspot,
    g,
    base,
    close: async () => {
      if (server) await new Promise((resolve) => server!.close(resolve));
      await g.close();
      await hubspot.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
