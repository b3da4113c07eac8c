import { hubspotConnector } from '../../adapters/outbound/hubspot/hubspot-connector.js';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { ContactBook } from '../../ports/contact-book.js';
import { EnvVar, enumVar, optionalString, urlVar } from '../env.js';
import { bindOnce, defineGroup, onFirstUse } from '../group-module.js';
import type { HubSpotConfig } from './crm-hubspot.js';

/** The HubSpot adapters, imported on the first HubSpot connection (crm-hubspot.ts). */
const hubspot = onFirstUse(() => import('./crm-hubspot.js'));

export type CrmConfig = { readonly kind: 'memory' } | HubSpotConfig;

const hubspotVersionVar = new EnvVar<string>(
  'version',
  'v3 or a date version such as 2026-03',
  (raw) =>
    raw === undefined
      ? { ok: true, value: 'v3' }
      : raw === 'v3' || /^\d{4}-\d{2}$/.test(raw)
        ? { ok: true, value: raw }
        : { ok: false },
  'v3',
);

const DEFAULT_SCOPES =
  'crm.objects.contacts.read crm.objects.contacts.write crm.objects.companies.read crm.objects.companies.write';

export const crmGroup = defineGroup({
  name: 'crm',
  env: {
    CRM_BACKEND: enumVar(['memory', 'hubspot'], 'memory').doc('crm tools: memory or hubspot.'),
    HUBSPOT_ACCESS_TOKEN: optionalString.doc(
      "HubSpot private-app (static) token of the operator's own account: the default tenant's connection. Or HUBSPOT_REFRESH_TOKEN with the app.",
    ),
    HUBSPOT_CLIENT_ID: optionalString.doc(
      "The gateway's HubSpot app (with HUBSPOT_CLIENT_SECRET): tenants connect their own portals through it. Enough on its own for a multi-tenant deployment.",
    ),
    HUBSPOT_CLIENT_SECRET: optionalString.doc('HubSpot app client secret.'),
    HUBSPOT_REFRESH_TOKEN: optionalString.doc(
      "OAuth refresh token of the operator's own portal (needs the app): the default tenant's connection; access tokens are refreshed before they expire.",
    ),
    HUBSPOT_BASE_URL: urlVar('https://api.hubapi.com').doc('HubSpot API base URL.'),
    HUBSPOT_API_VERSION: hubspotVersionVar.doc(
      'v3 (/crm/v3/objects) or a date version such as 2026-03 (/crm/objects/2026-03).',
    ),
    HUBSPOT_PORTAL_ID: optionalString.doc(
      "The operator's HubSpot account id, used to build contact web links when HubSpot returns none.",
    ),
    HUBSPOT_OAUTH_SCOPES: optionalString.doc(
      'Scopes the connect flow asks for (space-separated), with the app of HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET.',
      DEFAULT_SCOPES,
    ),
    HUBSPOT_APP_URL: urlVar('https://app.hubspot.com').doc('Where a person authorizes the app in the connect flow.'),
  },
  configure: (v, problems): CrmConfig => {
    if (v.CRM_BACKEND !== 'hubspot') return { kind: 'memory' };
    const version = v.HUBSPOT_API_VERSION;
    const app =
      v.HUBSPOT_CLIENT_ID && v.HUBSPOT_CLIENT_SECRET
        ? {
            clientId: v.HUBSPOT_CLIENT_ID,
            clientSecret: v.HUBSPOT_CLIENT_SECRET,
            scopes: (v.HUBSPOT_OAUTH_SCOPES ?? DEFAULT_SCOPES).split(/\s+/).filter(Boolean),
          }
        : undefined;
    if (Boolean(v.HUBSPOT_CLIENT_ID) !== Boolean(v.HUBSPOT_CLIENT_SECRET))
      problems.push('HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET go together.');
    if (v.HUBSPOT_ACCESS_TOKEN && v.HUBSPOT_REFRESH_TOKEN)
      problems.push('Set only one HubSpot sign-in: HUBSPOT_ACCESS_TOKEN or HUBSPOT_REFRESH_TOKEN.');
    if (v.HUBSPOT_REFRESH_TOKEN && !app)
      problems.push('HUBSPOT_REFRESH_TOKEN needs the app that issued it: HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET.');
    const account = v.HUBSPOT_ACCESS_TOKEN
      ? ({ kind: 'private-app', accessToken: v.HUBSPOT_ACCESS_TOKEN } as const)
      : v.HUBSPOT_REFRESH_TOKEN
        ? ({ kind: 'oauth', refreshToken: v.HUBSPOT_REFRESH_TOKEN } as const)
        : undefined;
    return {
      kind: 'hubspot',
      ...(app ? { app } : {}),
      ...(account ? { account } : {}),
      appUrl: v.HUBSPOT_APP_URL,
      baseUrl: v.HUBSPOT_BASE_URL,
      objectsPath: version === 'v3' ? '/crm/v3/objects' : `/crm/objects/${version}`,
      ...(v.HUBSPOT_PORTAL_ID ? { portalId: v.HUBSPOT_PORTAL_ID } : {}),
    };
  },
  bind: (container, config, { clock, demoData }) => {
    if (config.kind === 'memory')
      bindOnce(container, ContactBook, () =>
        demoData ? InMemoryContactBook.withDemoData({ clock }) : new InMemoryContactBook({ clock }),
      );
  },
  vendor: 'hubspot',
  connector: (config, { clock, upstreamTimeoutMs, resilience }) =>
    config.kind === 'memory'
      ? undefined
      : hubspotConnector({
          apiBaseUrl: config.baseUrl,
          appBaseUrl: config.appUrl,
          objectsPath: config.objectsPath,
          timeoutMs: upstreamTimeoutMs,
          resilience,
          clock,
          ...(config.app ? { app: config.app } : {}),
        }),
  environmentConnection: (config) => {
    if (config.kind === 'memory' || !config.account) return undefined;
    const details: Record<string, string> = {
      ...(config.portalId ? { portalId: config.portalId } : {}),
      ...(config.app ? { clientId: config.app.clientId } : {}),
    };
    return config.account.kind === 'private-app'
      ? { kind: 'key', details, secret: { apiKey: config.account.accessToken } }
      : { kind: 'oauth', details, secret: { refreshToken: config.account.refreshToken } };
  },
  bindConnection: async (container, config, shared, binding) => {
    if (config.kind !== 'memory') (await hubspot()).bindHubSpotConnection(container, config, shared, binding);
  },
  describe: (config) => config.kind,
});
