import { hubspotConnector } from '../../adapters/outbound/hubspot/hubspot-connector.js';
import { HubSpotContactBook } from '../../adapters/outbound/hubspot/hubspot-contact-book.js';
import { OAuthRefreshingAccessToken, StaticAccessToken } from '../../adapters/outbound/hubspot/hubspot-tokens.js';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { ContactBook } from '../../ports/contact-book.js';
import { TokenStore } from '../../ports/token-store.js';
import { EnvVar, enumVar, optionalString, urlVar } from '../env.js';
import { bindOnce, defineGroup } from '../group-module.js';

export type CrmConfig =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'hubspot';
      readonly baseUrl: string;
      readonly objectsPath: string;
      readonly portalId?: string;
      readonly auth:
        | { readonly kind: 'private-app'; readonly accessToken: string }
        | {
            readonly kind: 'oauth';
            readonly clientId: string;
            readonly clientSecret: string;
            readonly refreshToken: string;
          };
      /** The gateway's HubSpot app for connect flows (HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET). */
      readonly app?: { readonly clientId: string; readonly clientSecret: string; readonly scopes: readonly string[] };
      readonly appUrl: string;
    };

const hubspotVersionVar = new EnvVar<string>('version', 'v3 or a date version such as 2026-03', (raw) =>
  raw === undefined
    ? { ok: true, value: 'v3' }
    : raw === 'v3' || /^\d{4}-\d{2}$/.test(raw)
      ? { ok: true, value: raw }
      : { ok: false },
);

const DEFAULT_SCOPES =
  'crm.objects.contacts.read crm.objects.contacts.write crm.objects.companies.read crm.objects.companies.write';

