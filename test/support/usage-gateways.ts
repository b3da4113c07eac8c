import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { HubSpotServer, HUBSPOT_TEST_TOKEN } from '../fakes/hubspot-server.js';
import { NOW, request } from './gateway.js';

/**
 * The gateways of a usage test file (issue 32), closed after it with their data folders and the HubSpot
 * stand-in: `gateway(env)` at the fixed NOW, `call` a tool as JSON, `hubspotInstance(token, env)` a gateway of
 * its own data folder whose CRM is the stand-in.
 */
export const usageGateways = () => {
  const gateways: Gateway[] = [];
  const dirs: string[] = [];
  let hubspot: HubSpotServer | undefined;
  afterAll(async () => {
    for (const g of gateways) await g.close();
    await hubspot?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const gateway = (env: Record<string, string>): Gateway => {
    const g = createGateway({ env, logger: pino({ level: 'silent' }), overrides: { clock: new FixedClock(NOW) } });
    gateways.push(g);
    return g;
  };
  const call = (g: Gateway, token: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(g, 'POST', `/v1/tools/${path}?format=json`, { body, token, headers });
  /** A fresh data folder, removed after the file. */
  const dataDir = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  /** The environment of a gateway with a data folder of its own, one admin key, and HubSpot's stand-in as its CRM. */
  const hubspotEnv = async (adminToken: string, dir = dataDir('usage-')): Promise<Record<string, string>> => {
    hubspot ??= await HubSpotServer.start();
    return {
      GATEWAY_DATA_DIR: dir,
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'admin', token: adminToken, permissions: ['*'] }]),
      CRM_BACKEND: 'hubspot',
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
    };
  };
  /** Closes one before the end (a restart, or an instance that adds its last counts as it closes). */
  const closeNow = async (g: Gateway): Promise<void> => {
    gateways.splice(gateways.indexOf(g), 1);
    await g.close();
  };
  return { gateway, call, dataDir, hubspotEnv, closeNow };
};