export const crmGroup = defineGroup({
  name: 'crm',
  environment: [
    ['CRM_BACKEND', 'memory', 'crm tools: memory or hubspot.'],
    ['HUBSPOT_ACCESS_TOKEN', '(none)', 'HubSpot private-app (static) token. Or use the three OAuth variables below.'],
    [
      'HUBSPOT_CLIENT_ID',
      '(none)',
      'HubSpot OAuth app client id (with HUBSPOT_CLIENT_SECRET and HUBSPOT_REFRESH_TOKEN).',
    ],
    ['HUBSPOT_CLIENT_SECRET', '(none)', 'HubSpot OAuth app client secret.'],
    ['HUBSPOT_REFRESH_TOKEN', '(none)', 'HubSpot OAuth refresh token; access tokens are refreshed before they expire.'],
    ['HUBSPOT_BASE_URL', 'https://api.hubapi.com', 'HubSpot API base URL.'],
    ['HUBSPOT_API_VERSION', 'v3', 'v3 (/crm/v3/objects) or a date version such as 2026-03 (/crm/objects/2026-03).'],
    ['HUBSPOT_PORTAL_ID', '(none)', 'HubSpot account id, used to build contact web links when HubSpot returns none.'],
    [
      'HUBSPOT_OAUTH_SCOPES',
      'crm.objects.contacts.read crm.objects.contacts.write crm.objects.companies.read crm.objects.companies.write',
      'Scopes the connect flow asks for (space-separated), with the app of HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET.',
    ],
    ['HUBSPOT_APP_URL', 'https://app.hubspot.com', 'Where a person authorizes the app in the connect flow.'],
  ],
  env: {
    CRM_BACKEND: enumVar(['memory', 'hubspot'], 'memory'),
    HUBSPOT_ACCESS_TOKEN: optionalString,
    HUBSPOT_CLIENT_ID: optionalString,
    HUBSPOT_CLIENT_SECRET: optionalString,
    HUBSPOT_REFRESH_TOKEN: optionalString,
    HUBSPOT_BASE_URL: urlVar('https://api.hubapi.com'),
    HUBSPOT_API_VERSION: hubspotVersionVar,
    HUBSPOT_PORTAL_ID: optionalString,
    HUBSPOT_OAUTH_SCOPES: optionalString,
    HUBSPOT_APP_URL: urlVar('https://app.hubspot.com'),
  },
  configure: (v, problems): CrmConfig => {
    if (v.CRM_BACKEND !== 'hubspot') return { kind: 'memory' };
    const required = (name: 'HUBSPOT_CLIENT_ID' | 'HUBSPOT_CLIENT_SECRET' | 'HUBSPOT_REFRESH_TOKEN'): string => {
      const value = v[name];
      if (!value) problems.push(`${name} is required when CRM_BACKEND=hubspot and HUBSPOT_ACCESS_TOKEN is not set.`);
      return value ?? '';
    };
    const version = v.HUBSPOT_API_VERSION;
    const accessToken = v.HUBSPOT_ACCESS_TOKEN;
    const app =
      v.HUBSPOT_CLIENT_ID && v.HUBSPOT_CLIENT_SECRET
        ? {
            clientId: v.HUBSPOT_CLIENT_ID,
            clientSecret: v.HUBSPOT_CLIENT_SECRET,
            scopes: (v.HUBSPOT_OAUTH_SCOPES ?? DEFAULT_SCOPES).split(/\s+/).filter(Boolean),
          }
        : undefined;
    return {
      kind: 'hubspot',
      ...(app ? { app } : {}),
      appUrl: v.HUBSPOT_APP_URL,
      baseUrl: v.HUBSPOT_BASE_URL,
      objectsPath: version === 'v3' ? '/crm/v3/objects' : `/crm/objects/${version}`,
      portalId: v.HUBSPOT_PORTAL_ID,
      auth: accessToken
        ? { kind: 'private-app', accessToken }
        : {
            kind: 'oauth',
            clientId: required('HUBSPOT_CLIENT_ID'),
            clientSecret: required('HUBSPOT_CLIENT_SECRET'),
            refreshToken: required('HUBSPOT_REFRESH_TOKEN'),
          },
    };
  },
  bind: (container, config, { clock, logger, demoData, upstreamTimeoutMs }) =>
    bindOnce(container, ContactBook, () => {
      if (config.kind === 'memory')
        return demoData ? InMemoryContactBook.withDemoData({ clock }) : new InMemoryContactBook({ clock });
      const tokens =
        config.auth.kind === 'private-app'
          ? new StaticAccessToken(config.auth.accessToken)
          : new OAuthRefreshingAccessToken({
              baseUrl: config.baseUrl,
              clientId: config.auth.clientId,
              clientSecret: config.auth.clientSecret,
              refreshToken: config.auth.refreshToken,
              clock,
              timeoutMs: upstreamTimeoutMs,
              store: container.isBound(TokenStore) ? container.get(TokenStore) : undefined,
              onRefreshTokenRotated: () =>
                logger.info('HubSpot rotated the refresh token; the new one is kept in the token store.'),
            });
      return new HubSpotContactBook({
        baseUrl: config.baseUrl,
        objectsPath: config.objectsPath,
        tokens,
        timeoutMs: upstreamTimeoutMs,
        portalId: config.portalId,
      });
    }),
  vendor: 'hubspot',
  connector: (config, { clock, upstreamTimeoutMs }) =>
    config.kind === 'memory'
      ? undefined
      : hubspotConnector({
          apiBaseUrl: config.baseUrl,
          appBaseUrl: config.appUrl,
          objectsPath: config.objectsPath,
          timeoutMs: upstreamTimeoutMs,
          clock,
          ...(config.app ? { app: config.app } : {}),
        }),
  bindConnection: (container, config, { clock, upstreamTimeoutMs }, { connection, tokens }) => {
    if (config.kind === 'memory') return;
    const app = config.app;
    const source =
      connection.kind === 'key' || !app
        ? new StaticAccessToken(connection.secret.apiKey ?? connection.secret.accessToken ?? '')
        : new OAuthRefreshingAccessToken({
            baseUrl: config.baseUrl,
            clientId: app.clientId,
            clientSecret: app.clientSecret,
            refreshToken: connection.secret.refreshToken ?? '',
            clock,
            timeoutMs: upstreamTimeoutMs,
            store: tokens,
            connection: 'connection',
          });
    bindOnce(
      container,
      ContactBook,
      () =>
        new HubSpotContactBook({
          baseUrl: config.baseUrl,
          objectsPath: config.objectsPath,
          tokens: source,
          timeoutMs: upstreamTimeoutMs,
          portalId: connection.details['portalId'],
        }),
    );
  },
  describe: (config) => config.kind,
});
